/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_tx.c - sending on a verbs port (io_verbs_int.h): where each copy goes and from
 * which QP, its address handle (io_verbs_ah.h), one chained post per QP per burst, and the
 * send completions that give the buffers back.
 */
#include "router/io/io_verbs_int.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_pkt.h"

#include <string.h>

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

void io_verbs_ah_destroy(void *ah)
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
	io_verbs_ah_retire(&p->ah, io_verbs_ah_destroy);
}

void io_verbs_reap_locked(struct io_verbs_port *p)
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
				IO_VERBS_ST_ADD(&p->st.tx_err, 1);
				p->q[slot].error = true;
				__atomic_store_n(&p->qp_error, true, __ATOMIC_RELAXED);
			}
			verbs_sq_release(p, &p->q[slot], wc[i].wr_id & WR_SEQ_MASK);
		}
	verbs_ah_retire(p);
}

void io_verbs_port_reap(struct io_verbs_port *p)
{
	if (p->lost)
		return;
	pthread_spin_lock(&p->tx_lock);
	io_verbs_reap_locked(p);
	pthread_spin_unlock(&p->tx_lock);
}

static struct ibv_ah *verbs_ah_get(struct io_verbs_port *p, const struct router_tx *tx)
{
	const struct ibr_lrh *l = (const struct ibr_lrh *)tx->hdr;
	/* GRH bytes 0-7 as rewritten: IPVer 4, TClass 8, FlowLabel 20 | PayLen, NxtHdr, HopLmt */
	uint32_t w0 = ibr_be32_get(tx->hdr + IBR_LRH_LEN);
	/* RoCE: no LIDs, the DGID alone addresses (the kernel resolves its MAC) */
	struct io_verbs_ah_key k = { .dlid = p->roce ? 0 : ibr_lrh_get_dlid(l),
				     .sl = ibr_lrh_get_sl(l),
				     .sgid_index = p->sgid_index,
				     .tclass = (uint8_t)(w0 >> 20),
				     .flow_label = w0 & 0xFFFFF,
				     .hoplmt = tx->hdr[IBR_LRH_LEN + 7],
				     .port = p->idx };
	struct ibv_ah_attr a = { 0 };
	struct ibv_ah *ah;

	/* a feed's copy: the egress port's MGID for the group (router_engine.h) */
	memcpy(k.dgid, tx->dgid ? tx->dgid : tx->m->data + IBR_LRH_LEN + 24, 16);
	/* to an IPv4 address (an IPv4 group) from the port's IPv4 GID (io_verbs.h) */
	if (p->roce && ibr_gid_raw_is_v4mapped(k.dgid)) {
		if (!p->has_gid4)
			return NULL;
		k.sgid_index = p->sgid4_index;
	}
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

/*
 * A packet from a port of another backend (a sim port's mbuf, in no verbs
 * pool) copied into a bounce buffer of `p`: its payload and ImmDt, what the
 * work request sends (the HCA builds the headers from the address handle).
 * Multicast UD SENDs only: unicast needs the ingress proxy QP, which such a
 * port has not.  The packet is parsed again (ibr_pkt_parse(): every length
 * checked before it is read): the copy must not read past it.  NULL,
 * counted, when it is not sent.  Under tx_lock.
 */
static struct io_verbs_buf *verbs_bounce(struct io_verbs_port *p, const struct router_mbuf *m)
{
	struct io_verbs_buf *b;
	struct ibr_pkt pk;

