/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_sync_test.c - the queries of the SA client (sa/sa_sync.c) one answer at
 * a time: neighbours from NodeRecords, LMCs from PortInfoRecords, alias GUIDs
 * from GUIDInfoRecords, the LID and MLID walks, traps 64-67, a sync that
 * starts again after a change it may have missed, and the SA answers that
 * fail a sync.
 *
 * The fake transport of sa_client_test.c, under a real struct mad_chan, but
 * scripted: it records what the client sends and answers nothing by itself.
 * Each test answers the requests it picks, in the order it picks, with the
 * records it builds (PortInfoRecords byte by byte, as OpenSM 3.3.23 lays out
 * its ib_portinfo_record_t), and looks at the tables sa_sync.c builds
 * (sa_int.h) between the answers.
 */
#include "mad/mad_chan.h"
#include "sa/sa_client.h"
#include "sa/sa_int.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"
#include "tests/unit/ibr_test.h"

#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull
#define T0 (1000 * MS)

#define PREFIX	 0xfec0000000000001ull
#define SA_KEY	 1ull
#define LID_SM	 2
#define LID_US	 8
#define LMC_US	 2 /* ours, the default of every CA and router port until its record says */
#define GUID_US	 0x0002c90000000401ull
#define GUID_SW	 0x0002c90000000100ull
#define GUID_A	 0x0002c90000000201ull
#define GUID_B1	 0x0002c90000000301ull
#define GUID_B2	 0x0002c90000000302ull
#define GUID_C	 0x0002c90000000501ull
#define GUID_D	 0x0002c90000000601ull
#define ALIAS_C1 0x0002c90000050001ull
#define ALIAS_C2 0x0002c90000050002ull
#define ALIAS_C3 0x0002c90000050003ull

/* ---- the scripted transport ---- */

struct sent {
	uint8_t mad[IBR_MAD_SIZE];
	struct mad_addr to;
	bool answered;
};

static struct {
	struct mad_transport base;
	struct sent *v;
	size_t n, cap;
	bool closed;
} F;

static struct mad_chan *CH;
static struct sa_client *SC;
static uint64_t now_ns;

static struct {
	unsigned int changed, changed_n, changed_g;
} CB;

static uint64_t fake_clock(void *arg)
{
	(void)arg;
	return now_ns;
}

static int f_get_fd(struct mad_transport *tp)
{
	(void)tp;
	return 42;
}

static int f_register(struct mad_transport *tp, uint8_t mgmt_class, uint8_t ver, bool rmpp)
{
	(void)tp, (void)mgmt_class, (void)ver, (void)rmpp;
	return 0;
}

static int f_send(struct mad_transport *tp, const uint8_t *mad, size_t len,
		  const struct mad_addr *to, uint32_t timeout_ms)
{
	struct sent *s;

	(void)tp, (void)timeout_ms;
	CU_ASSERT_EQUAL_FATAL(len, IBR_MAD_SIZE);
	if (F.n == F.cap) {
		F.cap = F.cap ? F.cap * 2 : 256;
		F.v = realloc(F.v, F.cap * sizeof(*F.v));
		CU_ASSERT_PTR_NOT_NULL_FATAL(F.v);
	}
	s = &F.v[F.n++];
	memcpy(s->mad, mad, IBR_MAD_SIZE);
	s->to = *to;
	s->answered = ibr_mad_is_response(mad); /* ReportResp: nothing to answer */
	return 0;
}

static ssize_t f_recv(struct mad_transport *tp, const uint8_t **mad, struct mad_addr *from)
{
	(void)tp, (void)mad, (void)from;
	return 0; /* answers go in through mad_chan_input() */
}

static int f_set_issm(struct mad_transport *tp, bool on)
{
	(void)tp, (void)on;
	return 0;
}

static void f_close(struct mad_transport *tp)
{
	(void)tp;
	F.closed = true;
}

