/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_engine.c on the fixture of router_engine_fix.h:
 * checks 1-16 against a reference written independently of the engine (every
 * header bit flipped, random mutations), and bursts: check 4 once over a
 * whole burst, a burst mixing every fate, ingress ports within a burst.
 */
#include "router/router_engine.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/router_engine_fix.h"

#include "lib/crc/ibr_crc.h"
#include "lib/ibr_pkt.h"

#include <stdio.h>
#include <string.h>

/* A burst mixing every fate keeps each packet's verdict. */
static void test_mixed_burst(void)
{
	static uint8_t bufs[ROUTER_BURST][512];
	struct router_mbuf mbs[ROUTER_BURST], *v[ROUTER_BURST];
	struct ibr_pkt_ud_params p;

	for (int i = 0; i < ROUTER_BURST; i++) {
		int len;

		params_default(&p, 32);
		switch (i % 4) {
		case 1:
			gid_set(p.dgid, 0x3ffe000000000000ull, 1); /* no route */
			break;
		case 2:
			mcast_params(&p, 0x18, 1, 0xC004); /* two copies */
			gid_set(p.sgid, PFX_GSRC, HOST_A);
			p.payload_len = 32;
			break;
		case 3:
			p.vl = 15; /* SMA */
			break;
		}
		len = ibr_pkt_build_ud(bufs[i], sizeof(bufs[i]), &p);
		CU_ASSERT_FATAL(len > 0);
		mbs[i] = (struct router_mbuf){ .data = bufs[i], .len = (uint32_t)len, .port = 0 };
		v[i] = &mbs[i];
	}
	memset(&cnt, 0, sizeof(cnt));
	router_engine_burst(fib, v, ROUTER_BURST, &out, &cnt);
	CU_ASSERT_EQUAL(out.ntx[1], 16);
	CU_ASSERT_EQUAL(out.ntx[2], 8);
	CU_ASSERT_EQUAL(out.ncopies, 24);
	CU_ASSERT_EQUAL(out.nsma, 8);
	CU_ASSERT_EQUAL(out.ndrop, 8);
	CU_ASSERT_EQUAL(cnt.drop[0][ROUTER_DROP_NO_ROUTE], 8);
	CU_ASSERT_EQUAL(cnt.rx_pkts[0], ROUTER_BURST);
	for (int i = 0; i < 8; i++)
		CU_ASSERT_PTR_EQUAL(out.drop[i].m, v[4 * i + 1]);
}

/* One burst from ports a, b and an unknown port: verdicts and rx counters by port. */
static void test_ports_in_burst(void)
{
	static uint8_t bufs[6][512];
	static const uint8_t ports[6] = { 0, 0, 1, 1, 9, 0 };
	struct router_mbuf mbs[6], *v[6];
	struct ibr_pkt_ud_params p;
	uint32_t len[2];

	for (int i = 0; i < 6; i++) {
		int n;

		params_default(&p, 32);
		if (ports[i] == 1) { /* from B to A */
			p.dlid = 0x10;
			gid_set(p.sgid, PFX_B, HOST_B);
			gid_set(p.dgid, PFX_A, HOST_A);
		}
		n = ibr_pkt_build_ud(bufs[i], sizeof(bufs[i]), &p);
		CU_ASSERT_FATAL(n > 0);
		len[ports[i] == 1] = (uint32_t)n;
		mbs[i] = (struct router_mbuf){ .data = bufs[i],
					       .len = (uint32_t)n,
					       .port = ports[i] };
		v[i] = &mbs[i];
	}
	memset(&cnt, 0, sizeof(cnt));
	router_engine_burst(fib, v, 6, &out, &cnt);
	CU_ASSERT_EQUAL(out.ntx[1], 3);
	CU_ASSERT_EQUAL(out.ntx[0], 2);
	CU_ASSERT_EQUAL(out.ncopies, 5);
	CU_ASSERT_EQUAL(out.ndrop, 1);
	CU_ASSERT_PTR_EQUAL(out.drop[0].m, v[4]);
	CU_ASSERT_EQUAL(out.drop[0].reason, ROUTER_DROP_PORT_DOWN);
	CU_ASSERT_EQUAL(cnt.drop[9][ROUTER_DROP_PORT_DOWN], 1);
	CU_ASSERT_EQUAL(cnt.rx_pkts[0], 3);
	CU_ASSERT_EQUAL(cnt.rx_bytes[0], 3 * len[0]);
	CU_ASSERT_EQUAL(cnt.rx_pkts[1], 2);
	CU_ASSERT_EQUAL(cnt.rx_bytes[1], 2 * len[1]);
	CU_ASSERT_EQUAL(cnt.rx_pkts[9], 1);
	CU_ASSERT_PTR_EQUAL(out.tx[1][2].m, v[5]);
	CU_ASSERT_PTR_EQUAL(out.tx[0][1].m, v[3]);
}

