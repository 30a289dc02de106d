/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_counters.h - what the forwarding core counts, per worker and port: packets and bytes
 * in and out, the SMA's and the router's own, and drops by reason (router_drop.h).
 */
#ifndef ROUTER_COUNTERS_H
#define ROUTER_COUNTERS_H

#include "router/router_drop.h"
#include "router/router_port.h"

#include <stdint.h>

/*
 * The residence time of a packet in the router -- from its receive (the
 * burst that brought it) to the post of its copy on the egress port --
 * counted in log2 buckets: bucket 0 under 64 ns, bucket b in
 * [2^(b+5), 2^(b+6)) ns, the last one 2^28 ns (268 ms) and more.
 */
#define ROUTER_RES_BUCKETS 24

static inline unsigned router_res_bucket(uint64_t ns)
{
	unsigned lg = 63 - (unsigned)__builtin_clzll(ns | 1);

	return lg < 6 ? 0 : lg - 5 >= ROUTER_RES_BUCKETS ? ROUTER_RES_BUCKETS - 1 : lg - 5;
}

/* The upper bound of bucket b, ns (UINT64_MAX for the last). */
static inline uint64_t router_res_bucket_le(unsigned b)
{
	return b + 1 >= ROUTER_RES_BUCKETS ? UINT64_MAX : 1ull << (b + 6);
}

/*
 * Per-worker counters: the worker's own running totals, written by its thread
 * only, with plain adds; other threads read the copy the worker publishes
 * once per burst (router_worker_counters()).
 */
struct router_counters {
	uint64_t rx_pkts[ROUTER_MAX_PORTS];
	uint64_t rx_bytes[ROUTER_MAX_PORTS];
	uint64_t tx_pkts[ROUTER_MAX_PORTS];
	uint64_t tx_bytes[ROUTER_MAX_PORTS];
	uint64_t tx_errors[ROUTER_MAX_PORTS];	/* copies the link did not take */
	uint64_t peer_absent[ROUTER_MAX_PORTS]; /* copies for a peer that is not there */
	uint64_t sma[ROUTER_MAX_PORTS];
	uint64_t local[ROUTER_MAX_PORTS];
	/* residence time (router_worker.c): its sum over the copies sent, ns */
	uint64_t res_ns[ROUTER_MAX_PORTS];
	uint64_t drop[ROUTER_MAX_PORTS][ROUTER_DROP_MAX]; /* by ingress port */
	/* copies sent by residence time, by egress port (router_res_bucket()) */
	uint64_t res[ROUTER_MAX_PORTS][ROUTER_RES_BUCKETS];
} __attribute__((aligned(64)));
#define ROUTER_COUNTERS_WORDS (sizeof(struct router_counters) / sizeof(uint64_t))

/* Add `from` into `to` (for reading the sum over workers). */
void router_counters_add(struct router_counters *to, const struct router_counters *from);

#endif
