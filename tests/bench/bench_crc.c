/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_crc.c - ICRC and VCRC throughput against memcpy of the same sizes (same run, same
 * buffers, L1/L2-hot, as the data path sees them), and the cost of the incremental VCRC update.
 * Prints `BENCH <case> <value> <unit>`; each case is the best of 40 runs of ~5 ms, memcpy and
 * the CRCs taking turns (see bench_all()), so the whole program takes about 4 s.  Then the
 * carry-less multiply of this CPU (tests/bench/bench_fold.c), and each folding engine's
 * vcrc_2k as a share of what that multiply allows it.
 */
#include "lib/ibr_cpu.h"
#include "lib/crc/ibr_crc.h"
#include "tests/bench/bench_fold.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUN_SECONDS  0.005 /* one timed run */
#define RUNS	     40	   /* best of */
#define NPKT	     512   /* packets cycled through by the update benchmark */
#define VERIFY_BURST 32	   /* the forwarding engine's burst */
#define VERIFY_LEN   330   /* wire bytes of a UD packet with 256 payload bytes and a GRH */

static volatile uint64_t sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Makes the compiler assume *p is read and written: no hoisting, no dead stores. */
static inline void escape(void *p)
{
	__asm__ volatile("" : : "g"(p) : "memory");
}

struct job {
	uint8_t *src, *dst;
	size_t size;
	uint16_t vcrc[NPKT];
	uint32_t len[NPKT];
	uint8_t old_hdr[NPKT][16], new_hdr[NPKT][16];
	struct ibr_vcrc_job upd[NPKT];	  /* the same updates, for ibr_vcrc_update_n() */
	const uint8_t *pkt[VERIFY_BURST]; /* whole wire packets for ibr_vcrc_verify_n() */
	uint32_t pkt_len[VERIFY_BURST];
	uint8_t verify_buf[VERIFY_BURST * 384] __attribute__((aligned(64)));
};

typedef uint64_t (*bench_fn)(struct job *j, uint64_t iters);

__attribute__((noinline)) static uint64_t run_memcpy(struct job *j, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i++) {
		memcpy(j->dst, j->src, j->size);
		escape(j->dst);
	}
	return j->dst[j->size - 1];
}

__attribute__((noinline)) static uint64_t run_icrc(struct job *j, uint64_t iters)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		acc += ibr_icrc(j->src, j->size);
		escape(j->src);
	}
	return acc;
}

__attribute__((noinline)) static uint64_t run_vcrc(struct job *j, uint64_t iters)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		acc += ibr_vcrc(j->src, j->size);
		escape(j->src);
	}
	return acc;
}

__attribute__((noinline)) static uint64_t run_update(struct job *j, uint64_t iters)
{
	uint64_t acc = 0;

	for (uint64_t i = 0; i < iters; i++) {
		unsigned int k = (unsigned int)(i % NPKT);

		acc += ibr_vcrc_update(j->vcrc[k], j->old_hdr[k], j->new_hdr[k], j->len[k]);
	}
	escape(j);
	return acc;
}

/* The same updates, a burst of 32 per call as the forwarding engine makes them. */
__attribute__((noinline)) static uint64_t run_update_n(struct job *j, uint64_t iters)
{
	for (uint64_t i = 0; i < iters; i += VERIFY_BURST) {
		ibr_vcrc_update_n(j->upd + (i % NPKT & ~(uint64_t)(VERIFY_BURST - 1)),
				  VERIFY_BURST);
		escape(j);
	}
	return j->vcrc[0];
}

/* The ingress check of 32 packets of VERIFY_LEN wire bytes (the VCRC covers 328). */
__attribute__((noinline)) static uint64_t run_verify_n(struct job *j, uint64_t iters)
{
	uint64_t bad = 0;

	for (uint64_t i = 0; i < iters; i += VERIFY_BURST) {
		bad |= ibr_vcrc_verify_n(j->pkt, j->pkt_len, VERIFY_BURST);
		escape(j);
	}
	return bad;
}

