/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host_verbs.h - ibrouter-host's verbs mode: a host on a real HCA port (IB
 * or RoCE, rdma-core's provider and the kernel's uverbs), one UD QP that
 * sends, receives and attaches to multicast groups.  What it receives it
 * hands on as the whole packet the HCA consumed, rebuilt from the GRH (or
 * a RoCE v2 IP header) and the work completion, so that ibrouter-host
 * checks and prints it as it does a sim wire's (ibrouter-host(8)).
 */
#ifndef HOST_VERBS_H
#define HOST_VERBS_H

#include "lib/ibr_pkt.h"

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#define HOST_VERBS_MAX_JOIN 8

struct host_verbs_cfg {
	const char *device;  /* "rxe0" or "rxe0:1" */
	const uint8_t *sgid; /* the port's GID to use; NULL: the first usable */
	uint32_t qkey;	     /* the QP's own Q_Key */
	unsigned njoin;
	uint8_t join[HOST_VERBS_MAX_JOIN][16]; /* groups to attach (and join at the IP layer) */
	uint16_t join_mlid;		       /* IB: the MLID they attach with */
	bool no_ip_join;		       /* RoCE: attach by verbs only */
};

struct host_verbs;

/*
 * Open the device's port, create the QP (RTS), attach the groups and
 * print one line on stderr that names the port, its link layer, GID, LID
 * and the QPN (a lab reads the QPN from it).  NULL on failure (said why).
 */
struct host_verbs *host_verbs_open(const struct host_verbs_cfg *cfg);
void host_verbs_close(struct host_verbs *v);

/*
 * Send `count` datagrams to p->dgid (p->dlid on IB), DestQP p->dest_qp,
 * Q_Key p->qkey, with p's TClass, FlowLabel, HopLmt and SL and
 * p->payload_len bytes: a sequence number in the first 4, then byte i =
 * i & 0xFF.  At `rate` a second when > 0.  0 when all were sent.
 */
int host_verbs_send(struct host_verbs *v, const struct ibr_pkt_ud_params *p, uint64_t count,
		    double rate, volatile sig_atomic_t *stop);

/*
 * Receive until `limit` datagrams or `timeout_ms` (0: none) or *stop; each
 * becomes a whole UD packet handed to `fn`.  Returns how many, or -1.
 */
long host_verbs_recv(struct host_verbs *v, uint64_t limit, int timeout_ms,
		     volatile sig_atomic_t *stop,
		     void (*fn)(void *ctx, const uint8_t *pkt, size_t len), void *ctx);

#endif
