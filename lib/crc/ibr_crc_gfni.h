/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc_gfni.h - internal to the gfni engines (x86-64 AVX-512 VPCLMULQDQ, VBMI and GFNI), the
 * VCRC's CRC-16 (lib/crc/ibr_crc16_gfni.c) and the ICRC's CRC-32 (lib/crc/ibr_crc32_gfni.c):
 * their folding, for a CRC of any width w <= 32, all inline so that each engine gets it
 * compiled for its own w.  Their constants (struct ibr_crc_vk) are set up in
 * lib/crc/ibr_crc16_fold.c.
 */
#ifndef IBR_CRC_GFNI_H
#define IBR_CRC_GFNI_H

#include "lib/crc/ibr_crc16_x86.h"

#ifdef IBR_CRC16_X86
/*
 * Every fold of the pclmul and avx512 engines is a carry-less multiply, and this CPU class
 * issues one VPCLMULQDQ every ~2 cycles whatever its width (measured: xmm, ymm and zmm alike):
 * 4 x 64 message bits per ~2 cycles, ~48 GB/s at most, for any CRC.  GFNI's
 * vgf2p8affineqb (an 8x8 bit matrix times every byte) shares the multiplier's ports, but issues
 * once per cycle where VPCLMULQDQ issues once per two.  The gfni engine keeps the 256-byte
 * windows of the avx512 engine; slot 0 of each window folds with VPCLMULQDQ, slots 1-3 with
 * GFNI.
 *
 * GFNI folding: moving a byte v from message position q to q + e multiplies it by x^(8e) mod P,
 * a w-bit value: W = w/8 bytes, the one landing at q + e - c being G(e, c) v for an 8x8 matrix
 * G(e, c) (c = 0..W-1).  A GFNI slot is therefore W registers: class c holds bytes c positions
 * before the slot's own (class 0 is where data is added).  Folding one over j windows is new[c]
 * = sum over d of G(256 j + d, c) old[d], W^2 vgf2p8affineqb; but a data block is one class,
 * and moving it to the end of a group of j windows costs W.  So the slots fold once per group
 * of up to 16 windows (a whole packet), and each data block goes straight to its group's end:
 * W vgf2p8affineqb per 64 bytes (2 for the VCRC, 4 for the CRC-32) against 2 VPCLMULQDQ.
 *
 * At the end each GFNI slot's classes are shifted into class 0 (vpermb), the bytes shifted out
 * going to the slot before, and every slot moves to the end of the message with per-lane
 * constant pairs like crc16_zend(), but w bits further, so that the sum S of the lanes is M(x)
 * x^w itself: the register is S mod P, by Barrett reduction.  An initial register R either is
 * xored into the first message bytes as they are loaded (struct ibr_crc_pat, which also sets
 * the ICRC's masked bits) or adds R x^(8n) mod P, from two small tables.
 */
#define VF_TARGET                                                                            \
	__attribute__((                                                                      \
		target("pclmul,sse4.1,avx2,avx512f,avx512vl,avx512bw,avx512vbmi,vpclmulqdq," \
		       "gfni")))
#define VF_INLINE  VF_TARGET static inline __attribute__((always_inline))
#define VF_OR_XOR  0x56 /* vpternlog: (a | b) ^ c */
#define VF_ANDN_X  0xA6 /* vpternlog: (~a & b) ^ c */
#define X512(a, b) _mm512_xor_si512((a), (b))

/* Bytes [m, m + 64) of the message, loaded under mask (m may be negative), patterned. */
VF_INLINE __m512i vf_load(const uint8_t *p, long m, __mmask64 mask, const struct ibr_crc_pat *pat)
{
	/* masked-off bytes are never read: the addresses may lie outside the buffers */
	__m512i d = _mm512_maskz_loadu_epi8(mask, (const void *)((uintptr_t)p + (uintptr_t)m));
	long lim = IBR_CRC_PAT_LEN - m; /* slot bytes i < lim have a pattern byte */

	if (pat && lim > 0) {
		mask &= lim >= 64 ? ~0ull : ~(~0ull << lim);
		d = _mm512_ternarylogic_epi64(
			d, _mm512_maskz_loadu_epi8(mask, (const void *)((uintptr_t)pat->or_ + m)),
			_mm512_maskz_loadu_epi8(mask, (const void *)((uintptr_t)pat->xor_ + m)),
			VF_OR_XOR);
	}
	return d;
}

