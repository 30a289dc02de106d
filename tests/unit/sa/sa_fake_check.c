/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_fake_check.c - what the SA client's tests look at and inject on the
 * fake subnet (sa_fake.h): the MADs the client sent, the tables it knows,
 * Reports from the SM and the ReportResps that acknowledge them.
 */
#include "tests/unit/sa/sa_fake.h"

#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>

/* ---- what the client sent ---- */

static bool sent_is(const struct sent *s, uint8_t cls, uint8_t method, uint16_t attr)
{
	return ibr_mad_mgmt_class(s->mad) == cls && ibr_mad_method(s->mad) == method &&
	       ibr_mad_attr_id(s->mad) == attr;
}

/* Index of the first MAD sent from `from` on with class, method and attribute; -1 none. */
long find_sent(size_t from, uint8_t cls, uint8_t method, uint16_t attr)
{
	for (size_t i = from; i < F->n_sent; i++)
		if (sent_is(&F->sent[i], cls, method, attr))
			return (long)i;
	return -1;
}

unsigned int count_sent(size_t from, uint8_t cls, uint8_t method, uint16_t attr)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += sent_is(&F->sent[i], cls, method, attr);
	return n;
}

/* SA requests sent from `from` on: method, attribute and component mask. */
unsigned int count_sa(size_t from, uint8_t method, uint16_t attr, uint64_t comp)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += sent_is(&F->sent[i], IBR_MGMT_CLASS_SUBN_ADM, method, attr) &&
		     ibr_sa_comp_mask(F->sent[i].mad) == comp;
	return n;
}

/* MADs sent from `from` on with TID `tid`. */
unsigned int count_tid(size_t from, uint64_t tid)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += ibr_mad_tid(F->sent[i].mad) == tid;
	return n;
}

/* SA requests (not responses) sent from `from` on. */
unsigned int count_sa_requests(size_t from)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += ibr_mad_mgmt_class(F->sent[i].mad) == IBR_MGMT_CLASS_SUBN_ADM &&
		     !ibr_mad_is_response(F->sent[i].mad);
	return n;
}

/* How many NodeRecord Gets asked for `lid`, and the highest LID asked. */
unsigned int nr_gets(uint16_t lid, uint16_t *max)
{
	unsigned int n = 0;

	*max = 0;
	for (size_t i = 0; i < F->n_sent; i++) {
		struct ibr_sa_node_rec nr;

		if (!sent_is(&F->sent[i], IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_GET,
			     IBR_SA_ATTR_NODE_RECORD))
			continue;
		ibr_sa_node_rec_decode(F->sent[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &nr);
		CU_ASSERT_EQUAL(ibr_sa_comp_mask(F->sent[i].mad), IBR_SA_NR_COMP_LID);
		n += nr.lid == lid;
		if (nr.lid > *max)
			*max = nr.lid;
	}
	return n;
}

/* The same for MCMemberRecord GetTables by MLID. */
unsigned int mlid_gets(uint16_t mlid, uint16_t *max)
{
	unsigned int n = 0;

	*max = 0;
	for (size_t i = 0; i < F->n_sent; i++) {
		struct ibr_sa_mcm_rec r;

		if (!sent_is(&F->sent[i], IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_GET_TABLE,
			     IBR_SA_ATTR_MCMEMBER_RECORD) ||
		    ibr_sa_comp_mask(F->sent[i].mad) != IBR_SA_MCM_COMP_MLID)
			continue;
		ibr_sa_mcm_rec_decode(F->sent[i].mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &r);
		n += r.mlid == mlid;
		if (r.mlid > *max)
			*max = r.mlid;
	}
	return n;
}

/* ---- what the client knows ---- */

const struct sa_neigh *neigh(uint64_t guid)
{
	const struct sa_neigh *v;
	size_t n = sa_client_neighs(SC, &v);

	for (size_t i = 0; i < n; i++)
		if (v[i].guid == guid)
			return &v[i];
	return NULL;
}

size_t n_neighs(void)
{
	const struct sa_neigh *v;

	return sa_client_neighs(SC, &v);
}

const struct sa_group *group(const uint8_t mgid[16])
{
	const struct sa_group *v;
	size_t n = sa_client_groups(SC, &v);

	for (size_t i = 0; i < n; i++)
		if (!memcmp(v[i].mgid, mgid, 16))
			return &v[i];
	return NULL;
}

size_t n_groups(void)
{
	const struct sa_group *v;

	return sa_client_groups(SC, &v);
}

const uint8_t *mgid_n(int i)
{
	return F->grp[i].mgid;
}

void check_neigh(uint64_t guid, uint16_t lid, uint8_t lmc, uint8_t type, uint8_t num)
{
	const struct sa_neigh *n = neigh(guid);

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_EQUAL(n->lid, lid);
	CU_ASSERT_EQUAL(n->lmc, lmc);
	CU_ASSERT_EQUAL(n->node_type, type);
	CU_ASSERT_EQUAL(n->port_num, num);
}

void check_group(const uint8_t *mgid, uint16_t mlid, unsigned int members, bool receivers,
		 bool senders, bool ours)
{
	const struct sa_group *g = group(mgid);

	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->mlid, mlid);
	CU_ASSERT_EQUAL(g->members, members);
	CU_ASSERT_EQUAL(g->receivers, receivers);
	CU_ASSERT_EQUAL(g->senders, senders);
	CU_ASSERT_EQUAL(g->ours, ours);
}