/* Iterations for one run of about RUN_SECONDS (this also warms the caches). */
static uint64_t calibrate(bench_fn f, struct job *j)
{
	uint64_t iters = 16;
	double t;

	for (;;) {
		t = now();
		sink += f(j, iters);
		t = now() - t;
		if (t >= RUN_SECONDS / 4)
			break;
		iters *= 4;
	}
	return (uint64_t)((double)iters * RUN_SECONDS / t) + 1;
}

/* Seconds per iteration of one run. */
static double run_once(bench_fn f, struct job *j, uint64_t iters)
{
	double t = now();

	sink += f(j, iters);
	return (now() - t) / (double)iters;
}

/* Seconds per iteration: the best of RUNS runs. */
static double per_iter(bench_fn f, struct job *j)
{
	uint64_t iters = calibrate(f, j);
	double best = 1e9;

	for (int r = 0; r < RUNS; r++) {
		double t = run_once(f, j, iters);

		if (t < best)
			best = t;
	}
	return best;
}

static unsigned long long rnd(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void setup_update(struct job *j, unsigned long long *s)
{
	for (int k = 0; k < NPKT; k++) {
		/* a legal packet length: 24 bytes (LRH BTH ICRC) to 4 KiB of payload plus headers */
		j->len[k] = (uint32_t)(24 + 4 * (rnd(s) % 1050));
		j->vcrc[k] = ibr_vcrc(j->src, j->len[k]);
		memcpy(j->old_hdr[k], j->src, 16);
		memcpy(j->new_hdr[k], j->src, 16);
		for (int b = 0; b < 8; b++)
			j->new_hdr[k][b] = (uint8_t)rnd(s); /* new LRH */
		j->new_hdr[k][15]--;			    /* HopLmt */
		j->upd[k] = (struct ibr_vcrc_job){ j->old_hdr[k], j->new_hdr[k], &j->vcrc[k],
						   j->len[k] };
	}
	for (int k = 0; k < VERIFY_BURST; k++) {
		uint8_t *p = j->verify_buf + 384 * k;

		for (int b = 0; b < VERIFY_LEN; b++)
			p[b] = (uint8_t)rnd(s);
		ibr_vcrc_write(p, VERIFY_LEN - 2);
		j->pkt[k] = p;
		j->pkt_len[k] = VERIFY_LEN;
	}
}

/*
 * The BENCH cases, round by round: each round runs every case once, each case keeps its best
 * run.  This VM's speed changes from one second to the next (shared cores); taking turns gives
 * memcpy and the CRCs the same conditions, so that their ratios hold within one run.
 */
static void bench_all(struct job *j)
{
	static const struct {
		const char *name;
		bench_fn f;
		size_t size; /* 0: the update, in ns per packet */
	} cases[] = {
		{ "memcpy_256", run_memcpy, 256 },    { "memcpy_2k", run_memcpy, 2048 },
		{ "memcpy_4k", run_memcpy, 4096 },    { "icrc_256", run_icrc, 256 },
		{ "icrc_2k", run_icrc, 2048 },	      { "icrc_4k", run_icrc, 4096 },
		{ "vcrc_256", run_vcrc, 256 },	      { "vcrc_2k", run_vcrc, 2048 },
		{ "vcrc_4k", run_vcrc, 4096 },	      { "vcrc_update", run_update, 0 },
		{ "vcrc_update_n", run_update_n, 0 }, { "vcrc_verify_n_330", run_verify_n, 0 },
	};
	enum { NCASE = sizeof(cases) / sizeof(cases[0]) };
	uint64_t iters[NCASE];
	double best[NCASE];

	for (int c = 0; c < NCASE; c++) {
		j->size = cases[c].size;
		iters[c] = calibrate(cases[c].f, j);
		best[c] = 1e9;
	}
	for (int r = 0; r < RUNS; r++)
		for (int c = 0; c < NCASE; c++) {
			double t;

			j->size = cases[c].size;
			t = run_once(cases[c].f, j, iters[c]);
			if (t < best[c])
				best[c] = t;
		}
	for (int c = 0; c < NCASE; c++) {
		if (cases[c].size)
			printf("BENCH %s %.2f GB/s\n", cases[c].name,
			       (double)cases[c].size / best[c] / 1e9);
		else
			printf("BENCH %s %.2f ns/pkt\n", cases[c].name, best[c] * 1e9);
	}
	fflush(stdout);
}

/* The width of the folding engines named so (lib/crc/ibr_crc16_*.c, lib/crc/ibr_crc32_avx2.c). */
static const struct bench_fold *fold_width(const struct bench_fold *f, int n, const char *engine)
{
	static const char *const width[][2] = { { "pclmul", "xmm" },
						{ "avx2", "ymm" },
						{ "avx512", "zmm" } };

	for (unsigned w = 0; w < sizeof(width) / sizeof(width[0]); w++) {
		if (strcmp(engine, width[w][0]) != 0)
			continue;
		for (int i = 0; i < n; i++)
			if (strcmp(f[i].width, width[w][1]) == 0)
				return &f[i];
	}
	return NULL;
}

/* GB/s of a 2 KiB CRC by engine i of the VCRC (icrc false) or the ICRC; < 0: not here. */
static double fold_engine_gbs(struct job *j, bool icrc, int i)
{
	double gbs;

	if (icrc ? ibr_icrc_impl_set((enum ibr_icrc_impl)i)
		 : ibr_vcrc_impl_set((enum ibr_vcrc_impl)i))
		return -1;
	j->size = 2048;
	gbs = (double)j->size / per_iter(icrc ? run_icrc : run_vcrc, j) / 1e9;
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
	return gbs;
}

/*
 * BENCH clmul_<width>_tp and _lat, and a line for each folding engine this CPU runs: its
 * vcrc_2k (icrc_2k) against the bound of its multiply.  An engine near 100 % is as fast as
 * the CPU multiplies; one well under it has something else to gain.  The probe and the
 * engines take turns, FOLD_ROUNDS rounds, each keeping its best: this VM's speed changes
 * from one second to the next.
 */
#define FOLD_ROUNDS 7
static void fold_report(struct job *j)
{
	enum { NV = IBR_VCRC_IMPL_COUNT, NI = IBR_ICRC_IMPL_LAST + 1 };
	struct bench_fold f[BENCH_FOLD_WIDTHS], r[BENCH_FOLD_WIDTHS];
	double vgbs[NV] = { 0 }, igbs[NI] = { 0 };
	int n = bench_fold_probe(f);

	if (n == 0) {
		printf("crc: fold: no carry-less multiply probe for this CPU\n");
		return;
	}
	for (int round = 1; round < FOLD_ROUNDS; round++) {
		bench_fold_probe(r);
		for (int w = 0; w < n; w++) {
			f[w].tp_ns = r[w].tp_ns < f[w].tp_ns ? r[w].tp_ns : f[w].tp_ns;
			f[w].lat_ns = r[w].lat_ns < f[w].lat_ns ? r[w].lat_ns : f[w].lat_ns;
		}
		for (int i = IBR_VCRC_IMPL_SLICE16; i < NV; i++)
			if (fold_width(f, n, ibr_vcrc_impl_name((enum ibr_vcrc_impl)i))) {
				double g = fold_engine_gbs(j, false, i);

				vgbs[i] = g > vgbs[i] ? g : vgbs[i];
			}
		for (int i = IBR_ICRC_IMPL_LIB; i < NI; i++)
			if (fold_width(f, n, ibr_icrc_impl_name((enum ibr_icrc_impl)i))) {
				double g = fold_engine_gbs(j, true, i);

				igbs[i] = g > igbs[i] ? g : igbs[i];
			}
	}
	for (int i = 0; i < n; i++)
		printf("BENCH clmul_%s_tp %.3f ns\nBENCH clmul_%s_lat %.3f ns\n", f[i].width,
		       f[i].tp_ns, f[i].width, f[i].lat_ns);
	for (int i = IBR_VCRC_IMPL_SLICE16; i < NV; i++) {
		const char *name = ibr_vcrc_impl_name((enum ibr_vcrc_impl)i);
		const struct bench_fold *w = fold_width(f, n, name);

		if (w && vgbs[i] > 0)
			printf("crc: fold: %s vcrc_2k %.2f GB/s, %.0f %% of the %s multiply's "
			       "bound "
			       "(%.2f GB/s: 8 B a lane a multiply, one each %.3f ns)\n",
			       name, vgbs[i], 100 * vgbs[i] / bench_fold_bound_gbs(w), w->width,
			       bench_fold_bound_gbs(w), w->tp_ns);
	}
	for (int i = IBR_ICRC_IMPL_LIB; i < NI; i++) {
		const char *name = ibr_icrc_impl_name((enum ibr_icrc_impl)i);
		const struct bench_fold *w = fold_width(f, n, name);

		if (w && igbs[i] > 0)
			printf("crc: fold: icrc %s icrc_2k %.2f GB/s, %.0f %% of the %s multiply's "
			       "bound\n",
			       name, igbs[i], 100 * igbs[i] / bench_fold_bound_gbs(w), w->width);
	}
}

int main(void)
{
	static struct job j;
	unsigned long long s = 88172645463325252ull;
	enum ibr_vcrc_impl impl;
	enum ibr_icrc_impl iimpl;
	char cpu[512];

	j.src = aligned_alloc(64, 8192);
	j.dst = aligned_alloc(64, 8192);
	if (!j.src || !j.dst)
		return 1;
	for (int i = 0; i < 8192; i++)
		j.src[i] = j.dst[i] = (uint8_t)rnd(&s);
	j.src[1] |= 3; /* LNH 3: a GRH, the full ICRC masking */
	impl = ibr_vcrc_impl_get();
	iimpl = ibr_icrc_impl_get();
	printf("cpu: %s\n", ibr_cpu_describe(cpu, sizeof(cpu)));
	printf("crc: vcrc implementation %s, icrc implementation %s (%s)\n",
	       ibr_vcrc_impl_name(impl), ibr_icrc_impl_name(iimpl),
	       getenv("IBR_CRC_IMPL") ? "IBR_CRC_IMPL" : "auto-selected");
	setup_update(&j, &s);
	bench_all(&j);
	/* the other engines, for reference (not BENCH lines) */
	for (int i = IBR_VCRC_IMPL_SLICE16; i < IBR_VCRC_IMPL_COUNT; i++) {
		if (i == (int)impl || ibr_vcrc_impl_set((enum ibr_vcrc_impl)i) != 0)
			continue;
		j.size = 2048;
		printf("crc: for reference, %s: vcrc_2k %.2f GB/s, ",
		       ibr_vcrc_impl_name((enum ibr_vcrc_impl)i),
		       (double)j.size / per_iter(run_vcrc, &j) / 1e9);
		printf("vcrc_update %.2f ns/pkt\n", per_iter(run_update, &j) * 1e9);
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	for (int i = IBR_ICRC_IMPL_LIB; i <= IBR_ICRC_IMPL_LAST; i++) {
		if (i == (int)iimpl || ibr_icrc_impl_set((enum ibr_icrc_impl)i) != 0)
			continue;
		j.size = 2048;
		printf("crc: for reference, icrc %s: icrc_2k %.2f GB/s\n",
		       ibr_icrc_impl_name((enum ibr_icrc_impl)i),
		       (double)j.size / per_iter(run_icrc, &j) / 1e9);
	}
	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
	fold_report(&j);
	free(j.src);
	free(j.dst);
	return 0;
}
