/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_engine.c on the fixture of router_engine_fix.h:
 * multicast fan-out and scopes (rules 18-20), site-local sources kept in
 * their site, the reverse path check of groups.
 */
#include "router/router_engine.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/router_engine_fix.h"

#include "lib/crc/ibr_crc.h"
#include "lib/ibr_mgid.h"
#include "lib/ibr_pkt.h"

/* Rules 18-20 and fan-out: site scope stays in site 0; org reaches c. */
static void test_mcast(void)
{
	struct ibr_pkt_ud_params p;
	uint8_t got[8192];

	mcast_params(&p, 0x15, 1, 0xC001);
	build(&p);
	run();
	CU_ASSERT_EQUAL(out.ncopies, 1);
	CU_ASSERT_EQUAL(out.ntx[1], 1);
	CU_ASSERT_EQUAL(out.ntx[2], 0); /* site 1: site scope does not reach it */
	CU_ASSERT_EQUAL(drops_total(), 0);
	tx_bytes(&out.tx[1][0], got);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid((const struct ibr_lrh *)got), 0xC002);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid((const struct ibr_lrh *)got), 0x10);
	CU_ASSERT_EQUAL(ibr_lrh_get_sl((const struct ibr_lrh *)got), 4);
	CU_ASSERT_PTR_NULL(out.tx[1][0].dgid); /* a group's copy: the packet's own DGID */
	CU_ASSERT_EQUAL(ibr_vcrc_verify(got, mb.len), 0);
	CU_ASSERT_EQUAL(ibr_icrc_verify(got, mb.len - 2), 0);
	mcast_params(&p, 0x18, 1, 0xC004);
	gid_set(p.sgid, PFX_GSRC, HOST_A); /* a global source: the organisation */
	build(&p);
	run();
	CU_ASSERT_EQUAL(out.ncopies, 2);
	CU_ASSERT_EQUAL(out.ntx[1], 1);
	CU_ASSERT_EQUAL(out.ntx[2], 1);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[2][0].hdr), 0xC006);
	CU_ASSERT_EQUAL(ibr_lrh_get_sl((const struct ibr_lrh *)out.tx[2][0].hdr), 2);
	/* both copies share the received buffer: no payload copy */
	CU_ASSERT_PTR_EQUAL(out.tx[1][0].m, out.tx[2][0].m);
	mcast_params(&p, 0x12, 1, 0xC007);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SCOPE, "link-local scope");
	mcast_params(&p, 0x13, 1, 0xC001);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SCOPE, "unassigned scope 3");
	mcast_params(&p, 0x15, 0x77, 0xC001);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_NO_GROUP, "unknown MGID");
	mcast_params(&p, 0x15, 2, 0xC009);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_NO_RECEIVERS, "receivers only in the ingress subnet");
	/* from B, the site group goes to A? A has senders only: no receivers */
	mcast_params(&p, 0x15, 1, 0xC002);
	build(&p);
	mb.port = 1;
	run();
	expect_drop(ROUTER_DROP_NO_RECEIVERS, "group from B: A has no receivers");
	mb.port = 0;
}

/* An IPv4 group as RoCE v2 names it (::ffff:a.b.c.d) is a group: forwarded to its receivers */
static void v4_group(uint8_t *mgid, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	memset(mgid, 0, 16);
	mgid[10] = mgid[11] = 0xFF;
	mgid[12] = a;
	mgid[13] = b;
	mgid[14] = c;
	mgid[15] = d;
}

static void v4_group_add(uint8_t a, uint8_t d, uint8_t port, uint16_t mlid, int flags)
{
	struct router_mcast m;

	memset(&m, 0, sizeof(m));
	v4_group(m.key.mgid, a, a == 224 ? 0 : 1, a == 224 ? 0 : 1, d);
	m.key.port = port;
	m.mlid = mlid;
	m.flags = (uint8_t)flags;
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), 0);
}

