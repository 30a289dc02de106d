/*
 * ibr_crc16_x86.h - internal to the x86-64 engines of lib/ibr_crc16*.c: the target attributes
 * they are compiled for, the folding constants (ibr_crc16_fold.c) and the folds they share.
 *
 * Folding (all x86 engines, and Arm's pmull: lib/ibr_crc16_fold.h): a 128-bit accumulator loaded little-endian holds bit j as the
 * coefficient of x^(127 - j) (reflected CRC: bit 0 of the first byte is the highest power).
 * Its low quadword L stands for L * x^64, its high quadword H for H.  Moving it D bits further
 * down the message is L * x^(D+64) + H * x^D mod P.  A constant c = x^(N-1) mod P stored
 * bit-reversed in 64 bits (bit l ~ x^(63 - l)) makes clmul(L, c) land exactly on L * x^N in
 * the same 128-bit frame, so each fold distance D needs the pair x^(D+63), x^(D-1) mod P.
 * Products stay below bit 127.  At the end the accumulator weighs exactly like 16 message
 * bytes, so one slicing-by-16 step reduces it to the 16-bit register.
 *
 * The engines need no compiler flags of their own: each function carries the target attribute
 * of the instructions it uses, and the rest of a file (tables, set-up) stays baseline x86-64,
 * so it runs before the engine's usable() has looked at the CPU.
 */
#ifndef IBR_CRC16_X86_H
#define IBR_CRC16_X86_H

#include "lib/ibr_crc16.h"
#include "lib/ibr_crc16_fold.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define IBR_CRC16_X86 1
#define PCLMUL_TARGET __attribute__((target("pclmul,sse4.1")))
#define VPCLMUL_TARGET \
	__attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512vl,avx512bw,vpclmulqdq")))

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

#define LDZ(p) _mm512_loadu_si512((const void *)(p))

VPCLMUL_TARGET static inline __m512i crc16_zfold(__m512i acc, __m512i k, __m512i data)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(acc, k, 0x00),
					 _mm512_clmulepi64_epi128(acc, k, 0x11), data, 0x96);
}

/* The engines other engines call into. */
PCLMUL_TARGET uint16_t ibr_crc16_pclmul(uint16_t reg, const uint8_t *p, size_t n);
PCLMUL_TARGET uint16_t ibr_crc16_update_pclmul(uint16_t vcrc, const uint8_t *o, const uint8_t *nw,
					       size_t len);
VPCLMUL_TARGET void ibr_crc16_update_n_vpclmul(const struct ibr_vcrc_job *job, unsigned n);
#endif

#endif
