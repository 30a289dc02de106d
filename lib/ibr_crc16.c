/*
 * ibr_crc16.c - CRC-16/0x100B engines for the VCRC: slicing-by-16 (portable), PCLMULQDQ
 * folding on 128-bit lanes (x86-64), VPCLMULQDQ folding on 512-bit registers (AVX-512), and the
 * multiplication mod P behind the O(1) incremental update.
 *
 * No library computes this CRC, so all engines are written here and tested against a
 * bit-by-bit reference (tests/unit/lib/ibr_crc_test.c).
 *
 * Folding (all x86 engines): a 128-bit accumulator loaded little-endian holds bit j as the
 * coefficient of x^(127 - j) (reflected CRC: bit 0 of the first byte is the highest power).
 * Its low quadword L stands for L * x^64, its high quadword H for H.  Moving it D bits further
 * down the message is L * x^(D+64) + H * x^D mod P.  A constant c = x^(N-1) mod P stored
 * bit-reversed in 64 bits (bit l ~ x^(63 - l)) makes clmul(L, c) land exactly on L * x^N in
 * the same 128-bit frame, so each fold distance D needs the pair x^(D+63), x^(D-1) mod P.
 * Products stay below bit 127.  At the end the accumulator weighs exactly like 16 message
 * bytes, so one slicing-by-16 step reduces it to the 16-bit register.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "lib/ibr_crc16.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define IBR_CRC16_X86 1
#define PCLMUL_TARGET __attribute__((target("pclmul,sse4.1")))
#define VPCLMUL_TARGET \
	__attribute__((target("pclmul,sse4.1,avx2,avx512f,avx512vl,avx512bw,vpclmulqdq")))
#endif

uint16_t ibr_crc16_tab[16][256];
uint16_t ibr_crc16_xpow[IBR_CRC16_XPOW_N];
/* ibr_crc16_x2k[k] = x^(8 * 2^k) mod P, for lengths beyond the xpow table */
static uint16_t ibr_crc16_x2k[64];

/*
 * Byte at a time: one dependent load per byte, ~0.5 ns per byte measured (AMD EPYC VM).  Only
 * for tails of fewer than 8 bytes, inputs under 16 bytes and the incremental update's short case.
 */
uint16_t ibr_crc16_bytes(uint16_t reg, const uint8_t *p, size_t n)
{
	while (n--)
		reg = (uint16_t)((reg >> 8) ^ ibr_crc16_tab[0][(reg ^ *p++) & 0xff]);
	return reg;
}

static uint16_t crc16_slice16(uint16_t reg, const uint8_t *p, size_t n)
{
	/*
	 * Hot loop of the portable engine: 16 independent table loads per 16 bytes.  Measured
	 * ~2.5 GB/s (~6.5 ns per 16 bytes) on 2 KiB (bench_crc, AMD EPYC VM, forced slice16).
	 */
	while (n >= 16) {
		reg = ibr_crc16_block16(reg, p);
		p += 16;
		n -= 16;
	}
	return ibr_crc16_tail(reg, p, n);
}

/* a * b mod P (registers), software carry-less multiply. */
static uint16_t crc16_mulmod_soft(uint16_t a, uint16_t b)
{
	uint32_t p = 0;

	for (int i = 0; i < 16; i++)
		p ^= ((uint32_t)b << i) & (0u - ((uint32_t)(a >> i) & 1));
	/* a, b: bit i ~ x^(15-i); product bit m ~ x^(30-m): shift into the 32-bit frame */
	return ibr_crc16_reduce32(p << 1);
}

uint16_t ibr_crc16_xpow8(size_t n)
{
	uint16_t r = 0x8000; /* 1 */

	if (n < IBR_CRC16_XPOW_N)
		return ibr_crc16_xpow[n];
	for (int k = 0; n; k++, n >>= 1)
		if (n & 1)
			r = crc16_mulmod_soft(r, ibr_crc16_x2k[k]);
	return r;
}

/*
 * The incremental update (see ibr_vcrc_update()): L(delta) over 16 bytes (9 or 16 table
 * loads), times x^(8(len-16)) in software.  Measured ~17 ns per update (bench_crc, forced
 * slice16); the x86 version below takes ~4.4 ns.
 */