/* A datagram from host A in a's subnet to the IPv4 group a.b.c.d (port a's MLID). */
static void v4_send(struct ibr_pkt_ud_params *p, uint16_t mlid, uint8_t a, uint8_t b, uint8_t c,
		    uint8_t d)
{
	mcast_params(p, 0x18, 1, mlid);
	v4_group(p->dgid, a, b, c, d);
	gid_set(p->sgid, PFX_GSRC, HOST_A);
	build(p);
	run();
}

static void test_mcast_v4(void)
{
	struct ibr_pkt_ud_params p;
	uint8_t got[8192];

	v4_group_add(239, 1, 0, 0xC00A, ROUTER_MCAST_SENDERS);
	v4_group_add(239, 1, 1, 0xC00B, ROUTER_MCAST_RECEIVERS);
	v4_group_add(239, 1, 2, 0xC00C, ROUTER_MCAST_RECEIVERS);
	recompile();
	v4_send(&p, 0xC00A, 239, 1, 1, 1);
	/* 239.1.1.1: administratively scoped, the organisation's (RFC 2365): b and c */
	CU_ASSERT_EQUAL(drops_total(), 0);
	CU_ASSERT_EQUAL(out.ncopies, 2);
	CU_ASSERT_EQUAL(out.ntx[1], 1);
	CU_ASSERT_EQUAL(out.ntx[2], 1);
	tx_bytes(&out.tx[1][0], got);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid((const struct ibr_lrh *)got), 0xC00B);
	CU_ASSERT_EQUAL(memcmp(got + 8 + 24, p.dgid, 16), 0);
	CU_ASSERT_EQUAL(ibr_icrc_verify(got, mb.len - 2), 0);
	/* an unknown IPv4 group: a group, not a unicast address */
	v4_send(&p, 0xC00A, 239, 1, 1, 2);
	expect_drop(ROUTER_DROP_NO_GROUP, "unknown IPv4 group");
	/* 224.0.0.0/24: the local network's, never forwarded */
	v4_group_add(224, 5, 0, 0xC00D, ROUTER_MCAST_SENDERS);
	v4_group_add(224, 5, 1, 0xC00E, ROUTER_MCAST_RECEIVERS);
	recompile();
	v4_send(&p, 0xC00D, 224, 0, 0, 5);
	expect_drop(ROUTER_DROP_SCOPE, "224.0.0.5: link-local");
	for (uint8_t port = 0; port < 3; port++) {
		uint8_t g[16];

		v4_group(g, 239, 1, 1, 1);
		router_rib_mcast_del(&rib, g, port);
		v4_group(g, 224, 0, 0, 5);
		router_rib_mcast_del(&rib, g, port);
	}
	recompile();
}

/* `mgid` names feed `id` on `port` (flags: SENDERS, it is taken from there; RECEIVERS, sent there). */
static uint8_t feed_hops; /* the next feed_add()'s router_mcast.feed_hops */

static void feed_add(const union ibr_gid *mgid, uint16_t id, uint8_t port, uint16_t mlid, int flags)
{
	struct router_mcast m;

	memset(&m, 0, sizeof(m));
	memcpy(m.key.mgid, mgid->raw, 16);
	m.key.port = port;
	m.mlid = mlid;
	m.flags = (uint8_t)flags;
	m.qkey = 0x01234567;
	m.feed = id;
	m.feed_hops = feed_hops;
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), 0);
}

/* A datagram from a global source on `port` to `mgid` at `mlid`. */
static void feed_send(uint8_t port, const union ibr_gid *mgid, uint16_t mlid)
{
	struct ibr_pkt_ud_params p;

	mcast_params(&p, 0x18, 1, mlid);
	memcpy(p.dgid, mgid->raw, 16);
	gid_set(p.sgid, PFX_GSRC, HOST_A);
	build(&p);
	mb.port = port;
	run();
	mb.port = 0;
}

/*
 * The copy out.tx[port][0]: to `mlid`, DGID `mgid`, its CRCs those of its
 * bytes, HopLmt `hl` (sent with 64).
 */
