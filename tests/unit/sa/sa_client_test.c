/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client_test.c - the SA client (sa/sa_client.c, sa/sa_sync.c) against a
 * fake subnet: a fake transport under a real struct mad_chan (so that TID
 * matching, retries and timeouts are the channel's own) and a fake clock.
 *
 * The fake answers as the router port's own SMA (hop-0 directed-route
 * NodeInfo and PortInfo) and as OpenSM 3.3.23's SA would: ClassPortInfo Get,
 * InformInfo Set (echoed), NodeRecord, PortInfoRecord and GUIDInfoRecord
 * Get/GetTable (LIDs matched over the port's LMC range, switches by port 0),
 * MCMemberRecord
 * Get/GetTable (member lists only for a non-zero SM_Key), Set (join, creating
 * a group only with the create components) and Delete (leave), status 0x0300
 * for a Get that matches nothing.  Two modes: kernel RMPP (the transport is
 * flagged MAD_TP_RMPP and hands over a GetTable response as one reassembled
 * message of any length) and umad2sim (every GetTable response cut after its
 * first MAD, with RMPP Active, RMPPVersion 0, neither First nor Last: LAB.md).
 */
#include "sa/mad_chan.h"
#include "sa/sa_client.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS  1000000ull
#define T0  (1000 * MS)
#define SEC (1000 * MS)

#define PREFIX	 0xfec0000000000001ull
#define PREFIX_B 0xfec0000000000002ull /* another subnet's */
#define SA_KEY	 1ull		       /* OpenSM's default sa_key */

#define GUID_SW	 0x0002c90000000100ull
#define GUID_A	 0x0002c90000000201ull /* hosts the SM */
#define GUID_B1	 0x0002c90000000301ull
#define GUID_B2	 0x0002c90000000302ull
#define GUID_US	 0x0002c90000000401ull /* the router port */
#define GUID_C	 0x0002c90000000501ull
#define GUID_D	 0x0002c90000000601ull
#define GUID_E	 0x0002c90000000701ull
#define GUID_S2	 0x0002c90000000800ull /* a second switch */
#define ALIAS_C1 0x0002c90000050001ull /* alias GUIDs */
#define ALIAS_C2 0x0002c90000050002ull
#define ALIAS_US 0x0002c90000040001ull

#define LID_SM 2
#define LID_US 8

#define MAX_PORTS   32
#define MAX_GROUPS  16
#define MAX_MEMBERS 8

enum { G_BCAST, G_SEND, G_NON, G_OURS };

#define MAX_SR 64

/* ---- the fake subnet ---- */

struct fport {
	bool used;
	uint64_t guid, node_guid;
	uint16_t lid;
	uint8_t lmc, type, num, nports;
	uint64_t alias[2]; /* alias GUIDs (GUIDInfo entries 1 and 2) */
};

struct fmember {
	uint64_t guid;
	uint8_t join;
};

struct fgroup {
	bool used;
	uint8_t mgid[16];
	uint16_t mlid;
	uint32_t qkey;
	uint16_t pkey;
	uint8_t sl, tclass, mtu, rate;
	uint32_t flow;
	struct fmember m[MAX_MEMBERS];
	unsigned int nm;
};

struct sent {
	uint8_t mad[IBR_MAD_SIZE];
	size_t len;
	struct mad_addr to;
	uint32_t timeout_ms;
};

struct rxmsg {
	uint8_t *mad;
	size_t len;
	struct mad_addr from;
};

struct mq {
	struct rxmsg *v;
	size_t head, n, cap;
};

struct fake {
	struct mad_transport base;
	struct fport port[MAX_PORTS];
	struct fgroup grp[MAX_GROUPS];
	uint64_t prefix;
	uint16_t sm_lid;
	uint8_t state; /* our PortState */
	bool cut;      /* umad2sim: GetTable responses cut after their first MAD */
	bool sa_down, sma_down;
	uint16_t defer_attr; /* SA answers of this attribute wait for fake_release() */
	uint16_t defer_smp;  /* and SMA answers of this one */
	bool refuse_sub;
	bool lmc_esp0;	    /* OpenSM's lmc_esp0: switch port 0 gets the LMC too */
	uint16_t busy_attr; /* SA requests of this attribute get status busy_status */
	uint16_t busy_status;
	bool subscribed;
	unsigned int subscribes, unsubscribes, sa_requests;
	/* ServiceRecords, as OpenSM keeps them: one per RID (ID, GID, P_Key) */
	struct ibr_sa_service_rec sr[MAX_SR];
	bool sr_used[MAX_SR];
	bool sr_refuse;	      /* Sets answered ERR_REQ_DENIED */
	uint16_t sr_get_busy; /* Gets answered with this status */
	unsigned int sr_gets;
	struct sent *sent;
	size_t n_sent, cap_sent;
	struct mq rx, held;
	uint8_t *cur; /* handed out by recv, freed at the next call */
	bool closed;
};

static struct fake *F;
static struct mad_chan *CH;
static struct sa_client *SC;
static uint64_t now_ns;
static uint64_t report_tid = 0x0000000100000000ull;

static struct {
	unsigned int port, changed, changed_n, changed_g, reports;
	struct sa_port_state ps;
	uint16_t trap;
	uint8_t gid[16];
} CB;

static uint64_t fake_clock(void *arg)
{
	(void)arg;
	return now_ns;
}

static void mq_push(struct mq *q, uint8_t *mad, size_t len, const struct mad_addr *from)
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

static struct fport *fport_find(uint64_t guid)
{
	for (int i = 0; i < MAX_PORTS; i++)
		if (F->port[i].used && F->port[i].guid == guid)
			return &F->port[i];
	return NULL;
}

static struct fport *fport_add(uint64_t guid, uint64_t node, uint16_t lid, uint8_t lmc,
			       uint8_t type, uint8_t num, uint8_t nports)
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

static void fport_del(uint64_t guid)
{
	struct fport *p = fport_find(guid);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p->used = false;
}

static void mgid_of(uint8_t m[16], uint8_t scope, uint16_t id)
{
	memset(m, 0, 16);
	m[0] = 0xFF;
	m[1] = (uint8_t)(0x10 | scope);
	m[2] = 0x40;
	m[3] = 0x1B;
	m[14] = (uint8_t)(id >> 8);
	m[15] = (uint8_t)id;
}

static struct fgroup *fgroup_find(const uint8_t mgid[16])
{
	for (int i = 0; i < MAX_GROUPS; i++)
		if (F->grp[i].used && !memcmp(F->grp[i].mgid, mgid, 16))
			return &F->grp[i];
	return NULL;
}

static struct fgroup *fgroup_add(const uint8_t mgid[16], uint16_t mlid)
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

static void fgroup_join(struct fgroup *g, uint64_t guid, uint8_t join)
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

static struct fmember *fgroup_member(struct fgroup *g, uint64_t guid)
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

static void fake_push(uint8_t *mad, size_t len, bool sa, uint16_t attr)
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
static void fake_release(void)
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

#define JOIN_COMP (IBR_SA_MCM_COMP_MGID | IBR_SA_MCM_COMP_PORTGID | IBR_SA_MCM_COMP_JOINSTATE)
#define CREATE_COMP                                                                     \
	(JOIN_COMP | IBR_SA_MCM_COMP_QKEY | IBR_SA_MCM_COMP_PKEY | IBR_SA_MCM_COMP_SL | \
	 IBR_SA_MCM_COMP_TCLASS | IBR_SA_MCM_COMP_FLOW)

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
static int fsr_find(const struct ibr_sa_service_rec *rid)
{
	for (int i = 0; i < MAX_SR; i++)
		if (F->sr_used[i] && F->sr[i].id == rid->id && F->sr[i].pkey == rid->pkey &&
		    !memcmp(F->sr[i].gid, rid->gid, 16))
			return i;
	return -1;
}

static unsigned int fsr_count(void)
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

static void sa_answer(const uint8_t *req)
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

static void cb_port(void *arg, const struct sa_port_state *ps)
{
	CB.port++;
	CB.ps = *ps;
}

static void cb_changed(void *arg, bool neighs, bool groups)
{
	CB.changed++;
	CB.changed_n += neighs;
	CB.changed_g += groups;
}

static void cb_report(void *arg, uint16_t trap, const uint8_t gid[16])
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

static struct sa_client_config default_cfg(void)
{
	return (struct sa_client_config){ .name = "t",
					  .sm_key = SA_KEY,
					  .poll_ms = 1000,
					  .backoff_ms = 2000,
					  .walk_gap = 8,
					  .clock = fake_clock };
}

/* Answer everything the transport has, including what the answers cause. */
static void pump(void)
{
	for (int guard = 0; F->rx.head < F->rx.n; guard++) {
		CU_ASSERT_FATAL(guard < 100000);
		mad_chan_process(CH, 0);
	}
}

/* Run the clock to `t`, stopping at every deadline of the channel and the client. */
static void run_until(uint64_t t)
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

static void run_ms(uint64_t ms)
{
	run_until(now_ns + ms * MS);
}

/* The fake subnet (the default one when `subnet`) and a channel on it. */
static void fake_new(bool cut, unsigned int max_out, bool subnet)
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
static void client_new(const struct sa_client_config *cfg)
{
	SC = sa_client_new(CH, cfg, &cb_ops, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(SC);
}

/* A client on the default subnet after its first sync (answered at T0). */
static void start(bool cut)
{
	struct sa_client_config cfg = default_cfg();

	fake_new(cut, 0, true);
	client_new(&cfg);
	pump();
}

static void stop(void)
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
static long find_sent(size_t from, uint8_t cls, uint8_t method, uint16_t attr)
{
	for (size_t i = from; i < F->n_sent; i++)
		if (sent_is(&F->sent[i], cls, method, attr))
			return (long)i;
	return -1;
}

static unsigned int count_sent(size_t from, uint8_t cls, uint8_t method, uint16_t attr)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += sent_is(&F->sent[i], cls, method, attr);
	return n;
}

/* SA requests sent from `from` on: method, attribute and component mask. */
static unsigned int count_sa(size_t from, uint8_t method, uint16_t attr, uint64_t comp)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += sent_is(&F->sent[i], IBR_MGMT_CLASS_SUBN_ADM, method, attr) &&
		     ibr_sa_comp_mask(F->sent[i].mad) == comp;
	return n;
}

