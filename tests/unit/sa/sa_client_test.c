/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client_test.c - the SA client (sa/sa_client.c, sa/sa_sync.c) against
 * the fake subnet of sa_fake.h: its first sync (whole tables and cut ones),
 * walks, alias GUIDs, groups without sa_key.  The other sa_client_*_test.c
 * hold the traps, resyncs, and joins and leaves.
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

static void test_first_sync_tables(void)
{
	struct ibr_sa_informinfo ii;
	const struct sa_client_stats *st;
	long i;

	start(false);
	st = sa_client_stats(SC);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	/* our own port from the hop-0 SMPs */
	CU_ASSERT_EQUAL(
		count_sent(0, IBR_MGMT_CLASS_SUBN_DR, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO),
		1);
	CU_ASSERT_EQUAL(
		count_sent(0, IBR_MGMT_CLASS_SUBN_DR, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_PORT_INFO),
		1);
	CU_ASSERT_EQUAL(sa_client_port(SC)->lid, LID_US);
	CU_ASSERT_EQUAL(sa_client_port(SC)->sm_lid, LID_SM);
	CU_ASSERT_EQUAL(sa_client_port(SC)->lmc, 1);
	CU_ASSERT_EQUAL(sa_client_port(SC)->state, 4);
	CU_ASSERT_EQUAL(sa_client_port(SC)->prefix, PREFIX);
	CU_ASSERT_EQUAL(sa_client_port(SC)->port_guid, GUID_US);
	CU_ASSERT(CB.port >= 1);
	CU_ASSERT_EQUAL(CB.ps.lid, LID_US);
	CU_ASSERT_EQUAL(CB.ps.sm_lid, LID_SM);
	CU_ASSERT_EQUAL(CB.ps.prefix, PREFIX);
	CU_ASSERT_EQUAL(CB.ps.port_guid, GUID_US);
	/* one sync: ClassPortInfo, the subscription and four whole tables */
	CU_ASSERT_EQUAL(count_sa_requests(0), 6);
	CU_ASSERT_EQUAL(count_sa(0, IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, 0), 1);
	CU_ASSERT_EQUAL(count_sa(0, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0), 1);
	CU_ASSERT_EQUAL(count_sa(0, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD, 0), 1);
	CU_ASSERT_EQUAL(count_sa(0, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0), 1);
	CU_ASSERT_EQUAL(count_sa(0, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD, 0), 1);
	for (size_t k = 0; k < F->n_sent; k++) {
		if (ibr_mad_mgmt_class(F->sent[k].mad) != IBR_MGMT_CLASS_SUBN_ADM)
			continue;
		CU_ASSERT_EQUAL(F->sent[k].to.lid, LID_SM);
		CU_ASSERT_EQUAL(ibr_sa_sm_key(F->sent[k].mad), SA_KEY);
		CU_ASSERT_EQUAL(ibr_mad_tid(F->sent[k].mad) >> 32, 0x11);
	}
	i = find_sent(0, IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO);
	CU_ASSERT_FATAL(i >= 0);
	ibr_sa_informinfo_decode(F->sent[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &ii);
	CU_ASSERT(ii.subscribe);
	CU_ASSERT(ii.is_generic);
	CU_ASSERT_EQUAL(ii.lid_begin, 0xFFFF);
	CU_ASSERT_EQUAL(ii.trap_num, 0xFFFF);
	CU_ASSERT_EQUAL(ii.type, 0xFFFF);
	CU_ASSERT_EQUAL(ii.producer, 0xFFFFFF);
	CU_ASSERT_EQUAL(ii.qpn, 1);
	CU_ASSERT(F->subscribed);
	check_default_tables();
	/* stats and callbacks */
	CU_ASSERT_EQUAL(st->syncs, 1);
	CU_ASSERT_EQUAL(st->sync_failures, 0);
	CU_ASSERT(st->table_mode);
	CU_ASSERT_EQUAL(st->truncated_tables, 0);
	CU_ASSERT(st->subscribed);
	CU_ASSERT_EQUAL(st->port_polls, 1);
	CU_ASSERT_EQUAL(st->queries, 8); /* 2 SMPs and 6 SA queries */
	CU_ASSERT_EQUAL(st->query_timeouts, 0);
	CU_ASSERT_EQUAL(st->sm_changes, 0); /* learning the SM is no change of SM */
	CU_ASSERT_EQUAL(st->last_sync_done_ns, T0);
	CU_ASSERT_EQUAL(st->last_sync_ns, 0);
	CU_ASSERT_EQUAL(CB.changed, 1);
	CU_ASSERT_EQUAL(CB.changed_n, 1);
	CU_ASSERT_EQUAL(CB.changed_g, 1);
	CU_ASSERT_EQUAL(mad_chan_stats(CH)->truncated, 0);
	/* the next poll finds nothing new: no callback, no sync */
	CU_ASSERT_EQUAL(sa_client_next_deadline(SC), T0 + SEC);
	run_ms(1000);
	CU_ASSERT_EQUAL(st->port_polls, 2);
	CU_ASSERT_EQUAL(st->syncs, 1);
	CU_ASSERT_EQUAL(CB.port, 1);
	CU_ASSERT_EQUAL(CB.changed, 1);
	CU_ASSERT_EQUAL(count_sa_requests(0), 6);
	stop();
}

/* Our PortInfo answered before our NodeInfo: the sync starts once the GUID is known. */
static void test_first_sync_guid_last(void)
{
	struct sa_client_config cfg = default_cfg();

	fake_new(false, 0, true);
	F->defer_smp = IBR_SMP_ATTR_NODE_INFO;
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_DOWN);
	CU_ASSERT_EQUAL(count_sa_requests(0), 0);
	CU_ASSERT_EQUAL(sa_client_port(SC)->lid, LID_US);
	fake_release();
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(CB.ps.port_guid, GUID_US);
	CU_ASSERT_EQUAL(CB.ps.node_type, 3); /* the fake's router port: a Router node */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->syncs, 1);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->sm_changes, 0);
	check_default_tables();
	stop();
}

