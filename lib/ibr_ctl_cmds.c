/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_ctl_cmds.c - the commands of the control protocol (ibr_ctl.h), one
 * table for both ends: ibrouterd answers them (daemon/cmd/ibrd_cmd.c finds
 * each one's handler by its words, and lists them in `help`), ibrouterctl
 * makes its usage text of them.  A command the daemon knows is listed by
 * both, or by neither (tests/unit/daemon/cmd/ibrd_cmd_test.c checks that
 * every entry has a handler and every handler an entry).
 */
#include "lib/ibr_ctl.h"

#include <string.h>

const struct ibr_ctl_cmd ibr_ctl_cmds[] = {
	{ "version", NULL, false, "version" },
	{ "show", "ports", false, "show ports" },
	{ "show", "routes", false, "show routes [PREFIX]" },
	{ "show", "neighbours", false, "show neighbours [PORT]" },
	{ "show", "neighbors", false, NULL },
	{ "show", "mcast", false, "show mcast [MGID]" },
	{ "show", "counters", false, "show counters [PORT]" },
	{ "show", "drops", false, "show drops [PORT]" },
	{ "show", "config", false, "show config" },
	{ "show", "osm-prefix-routes", false, "show osm-prefix-routes PORT" },
	{ "show", "sa", false, "show sa [PORT]" },
	{ "show", "peers", false, "show peers [PORT]" },
	{ "show", "sma", false, "show sma [drops] [PORT]" },
	{ "show", "plugins", false, "show plugins" },
	{ "show", "proxies", false, "show proxies [PORT]" },
	{ "show", "qps", false, "show qps [PORT]" },
	{ "show", "verbs", false, "show verbs [PORT]" },
	{ "show", "workers", false, "show workers" },
	{ "show", "latency", false, "show latency [PORT]" },
	{ "trace", NULL, false, "trace SGID DGID [tclass T] [flowlabel F] [port P]" },
	{ "route", "add", true,
	  "route add PREFIX port P lid L [lmc M] | direct | algorithmic [metric N]" },
	{ "route", "del", true, "route del PREFIX" },
	{ "neighbour", "add", true, "neighbour add GUID port P lid L [lmc M]" },
	{ "neighbour", "del", true, "neighbour del GUID port P" },
	{ "mcast", "add", true,
	  "mcast add MGID port P mlid L [sl S] [qkey Q] [pkey K] [receivers|senders|both]" },
	{ "mcast", "del", true, "mcast del MGID port P" },
	{ "proxy", "add", true, "proxy add PORT GID QPN [qkey Q]" },
	{ "proxy", "del", true, "proxy del PORT GID QPN" },
	{ "sa", "resync", true, "sa resync [PORT]" },
	{ "sma", "release", true, "sma release PORT" },
	{ "clear", "counters", true, "clear counters" },
	{ "log", "level", true, "log level err|warning|notice|info|debug" },
	{ "reload", NULL, true, "reload" },
	{ "capture", "start", true, "capture start PORT FILE [drops|all] [count N]" },
	{ "capture", "stop", true, "capture stop" },
	/* the OpenSM plugin's opening request, not typed; checks its own credentials */
	{ "plugin", "hello", true, NULL },
	{ "help", NULL, false, "help" },
};

const unsigned ibr_ctl_ncmds = sizeof(ibr_ctl_cmds) / sizeof(ibr_ctl_cmds[0]);

const struct ibr_ctl_cmd *ibr_ctl_cmd_find(int argc, char *const *argv)
{
	for (unsigned i = 0; argc > 0 && i < ibr_ctl_ncmds; i++) {
		const struct ibr_ctl_cmd *c = &ibr_ctl_cmds[i];

		if (!strcmp(argv[0], c->word) &&
		    (!c->sub || (argc > 1 && !strcmp(argv[1], c->sub))))
			return c;
	}
	return NULL;
}