/* MADs sent from `from` on with TID `tid`. */
static unsigned int count_tid(size_t from, uint64_t tid)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += ibr_mad_tid(F->sent[i].mad) == tid;
	return n;
}

/* SA requests (not responses) sent from `from` on. */
static unsigned int count_sa_requests(size_t from)
{
	unsigned int n = 0;

	for (size_t i = from; i < F->n_sent; i++)
		n += ibr_mad_mgmt_class(F->sent[i].mad) == IBR_MGMT_CLASS_SUBN_ADM &&
		     !ibr_mad_is_response(F->sent[i].mad);
	return n;
}

/* How many NodeRecord Gets asked for `lid`, and the highest LID asked. */
static unsigned int nr_gets(uint16_t lid, uint16_t *max)
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
static unsigned int mlid_gets(uint16_t mlid, uint16_t *max)
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

static const struct sa_neigh *neigh(uint64_t guid)
{
	const struct sa_neigh *v;
	size_t n = sa_client_neighs(SC, &v);

	for (size_t i = 0; i < n; i++)
		if (v[i].guid == guid)
			return &v[i];
	return NULL;
}

static size_t n_neighs(void)
{
	const struct sa_neigh *v;

	return sa_client_neighs(SC, &v);
}

static const struct sa_group *group(const uint8_t mgid[16])
{
	const struct sa_group *v;
	size_t n = sa_client_groups(SC, &v);

	for (size_t i = 0; i < n; i++)
		if (!memcmp(v[i].mgid, mgid, 16))
			return &v[i];
	return NULL;
}

