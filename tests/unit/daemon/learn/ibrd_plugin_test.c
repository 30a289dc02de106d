/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/learn/ibrd_plugin_input.c: the daemon's decoder of the
 * OpenSM plugin's messages -- order, snapshots, deltas, bounds, and what it
 * refuses from a plugin that breaks the protocol.
 */
#include "daemon/learn/ibrd_plugin.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Messages built with the library's packer, fed one by one. */
struct wire {
	uint8_t msg[16][IBR_PLUG_MSG_MAX];
	size_t len[16];
	int n;
};

static struct wire w;
static struct ibr_plug_pack pk;
static uint32_t seq;

static int wire_emit(void *ctx, const uint8_t *msg, size_t len)
{
	struct wire *x = ctx;

	if (x->n == 16)
		return -ENOBUFS;
	memcpy(x->msg[x->n], msg, len);
	x->len[x->n++] = len;
	return 0;
}

/* Feed everything queued; the OR of the results, or the first error. */
static int feed(struct ibrd_psess *s)
{
	int all = 0;

	for (int i = 0; i < w.n; i++) {
		int rc = ibrd_psess_input(s, w.msg[i], w.len[i]);

		if (rc < 0) {
			w.n = 0;
			return rc;
		}
		all |= rc;
	}
	w.n = 0;
	return all;
}

static void put_hello(unsigned nserve)
{
	struct ibr_plug_hello h = { .osm_version = "OpenSM 3.3.23",
				    .subnet_prefix = 0xfec0000000000001ull,
				    .sm_lid = 1,
				    .sm_state = 3 };
	uint8_t fixed[IBR_PLUG_HELLO_LEN];

	ibr_plug_hello_put(fixed, &h);
	ibr_plug_pack_start(&pk, IBR_PLUG_HELLO, fixed, wire_emit, &w, &seq);
	for (unsigned i = 0; i < nserve; i++)
		ibr_plug_guid_put(ibr_plug_pack_rec(&pk), 0x300001 + i);
	ibr_plug_pack_end(&pk);
}

static void put_snap(uint8_t type, uint32_t gen, uint32_t nports, uint32_t ngroups)
{
	struct ibr_plug_snap s = { .gen = gen,
				   .nports = nports,
				   .ngroups = ngroups,
				   .subnet_prefix = 0xfec0000000000001ull };
	uint8_t fixed[IBR_PLUG_SNAP_LEN];

	ibr_plug_snap_put(fixed, &s);
	ibr_plug_pack_start(&pk, type, fixed, wire_emit, &w, &seq);
	ibr_plug_pack_end(&pk);
}

/* Ports: GUID g with LID g & 0xff; an alias of base when `alias`. */
static void put_ports(const uint64_t *guids, int n, uint64_t alias_of)
{
	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS, NULL, wire_emit, &w, &seq);
	for (int i = 0; i < n; i++) {
		struct ibr_plug_port r = { .guid = guids[i],
					   .base_guid = alias_of ? alias_of : guids[i],
					   .lid = (uint16_t)(alias_of ? alias_of & 0xff
								      : guids[i] & 0xff),
					   .node_type = guids[i] == 0x300001 ? 3 : 1,
					   .port_num = 1,
					   .flags = alias_of ? IBR_PLUG_PORT_ALIAS : 0 };

		ibr_plug_port_put(ibr_plug_pack_rec(&pk), &r);
	}
	ibr_plug_pack_end(&pk);
}

/* One port of NodeType `type` (an alias of `alias_of` when not 0). */
static void put_port_typed(uint64_t guid, uint8_t type, uint64_t alias_of)
{
	struct ibr_plug_port r = { .guid = guid,
				   .base_guid = alias_of ? alias_of : guid,
				   .lid = (uint16_t)(guid & 0xff),
				   .node_type = type,
				   .port_num = type == 2 ? 0 : 1,
				   .flags = alias_of ? IBR_PLUG_PORT_ALIAS : 0 };

	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS, NULL, wire_emit, &w, &seq);
	ibr_plug_port_put(ibr_plug_pack_rec(&pk), &r);
	ibr_plug_pack_end(&pk);
}

static void put_guids(uint8_t type, const uint64_t *guids, int n)
{
	ibr_plug_pack_start(&pk, type, NULL, wire_emit, &w, &seq);
	for (int i = 0; i < n; i++)
		ibr_plug_guid_put(ibr_plug_pack_rec(&pk), guids[i]);
	ibr_plug_pack_end(&pk);
}

