/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_pool.h - the receive buffers of one verbs port and who holds
 * them.  A buffer is posted on the port's receive queue, or held: by the
 * worker between rx_burst and rx_done (one reference) and by every send
 * work request that gathers from it (one reference each: multicast fans out
 * from the receive buffer without copying).  When the last reference goes,
 * the buffer is returned for re-posting.  Sends complete on the egress
 * port, possibly in another worker thread: references are atomic and
 * returns go on a lock-free stack that only the owning port pops (all at
 * once, so there is no ABA problem).
 *
 * Buffer layout (bytes from the buffer start): the HCA scatters the 40-byte
 * GRH at IO_VERBS_GRH_OFF and the payload at IO_VERBS_PAY_OFF (two SGEs);
 * the backend writes the LRH, BTH and DETH (and ImmDt) in front of the
 * payload so the engine sees a whole packet (io_verbs.h).
 */
#ifndef IO_VERBS_POOL_H
#define IO_VERBS_POOL_H

#include "router/router_engine.h"

#include <stdatomic.h>
#include <stdint.h>

#define IO_VERBS_GRH_OFF 16
#define IO_VERBS_PAY_OFF 76   /* GRH_OFF + GRH 40 + BTH 12 + DETH 8 (+ ImmDt 4 when moved) */
#define IO_VERBS_MTU	 4096 /* the largest IB MTU: payload bytes per receive */
#define IO_VERBS_BUFSZ	 4224 /* PAY_OFF + MTU + pad 3 + ICRC 4 + VCRC 2, to 64 bytes */
#define IO_VERBS_NIL	 UINT32_MAX
/*
 * Bounce buffers a port keeps beside its receive buffers, in the same
 * registered memory: a packet from a port of another backend (a sim port)
 * has no registered buffer, so it is copied into one of these to be sent.
 * Taken and given back only under the sending port's tx_lock; 256 is a
 * quarter of the relay QP's send queue (1 MiB).
 */
#define IO_VERBS_BOUNCE 256

enum io_verbs_buf_state {
	IO_VERBS_BUF_FREE,   /* waiting to be posted */
	IO_VERBS_BUF_POSTED, /* on the receive queue */
	IO_VERBS_BUF_HELD,   /* references > 0 */
};

struct io_verbs_buf {
	struct router_mbuf m; /* m.priv: this buffer */
	uint8_t *base;	      /* IO_VERBS_BUFSZ bytes */
	_Atomic uint32_t refs;
	uint32_t idx;
	uint32_t next;	 /* return stack / free list link */
	uint32_t paylen; /* payload bytes (pad excluded) */
	uint32_t imm;	 /* network order, when has_imm */
	uint8_t has_imm;
	uint8_t state; /* enum io_verbs_buf_state (owner's view) */
	uint8_t owner; /* port index */
	uint8_t qslot; /* the QP of the port it was posted to (io_verbs_port.q) */
};

struct io_verbs_pool {
	uint8_t *mem; /* nbufs * IO_VERBS_BUFSZ, hugepages when available */
	size_t memlen;
	int huge;
	uint32_t nbufs;		  /* receive buffers: buf[0..nbufs) */
	struct io_verbs_buf *buf; /* then IO_VERBS_BOUNCE bounce buffers */
	uint32_t bounce_head;	  /* the free bounce buffers (the port's tx_lock) */
	uint32_t nbounce_free;
	uint32_t free_head; /* owner only: buffers to post */
	uint32_t nfree;
	_Atomic uint32_t ret_head; /* returned by any thread */
	_Atomic uint32_t nheld;	   /* buffers with references */
};

/* Allocate `n` buffers for port `owner`, all free, and its bounce buffers.  0 or -errno. */
int io_verbs_pool_init(struct io_verbs_pool *p, uint32_t n, uint8_t owner);
/*
 * The bytes a pool of n receive buffers maps (and registers with each
 * device), its bounce buffers included: to 2 MiB.
 */
size_t io_verbs_pool_bytes(uint32_t n);
void io_verbs_pool_fini(struct io_verbs_pool *p);

/* Owner: take a free buffer (state POSTED), or NULL. */
struct io_verbs_buf *io_verbs_pool_take(struct io_verbs_pool *p);
/* Owner: a receive completed into `b`: one reference (the worker's). */
void io_verbs_pool_hold(struct io_verbs_pool *p, struct io_verbs_buf *b);
/* Owner: back to the free list directly (never held, or reset QP). */
void io_verbs_pool_give(struct io_verbs_pool *p, struct io_verbs_buf *b);
/* Any thread: one more reference (a send about to be posted). */
static inline void io_verbs_buf_ref(struct io_verbs_buf *b)
{
	atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
}
/*
 * Any thread: drop a reference; the last one returns the buffer to its
 * owner.  A bounce buffer goes back to the bounce list: only its own port
 * sends from one, under its tx_lock, which the caller holds.
 */
void io_verbs_buf_unref(struct io_verbs_pool *p, struct io_verbs_buf *b);
/* Under the port's tx_lock: a free bounce buffer (no reference yet), or NULL. */
struct io_verbs_buf *io_verbs_pool_bounce_take(struct io_verbs_pool *p);
/* Under the port's tx_lock (or before the port opens): a bounce buffer back on its list. */
void io_verbs_pool_bounce_give(struct io_verbs_pool *p, struct io_verbs_buf *b);
/* Whether `b` is one of the pool's bounce buffers. */
static inline int io_verbs_buf_is_bounce(const struct io_verbs_pool *p,
					 const struct io_verbs_buf *b)
{
	return b->idx >= p->nbufs;
}
/* Owner: move every returned buffer to the free list; how many. */
uint32_t io_verbs_pool_collect(struct io_verbs_pool *p);

#endif