/* Kernel RMPP: a GetTable response of any length comes as one message. */
static const struct mad_transport_ops f_ops = {
	.name = "fake-scripted",
	.flags = MAD_TP_RMPP,
	.get_fd = f_get_fd,
	.register_class = f_register,
	.send = f_send,
	.recv = f_recv,
	.set_issm = f_set_issm,
	.close = f_close,
};

/* ---- what the client sent ---- */

static bool sa_req_is(size_t i, uint8_t method, uint16_t attr)
{
	const uint8_t *m = F.v[i].mad;

	return ibr_mad_mgmt_class(m) == IBR_MGMT_CLASS_SUBN_ADM && !ibr_mad_is_response(m) &&
	       ibr_mad_method(m) == method && ibr_mad_attr_id(m) == attr;
}

/* The first unanswered SA request of `method` and `attr`, -1 when none. */
static long find_open(uint8_t method, uint16_t attr)
{
	for (size_t i = 0; i < F.n; i++)
		if (!F.v[i].answered && sa_req_is(i, method, attr))
			return (long)i;
	return -1;
}

static unsigned int count_open(uint8_t method, uint16_t attr)
{
	unsigned int n = 0;

	for (size_t i = 0; i < F.n; i++)
		n += !F.v[i].answered && sa_req_is(i, method, attr);
	return n;
}

static unsigned int count_sent(uint8_t method, uint16_t attr)
{
	unsigned int n = 0;

	for (size_t i = 0; i < F.n; i++)
		n += sa_req_is(i, method, attr);
	return n;
}

/* Unanswered SA requests of any kind. */
static unsigned int count_open_sa(void)
{
	unsigned int n = 0;

	for (size_t i = 0; i < F.n; i++)
		n += !F.v[i].answered && ibr_mad_mgmt_class(F.v[i].mad) == IBR_MGMT_CLASS_SUBN_ADM;
	return n;
}

/* The LID (or MLID) a walk's Get of sent[i] asks for. */
static uint16_t req_lid(long i)
{
	const uint8_t *d = F.v[i].mad + IBR_SA_DATA_OFFS;

	CU_ASSERT_FATAL(i >= 0);
	if (ibr_mad_attr_id(F.v[i].mad) == IBR_SA_ATTR_MCMEMBER_RECORD) {
		struct ibr_sa_mcm_rec r;

		CU_ASSERT_FATAL(ibr_sa_mcm_rec_decode(d, IBR_SA_DATA_SIZE, &r) == 0);
		return r.mlid;
	}
	return (uint16_t)(d[0] << 8 | d[1]); /* EndportLID / LID: the records' first field */
}

/* ---- answers ---- */

struct recs {
	uint8_t b[8192];
	unsigned int n;
	size_t stride;
};

static void recs_put(struct recs *r, const uint8_t *rec, size_t len)
{
	r->stride = (len + 7) / 8 * 8; /* AttributeOffset counts 8-byte words (15.2.5.1) */
	CU_ASSERT_FATAL((r->n + 1) * r->stride <= sizeof(r->b));
	memset(r->b + r->n * r->stride, 0, r->stride);
	memcpy(r->b + r->n * r->stride, rec, len);
	r->n++;
}

static void add_nr(struct recs *r, uint16_t lid, uint64_t guid, uint8_t type, uint8_t port)
{
	struct ibr_sa_node_rec nr = { .lid = lid,
				      .base_version = 1,
				      .class_version = 1,
				      .node_type = type,
				      .nports = type == 2 ? 8 : 2,
				      .system_guid = guid - 1,
				      .node_guid = guid - 1,
				      .port_guid = guid,
				      .partition_cap = 1,
				      .local_port = port,
				      .vendor_id = 0x2c9 };
	uint8_t rec[IBR_SA_NODE_REC_LEN];

	ibr_sa_node_rec_encode(&nr, rec);
	recs_put(r, rec, sizeof(rec));
}

