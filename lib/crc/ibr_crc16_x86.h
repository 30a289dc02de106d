/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_x86.h - internal to the x86-64 engines of lib/crc/ibr_crc16_*.c and
 * lib/crc/ibr_crc32_{avx2,gfni}.c: the target attributes they are compiled for, the CPU
 * features they ask for, the folding constants (ibr_crc16_fold.c) and the folds they share.
 *
 * Folding (all x86 engines, and Arm's pmull: lib/crc/ibr_crc16_fold.h): a 128-bit accumulator
 * loaded little-endian holds bit j as the coefficient of x^(127 - j) (reflected CRC: bit 0 of
 * the first byte is the highest power).  Its low quadword L stands for L * x^64, its high
 * quadword H for H.  Moving it D bits further down the message is L * x^(D+64) + H * x^D
 * mod P.  A constant c = x^(N-1) mod P stored bit-reversed in 64 bits (bit l ~ x^(63 - l))
 * makes clmul(L, c) land exactly on L * x^N in the same 128-bit frame, so each fold distance
 * D needs the pair x^(D+63), x^(D-1) mod P.  Products stay below bit 127.  At the end the
 * accumulator weighs exactly like 16 message bytes, so one slicing-by-16 step reduces it to
 * the 16-bit register.
 *
 * The engines need no compiler flags of their own: each function carries the target attribute
 * of the instructions it uses, and the rest of a file (tables, set-up) stays baseline x86-64,
 * so it runs before the engine's usable() has looked at the CPU.
 */
#ifndef IBR_CRC16_X86_H
#define IBR_CRC16_X86_H

#include "lib/crc/ibr_crc16.h"
#include "lib/crc/ibr_crc16_fold.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define IBR_CRC16_X86 1
#define PCLMUL_TARGET __attribute__((target("pclmul,sse4.1")))
#define VPCLMUL_TARGET \
	__attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512vl,avx512bw,vpclmulqdq")))

/*
 * The CPU features of the avx2 engines (the VCRC's and the ICRC's) and of the avx512 engine
 * (the gfni engines need them too): each engine asks the CPU itself, none asks another's file.
 */
static inline bool crc_x86_avx2_cpu(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") &&
	       __builtin_cpu_supports("avx2") && __builtin_cpu_supports("vpclmulqdq");
}

static inline bool crc_x86_vpclmul_cpu(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") &&
	       __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("vpclmulqdq");
}

#define LD(p)	_mm_loadu_si128((const __m128i *)(p))
#define X(a, b) _mm_xor_si128((a), (b))

PCLMUL_TARGET static inline __m128i crc16_fold(__m128i acc, int j)
{
	__m128i k = _mm_load_si128((const __m128i *)ibr_crc16_fold_k[j]);

	return X(_mm_clmulepi64_si128(acc, k, 0x00), _mm_clmulepi64_si128(acc, k, 0x11));
}

/* An accumulator standing for 16 message bytes, to the register they leave from register 0. */
PCLMUL_TARGET static inline uint16_t crc16_reduce(__m128i acc)
{
	return ibr_crc16_block16_words(0, (uint64_t)_mm_cvtsi128_si64(acc),
				       (uint64_t)_mm_extract_epi64(acc, 1));
}

/* a * b mod P (registers) with one carry-less multiply. */
PCLMUL_TARGET static inline uint16_t crc16_mulmod_pclmul(uint16_t a, uint16_t b)
{
	__m128i q = _mm_clmulepi64_si128(_mm_cvtsi32_si128(a), _mm_cvtsi32_si128(b), 0x00);

	/* factors: bit i ~ x^(15-i); product bit m ~ x^(30-m): shift into the 32-bit frame */
	return ibr_crc16_reduce32((uint32_t)_mm_cvtsi128_si32(q) << 1);
}

/* The avx2 engines (lib/crc/ibr_crc16_avx2.c, lib/crc/ibr_crc32_avx2.c): 256-byte windows, ymm. */
#define AVX2_TARGET __attribute__((target("pclmul,sse4.1,avx2,vpclmulqdq")))
#define LDY(p)	    _mm256_loadu_si256((const __m256i *)(p))

/* acc moved down the message (2048 bits, or as `k` says per lane), plus data. */
AVX2_TARGET static inline __m256i crc_yfold(__m256i acc, __m256i k, __m256i data)
{
	return _mm256_xor_si256(_mm256_xor_si256(_mm256_clmulepi64_epi128(acc, k, 0x00),
						 _mm256_clmulepi64_epi128(acc, k, 0x11)),
				data);
}

/*
 * The window y[8] folded over the `left` bytes at p (a multiple of 256), k the pair for 2048
 * bits.  Hot loop of the avx2 engines: 16 VPCLMULQDQ (2 lanes each) per 256 bytes in eight
 * independent chains, as many multiplies a byte as pclmul's but half the instructions.
 */
AVX2_TARGET static inline void crc_ywindows(__m256i y[8], __m256i k, const uint8_t *p, size_t left)
{
	for (; left; p += 256, left -= 256)
		for (int i = 0; i < 8; i++)
			y[i] = crc_yfold(y[i], k, LDY(p + 32 * i));
}

/*
 * The window's sixteen 128-bit lanes, lane g moved to the window's end by end[g] (D = 128 (15
 * - g)), each on its own, then all added in a tree: one accumulator of 16 message bytes.
 */
AVX2_TARGET static inline __m128i crc_ywindow_end(__m256i y[8], const uint64_t (*end)[2])
{
	__m256i a;

	for (int i = 0; i < 8; i++)
		y[i] = crc_yfold(y[i], _mm256_load_si256((const __m256i *)end[2 * i]),
				 _mm256_setzero_si256());
	a = _mm256_xor_si256(
		_mm256_xor_si256(_mm256_xor_si256(y[0], y[1]), _mm256_xor_si256(y[2], y[3])),
		_mm256_xor_si256(_mm256_xor_si256(y[4], y[5]), _mm256_xor_si256(y[6], y[7])));
	return X(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
}

#define LDZ(p) _mm512_loadu_si512((const void *)(p))

VPCLMUL_TARGET static inline __m512i crc16_zfold(__m512i acc, __m512i k, __m512i data)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(acc, k, 0x00),
					 _mm512_clmulepi64_epi128(acc, k, 0x11), data, 0x96);
}

/*
 * The engines the wider ones call into for short inputs and the incremental update: always
 * downwards (avx2, avx512, gfni -> pclmul; gfni -> avx512), never back, never a dispatcher.
 */
PCLMUL_TARGET uint16_t ibr_crc16_pclmul(uint16_t reg, const uint8_t *p, size_t n);
PCLMUL_TARGET uint16_t ibr_crc16_update_pclmul(uint16_t vcrc, const uint8_t *o, const uint8_t *nw,
					       size_t len);
VPCLMUL_TARGET void ibr_crc16_update_n_vpclmul(const struct ibr_vcrc_job *job, unsigned n);
#endif

#endif
