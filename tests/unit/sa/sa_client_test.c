/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client_test.c - the SA client (sa/sa_client.c, sa/sa_sync.c) against
 * the fake subnet of sa_fake.h: its first sync (whole tables and cut ones),
 * walks, alias GUIDs, traps 64-67 and their ReportResps, SM changes, port
 * state, SA timeouts and errors, resyncs, joins and leaves, and freeing it
 * with requests in flight.
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
	CU_ASSERT_EQUAL(sa_client_stats(SC)->syncs, 1);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->sm_changes, 0);
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

static void test_trap65_removes(void)
{
	for (int cut = 0; cut <= 1; cut++) {
		const struct sa_client_stats *st;
		size_t mark;
		uint64_t tid;
		uint8_t gid[16];

		start(cut);
		st = sa_client_stats(SC);
		fport_del(GUID_C);
		mark = F->n_sent;
		tid = inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_C, NULL, true);
		pump();
		/* acknowledged first */
		check_report_resp((long)mark, tid);
		CU_ASSERT_EQUAL(F->n_sent, mark + 1); /* applied at once: no query */
		CU_ASSERT_PTR_NULL(neigh(GUID_C));
		CU_ASSERT_EQUAL(n_neighs(), 4);
		CU_ASSERT_EQUAL(st->reports, 1);
		CU_ASSERT_EQUAL(st->reports_ignored, 0);
		CU_ASSERT_EQUAL(CB.changed, 2);
		CU_ASSERT_EQUAL(CB.changed_n, 2);
		CU_ASSERT_EQUAL(CB.changed_g, 1);
		CU_ASSERT_EQUAL(CB.reports, 1);
		CU_ASSERT_EQUAL(CB.trap, 65);
		ibr_mad_st64(gid, PREFIX);
		ibr_mad_st64(gid + 8, GUID_C);
		CU_ASSERT_EQUAL(memcmp(CB.gid, gid, 16), 0);
		/* the same Report again (OpenSM resends unacknowledged ones): acked, no change */
		tid = inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_C, NULL, true);
		pump();
		check_report_resp((long)mark + 1, tid);
		CU_ASSERT_EQUAL(CB.changed, 2);
		CU_ASSERT_EQUAL(n_neighs(), 4);
		stop();
	}
}

/* The ReportResp carries the Notice back byte for byte. */
static void test_report_resp_bytes(void)
{
	uint8_t report[IBR_MAD_SIZE];
	size_t mark;
	uint64_t tid;

	start(false);
	mark = F->n_sent;
	tid = inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_B2, NULL, true);
	memcpy(report, F->rx.v[F->rx.n - 1].mad, IBR_MAD_SIZE);
	pump();
	check_report_resp((long)mark, tid);
	/* header: the request's with method 0x86, status 0; SA header and Notice as sent */
	CU_ASSERT_EQUAL(memcmp(F->sent[mark].mad, report, 3), 0);
	CU_ASSERT_EQUAL(memcmp(F->sent[mark].mad + 4, report + 4, 2), 0);
	CU_ASSERT_EQUAL(memcmp(F->sent[mark].mad + 8, report + 8, 16), 0);
	CU_ASSERT_EQUAL(memcmp(F->sent[mark].mad + 36, report + 36, IBR_MAD_SIZE - 36), 0);
	CU_ASSERT_PTR_NULL(neigh(GUID_B2));
	stop();
}

static void test_trap64_adds(void)
{
	for (int cut = 0; cut <= 1; cut++) {
		struct ibr_sa_node_rec q;
		size_t mark;
		uint64_t tid;
		long i;

		start(cut);
		fport_add(GUID_D, GUID_D - 1, 12, 1, 1, 1, 1);
		mark = F->n_sent;
		tid = inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_D, NULL, true);
		pump();
		check_report_resp((long)mark, tid);
		/* then a NodeRecord query by PortGUID */
		i = find_sent(mark, IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_GET_TABLE,
			      IBR_SA_ATTR_NODE_RECORD);
		CU_ASSERT_FATAL(i == (long)mark + 1);
		CU_ASSERT_EQUAL(ibr_sa_comp_mask(F->sent[i].mad), 1ull << 8);
		ibr_sa_node_rec_decode(F->sent[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q);
		CU_ASSERT_EQUAL(q.port_guid, GUID_D);
		CU_ASSERT_EQUAL(F->sent[i].to.lid, LID_SM);
		check_neigh(GUID_D, 12, 1, 1, 1);
		CU_ASSERT_EQUAL(n_neighs(), 6);
		CU_ASSERT_EQUAL(CB.changed, 2);
		CU_ASSERT_EQUAL(CB.changed_n, 2);
		CU_ASSERT_EQUAL(CB.reports, 1);
		CU_ASSERT_EQUAL(CB.trap, 64);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->reports, 1);
		CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
		/* a resync finds the same port the same way */
		sa_client_resync(SC, "test");
		pump();
		check_neigh(GUID_D, 12, 1, 1, 1);
		stop();
	}
}