static void feed_copy_check(uint8_t port, const union ibr_gid *mgid, uint16_t mlid, uint8_t hl)
{
	static uint8_t got[8192];
	const struct router_tx *t = &out.tx[port][0];

	CU_ASSERT_EQUAL_FATAL(out.ntx[port], 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->dgid);
	CU_ASSERT_EQUAL(memcmp(t->dgid, mgid->raw, 16), 0);
	CU_ASSERT_EQUAL(router_tx_build(t, got), mb.len);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid((const struct ibr_lrh *)got), mlid);
	CU_ASSERT_EQUAL(memcmp(got + 8 + 24, mgid->raw, 16), 0);
	CU_ASSERT_EQUAL(got[8 + 7], hl);
	CU_ASSERT_EQUAL(t->hdr[8 + 7], hl); /* what the verbs backend's address handle takes */
	CU_ASSERT_EQUAL(ibr_icrc_verify(got, mb.len - 2), 0);
	CU_ASSERT_EQUAL(ibr_vcrc_verify(got, mb.len), 0);
	/* the rest as it came: the payload, the packet's own SGID */
	CU_ASSERT_EQUAL(memcmp(got + 8 + 8, pkt + 8 + 8, 16), 0);
	CU_ASSERT_EQUAL(memcmp(got + 48, pkt + 48, mb.len - 48 - 6), 0);
}

/*
 * A feed: 239.1.1.1 as rdma_cm names it on port a (ff12:4001:ffff::ef01:101,
 * link-local: never routed as a group), as RoCE names it on b
 * (::ffff:239.1.1.1), as IPoIB names it on c, which only publishes (in):
 * each copy leaves under its port's name with CRCs for it, none goes back
 * or to c; without the feed the rdma_cm MGID is dropped for its scope.
 */
static void test_feed(void)
{
	union ibr_gid g, ib, v4, ipoib;

	CU_ASSERT_EQUAL_FATAL(ibr_gid_parse("::ffff:239.1.1.1", &g), 0);
	v4 = g;
	CU_ASSERT_EQUAL_FATAL(ibr_mgid_make(IBR_MGID_FORM_RDMA_CM, &g, 2, 0xffff, &ib), 0);
	CU_ASSERT_EQUAL_FATAL(ibr_mgid_make(IBR_MGID_FORM_IPOIB, &g, 2, 0xffff, &ipoib), 0);
	feed_add(&ib, 1, 0, 0xC020, ROUTER_MCAST_SENDERS | ROUTER_MCAST_RECEIVERS);
	feed_hops = 200; /* more than the packet has: its own, less one */
	feed_add(&v4, 1, 1, 0xC021, ROUTER_MCAST_SENDERS | ROUTER_MCAST_RECEIVERS);
	feed_hops = 5;
	feed_add(&ipoib, 1, 2, 0xC022, ROUTER_MCAST_SENDERS);
	feed_hops = 0;
	recompile();
	CU_ASSERT_EQUAL(fib->nfeeds, 1);
	feed_send(0, &ib, 0xC020);
	CU_ASSERT_EQUAL(drops_total(), 0);
	CU_ASSERT_EQUAL(out.ncopies, 1);
	feed_copy_check(1, &v4, 0xC021, 63);
	/* into a: HopLmt 1 (the default), which no router forwards again (C8-16) */
	feed_send(1, &v4, 0xC021);
	CU_ASSERT_EQUAL(drops_total(), 0);
	CU_ASSERT_EQUAL(out.ncopies, 1);
	feed_copy_check(0, &ib, 0xC020, 1);
	feed_send(2, &ipoib, 0xC022);
	CU_ASSERT_EQUAL(drops_total(), 0);
	CU_ASSERT_EQUAL(out.ncopies, 2);
	feed_copy_check(0, &ib, 0xC020, 1);
	feed_copy_check(1, &v4, 0xC021, 63);
	/*
	 * A second router's copy of the feed, into a as the first one sent it
	 * (HopLmt 1): dropped, so that two routers carrying one feed between
	 * the same subnets never send it back and forth
	 */
	{
		struct ibr_pkt_ud_params p;

		mcast_params(&p, 0x18, 1, 0xC020);
		memcpy(p.dgid, ib.raw, 16);
		gid_set(p.sgid, PFX_GSRC, HOST_A);
		p.hoplmt = 1;
		build(&p);
		run();
		expect_drop(ROUTER_DROP_HOPLMT, "a feed's copy from another router (HopLmt 1)");
	}
	for (uint8_t port = 0; port < 3; port++) {
		router_rib_mcast_del(&rib, ib.raw, port);
		router_rib_mcast_del(&rib, v4.raw, port);
		router_rib_mcast_del(&rib, ipoib.raw, port);
	}
	/* the same MGIDs as plain groups (its MLID known on a): no feed, no crossing */
	feed_add(&ib, 0, 0, 0xC020, ROUTER_MCAST_SENDERS | ROUTER_MCAST_RECEIVERS);
	feed_add(&ib, 0, 1, 0xC021, ROUTER_MCAST_SENDERS | ROUTER_MCAST_RECEIVERS);
	recompile();
	CU_ASSERT_EQUAL(fib->nfeeds, 0);
	feed_send(0, &ib, 0xC020);
	expect_drop(ROUTER_DROP_SCOPE, "rdma_cm's link-local MGID without its feed");
	for (uint8_t port = 0; port < 2; port++)
		router_rib_mcast_del(&rib, ib.raw, port);
	recompile();
}

