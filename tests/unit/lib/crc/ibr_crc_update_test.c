/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for lib/crc/'s incremental VCRC: the update after a router's rewrite of the first
 * 16 bytes, one packet and a burst, on every engine, the in-place rewrite and the delta,
 * each against the bit-by-bit reference.
 */
#include "lib/crc/ibr_crc.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/lib/crc/ibr_crc_fix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One random rewrite of the first 16 bytes: usually LRH and HopLmt, sometimes anything. */
static void rewrite_hdr(uint8_t *p, unsigned long long *seed)
{
	unsigned long long r = ibr_test_rand(seed);

	if (r & 1) {
		fill_rand(p, 16, seed);
		return;
	}
	fill_rand(p, 8, seed);
	p[15] = (uint8_t)(r >> 8);
}

static size_t rand_len(unsigned long long *seed)
{
	unsigned long long r = ibr_test_rand(seed);

	switch (r % 16) {
	case 0:
		return (r >> 8) % 24; /* shorter than the header window and around it */
	case 1:
		return 8150 + (r >> 8) % 80; /* around the end of the O(1) tables */
	case 2:
		return 8208 + (r >> 8) % 30000; /* beyond any packet: the O(log n) path */
	default:
		return 24 + (r >> 8) % 4200;
	}
}

static int update_round(uint8_t *pkt, unsigned long long *seed)
{
	size_t len = rand_len(seed);
	uint8_t old[16] = { 0 }, cur[16] = { 0 };
	uint16_t v0, v1, want, wrong;

	fill_rand(pkt, len, seed);
	v0 = ibr_vcrc(pkt, len);
	memcpy(old, pkt, len < 16 ? len : 16);
	rewrite_hdr(pkt, seed);
	memcpy(cur, pkt, len < 16 ? len : 16);
	if (len < 16) /* bytes past the message must not count */
		fill_rand(cur + len, 16 - len, seed);
	want = ibr_vcrc(pkt, len);
	v1 = ibr_vcrc_update(v0, old, cur, len);
	/* a wrong VCRC stays exactly as wrong */
	wrong = ibr_vcrc_update(v0 ^ 0x1234, old, cur, len);
	if (v1 == want && wrong == (want ^ 0x1234))
		return 0;
	fprintf(stderr, "update len %zu: %#x, want %#x\n", len, v1, want);
	return 1;
}

