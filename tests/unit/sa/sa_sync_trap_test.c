/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_sync_trap_test.c - the SA client's queries (sa/sa_sync.c) one answer at
 * a time, against the scripted SA of sa_script.h: traps 64-67, and a sync
 * that starts again after a change it may have missed (a trap, a join, a
 * sync asked during a sync); answers of an older sync dropped.
 */
#include "tests/unit/sa/sa_script.h"

#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>

/* ---- traps ---- */

static void port_gid(uint8_t gid[16], uint64_t guid)
{
	ibr_mad_st64(gid, PREFIX);
	ibr_mad_st64(gid + 8, guid);
}

static void test_trap64(void)
{
	struct ibr_sa_node_rec q;
	struct recs r = { .n = 0 };
	uint8_t gid[16];
	long i;

	start_ready();
	port_gid(gid, GUID_D);
	sa_sync_trap(SC, IBR_TRAP_GID_IN_SERVICE, gid);
	i = find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(ibr_sa_comp_mask(F.v[i].mad), 1ull << 8); /* PortGUID */
	CU_ASSERT_FATAL(
		ibr_sa_node_rec_decode(F.v[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q) == 0);
	CU_ASSERT_EQUAL(q.port_guid, GUID_D);
	CU_ASSERT_EQUAL(CB.changed, 0);
	add_nr(&r, 14, GUID_D, 1, 1);
	answer(i, 0, &r);
	/* no PortInfoRecord asked: the port has our LMC */
	check_neigh(neigh(GUID_D), 14, LMC_US, 1, 1);
	CU_ASSERT_EQUAL(CB.changed_n, 1);
	CU_ASSERT_EQUAL(CB.changed_g, 0);
	CU_ASSERT_EQUAL(count_open_sa(), 0);
	/* a switch: LMC 0 */
	port_gid(gid, GUID_SW);
	sa_sync_trap(SC, IBR_TRAP_GID_IN_SERVICE, gid);
	r.n = 0;
	add_nr(&r, 1, GUID_SW, 2, 0);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &r);
	check_neigh(neigh(GUID_SW), 1, 0, 2, 0);
	/* our own port: nothing asked */
	port_gid(gid, GUID_US);
	sa_sync_trap(SC, IBR_TRAP_GID_IN_SERVICE, gid);
	CU_ASSERT_EQUAL(count_open_sa(), 0);
	/* an error answer: nothing changes */
	port_gid(gid, GUID_C);
	sa_sync_trap(SC, IBR_TRAP_GID_IN_SERVICE, gid);
	memset(&CB, 0, sizeof(CB));
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, IBR_SA_STATUS_NO_RESOURCES,
		     NULL);
	CU_ASSERT_PTR_NULL(neigh(GUID_C));
	CU_ASSERT_EQUAL(CB.changed, 0);
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->pending, 0);
	stop();
}

static void test_trap65(void)
{
	struct recs nr = { .n = 0 };
	uint8_t gid[16];

	start(false);
	add_nr(&nr, 4, GUID_A, 1, 1);
	add_nr(&nr, 6, GUID_B1, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	answer_all_empty();
	memset(&CB, 0, sizeof(CB));
	port_gid(gid, GUID_B1);
	sa_sync_trap(SC, IBR_TRAP_GID_OUT_OF_SERVICE, gid);
	CU_ASSERT_PTR_NULL(neigh(GUID_B1));
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_A));
	CU_ASSERT_EQUAL(CB.changed, 1);
	CU_ASSERT_EQUAL(CB.changed_n, 1);
	CU_ASSERT_EQUAL(count_open_sa(), 0); /* applied at once: nothing asked */
	/* a port we do not know: no change to tell */
	port_gid(gid, GUID_D);
	sa_sync_trap(SC, IBR_TRAP_GID_OUT_OF_SERVICE, gid);
	CU_ASSERT_EQUAL(CB.changed, 1);
	CU_ASSERT_EQUAL(SC->cur_n.n, 1);
	stop();
}

