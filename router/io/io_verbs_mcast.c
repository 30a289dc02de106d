/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_mcast.c - the multicast groups of a verbs port and the QPs they
 * are attached to (io_verbs.h).
 *
 * An HCA gives a UD packet only to a QP whose Q_Key is the packet's DETH
 * Q_Key (IBA C10-25), and a QP has one Q_Key.  So a group goes to the QP
 * of its Q_Key: the relay QP for the relay Q_Key (and for a group whose
 * Q_Key the control plane does not know, 0), else a "Q_Key QP" that the
 * port creates when a FIB first brings a group with that Q_Key and
 * destroys when no group needs it any more.  At most IO_VERBS_MAX_QKEY a
 * port: their receive buffers are in the pool from the start, so a new one
 * takes nothing from the others.  Past that a group is not attached,
 * counted (mc_no_qp) and logged.
 *
 * Closing a Q_Key QP: once detached from its last group it goes to the
 * error state, which completes every posted receive with a flush error
 * (IBA 10.3.1); the owner takes those buffers back as their completions
 * come (io_verbs_rx.c), reaps its sends, and destroys it when it has no
 * receive posted and no send in flight (io_verbs_qkey_gc).  Until then its
 * slot is not reused: a group refused meanwhile for want of a slot waits,
 * and once the slot is free the port asks its worker for the FIB again
 * (io_port.fib_again), which attaches it.
 *
 * The owning worker does all of it; only the kind of a Q_Key slot changes
 * under tx_lock, as any worker sending a controlled Q_Key picks its QP
 * (io_verbs_qkey_slot) and the control thread lists the QPs.
 */
#include "router/io/io_verbs_int.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int io_verbs_mcast_find(const struct io_verbs_port *p, const uint8_t *mgid)
{
	for (unsigned i = 0; i < p->nmc; i++)
		if (!memcmp(p->mc[i].mgid, mgid, 16))
			return (int)i;
	return -1;
}

int io_verbs_qkey_slot(const struct io_verbs_port *p, uint32_t qkey)
{
	if (p->q[0].qkey == qkey)
		return 0;
	for (unsigned s = p->qkey0; s < p->nq; s++)
		if (p->q[s].kind == IO_VERBS_QP_QKEY && p->q[s].qkey == qkey)
			return (int)s;
	return -1;
}

static void qkey_kind_set(struct io_verbs_port *p, unsigned s, uint8_t kind)
{
	pthread_spin_lock(&p->tx_lock);
	p->q[s].kind = kind;
	pthread_spin_unlock(&p->tx_lock);
}

/*
 * Empty slot `s` and destroy its QP (no group attached, nothing posted, no
 * send in flight).  Its send sequence numbers go on from where they were:
 * the AH cache's marks compare them (io_verbs_tx.c).
 */
static void qkey_slot_free(struct io_verbs_port *p, unsigned s)
{
	struct io_verbs_qp *q = &p->q[s];
	struct io_verbs_buf **ring = q->sq_ring;
	uint64_t seq = q->sq_head;
	void *qp = q->qp;

	pthread_spin_lock(&p->tx_lock);
	*q = (struct io_verbs_qp){ .sq_head = seq, .sq_tail = seq };
	pthread_spin_unlock(&p->tx_lock);
	if (qp && ibv_destroy_qp(qp))
		log_warnx("verbs: %s:%u: a Q_Key QP not destroyed", p->cfg.device, p->cfg.port_num);
	free(ring);
}

/* A new Q_Key QP for `qkey`, in RTS with its receives posted: its slot, or -errno. */
static int qkey_open(struct io_verbs_port *p, uint32_t qkey)
{
	unsigned s = p->qkey0;
	int rc;

	while (s < p->nq && p->q[s].kind != IO_VERBS_QP_NONE)
		s++;
	if (s == p->nq)
		return -ENOSPC;
	if ((rc = io_verbs_qp_open(p, s, p->cfg.rq_depth, IO_VERBS_QKEY_SQ, qkey))) {
		qkey_slot_free(p, s);
		return rc;
	}
	qkey_kind_set(p, s, IO_VERBS_QP_QKEY);
	IO_VERBS_ST_ADD(&p->st.qkey_qps, 1);
	io_verbs_repost(p, true); /* before the attach: the group's first packets find WQEs */
	log_info("verbs: %s:%u: QP 0x%06x receives the groups of Q_Key 0x%08x", p->cfg.device,
		 p->cfg.port_num, p->q[s].qpn, qkey);
	return (int)s;
}

