/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_engine.c: one packet per validation rule (passing
 * and failing), each asserting its drop counter and that nothing else moved,
 * on the fixture of router_engine_fix.h.  The other router_engine_*_test.c
 * hold the paths (next routers, LMC, rewrite, maps), multicast, the checks
 * against a reference and bursts, RoCE ports.
 */
#include "router/router_engine.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/router_engine_fix.h"

#include "lib/crc/ibr_crc.h"
#include "lib/ibr_pkt.h"

#include <stdio.h>
#include <string.h>

#define BTH_PAD_BYTE (8 + 40 + 1) /* SE M PadCnt(2) TVer */

static void refill(void)
{
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(pkt, mb.len), 0);
}

static void test_forward_ok(void)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 256);
	build(&p);
	run();
	expect_fwd(1, "default packet");
	CU_ASSERT_EQUAL(cnt.rx_pkts[0], 1);
	CU_ASSERT_EQUAL(cnt.rx_bytes[0], mb.len);
}

/* Rules 1-6: length, LVer, PktLen, VCRC, VL15, DLID. */
static void test_link_rules(void)
{
	struct ibr_pkt_ud_params p;
	int len;

	params_default(&p, 64);
	len = build(&p);
	mb.len = 9;
	run();
	expect_drop(ROUTER_DROP_SHORT, "9 bytes");
	mb.len = (uint32_t)len;
	pkt[0] |= 0x01; /* LVer 1 */
	refill();
	run();
	expect_drop(ROUTER_DROP_LVER, "LVer 1");
	build(&p);
	mb.len = (uint32_t)len - 4; /* PktLen says 4 bytes more */
	run();
	expect_drop(ROUTER_DROP_PKTLEN, "PktLen too long");
	build(&p);
	pkt[len - 1] ^= 0x40;
	run();
	expect_drop(ROUTER_DROP_VCRC, "VCRC corrupt");
	/* the VCRC check is a per-port option */
	rib.port[0].flags &= (uint8_t)~ROUTER_PORT_VCRC_CHECK;
	recompile();
	run();
	expect_fwd(1, "VCRC corrupt, check off");
	rib.port[0].flags |= ROUTER_PORT_VCRC_CHECK;
	recompile();
	/* VL15 goes to the SMA, whatever its DLID */
	p.vl = 15;
	p.dlid = 0xFFFF;
	build(&p);
	run();
	CU_ASSERT_EQUAL(out.nsma, 1);
	CU_ASSERT_EQUAL(cnt.sma[0], 1);
	CU_ASSERT_EQUAL(drops_total(), 0);
	p.vl = 0;
	p.dlid = 2; /* not port a's LID (1, LMC 0) */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DLID, "DLID 2");
	p.dlid = 0xC00F; /* a multicast LID no group has */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DLID, "unknown MLID");
	/* LMC 1 on port a: LID 1 and 2 are both ours... LID 1 with LMC 1 is misaligned,
	 * so use base 2: LIDs 2 and 3 */
	rib.port[0].lid = 2;
	rib.port[0].lmc = 1;
	recompile();
	p.dlid = 3;
	build(&p);
	run();
	expect_fwd(1, "DLID within LMC range");
	p.dlid = 4;
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DLID, "DLID past LMC range");
	rib.port[0].lid = 1;
	rib.port[0].lmc = 0;
	recompile();
}