/* A group ff15::<id> with `n` members (GUIDs 0x10 + i, join `js`). */
static void put_group(uint8_t id, unsigned n, uint8_t js)
{
	struct ibr_plug_group g = { .mgid = { 0xff, 0x15, [15] = id },
				    .mlid = (uint16_t)(0xc000 + id),
				    .qkey = 0xb,
				    .pkey = 0xffff,
				    .nmembers = (uint16_t)n };
	uint8_t fixed[IBR_PLUG_GROUP_LEN];

	ibr_plug_group_put(fixed, &g);
	ibr_plug_pack_start(&pk, IBR_PLUG_GROUP, fixed, wire_emit, &w, &seq);
	for (unsigned i = 0; i < n; i++) {
		struct ibr_plug_member m = { .gid = { 0xfe, 0xc0 }, .join_state = js };

		ibr_plug_guid_put(m.gid + 8, 0x10 + i);
		ibr_plug_member_put(ibr_plug_pack_rec(&pk), &m);
	}
	ibr_plug_pack_end(&pk);
}

/* Counts the deltas the daemon would mirror into its RIB; the first port_del GUIDs in order. */
static int n_port, n_port_del, n_group, n_group_del;
static uint64_t del_log[32];

static void on_port(void *ctx, const struct ibrd_pport *p)
{
	(void)ctx, (void)p;
	n_port++;
}
static void on_port_del(void *ctx, const struct ibrd_pport *p)
{
	(void)ctx;
	if (n_port_del < (int)(sizeof(del_log) / sizeof(del_log[0])))
		del_log[n_port_del] = p->guid;
	n_port_del++;
}
static void on_group(void *ctx, const struct ibrd_pgroup *g)
{
	(void)ctx;
	CU_ASSERT_PTR_NOT_NULL(g);
	n_group++;
}
static void on_group_del(void *ctx, const uint8_t mgid[16])
{
	(void)ctx, (void)mgid;
	n_group_del++;
}

static const struct ibrd_psess_ops ops = { on_port, on_port_del, on_group, on_group_del };

static void init(struct ibrd_psess *s)
{
	ibrd_psess_init(s, &ops, NULL);
	w.n = 0;
	seq = 0;
	n_port = n_port_del = n_group = n_group_del = 0;
}

static void test_hello_first_and_once(void)
{
	static const uint64_t g[] = { 0x11 };
	struct ibrd_psess s;

	init(&s);
	put_ports(g, 1, 0);
	CU_ASSERT_EQUAL(feed(&s), -EPROTO); /* nothing before the hello */
	put_hello(2);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO);
	CU_ASSERT_TRUE(s.hello);
	CU_ASSERT_EQUAL(s.nserve, 2);
	CU_ASSERT_EQUAL(s.serve[1], 0x300002);
	CU_ASSERT_STRING_EQUAL(s.h.osm_version, "OpenSM 3.3.23");
	CU_ASSERT_EQUAL(s.sm_state, 3);
	put_hello(0);
	CU_ASSERT_EQUAL(feed(&s), -EPROTO); /* once */
	ibrd_psess_free(&s);
	init(&s);
	put_hello(IBRD_PSESS_SERVE_MAX + 1);
	CU_ASSERT_EQUAL(feed(&s), -E2BIG);
	ibrd_psess_free(&s);
}

