/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_pma.c - the PerfMgt agent (sma/sma_pma.h) on the sim data path: a
 * GMP to QP1 addressed to a router port (LNH 2: no GRH, the engine's
 * "local" packets) reaches the control thread through the SMA's queue
 * (ibrd_sma.c) and is answered from QP1 out of the same port.  Its counts
 * are the router's: what the port received and sent (whole packets, VCRC
 * included; the SMA's and the PMA's own replies are not among them), its
 * drops by kind, the copies its link refused, and the SMPs lost before the
 * SMA.  On an ibsim MAD port (the lab) the same agent answers the PerfMgt
 * GMPs the simulator hands the router's attachment (ibrd_mad.c).  On a
 * verbs port the HCA's own PMA answers (its QP1 is the kernel's).
 */
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_pkt.h"
#include "sma/sma.h"
#include "sma/sma_pma.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define GSI_QKEY 0x80010000u /* the well-known Q_Key of QP1 (IBA 9.6.1.1) */

/* The drops of a malformed packet: PortRcvErrors (16.1.3.5). */
static bool pma_rcv_error(int reason)
{
	switch (reason) {
	case ROUTER_DROP_SHORT:
	case ROUTER_DROP_LVER:
	case ROUTER_DROP_PKTLEN:
	case ROUTER_DROP_VCRC:
	case ROUTER_DROP_TRUNCATED:
	case ROUTER_DROP_IPVER:
	case ROUTER_DROP_NXTHDR:
	case ROUTER_DROP_PAYLEN:
	case ROUTER_DROP_PADCNT:
	case ROUTER_DROP_ICRC:
		return true;
	default:
		return false;
	}
}

/* Port `port`'s totals from the sum the request took (ibrd_pma_one). */
static void pma_counts(void *arg, uint8_t port, struct sma_pma_counts *out)
{
	struct ibrd *d = arg;
	const struct router_counters *c = d->agents->pma_sum;
	unsigned i = port - 1u;

	memset(out, 0, sizeof(*out));
	if (!c || i >= ROUTER_MAX_PORTS)
		return;
	out->xmit_bytes = c->tx_bytes[i];
	out->rcv_bytes = c->rx_bytes[i];
	out->xmit_pkts = c->tx_pkts[i];
	out->rcv_pkts = c->rx_pkts[i];
	out->xmit_discards = c->tx_errors[i] + c->peer_absent[i];
	for (int r = 0; r < ROUTER_DROP_MAX; r++) {
		if (r == ROUTER_DROP_PKEY)
			out->rcv_constraint_errors += c->drop[i][r];
		else if (pma_rcv_error(r))
			out->rcv_errors += c->drop[i][r];
		else
			out->rcv_relay_errors += c->drop[i][r];
	}
	pthread_mutex_lock(&d->agents->smp_lock);
	out->vl15_dropped = d->agents->smp_lost[i][IBRD_SMP_QUEUE_FULL];
	pthread_mutex_unlock(&d->agents->smp_lock);
}

static const struct sma_pma_ops *pma_ops(struct ibrd *d)
{
	static struct sma_pma_ops ops = { .counts = pma_counts };

	ops.arg = d;
	return &ops;
}

int ibrd_pma_start(struct ibrd *d)
{
	return (d->agents->pma = sma_pma_new(d->conf->nports, pma_ops(d))) ? 0 : -ENOMEM;
}

void ibrd_pma_renew(struct ibrd *d, unsigned nports, const int *from)
{
	struct sma_pma *p = sma_pma_renew(d->agents->pma, nports, from, pma_ops(d));

	if (!p)
		log_warnx("pma: no memory for the new ports: the old clears are forgotten");
	sma_pma_free(d->agents->pma);
	d->agents->pma = p ? p : sma_pma_new(nports, pma_ops(d));
}

void ibrd_pma_stop(struct ibrd *d)
{
	sma_pma_free(d->agents->pma);
	d->agents->pma = NULL;
}

/*
 * A packet the engine gave the router itself, from the SMA's queue: a UD
 * GMP to QP1 with a PerfMgt MAD is answered (its ICRC checked here, the
 * PMA being its end node); anything else is not ours (the engine counted
 * it as local).  The reply: from QP1 to the requester's QP, its P_Key and
 * SL, from the port's LID.
 */
int ibrd_pma_mad(struct ibrd *d, uint32_t port, const uint8_t *mad, size_t len, uint8_t *reply)
{
	struct router_counters *sum;
	enum sma_pma_result rc;

	if (!d->agents->pma || !(sum = malloc(sizeof(*sum))))
		return -ENOMEM;
	ibrd_counters_total(d, sum); /* once for the request, every port from it */
	d->agents->pma_sum = sum;
	rc = sma_pma_process(d->agents->pma, (uint8_t)(port + 1), mad, len, reply);
	d->agents->pma_sum = NULL;
	free(sum);
	return rc == SMA_PMA_REPLY ? 0 : -EINVAL;
}

void ibrd_pma_one(struct ibrd *d, uint32_t port, const uint8_t *pkt, size_t len)
{
	struct ibr_pkt_ud_params r;
	struct ibr_pkt p;
	uint8_t reply[IBR_MAD_SIZE], out[IBR_PKT_MAX_LEN];
	int n, rc = -EINVAL;

	if (!d->agents->pma || ibr_pkt_parse(pkt, len, &p) || p.lnh != IBR_LNH_IBA_LOCAL ||
	    !p.deth || ibr_bth_get_destqp(p.bth) != 1 || p.payload_len != IBR_MAD_SIZE ||
	    ibr_mad_mgmt_class(p.payload) != IBR_MGMT_CLASS_PERF || ibr_pkt_crc_check(&p))
		return;
	if (ibrd_pma_mad(d, port, p.payload, p.payload_len, reply))
		return;
	memset(&r, 0, sizeof(r));
	r.sl = ibr_lrh_get_sl(p.lrh); /* the request's SL and VL (a GMP never rides VL15) */
	r.vl = ibr_lrh_get_vl(p.lrh);
	r.slid = d->rib.port[port].lid ? d->rib.port[port].lid : ibr_lrh_get_dlid(p.lrh);
	r.dlid = ibr_lrh_get_slid(p.lrh);
	r.pkey = ibr_bth_get_pkey(p.bth);
	r.dest_qp = ibr_deth_get_srcqp(p.deth);
	r.qkey = GSI_QKEY;
	r.src_qp = 1;
	r.payload = reply;
	r.payload_len = sizeof(reply);
	n = ibr_pkt_build_ud(out, sizeof(out), &r);
	rc = n > 0 && d->data->sim_open[port] ? io_sim_send(&d->data->sim[port], out, (size_t)n)
					      : -EINVAL;
	if (rc)
		log_debug("pma: port %s: reply not sent: %s", d->rib.port[port].name,
			  strerror(-rc));
}