/* No group left on Q_Key QP `s`: to the error state, its receives flush. */
static void qkey_close(struct io_verbs_port *p, unsigned s)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_ERR };

	qkey_kind_set(p, s, IO_VERBS_QP_CLOSING); /* nothing posted to it or sent from it now */
	p->nclosing++;
	if (ibv_modify_qp(p->q[s].qp, &a, IBV_QP_STATE)) {
		/* no flush to wait for: reset it and take its buffers back now */
		a.qp_state = IBV_QPS_RESET;
		ibv_modify_qp(p->q[s].qp, &a, IBV_QP_STATE);
		io_verbs_rq_reclaim(p, s);
	}
}

void io_verbs_qkey_gc(struct io_verbs_port *p)
{
	io_verbs_port_reap(p); /* its sends' flushes */
	for (unsigned s = p->qkey0; s < p->nq && p->nclosing; s++) {
		struct io_verbs_qp *q = &p->q[s];
		uint32_t qpn = q->qpn, qkey = q->qkey;
		bool idle;

		if (q->kind != IO_VERBS_QP_CLOSING || q->rq_posted)
			continue;
		pthread_spin_lock(&p->tx_lock);
		idle = q->sq_tail == q->sq_head;
		pthread_spin_unlock(&p->tx_lock);
		if (!idle)
			continue;
		qkey_slot_free(p, s);
		p->nclosing--;
		if (p->mc_waiting)
			p->io.fib_again = true; /* the group refused for want of it gets it */
		IO_VERBS_ST_ADD(&p->st.qkey_closed, 1);
		log_info("verbs: %s:%u: QP 0x%06x of Q_Key 0x%08x closed: no group left",
			 p->cfg.device, p->cfg.port_num, qpn, qkey);
	}
}

int io_verbs_mcast_attach_qkey(struct io_verbs_port *p, const uint8_t mgid[16], uint16_t mlid,
			       uint32_t qkey)
{
	int i = io_verbs_mcast_find(p, mgid), s, rc;
	union ibv_gid g;

	if (p->lost)
		return -ENODEV;
	if (!qkey)
		qkey = p->q[0].qkey; /* unknown: the relay QP's */
	if (i >= 0) {
		if (p->mc[i].mlid == mlid && p->q[p->mc[i].slot].qkey == qkey)
			return 0;
		io_verbs_mcast_detach(p, mgid); /* the SM gave the group another MLID or Q_Key */
	}
	if (p->nmc == IO_VERBS_MAX_MCAST)
		return -ENOSPC;
	if ((s = io_verbs_qkey_slot(p, qkey)) < 0 && (s = qkey_open(p, qkey)) < 0) {
		IO_VERBS_ST_ADD(&p->st.mc_no_qp, 1);
		return s;
	}
	memcpy(g.raw, mgid, 16);
	/* RoCE: no MLIDs on Ethernet (the FIB's is the router's name for the group) */
	if ((rc = ibv_attach_mcast(p->q[s].qp, &g, p->roce ? 0 : mlid))) {
		if (s >= (int)p->qkey0 && !p->q[s].groups)
			qkey_close(p, s); /* opened for it in vain */
		return -rc;
	}
	memcpy(p->mc[p->nmc].mgid, mgid, 16);
	/* RoCE: the NIC hears the group only once the netdev is a member at the IP
	 * layer (ibr_ipmc.h); a refusal is counted, the attachment kept */
	if (p->roce && (rc = ibr_ipmc_set(&p->ipmc, p->ifindex, mgid, true))) {
		IO_VERBS_ST_ADD(&p->st.mc_ip_err, 1);
		log_warnx("verbs: %s:%u: IP membership of a group refused: %s", p->cfg.device,
			  p->cfg.port_num, strerror(-rc));
	}
	p->mc[p->nmc].mlid = mlid;
	p->mc[p->nmc++].slot = (uint8_t)s;
	__atomic_add_fetch(&p->q[s].groups, 1, __ATOMIC_RELAXED);
	return 0;
}