static void test_snapshot(void)
{
	static const uint64_t g[] = { 0x11, 0x12, 0x300001 }, al[] = { 0x9011 };
	struct ibrd_psess s;
	const struct ibrd_pport *p;
	const struct ibrd_pgroup *grp;
	uint8_t mgid[16] = { 0xff, 0x15, [15] = 1 };

	init(&s);
	put_hello(0);
	put_snap(IBR_PLUG_SNAP_BEGIN, 7, 0, 0);
	put_ports(g, 3, 0);
	put_ports(al, 1, 0x11);
	put_group(1, 3, 1);
	put_snap(IBR_PLUG_SNAP_END, 7, 4, 1);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_SNAPSHOT);
	CU_ASSERT_EQUAL(s.snapshots, 1);
	CU_ASSERT_EQUAL(s.live.ports.count, 4);
	CU_ASSERT_EQUAL(s.live.groups.count, 1);
	CU_ASSERT_EQUAL(s.live.aliases, 1);
	CU_ASSERT_EQUAL(s.live.members, 3);
	CU_ASSERT_EQUAL(n_port + n_group, 0); /* a snapshot is no delta */
	p = ibrd_psess_port(&s, 0x9011);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->base_guid, 0x11);
	CU_ASSERT_EQUAL(p->lid, 0x11);
	CU_ASSERT_TRUE(ibrd_psess_has_router(&s, 0x300001));
	/* a CA port can be a router port: an HCA's firmware shows it so to its SM */
	CU_ASSERT_TRUE(ibrd_psess_has_router(&s, 0x11));
	CU_ASSERT_FALSE(ibrd_psess_has_router(&s, 0x9011)); /* an alias */
	grp = router_tab_find(&s.live.groups, mgid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(grp);
	CU_ASSERT_EQUAL(grp->g.mlid, 0xc001);
	CU_ASSERT_EQUAL(grp->nmem, 3);
	CU_ASSERT_EQUAL(grp->mem[2].guid, 0x12);
	/* the same subnet again: nothing for the daemon to do */
	put_snap(IBR_PLUG_SNAP_BEGIN, 8, 0, 0);
	put_ports(g, 3, 0);
	put_ports(al, 1, 0x11);
	put_group(1, 3, 1);
	put_snap(IBR_PLUG_SNAP_END, 8, 4, 1);
	CU_ASSERT_EQUAL(feed(&s), 0);
	CU_ASSERT_EQUAL(s.snapshots, 2);
	/* an incomplete one (END counts another number): dropped, the old view stays */
	put_snap(IBR_PLUG_SNAP_BEGIN, 9, 0, 0);
	put_ports(g, 1, 0);
	put_snap(IBR_PLUG_SNAP_END, 9, 2, 0);
	CU_ASSERT_EQUAL(feed(&s), 0);
	CU_ASSERT_EQUAL(s.snap_bad, 1);
	CU_ASSERT_EQUAL(s.live.ports.count, 4);
	/* END of another BEGIN, END without BEGIN */
	put_snap(IBR_PLUG_SNAP_BEGIN, 10, 0, 0);
	put_snap(IBR_PLUG_SNAP_END, 11, 0, 0);
	CU_ASSERT_EQUAL(feed(&s), 0);
	CU_ASSERT_EQUAL(s.snap_bad, 2);
	put_snap(IBR_PLUG_SNAP_END, 11, 0, 0);
	CU_ASSERT_EQUAL(feed(&s), -EPROTO);
	ibrd_psess_free(&s);
}

static void test_deltas(void)
{
	static const uint64_t g[] = { 0x11, 0x12 }, al[] = { 0x9011, 0x9111 }, del[] = { 0x11 };
	struct ibrd_psess s;
	uint8_t mgid[16] = { 0xff, 0x15, [15] = 2 };

	init(&s);
	put_hello(0);
	put_ports(g, 2, 0);	/* trap 64 */
	put_ports(al, 2, 0x11); /* its alias GUIDs */
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_PORTS);
	CU_ASSERT_EQUAL(n_port, 4);
	CU_ASSERT_EQUAL(s.deltas, 2);
	put_guids(IBR_PLUG_PORTS_DEL, del, 1); /* trap 65: the port and its aliases */
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_PORTS);
	CU_ASSERT_EQUAL(n_port_del, 3);
	CU_ASSERT_EQUAL(s.live.ports.count, 1);
	CU_ASSERT_EQUAL(s.live.aliases, 0);
	put_group(2, 1, 1); /* trap 66 */
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_GROUPS);
	CU_ASSERT_EQUAL(n_group, 1);
	put_group(2, 2, 1); /* the same group again replaces it */
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_GROUPS);
	CU_ASSERT_EQUAL(s.live.members, 2);
	ibr_plug_pack_start(&pk, IBR_PLUG_GROUPS_DEL, NULL, wire_emit, &w, &seq); /* trap 67 */
	memcpy(ibr_plug_pack_rec(&pk), mgid, 16);
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_GROUPS);
	CU_ASSERT_EQUAL(n_group_del, 1);
	CU_ASSERT_EQUAL(s.live.groups.count, 0);
	CU_ASSERT_EQUAL(s.live.members, 0);
	ibrd_psess_free(&s);
}

static void del1(struct ibrd_psess *s, uint64_t guid)
{
	put_guids(IBR_PLUG_PORTS_DEL, &guid, 1);
	CU_ASSERT_EQUAL(feed(s), IBRD_PSESS_PORTS);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s->live));
}

