/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_int.h - private to the io_verbs*.c files that call ibv_*: the
 * devices and the set of ports (io_verbs.h shows only the ports), and what
 * those files share.
 */
#ifndef IO_VERBS_INT_H
#define IO_VERBS_INT_H

#include "router/io/io_verbs.h"

#include <infiniband/verbs.h>

struct io_verbs_dev {
	char name[64];
	struct ibv_context *ctx; /* NULL while lost */
	struct ibv_pd *pd;
	bool lost;  /* gone: nothing of it open, its ports lost (io_verbs_dev.c) */
	bool fatal; /* IBV_EVENT_DEVICE_FATAL seen: to be let go (io_verbs_dev_lose) */
};

struct io_verbs {
	unsigned nports, ndevs;
	struct io_verbs_port port[ROUTER_MAX_PORTS];
	struct io_verbs_dev dev[ROUTER_MAX_PORTS];
	struct ibv_mr *mr[ROUTER_MAX_PORTS][ROUTER_MAX_PORTS]; /* [pool's port][device] */
	bool async_ctl; /* the control thread reads the async events (io_verbs_async_owner) */
	int8_t by_router[ROUTER_MAX_PORTS]; /* router port -> index in port[], -1: not verbs */
};

/*
 * The verbs buffer a packet to send is in, or NULL when it came in on a
 * port of another backend (a sim port): a verbs port sends from the
 * registered buffer a packet was received into, without a copy, and has
 * nothing to send one without.  Two compares a packet.
 */
static inline const struct io_verbs_buf *io_verbs_buf_of(const struct io_verbs *v,
							 const struct router_mbuf *m)
{
	int k = m->port < ROUTER_MAX_PORTS ? v->by_router[m->port] : -1;
	const struct io_verbs_pool *pl;

	if (k < 0)
		return NULL;
	pl = &v->port[k].pool;
	if ((const void *)m < (const void *)pl->buf ||
	    (const void *)m >= (const void *)(pl->buf + pl->nbufs))
		return NULL;
	return m->priv;
}

#define IO_VERBS_MCAST_QPN 0xFFFFFF /* IBA 10.5.1: the DestQP of every multicast packet */

static inline unsigned io_verbs_dev_idx(const struct io_verbs_port *p)
{
	return (unsigned)(p->dev - p->v->dev);
}

/* The lkey of port `owner`'s pool on the device of port `p`. */
static inline uint32_t io_verbs_lkey(const struct io_verbs_port *p, unsigned owner)
{
	return p->v->mr[owner][io_verbs_dev_idx(p)]->lkey;
}

/* io_verbs_rx.c, io_verbs_tx.c: the port's io_port receive and send (io_port.h). */
int io_verbs_rx_burst(struct io_port *io, struct router_mbuf **out, unsigned n);
void io_verbs_rx_done(struct io_port *io, struct router_mbuf **pkts, unsigned n);
unsigned io_verbs_tx_burst(struct io_port *io, const struct router_tx *tx, unsigned n,
			   struct io_tx_result *res);

/*
 * io_verbs_tx.c: the send completions reaped, their buffers released (under
 * tx_lock); an address handle destroyed, for the AH cache (io_verbs_ah.h).
 */
void io_verbs_reap_locked(struct io_verbs_port *p);
void io_verbs_ah_destroy(void *ah);

/*
 * io_verbs_event.c: the owning worker's idle work on events: read the
 * device's async events unless the control thread does, and read the
 * port's state again when an event flagged it.
 */
void io_verbs_event_idle(struct io_verbs_port *p);

/*
 * io_verbs.c: a port's objects on its device: the CQs on a completion
 * channel, the relay QP and the proxies in RTS (0 or -errno: the caller
 * closes what was made); its receives posted and its CQ armed; all of them
 * destroyed, its groups detached, the buffers they had back in their pools
 * (what the port keeps: its pool, its AH cache's table, its counters).
 */
int io_verbs_port_hw_open(struct io_verbs_port *p);
void io_verbs_port_start(struct io_verbs_port *p);
void io_verbs_port_hw_close(struct io_verbs_port *p);

/*
 * io_verbs_dev.c: a device entry opened by its name (context, PD, async fd
 * non-blocking; -ENODEV when no device has it); every port's pool
 * registered with device `d` (0 or -errno); the MRs on `d`, its PD and its
 * context let go.
 */
int io_verbs_dev_attach(struct io_verbs_dev *d);
int io_verbs_dev_reg(struct io_verbs *v, unsigned d);
void io_verbs_dev_detach(struct io_verbs *v, unsigned d);

/*
 * io_verbs_qp.c: QP `slot` of the port created with its send ring and
 * brought to RTS (0 or -errno; on failure the slot may hold a QP to
 * destroy); free buffers posted to the QPs below their depth (owner
 * thread); a QP's posted receives taken back without completions (the
 * receive CQ drained, the buffers free again) once it was reset; the QPs
 * in the error state reset and brought back once their sends completed
 * (owner thread).
 */
int io_verbs_qp_open(struct io_verbs_port *p, unsigned slot, uint32_t rq, uint32_t sq,
		     uint32_t qkey);
void io_verbs_repost(struct io_verbs_port *p, bool all);
void io_verbs_rq_reclaim(struct io_verbs_port *p, unsigned slot);
void io_verbs_recover(struct io_verbs_port *p);

/*
 * io_verbs_mcast.c: attach to the groups of a new FIB and detach from the
 * others; destroy the Q_Key QPs that closed once their receives have
 * flushed and their sends completed (owner thread).  The index in p->mc of
 * a group, or -1; the slot of the open QP of `qkey` (the relay's or a
 * Q_Key QP), or -1 (owner, or any thread under tx_lock).
 */
void io_verbs_mcast_sync(struct io_verbs_port *p, const struct router_fib *fib);
void io_verbs_qkey_gc(struct io_verbs_port *p);
int io_verbs_mcast_find(const struct io_verbs_port *p, const uint8_t *mgid);
int io_verbs_qkey_slot(const struct io_verbs_port *p, uint32_t qkey);

#endif