static size_t n_groups(void)
{
	const struct sa_group *v;

	return sa_client_groups(SC, &v);
}

static const uint8_t *mgid_n(int i)
{
	return F->grp[i].mgid;
}

static void check_neigh(uint64_t guid, uint16_t lid, uint8_t lmc, uint8_t type, uint8_t num)
{
	const struct sa_neigh *n = neigh(guid);

	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_EQUAL(n->lid, lid);
	CU_ASSERT_EQUAL(n->lmc, lmc);
	CU_ASSERT_EQUAL(n->node_type, type);
	CU_ASSERT_EQUAL(n->port_num, num);
}

static void check_group(const uint8_t *mgid, uint16_t mlid, unsigned int members, bool receivers,
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
static void check_default_tables(void)
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
static uint64_t inject_report_from(uint16_t lid, uint16_t trap, uint64_t prefix, uint64_t guid_or_0,
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
static uint64_t inject_report(uint16_t trap, uint64_t prefix, uint64_t guid_or_0,
			      const uint8_t *mgid, bool generic)
{
	return inject_report_from(F->sm_lid, trap, prefix, guid_or_0, mgid, generic);
}

/* The ReportResp at sent[i] acknowledges the Report `tid` (13.4.6.1), echoing it. */
static void check_report_resp(long i, uint64_t tid)
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

/* ---- route announcements (sa_announce.c) ---- */

static const struct sa_route_ad ADS[3] = {
	{ 0xfec0000000000002ull, 64, 1 },
	{ 0xfec0000000000300ull, 56, 2 },
	{ 0xfec0000000040000ull, 48, 3 },
};

/* The fake's record of index idx of our announcement set, or NULL. */
static const struct ibr_sa_service_rec *ad_rec(unsigned int idx)
{
	struct ibr_sa_service_rec rid = { .id = SA_AD_SERVICE_ID | idx, .pkey = 0xFFFF };
	int i;

	memcpy(rid.gid, (uint8_t[8]){ 0xfe, 0xc0, 0, 0, 0, 0, 0, 1 }, 8);
	for (int k = 0; k < 8; k++)
		rid.gid[8 + k] = (uint8_t)(GUID_US >> (56 - 8 * k));
	i = fsr_find(&rid);
	return i < 0 ? NULL : &F->sr[i];
}

/* The records as the format says (sa_client.h), registered as our port GID */
static void test_announce_records(void)
{
	const struct ibr_sa_service_rec *r0, *r1;

	start(false);
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 3, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 2);
	CU_ASSERT_EQUAL(sa_client_announced(SC), 2);
	r0 = ad_rec(0), r1 = ad_rec(1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r1);
	CU_ASSERT_STRING_EQUAL(r0->name, "ibrouter.route-exchange.v1");
	CU_ASSERT_EQUAL(r0->lease, 60);
	CU_ASSERT_EQUAL(r0->data8[0], 1);  /* version */
	CU_ASSERT_EQUAL(r0->data8[1], 2);  /* prefixes in it */
	CU_ASSERT_EQUAL(r0->data8[2], 64); /* lengths */
	CU_ASSERT_EQUAL(r0->data8[3], 56);
	CU_ASSERT_EQUAL(r0->data8[4], 1); /* metrics */
	CU_ASSERT_EQUAL(r0->data8[5], 2);
	CU_ASSERT_EQUAL(r0->data64[0], 0xfec0000000000002ull);
	CU_ASSERT_EQUAL(r0->data32[2], 0xfec00000u); /* prefix 1, hi and lo */
	CU_ASSERT_EQUAL(r0->data32[3], 0x00000300u);
	CU_ASSERT_EQUAL(r0->data64[1], 0);
	CU_ASSERT_EQUAL(r0->data16[0], 0);
	CU_ASSERT_EQUAL(r0->data16[1], 2);
	CU_ASSERT_EQUAL(r1->data8[1], 1);
	CU_ASSERT_EQUAL(r1->data8[2], 48);
	CU_ASSERT_EQUAL(r1->data8[4], 3);
	CU_ASSERT_EQUAL(r1->data64[0], 0xfec0000000040000ull);
	CU_ASSERT_EQUAL(r1->data32[2], 0);
	CU_ASSERT_EQUAL(r1->data32[3], 0);
	CU_ASSERT_EQUAL(r1->data16[0], 1);
	CU_ASSERT_EQUAL(r1->data32[0], r0->data32[0]); /* one generation */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, 2);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_failures, 0);
	/* a shorter set: record 1 deleted, record 0 replaced, a new generation */
	{
		uint32_t gen = r0->data32[0];

		CU_ASSERT_EQUAL(sa_client_announce(SC, ADS + 2, 1, 60), 0);
		pump();
		CU_ASSERT_EQUAL(fsr_count(), 1);
		CU_ASSERT_PTR_NULL(ad_rec(1));
		CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
		CU_ASSERT_EQUAL(ad_rec(0)->data8[1], 1);
		CU_ASSERT_EQUAL(ad_rec(0)->data64[0], 0xfec0000000040000ull);
		CU_ASSERT_EQUAL(ad_rec(0)->data16[1], 1);
		CU_ASSERT(ad_rec(0)->data32[0] > gen);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_deletes, 1);
	}
	/* none: all withdrawn */
	CU_ASSERT_EQUAL(sa_client_announce(SC, NULL, 0, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 0);
	CU_ASSERT_EQUAL(sa_client_announced(SC), 0);
	stop();
}

