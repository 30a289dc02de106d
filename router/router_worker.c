/* router_worker.c - the forwarding loop over data-path ports (struct io_port). */
#include "router/router_worker.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

int router_worker_init(struct router_worker *w, uint32_t id, struct router_pub *pub,
		       struct io_port **ports, uint32_t nports, uint32_t rx_ports)
{
	memset(w, 0, sizeof(*w));
	if (nports > ROUTER_MAX_PORTS || id >= pub->nreaders)
		return -EINVAL;
	w->id = id;
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
		else if (ports[i] &&
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

/* One burst from one port: engine, then a batch per egress port. */
static unsigned worker_burst(struct router_worker *w, const struct router_fib *fib, uint32_t in)
{
	struct router_mbuf *pkts[ROUTER_BURST];
	struct router_out *o = &w->out;
	int n = io_port_rx_burst(w->port[in], pkts, ROUTER_BURST);
	uint32_t cap;

	if (n <= 0)
		return 0;
	cap = w->cap_ports ? atomic_load_explicit(w->cap_ports, memory_order_relaxed) : 0;
	if ((cap & (1u << in)) && w->rx_hook)
		for (int i = 0; i < n; i++)
			w->rx_hook(w->hook_ctx, pkts[i], -1);
	router_engine_burst(fib, pkts, (unsigned)n, o, &w->counters);
	for (uint32_t p = 0; p < w->nports; p++) {
		uint64_t bytes;
		unsigned sent;

		if (!o->ntx[p])
			continue;
		if (!w->port[p]) {
			w->counters.tx_errors[p] += o->ntx[p];
			continue;
		}
		sent = io_port_tx_burst(w->port[p], o->tx[p], o->ntx[p], &bytes);
		if ((cap & (1u << p)) && w->tx_hook)
			for (unsigned i = 0; i < sent; i++)
				w->tx_hook(w->hook_ctx, p, &o->tx[p][i]);
		w->counters.tx_pkts[p] += sent;
		w->counters.tx_bytes[p] += bytes;
		w->counters.tx_errors[p] += o->ntx[p] - sent;
	}
	worker_hooks(w, o);
	io_port_rx_done(w->port[in], pkts, (unsigned)n);
	return (unsigned)n;
}

/* Tell the ports this worker receives from about a new FIB (one compare per round otherwise). */
static void worker_fib_changed(struct router_worker *w, const struct router_fib *fib)
{
	for (uint32_t p = 0; p < w->nports; p++)
		if (w->port[p] && (w->rx_ports & (1u << p)))
			io_port_fib_changed(w->port[p], fib);
	w->fib_seen = fib;
	w->gen_seen = fib->generation;
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

void *router_worker_run(void *arg)
{
	struct router_worker *w = arg;
	struct epoll_event ev[ROUTER_MAX_PORTS];

	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		/* blocked in epoll the worker holds no FIB: let reclamation go on */
		router_pub_offline(w->pub, w->id);
		int n = epoll_wait(w->epfd, ev, ROUTER_MAX_PORTS, 100);

		router_pub_online(w->pub, w->id);
		/*
		 * Idle too (n == 0, every 100 ms): one round, so a new FIB reaches
		 * the ports (verbs attaches groups) and backends see to their
		 * housekeeping (verbs: re-posts, async events).  One empty poll per
		 * port each time: nothing next to the 100 ms.
		 */
		router_worker_poll(w, n > 0 ? 4096 : 1);
	}
	router_pub_offline(w->pub, w->id);
	return NULL;
}