int io_verbs_mcast_attach(struct io_verbs_port *p, const uint8_t mgid[16], uint16_t mlid)
{
	return io_verbs_mcast_attach_qkey(p, mgid, mlid, 0);
}

int io_verbs_mcast_detach(struct io_verbs_port *p, const uint8_t mgid[16])
{
	int i = io_verbs_mcast_find(p, mgid);
	union ibv_gid g;
	unsigned s;

	if (i < 0)
		return -ENOENT;
	s = p->mc[i].slot;
	memcpy(g.raw, mgid, 16);
	ibv_detach_mcast(p->q[s].qp, &g, p->roce ? 0 : p->mc[i].mlid);
	if (p->roce)
		ibr_ipmc_set(&p->ipmc, p->ifindex, mgid, false);
	p->mc[i] = p->mc[--p->nmc];
	if (!__atomic_sub_fetch(&p->q[s].groups, 1, __ATOMIC_RELAXED) && s >= p->qkey0)
		qkey_close(p, s);
	return 0;
}

/* A group's Q_Key on the port as the QPs know it: unknown (0) is the relay's. */
static uint32_t mcast_qkey(const struct io_verbs_port *p, uint32_t qkey)
{
	return qkey ? qkey : p->q[0].qkey;
}

void io_verbs_mcast_sync(struct io_verbs_port *p, const struct router_fib *fib)
{
	uint8_t r = p->cfg.router_port;

	p->mc_waiting = false;
	for (unsigned i = 0; i < p->nmc;) {
		const struct router_fib_mgroup *g = router_fib_mgroup_get(fib, p->mc[i].mgid);

		if (g && (g->on_ports & (1u << r)) && g->mlid[r] == p->mc[i].mlid &&
		    p->q[p->mc[i].slot].qkey == mcast_qkey(p, g->qkey[r]))
			i++;
		else
			io_verbs_mcast_detach(p, p->mc[i].mgid); /* moves the last one here */
	}
	for (uint32_t i = 0; i < fib->ngroups; i++) {
		const struct router_fib_mgroup *g = &fib->groups[i];
		int rc;

		if (!(g->on_ports & (1u << r)) || !g->mlid[r] ||
		    io_verbs_mcast_find(p, g->mgid) >= 0)
			continue;
		rc = io_verbs_mcast_attach_qkey(p, g->mgid, g->mlid[r], g->qkey[r]);
		if (rc == -ENOSPC && p->nmc < IO_VERBS_MAX_MCAST) {
			p->mc_waiting = true;
			log_warnx("verbs: %s:%u: MLID 0x%04x not attached: no QP left for its "
				  "Q_Key 0x%08x (%d Q_Keys a port besides the relay QP's)",
				  p->cfg.device, p->cfg.port_num, g->mlid[r], g->qkey[r],
				  IO_VERBS_MAX_QKEY);
		} else if (rc) {
			log_warnx("verbs: %s:%u: attach to MLID 0x%04x: %s", p->cfg.device,
				  p->cfg.port_num, g->mlid[r], strerror(-rc));
		}
	}
}

unsigned io_verbs_port_qps(struct io_verbs_port *p, struct io_verbs_qp_info *out, unsigned max)
{
	unsigned n = 0;

	pthread_spin_lock(&p->tx_lock);
	for (unsigned s = 0; s < p->nq && n < max && !p->lost; s++) {
		const struct io_verbs_qp *q = &p->q[s];

		if (q->kind != IO_VERBS_QP_NONE)
			out[n++] = (struct io_verbs_qp_info){
				.qpn = q->qpn,
				.qkey = q->qkey,
				.groups = __atomic_load_n(&q->groups, __ATOMIC_RELAXED),
				.kind = q->kind,
			};
	}
	pthread_spin_unlock(&p->tx_lock);
	return n;
}