/*
 * Checks 1-16 as the IBA rules state them (router_drop.h), written
 * independently of the engine, for port a (LID 1, LMC 0, MLIDs 0xC001,
 * 0xC004, 0xC007, 0xC009) and a valid VCRC: a drop reason, -2 for the SMA,
 * -3 for the router itself, or -1 when all hold.
 */
static int ref_checks(const uint8_t *b, uint32_t len)
{
	static const uint8_t one[16] = { [15] = 1 }, zero[16];
	uint32_t dlid, hdr = 60;

	if (len < 10)
		return ROUTER_DROP_SHORT;
	if (b[0] & 0x0F)
		return ROUTER_DROP_LVER;
	if (((b[4] << 8 | b[5]) & 0x7FF) * 4u + 2 != len)
		return ROUTER_DROP_PKTLEN;
	if (b[0] >> 4 == 15)
		return -2;
	dlid = (uint32_t)(b[2] << 8 | b[3]);
	if (dlid >= 0xC000 && dlid <= 0xFFFE
		    ? dlid != 0xC001 && dlid != 0xC004 && dlid != 0xC007 && dlid != 0xC009
		    : dlid != 1)
		return ROUTER_DROP_DLID;
	if ((b[1] & 3) < 2)
		return ROUTER_DROP_RAW;
	if ((b[1] & 3) == 2)
		return -3;
	if (len < 66)
		return ROUTER_DROP_TRUNCATED;
	if (b[8] >> 4 != 6)
		return ROUTER_DROP_IPVER;
	if (b[14] != 0x1B)
		return ROUTER_DROP_NXTHDR;
	if ((uint32_t)(b[12] << 8 | b[13]) + 50 != len)
		return ROUTER_DROP_PAYLEN;
	if (b[48] >> 5 == 3)
		hdr += b[48] == 0x65 ? 12 : 8;
	if (hdr + 6 > len)
		return ROUTER_DROP_TRUNCATED;
	if (hdr + ((b[49] >> 4) & 3) + 6 > len)
		return ROUTER_DROP_PADCNT;
	if (b[15] < 2)
		return ROUTER_DROP_HOPLMT;
	if (b[16] == 0xFF || !memcmp(b + 16, zero, 16) || !memcmp(b + 16, one, 16))
		return ROUTER_DROP_SGID;
	if (!memcmp(b + 32, zero, 16) || !memcmp(b + 32, one, 16))
		return ROUTER_DROP_DGID;
	if ((b[16] == 0xFE && (b[17] & 0xC0) == 0x80) || (b[32] == 0xFE && (b[33] & 0xC0) == 0x80))
		return ROUTER_DROP_LINK_LOCAL;
	return -1;
}

/* The engine's verdict on `mb` as ref_checks() reports it (-1: any later fate). */
static int engine_verdict(void)
{
	run();
	if (out.nsma)
		return -2;
	if (out.ndrop && out.drop[0].reason <= ROUTER_DROP_LINK_LOCAL)
		return out.drop[0].reason;
	if (out.nlocal && ref_checks(pkt, mb.len) == -3)
		return -3;
	return -1;
}

/* Mutate a valid packet, fix its VCRC, and compare the engine with ref_checks(). */
static unsigned mutate_and_compare(const uint8_t *base, uint32_t len, unsigned long long *seed)
{
	unsigned bad = 0;

	for (int k = 0; k < 3000; k++) {
		unsigned long long r = ibr_test_rand(seed);
		int want, got;

		memcpy(pkt, base, len);
		mb.len = len;
		if (k < 64 * 8) { /* every single bit of the headers */
			pkt[k / 8] ^= (uint8_t)(1u << (k % 8));
		} else { /* a few random bytes, sometimes the length, sometimes GID tops */
			for (int j = 0; j < 1 + (int)(r % 3); j++) {
				r = ibr_test_rand(seed);
				pkt[r % 64] = (uint8_t)(r >> 8);
			}
			if (r >> 20 & 1)
				pkt[(r >> 21 & 1) ? 16 : 32] = (uint8_t)(0xF8 + (r >> 22) % 8);
			if ((r >> 25) % 8 == 0)
				mb.len = (uint32_t)(len + ((r >> 28) % 9) - 4);
		}
		if (mb.len >= 2)
			ibr_vcrc_write(pkt, mb.len - 2);
		want = ref_checks(pkt, mb.len);
		got = engine_verdict();
		if (want != got) {
			if (bad++ < 5)
				fprintf(stderr, "\n  mutation %d: reference %d, engine %d", k, want,
					got);
		}
	}
	return bad;
}

