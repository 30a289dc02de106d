/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* sa_fake.c - the fake subnet of the SA client's tests (sa_fake.h). */
#include "tests/unit/sa/sa_fake.h"

#include "lib/ibr_log.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fake *F;
struct mad_chan *CH;
struct sa_client *SC;
uint64_t now_ns;
struct fake_cb CB;
static uint64_t report_tid = 0x0000000100000000ull;

static uint64_t fake_clock(void *arg)
{
	(void)arg;
	return now_ns;
}

void mq_push(struct mq *q, uint8_t *mad, size_t len, const struct mad_addr *from)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 64;
		q->v = realloc(q->v, q->cap * sizeof(*q->v));
		CU_ASSERT_PTR_NOT_NULL_FATAL(q->v);
	}
	q->v[q->n++] = (struct rxmsg){ .mad = mad, .len = len, .from = *from };
}

static bool mq_pop(struct mq *q, struct rxmsg *out)
{
	if (q->head == q->n) {
		q->head = q->n = 0;
		return false;
	}
	*out = q->v[q->head++];
	return true;
}

static void mq_free(struct mq *q)
{
	struct rxmsg m;

	while (mq_pop(q, &m))
		free(m.mad);
	free(q->v);
	*q = (struct mq){ .n = 0 };
}

struct fport *fport_find(uint64_t guid)
{
	for (int i = 0; i < MAX_PORTS; i++)
		if (F->port[i].used && F->port[i].guid == guid)
			return &F->port[i];
	return NULL;
}

struct fport *fport_add(uint64_t guid, uint64_t node, uint16_t lid, uint8_t lmc, uint8_t type,
			uint8_t num, uint8_t nports)
{
	for (int i = 0; i < MAX_PORTS; i++) {
		if (F->port[i].used)
			continue;
		F->port[i] = (struct fport){ .used = true,
					     .guid = guid,
					     .node_guid = node,
					     .lid = lid,
					     .lmc = lmc,
					     .type = type,
					     .num = num,
					     .nports = nports };
		return &F->port[i];
	}
	CU_FAIL_FATAL("fake subnet full");
	return NULL;
}

void fport_del(uint64_t guid)
{
	struct fport *p = fport_find(guid);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p->used = false;
}

void mgid_of(uint8_t m[16], uint8_t scope, uint16_t id)
{
	memset(m, 0, 16);
	m[0] = 0xFF;
	m[1] = (uint8_t)(0x10 | scope);
	m[2] = 0x40;
	m[3] = 0x1B;
	m[14] = (uint8_t)(id >> 8);
	m[15] = (uint8_t)id;
}

struct fgroup *fgroup_find(const uint8_t mgid[16])
{
	for (int i = 0; i < MAX_GROUPS; i++)
		if (F->grp[i].used && !memcmp(F->grp[i].mgid, mgid, 16))
			return &F->grp[i];
	return NULL;
}

struct fgroup *fgroup_add(const uint8_t mgid[16], uint16_t mlid)
{
	for (int i = 0; i < MAX_GROUPS; i++) {
		struct fgroup *g = &F->grp[i];

		if (g->used)
			continue;
		*g = (struct fgroup){ .used = true,
				      .mlid = mlid,
				      .qkey = 0x0B1B,
				      .pkey = 0xFFFF,
				      .sl = 1,
				      .tclass = 0x20,
				      .mtu = 4,
				      .rate = 3,
				      .flow = 0x12345 };
		memcpy(g->mgid, mgid, 16);
		return g;
	}
	CU_FAIL_FATAL("fake group table full");
	return NULL;
}

void fgroup_join(struct fgroup *g, uint64_t guid, uint8_t join)
{
	for (unsigned int i = 0; i < g->nm; i++) {
		if (g->m[i].guid == guid) {
			g->m[i].join |= join;
			return;
		}
	}
	CU_ASSERT_FATAL(g->nm < MAX_MEMBERS);
	g->m[g->nm++] = (struct fmember){ .guid = guid, .join = join };
}

struct fmember *fgroup_member(struct fgroup *g, uint64_t guid)
{
	for (unsigned int i = 0; i < g->nm; i++)
		if (g->m[i].guid == guid)
			return &g->m[i];
	return NULL;
}

static uint16_t fgroup_free_mlid(void)
{
	for (uint16_t mlid = 0xC000;; mlid++) {
		bool busy = false;

		for (int i = 0; i < MAX_GROUPS; i++)
			busy |= F->grp[i].used && F->grp[i].mlid == mlid;
		if (!busy)
			return mlid;
	}
}

