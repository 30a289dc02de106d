/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_edit.c - route, neighbour and mcast add/del from the CLI.  These
 * are static entries (source "static"); each change recompiles and publishes
 * the FIB, and is logged.
 */
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/conf/ibrd_conf.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A number within [0, max] (decimal or 0x hex). */
static int num(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 0);
	return errno || *end || *v > max ? -EINVAL : 0;
}

/* Words after the fixed ones: "key value" pairs and flags. */
struct kv {
	const char *port, *lid, *lmc, *metric, *mlid, *sl, *qkey, *pkey;
	int kind; /* route: -1 unset, else enum router_nh_kind */
	int dir;  /* mcast: 1 receivers, 2 senders, 3 both */
};

/*
 * The words after the fixed ones.  0, or a usage refusal that names the
 * word: one this command does not know, or a key without its value.
 */
static int parse_kv(struct ibrd_out *o, const char *cmd, int argc, char **argv, struct kv *kv)
{
	char w[64];

	memset(kv, 0, sizeof(*kv));
	kv->kind = -1;
	kv->dir = 3;
	for (int i = 0; i < argc; i++) {
		const char **slot = NULL;

		if (!strcmp(argv[i], "direct"))
			kv->kind = ROUTER_NH_DIRECT;
		else if (!strcmp(argv[i], "algorithmic"))
			kv->kind = ROUTER_NH_ALGO;
		else if (!strcmp(argv[i], "receivers"))
			kv->dir = 1;
		else if (!strcmp(argv[i], "senders"))
			kv->dir = 2;
		else if (!strcmp(argv[i], "both"))
			kv->dir = 3;
		else if (!strcmp(argv[i], "port"))
			slot = &kv->port;
		else if (!strcmp(argv[i], "lid"))
			slot = &kv->lid, kv->kind = ROUTER_NH_ROUTER;
		else if (!strcmp(argv[i], "lmc"))
			slot = &kv->lmc;
		else if (!strcmp(argv[i], "metric"))
			slot = &kv->metric;
		else if (!strcmp(argv[i], "mlid"))
			slot = &kv->mlid;
		else if (!strcmp(argv[i], "sl"))
			slot = &kv->sl;
		else if (!strcmp(argv[i], "qkey"))
			slot = &kv->qkey;
		else if (!strcmp(argv[i], "pkey"))
			slot = &kv->pkey;
		else
			return ibrd_out_usage(o, "%s: unknown word \"%s\"", cmd,
					      ibrd_out_escape(argv[i], w, sizeof(w)));
		if (slot) {
			if (++i >= argc)
				return ibrd_out_usage(o, "%s: %s needs a value", cmd, argv[i - 1]);
			*slot = argv[i];
		}
	}
	return 0;
}

/*
 * Key `key`'s value `s` (NULL: absent, v left as it is) within [min, max]:
 * 0, or a usage refusal that says which value and what it must be, as the
 * config's messages do ("lid 0 is not a unicast LID (1..0xbfff)").
 */
static int kv_num(struct ibrd_out *o, const char *cmd, const char *key, const char *s,
		  unsigned long min, unsigned long max, const char *what, unsigned long *v)
{
	char w[64];

	if (!s || (num(s, max, v) == 0 && *v >= min))
		return 0;
	return ibrd_out_usage(o, "%s: %s %s is not %s", cmd, key, ibrd_out_escape(s, w, sizeof(w)),
			      what);
}

/* A base LID and LMC the SM could have assigned (IBA 7.11.1), as the config checks them. */
static int lid_aligned(struct ibrd_out *o, const char *cmd, const char *s, unsigned long lid,
		       unsigned long lmc)
{
	if (!s || ibr_lid_range_valid((uint16_t)lid, (unsigned)lmc))
		return 0;
	return ibrd_out_usage(o, "%s: lid %lu is not aligned to lmc %lu (a multiple of %lu)", cmd,
			      lid, lmc, 1ul << lmc);
}

static int edit_done(struct ibrd *d, struct ibrd_out *o, int rc, const char *what)
{
	if (rc == -ENOENT)
		return ibrd_out_error(o, ENOENT, "%s: no such entry", what);
	/* the words were checked before: what is left is the tables' (EEXIST, ENOMEM) */
	if (rc)
		return ibrd_out_error(o, -rc, "%s: %s", what, strerror(-rc));
	ibrd_rib_changed(d); /* published before the answer goes out (ibrd_sync.c) */
	log_info("control: %s", what);
	return ibrd_cmd_ok(o);
}

/*
 * The end of the next hop whose words start at argv[at]: before the second
 * "port" key (a value is never a key: "port port" names a port "port").
 */
