/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_gfni.c - the gfni engine of the VCRC (x86-64 AVX-512 VPCLMULQDQ, VBMI and GFNI):
 * the CRC-16 folded with VPCLMULQDQ and GFNI side by side (lib/crc/ibr_crc_gfni.h), the
 * incremental update the avx512 engine's.  The ICRC's CRC-32 on the same folding:
 * lib/crc/ibr_crc32_gfni.c.
 */
#include "lib/crc/ibr_crc_gfni.h"

#ifdef IBR_CRC16_X86
static struct ibr_crc_vk crc16_vk __attribute__((aligned(64)));
/* The VCRC's initial register 0xFFFF as a pattern. */
static const struct ibr_crc_pat crc16_pat_init = { .xor_ = { 0xff, 0xff } };

VF_TARGET static uint16_t crc16_gfni(uint16_t reg, const uint8_t *p, size_t n)
{
	/* the VCRC's register 0xFFFF as a pattern: no multiply by x^(8n) */
	if (reg == 0xffff && n >= 2)
		return (uint16_t)vf_crc(&crc16_vk, 0, &crc16_pat_init, p, n, 16);
	return (uint16_t)vf_crc(&crc16_vk, reg, NULL, p, n, 16);
}

/*
 * A whole wire packet of len < 4 bytes: mismatch or too short.  Byte at a time from register
 * 0xFFFF, as ibr_vcrc_verify() would, without calling back up into the dispatcher for it.
 */
static bool crc16_gfni_short_bad(const uint8_t *p, uint32_t len)
{
	size_t l = len - IBR_VCRC_LEN;
	uint16_t want;

	if (len < IBR_VCRC_LEN)
		return true;
	want = (uint16_t)(p[l] | p[l + 1] << 8) ^ 0xffff;
	return ibr_crc16_bytes(0xffff, p, l) != want;
}

/*
 * The burst check: each packet's CRC inlined in one loop, so the CPU runs the folds of the
 * next packets while one packet's Barrett reduction completes, and the engine is chosen once.
 */
VF_TARGET static uint64_t crc16_gfni_verify_n(const uint8_t *const pkt[], const uint32_t len[],
					      unsigned n)
{
	uint64_t bad = 0;

	for (unsigned i = 0; i < n && i < 64; i++) {
		const uint8_t *p = pkt[i];
		size_t l = len[i] - IBR_VCRC_LEN;
		uint16_t want;

		if (len[i] < IBR_VCRC_LEN + 2) { /* the pattern needs two bytes; rare, exact */
			bad |= (uint64_t)crc16_gfni_short_bad(p, len[i]) << i;
			continue;
		}
		want = (uint16_t)(p[l] | p[l + 1] << 8) ^ 0xffff;
		bad |= (uint64_t)((uint16_t)vf_crc(&crc16_vk, 0, &crc16_pat_init, p, l, 16) != want)
		       << i;
	}
	return bad;
}

/* The avx512 engine's CPU and VBMI and GFNI. */
static bool crc16_gfni_usable(void)
{
	__builtin_cpu_init();
	return crc_x86_vpclmul_cpu() && __builtin_cpu_supports("avx512vbmi") &&
	       __builtin_cpu_supports("gfni");
}

static void crc16_gfni_init(void)
{
	ibr_crc_vk_init(&crc16_vk, 0x10000 | IBR_CRC16_POLY, 16);
}

const struct ibr_crc16_ops ibr_crc16_gfni_ops = {
	.impl = IBR_VCRC_IMPL_GFNI,
	.name = "gfni",
	.usable = crc16_gfni_usable,
	.init = crc16_gfni_init,
	.crc = crc16_gfni,
	.update = ibr_crc16_update_pclmul,
	.update_n = ibr_crc16_update_n_vpclmul,
	.verify_n = crc16_gfni_verify_n,
};
#else
/* Not in this build: a stand-in, never usable (no usable()), that computes the VCRC. */
const struct ibr_crc16_ops ibr_crc16_gfni_ops = {
	.impl = IBR_VCRC_IMPL_GFNI,
	.name = "gfni",
	.crc = ibr_crc16_slice16,
	.update = ibr_crc16_update_soft,
};
#endif
