/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client_trap_test.c - the SA client (sa/sa_client.c, sa/sa_sync.c)
 * against the fake subnet of sa_fake.h: traps 64-67 and their ReportResps,
 * the Reports it ignores, and the default answer to other SA requests.
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
static CU_TestInfo tests[] = {
	{ "trap 65 removes the port, acknowledged", test_trap65_removes },
	{ "ReportResp echoes the Report", test_report_resp_bytes },
	{ "trap 64 queries the port and adds it", test_trap64_adds },
	{ "trap 64 of a switch: LMC 0", test_trap64_switch_lmc },
	{ "traps 66 and 67: groups added and removed", test_trap66_67_groups },
	{ "Reports ignored: vendor, other traps, other subnet", test_reports_ignored },
	{ "other SA requests: default responder", test_other_sa_request },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_client_trap", tests);
}
