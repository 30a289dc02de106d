/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_dpdk.c - a peer in the same run (make bench, where DPDK's development package is
 * installed): DPDK's own lookup structures on bench_fwd's keys, the 10^6 /64 route prefixes
 * of tests/bench/bench_routes.h, looked up as bench_fwd's packets look them up (random
 * routes, redrawn before each pass so that a pass never finds its routes in the cache).
 * Prints
 *   BENCH dpdk_fib6_r1e6   ns/lookup, rte_fib6_lookup_bulk() (DPDK's IPv6 FIB, its trie with
 *                          4-byte next hops) in bursts of 32, the DGIDs (prefix and a host
 *                          GUID) against the /64 routes
 *   BENCH dpdk_lpm6_r5e5   ns/lookup, rte_lpm6_lookup_bulk_func() the same way on the first
 *                          5 * 10^5 routes: rte_lpm6 holds at most 2^21 tbl8 groups, and 10^6
 *                          of these routes need 3,065,792 (counted at run time and printed)
 *   BENCH dpdk_hash_r1e6   ns/lookup, rte_hash_lookup_bulk_data() in bursts of 32 on the
 *                          64-bit prefixes (CRC32 hash, as DPDK's l3fwd exact match)
 * next to which bench_fwd's fwd_256_r1e6 is our whole pipeline per packet, the lookup
 * included.  DPDK is the baseline only: nothing of the router links it.
 *
 * EAL runs without PCI or telemetry, on 2 MiB hugepages when HUGE_NEED of them are free
 * (as DPDK is meant to run; vm.nr_hugepages), else on ordinary pages (--no-huge), and says
 * which.  Every answer is checked after its pass, outside the timing.  Measured on this
 * machine's AMD EPYC (bench_fwd r1e6 then bench_dpdk, 2 runs, hugepages): fwd_256_r1e6 17.0
 * and 26.8 ns/pkt; dpdk_fib6_r1e6 210 and 241, dpdk_lpm6_r5e5 307 and 189, dpdk_hash_r1e6 55
 * and 51 ns/lookup.
 */
#include "lib/ibr_cpu.h"
#include "tests/bench/bench_routes.h"

#include <rte_eal.h>
#include <rte_fib6.h>
#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lpm6.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NROUTES		1000000u
#define LPM6_ROUTES	500000u
#define LPM6_MAX_GROUPS (1u << 21) /* RTE_LPM6_TBL8_MAX_NUM_GROUPS, inside rte_lpm6.c */
#define POOL		1024	   /* lookups per pass, as bench_fwd's packet pool */
#define BURST		32
#define PASSES		201
#define HUGE_NEED	2900 /* 5.7 GiB: the FIB's 5 * 10^6 tbl8 groups of 1 KiB, its RIB */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The tbl8 groups LPM6 needs for the routes: one for each distinct prefix of 3 to 7 bytes
 * (its first level takes 3 bytes, each further one a byte, a /64 ends at byte 8).
 */
static uint32_t lpm6_groups(uint32_t n)
{
	uint64_t *k = malloc(n * sizeof(*k));
	uint32_t groups = 0;

	if (!k)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		k[i] = route_prefix(i);
	qsort(k, n, sizeof(*k), cmp_u64);
	for (int len = 3; len <= 7; len++) {
		uint64_t mask = ~0ull << (64 - 8 * len);

		for (uint32_t i = 0; i < n; i++)
			groups += i == 0 || ((k[i] ^ k[i - 1]) & mask) != 0;
	}
	free(k);
	return groups;
}

static void gid_of(uint8_t g[16], uint64_t prefix, uint64_t guid)
{
	for (int i = 0; i < 8; i++) {
		g[i] = (uint8_t)(prefix >> (56 - 8 * i));
		g[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

/*
 * A pass's lookups: random routes of the first n, drawn as bench_fwd's pool_redraw draws them
 * (`want` their indexes), and what a structure answered for each (`got`: the index + 1, each
 * structure's next hop of the route).
 */
struct pass {
	uint8_t gid[POOL][16];
	uint64_t pfx[POOL];
	uint32_t want[POOL];
	int32_t nh32[POOL];  /* rte_lpm6's answers */
	uint64_t nh64[POOL]; /* rte_fib6's */
	void *data[POOL];    /* rte_hash's */
};

static void draw(uint32_t n, struct pass *ps)
{
	for (int i = 0; i < POOL; i++) {
		ps->want[i] = (uint32_t)rand() % n;
		ps->pfx[i] = route_prefix(ps->want[i]);
		gid_of(ps->gid[i], ps->pfx[i], 0x2000 + (uint64_t)i);
	}
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_dbl);
	return getenv("MIN") ? v[0] : v[n / 2];
}

/*
 * PASSES passes over the first n routes: lookups of a fresh draw in bursts of BURST, timed,
 * then each answer checked (answer(ps, i): the route index + 1 it gave, 0 for none).  Prints
 * "BENCH dpdk_<name> <ns> ns/lookup", the median pass (MIN=1: the fastest).
 */
static int time_lookups(const char *name, uint32_t n, void *tab,
			void (*burst)(void *tab, struct pass *ps, int i),
			uint64_t (*answer)(const struct pass *ps, int i))
{
	static struct pass ps;
	double t[PASSES];
	int bad = 0;

	for (int r = 0; r < PASSES; r++) {
		double t0;

		draw(n, &ps);
		t0 = now_s();
		/* Hot loop of the baseline: DPDK's bulk lookups, BURST keys a call. */
		for (int i = 0; i < POOL; i += BURST)
			burst(tab, &ps, i);
		t[r] = (now_s() - t0) / POOL;
		for (int i = 0; i < POOL; i++)
			bad += answer(&ps, i) != (uint64_t)ps.want[i] + 1;
	}
	if (bad) {
		fprintf(stderr, "bench_dpdk: %s: %d lookups wrong\n", name, bad);
		return 1;
	}
	printf("BENCH dpdk_%s %.1f ns/lookup\n", name, median(t, PASSES) * 1e9);
	return 0;
}

static void lpm6_burst(void *tab, struct pass *ps, int i)
{
	rte_lpm6_lookup_bulk_func(tab, &ps->gid[i], &ps->nh32[i], BURST);
}

static uint64_t lpm6_answer(const struct pass *ps, int i)
{
	return ps->nh32[i] < 0 ? 0 : (uint64_t)ps->nh32[i];
}

static void fib6_burst(void *tab, struct pass *ps, int i)
{
	rte_fib6_lookup_bulk(tab, &ps->gid[i], &ps->nh64[i], BURST);
}

static uint64_t fib6_answer(const struct pass *ps, int i)
{
	return ps->nh64[i];
}

static void hash_burst(void *tab, struct pass *ps, int i)
{
	const void *keys[BURST];
	uint64_t hit;

	for (int k = 0; k < BURST; k++)
		keys[k] = &ps->pfx[i + k];
	if (rte_hash_lookup_bulk_data(tab, keys, BURST, &hit, &ps->data[i]) != BURST)
		for (int k = 0; k < BURST; k++) /* a miss leaves data[] as it was */
			if (!(hit >> k & 1))
				ps->data[i + k] = NULL;
}

static uint64_t hash_answer(const struct pass *ps, int i)
{
	return (uint64_t)(uintptr_t)ps->data[i];
}

static int bench_lpm6(uint32_t n)
{
	struct rte_lpm6_config cfg = { .max_rules = n + 16 };
	uint32_t need = lpm6_groups(n), all = lpm6_groups(NROUTES);
	struct rte_lpm6 *l;
	int rc;

	printf("dpdk: rte_lpm6: the %u routes need %u tbl8 groups (it holds %u), the first %u "
	       "need %u\n",
	       NROUTES, all, LPM6_MAX_GROUPS, n, need);
	cfg.number_tbl8s = need + need / 16 < LPM6_MAX_GROUPS ? need + need / 16 : LPM6_MAX_GROUPS;
	if (!(l = rte_lpm6_create("bench", 0, &cfg))) {
		fprintf(stderr, "bench_dpdk: rte_lpm6_create (%u tbl8 groups): %s\n",
			cfg.number_tbl8s, rte_strerror(rte_errno));
		return 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint8_t g[16];

		gid_of(g, route_prefix(i), 0);
		if (rte_lpm6_add(l, g, 64, i + 1)) {
			fprintf(stderr, "bench_dpdk: rte_lpm6_add route %u failed\n", i);
			rte_lpm6_free(l);
			return 1;
		}
	}
	rc = time_lookups("lpm6_r5e5", n, l, lpm6_burst, lpm6_answer);
	rte_lpm6_free(l);
	return rc;
}

static int bench_fib6(void)
{
	struct rte_fib6_conf cfg = { .type = RTE_FIB6_TRIE,
				     .default_nh = 0,
				     /* its RIB's nodes: the routes and their trie's branches */
				     .max_routes = 2 * NROUTES + 16,
				     .trie = { .nh_sz = RTE_FIB6_TRIE_4B } };
	struct rte_fib6 *f;
	int rc;

	/*
	 * its trie is laid out as LPM6's (24 bits, then a byte a level), but it reserves the
	 * worst case of each route it adds: a /64 with no covering route, 5 tbl8 groups
	 */
	cfg.trie.num_tbl8 = 5 * NROUTES + 16;
	if (!(f = rte_fib6_create("bench", 0, &cfg))) {
		fprintf(stderr, "bench_dpdk: rte_fib6_create (%u tbl8): %s\n", cfg.trie.num_tbl8,
			rte_strerror(rte_errno));
		return 1;
	}
	for (uint32_t i = 0; i < NROUTES; i++) {
		uint8_t g[16];

		gid_of(g, route_prefix(i), 0);
		if ((rc = rte_fib6_add(f, g, 64, i + 1))) {
			fprintf(stderr, "bench_dpdk: rte_fib6_add route %u: %s\n", i,
				strerror(-rc));
			rte_fib6_free(f);
			return 1;
		}
	}
	rc = time_lookups("fib6_r1e6", NROUTES, f, fib6_burst, fib6_answer);
	rte_fib6_free(f);
	return rc;
}

static int bench_hash(void)
{
	struct rte_hash_parameters hp = { .name = "bench",
					  .entries = NROUTES * 2,
					  .key_len = sizeof(uint64_t),
					  .hash_func = rte_hash_crc,
					  .socket_id = 0 };
	struct rte_hash *h;
	int rc;

	if (!(h = rte_hash_create(&hp))) {
		fprintf(stderr, "bench_dpdk: rte_hash_create: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	for (uint32_t i = 0; i < NROUTES; i++) {
		uint64_t k = route_prefix(i);

		if (rte_hash_add_key_data(h, &k, (void *)(uintptr_t)(i + 1))) {
			fprintf(stderr, "bench_dpdk: rte_hash_add_key_data route %u failed\n", i);
			rte_hash_free(h);
			return 1;
		}
	}
	rc = time_lookups("hash_r1e6", NROUTES, h, hash_burst, hash_answer);
	rte_hash_free(h);
	return rc;
}

/* Free 2 MiB hugepages (/proc/meminfo), 0 when none. */
static long huge_free(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long n = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "HugePages_Free: %ld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

int main(void)
{
	/*
	 * With hugepages (HUGE_NEED of them free: vm.nr_hugepages, no hugetlbfs mount needed
	 * with --in-memory) the tables are where DPDK expects them; else ordinary 4 KiB pages,
	 * said so: every level of a lookup then costs a TLB miss too.
	 */
	char *huge[] = { "bench_dpdk", "--in-memory", "--no-pci", "--no-telemetry",
			 "--log-level=*:error" };
	char *nohuge[] = { "bench_dpdk",     "--no-huge",	   "-m", "10240", "--no-pci",
			   "--no-telemetry", "--log-level=*:error" };
	bool use_huge = huge_free() >= HUGE_NEED;
	char cpu[512];
	int rc;

	printf("cpu: %s\n", ibr_cpu_describe(cpu, sizeof(cpu)));
	if (use_huge)
		printf("dpdk: 2 MiB hugepages\n");
	else
		printf("dpdk: 4 KiB pages (fewer than %d hugepages free: vm.nr_hugepages)\n",
		       HUGE_NEED);
	fflush(stdout);
	if ((use_huge ? rte_eal_init(sizeof(huge) / sizeof(huge[0]), huge)
		      : rte_eal_init(sizeof(nohuge) / sizeof(nohuge[0]), nohuge)) < 0) {
		fprintf(stderr, "bench_dpdk: rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	srand(1);
	rc = bench_fib6() | bench_lpm6(LPM6_ROUTES) | bench_hash();
	rte_eal_cleanup();
	return rc;
}