/*
 * On an HCA the firmware answers our NodeInfo: the port is a CA to its SM
 * (NodeType 1), which the client tells, and it syncs the same
 */
static void test_node_type_ca(void)
{
	struct sa_client_config cfg = default_cfg();

	fake_new(false, 0, true);
	fport_find(GUID_US)->type = 1;
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_port(SC)->node_type, 1);
	CU_ASSERT_EQUAL(CB.ps.node_type, 1);
	CU_ASSERT_EQUAL(CB.ps.port_guid, GUID_US);
	check_default_tables();
	stop();
}

/* A big subnet: the tables arrive as reassembled messages far beyond 256 bytes. */
static void test_first_sync_big_tables(void)
{
	struct sa_client_config cfg = default_cfg();
	const struct sa_neigh *v;

	fake_new(false, 0, false);
	F->prefix = PREFIX;
	F->sm_lid = LID_SM;
	F->state = 4;
	fport_add(GUID_US, GUID_US - 1, LID_US, 0, 3, 1, 1);
	for (int i = 0; i < MAX_PORTS - 1; i++)
		fport_add(0x0002c90000100001ull + (uint64_t)i * 2, 0x0002c90000100000ull + i * 2,
			  (uint16_t)(0x20 + i), 0, 1, 1, 1);
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_neighs(SC, &v), MAX_PORTS - 1);
	for (int i = 0; i < MAX_PORTS - 1; i++)
		check_neigh(0x0002c90000100001ull + (uint64_t)i * 2, (uint16_t)(0x20 + i), 0, 1, 1);
	CU_ASSERT(sa_client_stats(SC)->table_mode);
	stop();
}

/* OpenSM answers in any order: PortInfoRecords before NodeRecords still give the LMCs. */
static void test_first_sync_pir_before_nr(void)
{
	struct sa_client_config cfg = default_cfg();

	fake_new(false, 0, true);
	F->defer_attr = IBR_SA_ATTR_NODE_RECORD;
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_SYNC);
	fake_release();
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	check_default_tables();
	stop();
}

/* With lmc_esp0 a switch's port 0 has the LMC too: only its PortInfoRecord tells. */
static void test_switch_lmc_esp0(void)
{
	struct sa_client_config cfg = default_cfg();

	for (int cut = 0; cut <= 1; cut++) {
		fake_new(cut, 0, true);
		F->lmc_esp0 = true;
		fport_find(GUID_SW)->lid = 12;
		fport_find(GUID_SW)->lmc = 1;
		client_new(&cfg);
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
		check_neigh(GUID_SW, 12, 1, 2, 0);
		check_neigh(GUID_A, 2, 1, 1, 1);
		CU_ASSERT_EQUAL(n_neighs(), 5);
		stop();
	}
}

