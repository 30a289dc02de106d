/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd.h - the daemon's cmd room: every control command (ibrouterctl(8)),
 * the table of them and the handlers in its files.  The room sits above the
 * others: a command reads and asks the ctl/, learn/ and port/ rooms, and the
 * core only through its hooks (d->hooks: reload).
 */
#ifndef IBRD_CMD_H
#define IBRD_CMD_H

#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/ctl/ibrd_out.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/port/ibrd_port.h"

#include <stdbool.h>

typedef int ibrd_cmd_fn(struct ibrd *d, struct ibrd_out *o, int argc, char **argv);

/*
 * ibrd_cmd.c: the handler of the protocol's command (ibr_ctl_cmds, lib/ibr_ctl.h: words,
 * privilege, usage) of these words (sub NULL: one word), or NULL; and the words of every
 * handler, up to max (their count), so that a test checks the two tables against each other.
 */
ibrd_cmd_fn *ibrd_cmd_handler(const char *word, const char *sub);
int ibrd_cmd_handlers(const char **word, const char **sub, unsigned max);

/* ibrd_cmd_show.c */
ibrd_cmd_fn ibrd_cmd_show_ports, ibrd_cmd_show_routes, ibrd_cmd_show_neighs, ibrd_cmd_show_mcast,
	ibrd_cmd_show_counters, ibrd_cmd_show_drops, ibrd_cmd_show_config;
/* ibrd_cmd_edit.c */
ibrd_cmd_fn ibrd_cmd_route, ibrd_cmd_neigh, ibrd_cmd_mcast;
/* ibrd_cmd_trace.c */
ibrd_cmd_fn ibrd_cmd_trace;
/* ibrd_cmd_osm.c: OpenSM's prefix_routes_file for a port's subnet */
ibrd_cmd_fn ibrd_cmd_show_osm_routes;
ibrd_cmd_fn ibrd_cmd_show_sa, ibrd_cmd_show_peers;
ibrd_cmd_fn ibrd_cmd_sa_resync;
/* ibrd_cmd_plugin.c: OpenSM plugins */
ibrd_cmd_fn ibrd_cmd_plugin_hello, ibrd_cmd_show_plugins;
/* ibrd_cmd_proxy.c: UD unicast proxies of the verbs ports */
ibrd_cmd_fn ibrd_cmd_proxy, ibrd_cmd_show_proxies, ibrd_cmd_show_qps, ibrd_cmd_show_verbs;
/* ibrd_cmd_workers.c: the forwarding workers, their modes and CPUs */
ibrd_cmd_fn ibrd_cmd_show_workers;
/* ibrd_cmd_latency.c: the residence time per egress port */
ibrd_cmd_fn ibrd_cmd_show_latency;
/* ibrd_cmd_sma.c: the SMA's Set policy and counters */
ibrd_cmd_fn ibrd_cmd_show_sma, ibrd_cmd_sma_release;

/*
 * ibrd_cmd_util.c: the answer of a change, which says what was done
 * ("added static route fec0:0:0:9::/64 via port b LID 0x0021"): in text the
 * sentence, a line; in JSON {"done":true,"message":"..."} ("done" as it
 * always was, for the scripts that test it).
 */
int ibrd_cmd_done(struct ibrd_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The answer of a change that says what was done, `msg` ("capturing drops
 * only on port a ..."): in text (and Prometheus) the sentence alone, a line;
 * in JSON the object of `cols`, which start with "done" and "message"
 * (filled here: true and msg), the caller filling the rest before
 * ibrd_out_end (in text they go nowhere).
 */
void ibrd_cmd_done_begin(struct ibrd_out *o, const char *const *cols, unsigned ncols,
			 const char *msg);
/* Port index by name (or -1 with an error already sent). */
int ibrd_cmd_port(struct ibrd *d, struct ibrd_out *o, const char *name);

/* ibrd_cmd.c: one request -> reply parts, through an output sink (the ctl room's runner) */
int ibrd_cmd_run(struct ibrd *d, struct ibrd_out *o, char *req, bool privileged);

#endif