/* Slot t of the first window, which holds the first h bytes of the message right-aligned. */
VF_INLINE __m512i vf_head(const uint8_t *p, size_t h, int t, const struct ibr_crc_pat *pat)
{
	long m = 64 * t - (long)(VF_WIN - h); /* message offset of the slot's byte 0 */

	return vf_load(p, m, m >= 0 ? ~0ull : m <= -64 ? 0 : ~0ull << -m, pat);
}

/*
 * With a pattern and h < 64 the first window does not hold all the patterned bytes: the rest,
 * [h, 64), are in slot 0 of the next.  Their change, moved one window back (-2048 bits), goes
 * into the first window's slot 0, from where the folding carries it to its place.
 */
VF_INLINE __m512i vf_head_rest(const struct ibr_crc_vk *k, const uint8_t *p, size_t h,
			       const struct ibr_crc_pat *pat)
{
	__mmask64 m = ~0ull >> h;
	__m512i d = _mm512_ternarylogic_epi64(LDZ(p + h), _mm512_maskz_loadu_epi8(m, pat->or_ + h),
					      _mm512_maskz_loadu_epi8(m, pat->xor_ + h), VF_ANDN_X);

	return crc16_zfold(d, _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)k->unfold)),
			   _mm512_setzero_si512());
}

/*
 * The matrix times every byte of x.  In assembly for its broadcast memory operand: with the
 * intrinsic, GCC hoists all the matrices of a call into registers as full vectors and spills
 * them (measured: +1.5 ns per call at 256 bytes).  {disp32}: LLVM 14's assembler encodes an
 * 8-bit displacement here unscaled (EVEX disp8*8 for {1to8}), reading the wrong matrix.
 */
VF_INLINE __m512i vf_gf(__m512i x, const uint64_t *m)
{
	__m512i r;

	__asm__("%{disp32%} vgf2p8affineqb $0, %2%{1to8%}, %1, %0" : "=v"(r) : "v"(x), "m"(*m));
	return r;
}

/* GFNI slot classes a[0..nd-1] folded g windows on, into b[0..nc-1]. */
VF_INLINE void vf_gf_fold(const struct ibr_crc_vk *k, __m512i b[4], const __m512i a[4], size_t g,
			  const int nd, const int nc)
{
#pragma GCC unroll 4
	for (int c = 0; c < nc; c++) {
		b[c] = vf_gf(a[0], &k->gfs[g][0][c]);
#pragma GCC unroll 4
		for (int d = 1; d < nd; d++)
			b[c] = X512(b[c], vf_gf(a[d], &k->gfs[g][d][c]));
	}
}

/*
 * The next g windows (1 <= g <= VF_GROUP) at p, slots s[0] (carry-less, folds window by
 * window) and s[1..3] (GFNI, nc classes of which the first nd may be non-zero: 1 right after
 * the first window).  The GFNI slots fold once, g windows on; each data block goes straight
 * to the group's last window.
 */
VF_INLINE void vf_group(const struct ibr_crc_vk *k, __m512i s[4][4], __m512i kf, const uint8_t *p,
			size_t g, const int nc, const int nd)
{
	__m512i b[4][4];

#pragma GCC unroll 4
	for (int t = 1; t < 4; t++)
		vf_gf_fold(k, b[t], s[t], g, nd, nc);
	/*
	 * Hot loop of the gfni engine, per 256 bytes: 2 VPCLMULQDQ and 3 W vgf2p8affineqb (6 for
	 * the VCRC, 12 for the CRC-32); measured ~2.15 ns (VCRC) and ~2.7 ns (CRC-32) on 30 KiB.
	 * Whole calls on 2 KiB: VCRC ~20.5 ns, CRC-32 ~28 ns, isa-l's CRC-32 ~37 ns (interleaved
	 * A/B runs, AMD EPYC VM).
	 */
	for (size_t j = g - 1; j > 0; j--, p += VF_WIN) {
		s[0][0] = crc16_zfold(s[0][0], kf, LDZ(p));
#pragma GCC unroll 4
		for (int t = 1; t < 4; t++) {
			__m512i d = LDZ(p + 64 * t);

#pragma GCC unroll 4
			for (int c = 0; c < nc; c++)
				b[t][c] = X512(b[t][c], vf_gf(d, &k->gfs[j][0][c]));
		}
	}
	s[0][0] = crc16_zfold(s[0][0], kf, LDZ(p));
#pragma GCC unroll 4
	for (int t = 1; t < 4; t++) {
		s[t][0] = X512(b[t][0], LDZ(p + 64 * t)); /* the last window's data is in place */
#pragma GCC unroll 4
		for (int c = 1; c < nc; c++)
			s[t][c] = b[t][c];
	}
}