/* A new switch by trap 64: its port 0 has LMC 0 (OpenSM without lmc_esp0), as a sync says. */
static void test_trap64_switch_lmc(void)
{
	start(false);
	fport_add(GUID_S2, GUID_S2, 14, 1, 2, 0, 36);
	inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_S2, NULL, true);
	pump();
	check_neigh(GUID_S2, 14, 0, 2, 0);
	sa_client_resync(SC, "test");
	pump();
	check_neigh(GUID_S2, 14, 0, 2, 0);
	stop();
}

static void test_trap66_67_groups(void)
{
	for (int cut = 0; cut <= 1; cut++) {
		struct ibr_sa_mcm_rec q;
		uint8_t mgid[16];
		struct fgroup *g;
		size_t mark;
		uint64_t tid;
		long i;

		start(cut);
		mgid_of(mgid, 5, 0x66);
		g = fgroup_add(mgid, 0xC004);
		fgroup_join(g, GUID_A, IBR_SA_JOIN_FULL);
		fgroup_join(g, GUID_C, IBR_SA_JOIN_SEND_ONLY);
		mark = F->n_sent;
		tid = inject_report(IBR_TRAP_MCG_CREATED, 0, 0, mgid, true);
		pump();
		check_report_resp((long)mark, tid);
		i = find_sent(mark, IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_GET_TABLE,
			      IBR_SA_ATTR_MCMEMBER_RECORD);
		CU_ASSERT_FATAL(i == (long)mark + 1);
		CU_ASSERT_EQUAL(ibr_sa_comp_mask(F->sent[i].mad), IBR_SA_MCM_COMP_MGID);
		CU_ASSERT_EQUAL(ibr_sa_sm_key(F->sent[i].mad), SA_KEY);
		ibr_sa_mcm_rec_decode(F->sent[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q);
		CU_ASSERT_EQUAL(memcmp(q.mgid, mgid, 16), 0);
		check_group(mgid, 0xC004, 2, true, true, false);
		CU_ASSERT_EQUAL(group(mgid)->qkey, 0x0B1B);
		CU_ASSERT_EQUAL(n_groups(), 5);
		CU_ASSERT_EQUAL(CB.changed, 2);
		CU_ASSERT_EQUAL(CB.changed_g, 2);
		CU_ASSERT_EQUAL(CB.changed_n, 1);
		CU_ASSERT_EQUAL(CB.trap, 66);
		CU_ASSERT_EQUAL(memcmp(CB.gid, mgid, 16), 0);
		/* trap 67: gone at once */
		memcpy(mgid, mgid_n(G_SEND), 16);
		F->grp[G_SEND].used = false;
		mark = F->n_sent;
		tid = inject_report(IBR_TRAP_MCG_DELETED, 0, 0, mgid, true);
		pump();
		check_report_resp((long)mark, tid);
		CU_ASSERT_EQUAL(F->n_sent, mark + 1);
		CU_ASSERT_PTR_NULL(group(mgid));
		CU_ASSERT_EQUAL(n_groups(), 4);
		CU_ASSERT_EQUAL(CB.changed, 3);
		CU_ASSERT_EQUAL(CB.changed_g, 3);
		CU_ASSERT_EQUAL(CB.trap, 67);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->reports, 2);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->reports_ignored, 0);
		stop();
	}
}

/* Acknowledged, counted as ignored, nothing applied, nothing asked, no report callback. */
static void check_ignored(uint64_t tid, size_t mark, unsigned int ignored)
{
	check_report_resp((long)mark, tid);
	CU_ASSERT_EQUAL(F->n_sent, mark + 1);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->reports_ignored, ignored);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->reports, ignored);
	CU_ASSERT_EQUAL(CB.reports, 0);
	CU_ASSERT_EQUAL(CB.changed, 1);
	check_default_tables();
}

