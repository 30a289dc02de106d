/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_chan_test.c - the MAD channel (mad/mad_chan.c) over a fake transport
 * with a controlled clock: TIDs, matching, retries and backoff, the
 * outstanding bound and its queue, unsolicited MADs and the default
 * responder, IsSM ordering, RMPP reassembly and truncation detection.
 */
#include "mad/mad_chan.h"
#include "mad/mad_rmpp.h"

#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MS	 1000000ull
#define MAX_SENT 64
#define SA_LID	 1

/* ---- fake transport ---- */

struct fake_sent {
	uint8_t mad[IBR_MAD_SIZE];
	size_t len;
	struct mad_addr to;
	uint32_t timeout_ms;
};

struct fake_tp {
	struct mad_transport base;
	struct fake_sent sent[MAX_SENT];
	unsigned int n_sent;
	uint8_t registered[8];
	unsigned int n_registered;
	int fail_class; /* register_class fails for this class, or -1 */
	int issm;	/* -1 never set */
	unsigned int issm_after_regs;
	bool closed;
	const uint8_t *rx_mad;
	size_t rx_len;
	unsigned int eagain;   /* the next sends refused so (ibsim's queue of a client full) */
	uint64_t recv_step_ns; /* each recv moves the clock on: a wait in mad_chan_drain() */
	bool answer_last;      /* recv answers the last request sent, once */
	uint8_t answer[IBR_MAD_SIZE];
};

static struct fake_tp *fake;
static uint64_t now_ns;

static uint64_t fake_clock(void *arg)
{
	return now_ns;
}

static int f_get_fd(struct mad_transport *tp)
{
	return 42;
}

static int f_register(struct mad_transport *tp, uint8_t mgmt_class, uint8_t ver, bool rmpp)
{
	struct fake_tp *f = (struct fake_tp *)tp;

	if (f->fail_class == mgmt_class)
		return -EPERM;
	f->registered[f->n_registered++] = mgmt_class;
	return 0;
}

static int f_send(struct mad_transport *tp, const uint8_t *mad, size_t len,
		  const struct mad_addr *to, uint32_t timeout_ms)
{
	struct fake_tp *f = (struct fake_tp *)tp;
	struct fake_sent *s;

	if (f->n_sent >= MAX_SENT)
		return -ENOBUFS;
	if (f->eagain) {
		f->eagain--;
		return -EAGAIN;
	}
	s = &f->sent[f->n_sent++];
	memcpy(s->mad, mad, len);
	s->len = len;
	s->to = *to;
	s->timeout_ms = timeout_ms;
	return 0;
}

static ssize_t f_recv(struct mad_transport *tp, const uint8_t **mad, struct mad_addr *from)
{
	struct fake_tp *f = (struct fake_tp *)tp;

	now_ns += f->recv_step_ns;
	if (!f->rx_mad && f->answer_last && f->n_sent) {
		f->answer_last = false;
		CU_ASSERT_FATAL(ibr_mad_build_response(f->answer, f->sent[f->n_sent - 1].mad,
						       IBR_MAD_SIZE, 0) == 0);
		f->rx_mad = f->answer;
		f->rx_len = IBR_MAD_SIZE;
	}
	if (!f->rx_mad)
		return 0;
	*mad = f->rx_mad;
	from->lid = SA_LID;
	from->qpn = 1;
	from->local_qpn = 1;
	f->rx_mad = NULL;
	return (ssize_t)f->rx_len;
}

static int f_set_issm(struct mad_transport *tp, bool on)
{
	struct fake_tp *f = (struct fake_tp *)tp;

	f->issm = on;
	f->issm_after_regs = f->n_registered;
	return 0;
}

static void f_close(struct mad_transport *tp)
{
	((struct fake_tp *)tp)->closed = true;
}

static struct mad_transport_ops fake_ops = {
	.name = "fake",
	.get_fd = f_get_fd,
	.register_class = f_register,
	.send = f_send,
	.recv = f_recv,
	.set_issm = f_set_issm,
	.close = f_close,
};

/* ---- results ---- */