static int next_hop_end(int argc, char **argv, int at)
{
	static const char *const valued[] = { "port", "lid", "lmc", "metric" };
	bool port = false;

	for (int i = at; i < argc; i++) {
		bool key = false;

		for (size_t k = 0; k < sizeof(valued) / sizeof(valued[0]); k++)
			key |= !strcmp(argv[i], valued[k]);
		if (!strcmp(argv[i], "port") && port)
			return i;
		port |= !strcmp(argv[i], "port");
		i += key; /* its value */
	}
	return argc;
}

int ibrd_cmd_route(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	const char *cmd = argc > 1 && !strcmp(argv[1], "del") ? "route del" : "route add", *why;
	struct router_nh nhs[ROUTER_ECMP_MAX];
	struct router_route r;
	unsigned long lid = 0, lmc = 0, metric = 0;
	unsigned n = 0;
	uint64_t prefix;
	uint8_t plen;
	struct kv kv;
	char w[64];
	int port, rc;

	if (argc < 3)
		return ibrd_out_usage(o, "usage: route add|del PREFIX ... (prefix length 0..64)");
	/* the config's rule for a route's prefix, and its words (ibrd_conf.c) */
	if ((why = ibrd_conf_prefix_why(argv[2], &prefix, &plen)))
		return ibrd_out_usage(o, "%s: %s: %s", cmd, ibrd_out_escape(argv[2], w, sizeof(w)),
				      why);
	if (!strcmp(argv[1], "del")) {
		if (argc != 3)
			return ibrd_out_usage(o, "usage: route del PREFIX");
		return edit_done(d, o,
				 router_rib_route_del(&d->rib, prefix, plen, ROUTER_SRC_STATIC),
				 "route del");
	}
	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = plen;
	r.key.source = ROUTER_SRC_STATIC;
	/*
	 * One next hop a "port" word: "port b lid 5 port b lid 7" is a route
	 * through two next routers of equal cost (each flow keeps one).  No
	 * words at all: the first next hop has no port (usage).
	 */
	for (int at = 3, end = 3; at == 3 || at < argc; at = end) {
		end = next_hop_end(argc, argv, at);
		if (n == ROUTER_ECMP_MAX)
			return ibrd_out_usage(o, "%s: at most %u next hops", cmd, ROUTER_ECMP_MAX);
		lid = lmc = 0;
		if ((rc = parse_kv(o, cmd, end - at, argv + at, &kv)) ||
		    (rc = kv_num(o, cmd, "lid", kv.lid, 1, 0xBFFF, "a unicast LID (1..0xbfff)",
				 &lid)) ||
		    (rc = kv_num(o, cmd, "lmc", kv.lmc, 0, 7, "an LMC (0..7)", &lmc)) ||
		    (rc = kv_num(o, cmd, "metric", kv.metric, 0, UINT32_MAX,
				 "a metric (0..4294967295)", &metric)) ||
		    (rc = lid_aligned(o, cmd, kv.lid, lid, lmc)))
			return rc;
		if (!kv.port || kv.kind < 0)
			return ibrd_out_usage(o, "usage: route add PREFIX port P lid L [lmc M] "
						 "[port P lid L ...] | port P direct | port P "
						 "algorithmic [metric N]");
		/* one of several (before it, or after it): a next router */
		if ((n || end < argc) && kv.kind != ROUTER_NH_ROUTER)
			return ibrd_out_usage(o,
					      "%s: several next hops must all be next routers "
					      "(lid L)",
					      cmd);
		if ((port = ibrd_cmd_port(d, o, kv.port)) < 0)
			return -ENOENT;
		for (unsigned i = 0; i < n; i++)
			if (nhs[i].port == port && nhs[i].lid == lid)
				return ibrd_out_usage(o, "%s: port %s lid %lu twice", cmd, kv.port,
						      lid);
		nhs[n++] = (struct router_nh){ .port = (uint8_t)port,
					       .kind = (uint8_t)kv.kind,
					       .lid = (uint16_t)lid,
					       .lmc = (uint8_t)lmc };
	}
	r.metric = (uint32_t)metric;
	return edit_done(d, o, router_rib_route_add_nhs(&d->rib, &r, nhs, n), "route add");
}

