/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs.c - the verbs data-path backend (io_verbs.h): set-up and teardown (devices, PDs,
 * pools and their MRs, CQs, each port's QPs) and its io_port.  With io_verbs_qp.c (QP states,
 * receive posting, recovery), io_verbs_rx.c (receive), io_verbs_tx.c (send, address handles),
 * io_verbs_event.c (async events, port state), io_verbs_dev.c (devices, lost and found again)
 * and io_verbs_mcast.c (multicast attachment, the Q_Key QPs) these are the files of ibrouter that call ibv_*, so that tests swap in a fake
 * (doc/ARCHITECTURE.md, "Modules", Boundaries).
 * Tests link them with the fake provider of tests/fakes/, production with
 * libibverbs.
 */
#include "router/io/io_verbs_int.h"
#include "router/io/io_verbs_numa.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(offsetof(struct io_verbs_port, io) == 0, "io_port first");

/* ---- set-up ---- */

/*
 * The device entry of `name`, opened now when it is new; a device not
 * present (yet) is an entry marked lost, which io_verbs_dev_reopen() opens
 * once it comes (io_verbs_dev.c).  NULL with errno on other failures.
 */
static struct io_verbs_dev *verbs_dev_get(struct io_verbs *v, const char *name)
{
	struct io_verbs_dev *d;
	int rc;

	for (unsigned i = 0; i < v->ndevs; i++)
		if (!strcmp(v->dev[i].name, name))
			return &v->dev[i];
	d = &v->dev[v->ndevs];
	snprintf(d->name, sizeof(d->name), "%s", name);
	if ((rc = io_verbs_dev_attach(d)) == -ENODEV || rc == -ENOSYS) {
		/* ENOSYS: libibverbs found no RDMA stack at all (no uverbs in the kernel) */
		log_warnx("verbs: device %s not present%s: its ports are lost until it comes", name,
			  rc == -ENOSYS ? " (this machine has no RDMA devices: load the HCA's "
					  "driver and ib_uverbs, or rdma_rxe for Soft-RoCE)"
					: "");
		d->lost = true;
	} else if (rc) {
		errno = -rc;
		return NULL;
	}
	v->ndevs++;
	return d;
}

/* CQ entries for every QP the port may have, Q_Key QPs included; *nbufs the buffers. */
uint32_t io_verbs_port_nbufs(uint32_t rq_depth, unsigned nproxy)
{
	return rq_depth * (1 + IO_VERBS_MAX_QKEY) + nproxy * IO_VERBS_PROXY_RQ;
}

uint32_t io_verbs_port_nsend(uint32_t sq_depth, unsigned nproxy)
{
	return sq_depth + nproxy * IO_VERBS_PROXY_SQ + IO_VERBS_MAX_QKEY * IO_VERBS_QKEY_SQ;
}

static uint32_t verbs_port_nsend(const struct io_verbs_port *p, uint32_t *nbufs)
{
	*nbufs = io_verbs_port_nbufs(p->cfg.rq_depth, p->cfg.nproxy);
	return io_verbs_port_nsend(p->cfg.sq_depth, p->cfg.nproxy);
}

static int verbs_port_hw_open(struct io_verbs_port *p)
{
	struct ibv_comp_channel *ch;
	uint32_t nbufs, nsend = verbs_port_nsend(p, &nbufs);
	int rc;

	if ((rc = io_verbs_port_refresh(p)))
		return rc;
	if (!(ch = ibv_create_comp_channel(p->dev->ctx)))
		return -ENOMEM;
	p->ch = ch;
	fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK);
	/* one receive CQ and one send CQ for all the port's QPs, deep enough for all */
	if (!(p->rcq = ibv_create_cq(p->dev->ctx, (int)nbufs, p, ch, 0)) ||
	    !(p->scq = ibv_create_cq(p->dev->ctx, (int)nsend, p, NULL, 0)))
		return -ENOMEM;
	p->q[0].kind = IO_VERBS_QP_RELAY;
	if ((rc = io_verbs_qp_open(p, 0, p->cfg.rq_depth, p->cfg.sq_depth, p->cfg.qkey)))
		return rc;
	p->qpn = p->q[0].qpn;
	for (unsigned i = 0; i < p->cfg.nproxy; i++) {
		p->q[i + 1].kind = IO_VERBS_QP_PROXY;
		p->q[i + 1].remote = p->cfg.proxy[i];
		if ((rc = io_verbs_qp_open(p, i + 1, IO_VERBS_PROXY_RQ, IO_VERBS_PROXY_SQ,
					   p->cfg.proxy[i].qkey)))
			return rc;
	}
	return 0;
}

/*
 * What the provider allocates for the port's CQs and QPs, on its HCA's NUMA
 * node too (io_verbs_numa.h): at the first open and when a lost device is
 * back (io_verbs_dev_reopen).
 */
int io_verbs_port_hw_open(struct io_verbs_port *p)
{
	int rc;

	if (p->numa >= 0 && io_verbs_numa_prefer(p->numa) == 0) {
		rc = verbs_port_hw_open(p);
		io_verbs_numa_prefer(-1);
		return rc;
	}
	return verbs_port_hw_open(p);
}

