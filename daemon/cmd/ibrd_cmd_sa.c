/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_sa.c - control commands about the SA clients: "show sa [PORT]"
 * (what each port's client knows of its subnet and how its syncs go; with
 * -o prometheus the same as ibrouter_sa_* metrics) and "sa resync [PORT]"
 * (a full resync now, as after an SM change).
 */
#include "daemon/ibrd.h"
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_out.h"
#include "daemon/ctl/ibrd_prom.h"
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "mad/mad_chan.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* ---- show sa -o prometheus ---- */

/* The numeric and yes/no columns of show sa, in its order (phase, prefix: labels). */
enum sa_prom_id {
	SA_PROM_LID,
	SA_PROM_SM_LID,
	SA_PROM_END_PORTS,
	SA_PROM_GROUPS,
	SA_PROM_SYNCS,
	SA_PROM_FAILURES,
	SA_PROM_LAST_SYNC,
	SA_PROM_REPORTS,
	SA_PROM_SUBSCRIBED,
	SA_PROM_GETTABLE,
	SA_PROM_TIMEOUTS,
	SA_PROM_MAD_SENT,
	SA_PROM_MAD_RECV,
	SA_PROM_LAST_REPORT,
	SA_PROM_LAST_CHANGE,
	SA_PROM_AD_SENT,
	SA_PROM_AD_FAILED,
	SA_PROM_PEERS,
	SA_PROM_PEER_RECORDS,
	SA_PROM_PEER_EXPIRED,
	SA_PROM_MAX
};

static const struct ibrd_prom_metric sa_prom_metrics[SA_PROM_MAX] = {
	[SA_PROM_LID] = { "ibrouter_sa_lid", "gauge", "The port's LID as its SM set it.", 1 },
	[SA_PROM_SM_LID] = { "ibrouter_sa_sm_lid", "gauge", "The LID of the port's master SM.", 1 },
	[SA_PROM_END_PORTS] = { "ibrouter_sa_end_ports", "gauge",
				"End ports of the subnet the SA client knows.", 1 },
	[SA_PROM_GROUPS] = { "ibrouter_sa_groups", "gauge",
			     "Multicast groups of the subnet the SA client knows.", 1 },
	[SA_PROM_SYNCS] = { "ibrouter_sa_syncs_total", "counter", "Full syncs completed.", 1 },
	[SA_PROM_FAILURES] = { "ibrouter_sa_sync_failures_total", "counter", "Full syncs failed.",
			       1 },
	[SA_PROM_LAST_SYNC] = { "ibrouter_sa_last_sync_duration_seconds", "gauge",
				"How long the last complete sync took.", 1000000000u },
	[SA_PROM_REPORTS] = { "ibrouter_sa_reports_total", "counter",
			      "Reports (traps 64 to 67) applied.", 1 },
	[SA_PROM_SUBSCRIBED] = { "ibrouter_sa_subscribed", "gauge",
				 "1 while the SA client is subscribed to the SM's reports.", 1 },
	[SA_PROM_GETTABLE] = { "ibrouter_sa_gettable", "gauge",
			       "1: the SA client reads tables with GetTable; 0: LID by LID.", 1 },
	[SA_PROM_TIMEOUTS] = { "ibrouter_sa_query_timeouts_total", "counter",
			       "SA queries that timed out.", 1 },
	[SA_PROM_MAD_SENT] = { "ibrouter_sa_mads_sent_total", "counter",
			       "MADs sent on the port's MAD channel.", 1 },
	[SA_PROM_MAD_RECV] = { "ibrouter_sa_mads_received_total", "counter",
			       "MADs received on the port's MAD channel.", 1 },
	[SA_PROM_LAST_REPORT] = { "ibrouter_sa_last_report_timestamp_seconds", "gauge",
				  "When the last Report came (Unix time; 0: never).", 1000 },
	[SA_PROM_LAST_CHANGE] = { "ibrouter_sa_last_change_timestamp_seconds", "gauge",
				  "When the SA client's tables last changed (Unix time; 0: never).",
				  1000 },
	[SA_PROM_AD_SENT] = { "ibrouter_sa_announcements_sent_total", "counter",
			      "Route announcement records Set at the SA.", 1 },
	[SA_PROM_AD_FAILED] = { "ibrouter_sa_announcement_failures_total", "counter",
				"Route announcement Sets and Deletes refused or lost.", 1 },
	[SA_PROM_PEERS] = { "ibrouter_sa_peers", "gauge",
			    "Other routers of the subnet whose announcements are read.", 1 },
	[SA_PROM_PEER_RECORDS] = { "ibrouter_sa_peer_records_received_total", "counter",
				   "Route announcement records read from other routers.", 1 },
	[SA_PROM_PEER_EXPIRED] = { "ibrouter_sa_peer_expired_total", "counter",
				   "Other routers whose announcements stopped being refreshed.",
				   1 },
};