/*
 * The default subnet (LMC 1, as OpenSM gives every CA port; switch port 0
 * keeps LMC 0 without lmc_esp0):
 *   switch LID 1; HCA A LID 2 (the SM); HCA B ports 1 and 2, LIDs 4 and 6;
 *   the router port LID 8; HCA C LID 10.
 * Groups: broadcast (A, B1 and us full members), a send-only group (C),
 * a non-member group (B2) and a group of ours alone.
 */
static void fake_default_subnet(void)
{
	uint8_t mgid[16];
	struct fgroup *g;

	F->prefix = PREFIX;
	F->sm_lid = LID_SM;
	F->state = 4;
	fport_add(GUID_SW, GUID_SW, 1, 0, 2, 0, 8);
	fport_add(GUID_A, GUID_A - 1, 2, 1, 1, 1, 1);
	fport_add(GUID_B1, GUID_B1 - 1, 4, 1, 1, 1, 2);
	fport_add(GUID_B2, GUID_B1 - 1, 6, 1, 1, 2, 2);
	fport_add(GUID_US, GUID_US - 1, LID_US, 1, 3, 1, 1);
	fport_add(GUID_C, GUID_C - 1, 10, 1, 1, 1, 1);
	mgid_of(mgid, 2, 0xFFFF);
	g = fgroup_add(mgid, 0xC000);
	fgroup_join(g, GUID_A, IBR_SA_JOIN_FULL);
	fgroup_join(g, GUID_B1, IBR_SA_JOIN_FULL);
	fgroup_join(g, GUID_US, IBR_SA_JOIN_FULL);
	mgid_of(mgid, 5, 1);
	g = fgroup_add(mgid, 0xC001);
	fgroup_join(g, GUID_C, IBR_SA_JOIN_SEND_ONLY);
	mgid_of(mgid, 5, 2);
	g = fgroup_add(mgid, 0xC002);
	fgroup_join(g, GUID_B2, IBR_SA_JOIN_NON);
	mgid_of(mgid, 5, 3);
	g = fgroup_add(mgid, 0xC003);
	fgroup_join(g, GUID_US, IBR_SA_JOIN_FULL);
}

/* ---- the fake's answers ---- */

struct recs {
	uint8_t b[16384];
	unsigned int n;
	size_t stride;
};

static void recs_add(struct recs *r, const uint8_t *rec, size_t len)
{
	CU_ASSERT_FATAL((r->n + 1) * r->stride <= sizeof(r->b));
	memset(r->b + r->n * r->stride, 0, r->stride);
	memcpy(r->b + r->n * r->stride, rec, len);
	r->n++;
}

void fake_push(uint8_t *mad, size_t len, bool sa, uint16_t attr)
{
	struct mad_addr from = { .lid = sa ? F->sm_lid : 0xFFFF,
				 .local_lid = sa ? LID_US : 0xFFFF,
				 .qpn = sa ? 1 : 0,
				 .local_qpn = sa ? 1 : 0 };

	if ((sa && F->defer_attr && attr == F->defer_attr) ||
	    (!sa && F->defer_smp && attr == F->defer_smp))
		mq_push(&F->held, mad, len, &from);
	else
		mq_push(&F->rx, mad, len, &from);
}

/* Deliver the answers held back by defer_attr (after the others). */
void fake_release(void)
{
	struct rxmsg m;

	F->defer_attr = 0;
	F->defer_smp = 0;
	while (mq_pop(&F->held, &m))
		mq_push(&F->rx, m.mad, m.len, &m.from);
}

/*
 * An SA response to `req`: a Get answers its one record (0x0300 for none,
 * 0x0400 for several); a GetTable answers all of them, as one message
 * (kernel RMPP) or cut after its first MAD (umad2sim).
 */
