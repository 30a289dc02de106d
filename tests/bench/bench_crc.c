/*
 * bench_crc.c - ICRC and VCRC throughput against memcpy of the same sizes (same run, same
 * buffers, L1/L2-hot, as the data path sees them), and the cost of the incremental VCRC update.
 * Prints `BENCH <case> <value> <unit>`; each case is the best of several ~20 ms runs, so the
 * whole program takes about 3 s.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "lib/ibr_crc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUN_SECONDS 0.02 /* one timed run */
#define RUNS	    10	 /* best of */
#define NPKT	    512	 /* packets cycled through by the update benchmark */

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

/* Seconds per iteration: calibrate one run to RUN_SECONDS, keep the best of RUNS. */
static double per_iter(bench_fn f, struct job *j)
{
	uint64_t iters = 16;
	double t, best;

	for (;;) {
		t = now();
		sink += f(j, iters);
		t = now() - t;
		if (t >= RUN_SECONDS / 4)
			break;
		iters *= 4;
	}
	iters = (uint64_t)((double)iters * RUN_SECONDS / t) + 1;
	best = 1e9;
	for (int r = 0; r < RUNS; r++) {
		t = now();
		sink += f(j, iters);
		t = (now() - t) / (double)iters;
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

static void bench_sizes(struct job *j, const char *name, bench_fn f)
{
	static const size_t sizes[] = { 256, 2048, 4096 };
	static const char *const tags[] = { "256", "2k", "4k" };

	for (int i = 0; i < 3; i++) {
		j->size = sizes[i];
		printf("BENCH %s_%s %.2f GB/s\n", name, tags[i],
		       (double)j->size / per_iter(f, j) / 1e9);
		fflush(stdout);
	}
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
	}
}

int main(void)
{
	static struct job j;
	unsigned long long s = 88172645463325252ull;
	enum ibr_vcrc_impl impl;

	j.src = aligned_alloc(64, 8192);
	j.dst = aligned_alloc(64, 8192);
	if (!j.src || !j.dst)
		return 1;
	for (int i = 0; i < 8192; i++)
		j.src[i] = j.dst[i] = (uint8_t)rnd(&s);
	j.src[1] |= 3; /* LNH 3: a GRH, the full ICRC masking */
	impl = ibr_vcrc_impl_get();
	printf("crc: vcrc implementation %s (auto-selected), icrc with %s\n",
	       ibr_vcrc_impl_name(impl), ibr_icrc_impl_name());
	bench_sizes(&j, "memcpy", run_memcpy);
	bench_sizes(&j, "icrc", run_icrc);
	bench_sizes(&j, "vcrc", run_vcrc);
	setup_update(&j, &s);
	printf("BENCH vcrc_update %.2f ns/pkt\n", per_iter(run_update, &j) * 1e9);
	/* the other engines, for reference (not BENCH lines) */
	for (int i = IBR_VCRC_IMPL_SLICE16; i <= IBR_VCRC_IMPL_VPCLMUL; i++) {
		if (i == (int)impl || ibr_vcrc_impl_set((enum ibr_vcrc_impl)i) != 0)
			continue;
		j.size = 2048;
		printf("crc: for reference, %s: vcrc_2k %.2f GB/s, ",
		       ibr_vcrc_impl_name((enum ibr_vcrc_impl)i),
		       (double)j.size / per_iter(run_vcrc, &j) / 1e9);
		printf("vcrc_update %.2f ns/pkt\n", per_iter(run_update, &j) * 1e9);
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	free(j.src);
	free(j.dst);
	return 0;
}