static void alias1(struct ibrd_psess *s, uint64_t guid, uint64_t base)
{
	put_ports(&guid, 1, base);
	CU_ASSERT_EQUAL(feed(s), IBRD_PSESS_PORTS);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s->live));
}

/* Adds, moves and deletes keep the index right; a port leaves with exactly its aliases. */
static void test_alias_index_moves(void)
{
	static const uint64_t g[] = { 0x11, 0x12 };
	struct ibrd_psess s;
	struct ibr_plug_port own = { .guid = 0x9003, .base_guid = 0x9003, .lid = 0x13 };

	init(&s);
	put_hello(0);
	put_ports(g, 2, 0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_PORTS);
	CU_ASSERT_EQUAL(s.live.deps.count, 0);
	alias1(&s, 0x9001, 0x11);
	alias1(&s, 0x9002, 0x11);
	alias1(&s, 0x9003, 0x12);
	CU_ASSERT_EQUAL(s.live.aliases, 3);
	CU_ASSERT_EQUAL(s.live.deps.count, 3);
	CU_ASSERT_EQUAL(s.live.bases.count, 2);
	/* the same alias again: in place */
	alias1(&s, 0x9001, 0x11);
	CU_ASSERT_EQUAL(s.live.deps.count, 3);
	/* an alias whose base changes: it moves to the other list */
	alias1(&s, 0x9002, 0x12);
	CU_ASSERT_EQUAL(s.live.aliases, 3);
	CU_ASSERT_EQUAL(s.live.bases.count, 2);
	n_port_del = 0;
	del1(&s, 0x11); /* its old base: the alias stays */
	CU_ASSERT_EQUAL(n_port_del, 2);
	CU_ASSERT_EQUAL(del_log[0], 0x11);
	CU_ASSERT_EQUAL(del_log[1], 0x9001);
	CU_ASSERT_PTR_NOT_NULL(ibrd_psess_port(&s, 0x9002));
	CU_ASSERT_EQUAL(s.live.bases.count, 1); /* 0x11's list went with it */
	CU_ASSERT_EQUAL(s.live.aliases, 2);
	/* an alias that becomes a port of its own leaves the index */
	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS, NULL, wire_emit, &w, &seq);
	ibr_plug_port_put(ibr_plug_pack_rec(&pk), &own);
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_PORTS);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.live));
	CU_ASSERT_EQUAL(s.live.aliases, 1);
	CU_ASSERT_EQUAL(s.live.deps.count, 1);
	/* the base, then its alias: the alias went with the base */
	n_port_del = 0;
	del1(&s, 0x12);
	CU_ASSERT_EQUAL(n_port_del, 2);
	CU_ASSERT_EQUAL(del_log[1], 0x9002);
	CU_ASSERT_PTR_NOT_NULL(ibrd_psess_port(&s, 0x9003));
	del1(&s, 0x9002);
	CU_ASSERT_EQUAL(n_port_del, 2);
	CU_ASSERT_EQUAL(s.live.deps.count, 0);
	CU_ASSERT_EQUAL(s.live.bases.count, 0);
	CU_ASSERT_EQUAL(s.live.aliases, 0);
	ibrd_psess_free(&s);
}

