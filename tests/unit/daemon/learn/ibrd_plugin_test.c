/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/learn/ibrd_plugin_input.c: the daemon's decoder of the
 * OpenSM plugin's messages -- order, snapshots, deltas, bounds, and what it
 * refuses from a plugin that breaks the protocol.
 */
#include "daemon/learn/ibrd_plugin.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* Counts the deltas the daemon would mirror into its RIB. */
static int n_port, n_port_del, n_group, n_group_del;

static void on_port(void *ctx, const struct ibrd_pport *p)
{
	(void)ctx, (void)p;
	n_port++;
}
static void on_port_del(void *ctx, const struct ibrd_pport *p)
{
	(void)ctx, (void)p;
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
	CU_ASSERT_FALSE(ibrd_psess_has_router(&s, 0x11));
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

static CU_TestInfo tests[] = {
	{ "hello first and once", test_hello_first_and_once },
	{ "snapshots replace the view whole", test_snapshot },
	{ "deltas: traps 64-67", test_deltas },
	{ "group member chains", test_group_chain },
	{ "refused records and messages", test_refused },
	{ "stats", test_stats },
	{ "garbage never crashes", test_garbage },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_plugin_input", tests);
}