static uint16_t crc16_update_soft(uint16_t vcrc, const uint8_t *o, const uint8_t *nw, size_t len)
{
	uint64_t a = ibr_crc16_le64(o) ^ ibr_crc16_le64(nw);
	uint64_t b = ibr_crc16_le64(o + 8) ^ ibr_crc16_le64(nw + 8);

	if (__builtin_expect(len < 16, 0))
		return vcrc ^ ibr_crc16_delta_short(a, b, len);
	return vcrc ^ crc16_mulmod_soft(ibr_crc16_delta16(a, b), ibr_crc16_xpow_get(len - 16));
}

const struct ibr_crc16_ops ibr_crc16_slice16_ops = {
	.impl = IBR_VCRC_IMPL_SLICE16,
	.name = "slice16",
	.crc = crc16_slice16,
	.update = crc16_update_soft,
};

#ifdef IBR_CRC16_X86
/* [j]: fold pair for D = 128 * (j + 1) bits: xmm folds and the 256-byte zmm loop (j = 15) */
static uint64_t ibr_crc16_fold_k[16][2] __attribute__((aligned(16)));
/* [g]: pair moving 128-bit lane g of a 256-byte window to the window's end, D = 128 (15 - g) */
static uint64_t ibr_crc16_end_k[16][2] __attribute__((aligned(64)));
/* Barrett constant mu' of the incremental update, bit-reversed: bit i ~ x^(63 - i) */
static uint64_t ibr_crc16_barrett_mu;

/* x^n mod P in the normal (non-reflected) domain: bit d is the coefficient of x^d. */
static uint16_t crc16_xmod_normal(int n)
{
	uint32_t r = 1;

	if (n == -1) /* x^-1: x * (x^15 + x^11 + x^2 + 1) = 1 + P */
		return (uint16_t)((0x10000 | IBR_CRC16_POLY) >> 1);
	while (n-- > 0) {
		r <<= 1;
		if (r & 0x10000)
			r ^= 0x10000 | IBR_CRC16_POLY;
	}
	return (uint16_t)r;
}

static uint64_t crc16_refl64_full(uint64_t c)
{
	uint64_t r = 0;

	for (int d = 0; d < 64; d++)
		if (c & (1ull << d))
			r |= 1ull << (63 - d);
	return r;
}

static uint64_t crc16_refl64(uint16_t c)
{
	uint64_t r = 0;

	for (int d = 0; d < 16; d++)
		if (c & (1u << d))
			r |= 1ull << (63 - d);
	return r;
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
	return crc16_refl64_full(quo);
}

static void crc16_fold_init(void)
{
	ibr_crc16_barrett_mu = crc16_barrett_mu();
	for (int j = 0; j < 16; j++) {
		int d = 128 * (j + 1), e = 128 * (15 - j);

		ibr_crc16_fold_k[j][0] = crc16_refl64(crc16_xmod_normal(d + 63));
		ibr_crc16_fold_k[j][1] = crc16_refl64(crc16_xmod_normal(d - 1));
		/* e = 0 keeps the lane: x^63 * x = x^64 and x^-1 * x = 1, both mod P */
		ibr_crc16_end_k[j][0] = crc16_refl64(crc16_xmod_normal(e + 63));
		ibr_crc16_end_k[j][1] = crc16_refl64(crc16_xmod_normal(e - 1));
	}
}

#define LD(p)	_mm_loadu_si128((const __m128i *)(p))
#define X(a, b) _mm_xor_si128((a), (b))

PCLMUL_TARGET static inline __m128i crc16_fold(__m128i acc, int j)
{
	__m128i k = _mm_load_si128((const __m128i *)ibr_crc16_fold_k[j]);

	return X(_mm_clmulepi64_si128(acc, k, 0x00), _mm_clmulepi64_si128(acc, k, 0x11));
}