/* Nothing before the port is synced; then the set; refreshed each third of the lease */
static void test_announce_timing(void)
{
	struct sa_client_config cfg = default_cfg();
	uint64_t sets;

	fake_new(false, 0, true);
	client_new(&cfg);
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 3, 30), 0);
	CU_ASSERT_EQUAL(count_sent(0, IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_SET,
				   IBR_SA_ATTR_SERVICE_RECORD),
			0);
	run_ms(1); /* the first sync, then the next tick */
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(fsr_count(), 2);
	sets = sa_client_stats(SC)->ad_sets;
	CU_ASSERT_EQUAL(sets, 2);
	run_ms(9000); /* before a third of 30 s */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets);
	run_ms(1500);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets + 2);
	/* an SM that took over has none: the sync after it registers them again */
	memset(F->sr_used, 0, sizeof(F->sr_used));
	sa_client_resync(SC, "test");
	run_ms(1);
	CU_ASSERT_EQUAL(fsr_count(), 2);
	stop();
}

/* A refused Set: counted, the set again after the backoff, not at once */
static void test_announce_refused(void)
{
	uint64_t sets;

	start(false);
	F->sr_refuse = true;
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 1, 60), 0);
	run_ms(1);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_failures, 1);
	CU_ASSERT_EQUAL(fsr_count(), 0);
	sets = sa_client_stats(SC)->ad_sets;
	run_ms(1500); /* backoff 2000 ms */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets);
	F->sr_refuse = false;
	run_ms(600);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets + 1);
	CU_ASSERT_EQUAL(fsr_count(), 1);
	stop();
}