static void sa_reply(const uint8_t *req, uint16_t status, const struct recs *r)
{
	bool table = ibr_mad_method(req) == IBR_MAD_METHOD_GET_TABLE;
	size_t len = IBR_MAD_SIZE, alloc;
	uint8_t *m;

	if (!table && !status && r && r->n == 0)
		status = IBR_SA_STATUS_NO_RECORDS;
	if (!table && !status && r && r->n > 1)
		status = IBR_SA_STATUS_TOO_MANY_RECORDS;
	if (table && !F->cut)
		len = IBR_SA_DATA_OFFS + (r ? r->n * r->stride : 0);
	alloc = len > IBR_MAD_SIZE ? len : IBR_MAD_SIZE;
	m = calloc(1, alloc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_FATAL(ibr_mad_build_response(m, req, IBR_MAD_SIZE, status) == 0);
	ibr_sa_set_sm_key(m, 0); /* C15-0.1.5 */
	memset(m + IBR_SA_DATA_OFFS, 0, alloc - IBR_SA_DATA_OFFS);
	if (r) {
		ibr_sa_set_attr_offset(m, (uint16_t)(r->stride / 8));
		if (!status && table)
			memcpy(m + IBR_SA_DATA_OFFS, r->b,
			       F->cut ? (IBR_SA_DATA_SIZE / r->stride) * r->stride
				      : r->n * r->stride);
		else if (!status && r->n == 1)
			memcpy(m + IBR_SA_DATA_OFFS, r->b, r->stride);
	}
	if (table && F->cut) {
		ibr_rmpp_set_version(m, 0); /* no RMPP layer ran (LAB.md) */
		ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE);
	} else if (table) {
		ibr_rmpp_set_version(m, IBR_RMPP_VERSION);
		ibr_rmpp_set_type(m, IBR_RMPP_TYPE_DATA);
		ibr_rmpp_set_flags(m,
				   IBR_RMPP_FLAG_ACTIVE | IBR_RMPP_FLAG_FIRST | IBR_RMPP_FLAG_LAST);
		ibr_rmpp_set_seg_num(m, 1);
		ibr_rmpp_set_data2(m, (uint32_t)(len - IBR_SA_DATA_OFFS + 20));
	}
	fake_push(m, len, true, ibr_mad_attr_id(req));
}

static bool lid_in(const struct fport *p, uint16_t lid)
{
	uint8_t lmc = p->type == 2 && !F->lmc_esp0 ? 0 : p->lmc;

	return lid >= p->lid && lid <= p->lid + (1u << lmc) - 1;
}

static void sa_node_records(const uint8_t *req)
{
	uint64_t comp = ibr_sa_comp_mask(req);
	struct ibr_sa_node_rec q;
	struct recs *r = calloc(1, sizeof(*r));

	r->stride = 112;
	ibr_sa_node_rec_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q);
	for (int i = 0; i < MAX_PORTS; i++) {
		const struct fport *p = &F->port[i];
		struct ibr_sa_node_rec nr = { .lid = p->lid,
					      .base_version = 1,
					      .class_version = 1,
					      .node_type = p->type,
					      .nports = p->nports,
					      .system_guid = p->node_guid,
					      .node_guid = p->node_guid,
					      .port_guid = p->guid,
					      .partition_cap = 1,
					      .device_id = 0x1234,
					      .local_port = p->num,
					      .vendor_id = 0x2c9 };
		uint8_t rec[IBR_SA_NODE_REC_LEN];

		if (!p->used || ((comp & IBR_SA_NR_COMP_LID) && !lid_in(p, q.lid)) ||
		    ((comp & (1ull << 7)) && p->node_guid != q.node_guid) ||
		    ((comp & (1ull << 8)) && p->guid != q.port_guid))
			continue;
		snprintf(nr.desc, sizeof(nr.desc), "node %016llx", (unsigned long long)p->guid);
		ibr_sa_node_rec_encode(&nr, rec);
		recs_add(r, rec, sizeof(rec));
	}
	sa_reply(req, 0, r);
	free(r);
}

static void pir_add(struct recs *r, const struct fport *p, uint8_t num, uint8_t lmc, uint16_t lid)
{
	struct ibr_sa_portinfo_rec pr = { .lid = p->lid,
					  .port_num = num,
					  .gid_prefix = F->prefix,
					  .base_lid = lid,
					  .sm_lid = F->sm_lid,
					  .cap_mask = 0x02010048,
					  .lmc = lmc,
					  .state = 4,
					  .phys_state = 5,
					  .mtu_cap = 4,
					  .neighbor_mtu = 4 };
	uint8_t rec[IBR_SA_PORTINFO_REC_LEN];

	ibr_sa_portinfo_rec_encode(&pr, rec);
	recs_add(r, rec, sizeof(rec));
}

/* PortInfoRecords: every port of every node; a switch's ports carry its LID. */
static void sa_pir_records(const uint8_t *req)
{
	uint64_t comp = ibr_sa_comp_mask(req);
	struct ibr_sa_portinfo_rec q;
	struct recs *r = calloc(1, sizeof(*r));

	r->stride = IBR_SA_PORTINFO_REC_LEN;
	ibr_sa_portinfo_rec_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q);
	for (int i = 0; i < MAX_PORTS; i++) {
		const struct fport *p = &F->port[i];

		if (!p->used || ((comp & IBR_SA_PIR_COMP_LID) && !lid_in(p, q.lid)))
			continue;
		if (p->type != 2) {
			if (!(comp & IBR_SA_PIR_COMP_PORT) || q.port_num == p->num)
				pir_add(r, p, p->num, p->lmc, p->lid);
			continue;
		}
		for (uint8_t n = 0; n <= 3; n++) /* port 0 and three external ports */
			if (!(comp & IBR_SA_PIR_COMP_PORT) || q.port_num == n)
				pir_add(r, p, n, n || !F->lmc_esp0 ? 0 : p->lmc, n ? 0 : p->lid);
	}
	sa_reply(req, 0, r);
	free(r);
}