static const uint8_t vf_iota[64] __attribute__((aligned(64))) = {
	0,  1,	2,  3,	4,  5,	6,  7,	8,  9,	10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
	22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
	44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
};

/*
 * Shifts the classes of a GFNI slot into class 0: class c's byte i + c is the slot's byte i;
 * its first c bytes belong to the last c bytes of the slot before, *prev.
 */
VF_INLINE void vf_gf_merge(__m512i a[4], __m512i *prev, const int nc)
{
	__m512i io = _mm512_load_si512((const void *)vf_iota);

#pragma GCC unroll 4
	for (int c = 1; c < nc; c++) {
		__m512i idx = _mm512_add_epi8(io, _mm512_set1_epi8((char)c));
		__mmask64 own = ~0ull >> c;

		a[0] = X512(a[0], _mm512_maskz_permutexvar_epi8(own, idx, a[c]));
		*prev = X512(*prev, _mm512_maskz_permutexvar_epi8(~own, idx, a[c]));
	}
}

/*
 * The slots of a window holding the message's first h bytes, right-aligned (the last
 * ceil(h / 64)), each moved to the end with its pair in e[], summed alternately into *a and
 * *b: two independent sums.
 */
VF_INLINE void vf_heads(const uint8_t *p, size_t h, const __m512i *e, const struct ibr_crc_pat *pat,
			__m512i *a, __m512i *b)
{
	switch ((VF_WIN - h) / 64) {
	case 0:
		*a = crc16_zfold(vf_head(p, h, 0, pat), e[0], *a);
		/* fallthrough */
	case 1:
		*b = crc16_zfold(vf_head(p, h, 1, pat), e[1], *b);
		/* fallthrough */
	case 2:
		*a = crc16_zfold(vf_head(p, h, 2, pat), e[2], *a);
		/* fallthrough */
	default:
		*b = crc16_zfold(vf_head(p, h, 3, pat), e[3], *b);
	}
}

/*
 * At most one window: nothing to fold, only the slots holding bytes move to the end.
 * Measured ~8 ns at 256 bytes, against ~11.5 going the long way.
 */
VF_INLINE __m512i vf_short(const struct ibr_crc_vk *k, const uint8_t *p, size_t n,
			   const struct ibr_crc_pat *pat)
{
	__m512i a = _mm512_setzero_si512(), b = a;

	vf_heads(p, n, (const __m512i *)k->end, pat, &a, &b);
	return X512(a, b);
}

/*
 * Two windows at most (256 < n <= 512, a 256-byte payload's packet): like vf_short(), every
 * slot holding bytes goes straight to the end with its own pair, in two independent sums:
 * no fold chain, no GFNI classes to merge.  Measured ~11.4 against ~14.9 ns at 328 bytes
 * (ibr_vcrc_verify_n over bursts of 32, thread CPU time).
 */
VF_INLINE __m512i vf_short2(const struct ibr_crc_vk *k, const uint8_t *p, size_t n,
			    const struct ibr_crc_pat *pat)
{
	const __m512i *e = (const __m512i *)k->end;
	const __m512i z = _mm512_setzero_si512();
	long h = (long)n - VF_WIN; /* bytes in the first window, right-aligned */
	/* the last window: only its slot 0 may hold patterned bytes (h < 64) */
	__m512i a = crc16_zfold(vf_load(p, h, ~0ull, pat), e[0], z);
	__m512i b = crc16_zfold(vf_load(p, h + 64, ~0ull, NULL), e[1], z);

	a = crc16_zfold(vf_load(p, h + 128, ~0ull, NULL), e[2], a);
	b = crc16_zfold(vf_load(p, h + 192, ~0ull, NULL), e[3], b);
	vf_heads(p, (size_t)h, (const __m512i *)k->end2, pat, &a, &b);
	return X512(a, b);
}

/* More than two windows; returns the slots moved to the end, to be summed. */
VF_INLINE __m512i vf_windows(const struct ibr_crc_vk *k, const uint8_t *p, size_t n,
			     const struct ibr_crc_pat *pat, const int nc)
{
	__m512i kf = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)k->fold));
	__m512i s[4][4], acc = _mm512_setzero_si512();
	size_t h = n % VF_WIN, left = n - h, g;

	if (h == 0) {
		h = VF_WIN;
		left -= VF_WIN;
	}
