/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_chan.c - the MAD channel of one port: agents, TIDs, request/response
 * matching, timeouts with backoff, the outstanding bound, RMPP receive, and
 * the answer-everything rule for unsolicited MADs.  See mad_chan.h.
 *
 * IBA vol. 1 references: 13.4.6 (request/response, TransactionID, retries),
 * 13.4.5 (methods and their responses), 13.6 (RMPP), 13.5.3.1 (QP1 Q_Key).
 */
#include "mad/mad_chan.h"
#include "mad/mad_rmpp.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#define CHAN_MAX_AGENTS 8
#define NS_PER_MS	1000000ull

struct chan_req {
	TAILQ_ENTRY(chan_req) link;
	uint8_t mad[IBR_MAD_SIZE];
	struct mad_addr to;
	uint64_t tid;
	uint32_t timeout_ms;
	unsigned int retries, attempts;
	uint64_t deadline;
	mad_chan_resp_fn cb;
	void *arg;
	bool in_flight;
	bool rmpp_active;
	struct mad_rmpp_rx rx;
};

TAILQ_HEAD(chan_req_list, chan_req);

struct chan_agent {
	uint8_t mgmt_class;
	bool used;
	mad_chan_unsol_fn fn;
	void *arg;
};

struct mad_chan {
	struct mad_transport *tp;
	struct mad_chan_config cfg;
	char name[32];
	uint32_t seq;
	struct chan_req_list flight, queue;
	unsigned int n_flight, n_queue;
	struct chan_agent agents[CHAN_MAX_AGENTS];
	mad_chan_unsol_fn dflt;
	void *dflt_arg;
	bool issm;
	struct mad_chan_stats st;
	struct ibr_ratelimit rl;
};

static const char *const drop_names[] = {
#define X(n, s) s,
	MAD_CHAN_DROPS(X)
#undef X
};

_Static_assert(MAD_CHAN_DROP_MAX <= 16, "mad_chan_stats.drop[] too small");

const char *mad_chan_drop_name(enum mad_chan_drop d)
{
	return d < MAD_CHAN_DROP_MAX ? drop_names[d] : "unknown";
}

static uint64_t chan_now(const struct mad_chan *c)
{
	return c->cfg.clock(c->cfg.clock_arg);
}

static uint64_t clock_default(void *arg)
{
	return ibr_now_ns();
}

static void chan_drop(struct mad_chan *c, enum mad_chan_drop why, const uint8_t *mad, size_t len)
{
	c->st.dropped++;
	c->st.drop[why]++;
	if (ibr_ratelimit_ok(&c->rl, chan_now(c)))
		log_debug("sa: %s: dropped a %zu-byte MAD (class 0x%02x): %s", c->name, len,
			  len >= 2 ? mad[1] : 0, drop_names[why]);
}

/* ---- agents ---- */

static struct chan_agent *agent_find(struct mad_chan *c, uint8_t mgmt_class)
{
	for (int i = 0; i < CHAN_MAX_AGENTS; i++)
		if (c->agents[i].used && c->agents[i].mgmt_class == mgmt_class)
			return &c->agents[i];
	return NULL;
}

/* Find or register the agent of a class (13.4.4) with the transport. */
static struct chan_agent *agent_get(struct mad_chan *c, uint8_t mgmt_class)
{
	struct chan_agent *a = agent_find(c, mgmt_class);
	int rc;

	if (a)
		return a;
	for (int i = 0; i < CHAN_MAX_AGENTS; i++) {
		if (c->agents[i].used)
			continue;
		rc = c->tp->ops->register_class(c->tp, mgmt_class,
						(uint8_t)ibr_mad_class_default_version(mgmt_class),
						ibr_mad_class_has_rmpp(mgmt_class));
		if (rc) {
			errno = -rc;
			log_warn("sa: %s: cannot register class 0x%02x", c->name, mgmt_class);
			return NULL;
		}
		c->agents[i] = (struct chan_agent){ .mgmt_class = mgmt_class, .used = true };
		return &c->agents[i];
	}
	return NULL;
}