/* Its receives posted, the relay QP's low-water mark from there, the CQ armed. */
void io_verbs_port_start(struct io_verbs_port *p)
{
	io_verbs_repost(p, true);
	__atomic_store_n(&p->st.rq_low, p->q[0].rq_posted, __ATOMIC_RELAXED);
	ibv_req_notify_cq(p->rcq, 0);
}

void io_verbs_port_hw_close(struct io_verbs_port *p)
{
	/* a QP with groups attached cannot be destroyed (uverbs: EBUSY) */
	while (p->nmc)
		io_verbs_mcast_detach(p, p->mc[0].mgid);
	for (unsigned k = 0; k < p->nq; k++) {
		struct io_verbs_qp *q = &p->q[k];

		if (q->qp) {
			if (p->rcq)
				io_verbs_rq_reclaim(p, k); /* its posted receives free again */
			ibv_destroy_qp(q->qp);
		}
		/* the sends in flight complete nowhere now: their buffers go back */
		for (; q->sq_ring && q->sq_tail < q->sq_head; q->sq_tail++) {
			struct io_verbs_buf *b = q->sq_ring[q->sq_tail % q->sq_depth];

			io_verbs_buf_unref(&p->v->port[b->owner].pool, b);
		}
		free(q->sq_ring);
		/* the relay QP and the proxies come back with the port, Q_Key QPs with a group */
		p->q[k] = (struct io_verbs_qp){ .kind = k < p->qkey0 ? q->kind : IO_VERBS_QP_NONE,
						.remote = q->remote };
	}
	memset(p->ah_mark, 0, sizeof(p->ah_mark));
	p->nclosing = 0;
	p->rq_posted = 0;
	p->qpn = 0;
	__atomic_store_n(&p->qp_error, false, __ATOMIC_RELAXED);
	if (p->ah.cur.ent)
		io_verbs_ah_clear(&p->ah, io_verbs_ah_destroy);
	if (p->rcq)
		ibv_destroy_cq(p->rcq);
	if (p->scq)
		ibv_destroy_cq(p->scq);
	if (p->ch)
		ibv_destroy_comp_channel(p->ch);
	p->rcq = p->scq = p->ch = NULL;
}

/*
 * The pool on the HCA's NUMA node, before anything touches it (the pages
 * come at the first touch, in the registration); a refusal is said and the
 * port opens where its memory is.
 */
static int verbs_port_numa(struct io_verbs_port *p)
{
	int rc;

	if ((p->numa = io_verbs_numa_node(p->cfg.device)) < 0)
		return 0;
	if ((rc = io_verbs_numa_bind(p->pool.mem, p->pool.memlen, p->numa)))
		log_warnx("verbs: %s: cannot bind its buffers to NUMA node %d (%s): they stay "
			  "where the kernel puts them",
			  p->cfg.device, p->numa, strerror(-rc));
	return 0;
}

static int verbs_port_open(struct io_verbs *v, struct io_verbs_port *p)
{
	uint32_t nbufs;
	int rc;

	if (!p->cfg.rq_depth)
		p->cfg.rq_depth = IO_VERBS_RQ_DEPTH;
	if (!p->cfg.sq_depth)
		p->cfg.sq_depth = IO_VERBS_SQ_DEPTH;
	if (!p->cfg.qkey)
		p->cfg.qkey = IO_VERBS_QKEY;
	if (p->cfg.nproxy > IO_VERBS_MAX_PROXY)
		return -EINVAL;
	verbs_port_nsend(p, &nbufs);
	p->qkey0 = 1 + p->cfg.nproxy;
	p->nq = p->qkey0 + IO_VERBS_MAX_QKEY; /* the Q_Key slots stay empty until a group */
	if (!(p->dev = verbs_dev_get(v, p->cfg.device)))
		return -errno;
	if ((rc = io_verbs_pool_init(&p->pool, nbufs, p->idx)) || (rc = verbs_port_numa(p)) ||
	    (rc = io_verbs_ah_init(&p->ah, p->cfg.ah_cap ? p->cfg.ah_cap : IO_VERBS_AH_CAP)) ||
	    (rc = -pthread_spin_init(&p->tx_lock, PTHREAD_PROCESS_PRIVATE)))
		return rc;
	p->tx_lock_ok = true;
	for (uint32_t i = 0; i < p->pool.nbufs; i++)
		p->pool.buf[i].m.port = p->cfg.router_port;
	if (p->dev->lost) {
		p->lost = true; /* its QPs when the device comes (io_verbs_dev_reopen) */
		return 0;
	}
	return io_verbs_port_hw_open(p);
}

/* ---- the rest of the io_port ---- */

static int verbs_fd(const struct io_port *io)
{
	const struct ibv_comp_channel *ch = ((const struct io_verbs_port *)io)->ch;

	return ch ? ch->fd : -1; /* a lost port has none until its device comes back */
}