/* Rules 7-13: raw, local, truncated, IPVer, NxtHdr, PayLen, PadCnt, HopLmt. */
static void test_grh_rules(void)
{
	struct ibr_pkt_ud_params p;
	int len;

	params_default(&p, 64);
	len = build(&p);
	pkt[1] &= 0xFC; /* LNH 0: raw */
	refill();
	run();
	expect_drop(ROUTER_DROP_RAW, "raw packet");
	p.grh = false; /* LNH 2: for the router itself */
	build(&p);
	run();
	CU_ASSERT_EQUAL(out.nlocal, 1);
	CU_ASSERT_EQUAL(cnt.local[0], 1);
	CU_ASSERT_EQUAL(drops_total(), 0);
	/* LNH 3 on a packet too short to hold the GRH */
	p.payload_len = 0;
	build(&p);
	pkt[1] |= 0x03;
	ibr_vcrc_write(pkt, mb.len - 2); /* a valid VCRC over what is there */
	run();
	expect_drop(ROUTER_DROP_TRUNCATED, "LNH 3 without room for a GRH");
	params_default(&p, 64);
	build(&p);
	pkt[8] = (uint8_t)((pkt[8] & 0x0F) | 0x40); /* IPVer 4 */
	refill();
	run();
	expect_drop(ROUTER_DROP_IPVER, "IPVer 4");
	build(&p);
	pkt[14] = 0x3B; /* NxtHdr: IPv6 no-next-header */
	refill();
	run();
	expect_drop(ROUTER_DROP_NXTHDR, "NxtHdr 0x3B");
	build(&p);
	pkt[13]++; /* PayLen one more */
	refill();
	run();
	expect_drop(ROUTER_DROP_PAYLEN, "PayLen off by one");
	p.payload_len = 0;
	len = build(&p);
	pkt[BTH_PAD_BYTE] = (uint8_t)((pkt[BTH_PAD_BYTE] & 0xCF) | 0x30); /* PadCnt 3, no payload */
	refill();
	run();
	expect_drop(ROUTER_DROP_PADCNT, "PadCnt past the payload");
	(void)len;
	params_default(&p, 64);
	for (int h = 0; h <= 2; h++) {
		p.hoplmt = (uint8_t)h;
		build(&p);
		run();
		if (h < 2)
			expect_drop(ROUTER_DROP_HOPLMT, "HopLmt 0/1");
		else
			expect_fwd(1, "HopLmt 2");
	}
}

/* Rules 14-17: SGID, DGID, link-local, ICRC. */
static void test_gid_rules(void)
{
	struct ibr_pkt_ud_params p;
	int len;

	params_default(&p, 64);
	gid_set(p.sgid, 0xff15000000000000ull, 1);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SGID, "multicast SGID");
	gid_set(p.sgid, 0, 0);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SGID, "reserved SGID");
	gid_set(p.sgid, 0, 1);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SGID, "loopback SGID");
	params_default(&p, 64);
	gid_set(p.dgid, 0, 0);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DGID, "reserved DGID");
	gid_set(p.dgid, 0, 1);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_DGID, "loopback DGID");
	gid_set(p.dgid, 0xfe80000000000000ull, HOST_B);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_LINK_LOCAL, "link-local DGID");
	params_default(&p, 64);
	gid_set(p.sgid, 0xfebf000000000000ull, HOST_A); /* fe80::/10 too */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_LINK_LOCAL, "link-local SGID");
	/* ICRC: not checked by default; checked when the port asks */
	params_default(&p, 64);
	len = build(&p);
	pkt[len - 6] ^= 1; /* ICRC byte */
	ibr_vcrc_write(pkt, (size_t)len - 2);
	run();
	expect_fwd(1, "bad ICRC, check off");
	rib.port[0].flags |= ROUTER_PORT_ICRC_CHECK;
	recompile();
	run();
	expect_drop(ROUTER_DROP_ICRC, "bad ICRC, check on");
	build(&p);
	run();
	expect_fwd(1, "good ICRC, check on");
	rib.port[0].flags &= (uint8_t)~ROUTER_PORT_ICRC_CHECK;
	recompile();
}

