/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_sync_test.c - the queries of the SA client (sa/sa_sync.c) one answer at
 * a time, against the scripted SA of sa_script.h: neighbours from
 * NodeRecords, LMCs from PortInfoRecords, alias GUIDs from GUIDInfoRecords,
 * the LID and MLID walks.  sa_sync_trap_test.c holds traps 64-67 and a sync
 * that starts again after a change it may have missed, sa_sync_fail_test.c
 * the SA answers that fail a sync.
 */
#include "tests/unit/sa/sa_script.h"

#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>

/* ---- neighbours ---- */

static void test_nr_neighbours(void)
{
	struct recs nr = { .n = 0 };

	start(false);
	/* a sync asks the PortInfoRecords and GUIDInfoRecords only after the NodeRecords */
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD), 1);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD), 1);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD), 0);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD), 0);
	answer_cpi_sub();
	add_nr(&nr, 1, GUID_SW, 2, 0);
	add_nr(&nr, 4, GUID_A, 1, 1);
	add_nr(&nr, 6, GUID_B1, 3, 2);	    /* another router's port */
	add_nr(&nr, LID_US, GUID_US, 3, 1); /* ourselves: never a neighbour */
	add_nr(&nr, 0, GUID_C, 1, 1);	    /* no LID: an empty slot */
	add_nr(&nr, 10, 0, 1, 1);	    /* no port GUID: an empty slot */
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD), 1);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD), 1);
	/* not swapped in yet: the sync is not over */
	CU_ASSERT_EQUAL(SC->new_n.n, 3);
	CU_ASSERT_EQUAL(SC->cur_n.n, 0);
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
	CU_ASSERT_EQUAL(CB.changed, 0);
	/* no PortInfoRecord at all: the LMC defaults stay */
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->cur_n.n, 3);
	check_neigh(neigh(GUID_SW), 1, 0, 2, 0); /* a switch's port 0: LMC 0 */
	check_neigh(neigh(GUID_A), 4, LMC_US, 1, 1);
	check_neigh(neigh(GUID_B1), 6, LMC_US, 3, 2);
	CU_ASSERT_PTR_NULL(neigh(GUID_US));
	CU_ASSERT_PTR_NULL(neigh(GUID_C));
	CU_ASSERT_EQUAL(CB.changed, 1);
	CU_ASSERT_EQUAL(CB.changed_n, 1);
	CU_ASSERT_EQUAL(CB.changed_g, 1);
	CU_ASSERT_EQUAL(SC->st.syncs, 1);
	CU_ASSERT(SC->st.subscribed);
	stop();
}

/* An LMC block seen twice (a NodeRecord per LID of it) keeps its base LID. */
static void test_nr_lmc_block(void)
{
	struct recs nr = { .n = 0 };

	start(false);
	add_nr(&nr, 13, GUID_A, 1, 1);
	add_nr(&nr, 12, GUID_A, 1, 1);
	add_nr(&nr, 15, GUID_A, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->cur_n.n, 1);
	check_neigh(neigh(GUID_A), 12, LMC_US, 1, 1);
	stop();
}

/* ---- PortInfoRecords ---- */

static void test_pir_lmc(void)
{
	struct recs nr = { .n = 0 }, pir = { .n = 0 };

	start(false);
	add_nr(&nr, 1, GUID_SW, 2, 3); /* LocalPortNum: the port the SM reached it by */
	add_nr(&nr, 4, GUID_A, 1, 1);
	add_nr(&nr, 6, GUID_B1, 1, 1); /* HCA B's two ports */
	add_nr(&nr, 10, GUID_B2, 1, 2);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	/* OpenSM with lmc_esp0: port 0 of the switch has the LMC; its other ports carry its LID */
	add_pir(&pir, 1, 0, 1);
	add_pir(&pir, 1, 1, 0);
	add_pir(&pir, 1, 3, 0);
	add_pir(&pir, 4, 1, 3);
	add_pir(&pir, 6, 1, 1);
	add_pir(&pir, 6, 2, 7); /* LID 6 with another port number: not B1's record */
	add_pir(&pir, 10, 2, 0);
	add_pir(&pir, 0, 1, 5); /* no LID: an empty slot */
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD, 0, &pir);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	check_neigh(neigh(GUID_SW), 1, 1, 2, 3);
	check_neigh(neigh(GUID_A), 4, 3, 1, 1);
	check_neigh(neigh(GUID_B1), 6, 1, 1, 1);
	check_neigh(neigh(GUID_B2), 10, 0, 1, 2);
	stop();
}

