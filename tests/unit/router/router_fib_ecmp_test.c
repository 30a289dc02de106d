/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_fib.c: routes through several next hops
 * (ROUTER_VAL_ECMP): each next hop its share of the buckets, the buckets
 * kept when a next hop comes or goes, none through a port that is down,
 * and one group for the routes through the same next hops, found by
 * hashing.  router_fib_test.c holds the rest of the FIB.
 */
#include "router/router_fib.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/router_fib_fix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PFX_E 0xfec0000000000e00ull

/* A static route to PFX_E through n next routers: port `ports[i]`, LID 100 + i. */
static void ecmp_add(struct router_rib *rib, unsigned n, const uint8_t *ports)
{
	struct router_route r;
	struct router_nh nhs[ROUTER_ECMP_MAX];
	unsigned nnh = 0;

	memset(&r, 0, sizeof(r));
	r.key.prefix = PFX_E;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_STATIC;
	nnh = (uint8_t)n;
	for (unsigned i = 0; i < n; i++)
		nhs[i] = (struct router_nh){ .port = ports[i],
					     .kind = ROUTER_NH_ROUTER,
					     .lid = (uint16_t)(100 + i) };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(rib, &r, nhs, nnh), 0);
}

/* Each bucket's next hop LID (0: not a next hop of ours) into lids[]. */
static const struct router_fib_ecmp *ecmp_of(const struct router_fib *fib, uint16_t *lids)
{
	uint64_t v = router_fib_route_get(fib, PFX_E);
	const struct router_fib_ecmp *g;

	CU_ASSERT_FATAL((v & ROUTER_VAL_PRESENT) && (v & ROUTER_VAL_ECMP));
	CU_ASSERT_EQUAL(v & 0xFFFFFFFF & ~ROUTER_VAL_ECMP, 0); /* no next hop of its own */
	g = router_fib_ecmp_of(fib, v);
	for (unsigned b = 0; b < ROUTER_ECMP_BUCKETS; b++) {
		CU_ASSERT((g->bucket[b] & ROUTER_VAL_PRESENT) != 0);
		CU_ASSERT_EQUAL(g->bucket[b] & ROUTER_VAL_ECMP, 0);
		lids[b] = router_nh_unpack(g->bucket[b]).lid;
	}
	return g;
}

/* Every next hop has buckets, about its share: within 20 % for 2..8 next hops (15.6 % seen) */
static void test_ecmp_buckets(void)
{
	static const uint8_t ports[8] = { 1, 1, 0, 1, 0, 1, 1, 0 };

	for (unsigned n = 2; n <= ROUTER_ECMP_MAX; n++) {
		struct router_rib rib;
		struct router_fib *fib;
		const struct router_fib_ecmp *g;
		uint16_t lids[ROUTER_ECMP_BUCKETS];
		unsigned count[ROUTER_ECMP_MAX] = { 0 }, lo = ~0u, hi = 0;

		rib_two_ports(&rib);
		ecmp_add(&rib, n, ports);
		fib = compile(&rib);
		CU_ASSERT_EQUAL(fib->necmp, 1);
		g = ecmp_of(fib, lids);
		CU_ASSERT_EQUAL(g->n, n);
		CU_ASSERT_EQUAL(g->ports, n > 2 ? 3u : 2u);
		for (unsigned b = 0; b < ROUTER_ECMP_BUCKETS; b++) {
			uint64_t v = g->bucket[b];

			CU_ASSERT_FATAL(lids[b] >= 100 && lids[b] < 100 + n);
			count[lids[b] - 100]++;
			/* each bucket a value as a single route's: its port, usable */
			CU_ASSERT_EQUAL(router_nh_unpack(v).port, ports[lids[b] - 100]);
			CU_ASSERT((v & ROUTER_VAL_PORT_OK) != 0);
		}
		for (unsigned i = 0; i < n; i++) {
			lo = count[i] < lo ? count[i] : lo;
			hi = count[i] > hi ? count[i] : hi;
		}
		CU_ASSERT(lo * 10 * n >= ROUTER_ECMP_BUCKETS * 8);
		CU_ASSERT(hi * 10 * n <= ROUTER_ECMP_BUCKETS * 12);
		if (getenv("FIB_TEST_VERBOSE") || lo * 10 * n < ROUTER_ECMP_BUCKETS * 8 ||
		    hi * 10 * n > ROUTER_ECMP_BUCKETS * 12)
			fprintf(stderr, "%u next hops: %u..%u buckets each\n", n, lo, hi);
		router_fib_free(fib);
		router_rib_free(&rib);
	}
}