/* Port i's values, as the text form shows them (last_sync_ms as ns, the times as ms). */
static void sa_prom_values(struct ibrd *d, uint32_t i, uint64_t v[SA_PROM_MAX])
{
	const struct sa_client *sa = d->sa[i];
	const struct sa_client_stats *st = sa_client_stats(sa);
	const struct sa_port_state *ps = sa_client_port(sa);
	const struct mad_chan_stats *ms = mad_chan_stats(d->chan[i]);
	const struct sa_neigh *nv;
	const struct sa_group *gv;
	const struct sa_peer *pv;

	v[SA_PROM_LID] = ps->lid;
	v[SA_PROM_SM_LID] = ps->sm_lid;
	v[SA_PROM_END_PORTS] = sa_client_neighs(sa, &nv);
	v[SA_PROM_GROUPS] = sa_client_groups(sa, &gv);
	v[SA_PROM_SYNCS] = st->syncs;
	v[SA_PROM_FAILURES] = st->sync_failures;
	v[SA_PROM_LAST_SYNC] = st->last_sync_ns;
	v[SA_PROM_REPORTS] = st->reports;
	v[SA_PROM_SUBSCRIBED] = st->subscribed;
	v[SA_PROM_GETTABLE] = st->table_mode;
	v[SA_PROM_TIMEOUTS] = st->query_timeouts;
	v[SA_PROM_MAD_SENT] = ms->sent;
	v[SA_PROM_MAD_RECV] = ms->recv;
	ibrd_sa_times(d, i, &v[SA_PROM_LAST_REPORT], &v[SA_PROM_LAST_CHANGE]);
	v[SA_PROM_AD_SENT] = st->ad_sets;
	v[SA_PROM_AD_FAILED] = st->ad_failures;
	v[SA_PROM_PEERS] = sa_client_peers(sa, &pv);
	v[SA_PROM_PEER_RECORDS] = st->peer_records;
	v[SA_PROM_PEER_EXPIRED] = st->peer_expired;
}

/*
 * Every family's HELP and TYPE, then a sample per port with an SA client
 * (only `port`'s when >= 0): no port, no sample, still a valid exposition.
 * The phase is a state set (one sample per phase, 1 for the current one),
 * the prefix the label of an info metric: neither is a number.
 */
