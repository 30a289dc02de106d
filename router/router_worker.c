/* router_worker.c - the forwarding loop over sim ports. */
#include "router/router_worker.h"

#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

int router_worker_init(struct router_worker *w, uint32_t id, struct router_pub *pub,
		       struct io_sim_port **ports, uint32_t nports, uint32_t rx_ports)
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
		else if (ports[i] && epoll_ctl(w->epfd, EPOLL_CTL_ADD, ports[i]->fd, &ev) < 0) {
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
	int n = io_sim_rx_burst(w->port[in], pkts, ROUTER_BURST);
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
		sent = io_sim_tx_burst(w->port[p], o->tx[p], o->ntx[p], &bytes);
		if ((cap & (1u << p)) && w->tx_hook)
			for (unsigned i = 0; i < sent; i++)
				w->tx_hook(w->hook_ctx, p, &o->tx[p][i]);
		w->counters.tx_pkts[p] += sent;
		w->counters.tx_bytes[p] += bytes;
		w->counters.tx_errors[p] += o->ntx[p] - sent;
	}
	worker_hooks(w, o);
	return (unsigned)n;
}

unsigned router_worker_poll(struct router_worker *w, unsigned budget)
{
	unsigned total = 0;
	bool more = true;

	while (more && total < budget) {
		/* one FIB per round of bursts; quiescent after it (router_pub.h) */
		const struct router_fib *fib = router_pub_get(w->pub);

		more = false;
		for (uint32_t p = 0; fib && p < w->nports; p++) {
			unsigned n;

			if (!w->port[p] || !(w->rx_ports & (1u << p)))
				continue;
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
		if (n <= 0)
			continue;
		router_worker_poll(w, 4096);
	}
	router_pub_offline(w->pub, w->id);
	return NULL;
}