/*
 * A next hop that goes takes only its own buckets (the flows on the others
 * stay where they are); one that comes takes only from the others what it
 * gets; the order of the next hops does not count
 */
static void test_ecmp_stable(void)
{
	static const uint8_t ports[4] = { 1, 1, 1, 1 };
	uint16_t four[ROUTER_ECMP_BUCKETS], three[ROUTER_ECMP_BUCKETS], rev[ROUTER_ECMP_BUCKETS];
	struct router_rib rib;
	struct router_fib *fib;
	struct router_route r;
	struct router_nh nhs[ROUTER_ECMP_MAX];
	unsigned nnh = 0;
	unsigned moved = 0;

	rib_two_ports(&rib);
	ecmp_add(&rib, 4, ports);
	fib = compile(&rib);
	ecmp_of(fib, four);
	router_fib_free(fib);
	/* the next hop of LID 102 goes */
	memset(&r, 0, sizeof(r));
	r.key = (struct router_route_key){ .prefix = PFX_E,
					   .plen = 64,
					   .source = ROUTER_SRC_STATIC };
	nnh = 3;
	nhs[0] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 103 };
	nhs[1] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 101 };
	nhs[2] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 100 };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
	fib = compile(&rib);
	ecmp_of(fib, three);
	router_fib_free(fib);
	for (unsigned b = 0; b < ROUTER_ECMP_BUCKETS; b++) {
		CU_ASSERT(three[b] != 102);
		if (four[b] != 102)
			CU_ASSERT_EQUAL(three[b], four[b]);
		moved += four[b] != three[b];
	}
	CU_ASSERT(moved > 0 && moved < ROUTER_ECMP_BUCKETS / 2);
	/* the four again, in another order: the same buckets */
	nnh = 4;
	nhs[3] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 102 };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
	fib = compile(&rib);
	ecmp_of(fib, rev);
	router_fib_free(fib);
	CU_ASSERT_EQUAL(memcmp(rev, four, sizeof(four)), 0);
	router_rib_free(&rib);
}

/* Routes through the same next hops share one group */
static void test_ecmp_shared(void)
{
	static const uint8_t ports[3] = { 1, 1, 0 };
	struct router_rib rib;
	struct router_fib *fib;
	struct router_route r;
	struct router_nh nhs[ROUTER_ECMP_MAX];
	unsigned nnh = 0;

	rib_two_ports(&rib);
	ecmp_add(&rib, 3, ports);
	memset(&r, 0, sizeof(r));
	r.key = (struct router_route_key){ .prefix = 0xfec0000000000f00ull,
					   .plen = 64,
					   .source = ROUTER_SRC_PEER };
	nnh = 3; /* the same three in another order */
	for (unsigned i = 0; i < 3; i++)
		nhs[i] = (struct router_nh){ .port = ports[2 - i],
					     .kind = ROUTER_NH_ROUTER,
					     .lid = (uint16_t)(102 - i) };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
	r.key.prefix = 0xfec0000000001000ull; /* two of them */
	nnh = 2;
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->necmp, 2);
	CU_ASSERT_EQUAL(router_fib_route_get(fib, PFX_E),
			router_fib_route_get(fib, 0xfec0000000000f00ull));
	CU_ASSERT_NOT_EQUAL(router_fib_route_get(fib, PFX_E),
			    router_fib_route_get(fib, 0xfec0000000001000ull));
	router_fib_free(fib);
	router_rib_free(&rib);
}