struct got {
	int calls;
	int status;
	uint64_t tid;
	size_t len;
	uint8_t mad[2048];
	unsigned int attempts;
};

static void on_result(struct mad_chan *c, const struct mad_chan_result *r, void *arg)
{
	struct got *g = arg;

	g->calls++;
	g->status = r->status;
	g->tid = r->tid;
	g->len = r->len;
	g->attempts = r->attempts;
	if (r->mad && r->len <= sizeof(g->mad))
		memcpy(g->mad, r->mad, r->len);
}

static struct mad_chan *chan_new(unsigned int max_out, unsigned int max_q)
{
	struct mad_chan_config cfg = { .name = "test",
				       .chan_id = 0xA5,
				       .max_outstanding = max_out,
				       .max_queued = max_q,
				       .timeout_ms = 100,
				       .max_timeout_ms = 1000,
				       .retries = 3,
				       .clock = fake_clock };

	fake = calloc(1, sizeof(*fake));
	fake->base.ops = &fake_ops;
	fake->fail_class = -1;
	fake->issm = -1;
	now_ns = 1000 * MS;
	return mad_chan_create(&fake->base, &cfg);
}

static void chan_free(struct mad_chan *c)
{
	mad_chan_destroy(c);
	free(fake);
	fake = NULL;
}

static const struct mad_addr sa_addr = { .lid = SA_LID, .qpn = 1, .qkey = MAD_QP1_QKEY };
static const struct mad_addr from_sa = { .lid = SA_LID, .qpn = 1, .local_qpn = 1 };

static void sa_get(uint8_t *m, uint16_t attr)
{
	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET, attr, 0, 0, 0);
}

/* The response to sent MAD i, TID high bits rewritten as a transport would. */
static void response_to(uint8_t *m, unsigned int i, uint16_t status)
{
	CU_ASSERT_FATAL(ibr_mad_build_response(m, fake->sent[i].mad, IBR_MAD_SIZE, status) == 0);
	ibr_mad_set_tid(m, (ibr_mad_tid(m) & 0xFFFFFFFFull) | 0x0003000000000000ull);
}

/* ---- tests ---- */

static void test_tid_unique_with_chan_id(void)
{
	struct mad_chan *c = chan_new(64, 64);
	uint8_t m[IBR_MAD_SIZE];
	struct got g = { 0 };
	uint64_t tid;

	sa_get(m, IBR_SA_ATTR_NODE_RECORD);
	for (int i = 0; i < 20; i++) {
		CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, &tid),
				0);
		CU_ASSERT_EQUAL(tid >> 32, 0xA5);
		CU_ASSERT_NOT_EQUAL((uint32_t)tid, 0);
		CU_ASSERT_EQUAL(ibr_mad_tid(fake->sent[i].mad), tid);
		CU_ASSERT(fake->sent[i].timeout_ms == 100);
		for (int j = 0; j < i; j++)
			CU_ASSERT_NOT_EQUAL(ibr_mad_tid(fake->sent[j].mad), tid);
	}
	CU_ASSERT_EQUAL(mad_chan_outstanding(c), 20);
	chan_free(c);
	CU_ASSERT_EQUAL(g.calls, 20);
	CU_ASSERT_EQUAL(g.status, -ECANCELED);
}

static void test_match_response(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE], r[IBR_MAD_SIZE];
	struct got g = { 0 };
	uint64_t tid;

	sa_get(m, IBR_SA_ATTR_PORT_INFO_RECORD);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, &tid), 0);
	/* wrong TID, then wrong class: not ours */
	response_to(r, 0, 0);
	ibr_mad_set_tid(r, tid + 1);
	mad_chan_input(c, r, IBR_MAD_SIZE, &from_sa);
	response_to(r, 0, 0);
	ibr_mad_set_mgmt_class(r, IBR_MGMT_CLASS_SUBN_LID);
	ibr_mad_set_class_version(r, 1);
	mad_chan_input(c, r, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g.calls, 0);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_UNMATCHED], 2);
	/* the right one, its top bits rewritten on the wire */
	response_to(r, 0, IBR_SA_STATUS_NO_RECORDS);
	fake->rx_mad = r;
	fake->rx_len = IBR_MAD_SIZE;
	CU_ASSERT_EQUAL(mad_chan_process(c, 0), 1);
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, 0);
	CU_ASSERT_EQUAL(g.tid, tid);
	CU_ASSERT_EQUAL(ibr_mad_status(g.mad), IBR_SA_STATUS_NO_RECORDS);
	CU_ASSERT_EQUAL(mad_chan_outstanding(c), 0);
	/* a second copy is a late duplicate */
	mad_chan_input(c, r, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_UNMATCHED], 3);
	chan_free(c);
}

