/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_engine.c on the fixture of router_engine_fix.h:
 * RoCE ports (ROUTER_PORT_ROCE, no LID): packets in by DLID 0, out to a
 * next hop by GID alone.
 */
#include "router/router_engine.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/router_engine_fix.h"

#include "lib/crc/ibr_crc.h"
#include "lib/ibr_pkt.h"

/* Port `i` made a RoCE port (no LID) or an IB one with LID `lid` again; the FIB recompiled. */
static void port_roce(int i, bool roce, uint16_t lid)
{
	rib.port[i].lid = roce ? 0 : lid;
	if (roce)
		rib.port[i].flags |= ROUTER_PORT_ROCE;
	else
		rib.port[i].flags &= (uint8_t)~ROUTER_PORT_ROCE;
	recompile();
}

/*
 * RoCE ingress (ROUTER_PORT_ROCE, no LID): the verbs backend gives its
 * packets DLID 0, which check 6 takes as the port's own (IBA 8.2.3 with
 * lid_span 1 from LID 0) by the fast path and by the ordered checks (an
 * IPv4-mapped SGID, prefix 0, takes those: RoCE v2 over IPv4); without the
 * flag the same port has no LID and DLID 0 is dropped.
 */
static void test_roce_ingress(void)
{
	struct ibr_pkt_ud_params p;

	port_roce(0, true, 1);
	params_default(&p, 64);
	p.slid = 0;
	p.dlid = 0;
	build(&p);
	run();
	expect_fwd(1, "RoCE in, DLID 0");
	gid_set(p.sgid, 0, 0x0000FFFF0A010007ull); /* ::ffff:10.1.0.7 */
	build(&p);
	run();
	expect_fwd(1, "RoCE in, DLID 0, IPv4-mapped SGID");
	p.dlid = 1;
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DLID, "RoCE in, DLID 1");
	port_roce(0, false, 0);
	p.dlid = 0;
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DLID, "no LID, no RoCE, IPv4-mapped SGID");
	params_default(&p, 64);
	p.dlid = 0;
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DLID, "no LID, no RoCE, DLID 0");
	port_roce(0, false, 1);
}

/*
 * RoCE egress: a route of kind ROUTER_NH_GID reaches the subnet's hosts by
 * GID alone, DLID 0 whatever LID the route carries and no neighbour needed,
 * where a direct route (ROUTER_NH_DIRECT) without the neighbour drops; a
 * port without a LID and without the flag is not usable.
 */
static void test_roce_egress(void)
{
	struct ibr_pkt_ud_params p;
	const struct ibr_lrh *l;

	add_route(PFX_B, 64, 1, ROUTER_NH_GID, 0x77);
	port_roce(1, true, 0x10);
	CU_ASSERT_TRUE(fib->port[1].usable);
	params_default(&p, 64);
	gid_set(p.dgid, PFX_B, 0x999); /* no neighbour entry */
	build(&p);
	run();
	expect_fwd(1, "GID next hop, no neighbour");
	l = (const struct ibr_lrh *)out.tx[1][0].hdr;
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(l), 0);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(l), 0); /* the port has no LID */
	port_roce(1, false, 0);
	CU_ASSERT_FALSE(fib->port[1].usable);
	run();
	expect_drop(ROUTER_DROP_PORT_DOWN, "no LID, no RoCE: not usable");
	add_route(PFX_B, 64, 1, ROUTER_NH_DIRECT, 0);
	port_roce(1, true, 0x10);
	run();
	expect_drop(ROUTER_DROP_NO_NEIGH, "direct next hop, no neighbour");
	port_roce(1, false, 0x10);
}

static CU_TestInfo tests[] = {
	{ "RoCE ingress: DLID 0", test_roce_ingress },
	{ "RoCE egress: next hop by GID", test_roce_egress },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("router_engine_roce", tests, setup, teardown);
}