/* Rules 21-27: route, RPF, same port, site, port down, neighbour, MTU, P_Key. */
static void test_route_rules(void)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 64);
	gid_set(p.dgid, 0x3ffe000000000000ull, 1);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_NO_ROUTE, "no route");
	params_default(&p, 64);
	gid_set(p.dgid, PFX_A, HOST_A); /* back into A */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SAME_PORT, "same port");
	gid_set(p.dgid, PFX_S, 1); /* site-local prefix behind c, site 1 */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SITE, "site-local DGID leaving the site");
	gid_set(p.sgid, PFX_C | 1, 7); /* global SGID: still the DGID is site-local */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SITE, "site-local DGID, global SGID");
	params_default(&p, 64);
	gid_set(p.dgid, PFX_C | 5, 9); /* global prefix behind c: fine from a global SGID? */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_SITE, "site-local SGID leaving the site");
	gid_set(p.sgid, 0x20010db900000000ull, 1);
	build(&p);
	run();
	expect_fwd(2, "global to global across sites");
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[2][0].hdr), 0x30);
	params_default(&p, 64);
	gid_set(p.dgid, PFX_D, 1);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_PORT_DOWN, "egress port down");
	gid_set(p.dgid, PFX_B, 0x999);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_NO_NEIGH, "unknown GUID in B");
	gid_set(p.dgid, PFX_G, 0xC000); /* algorithmic: DLID 0xC000 is not unicast */
	build(&p);
	run();
	expect_drop(ROUTER_DROP_NO_NEIGH, "algorithmic DLID multicast");
	gid_set(p.dgid, PFX_G, 0xABCD0077);
	build(&p);
	run();
	expect_fwd(1, "algorithmic DLID");
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid((const struct ibr_lrh *)out.tx[1][0].hdr), 0x0077);
}

/*
 * A DGID that is one of the router's own port GIDs is delivered locally, not
 * forwarded: through a /64 connected route (b's), an aggregate covering the
 * port's prefix (c's /32), and the ingress port's own GID (a's, before the
 * same-port rule); a GID next to them (another GUID, another prefix under the
 * aggregate) is forwarded.
 */
static void expect_local(const char *what)
{
	bool ok = out.nlocal == 1 && out.ncopies == 0 && out.ndrop == 0 && drops_total() == 0;

	if (!ok)
		fprintf(stderr, "%s: nlocal %u ncopies %u ndrop %u\n", what, out.nlocal,
			out.ncopies, out.ndrop);
	CU_ASSERT(ok);
}

static void test_own_gids(void)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 64);
	gid_set(p.dgid, PFX_B, 0x300010);
	build(&p);
	run();
	expect_local("port b's GID");
	gid_set(p.dgid, PFX_C, 0x300020);
	build(&p);
	run();
	expect_local("port c's GID, under a /32 route");
	gid_set(p.dgid, PFX_A, 0x300001);
	build(&p);
	run();
	expect_local("port a's GID, from A");
	gid_set(p.dgid, PFX_C | 5, 0x300020);
	gid_set(p.sgid, 0x20010db900000000ull, 1); /* global: may leave site 0 */
	build(&p);
	run();
	expect_fwd(2, "c's GUID under another prefix of the /32");
	params_default(&p, 64);
	gid_set(p.dgid, PFX_B, HOST_B);
	build(&p);
	run();
	expect_fwd(1, "a host next to port b");
	/* the FIB compiler's facts behind it: b's route covers b's prefix, G's no port's */
	for (uint32_t i = 0; i <= fib->exact.mask; i++) {
		uint64_t k = fib->exact.ent[i].key, v = fib->exact.ent[i].val;

		if (k == PFX_B) {
			CU_ASSERT(v & ROUTER_VAL_OWN_PFX);
		} else if (k == PFX_G) {
			CU_ASSERT(!(v & ROUTER_VAL_OWN_PFX));
		}
	}
}

