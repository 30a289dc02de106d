/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* sa_script.c - the scripted SA of the SA client's query tests (sa_script.h). */
#include "tests/unit/sa/sa_script.h"

#include "lib/ibr_log.h"
#include "tests/unit/ibr_test.h"

#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the scripted transport ---- */

struct script F;

struct mad_chan *CH;
struct sa_client *SC;
uint64_t now_ns;

struct script_cb CB;

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

bool sa_req_is(size_t i, uint8_t method, uint16_t attr)
{
	const uint8_t *m = F.v[i].mad;

	return ibr_mad_mgmt_class(m) == IBR_MGMT_CLASS_SUBN_ADM && !ibr_mad_is_response(m) &&
	       ibr_mad_method(m) == method && ibr_mad_attr_id(m) == attr;
}

/* The first unanswered SA request of `method` and `attr`, -1 when none. */
long find_open(uint8_t method, uint16_t attr)
{
	for (size_t i = 0; i < F.n; i++)
		if (!F.v[i].answered && sa_req_is(i, method, attr))
			return (long)i;
	return -1;
}

unsigned int count_open(uint8_t method, uint16_t attr)
{
	unsigned int n = 0;

	for (size_t i = 0; i < F.n; i++)
		n += !F.v[i].answered && sa_req_is(i, method, attr);
	return n;
}

unsigned int count_sent(uint8_t method, uint16_t attr)
{
	unsigned int n = 0;

	for (size_t i = 0; i < F.n; i++)
		n += sa_req_is(i, method, attr);
	return n;
}

/* Unanswered SA requests of any kind. */
unsigned int count_open_sa(void)
{
	unsigned int n = 0;

	for (size_t i = 0; i < F.n; i++)
		n += !F.v[i].answered && ibr_mad_mgmt_class(F.v[i].mad) == IBR_MGMT_CLASS_SUBN_ADM;
	return n;
}

/* The LID (or MLID) a walk's Get of sent[i] asks for. */
uint16_t req_lid(long i)
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

static void recs_put(struct recs *r, const uint8_t *rec, size_t len)
{
	r->stride = (len + 7) / 8 * 8; /* AttributeOffset counts 8-byte words (15.2.5.1) */
	CU_ASSERT_FATAL((r->n + 1) * r->stride <= sizeof(r->b));
	memset(r->b + r->n * r->stride, 0, r->stride);
	memcpy(r->b + r->n * r->stride, rec, len);
	r->n++;
}

void add_nr(struct recs *r, uint16_t lid, uint64_t guid, uint8_t type, uint8_t port)
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
void add_pir(struct recs *r, uint16_t lid, uint8_t port, uint8_t lmc)
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

void add_gir(struct recs *r, uint16_t lid, uint8_t block, const uint64_t guid[8])
{
	struct ibr_sa_guidinfo_rec g = { .lid = lid, .block = block };
	uint8_t rec[IBR_SA_GUIDINFO_REC_LEN];

	memcpy(g.guid, guid, sizeof(g.guid));
	ibr_sa_guidinfo_rec_encode(&g, rec);
	recs_put(r, rec, sizeof(rec));
}

void mgid_of(uint8_t m[16], uint16_t id)
{
	memset(m, 0, 16);
	m[0] = 0xFF;
	m[1] = 0x15;
	m[2] = 0x40;
	m[3] = 0x1B;
	m[14] = (uint8_t)(id >> 8);
	m[15] = (uint8_t)id;
}

void add_mcm(struct recs *r, uint16_t id, uint16_t mlid, uint64_t guid, uint8_t join)
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
void answer_cut(long i, uint16_t status, const struct recs *r, bool cut)
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

void answer(long i, uint16_t status, const struct recs *r)
{
	answer_cut(i, status, r, false);
}

void answer_first(uint8_t method, uint16_t attr, uint16_t status, const struct recs *r)
{
	long i = find_open(method, attr);

	CU_ASSERT_FATAL(i >= 0);
	answer(i, status, r);
}

/*
 * An empty answer (no records; a Set echoed) to every open SA request and to
 * what those answers ask in turn, until none is open or another sync starts.
 */
void answer_all_empty(void)
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

struct sa_client_config cfg_of(unsigned int gap, uint16_t max_lid, uint16_t max_mlids)
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
void start_cfg(const struct sa_client_config *cfg, bool walk)
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

void start(bool walk)
{
	struct sa_client_config cfg = cfg_of(4, 64, 0x40);

	start_cfg(&cfg, walk);
}

/* A client after a first sync of an empty subnet. */
void start_ready(void)
{
	start(false);
	answer_all_empty();
	CU_ASSERT_EQUAL_FATAL(SC->phase, SA_PHASE_READY);
	memset(&CB, 0, sizeof(CB));
}

void stop(void)
{
	sa_client_free(SC);
	SC = NULL;
	mad_chan_destroy(CH);
	CH = NULL;
	CU_ASSERT(F.closed);
	free(F.v);
	memset(&F, 0, sizeof(F));
}

const struct sa_neigh *find_in(const struct sa_neigh_vec *t, uint64_t guid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].guid == guid)
			return &t->v[i];
	return NULL;
}

/* In the tables of the client (the last complete sync and the traps since). */
const struct sa_neigh *neigh(uint64_t guid)
{
	return find_in(&SC->cur_n, guid);
}

void check_neigh(const struct sa_neigh *n, uint16_t lid, uint8_t lmc, uint8_t type, uint8_t port)
{
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT_EQUAL(n->lid, lid);
	CU_ASSERT_EQUAL(n->lmc, lmc);
	CU_ASSERT_EQUAL(n->node_type, type);
	CU_ASSERT_EQUAL(n->port_num, port);
}

const struct sa_group *group(uint16_t id)
{
	uint8_t mgid[16];

	mgid_of(mgid, id);
	for (size_t i = 0; i < SC->cur_g.n; i++)
		if (!memcmp(SC->cur_g.v[i].mgid, mgid, 16))
			return &SC->cur_g.v[i];
	return NULL;
}

/* ClassPortInfo and the subscription, answered as OpenSM does. */
void answer_cpi_sub(void)
{
	answer_first(IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, 0, NULL);
	answer_first(IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO, 0, NULL);
}