/* The PortInfoRecords' LMCs reach the aliases too when the GUIDInfoRecords come first. */
static void test_pir_after_gir(void)
{
	static const uint64_t c_block0[8] = { GUID_C, ALIAS_C1 };
	struct recs nr = { .n = 0 }, pir = { .n = 0 }, gir = { .n = 0 };

	start(false);
	add_nr(&nr, 10, GUID_C, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	add_gir(&gir, 10, 0, c_block0);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD, 0, &gir);
	add_pir(&pir, 10, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD, 0, &pir);
	answer_all_empty();
	check_neigh(neigh(GUID_C), 10, 1, 1, 1);
	check_neigh(neigh(ALIAS_C1), 10, 1, 1, 1);
	stop();
}

/* ---- GUIDInfoRecords ---- */

static void test_gir_aliases(void)
{
	static const uint64_t c_block0[8] = { GUID_C, ALIAS_C1, 0, ALIAS_C2, GUID_US };
	static const uint64_t c_block1[8] = { ALIAS_C3 };
	static const uint64_t sw_block0[8] = { GUID_SW, 0x0002c900000001aaull };
	static const uint64_t unknown[8] = { 0x0002c900000009aaull, 0x0002c900000009abull };
	static const uint64_t us_block0[8] = { GUID_US, 0x0002c900000004aaull };
	struct recs nr = { .n = 0 }, pir = { .n = 0 }, gir = { .n = 0 };

	start(false);
	add_nr(&nr, 1, GUID_SW, 2, 0);
	add_nr(&nr, 4, GUID_A, 1, 1);
	add_nr(&nr, 10, GUID_C, 1, 1);
	add_nr(&nr, LID_US, GUID_US, 3, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	add_pir(&pir, 10, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD, 0, &pir);
	add_gir(&gir, 10, 0, c_block0);
	add_gir(&gir, 10, 1, c_block1);
	add_gir(&gir, 1, 0, sw_block0);	     /* a switch's: not a base */
	add_gir(&gir, 30, 0, unknown);	     /* a LID no NodeRecord named */
	add_gir(&gir, LID_US, 0, us_block0); /* ours: we are no neighbour */
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD, 0, &gir);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	/* block 0 index 0 is the port GUID itself; a block's other entries are aliases */
	CU_ASSERT_EQUAL(SC->cur_n.n, 6);
	check_neigh(neigh(GUID_C), 10, 1, 1, 1);
	check_neigh(neigh(ALIAS_C1), 10, 1, 1, 1);
	check_neigh(neigh(ALIAS_C2), 10, 1, 1, 1);
	check_neigh(neigh(ALIAS_C3), 10, 1, 1, 1);
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_SW));
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_A));
	CU_ASSERT_PTR_NULL(neigh(GUID_US));
	CU_ASSERT_PTR_NULL(neigh(0x0002c900000001aaull));
	CU_ASSERT_PTR_NULL(neigh(0x0002c900000009abull));
	CU_ASSERT_PTR_NULL(neigh(0x0002c900000004aaull));
	/* trap 65: the port goes with its aliases (OpenSM reports the port GUID only) */
	{
		uint8_t gid[16];

		memset(&CB, 0, sizeof(CB));
		ibr_mad_st64(gid, PREFIX);
		ibr_mad_st64(gid + 8, GUID_C);
		sa_sync_trap(SC, IBR_TRAP_GID_OUT_OF_SERVICE, gid);
		CU_ASSERT_EQUAL(SC->cur_n.n, 2);
		CU_ASSERT_PTR_NULL(neigh(ALIAS_C1));
		CU_ASSERT_PTR_NULL(neigh(ALIAS_C3));
		CU_ASSERT_PTR_NOT_NULL(neigh(GUID_SW));
		CU_ASSERT_PTR_NOT_NULL(neigh(GUID_A));
		CU_ASSERT_EQUAL(CB.changed_n, 1);
	}
	stop();
}

/* An SA without GUIDInfoRecords (an error status) still syncs. */
static void test_gir_refused(void)
{
	struct recs nr = { .n = 0 };

	start(false);
	add_nr(&nr, 4, GUID_A, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD,
		     IBR_SA_STATUS_REQ_INVALID, NULL);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_A));
	stop();
}

/* ---- walks ---- */

/* The subnet a walk finds: LIDs 1 (a switch), 2, 5, 8 (us), 12. */
static void answer_nr_get(long i)
{
	struct recs r = { .n = 0 };

	switch (req_lid(i)) {
	case 1:
		add_nr(&r, 1, GUID_SW, 2,
		       5); /* the port the query came in by: not the one to ask */
		break;
	case 2:
		add_nr(&r, 2, GUID_A, 1, 1);
		break;
	case 5:
		add_nr(&r, 5, GUID_B2, 1, 2);
		break;
	case LID_US:
		add_nr(&r, LID_US, GUID_US, 3, 1);
		break;
	case 12:
		add_nr(&r, 12, GUID_C, 1, 1);
		break;
	}
	answer(i, 0, &r);
}

