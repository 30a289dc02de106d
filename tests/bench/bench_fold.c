/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_fold.c - the carry-less multiply the CRC folds stand on, probed on the CPU at hand: its
 * throughput (twelve independent chains) and latency (one chain) at each vector width the CPU
 * has.  A folding engine does one multiply per 8 message bytes a 128-bit lane (x^(D+64) for
 * the low quadword, x^D for the high one: lib/crc/ibr_crc16_x86.h), so its speed cannot pass
 * 8 B x lanes / throughput; bench_crc prints each engine's figure against that bound, which
 * tells a slow engine from a CPU that multiplies slowly.
 */
#include "tests/bench/bench_fold.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>

#define CHAINS 12     /* > latency x multiplies a cycle on every CPU seen (4 x 2) */
#define ROUNDS 400000 /* of twelve multiplies: ~5 ms of throughput, as bench_crc's runs */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Keeps v live and unknown to the compiler: no chain is folded away. */
#define KEEP(v) ({ __asm__ volatile("" : "+x"(v)); })

/*
 * One probe a width: `chains` chains (1 or CHAINS) of ROUNDS x CHAINS / chains multiplies,
 * each product the next multiplicand (imm 0x01: the high quadword of the constant times the
 * low one of the chain, so that no half of the product is dropped from the dependency).  The
 * chains are named registers, not an array: a loop over an array goes through memory and
 * measures its loads and stores.  Returns seconds.
 */
#define STEP(f, a) (a = f(a, k, 0x01), KEEP(a))
/* twelve multiplies, in the chains named (the same one twelve times: one chain) */
#define STEP12(f, b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11)                    \
	(STEP(f, b0), STEP(f, b1), STEP(f, b2), STEP(f, b3), STEP(f, b4), STEP(f, b5), \
	 STEP(f, b6), STEP(f, b7), STEP(f, b8), STEP(f, b9), STEP(f, b10), STEP(f, b11))
#define PROBE(name, isa, type, clmul, set1)                                                      \
	__attribute__((target(isa), noinline)) static double name(int chains)                    \
	{                                                                                        \
		type k = set1(0x1db710641ll), a0 = set1(1), a1 = set1(2), a2 = set1(3),          \
		     a3 = set1(4), a4 = set1(5), a5 = set1(6), a6 = set1(7), a7 = set1(8),       \
		     a8 = set1(9), a9 = set1(10), a10 = set1(11), a11 = set1(12);                \
		double t = now();                                                                \
                                                                                                 \
		for (int r = 0; r < ROUNDS; r++)                                                 \
			if (chains == 1)                                                         \
				STEP12(clmul, a0, a0, a0, a0, a0, a0, a0, a0, a0, a0, a0, a0);   \
			else                                                                     \
				STEP12(clmul, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11); \
		(KEEP(a1), KEEP(a2), KEEP(a3), KEEP(a4), KEEP(a5), KEEP(a6), KEEP(a7), KEEP(a8), \
		 KEEP(a9), KEEP(a10), KEEP(a11));                                                \
		return now() - t;                                                                \
	}

PROBE(probe_xmm, "pclmul,sse4.1", __m128i, _mm_clmulepi64_si128, _mm_set1_epi64x)
PROBE(probe_ymm, "pclmul,avx2,vpclmulqdq", __m256i, _mm256_clmulepi64_epi128, _mm256_set1_epi64x)
PROBE(probe_zmm, "pclmul,avx512f,vpclmulqdq", __m512i, _mm512_clmulepi64_epi128, _mm512_set1_epi64)

/* Best of 5: the ns a multiply over ROUNDS x CHAINS of them. */
static double probe_best(double (*f)(int), int chains)
{
	double best = 1e9;

	for (int i = 0; i < 5; i++) {
		double t = f(chains);

		if (t < best)
			best = t;
	}
	return best * 1e9 / ((double)ROUNDS * CHAINS);
}

int bench_fold_probe(struct bench_fold *f)
{
	static const struct {
		const char *name, *feature;
		double (*fn)(int);
		unsigned lanes;
	} w[] = {
		{ "xmm", "pclmul", probe_xmm, 1 },
		{ "ymm", "vpclmulqdq", probe_ymm, 2 },
		{ "zmm", "avx512f", probe_zmm, 4 },
	};
	int n = 0;

	memset(f, 0, sizeof(*f) * BENCH_FOLD_WIDTHS);
	__builtin_cpu_init();
	for (unsigned i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		/* the builtin takes only string literals: one test a width */
		bool has = i == 0   ? __builtin_cpu_supports("pclmul")
			   : i == 1 ? __builtin_cpu_supports("vpclmulqdq") &&
					      __builtin_cpu_supports("avx2")
				    : __builtin_cpu_supports("vpclmulqdq") &&
					      __builtin_cpu_supports("avx512f");

		if (!has)
			continue;
		f[n].width = w[i].name;
		f[n].lanes = w[i].lanes;
		f[n].tp_ns = probe_best(w[i].fn, CHAINS);
		f[n].lat_ns = probe_best(w[i].fn, 1);
		n++;
	}
	return n;
}
#else
int bench_fold_probe(struct bench_fold *f)
{
	(void)f;
	return 0; /* no probe for this architecture yet */
}
#endif

double bench_fold_bound_gbs(const struct bench_fold *f)
{
	/* 8 message bytes a multiply and a 128-bit lane */
	return 8.0 * f->lanes / f->tp_ns;
}
