/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_qp.c - the verbs ports' QPs (io_verbs_int.h): bringing a UD QP to RTS, creating
 * one, posting the free receive buffers to them, and resetting one after an error.
 */
#include "router/io/io_verbs_int.h"

#include "lib/ibr_log.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <stdlib.h>

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

/* ---- receive buffers ---- */

/*
 * Post free buffers in chains of IO_VERBS_REPOST to the QPs below their
 * depth, the relay QP first, never to a closing one; with `all`, shorter
 * chains too.  The pool has a buffer for every WQE of every QP.
 */
void io_verbs_repost(struct io_verbs_port *p, bool all)
{
	struct ibv_recv_wr wr[IO_VERBS_REPOST], *bad;
	struct ibv_sge sge[IO_VERBS_REPOST][2];
	uint32_t lkey, lim = all ? 1 : IO_VERBS_REPOST;

	io_verbs_pool_collect(&p->pool);
	if (p->lost)
		return; /* no QP, no MR: they wait in the pool */
	lkey = io_verbs_lkey(p, p->idx);
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
			IO_VERBS_ST_ADD(&p->st.recv_posts, 1);
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
void io_verbs_recover(struct io_verbs_port *p)
{
	bool pending = false;

	pthread_spin_lock(&p->tx_lock);
	io_verbs_reap_locked(p);
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
		IO_VERBS_ST_ADD(&p->st.qp_resets, 1);
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
