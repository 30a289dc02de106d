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
	uint64_t drop[ROUTER_MAX_PORTS][ROUTER_DROP_MAX]; /* by ingress port */
} __attribute__((aligned(64)));
#define ROUTER_COUNTERS_WORDS (sizeof(struct router_counters) / sizeof(uint64_t))

/* Add `from` into `to` (for reading the sum over workers). */
void router_counters_add(struct router_counters *to, const struct router_counters *from);

#endif