int ibrd_cmd_neigh(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	const char *cmd = argc > 1 && !strcmp(argv[1], "del") ? "neighbour del" : "neighbour add";
	struct router_neigh n;
	unsigned long lid = 0, lmc = 0;
	uint64_t guid;
	struct kv kv;
	char w[64];
	int port, rc;

	if (argc < 5)
		return ibrd_out_usage(o,
				      "usage: neighbour add GUID port P lid L [lmc M] | neighbour "
				      "del GUID port P");
	if (ibr_guid_parse(argv[2], &guid))
		return ibrd_out_usage(o, "%s: %s is not a GUID (0x0002c90300001234)", cmd,
				      ibrd_out_escape(argv[2], w, sizeof(w)));
	if ((rc = parse_kv(o, cmd, argc - 3, argv + 3, &kv)) ||
	    (rc = kv_num(o, cmd, "lid", kv.lid, 1, 0xBFFF, "a unicast LID (1..0xbfff)", &lid)) ||
	    (rc = kv_num(o, cmd, "lmc", kv.lmc, 0, 7, "an LMC (0..7)", &lmc)) ||
	    (rc = lid_aligned(o, cmd, kv.lid, lid, lmc)))
		return rc;
	if (!kv.port)
		return ibrd_out_usage(o, "%s: port is required", cmd);
	if ((port = ibrd_cmd_port(d, o, kv.port)) < 0)
		return -ENOENT;
	if (!strcmp(argv[1], "del"))
		return edit_done(
			d, o, router_rib_neigh_del(&d->rib, (uint8_t)port, guid, ROUTER_SRC_STATIC),
			"neighbour del");
	if (!kv.lid)
		return ibrd_out_usage(o, "neighbour add: lid is required");
	memset(&n, 0, sizeof(n));
	n.key.guid = guid;
	n.key.port = (uint8_t)port;
	n.key.source = ROUTER_SRC_STATIC;
	n.lid = (uint16_t)lid;
	n.lmc = (uint8_t)lmc;
	return edit_done(d, o, router_rib_neigh_add(&d->rib, &n), "neighbour add");
}

/* A group edited: on a RoCE port it is what the bridging policy sees there (ibrd_roce.c). */
static int mcast_edited(struct ibrd *d, int rc)
{
	if (!rc)
		ibrd_groups_changed(d);
	return rc;
}

int ibrd_cmd_mcast(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	struct router_mcast m;
	union ibr_gid mgid;
	unsigned long mlid = 0, sl = 0, qkey = 0, pkey = 0xFFFF;
	const char *cmd = argc > 1 && !strcmp(argv[1], "del") ? "mcast del" : "mcast add";
	struct kv kv;
	char w[64];
	int port, rc;

	if (argc < 5)
		return ibrd_out_usage(o,
				      "usage: mcast add MGID port P mlid L [sl S] [qkey Q] [pkey "
				      "K] [receivers|senders|both] | mcast del MGID port P");
	if (ibr_gid_parse(argv[2], &mgid) || !ibr_gid_is_mcast(&mgid))
		return ibrd_out_usage(o, "%s: %s is not a multicast GID (ff15::1:1)", cmd,
				      ibrd_out_escape(argv[2], w, sizeof(w)));
	if ((rc = parse_kv(o, cmd, argc - 3, argv + 3, &kv)) ||
	    (rc = kv_num(o, cmd, "mlid", kv.mlid, 0, 0xFFFE, "an MLID (0..0xfffe)", &mlid)) ||
	    (rc = kv_num(o, cmd, "sl", kv.sl, 0, 15, "an SL (0..15)", &sl)) ||
	    (rc = kv_num(o, cmd, "qkey", kv.qkey, 0, UINT32_MAX, "a Q_Key (0..0xffffffff)",
			 &qkey)) ||
	    (rc = kv_num(o, cmd, "pkey", kv.pkey, 0, 0xFFFF, "a P_Key (0..0xffff)", &pkey)))
		return rc;
	if (!kv.port)
		return ibrd_out_usage(o, "%s: port is required", cmd);
	if ((port = ibrd_cmd_port(d, o, kv.port)) < 0)
		return -ENOENT;
	if (!strcmp(argv[1], "del"))
		return edit_done(
			d, o,
			mcast_edited(d, router_rib_mcast_del(&d->rib, mgid.raw, (uint8_t)port)),
			"mcast del");
	memset(&m, 0, sizeof(m));
	memcpy(m.key.mgid, mgid.raw, 16);
	m.key.port = (uint8_t)port;
	m.mlid = (uint16_t)mlid;
	m.sl = (uint8_t)sl;
	m.qkey = (uint32_t)qkey;
	m.pkey = (uint16_t)pkey;
	m.source = ROUTER_SRC_STATIC;
	m.flags = (uint8_t)((kv.dir & 1 ? ROUTER_MCAST_RECEIVERS : 0) |
			    (kv.dir & 2 ? ROUTER_MCAST_SENDERS : 0));
	return edit_done(d, o, mcast_edited(d, router_rib_mcast_add(&d->rib, &m)), "mcast add");
}
