/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc_fix.c - what the CRC tests share (ibr_crc_test.c, ibr_crc_update_test.c): the
 * bit-by-bit references, random packets, and the engines this CPU runs.
 */
#include "tests/unit/lib/crc/ibr_crc_fix.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <string.h>

/* ---- references, one bit at a time, straight from the definitions ---- */

uint16_t ref_crc16(const uint8_t *p, size_t n)
{
	uint16_t r = 0xffff;

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++) {
			unsigned int fb = (r ^ (p[i] >> b)) & 1;

			r >>= 1;
			if (fb)
				r ^= 0xD008; /* 0x100B, reflected */
		}
	return r ^ 0xffff;
}

uint32_t ref_crc32(const uint8_t *p, size_t n)
{
	uint32_t r = 0xffffffff;

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 8; b++) {
			unsigned int fb = (r ^ (p[i] >> b)) & 1;

			r >>= 1;
			if (fb)
				r ^= 0xEDB88320;
		}
	return r ^ 0xffffffff;
}

void fill_rand(uint8_t *p, size_t n, unsigned long long *seed)
{
	while (n >= 8) {
		unsigned long long r = ibr_test_rand(seed);

		memcpy(p, &r, 8);
		p += 8;
		n -= 8;
	}
	while (n--)
		*p++ = (uint8_t)ibr_test_rand(seed);
}

/*
 * An engine this CPU cannot run is a skip of each test that would have run it, counted
 * apart and printed at the end as "N skipped (no CPU)" (scripts/run counts those lines):
 * never a pass.
 */
unsigned skipped_no_cpu;

/* The implementations to run every VCRC test with: every one this CPU runs, worst first. */
int impls(enum ibr_vcrc_impl out[NVCRC])
{
	int n = 0;

	for (int i = IBR_VCRC_IMPL_SLICE16; i < IBR_VCRC_IMPL_COUNT; i++) {
		if (ibr_vcrc_impl_set((enum ibr_vcrc_impl)i) == 0) {
			out[n++] = (enum ibr_vcrc_impl)i;
		} else {
			fprintf(stderr, "(skipped (no CPU): vcrc engine %s)\n",
				ibr_vcrc_impl_name((enum ibr_vcrc_impl)i));
			skipped_no_cpu++;
		}
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	return n;
}

/* The same for the ICRC. */
int icrc_impls(enum ibr_icrc_impl out[NICRC])
{
	/* worst first */
	static const enum ibr_icrc_impl all[NICRC] = { IBR_ICRC_IMPL_LIB, IBR_ICRC_IMPL_ARMCRC,
						       IBR_ICRC_IMPL_AVX2, IBR_ICRC_IMPL_GFNI };
	int n = 0;

	for (int i = 0; i < NICRC; i++) {
		if (ibr_icrc_impl_set(all[i]) == 0) {
			out[n++] = all[i];
		} else {
			fprintf(stderr, "(skipped (no CPU): icrc engine %s)\n",
				ibr_icrc_impl_name(all[i]));
			skipped_no_cpu++;
		}
	}
	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
	return n;
}

/* A random packet: LNH as given, the rest random. */
void make_pkt(uint8_t *p, size_t len, unsigned int lnh, unsigned long long *seed)
{
	fill_rand(p, len, seed);
	if (len >= 2)
		p[1] = (uint8_t)((p[1] & ~3u) | lnh);
}
