/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_fold.c - the folding constants of the carry-less engines (lib/crc/ibr_crc16_fold.h:
 * x86's and Arm's): the fold pairs x^(D+63), x^(D-1) mod P for each fold distance D, and the
 * Barrett constant of the incremental update, computed once at set-up in the baseline
 * instruction set; and the gfni engines' (struct ibr_crc_vk), for the VCRC's CRC-16 and the
 * ICRC's CRC-32 alike.  A leaf: the engines and the dispatchers' set-up call it, it calls none
 * of them.
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

#if defined(__x86_64__)
/*
 * The gfni engines' constants (x86-64 only: no other build has those engines).  Their folding
 * (lib/crc/ibr_crc_gfni.h) needs x^e mod P for any e, negative too, and the GF(2) matrices of
 * x^(8e); computed bit by bit, once.
 */

/* r * x mod P, normal domain (bit d ~ x^d). */
static uint64_t vf_mulx(const struct ibr_crc_vk *k, uint64_t r)
{
	r <<= 1;
	return r >> k->w & 1 ? r ^ k->poly : r;
}

/* a * b mod P, normal domain, bit by bit. */
static uint64_t vf_mulmod(const struct ibr_crc_vk *k, uint64_t a, uint64_t b)
{
	uint64_t r = 0;

	for (int i = k->w - 1; i >= 0; i--) {
		r = vf_mulx(k, r);
		if (b >> i & 1)
			r ^= a;
	}
	return r;
}

/* x^e mod P, normal domain, any integer e (x is invertible: P(0) = 1): x^-1 = (P - 1) / x. */
static uint64_t vf_xmod(const struct ibr_crc_vk *k, long e)
{
	uint64_t r = 1, sq = e < 0 ? (k->poly ^ 1) >> 1 : 2;
	unsigned long u = e < 0 ? 0ul - (unsigned long)e : (unsigned long)e;

	for (; u; u >>= 1, sq = vf_mulmod(k, sq, sq))
		if (u & 1)
			r = vf_mulmod(k, r, sq);
	return r;
}

uint64_t ibr_crc_vk_xhi(const struct ibr_crc_vk *k, size_t j)
{
	return ibr_crc16_refl64_full(vf_xmod(k, 1024 * (long)j));
}

/*
 * m[c] = G(e, c) for c = 0..W-1, given r = x^(8e) mod P: input bit b stands for x^(7-b), output
 * bit i for x^(8c + 7 - i) of v x^(8e) mod P; row i of the matrix is byte 7 - i.
 */
static void vf_gf_matrices(const struct ibr_crc_vk *k, uint64_t r, uint64_t m[4])
{
	memset(m, 0, 4 * sizeof(m[0]));
	for (int b = 7; b >= 0; b--, r = vf_mulx(k, r)) /* r: x^(8e + 7 - b) */
		for (int c = 0; c < k->w / 8; c++)
			for (int i = 0; i < 8; i++)
				if (r >> (8 * c + 7 - i) & 1)
					m[c] |= 1ull << (8 * (7 - i) + b);
}

/* A fold pair for D bits: x^(D+63), x^(D-1) mod P, bit-reversed (lib/crc/ibr_crc16_x86.h). */
static void vf_pair(const struct ibr_crc_vk *k, uint64_t pair[2], long d)
{
	pair[0] = ibr_crc16_refl64_full(vf_xmod(k, d + 63));
	pair[1] = ibr_crc16_refl64_full(vf_xmod(k, d - 1));
}

void ibr_crc_vk_init(struct ibr_crc_vk *k, uint64_t poly, int w)
{
	uint64_t rem = 0, quo = 0, x = 1, step, r;

	k->poly = poly;
	k->w = w;
	vf_pair(k, k->fold, 8 * VF_WIN);
	vf_pair(k, k->unfold, -8 * VF_WIN);
	for (int t = 0; t < 4; t++)
		for (int g = 0; g < 4; g++) {
			vf_pair(k, &k->end[t][2 * g], 8 * (VF_WIN - 64 * t - 16 * g - 16) + w);
			vf_pair(k, &k->end2[t][2 * g], 8 * (2 * VF_WIN - 64 * t - 16 * g - 16) + w);
		}
	step = vf_xmod(k, 8 * VF_WIN);
	for (int j = 1; j <= VF_GROUP; j++) {
		x = vf_mulmod(k, x, step); /* x^(2048 j) */
		r = x;
		for (int d = 0; d < w / 8; d++) {
			vf_gf_matrices(k, r, k->gfs[j][d]);
			for (int i = 0; i < 8; i++)
				r = vf_mulx(k, r);
		}
	}
	for (int i = 64 + w; i >= 0; i--) { /* long division of x^(64+w) by P */
		rem = (rem << 1) | (i == 64 + w);
		if (rem >> w & 1) {
			rem ^= poly;
			if (i < 64)
				quo |= 1ull << i;
		}
	}
	k->mu = ibr_crc16_refl64_full(quo);
	k->pp = ibr_crc16_refl64_full(poly ^ (1ull << w));
	r = vf_xmod(k, -2);
	for (int i = 0; i < VF_XLO; i++) {
		k->xlo[i] = ibr_crc16_refl64_full(r); /* x^(8i - 2) */
		for (int b = 0; b < 8; b++)
			r = vf_mulx(k, r);
	}
	step = vf_xmod(k, 8 * VF_XLO);
	x = 1;
	for (int j = 0; j < VF_XHI; j++, x = vf_mulmod(k, x, step))
		k->xhi[j] = ibr_crc16_refl64_full(x);
}
#endif
