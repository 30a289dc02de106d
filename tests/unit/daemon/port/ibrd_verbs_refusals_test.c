/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/port/ibrd_verbs_refusals.c: what a verbs port refused
 * since the last report, by counter, and nothing for the counters of a port
 * working as it should (rx_no_grh, rx_own_sgid).  Before, tx_unicast,
 * tx_qkey and mc_no_qp were counted and shown nowhere, and no refusal was
 * logged.
 */
#include "daemon/port/ibrd_port.h"
#include "router/io/io_verbs.h"
#include "tests/unit/ibr_test.h"

#include <string.h>

static void test_refusals(void)
{
	struct io_verbs_stats st;
	uint64_t last[IBRD_VERBS_REFUSALS] = { 0 };
	char line[1024];

	memset(&st, 0, sizeof(st));
	st.rx = 1000;
	st.rx_no_grh = 7;
	st.rx_own_sgid = 9;
	CU_ASSERT_EQUAL(ibrd_verbs_refusals(&st, last, line, sizeof(line)), 0);
	CU_ASSERT_STRING_EQUAL(line, "");
	st.tx_unicast = 3;
	st.tx_bounce_full = 2;
	CU_ASSERT_EQUAL(ibrd_verbs_refusals(&st, last, line, sizeof(line)), 5);
	CU_ASSERT_STRING_EQUAL(line, "tx_unicast 3 (unicast without a proxy), tx_bounce_full 2 "
				     "(every bounce buffer in flight)");
	/* the same counters again: nothing new */
	CU_ASSERT_EQUAL(ibrd_verbs_refusals(&st, last, line, sizeof(line)), 0);
	st.tx_qkey = 1;
	st.mc_no_qp = 4;
	CU_ASSERT_EQUAL(ibrd_verbs_refusals(&st, last, line, sizeof(line)), 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "tx_qkey 1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "mc_no_qp 4"));
	/* the port opened again (a reload): its counters start from 0 */
	memset(&st, 0, sizeof(st));
	st.tx_no_ah = 2;
	CU_ASSERT_EQUAL(ibrd_verbs_refusals(&st, last, line, sizeof(line)), 2);
	/* a short buffer cuts the line, never the count */
	st.tx_no_ah = 4;
	st.rx_err = 5;
	CU_ASSERT_EQUAL(ibrd_verbs_refusals(&st, last, line, 8), 7);
	CU_ASSERT_EQUAL(strlen(line), 7);
}

static CU_TestInfo tests[] = {
	{ "what grew since the last report, by counter", test_refusals },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_verbs_refusals", tests);
}