/*
 * A PortInfoRecord as OpenSM 3.3.23 sends it (ib_portinfo_record_t,
 * 15.2.5.3): EndportLID, PortNum, Options, then PortInfo (14.2.5.6) from
 * byte 4, 4 reserved bytes last.  Written byte by byte, not with the
 * encoder under test.
 */
static void add_pir(struct recs *r, uint16_t lid, uint8_t port, uint8_t lmc)
{
	uint8_t rec[IBR_SA_PORTINFO_REC_LEN] = { 0 }, *pi = rec + 4;

	rec[0] = (uint8_t)(lid >> 8); /* EndportLID */
	rec[1] = (uint8_t)lid;
	rec[2] = port;		      /* PortNum */
	ibr_mad_st64(pi + 8, PREFIX); /* GidPrefix */
	pi[16] = (uint8_t)(lid >> 8); /* LID */
	pi[17] = (uint8_t)lid;
	pi[19] = LID_SM; /* MasterSMLID */
	pi[20] = 0x02;	 /* CapabilityMask 0x02000048 */
	pi[23] = 0x48;
	pi[28] = port;			/* LocalPortNum */
	pi[29] = 0x03;			/* LinkWidthEnabled */
	pi[30] = 0x03;			/* LinkWidthSupported */
	pi[31] = 0x02;			/* LinkWidthActive 4x */
	pi[32] = 0x14;			/* LinkSpeedSupported 1, PortState 4 (Active) */
	pi[33] = 0x52;			/* PortPhysicalState 5, LinkDownDefaultState 2 */
	pi[34] = (uint8_t)(0x40 | lmc); /* M_KeyProtectBits 1, LMC */
	pi[35] = 0x11;			/* LinkSpeedActive 1, LinkSpeedEnabled 1 */
	pi[36] = 0x50;			/* NeighborMTU 5, MasterSMSL 0 */
	pi[37] = 0x47;			/* VLCap 4, InitType 7 */
	pi[38] = 0x07;			/* VLHighLimit */
	pi[41] = 0x05;			/* InitTypeReply 0, MTUCap 5 */
	rec[68] = 0xEE;			/* the reserved tail: never read */
	recs_put(r, rec, sizeof(rec));
}

static void add_gir(struct recs *r, uint16_t lid, uint8_t block, const uint64_t guid[8])
{
	struct ibr_sa_guidinfo_rec g = { .lid = lid, .block = block };
	uint8_t rec[IBR_SA_GUIDINFO_REC_LEN];

	memcpy(g.guid, guid, sizeof(g.guid));
	ibr_sa_guidinfo_rec_encode(&g, rec);
	recs_put(r, rec, sizeof(rec));
}

static void mgid_of(uint8_t m[16], uint16_t id)
{
	memset(m, 0, 16);
	m[0] = 0xFF;
	m[1] = 0x15;
	m[2] = 0x40;
	m[3] = 0x1B;
	m[14] = (uint8_t)(id >> 8);
	m[15] = (uint8_t)id;
}

static void add_mcm(struct recs *r, uint16_t id, uint16_t mlid, uint64_t guid, uint8_t join)
{
	struct ibr_sa_mcm_rec m = { .qkey = 0x0B1B,
				    .mlid = mlid,
				    .mtu = 4,
				    .pkey = 0xFFFF,
				    .rate = 3,
				    .sl = 1,
				    .join_state = join };
	uint8_t rec[IBR_SA_MCM_REC_LEN];

	mgid_of(m.mgid, id);
	ibr_mad_st64(m.port_gid, PREFIX);
	ibr_mad_st64(m.port_gid + 8, guid);
	ibr_sa_mcm_rec_encode(&m, rec);
	recs_put(r, rec, sizeof(rec));
}