/* GUIDInfoRecords: block 0 of every CA or router port (entry 0: its GUID), switch port 0. */
static void sa_gir_records(const uint8_t *req)
{
	uint64_t comp = ibr_sa_comp_mask(req);
	struct ibr_sa_guidinfo_rec q;
	struct recs *r = calloc(1, sizeof(*r));

	r->stride = IBR_SA_GUIDINFO_REC_LEN;
	ibr_sa_guidinfo_rec_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q);
	for (int i = 0; i < MAX_PORTS; i++) {
		const struct fport *p = &F->port[i];
		struct ibr_sa_guidinfo_rec g = { .lid = p->lid, .guid = { p->guid } };
		uint8_t rec[IBR_SA_GUIDINFO_REC_LEN];

		if (!p->used || ((comp & IBR_SA_GIR_COMP_LID) && !lid_in(p, q.lid)) ||
		    ((comp & IBR_SA_GIR_COMP_BLOCK) && q.block != 0))
			continue;
		g.guid[1] = p->alias[0];
		g.guid[2] = p->alias[1];
		ibr_sa_guidinfo_rec_encode(&g, rec);
		recs_add(r, rec, sizeof(rec));
	}
	sa_reply(req, 0, r);
	free(r);
}

static void mcm_rec_of(const struct fgroup *g, const struct fmember *m, uint8_t *rec)
{
	struct ibr_sa_mcm_rec r = { .qkey = g->qkey,
				    .mlid = g->mlid,
				    .mtu_sel = 2,
				    .mtu = g->mtu,
				    .tclass = g->tclass,
				    .pkey = g->pkey,
				    .rate_sel = 2,
				    .rate = g->rate,
				    .life_sel = 2,
				    .life = 18,
				    .sl = g->sl,
				    .flowlabel = g->flow,
				    .scope = g->mgid[1] & 0x0F,
				    .join_state = m ? m->join : 0 };

	memcpy(r.mgid, g->mgid, 16);
	if (m) {
		ibr_mad_st64(r.port_gid, F->prefix);
		ibr_mad_st64(r.port_gid + 8, m->guid);
	}
	ibr_sa_mcm_rec_encode(&r, rec);
}

static void sa_mcm_query(const uint8_t *req, const struct ibr_sa_mcm_rec *q)
{
	uint64_t comp = ibr_sa_comp_mask(req);
	bool trusted = ibr_sa_sm_key(req) != 0; /* OpenSM: member lists for a non-zero SM_Key */
	struct recs *r = calloc(1, sizeof(*r));
	uint8_t rec[IBR_SA_MCM_REC_LEN];

	r->stride = 56;
	for (int i = 0; i < MAX_GROUPS; i++) {
		struct fgroup *g = &F->grp[i];

		if (!g->used || ((comp & IBR_SA_MCM_COMP_MGID) && memcmp(g->mgid, q->mgid, 16)) ||
		    ((comp & IBR_SA_MCM_COMP_MLID) && g->mlid != q->mlid))
			continue;
		if (comp & IBR_SA_MCM_COMP_PORTGID) {
			struct fmember *m = fgroup_member(g, ibr_mad_ld64(q->port_gid + 8));

			if (m) {
				mcm_rec_of(g, trusted ? m : NULL, rec);
				recs_add(r, rec, sizeof(rec));
			}
		} else if (trusted) {
			for (unsigned int j = 0; j < g->nm; j++) {
				mcm_rec_of(g, &g->m[j], rec);
				recs_add(r, rec, sizeof(rec));
			}
		} else {
			mcm_rec_of(g, NULL, rec);
			recs_add(r, rec, sizeof(rec));
		}
	}
	sa_reply(req, 0, r);
	free(r);
}

