/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_sa.c - control commands about the SA clients: "show sa [PORT]"
 * (what each port's client knows of its subnet and how its syncs go) and
 * "sa resync [PORT]" (a full resync now, as after an SM change).
 */
#include "router/daemon/ibrd.h"
#include "router/daemon/ibrd_cmd.h"
#include "router/daemon/ibrd_out.h"

#include "sa/mad_chan.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdio.h>

int ibrd_cmd_show_sa(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = {
		"port",	  "phase",    "lid",	  "sm_lid",	  "prefix",	 "end_ports",
		"groups", "syncs",    "failures", "last_sync_ms", "reports",	 "subscribed",
		"tables", "timeouts", "mad_sent", "mad_recv",	  "last_report", "last_change",
	};
	int port = -1;

	if (argc > 3)
		return ibrd_out_usage(o, "usage: show sa [PORT]");
	if (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		struct sa_client *sa = d->sa[i];
		const struct mad_chan_stats *ms;
		const struct sa_client_stats *st;
		const struct sa_port_state *ps;
		const struct sa_neigh *nv;
		const struct sa_group *gv;
		uint64_t rep, chg;
		char buf[24];

		if (!sa || (port >= 0 && (uint32_t)port != i))
			continue;
		st = sa_client_stats(sa);
		ps = sa_client_port(sa);
		ms = mad_chan_stats(ibrd_mad_chan(d, i));
		ibrd_out_str(o, d->rib.port[i].name);
		ibrd_out_str(o, sa_client_phase_name(sa_client_phase(sa)));
		ibrd_out_lid(o, ps->lid);
		ibrd_out_lid(o, ps->sm_lid);
		ibrd_out_prefix(o, ps->prefix);
		ibrd_out_u64(o, sa_client_neighs(sa, &nv));
		ibrd_out_u64(o, sa_client_groups(sa, &gv));
		ibrd_out_u64(o, st->syncs);
		ibrd_out_u64(o, st->sync_failures);
		snprintf(buf, sizeof(buf), "%.1f", (double)st->last_sync_ns / 1e6);
		ibrd_out_str(o, buf);
		ibrd_out_u64(o, st->reports);
		ibrd_out_bool(o, st->subscribed);
		ibrd_out_str(o, st->table_mode ? "gettable" : "per-lid");
		ibrd_out_u64(o, st->query_timeouts);
		ibrd_out_u64(o, ms->sent);
		ibrd_out_u64(o, ms->recv);
		ibrd_mad_times(d, i, &rep, &chg);
		ibrd_out_time_ms(o, rep);
		ibrd_out_time_ms(o, chg);
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_sa_resync(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	int port = -1, n = 0;

	if (argc > 3)
		return ibrd_out_usage(o, "usage: sa resync [PORT]");
	if (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		struct sa_client *sa = d->sa[i];

		if (sa && (port < 0 || (uint32_t)port == i)) {
			sa_client_resync(sa, "control command");
			n++;
		}
	}
	if (!n)
		return ibrd_out_error(o, ENOENT, "no SA client on %s",
				      port >= 0 ? d->rib.port[port].name : "any port");
	ibrd_out_object(o, (const char *const[]){ "resyncing" }, 1);
	ibrd_out_u64(o, (uint64_t)n);
	return ibrd_out_end(o);
}