static void test_retry_backoff(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	struct got g = { 0 };
	uint64_t t0 = 1000 * MS;
	/* attempt timeouts 100, 200, 400, 800 ms (cap 1000) */
	static const uint64_t expect[] = { 100, 300, 700, 1500 };

	sa_get(m, IBR_SA_ATTR_NODE_RECORD);
	CU_ASSERT_EQUAL(mad_chan_timeout_ms(c, now_ns), -1);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(mad_chan_next_deadline(c), t0 + expect[i] * MS);
		now_ns = t0 + expect[i] * MS - 1;
		CU_ASSERT_EQUAL(mad_chan_timeout_ms(c, now_ns), 1);
		mad_chan_tick(c, now_ns);
		CU_ASSERT_EQUAL(fake->n_sent, i + 1);
		now_ns++;
		CU_ASSERT_EQUAL(mad_chan_timeout_ms(c, now_ns), 0);
		mad_chan_tick(c, now_ns);
		if (i < 3) {
			CU_ASSERT_EQUAL(fake->n_sent, i + 2);
			/* retries keep the TID, so a late answer still counts */
			CU_ASSERT_EQUAL(ibr_mad_tid(fake->sent[i + 1].mad),
					ibr_mad_tid(fake->sent[0].mad));
			CU_ASSERT_EQUAL(fake->sent[i + 1].timeout_ms, 100u << (i + 1));
		}
	}
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, -ETIMEDOUT);
	CU_ASSERT_EQUAL(g.attempts, 4);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->retries, 3);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->timeouts, 1);
	CU_ASSERT_EQUAL(mad_chan_next_deadline(c), UINT64_MAX);
	chan_free(c);
}

/*
 * mad_chan_drain(): a request whose first send the transport refused (EAGAIN)
 * is sent again on its timeout and its answer awaited; one never answered is
 * left pending at the deadline.  Destroying the channel at once, as the
 * daemon did at exit, cancelled the first: an SA Delete lost so left its
 * record for the lease.
 */
static void test_drain(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	struct got g = { 0 };

	fake->recv_step_ns = 10 * MS;
	fake->eagain = 1;
	sa_get(m, IBR_SA_ATTR_SERVICE_RECORD);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	CU_ASSERT_EQUAL(fake->n_sent, 0); /* refused */
	fake->answer_last = true;
	CU_ASSERT_EQUAL(mad_chan_drain(c, now_ns + 1000 * MS), 0);
	CU_ASSERT_EQUAL(fake->n_sent, 1);
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, 0);
	CU_ASSERT_EQUAL(g.attempts, 2);
	CU_ASSERT(now_ns < 1000 * MS + 200 * MS); /* the first timeout (100 ms) and a recv */

	/* nothing pending: returns at once */
	CU_ASSERT_EQUAL(mad_chan_drain(c, now_ns + 1000 * MS), 0);

	/* never answered: pending at the deadline, not before */
	memset(&g, 0, sizeof(g));
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	{
		uint64_t until = now_ns + 250 * MS;

		CU_ASSERT_EQUAL(mad_chan_drain(c, until), 1);
		CU_ASSERT(now_ns >= until);
	}
	CU_ASSERT_EQUAL(g.calls, 0);
	CU_ASSERT(fake->n_sent >= 3); /* sent, and again at 100 ms */
	chan_free(c);
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, -ECANCELED);
}

