/*
 * io_verbs.c - the verbs data-path backend (io_verbs.h): set-up, receive,
 * send.  With io_verbs_event.c (async events, port state) and
 * io_verbs_mcast.c (multicast attachment, the Q_Key QPs) these are the
 * files of ibrouter that call ibv_* (DESIGN.md).
 * Tests link them with the fake provider of tests/fakes/, production with
 * libibverbs.
 */
#include "router/io_verbs_int.h"
#include "router/io_verbs_synth.h"

#include "lib/ibr_log.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MCAST_QPN 0xFFFFFF /* IBA 10.5.1: the DestQP of every multicast packet */

_Static_assert(offsetof(struct io_verbs_port, io) == 0, "io_port first");

static inline unsigned verbs_dev_idx(const struct io_verbs_port *p)
{
	return (unsigned)(p->dev - p->v->dev);
}

/* The lkey of port `owner`'s pool on the device of port `p`. */
static inline uint32_t verbs_lkey(const struct io_verbs_port *p, unsigned owner)
{
	return p->v->mr[owner][verbs_dev_idx(p)]->lkey;
}

/* ---- set-up ---- */

static struct io_verbs_dev *verbs_dev_open(struct io_verbs *v, const char *name)
{
	struct ibv_device **list;
	struct io_verbs_dev *d;
	int n;

	for (unsigned i = 0; i < v->ndevs; i++)
		if (!strcmp(v->dev[i].name, name))
			return &v->dev[i];
	d = &v->dev[v->ndevs];
	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (int i = 0; i < n && !d->ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			d->ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!d->ctx) {
		errno = errno ? errno : ENODEV;
		return NULL;
	}
	if (!(d->pd = ibv_alloc_pd(d->ctx))) {
		ibv_close_device(d->ctx);
		d->ctx = NULL;
		return NULL;
	}
	/* async events are read by the control thread's loop: never block it */
	fcntl(d->ctx->async_fd, F_SETFL, fcntl(d->ctx->async_fd, F_GETFL) | O_NONBLOCK);
	snprintf(d->name, sizeof(d->name), "%s", name);
	v->ndevs++;
	return d;
}

/* RESET -> INIT -> RTR -> RTS for a UD QP (IBA 10.3.1; UD needs no remote attributes). */
static int verbs_qp_up(struct io_verbs_port *p, struct io_verbs_qp *q)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
				 .pkey_index = 0,
				 .port_num = p->cfg.port_num,
				 .qkey = q->qkey };

	if (ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
		return -EIO;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR };
	if (ibv_modify_qp(q->qp, &a, IBV_QP_STATE))
		return -EIO;
	a = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS, .sq_psn = 0 };
	return ibv_modify_qp(q->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN) ? -EIO : 0;
}

/*
 * A QP that multicast groups attach to (the relay QP, a Q_Key QP), asking
 * the HCA not to loop the router's own multicast sends back to it (mlx5
 * and others support it); where it cannot, they come back and the SGID
 * check drops them (rx_own_sgid).  *blocked: whether the HCA took the flag.
 */
static struct ibv_qp *verbs_mcast_qp_create(struct io_verbs_port *p, struct ibv_qp_init_attr *qa,
					    bool *blocked)
{
	struct ibv_qp_init_attr_ex x = { .qp_type = qa->qp_type,
					 .send_cq = qa->send_cq,
					 .recv_cq = qa->recv_cq,
					 .cap = qa->cap,
					 .comp_mask = IBV_QP_INIT_ATTR_PD |
						      IBV_QP_INIT_ATTR_CREATE_FLAGS,
					 .pd = p->dev->pd,
					 .create_flags = IBV_QP_CREATE_BLOCK_SELF_MCAST_LB };
	struct ibv_qp *qp = ibv_create_qp_ex(p->dev->ctx, &x);

	*blocked = qp != NULL;
	return qp ? qp : ibv_create_qp(p->dev->pd, qa);
}

