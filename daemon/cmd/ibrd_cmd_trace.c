/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_trace.c - "trace SGID DGID [tclass T] [flowlabel F] [port P]":
 * build the packet such a flow would send, run it through the engine on the
 * live FIB (the same code the workers run, with scratch counters), and say
 * what happened: the copies it would send, or the drop reason, its rule and
 * why.  A multicast DGID the engine would meet only behind a DLID that no
 * sender has (no group there, or a scope no router forwards) is answered
 * with the engine's own reason for it, not with the DLID check's.
 */
#include "daemon/cmd/ibrd_cmd.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct trace_req {
	union ibr_gid sgid, dgid;
	unsigned long tclass, flowlabel;
	int port;
};

static int trace_parse(struct ibrd *d, struct ibrd_out *o, int argc, char **argv,
		       struct trace_req *t)
{
	memset(t, 0, sizeof(*t));
	t->port = -1;
	if (argc < 3 || ibr_gid_parse(argv[1], &t->sgid) || ibr_gid_parse(argv[2], &t->dgid))
		goto usage;
	for (int i = 3; i < argc; i += 2) {
		char *end;

		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "port")) {
			if ((t->port = ibrd_cmd_port(d, o, argv[i + 1])) < 0)
				return -ENOENT;
			continue;
		}
		errno = 0;
		if (!strcmp(argv[i], "tclass"))
			t->tclass = strtoul(argv[i + 1], &end, 0);
		else if (!strcmp(argv[i], "flowlabel"))
			t->flowlabel = strtoul(argv[i + 1], &end, 0);
		else
			goto usage;
		if (errno || *end || t->tclass > 255 || t->flowlabel > 0xFFFFF)
			goto usage;
	}
	return 0;
usage:
	return ibrd_out_usage(o, "usage: trace SGID DGID [tclass T] [flowlabel F] [port P]");
}

/* The ingress port: given, or the one the SGID's prefix routes to. */
static int trace_port(const struct router_fib *fib, const struct trace_req *t)
{
	uint64_t v;

	if (t->port >= 0)
		return t->port;
	v = router_fib_route_get(fib, ibr_gid_prefix(&t->sgid));
	if (v & ROUTER_VAL_ECMP) /* several next hops: one of their ports */
		v = router_fib_ecmp_of(fib, v)->bucket[0];
	return v ? router_nh_unpack(v).port : -1;
}

/*
 * The route column, "fec0:0:0:3::/64 peer": the longest prefix of the
 * DGID's with a route in the RIB, and its best source (what the FIB
 * compiled); NULL for a multicast DGID or none.
 */
static const char *trace_route_str(const struct ibrd *d, const union ibr_gid *dgid, char *buf,
				   size_t len)
{
	uint64_t pfx = ibr_gid_prefix(dgid), masked = 0;
	char ps[IBR_GID_PREFIX_STRLEN];
	struct ibr_gid_prefix pf;
	int src, plen;

	if (ibr_gid_is_mcast(dgid))
		return NULL;
	for (plen = 64; plen >= 0; plen--) {
		masked = plen ? pfx & ~0ull << (64 - plen) : 0;
		if ((src = router_rib_best_source(&d->rib, masked, (uint8_t)plen)) >= 0)
			break;
	}
	if (plen < 0)
		return NULL;
	pf = (struct ibr_gid_prefix){ .addr = ibr_gid_make(masked, 0), .len = (uint8_t)plen };
	snprintf(buf, len, "%s %s", ibr_gid_prefix_ntop(&pf, ps, sizeof(ps)), router_src_name(src));
	return buf;
}

/*
 * Why the group DGID cannot be traced from port `in` through the engine: a
 * drop reason (-1: it can) and in `why` the words.  The engine checks the
 * DLID first (IBA 8.2.3: an MLID of a group on the ingress subnet), and a
 * packet to a group without an MLID there would carry none: the reason is
 * what the engine says of the group itself, its scope (IBA 4.1.1; link-local
 * never leaves its subnet) or its absence from the forwarding table (8.3).
 */
static int trace_mcast_why(const struct ibrd *d, const struct router_fib *fib, int in,
			   const union ibr_gid *dgid, char *why, size_t len)
{
	const struct router_fib_mgroup *g = router_fib_mgroup_get(fib, dgid->raw);
	unsigned scope = ibr_gid_mcast_scope(dgid);
	char gs[IBR_GID_STRLEN];

	ibr_gid_ntop(dgid, gs, sizeof(gs));
	if (scope == IBR_MCAST_SCOPE_LINK) {
		snprintf(why, len, "%s is link-local (scope 2): it never leaves its subnet", gs);
		return ROUTER_DROP_SCOPE;
	}
	if (scope != IBR_MCAST_SCOPE_SITE && scope != IBR_MCAST_SCOPE_ORG &&
	    scope != IBR_MCAST_SCOPE_GLOBAL) {
		snprintf(why, len,
			 "%s has scope %x (%s): a router forwards site (5), organisation (8) "
			 "and global (e) groups only",
			 gs, scope, ibr_gid_mcast_scope_name(scope));
		return ROUTER_DROP_SCOPE;
	}
	if (!g) {
		snprintf(why, len, "no group %s in the forwarding table", gs);
		return ROUTER_DROP_NO_GROUP;
	}
	if (!(g->on_ports & (1u << in))) {
		snprintf(why, len,
			 "group %s has no MLID on port %s: the router is no member there, so "
			 "nothing of it reaches the router from that subnet",
			 gs, d->rib.port[in].name);
		return ROUTER_DROP_DLID;
	}
	return -1;
}

