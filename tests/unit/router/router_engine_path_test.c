/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_engine.c on the fixture of router_engine_fix.h:
 * where a packet goes and what it leaves with.  Several next routers (one per
 * flow, strict reverse path, never back out of the ingress port), LMC path
 * selection over every byte of the flow, a next router with LMC; rewrites
 * compared byte for byte with an independently built packet; TClass/SL/VL
 * maps.
 */
#include "router/router_engine.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/router_engine_fix.h"

#include "lib/crc/ibr_crc.h"
#include "lib/ibr_pkt.h"

#include <string.h>

/* ---- several next routers (ROUTER_VAL_ECMP) ---- */

#define PFX_E 0xfec000000000000eull /* behind three routers in B */

static void add_ecmp(uint64_t prefix, unsigned n, const uint8_t *ports, uint16_t lid0)
{
	struct router_route r;
	struct router_nh nhs[ROUTER_ECMP_MAX];
	unsigned nnh = 0;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_PEER;
	nnh = (uint8_t)n;
	for (unsigned i = 0; i < n; i++)
		nhs[i] = (struct router_nh){ .port = ports[i],
					     .kind = ROUTER_NH_ROUTER,
					     .lid = (uint16_t)(lid0 + i) };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
}

/* Flow i from A to E (SGID's GUID i), FlowLabel fl: its DLID out of b, 0 if not sent there. */
static uint16_t ecmp_dlid(unsigned i, uint32_t fl)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 64);
	gid_set(p.sgid, PFX_A, 0x0002c90300001000ull + i);
	gid_set(p.dgid, PFX_E, 0x0002c90300002000ull);
	p.flowlabel = fl;
	build(&p);
	run();
	if (out.ncopies != 1 || out.ntx[1] != 1)
		return 0;
	return ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[1][0].hdr);
}

/*
 * A route through three next routers: each flow keeps one (the same at
 * every packet, the one router_fib_ecmp_pick() says), 64 flows use all
 * three; one router gone, only its flows move; the FlowLabel is part of
 * the flow
 */
static void test_ecmp(void)
{
	static const uint8_t bbb[3] = { 1, 1, 1 };
	uint16_t before[64], after[64];
	unsigned n[3] = { 0 }, moved = 0, fl_moved = 0;

	add_ecmp(PFX_E, 3, bbb, 0x50);
	recompile();
	for (unsigned i = 0; i < 64; i++) {
		before[i] = ecmp_dlid(i, 0);
		CU_ASSERT_FATAL(before[i] >= 0x50 && before[i] <= 0x52);
		n[before[i] - 0x50]++;
		CU_ASSERT_EQUAL(ecmp_dlid(i, 0), before[i]); /* one flow, one router */
		CU_ASSERT_EQUAL(before[i],
				(uint16_t)router_fib_ecmp_pick(
					fib, router_fib_route_get(fib, PFX_E), pkt + 8, 0));
		fl_moved += ecmp_dlid(i, 0x777) != before[i];
	}
	for (unsigned k = 0; k < 3; k++)
		CU_ASSERT(n[k] >= 10); /* 64 flows over three: each has some */
	CU_ASSERT(fl_moved > 10);
	/* the router of LID 0x51 goes: the route through 0x50 and 0x52 */
	{
		struct router_route r;
		struct router_nh nhs[ROUTER_ECMP_MAX];
		unsigned nnh = 0;

		memset(&r, 0, sizeof(r));
		r.key = (struct router_route_key){ .prefix = PFX_E,
						   .plen = 64,
						   .source = ROUTER_SRC_PEER };
		nnh = 2;
		nhs[0] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 0x52 };
		nhs[1] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 0x50 };
		CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
	}
	recompile();
	for (unsigned i = 0; i < 64; i++) {
		after[i] = ecmp_dlid(i, 0);
		CU_ASSERT(after[i] == 0x50 || after[i] == 0x52);
		if (before[i] != 0x51)
			CU_ASSERT_EQUAL(after[i], before[i]);
		moved += after[i] != before[i];
	}
	CU_ASSERT_EQUAL(moved, n[1]);
	router_rib_route_del(&rib, PFX_E, 64, ROUTER_SRC_PEER);
	recompile();
}