static void test_vcrc_update(void)
{
	uint8_t *pkt = malloc(8208 + 30000);
	unsigned long long seed = 7;
	enum ibr_vcrc_impl im[NVCRC];
	int n = impls(im), bad = 0;

	CU_ASSERT_FATAL(pkt != NULL);
	for (int i = 0; i < n; i++) {
		ibr_vcrc_impl_set(im[i]);
		for (int k = 0; k < 100000 && bad < 5; k++)
			bad += update_round(pkt, &seed);
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	free(pkt);
	CU_ASSERT_EQUAL(bad, 0);
}

/*
 * The burst update against a whole CRC of each rewritten message, on every engine: bursts of
 * every size up to 67 (the vector engines' groups of four and their tails), lengths of every
 * kind rand_len() gives (below 16, beyond the x^(8n) table), every other VCRC wrong on entry
 * (it must stay exactly as wrong), and jobs past the burst left alone.
 */
static void test_vcrc_update_n(void)
{
	enum { NJ = 67, STRIDE = 8208 + 30000 + 16 };
	uint8_t *buf = malloc((size_t)NJ * STRIDE), old[NJ][16], cur[NJ][16];
	struct ibr_vcrc_job job[NJ];
	uint16_t v[NJ], want[NJ];
	unsigned long long seed = 11;
	enum ibr_vcrc_impl im[NVCRC];
	int n = impls(im), bad = 0;

	CU_ASSERT_FATAL(buf != NULL);
	for (int i = 0; i < n; i++) {
		ibr_vcrc_impl_set(im[i]);
		for (int round = 0; round < 60 && bad < 5; round++) {
			unsigned cut = (unsigned)(ibr_test_rand(&seed) % (NJ + 1));

			for (unsigned j = 0; j < NJ; j++) {
				uint8_t *p = buf + (size_t)j * STRIDE;
				size_t len = rand_len(&seed);
				uint16_t wrong = j & 1 ? 0x1234 : 0;

				fill_rand(p, len, &seed);
				v[j] = ibr_vcrc(p, len) ^ wrong;
				memset(old[j], 0, 16);
				memcpy(old[j], p, len < 16 ? len : 16);
				rewrite_hdr(p, &seed);
				memcpy(cur[j], p,
				       16); /* bytes past a short message must not count */
				want[j] = j < cut ? ibr_vcrc(p, len) ^ wrong : v[j];
				job[j] = (struct ibr_vcrc_job){ old[j], cur[j], &v[j],
								(uint32_t)len };
			}
			ibr_vcrc_update_n(job, cut);
			for (unsigned j = 0; j < NJ; j++)
				if (v[j] != want[j] && bad++ < 5)
					fprintf(stderr,
						"%s: update_n job %u of %u (len %u): %#x, want "
						"%#x\n",
						ibr_vcrc_impl_name(im[i]), j, cut, job[j].len, v[j],
						want[j]);
		}
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	free(buf);
	CU_ASSERT_EQUAL(bad, 0);
}

/* The in-place helper on whole wire packets (LRH through VCRC), the way the router calls it. */
static void test_vcrc_rewrite(void)
{
	uint8_t pkt[4300], old[16];
	unsigned long long seed = 8;
	int bad = 0;

	for (int k = 0; k < 20000; k++) {
		size_t wire = 2 + rand_len(&seed) % 4200, hdr = wire - 2 < 16 ? wire - 2 : 16;
		uint8_t cur[16];

		make_pkt(pkt, wire - 2, 3, &seed);
		ibr_vcrc_write(pkt, wire - 2);
		memcpy(old, pkt, 16);
		memcpy(cur, pkt, 16);
		rewrite_hdr(cur, &seed);
		memcpy(pkt, cur, hdr); /* a short packet's VCRC is not part of its header */
		if (ibr_vcrc_rewrite(pkt, wire, old) != 0 || ibr_vcrc_verify(pkt, wire) != 0)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(ibr_vcrc_rewrite(pkt, 1, old), -EINVAL);
}

static void test_vcrc_delta(void)
{
	static const uint8_t zero[100];
	uint8_t d[16] = { 0 }, msg[100] = { 0 };

	/* a zero delta changes nothing; otherwise the change is vcrc(msg) ^ vcrc(zeros) */
	CU_ASSERT_EQUAL(ibr_vcrc_delta(d, 100), 0);
	d[0] = msg[0] = 0x80;
	d[15] = msg[15] = 0x01;
	CU_ASSERT_EQUAL(ibr_vcrc_delta(d, 100), ref_crc16(msg, 100) ^ ref_crc16(zero, 100));
	CU_ASSERT_EQUAL(ibr_vcrc_delta(d, 16), ref_crc16(msg, 16) ^ ref_crc16(zero, 16));
	/* shorter than the window: only the first len delta bytes count */
	CU_ASSERT_EQUAL(ibr_vcrc_delta(d, 1), ref_crc16(msg, 1) ^ ref_crc16(zero, 1));
	CU_ASSERT_EQUAL(ibr_vcrc_delta(d, 0), 0);
}

static CU_TestInfo tests[] = {
	{ "vcrc: incremental update", test_vcrc_update },
	{ "vcrc: burst update, every engine", test_vcrc_update_n },
	{ "vcrc: in-place rewrite", test_vcrc_rewrite },
	{ "vcrc: delta", test_vcrc_delta },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	int rc = ibr_test_run("ibr_crc_update", tests);

	if (skipped_no_cpu)
		printf("%u skipped (no CPU)\n", skipped_no_cpu);
	return rc;
}