static void trace_row(struct ibrd *d, struct ibrd_out *o, const char *verdict, int in,
		      const struct router_tx *tx, int out, int reason, const char *route,
		      const char *why)
{
	const struct ibr_lrh *lrh = tx ? (const struct ibr_lrh *)tx->hdr : NULL;

	ibrd_out_str(o, verdict);
	ibrd_out_str(o, d->rib.port[in].name);
	ibrd_out_str(o, out >= 0 ? d->rib.port[out].name : NULL);
	ibrd_out_lid(o, lrh ? ibr_lrh_get_dlid(lrh) : 0);
	ibrd_out_lid(o, lrh ? ibr_lrh_get_slid(lrh) : 0);
	ibrd_out_u64(o, lrh ? ibr_lrh_get_sl(lrh) : 0);
	ibrd_out_u64(o, lrh ? ibr_lrh_get_vl(lrh) : 0);
	ibrd_out_u64(o, tx ? tx->hdr[15] : 0); /* HopLmt after the rewrite */
	ibrd_out_str(o, reason >= 0 ? router_drop_name(reason) : NULL);
	ibrd_out_str(o, reason >= 0 ? router_drop_rule(reason) : NULL);
	ibrd_out_str(o, route);
	ibrd_out_str(o, reason < 0 ? NULL : why ? why : router_drop_desc(reason));
}

static int trace_run(struct ibrd *d, struct ibrd_out *o, const struct router_fib *fib, int in,
		     struct router_mbuf *m, const union ibr_gid *dgid)
{
	static const char *const cols[] = {
		"verdict", "in",       "out",	 "dlid", "slid",  "sl",
		"vl",	   "hoplimit", "reason", "rule", "route", "why"
	};
	struct router_out *out = malloc(sizeof(*out));
	struct router_counters *c = calloc(1, sizeof(*c));
	struct router_mbuf *v[1] = { m };
	char rbuf[IBR_GID_PREFIX_STRLEN + 16], why[200];
	const char *route = trace_route_str(d, dgid, rbuf, sizeof(rbuf));
	int pre;

	if (!out || !c) {
		free(out);
		free(c);
		return ibrd_out_error(o, ENOMEM, "out of memory");
	}
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	if (ibr_gid_is_mcast(dgid) &&
	    (pre = trace_mcast_why(d, fib, in, dgid, why, sizeof(why))) >= 0) {
		trace_row(d, o, "drop", in, NULL, -1, pre, route, why);
		goto done;
	}
	router_engine_burst(fib, v, 1, out, c);
	for (uint32_t p = 0; p < fib->nports; p++)
		for (unsigned i = 0; i < out->ntx[p]; i++)
			trace_row(d, o, out->ncopies > 1 ? "multicast" : "forward", in,
				  &out->tx[p][i], (int)p, -1, route, NULL);
	if (out->nlocal)
		trace_row(d, o, "local", in, NULL, -1, -1, route, NULL);
	if (out->ndrop)
		trace_row(d, o, "drop", in, NULL, -1, out->drop[0].reason, route, NULL);
done:
	free(out);
	free(c);
	return ibrd_out_end(o);
}

int ibrd_cmd_trace(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	struct router_fib *fib = router_pub_get(&d->pub);
	struct ibr_pkt_ud_params p;
	struct router_mbuf m;
	struct trace_req t;
	uint8_t pkt[256];
	int in, len;

	if (trace_parse(d, o, argc, argv, &t))
		return -EINVAL;
	if (!fib)
		return ibrd_out_error(o, EAGAIN, "trace: no forwarding table yet");
	if ((in = trace_port(fib, &t)) < 0)
		return ibrd_out_error(o, EINVAL,
				      "trace: no route to the SGID's prefix: say port P");
	memset(&p, 0, sizeof(p));
	p.grh = true;
	p.dlid = fib->port[in].cfg.lid;
	if (ibr_gid_is_mcast(&t.dgid)) {
		const struct router_fib_mgroup *g = router_fib_mgroup_get(fib, t.dgid.raw);

		p.dlid = g && (g->on_ports & (1u << in)) ? g->mlid[in] : 0xFFFE;
		p.dest_qp = IBR_QPN_MCAST;
	}
	p.slid = 1;
	memcpy(p.sgid, t.sgid.raw, 16);
	memcpy(p.dgid, t.dgid.raw, 16);
	p.tclass = (uint8_t)t.tclass;
	p.flowlabel = (uint32_t)t.flowlabel;
	p.hoplmt = 64;
	p.pkey = IBR_PKEY_DEFAULT;
	if ((len = ibr_pkt_build_ud(pkt, sizeof(pkt), &p)) < 0)
		return ibrd_out_error(o, EINVAL, "trace: cannot build the packet");
	memset(&m, 0, sizeof(m));
	m.data = pkt;
	m.len = (uint32_t)len;
	m.port = (uint8_t)in;
	return trace_run(d, o, fib, in, &m, &t.dgid);
}