static void test_backoff_cap_and_late_answer(void)
{
	struct mad_chan *c = chan_new(0, 0);
	struct mad_chan_req_opts o = { .timeout_ms = 400, .retries = 5 };
	uint8_t m[IBR_MAD_SIZE], r[IBR_MAD_SIZE];
	struct got g = { 0 };

	sa_get(m, IBR_SA_ATTR_NODE_RECORD);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, &o, on_result, &g, NULL), 0);
	now_ns += 400 * MS;
	mad_chan_tick(c, now_ns);
	CU_ASSERT_EQUAL(fake->sent[1].timeout_ms, 800);
	now_ns += 800 * MS;
	mad_chan_tick(c, now_ns);
	CU_ASSERT_EQUAL(fake->sent[2].timeout_ms, 1000); /* capped */
	/* the answer to the first attempt arrives now */
	response_to(r, 0, 0);
	mad_chan_input(c, r, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, 0);
	CU_ASSERT_EQUAL(g.attempts, 3);
	chan_free(c);
}

static void test_outstanding_bound(void)
{
	struct mad_chan *c = chan_new(2, 3);
	uint8_t m[IBR_MAD_SIZE], r[IBR_MAD_SIZE];
	struct got g[6] = { 0 };
	uint64_t tid[6];

	sa_get(m, IBR_SA_ATTR_NODE_RECORD);
	for (int i = 0; i < 5; i++)
		CU_ASSERT_EQUAL(
			mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g[i], &tid[i]), 0);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g[5], &tid[5]),
			-ENOBUFS);
	CU_ASSERT_EQUAL(fake->n_sent, 2);
	CU_ASSERT_EQUAL(mad_chan_outstanding(c), 2);
	CU_ASSERT_EQUAL(mad_chan_queued(c), 3);
	/* queued requests have no deadline yet: only the two in flight time out */
	now_ns += 100 * MS;
	mad_chan_tick(c, now_ns);
	CU_ASSERT_EQUAL(fake->n_sent, 4);
	/* answering the first lets the third go, in FIFO order */
	response_to(r, 0, 0);
	mad_chan_input(c, r, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g[0].calls, 1);
	CU_ASSERT_EQUAL(fake->n_sent, 5);
	CU_ASSERT_EQUAL(ibr_mad_tid(fake->sent[4].mad), tid[2]);
	CU_ASSERT_EQUAL(mad_chan_queued(c), 2);
	/* cancelling a queued one and an in-flight one */
	CU_ASSERT_EQUAL(mad_chan_cancel(c, tid[4]), 0);
	CU_ASSERT_EQUAL(g[4].status, -ECANCELED);
	CU_ASSERT_EQUAL(mad_chan_cancel(c, tid[1]), 0);
	CU_ASSERT_EQUAL(ibr_mad_tid(fake->sent[5].mad), tid[3]);
	CU_ASSERT_EQUAL(mad_chan_cancel(c, tid[1]), -ENOENT);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->queued, 3);
	chan_free(c);
	CU_ASSERT_EQUAL(g[2].status, -ECANCELED);
	CU_ASSERT_EQUAL(g[3].status, -ECANCELED);
}

static void test_reject_non_requests(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];

	sa_get(m, IBR_SA_ATTR_NODE_RECORD);
	ibr_mad_set_method(m, IBR_MAD_METHOD_GET_RESP);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, NULL, NULL),
			-EINVAL);
	ibr_mad_set_method(m, IBR_MAD_METHOD_SEND);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, NULL, NULL),
			-EINVAL);
	chan_free(c);
}

/* A callback that sends the next request from inside. */
static void on_result_chain(struct mad_chan *c, const struct mad_chan_result *r, void *arg)
{
	int *left = arg;
	uint8_t m[IBR_MAD_SIZE];

	if (--*left > 0) {
		sa_get(m, IBR_SA_ATTR_NODE_RECORD);
		CU_ASSERT_EQUAL(
			mad_chan_send_request(c, m, &sa_addr, NULL, on_result_chain, arg, NULL), 0);
	}
}