/*
 * Freeing the client deletes its records: the Deletes are not cancelled with
 * its other requests, even those the channel still queues (one outstanding
 * request at a time here, three records)
 */
static void test_announce_free(void)
{
	struct sa_client_config cfg = default_cfg();
	struct sa_route_ad five[5];

	for (int i = 0; i < 5; i++)
		five[i] = (struct sa_route_ad){ 0xfec0000000000100ull + (uint64_t)i * 0x100, 56,
						1 };
	fake_new(false, 1, true);
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL_FATAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_announce(SC, five, 5, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 3);
	sa_client_free(SC);
	SC = NULL;
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 0);
	stop();
}

/*
 * A router that comes back (a new client) does not repeat the generation
 * and refresh count its dead self left at the SA: readers would take it
 * for the dead one (sa_peers.c)
 */
static void test_announce_new_numbers(void)
{
	uint32_t gen, beat;

	start(false);
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 1, 60), 0);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
	gen = ad_rec(0)->data32[0];
	beat = ad_rec(0)->data32[1];
	/* killed: its records stay at the SA */
	sa_client_free(SC);
	SC = NULL;
	CU_ASSERT_PTR_NULL(ad_rec(0)); /* a clean free deletes them: put them back */
	usleep(2000);
	{
		struct sa_client_config cfg = default_cfg();

		client_new(&cfg);
	}
	pump();
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 1, 60), 0);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
	CU_ASSERT_NOT_EQUAL(ad_rec(0)->data32[0], gen);
	CU_ASSERT_NOT_EQUAL(ad_rec(0)->data32[1], beat);
	stop();
}

/* Freed in the middle of a resync (or in a backoff): the records are deleted all the same */
static void test_announce_free_mid_sync(void)
{
	for (int backoff = 0; backoff <= 1; backoff++) {
		start(false);
		CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 3, 60), 0);
		pump();
		CU_ASSERT_EQUAL(fsr_count(), 2);
		if (backoff) {
			F->busy_attr = IBR_SA_ATTR_NODE_RECORD;
			F->busy_status = IBR_SA_STATUS_NO_RESOURCES;
		} else {
			F->defer_attr = IBR_SA_ATTR_NODE_RECORD; /* the resync stays in flight */
		}
		sa_client_resync(SC, "test");
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), backoff ? SA_PHASE_BACKOFF : SA_PHASE_SYNC);
		F->busy_attr = 0;
		sa_client_free(SC);
		SC = NULL;
		pump();
		CU_ASSERT_EQUAL(fsr_count(), 0);
		fake_release();
		stop();
	}
}

static void test_announce_args(void)
{
	static struct sa_route_ad many[2 * SA_AD_MAX_RECS + 1];
	struct sa_route_ad bad = { 0xfec0000000000000ull, 65, 1 };

	start(false);
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 3, 0), -EINVAL);
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 3, IBR_SA_SERVICE_LEASE_INDEFINITE), -EINVAL);
	CU_ASSERT_EQUAL(sa_client_announce(SC, &bad, 1, 60), -EINVAL);
	CU_ASSERT_EQUAL(sa_client_announce(SC, many, 2 * SA_AD_MAX_RECS + 1, 60), -EINVAL);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 0);
	stop();
}

/* ---- the other routers' announcements (sa_peers.c) ---- */

#define GUID_R2 0x0002c90000000901ull /* another router's port */
#define GUID_R3 0x0002c90000000a01ull
#define LID_R2	12
#define LID_R3	14

static struct {
	unsigned int calls;
} PEERS_CB;