/* The default subnet as the client must know it, whichever way it learned it. */
void check_default_tables(void)
{
	const struct sa_group *g;

	CU_ASSERT_EQUAL(n_neighs(), 5);
	CU_ASSERT_PTR_NULL(neigh(GUID_US));
	check_neigh(GUID_SW, 1, 0, 2, 0); /* switch port 0: LMC 0 from its PortInfoRecord */
	check_neigh(GUID_A, 2, 1, 1, 1);
	check_neigh(GUID_B1, 4, 1, 1, 1);
	check_neigh(GUID_B2, 6, 1, 1, 2);
	check_neigh(GUID_C, 10, 1, 1, 1);
	CU_ASSERT_EQUAL(n_groups(), 4);
	check_group(mgid_n(G_BCAST), 0xC000, 2, true, true, true);
	check_group(mgid_n(G_SEND), 0xC001, 1, false, true, false);
	check_group(mgid_n(G_NON), 0xC002, 1, true, true, false);
	check_group(mgid_n(G_OURS), 0xC003, 0, false, false, true);
	g = group(mgid_n(G_BCAST));
	CU_ASSERT_EQUAL(g->qkey, 0x0B1B);
	CU_ASSERT_EQUAL(g->pkey, 0xFFFF);
	CU_ASSERT_EQUAL(g->sl, 1);
	CU_ASSERT_EQUAL(g->tclass, 0x20);
	CU_ASSERT_EQUAL(g->mtu, 4);
	CU_ASSERT_EQUAL(g->rate, 3);
	CU_ASSERT_EQUAL(g->flowlabel, 0x12345);
	CU_ASSERT_EQUAL(g->scope, 2);
	CU_ASSERT_EQUAL(group(mgid_n(G_SEND))->scope, 5);
}

/* ---- reports ---- */

static uint64_t report_tid = 0x0000000100000000ull;

/* OpenSM's Report(Notice) of trap `trap` about `gid`; returns its TID. */
uint64_t inject_report_from(uint16_t lid, uint16_t trap, uint64_t prefix, uint64_t guid_or_0,
			    const uint8_t *mgid, bool generic)
{
	uint8_t *m = calloc(1, IBR_MAD_SIZE);
	struct ibr_sa_notice n = { .is_generic = generic,
				   .type = 4,	  /* informational */
				   .producer = 4, /* class manager (the SM) */
				   .trap_num = trap,
				   .issuer_lid = F->sm_lid };
	struct mad_addr from = { .lid = lid, .local_lid = LID_US, .qpn = 1, .local_qpn = 1 };

	report_tid++;
	ibr_mad_build_report(m, IBR_MGMT_CLASS_SUBN_ADM, IBR_ATTR_NOTICE, report_tid);
	if (mgid) {
		memcpy(n.details + 6, mgid, 16);
	} else {
		ibr_mad_st64(n.details + 6, prefix);
		ibr_mad_st64(n.details + 14, guid_or_0);
	}
	ibr_mad_st64(n.issuer_gid, PREFIX);
	ibr_mad_st64(n.issuer_gid + 8, GUID_A);
	ibr_sa_notice_encode(&n, m + IBR_SA_DATA_OFFS);
	mq_push(&F->rx, m, IBR_MAD_SIZE, &from);
	return report_tid;
}

/* A Report from the SM, as OpenSM sends them. */
uint64_t inject_report(uint16_t trap, uint64_t prefix, uint64_t guid_or_0, const uint8_t *mgid,
		       bool generic)
{
	return inject_report_from(F->sm_lid, trap, prefix, guid_or_0, mgid, generic);
}

/* The ReportResp at sent[i] acknowledges the Report `tid` (13.4.6.1), echoing it. */
void check_report_resp(long i, uint64_t tid)
{
	const struct sent *s;

	CU_ASSERT_FATAL(i >= 0);
	s = &F->sent[i];
	CU_ASSERT_EQUAL(s->len, IBR_MAD_SIZE);
	CU_ASSERT_EQUAL(ibr_mad_base_version(s->mad), 1);
	CU_ASSERT_EQUAL(ibr_mad_mgmt_class(s->mad), IBR_MGMT_CLASS_SUBN_ADM);
	CU_ASSERT_EQUAL(ibr_mad_class_version(s->mad), IBR_SA_CLASS_VERSION);
	CU_ASSERT_EQUAL(ibr_mad_method(s->mad), IBR_MAD_METHOD_REPORT_RESP);
	CU_ASSERT_EQUAL(ibr_mad_status(s->mad), 0);
	CU_ASSERT_EQUAL(ibr_mad_tid(s->mad), tid);
	CU_ASSERT_EQUAL(ibr_mad_attr_id(s->mad), IBR_ATTR_NOTICE);
	CU_ASSERT_EQUAL(ibr_mad_attr_mod(s->mad), 0);
	CU_ASSERT_EQUAL(ibr_rmpp_flags(s->mad), 0);
	CU_ASSERT_EQUAL(s->to.lid, F->sm_lid);
	CU_ASSERT_EQUAL(s->to.qpn, 1);
	CU_ASSERT_EQUAL(s->to.qkey, MAD_QP1_QKEY);
	CU_ASSERT_EQUAL(s->timeout_ms, 0);
}
