/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibrd_cmd_show.c - the "show" commands. */
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_snap.h"
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ibrd_cmd_show_ports(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = {
		"name", "guid", "prefix", "lid",  "lmc", "site", "mtu",
		"up",	"data", "socket", "link", "mad", "node", "notes"
	};

	(void)argc, (void)argv;
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		const struct router_port *p = &d->rib.port[i];
		const struct ibrd_conf_port *cp = &d->conf->port[i];
		struct ibrd_mad_info mi;
		char notes[512];

		ibrd_out_str(o, p->name);
		ibrd_out_hex64(o, p->guid);
		ibrd_out_prefix(o, p->prefix);
		ibrd_out_lid(o, p->lid);
		ibrd_out_u64(o, p->lmc);
		ibrd_out_str(o, d->conf->sites[p->site]);
		ibrd_out_u64(o, p->mtu);
		ibrd_out_bool(o, p->flags & ROUTER_PORT_UP);
		ibrd_out_str(o, cp->data == IBRD_DATA_SIM     ? "sim"
				: cp->data == IBRD_DATA_VERBS ? "verbs"
							      : "none");
		ibrd_out_str(o, cp->data == IBRD_DATA_SIM ? cp->sim_socket : cp->device);
		/* the link layer: a verbs port's from its HCA port (ibv_query_port) */
		ibrd_out_str(o, (p->flags & ROUTER_PORT_ROCE) ? "ethernet" : "infiniband");
		/* its MAD transport (lost: not there yet), what its SM sees, what to know */
		ibrd_mad_info(d, i, &mi);
		ibrd_out_str(o, cp->mad == IBRD_MAD_IBSIM  ? "ibsim"
				: cp->mad != IBRD_MAD_UMAD ? "none"
				: mi.lost		   ? "umad-lost"
							   : "umad");
		ibrd_out_str(o, ibrd_node_kind_name(ibrd_port_node(d, i)));
		ibrd_out_str(o, ibrd_port_notes(d, i, notes, sizeof(notes)));
	}
	return ibrd_out_end(o);
}

static const char *nh_str(const struct router_nh *nh, char *buf, size_t n)
{
	if (nh->kind == ROUTER_NH_DIRECT)
		return "direct";
	if (nh->kind == ROUTER_NH_ALGO)
		return "algorithmic";
	if (nh->kind == ROUTER_NH_GID)
		return "gid";
	snprintf(buf, n, "lid 0x%04x", nh->lid);
	return buf;
}

/*
 * The long tables (routes, neighbours, groups) are streams over a snapshot
 * of their RIB table (ibrd_snap.h): a client that reads slowly holds one
 * part at a time, and every client sees one state of the table.
 */
struct show_rows {
	struct ibrd *d;
	struct ibrd_snap *snap;
	uint32_t i; /* the next record */
	int argc;   /* 3: filtered by `want`, `port` or `mgid` */
	struct ibr_gid_prefix want;
	int port;
	union ibr_gid mgid;
};

static void show_rows_done(void *arg)
{
	struct show_rows *s = arg;

	ibrd_snap_put(s->d, s->snap);
	free(s);
}

static int show_stream(struct ibrd *d, struct ibrd_out *o, enum ibrd_snap_kind kind,
		       ibrd_out_next_fn *next, const struct show_rows *args)
{
	struct show_rows *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return ibrd_out_error(o, ENOMEM, "out of memory");
	*s = *args;
	s->d = d;
	s->i = 0;
	if (!(s->snap = ibrd_snap_get(d, kind, &err))) {
		free(s);
		return ibrd_out_error(o, err, "%s",
				      err == -ENOBUFS ? "the daemon holds too many answers that "
							"clients do not read; try again later"
						      : "out of memory");
	}
	return ibrd_out_stream(o, next, show_rows_done, s);
}