int mad_chan_set_handler(struct mad_chan *c, uint8_t mgmt_class, mad_chan_unsol_fn fn, void *arg)
{
	struct chan_agent *a;

	if (!ibr_mad_class_is_known(mgmt_class))
		return -EINVAL;
	a = agent_get(c, mgmt_class);
	if (!a)
		return -ENOSPC;
	a->fn = fn;
	a->arg = arg;
	return 0;
}

void mad_chan_set_default_responder(struct mad_chan *c, mad_chan_unsol_fn fn, void *arg)
{
	c->dflt = fn ? fn : mad_chan_default_respond;
	c->dflt_arg = fn ? arg : NULL;
}

int mad_chan_set_issm(struct mad_chan *c, bool on)
{
	static const uint8_t needed[] = { IBR_MGMT_CLASS_SUBN_LID, IBR_MGMT_CLASS_SUBN_DR,
					  IBR_MGMT_CLASS_SUBN_ADM };
	int rc;

	/* LAB.md: agents first, then IsSM, or the SMInfo Get races the registration */
	for (size_t i = 0; i < sizeof(needed); i++)
		if (!agent_find(c, needed[i]))
			return -EINVAL;
	if (!c->tp->ops->set_issm) /* a transport that never sets it (mad_umad.c) */
		return -EOPNOTSUPP;
	rc = c->tp->ops->set_issm(c->tp, on);
	if (rc == 0)
		c->issm = on;
	return rc;
}

/* ---- create / destroy ---- */

struct mad_chan *mad_chan_create(struct mad_transport *tp, const struct mad_chan_config *cfg)
{
	static const uint8_t classes[] = { IBR_MGMT_CLASS_SUBN_LID, IBR_MGMT_CLASS_SUBN_DR,
					   IBR_MGMT_CLASS_SUBN_ADM };
	struct mad_chan *c = calloc(1, sizeof(*c));

	if (!c) {
		tp->ops->close(tp);
		return NULL;
	}
	c->tp = tp;
	c->cfg = *cfg;
	snprintf(c->name, sizeof(c->name), "%s", cfg->name ? cfg->name : "mad");
	c->cfg.name = c->name;
	if (!c->cfg.max_outstanding)
		c->cfg.max_outstanding = 16;
	if (!c->cfg.max_queued)
		c->cfg.max_queued = 4096;
	if (!c->cfg.timeout_ms)
		c->cfg.timeout_ms = 200;
	if (!c->cfg.max_timeout_ms)
		c->cfg.max_timeout_ms = 5000;
	if (!c->cfg.retries)
		c->cfg.retries = 3;
	if (!c->cfg.rmpp_max_len)
		c->cfg.rmpp_max_len = 16u << 20;
	if (!c->cfg.clock)
		c->cfg.clock = clock_default;
	c->rl = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(10, 20);
	c->dflt = mad_chan_default_respond;
	TAILQ_INIT(&c->flight);
	TAILQ_INIT(&c->queue);
	for (size_t i = 0; i < sizeof(classes); i++) {
		if (!agent_get(c, classes[i])) {
			tp->ops->close(tp);
			free(c);
			return NULL;
		}
	}
	return c;
}

static void req_finish(struct mad_chan *c, struct chan_req *r, int status, const uint8_t *mad,
		       size_t len, const struct mad_addr *from);

void mad_chan_destroy(struct mad_chan *c)
{
	struct chan_req *r;

	if (!c)
		return;
	while ((r = TAILQ_FIRST(&c->queue)) || (r = TAILQ_FIRST(&c->flight)))
		req_finish(c, r, -ECANCELED, NULL, 0, NULL);
	if (c->issm)
		c->tp->ops->set_issm(c->tp, false);
	c->tp->ops->close(c->tp);
	free(c);
}

int mad_chan_fd(const struct mad_chan *c)
{
	return c->tp->ops->get_fd(c->tp);
}

const char *mad_chan_name(const struct mad_chan *c)
{
	return c->name;
}

const struct mad_chan_stats *mad_chan_stats(const struct mad_chan *c)
{
	return &c->st;
}

unsigned int mad_chan_outstanding(const struct mad_chan *c)
{
	return c->n_flight;
}

unsigned int mad_chan_queued(const struct mad_chan *c)
{
	return c->n_queue;
}

/* ---- requests ---- */

