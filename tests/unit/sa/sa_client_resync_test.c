/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client_resync_test.c - the SA client (sa/sa_client.c, sa/sa_sync.c)
 * against the fake subnet of sa_fake.h: what makes it sync again, or fail
 * to: SM changes, port state, SA timeouts and errors, the resync interval
 * and sa_client_resync().
 */
#include "tests/unit/sa/sa_fake.h"

#include "lib/ibr_log.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- tests ---- */

static void test_sm_change(void)
{
	const struct sa_client_stats *st;
	size_t mark;

	start(false);
	st = sa_client_stats(SC);
	/* the SM moves to C's port: the next poll sees it */
	F->sm_lid = 10;
	mark = F->n_sent;
	run_ms(999);
	CU_ASSERT_EQUAL(count_sa_requests(mark), 0);
	run_ms(1);
	CU_ASSERT_EQUAL(st->port_polls, 2);
	CU_ASSERT_EQUAL(st->sm_changes, 1);
	CU_ASSERT_EQUAL(st->syncs, 2);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_port(SC)->sm_lid, 10);
	CU_ASSERT_EQUAL(CB.ps.sm_lid, 10);
	CU_ASSERT_EQUAL(CB.port, 2);
	CU_ASSERT_EQUAL(count_sa_requests(mark), 6);
	for (size_t i = mark; i < F->n_sent; i++)
		if (ibr_mad_mgmt_class(F->sent[i].mad) == IBR_MGMT_CLASS_SUBN_ADM)
			CU_ASSERT_EQUAL(F->sent[i].to.lid, 10);
	CU_ASSERT_EQUAL(F->subscribes, 2); /* subscribed again with the new SM */
	CU_ASSERT_EQUAL(st->last_sync_done_ns, T0 + SEC);
	check_default_tables();
	stop();
}

static void test_port_down_up(void)
{
	const struct sa_client_stats *st;
	uint8_t mgid[16];
	size_t mark;

	start(false);
	st = sa_client_stats(SC);
	F->state = 2; /* Init: the SM is resweeping */
	run_ms(1000);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_DOWN);
	CU_ASSERT_EQUAL(CB.ps.state, 2);
	CU_ASSERT_EQUAL(CB.port, 2);
	mark = F->n_sent;
	run_ms(5000);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_DOWN);
	CU_ASSERT_EQUAL(count_sa_requests(mark), 0);
	CU_ASSERT_EQUAL(st->port_polls, 7);
	mgid_of(mgid, 5, 0x77);
	CU_ASSERT_EQUAL(sa_client_join(SC, mgid, IBR_SA_JOIN_FULL, NULL), -ENETDOWN);
	CU_ASSERT_EQUAL(sa_client_leave(SC, mgid, IBR_SA_JOIN_FULL), -ENETDOWN);
	CU_ASSERT_EQUAL(count_sa_requests(mark), 0);
	/* back up: a sync, but no change of SM */
	F->state = 4;
	run_ms(1000);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(st->syncs, 2);
	CU_ASSERT_EQUAL(st->sm_changes, 0);
	CU_ASSERT_EQUAL(CB.ps.state, 4);
	check_default_tables();
	stop();
}

/*
 * A sync cut short by the port going down: its late answers change nothing
 * and ask nothing (a walk answer would ask for the next LIDs).
 */
static void test_port_down_mid_sync(void)
{
	struct sa_client_config cfg = default_cfg();

	cfg.poll_ms = 50; /* sees the port down before the channel's first timeout */
	for (int cut = 0; cut <= 1; cut++) {
		const struct sa_client_stats *st;
		size_t mark;

		fake_new(cut, 0, true);
		client_new(&cfg);
		pump();
		st = sa_client_stats(SC);
		F->defer_attr = cut ? IBR_SA_ATTR_NODE_RECORD : IBR_SA_ATTR_MCMEMBER_RECORD;
		fport_del(GUID_C);
		sa_client_resync(SC, "test");
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_SYNC);
		F->state = 1;
		run_ms(50);
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_DOWN);
		CU_ASSERT(mad_chan_outstanding(CH) > 0);
		mark = F->n_sent;
		fake_release();
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_DOWN);
		CU_ASSERT_EQUAL(count_sa_requests(mark), 0);
		CU_ASSERT_EQUAL(st->syncs, 1);
		CU_ASSERT_EQUAL(CB.changed, 1);
		CU_ASSERT_PTR_NOT_NULL(
			neigh(GUID_C)); /* the old tables stay until a sync completes */
		CU_ASSERT_EQUAL(mad_chan_stats(CH)->drop[MAD_CHAN_DROP_UNMATCHED], 0);
		F->state = 4;
		run_ms(50);
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
		CU_ASSERT_EQUAL(st->syncs, 2);
		CU_ASSERT_PTR_NULL(neigh(GUID_C));
		stop();
	}
}