/* A port's aliases leave in the order they came, and only its own (one level). */
static void test_alias_index_order(void)
{
	static const uint64_t g[] = { 0x13, 0x14 };
	struct ibrd_psess s;

	init(&s);
	put_hello(0);
	put_ports(g, 2, 0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_PORTS);
	/* the alias, then its base */
	alias1(&s, 0x9004, 0x13);
	n_port_del = 0;
	del1(&s, 0x9004);
	CU_ASSERT_EQUAL(s.live.bases.count, 0);
	del1(&s, 0x13);
	CU_ASSERT_EQUAL(n_port_del, 2);
	CU_ASSERT_EQUAL(del_log[1], 0x13);
	/* the list keeps the order they came in, through a delete in the middle */
	alias1(&s, 0x9005, 0x14);
	alias1(&s, 0x9006, 0x14);
	alias1(&s, 0x9007, 0x14);
	del1(&s, 0x9006);
	alias1(&s, 0x9008, 0x14);
	n_port_del = 0;
	del1(&s, 0x14);
	CU_ASSERT_EQUAL(n_port_del, 4);
	CU_ASSERT_EQUAL(del_log[0], 0x14);
	CU_ASSERT_EQUAL(del_log[1], 0x9005);
	CU_ASSERT_EQUAL(del_log[2], 0x9007);
	CU_ASSERT_EQUAL(del_log[3], 0x9008);
	CU_ASSERT_EQUAL(s.live.deps.count, 0);
	/* an alias before its base; an alias of an alias (only one level goes) */
	alias1(&s, 0x9010, 0x15);
	alias1(&s, 0x9011, 0x9010);
	put_ports((const uint64_t[]){ 0x15 }, 1, 0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_PORTS);
	n_port_del = 0;
	del1(&s, 0x15);
	CU_ASSERT_EQUAL(n_port_del, 2);
	CU_ASSERT_PTR_NOT_NULL(ibrd_psess_port(&s, 0x9011));
	CU_ASSERT_EQUAL(s.live.bases.count, 1);
	del1(&s, 0x9010); /* no port any more, but its alias is one */
	CU_ASSERT_EQUAL(n_port_del, 3);
	CU_ASSERT_EQUAL(del_log[2], 0x9011);
	CU_ASSERT_EQUAL(s.live.ports.count, 0);
	CU_ASSERT_EQUAL(s.live.deps.count, 0);
	CU_ASSERT_EQUAL(s.live.bases.count, 0);
	CU_ASSERT_EQUAL(s.live.aliases, 0);
	ibrd_psess_free(&s);
}

/* A snapshot brings its own index; the one it replaces, and a dropped one, go. */
static void test_alias_index_snapshot(void)
{
	static const uint64_t g[] = { 0x11, 0x12 };
	struct ibrd_psess s;

	init(&s);
	put_hello(0);
	put_ports(g, 2, 0);
	put_ports((const uint64_t[]){ 0x9001, 0x9002 }, 2, 0x11);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_PORTS);
	CU_ASSERT_EQUAL(s.live.deps.count, 2);
	/* a snapshot: 0x9001 now of 0x12, 0x9003 of 0x11, 0x9002 gone */
	put_snap(IBR_PLUG_SNAP_BEGIN, 1, 0, 0);
	put_ports(g, 2, 0);
	put_ports((const uint64_t[]){ 0x9001 }, 1, 0x12);
	put_ports((const uint64_t[]){ 0x9003 }, 1, 0x11);
	CU_ASSERT_EQUAL(feed(&s), 0);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.staged));
	CU_ASSERT_EQUAL(s.staged.deps.count, 2);
	CU_ASSERT_EQUAL(s.staged.bases.count, 2);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.live));
	CU_ASSERT_EQUAL(s.live.bases.count, 1);
	put_snap(IBR_PLUG_SNAP_END, 1, 4, 0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_SNAPSHOT);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.live));
	CU_ASSERT_EQUAL(s.live.deps.count, 2);
	CU_ASSERT_EQUAL(s.live.bases.count, 2);
	CU_ASSERT_EQUAL(s.staged.deps.count + s.staged.bases.count, 0);
	n_port_del = 0;
	del1(&s, 0x11);
	CU_ASSERT_EQUAL(n_port_del, 2);
	CU_ASSERT_EQUAL(del_log[1], 0x9003);
	CU_ASSERT_PTR_NOT_NULL(ibrd_psess_port(&s, 0x9001));
	/* an incomplete snapshot: the live index stays, the staged one goes */
	put_snap(IBR_PLUG_SNAP_BEGIN, 2, 0, 0);
	put_ports((const uint64_t[]){ 0x9004 }, 1, 0x12);
	put_snap(IBR_PLUG_SNAP_END, 2, 5, 0);
	CU_ASSERT_EQUAL(feed(&s), 0);
	CU_ASSERT_EQUAL(s.snap_bad, 1);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.live));
	CU_ASSERT_EQUAL(s.live.deps.count, 1);
	CU_ASSERT_EQUAL(s.staged.deps.count + s.staged.bases.count, 0);
	/* a BEGIN that starts over empties the staged index; a delete inside a snapshot */
	put_snap(IBR_PLUG_SNAP_BEGIN, 3, 0, 0);
	put_ports((const uint64_t[]){ 0x9005 }, 1, 0x12);
	put_snap(IBR_PLUG_SNAP_BEGIN, 3, 0, 0);
	CU_ASSERT_EQUAL(feed(&s), 0);
	CU_ASSERT_EQUAL(s.staged.deps.count + s.staged.bases.count, 0);
	put_ports((const uint64_t[]){ 0x12 }, 1, 0);
	put_ports((const uint64_t[]){ 0x9006, 0x9007 }, 2, 0x12);
	put_guids(IBR_PLUG_PORTS_DEL, (const uint64_t[]){ 0x12 }, 1);
	CU_ASSERT_EQUAL(feed(&s), 0);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.staged));
	CU_ASSERT_EQUAL(s.staged.ports.count, 0);
	CU_ASSERT_EQUAL(s.staged.deps.count + s.staged.bases.count, 0);
	/* a snapshot without aliases replaces a view with some */
	put_ports((const uint64_t[]){ 0x12 }, 1, 0);
	put_snap(IBR_PLUG_SNAP_END, 3, 4, 0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_SNAPSHOT);
	CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.live));
	CU_ASSERT_EQUAL(s.live.ports.count, 1);
	CU_ASSERT_EQUAL(s.live.deps.count + s.live.bases.count + s.live.aliases, 0);
	ibrd_psess_free(&s);
}