int io_verbs_qp_open(struct io_verbs_port *p, unsigned slot, uint32_t rq, uint32_t sq,
		     uint32_t qkey)
{
	struct io_verbs_qp *q = &p->q[slot];
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_UD,
				       .send_cq = p->scq,
				       .recv_cq = p->rcq };
	bool lb = false;

	qa.cap.max_send_wr = sq;
	qa.cap.max_recv_wr = rq;
	qa.cap.max_send_sge = 1;
	qa.cap.max_recv_sge = 2; /* the GRH and the payload in separate places (io_verbs_pool.h) */
	q->rq_depth = rq;
	q->sq_depth = sq;
	q->qkey = qkey;
	if (!(q->sq_ring = calloc(sq, sizeof(*q->sq_ring))))
		return -ENOMEM;
	if (slot > 0 && slot < p->qkey0)
		q->qp = ibv_create_qp(p->dev->pd, &qa); /* a proxy: no multicast */
	else
		q->qp = verbs_mcast_qp_create(p, &qa, &lb);
	if (!q->qp)
		return errno ? -errno : -EIO;
	if (!slot)
		p->lb_blocked = lb;
	q->qpn = ((struct ibv_qp *)q->qp)->qp_num;
	return verbs_qp_up(p, q);
}

static int verbs_port_open(struct io_verbs *v, struct io_verbs_port *p)
{
	struct ibv_comp_channel *ch;
	uint32_t nbufs, nsend;
	int rc;

	if (!p->cfg.rq_depth)
		p->cfg.rq_depth = IO_VERBS_RQ_DEPTH;
	if (!p->cfg.sq_depth)
		p->cfg.sq_depth = IO_VERBS_SQ_DEPTH;
	if (!p->cfg.qkey)
		p->cfg.qkey = IO_VERBS_QKEY;
	if (p->cfg.nproxy > IO_VERBS_MAX_PROXY)
		return -EINVAL;
	/* buffers and CQ entries for every QP the port may have, Q_Key QPs included */
	nbufs = p->cfg.rq_depth + p->cfg.nproxy * IO_VERBS_PROXY_RQ +
		IO_VERBS_MAX_QKEY * IO_VERBS_QKEY_RQ;
	nsend = p->cfg.sq_depth + p->cfg.nproxy * IO_VERBS_PROXY_SQ +
		IO_VERBS_MAX_QKEY * IO_VERBS_QKEY_SQ;
	if (!(p->dev = verbs_dev_open(v, p->cfg.device)))
		return -errno;
	if ((rc = io_verbs_port_refresh(p)) || (rc = io_verbs_pool_init(&p->pool, nbufs, p->idx)) ||
	    (rc = io_verbs_ah_init(&p->ah, p->cfg.ah_cap ? p->cfg.ah_cap : IO_VERBS_AH_CAP)) ||
	    (rc = -pthread_spin_init(&p->tx_lock, PTHREAD_PROCESS_PRIVATE)))
		return rc;
	for (uint32_t i = 0; i < p->pool.nbufs; i++)
		p->pool.buf[i].m.port = p->cfg.router_port;
	if (!(ch = ibv_create_comp_channel(p->dev->ctx)))
		return -ENOMEM;
	p->ch = ch;
	fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK);
	/* one receive CQ and one send CQ for all the port's QPs, deep enough for all */
	if (!(p->rcq = ibv_create_cq(p->dev->ctx, (int)nbufs, p, ch, 0)) ||
	    !(p->scq = ibv_create_cq(p->dev->ctx, (int)nsend, p, NULL, 0)))
		return -ENOMEM;
	p->qkey0 = 1 + p->cfg.nproxy;
	p->nq = p->qkey0 + IO_VERBS_MAX_QKEY; /* the Q_Key slots stay empty until a group */
	p->q[0].kind = IO_VERBS_QP_RELAY;
	if ((rc = io_verbs_qp_open(p, 0, p->cfg.rq_depth, p->cfg.sq_depth, p->cfg.qkey)))
		return rc;
	p->qpn = p->q[0].qpn;
	for (unsigned i = 0; i < p->cfg.nproxy; i++) {
		p->q[i + 1].kind = IO_VERBS_QP_PROXY;
		p->q[i + 1].remote = p->cfg.proxy[i];
		if ((rc = io_verbs_qp_open(p, i + 1, IO_VERBS_PROXY_RQ, IO_VERBS_PROXY_SQ,
					   p->cfg.proxy[i].qkey)))
			return rc;
	}
	return 0;
}

/* ---- receive ---- */

/*
 * Post free buffers in chains of IO_VERBS_REPOST to the QPs below their
 * depth, the relay QP first, never to a closing one; with `all`, shorter
 * chains too.  The pool has a buffer for every WQE of every QP.
 */
