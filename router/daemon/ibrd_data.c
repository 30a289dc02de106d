/*
 * ibrd_data.c - the data path: sim sockets per port, forwarding workers,
 * counters summed over workers, and the SMA/local/drop hooks.
 */
#include "router/daemon/ibrd.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The sim sockets of the config's ports; sockets of ports that stay are kept. */
static int data_open_ports(struct ibrd *d)
{
	struct io_sim_port old[ROUTER_MAX_PORTS];
	bool was[ROUTER_MAX_PORTS];
	int rc;

	memcpy(old, d->sim, sizeof(old));
	memcpy(was, d->sim_open, sizeof(was));
	memset(d->sim_open, 0, sizeof(d->sim_open));
	for (unsigned i = 0; i < d->conf->nports; i++) {
		const struct ibrd_conf_port *p = &d->conf->port[i];

		if (p->data != IBRD_DATA_SIM)
			continue;
		for (unsigned j = 0; j < ROUTER_MAX_PORTS; j++) {
			if (!was[j] || strcmp(old[j].path, p->sim_socket) ||
			    strcmp(old[j].peer.sun_path, p->sim_peer))
				continue;
			d->sim[i] = old[j]; /* same socket, same queue: nothing lost */
			for (unsigned k = 0; k < ROUTER_BURST; k++)
				d->sim[i].mbuf[k].port = (uint8_t)i;
			was[j] = false;
			d->sim_open[i] = true;
			break;
		}
		if (d->sim_open[i])
			continue;
		if ((rc = io_sim_open(&d->sim[i], p->sim_socket, p->sim_peer, (uint8_t)i))) {
			log_warnx("router: port %s: sim socket %s: %s", p->name, p->sim_socket,
				  strerror(-rc));
			return rc;
		}
		d->sim_open[i] = true;
	}
	for (unsigned j = 0; j < ROUTER_MAX_PORTS; j++)
		if (was[j])
			io_sim_close(&old[j]);
	return 0;
}

int ibrd_data_start(struct ibrd *d)
{
	struct io_sim_port *ports[ROUTER_MAX_PORTS] = { 0 };
	unsigned n = d->conf->workers ? d->conf->workers : 1;
	int rc;

	if ((rc = data_open_ports(d)))
		return rc;
	for (unsigned i = 0; i < d->conf->nports; i++)
		ports[i] = d->sim_open[i] ? &d->sim[i] : NULL;
	if (n > d->pub.nreaders)
		n = d->pub.nreaders;
	d->workers = calloc(n, sizeof(*d->workers));
	d->threads = calloc(n, sizeof(*d->threads));
	if (!d->workers || !d->threads)
		return -ENOMEM;
	for (unsigned w = 0; w < n; w++) {
		uint32_t rx = 0;

		for (unsigned i = w; i < d->conf->nports; i += n) /* each port read by one worker */
			rx |= 1u << i;
		if ((rc = router_worker_init(&d->workers[w], w, &d->pub, ports, d->conf->nports,
					     rx)))
			return rc;
		d->workers[w].hook_ctx = d;
		ibrd_capture_hooks(d, &d->workers[w]);
		ibrd_sma_hooks(d, &d->workers[w]);
		if ((rc = -pthread_create(&d->threads[w], NULL, router_worker_run, &d->workers[w])))
			return rc;
		d->nworkers = w + 1;
	}
	d->running = true;
	return 0;
}

/* Stop the workers (within their 100 ms epoll timeout); sockets stay open. */
void ibrd_data_stop(struct ibrd *d)
{
	for (unsigned w = 0; w < d->nworkers; w++)
		atomic_store(&d->workers[w].stop, true);
	for (unsigned w = 0; w < d->nworkers; w++) {
		pthread_join(d->threads[w], NULL);
		router_worker_fini(&d->workers[w]);
	}
	/* the totals of stopped workers live on in `retired` */
	for (unsigned w = 0; w < d->nworkers; w++)
		router_counters_add(&d->retired, &d->workers[w].counters);
	free(d->workers);
	free(d->threads);
	d->workers = NULL;
	d->threads = NULL;
	d->nworkers = 0;
	d->running = false;
}

void ibrd_counters_sum(struct ibrd *d, struct router_counters *sum)
{
	uint64_t *s = (uint64_t *)sum;
	const uint64_t *c = (const uint64_t *)&d->cleared;

	memcpy(sum, &d->retired, sizeof(*sum));
	for (unsigned w = 0; w < d->nworkers; w++)
		router_counters_add(sum, &d->workers[w].counters);
	for (size_t i = 0; i < sizeof(*sum) / sizeof(uint64_t); i++)
		s[i] -= c[i];
}