/*
 * Next routers through several ports: a flow whose bucket leads back out
 * of its ingress port takes one that does not (a drop otherwise), the same
 * at every packet; through the ingress port alone, the drop stays
 */
static void test_ecmp_not_back(void)
{
	static const uint8_t ab[2] = { 0, 1 };
	struct ibr_pkt_ud_params p;
	unsigned out_a = 0;

	add_ecmp(PFX_E, 2, ab, 0x70); /* 0x70 through a, 0x71 through b */
	recompile();
	for (unsigned i = 0; i < 64; i++) {
		uint16_t first;

		/* in by a: every flow leaves by b, to 0x71 */
		CU_ASSERT_EQUAL(ecmp_dlid(i, 0), 0x71);
		/* in by b (a SGID of A's, as a host of B would not send it): by a, to 0x70 */
		params_default(&p, 64);
		gid_set(p.sgid, PFX_A, 0x0002c90300001000ull + i);
		gid_set(p.dgid, PFX_E, 0x0002c90300002000ull);
		p.dlid = 0x10;
		build(&p);
		mb.port = 1;
		run();
		out_a += out.ncopies == 1 && out.ntx[0] == 1;
		first = out.ncopies ? ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[0][0].hdr)
				    : 0;
		CU_ASSERT_EQUAL(first, 0x70);
	}
	CU_ASSERT_EQUAL(out_a, 64);
	/* one next router, through a: in by a, dropped as before */
	add_ecmp(PFX_E, 2, (const uint8_t[]){ 0, 0 }, 0x70);
	recompile();
	params_default(&p, 64);
	gid_set(p.dgid, PFX_E, 0x0002c90300002000ull);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SAME_PORT, "both next routers through the ingress port");
	router_rib_route_del(&rib, PFX_E, 64, ROUTER_SRC_PEER);
	recompile();
}

/* Strict reverse path with an SGID behind several routers: any of their ports will do */
static void test_ecmp_rpf(void)
{
	static const uint8_t bc[2] = { 1, 2 };
	struct ibr_pkt_ud_params p;

	add_ecmp(PFX_E, 2, bc, 0x60);
	rib.port[0].rpf = ROUTER_RPF_STRICT;
	rib.port[1].rpf = ROUTER_RPF_STRICT;
	recompile();
	params_default(&p, 64);
	gid_set(p.sgid, PFX_E, 1); /* from behind b or c, arriving on a */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_RPF, "strict rpf, SGID behind routers of b and c, in by a");
	params_default(&p, 64);
	gid_set(p.sgid, PFX_E, 1);
	gid_set(p.dgid, PFX_A, HOST_A);
	p.dlid = 0x10;
	build(&p);
	mb.port = 1; /* in by b: one of them */
	run();
	expect_fwd(0, "strict rpf, SGID behind a router of b, in by b");
	rib.port[0].rpf = ROUTER_RPF_OFF;
	rib.port[1].rpf = ROUTER_RPF_OFF;
	router_rib_route_del(&rib, PFX_E, 64, ROUTER_SRC_PEER);
	recompile();
}

/* Rewrite: every byte of the output against a packet built independently
 * with the new LRH and HopLmt; ICRC unchanged, VCRC valid. */