/* Answer the LID walk, the oldest request first; returns the most in flight at once. */
static unsigned int walk_lids(bool asked[64])
{
	unsigned int most = 0;
	long i;

	while ((i = find_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD)) >= 0) {
		unsigned int n = count_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD);
		uint16_t lid = req_lid(i);

		if (n > most)
			most = n;
		CU_ASSERT_FATAL(lid < 64);
		CU_ASSERT_FALSE(asked[lid]);
		asked[lid] = true;
		answer_nr_get(i);
	}
	return most;
}

static void test_lid_walk(void)
{
	bool asked[64] = { false };
	long i;

	start(true);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD), 0);
	CU_ASSERT(walk_lids(asked) <= 8);
	/* every LID up to the last found (12, across gaps shorter than 4) and 4 more */
	for (unsigned int lid = 0; lid < 64; lid++)
		CU_ASSERT_EQUAL(asked[lid], lid >= 1 && lid <= 16);
	/* per port found: a PortInfoRecord Get (a switch: port 0), GUIDInfoRecords (not a switch) */
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET, IBR_SA_ATTR_PORT_INFO_RECORD), 4);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD), 3);
	while ((i = find_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_PORT_INFO_RECORD)) >= 0) {
		const uint8_t *d = F.v[i].mad + IBR_SA_DATA_OFFS;
		uint16_t lid = (uint16_t)(d[0] << 8 | d[1]);
		struct recs r = { .n = 0 };

		CU_ASSERT_NOT_EQUAL(lid, LID_US);
		CU_ASSERT_EQUAL(d[2], lid == 1 ? 0 : lid == 5 ? 2 : 1);
		CU_ASSERT_EQUAL(ibr_sa_comp_mask(F.v[i].mad),
				IBR_SA_PIR_COMP_LID | IBR_SA_PIR_COMP_PORT);
		add_pir(&r, lid, d[2], lid == 1 ? 0 : 1);
		answer(i, 0, &r);
	}
	answer_all_empty(); /* the GUIDInfoRecords, the MLID walk */
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->cur_n.n, 4);
	check_neigh(neigh(GUID_SW), 1, 0, 2, 5);
	check_neigh(neigh(GUID_A), 2, 1, 1, 1);
	check_neigh(neigh(GUID_B2), 5, 1, 1, 2);
	check_neigh(neigh(GUID_C), 12, 1, 1, 1);
	CU_ASSERT_PTR_NULL(neigh(GUID_US));
	stop();
}

/* A gap wider than the window: 8 LIDs in flight at most, and at once. */
static void test_lid_walk_window(void)
{
	struct sa_client_config cfg = cfg_of(16, 64, 4);
	bool asked[64] = { false };

	start_cfg(&cfg, true);
	CU_ASSERT_EQUAL(count_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD), 8);
	CU_ASSERT_EQUAL(walk_lids(asked), 8);
	for (unsigned int lid = 0; lid < 64; lid++)
		CU_ASSERT_EQUAL(asked[lid], lid >= 1 && lid <= 12 + 16);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->cur_n.n, 4);
	stop();
}

/* A walk ends at walk_max_lid however many it finds. */
static void test_lid_walk_max(void)
{
	struct sa_client_config cfg = cfg_of(4, 6, 2);
	bool asked[16] = { false };
	long i;

	start_cfg(&cfg, true);
	while ((i = find_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD)) >= 0) {
		uint16_t lid = req_lid(i);
		struct recs r = { .n = 0 };

		CU_ASSERT_FATAL(lid < 16);
		asked[lid] = true;
		add_nr(&r, lid, GUID_A + lid, 1, 1);
		answer(i, 0, &r);
	}
	for (unsigned int lid = 0; lid < 16; lid++)
		CU_ASSERT_EQUAL(asked[lid], lid >= 1 && lid <= 6);
	/* the MLID walk: walk_max_mlids MLIDs from 0xC000 */
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD), 2);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->cur_n.n, 6);
	stop();
}