/* CRC filling and the multicast groups of the new FIB (io_verbs_mcast.c). */
static void verbs_fib_changed(struct io_port *io, const struct router_fib *fib)
{
	struct io_verbs_port *p = (struct io_verbs_port *)io;
	uint8_t r = p->cfg.router_port;

	bool raw_egress = false;

	/* a port whose egress sends the packet's own CRCs (sim: no HCA builds
	 * them) needs them right from here: the rewrite updates the VCRC, the
	 * ICRC it keeps (VM lab: RoCE -> sim arrived with a bad ICRC) */
	for (uint32_t i = 0; i < fib->nports; i++)
		raw_egress |= i != r && !(fib->port[i].cfg.flags & ROUTER_PORT_CRC_OFFLOAD);
	p->crc_fill = r < fib->nports &&
		      (raw_egress || (fib->port[r].cfg.flags &
				      (ROUTER_PORT_VCRC_CHECK | ROUTER_PORT_ICRC_CHECK)));
	if (!p->lost) /* a lost port attaches when it is back: its new worker reads the FIB */
		io_verbs_mcast_sync(p, fib);
}

static void verbs_io_close(struct io_port *io)
{
	(void)io; /* ports close together: io_verbs_close() */
}

static const struct io_port_ops verbs_io_ops = {
	.rx_burst = io_verbs_rx_burst,
	.rx_done = io_verbs_rx_done,
	.tx_burst = io_verbs_tx_burst,
	.fib_changed = verbs_fib_changed,
	.fd = verbs_fd,
	.close = verbs_io_close,
};

struct io_verbs_port *io_verbs_port(struct io_verbs *v, unsigned i)
{
	return i < v->nports ? &v->port[i] : NULL;
}

struct io_verbs *io_verbs_open(const struct io_verbs_port_cfg *cfg, unsigned n)
{
	struct io_verbs *v;
	int rc = 0;

	if (!n || n > ROUTER_MAX_PORTS || !(v = calloc(1, sizeof(*v)))) {
		errno = n ? ENOMEM : EINVAL;
		return NULL;
	}
	memset(v->by_router, -1, sizeof(v->by_router));
	for (unsigned i = 0; i < n && !rc; i++) {
		struct io_verbs_port *p = &v->port[i];

		p->io.ops = &verbs_io_ops;
		ibr_ipmc_init(&p->ipmc);
		p->v = v;
		p->idx = (uint8_t)i;
		p->cfg = cfg[i];
		if (cfg[i].router_port < ROUTER_MAX_PORTS)
			v->by_router[cfg[i].router_port] = (int8_t)i;
		v->nports = i + 1;
		if ((rc = verbs_port_open(v, p)))
			log_warnx("verbs: %s:%u: %s", cfg[i].device, cfg[i].port_num,
				  strerror(-rc));
	}
	/* every pool on every device: a send on any port gathers from any port's buffers */
	for (unsigned d = 0; d < v->ndevs && !rc; d++)
		if (!v->dev[d].lost)
			rc = io_verbs_dev_reg(v, d);
	for (unsigned i = 0; i < n && !rc; i++)
		if (!v->port[i].lost)
			io_verbs_port_start(&v->port[i]);
	if (rc) {
		io_verbs_close(v);
		errno = -rc;
		return NULL;
	}
	return v;
}

void io_verbs_close(struct io_verbs *v)
{
	/* every port's QPs first: their sends in flight hold other ports' buffers */
	for (unsigned i = 0; i < v->nports; i++)
		if (v->port[i].dev)
			io_verbs_port_hw_close(&v->port[i]);
	for (unsigned d = 0; d < v->ndevs; d++)
		io_verbs_dev_detach(v, d); /* the MRs of every pool on it, its PD */
	for (unsigned i = 0; i < v->nports; i++) {
		struct io_verbs_port *p = &v->port[i];

		ibr_ipmc_fini(&p->ipmc);
		io_verbs_ah_fini(&p->ah);
		io_verbs_pool_fini(&p->pool);
		if (p->tx_lock_ok)
			pthread_spin_destroy(&p->tx_lock);
	}
	free(v);
}

_Static_assert(sizeof(struct io_verbs_stats) % sizeof(uint64_t) == 0, "counters only");

void io_verbs_port_stats(const struct io_verbs_port *p, struct io_verbs_stats *out)
{
	const uint64_t *in = (const uint64_t *)&p->st;
	uint64_t *o = (uint64_t *)out;

	for (size_t i = 0; i < sizeof(*out) / sizeof(uint64_t); i++)
		o[i] = __atomic_load_n(&in[i], __ATOMIC_RELAXED);
}

/* ---- buffers ---- */

void io_verbs_port_bufs(struct io_verbs_port *p, uint32_t *posted, uint32_t *nfree, uint32_t *held)
{
	io_verbs_pool_collect(&p->pool);
	*posted = p->rq_posted;
	*nfree = p->pool.nfree;
	*held = atomic_load(&p->pool.nheld);
}