	if (ibr_pkt_parse(m->data, m->len, &pk) != IBR_PKT_ERR_OK || !pk.grh || !pk.deth ||
	    ibr_bth_get_destqp(pk.bth) != IO_VERBS_MCAST_QPN ||
	    (ibr_bth_get_opcode(pk.bth) != IBR_BTH_OP_UD_SEND_ONLY &&
	     ibr_bth_get_opcode(pk.bth) != IBR_BTH_OP_UD_SEND_ONLY_IMM) ||
	    pk.payload_len > IO_VERBS_MTU)
		goto foreign;
	if (!(b = io_verbs_pool_bounce_take(&p->pool))) {
		IO_VERBS_ST_ADD(&p->st.tx_bounce_full, 1);
		return NULL;
	}
	memcpy(b->base + IO_VERBS_PAY_OFF, pk.payload, pk.payload_len);
	b->paylen = pk.payload_len;
	b->has_imm = pk.immdt != NULL;
	if (pk.immdt)
		memcpy(&b->imm, pk.immdt, 4); /* network order, as a WC's */
	b->m.len = m->len;
	IO_VERBS_ST_ADD(&p->st.tx_bounced, 1);
	return b;
foreign:
	IO_VERBS_ST_ADD(&p->st.tx_foreign, 1);
	return NULL;
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
static uint64_t *verbs_tx_dest(struct io_verbs_port *p, const struct router_mbuf *m,
			       const struct io_verbs_buf *b, unsigned *slot, uint32_t *qpn,
			       uint32_t *qkey)
{
	const uint8_t *bth = m->data + IBR_LRH_LEN + IBR_GRH_LEN, *deth = bth + IBR_BTH_LEN;
	const struct io_verbs_qp *in;
	uint32_t dqp = ibr_bth_get_destqp((const struct ibr_bth *)bth), src;

	*slot = 0;
	if (dqp == IO_VERBS_MCAST_QPN) {
		int s = 0;

		*qpn = IO_VERBS_MCAST_QPN;
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

/* A bounce buffer taken for a copy that is not sent after all: back to the list. */
static void verbs_bounce_unused(struct io_verbs_port *p, struct io_verbs_buf *b)
{
	if (io_verbs_buf_is_bounce(&p->pool, b))
		io_verbs_pool_bounce_give(&p->pool, b);
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
	IO_VERBS_ST_ADD(&p->st.tx_posts, 1);
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
	IO_VERBS_ST_ADD(&p->st.tx_wrs, n);
	return n;
}

/*
 * One chained ibv_post_send per QP of the egress port per burst, every
 * IO_VERBS_SIGNAL-th WR and the last signalled (IBA 10.8.6: a completion
 * retires the unsignalled WRs before it).  Measured over the fake: 0.031
 * posts a packet at full bursts of 32 (bench_verbs verbs_posts_per_pkt),
 * one CQE per 16 packets.
 */
unsigned io_verbs_tx_burst(struct io_port *io, const struct router_tx *tx, unsigned n,
			   struct io_tx_result *res)
{
	uint64_t *bytes = &res->bytes;
	struct io_verbs_port *p = (struct io_verbs_port *)io;
	struct ibv_send_wr wr[ROUTER_BURST], *first[IO_VERBS_NQP] = { 0 }, *last[IO_VERBS_NQP];
	unsigned cnt[IO_VERBS_NQP] = { 0 }, k = 0, sent = 0;
	struct ibv_sge sge[ROUTER_BURST];

	*res = (struct io_tx_result){ 0 };
	if (!__atomic_load_n(&p->up, __ATOMIC_RELAXED)) {
		/* any worker sends on any port: the one count kept outside tx_lock */
		__atomic_fetch_add(&p->st.tx_down, n, __ATOMIC_RELAXED);
		return 0;
	}
	if (n > ROUTER_BURST)
		n = ROUTER_BURST;
	pthread_spin_lock(&p->tx_lock);
	io_verbs_reap_locked(p);
	for (unsigned i = 0; i < n; i++) {
		struct io_verbs_buf *b = (struct io_verbs_buf *)io_verbs_buf_of(p->v, tx[i].m);
		uint32_t qpn, qkey;
		struct io_verbs_qp *q;
		struct ibv_ah *ah;
		uint64_t *refused;
		unsigned slot;

		/* sent from the buffer it came in, or from a copy when it has none */
		if (!b && !(b = verbs_bounce(p, tx[i].m)))
			continue;
		if ((refused = verbs_tx_dest(p, tx[i].m, b, &slot, &qpn, &qkey))) {
			IO_VERBS_ST_ADD(refused, 1);
			verbs_bounce_unused(p, b);
			continue;
		}
		q = &p->q[slot];
		if (q->sq_head - q->sq_tail >= q->sq_depth) {
			verbs_bounce_unused(p, b);
			continue; /* full: the worker counts it as not sent */
		}
		if (!(ah = verbs_ah_get(p, &tx[i]))) {
			IO_VERBS_ST_ADD(&p->st.tx_no_ah, 1);
			verbs_bounce_unused(p, b);
			continue;
		}
		sge[k] = (struct ibv_sge){ (uintptr_t)(b->base + IO_VERBS_PAY_OFF), b->paylen,
					   io_verbs_lkey(p, b->owner) };
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
	res->sent = sent;
	return sent;
}