/* A route's egress ports: "b", or "a,b" for next hops through several (each once). */
static const char *routes_ports(const struct router_nh *v, unsigned n, const struct ibrd_snap *snap,
				char *buf, size_t len)
{
	uint32_t seen = 0;
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		uint8_t p = v[i].port;

		if (seen & (1u << (p & 31)))
			continue;
		seen |= 1u << (p & 31);
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", at ? "," : "",
				       ibrd_snap_port(snap, p));
	}
	return buf;
}

/*
 * A route's next hops: "lid 0x0005", or for several "lid 0x0005, lid
 * 0x0007" (through one port) or "a lid 0x0005, b lid 0x0007" (several).
 */
static const char *routes_via(const struct router_nh *v, unsigned n, const struct ibrd_snap *snap,
			      char *buf, size_t len)
{
	bool ports = false;
	size_t at = 0;
	char one[16];

	for (unsigned i = 1; i < n; i++)
		ports |= v[i].port != v[0].port;
	buf[0] = '\0';
	for (unsigned i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s%s%s", i ? ", " : "",
				       ports ? ibrd_snap_port(snap, v[i].port) : "",
				       ports ? " " : "", nh_str(&v[i], one, sizeof(one)));
	return buf;
}

static int routes_next(struct ibrd_out *o, void *arg)
{
	struct show_rows *s = arg;

	while (s->i < s->snap->n) {
		const struct router_route *r = ibrd_snap_rec(s->snap, s->i);
		struct ibr_gid_prefix pf = { .addr = ibr_gid_make(r->key.prefix, 0),
					     .len = r->key.plen };
		char ps[IBR_GID_PREFIX_STRLEN], vs[ROUTER_ECMP_MAX * 24],
			ports[ROUTER_ECMP_MAX * 24];
		bool best = s->snap->best[s->i++];
		struct router_nh v[ROUTER_ECMP_MAX];
		unsigned nv;

		if (s->argc == 3 && !ibr_gid_prefix_contains(&s->want, &pf))
			continue;
		nv = ibrd_snap_route_nhs(s->snap, r, v);
		ibrd_out_str(o, ibr_gid_prefix_ntop(&pf, ps, sizeof(ps)));
		ibrd_out_str(o, router_src_name(r->key.source));
		ibrd_out_str(o, routes_ports(v, nv, s->snap, ports, sizeof(ports)));
		ibrd_out_str(o, routes_via(v, nv, s->snap, vs, sizeof(vs)));
		ibrd_out_u64(o, r->metric);
		/* best: the source the FIB uses for this prefix */
		ibrd_out_bool(o, best);
		return 1;
	}
	return ibrd_out_end(o);
}

/* Every route of every source; "best" marks the one the FIB uses for its prefix. */
int ibrd_cmd_show_routes(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "prefix", "source", "port", "via", "metric", "best" };
	struct show_rows args = { .argc = argc };

	if (argc > 3 || (argc == 3 && ibr_gid_prefix_parse(argv[2], &args.want)))
		return ibrd_out_usage(o, "usage: show routes [PREFIX]");
	ibrd_out_table(o, cols, 6);
	return show_stream(d, o, IBRD_SNAP_ROUTES, routes_next, &args);
}