static void cb_peers(void *arg)
{
	(void)arg;
	PEERS_CB.calls++;
}

/*
 * Router `guid`'s announcement set as it registers it (the format of
 * sa_client.h, written out here from the text, not by sa_announce.c):
 * ceil(n / 2) records, generation gen, refresh count beat, lease lease_s.
 * Records past the set are deleted.
 */
static void peer_announce(uint64_t guid, const struct sa_route_ad *v, unsigned int n, uint32_t gen,
			  uint32_t beat, uint32_t lease_s)
{
	unsigned int total = (n + 1) / 2;

	for (unsigned int idx = 0; idx < 64; idx++) {
		struct ibr_sa_service_rec r = { .id = 0x1000140549520000ull | idx, .pkey = 0xFFFF };
		int i;

		ibr_mad_st64(r.gid, PREFIX);
		ibr_mad_st64(r.gid + 8, guid);
		i = fsr_find(&r);
		if (idx >= total) {
			if (i >= 0)
				F->sr_used[i] = false;
			continue;
		}
		r.lease = lease_s;
		strcpy(r.name, "ibrouter.route-exchange.v1");
		r.data8[0] = 1;
		r.data16[0] = (uint16_t)idx;
		r.data16[1] = (uint16_t)total;
		r.data32[0] = gen;
		r.data32[1] = beat;
		for (unsigned int k = 0; k < 2 && 2 * idx + k < n; k++) {
			const struct sa_route_ad *a = &v[2 * idx + k];

			r.data8[1]++;
			r.data8[2 + k] = a->plen;
			r.data8[4 + k] = a->metric;
			if (k == 0) {
				r.data64[0] = a->prefix;
			} else {
				r.data32[2] = (uint32_t)(a->prefix >> 32);
				r.data32[3] = (uint32_t)a->prefix;
			}
		}
		if (i < 0)
			for (i = 0; i < MAX_SR && F->sr_used[i]; i++)
				;
		CU_ASSERT_FATAL(i < MAX_SR);
		F->sr_used[i] = true;
		F->sr[i] = r;
	}
}

/* Record idx of router guid at the fake SA (to spoil it), or NULL. */
static struct ibr_sa_service_rec *peer_rec(uint64_t guid, unsigned int idx)
{
	struct ibr_sa_service_rec r = { .id = 0x1000140549520000ull | idx, .pkey = 0xFFFF };
	int i;

	ibr_mad_st64(r.gid, PREFIX);
	ibr_mad_st64(r.gid + 8, guid);
	i = fsr_find(&r);
	return i < 0 ? NULL : &F->sr[i];
}

static const struct sa_route_ad PADS[3] = {
	{ 0xfec0000000000003ull, 64, 1 },
	{ 0xfec0000000000400ull, 56, 2 },
	{ 0xfec0000000050000ull, 48, 20 }, /* past 16: read as 16, unreachable */
};