void io_verbs_repost(struct io_verbs_port *p, bool all)
{
	struct ibv_recv_wr wr[IO_VERBS_REPOST], *bad;
	struct ibv_sge sge[IO_VERBS_REPOST][2];
	uint32_t lkey = verbs_lkey(p, p->idx), lim = all ? 1 : IO_VERBS_REPOST;

	io_verbs_pool_collect(&p->pool);
	for (unsigned slot = 0; slot < p->nq; slot++) {
		struct io_verbs_qp *q = &p->q[slot];

		if (q->kind == IO_VERBS_QP_NONE || q->kind == IO_VERBS_QP_CLOSING)
			continue;
		while (p->pool.nfree >= lim && q->rq_depth - q->rq_posted >= lim) {
			unsigned n = 0;

			while (n < IO_VERBS_REPOST && p->pool.nfree &&
			       q->rq_posted + n < q->rq_depth) {
				struct io_verbs_buf *b = io_verbs_pool_take(&p->pool);

				b->qslot = (uint8_t)slot;
				sge[n][0] = (struct ibv_sge){
					(uintptr_t)(b->base + IO_VERBS_GRH_OFF), IBR_GRH_LEN, lkey
				};
				sge[n][1] = (struct ibv_sge){
					(uintptr_t)(b->base + IO_VERBS_PAY_OFF), IO_VERBS_MTU, lkey
				};
				wr[n] = (struct ibv_recv_wr){ .wr_id = b->idx,
							      .next = &wr[n + 1],
							      .sg_list = sge[n],
							      .num_sge = 2 };
				n++;
			}
			wr[n - 1].next = NULL;
			p->st.recv_posts++;
			bad = NULL;
			if (ibv_post_recv(q->qp, wr, &bad)) {
				/* not posted from `bad` on: back to the free list, try again later */
				for (struct ibv_recv_wr *w = bad; w; w = w->next, n--)
					io_verbs_pool_give(&p->pool, &p->pool.buf[w->wr_id]);
				q->rq_posted += n;
				p->rq_posted += n;
				break;
			}
			q->rq_posted += n;
			p->rq_posted += n;
		}
	}
}

static bool verbs_gid_own(const struct io_verbs *v, const uint8_t *gid)
{
	for (unsigned i = 0; i < v->nports; i++)
		if (!memcmp(v->port[i].gid, gid, 16))
			return true;
	return false;
}

static uint16_t verbs_mlid(const struct io_verbs_port *p, const uint8_t *mgid)
{
	int i = io_verbs_mcast_find(p, mgid);

	return i < 0 ? 0 : p->mc[i].mlid; /* not attached: check 6 drops it as dlid */
}

/* One receive completion: a packet for the engine (true), or the buffer goes back. */
static bool verbs_rx_one(struct io_verbs_port *p, const struct ibv_wc *wc)
{
	struct io_verbs_buf *b;
	const uint8_t *dgid;

	if (wc->wr_id >= p->pool.nbufs)
		return false; /* not ours: a provider bug; nothing to give back */
	b = &p->pool.buf[wc->wr_id];
	p->rq_posted--;
	p->q[b->qslot].rq_posted--;
	dgid = b->base + IO_VERBS_GRH_OFF + 24;
	if (p->q[b->qslot].kind == IO_VERBS_QP_CLOSING) {
		/* flushed (IBA 10.3.1: the error state completes every WQE), or a
		 * packet of groups it no longer has: the buffer goes back */
	} else if (wc->status != IBV_WC_SUCCESS) {
		p->st.rx_err++;
	} else if (!(wc->wc_flags & IBV_WC_GRH)) {
		p->st.rx_no_grh++; /* local to the subnet: nothing a router forwards */
	} else if (verbs_gid_own(p->v, b->base + IO_VERBS_GRH_OFF + 8)) {
		p->st.rx_own_sgid++; /* our own send looped back (multicast loopback): a loop */
	} else {
		struct io_verbs_rx_info ri = {
			.byte_len = wc->byte_len,
			.dest_qp = dgid[0] == 0xFF ? MCAST_QPN : wc->qp_num,
			.src_qp = wc->src_qp,
			.qkey = p->q[b->qslot].qkey,
			.imm = wc->imm_data,
			.slid = wc->slid,
			/* the MLID the QP attached with; 0 when not (check 6 drops it) */
			.dlid = dgid[0] == 0xFF ? verbs_mlid(p, dgid)
						: (uint16_t)(p->lid + (wc->dlid_path_bits &
								       ((1u << p->lmc) - 1))),
			.pkey = p->pkey[wc->pkey_index & 15],
			.sl = wc->sl,
			.has_imm = wc->wc_flags & IBV_WC_WITH_IMM,
			.crc_fill = p->crc_fill,
		};

		if (io_verbs_synth(b, &ri)) {
			io_verbs_pool_hold(&p->pool, b);
			return true;
		}
		p->st.rx_bad_len++;
	}
	io_verbs_pool_give(&p->pool, b);
	return false;
}