static void test_rpf(void)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 64);
	gid_set(p.sgid, PFX_B, 1); /* claims to come from B, arrives on a */
	rib.port[0].rpf = ROUTER_RPF_STRICT;
	recompile();
	build(&p);
	run();
	expect_drop(ROUTER_DROP_RPF, "strict rpf, SGID behind another port");
	params_default(&p, 64);
	build(&p);
	run();
	expect_fwd(1, "strict rpf, SGID behind the ingress port");
	rib.port[0].rpf = ROUTER_RPF_LOOSE;
	recompile();
	gid_set(p.sgid, PFX_B, 1);
	build(&p);
	run();
	expect_fwd(1, "loose rpf, SGID routable");
	gid_set(p.sgid, 0x3ffe000000000000ull, 1);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_RPF, "loose rpf, SGID unroutable");
	rib.port[0].rpf = ROUTER_RPF_OFF;
	recompile();
	build(&p);
	run();
	expect_fwd(1, "rpf off");
}

static void test_egress_rules(void)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 2048); /* port b's MTU */
	build(&p);
	run();
	expect_fwd(1, "payload == MTU");
	params_default(&p, 2052);
	build(&p);
	run();
	expect_drop(ROUTER_DROP_MTU, "payload > MTU");
	rib.port[1].flags |= ROUTER_PORT_PKEY_CHECK;
	rib.port[1].npkeys = 1;
	rib.port[1].pkeys[0] = 0xFFFF;
	recompile();
	params_default(&p, 64);
	p.pkey = 0x8001;
	build(&p);
	run();
	expect_drop(ROUTER_DROP_PKEY, "P_Key not in egress table");
	p.pkey = 0x7FFF; /* limited member of the default partition: same base */
	build(&p);
	run();
	expect_fwd(1, "P_Key base in egress table");
	rib.port[1].flags &= (uint8_t)~ROUTER_PORT_PKEY_CHECK;
	recompile();
}

static void test_drop_names(void)
{
	CU_ASSERT_STRING_EQUAL(router_drop_name(ROUTER_DROP_HOPLMT), "hoplmt");
	CU_ASSERT_STRING_EQUAL(router_drop_rule(ROUTER_DROP_HOPLMT), "C8-16");
	CU_ASSERT_EQUAL(router_drop_parse("no_route"), ROUTER_DROP_NO_ROUTE);
	CU_ASSERT(router_drop_parse("nope") < 0);
	CU_ASSERT_STRING_EQUAL(router_drop_name(ROUTER_DROP_MAX), "unknown");
	for (int i = 0; i < ROUTER_DROP_MAX; i++)
		CU_ASSERT_EQUAL(router_drop_parse(router_drop_name(i)), i);
}

static void test_unknown_port(void)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 16);
	build(&p);
	mb.port = 9; /* not in the FIB */
	run();
	expect_drop(ROUTER_DROP_PORT_DOWN, "ingress port unknown");
	mb.port = 0;
}

/* A GID whose prefix is 0 but is neither reserved nor loopback is a valid SGID. */
static void test_zero_prefix_sgid(void)
{
	struct ibr_pkt_ud_params p;

	params_default(&p, 64);
	gid_set(p.sgid, 0, 7);
	build(&p);
	run();
	expect_fwd(1, "SGID ::7");
	gid_set(p.sgid, 0x0000000100000000ull, 7); /* a prefix under 2^54 */
	build(&p);
	run();
	expect_fwd(1, "SGID 0:0:1::7");
}

static CU_TestInfo tests[] = {
	{ "a good packet is forwarded", test_forward_ok },
	{ "rules 1-6: link layer", test_link_rules },
	{ "rules 7-13: GRH and transport headers", test_grh_rules },
	{ "rules 14-17: GIDs and ICRC", test_gid_rules },
	{ "rules 21-25: routes, sites, neighbours", test_route_rules },
	{ "rule 22: reverse path check", test_rpf },
	{ "rules 26-27: MTU and P_Key", test_egress_rules },
	{ "drop reason names", test_drop_names },
	{ "unknown ingress port", test_unknown_port },
	{ "the router's own GIDs: local", test_own_gids },
	{ "a zero GID prefix is no reserved GID", test_zero_prefix_sgid },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("router_engine", tests, setup, teardown);
}
