/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_fib_int.h - what the FIB compiler (router_fib.c) and the delta
 * (router_fib_delta.c) share inside router/: the parts a FIB shares with
 * the FIBs made from it, and the compiler's steps the delta reuses.
 */
#ifndef ROUTER_FIB_INT_H
#define ROUTER_FIB_INT_H

#include "router/router_fib.h"
#include "router/router_rib.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * Groups of next hops a delta may make before the FIB is compiled whole
 * (8 KiB each): routes through the same routers share one, so it takes
 * that many distinct sets of routers to get there.
 */
#define ROUTER_FIB_MORE_ECMP 4096

struct router_fib_ecmp_key {
	uint64_t v[ROUTER_ECMP_MAX]; /* the next hops' values, sorted */
	unsigned n;
};

/*
 * A part of a FIB's tables (enum router_fib_part_id), held by the FIBs that
 * share it and freed with the last (router_fib_free); a FIB without one
 * (made by hand) owns its tables alone.  The routes part keeps what the
 * deltas over its base share: the compiler's index of the groups by next
 * hop values, so that a changed route through the same routers gets the
 * same group; the groups made since the base, at fixed addresses (FIBs made
 * public read them while more are added); and the deltas' filter.
 */
struct router_fib_part {
	uint32_t ref;			 /* FIBs holding it */
	uint32_t *slot;			 /* group number + 1, 0 empty: at most half full */
	uint32_t mask;			 /* slots - 1 (0: none yet) */
	struct router_fib_ecmp_key *key; /* by group number: fib->ecmp's, then more[]'s */
	uint32_t nkey, capkey;
	uint32_t capecmp;	       /* groups fib->ecmp has room for (while compiling) */
	struct router_fib_ecmp **more; /* ROUTER_FIB_MORE_ECMP: the delta's groups */
	uint32_t nmore;
	uint64_t *filter; /* the deltas' keys (router_fib.h), made with the first */
	uint32_t filter_mask;
};

/* A new part, held once; NULL when out of memory. */
struct router_fib_part *router_fib_part_new(void);
/* One holder more of `fib`'s part `id` (FIBs made by hand have none: nothing to do). */
void router_fib_part_hold(struct router_fib *fib, enum router_fib_part_id id);

/* Free a FIB's delta (its maps' nodes that no other delta holds). */
void router_fib_delta_free(const struct router_fib_delta *d);

/* A new id for a FIB (router_rib_update knows the FIB it made last by it). */
uint64_t router_fib_id_new(void);

/* The RIB compiled whole (router_rib_compile() but for the generation, left 0); NULL: ENOMEM. */
struct router_fib *router_fib_compile(const struct router_rib *rib);
/* Ports: fib->port (room for ROUTER_MAX_PORTS, zeroed) and fib->nports from the RIB's. */
void router_fib_ports_compile(struct router_fib *fib, const struct router_rib *rib);
/* Groups: fib->mcast, fib->groups and the ports' mlid_bits; 0 or -ENOMEM. */
int router_fib_mcast_compile(struct router_fib *fib, const struct router_rib *rib);
/*
 * The value of route `r` of `rib` in `fib` (its next hop, or its group: the
 * one of the same next hops when the routes part has it, else a new one,
 * into fib->ecmp when compiling, `more` in a delta).  0 when out of memory
 * or, in a delta, out of room for groups.
 */
uint64_t router_fib_route_val(struct router_fib *fib, const struct router_rib *rib,
			      const struct router_route *r, bool more);

#endif
