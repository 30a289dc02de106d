/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc32_gfni.c - the gfni engine of the ICRC (x86-64 AVX-512 VPCLMULQDQ, VBMI and GFNI):
 * the CRC-32 folded with VPCLMULQDQ and GFNI side by side as the VCRC's gfni engine folds its
 * CRC-16 (lib/crc/ibr_crc_gfni.h), four GFNI classes a slot instead of two.  The ICRC's masking
 * and its initial register are the pattern it applies as it loads the packet (struct
 * ibr_crc_pat, lib/crc/ibr_crc.c's icrc_pat).  It runs where the VCRC's gfni engine does
 * (lib/crc/ibr_crc.c asks ibr_crc16_usable()): the same instructions.
 */
#include "lib/crc/ibr_crc_gfni.h"

#ifdef IBR_CRC16_X86
static struct ibr_crc_vk crc32_vk __attribute__((aligned(64)));

VF_TARGET uint32_t ibr_crc32_gfni(uint32_t reg, const uint8_t *p, size_t n)
{
	return vf_crc(&crc32_vk, reg, NULL, p, n, 32);
}

VF_TARGET uint32_t ibr_crc32_gfni_pat(const struct ibr_crc_pat *pat, const uint8_t *p, size_t n)
{
	return vf_crc(&crc32_vk, 0, pat, p, n, 32);
}

void ibr_crc32_gfni_init(void)
{
	ibr_crc_vk_init(&crc32_vk, 0x104C11DB7ull, 32);
}
#else
/* Not in this build: never usable, never called, but correct: bit by bit. */
uint32_t ibr_crc32_gfni(uint32_t reg, const uint8_t *p, size_t n)
{
	return ibr_crc32_bits(reg, NULL, p, n);
}

uint32_t ibr_crc32_gfni_pat(const struct ibr_crc_pat *pat, const uint8_t *p, size_t n)
{
	return ibr_crc32_bits(0, pat, p, n);
}

void ibr_crc32_gfni_init(void)
{
}
#endif
