/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_data.c - the data path: sim sockets or verbs ports per port,
 * forwarding workers, counters summed over workers, and the SMA/local/drop
 * hooks.
 */
#include "daemon/port/ibrd_port.h"
#include "router/io/io_verbs.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The sim sockets of config `c`, before anything changes: a port whose
 * socket path is open already keeps that socket (its queue, so nothing
 * queued is lost); the others get a new one.  On failure the new ones are
 * closed again and nothing changed.
 */
int ibrd_data_stage(struct ibrd *d, const struct ibrd_conf *c, struct ibrd_sim_stage *st)
{
	int rc;

	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		st->from[i] = -1;
	for (unsigned i = 0; i < c->nports; i++) {
		const struct ibrd_conf_port *p = &c->port[i];

		if (p->data != IBRD_DATA_SIM)
			continue;
		for (unsigned j = 0; j < ROUTER_MAX_PORTS && st->from[i] < 0; j++)
			if (d->data->sim_open[j] && !st->kept[j] &&
			    !strcmp(d->data->sim[j].path, p->sim_socket))
				st->from[i] = (int)j;
		if (st->from[i] >= 0) {
			st->kept[st->from[i]] = true;
			continue;
		}
		if ((rc = io_sim_open(&st->sock[i], p->sim_socket, p->sim_peer, (uint8_t)i))) {
			log_warnx("router: port %s: sim socket %s: %s", p->name, p->sim_socket,
				  strerror(-rc));
			ibrd_data_unstage(d, st);
			return rc;
		}
		st->fresh[i] = true;
	}
	return 0;
}

/* With the workers stopped: the staged sockets become the ports' (the old set is kept aside). */
void ibrd_data_install(struct ibrd *d, const struct ibrd_conf *c, struct ibrd_sim_stage *st)
{
	memcpy(st->old, d->data->sim, sizeof(st->old));
	memcpy(st->old_open, d->data->sim_open, sizeof(st->old_open));
	memset(d->data->sim_open, 0, sizeof(d->data->sim_open));
	for (unsigned i = 0; i < c->nports; i++) {
		if (st->from[i] >= 0) {
			d->data->sim[i] = st->old[st->from[i]];
			if (strcmp(d->data->sim[i].peer.sun_path, c->port[i].sim_peer) &&
			    io_sim_set_peer(&d->data->sim[i], c->port[i].sim_peer))
				log_warnx("router: port %s: sim peer %s: too long", c->port[i].name,
					  c->port[i].sim_peer); /* the config check rules it out */
			for (unsigned k = 0; k < ROUTER_BURST; k++)
				d->data->sim[i].mbuf[k].port = (uint8_t)i;
		} else if (st->fresh[i]) {
			d->data->sim[i] = st->sock[i];
		} else {
			continue;
		}
		d->data->sim_open[i] = true;
	}
	st->installed = true;
}

/* The config is in place: close the sockets of ports that are gone. */
void ibrd_data_commit(struct ibrd_sim_stage *st)
{
	for (unsigned j = 0; j < ROUTER_MAX_PORTS; j++)
		if (st->installed && st->old_open[j] && !st->kept[j])
			io_sim_close(&st->old[j]);
	memset(st, 0, sizeof(*st));
}

/* Back to the sockets before ibrd_data_stage (the workers stopped, if installed). */
void ibrd_data_unstage(struct ibrd *d, struct ibrd_sim_stage *st)
{
	if (st->installed) {
		memcpy(d->data->sim, st->old, sizeof(d->data->sim));
		memcpy(d->data->sim_open, st->old_open, sizeof(d->data->sim_open));
	}
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		if (st->fresh[i])
			io_sim_close(&st->sock[i]);
	memset(st, 0, sizeof(*st));
}

struct ibrd_datapath *ibrd_data_new(void)
{
	return calloc(1, sizeof(struct ibrd_datapath));
}

void ibrd_data_free(struct ibrd_datapath *x)
{
	free(x);
}

void ibrd_data_close(struct ibrd *d)
{
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		if (d->data->sim_open[i]) {
			io_sim_close(&d->data->sim[i]);
			d->data->sim_open[i] = false;
		}
}

int ibrd_data_open(struct ibrd *d)
{
	struct ibrd_sim_stage *st = malloc(sizeof(*st));
	int rc;

	if (!st)
		return -ENOMEM;
	if (!(rc = ibrd_data_stage(d, d->conf, st))) {
		ibrd_data_install(d, d->conf, st);
		ibrd_data_commit(st);
	}
	free(st);
	return rc;
}

/*
 * Worker w onto its CPU (worker-cpus, in turn).  A CPU the process may not
 * use (not online, outside its cpuset) is said, and the worker runs where
 * the kernel puts it: forwarding goes on, only slower than asked.
 */
static void data_worker_pin(struct ibrd *d, unsigned w)
{
	unsigned n = d->conf->nworker_cpus, cpu;
	cpu_set_t set;
	int rc;

	if (!n)
		return;
	cpu = d->conf->worker_cpus[w % n];
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if ((rc = pthread_setaffinity_np(d->data->threads[w], sizeof(set), &set))) {
		log_warnx("worker %u: cannot pin it to CPU %u (%s): it runs unpinned", w, cpu,
			  strerror(rc));
		return;
	}
	d->data->workers[w].cpu = (int)cpu;
}