static int neighs_next(struct ibrd_out *o, void *arg)
{
	struct show_rows *s = arg;

	while (s->i < s->snap->n) {
		const struct router_neigh *n = ibrd_snap_rec(s->snap, s->i++);

		if (s->port >= 0 && n->key.port != s->port)
			continue;
		ibrd_out_str(o, ibrd_snap_port(s->snap, n->key.port));
		ibrd_out_hex64(o, n->key.guid);
		ibrd_out_lid(o, n->lid);
		ibrd_out_u64(o, n->lmc);
		ibrd_out_str(o, router_src_name(n->key.source));
		return 1;
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_show_neighs(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "port", "guid", "lid", "lmc", "source" };
	struct show_rows args = { .argc = argc, .port = -1 };

	if (argc > 3)
		return ibrd_out_usage(o, "usage: show neighbours [PORT]");
	if (argc == 3 && (args.port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	ibrd_out_table(o, cols, 5);
	return show_stream(d, o, IBRD_SNAP_NEIGHS, neighs_next, &args);
}

static int mcasts_next(struct ibrd_out *o, void *arg)
{
	struct show_rows *s = arg;

	while (s->i < s->snap->n) {
		const struct router_mcast *m = ibrd_snap_rec(s->snap, s->i++);
		union ibr_gid g;
		char gs[IBR_GID_STRLEN], qs[12], ks[8];

		if (s->argc == 3 && memcmp(s->mgid.raw, m->key.mgid, 16))
			continue;
		memcpy(g.raw, m->key.mgid, 16);
		snprintf(qs, sizeof(qs), "0x%08x", m->qkey);
		snprintf(ks, sizeof(ks), "0x%04x", m->pkey);
		ibrd_out_str(o, ibr_gid_ntop(&g, gs, sizeof(gs)));
		ibrd_out_str(o, ibrd_snap_port(s->snap, m->key.port));
		ibrd_out_lid(o, m->mlid);
		ibrd_out_u64(o, m->sl);
		ibrd_out_str(o, qs);
		ibrd_out_str(o, ks);
		ibrd_out_bool(o, m->flags & ROUTER_MCAST_RECEIVERS);
		ibrd_out_bool(o, m->flags & ROUTER_MCAST_SENDERS);
		ibrd_out_str(o, router_src_name(m->source));
		/* the feed's name in the config now (a reload may renumber: its ids index it) */
		ibrd_out_str(o, m->feed && m->feed <= s->d->conf->nmcasts
					? s->d->conf->mcasts[m->feed - 1].feed
					: "-");
		return 1;
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_show_mcast(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "mgid", "port",	 "mlid",    "sl",     "qkey",
					    "pkey", "receivers", "senders", "source", "feed" };
	struct show_rows args = { .argc = argc };

	if (argc > 3 || (argc == 3 && ibr_gid_parse(argv[2], &args.mgid)))
		return ibrd_out_usage(o, "usage: show mcast [MGID]");
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	return show_stream(d, o, IBRD_SNAP_MCASTS, mcasts_next, &args);
}

int ibrd_cmd_show_config(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "file", "config" };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	(void)argc, (void)argv;
	if (!f)
		return ibrd_out_error(o, ENOMEM, "out of memory");
	/* secrets (sm-key) only to clients who may change the config */
	ibrd_conf_print(d->conf, f, o->privileged ? IBRD_CONF_SECRETS : IBRD_CONF_REDACT);
	fclose(f);
	if (o->fmt == IBRD_FMT_TEXT) {
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
			ibrd_out_printf(o, "%s\n", line);
		free(text);
		return ibrd_out_end(o);
	}
	ibrd_out_object(o, cols, 2);
	ibrd_out_str(o, d->conf_path);
	ibrd_out_str(o, text);
	rc = ibrd_out_end(o);
	free(text);
	return rc;
}

static uint64_t drops_of(const struct router_counters *c, uint32_t p)
{
	uint64_t t = 0;

	for (int r = 0; r < ROUTER_DROP_MAX; r++)
		t += c->drop[p][r];
	return t;
}

/* The Prometheus text exposition format (version 0.0.4). */
static int counters_prom(struct ibrd *d, struct ibrd_out *o, const struct router_counters *c)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} m[] = {
		{ "ibrouter_rx_packets_total", "Packets received.",
		  offsetof(struct router_counters, rx_pkts) },
		{ "ibrouter_rx_bytes_total", "Bytes received.",
		  offsetof(struct router_counters, rx_bytes) },
		{ "ibrouter_tx_packets_total", "Packets sent.",
		  offsetof(struct router_counters, tx_pkts) },
		{ "ibrouter_tx_bytes_total", "Bytes sent.",
		  offsetof(struct router_counters, tx_bytes) },
		{ "ibrouter_tx_errors_total", "Copies the link did not take.",
		  offsetof(struct router_counters, tx_errors) },
		{ "ibrouter_tx_peer_absent_total", "Copies for a peer that is not there.",
		  offsetof(struct router_counters, peer_absent) },
		{ "ibrouter_sma_packets_total", "SMPs (VL15) received.",
		  offsetof(struct router_counters, sma) },
		{ "ibrouter_local_packets_total", "Packets for the router itself.",
		  offsetof(struct router_counters, local) },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		const uint64_t *v = (const uint64_t *)((const char *)c + m[i].off);

		ibrd_out_printf(o, "# HELP %s %s\n# TYPE %s counter\n", m[i].name, m[i].help,
				m[i].name);
		for (uint32_t p = 0; p < d->rib.nports; p++)
			ibrd_out_printf(o, "%s{port=\"%s\"} %llu\n", m[i].name, d->rib.port[p].name,
					(unsigned long long)v[p]);
	}
	ibrd_out_printf(o,
			"# HELP ibrouter_drops_total Packets dropped, by ingress port and reason.\n"
			"# TYPE ibrouter_drops_total counter\n");
	for (uint32_t p = 0; p < d->rib.nports; p++)
		for (int r = 0; r < ROUTER_DROP_MAX; r++)
			ibrd_out_printf(o, "ibrouter_drops_total{port=\"%s\",reason=\"%s\"} %llu\n",
					d->rib.port[p].name, router_drop_name(r),
					(unsigned long long)c->drop[p][r]);
	return ibrd_out_end(o);
}

int ibrd_cmd_show_counters(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "port",	"rx_packets", "rx_bytes",    "tx_packets",
					    "tx_bytes", "tx_errors",  "peer_absent", "sma",
					    "local",	"drops" };
	struct router_counters *c = malloc(sizeof(*c));
	int port = -1, rc;

	if (!c)
		return ibrd_out_error(o, ENOMEM, "out of memory");
	if (argc > 3 || (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)) {
		free(c);
		return argc > 3 ? ibrd_out_usage(o, "usage: show counters [PORT]") : -ENOENT;
	}
	ibrd_counters_sum(d, c);
	if (o->fmt == IBRD_FMT_PROM) {
		rc = counters_prom(d, o, c);
		free(c);
		return rc;
	}
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint32_t p = 0; p < d->rib.nports; p++) {
		if (port >= 0 && (uint32_t)port != p)
			continue;
		ibrd_out_str(o, d->rib.port[p].name);
		ibrd_out_u64(o, c->rx_pkts[p]);
		ibrd_out_u64(o, c->rx_bytes[p]);
		ibrd_out_u64(o, c->tx_pkts[p]);
		ibrd_out_u64(o, c->tx_bytes[p]);
		ibrd_out_u64(o, c->tx_errors[p]);
		ibrd_out_u64(o, c->peer_absent[p]);
		ibrd_out_u64(o, c->sma[p]);
		ibrd_out_u64(o, c->local[p]);
		ibrd_out_u64(o, drops_of(c, p));
	}
	free(c);
	return ibrd_out_end(o);
}

/* Non-zero drop counters, by ingress port and reason, with the rule enforced. */
int ibrd_cmd_show_drops(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "port", "reason", "count", "rule", "description" };
	struct router_counters *c = malloc(sizeof(*c));
	int port = -1;

	if (!c)
		return ibrd_out_error(o, ENOMEM, "out of memory");
	if (argc > 3 || (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)) {
		free(c);
		return argc > 3 ? ibrd_out_usage(o, "usage: show drops [PORT]") : -ENOENT;
	}
	ibrd_counters_sum(d, c);
	ibrd_out_table(o, cols, 5);
	for (uint32_t p = 0; p < d->rib.nports; p++)
		for (int r = 0; r < ROUTER_DROP_MAX; r++) {
			if ((port >= 0 && (uint32_t)port != p) || !c->drop[p][r])
				continue;
			ibrd_out_str(o, d->rib.port[p].name);
			ibrd_out_str(o, router_drop_name(r));
			ibrd_out_u64(o, c->drop[p][r]);
			ibrd_out_str(o, router_drop_rule(r));
			ibrd_out_str(o, router_drop_desc(r));
		}
	free(c);
	return ibrd_out_end(o);
}