static void test_first_sync_cut(void)
{
	const struct sa_client_stats *st;
	uint16_t max;
	size_t mark;

	start(true);
	st = sa_client_stats(SC);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_FALSE(st->table_mode);
	CU_ASSERT_EQUAL(st->truncated_tables, 2); /* NodeRecord and MCMemberRecord tables */
	CU_ASSERT(mad_chan_stats(CH)->truncated >= 3);
	check_default_tables();
	/* LIDs 1..11 answered (LMC 1: 11 is C's second LID), then walk_gap (8) more */
	for (uint16_t lid = 1; lid <= 19; lid++)
		CU_ASSERT_EQUAL(nr_gets(lid, &max), 1);
	CU_ASSERT_EQUAL(max, 19);
	for (uint16_t mlid = 0xC000; mlid <= 0xC00B; mlid++)
		CU_ASSERT_EQUAL(mlid_gets(mlid, &max), 1);
	CU_ASSERT_EQUAL(max, 0xC00B);
	/* the LMC of each port from a PortInfoRecord Get of its LID and port */
	CU_ASSERT(count_sa(0, IBR_MAD_METHOD_GET, IBR_SA_ATTR_PORT_INFO_RECORD,
			   IBR_SA_PIR_COMP_LID | IBR_SA_PIR_COMP_PORT) >= 5);
	CU_ASSERT_EQUAL(st->syncs, 1);
	CU_ASSERT_EQUAL(st->sync_failures, 0);
	CU_ASSERT(st->subscribed);
	/* the next sync walks from the start, without asking for tables */
	mark = F->n_sent;
	sa_client_resync(SC, "test");
	pump();
	CU_ASSERT_EQUAL(st->syncs, 2);
	CU_ASSERT_EQUAL(count_sa(mark, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0), 0);
	CU_ASSERT_EQUAL(count_sa(mark, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD, 0),
			0);
	CU_ASSERT_EQUAL(count_sa(mark, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0),
			0);
	CU_ASSERT_EQUAL(
		count_sa(mark, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD, IBR_SA_NR_COMP_LID),
		19);
	CU_ASSERT_EQUAL(st->truncated_tables, 2);
	check_default_tables();
	CU_ASSERT_EQUAL(CB.changed, 2);
	stop();
}

/* A walk crosses a run of empty LIDs (MLIDs) shorter than walk_gap, not one as long. */
static void test_walk_gap(void)
{
	struct sa_client_config cfg = default_cfg();
	uint8_t mgid[16];
	uint16_t max;

	for (int cut = 0; cut <= 1; cut++) {
		fake_new(cut, 0, true);
		/* C owns LIDs 10-11; 12..15 empty (4 < 8); D owns 16-17; 18..25 empty (8) */
		fport_add(GUID_D, GUID_D - 1, 16, 1, 1, 1, 1);
		fport_add(GUID_E, GUID_E - 1, 26, 1, 1, 1, 1);
		mgid_of(mgid, 5, 0x10);
		fgroup_join(fgroup_add(mgid, 0xC008), GUID_A, IBR_SA_JOIN_FULL);
		mgid_of(mgid, 5, 0x11);
		fgroup_join(fgroup_add(mgid, 0xC011), GUID_A, IBR_SA_JOIN_FULL);
		client_new(&cfg);
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->table_mode, !cut);
		check_neigh(GUID_D, 16, 1, 1, 1);
		mgid_of(mgid, 5, 0x10);
		CU_ASSERT_PTR_NOT_NULL(group(mgid));
		mgid_of(mgid, 5, 0x11);
		if (cut) {
			CU_ASSERT_PTR_NULL(neigh(GUID_E));
			CU_ASSERT_EQUAL(n_neighs(), 6);
			CU_ASSERT_EQUAL(nr_gets(25, &max), 1);
			CU_ASSERT_EQUAL(max, 25);
			CU_ASSERT_PTR_NULL(group(mgid));
			CU_ASSERT_EQUAL(n_groups(), 5);
			CU_ASSERT_EQUAL(mlid_gets(0xC010, &max), 1);
			CU_ASSERT_EQUAL(max, 0xC010);
		} else { /* a whole table has them all */
			check_neigh(GUID_E, 26, 1, 1, 1);
			CU_ASSERT_EQUAL(n_neighs(), 7);
			CU_ASSERT_PTR_NOT_NULL(group(mgid));
			CU_ASSERT_EQUAL(n_groups(), 6);
		}
		stop();
	}
}