static void verbs_recover(struct io_verbs_port *p);

/*
 * One ibv_poll_cq for up to 32 completions, then per packet the header
 * synthesis (three 8-to-20-byte stores, no copy of the payload).  Measured
 * only over the fake provider, whose recv() per packet dominates:
 * bench_verbs verbs_fwd_256 ~72k pkt/s against sim_fwd_256 ~194k in the
 * same run.  The cost on an HCA is still to be measured.
 */
static int verbs_rx_burst(struct io_port *io, struct router_mbuf **out, unsigned n)
{
	struct io_verbs_port *p = (struct io_verbs_port *)io;
	struct ibv_wc wc[ROUTER_BURST];
	unsigned k = 0;
	int got;

	if (__atomic_load_n(&p->qp_error, __ATOMIC_RELAXED))
		verbs_recover(p);
	if (n > ROUTER_BURST)
		n = ROUTER_BURST;
	got = ibv_poll_cq(p->rcq, (int)n, wc);
	if (got == 0) {
		/* idle: consume the channel's events and re-arm before sleeping in epoll */
		struct ibv_cq *cq;
		void *ctx;

		while (!ibv_get_cq_event(p->ch, &cq, &ctx))
			ibv_ack_cq_events(cq, 1);
		ibv_req_notify_cq(p->rcq, 0);
		got = ibv_poll_cq(p->rcq, (int)n, wc); /* what came before the arming */
		if (got == 0) {
			io_verbs_repost(p, false); /* buffers that sends gave back meanwhile */
			io_verbs_event_idle(p);	   /* port state, LID, GID */
		}
	}
	if (got < 0)
		return -EIO;
	for (int i = 0; i < got; i++)
		if (verbs_rx_one(p, &wc[i]))
			out[k++] = &p->pool.buf[wc[i].wr_id].m;
	if (p->nclosing)
		io_verbs_qkey_gc(p); /* flushed Q_Key QPs go */
	p->st.rx += k;
	if (p->q[0].rq_posted < p->cfg.rq_depth / 2 || k < (unsigned)got)
		io_verbs_repost(p, false);
	return (int)k;
}

static void verbs_rx_done(struct io_port *io, struct router_mbuf **pkts, unsigned n)
{
	struct io_verbs_port *p = (struct io_verbs_port *)io;

	for (unsigned i = 0; i < n; i++)
		io_verbs_buf_unref(&p->pool, pkts[i]->priv);
	io_verbs_repost(p, false);
}

/* ---- send ---- */

#define WR_SLOT_SHIFT 56 /* a send's wr_id: sequence number | QP slot << 56 */
#define WR_SEQ_MASK   ((1ull << WR_SLOT_SHIFT) - 1)

/* Release the sends of QP `q` up to sequence `seq` (a completion retires them all). */
static void verbs_sq_release(struct io_verbs_port *p, struct io_verbs_qp *q, uint64_t seq)
{
	while (q->sq_tail <= seq && q->sq_tail < q->sq_head) {
		struct io_verbs_buf *b = q->sq_ring[q->sq_tail % q->sq_depth];

		io_verbs_buf_unref(&p->v->port[b->owner].pool, b);
		q->sq_tail++;
	}
}

static void verbs_ah_destroy(void *ah)
{
	ibv_destroy_ah(ah);
}

/*
 * Destroy the AH cache's old generation once no send can reference it:
 * every QP has completed (or never posted) the sends before its mark.
 * Under tx_lock.
 */
static void verbs_ah_retire(struct io_verbs_port *p)
{
	if (!io_verbs_ah_draining(&p->ah))
		return;
	for (unsigned slot = 0; slot < p->nq; slot++) {
		const struct io_verbs_qp *q = &p->q[slot];

		if (q->sq_tail < p->ah_mark[slot] && q->sq_tail != q->sq_head)
			return;
	}
	io_verbs_ah_retire(&p->ah, verbs_ah_destroy);
}

