/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/io/io_verbs_pool.c and io_verbs_ah.c: a buffer's
 * references, the AH table's generations, and port 2's AH cache evicting by
 * generations under traffic over the fake provider (io_verbs_relay_fix.h).
 */
#include "router/io/io_verbs.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/io/io_verbs_fix.h"
#include "tests/unit/router/io/io_verbs_relay_fix.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

static void *ah_gone[64];
static unsigned ah_ngone;

static void ah_note(void *ah)
{
	if (ah_ngone < 64)
		ah_gone[ah_ngone++] = ah;
}

static bool ah_was_destroyed(uintptr_t h)
{
	for (unsigned i = 0; i < ah_ngone; i++)
		if (ah_gone[i] == (void *)h)
			return true;
	return false;
}

/* Generations: a full table freezes, hits move over, the old one goes whole. */
static void test_ah_table(void)
{
	struct io_verbs_ah c;
	struct io_verbs_ah_key k = { .dlid = 1 };

	ah_ngone = 0;
	CU_ASSERT_EQUAL_FATAL(io_verbs_ah_init(&c, 16), 0);
	CU_ASSERT_PTR_NULL(io_verbs_ah_find(&c, &k));
	for (uint16_t i = 1; i <= 12; i++) { /* 3/4 of 16 */
		k.dlid = i;
		CU_ASSERT_EQUAL(io_verbs_ah_add(&c, &k, (void *)(uintptr_t)i), 0);
	}
	CU_ASSERT_FALSE(io_verbs_ah_draining(&c));
	k.dlid = 13;
	CU_ASSERT_EQUAL(io_verbs_ah_add(&c, &k, (void *)13), 1); /* a new generation */
	CU_ASSERT(io_verbs_ah_draining(&c) && c.gens == 1 && c.cur.n == 1 && c.old.n == 12);
	/* a handle of the old generation in use moves over, not recreated */
	k.dlid = 5;
	CU_ASSERT_EQUAL(io_verbs_ah_find(&c, &k), (void *)5);
	CU_ASSERT_EQUAL(io_verbs_ah_find(&c, &k), (void *)5);
	CU_ASSERT(c.moved == 1 && c.cur.n == 2);
	k.sl = 1;
	CU_ASSERT_PTR_NULL(io_verbs_ah_find(&c, &k));
	k.sl = 0;
	for (uint16_t i = 14; i <= 23; i++) {
		k.dlid = i;
		CU_ASSERT_EQUAL(io_verbs_ah_add(&c, &k, (void *)(uintptr_t)i), 0);
	}
	/* full again before the old one could go: refused, counted */
	k.dlid = 24;
	CU_ASSERT_EQUAL(io_verbs_ah_add(&c, &k, (void *)24), -ENOSPC);
	CU_ASSERT_EQUAL(c.full, 1);
	/* the sends finished: the old generation goes, but not what moved */
	CU_ASSERT_EQUAL(io_verbs_ah_retire(&c, ah_note), 11);
	CU_ASSERT(ah_was_destroyed(1) && ah_was_destroyed(12) && !ah_was_destroyed(5));
	CU_ASSERT_FALSE(io_verbs_ah_draining(&c));
	k.dlid = 1;
	CU_ASSERT_PTR_NULL(io_verbs_ah_find(&c, &k));
	k.dlid = 24;
	CU_ASSERT_EQUAL(io_verbs_ah_add(&c, &k, (void *)24), 1);
	k.dlid = 5;
	CU_ASSERT_EQUAL(io_verbs_ah_find(&c, &k), (void *)5); /* moved once more */
	ah_ngone = 0;
	io_verbs_ah_clear(&c, ah_note);
	CU_ASSERT_EQUAL(ah_ngone, 13); /* 5, 13..24: each once */
	CU_ASSERT(c.cur.n == 0 && c.old.n == 0);
	io_verbs_ah_fini(&c);
}