/* At least 128 bytes: eight accumulators 128 bytes apart, then merged into one. */
PCLMUL_TARGET static inline __m128i crc16_fold8(__m128i x0, const uint8_t **pp, size_t *np)
{
	const uint8_t *p = *pp;
	size_t n = *np;
	__m128i x1 = LD(p + 16), x2 = LD(p + 32), x3 = LD(p + 48), x4 = LD(p + 64), x5 = LD(p + 80),
		x6 = LD(p + 96), x7 = LD(p + 112);

	/*
	 * Hot loop of the pclmul engine: 16 PCLMULQDQ per 128 bytes in eight independent
	 * chains.  Measured ~13.3 GB/s on 2 KiB (bench_crc, forced pclmul).
	 */
	for (p += 128, n -= 128; n >= 128; p += 128, n -= 128) {
		x0 = X(crc16_fold(x0, 7), LD(p));
		x1 = X(crc16_fold(x1, 7), LD(p + 16));
		x2 = X(crc16_fold(x2, 7), LD(p + 32));
		x3 = X(crc16_fold(x3, 7), LD(p + 48));
		x4 = X(crc16_fold(x4, 7), LD(p + 64));
		x5 = X(crc16_fold(x5, 7), LD(p + 80));
		x6 = X(crc16_fold(x6, 7), LD(p + 96));
		x7 = X(crc16_fold(x7, 7), LD(p + 112));
	}
	x7 = X(x7, X(crc16_fold(x0, 6), crc16_fold(x1, 5)));
	x7 = X(x7, X(crc16_fold(x2, 4), crc16_fold(x3, 3)));
	x7 = X(x7, X(crc16_fold(x4, 2), X(crc16_fold(x5, 1), crc16_fold(x6, 0))));
	*pp = p;
	*np = n;
	return x7;
}

/* An accumulator standing for 16 message bytes, to the register they leave from register 0. */
PCLMUL_TARGET static inline uint16_t crc16_reduce(__m128i acc)
{
	return ibr_crc16_block16_words(0, (uint64_t)_mm_cvtsi128_si64(acc),
				       (uint64_t)_mm_extract_epi64(acc, 1));
}

/* Folds the remaining 16-byte blocks into acc, reduces it, finishes the tail. */
PCLMUL_TARGET static inline uint16_t crc16_finish(__m128i acc, const uint8_t *p, size_t n)
{
	for (; n >= 16; p += 16, n -= 16)
		acc = X(crc16_fold(acc, 0), LD(p));
	return ibr_crc16_tail(crc16_reduce(acc), p, n);
}

PCLMUL_TARGET static uint16_t crc16_pclmul(uint16_t reg, const uint8_t *p, size_t n)
{
	__m128i acc;

	if (n < 16)
		return ibr_crc16_tail(reg, p, n);
	acc = X(LD(p), _mm_cvtsi32_si128(reg));
	if (n < 128)
		return crc16_finish(acc, p + 16, n - 16);
	acc = crc16_fold8(acc, &p, &n); /* advances p, n */
	return crc16_finish(acc, p, n);
}

/* a * b mod P (registers) with one carry-less multiply. */
PCLMUL_TARGET static inline uint16_t crc16_mulmod_pclmul(uint16_t a, uint16_t b)
{
	__m128i q = _mm_clmulepi64_si128(_mm_cvtsi32_si128(a), _mm_cvtsi32_si128(b), 0x00);

	/* factors: bit i ~ x^(15-i); product bit m ~ x^(30-m): shift into the 32-bit frame */
	return ibr_crc16_reduce32((uint32_t)_mm_cvtsi128_si32(q) << 1);
}

/*
 * Incremental update, all in carry-less multiplies (4 PCLMULQDQ, no table walk): with the
 * delta D = A x^64 + B (A: bytes 0-7, B: bytes 8-15) and n = len - 16,
 *   L(D x^8n) = A x^(80+8n) + B x^(16+8n) = A Y + B Z mod P,  Y = xpow[n+10], Z = xpow[n+2];
 * S = A Y + B Z has degree < 80 and is reduced by Barrett: T = S div x^16 (64 bits),
 * Q = S div P = T + (T mu' div x^64) with mu = x^80 div P = x^64 + mu', R = (S + Q p) mod x^16.
 * In the reflected frames every product lands one bit short, hence the constants shifted left
 * by one (Y, Z, p) and the one explicit shift.  Measured ~4 ns per update (bench_crc).
 */