/* walk_max_lid and walk_max_mlids end a walk even where ports continue; walk_gap defaults to 64. */
static void test_walk_limits(void)
{
	struct sa_client_config cfg = default_cfg();
	uint16_t max;

	cfg.walk_max_lid = 6;
	cfg.walk_max_mlids = 2;
	cfg.walk_gap = 0;
	fake_new(true, 0, true);
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(n_neighs(), 4); /* switch, A, B1, B2 */
	CU_ASSERT_PTR_NULL(neigh(GUID_C));
	nr_gets(1, &max);
	CU_ASSERT_EQUAL(max, 6);
	CU_ASSERT_EQUAL(n_groups(), 2);
	mlid_gets(0xC000, &max);
	CU_ASSERT_EQUAL(max, 0xC001);
	stop();

	cfg = default_cfg();
	cfg.walk_gap = 0; /* default 64 */
	fake_new(true, 0, true);
	client_new(&cfg);
	pump();
	nr_gets(1, &max);
	CU_ASSERT_EQUAL(max, 11 + 64);
	mlid_gets(0xC000, &max);
	CU_ASSERT_EQUAL(max, 0xC003 + 64);
	check_default_tables();
	stop();
}

/* Alias GUIDs (GUIDInfo entries past 0) are neighbours too, with their port's LID. */
static void test_alias_guids(void)
{
	for (int cut = 0; cut <= 1; cut++) {
		struct sa_client_config cfg = default_cfg();

		fake_new(cut, 0, true);
		fport_find(GUID_C)->alias[0] = ALIAS_C1;
		fport_find(GUID_C)->alias[1] = ALIAS_C2;
		fport_find(GUID_US)->alias[0] = ALIAS_US;
		client_new(&cfg);
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
		check_neigh(GUID_C, 10, 1, 1, 1);
		check_neigh(ALIAS_C1, 10, 1, 1, 1);
		check_neigh(ALIAS_C2, 10, 1, 1, 1);
		CU_ASSERT_PTR_NULL(neigh(ALIAS_US)); /* ours are not neighbours */
		CU_ASSERT_EQUAL(n_neighs(), 7);
		/* trap 65 names the port GUID only: its aliases go with it */
		inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_C, NULL, true);
		pump();
		CU_ASSERT_PTR_NULL(neigh(GUID_C));
		CU_ASSERT_PTR_NULL(neigh(ALIAS_C1));
		CU_ASSERT_PTR_NULL(neigh(ALIAS_C2));
		CU_ASSERT_EQUAL(n_neighs(), 4);
		stop();
	}
}

/* Without OpenSM's sa_key (SM_Key 0) member lists are hidden: the groups still show. */
static void test_groups_without_sa_key(void)
{
	struct sa_client_config cfg = default_cfg();

	cfg.sm_key = 0;
	fake_new(false, 0, true);
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(n_groups(), 4);
	for (int i = G_BCAST; i <= G_OURS; i++)
		check_group(mgid_n(i), F->grp[i].mlid, 0, false, true, false);
	stop();
}
static CU_TestInfo tests[] = {
	{ "first sync, whole tables: neighbours, LMCs, groups, stats", test_first_sync_tables },
	{ "first sync, PortInfo before NodeInfo", test_first_sync_guid_last },
	{ "our NodeInfo from an HCA: a CA port, told", test_node_type_ca },
	{ "first sync, tables far beyond one MAD", test_first_sync_big_tables },
	{ "first sync, PortInfoRecords answered before NodeRecords",
	  test_first_sync_pir_before_nr },
	{ "first sync, cut tables: LID and MLID walks", test_first_sync_cut },
	{ "switch port 0 with lmc_esp0: LMC from its PortInfoRecord", test_switch_lmc_esp0 },
	{ "walks cross a gap shorter than walk_gap only", test_walk_gap },
	{ "walks end at walk_max_lid / walk_max_mlids; default gap", test_walk_limits },
	{ "alias GUIDs from GUIDInfoRecords", test_alias_guids },
	{ "groups without sa_key: no member lists", test_groups_without_sa_key },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_client", tests);
}