/* Join (Set) and leave (Delete), as OpenSM 3.3.23 checks them. */
static void sa_mcm_member(const uint8_t *req, const struct ibr_sa_mcm_rec *q, bool join)
{
	uint64_t comp = ibr_sa_comp_mask(req);
	struct fgroup *g = fgroup_find(q->mgid);
	struct recs *r = calloc(1, sizeof(*r));
	uint64_t guid = ibr_mad_ld64(q->port_gid + 8);
	struct fmember *m, one;
	uint8_t rec[IBR_SA_MCM_REC_LEN];

	r->stride = 56;
	if ((comp & JOIN_COMP) != JOIN_COMP) {
		sa_reply(req, IBR_SA_STATUS_REQ_INSUFFICIENT_COMPONENTS, NULL);
		goto out;
	}
	if (ibr_mad_ld64(q->port_gid) != F->prefix || !fport_find(guid)) {
		sa_reply(req, IBR_SA_STATUS_REQ_INVALID, NULL);
		goto out;
	}
	if (join && !g) {
		if (!(q->join_state & (IBR_SA_JOIN_FULL | IBR_SA_JOIN_SEND_FULL))) {
			sa_reply(req, IBR_SA_STATUS_REQ_INVALID, NULL);
			goto out;
		}
		if ((comp & CREATE_COMP) != CREATE_COMP) {
			sa_reply(req, IBR_SA_STATUS_REQ_INSUFFICIENT_COMPONENTS, NULL);
			goto out;
		}
		g = fgroup_add(q->mgid, fgroup_free_mlid());
		g->qkey = q->qkey;
		g->pkey = q->pkey;
		g->sl = q->sl;
		g->tclass = q->tclass;
		g->flow = q->flowlabel;
		if (comp & IBR_SA_MCM_COMP_MTU)
			g->mtu = q->mtu;
		if (comp & IBR_SA_MCM_COMP_RATE)
			g->rate = q->rate;
	}
	if (!g || (!join && !(m = fgroup_member(g, guid)))) {
		sa_reply(req, IBR_SA_STATUS_REQ_INVALID, NULL);
		goto out;
	}
	if (join) {
		fgroup_join(g, guid, q->join_state);
		m = fgroup_member(g, guid);
		mcm_rec_of(g, m, rec);
	} else {
		one = (struct fmember){ .guid = guid, .join = q->join_state };
		mcm_rec_of(g, &one, rec);
		m->join &= (uint8_t)~q->join_state;
		if (!m->join)
			*m = g->m[--g->nm];
		if (!g->nm)
			g->used = false;
	}
	recs_add(r, rec, sizeof(rec));
	sa_reply(req, 0, r);
out:
	free(r);
}

/* The ServiceRecord of `rid`'s ID, GID and P_Key (OpenSM compares those 26 bytes), or -1. */
int fsr_find(const struct ibr_sa_service_rec *rid)
{
	for (int i = 0; i < MAX_SR; i++)
		if (F->sr_used[i] && F->sr[i].id == rid->id && F->sr[i].pkey == rid->pkey &&
		    !memcmp(F->sr[i].gid, rid->gid, 16))
			return i;
	return -1;
}

unsigned int fsr_count(void)
{
	unsigned int n = 0;

	for (int i = 0; i < MAX_SR; i++)
		n += F->sr_used[i];
	return n;
}

/*
 * Get by RID (ServiceID, ServiceGID, ServiceP_Key), as OpenSM answers it
 * (sr_rcv_process_get_method): the one record whose RID matches, or
 * NO_RECORDS; F->sr_get_busy answers every Get with that status instead.
 */
static void sa_service_get(const uint8_t *req)
{
	struct ibr_sa_service_rec q;
	struct recs *r;
	uint8_t rec[IBR_SA_SERVICE_REC_LEN];
	int i;

	F->sr_gets++;
	CU_ASSERT_EQUAL(ibr_sa_comp_mask(req) & IBR_SA_SR_COMP_RID, IBR_SA_SR_COMP_RID);
	if (F->sr_get_busy) {
		sa_reply(req, F->sr_get_busy, NULL);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(
		ibr_sa_service_rec_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q), 0);
	r = calloc(1, sizeof(*r));
	r->stride = IBR_SA_SERVICE_REC_LEN;
	if ((i = fsr_find(&q)) >= 0) {
		ibr_sa_service_rec_encode(&F->sr[i], rec);
		recs_add(r, rec, sizeof(rec));
	}
	sa_reply(req, 0, r);
	free(r);
}