/*
 * The fast path's mask tests against the rules one by one: single-bit
 * flips of every header bit and random mutations, VCRC check on and off.
 */
static void test_checks_differential(void)
{
	static uint8_t base[512];
	unsigned long long seed = 11;
	struct ibr_pkt_ud_params p;
	uint32_t len;

	params_default(&p, 64);
	len = (uint32_t)build(&p);
	memcpy(base, pkt, len);
	CU_ASSERT_EQUAL(mutate_and_compare(base, len, &seed), 0);
	rib.port[0].flags &= (uint8_t)~ROUTER_PORT_VCRC_CHECK;
	recompile();
	CU_ASSERT_EQUAL(mutate_and_compare(base, len, &seed), 0);
	mcast_params(&p, 0x18, 1, 0xC004);
	len = (uint32_t)build(&p);
	memcpy(base, pkt, len);
	CU_ASSERT_EQUAL(mutate_and_compare(base, len, &seed), 0);
	rib.port[0].flags |= ROUTER_PORT_VCRC_CHECK;
	recompile();
	mb.len = len;
}

/*
 * Check 4 runs once over a whole burst (ibr_vcrc_verify_n()): in a burst of
 * 32 unicast and multicast packets, exactly the ones with a flipped bit are
 * dropped for their VCRC, the rest go on, and the counters agree.
 */
static void test_vcrc_burst(void)
{
	static uint8_t bufs[ROUTER_BURST][512];
	struct router_mbuf m[ROUTER_BURST], *v[ROUTER_BURST];
	struct ibr_pkt_ud_params p;
	uint32_t ulen, mlen, corrupt = 1u << 3 | 1u << 8 | 1u << 17 | 1u << 31, seen = 0;
	static uint8_t ucast[512], mcast[512];

	params_default(&p, 200);
	ulen = (uint32_t)build(&p);
	memcpy(ucast, pkt, ulen);
	mcast_params(&p, 0x18, 1, 0xC004);
	mlen = (uint32_t)build(&p);
	memcpy(mcast, pkt, mlen);
	for (unsigned i = 0; i < ROUTER_BURST; i++) {
		bool is_m = i % 4 == 0; /* 8 is one of them */

		memcpy(bufs[i], is_m ? mcast : ucast, is_m ? mlen : ulen);
		m[i] = (struct router_mbuf){ .data = bufs[i], .len = is_m ? mlen : ulen };
		if (corrupt >> i & 1)
			bufs[i][100 + i] ^= 0x10; /* payload: only the CRCs can tell */
		v[i] = &m[i];
	}
	memset(&cnt, 0, sizeof(cnt));
	router_engine_burst(fib, v, ROUTER_BURST, &out, &cnt);
	CU_ASSERT_EQUAL(out.ndrop, 4);
	for (unsigned d = 0; d < out.ndrop; d++) {
		CU_ASSERT_EQUAL(out.drop[d].reason, ROUTER_DROP_VCRC);
		seen |= 1u << (out.drop[d].m - m);
	}
	CU_ASSERT_EQUAL(seen, corrupt);
	CU_ASSERT_EQUAL(cnt.drop[0][ROUTER_DROP_VCRC], 4);
	CU_ASSERT_EQUAL(cnt.rx_pkts[0], ROUTER_BURST);
	CU_ASSERT_EQUAL(drops_total(), 4);
	CU_ASSERT_TRUE(out.ncopies >= ROUTER_BURST - 4);
}

static CU_TestInfo tests[] = {
	{ "rule 4 over a burst", test_vcrc_burst },
	{ "a mixed burst", test_mixed_burst },
	{ "ingress ports within a burst", test_ports_in_burst },
	{ "checks 1-16 against a reference", test_checks_differential },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("router_engine_checks", tests, setup, teardown);
}