static void test_reports_ignored(void)
{
	size_t mark;
	uint64_t tid;

	start(false);
	/* a vendor (non-generic) notice */
	mark = F->n_sent;
	tid = inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_C, NULL, false);
	pump();
	check_ignored(tid, mark, 1);
	/* a generic trap other than 64-67 (128: link state change) */
	mark = F->n_sent;
	tid = inject_report(128, PREFIX, GUID_C, NULL, true);
	pump();
	check_ignored(tid, mark, 2);
	/* traps 65 and 64 about a port GID of another subnet */
	mark = F->n_sent;
	tid = inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX_B, GUID_C, NULL, true);
	pump();
	check_ignored(tid, mark, 3);
	mark = F->n_sent;
	fport_add(GUID_D, GUID_D - 1, 12, 1, 1, 1, 1);
	tid = inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX_B, GUID_D, NULL, true);
	pump();
	check_ignored(tid, mark, 4);
	CU_ASSERT_PTR_NULL(neigh(GUID_D));
	/* a trap 65 about a known port, from a host's LID, not the SM's: nothing changes */
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_C));
	mark = F->n_sent;
	inject_report_from(12, IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_C, NULL, true);
	pump();
	CU_ASSERT_EQUAL_FATAL(F->n_sent, mark + 1); /* acknowledged, to its sender */
	CU_ASSERT_EQUAL(ibr_mad_method(F->sent[mark].mad), IBR_MAD_METHOD_REPORT_RESP);
	CU_ASSERT_EQUAL(F->sent[mark].to.lid, 12);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->reports_ignored, 5);
	CU_ASSERT_EQUAL(CB.reports, 0);
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_C));
	check_default_tables();
	stop();
}

/* An SA request other than a Report (a Get to our port) gets the default answer. */
static void test_other_sa_request(void)
{
	uint8_t *m = calloc(1, IBR_MAD_SIZE);
	struct mad_addr from = { .lid = 10, .qpn = 1, .local_qpn = 1 };
	size_t mark;

	start(false);
	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0x4242);
	mq_push(&F->rx, m, IBR_MAD_SIZE, &from);
	mark = F->n_sent;
	pump();
	CU_ASSERT_EQUAL_FATAL(F->n_sent, mark + 1);
	CU_ASSERT_EQUAL(ibr_mad_method(F->sent[mark].mad), IBR_MAD_METHOD_GET_RESP);
	CU_ASSERT_EQUAL(ibr_mad_status(F->sent[mark].mad), IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	CU_ASSERT_EQUAL(F->sent[mark].to.lid, 10);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->reports, 0);
	stop();
}

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

static void check_member_mad(long i, uint8_t method, uint64_t comp, const uint8_t *mgid,
			     uint8_t join, struct ibr_sa_mcm_rec *r)
{
	const struct sent *s;

	CU_ASSERT_FATAL(i >= 0);
	s = &F->sent[i];
	CU_ASSERT_EQUAL(ibr_mad_method(s->mad), method);
	CU_ASSERT_EQUAL(ibr_mad_attr_id(s->mad), IBR_SA_ATTR_MCMEMBER_RECORD);
	CU_ASSERT_EQUAL(ibr_sa_comp_mask(s->mad), comp);
	CU_ASSERT_EQUAL(ibr_sa_sm_key(s->mad), SA_KEY);
	CU_ASSERT_EQUAL(ibr_sa_attr_offset(s->mad), 7);
	CU_ASSERT_EQUAL(s->to.lid, F->sm_lid);
	CU_ASSERT_EQUAL(s->to.qpn, 1);
	ibr_sa_mcm_rec_decode(s->mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, r);
	CU_ASSERT_EQUAL(memcmp(r->mgid, mgid, 16), 0);
	CU_ASSERT_EQUAL(ibr_mad_ld64(r->port_gid), PREFIX);
	CU_ASSERT_EQUAL(ibr_mad_ld64(r->port_gid + 8), GUID_US);
	CU_ASSERT_EQUAL(r->join_state, join);
}

