/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for the tail of a turn, daemon/ibrd_sync.c with daemon/ibrd_state.c:
 * a change publishes the FIB before with the change in its delta; once the
 * changes stop for IBRD_MERGE_IDLE_NS the delta is merged into a base of
 * its own (the generation kept: nothing the plugins or the SMA read moved),
 * at its pace; the loop is told when (ibrd_sync_deadline).
 */
#include "daemon/ibrd.h"
#include "tests/unit/daemon/ibrd_fix.h"
#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char conf_text[] =
	"router { node-guid = 0x0002c90300000100 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n";

static struct ibrd *d;

static int setup(void)
{
	return (d = ibrd_fix_new(conf_text, "sync.conf")) ? 0 : -1;
}

static int teardown(void)
{
	ibrd_fix_free(d);
	return 0;
}

/* A static /64 via b's next router `lid`, as "route add" makes it; the turn's tail. */
static void change(uint64_t prefix, uint16_t lid)
{
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = lid };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add(&d->rib, &r), 0);
	ibrd_rib_changed(d);
	CU_ASSERT_EQUAL(ibrd_sync_run(d), 0);
}

static void test_merge_when_quiet(void)
{
	const struct router_fib *fib;
	const void *base;
	uint64_t gen;

	for (uint64_t i = 0; i < 100; i++)
		change(0x2001000000000000ull + i, 0x20);
	fib = router_pub_get(&d->pub);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_PTR_NOT_NULL(fib->delta); /* the first was compiled whole, the rest deltas */
	CU_ASSERT_TRUE(d->fib_delta);
	CU_ASSERT_EQUAL(d->rib.fib_compiles, 1);
	CU_ASSERT_EQUAL(ibrd_sync_deadline(d), d->fib_changed_ns + IBRD_MERGE_IDLE_NS);
	gen = fib->generation;
	/* a turn with no change, too soon: nothing */
	CU_ASSERT_EQUAL(ibrd_sync_run(d), 0);
	CU_ASSERT_PTR_EQUAL(router_pub_get(&d->pub), fib);
	/* a quiet second later: merged, the same generation */
	d->fib_changed_ns -= IBRD_MERGE_IDLE_NS;
	CU_ASSERT_EQUAL(ibrd_sync_run(d), 0);
	fib = router_pub_get(&d->pub);
	CU_ASSERT_PTR_NULL(fib->delta);
	CU_ASSERT_FALSE(d->fib_delta);
	CU_ASSERT_EQUAL(fib->generation, gen);
	CU_ASSERT_EQUAL(d->rib.generation, gen);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0x2001000000000063ull)).lid,
			0x20);
	CU_ASSERT_EQUAL(ibrd_sync_deadline(d), UINT64_MAX);
	CU_ASSERT(d->merge_pace.next_ns >=
		  d->fib_changed_ns + IBRD_MERGE_IDLE_NS + IBRD_PACE_MIN_NS);
	/* changes again (the merged FIB retired, freed: no reader holds it), then quiet, but
	 * within the pace's gap: the merge waits for it */
	base = fib->exact.ent;
	change(0x2002000000000000ull, 0x21);
	CU_ASSERT_PTR_NOT_NULL(router_pub_get(&d->pub)->delta);
	CU_ASSERT_PTR_EQUAL(router_pub_get(&d->pub)->exact.ent, base);
	d->fib_changed_ns -= IBRD_MERGE_IDLE_NS;
	d->merge_pace.next_ns = UINT64_MAX - 1;
	CU_ASSERT_EQUAL(ibrd_sync_run(d), 0);
	CU_ASSERT_TRUE(d->fib_delta);
	CU_ASSERT_EQUAL(ibrd_sync_deadline(d), UINT64_MAX - 1);
}

int main(void)
{
	CU_TestInfo tests[] = {
		{ "a change a delta; merged once the changes stop", test_merge_when_quiet },
		CU_TEST_INFO_NULL,
	};

	return ibr_test_run_fixture("ibrd_sync", tests, setup, teardown);
}
