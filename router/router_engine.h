/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_engine.h - the decision engine every data-path backend runs: a burst
 * of up to ROUTER_BURST whole packets (LRH through VCRC) in, verdicts out.
 *
 *   validate (numbered checks, router_drop.h) -> classify (unicast,
 *   multicast, SMA, local, drop) -> look the whole burst up -> rewrite ->
 *   per-egress-port transmit lists.
 *
 * The engine never writes into a received packet: each copy to send is a
 * router_tx carrying the rewritten first 16 bytes (LRH, and the GRH word
 * holding HopLmt) and the new VCRC, so multicast fans out without copying
 * the payload and a backend sends header, body and VCRC as three iovecs (or
 * patches the buffer in place when it sends one copy).  The ICRC is never
 * touched (IBA 8.2.2.2).
 */
#ifndef ROUTER_ENGINE_H
#define ROUTER_ENGINE_H

#include "router/router_counters.h"
#include "router/router_drop.h"
#include "router/router_fib.h"

#include <stdint.h>

#define ROUTER_BURST   32
#define ROUTER_HDR_LEN 16 /* bytes a router rewrites: LRH (8) + GRH bytes 0-7 (HopLmt) */

struct router_mbuf {
	uint8_t *data; /* first LRH byte */
	uint32_t len;  /* LRH through VCRC */
	uint8_t port;  /* ingress port index */
	uint8_t rsv[3];
	void *priv; /* the backend's */
};

/* One copy of a packet to send on one port. */
struct router_tx {
	struct router_mbuf *m;
	uint8_t hdr[ROUTER_HDR_LEN]; /* replaces m->data[0..15] */
	uint16_t vcrc;		     /* replaces the last two bytes (host order) */
	/*
	 * NULL, or the DGID the copy carries instead of the packet's: a feed's
	 * name for its group on the egress port (router_fib.h).  The DGID is
	 * an invariant field: a backend that sends the packet's own bytes
	 * recomputes the ICRC and the VCRC; vcrc above is not for it.
	 */
	const uint8_t *dgid;
};

/*
 * The copy's bytes, m->len of them, into `buf` (at least that long): the
 * rewritten header and VCRC, or for a feed's copy the DGID with the ICRC
 * and VCRC computed anew.  Returns the length.
 */
size_t router_tx_build(const struct router_tx *tx, uint8_t *buf);

struct router_drop_rec {
	struct router_mbuf *m;
	uint8_t reason; /* enum router_drop */
};

/* What one burst produced; reset by router_engine_burst(). */
struct router_out {
	uint16_t ntx[ROUTER_MAX_PORTS];
	uint16_t nsma, nlocal, ndrop;
	uint32_t ncopies;
	struct router_tx tx[ROUTER_MAX_PORTS]
			   [ROUTER_BURST];	 /* at most one copy per port per packet */
	struct router_mbuf *sma[ROUTER_BURST];	 /* VL15: for the SMA */
	struct router_mbuf *local[ROUTER_BURST]; /* addressed to the router itself */
	struct router_drop_rec drop[ROUTER_BURST];
};

/*
 * Decide the fate of `n` (<= ROUTER_BURST) packets with the tables of `fib`.
 * Counts rx, SMA, local and drops in `c`; the backend counts tx after
 * sending.  Packets whose ingress port is not in the FIB are dropped as
 * PORT_DOWN.
 */
void router_engine_burst(const struct router_fib *fib, struct router_mbuf **pkts, unsigned n,
			 struct router_out *out, struct router_counters *c);

/* The DLID offset for a flow on a port with `lmc` (IBA 8.2.3: LMC bits steer the path). */
uint16_t router_engine_path_bits(const uint8_t *grh, uint8_t lmc);

#endif