PCLMUL_TARGET static uint16_t crc16_update_pclmul(uint16_t vcrc, const uint8_t *o,
						  const uint8_t *nw, size_t len)
{
	__m128i d = X(LD(o), LD(nw)), yz, s, q;
	uint64_t t;

	if (__builtin_expect(len < 16, 0))
		return vcrc ^ ibr_crc16_delta_short((uint64_t)_mm_cvtsi128_si64(d),
						    (uint64_t)_mm_extract_epi64(d, 1), len);
	yz = _mm_set_epi64x((int64_t)ibr_crc16_xpow_get(len - 14) << 1,
			    (int64_t)ibr_crc16_xpow_get(len - 6) << 1);
	s = X(_mm_clmulepi64_si128(d, yz, 0x00), _mm_clmulepi64_si128(d, yz, 0x11));
	q = _mm_clmulepi64_si128(s, _mm_cvtsi64_si128((int64_t)ibr_crc16_barrett_mu), 0x00);
	t = (uint64_t)_mm_cvtsi128_si64(s) ^ ((uint64_t)_mm_cvtsi128_si64(q) << 1);
	q = _mm_clmulepi64_si128(_mm_cvtsi64_si128((int64_t)t),
				 _mm_cvtsi32_si128(IBR_CRC16_POLY_REFL << 1), 0x00);
	return vcrc ^ (uint16_t)_mm_extract_epi16(X(s, q), 4);
}

const struct ibr_crc16_ops ibr_crc16_pclmul_ops = {
	.impl = IBR_VCRC_IMPL_PCLMUL,
	.name = "pclmul",
	.crc = crc16_pclmul,
	.update = crc16_update_pclmul,
};

/*
 * The avx512 engine works on 256-byte windows of four 512-bit registers (16 lanes of 128
 * bits), from register 0.  The n % 256 bytes before the last whole window are loaded
 * right-aligned into a first window with masked loads (leading zero bytes do not change a CRC
 * from register 0), so every window is whole and the last one ends at the end of the message:
 * no tail loops.  The initial register is added at the end: it contributes reg * x^(8n).
 */
#define LDZ(p) _mm512_loadu_si512((const void *)(p))

VPCLMUL_TARGET static inline __m512i crc16_zfold(__m512i acc, __m512i k, __m512i data)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(acc, k, 0x00),
					 _mm512_clmulepi64_epi128(acc, k, 0x11), data, 0x96);
}

/* Bytes [64t, 64t + 64) of the window that holds the h bytes at p right-aligned. */
VPCLMUL_TARGET static inline __m512i crc16_zhead(const uint8_t *p, size_t h, size_t t)
{
	size_t off = 256 - h, lo = 64 * t;
	__mmask64 m = off <= lo ? ~0ull : off >= lo + 64 ? 0 : ~0ull << (off - lo);

	/* masked-off bytes are never read: the address may lie before the buffer */
	return _mm512_maskz_loadu_epi8(m, (const void *)((uintptr_t)p - off + lo));
}

/* Moves every lane of the window to its end, XORs them: the register the window leaves. */
VPCLMUL_TARGET static inline uint16_t crc16_zend(__m512i z0, __m512i z1, __m512i z2, __m512i z3)
{
	const __m512i *k = (const __m512i *)ibr_crc16_end_k;
	__m512i a = crc16_zfold(z0, _mm512_load_si512(&k[0]),
				crc16_zfold(z1, _mm512_load_si512(&k[1]), _mm512_setzero_si512()));
	__m512i b = crc16_zfold(z2, _mm512_load_si512(&k[2]),
				crc16_zfold(z3, _mm512_load_si512(&k[3]), a));
	__m256i y = _mm256_xor_si256(_mm512_castsi512_si256(b), _mm512_extracti64x4_epi64(b, 1));
	__m128i x = X(_mm256_castsi256_si128(y), _mm256_extracti128_si256(y, 1));

	/*
	 * GCC does not emit it here: without it, every legacy-SSE instruction after us (the
	 * pclmul update, other libraries) pays for merging the dirty upper halves; measured
	 * 4.5 -> 11 ns on the incremental update.
	 */
	_mm256_zeroupper();
	return crc16_reduce(x);
}

