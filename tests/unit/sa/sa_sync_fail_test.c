/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_sync_fail_test.c - the SA client's queries (sa/sa_sync.c) against the
 * scripted SA of sa_script.h: the SA answers that fail a sync (error
 * statuses, timeouts) and those that do not.
 */
#include "tests/unit/sa/sa_script.h"

#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>

/* ---- SA answers that fail a sync ---- */

/* A first sync with A and a group, then a second whose `method`/`attr` query gets `status`. */
static void sync_with_status(bool walk, uint8_t method, uint16_t attr, uint16_t status)
{
	struct recs nr = { .n = 0 }, mcm = { .n = 0 };
	long i;

	start(false);
	add_nr(&nr, 4, GUID_A, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	add_mcm(&mcm, 1, 0xC000, GUID_A, IBR_SA_JOIN_FULL);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0, &mcm);
	answer_all_empty();
	CU_ASSERT_EQUAL_FATAL(SC->phase, SA_PHASE_READY);
	memset(&CB, 0, sizeof(CB));
	SC->st.table_mode = !walk;
	sa_sync_start(SC, "test");
	if (attr == IBR_SA_ATTR_PORT_INFO_RECORD || attr == IBR_SA_ATTR_GUID_INFO_RECORD) {
		/* asked after the ports they complete: A at LID 4 */
		if (!walk)
			answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
		while (walk && (i = find_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD)) >= 0)
			answer(i, 0, req_lid(i) == 4 ? &nr : NULL);
	}
	i = find_open(method, attr);
	CU_ASSERT_FATAL(i >= 0);
	answer(i, status, NULL);
	answer_all_empty();
}

static void check_failed(void)
{
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_BACKOFF);
	CU_ASSERT_EQUAL(SC->st.sync_failures, 1);
	CU_ASSERT_EQUAL(SC->st.syncs, 1);
	CU_ASSERT_EQUAL(SC->next_retry, now_ns + 1000 * MS);
	/* the tables of the last good sync stay, and the daemon hears of no change */
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_A));
	CU_ASSERT_PTR_NOT_NULL(group(1));
	CU_ASSERT_EQUAL(CB.changed, 0);
	stop();
}

static void check_synced(void)
{
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->st.sync_failures, 0);
	CU_ASSERT_EQUAL(SC->st.syncs, 2);
	CU_ASSERT_EQUAL(CB.changed, 1);
	stop();
}

static void test_sa_errors_fail(void)
{
	static const struct {
		bool walk;
		uint8_t method;
		uint16_t attr, status;
	} cases[] = {
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, IBR_MAD_STATUS_BUSY },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
		  IBR_SA_STATUS_REQ_INVALID },
		{ true, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD, IBR_MAD_STATUS_BUSY },
		{ true, IBR_MAD_METHOD_GET, IBR_SA_ATTR_PORT_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ true, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		sync_with_status(cases[k].walk, cases[k].method, cases[k].attr, cases[k].status);
		check_failed();
	}
}

/* NO_RECORDS is an empty answer; ClassPortInfo, the subscription and alias GUIDs are optional. */
static void test_sa_errors_pass(void)
{
	static const struct {
		bool walk;
		uint8_t method;
		uint16_t attr, status;
	} cases[] = {
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
		  IBR_SA_STATUS_NO_RECORDS },
		{ false, IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, IBR_MAD_STATUS_BUSY },
		{ false, IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO, IBR_SA_STATUS_REQ_INVALID },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ true, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		sync_with_status(cases[k].walk, cases[k].method, cases[k].attr, cases[k].status);
		CU_ASSERT_EQUAL(SC->st.subscribed, cases[k].attr != IBR_ATTR_INFORM_INFO);
		check_synced();
	}
}

/* No answer at all (the channel's timeout): the sync fails, its tables are not swapped in. */
static void test_sa_timeout(void)
{
	struct recs nr = { .n = 0 };
	long i;

	start(false);
	i = find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD);
	F.v[i].answered = true; /* never answered */
	add_nr(&nr, 4, GUID_A, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
	/* the channel's retries, then its timeout */
	for (int guard = 0; mad_chan_next_deadline(CH) != UINT64_MAX; guard++) {
		CU_ASSERT_FATAL(guard < 100);
		CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
		now_ns = mad_chan_next_deadline(CH);
		mad_chan_tick(CH, now_ns);
	}
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_BACKOFF);
	CU_ASSERT_EQUAL(SC->st.sync_failures, 1);
	CU_ASSERT_EQUAL(SC->cur_n.n, 0);
	CU_ASSERT_EQUAL(CB.changed, 0);
	stop();
}

static CU_TestInfo tests[] = {
	{ "SA error statuses on tables and walks fail the sync", test_sa_errors_fail },
	{ "NO_RECORDS, ClassPortInfo, InformInfo, GUIDInfo errors: the sync goes on",
	  test_sa_errors_pass },
	{ "an SA query timing out fails the sync", test_sa_timeout },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_sync_fail", tests);
}
