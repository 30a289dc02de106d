/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_worker.c - the forwarding loop over data-path ports (struct io_port). */
#include "router/router_worker.h"

#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

int router_worker_init(struct router_worker *w, uint32_t id, struct router_pub *pub,
		       struct io_port **ports, uint32_t nports, uint32_t rx_ports)
{
	memset(w, 0, sizeof(*w));
	if (nports > ROUTER_MAX_PORTS || id >= pub->nreaders)
		return -EINVAL;
	w->id = id;
	w->cpu = -1;
	w->pub = pub;
	w->nports = nports;
	w->rx_ports = rx_ports;
	w->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epfd < 0)
		return -errno;
	for (uint32_t i = 0; i < nports; i++) {
		struct epoll_event ev = { .events = EPOLLIN, .data.u32 = i };

		w->port[i] = ports[i];
		if (!(rx_ports & (1u << i)))
			w->rx_ports &= ~(1u << i);
		else if (ports[i] && io_port_fd(ports[i]) >= 0 && /* < 0: polled when idle only */
			 epoll_ctl(w->epfd, EPOLL_CTL_ADD, io_port_fd(ports[i]), &ev) < 0) {
			int rc = -errno;

			close(w->epfd);
			return rc;
		}
	}
	atomic_init(&w->stop, false);
	return 0;
}

void router_worker_fini(struct router_worker *w)
{
	if (w->epfd >= 0)
		close(w->epfd);
	w->epfd = -1;
}

static void worker_hooks(struct router_worker *w, const struct router_out *o)
{
	for (unsigned i = 0; i < o->nsma; i++)
		if (w->sma_hook)
			w->sma_hook(w->hook_ctx, o->sma[i], -1);
	for (unsigned i = 0; i < o->nlocal; i++)
		if (w->local_hook)
			w->local_hook(w->hook_ctx, o->local[i], -1);
	for (unsigned i = 0; i < o->ndrop; i++)
		if (w->drop_hook)
			w->drop_hook(w->hook_ctx, o->drop[i].m, o->drop[i].reason);
}

/* Word index of a counter in struct router_counters (and router_worker_shown.w). */
#define CTR_WORD(field) (offsetof(struct router_counters, field) / sizeof(uint64_t))

/* The per-port rows before the drops; the reader copies the rows of the worker's ports. */
static const size_t ctr_rows[] = {
	CTR_WORD(rx_pkts),  CTR_WORD(rx_bytes),	 CTR_WORD(tx_pkts),
	CTR_WORD(tx_bytes), CTR_WORD(tx_errors), CTR_WORD(peer_absent),
	CTR_WORD(sma),	    CTR_WORD(local),	 CTR_WORD(res_ns),
};
/* a counter added to struct router_counters is published and read here too */
_Static_assert(sizeof(struct router_counters) == (sizeof(ctr_rows) / sizeof(ctr_rows[0]) +
						  ROUTER_DROP_MAX + ROUTER_RES_BUCKETS) *
							 ROUTER_MAX_PORTS * sizeof(uint64_t),
	       "every row of struct router_counters is in ctr_rows, drop or res");

static inline void worker_show(struct router_worker *w, const uint64_t *v)
{
	atomic_store_explicit(&w->shown.w[v - (const uint64_t *)&w->counters], *v,
			      memory_order_release);
}

/*
 * Publish what the burst from port `in` changed in the totals, between the
 * two steps of the sequence count: rx of `in` (every packet of a port's
 * rx_burst carries its index), the SMA, local and drop counts of the packets
 * not sent (by the ingress port, as the engine counts them), and tx of each
 * egress port.  A few dozen instructions a burst: the engine and the sends
 * count into the plain totals as before.
 */
static void worker_show_burst(struct router_worker *w, uint32_t in, const struct router_out *o)
{
	const struct router_counters *c = &w->counters;
	uint64_t seq = atomic_load_explicit(&w->shown.seq, memory_order_relaxed);

	atomic_store_explicit(&w->shown.seq, seq + 1, memory_order_relaxed);
	worker_show(w, &c->rx_pkts[in]);
	worker_show(w, &c->rx_bytes[in]);
	for (unsigned i = 0; i < o->nsma; i++)
		worker_show(w, &c->sma[o->sma[i]->port]);
	for (unsigned i = 0; i < o->nlocal; i++)
		worker_show(w, &c->local[o->local[i]->port]);
	for (unsigned i = 0; i < o->ndrop; i++) {
		unsigned p = o->drop[i].m->port;

		worker_show(w, &c->drop[p < ROUTER_MAX_PORTS ? p : 0][o->drop[i].reason]);
	}
	for (uint32_t p = 0; p < w->nports; p++) {
		if (!o->ntx[p])
			continue;
		worker_show(w, &c->tx_pkts[p]);
		worker_show(w, &c->tx_bytes[p]);
		worker_show(w, &c->tx_errors[p]);
		worker_show(w, &c->peer_absent[p]);
		worker_show(w, &c->res_ns[p]);
		worker_show(w, &c->res[p][w->res_bucket[p]]);
	}
	atomic_store_explicit(&w->shown.seq, seq + 2, memory_order_release);
}