static void test_join_leave(void)
{
	struct sa_group tmpl = { .qkey = 0x1234,
				 .pkey = 0x8001,
				 .sl = 2,
				 .tclass = 0x40,
				 .flowlabel = 0x55,
				 .mtu = 5,
				 .rate = 6 };
	const struct sa_client_stats *st;
	struct ibr_sa_mcm_rec r;
	uint8_t mgid[16];
	struct fgroup *g;
	size_t mark;

	start(false);
	st = sa_client_stats(SC);
	/* a join that creates the group: the create components, our port GID */
	mgid_of(mgid, 5, 0x99);
	mark = F->n_sent;
	CU_ASSERT_EQUAL(sa_client_join(SC, mgid, IBR_SA_JOIN_FULL, &tmpl), 0);
	CU_ASSERT_EQUAL_FATAL(F->n_sent, mark + 1);
	check_member_mad((long)mark, IBR_MAD_METHOD_SET,
			 CREATE_COMP | IBR_SA_MCM_COMP_MTU_SEL | IBR_SA_MCM_COMP_MTU |
				 IBR_SA_MCM_COMP_RATE_SEL | IBR_SA_MCM_COMP_RATE,
			 mgid, IBR_SA_JOIN_FULL, &r);
	CU_ASSERT_EQUAL(r.qkey, 0x1234);
	CU_ASSERT_EQUAL(r.pkey, 0x8001);
	CU_ASSERT_EQUAL(r.sl, 2);
	CU_ASSERT_EQUAL(r.tclass, 0x40);
	CU_ASSERT_EQUAL(r.flowlabel, 0x55);
	CU_ASSERT_EQUAL(r.mtu_sel, 2);
	CU_ASSERT_EQUAL(r.mtu, 5);
	CU_ASSERT_EQUAL(r.rate_sel, 2);
	CU_ASSERT_EQUAL(r.rate, 6);
	CU_ASSERT_EQUAL(r.scope, 5);
	pump();
	g = fgroup_find(mgid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_PTR_NOT_NULL(fgroup_member(g, GUID_US));
	check_group(mgid, g->mlid, 0, false, false, true);
	CU_ASSERT_EQUAL(group(mgid)->qkey, 0x1234);
	CU_ASSERT_EQUAL(group(mgid)->mtu, 5);
	CU_ASSERT_EQUAL(n_groups(), 5);
	CU_ASSERT_EQUAL(CB.changed_g, 2);
	CU_ASSERT_EQUAL(st->joins, 1);
	/* joining a group that exists: the join components only; its members stay */
	mark = F->n_sent;
	CU_ASSERT_EQUAL(sa_client_join(SC, mgid_n(G_SEND), IBR_SA_JOIN_FULL, NULL), 0);
	check_member_mad((long)mark, IBR_MAD_METHOD_SET, JOIN_COMP, mgid_n(G_SEND),
			 IBR_SA_JOIN_FULL, &r);
	pump();
	check_group(mgid_n(G_SEND), 0xC001, 1, false, true, true);
	CU_ASSERT_EQUAL(CB.changed_g, 3);
	/* leave: Delete with the join components */
	mark = F->n_sent;
	CU_ASSERT_EQUAL(sa_client_leave(SC, mgid_n(G_BCAST), IBR_SA_JOIN_FULL), 0);
	CU_ASSERT_EQUAL_FATAL(F->n_sent, mark + 1);
	check_member_mad((long)mark, IBR_MAD_METHOD_DELETE, JOIN_COMP, mgid_n(G_BCAST),
			 IBR_SA_JOIN_FULL, &r);
	pump();
	CU_ASSERT_EQUAL(ibr_mad_method(F->sent[mark].mad), IBR_MAD_METHOD_DELETE);
	CU_ASSERT_PTR_NULL(fgroup_member(&F->grp[G_BCAST], GUID_US));
	check_group(mgid_n(G_BCAST), 0xC000, 2, true, true, false);
	CU_ASSERT_EQUAL(CB.changed_g, 4); /* the daemon must hear that we left */
	CU_ASSERT_EQUAL(st->leaves, 1);
	/* a join the SA refuses (a new group without its parameters): no group appears */
	mgid_of(mgid, 5, 0x9A);
	CU_ASSERT_EQUAL(sa_client_join(SC, mgid, IBR_SA_JOIN_FULL, NULL), 0);
	pump();
	CU_ASSERT_PTR_NULL(group(mgid));
	CU_ASSERT_EQUAL(CB.changed_g, 4);
	CU_ASSERT_EQUAL(st->joins, 3);
	/* a resync agrees with what the answers said */
	sa_client_resync(SC, "test");
	pump();
	check_group(mgid_n(G_SEND), 0xC001, 1, false, true, true);
	check_group(mgid_n(G_BCAST), 0xC000, 2, true, true, false);
	mgid_of(mgid, 5, 0x99);
	check_group(mgid, fgroup_find(mgid)->mlid, 0, false, false, true);
	stop();
}

/* A join answered while a sync runs whose group table was read before it: not lost. */
static void test_join_during_sync(void)
{
	struct sa_group tmpl = { .qkey = 0x1234, .pkey = 0xFFFF };
	uint8_t mgid[16];

	start(false);
	F->defer_attr = IBR_SA_ATTR_NODE_RECORD;
	sa_client_resync(SC, "test");
	pump(); /* the MCMemberRecord table is in, the NodeRecords are not */
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_SYNC);
	mgid_of(mgid, 5, 0x98);
	CU_ASSERT_EQUAL(sa_client_join(SC, mgid, IBR_SA_JOIN_FULL, &tmpl), 0);
	pump();
	CU_ASSERT_PTR_NOT_NULL(group(mgid));
	fake_release();
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_PTR_NOT_NULL_FATAL(group(mgid));
	CU_ASSERT(group(mgid)->ours);
	stop();
}

