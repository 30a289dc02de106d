/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_fake.c - the fake subnet of the SA client's tests (sa_fake.h): its
 * ports, groups and ServiceRecords, the answers it holds back, the fake
 * transport under the channel, and the client under test.  The SA's and
 * the SMA's answers are in sa_fake_answer.c, what the tests look at and
 * inject in sa_fake_check.c.
 */
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
	if (ibr_mad_mgmt_class(mad) == IBR_MGMT_CLASS_SUBN_ADM &&
	    (ibr_rmpp_flags(mad) & IBR_RMPP_FLAG_ACTIVE) &&
	    ibr_rmpp_type(mad) != IBR_RMPP_TYPE_DATA) {
		fake_rmpp_ack(mad); /* the channel's ACK of segments we sent */
		return 0;
	}
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
	fake_rmpp_free();
	mq_free(&F->rx);
	mq_free(&F->held);
	free(F->sent);
	free(F);
	F = NULL;
}