static void test_callback_reentry(void)
{
	struct mad_chan *c = chan_new(1, 1);
	uint8_t m[IBR_MAD_SIZE];
	int left = 3;

	sa_get(m, IBR_SA_ATTR_NODE_RECORD);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result_chain, &left, NULL),
			0);
	for (int i = 0; i < 3 * 4; i++) {
		now_ns += 2000 * MS;
		mad_chan_tick(c, now_ns);
	}
	CU_ASSERT_EQUAL(left, 0);
	CU_ASSERT_EQUAL(mad_chan_outstanding(c), 0);
	chan_free(c);
}

/* ---- unsolicited MADs ---- */

static const struct mad_addr from_sm = { .lid = 0xFFFF, .qpn = 0, .local_qpn = 0 };

static void test_default_responder_smp(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	const uint8_t path[1] = { 3 };

	ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_SM_INFO, 0, 0x0001000012345678ull,
			     0, path, 1);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sm);
	CU_ASSERT_EQUAL_FATAL(fake->n_sent, 1);
	CU_ASSERT_EQUAL(ibr_mad_method(fake->sent[0].mad), IBR_MAD_METHOD_GET_RESP);
	CU_ASSERT_EQUAL(ibr_smp_dr_status(fake->sent[0].mad), IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	CU_ASSERT(ibr_smp_dr_direction(fake->sent[0].mad));
	CU_ASSERT_EQUAL(ibr_mad_tid(fake->sent[0].mad), 0x0001000012345678ull);
	CU_ASSERT_EQUAL(ibr_mad_attr_id(fake->sent[0].mad), IBR_SMP_ATTR_SM_INFO);
	CU_ASSERT_EQUAL(fake->sent[0].to.lid, 0xFFFF);
	CU_ASSERT_EQUAL(fake->sent[0].to.qpn, 0);
	CU_ASSERT_EQUAL(fake->sent[0].timeout_ms, 0);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->default_replies, 1);
	chan_free(c);
}

static void sa_report(uint8_t *m, uint8_t class_version)
{
	ibr_mad_build_report(m, IBR_MGMT_CLASS_SUBN_ADM, IBR_ATTR_NOTICE, 0x77);
	ibr_mad_set_class_version(m, class_version);
}

static void test_default_responder_report(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];

	sa_report(m, IBR_SA_CLASS_VERSION);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL_FATAL(fake->n_sent, 1);
	CU_ASSERT_EQUAL(ibr_mad_method(fake->sent[0].mad), IBR_MAD_METHOD_REPORT_RESP);
	CU_ASSERT_EQUAL(ibr_mad_status(fake->sent[0].mad), IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	CU_ASSERT_EQUAL(fake->sent[0].to.lid, SA_LID);
	CU_ASSERT_EQUAL(fake->sent[0].to.qpn, 1);
	CU_ASSERT_EQUAL(fake->sent[0].to.qkey, MAD_QP1_QKEY);
	/* a class version we do not speak: answered with 0x0004, then dropped */
	sa_report(m, 1);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL_FATAL(fake->n_sent, 2);
	CU_ASSERT_EQUAL(ibr_mad_status(fake->sent[1].mad), IBR_MAD_STATUS_BAD_VERSION);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_HEADER], 1);
	/* Send has no response: counted, not answered */
	sa_report(m, IBR_SA_CLASS_VERSION);
	ibr_mad_set_method(m, IBR_MAD_METHOD_SEND);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(fake->n_sent, 2);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_NOT_ANSWERABLE], 1);
	chan_free(c);
}

static int handled;

static bool report_handler(struct mad_chan *c, struct mad_chan_msg *msg, void *arg)
{
	uint8_t resp[IBR_MAD_SIZE];

	handled++;
	if (arg)
		return false; /* let the default responder answer */
	CU_ASSERT_EQUAL(msg->from.lid, SA_LID);
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, msg->mad, msg->len, 0), 0);
	CU_ASSERT_EQUAL(mad_chan_respond(c, msg, resp), 0);
	CU_ASSERT(msg->responded);
	return true;
}

static bool custom_default(struct mad_chan *c, struct mad_chan_msg *msg, void *arg)
{
	(*(int *)arg)++;
	return false; /* the built-in one must still answer */
}