/* Free with requests in flight: the unsubscribe goes out; late answers find nothing. */
static void test_free_in_flight(void)
{
	struct ibr_sa_informinfo ii;
	uint8_t *m;
	size_t mark, q;
	long i;

	start(false);
	F->sa_down = true;
	sa_client_resync(SC, "test");
	q = F->n_sent - 1; /* one of the sync's queries */
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 4);
	mark = F->n_sent;
	sa_client_free(SC);
	SC = NULL;
	i = find_sent(mark, IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO);
	CU_ASSERT_FATAL(i >= 0);
	CU_ASSERT_EQUAL(F->n_sent, mark + 1);
	ibr_sa_informinfo_decode(F->sent[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &ii);
	CU_ASSERT_FALSE(ii.subscribe);
	CU_ASSERT(ii.is_generic);
	CU_ASSERT_EQUAL(ii.lid_begin, 0xFFFF);
	CU_ASSERT_EQUAL(ii.trap_num, 0xFFFF);
	CU_ASSERT_EQUAL(ii.type, 0xFFFF);
	CU_ASSERT_EQUAL(ii.producer, 0xFFFFFF);
	CU_ASSERT_EQUAL(ii.qpn, 1);
	CU_ASSERT_EQUAL(ibr_sa_sm_key(F->sent[i].mad), SA_KEY);
	CU_ASSERT_EQUAL(F->sent[i].to.lid, LID_SM);
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 1); /* the sync's queries are cancelled */
	/* a late answer to a cancelled query: unmatched */
	m = calloc(1, IBR_MAD_SIZE);
	ibr_mad_build_response(m, F->sent[q].mad, IBR_MAD_SIZE, 0);
	fake_push(m, IBR_MAD_SIZE, true, 0);
	pump();
	CU_ASSERT_EQUAL(mad_chan_stats(CH)->drop[MAD_CHAN_DROP_UNMATCHED], 1);
	/* a Report now meets the channel's default responder */
	mark = F->n_sent;
	inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_C, NULL, true);
	pump();
	CU_ASSERT_EQUAL_FATAL(F->n_sent, mark + 1);
	CU_ASSERT_EQUAL(ibr_mad_status(F->sent[mark].mad), IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	/* the SA answers the unsubscribe after the client is gone */
	F->sa_down = false;
	sa_answer(F->sent[i].mad);
	pump();
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 0);
	CU_ASSERT_FALSE(F->subscribed);
	CU_ASSERT_EQUAL(F->unsubscribes, 1);
	stop();
}

/* Free mid-walk with requests queued in the channel: none of them goes out any more. */
static void test_free_mid_walk(void)
{
	struct sa_client_config cfg = default_cfg();
	size_t mark;

	fake_new(true, 4, true);
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	F->sa_down = true;
	sa_client_resync(SC, "test");
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 4);
	CU_ASSERT(mad_chan_queued(CH) > 4);
	mark = F->n_sent;
	sa_client_free(SC);
	SC = NULL;
	/* the unsubscribe, and nothing of the walk */
	CU_ASSERT_EQUAL(count_sa_requests(mark), 1);
	CU_ASSERT_EQUAL(
		count_sent(mark, IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO),
		1);
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 1);
	CU_ASSERT_EQUAL(mad_chan_queued(CH), 0);
	stop(); /* the channel cancels the unsubscribe: its context freed (ASan) */
}

/*
 * The parting requests outlive the client: a leave and an announcement's
 * Delete the SA did not answer before the client was freed are sent again on
 * their timeouts as long as the channel lives (ibrouterd drains it at exit:
 * mad_chan_drain()).  The leave used to be cancelled with the client's other
 * requests: the router stayed a member until the SM swept it out.
 */