/* Set: a new record or the old one replaced whole; Delete: NO_RECORDS when there is none. */
static void sa_service_record(const uint8_t *req, bool set)
{
	struct ibr_sa_service_rec q;
	struct recs *r;
	int i;

	CU_ASSERT_EQUAL_FATAL(
		ibr_sa_service_rec_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q), 0);
	/* OpenSM refuses a Set without ServiceID and ServiceGID (sr_rcv_process_set_method) */
	if (set && (ibr_sa_comp_mask(req) & (IBR_SA_SR_COMP_ID | IBR_SA_SR_COMP_GID)) !=
			   (IBR_SA_SR_COMP_ID | IBR_SA_SR_COMP_GID)) {
		sa_reply(req, IBR_SA_STATUS_REQ_INVALID, NULL);
		return;
	}
	if (set && F->sr_refuse) {
		sa_reply(req, IBR_SA_STATUS_REQ_DENIED, NULL);
		return;
	}
	i = fsr_find(&q);
	if (!set && i < 0) {
		sa_reply(req, IBR_SA_STATUS_NO_RECORDS, NULL);
		return;
	}
	if (set && i < 0)
		for (i = 0; i < MAX_SR && F->sr_used[i]; i++)
			;
	CU_ASSERT_FATAL(i < MAX_SR);
	F->sr_used[i] = set;
	if (set)
		F->sr[i] = q;
	r = calloc(1, sizeof(*r));
	r->stride = IBR_SA_SERVICE_REC_LEN;
	recs_add(r, req + IBR_SA_DATA_OFFS, IBR_SA_SERVICE_REC_LEN); /* echoed */
	sa_reply(req, 0, r);
	free(r);
}

void sa_answer(const uint8_t *req)
{
	uint8_t method = ibr_mad_method(req);
	uint16_t attr = ibr_mad_attr_id(req);
	struct ibr_sa_mcm_rec q;
	struct ibr_sa_informinfo ii;
	struct recs *r;

	F->sa_requests++;
	if (F->busy_attr && attr == F->busy_attr) {
		sa_reply(req, F->busy_status, NULL);
		return;
	}
	switch (attr) {
	case IBR_ATTR_CLASS_PORT_INFO: {
		struct ibr_sa_classportinfo cpi = {
			.base_version = 1, .class_version = 2, .cap_mask = 0x2602, .resp_time = 18
		};
		uint8_t rec[IBR_SA_CLASSPORTINFO_LEN];

		if (method != IBR_MAD_METHOD_GET)
			break;
		r = calloc(1, sizeof(*r));
		r->stride = IBR_SA_CLASSPORTINFO_LEN;
		ibr_sa_classportinfo_encode(&cpi, rec);
		recs_add(r, rec, sizeof(rec));
		sa_reply(req, 0, r);
		free(r);
		return;
	}
	case IBR_ATTR_INFORM_INFO:
		if (method != IBR_MAD_METHOD_SET)
			break;
		ibr_sa_informinfo_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &ii);
		r = calloc(1, sizeof(*r));
		r->stride = 40;
		recs_add(r, req + IBR_SA_DATA_OFFS, IBR_SA_INFORMINFO_LEN); /* echoed */
		if (ii.subscribe && F->refuse_sub) {
			sa_reply(req, IBR_SA_STATUS_REQ_DENIED, NULL);
		} else if (ii.subscribe) {
			F->subscribed = true;
			F->subscribes++;
			sa_reply(req, 0, r);
		} else if (!F->subscribed) {
			sa_reply(req, IBR_SA_STATUS_REQ_INVALID, NULL);
		} else {
			F->subscribed = false;
			F->unsubscribes++;
			sa_reply(req, 0, r);
		}
		free(r);
		return;
	case IBR_SA_ATTR_NODE_RECORD:
		if (method != IBR_MAD_METHOD_GET && method != IBR_MAD_METHOD_GET_TABLE)
			break;
		sa_node_records(req);
		return;
	case IBR_SA_ATTR_PORT_INFO_RECORD:
		if (method != IBR_MAD_METHOD_GET && method != IBR_MAD_METHOD_GET_TABLE)
			break;
		sa_pir_records(req);
		return;
	case IBR_SA_ATTR_GUID_INFO_RECORD:
		if (method != IBR_MAD_METHOD_GET && method != IBR_MAD_METHOD_GET_TABLE)
			break;
		sa_gir_records(req);
		return;
	case IBR_SA_ATTR_SERVICE_RECORD:
		if (method == IBR_MAD_METHOD_GET) {
			sa_service_get(req);
			return;
		}
		if (method != IBR_MAD_METHOD_SET && method != IBR_MAD_METHOD_DELETE)
			break;
		sa_service_record(req, method == IBR_MAD_METHOD_SET);
		return;
	case IBR_SA_ATTR_MCMEMBER_RECORD:
		ibr_sa_mcm_rec_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q);
		if (method == IBR_MAD_METHOD_GET || method == IBR_MAD_METHOD_GET_TABLE)
			sa_mcm_query(req, &q);
		else if (method == IBR_MAD_METHOD_SET || method == IBR_MAD_METHOD_DELETE)
			sa_mcm_member(req, &q, method == IBR_MAD_METHOD_SET);
		else
			break;
		return;
	}
	sa_reply(req, IBR_MAD_STATUS_UNSUP_METHOD_ATTR, NULL);
}