static void test_mlid_walk(void)
{
	bool asked[0x40] = { false };
	long i;

	start(true);
	/* the LIDs: nothing there */
	while ((i = find_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD)) >= 0)
		answer(i, 0, NULL);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD), 4);
	/* groups at MLIDs 0xC000, 0xC002 and 0xC005 (gaps of 1 and 2), none after */
	while ((i = find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD)) >= 0) {
		uint16_t mlid = req_lid(i);
		struct recs r = { .n = 0 };

		CU_ASSERT_FATAL(mlid >= 0xC000 && mlid < 0xC040);
		CU_ASSERT_EQUAL(ibr_sa_comp_mask(F.v[i].mad), IBR_SA_MCM_COMP_MLID);
		CU_ASSERT_FALSE(asked[mlid - 0xC000]);
		asked[mlid - 0xC000] = true;
		if (mlid == 0xC000) {
			add_mcm(&r, 1, mlid, GUID_A, IBR_SA_JOIN_FULL);
			add_mcm(&r, 1, mlid, GUID_US, IBR_SA_JOIN_FULL);
		} else if (mlid == 0xC002) {
			add_mcm(&r, 2, mlid, GUID_C, IBR_SA_JOIN_SEND_ONLY);
		} else if (mlid == 0xC005) {
			add_mcm(&r, 5, mlid, GUID_A, IBR_SA_JOIN_NON);
			add_mcm(&r, 5, mlid, GUID_C, IBR_SA_JOIN_FULL);
		}
		answer(i, 0, &r);
	}
	for (unsigned int k = 0; k < 0x40; k++)
		CU_ASSERT_EQUAL(asked[k], k <= 9);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->cur_g.n, 3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(group(1));
	CU_ASSERT_EQUAL(group(1)->mlid, 0xC000);
	CU_ASSERT_EQUAL(group(1)->members, 1);
	CU_ASSERT(group(1)->ours);
	CU_ASSERT(group(1)->receivers);
	CU_ASSERT_PTR_NOT_NULL_FATAL(group(2));
	CU_ASSERT_FALSE(group(2)->receivers);
	CU_ASSERT(group(2)->senders);
	CU_ASSERT_FALSE(group(2)->ours);
	CU_ASSERT_PTR_NOT_NULL_FATAL(group(5));
	CU_ASSERT_EQUAL(group(5)->members, 2);
	CU_ASSERT_EQUAL(group(5)->qkey, 0x0B1B);
	CU_ASSERT_EQUAL(group(5)->scope, 5);
	stop();
}

/* Tables cut after one MAD: the sync walks instead, and so does every sync after it. */
static void test_table_cut(void)
{
	struct recs nr = { .n = 0 }, mcm = { .n = 0 };
	long i;

	start(false);
	add_nr(&nr, 1, GUID_SW, 2, 0);
	add_nr(&nr, 2, GUID_A, 1, 1);
	add_nr(&nr, 5, GUID_B2, 1, 2);
	answer_cut(find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD), 0, &nr, true);
	CU_ASSERT_FALSE(SC->st.table_mode);
	CU_ASSERT_EQUAL(SC->st.truncated_tables, 1);
	CU_ASSERT_EQUAL(count_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD), 4);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD), 0);
	CU_ASSERT_EQUAL(SC->new_n.n, 0); /* the cut table's first records are not taken */
	add_mcm(&mcm, 1, 0xC000, GUID_A, IBR_SA_JOIN_FULL);
	answer_cut(find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD), 0, &mcm, true);
	CU_ASSERT_EQUAL(SC->st.truncated_tables, 2);
	CU_ASSERT_EQUAL(count_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD), 4);
	while ((i = find_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD)) >= 0)
		answer_nr_get(i);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->cur_n.n, 4);
	/* the next sync walks from the start */
	sa_sync_start(SC, "test");
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD), 1);
	CU_ASSERT_EQUAL(count_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD), 4);
	stop();
}

static CU_TestInfo tests[] = {
	{ "NodeRecords: neighbours, LMC defaults, a switch's port 0, ourselves skipped",
	  test_nr_neighbours },
	{ "NodeRecords of one LMC block: the base LID", test_nr_lmc_block },
	{ "PortInfoRecords as OpenSM lays them out: LMCs, a switch's by port 0", test_pir_lmc },
	{ "PortInfoRecords answered after GUIDInfoRecords: aliases get the LMC",
	  test_pir_after_gir },
	{ "GUIDInfoRecords: alias GUIDs of known ports; trap 65 takes them", test_gir_aliases },
	{ "GUIDInfoRecords refused: the sync goes on", test_gir_refused },
	{ "LID walk: across short gaps, ends after walk_gap, asks PortInfo/GUIDInfo",
	  test_lid_walk },
	{ "LID walk: 8 in flight at most", test_lid_walk_window },
	{ "LID walk: ends at walk_max_lid; MLID walk at walk_max_mlids", test_lid_walk_max },
	{ "MLID walk: groups, gaps, members, ours", test_mlid_walk },
	{ "tables cut after one MAD: walks from then on", test_table_cut },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_sync", tests);
}