static void deliver(uint8_t *m, size_t len, bool smp)
{
	struct mad_addr from = { .lid = smp ? 0xFFFF : LID_SM,
				 .local_lid = smp ? 0xFFFF : LID_US,
				 .qpn = smp ? 0 : 1,
				 .local_qpn = smp ? 0 : 1 };

	mad_chan_input(CH, m, len, &from);
	free(m);
}

/*
 * Answer sent[i] with `status` and the records `r` (NULL: none).  A Get
 * answers its one record, NO_RECORDS (0x0300) for none; a Set echoes the
 * request's record; a GetTable answers all of them in one message, or only
 * the first MAD's worth marked as umad2sim cuts it (`cut`: RMPP Active,
 * RMPPVersion 0, neither First nor Last).
 */
static void answer_cut(long i, uint16_t status, const struct recs *r, bool cut)
{
	uint8_t req[IBR_MAD_SIZE], *m;
	bool table;
	size_t len = IBR_MAD_SIZE;

	CU_ASSERT_FATAL(i >= 0 && (size_t)i < F.n);
	CU_ASSERT_FATAL(!F.v[i].answered);
	memcpy(req, F.v[i].mad, sizeof(req)); /* the answer may send more: F.v moves */
	F.v[i].answered = true;
	table = ibr_mad_method(req) == IBR_MAD_METHOD_GET_TABLE;
	if (ibr_mad_method(req) == IBR_MAD_METHOD_GET && !status && (!r || r->n == 0) &&
	    ibr_mad_attr_id(req) != IBR_ATTR_CLASS_PORT_INFO)
		status = IBR_SA_STATUS_NO_RECORDS;
	if (table && !cut && r && IBR_SA_DATA_OFFS + r->n * r->stride > len)
		len = IBR_SA_DATA_OFFS + r->n * r->stride;
	m = calloc(1, len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_FATAL(ibr_mad_build_response(m, req, IBR_MAD_SIZE, status) == 0);
	ibr_sa_set_sm_key(m, 0);
	memset(m + IBR_SA_DATA_OFFS, 0, len - IBR_SA_DATA_OFFS);
	if (ibr_mad_method(req) == IBR_MAD_METHOD_SET ||
	    ibr_mad_method(req) == IBR_MAD_METHOD_DELETE)
		memcpy(m + IBR_SA_DATA_OFFS, req + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE);
	if (r && r->n) {
		size_t all = r->n * r->stride, one_mad = IBR_SA_DATA_SIZE / r->stride * r->stride;

		ibr_sa_set_attr_offset(m, (uint16_t)(r->stride / 8));
		if (!status)
			memcpy(m + IBR_SA_DATA_OFFS, r->b,
			       !table		      ? r->stride
			       : cut && one_mad < all ? one_mad
						      : all);
	}
	if (table && cut) {
		ibr_rmpp_set_version(m, 0);
		ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE);
	} else if (table) {
		ibr_rmpp_set_version(m, IBR_RMPP_VERSION);
		ibr_rmpp_set_type(m, IBR_RMPP_TYPE_DATA);
		ibr_rmpp_set_flags(m,
				   IBR_RMPP_FLAG_ACTIVE | IBR_RMPP_FLAG_FIRST | IBR_RMPP_FLAG_LAST);
		ibr_rmpp_set_seg_num(m, 1);
		ibr_rmpp_set_data2(m, (uint32_t)(len - IBR_SA_DATA_OFFS + 20));
	}
	deliver(m, len, false);
}

static void answer(long i, uint16_t status, const struct recs *r)
{
	answer_cut(i, status, r, false);
}

static void answer_first(uint8_t method, uint16_t attr, uint16_t status, const struct recs *r)
{
	long i = find_open(method, attr);

	CU_ASSERT_FATAL(i >= 0);
	answer(i, status, r);
}

/*
 * An empty answer (no records; a Set echoed) to every open SA request and to
 * what those answers ask in turn, until none is open or another sync starts.
 */