static void test_rewrite_bytes(void)
{
	static const size_t sizes[] = { 0, 1, 3, 64, 255, 256, 1024, 2048 };
	struct ibr_pkt_ud_params p, q;
	uint8_t got[8192], want[8192];

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		int len;

		params_default(&p, sizes[i]);
		p.tclass = 0xA5;
		len = build(&p);
		run();
		expect_fwd(1, "rewrite");
		if (out.ntx[1] != 1)
			continue;
		tx_bytes(&out.tx[1][0], got);
		q = p;
		q.slid = 0x10; /* port b's LID */
		q.dlid = 5;    /* HOST_B's LID */
		q.hoplmt = 63;
		q.vl = 0; /* default SL->VL map */
		CU_ASSERT_EQUAL(ibr_pkt_build_ud(want, sizeof(want), &q), len);
		CU_ASSERT_EQUAL(memcmp(got, want, (size_t)len), 0);
		CU_ASSERT_EQUAL(memcmp(got + len - 6, pkt + len - 6, 4), 0); /* ICRC untouched */
		CU_ASSERT_EQUAL(ibr_vcrc_verify(got, (size_t)len), 0);
		CU_ASSERT_EQUAL(ibr_icrc_verify(got, (size_t)len - 2), 0);
		/* the received packet itself is never written */
		CU_ASSERT_EQUAL(ibr_lrh_get_slid((const struct ibr_lrh *)pkt), 3);
	}
}

static void test_sl_vl_maps(void)
{
	struct ibr_pkt_ud_params p;
	const struct ibr_lrh *lrh;

	rib.port[1].tclass_sl[0x20] = 7;
	rib.port[1].sl_vl[7] = 2;
	rib.port[1].sl_vl[2] = 1;
	recompile();
	params_default(&p, 64);
	p.tclass = 0x20;
	build(&p);
	run();
	expect_fwd(1, "tclass 0x20");
	lrh = (const struct ibr_lrh *)out.tx[1][0].hdr;
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(lrh), 7);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(lrh), 2);
	CU_ASSERT_EQUAL(ibr_grh_get_tclass((const struct ibr_grh *)(out.tx[1][0].hdr + 8)), 0x20);
	p.tclass = 0x21; /* unmapped: keep SL 2, VL by the map */
	build(&p);
	run();
	lrh = (const struct ibr_lrh *)out.tx[1][0].hdr;
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(lrh), 2);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(lrh), 1);
	rib.port[1].tclass_sl[0x20] = ROUTER_SL_KEEP;
	memset(rib.port[1].sl_vl, 0, 16);
	recompile();
}

/* LMC 2 neighbour: DLIDs 8..11; one flow one DLID; flows spread. */
static void test_lmc_paths(void)
{
	struct ibr_pkt_ud_params p;
	unsigned seen = 0;

	params_default(&p, 64);
	gid_set(p.dgid, PFX_B, HOST_B_LMC);
	for (uint32_t fl = 0; fl < 64; fl++) {
		uint16_t d1, d2;

		p.flowlabel = fl * 2654435761u & 0xFFFFF;
		build(&p);
		run();
		d1 = ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[1][0].hdr);
		run();
		d2 = ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[1][0].hdr);
		CU_ASSERT_EQUAL(d1, d2);
		CU_ASSERT(d1 >= 8 && d1 <= 11);
		seen |= 1u << (d1 - 8);
	}
	CU_ASSERT_EQUAL(seen, 0xF);
}

/* A GRH of a flow from HOST_A in A to HOST_B in B, FlowLabel `fl`. */
static void flow_grh(uint8_t grh[40], uint32_t fl)
{
	memset(grh, 0, 40);
	grh[0] = 0x60 | 0; /* IPVer 6, TClass 0 */
	grh[1] = (uint8_t)(fl >> 16 & 0xF);
	grh[2] = (uint8_t)(fl >> 8);
	grh[3] = (uint8_t)fl;
	grh[6] = 0x1B;
	grh[7] = 64;
	gid_set(grh + 8, PFX_A, HOST_A);
	gid_set(grh + 24, PFX_B, HOST_B);
}

/* 256 flows, byte `at` of the GRH taking every value: within +-25% of even over 4 paths? */
static bool lmc_even(unsigned at, unsigned values)
{
	unsigned n[4] = { 0 };
	uint8_t grh[40];

	for (unsigned v = 0; v < values; v++) {
		flow_grh(grh, 0);
		grh[at] = (uint8_t)(at == 1 ? v & 0xF : v);
		n[router_engine_path_bits(grh, 2)]++;
	}
	for (unsigned i = 0; i < 4; i++)
		if (4 * n[i] < values * 3 / 4 || 4 * n[i] > values * 5 / 4)
			return false;
	return true;
}