/*
 * The workers over the ports' sockets (ibrd_data_stage/install) and verbs
 * ports (ibrd_verbs_open), one reader of the FIBs each; the core's
 * worker_setup hook gives each worker its hooks (SMA, captures) before it
 * starts.  On failure nothing runs.
 */
int ibrd_data_start(struct ibrd *d)
{
	struct io_port *ports[ROUTER_MAX_PORTS] = { 0 };
	unsigned n = d->conf->workers ? d->conf->workers : 1;
	int rc;

	for (unsigned i = 0; i < d->conf->nports; i++)
		ports[i] = d->data->sim_open[i] ? &d->data->sim[i].io : d->data->vport[i];
	if ((rc = router_pub_set_readers(&d->pub, n)))
		return rc;
	d->data->workers = calloc(n, sizeof(*d->data->workers));
	d->data->threads = calloc(n, sizeof(*d->data->threads));
	rc = !d->data->workers || !d->data->threads ? -ENOMEM : 0;
	for (unsigned w = 0; w < n && !rc; w++) {
		uint32_t rx = 0;

		for (unsigned i = w; i < d->conf->nports; i += n) /* each port read by one worker */
			rx |= 1u << i;
		if ((rc = router_worker_init(&d->data->workers[w], w, &d->pub, ports,
					     d->conf->nports, rx)))
			break;
		d->data->workers[w].hook_ctx = d;
		d->data->workers[w].mode = d->conf->worker_mode;
		d->data->workers[w].poll_ns = (uint64_t)d->conf->worker_poll * 1000u;
		if (d->data->worker_setup)
			d->data->worker_setup(d, &d->data->workers[w]);
		if ((rc = -pthread_create(&d->data->threads[w], NULL, router_worker_run,
					  &d->data->workers[w]))) {
			router_worker_fini(&d->data->workers[w]);
			break;
		}
		data_worker_pin(d, w);
		d->data->nworkers = w + 1;
	}
	d->data->running = true;
	if (rc)
		ibrd_data_stop(d); /* the workers that started */
	return rc;
}

/* Stop the workers (within their 100 ms epoll timeout); sockets stay open. */
void ibrd_data_stop(struct ibrd *d)
{
	for (unsigned w = 0; w < d->data->nworkers; w++)
		atomic_store(&d->data->workers[w].stop, true);
	for (unsigned w = 0; w < d->data->nworkers; w++) {
		pthread_join(d->data->threads[w], NULL);
		router_worker_fini(&d->data->workers[w]);
	}
	/* the totals of stopped workers live on in `retired` */
	for (unsigned w = 0; w < d->data->nworkers; w++)
		router_counters_add(&d->data->retired, &d->data->workers[w].counters);
	free(d->data->workers);
	free(d->data->threads);
	d->data->workers = NULL;
	d->data->threads = NULL;
	d->data->nworkers = 0;
	d->data->running = false;
}

/*
 * Each running worker's share is read between two of its bursts
 * (router_worker_counters()), and every packet is counted by the one worker
 * that received it, rx and fate together: so the sums add up per port (rx =
 * tx + tx errors + drops + SMA + local, over the ports a port forwards to)
 * whenever the traffic has stopped, and a clear taken while it runs puts
 * each burst wholly before or wholly after the clear.  While traffic runs a
 * reader may see one worker's shares a few bursts later than another's.
 * `retired` and `cleared` are the control thread's own.
 */
void ibrd_counters_total(struct ibrd *d, struct router_counters *sum)
{
	struct router_counters one;

	memcpy(sum, &d->data->retired, sizeof(*sum));
	for (unsigned w = 0; w < d->data->nworkers; w++) {
		router_worker_counters(&d->data->workers[w], &one);
		router_counters_add(sum, &one);
	}
}

void ibrd_counters_sum(struct ibrd *d, struct router_counters *sum)
{
	uint64_t *s = (uint64_t *)sum;
	const uint64_t *c = (const uint64_t *)&d->data->cleared;

	ibrd_counters_total(d, sum);
	for (size_t i = 0; i < ROUTER_COUNTERS_WORDS; i++)
		s[i] -= c[i];
}

/* One per-port array of counters, moved to the new positions. */
static void counters_move_one(uint64_t *v, const int *src)
{
	uint64_t old[ROUTER_MAX_PORTS];

	memcpy(old, v, sizeof(old));
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		v[i] = src[i] >= 0 ? old[src[i]] : 0;
}

static void counters_move(struct router_counters *c, const int *src)
{
	struct router_counters old = *c;

	counters_move_one(c->rx_pkts, src);
	counters_move_one(c->rx_bytes, src);
	counters_move_one(c->tx_pkts, src);
	counters_move_one(c->tx_bytes, src);
	counters_move_one(c->tx_errors, src);
	counters_move_one(c->peer_absent, src);
	counters_move_one(c->sma, src);
	counters_move_one(c->local, src);
	counters_move_one(c->res_ns, src);
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		if (src[i] >= 0) {
			memcpy(c->drop[i], old.drop[src[i]], sizeof(c->drop[i]));
			memcpy(c->res[i], old.res[src[i]], sizeof(c->res[i]));
		} else {
			memset(c->drop[i], 0, sizeof(c->drop[i]));
			memset(c->res[i], 0, sizeof(c->res[i]));
		}
}

/*
 * Counters belong to a port by name: after a reload that moved ports, the
 * totals of the stopped workers and the "clear counters" baseline move too.
 */
void ibrd_counters_move(struct ibrd *d, const int *src)
{
	counters_move(&d->data->retired, src);
	counters_move(&d->data->cleared, src);
}