static void test_handler(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	int customs = 0;

	CU_ASSERT_EQUAL(mad_chan_set_handler(c, IBR_MGMT_CLASS_SUBN_ADM, report_handler, NULL), 0);
	CU_ASSERT_EQUAL(mad_chan_set_handler(c, 0x00, report_handler, NULL), -EINVAL);
	sa_report(m, IBR_SA_CLASS_VERSION);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(handled, 1);
	CU_ASSERT_EQUAL_FATAL(fake->n_sent, 1);
	CU_ASSERT_EQUAL(ibr_mad_status(fake->sent[0].mad), 0);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->default_replies, 0);
	/* a handler that declines: default responder answers */
	CU_ASSERT_EQUAL(mad_chan_set_handler(c, IBR_MGMT_CLASS_SUBN_ADM, report_handler, c), 0);
	mad_chan_set_default_responder(c, custom_default, &customs);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(handled, 2);
	CU_ASSERT_EQUAL(customs, 1);
	CU_ASSERT_EQUAL_FATAL(fake->n_sent, 2);
	CU_ASSERT_EQUAL(ibr_mad_status(fake->sent[1].mad), IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	/* a class registered late goes to the transport first */
	CU_ASSERT_EQUAL(mad_chan_set_handler(c, IBR_MGMT_CLASS_PERF, report_handler, NULL), 0);
	CU_ASSERT_EQUAL(fake->registered[fake->n_registered - 1], IBR_MGMT_CLASS_PERF);
	chan_free(c);
}

static void test_garbage(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE] = { 0 };
	struct mad_addr bounced = from_sa;

	mad_chan_input(c, m, 10, &from_sa);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa); /* base version 0 */
	sa_get(m, IBR_SA_ATTR_NODE_RECORD);
	mad_chan_input(c, m, 100, &from_sa); /* SA MAD of 100 bytes without RMPP */
	bounced.status = 110;
	mad_chan_input(c, m, IBR_MAD_SIZE, &bounced);
	CU_ASSERT_EQUAL(fake->n_sent, 0);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_SHORT], 1);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_HEADER], 2);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_TRANSPORT_STATUS], 1);
	CU_ASSERT_STRING_EQUAL(mad_chan_drop_name(MAD_CHAN_DROP_SHORT),
			       "shorter than the MAD common header");
	chan_free(c);
}

static void test_issm_after_registration(void)
{
	struct mad_chan *c = chan_new(0, 0);

	CU_ASSERT_EQUAL(fake->n_registered, 3);
	CU_ASSERT_EQUAL(mad_chan_set_issm(c, true), 0);
	CU_ASSERT_EQUAL(fake->issm, 1);
	CU_ASSERT_EQUAL(fake->issm_after_regs, 3);
	CU_ASSERT_EQUAL(mad_chan_fd(c), 42);
	CU_ASSERT_STRING_EQUAL(mad_chan_name(c), "test");
	chan_free(c);

	/* a transport that refuses QP0 classes: no channel, transport closed */
	fake = calloc(1, sizeof(*fake));
	fake->base.ops = &fake_ops;
	fake->fail_class = IBR_MGMT_CLASS_SUBN_DR;
	CU_ASSERT_PTR_NULL(mad_chan_create(&fake->base, &(struct mad_chan_config){ 0 }));
	CU_ASSERT(fake->closed);
	free(fake);
	fake = NULL;
}

/* ---- RMPP through the channel ---- */

/* Segment `seg` of a GetTable response to sent MAD 0, records filled with `fill`. */
static void rmpp_seg(uint8_t *m, uint32_t seg, uint8_t flags, uint32_t paylen)
{
	response_to(m, 0, 0);
	ibr_mad_set_method(m, IBR_MAD_METHOD_GET_TABLE_RESP);
	ibr_rmpp_set_version(m, IBR_RMPP_VERSION);
	ibr_rmpp_set_type(m, IBR_RMPP_TYPE_DATA);
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE | flags);
	ibr_rmpp_set_seg_num(m, seg);
	ibr_rmpp_set_data2(m, paylen);
	ibr_sa_set_attr_offset(m, 2);
	memset(m + IBR_SA_DATA_OFFS, (int)seg, IBR_SA_DATA_SIZE);
}