void router_worker_counters(const struct router_worker *w, struct router_counters *out)
{
	const uint32_t np = w->nports;
	uint64_t *o = (uint64_t *)out;

	memset(out, 0, sizeof(*out));
	for (unsigned tries = 1;; tries++) {
		uint64_t seq = atomic_load_explicit(&w->shown.seq, memory_order_acquire);

		if (!(seq & 1)) {
			for (size_t r = 0; r < sizeof(ctr_rows) / sizeof(ctr_rows[0]); r++)
				for (uint32_t p = 0; p < np; p++)
					o[ctr_rows[r] + p] = atomic_load_explicit(
						&w->shown.w[ctr_rows[r] + p], memory_order_acquire);
			for (size_t i = CTR_WORD(drop); i < CTR_WORD(drop) + np * ROUTER_DROP_MAX;
			     i++)
				o[i] = atomic_load_explicit(&w->shown.w[i], memory_order_acquire);
			for (size_t i = CTR_WORD(res); i < CTR_WORD(res) + np * ROUTER_RES_BUCKETS;
			     i++)
				o[i] = atomic_load_explicit(&w->shown.w[i], memory_order_acquire);
			/* the acquire loads keep this one after them */
			if (atomic_load_explicit(&w->shown.seq, memory_order_relaxed) == seq)
				return;
		}
		if (tries % 64 == 0)
			sched_yield(); /* the worker may have lost its core in the middle of a copy */
	}
}

/*
 * The monotonic clock, ns: the vDSO's clock_gettime, no system call.  A
 * burst reads it once when it came and once after each egress port's post
 * (the residence time, router_counters.h): 23 ns a read on an AMD EPYC
 * (BENCH res_clock in bench_fwd), 1.5 ns a packet at full 32-packet bursts
 * with one egress port (res_per_pkt_32), 46 ns for a burst of one packet.
 */
static inline uint64_t worker_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One burst from one port: engine, then a batch per egress port. */
static unsigned worker_burst(struct router_worker *w, const struct router_fib *fib, uint32_t in)
{
	struct router_mbuf *pkts[ROUTER_BURST];
	struct router_out *o = &w->out;
	int n = io_port_rx_burst(w->port[in], pkts, ROUTER_BURST);
	uint64_t t0;
	uint32_t cap;

	if (n <= 0)
		return 0;
	t0 = worker_now_ns();
	cap = w->cap_ports ? atomic_load_explicit(w->cap_ports, memory_order_relaxed) : 0;
	if ((cap & (1u << in)) && w->rx_hook)
		for (int i = 0; i < n; i++)
			w->rx_hook(w->hook_ctx, pkts[i], -1);
	router_engine_burst(fib, pkts, (unsigned)n, o, &w->counters);
	for (uint32_t p = 0; p < w->nports; p++) {
		struct io_tx_result r;

		if (!o->ntx[p])
			continue;
		if (!w->port[p]) {
			w->counters.tx_errors[p] += o->ntx[p];
			continue;
		}
		io_port_tx_burst(w->port[p], o->tx[p], o->ntx[p], &r);
		if ((cap & (1u << p)) && w->tx_hook)
			for (unsigned i = 0; i < r.sent; i++)
				w->tx_hook(w->hook_ctx, p, &o->tx[p][i]);
		if (r.sent) {
			uint64_t dt = worker_now_ns() - t0;
			unsigned b = router_res_bucket(dt);

			w->counters.res[p][b] += r.sent;
			w->counters.res_ns[p] += dt * r.sent;
			w->res_bucket[p] = (uint8_t)b; /* the word worker_show_burst publishes */
		}
		w->counters.tx_pkts[p] += r.sent;
		w->counters.tx_bytes[p] += r.bytes;
		w->counters.peer_absent[p] += r.absent;
		w->counters.tx_errors[p] += o->ntx[p] - r.sent - r.absent;
	}
	worker_show_burst(w, in, o);
	worker_hooks(w, o);
	io_port_rx_done(w->port[in], pkts, (unsigned)n);
	return (unsigned)n;
}

/*
 * Tell the ports this worker receives from about a new FIB (one compare per
 * round otherwise), when its ports' or groups' tables are new: what a
 * backend reads there (io_verbs: its multicast attachments, O(groups)) is
 * the same in a FIB that changed routes alone, which under churn comes
 * every round.
 */