static void verbs_reap_locked(struct io_verbs_port *p)
{
	struct ibv_wc wc[ROUTER_BURST];
	int got;

	while ((got = ibv_poll_cq(p->scq, ROUTER_BURST, wc)) > 0)
		for (int i = 0; i < got; i++) {
			unsigned slot = (unsigned)(wc[i].wr_id >> WR_SLOT_SHIFT);

			if (slot >= p->nq)
				continue; /* not ours */
			if (wc[i].status != IBV_WC_SUCCESS) {
				/* the QP is in the error state: flushes follow, then a reset */
				p->st.tx_err++;
				p->q[slot].error = true;
				__atomic_store_n(&p->qp_error, true, __ATOMIC_RELAXED);
			}
			verbs_sq_release(p, &p->q[slot], wc[i].wr_id & WR_SEQ_MASK);
		}
	verbs_ah_retire(p);
}

void io_verbs_port_reap(struct io_verbs_port *p)
{
	pthread_spin_lock(&p->tx_lock);
	verbs_reap_locked(p);
	pthread_spin_unlock(&p->tx_lock);
}

static struct ibv_ah *verbs_ah_get(struct io_verbs_port *p, const struct router_tx *tx)
{
	const struct ibr_lrh *l = (const struct ibr_lrh *)tx->hdr;
	/* GRH bytes 0-7 as rewritten: IPVer 4, TClass 8, FlowLabel 20 | PayLen, NxtHdr, HopLmt */
	uint32_t w0 = ibr_be32_get(tx->hdr + IBR_LRH_LEN);
	struct io_verbs_ah_key k = { .dlid = ibr_lrh_get_dlid(l),
				     .sl = ibr_lrh_get_sl(l),
				     .tclass = (uint8_t)(w0 >> 20),
				     .flow_label = w0 & 0xFFFFF,
				     .hoplmt = tx->hdr[IBR_LRH_LEN + 7],
				     .port = p->idx };
	struct ibv_ah_attr a = { 0 };
	struct ibv_ah *ah;

	memcpy(k.dgid, tx->m->data + IBR_LRH_LEN + 24, 16);
	if ((ah = io_verbs_ah_find(&p->ah, &k)))
		return ah;
	a.is_global = 1;
	memcpy(a.grh.dgid.raw, k.dgid, 16);
	a.grh.flow_label = k.flow_label;
	a.grh.sgid_index = k.sgid_index;
	a.grh.hop_limit = k.hoplmt;
	a.grh.traffic_class = k.tclass;
	a.dlid = k.dlid;
	a.sl = k.sl;
	a.port_num = p->cfg.port_num;
	if (!(ah = ibv_create_ah(p->dev->pd, &a)))
		return NULL;
	switch (io_verbs_ah_add(&p->ah, &k, ah)) {
	case 0:
		return ah;
	case 1:
		/* a new generation: the old one's handles wait for the sends posted so far */
		for (unsigned slot = 0; slot < p->nq; slot++)
			p->ah_mark[slot] = p->q[slot].sq_head;
		return ah;
	default:
		ibv_destroy_ah(ah);
		return NULL;
	}
}

/* The proxy QP of port `p` with this QPN, or NULL. */
static const struct io_verbs_qp *verbs_proxy_by_qpn(const struct io_verbs_port *p, uint32_t qpn)
{
	for (unsigned i = 1; i < p->qkey0; i++)
		if (p->q[i].qpn == qpn)
			return &p->q[i];
	return NULL;
}

/*
 * Where a copy goes and from which QP of the egress port `p`: multicast to
 * QPN 0xFFFFFF with its Q_Key (the WR's remote_qkey, C10-15) from the relay
 * QP -- but a controlled Q_Key (high bit set) in a WR means "the QP's own",
 * so that one goes from the QP whose Q_Key it is; unicast to the remote of
 * the ingress proxy QP it was sent to, from the egress proxy whose remote
 * is the packet's source (replies come back through it) or the relay QP.
 * The counter of what cannot be sent: unicast to no proxy, which the UD
 * model cannot deliver, or a controlled Q_Key no QP of the port has; NULL
 * when it can.  Under tx_lock.
 */