/* The timeout of attempt n (0-based): timeout << n, capped (13.4.6.4 leaves backoff to us). */
static uint32_t req_attempt_timeout(const struct mad_chan *c, const struct chan_req *r)
{
	uint64_t t = r->timeout_ms;
	unsigned int n = r->attempts ? r->attempts - 1 : 0;

	t = n >= 16 ? (uint64_t)c->cfg.max_timeout_ms : t << n;
	return t > c->cfg.max_timeout_ms ? c->cfg.max_timeout_ms : (uint32_t)t;
}

/* Send (or resend) an in-flight request; the deadline is set even if the send fails. */
static void req_transmit(struct mad_chan *c, struct chan_req *r)
{
	uint32_t t;
	int rc;

	r->attempts++;
	t = req_attempt_timeout(c, r);
	r->deadline = chan_now(c) + (uint64_t)t * NS_PER_MS;
	rc = c->tp->ops->send(c->tp, r->mad, IBR_MAD_SIZE, &r->to, t);
	if (rc) {
		c->st.send_errors++;
		if (ibr_ratelimit_ok(&c->rl, chan_now(c)))
			log_debug("sa: %s: send of TID 0x%016llx failed (%s), will retry", c->name,
				  (unsigned long long)r->tid, strerror(-rc));
	} else {
		c->st.sent++;
	}
}

/* Move queued requests into flight while there is room. */
static void chan_pump(struct mad_chan *c)
{
	struct chan_req *r;

	while (c->n_flight < c->cfg.max_outstanding && (r = TAILQ_FIRST(&c->queue))) {
		TAILQ_REMOVE(&c->queue, r, link);
		c->n_queue--;
		TAILQ_INSERT_TAIL(&c->flight, r, link);
		c->n_flight++;
		r->in_flight = true;
		req_transmit(c, r);
	}
}

static void req_finish(struct mad_chan *c, struct chan_req *r, int status, const uint8_t *mad,
		       size_t len, const struct mad_addr *from)
{
	struct mad_chan_result res = { .status = status,
				       .tid = r->tid,
				       .mad = mad,
				       .len = len,
				       .from = from,
				       .attempts = r->attempts };

	if (r->in_flight) {
		TAILQ_REMOVE(&c->flight, r, link);
		c->n_flight--;
	} else {
		TAILQ_REMOVE(&c->queue, r, link);
		c->n_queue--;
	}
	if (r->cb)
		r->cb(c, &res, r->arg);
	mad_rmpp_rx_free(&r->rx);
	free(r);
}

static bool chan_tid_busy(const struct mad_chan *c, uint32_t seq)
{
	const struct chan_req *r;

	TAILQ_FOREACH(r, &c->flight, link)
	if ((uint32_t)r->tid == seq)
		return true;
	TAILQ_FOREACH(r, &c->queue, link)
	if ((uint32_t)r->tid == seq)
		return true;
	return false;
}

/* A fresh TID (13.4.6.4): channel id above, a sequence number below, never 0 below. */
static uint64_t chan_next_tid(struct mad_chan *c)
{
	do {
		c->seq++;
	} while (c->seq == 0 || chan_tid_busy(c, c->seq));
	return (uint64_t)c->cfg.chan_id << 32 | c->seq;
}

int mad_chan_send_request(struct mad_chan *c, const uint8_t *mad, const struct mad_addr *to,
			  const struct mad_chan_req_opts *opts, mad_chan_resp_fn cb, void *arg,
			  uint64_t *tid)
{
	struct chan_req *r;

	if (ibr_mad_is_response(mad) || !ibr_mad_response_method(ibr_mad_method(mad)))
		return -EINVAL;
	if (c->n_flight >= c->cfg.max_outstanding && c->n_queue >= c->cfg.max_queued)
		return -ENOBUFS;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	memcpy(r->mad, mad, IBR_MAD_SIZE);
	r->to = *to;
	r->tid = chan_next_tid(c);
	ibr_mad_set_tid(r->mad, r->tid);
	r->timeout_ms = opts && opts->timeout_ms ? opts->timeout_ms : c->cfg.timeout_ms;
	r->retries = opts && opts->retries >= 0 ? (unsigned int)opts->retries : c->cfg.retries;
	r->cb = cb;
	r->arg = arg;
	if (tid)
		*tid = r->tid;
	TAILQ_INSERT_TAIL(&c->queue, r, link);
	c->n_queue++;
	if (c->n_flight >= c->cfg.max_outstanding)
		c->st.queued++;
	chan_pump(c);
	return 0;
}

