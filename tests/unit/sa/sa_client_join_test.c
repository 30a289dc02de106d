/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client_join_test.c - the SA client (sa/sa_client.c, sa/sa_sync.c)
 * against the fake subnet of sa_fake.h: joins and leaves (MCMemberRecord
 * Set and Delete), and freeing it with requests in flight: what it sends
 * on parting, what it no longer sends.
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
	return ibr_test_run("sa_client_join", tests);
}