VPCLMUL_TARGET static uint16_t crc16_vpclmul(uint16_t reg, const uint8_t *p, size_t n)
{
	__m512i k = _mm512_broadcast_i32x4(_mm_load_si128((const __m128i *)ibr_crc16_fold_k[15]));
	size_t h = n % 256, left = n - h;
	__m512i z0, z1, z2, z3;
	uint16_t crc;

	if (n < 128)
		return crc16_pclmul(reg, p, n);
	if (h == 0) {
		h = 256;
		left -= 256;
	}
	z0 = crc16_zhead(p, h, 0);
	z1 = crc16_zhead(p, h, 1);
	z2 = crc16_zhead(p, h, 2);
	z3 = crc16_zhead(p, h, 3);
	/*
	 * Hot loop of the avx512 engine: 8 VPCLMULQDQ (4 lanes each) per 256 bytes in four
	 * independent chains, bound by the multiplier's throughput (one every ~2 cycles, as for
	 * PCLMULQDQ).  Measured ~47 GB/s on 2 KiB, ~51 GB/s on 4 KiB (bench_crc).
	 */
	for (p += h; left; p += 256, left -= 256) {
		z0 = crc16_zfold(z0, k, LDZ(p));
		z1 = crc16_zfold(z1, k, LDZ(p + 64));
		z2 = crc16_zfold(z2, k, LDZ(p + 128));
		z3 = crc16_zfold(z3, k, LDZ(p + 192));
	}
	crc = crc16_zend(z0, z1, z2, z3);
	return crc ^ crc16_mulmod_pclmul(reg, ibr_crc16_xpow_get(n));
}

const struct ibr_crc16_ops ibr_crc16_vpclmul_ops = {
	.impl = IBR_VCRC_IMPL_VPCLMUL,
	.name = "avx512",
	.crc = crc16_vpclmul,
	.update = crc16_update_pclmul,
};

#undef LD
#undef LDZ
#undef X

bool ibr_crc16_usable(enum ibr_vcrc_impl impl)
{
	__builtin_cpu_init();
	switch (impl) {
	case IBR_VCRC_IMPL_SLICE16:
		return true;
	case IBR_VCRC_IMPL_PCLMUL:
		return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
	case IBR_VCRC_IMPL_VPCLMUL:
		return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") &&
		       __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
		       __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
		       __builtin_cpu_supports("vpclmulqdq");
	default:
		return false;
	}
}
#else
const struct ibr_crc16_ops ibr_crc16_pclmul_ops = {
	.impl = IBR_VCRC_IMPL_PCLMUL,
	.name = "pclmul",
	.crc = crc16_slice16,
	.update = crc16_update_soft,
};

const struct ibr_crc16_ops ibr_crc16_vpclmul_ops = {
	.impl = IBR_VCRC_IMPL_VPCLMUL,
	.name = "avx512",
	.crc = crc16_slice16,
	.update = crc16_update_soft,
};

bool ibr_crc16_usable(enum ibr_vcrc_impl impl)
{
	return impl == IBR_VCRC_IMPL_SLICE16;
}
#endif

void ibr_crc16_init(void)
{
	uint16_t(*t)[256] = ibr_crc16_tab;

	for (unsigned int b = 0; b < 256; b++) {
		uint16_t r = (uint16_t)b;

		for (int i = 0; i < 8; i++)
			r = (uint16_t)((r >> 1) ^ ((r & 1) ? IBR_CRC16_POLY_REFL : 0));
		t[0][b] = r;
	}
	for (int k = 1; k < 16; k++)
		for (int b = 0; b < 256; b++)
			t[k][b] = (uint16_t)((t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff]);
	/* multiplying a register by x^8 is feeding it a zero byte */
	ibr_crc16_xpow[0] = 0x8000;
	for (int n = 1; n < IBR_CRC16_XPOW_N; n++)
		ibr_crc16_xpow[n] = (uint16_t)((ibr_crc16_xpow[n - 1] >> 8) ^
					       t[0][ibr_crc16_xpow[n - 1] & 0xff]);
	ibr_crc16_x2k[0] = ibr_crc16_xpow[1];
	for (int k = 1; k < 64; k++)
		ibr_crc16_x2k[k] = crc16_mulmod_soft(ibr_crc16_x2k[k - 1], ibr_crc16_x2k[k - 1]);
#ifdef IBR_CRC16_X86
	crc16_fold_init();
#endif
}