static uint64_t *verbs_tx_dest(struct io_verbs_port *p, const struct router_mbuf *m, unsigned *slot,
			       uint32_t *qpn, uint32_t *qkey)
{
	const uint8_t *bth = m->data + IBR_LRH_LEN + IBR_GRH_LEN, *deth = bth + IBR_BTH_LEN;
	const struct io_verbs_buf *b = m->priv;
	const struct io_verbs_qp *in;
	uint32_t dqp = ibr_bth_get_destqp((const struct ibr_bth *)bth), src;

	*slot = 0;
	if (dqp == MCAST_QPN) {
		int s = 0;

		*qpn = MCAST_QPN;
		*qkey = ibr_deth_get_qkey((const struct ibr_deth *)deth);
		if ((*qkey & IO_VERBS_QKEY_CONTROLLED) && (s = io_verbs_qkey_slot(p, *qkey)) < 0)
			return &p->st.tx_qkey;
		*slot = (unsigned)s;
		return NULL;
	}
	if (!(in = verbs_proxy_by_qpn(&p->v->port[b->owner], dqp)))
		return &p->st.tx_unicast; /* UD unicast needs a proxy QP */
	*qpn = in->remote.qpn;
	*qkey = in->remote.qkey;
	src = ibr_deth_get_srcqp((const struct ibr_deth *)deth);
	for (unsigned i = 1; i < p->qkey0; i++)
		if (p->q[i].remote.qpn == src &&
		    !memcmp(p->q[i].remote.gid, m->data + IBR_LRH_LEN + 8, 16))
			*slot = i;
	return NULL;
}

/* Post the chain of QP `slot`; returns how many went, unposted ones released. */
static unsigned verbs_post_chain(struct io_verbs_port *p, unsigned slot, struct ibv_send_wr *first,
				 struct ibv_send_wr *last, unsigned n, uint64_t *bytes)
{
	struct io_verbs_qp *q = &p->q[slot];
	struct ibv_send_wr *bad = NULL;

	last->next = NULL;
	last->send_flags = IBV_SEND_SIGNALED; /* the burst's buffers come back */
	q->sq_unsig = 0;
	p->st.tx_posts++;
	if (ibv_post_send(q->qp, first, &bad) && bad) {
		/*
		 * Not posted from `bad` on (the send queue is full): they are the
		 * ring's last entries.  Those posted before wait for the next
		 * signalled completion, which retires them too.
		 */
		for (struct ibv_send_wr *w = bad; w; w = w->next, n--) {
			struct io_verbs_buf *b = q->sq_ring[--q->sq_head % q->sq_depth];

			io_verbs_buf_unref(&p->v->port[b->owner].pool, b);
			*bytes -= b->m.len;
		}
	}
	p->st.tx_wrs += n;
	return n;
}

/*
 * One chained ibv_post_send per QP of the egress port per burst, every
 * IO_VERBS_SIGNAL-th WR and the last signalled (IBA 10.8.6: a completion
 * retires the unsignalled WRs before it).  Measured over the fake: 0.031
 * posts a packet at full bursts of 32 (bench_verbs verbs_posts_per_pkt),
 * one CQE per 16 packets.
 */
static unsigned verbs_tx_burst(struct io_port *io, const struct router_tx *tx, unsigned n,
			       uint64_t *bytes)
{
	struct io_verbs_port *p = (struct io_verbs_port *)io;
	struct ibv_send_wr wr[ROUTER_BURST], *first[IO_VERBS_NQP] = { 0 }, *last[IO_VERBS_NQP];
	unsigned cnt[IO_VERBS_NQP] = { 0 }, k = 0, sent = 0;
	struct ibv_sge sge[ROUTER_BURST];

	*bytes = 0;
	if (!__atomic_load_n(&p->up, __ATOMIC_RELAXED)) {
		/* any worker sends on any port: the one count kept outside tx_lock */
		__atomic_fetch_add(&p->st.tx_down, n, __ATOMIC_RELAXED);
		return 0;
	}
	if (n > ROUTER_BURST)
		n = ROUTER_BURST;
	pthread_spin_lock(&p->tx_lock);
	verbs_reap_locked(p);
	for (unsigned i = 0; i < n; i++) {
		struct io_verbs_buf *b = tx[i].m->priv;
		uint32_t qpn, qkey;
		struct io_verbs_qp *q;
		struct ibv_ah *ah;
		uint64_t *refused;
		unsigned slot;

		if ((refused = verbs_tx_dest(p, tx[i].m, &slot, &qpn, &qkey))) {
			(*refused)++;
			continue;
		}
		q = &p->q[slot];
		if (q->sq_head - q->sq_tail >= q->sq_depth)
			continue; /* full: the worker counts it as not sent */
		if (!(ah = verbs_ah_get(p, &tx[i]))) {
			p->st.tx_no_ah++;
			continue;
		}
		sge[k] = (struct ibv_sge){ (uintptr_t)(b->base + IO_VERBS_PAY_OFF), b->paylen,
					   verbs_lkey(p, b->owner) };
		wr[k] = (struct ibv_send_wr){
			.wr_id = q->sq_head | (uint64_t)slot << WR_SLOT_SHIFT,
			.sg_list = &sge[k],
			.num_sge = 1,
			.opcode = b->has_imm ? IBV_WR_SEND_WITH_IMM : IBV_WR_SEND,
			.send_flags = ++q->sq_unsig >= IO_VERBS_SIGNAL ? IBV_SEND_SIGNALED : 0,
			.imm_data = b->imm,
		};
		if (wr[k].send_flags)
			q->sq_unsig = 0;
		wr[k].wr.ud.ah = ah;
		wr[k].wr.ud.remote_qpn = qpn;
		wr[k].wr.ud.remote_qkey = qkey;
		if (first[slot])
			last[slot]->next = &wr[k];
		else
			first[slot] = &wr[k];
		last[slot] = &wr[k];
		cnt[slot]++;
		q->sq_ring[q->sq_head++ % q->sq_depth] = b;
		io_verbs_buf_ref(b);
		*bytes += tx[i].m->len;
		k++;
	}
	for (unsigned slot = 0; slot < p->nq; slot++)
		if (first[slot])
			sent += verbs_post_chain(p, slot, first[slot], last[slot], cnt[slot],
						 bytes);
	pthread_spin_unlock(&p->tx_lock);
	return sent;
}