static void worker_fib_changed(struct router_worker *w, const struct router_fib *fib)
{
	if (!fib->ports_groups_id || fib->ports_groups_id != w->ports_groups_seen)
		for (uint32_t p = 0; p < w->nports; p++)
			if (w->port[p] && (w->rx_ports & (1u << p)))
				io_port_fib_changed(w->port[p], fib);
	w->fib_seen = fib;
	w->gen_seen = fib->generation;
	w->ports_groups_seen = fib->ports_groups_id;
}

unsigned router_worker_poll(struct router_worker *w, unsigned budget)
{
	unsigned total = 0;
	bool more = true;

	while (more && total < budget) {
		/* one FIB per round of bursts; quiescent after it (router_pub.h) */
		const struct router_fib *fib = router_pub_get(w->pub);

		more = false;
		if (fib && (fib != w->fib_seen || fib->generation != w->gen_seen))
			worker_fib_changed(w, fib);
		for (uint32_t p = 0; fib && p < w->nports; p++) {
			unsigned n;

			if (!w->port[p] || !(w->rx_ports & (1u << p)))
				continue;
			if (__builtin_expect(w->port[p]->fib_again, 0)) {
				w->port[p]->fib_again = false;
				io_port_fib_changed(w->port[p], fib);
			}
			n = worker_burst(w, fib, p);
			total += n;
			more |= n == ROUTER_BURST;
		}
		router_pub_quiescent(w->pub, w->id);
		if (!fib)
			break;
	}
	return total;
}

#ifdef ROUTER_TEST_HANG
/*
 * Test builds only (tests/sim/local.am: ibrouterd-hang): a worker stops
 * making progress for good once the file ROUTER_TEST_HANG names exists, as
 * one stuck in a driver or a hook would (tests/sim/sim_notify.sh).  The
 * signals are blocked in the workers: pause() never returns.
 */
static void worker_test_hang(void)
{
	const char *f = getenv("ROUTER_TEST_HANG");

	if (f && access(f, F_OK) == 0)
		for (;;)
			pause();
}
#endif

/*
 * Whether the worker polls again without sleeping: always when busy; when
 * hybrid, until poll_ns passed since its last packet (the clock read once
 * a poll that found nothing, never on a poll that found packets).
 */
static bool worker_keeps_polling(struct router_worker *w, unsigned got, uint64_t *last_ns)
{
	uint64_t now;

	if (w->mode == ROUTER_WORKER_EVENT)
		return false;
	if (got) {
		*last_ns = 0; /* read again at the next empty poll */
		return true;
	}
	atomic_fetch_add_explicit(&w->idle_polls, 1, memory_order_relaxed);
	if (w->mode == ROUTER_WORKER_BUSY)
		return true;
	now = worker_now_ns();
	if (!*last_ns)
		*last_ns = now;
	return now - *last_ns < w->poll_ns;
}

void *router_worker_run(void *arg)
{
	struct router_worker *w = arg;
	struct epoll_event ev[ROUTER_MAX_PORTS];
	uint64_t last_ns = 0;
	bool polling = w->mode == ROUTER_WORKER_BUSY;

	/* before the first burst: a busy worker never sleeps on its ports' fds */
	for (uint32_t p = 0; p < w->nports; p++)
		if (w->port[p] && (w->rx_ports & (1u << p)))
			w->port[p]->polled = polling;
	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		/* a relaxed add a turn, nothing next to the epoll_wait beside it */
		atomic_fetch_add_explicit(&w->beats, 1, memory_order_relaxed);
#ifdef ROUTER_TEST_HANG
		worker_test_hang();
#endif
		if (polling) {
			/* online throughout: each round of the poll is a quiescent state */
			unsigned got = router_worker_poll(w, 4096);

			if (got)
				atomic_fetch_add_explicit(&w->work_turns, 1, memory_order_relaxed);
			polling = worker_keeps_polling(w, got, &last_ns);
			continue;
		}
		/* blocked in epoll the worker holds no FIB: let reclamation go on */
		router_pub_offline(w->pub, w->id);
		int n = epoll_wait(w->epfd, ev, ROUTER_MAX_PORTS, 100);

		router_pub_online(w->pub, w->id);
		atomic_fetch_add_explicit(&w->wakeups, 1, memory_order_relaxed);
		/*
		 * Idle too (n == 0, every 100 ms): one round, so a new FIB reaches
		 * the ports (verbs attaches groups) and backends see to their
		 * housekeeping (verbs: re-posts, async events).  One empty poll per
		 * port each time: nothing next to the 100 ms.  A hybrid worker
		 * woken by a packet polls from here on.
		 */
		if (router_worker_poll(w, n > 0 ? 4096 : 1)) {
			atomic_fetch_add_explicit(&w->work_turns, 1, memory_order_relaxed);
			if (w->mode == ROUTER_WORKER_HYBRID) {
				polling = true;
				last_ns = 0;
			}
		}
	}
	router_pub_offline(w->pub, w->id);
	return NULL;
}
