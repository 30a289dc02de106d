/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_snap.h - immutable copies of a RIB table, from which the long "show"
 * answers are streamed as their clients read (ibrd_out_stream).  Clients
 * that ask while the table has not changed share one copy; a copy lives
 * while a client reads it, and counts against the control socket's bound
 * on what all clients hold (ibrd_ctl_hold).
 */
#ifndef IBRD_SNAP_H
#define IBRD_SNAP_H

#include "daemon/ibrd.h"

#include <stddef.h>
#include <stdint.h>

enum ibrd_snap_kind { IBRD_SNAP_ROUTES, IBRD_SNAP_NEIGHS, IBRD_SNAP_MCASTS, IBRD_SNAP_KINDS };

struct ibrd_snap {
	enum ibrd_snap_kind kind;
	unsigned refs;
	uint64_t stamp; /* the table's stamp (router_tab.h) when copied */
	size_t bytes;	/* held against the control socket's bound */
	uint32_t n;	/* records, in the table's order */
	size_t recsz;
	uint32_t nports;
	char port[ROUTER_MAX_PORTS][ROUTER_PORT_NAME]; /* the port names then */
	uint8_t *best; /* routes: 1 when the route is the one the FIB uses for its prefix */
	uint8_t *recs;
	/* routes: the other next hops of those with several, as the RIB's side store */
	struct router_nh_more *more;
};

/*
 * A reference to a copy of table `kind`: the last copy while the table and
 * the port names are as they were, else a new one.  NULL with -ENOMEM, or
 * -ENOBUFS when the control socket's bound leaves no room, in *err.
 */
struct ibrd_snap *ibrd_snap_get(struct ibrd *d, enum ibrd_snap_kind kind, int *err);
void ibrd_snap_put(struct ibrd *d, struct ibrd_snap *s);

static inline const void *ibrd_snap_rec(const struct ibrd_snap *s, uint32_t i)
{
	return s->recs + (size_t)i * s->recsz;
}

/* Route r's next hops (r a record of the copy s) into out[ROUTER_ECMP_MAX]: their count. */
static inline unsigned ibrd_snap_route_nhs(const struct ibrd_snap *s, const struct router_route *r,
					   struct router_nh *out)
{
	return router_route_nhs_in(s->more, r, out);
}

/* The name port `idx` had when the copy was taken. */
const char *ibrd_snap_port(const struct ibrd_snap *s, uint32_t idx);

#endif
