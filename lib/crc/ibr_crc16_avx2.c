/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_avx2.c - the avx2 engine of the VCRC (x86-64 AVX2 with 256-bit VPCLMULQDQ: AMD
 * Zen 3, Intel Alder Lake and the Ice Lake parts without AVX-512): the avx512 engine's folding
 * (lib/crc/ibr_crc16_x86.h) on 256-bit registers, and the incremental update two jobs a register.
 */
#include "lib/crc/ibr_crc16_x86.h"

#ifdef IBR_CRC16_X86
/*
 * The avx512 engine's 256-byte windows, as eight 256-bit registers (two 128-bit lanes each),
 * from register 0.  The n % 256 bytes before the last whole window go right-aligned into a
 * zeroed first window (leading zero bytes leave a CRC from register 0 alone): AVX2 has no
 * byte-masked loads, so they are copied there, at most 255 bytes once a message.  The initial
 * register is added at the end: it contributes reg * x^(8n).
 */
AVX2_TARGET static uint16_t crc16_avx2(uint16_t reg, const uint8_t *p, size_t n)
{
	const __m256i k = _mm256_broadcastsi128_si256(
		_mm_load_si128((const __m128i *)ibr_crc16_fold_k[15]));
	uint8_t head[256] __attribute__((aligned(32)));
	size_t h = n % 256, left = n - h;
	const uint8_t *w = head;
	__m256i y[8];
	__m128i x;

	if (n < 256)
		return ibr_crc16_pclmul(reg, p, n);
	if (h == 0) {
		w = p;
		h = 256;
		left -= 256;
	} else {
		memset(head, 0, 256 - h);
		memcpy(head + 256 - h, p, h);
	}
	for (int i = 0; i < 8; i++)
		y[i] = LDY(w + 32 * i);
	crc_ywindows(y, k, p + h, left);
	x = crc_ywindow_end(y, ibr_crc16_end_k);
	/* as in the avx512 engine: no dirty upper halves for the SSE code after us */
	_mm256_zeroupper();
	return crc16_reduce(x) ^ crc16_mulmod_pclmul(reg, ibr_crc16_xpow_get(n));
}

/*
 * ibr_vcrc_update_n(): ibr_crc16_update_pclmul() on two jobs a 256-bit register, two
 * registers at a time (the avx512 engine's update_n at half the width).
 */
AVX2_TARGET static void crc16_update_n_avx2(const struct ibr_vcrc_job *job, unsigned n)
{
	const __m256i mu = _mm256_set1_epi64x((long long)ibr_crc16_barrett_mu);
	const __m256i pk = _mm256_set1_epi64x((long long)IBR_CRC16_POLY_REFL << 1);
	uint16_t r[16] __attribute__((aligned(32)));
	unsigned i = 0;

	for (; i + 2 <= n; i += 2) {
		const struct ibr_vcrc_job *j = job + i;
		__m256i d, yz, s, q;

		if (__builtin_expect(j[0].len < 16 || j[0].len - 6 >= IBR_CRC16_XPOW_N ||
					     j[1].len < 16 || j[1].len - 6 >= IBR_CRC16_XPOW_N,
				     0)) {
			for (int k = 0; k < 2; k++)
				*j[k].vcrc = ibr_crc16_update_pclmul(*j[k].vcrc, j[k].old_hdr,
								     j[k].new_hdr, j[k].len);
			continue;
		}
		d = _mm256_set_m128i(X(LD(j[1].old_hdr), LD(j[1].new_hdr)),
				     X(LD(j[0].old_hdr), LD(j[0].new_hdr)));
		/* lane k: bytes 0-7 times x^(8 (len - 6)), bytes 8-15 times x^(8 (len - 14)) */
		yz = _mm256_set_epi64x((long long)ibr_crc16_xpow[j[1].len - 14] << 1,
				       (long long)ibr_crc16_xpow[j[1].len - 6] << 1,
				       (long long)ibr_crc16_xpow[j[0].len - 14] << 1,
				       (long long)ibr_crc16_xpow[j[0].len - 6] << 1);
		s = _mm256_xor_si256(_mm256_clmulepi64_epi128(d, yz, 0x00),
				     _mm256_clmulepi64_epi128(d, yz, 0x11));
		q = _mm256_clmulepi64_epi128(s, mu, 0x00);
		q = _mm256_xor_si256(s, _mm256_slli_epi64(q, 1));
		q = _mm256_clmulepi64_epi128(q, pk, 0x00);
		_mm256_store_si256((__m256i *)r, _mm256_xor_si256(s, q));
		*j[0].vcrc ^= r[4];
		*j[1].vcrc ^= r[12];
	}
	_mm256_zeroupper();
	for (; i < n; i++)
		*job[i].vcrc = ibr_crc16_update_pclmul(*job[i].vcrc, job[i].old_hdr, job[i].new_hdr,
						       job[i].len);
}

static bool crc16_avx2_usable(void)
{
	return crc_x86_avx2_cpu();
}

const struct ibr_crc16_ops ibr_crc16_avx2_ops = {
	.impl = IBR_VCRC_IMPL_AVX2,
	.name = "avx2",
	.usable = crc16_avx2_usable,
	.crc = crc16_avx2,
	.update_n = crc16_update_n_avx2,
	.update = ibr_crc16_update_pclmul,
};
#else
/* Not in this build: a stand-in, never usable (no usable()), that computes the VCRC. */
const struct ibr_crc16_ops ibr_crc16_avx2_ops = {
	.impl = IBR_VCRC_IMPL_AVX2,
	.name = "avx2",
	.crc = ibr_crc16_slice16,
	.update = ibr_crc16_update_soft,
};
#endif