/* The default subnet with router ports R2 (LID 12, announcing PADS) and R3 (LID 14, none). */
static void peers_start(uint32_t interval_ms)
{
	struct sa_client_config cfg = default_cfg();
	static const struct sa_client_ops ops = {
		.port = cb_port, .changed = cb_changed, .report = cb_report, .peers = cb_peers
	};

	memset(&PEERS_CB, 0, sizeof(PEERS_CB));
	fake_new(false, 0, true);
	fport_add(GUID_R2, GUID_R2 - 1, LID_R2, 0, 3, 1, 1);
	fport_add(GUID_R3, GUID_R3 - 1, LID_R3, 0, 3, 1, 1);
	peer_announce(GUID_R2, PADS, 3, 7, 1, 60);
	SC = sa_client_new(CH, &cfg, &ops, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(SC);
	sa_client_peer_interval(SC, interval_ms);
	run_ms(1);
}

static const struct sa_peer *peer_of(uint64_t guid)
{
	const struct sa_peer *v;
	size_t n = sa_client_peers(SC, &v);

	for (size_t i = 0; i < n; i++)
		if (v[i].guid == guid)
			return &v[i];
	return NULL;
}

/* The routers of the subnet, ours aside; each one's records read whole, by RID */
static void test_peers_read(void)
{
	const struct sa_peer *p;
	const struct sa_peer *v;

	peers_start(5000);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 2); /* R2, R3; not our own router port */
	CU_ASSERT_PTR_NULL(peer_of(GUID_US));
	p = peer_of(GUID_R2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT(p->read);
	CU_ASSERT(!p->expired);
	CU_ASSERT_EQUAL(p->lid, LID_R2);
	CU_ASSERT_EQUAL(p->lease_s, 60);
	CU_ASSERT_EQUAL(p->gen, 7);
	CU_ASSERT_EQUAL_FATAL(p->n, 3);
	CU_ASSERT_EQUAL(p->ad[0].prefix, PADS[0].prefix);
	CU_ASSERT_EQUAL(p->ad[0].plen, 64);
	CU_ASSERT_EQUAL(p->ad[0].metric, 1);
	CU_ASSERT_EQUAL(p->ad[1].prefix, PADS[1].prefix);
	CU_ASSERT_EQUAL(p->ad[1].plen, 56);
	CU_ASSERT_EQUAL(p->ad[1].metric, 2);
	CU_ASSERT_EQUAL(p->ad[2].prefix, PADS[2].prefix);
	CU_ASSERT_EQUAL(p->ad[2].metric, 16);
	p = peer_of(GUID_R3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT(p->read); /* none: read, nothing announced */
	CU_ASSERT_EQUAL(p->n, 0);
	CU_ASSERT_EQUAL(p->lid, LID_R3);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_records, 2);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_refused, 0);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1); /* R2's prefixes */
	/* each Get asks one RID: R2's two records and R3's first */
	CU_ASSERT_EQUAL(F->sr_gets, 3);
	/* the same set at the next read: no callback */
	run_ms(5000);
	CU_ASSERT_EQUAL(F->sr_gets, 6);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1);
	/* a new generation: read anew, the callback */
	peer_announce(GUID_R2, PADS, 1, 8, 2, 60);
	run_ms(5000);
	p = peer_of(GUID_R2);
	CU_ASSERT_EQUAL(p->n, 1);
	CU_ASSERT_EQUAL(p->gen, 8);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	stop();
}

/*
 * A router whose refresh count stops (killed: its records outlive it at the
 * SA): expired after 2/3 of its lease and one interval, its prefixes
 * dropped; back when the count moves again
 */
static void test_peers_expire(void)
{
	const struct sa_peer *p;
	uint64_t t0 = now_ns;

	peers_start(5000);
	/* refreshed every 20 s (a third of 60): alive for two minutes */
	for (uint32_t beat = 2; beat < 8; beat++) {
		run_ms(20000);
		peer_announce(GUID_R2, PADS, 3, 7, beat, 60);
	}
	p = peer_of(GUID_R2);
	CU_ASSERT(!p->expired);
	CU_ASSERT_EQUAL(p->n, 3);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1);
	/* it stops: expired between 40 s + 5 s and 40 s + 5 s + one read after its last refresh */
	t0 = now_ns;
	run_ms(40000);
	CU_ASSERT(!peer_of(GUID_R2)->expired);
	run_ms(10000);
	p = peer_of(GUID_R2);
	CU_ASSERT(p->expired);
	CU_ASSERT_EQUAL(p->n, 0);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_expired, 1);
	(void)t0;
	/* its records are still at the SA: reading them does not bring it back */
	run_ms(20000);
	CU_ASSERT(peer_of(GUID_R2)->expired);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	/* it comes back (a new count): its prefixes again */
	peer_announce(GUID_R2, PADS, 3, 1, 1, 60);
	run_ms(5000);
	p = peer_of(GUID_R2);
	CU_ASSERT(!p->expired);
	CU_ASSERT_EQUAL(p->n, 3);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 3);
	/* its lease ends at the SA (records gone): nothing announced */
	peer_announce(GUID_R2, PADS, 0, 1, 1, 60);
	run_ms(5000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 0);
	CU_ASSERT(!peer_of(GUID_R2)->expired);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 4);
	stop();
}

/* A router port that leaves (trap 65) takes its prefixes; one that comes (trap 64) is read at once */
static void test_peers_traps(void)
{
	size_t mark;

	peers_start(60000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	fport_del(GUID_R2);
	inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_R2, NULL, true);
	pump();
	CU_ASSERT_PTR_NULL(peer_of(GUID_R2));
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	/* back, long before the next read of the interval */
	fport_add(GUID_R2, GUID_R2 - 1, 16, 0, 3, 1, 1);
	mark = F->sr_gets;
	inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_R2, NULL, true);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(peer_of(GUID_R2));
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->lid, 16); /* its new LID */
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	CU_ASSERT_EQUAL(F->sr_gets, mark + 2);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 3);
	/* a host (not a router) coming is no peer */
	fport_add(GUID_D, GUID_D - 1, 20, 0, 1, 1, 1);
	inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_D, NULL, true);
	pump();
	CU_ASSERT_PTR_NULL(peer_of(GUID_D));
	stop();
}