/*
 * Every byte of SGID, DGID and FlowLabel moves the path (o8-2: one flow,
 * one path): hosts whose GUIDs differ only in their last bytes, with
 * FlowLabel 0, spread over the 2^LMC paths (they all took one before).
 */
static void test_lmc_spread(void)
{
	uint8_t grh[40];
	unsigned n[8] = { 0 };

	/* 256 hosts whose port GUIDs differ in their last two bytes, to one DGID */
	for (unsigned i = 0; i < 256; i++) {
		flow_grh(grh, 0);
		gid_set(grh + 8, PFX_A, 0x0002c90300001000ull + i * 0x0101u);
		n[router_engine_path_bits(grh, 2)]++;
	}
	for (unsigned i = 0; i < 4; i++)
		CU_ASSERT(n[i] >= 48 && n[i] <= 80);
	/* and 256 DGIDs through a next router (LMC 3): 8 paths */
	memset(n, 0, sizeof(n));
	for (unsigned i = 0; i < 256; i++) {
		flow_grh(grh, 0);
		gid_set(grh + 24, 0x20010db900000000ull, 0x100 + i);
		n[router_engine_path_bits(grh, 3)]++;
	}
	for (unsigned i = 0; i < 8; i++)
		CU_ASSERT(n[i] >= 24 && n[i] <= 40);
	/* each byte alone: the 32 of SGID and DGID, FlowLabel's three */
	for (unsigned at = 8; at < 40; at++)
		CU_ASSERT(lmc_even(at, 256));
	CU_ASSERT(lmc_even(1, 16 * 16)); /* FlowLabel's top 4 bits, 16 times each */
	CU_ASSERT(lmc_even(2, 256));
	CU_ASSERT(lmc_even(3, 256));
	/* one flow keeps its path */
	flow_grh(grh, 0x12345);
	CU_ASSERT_EQUAL(router_engine_path_bits(grh, 3), router_engine_path_bits(grh, 3));
	CU_ASSERT_EQUAL(router_engine_path_bits(grh, 0), 0);
}

/* A next router with LMC 1: DLIDs lid and lid + 1, one per flow. */
static void test_router_lmc(void)
{
	struct ibr_pkt_ud_params p;
	struct router_route r;
	unsigned seen = 0;

	memset(&r, 0, sizeof(r));
	r.key.prefix = 0x20010db900000000ull;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh.port = 1;
	r.nh.kind = ROUTER_NH_ROUTER;
	r.nh.lid = 0x50;
	r.nh.lmc = 1;
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add(&rib, &r), 0);
	recompile();
	params_default(&p, 64);
	gid_set(p.dgid, r.key.prefix, 9);
	for (uint32_t fl = 0; fl < 32; fl++) {
		uint16_t d;

		p.flowlabel = fl * 2654435761u & 0xFFFFF;
		build(&p);
		run();
		expect_fwd(1, "next router with LMC 1");
		d = ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[1][0].hdr);
		CU_ASSERT(d == 0x50 || d == 0x51);
		seen |= 1u << (d & 1);
	}
	CU_ASSERT_EQUAL(seen, 3);
	CU_ASSERT_EQUAL(router_rib_route_del(&rib, r.key.prefix, 64, ROUTER_SRC_STATIC), 0);
	recompile();
}

static CU_TestInfo tests[] = {
	{ "several next routers: one per flow, only a gone one's flows move", test_ecmp },
	{ "several next routers: strict reverse path", test_ecmp_rpf },
	{ "several next routers: not back out of the ingress port", test_ecmp_not_back },
	{ "rewrite matches an independent packet", test_rewrite_bytes },
	{ "TClass->SL and SL->VL maps", test_sl_vl_maps },
	{ "LMC path selection", test_lmc_paths },
	{ "LMC paths: every byte of the flow counts", test_lmc_spread },
	{ "next router with LMC", test_router_lmc },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("router_engine_path", tests, setup, teardown);
}
