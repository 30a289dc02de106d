/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_worker.h - one forwarding worker: receives bursts from its ports
 * (any backend, through struct io_port: io_sim, io_verbs),
 * runs the engine on the current FIB, transmits per egress port, hands SMPs
 * and packets for the router itself to hooks, and reports quiescent states
 * so old FIBs can be freed (router_pub.h).
 */
#ifndef ROUTER_WORKER_H
#define ROUTER_WORKER_H

#include "router/io/io_port.h"
#include "router/router_engine.h"
#include "router/router_pub.h"

#include <stdatomic.h>
#include <stdbool.h>

/* Called for each packet of a burst: SMPs (VL15), local, and dropped packets. */
typedef void router_worker_hook(void *ctx, const struct router_mbuf *m, int reason);
/* A copy sent on `port` (capture of transmitted packets). */
typedef void router_worker_tx_hook(void *ctx, uint32_t port, const struct router_tx *tx);

/*
 * The counters other threads see (router_worker_counters()): at the end of
 * each burst the worker copies the words of its totals that the burst
 * changed, between two increments of a sequence count (odd while it copies;
 * release stores, acquire loads: plain moves on x86-64).  A reader retries
 * while the count is odd or moved, so it sees the totals between two bursts:
 * each packet's rx with its tx, tx error, drop, SMA or local count.
 */
struct router_worker_shown {
	_Atomic uint64_t seq;
	_Atomic uint64_t w[ROUTER_COUNTERS_WORDS]; /* struct router_counters, word by word */
};

/*
 * How a worker waits for packets (ibrouterd.conf(5), worker-mode): asleep
 * in epoll_wait until a port's fd wakes it (an interrupt and a wake-up on
 * every quiet-to-busy edge, no CPU while idle); polling its ports without
 * ever sleeping (its core at 100%, no wake-up latency); or polling for
 * poll_ns after its last packet, then sleeping (busy under load, asleep
 * when quiet).
 */
enum router_worker_mode {
	ROUTER_WORKER_EVENT,
	ROUTER_WORKER_BUSY,
	ROUTER_WORKER_HYBRID,
};

struct router_worker {
	uint32_t id;	  /* reader slot in the publisher */
	uint8_t mode;	  /* enum router_worker_mode, set before the thread starts */
	uint64_t poll_ns; /* hybrid: how long it polls after its last packet */
	int cpu;	  /* the CPU it is pinned to, -1: none (set by its starter) */
	/* its sleeps in epoll_wait (relaxed: read by `show workers`) */
	_Atomic uint64_t wakeups;
	/* its polls of every port that found no packet (busy and hybrid) */
	_Atomic uint64_t idle_polls;
	/* its turns that found packets: with beats, the share of its turns that did work */
	_Atomic uint64_t work_turns;
	struct router_pub *pub;
	uint32_t nports;
	struct io_port *port[ROUTER_MAX_PORTS]; /* by port index, for sending; NULL: no data path */
	uint32_t rx_ports; /* ports this worker receives from (bit per index) */
	int epfd;
	_Atomic bool stop;
	router_worker_hook *sma_hook;	/* VL15: the SMA (NULL: counted, not answered) */
	router_worker_hook *local_hook; /* addressed to the router itself */
	router_worker_hook *drop_hook;	/* every drop, with its reason (capture) */
	/*
	 * Capture: while a port's bit is set in *cap_ports, rx_hook sees every
	 * packet received there and tx_hook every copy sent there.
	 */
	_Atomic uint32_t *cap_ports;
	router_worker_hook *rx_hook;
	router_worker_tx_hook *tx_hook;
	void *hook_ctx;
	const struct router_fib *fib_seen; /* the FIB the rx ports last heard of */
	uint64_t gen_seen;
	/*
	 * One more each turn of the worker's loop (at least every 100 ms, idle
	 * too): the daemon's watchdog tells systemd all is well only while every
	 * worker's count moves (ibrouterd(8), WATCHDOG).
	 */
	_Atomic uint64_t beats;
	uint64_t ports_groups_seen;	      /* its ports' and groups' tables (router_fib.h) */
	struct router_counters counters;      /* running totals: this worker's thread only */
	uint8_t res_bucket[ROUTER_MAX_PORTS]; /* the residence bucket each port's last burst hit */
	struct router_worker_shown shown;     /* what other threads read of them */
	struct router_out out;
};

/*
 * `ports[i]` is port index i (NULL for a port without a data path); the
 * worker sends on all of them and receives from those in `rx_ports`.
 */
int router_worker_init(struct router_worker *w, uint32_t id, struct router_pub *pub,
		       struct io_port **ports, uint32_t nports, uint32_t rx_ports);
void router_worker_fini(struct router_worker *w);

/*
 * Drain every readable port once (bursts of ROUTER_BURST until each is empty
 * or `budget` packets were handled).  Returns the packets handled.
 */
unsigned router_worker_poll(struct router_worker *w, unsigned budget);

/*
 * From any thread: the worker's counters as they were between two of its
 * bursts (spins, then yields, while the worker is copying one in).  Words of
 * ports past `nports` are 0.
 */
void router_worker_counters(const struct router_worker *w, struct router_counters *out);

/* Loop: block in epoll (offline for QSBR), poll, until `stop` is set. */
void *router_worker_run(void *w);

#endif