static void answer_all_empty(void)
{
	unsigned int gen = SC->gen;

	for (int guard = 0; count_open_sa() && SC->gen == gen; guard++) {
		CU_ASSERT_FATAL(guard < 10000);
		for (size_t i = 0; i < F.n; i++)
			if (!F.v[i].answered &&
			    ibr_mad_mgmt_class(F.v[i].mad) == IBR_MGMT_CLASS_SUBN_ADM) {
				answer((long)i, 0, NULL);
				break;
			}
	}
}

/* Our port's SMA: the hop-0 NodeInfo and PortInfo Gets of the port poll. */
static void answer_smps(void)
{
	for (size_t i = 0; i < F.n; i++) {
		uint8_t req[IBR_MAD_SIZE], *m, *d;

		if (F.v[i].answered || ibr_mad_mgmt_class(F.v[i].mad) != IBR_MGMT_CLASS_SUBN_DR)
			continue;
		memcpy(req, F.v[i].mad, sizeof(req));
		F.v[i].answered = true;
		m = calloc(1, IBR_MAD_SIZE);
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		ibr_mad_build_response(m, req, IBR_MAD_SIZE, 0);
		d = m + IBR_SMP_DATA_OFFS;
		memset(d, 0, IBR_SMP_DATA_SIZE);
		if (ibr_mad_attr_id(req) == IBR_SMP_ATTR_NODE_INFO) {
			mad_set_field(d, 0, IB_NODE_BASE_VERS_F, 1);
			mad_set_field(d, 0, IB_NODE_CLASS_VERS_F, 1);
			mad_set_field(d, 0, IB_NODE_TYPE_F, 3);
			mad_set_field(d, 0, IB_NODE_NPORTS_F, 1);
			mad_set_field64(d, 0, IB_NODE_PORT_GUID_F, GUID_US);
		} else {
			struct recs r = { .n = 0 };

			add_pir(&r, LID_US, 1, LMC_US);
			memcpy(d, r.b + 4, 64); /* the PortInfo of the record */
		}
		deliver(m, IBR_MAD_SIZE, true);
	}
}

/* ---- the client ---- */

static void cb_changed(void *arg, bool neighs, bool groups)
{
	(void)arg;
	CB.changed++;
	CB.changed_n += neighs;
	CB.changed_g += groups;
}

static const struct sa_client_ops cb_ops = { .changed = cb_changed };

static void log_quiet(int pri, const char *msg)
{
	(void)pri;
	if (getenv("SA_TEST_VERBOSE"))
		fprintf(stderr, "%s\n", msg);
}

static struct sa_client_config cfg_of(unsigned int gap, uint16_t max_lid, uint16_t max_mlids)
{
	return (struct sa_client_config){ .name = "t",
					  .sm_key = SA_KEY,
					  .backoff_ms = 1000,
					  .walk_gap = gap,
					  .walk_max_lid = max_lid,
					  .walk_max_mlids = max_mlids,
					  .clock = fake_clock };
}

/*
 * A client whose port the poll finds up: its first sync has sent its first
 * requests, none answered.  `walk`: the channel is known to cut tables (the
 * sync walks LIDs and MLIDs from the start).
 */
