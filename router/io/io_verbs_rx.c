/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_rx.c - receiving on a verbs port (io_verbs_int.h): receive completions become
 * whole packets for the engine (io_verbs_synth.h), their buffers go back once done.
 */
#include "router/io/io_verbs_int.h"
#include "router/io/io_verbs_synth.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_roce.h"

#include <errno.h>
#include <string.h>

static bool verbs_gid_own(const struct io_verbs *v, const uint8_t *gid)
{
	for (unsigned i = 0; i < v->nports; i++)
		if (!memcmp(v->port[i].gid, gid, 16) ||
		    (v->port[i].has_gid4 && !memcmp(v->port[i].gid4, gid, 16)))
			return true;
	return false;
}

static uint16_t verbs_mlid(const struct io_verbs_port *p, const uint8_t *mgid)
{
	int i = io_verbs_mcast_find(p, mgid);

	return i < 0 ? 0 : p->mc[i].mlid; /* not attached: check 6 drops it as dlid */
}

/*
 * A RoCE receive: the IP header in front of the payload made a GRH
 * (io_verbs_synth.h).  On a proxy QP the packet was addressed to the
 * router's own GID, since IP delivers to rxe or a NIC only what is for one
 * of the host's addresses, not the remote's GID as on IB: the proxy's
 * remote is where it goes, so it becomes the DGID the engine routes.
 */
static bool verbs_roce_in(struct io_verbs_port *p, struct io_verbs_buf *b, uint32_t byte_len,
			  bool imm)
{
	uint8_t *h = b->base + IO_VERBS_GRH_OFF;
	const struct io_verbs_qp *q = &p->q[b->qslot];

	if (!ibr_roce_grh(h, byte_len, imm))
		return false;
	if (q->kind == IO_VERBS_QP_PROXY && !ibr_gid_raw_is_mcast(h + 24))
		memcpy(h + 24, q->remote.gid, 16);
	return true;
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
	if (p->roce && wc->status == IBV_WC_SUCCESS &&
	    !verbs_roce_in(p, b, wc->byte_len, wc->wc_flags & IBV_WC_WITH_IMM)) {
		IO_VERBS_ST_ADD(&p->st.rx_bad_len,
				1); /* neither IPv6 nor IPv4 in front of the payload */
	} else if (p->q[b->qslot].kind == IO_VERBS_QP_CLOSING) {
		/* flushed (IBA 10.3.1: the error state completes every WQE), or a
		 * packet of groups it no longer has: the buffer goes back */
	} else if (wc->status != IBV_WC_SUCCESS) {
		IO_VERBS_ST_ADD(&p->st.rx_err, 1);
	} else if (!(wc->wc_flags & IBV_WC_GRH)) {
		IO_VERBS_ST_ADD(&p->st.rx_no_grh,
				1); /* local to the subnet: nothing a router forwards */
	} else if (verbs_gid_own(p->v, b->base + IO_VERBS_GRH_OFF + 8)) {
		IO_VERBS_ST_ADD(&p->st.rx_own_sgid,
				1); /* our own send looped back (multicast loopback): a loop */
	} else {
		struct io_verbs_rx_info ri = {
			.byte_len = wc->byte_len,
			.dest_qp = ibr_gid_raw_is_mcast(dgid) ? IO_VERBS_MCAST_QPN : wc->qp_num,
			.src_qp = wc->src_qp,
			.qkey = p->q[b->qslot].qkey,
			.imm = wc->imm_data,
			.slid = wc->slid,
			/* the MLID the QP attached with; 0 when not (check 6 drops it) */
			.dlid = ibr_gid_raw_is_mcast(dgid)
					? verbs_mlid(p, dgid)
					: (uint16_t)(p->lid +
						     (wc->dlid_path_bits & ((1u << p->lmc) - 1))),
			.pkey = p->pkey[wc->pkey_index & 15],
			.sl = wc->sl,
			.has_imm = wc->wc_flags & IBV_WC_WITH_IMM,
			.crc_fill = p->crc_fill,
		};

		if (io_verbs_synth(b, &ri)) {
			io_verbs_pool_hold(&p->pool, b);
			return true;
		}
		IO_VERBS_ST_ADD(&p->st.rx_bad_len, 1);
	}
	io_verbs_pool_give(&p->pool, b);
	return false;
}

/*
 * One ibv_poll_cq for up to 32 completions, then per packet the header
 * synthesis (three 8-to-20-byte stores, no copy of the payload).  Measured
 * only over the fake provider, whose recv() per packet dominates:
 * bench_verbs verbs_fwd_256 ~72k pkt/s against sim_fwd_256 ~194k in the
 * same run.  The cost on an HCA is still to be measured.
 */
int io_verbs_rx_burst(struct io_port *io, struct router_mbuf **out, unsigned n)
{
	struct io_verbs_port *p = (struct io_verbs_port *)io;
	struct ibv_wc wc[ROUTER_BURST];
	unsigned k = 0;
	int got;

	if (p->lost)
		return 0; /* no CQ until its device is back */
	if (__atomic_load_n(&p->qp_error, __ATOMIC_RELAXED))
		io_verbs_recover(p);
	if (n > ROUTER_BURST)
		n = ROUTER_BURST;
again:
	got = ibv_poll_cq(p->rcq, (int)n, wc);
	if (got == 0 && io->polled) {
		/*
		 * A busy worker never sleeps on the channel: no event to consume,
		 * no CQ to arm; the idle housekeeping once every 1024 empty bursts
		 * (a few hundred microseconds of spinning), not on every one.
		 */
		if (++p->idle_polls < 1024)
			return 0;
		p->idle_polls = 0;
		io_verbs_repost(p, false);
		io_verbs_event_idle(p);
		if (p->nclosing)
			io_verbs_qkey_gc(p);
		return 0;
	}
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
	/*
	 * Completions but no packet (a closing Q_Key QP's flushes, errors): the
	 * worker takes 0 for idle and sleeps on a channel nobody re-armed, up to
	 * its 100 ms; poll on until a packet or an empty CQ, which re-arms.  A
	 * QP's 1024 flushes took 3.2 s at 32 a wake-up.  Bounded: only what was
	 * posted can flush.
	 */
	if (k == 0 && got > 0)
		goto again;
	IO_VERBS_ST_ADD(&p->st.rx, k);
	if (p->q[0].rq_posted < p->st.rq_low) /* the receive queue's low-water mark */
		__atomic_store_n(&p->st.rq_low, p->q[0].rq_posted, __ATOMIC_RELAXED);
	if (p->q[0].rq_posted < p->cfg.rq_depth / 2 || k < (unsigned)got)
		io_verbs_repost(p, false);
	return (int)k;
}

void io_verbs_rx_done(struct io_port *io, struct router_mbuf **pkts, unsigned n)
{
	struct io_verbs_port *p = (struct io_verbs_port *)io;

	for (unsigned i = 0; i < n; i++)
		io_verbs_buf_unref(&p->pool, pkts[i]->priv);
	io_verbs_repost(p, false);
}