/* Our port's SMA: hop-0 directed-route Gets of NodeInfo and PortInfo. */
static void sma_answer(const uint8_t *req)
{
	const struct fport *us = fport_find(GUID_US);
	uint8_t *m = calloc(1, IBR_MAD_SIZE), *d = m + IBR_SMP_DATA_OFFS;

	CU_ASSERT_EQUAL(ibr_smp_dr_hop_count(req), 0);
	CU_ASSERT_EQUAL(ibr_smp_dr_slid(req), 0xFFFF);
	CU_ASSERT_EQUAL(ibr_smp_dr_dlid(req), 0xFFFF);
	CU_ASSERT_EQUAL(ibr_mad_method(req), IBR_MAD_METHOD_GET);
	ibr_mad_build_response(m, req, IBR_MAD_SIZE, 0);
	memset(d, 0, IBR_SMP_DATA_SIZE);
	if (ibr_mad_attr_id(req) == IBR_SMP_ATTR_NODE_INFO) {
		mad_set_field(d, 0, IB_NODE_BASE_VERS_F, 1);
		mad_set_field(d, 0, IB_NODE_CLASS_VERS_F, 1);
		mad_set_field(d, 0, IB_NODE_TYPE_F, 3);
		mad_set_field(d, 0, IB_NODE_NPORTS_F, 1);
		mad_set_field64(d, 0, IB_NODE_SYSTEM_GUID_F, us->node_guid);
		mad_set_field64(d, 0, IB_NODE_GUID_F, us->node_guid);
		mad_set_field64(d, 0, IB_NODE_PORT_GUID_F, us->guid);
		mad_set_field(d, 0, IB_NODE_PARTITION_CAP_F, 1);
		mad_set_field(d, 0, IB_NODE_LOCAL_PORT_F, 1);
	} else if (ibr_mad_attr_id(req) == IBR_SMP_ATTR_PORT_INFO) {
		struct ibr_sa_portinfo_rec pi = { .gid_prefix = F->prefix,
						  .base_lid = us->lid,
						  .sm_lid = F->sm_lid,
						  .lmc = us->lmc,
						  .state = F->state,
						  .phys_state = 5 };
		uint8_t rec[IBR_SA_PORTINFO_REC_LEN];

		ibr_sa_portinfo_rec_encode(&pi, rec);
		memcpy(d, rec + 4,
		       IBR_SMP_DATA_SIZE); /* PortInfo follows the record's 4-byte key */
	} else {
		ibr_smp_dr_set_status(m, IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	}
	fake_push(m, IBR_MAD_SIZE, false, ibr_mad_attr_id(req));
}

/* ---- the fake transport ---- */

static int f_get_fd(struct mad_transport *tp)
{
	return 42;
}

static int f_register(struct mad_transport *tp, uint8_t mgmt_class, uint8_t ver, bool rmpp)
{
	return 0;
}

static int f_send(struct mad_transport *tp, const uint8_t *mad, size_t len,
		  const struct mad_addr *to, uint32_t timeout_ms)
{
	struct sent *s;

	if (F->n_sent == F->cap_sent) {
		F->cap_sent = F->cap_sent ? F->cap_sent * 2 : 256;
		F->sent = realloc(F->sent, F->cap_sent * sizeof(*F->sent));
		CU_ASSERT_PTR_NOT_NULL_FATAL(F->sent);
	}
	s = &F->sent[F->n_sent++];
	memset(s, 0, sizeof(*s));
	memcpy(s->mad, mad, len < IBR_MAD_SIZE ? len : IBR_MAD_SIZE);
	s->len = len;
	s->to = *to;
	s->timeout_ms = timeout_ms;
	CU_ASSERT_EQUAL(len, IBR_MAD_SIZE);
	if (ibr_mad_is_response(mad))
		return 0; /* ReportResp, default replies: only recorded */
	if (ibr_mad_mgmt_class(mad) == IBR_MGMT_CLASS_SUBN_DR && to->lid == 0xFFFF &&
	    to->qpn == 0) {
		if (!F->sma_down)
			sma_answer(mad);
	} else if (ibr_mad_mgmt_class(mad) == IBR_MGMT_CLASS_SUBN_ADM && to->qpn == 1 &&
		   to->qkey == MAD_QP1_QKEY && to->lid == F->sm_lid) {
		if (!F->sa_down)
			sa_answer(mad);
	}
	return 0;
}

static ssize_t f_recv(struct mad_transport *tp, const uint8_t **mad, struct mad_addr *from)
{
	struct rxmsg m;

	free(F->cur);
	F->cur = NULL;
	if (!mq_pop(&F->rx, &m))
		return 0;
	F->cur = m.mad;
	*mad = m.mad;
	*from = m.from;
	return (ssize_t)m.len;
}

static int f_set_issm(struct mad_transport *tp, bool on)
{
	return 0;
}

static void f_close(struct mad_transport *tp)
{
	((struct fake *)tp)->closed = true;
}

static const struct mad_transport_ops ops_rmpp = {
	.name = "fake-kernel-rmpp",
	.flags = MAD_TP_RMPP,
	.get_fd = f_get_fd,
	.register_class = f_register,
	.send = f_send,
	.recv = f_recv,
	.set_issm = f_set_issm,
	.close = f_close,
};

static const struct mad_transport_ops ops_cut = {
	.name = "fake-umad2sim",
	.get_fd = f_get_fd,
	.register_class = f_register,
	.send = f_send,
	.recv = f_recv,
	.set_issm = f_set_issm,
	.close = f_close,
};

/* ---- the client under test ---- */

void cb_port(void *arg, const struct sa_port_state *ps)
{
	CB.port++;
	CB.ps = *ps;
}

void cb_changed(void *arg, bool neighs, bool groups)
{
	CB.changed++;
	CB.changed_n += neighs;
	CB.changed_g += groups;
}

void cb_report(void *arg, uint16_t trap, const uint8_t gid[16])
{
	CB.reports++;
	CB.trap = trap;
	memcpy(CB.gid, gid, 16);
}

static const struct sa_client_ops cb_ops = {
	.port = cb_port,
	.changed = cb_changed,
	.report = cb_report,
};

static void log_quiet(int pri, const char *msg)
{
	if (getenv("SA_TEST_VERBOSE"))
		fprintf(stderr, "%s\n", msg);
}

struct sa_client_config default_cfg(void)
{
	return (struct sa_client_config){ .name = "t",
					  .sm_key = SA_KEY,
					  .poll_ms = 1000,
					  .backoff_ms = 2000,
					  .walk_gap = 8,
					  .clock = fake_clock };
}

/* Answer everything the transport has, including what the answers cause. */
void pump(void)
{
	for (int guard = 0; F->rx.head < F->rx.n; guard++) {
		CU_ASSERT_FATAL(guard < 100000);
		mad_chan_process(CH, 0);
	}
}

/* Run the clock to `t`, stopping at every deadline of the channel and the client. */
void run_until(uint64_t t)
{
	pump();
	for (int guard = 0;; guard++) {
		uint64_t d = mad_chan_next_deadline(CH);
		uint64_t s = SC ? sa_client_next_deadline(SC) : UINT64_MAX;

		if (s < d)
			d = s;
		if (d > t)
			break;
		CU_ASSERT_FATAL(guard < 100000); /* a deadline that never moves on */
		if (d > now_ns)
			now_ns = d;
		mad_chan_tick(CH, now_ns);
		if (SC)
			sa_client_tick(SC, now_ns);
		pump();
	}
	now_ns = t;
}

void run_ms(uint64_t ms)
{
	run_until(now_ns + ms * MS);
}

/* The fake subnet (the default one when `subnet`) and a channel on it. */
void fake_new(bool cut, unsigned int max_out, bool subnet)
{
	struct mad_chan_config cc = { .name = "t",
				      .chan_id = 0x11,
				      .max_outstanding = max_out,
				      .timeout_ms = 100,
				      .max_timeout_ms = 1000,
				      .retries = 2,
				      .clock = fake_clock };

	log_set_sink(log_quiet);
	memset(&CB, 0, sizeof(CB));
	now_ns = T0;
	F = calloc(1, sizeof(*F));
	CU_ASSERT_PTR_NOT_NULL_FATAL(F);
	F->base.ops = cut ? &ops_cut : &ops_rmpp;
	F->cut = cut;
	if (subnet)
		fake_default_subnet();
	CH = mad_chan_create(&F->base, &cc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(CH);
}

/* The client: it polls its port at once (answered at the next pump()). */
void client_new(const struct sa_client_config *cfg)
{
	SC = sa_client_new(CH, cfg, &cb_ops, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(SC);
}

/* A client on the default subnet after its first sync (answered at T0). */
void start(bool cut)
{
	struct sa_client_config cfg = default_cfg();

	fake_new(cut, 0, true);
	client_new(&cfg);
	pump();
}

void stop(void)
{
	sa_client_free(SC);
	SC = NULL;
	pump();
	mad_chan_destroy(CH);
	CH = NULL;
	CU_ASSERT(F->closed);
	free(F->cur);
	mq_free(&F->rx);
	mq_free(&F->held);
	free(F->sent);
	free(F);
	F = NULL;
}

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