static void test_sa_timeouts_backoff(void)
{
	const struct sa_client_stats *st;
	uint64_t t1;
	size_t mark;

	start(false);
	st = sa_client_stats(SC);
	F->sa_down = true;
	mark = F->n_sent;
	t1 = now_ns;
	sa_client_resync(SC, "test");
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_SYNC);
	/*
	 * ClassPortInfo, InformInfo, NodeRecord and MCMemberRecord tables (the
	 * PortInfoRecords and GUIDInfoRecords follow the NodeRecords): the
	 * channel tries each 3 times, 100 + 200 + 400 ms
	 */
	run_until(t1 + 699 * MS);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_SYNC);
	CU_ASSERT_EQUAL(count_sa_requests(mark), 12);
	for (size_t i = mark; i < mark + 4; i++) /* each tried with the same TID */
		CU_ASSERT_EQUAL(count_tid(mark, ibr_mad_tid(F->sent[i].mad)), 3);
	run_until(t1 + 700 * MS);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_BACKOFF);
	CU_ASSERT_EQUAL(st->sync_failures, 1);
	CU_ASSERT_EQUAL(st->query_timeouts, 4);
	CU_ASSERT_EQUAL(st->syncs, 1);
	CU_ASSERT_EQUAL(mad_chan_stats(CH)->timeouts, 4);
	CU_ASSERT_EQUAL(mad_chan_stats(CH)->retries, 8);
	CU_ASSERT_EQUAL(CB.changed, 1);
	check_default_tables(); /* a failed sync keeps what was known */
	/* nothing asked until backoff_ms (2 s) after the failure */
	F->sa_down = false;
	mark = F->n_sent;
	run_until(t1 + 2699 * MS);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_BACKOFF);
	CU_ASSERT_EQUAL(count_sa_requests(mark), 0);
	run_until(t1 + 2700 * MS);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(st->syncs, 2);
	CU_ASSERT_EQUAL(st->sync_failures, 1);
	CU_ASSERT_EQUAL(count_sa_requests(mark), 6);
	CU_ASSERT_EQUAL(st->last_sync_done_ns, t1 + 2700 * MS);
	CU_ASSERT(st->subscribed);
	CU_ASSERT_EQUAL(CB.changed, 2);
	check_default_tables();
	stop();
}

/* The first sync fails with the SA silent; the port still polls; then it comes. */
static void test_sa_silent_from_start(void)
{
	struct sa_client_config cfg = default_cfg();
	const struct sa_client_stats *st;

	fake_new(true, 0, true);
	F->sa_down = true;
	client_new(&cfg);
	st = sa_client_stats(SC);
	run_ms(700);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_BACKOFF);
	CU_ASSERT_EQUAL(n_neighs(), 0);
	CU_ASSERT_FALSE(st->subscribed);
	F->sa_down = false;
	run_ms(2000);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_FALSE(st->table_mode);
	check_default_tables();
	stop();
}

/*
 * An SA error status on a table (OpenSM answers BUSY when its SA queue is
 * long, NO_RESOURCES when it cannot allocate): the sync fails and keeps what
 * was known, rather than swapping in an empty table.
 */