/*
 * Port 2's AH cache holds 12 a generation; 96 destinations in bursts of 8:
 * nothing dropped, each AH created once, at most two generations alive,
 * and no AH destroyed while a held send WQE uses it (the fake counts that).
 */
static void test_ah_eviction(void)
{
	struct io_verbs_port *pc = io_verbs_port(fx.v, 2);
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx t[ROUTER_BURST] = { 0 };
	struct fake_verbs_stats s0, s;
	struct io_tx_result txr;
	uint64_t no_ah = pc->st.tx_no_ah, gens = pc->ah.gens;
	unsigned sent = 0, got = 0;
	bool drained_late = false;
	uint8_t buf[8192];

	vfix_host_drain(&fx);
	io_verbs_port_reap(pc);
	fake_verbs_stats_get(vfix_dev[2], &s0);
	for (int round = 0; round < 12; round++) {
		bool draining = io_verbs_ah_draining(&pc->ah);

		for (int i = 0; i < 8; i++)
			host_send_mcast(0, 40, (uint8_t)i);
		CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 8);
		for (int i = 0; i < 8; i++) {
			t[i] = tx_for(m[i], MLID_C);
			tx_set_flow(&t[i], (uint32_t)(0x100 + round * 8 + i));
		}
		sent += io_port_tx_burst(port(2), t, 8, &txr);
		io_port_rx_done(port(0), m, 8);
		/* a generation began in this burst: its old handles wait for the sends */
		if (!draining && io_verbs_ah_draining(&pc->ah)) {
			fake_verbs_stats_get(vfix_dev[2], &s);
			drained_late = s.ah_live > 12;
		}
		fake_verbs_stats_get(vfix_dev[2], &s);
		CU_ASSERT(s.ah_live <= 24);
		CU_ASSERT_EQUAL(s.ah_busy_destroy, 0);
		while (vfix_host_recv(&fx, 2, buf, sizeof(buf)) > 0)
			got++;
	}
	io_verbs_port_reap(pc);
	fake_verbs_stats_get(vfix_dev[2], &s);
	CU_ASSERT_EQUAL(sent, 96);
	CU_ASSERT_EQUAL(got, 96);
	CU_ASSERT_EQUAL(pc->st.tx_no_ah - no_ah, 0);
	CU_ASSERT_EQUAL(s.ah_created - s0.ah_created, 96);
	CU_ASSERT_EQUAL(s.ah_busy_destroy, 0);
	CU_ASSERT(pc->ah.gens - gens >= 6);
	CU_ASSERT_TRUE(drained_late);
	CU_ASSERT_FALSE(io_verbs_ah_draining(&pc->ah)); /* the last sends completed */
	CU_ASSERT(s.ah_live <= 12);
	vfix_pools_check(&fx);
}

static void test_pool_refs(void)
{
	struct io_verbs_pool p;
	struct io_verbs_buf *b;

	CU_ASSERT_EQUAL_FATAL(io_verbs_pool_init(&p, 4, 2), 0);
	CU_ASSERT_EQUAL(p.nfree, 4);
	b = io_verbs_pool_take(&p);
	CU_ASSERT_EQUAL(b->m.port, 2);
	io_verbs_pool_hold(&p, b);
	io_verbs_buf_ref(b);
	io_verbs_buf_ref(b);
	io_verbs_buf_unref(&p, b);
	io_verbs_buf_unref(&p, b);
	CU_ASSERT_EQUAL(io_verbs_pool_collect(&p), 0);
	io_verbs_buf_unref(&p, b);
	CU_ASSERT_EQUAL(io_verbs_pool_collect(&p), 1);
	CU_ASSERT_EQUAL(p.nfree, 4);
	CU_ASSERT_EQUAL(atomic_load(&p.nheld), 0);
	io_verbs_pool_fini(&p);
}

static CU_TestInfo tests[] = {
	{ "pool references", test_pool_refs },
	{ "AH table", test_ah_table },
	{ "AH cache eviction by generations", test_ah_eviction },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_ah", tests, setup, teardown);
}