static void test_group_chain(void)
{
	struct ibrd_psess s;
	size_t per = (IBR_PLUG_MSG_MAX - IBR_PLUG_HDR_LEN - IBR_PLUG_GROUP_LEN) /
		     IBR_PLUG_MEMBER_LEN;
	uint8_t mgid[16] = { 0xff, 0x15, [15] = 3 };
	const struct ibrd_pgroup *g;

	init(&s);
	put_hello(0);
	put_group(3, (unsigned)per + 5, 2); /* two messages, MORE on the first */
	CU_ASSERT_EQUAL(w.n, 3);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_GROUPS);
	g = router_tab_find(&s.live.groups, mgid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->nmem, per + 5);
	CU_ASSERT_EQUAL(n_group, 1);
	/* a chain cut by another message */
	put_group(4, (unsigned)per + 1, 1);
	w.n = 1; /* drop its last part */
	put_snap(IBR_PLUG_SNAP_BEGIN, 1, 0, 0);
	CU_ASSERT_EQUAL(feed(&s), -EPROTO);
	ibrd_psess_free(&s);
	/* a chain that changes MGID */
	init(&s);
	put_hello(0);
	put_group(4, (unsigned)per + 1, 1);
	w.n = 2; /* the hello and the first part */
	put_group(5, 1, 1);
	CU_ASSERT_EQUAL(feed(&s), -EPROTO);
	ibrd_psess_free(&s);
}

static void test_refused(void)
{
	static const uint64_t g[] = { 0x11 };
	struct ibrd_psess s;
	struct ibr_plug_port bad = { .guid = 0x13, .lid = 0xc000 };
	uint8_t fixed[IBR_PLUG_GROUP_LEN];
	struct ibr_plug_group mg = { .mgid = { 0xfe, 0x80 }, .mlid = 0xc001 };

	init(&s);
	put_hello(0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO);
	/* a multicast LID is no end port's: the record is skipped, counted */
	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS, NULL, wire_emit, &w, &seq);
	ibr_plug_port_put(ibr_plug_pack_rec(&pk), &bad);
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_PORTS);
	CU_ASSERT_EQUAL(s.refused, 1);
	CU_ASSERT_EQUAL(s.live.ports.count, 0);
	/* a group whose MGID is no multicast GID */
	ibr_plug_group_put(fixed, &mg);
	ibr_plug_pack_start(&pk, IBR_PLUG_GROUP, fixed, wire_emit, &w, &seq);
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL(feed(&s), -EBADMSG);
	/* the daemon's own message type from the plugin */
	ibr_plug_pack_start(&pk, IBR_PLUG_ROUTES, NULL, wire_emit, &w, &seq);
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL(feed(&s), -EPROTO);
	/* a newer plugin's message type: skipped */
	{
		uint8_t b[IBR_PLUG_HDR_LEN + 4] = { 0 };

		ibr_plug_hdr_put(b, 100, 0, 0, sizeof(b), seq++);
		CU_ASSERT_EQUAL(ibrd_psess_input(&s, b, sizeof(b)), 0);
		CU_ASSERT_EQUAL(s.unknown, 1);
	}
	/* a gap in the numbers: the plugin dropped some */
	seq += 5;
	put_ports(g, 1, 0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_PORTS);
	CU_ASSERT_EQUAL(s.gaps, 1);
	ibrd_psess_free(&s);
}