/* Records that do not hold are refused, the read dropped, what was read before kept */
static void test_peers_hostile(void)
{
	static const struct {
		const char *what;
		unsigned int idx;
		int field;
	} bad[] = {
		{ "a name not ours", 0, 0 },
		{ "version 2", 0, 1 },
		{ "three prefixes", 0, 2 },
		{ "a length past 64", 1, 3 },
		{ "bits past the length", 1, 4 },
		{ "metric 0", 0, 5 },
		{ "index not the RID's", 1, 6 },
		{ "another generation", 1, 7 },
		{ "no lease", 0, 8 },
		{ "a short middle record", 0, 9 },
		{ "no records counted", 0, 10 },
	};
	uint64_t refused = 0;

	peers_start(5000);
	/* a lease of an hour: the reads refused below do not expire it */
	peer_announce(GUID_R2, PADS, 3, 7, 1, 3600);
	run_ms(5000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->lease_s, 3600);
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		struct ibr_sa_service_rec *r;
		const struct sa_peer *p;

		peer_announce(GUID_R2, PADS, 3, 9 + (uint32_t)b, 1, 60);
		r = peer_rec(GUID_R2, bad[b].idx);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		switch (bad[b].field) {
		case 0:
			strcpy(r->name, "ibrouter.route-exchange.v0");
			break;
		case 1:
			r->data8[0] = 2;
			break;
		case 2:
			r->data8[1] = 3;
			break;
		case 3:
			r->data8[2] = 65;
			break;
		case 4:
			r->data8[2] = 40;
			break; /* 0xfec0000000050000 has bits past /40 */
		case 5:
			r->data8[4] = 0;
			break;
		case 6:
			r->data16[0] = 0;
			break;
		case 7:
			r->data32[0] = 1;
			break;
		case 8:
			r->lease = 0;
			break;
		case 9:
			r->data8[1] = 1;
			break; /* record 0 of 2 with one prefix */
		case 10:
			r->data16[1] = 0;
			break;
		}
		run_ms(5000);
		p = peer_of(GUID_R2);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		/* what the first read gave stands */
		CU_ASSERT_EQUAL(p->gen, 7);
		CU_ASSERT_EQUAL(p->n, 3);
		if (sa_client_stats(SC)->peer_refused != refused + 1)
			fprintf(stderr, "not refused: %s\n", bad[b].what);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_refused, refused + 1);
		refused = sa_client_stats(SC)->peer_refused;
	}
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1);
	/* an SA that answers a Get with an error: the read fails, nothing changes */
	F->sr_get_busy = IBR_SA_STATUS_NO_RESOURCES;
	run_ms(5000);
	CU_ASSERT(sa_client_stats(SC)->peer_read_failures > 0);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	F->sr_get_busy = 0;
	/* a good set again: taken */
	peer_announce(GUID_R2, PADS, 2, 30, 2, 60);
	run_ms(5000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 2);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	stop();
}

/* Interval 0: no Gets, the peers forgotten (the callback when some announced) */
static void test_peers_off(void)
{
	const struct sa_peer *v;

	peers_start(5000);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 2);
	sa_client_peer_interval(SC, 0);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 0);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	F->sr_gets = 0;
	run_ms(30000);
	CU_ASSERT_EQUAL(F->sr_gets, 0);
	/* on again: read at the next tick */
	sa_client_peer_interval(SC, 5000);
	run_ms(1);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 2);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	stop();
}

static CU_TestInfo tests[] = {
	{ "peers: the routers' records read by RID, ours not", test_peers_read },
	{ "peers: a refresh count that stops expires the router", test_peers_expire },
	{ "peers: trap 65 forgets a router, trap 64 reads it at once", test_peers_traps },
	{ "peers: hostile records refused, what was read kept", test_peers_hostile },
	{ "peers: interval 0 forgets them", test_peers_off },
	{ "announcements: the records, a shorter set, none", test_announce_records },
	{ "announcements: after the sync, refreshed, again after an SM change",
	  test_announce_timing },
	{ "announcements: a refused Set retried after the backoff", test_announce_refused },
	{ "announcements: deleted when the client goes", test_announce_free },
	{ "announcements: bad arguments refused", test_announce_args },
	{ "announcements: a new client, new numbers", test_announce_new_numbers },
	{ "announcements: deleted when freed mid-sync or in a backoff",
	  test_announce_free_mid_sync },
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
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_client", tests);
}
