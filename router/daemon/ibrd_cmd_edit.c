/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_edit.c - route, neighbour and mcast add/del from the CLI.  These
 * are static entries (source "static"); each change recompiles and publishes
 * the FIB, and is logged.
 */
#include "router/daemon/ibrd_cmd.h"

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

static int parse_kv(int argc, char **argv, struct kv *kv)
{
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
			return -EINVAL;
		if (slot) {
			if (++i >= argc)
				return -EINVAL;
			*slot = argv[i];
		}
	}
	return 0;
}

static int edit_done(struct ibrd *d, struct ibrd_out *o, int rc, const char *what)
{
	if (rc == -ENOENT)
		return ibrd_out_error(o, ENOENT, "%s: no such entry", what);
	if (rc)
		return ibrd_out_error(
			o, rc, "%s: invalid (check the LID range, LMC alignment and port)", what);
	ibrd_rib_changed(d); /* published before the answer goes out (ibrd_sync.c) */
	log_info("control: %s", what);
	return ibrd_cmd_ok(o);
}

int ibrd_cmd_route(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	struct ibr_gid_prefix pf;
	struct router_route r;
	unsigned long lid = 0, lmc = 0, metric = 0;
	struct kv kv;
	int port;

	if (argc < 3 || ibr_gid_prefix_parse(argv[2], &pf) || pf.len > 64)
		return ibrd_out_usage(o, "usage: route add|del PREFIX ... (prefix length 0..64)");
	if (!strcmp(argv[1], "del")) {
		if (argc != 3)
			return ibrd_out_usage(o, "usage: route del PREFIX");
		return edit_done(d, o,
				 router_rib_route_del(&d->rib, ibr_gid_prefix(&pf.addr), pf.len,
						      ROUTER_SRC_STATIC),
				 "route del");
	}
	if (parse_kv(argc - 3, argv + 3, &kv) || !kv.port || kv.kind < 0 ||
	    (kv.lid && num(kv.lid, 0xBFFF, &lid)) || (kv.lmc && num(kv.lmc, 7, &lmc)) ||
	    (kv.metric && num(kv.metric, UINT32_MAX, &metric)))
		return ibrd_out_usage(o, "usage: route add PREFIX port P lid L [lmc M] | direct | "
					 "algorithmic [metric N]");
	if ((port = ibrd_cmd_port(d, o, kv.port)) < 0)
		return -ENOENT;
	memset(&r, 0, sizeof(r));
	r.key.prefix = ibr_gid_prefix(&pf.addr);
	r.key.plen = pf.len;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh.port = (uint8_t)port;
	r.nh.kind = (uint8_t)kv.kind;
	r.nh.lid = (uint16_t)lid;
	r.nh.lmc = (uint8_t)lmc;
	r.metric = (uint32_t)metric;
	return edit_done(d, o, router_rib_route_add(&d->rib, &r), "route add");
}

int ibrd_cmd_neigh(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	struct router_neigh n;
	unsigned long lid = 0, lmc = 0;
	uint64_t guid;
	struct kv kv;
	int port;

	if (argc < 5 || ibr_guid_parse(argv[2], &guid) || parse_kv(argc - 3, argv + 3, &kv) ||
	    !kv.port || (kv.lid && num(kv.lid, 0xBFFF, &lid)) || (kv.lmc && num(kv.lmc, 7, &lmc)))
		return ibrd_out_usage(o,
				      "usage: neighbour add GUID port P lid L [lmc M] | neighbour "
				      "del GUID port P");
	if ((port = ibrd_cmd_port(d, o, kv.port)) < 0)
		return -ENOENT;
	if (!strcmp(argv[1], "del"))
		return edit_done(
			d, o, router_rib_neigh_del(&d->rib, (uint8_t)port, guid, ROUTER_SRC_STATIC),
			"neighbour del");
	if (!kv.lid)
		return ibrd_out_error(o, EINVAL, "neighbour add: lid is required");
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
	struct kv kv;
	int port;

	if (argc < 5 || ibr_gid_parse(argv[2], &mgid) || !ibr_gid_is_mcast(&mgid) ||
	    parse_kv(argc - 3, argv + 3, &kv) || !kv.port ||
	    (kv.mlid && num(kv.mlid, 0xFFFE, &mlid)) || (kv.sl && num(kv.sl, 15, &sl)) ||
	    (kv.qkey && num(kv.qkey, UINT32_MAX, &qkey)) ||
	    (kv.pkey && num(kv.pkey, 0xFFFF, &pkey)))
		return ibrd_out_usage(o,
				      "usage: mcast add MGID port P mlid L [sl S] [qkey Q] [pkey "
				      "K] [receivers|senders|both] | mcast del MGID port P");
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
