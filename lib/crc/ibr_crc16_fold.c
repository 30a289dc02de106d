/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_fold.c - the folding constants of the carry-less engines (lib/crc/ibr_crc16_fold.h:
 * x86's and Arm's): the fold pairs x^(D+63), x^(D-1) mod P for each fold distance D, and the
 * Barrett constant of the incremental update, computed once at set-up in the baseline
 * instruction set.
 */
#include "lib/crc/ibr_crc16.h"
#include "lib/crc/ibr_crc16_fold.h"

#define IBR_CRC16_P (0x10000ull | IBR_CRC16_POLY)

/* [j]: fold pair for D = 128 * (j + 1) bits: xmm folds and the 256-byte zmm loop (j = 15) */
uint64_t ibr_crc16_fold_k[16][2] __attribute__((aligned(16)));
/* [g]: pair moving 128-bit lane g of a 256-byte window to the window's end, D = 128 (15 - g) */
uint64_t ibr_crc16_end_k[16][2] __attribute__((aligned(64)));
/* Barrett constant mu' of the incremental update, bit-reversed: bit i ~ x^(63 - i) */
uint64_t ibr_crc16_barrett_mu;

uint64_t ibr_crc16_refl64_full(uint64_t c)
{
	uint64_t r = 0;

	for (int d = 0; d < 64; d++)
		if (c & (1ull << d))
			r |= 1ull << (63 - d);
	return r;
}

uint64_t ibr_crc_fold_const(uint64_t poly, int width, int n)
{
	uint64_t r = 1, top = 1ull << width;

	if (n == -1) /* x^-1 = (P + 1) / x: P(0) = 1 */
		r = poly >> 1;
	while (n-- > 0) {
		r <<= 1;
		if (r & top)
			r ^= poly;
	}
	return ibr_crc16_refl64_full(r); /* r < x^width: its bit d at bit 63 - d */
}

/* mu' = (x^80 div P) - x^64, bit-reversed into 64 bits. */
static uint64_t crc16_barrett_mu(void)
{
	uint64_t rem = 0, quo = 0; /* long division of x^80, normal domain, bit by bit */

	for (int i = 80; i >= 0; i--) {
		rem = (rem << 1) | (i == 80);
		if (rem & 0x10000) {
			rem ^= 0x10000 | IBR_CRC16_POLY;
			if (i < 64)
				quo |= 1ull << i;
		}
	}
	return ibr_crc16_refl64_full(quo);
}

void ibr_crc16_fold_init(void)
{
	ibr_crc16_barrett_mu = crc16_barrett_mu();
	for (int j = 0; j < 16; j++) {
		int d = 128 * (j + 1), e = 128 * (15 - j);

		ibr_crc16_fold_k[j][0] = ibr_crc_fold_const(IBR_CRC16_P, 16, d + 63);
		ibr_crc16_fold_k[j][1] = ibr_crc_fold_const(IBR_CRC16_P, 16, d - 1);
		/* e = 0 keeps the lane: x^63 * x = x^64 and x^-1 * x = 1, both mod P */
		ibr_crc16_end_k[j][0] = ibr_crc_fold_const(IBR_CRC16_P, 16, e + 63);
		ibr_crc16_end_k[j][1] = ibr_crc_fold_const(IBR_CRC16_P, 16, e - 1);
	}
}