static void test_free_parting_retried(void)
{
	static const struct sa_route_ad ad = { 0xfec0000000000100ull, 56, 1 };

	start(false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fgroup_member(&F->grp[G_BCAST], GUID_US));
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, &ad, 1, 60), 0);
	pump();
	CU_ASSERT_EQUAL_FATAL(fsr_count(), 1);
	F->sa_down = true; /* sent, not answered */
	CU_ASSERT_EQUAL(sa_client_leave(SC, mgid_n(G_BCAST), IBR_SA_JOIN_FULL), 0);
	sa_client_free(SC);
	SC = NULL;
	pump();
	CU_ASSERT_PTR_NOT_NULL(fgroup_member(&F->grp[G_BCAST], GUID_US));
	CU_ASSERT_EQUAL(fsr_count(), 1);
	/* the leave, the Delete and the unsubscription, still in flight */
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 3);
	F->sa_down = false;
	run_ms(150);
	CU_ASSERT_PTR_NULL(fgroup_member(&F->grp[G_BCAST], GUID_US));
	CU_ASSERT_EQUAL(fsr_count(), 0);
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 0);
	stop();
}

/* Free before anything is known, or without a subscription: nothing to unsubscribe. */
static void test_free_unsubscribed(void)
{
	struct sa_client_config cfg = default_cfg();
	size_t mark;

	fake_new(false, 0, true);
	F->sma_down = true;
	client_new(&cfg);
	/* NodeInfo and PortInfo in flight */
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 2);
	mark = F->n_sent;
	sa_client_free(SC);
	SC = NULL;
	CU_ASSERT_EQUAL(F->n_sent, mark);
	CU_ASSERT_EQUAL(mad_chan_outstanding(CH), 0);
	stop();

	fake_new(false, 0, true);
	F->refuse_sub = true;
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_FALSE(sa_client_stats(SC)->subscribed);
	check_default_tables();
	mark = F->n_sent;
	sa_client_free(SC);
	SC = NULL;
	CU_ASSERT_EQUAL(F->n_sent, mark);
	stop();
}

static CU_TestInfo tests[] = {
	{ "first sync, whole tables: neighbours, LMCs, groups, stats", test_first_sync_tables },
	{ "first sync, PortInfo before NodeInfo", test_first_sync_guid_last },
	{ "first sync, tables far beyond one MAD", test_first_sync_big_tables },
	{ "first sync, PortInfoRecords answered before NodeRecords",
	  test_first_sync_pir_before_nr },
	{ "first sync, cut tables: LID and MLID walks", test_first_sync_cut },
	{ "switch port 0 with lmc_esp0: LMC from its PortInfoRecord", test_switch_lmc_esp0 },
	{ "walks cross a gap shorter than walk_gap only", test_walk_gap },
	{ "walks end at walk_max_lid / walk_max_mlids; default gap", test_walk_limits },
	{ "alias GUIDs from GUIDInfoRecords", test_alias_guids },
	{ "groups without sa_key: no member lists", test_groups_without_sa_key },
	{ "trap 65 removes the port, acknowledged", test_trap65_removes },
	{ "ReportResp echoes the Report", test_report_resp_bytes },
	{ "trap 64 queries the port and adds it", test_trap64_adds },
	{ "trap 64 of a switch: LMC 0", test_trap64_switch_lmc },
	{ "traps 66 and 67: groups added and removed", test_trap66_67_groups },
	{ "Reports ignored: vendor, other traps, other subnet", test_reports_ignored },
	{ "other SA requests: default responder", test_other_sa_request },
	{ "SM change: resync with the new SM", test_sm_change },
	{ "port not Active: down, then a sync", test_port_down_up },
	{ "port down mid-sync: late answers dropped", test_port_down_mid_sync },
	{ "SA timeouts: sync fails, backoff, retry", test_sa_timeouts_backoff },
	{ "SA silent from the start", test_sa_silent_from_start },
	{ "SA error status on a table: sync fails, tables kept", test_sa_error_status },
	{ "resync interval", test_resync_interval },
	{ "sa_client_resync(): now, after the current sync, or a poll", test_resync_now },
	{ "join and leave: MCMemberRecord Set/Delete", test_join_leave },
	{ "join answered during a sync", test_join_during_sync },
	{ "free with requests in flight: unsubscribe, no leaks", test_free_in_flight },
	{ "free mid-walk with queued requests", test_free_mid_walk },
	{ "free without a subscription", test_free_unsubscribed },
	{ "free: the leave, the Delete, the unsubscription retried", test_free_parting_retried },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_client", tests);
}