static void test_rmpp_reassembly(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	struct got g = { 0 };
	/* 3 segments: 200 + 200 + 40 data bytes; PayloadLength counts the SA header */
	uint32_t total = 2 * MAD_RMPP_SEG_PAYLOAD + 20 + 40;

	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	rmpp_seg(m, 1, IBR_RMPP_FLAG_FIRST, total);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL_FATAL(fake->n_sent, 2); /* ACK 1, window opened */
	CU_ASSERT_EQUAL(ibr_rmpp_type(fake->sent[1].mad), IBR_RMPP_TYPE_ACK);
	CU_ASSERT_EQUAL(ibr_mad_method(fake->sent[1].mad), IBR_MAD_METHOD_GET_TABLE);
	CU_ASSERT_EQUAL(ibr_rmpp_seg_num(fake->sent[1].mad), 1);
	CU_ASSERT_EQUAL(ibr_rmpp_data2(fake->sent[1].mad), 1 + MAD_RMPP_WINDOW);
	CU_ASSERT_EQUAL(fake->sent[1].to.lid, SA_LID);
	/* out of order: 3 before 2 is dropped; 1 again is a duplicate: re-ACK */
	rmpp_seg(m, 3, IBR_RMPP_FLAG_LAST, 60);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_RMPP_OUT_OF_WINDOW], 1);
	rmpp_seg(m, 1, IBR_RMPP_FLAG_FIRST, total);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(fake->n_sent, 3);
	/* a short segment is dropped */
	rmpp_seg(m, 2, 0, MAD_RMPP_SEG_PAYLOAD);
	mad_chan_input(c, m, 200, &from_sa);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->drop[MAD_CHAN_DROP_BAD_SEGMENT], 1);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g.calls, 0);
	rmpp_seg(m, 3, IBR_RMPP_FLAG_LAST, 60);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL_FATAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, 0);
	CU_ASSERT_EQUAL(g.len, IBR_SA_DATA_OFFS + 200 + 200 + 40);
	CU_ASSERT_EQUAL(g.mad[IBR_SA_DATA_OFFS], 1);
	CU_ASSERT_EQUAL(g.mad[IBR_SA_DATA_OFFS + 200], 2);
	CU_ASSERT_EQUAL(g.mad[IBR_SA_DATA_OFFS + 439], 3);
	CU_ASSERT_EQUAL(ibr_rmpp_type(fake->sent[fake->n_sent - 1].mad), IBR_RMPP_TYPE_ACK);
	CU_ASSERT_EQUAL(ibr_rmpp_seg_num(fake->sent[fake->n_sent - 1].mad), 3);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->rmpp_acks, 3);
	chan_free(c);
}

static void test_rmpp_timeout_restarts(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	struct got g = { 0 };

	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	rmpp_seg(m, 1, IBR_RMPP_FLAG_FIRST, 0);
	now_ns += 50 * MS;
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	/* progress pushed the deadline: 100 ms from the segment, not from the send */
	CU_ASSERT_EQUAL(mad_chan_timeout_ms(c, now_ns), 100);
	now_ns += 100 * MS;
	mad_chan_tick(c, now_ns); /* resend: the transfer starts again from segment 1 */
	CU_ASSERT_EQUAL(ibr_mad_method(fake->sent[fake->n_sent - 1].mad), IBR_MAD_METHOD_GET_TABLE);
	CU_ASSERT_EQUAL(ibr_rmpp_type(fake->sent[fake->n_sent - 1].mad), 0);
	rmpp_seg(m, 1, IBR_RMPP_FLAG_FIRST | IBR_RMPP_FLAG_LAST, 20 + 8);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, 0);
	CU_ASSERT_EQUAL(g.len, IBR_SA_DATA_OFFS + 8);
	chan_free(c);
}