void io_verbs_rq_reclaim(struct io_verbs_port *p, unsigned slot)
{
	struct ibv_wc wc[ROUTER_BURST];
	int got;

	/* completions already queued, of any QP: the other QPs lose those packets too */
	while ((got = ibv_poll_cq(p->rcq, ROUTER_BURST, wc)) > 0)
		for (int i = 0; i < got; i++)
			if (wc[i].wr_id < p->pool.nbufs) {
				struct io_verbs_buf *b = &p->pool.buf[wc[i].wr_id];

				p->q[b->qslot].rq_posted--;
				p->rq_posted--;
				io_verbs_pool_give(&p->pool, b);
			}
	for (uint32_t i = 0; i < p->pool.nbufs; i++)
		if (p->pool.buf[i].state == IO_VERBS_BUF_POSTED && p->pool.buf[i].qslot == slot) {
			io_verbs_pool_give(&p->pool, &p->pool.buf[i]);
			p->rq_posted--;
		}
	p->q[slot].rq_posted = 0;
}

/*
 * After a send error (the QP is in the error state, IBA 10.3.1.4): once
 * every outstanding send of the QP has completed (flushed), reset the QP
 * (which drops its posted receives, IBA 10.3.1.1), take its buffers back,
 * bring it back to RTS and post again.  Owner thread only.
 */
static void verbs_recover(struct io_verbs_port *p)
{
	bool pending = false;

	pthread_spin_lock(&p->tx_lock);
	verbs_reap_locked(p);
	for (unsigned slot = 0; slot < p->nq; slot++) {
		struct io_verbs_qp *q = &p->q[slot];
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_RESET };

		if (!q->error)
			continue;
		if (q->sq_tail != q->sq_head) {
			pending = true; /* flushes still to come */
			continue;
		}
		ibv_modify_qp(q->qp, &a, IBV_QP_STATE);
		io_verbs_rq_reclaim(p, slot);
		q->sq_unsig = 0;
		p->st.qp_resets++;
		if (q->kind == IO_VERBS_QP_CLOSING) {
			q->error = false; /* flushed and empty: io_verbs_qkey_gc destroys it */
		} else if (verbs_qp_up(p, q)) {
			log_warnx("verbs: %s:%u: QP 0x%06x stays down after an error",
				  p->cfg.device, p->cfg.port_num, q->qpn);
			pending = true;
		} else {
			q->error = false;
		}
	}
	__atomic_store_n(&p->qp_error, pending, __ATOMIC_RELAXED);
	pthread_spin_unlock(&p->tx_lock);
	io_verbs_repost(p, true);
}

/* ---- the rest of the io_port ---- */

static int verbs_fd(const struct io_port *io)
{
	return ((struct ibv_comp_channel *)((const struct io_verbs_port *)io)->ch)->fd;
}