static void test_stats(void)
{
	struct ibrd_psess s;
	struct ibr_plug_stats st = { .dropped = 9, .queue_len = 2, .queue_max = 4, .sm_state = 2 };
	uint8_t fixed[IBR_PLUG_STATS_LEN];

	init(&s);
	put_hello(0);
	ibr_plug_stats_put(fixed, &st);
	ibr_plug_pack_start(&pk, IBR_PLUG_STATS, fixed, wire_emit, &w, &seq);
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_STATS);
	CU_ASSERT_TRUE(s.have_stats);
	CU_ASSERT_EQUAL(s.remote.dropped, 9);
	CU_ASSERT_EQUAL(s.remote.queue_max, 4);
	CU_ASSERT_EQUAL(s.sm_state, 2); /* no longer master */
	ibrd_psess_free(&s);
}

static void test_garbage(void)
{
	struct ibrd_psess s;
	unsigned long long rnd = 7;
	uint8_t b[512];

	init(&s);
	put_hello(0);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_HELLO);
	for (int i = 0; i < 20000; i++) {
		size_t len = ibr_test_rand(&rnd) % sizeof(b);
		int rc;

		for (size_t k = 0; k < len; k++)
			b[k] = (uint8_t)ibr_test_rand(&rnd);
		if (len >= IBR_PLUG_HDR_LEN && i % 2) { /* a valid header now and then */
			ibr_plug_hdr_put(b, (uint8_t)(b[3] % 10), b[4] & 1, b[6] % 4, (uint32_t)len,
					 0);
		}
		rc = ibrd_psess_input(&s, b, len);
		CU_ASSERT_TRUE(ibrd_pview_index_ok(&s.live) && ibrd_pview_index_ok(&s.staged));
		CU_ASSERT(rc >= -E2BIG || rc == -EBADMSG || rc == -EPROTO ||
			  rc == -EPROTONOSUPPORT || rc == -ENOMEM);
		if (rc < 0) { /* the daemon would close: start over */
			ibrd_psess_free(&s);
			init(&s);
			put_hello(0);
			feed(&s);
		}
	}
	ibrd_psess_free(&s);
}

/* Straight into the session, for batches too big for the wire buffer. */
static int direct_emit(void *ctx, const uint8_t *msg, size_t len)
{
	return ibrd_psess_input(ctx, msg, len) < 0 ? -EIO : 0;
}

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/*
 * A PORTS_DEL costs its GUIDs and their aliases, never the table: the
 * decoder scanned all the ports for every GUID as soon as the view held an
 * alias (these 10,000 GUIDs among 200,000 ports took 4.5 s of CPU; 14 s a
 * message at 10^6 ports).  With the alias index they take 2 ms; the bound
 * is 500 times that, so a loaded machine or a sanitizer never fails it.
 */
static void test_ports_del_cost(void)
{
	enum { NPORTS = 200000, NDEL = 10000 };
	const uint64_t base = 0x0002c90300000000ull;
	struct ibrd_psess s;
	double t0, t;

	init(&s);
	put_hello(0);
	CU_ASSERT_EQUAL_FATAL(feed(&s), IBRD_PSESS_HELLO);
	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS, NULL, direct_emit, &s, &seq);
	for (uint32_t i = 0; i < NPORTS; i++) {
		struct ibr_plug_port r = { .guid = base + i,
					   .base_guid = base + i,
					   .lid = (uint16_t)(1 + i % 0xbffe),
					   .node_type = 1,
					   .port_num = 1 };

		ibr_plug_port_put(ibr_plug_pack_rec(&pk), &r);
	}
	CU_ASSERT_EQUAL_FATAL(ibr_plug_pack_end(&pk), 0);
	{
		/* one alias GUID, of the first port */
		struct ibr_plug_port r = { .guid = base + NPORTS,
					   .base_guid = base,
					   .lid = 1,
					   .node_type = 1,
					   .port_num = 1,
					   .flags = IBR_PLUG_PORT_ALIAS };

		ibr_plug_pack_start(&pk, IBR_PLUG_PORTS, NULL, direct_emit, &s, &seq);
		ibr_plug_port_put(ibr_plug_pack_rec(&pk), &r);
		CU_ASSERT_EQUAL_FATAL(ibr_plug_pack_end(&pk), 0);
	}
	CU_ASSERT_EQUAL_FATAL(s.live.ports.count, NPORTS + 1);
	CU_ASSERT_EQUAL_FATAL(s.live.aliases, 1);
	n_port_del = 0;
	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS_DEL, NULL, wire_emit, &w, &seq);
	for (uint32_t i = 1; i <= NDEL; i++) /* not the alias's base */
		ibr_plug_guid_put(ibr_plug_pack_rec(&pk), base + i);
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL_FATAL(w.n, 3); /* messages of up to 4,094 GUIDs */
	t0 = cpu_now();
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_PORTS);
	t = cpu_now() - t0;
	printf("\n    PORTS_DEL of %d GUIDs (3 messages), %d ports, an alias: %.3f ms of CPU\n",
	       NDEL, NPORTS + 1, t * 1e3);
	CU_ASSERT(t < 1.0);
	CU_ASSERT_EQUAL(n_port_del, NDEL);
	CU_ASSERT_EQUAL(s.live.ports.count, NPORTS + 1 - NDEL);
	CU_ASSERT_EQUAL(s.live.aliases, 1);
	/* the alias's base: it leaves with its alias */
	put_guids(IBR_PLUG_PORTS_DEL, &base, 1);
	CU_ASSERT_EQUAL(feed(&s), IBRD_PSESS_PORTS);
	CU_ASSERT_EQUAL(n_port_del, NDEL + 2);
	CU_ASSERT_EQUAL(s.live.aliases, 0);
	CU_ASSERT_PTR_NULL(ibrd_psess_port(&s, base + NPORTS));
	ibrd_psess_free(&s);
}

