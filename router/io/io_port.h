/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_port.h - what the forwarding worker needs of a data-path backend
 * (doc/ARCHITECTURE.md, "Data path"): bursts in, bursts out, a file
 * descriptor to sleep on.  io_sim.c (whole packets on UNIX datagram
 * sockets) and io_verbs*.c (UD datagrams on an HCA) are the two
 * implementations; each embeds a struct io_port as the first member of its
 * port.
 *
 * Cost: one indirect call per burst and operation, not per packet
 * (bench_fwd sim_e2e_256 against relay_256, same run: unchanged within noise).
 */
#ifndef IO_PORT_H
#define IO_PORT_H

#include "router/router_engine.h"

#include <stdbool.h>
#include <stdint.h>

struct io_port;

/* What became of the copies handed to tx_burst; those neither sent nor absent: link errors. */
struct io_tx_result {
	unsigned sent;	 /* went out */
	unsigned absent; /* not sent: nobody at the other end (a sim peer path nothing is bound at) */
	uint64_t bytes; /* the size of those sent */
};

struct io_port_ops {
	/*
	 * Up to `n` (<= ROUTER_BURST) received packets, LRH through VCRC as the
	 * engine expects them; they stay valid until rx_done.  Returns the
	 * count (0: none waiting) or -errno.
	 */
	int (*rx_burst)(struct io_port *p, struct router_mbuf **out, unsigned n);
	/*
	 * The worker is done with the packets of the last rx_burst (the engine
	 * ran, the copies were handed to tx_burst, the hooks saw them).  A
	 * backend whose sends still reference a buffer keeps it until they
	 * complete.  NULL: nothing to do.
	 */
	void (*rx_done)(struct io_port *p, struct router_mbuf **pkts, unsigned n);
	/* Send `n` copies; what became of them in `*r`; returns r->sent. */
	unsigned (*tx_burst)(struct io_port *p, const struct router_tx *tx, unsigned n,
			     struct io_tx_result *r);
	/* The descriptor that becomes readable when rx_burst has work; -1: none for
	 * now (a verbs port whose device is lost), rx_burst called when idle only. */
	int (*fd)(const struct io_port *p);
	/*
	 * A FIB with new ports' or groups' tables was published (a FIB that
	 * changed routes or neighbours alone is not told: router_fib.h,
	 * ports_groups_id): the worker that receives from the port calls it,
	 * from its own thread, before its first burst on that FIB (io_verbs
	 * attaches its QP to the port's multicast groups).  Read nothing else
	 * of the FIB here: it is not kept.  NULL: nothing to do.
	 */
	void (*fib_changed)(struct io_port *p, const struct router_fib *fib);
	/* Release everything (the worker never calls it: the port's owner does). */
	void (*close)(struct io_port *p);
};

struct io_port {
	const struct io_port_ops *ops;
	/*
	 * Set by the backend, from the receiving worker's thread (in rx_burst),
	 * to have fib_changed called again with the current FIB: the worker
	 * clears it and calls fib_changed before the port's next burst
	 * (io_verbs: a Q_Key QP finished closing while a group waited for its
	 * slot).  Read once per port and round: nothing next to a burst.
	 */
	bool fib_again;
	/*
	 * Set by the worker that receives from the port before its first burst:
	 * it polls the port without ever sleeping on fd() (worker-mode busy),
	 * so a backend need not arm that wake-up on an empty burst (io_verbs:
	 * the CQ's notification, a system call on a kernel provider) and does
	 * its idle housekeeping now and then instead of on every empty burst.
	 */
	bool polled;
};

static inline int io_port_rx_burst(struct io_port *p, struct router_mbuf **out, unsigned n)
{
	return p->ops->rx_burst(p, out, n);
}

static inline void io_port_rx_done(struct io_port *p, struct router_mbuf **pkts, unsigned n)
{
	if (p->ops->rx_done)
		p->ops->rx_done(p, pkts, n);
}

static inline unsigned io_port_tx_burst(struct io_port *p, const struct router_tx *tx, unsigned n,
					struct io_tx_result *r)
{
	return p->ops->tx_burst(p, tx, n, r);
}

static inline void io_port_fib_changed(struct io_port *p, const struct router_fib *fib)
{
	if (p->ops->fib_changed)
		p->ops->fib_changed(p, fib);
}

static inline int io_port_fd(const struct io_port *p)
{
	return p->ops->fd(p);
}

static inline void io_port_close(struct io_port *p)
{
	p->ops->close(p);
}

#endif
