/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_mem.c - a probe of the memory system the forwarding figures stand on
 * (issue 19: a target missed is shown by a measurement, not an estimate):
 *   BENCH mem_lat_<size>     ns per load of one dependent chain (pointer
 *                            chasing over a random cyclic permutation of
 *                            64-byte lines: each load a miss of the levels
 *                            smaller than size)
 *   BENCH mem_mlp16_<size>   ns per load with 16 independent chains in
 *                            flight, as a burst of 16+ packets' lookups
 *                            can have them: the floor a lookup's miss costs
 *                            in bench_fwd's bursts
 *   BENCH mem_spread_<size>  (slowest - fastest) / fastest of the passes, %
 *   BENCH steal_pct          CPU time the hypervisor gave other guests during
 *                            the whole probe, % of all CPU time (/proc/stat)
 * The baseline in the same run is the smallest size, an L1-resident chain.
 */
#include "lib/ibr_cpu.h"
#include "tests/bench/bench_sys.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE   64
#define CHAINS 16
#define PASSES 9

struct line {
	struct line *next;
	char pad[LINE - sizeof(struct line *)];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One random cycle through all n lines (Sattolo's shuffle): no line is reached twice before all are. */
static struct line *chain_build(size_t n)
{
	struct line *v = aligned_alloc(4096, n * sizeof(*v));
	size_t *perm = malloc(n * sizeof(*perm));
	uint64_t s = 0x9E3779B97F4A7C15ULL;

	if (!v || !perm)
		abort();
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = rnd(&s) % i, t = perm[i];

		perm[i] = perm[j], perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		v[perm[i]].next = &v[perm[(i + 1) % n]];
	free(perm);
	return v;
}

/* ns per load: `chains` walks of `steps` loads each, started at evenly spaced lines */
static double chase(struct line *v, size_t n, unsigned chains, size_t steps)
{
	struct line *p[CHAINS];
	double t0;

	for (unsigned c = 0; c < chains; c++)
		p[c] = &v[(n / chains) * c];
	t0 = now_s();
	for (size_t s = 0; s < steps; s++)
		for (unsigned c = 0; c < chains; c++)
			p[c] = p[c]->next;
	t0 = now_s() - t0;
	/* the pointers escape, so that the loads are not optimized away */
	for (unsigned c = 0; c < chains; c++)
		__asm__ volatile("" : : "r"(p[c]) : "memory");
	return t0 * 1e9 / ((double)steps * chains);
}

static void probe(const char *name, size_t bytes)
{
	size_t n = bytes / LINE, steps = n < 4000000 ? 4000000 : n;
	struct line *v = chain_build(n);
	double lat[PASSES], mlp[PASSES];

	chase(v, n, 1, n); /* warm: the pages are touched, the TLB is what it will be */
	for (int k = 0; k < PASSES; k++) {
		lat[k] = chase(v, n, 1, steps);
		mlp[k] = chase(v, n, CHAINS, steps / CHAINS);
	}
	qsort(lat, PASSES, sizeof(double), cmp_double);
	qsort(mlp, PASSES, sizeof(double), cmp_double);
	printf("BENCH mem_lat_%s %.2f ns\n", name, lat[PASSES / 2]);
	printf("BENCH mem_mlp16_%s %.2f ns/load\n", name, mlp[PASSES / 2]);
	printf("BENCH mem_spread_%s %.0f %%\n", name, 100.0 * (lat[PASSES - 1] - lat[0]) / lat[0]);
	fflush(stdout);
	free(v);
}

int main(void)
{
	struct bench_cpu_ticks t0 = bench_cpu_ticks_read();
	char cpu[512];

	printf("cpu: %s\n", ibr_cpu_describe(cpu, sizeof(cpu)));
	probe("16k", 16 << 10);
	probe("512k", 512 << 10);
	probe("8m", 8 << 20);
	probe("64m", 64 << 20);
	probe("512m", (size_t)512 << 20);
	printf("BENCH steal_pct %.1f %%\n", bench_cpu_steal_pct(t0, bench_cpu_ticks_read()));
	return 0;
}