#pragma GCC unroll 4
	for (int t = 0; t < 4; t++) {
		s[t][0] = vf_head(p, h, t, pat);
#pragma GCC unroll 4
		for (int c = 1; c < nc; c++)
			s[t][c] = _mm512_setzero_si512();
	}
	if (pat && h < IBR_CRC_PAT_LEN) /* n > 256: there is a next window */
		s[0][0] = X512(s[0][0], vf_head_rest(k, p, h, pat));
	p += h;
	g = left / VF_WIN < VF_GROUP ? left / VF_WIN : VF_GROUP;
	vf_group(k, s, kf, p, g, nc, 1); /* the GFNI slots hold one window: one class */
	for (left -= g * VF_WIN, p += g * VF_WIN; left; left -= g * VF_WIN, p += g * VF_WIN) {
		g = left / VF_WIN < VF_GROUP ? left / VF_WIN : VF_GROUP;
		vf_group(k, s, kf, p, g, nc, nc);
	}
#pragma GCC unroll 4
	for (int t = 3; t >= 1; t--)
		vf_gf_merge(s[t], &s[t - 1][0], nc);
#pragma GCC unroll 4
	for (int t = 0; t < 4; t++)
		acc = crc16_zfold(s[t][0], _mm512_load_si512((const void *)k->end[t]), acc);
	return acc;
}

/* reg * x^(8n) mod P, as a value of degree < 64 + w for vf_barrett(). */
VF_INLINE __m128i vf_init_term(const struct ibr_crc_vk *k, uint32_t reg, size_t n, const int w)
{
	size_t j = n / VF_XLO;
	uint64_t hi = j < VF_XHI ? k->xhi[j] : ibr_crc_vk_xhi(k, j);
	__m128i t = _mm_clmulepi64_si128(_mm_cvtsi64_si128((long long)((uint64_t)reg << (64 - w))),
					 _mm_cvtsi64_si128((long long)hi), 0x00);

	/* t's high half is reg * x^(1024 j) * x; xlo's x^-2 takes out both products' extra x */
	return _mm_clmulepi64_si128(t, _mm_cvtsi64_si128((long long)k->xlo[n % VF_XLO]), 0x01);
}

/*
 * S mod P for S of degree < 64 + w in the reflected 128-bit frame (bit m ~ x^(127-m)): S = A
 * x^w + B; quotient Q = A + (A mu' div x^64); the remainder B + (Q (P - x^w) mod x^w).
 */
VF_INLINE uint32_t vf_barrett(const struct ibr_crc_vk *k, __m128i s, const int w)
{
	__m128i a = w == 16 ? _mm_srli_si128(s, 6) : _mm_srli_si128(s, 4), q, r; /* (64 - w) / 8 */

	q = _mm_clmulepi64_si128(a, _mm_cvtsi64_si128((long long)k->mu), 0x00);
	q = X(a, _mm_slli_epi64(q, 1));
	r = _mm_clmulepi64_si128(q, _mm_cvtsi64_si128((long long)k->pp), 0x00);
	r = X(_mm_srli_epi64(s, 64 - w), _mm_srli_epi64(r, 63 - w));
	return (uint32_t)_mm_extract_epi64(r, 1);
}

/* The register after the n bytes at p: from register 0, patterned, or from reg without one. */
VF_INLINE uint32_t vf_crc(const struct ibr_crc_vk *k, uint32_t reg, const struct ibr_crc_pat *pat,
			  const uint8_t *p, size_t n, const int w)
{
	__m512i acc;
	__m256i y;
	__m128i s;

	if (n == 0)
		return pat ? 0 : reg;
	if (n <= VF_WIN)
		acc = vf_short(k, p, n, pat);
	else if (n <= 2 * VF_WIN)
		acc = vf_short2(k, p, n, pat);
	else
		acc = vf_windows(k, p, n, pat, w / 8);
	y = _mm256_xor_si256(_mm512_castsi512_si256(acc), _mm512_extracti64x4_epi64(acc, 1));
	s = X(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));
	_mm256_zeroupper(); /* see crc16_zend() */
	if (!pat)
		s = X(s, vf_init_term(k, reg, n, w));
	return vf_barrett(k, s, w);
}
#endif

#endif