/* CRC filling and the multicast groups of the new FIB (io_verbs_mcast.c). */
static void verbs_fib_changed(struct io_port *io, const struct router_fib *fib)
{
	struct io_verbs_port *p = (struct io_verbs_port *)io;
	uint8_t r = p->cfg.router_port;

	p->crc_fill = r < fib->nports &&
		      (fib->port[r].cfg.flags & (ROUTER_PORT_VCRC_CHECK | ROUTER_PORT_ICRC_CHECK));
	io_verbs_mcast_sync(p, fib);
}

static void verbs_io_close(struct io_port *io)
{
	(void)io; /* ports close together: io_verbs_close() */
}

static const struct io_port_ops verbs_io_ops = {
	.rx_burst = verbs_rx_burst,
	.rx_done = verbs_rx_done,
	.tx_burst = verbs_tx_burst,
	.fib_changed = verbs_fib_changed,
	.fd = verbs_fd,
	.close = verbs_io_close,
};

struct io_verbs_port *io_verbs_port(struct io_verbs *v, unsigned i)
{
	return i < v->nports ? &v->port[i] : NULL;
}

struct io_verbs *io_verbs_open(const struct io_verbs_port_cfg *cfg, unsigned n)
{
	struct io_verbs *v;
	int rc = 0;

	if (!n || n > ROUTER_MAX_PORTS || !(v = calloc(1, sizeof(*v)))) {
		errno = n ? ENOMEM : EINVAL;
		return NULL;
	}
	for (unsigned i = 0; i < n && !rc; i++) {
		struct io_verbs_port *p = &v->port[i];

		p->io.ops = &verbs_io_ops;
		p->v = v;
		p->idx = (uint8_t)i;
		p->cfg = cfg[i];
		v->nports = i + 1;
		if ((rc = verbs_port_open(v, p)))
			log_warnx("verbs: %s:%u: %s", cfg[i].device, cfg[i].port_num,
				  strerror(-rc));
	}
	/* every pool on every device: a send on any port gathers from any port's buffers */
	for (unsigned i = 0; i < n && !rc; i++)
		for (unsigned d = 0; d < v->ndevs && !rc; d++)
			if (!(v->mr[i][d] = ibv_reg_mr(v->dev[d].pd, v->port[i].pool.mem,
						       v->port[i].pool.memlen,
						       IBV_ACCESS_LOCAL_WRITE)))
				rc = -errno ? -errno : -ENOMEM;
	for (unsigned i = 0; i < n && !rc; i++) {
		io_verbs_repost(&v->port[i], true);
		ibv_req_notify_cq(v->port[i].rcq, 0);
	}
	if (rc) {
		io_verbs_close(v);
		errno = -rc;
		return NULL;
	}
	return v;
}

void io_verbs_close(struct io_verbs *v)
{
	for (unsigned i = 0; i < v->nports; i++) {
		struct io_verbs_port *p = &v->port[i];

		/* a QP with groups attached cannot be destroyed (uverbs: EBUSY) */
		while (p->nmc)
			io_verbs_mcast_detach(p, p->mc[0].mgid);
		for (unsigned k = 0; k < p->nq; k++) {
			if (p->q[k].qp)
				ibv_destroy_qp(p->q[k].qp);
			free(p->q[k].sq_ring);
		}
		if (p->ah.cur.ent)
			io_verbs_ah_clear(&p->ah, verbs_ah_destroy);
		io_verbs_ah_fini(&p->ah);
		if (p->rcq)
			ibv_destroy_cq(p->rcq);
		if (p->scq)
			ibv_destroy_cq(p->scq);
		if (p->ch)
			ibv_destroy_comp_channel(p->ch);
		for (unsigned d = 0; d < v->ndevs; d++)
			if (v->mr[i][d])
				ibv_dereg_mr(v->mr[i][d]);
		io_verbs_pool_fini(&p->pool);
		if (p->dev)
			pthread_spin_destroy(&p->tx_lock);
	}
	for (unsigned d = 0; d < v->ndevs; d++) {
		ibv_dealloc_pd(v->dev[d].pd);
		ibv_close_device(v->dev[d].ctx);
	}
	free(v);
}

/* ---- buffers ---- */

void io_verbs_port_bufs(struct io_verbs_port *p, uint32_t *posted, uint32_t *nfree, uint32_t *held)
{
	io_verbs_pool_collect(&p->pool);
	*posted = p->rq_posted;
	*nfree = p->pool.nfree;
	*held = atomic_load(&p->pool.nheld);
}