static void test_rmpp_abort(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	struct got g = { 0 };

	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	rmpp_seg(m, 2, IBR_RMPP_FLAG_FIRST, 0); /* First on segment 2 */
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g.status, -ECONNABORTED);
	CU_ASSERT_EQUAL(ibr_rmpp_type(fake->sent[1].mad), IBR_RMPP_TYPE_ABORT);
	CU_ASSERT_EQUAL(ibr_rmpp_status(fake->sent[1].mad), IBR_RMPP_STATUS_BAD_FIRST_SEG);
	chan_free(c);
}

static void test_truncated_table(void)
{
	struct mad_chan *c = chan_new(0, 0);
	uint8_t m[IBR_MAD_SIZE];
	struct got g = { 0 };

	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD, 0, 0, 0);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	/* what umad2sim delivers: Active, version 0, neither First nor Last */
	rmpp_seg(m, 0, 0, 0);
	ibr_rmpp_set_version(m, 0);
	ibr_rmpp_set_type(m, 0);
	mad_chan_input(c, m, IBR_MAD_SIZE, &from_sa);
	CU_ASSERT_EQUAL(g.calls, 1);
	CU_ASSERT_EQUAL(g.status, -EMSGSIZE);
	CU_ASSERT_EQUAL(g.len, IBR_MAD_SIZE);
	CU_ASSERT_EQUAL(ibr_sa_attr_offset(g.mad), 2);
	CU_ASSERT_EQUAL(mad_chan_stats(c)->truncated, 1);
	CU_ASSERT_EQUAL(fake->n_sent, 1); /* no ACK for a transfer that never was */
	chan_free(c);
}

static void test_kernel_rmpp(void)
{
	struct mad_chan *c;
	uint8_t m[IBR_MAD_SIZE], *big = calloc(1, 1056);
	struct got g = { 0 };

	fake_ops.flags = MAD_TP_RMPP;
	c = chan_new(0, 0);
	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0);
	CU_ASSERT_EQUAL(mad_chan_send_request(c, m, &sa_addr, NULL, on_result, &g, NULL), 0);
	rmpp_seg(m, 1, IBR_RMPP_FLAG_FIRST, 0);
	memcpy(big, m, IBR_MAD_SIZE);
	mad_chan_input(c, big, 1056, &from_sa);
	CU_ASSERT_EQUAL(g.status, 0);
	CU_ASSERT_EQUAL(g.len, 1056);
	CU_ASSERT_EQUAL(fake->n_sent, 1); /* the kernel ACKs, not us */
	chan_free(c);
	fake_ops.flags = 0;
	free(big);
}

static CU_TestInfo tests[] = {
	{ "TIDs unique, channel id in the high 32 bits", test_tid_unique_with_chan_id },
	{ "responses matched on TID and class", test_match_response },
	{ "retries with exponential backoff, then -ETIMEDOUT", test_retry_backoff },
	{ "backoff capped; an answer to an earlier attempt counts",
	  test_backoff_cap_and_late_answer },
	{ "outstanding bound, FIFO queue, cancel", test_outstanding_bound },
	{ "drain: a refused send retried and answered; the deadline", test_drain },
	{ "only requests with a response are tracked", test_reject_non_requests },
	{ "a callback may send the next request", test_callback_reentry },
	{ "unanswered SMP: default 0x000C, D bit, TID echoed", test_default_responder_smp },
	{ "unanswered Report: ReportResp 0x000C; bad version 0x0004",
	  test_default_responder_report },
	{ "class handlers, declining handler, custom default", test_handler },
	{ "garbage dropped under its reason", test_garbage },
	{ "agents registered before IsSM", test_issm_after_registration },
	{ "RMPP: ACKs, out of order, duplicate, short segment", test_rmpp_reassembly },
	{ "RMPP: progress extends the deadline, timeout restarts", test_rmpp_timeout_restarts },
	{ "RMPP: protocol error aborts the request", test_rmpp_abort },
	{ "umad2sim-truncated table reported as -EMSGSIZE", test_truncated_table },
	{ "transport RMPP: long message delivered whole", test_kernel_rmpp },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_mad_chan", tests);
}
