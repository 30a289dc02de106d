/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_pmull.c - the pmull engine of the VCRC (aarch64 with the Crypto extension's 64-bit
 * polynomial multiply, PMULL/PMULL2: NVIDIA Grace, BlueField, every Neoverse): the same folding
 * on 128-bit lanes as x86's pclmul engine, with the same constants (lib/crc/ibr_crc16_fold.h).
 * PMULL multiplies the low doublewords of two vectors and PMULL2 the high ones, exactly as
 * PCLMULQDQ with imm 0x00 and 0x11 do, so a fold (lib/crc/ibr_crc16_x86.h says how it works) is one
 * of each and an EOR.  The incremental update is the pclmul engine's Barrett reduction.
 *
 * Speed: not measured here; the CI runs it under qemu-user, which shows only that it is right.
 * Public figures, not ours: Linux's PMULL CRC64 folding does ~1.56 GB/s on 4 KiB on a
 * Cortex-A72 (BlueField-2's core; its kunit crc_benchmark, against 0.27 GB/s for the table
 * code), and PostgreSQL measured PMULL folding about twice as fast as the CRC32 instructions
 * on long inputs.  No public figure for Neoverse V2 (Grace) was found: a Grace host should
 * measure it with bench_crc.
 */
#include "lib/crc/ibr_crc16.h"
#include "lib/crc/ibr_crc16_fold.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#include <sys/auxv.h>

#define PMULL_TARGET __attribute__((target("+crypto")))

static inline uint64x2_t pm_ld(const uint8_t *p)
{
	return vreinterpretq_u64_u8(vld1q_u8(p)); /* little-endian: lane 0 = bytes 0-7 */
}

/* L * k.lo ^ H * k.hi: the accumulator moved down the message by the pair's distance. */
PMULL_TARGET static inline uint64x2_t pm_mul2(uint64x2_t acc, uint64x2_t k)
{
	poly128_t lo = vmull_p64((poly64_t)vgetq_lane_u64(acc, 0), (poly64_t)vgetq_lane_u64(k, 0));
	poly128_t hi = vmull_high_p64(vreinterpretq_p64_u64(acc), vreinterpretq_p64_u64(k));

	return veorq_u64(vreinterpretq_u64_p128(lo), vreinterpretq_u64_p128(hi));
}

PMULL_TARGET static inline uint64x2_t pm_fold(uint64x2_t acc, int j)
{
	return pm_mul2(acc, vld1q_u64(ibr_crc16_fold_k[j]));
}

/* An accumulator standing for 16 message bytes, to the register they leave from register 0. */
static inline uint16_t pm_reduce(uint64x2_t acc)
{
	return ibr_crc16_block16_words(0, vgetq_lane_u64(acc, 0), vgetq_lane_u64(acc, 1));
}

/* At least 128 bytes: eight accumulators 128 bytes apart, then merged into one. */
PMULL_TARGET static inline uint64x2_t pm_fold8(uint64x2_t x0, const uint8_t **pp, size_t *np)
{
	const uint8_t *p = *pp;
	size_t n = *np;
	uint64x2_t x1 = pm_ld(p + 16), x2 = pm_ld(p + 32), x3 = pm_ld(p + 48), x4 = pm_ld(p + 64),
		   x5 = pm_ld(p + 80), x6 = pm_ld(p + 96), x7 = pm_ld(p + 112);

	/* Hot loop of the pmull engine: 16 PMULL per 128 bytes in eight independent chains. */
	for (p += 128, n -= 128; n >= 128; p += 128, n -= 128) {
		x0 = veorq_u64(pm_fold(x0, 7), pm_ld(p));
		x1 = veorq_u64(pm_fold(x1, 7), pm_ld(p + 16));
		x2 = veorq_u64(pm_fold(x2, 7), pm_ld(p + 32));
		x3 = veorq_u64(pm_fold(x3, 7), pm_ld(p + 48));
		x4 = veorq_u64(pm_fold(x4, 7), pm_ld(p + 64));
		x5 = veorq_u64(pm_fold(x5, 7), pm_ld(p + 80));
		x6 = veorq_u64(pm_fold(x6, 7), pm_ld(p + 96));
		x7 = veorq_u64(pm_fold(x7, 7), pm_ld(p + 112));
	}
	x7 = veorq_u64(x7, veorq_u64(pm_fold(x0, 6), pm_fold(x1, 5)));
	x7 = veorq_u64(x7, veorq_u64(pm_fold(x2, 4), pm_fold(x3, 3)));
	x7 = veorq_u64(x7, veorq_u64(pm_fold(x4, 2), veorq_u64(pm_fold(x5, 1), pm_fold(x6, 0))));
	*pp = p;
	*np = n;
	return x7;
}

PMULL_TARGET static uint16_t ibr_crc16_pmull(uint16_t reg, const uint8_t *p, size_t n)
{
	uint64x2_t acc;

	if (n < 16)
		return ibr_crc16_tail(reg, p, n);
	acc = veorq_u64(pm_ld(p), vsetq_lane_u64(reg, vdupq_n_u64(0), 0));
	if (n >= 128) {
		acc = pm_fold8(acc, &p, &n); /* advances p, n */
	} else {
		p += 16;
		n -= 16;
	}
	for (; n >= 16; p += 16, n -= 16)
		acc = veorq_u64(pm_fold(acc, 0), pm_ld(p));
	return ibr_crc16_tail(pm_reduce(acc), p, n);
}

/*
 * Incremental update: the pclmul engine's (lib/crc/ibr_crc16_pclmul.c says the algebra), four
 * polynomial multiplies and no table walk.
 */
PMULL_TARGET static uint16_t ibr_crc16_update_pmull(uint16_t vcrc, const uint8_t *o,
						    const uint8_t *nw, size_t len)
{
	uint64x2_t d = veorq_u64(pm_ld(o), pm_ld(nw)), s;
	uint64_t yz[2], t;
	poly128_t q;

	if (__builtin_expect(len < 16, 0))
		return vcrc ^
		       ibr_crc16_delta_short(vgetq_lane_u64(d, 0), vgetq_lane_u64(d, 1), len);
	yz[0] = (uint64_t)ibr_crc16_xpow_get(len - 6) << 1;
	yz[1] = (uint64_t)ibr_crc16_xpow_get(len - 14) << 1;
	s = pm_mul2(d, vld1q_u64(yz));
	q = vmull_p64((poly64_t)vgetq_lane_u64(s, 0), (poly64_t)ibr_crc16_barrett_mu);
	t = vgetq_lane_u64(s, 0) ^ (vgetq_lane_u64(vreinterpretq_u64_p128(q), 0) << 1);
	q = vmull_p64((poly64_t)t, (poly64_t)(IBR_CRC16_POLY_REFL << 1));
	return vcrc ^
	       (uint16_t)(vgetq_lane_u64(s, 1) ^ vgetq_lane_u64(vreinterpretq_u64_p128(q), 1));
}

static bool crc16_pmull_usable(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_PMULL) != 0;
}

const struct ibr_crc16_ops ibr_crc16_pmull_ops = {
	.impl = IBR_VCRC_IMPL_PMULL,
	.name = "pmull",
	.usable = crc16_pmull_usable,
	.crc = ibr_crc16_pmull,
	.update = ibr_crc16_update_pmull,
};
#else
/* Not in this build: a stand-in, never usable (no usable()), that computes the VCRC. */
const struct ibr_crc16_ops ibr_crc16_pmull_ops = {
	.impl = IBR_VCRC_IMPL_PMULL,
	.name = "pmull",
	.crc = ibr_crc16_slice16,
	.update = ibr_crc16_update_soft,
};
#endif