int mad_chan_cancel(struct mad_chan *c, uint64_t tid)
{
	struct chan_req *r;

	TAILQ_FOREACH(r, &c->flight, link)
	if (r->tid == tid)
		goto found;
	TAILQ_FOREACH(r, &c->queue, link)
	if (r->tid == tid)
		goto found;
	return -ENOENT;
found:
	req_finish(c, r, -ECANCELED, NULL, 0, NULL);
	chan_pump(c);
	return 0;
}

/* ---- timers ---- */

void mad_chan_tick(struct mad_chan *c, uint64_t now_ns)
{
	struct chan_req *r, *next;

	for (r = TAILQ_FIRST(&c->flight); r; r = next) {
		next = TAILQ_NEXT(r, link);
		if (r->deadline > now_ns)
			continue;
		if (r->attempts > r->retries) {
			c->st.timeouts++;
			log_debug("sa: %s: TID 0x%016llx timed out after %u attempts", c->name,
				  (unsigned long long)r->tid, r->attempts);
			req_finish(c, r, -ETIMEDOUT, NULL, 0, NULL);
			/* the callback may have finished `next` through mad_chan_cancel() */
			next = TAILQ_FIRST(&c->flight);
			continue;
		}
		/* a partial RMPP transfer is dropped: the resent request restarts it */
		if (r->rmpp_active) {
			mad_rmpp_rx_free(&r->rx);
			r->rmpp_active = false;
		}
		c->st.retries++;
		req_transmit(c, r);
	}
	chan_pump(c);
}

uint64_t mad_chan_next_deadline(const struct mad_chan *c)
{
	const struct chan_req *r;
	uint64_t d = UINT64_MAX;

	TAILQ_FOREACH(r, &c->flight, link)
	if (r->deadline < d)
		d = r->deadline;
	return d;
}