static void test_trap66_67(void)
{
	struct ibr_sa_mcm_rec q;
	struct recs r = { .n = 0 };
	uint8_t mgid[16];
	long i;

	start_ready();
	mgid_of(mgid, 7);
	sa_sync_trap(SC, IBR_TRAP_MCG_CREATED, mgid);
	i = find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(ibr_sa_comp_mask(F.v[i].mad), IBR_SA_MCM_COMP_MGID);
	CU_ASSERT_FATAL(
		ibr_sa_mcm_rec_decode(F.v[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q) == 0);
	CU_ASSERT_EQUAL(memcmp(q.mgid, mgid, 16), 0);
	add_mcm(&r, 7, 0xC007, GUID_A, IBR_SA_JOIN_FULL);
	add_mcm(&r, 7, 0xC007, GUID_C, IBR_SA_JOIN_FULL);
	answer(i, 0, &r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(group(7));
	CU_ASSERT_EQUAL(group(7)->mlid, 0xC007);
	CU_ASSERT_EQUAL(group(7)->members, 2);
	CU_ASSERT_EQUAL(CB.changed_g, 1);
	CU_ASSERT_EQUAL(CB.changed_n, 0);
	/* again after a member left: the group is rebuilt from the answer, not added to */
	sa_sync_trap(SC, IBR_TRAP_MCG_CREATED, mgid);
	r.n = 0;
	add_mcm(&r, 7, 0xC007, GUID_C, IBR_SA_JOIN_SEND_ONLY);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0, &r);
	CU_ASSERT_EQUAL(SC->cur_g.n, 1);
	CU_ASSERT_EQUAL(group(7)->members, 1);
	CU_ASSERT_FALSE(group(7)->receivers);
	/* trap 67: gone at once */
	memset(&CB, 0, sizeof(CB));
	sa_sync_trap(SC, IBR_TRAP_MCG_DELETED, mgid);
	CU_ASSERT_PTR_NULL(group(7));
	CU_ASSERT_EQUAL(CB.changed, 1);
	CU_ASSERT_EQUAL(CB.changed_g, 1);
	CU_ASSERT_EQUAL(count_open_sa(), 0);
	/* a group we do not know: no change to tell */
	sa_sync_trap(SC, IBR_TRAP_MCG_DELETED, mgid);
	CU_ASSERT_EQUAL(CB.changed, 1);
	/* other traps: nothing */
	sa_sync_trap(SC, 128, mgid);
	CU_ASSERT_EQUAL(count_open_sa(), 0);
	CU_ASSERT_EQUAL(CB.changed, 1);
	stop();
}

/* ---- changes during a sync ---- */

static void test_trap_during_sync(void)
{
	struct recs nr = { .n = 0 };
	unsigned int gen;
	uint8_t gid[16];

	start(false);
	gen = SC->gen;
	/* the NodeRecords read before a port went: the trap applies to both tables */
	add_nr(&nr, 4, GUID_A, 1, 1);
	add_nr(&nr, 6, GUID_B1, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	port_gid(gid, GUID_B1);
	sa_sync_trap(SC, IBR_TRAP_GID_OUT_OF_SERVICE, gid);
	CU_ASSERT(SC->sync_again);
	CU_ASSERT_PTR_NULL(find_in(&SC->new_n, GUID_B1));
	answer_all_empty();
	/* the sync swapped its tables in, then started again: it may have missed more */
	CU_ASSERT_EQUAL(SC->st.syncs, 1);
	CU_ASSERT_PTR_NULL(neigh(GUID_B1));
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_A));
	CU_ASSERT_EQUAL(SC->gen, gen + 1);
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
	CU_ASSERT_FALSE(SC->sync_again);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO), 2);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->st.syncs, 2);
	CU_ASSERT_EQUAL(SC->gen, gen + 1);
	stop();
}

/*
 * A trap 64 during a sync: its query counts among the sync's, which ends
 * with its answer and starts again (the trap's port went into the tables
 * the sync replaces: the next sync reads it).
 */
static void test_trap64_during_sync(void)
{
	struct recs r = { .n = 0 };
	unsigned int gen;
	uint8_t gid[16];
	long t = -1;

	start(false);
	gen = SC->gen;
	port_gid(gid, GUID_D);
	sa_sync_trap(SC, IBR_TRAP_GID_IN_SERVICE, gid);
	CU_ASSERT(SC->sync_again);
	for (size_t k = 0; k < F.n; k++)
		if (sa_req_is(k, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD) &&
		    ibr_sa_comp_mask(F.v[k].mad) == 1ull << 8)
			t = (long)k;
	CU_ASSERT_FATAL(t >= 0);
	F.v[t].answered = true; /* held back */
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC); /* waits for the trap's answer */
	CU_ASSERT_EQUAL(SC->st.syncs, 0);
	CU_ASSERT_EQUAL(SC->pending, 1);
	F.v[t].answered = false;
	add_nr(&r, 14, GUID_D, 1, 1);
	answer(t, 0, &r);
	CU_ASSERT_EQUAL(SC->st.syncs, 1);
	CU_ASSERT_EQUAL(SC->gen, gen + 1);
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &r);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	check_neigh(neigh(GUID_D), 14, LMC_US, 1, 1);
	stop();
}