static void start_cfg(const struct sa_client_config *cfg, bool walk)
{
	struct mad_chan_config cc = { .name = "t",
				      .chan_id = 0x11,
				      .max_outstanding = 1024, /* all sent at once: none queued */
				      .timeout_ms = 100,
				      .max_timeout_ms = 400,
				      .clock = fake_clock };

	log_set_sink(log_quiet);
	memset(&CB, 0, sizeof(CB));
	memset(&F, 0, sizeof(F));
	F.base.ops = &f_ops;
	now_ns = T0;
	CH = mad_chan_create(&F.base, &cc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(CH);
	SC = sa_client_new(CH, cfg, &cb_ops, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(SC);
	if (walk)
		SC->st.table_mode = false;
	answer_smps();
	CU_ASSERT_EQUAL_FATAL(SC->phase, SA_PHASE_SYNC);
	CU_ASSERT_EQUAL(SC->ps.port_guid, GUID_US);
	CU_ASSERT_EQUAL(SC->ps.lmc, LMC_US);
}

static void start(bool walk)
{
	struct sa_client_config cfg = cfg_of(4, 64, 0x40);

	start_cfg(&cfg, walk);
}

/* A client after a first sync of an empty subnet. */
static void start_ready(void)
{
	start(false);
	answer_all_empty();
	CU_ASSERT_EQUAL_FATAL(SC->phase, SA_PHASE_READY);
	memset(&CB, 0, sizeof(CB));
}

static void stop(void)
{
	sa_client_free(SC);
	SC = NULL;
	mad_chan_destroy(CH);
	CH = NULL;
	CU_ASSERT(F.closed);
	free(F.v);
	memset(&F, 0, sizeof(F));
}

static const struct sa_neigh *find_in(const struct sa_neigh_vec *t, uint64_t guid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].guid == guid)
			return &t->v[i];
	return NULL;
}

/* In the tables of the client (the last complete sync and the traps since). */
static const struct sa_neigh *neigh(uint64_t guid)
{
	return find_in(&SC->cur_n, guid);
}

static void check_neigh(const struct sa_neigh *n, uint16_t lid, uint8_t lmc, uint8_t type,
			uint8_t port)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_EQUAL(n->lid, lid);
	CU_ASSERT_EQUAL(n->lmc, lmc);
	CU_ASSERT_EQUAL(n->node_type, type);
	CU_ASSERT_EQUAL(n->port_num, port);
}

static const struct sa_group *group(uint16_t id)
{
	uint8_t mgid[16];

	mgid_of(mgid, id);
	for (size_t i = 0; i < SC->cur_g.n; i++)
		if (!memcmp(SC->cur_g.v[i].mgid, mgid, 16))
			return &SC->cur_g.v[i];
	return NULL;
}

/* ClassPortInfo and the subscription, answered as OpenSM does. */
static void answer_cpi_sub(void)
{
	answer_first(IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, 0, NULL);
	answer_first(IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO, 0, NULL);
}

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

/* ---- SA answers that fail a sync ---- */

/* A first sync with A and a group, then a second whose `method`/`attr` query gets `status`. */
static void sync_with_status(bool walk, uint8_t method, uint16_t attr, uint16_t status)
{
	struct recs nr = { .n = 0 }, mcm = { .n = 0 };
	long i;

	start(false);
	add_nr(&nr, 4, GUID_A, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	add_mcm(&mcm, 1, 0xC000, GUID_A, IBR_SA_JOIN_FULL);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0, &mcm);
	answer_all_empty();
	CU_ASSERT_EQUAL_FATAL(SC->phase, SA_PHASE_READY);
	memset(&CB, 0, sizeof(CB));
	SC->st.table_mode = !walk;
	sa_sync_start(SC, "test");
	if (attr == IBR_SA_ATTR_PORT_INFO_RECORD || attr == IBR_SA_ATTR_GUID_INFO_RECORD) {
		/* asked after the ports they complete: A at LID 4 */
		if (!walk)
			answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
		while (walk && (i = find_open(IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD)) >= 0)
			answer(i, 0, req_lid(i) == 4 ? &nr : NULL);
	}
	i = find_open(method, attr);
	CU_ASSERT_FATAL(i >= 0);
	answer(i, status, NULL);
	answer_all_empty();
}

static void check_failed(void)
{
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_BACKOFF);
	CU_ASSERT_EQUAL(SC->st.sync_failures, 1);
	CU_ASSERT_EQUAL(SC->st.syncs, 1);
	CU_ASSERT_EQUAL(SC->next_retry, now_ns + 1000 * MS);
	/* the tables of the last good sync stay, and the daemon hears of no change */
	CU_ASSERT_PTR_NOT_NULL(neigh(GUID_A));
	CU_ASSERT_PTR_NOT_NULL(group(1));
	CU_ASSERT_EQUAL(CB.changed, 0);
	stop();
}