int mad_chan_timeout_ms(const struct mad_chan *c, uint64_t now_ns)
{
	uint64_t d = mad_chan_next_deadline(c), ms;

	if (d == UINT64_MAX)
		return -1;
	if (d <= now_ns)
		return 0;
	ms = (d - now_ns + NS_PER_MS - 1) / NS_PER_MS;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

unsigned int mad_chan_drain(struct mad_chan *c, uint64_t until_ns)
{
	for (;;) {
		uint64_t now = chan_now(c), next;
		struct pollfd p = { .fd = mad_chan_fd(c), .events = POLLIN };

		mad_chan_tick(c, now); /* retries, including a send that failed (EAGAIN) */
		if (!c->n_flight && !c->n_queue)
			return 0;
		if (now >= until_ns)
			return c->n_flight + c->n_queue;
		next = mad_chan_next_deadline(c);
		next = next < until_ns ? next : until_ns;
		if (next > now &&
		    poll(&p, 1, (int)((next - now + NS_PER_MS - 1) / NS_PER_MS)) < 0 &&
		    errno != EINTR)
			return c->n_flight + c->n_queue;
		if (mad_chan_process(c, 0) < 0)
			return c->n_flight + c->n_queue;
	}
}

/* ---- sending ---- */

int mad_chan_send(struct mad_chan *c, const uint8_t *mad, size_t len, const struct mad_addr *to)
{
	int rc;

	if (len < IBR_MAD_HDR_SIZE || len > IBR_MAD_SIZE)
		return -EINVAL;
	rc = c->tp->ops->send(c->tp, mad, len, to, 0);
	if (rc)
		c->st.send_errors++;
	else
		c->st.sent++;
	return rc;
}

/* The address of the answer to a MAD from `from` (13.4.6.2: back to its source). */
static void chan_reply_addr(const struct mad_addr *from, struct mad_addr *to)
{
	*to = (struct mad_addr){ .lid = from->lid,
				 .local_lid = from->local_lid,
				 .qpn = from->qpn,
				 .local_qpn = from->local_qpn,
				 .qkey = from->local_qpn ? MAD_QP1_QKEY : 0,
				 .pkey_index = from->pkey_index,
				 .sl = from->sl };
}

int mad_chan_respond(struct mad_chan *c, struct mad_chan_msg *msg, const uint8_t *resp)
{
	struct mad_addr to;
	int rc;

	chan_reply_addr(&msg->from, &to);
	rc = mad_chan_send(c, resp, IBR_MAD_SIZE, &to);
	if (rc == 0)
		msg->responded = true;
	else
		chan_drop(c, MAD_CHAN_DROP_RESP_SEND, msg->mad, msg->len);
	return rc;
}

bool mad_chan_default_respond(struct mad_chan *c, struct mad_chan_msg *msg, void *arg)
{
	uint8_t resp[IBR_MAD_SIZE];

	if (ibr_mad_build_response(resp, msg->mad, msg->len, IBR_MAD_STATUS_UNSUP_METHOD_ATTR))
		return false;
	c->st.default_replies++;
	return mad_chan_respond(c, msg, resp) == 0;
}

/* ---- receiving ---- */

static struct chan_req *chan_match(struct mad_chan *c, const uint8_t *mad)
{
	uint32_t seq = (uint32_t)ibr_mad_tid(mad);
	struct chan_req *r;

	TAILQ_FOREACH(r, &c->flight, link)
	if ((uint32_t)r->tid == seq && ibr_mad_mgmt_class(r->mad) == ibr_mad_mgmt_class(mad))
		return r;
	return NULL;
}

/* One segment of an RMPP response to r (13.6): feed the reassembly, ACK, finish. */
static void chan_input_rmpp(struct mad_chan *c, struct chan_req *r, const uint8_t *mad, size_t len,
			    const struct mad_addr *from)
{
	uint8_t reply[IBR_MAD_SIZE];
	struct mad_addr to;
	bool send_reply;
	enum mad_rmpp_rc rc;

	if (len != IBR_MAD_SIZE) {
		chan_drop(c, MAD_CHAN_DROP_BAD_SEGMENT, mad, len);
		return;
	}
	if (!r->rmpp_active) {
		if (mad_rmpp_rx_init(&r->rx, ibr_mad_mgmt_class(mad), c->cfg.rmpp_max_len)) {
			chan_drop(c, MAD_CHAN_DROP_BAD_SEGMENT, mad, len);
			return;
		}
		r->rmpp_active = true;
	}
	c->st.rmpp_segments++;
	rc = mad_rmpp_rx_input(&r->rx, mad, len, reply, &send_reply);
	if (send_reply) {
		chan_reply_addr(from, &to);
		if (ibr_rmpp_type(reply) == IBR_RMPP_TYPE_ACK)
			c->st.rmpp_acks++;
		else
			c->st.rmpp_aborts++;
		if (c->tp->ops->send(c->tp, reply, IBR_MAD_SIZE, &to, 0))
			c->st.send_errors++;
	}
	switch (rc) {
	case MAD_RMPP_MORE:
		/* progress: the sender is alive, give it a fresh attempt timeout */
		r->deadline = chan_now(c) + (uint64_t)req_attempt_timeout(c, r) * NS_PER_MS;
		break;
	case MAD_RMPP_DROP:
		chan_drop(c, MAD_CHAN_DROP_RMPP_OUT_OF_WINDOW, mad, len);
		break;
	case MAD_RMPP_DONE:
		c->st.responses++;
		req_finish(c, r, 0, r->rx.buf, r->rx.len, from);
		chan_pump(c);
		break;
	case MAD_RMPP_STOPPED:
		c->st.rmpp_aborts++;
		/* fall through */
	case MAD_RMPP_ABORT:
		log_debug("sa: %s: RMPP transfer of TID 0x%016llx aborted", c->name,
			  (unsigned long long)r->tid);
		req_finish(c, r, -ECONNABORTED, NULL, 0, from);
		chan_pump(c);
		break;
	}
}

static void chan_input_response(struct mad_chan *c, const uint8_t *mad, size_t len,
				const struct mad_addr *from)
{
	struct chan_req *r = chan_match(c, mad);
	uint8_t cls = ibr_mad_mgmt_class(mad);

	if (!r) {
		chan_drop(c, MAD_CHAN_DROP_UNMATCHED, mad, len);
		return;
	}
	if (ibr_rmpp_is_umad2sim_truncated(mad, len)) {
		/* LAB.md: umad2sim cut a GetTable response after its first MAD */
		/* said once at info: a transport without RMPP cuts every table */
		if (c->st.truncated++ == 0)
			log_info("sa: %s: %s response of TID 0x%016llx truncated by a transport "
				 "without RMPP (said once)",
				 c->name, ibr_mad_attr_name(cls, ibr_mad_attr_id(mad)),
				 (unsigned long long)r->tid);
		req_finish(c, r, -EMSGSIZE, mad, len, from);
		chan_pump(c);
		return;
	}
	if (ibr_mad_class_has_rmpp(cls) && (ibr_rmpp_flags(mad) & IBR_RMPP_FLAG_ACTIVE) &&
	    !(c->tp->ops->flags & MAD_TP_RMPP)) {
		chan_input_rmpp(c, r, mad, len, from);
		return;
	}
	c->st.responses++;
	req_finish(c, r, 0, mad, len, from);
	chan_pump(c);
}

/* An unsolicited request: its agent's handler, else the default responder (13.4.6.1). */
static void chan_input_request(struct mad_chan *c, const uint8_t *mad, size_t len,
			       const struct mad_addr *from)
{
	struct mad_chan_msg msg = { .mad = mad, .len = len, .from = *from };
	struct chan_agent *a = agent_find(c, ibr_mad_mgmt_class(mad));

	c->st.unsolicited++;
	if (a && a->fn && a->fn(c, &msg, a->arg))
		return;
	if (msg.responded)
		return;
	if (!ibr_mad_response_method(ibr_mad_method(mad))) {
		chan_drop(c, MAD_CHAN_DROP_NOT_ANSWERABLE, mad, len);
		return;
	}
	if (!c->dflt(c, &msg, c->dflt_arg) && !msg.responded)
		mad_chan_default_respond(c, &msg, NULL);
}

void mad_chan_input(struct mad_chan *c, const uint8_t *mad, size_t len, const struct mad_addr *from)
{
	struct ibr_mad_hdr h;
	enum ibr_mad_err err;
	uint8_t resp[IBR_MAD_SIZE];
	struct mad_chan_msg msg;

	c->st.recv++;
	err = ibr_mad_parse(mad, len, &h);
	if (err == IBR_MAD_ERR_SHORT) {
		chan_drop(c, MAD_CHAN_DROP_SHORT, mad, len);
		return;
	}
	if (from->status) {
		/* our own request handed back (ibsim: 110, dropped on the way): retry on timer */
		chan_drop(c, MAD_CHAN_DROP_TRANSPORT_STATUS, mad, len);
		return;
	}
	if (err != IBR_MAD_OK) {
		/* 13.4.7: a request in a class version we do not speak still gets an answer */
		if (err == IBR_MAD_ERR_CLASS_VERSION && !(h.method & IBR_MAD_METHOD_RESP) &&
		    ibr_mad_build_response(resp, mad, len, IBR_MAD_STATUS_BAD_VERSION) == 0) {
			msg = (struct mad_chan_msg){ .mad = mad, .len = len, .from = *from };
			mad_chan_respond(c, &msg, resp);
		}
		chan_drop(c, MAD_CHAN_DROP_HEADER, mad, len);
		return;
	}
	if (h.method & IBR_MAD_METHOD_RESP)
		chan_input_response(c, mad, len, from);
	else
		chan_input_request(c, mad, len, from);
}

int mad_chan_process(struct mad_chan *c, unsigned int budget)
{
	unsigned int n;

	if (!budget)
		budget = 64;
	for (n = 0; n < budget; n++) {
		const uint8_t *mad;
		struct mad_addr from = { 0 };
		ssize_t len = c->tp->ops->recv(c->tp, &mad, &from);

		if (len == 0 || len == -EAGAIN || len == -EINTR)
			break;
		if (len < 0)
			return n ? (int)n : (int)len;
		mad_chan_input(c, mad, (size_t)len, &from);
	}
	return (int)n;
}