/*
 * Which router ports a session covers: one whose GUID the snapshot lists as
 * a CA port (a router on an HCA: the firmware answers the SMPs, so OpenSM
 * sees NodeType 1) as well as a Router node's, never a switch or an alias;
 * else by the subnet prefix; only among the ports the hello serves.
 */
static void test_binds_ca(void)
{
	struct ibrd_psess s;

	for (unsigned nserve = 0; nserve < 2; nserve++) {
		init(&s);
		put_hello(nserve); /* 1: it serves 0x300001 alone */
		put_snap(IBR_PLUG_SNAP_BEGIN, 1, 0, 0);
		put_port_typed(0x300001, 1, 0); /* a router port on an HCA: a CA */
		put_port_typed(0x400001, 3, 0); /* one on a Router node (the simulator) */
		put_port_typed(0x200005, 2, 0); /* a switch */
		put_port_typed(0x309001, 1, 0x300001);
		put_snap(IBR_PLUG_SNAP_END, 1, 4, 0);
		CU_ASSERT_EQUAL_FATAL(feed(&s), IBRD_PSESS_HELLO | IBRD_PSESS_SNAPSHOT);
		CU_ASSERT_TRUE(ibrd_psess_binds(&s, 0x300001, 0));
		CU_ASSERT_EQUAL(ibrd_psess_binds(&s, 0x400001, 0), nserve == 0);
		CU_ASSERT_FALSE(ibrd_psess_binds(&s, 0x200005, 0));
		CU_ASSERT_FALSE(ibrd_psess_binds(&s, 0x309001, 0));
		CU_ASSERT_FALSE(ibrd_psess_binds(&s, 0x777, 0));
		CU_ASSERT_FALSE(ibrd_psess_binds(&s, 0, 0));
		/* not in the view: by its prefix, the subnet's */
		CU_ASSERT_EQUAL(ibrd_psess_binds(&s, 0x777, 0xfec0000000000001ull), nserve == 0);
		CU_ASSERT_FALSE(ibrd_psess_binds(&s, 0x777, 0xfec0000000000002ull));
		ibrd_psess_free(&s);
	}
	/* before the hello: nothing */
	init(&s);
	CU_ASSERT_FALSE(ibrd_psess_binds(&s, 0x300001, 0xfec0000000000001ull));
	ibrd_psess_free(&s);
}

static CU_TestInfo tests[] = {
	{ "hello first and once", test_hello_first_and_once },
	{ "snapshots replace the view whole", test_snapshot },
	{ "deltas: traps 64-67", test_deltas },
	{ "alias index: adds, moves, deletes", test_alias_index_moves },
	{ "alias index: the order, one level", test_alias_index_order },
	{ "alias index: snapshots", test_alias_index_snapshot },
	{ "group member chains", test_group_chain },
	{ "refused records and messages", test_refused },
	{ "stats", test_stats },
	{ "garbage never crashes", test_garbage },
	{ "PORTS_DEL costs its GUIDs, not the table", test_ports_del_cost },
	{ "binding: a router port listed as a CA port", test_binds_ca },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_plugin_input", tests);
}