static int sa_prom(struct ibrd *d, struct ibrd_out *o, int port)
{
	static const struct ibrd_prom_metric phase = {
		"ibrouter_sa_phase", "gauge",
		"1 for the SA client's phase (down, sync, ready, backoff), else 0.", 1
	};
	static const struct ibrd_prom_metric info = {
		"ibrouter_sa_prefix_info", "gauge",
		"The subnet prefix the SA client learned (label prefix, empty: none); always 1.", 1
	};
	uint64_t v[ROUTER_MAX_PORTS][SA_PROM_MAX];
	char labels[ROUTER_MAX_PORTS][2 * ROUTER_PORT_NAME + 8]; /* port="NAME" */
	bool on[ROUTER_MAX_PORTS] = { false };

	for (uint32_t i = 0; i < d->rib.nports && i < ROUTER_MAX_PORTS; i++) {
		if (!d->sa[i] || (port >= 0 && (uint32_t)port != i))
			continue;
		char name[2 * ROUTER_PORT_NAME + 1];

		on[i] = true;
		sa_prom_values(d, i, v[i]);
		snprintf(labels[i], sizeof(labels[i]), "port=\"%s\"",
			 ibrd_prom_escape(d->rib.port[i].name, name, sizeof(name)));
	}
	ibrd_prom_family(o, &phase);
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
		/* the names until "unknown": every phase sa_client.c has */
		for (unsigned p = 0; on[i] && strcmp(sa_client_phase_name(p), "unknown"); p++)
			ibrd_out_printf(o, "%s{%s,phase=\"%s\"} %d\n", phase.name, labels[i],
					sa_client_phase_name(p),
					(unsigned)sa_client_phase(d->sa[i]) == p);
	ibrd_prom_family(o, &info);
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		union ibr_gid g;
		char gs[IBR_GID_STRLEN];
		uint64_t prefix;

		if (!on[i])
			continue;
		prefix = sa_client_port(d->sa[i])->prefix;
		g = ibr_gid_make(prefix, 0);
		ibrd_out_printf(o, "%s{%s,prefix=\"%s\"} 1\n", info.name, labels[i],
				prefix ? ibr_gid_ntop(&g, gs, sizeof(gs)) : "");
	}
	for (int m = 0; m < SA_PROM_MAX; m++) {
		ibrd_prom_family(o, &sa_prom_metrics[m]);
		for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
			if (on[i])
				ibrd_prom_sample(o, &sa_prom_metrics[m], labels[i], v[i][m]);
	}
	return ibrd_out_end(o);
}

/* ---- the commands ---- */

/*
 * A port whose SA client waits for its MAD channel (a umad device not
 * there yet, or gone: ibrd_mad.c): phase "lost", tries in `failures`.
 */
static void sa_lost_row(struct ibrd *d, struct ibrd_out *o, uint32_t i)
{
	struct ibrd_mad_info mi;

	ibrd_mad_info(d, i, &mi);
	if (!mi.lost || !d->conf->port[i].sa_client)
		return;
	ibrd_out_str(o, d->rib.port[i].name);
	ibrd_out_str(o, "lost");
	ibrd_out_lid(o, 0);
	ibrd_out_lid(o, 0);
	ibrd_out_prefix(o, 0);
	for (unsigned k = 0; k < 3; k++) /* end_ports, groups, syncs */
		ibrd_out_u64(o, 0);
	ibrd_out_u64(o, mi.tries); /* failures: the channel's opens that failed */
	ibrd_out_str(o, "0.0");
	ibrd_out_u64(o, 0);
	ibrd_out_bool(o, false);
	ibrd_out_str(o, "-");
	for (unsigned k = 0; k < 3; k++) /* timeouts, mad_sent, mad_recv */
		ibrd_out_u64(o, 0);
	ibrd_out_time_ms(o, 0);
	ibrd_out_time_ms(o, 0);
	for (unsigned k = 0; k < 5; k++) /* ad_sent .. peer_expired */
		ibrd_out_u64(o, 0);
}