/*
 * Many routes with several next hops: 10^5 through the same three make one
 * group; 1000 through sets of their own make 1000 (the compiler finds a
 * set's group by hashing, not by comparing with every group so far)
 */
static void test_ecmp_many(void)
{
	struct router_rib rib;
	struct router_fib *fib;
	struct router_route r;
	struct router_nh nhs[ROUTER_ECMP_MAX];
	unsigned nnh = 0;

	rib_two_ports(&rib);
	memset(&r, 0, sizeof(r));
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_PEER;
	nnh = 3;
	for (uint32_t i = 0; i < 100000; i++) {
		r.key.prefix = 0x2001000000000000ull + i;
		for (unsigned k = 0; k < 3; k++)
			nhs[k] = (struct router_nh){ .port = 1,
						     .kind = ROUTER_NH_ROUTER,
						     .lid = (uint16_t)(200 + k) };
		CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
	}
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->necmp, 1);
	router_fib_free(fib);
	for (uint32_t i = 0; i < 1000; i++) {
		r.key.prefix = 0x2001000000000000ull + i;
		for (unsigned k = 0; k < 3; k++)
			nhs[k] = (struct router_nh){ .port = 1,
						     .kind = ROUTER_NH_ROUTER,
						     .lid = (uint16_t)(300 + i * 3 + k) };
		CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&rib, &r, nhs, nnh), 0);
	}
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->necmp, 1001);
	CU_ASSERT_EQUAL(
		router_nh_unpack(
			router_fib_ecmp_of(fib, router_fib_route_get(fib, 0x2001000000000005ull))
				->bucket[0])
				.lid /
			3,
		(300 + 15) / 3);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* Next hops through an unusable port get no bucket while one is usable; all down: all kept */
static void test_ecmp_port_down(void)
{
	static const uint8_t ports[3] = { 0, 1, 1 };
	uint16_t lids[ROUTER_ECMP_BUCKETS];
	struct router_rib rib;
	struct router_fib *fib;
	unsigned on_a = 0;

	rib_two_ports(&rib);
	ecmp_add(&rib, 3, ports);
	rib.port[1].flags &= ~ROUTER_PORT_UP;
	fib = compile(&rib);
	ecmp_of(fib, lids);
	for (unsigned b = 0; b < ROUTER_ECMP_BUCKETS; b++)
		CU_ASSERT_EQUAL(lids[b], 100); /* the one through a */
	router_fib_free(fib);
	rib.port[0].flags &= ~ROUTER_PORT_UP;
	fib = compile(&rib);
	ecmp_of(fib, lids);
	for (unsigned b = 0; b < ROUTER_ECMP_BUCKETS; b++)
		on_a += lids[b] == 100;
	CU_ASSERT(on_a > 0 && on_a < ROUTER_ECMP_BUCKETS); /* spread, each dropped as port down */
	CU_ASSERT_EQUAL(router_fib_ecmp_of(fib, router_fib_route_get(fib, PFX_E))->bucket[0] &
				ROUTER_VAL_PORT_OK,
			0);
	router_fib_free(fib);
	router_rib_free(&rib);
}

static CU_TestInfo tests[] = {
	{ "several next hops: each its share of the buckets", test_ecmp_buckets },
	{ "several next hops: one that goes moves only its buckets", test_ecmp_stable },
	{ "several next hops: those through a down port get none", test_ecmp_port_down },
	{ "several next hops: routes through the same share a group", test_ecmp_shared },
	{ "several next hops: 10^5 routes, 1000 distinct groups", test_ecmp_many },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("router_fib_ecmp", tests);
}
