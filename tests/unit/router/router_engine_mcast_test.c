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
	{ "multicast fan-out and scopes", test_mcast },
	{ "multicast: site-local sources, RPF", test_mcast_site },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("router_engine_mcast", tests, setup, teardown);
}