static void test_sa_error_status(void)
{
	static const struct {
		bool cut;
		uint16_t attr, status;
	} cases[] = {
		{ false, IBR_SA_ATTR_NODE_RECORD, IBR_MAD_STATUS_BUSY },
		{ false, IBR_SA_ATTR_MCMEMBER_RECORD, IBR_SA_STATUS_NO_RESOURCES },
		{ false, IBR_SA_ATTR_PORT_INFO_RECORD, IBR_MAD_STATUS_BUSY },
		{ true, IBR_SA_ATTR_NODE_RECORD, IBR_MAD_STATUS_BUSY },
		{ true, IBR_SA_ATTR_MCMEMBER_RECORD, IBR_SA_STATUS_NO_RESOURCES },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct sa_client_stats *st;

		start(cases[k].cut);
		st = sa_client_stats(SC);
		F->busy_attr = cases[k].attr;
		F->busy_status = cases[k].status;
		sa_client_resync(SC, "test");
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_BACKOFF);
		CU_ASSERT_EQUAL(st->sync_failures, 1);
		CU_ASSERT_EQUAL(st->syncs, 1);
		CU_ASSERT_EQUAL(CB.changed, 1);
		check_default_tables();
		/* the SA recovers: the retry after backoff_ms succeeds */
		F->busy_attr = 0;
		run_ms(2000);
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
		CU_ASSERT_EQUAL(st->syncs, 2);
		check_default_tables();
		stop();
	}
}

static void test_resync_interval(void)
{
	struct sa_client_config cfg = default_cfg();
	const struct sa_client_stats *st;

	cfg.resync_ms = 5000;
	fake_new(false, 0, true);
	client_new(&cfg);
	pump();
	st = sa_client_stats(SC);
	CU_ASSERT_EQUAL(st->syncs, 1);
	run_until(T0 + 4999 * MS);
	CU_ASSERT_EQUAL(st->syncs, 1);
	fport_del(GUID_C);
	run_until(T0 + 5000 * MS);
	CU_ASSERT_EQUAL(st->syncs, 2);
	CU_ASSERT_EQUAL(st->last_sync_done_ns, T0 + 5000 * MS);
	CU_ASSERT_PTR_NULL(neigh(GUID_C));
	CU_ASSERT_EQUAL(CB.changed, 2);
	run_until(T0 + 10000 * MS);
	CU_ASSERT_EQUAL(st->syncs, 3);
	CU_ASSERT_EQUAL(st->sm_changes, 0);
	stop();
}

static void test_resync_now(void)
{
	const struct sa_client_stats *st;
	size_t mark;

	start(false);
	st = sa_client_stats(SC);
	/* READY: at once */
	mark = F->n_sent;
	sa_client_resync(SC, "test");
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_SYNC);
	CU_ASSERT_EQUAL(count_sa(mark, IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, 0), 1);
	pump();
	CU_ASSERT_EQUAL(st->syncs, 2);
	/* during a sync: once more after it, not a second one beside it */
	F->defer_attr = IBR_SA_ATTR_NODE_RECORD;
	sa_client_resync(SC, "test");
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_SYNC);
	mark = F->n_sent;
	sa_client_resync(SC, "again");
	CU_ASSERT_EQUAL(F->n_sent, mark);
	fake_release();
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(st->syncs, 4);
	CU_ASSERT_EQUAL(count_sa(mark, IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, 0), 1);
	CU_ASSERT_EQUAL(CB.changed, 4);
	/* port down: resync polls the port at the next tick instead */
	F->state = 2;
	run_ms(1000);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_DOWN);
	mark = F->n_sent;
	sa_client_resync(SC, "test");
	CU_ASSERT_EQUAL(count_sa_requests(mark), 0);
	CU_ASSERT_EQUAL(sa_client_next_deadline(SC), 0);
	sa_client_tick(SC, now_ns);
	CU_ASSERT_EQUAL(count_sent(mark, IBR_MGMT_CLASS_SUBN_DR, IBR_MAD_METHOD_GET,
				   IBR_SMP_ATTR_PORT_INFO),
			1);
	stop();
}
static CU_TestInfo tests[] = {
	{ "SM change: resync with the new SM", test_sm_change },
	{ "port not Active: down, then a sync", test_port_down_up },
	{ "port down mid-sync: late answers dropped", test_port_down_mid_sync },
	{ "SA timeouts: sync fails, backoff, retry", test_sa_timeouts_backoff },
	{ "SA silent from the start", test_sa_silent_from_start },
	{ "SA error status on a table: sync fails, tables kept", test_sa_error_status },
	{ "resync interval", test_resync_interval },
	{ "sa_client_resync(): now, after the current sync, or a poll", test_resync_now },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_client_resync", tests);
}
