/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc32_avx2.c - the avx2 engine of the ICRC (x86-64 AVX2 with 256-bit VPCLMULQDQ: AMD
 * Zen 3, Intel Alder Lake and the Ice Lake parts without AVX-512), where isa-l folds on 128
 * bits only.  The VCRC's avx2 folding (lib/crc/ibr_crc16_avx2.c, lib/crc/ibr_crc16_x86.h) with the
 * CRC-32's constants: 256-byte windows in eight 256-bit registers, their sixteen 128-bit lanes
 * moved to the window's end and added, then one slicing-by-16 step of the CRC-32 reduces the
 * 16 bytes left to the register.
 *
 * The ICRC's masking and its initial register are applied as the gfni engine does
 * (struct ibr_crc_pat): on a copy of the message's first bytes, which the first window is made
 * of anyway (the n % 256 bytes before the last whole windows go right-aligned into a zeroed
 * window: leading zero bytes leave a CRC from register 0 alone).  The pattern covers 64
 * bytes: when the first window holds fewer of the message, the second window is copied too.
 */
#include "lib/crc/ibr_crc16_x86.h"

#ifdef IBR_CRC16_X86

#define C32_P 0x104C11DB7ull /* the CRC-32's polynomial, x^32 included */

/* the fold pair of the 256-byte loop (D = 2048 bits), and each lane's to the window's end */
static uint64_t c32_fold[2] __attribute__((aligned(16)));
static uint64_t c32_end[16][2] __attribute__((aligned(32)));
/* c32_tab[k][b]: register after byte b then k zero bytes, from register 0 */
static uint32_t c32_tab[16][256];

void ibr_crc32_avx2_init(void)
{
	for (uint32_t b = 0; b < 256; b++) {
		uint32_t r = b;

		for (int i = 0; i < 8; i++)
			r = (r >> 1) ^ ((r & 1) ? IBR_CRC32_POLY_REFL : 0);
		c32_tab[0][b] = r;
	}
	for (int k = 1; k < 16; k++)
		for (int b = 0; b < 256; b++)
			c32_tab[k][b] = (c32_tab[k - 1][b] >> 8) ^
					c32_tab[0][c32_tab[k - 1][b] & 0xff];
	c32_fold[0] = ibr_crc_fold_const(C32_P, 32, 2048 + 63);
	c32_fold[1] = ibr_crc_fold_const(C32_P, 32, 2048 - 1);
	for (int g = 0; g < 16; g++) {
		int e = 128 * (15 - g); /* e = 0 keeps the lane */

		c32_end[g][0] = ibr_crc_fold_const(C32_P, 32, e + 63);
		c32_end[g][1] = ibr_crc_fold_const(C32_P, 32, e - 1);
	}
}

/* The register after the 16 bytes a (0-7), b (8-15) from register 0: slicing-by-16. */
static inline uint32_t c32_block16(uint64_t a, uint64_t b)
{
	const uint32_t(*t)[256] = c32_tab;

	return t[15][a & 0xff] ^ t[14][(a >> 8) & 0xff] ^ t[13][(a >> 16) & 0xff] ^
	       t[12][(a >> 24) & 0xff] ^ t[11][(a >> 32) & 0xff] ^ t[10][(a >> 40) & 0xff] ^
	       t[9][(a >> 48) & 0xff] ^ t[8][a >> 56] ^ t[7][b & 0xff] ^ t[6][(b >> 8) & 0xff] ^
	       t[5][(b >> 16) & 0xff] ^ t[4][(b >> 24) & 0xff] ^ t[3][(b >> 32) & 0xff] ^
	       t[2][(b >> 40) & 0xff] ^ t[1][(b >> 48) & 0xff] ^ t[0][b >> 56];
}

AVX2_TARGET uint32_t ibr_crc32_avx2_pat(const struct ibr_crc_pat *pat, const uint8_t *p, size_t n)
{
	const __m256i k = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)c32_fold));
	uint8_t buf[512] __attribute__((aligned(32)));
	size_t h = n % 256 ? n % 256 : 256, lead = 256 - h;
	size_t c = h >= IBR_CRC_PAT_LEN ? 256 : 512, take = c - lead, left = n - take;
	__m256i y[8];
	__m128i x;

	/* n >= IBR_CRC32_AVX2_MIN: the copy and the windows after it are all message */
	memset(buf, 0, lead);
	memcpy(buf + lead, p, take);
	for (int j = 0; j < IBR_CRC_PAT_LEN; j += 32) { /* byte j: (b | or[j]) ^ xor[j] */
		__m256i b = LDY(buf + lead + j);

		b = _mm256_xor_si256(_mm256_or_si256(b, LDY(pat->or_ + j)), LDY(pat->xor_ + j));
		_mm256_storeu_si256((__m256i *)(buf + lead + j), b);
	}
	for (int i = 0; i < 8; i++)
		y[i] = LDY(buf + 32 * i);
	if (c == 512)
		for (int i = 0; i < 8; i++)
			y[i] = crc_yfold(y[i], k, LDY(buf + 256 + 32 * i));
	crc_ywindows(y, k, p + take, left);
	x = crc_ywindow_end(y, c32_end);
	/* no dirty upper halves for the SSE code after us */
	_mm256_zeroupper();
	return c32_block16((uint64_t)_mm_cvtsi128_si64(x), (uint64_t)_mm_extract_epi64(x, 1));
}

/* The VCRC's avx2 engine's CPU: the same instructions. */
bool ibr_crc32_avx2_usable(void)
{
	return crc_x86_avx2_cpu();
}
#else
void ibr_crc32_avx2_init(void)
{
}

/* Never called here (not usable), but correct: bit by bit. */
uint32_t ibr_crc32_avx2_pat(const struct ibr_crc_pat *pat, const uint8_t *p, size_t n)
{
	return ibr_crc32_bits(0, pat, p, n);
}

bool ibr_crc32_avx2_usable(void)
{
	return false;
}
#endif