static void test_start_during_sync(void)
{
	unsigned int gen, sent;

	start(false);
	gen = SC->gen;
	sent = (unsigned int)F.n;
	sa_sync_start(SC, "again");
	CU_ASSERT_EQUAL(F.n, sent); /* nothing asked twice */
	CU_ASSERT_EQUAL(SC->gen, gen);
	CU_ASSERT(SC->sync_again);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->gen, gen + 1);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->st.syncs, 2);
	stop();
}

static void test_join_during_sync(void)
{
	struct sa_group tmpl = { .qkey = 0x0B1B, .pkey = 0xFFFF, .sl = 1 };
	struct recs mcm = { .n = 0 };
	uint8_t mgid[16];
	unsigned int gen;

	start(false);
	gen = SC->gen;
	/* the sync read the groups before the join */
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0, NULL);
	mgid_of(mgid, 9);
	CU_ASSERT_EQUAL(sa_client_join(SC, mgid, IBR_SA_JOIN_FULL, &tmpl), 0);
	add_mcm(&mcm, 9, 0xC009, GUID_US, IBR_SA_JOIN_FULL);
	answer_first(IBR_MAD_METHOD_SET, IBR_SA_ATTR_MCMEMBER_RECORD, 0, &mcm);
	CU_ASSERT(SC->sync_again);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->gen, gen + 1);
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
	/* a refused join changes nothing: no sync for it */
	mgid_of(mgid, 10);
	CU_ASSERT_EQUAL(sa_client_join(SC, mgid, IBR_SA_JOIN_FULL, &tmpl), 0);
	answer_first(IBR_MAD_METHOD_SET, IBR_SA_ATTR_MCMEMBER_RECORD, IBR_SA_STATUS_REQ_INVALID,
		     NULL);
	CU_ASSERT_FALSE(SC->sync_again);
	mcm.n = 0;
	add_mcm(&mcm, 9, 0xC009, GUID_US, IBR_SA_JOIN_FULL);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0, &mcm);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->gen, gen + 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(group(9));
	CU_ASSERT(group(9)->ours);
	/* a leave answered: not ours any more, and the daemon hears of it */
	memset(&CB, 0, sizeof(CB));
	mgid_of(mgid, 9);
	CU_ASSERT_EQUAL(sa_client_leave(SC, mgid, IBR_SA_JOIN_FULL), 0);
	answer_first(IBR_MAD_METHOD_DELETE, IBR_SA_ATTR_MCMEMBER_RECORD, 0, NULL);
	CU_ASSERT_FALSE(group(9)->ours);
	CU_ASSERT_EQUAL(CB.changed_g, 1);
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	stop();
}

/* Answers of an older sync (its generation) are dropped. */
static void test_stale_answers(void)
{
	struct recs nr = { .n = 0 };
	long old;

	start(false);
	old = find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD);
	F.v[old].answered = true; /* held back */
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC); /* it waits for the NodeRecords */
	SC->gen++; /* as the port going down makes what is in flight stale (sa_client.c) */
	SC->phase = SA_PHASE_DOWN;
	sa_sync_start(SC, "port up");
	F.v[old].answered = false;
	add_nr(&nr, 4, GUID_A, 1, 1);
	answer(old, 0, &nr);
	CU_ASSERT_EQUAL(SC->new_n.n, 0);
	CU_ASSERT_EQUAL(count_sent(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD), 0);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_PTR_NULL(neigh(GUID_A));
	stop();
}

static CU_TestInfo tests[] = {
	{ "trap 64: the port's NodeRecord, our LMC, not ourselves", test_trap64 },
	{ "trap 65: the port removed at once", test_trap65 },
	{ "traps 66 and 67: the group rebuilt, removed", test_trap66_67 },
	{ "a trap during a sync: both tables, then another sync", test_trap_during_sync },
	{ "trap 64 during a sync: the sync waits for its answer", test_trap64_during_sync },
	{ "a sync asked during a sync: one after it", test_start_during_sync },
	{ "a join answered during a sync: another sync; a leave told", test_join_during_sync },
	{ "answers of an older sync are dropped", test_stale_answers },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_sync_trap", tests);
}