/*
 * Check 24 for multicast: a site-local source stays in its site whatever
 * the group's scope (an org-scope group reached port c, site 1, from a
 * fec0:: SGID); the RPF check of the ingress port applies to groups too.
 */
static void test_mcast_site(void)
{
	struct ibr_pkt_ud_params p;

	mcast_params(&p, 0x18, 1, 0xC004); /* SGID fec0:0:0:1::: site-local */
	build(&p);
	run();
	CU_ASSERT_EQUAL(out.ncopies, 1);
	CU_ASSERT_EQUAL(out.ntx[1], 1);
	CU_ASSERT_EQUAL(out.ntx[2], 0);
	CU_ASSERT_EQUAL(drops_total(), 0);
	/* receivers only in the other site: dropped, and counted as such */
	add_group(0x18, 3, 0, 0xC00A, 0, ROUTER_MCAST_SENDERS);
	add_group(0x18, 3, 2, 0xC00B, 0, ROUTER_MCAST_RECEIVERS);
	recompile();
	mcast_params(&p, 0x18, 3, 0xC00A);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SITE,
		    "org-scope group from a site-local source, receivers in site 1");
	gid_set(p.sgid, PFX_GSRC, HOST_A);
	build(&p);
	run();
	expect_fwd(2, "the same group from a global source");
	/* strict RPF on a: the global source has no route back through a */
	rib.port[0].rpf = ROUTER_RPF_STRICT;
	recompile();
	run();
	expect_drop(ROUTER_DROP_RPF,
		    "multicast from a source not routed back via the ingress port");
	rib.port[0].rpf = ROUTER_RPF_OFF;
	CU_ASSERT_EQUAL(router_rib_mcast_del(&rib, p.dgid, 0), 0);
	CU_ASSERT_EQUAL(router_rib_mcast_del(&rib, p.dgid, 2), 0);
	recompile();
}

static CU_TestInfo tests[] = {
	{ "a feed: each port's name for the group, CRCs anew", test_feed },
	{ "multicast fan-out and scopes", test_mcast },
	{ "multicast: site-local sources, RPF", test_mcast_site },
	{ "multicast: IPv4 groups (::ffff:224.0.0.0/100)", test_mcast_v4 },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("router_engine_mcast", tests, setup, teardown);
}
