/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_pub.h - publication of FIBs to the workers, with quiescent-state
 * based reclamation (QSBR).
 *
 * The control thread swaps the current FIB pointer atomically and retires the
 * old one with the epoch of the swap.  Each worker reports a quiescent state
 * between bursts (it then holds no FIB pointer); a retired FIB is freed once
 * every worker has reported one after its swap.  A worker about to block in
 * a receive call goes offline so that it never delays reclamation.
 */
#ifndef ROUTER_PUB_H
#define ROUTER_PUB_H

#include "router/router_fib.h"

#include <stdatomic.h>
#include <stdint.h>

#define ROUTER_MAX_WORKERS 64
#define ROUTER_PUB_OFFLINE UINT64_MAX

struct router_pub_reader {
	_Alignas(64) _Atomic uint64_t seen; /* epoch at the last quiescent point */
};

struct router_pub_retired {
	struct router_fib *fib;
	uint64_t epoch;
};

struct router_pub {
	_Atomic(struct router_fib *) cur;
	_Atomic uint64_t epoch;
	uint32_t nreaders;
	struct router_pub_reader reader[ROUTER_MAX_WORKERS];
	struct router_pub_retired *retired;
	uint32_t nretired, capretired;
};

/* `nreaders` workers, all offline until they call router_pub_online(). */
int router_pub_init(struct router_pub *pub, uint32_t nreaders);
/*
 * Change the number of readers to `nreaders`, with every worker stopped
 * (all readers offline); 0 or -EINVAL.
 */
int router_pub_set_readers(struct router_pub *pub, uint32_t nreaders);
/* Frees the current and every retired FIB: only once the workers have stopped. */
void router_pub_destroy(struct router_pub *pub);

/* Control thread: make `fib` current; 0 or -ENOMEM (then `fib` is not published). */
int router_pub_publish(struct router_pub *pub, struct router_fib *fib);
/* Control thread: free what no worker can still see; returns how many remain. */
uint32_t router_pub_reclaim(struct router_pub *pub);

/* Worker side. */
static inline struct router_fib *router_pub_get(struct router_pub *pub)
{
	return atomic_load_explicit(&pub->cur, memory_order_acquire);
}

static inline void router_pub_quiescent(struct router_pub *pub, uint32_t id)
{
	atomic_store_explicit(&pub->reader[id].seen, atomic_load(&pub->epoch),
			      memory_order_release);
}

static inline void router_pub_online(struct router_pub *pub, uint32_t id)
{
	atomic_store(&pub->reader[id].seen, atomic_load(&pub->epoch));
	/* the store must be visible before this reader loads the FIB pointer */
	atomic_thread_fence(memory_order_seq_cst);
}

static inline void router_pub_offline(struct router_pub *pub, uint32_t id)
{
	atomic_store_explicit(&pub->reader[id].seen, ROUTER_PUB_OFFLINE, memory_order_release);
}

#endif
