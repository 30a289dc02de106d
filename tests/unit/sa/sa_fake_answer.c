/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_fake_answer.c - the fake subnet's answers (sa_fake.h): the SA's, as
 * OpenSM 3.3.23 gives them (ClassPortInfo, InformInfo, NodeRecord,
 * PortInfoRecord, GUIDInfoRecord, MCMemberRecord, ServiceRecord), whole or
 * cut after one MAD, and those of the router port's own SMA.
 */
#include "tests/unit/sa/sa_fake.h"

#include "tests/unit/ibr_test.h"

#include <infiniband/mad.h>
#include <stdlib.h>
#include <string.h>

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
	/* RMPP on the wire: the whole answer, as segments (one for a short one) */
	if (table && F->wire) {
		m = calloc(1, len > IBR_MAD_SIZE ? len : IBR_MAD_SIZE);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_FATAL(ibr_mad_build_response(m, req, IBR_MAD_SIZE, status) == 0);
		ibr_sa_set_sm_key(m, 0);
		memset(m + IBR_SA_DATA_OFFS, 0,
		       (len > IBR_MAD_SIZE ? len : IBR_MAD_SIZE) - IBR_SA_DATA_OFFS);
		if (r) {
			ibr_sa_set_attr_offset(m, (uint16_t)(r->stride / 8));
			if (!status)
				memcpy(m + IBR_SA_DATA_OFFS, r->b, r->n * r->stride);
		}
		fake_rmpp_send(m, len);
		return;
	}
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

/*
 * GetTable (sr_rcv_process_get_method, get_matching_sr): every record whose
 * ServiceID, ServiceGID, ServiceP_Key and ServiceName (all 64 bytes) match
 * where the component mask says so; F->sr_table_busy answers with that
 * status instead.  No records: an empty table, status 0.
 */
static void sa_service_table(const uint8_t *req)
{
	uint64_t comp = ibr_sa_comp_mask(req);
	struct ibr_sa_service_rec q;
	struct recs *r;
	uint8_t qname[IBR_SA_SERVICE_REC_LEN];

	F->sr_tables++;
	if (F->sr_table_busy) {
		sa_reply(req, F->sr_table_busy, NULL);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(
		ibr_sa_service_rec_decode(req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &q), 0);
	memcpy(qname, req + IBR_SA_DATA_OFFS, sizeof(qname));
	r = calloc(1, sizeof(*r));
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	r->stride = IBR_SA_SERVICE_REC_LEN;
	for (int i = 0; i < MAX_SR; i++) {
		const struct ibr_sa_service_rec *s = &F->sr[i];
		uint8_t rec[IBR_SA_SERVICE_REC_LEN];

		if (!F->sr_used[i])
			continue;
		ibr_sa_service_rec_encode(s, rec);
		if (!F->sr_table_all &&
		    (((comp & IBR_SA_SR_COMP_ID) && s->id != q.id) ||
		     ((comp & IBR_SA_SR_COMP_GID) && memcmp(s->gid, q.gid, 16)) ||
		     ((comp & IBR_SA_SR_COMP_PKEY) && s->pkey != q.pkey) ||
		     /* the name's 64 bytes as OpenSM compares them: record bytes 48..111 */
		     ((comp & IBR_SA_SR_COMP_NAME) && memcmp(rec + 48, qname + 48, 64))))
			continue;
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
	if (set)
		F->sr_set_mask = ibr_sa_comp_mask(req);
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
		if (method == IBR_MAD_METHOD_GET_TABLE) {
			sa_service_table(req);
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
void sma_answer(const uint8_t *req)
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
		mad_set_field(d, 0, IB_NODE_TYPE_F, us->type); /* 3, or 1 on an HCA */
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