static void check_synced(void)
{
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_READY);
	CU_ASSERT_EQUAL(SC->st.sync_failures, 0);
	CU_ASSERT_EQUAL(SC->st.syncs, 2);
	CU_ASSERT_EQUAL(CB.changed, 1);
	stop();
}

static void test_sa_errors_fail(void)
{
	static const struct {
		bool walk;
		uint8_t method;
		uint16_t attr, status;
	} cases[] = {
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, IBR_MAD_STATUS_BUSY },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
		  IBR_SA_STATUS_REQ_INVALID },
		{ true, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD, IBR_MAD_STATUS_BUSY },
		{ true, IBR_MAD_METHOD_GET, IBR_SA_ATTR_PORT_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ true, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		sync_with_status(cases[k].walk, cases[k].method, cases[k].attr, cases[k].status);
		check_failed();
	}
}

/* NO_RECORDS is an empty answer; ClassPortInfo, the subscription and alias GUIDs are optional. */
static void test_sa_errors_pass(void)
{
	static const struct {
		bool walk;
		uint8_t method;
		uint16_t attr, status;
	} cases[] = {
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
		  IBR_SA_STATUS_NO_RECORDS },
		{ false, IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, IBR_MAD_STATUS_BUSY },
		{ false, IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO, IBR_SA_STATUS_REQ_INVALID },
		{ false, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
		{ true, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD,
		  IBR_SA_STATUS_NO_RESOURCES },
	};

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		sync_with_status(cases[k].walk, cases[k].method, cases[k].attr, cases[k].status);
		CU_ASSERT_EQUAL(SC->st.subscribed, cases[k].attr != IBR_ATTR_INFORM_INFO);
		check_synced();
	}
}

/* No answer at all (the channel's timeout): the sync fails, its tables are not swapped in. */
static void test_sa_timeout(void)
{
	struct recs nr = { .n = 0 };
	long i;

	start(false);
	i = find_open(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD);
	F.v[i].answered = true; /* never answered */
	add_nr(&nr, 4, GUID_A, 1, 1);
	answer_first(IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, &nr);
	answer_all_empty();
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
	/* the channel's retries, then its timeout */
	for (int guard = 0; mad_chan_next_deadline(CH) != UINT64_MAX; guard++) {
		CU_ASSERT_FATAL(guard < 100);
		CU_ASSERT_EQUAL(SC->phase, SA_PHASE_SYNC);
		now_ns = mad_chan_next_deadline(CH);
		mad_chan_tick(CH, now_ns);
	}
	CU_ASSERT_EQUAL(SC->phase, SA_PHASE_BACKOFF);
	CU_ASSERT_EQUAL(SC->st.sync_failures, 1);
	CU_ASSERT_EQUAL(SC->cur_n.n, 0);
	CU_ASSERT_EQUAL(CB.changed, 0);
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
	{ "trap 64: the port's NodeRecord, our LMC, not ourselves", test_trap64 },
	{ "trap 65: the port removed at once", test_trap65 },
	{ "traps 66 and 67: the group rebuilt, removed", test_trap66_67 },
	{ "a trap during a sync: both tables, then another sync", test_trap_during_sync },
	{ "trap 64 during a sync: the sync waits for its answer", test_trap64_during_sync },
	{ "a sync asked during a sync: one after it", test_start_during_sync },
	{ "a join answered during a sync: another sync; a leave told", test_join_during_sync },
	{ "answers of an older sync are dropped", test_stale_answers },
	{ "SA error statuses on tables and walks fail the sync", test_sa_errors_fail },
	{ "NO_RECORDS, ClassPortInfo, InformInfo, GUIDInfo errors: the sync goes on",
	  test_sa_errors_pass },
	{ "an SA query timing out fails the sync", test_sa_timeout },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_sync", tests);
}