int ibrd_cmd_show_sa(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = {
		"port",	   "phase",	"lid",	    "sm_lid",	    "prefix",	    "end_ports",
		"groups",  "syncs",	"failures", "last_sync_ms", "reports",	    "subscribed",
		"tables",  "timeouts",	"mad_sent", "mad_recv",	    "last_report",  "last_change",
		"ad_sent", "ad_failed", "peers",    "peer_records", "peer_expired",
	};
	int port = -1;

	if (argc > 3)
		return ibrd_out_usage(o, "usage: show sa [PORT]");
	if (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	if (o->fmt == IBRD_FMT_PROM)
		return sa_prom(d, o, port);
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		struct sa_client *sa = d->sa[i];
		const struct mad_chan_stats *ms;
		const struct sa_client_stats *st;
		const struct sa_port_state *ps;
		const struct sa_neigh *nv;
		const struct sa_group *gv;
		const struct sa_peer *pv;
		uint64_t rep, chg;
		char buf[24];

		if (port >= 0 && (uint32_t)port != i)
			continue;
		if (!sa) {
			sa_lost_row(d, o, i);
			continue;
		}
		st = sa_client_stats(sa);
		ps = sa_client_port(sa);
		ms = mad_chan_stats(d->chan[i]);
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
		ibrd_sa_times(d, i, &rep, &chg);
		ibrd_out_time_ms(o, rep);
		ibrd_out_time_ms(o, chg);
		ibrd_out_u64(o, st->ad_sets);
		ibrd_out_u64(o, st->ad_failures);
		ibrd_out_u64(o, sa_client_peers(sa, &pv));
		ibrd_out_u64(o, st->peer_records);
		ibrd_out_u64(o, st->peer_expired);
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_sa_resync(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	const char *first = "";
	char msg[160];
	int port = -1, n = 0;

	if (argc > 3)
		return ibrd_out_usage(o, "usage: sa resync [PORT]");
	if (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		struct sa_client *sa = d->sa[i];

		if (sa && (port < 0 || (uint32_t)port == i)) {
			sa_client_resync(sa, "control command");
			if (!n++)
				first = d->rib.port[i].name;
		}
	}
	if (!n)
		return ibrd_out_error(o, ENOENT, "no SA client on %s",
				      port >= 0 ? d->rib.port[port].name : "any port");
	if (n > 1)
		snprintf(msg, sizeof(msg),
			 "resyncing the SA clients of %d ports: their subnets read again now", n);
	else
		snprintf(msg, sizeof(msg),
			 "resyncing the SA client of port %s: its subnet read again now", first);
	ibrd_cmd_done_begin(o, (const char *const[]){ "done", "message", "resyncing" }, 3, msg);
	ibrd_out_u64(o, (uint64_t)n);
	return ibrd_out_end(o);
}

/* "fec0:0:0:3::/64 m1, ..." of peer p into buf (cut with "..." when it does not fit). */
static const char *peer_prefixes(const struct sa_peer *p, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < p->n; k++) {
		union ibr_gid g = ibr_gid_make(p->ad[k].prefix, 0);
		char gs[IBR_GID_STRLEN];
		int w = snprintf(buf + at, len - at, "%s%s/%u m%u", k ? ", " : "",
				 ibr_gid_ntop(&g, gs, sizeof(gs)), p->ad[k].plen, p->ad[k].metric);

		if (w < 0 || (size_t)w >= len - at) {
			at = at < len - 6 ? at : len - 6; /* len is 1024: room for ", ..." */
			memcpy(buf + at, ", ...", 6);
			break;
		}
		at += (size_t)w;
	}
	return buf;
}

int ibrd_cmd_show_peers(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = {
		"port",	 "subnet", "router",	"lid",	    "state",
		"lease", "age_s",  "refresh_s", "prefixes", "announced"
	};
	uint64_t now = ibr_now_ns();
	int port = -1;

	if (argc > 3)
		return ibrd_out_usage(o, "usage: show peers [PORT]");
	if (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint32_t i = 0; i < d->rib.nports && i < ROUTER_MAX_PORTS; i++) {
		const struct sa_peer *pv;
		size_t n;

		if (!d->sa[i] || (port >= 0 && (uint32_t)port != i))
			continue;
		n = sa_client_peers(d->sa[i], &pv);
		for (size_t k = 0; k < n; k++) {
			const struct sa_peer *p = &pv[k];
			char buf[1024];

			ibrd_out_str(o, d->rib.port[i].name);
			ibrd_out_prefix(o, sa_client_port(d->sa[i])->prefix);
			ibrd_out_hex64(o, p->guid);
			ibrd_out_lid(o, p->lid);
			ibrd_out_str(o, !p->read     ? "reading"
					: p->expired ? "expired"
					: p->n	     ? "announcing"
						     : "none");
			ibrd_out_u64(o, p->lease_s);
			ibrd_out_u64(o, (now - p->since_ns) / 1000000000ull);
			ibrd_out_u64(o, p->read ? (now - p->beat_ns) / 1000000000ull : 0);
			ibrd_out_u64(o, p->n);
			ibrd_out_str(o, peer_prefixes(p, buf, sizeof(buf)));
		}
	}
	return ibrd_out_end(o);
}
