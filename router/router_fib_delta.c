/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_fib_delta.c - the next FIB from the one published and the RIB's
 * changes since (router_rib_update): its base tables shared, the changed
 * routes and neighbours in its delta (router_fib.h), so that publishing a
 * change costs what the change does, not what the RIB holds.
 *
 * Why a delta over a base, and not the FIB compiled per change or edited
 * in place: a compile is linear in the RIB (~120 ms for 10^6 routes, on
 * every route add of a router that takes routes from peers, plugins and
 * the SA), and a published FIB is never written (the workers read it
 * without locks; QSBR frees it).  The delta is persistent (router_pmap.h):
 * the next FIB copies only the path to each changed key, ~2 KiB, and the
 * rest is shared.  It holds, for each changed key, the value a whole
 * compile would give now, or ROUTER_VAL_TOMB: so it shadows the base's
 * entry of the same prefix and length and no other, and the longest match
 * runs over the lengths of both.  Once it holds more than a sixteenth of
 * the base (at least 4096, at most 65,536 entries) the FIB is compiled
 * whole again, the delta merged into it: the linear compile is paid once in
 * that many changes.  Groups (multicast) are few: a change to them makes
 * the groups' tables and the ports' anew, and shares the rest; a change to
 * a port makes everything anew (every route's value holds its port's state).
 */
#include "router/router_fib_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define DELTA_MIN 4096u	 /* entries a delta may always hold */
#define DELTA_MAX 65536u /* and never more (the maps' pages fill by then) */

/*
 * The longest match with a delta: the /64 the delta has (or says is gone)
 * before the base's; then, by decreasing length over the lengths of both,
 * the delta's entry of a length before the base's.
 */
uint64_t router_fib_delta_route_get(const struct router_fib *fib, uint64_t prefix)
{
	const struct router_fib_delta *d = fib->delta;
	uint64_t v = router_fib_delta_may(d, prefix) ? router_pmap_get(d->exact, prefix) : 0;
	uint64_t plens = d->agg_plens;
	uint32_t i = 0;

	if (!v)
		v = router_hash_get(&fib->exact, prefix);
	if (v && v != ROUTER_VAL_TOMB)
		return v;
	while (i < fib->nagg || plens) {
		int dl = plens ? 63 - __builtin_clzll(plens) : -1;
		int bl = i < fib->nagg ? fib->agg[i].plen : -1;
		int len = dl > bl ? dl : bl;
		uint64_t m = len ? ~0ull << (64 - len) : 0;

		v = 0;
		if (len == dl) {
			uint64_t k = router_fib_agg_key(prefix & m, (unsigned)len);

			plens &= ~(1ull << len);
			if (router_fib_delta_may(d, k))
				v = router_pmap_get(d->agg, k);
		}
		if (len == bl) {
			if (!v)
				v = router_hash_get(&fib->agg[i].h, prefix & m);
			i++;
		}
		if (v && v != ROUTER_VAL_TOMB)
			return v;
	}
	return 0;
}

/* The base's value for a route key (0: none). */
static uint64_t delta_base_route(const struct router_fib *fib, uint64_t prefix, uint8_t plen)
{
	if (plen == 64)
		return router_hash_get(&fib->exact, prefix);
	for (uint32_t i = 0; i < fib->nagg; i++)
		if (fib->agg[i].plen == plen)
			return router_hash_get(&fib->agg[i].h, prefix);
	return 0;
}

/* The value a whole compile gives route key (prefix, plen) now: the preferred source's. */
static uint64_t delta_route_val(struct router_fib *fib, const struct router_rib *rib,
				uint64_t prefix, uint8_t plen)
{
	struct router_route_key k;
	const struct router_route *r;

	memset(&k, 0, sizeof(k));
	k.prefix = prefix;
	k.plen = plen;
	for (int src = 0; src < ROUTER_SRC_MAX; src++) {
		k.source = (uint8_t)src;
		if ((r = router_tab_find(&rib->routes, &k)))
			return router_fib_route_val(fib, rib, r, true);
	}
	return ROUTER_VAL_TOMB;
}

static uint64_t delta_neigh_val(const struct router_rib *rib, uint64_t guid, uint8_t port)
{
	struct router_neigh_key k;
	const struct router_neigh *n;

	memset(&k, 0, sizeof(k));
	k.guid = guid;
	k.port = port;
	for (int src = 0; src < ROUTER_SRC_MAX; src++) {
		k.source = (uint8_t)src;
		if ((n = router_tab_find(&rib->neighs, &k)))
			return router_neigh_pack(n->lid, n->lmc);
	}
	return ROUTER_VAL_TOMB;
}

/*
 * Key `key` to value `v` in map `*m` (of batch `batch`), unless the map has
 * no entry for it and the base already gives `v` (`base`; TOMB: none).  A
 * new key's bits go into the filter (as `fkey`) before the FIB is published.
 */
static int delta_put(struct router_fib_delta *d, struct router_pmap **m, uint64_t batch,
		     uint64_t key, uint64_t fkey, uint64_t v, uint64_t base)
{
	bool had = router_pmap_get(*m, key) != 0;
	uint64_t *filter = (uint64_t *)d->filter, bits;
	uint32_t w;
	int rc;

	if (!had && v == (base ? base : ROUTER_VAL_TOMB))
		return 0;
	if ((rc = router_pmap_put(m, batch, key, v)) || had)
		return rc;
	bits = router_fib_filter_bits(fkey, d->filter_mask, &w);
	__atomic_store_n(&filter[w], filter[w] | bits, __ATOMIC_RELAXED); /* the one writer */
	return 0;
}

/* One logged change into the delta `d` of `fib`; 0, -ENOSPC or -ENOMEM. */
static int delta_apply(struct router_fib *fib, struct router_fib_delta *d,
		       const struct router_rib *rib, const struct router_rib_change *c,
		       uint64_t batch)
{
	uint64_t v, k;

	if (c->neigh) {
		if (c->port >= fib->nports)
			return 0; /* no such port: no table (the RIB refuses it anyway) */
		d->neigh_ports |= 1u << c->port;
		return delta_put(d, &d->neigh[c->port], batch, c->key,
				 router_fib_neigh_key(c->key, c->port),
				 delta_neigh_val(rib, c->key, c->port),
				 router_hash_get(&fib->neigh[c->port], c->key));
	}
	if (!(v = delta_route_val(fib, rib, c->key, c->plen)))
		return -ENOSPC; /* out of memory, or of room for groups */
	if (c->plen == 64)
		return delta_put(d, &d->exact, batch, c->key, c->key, v,
				 delta_base_route(fib, c->key, 64));
	d->agg_plens |= 1ull << c->plen;
	k = router_fib_agg_key(c->key, c->plen);
	return delta_put(d, &d->agg, batch, k, k, v, delta_base_route(fib, c->key, c->plen));
}

void router_fib_delta_free(const struct router_fib_delta *d)
{
	if (!d)
		return;
	router_pmap_unref(d->exact);
	router_pmap_unref(d->agg);
	for (uint32_t p = 0; p < ROUTER_MAX_PORTS; p++)
		router_pmap_unref(d->neigh[p]);
	free((void *)d);
}

/* Entries in the delta, and the base's entries (routes and neighbours). */
static uint64_t delta_entries(const struct router_fib_delta *d)
{
	uint64_t n = router_pmap_count(d->exact) + router_pmap_count(d->agg);

	for (uint32_t p = 0; p < ROUTER_MAX_PORTS; p++)
		n += router_pmap_count(d->neigh[p]);
	return n;
}

static uint64_t delta_base_entries(const struct router_fib *fib)
{
	uint64_t n = fib->exact.count;

	for (uint32_t i = 0; i < fib->nagg; i++)
		n += fib->agg[i].h.count;
	for (uint32_t p = 0; p < ROUTER_MAX_PORTS; p++)
		n += fib->neigh[p].count;
	return n;
}

/*
 * A new delta that is cur's (or an empty one), holding its maps once more;
 * the filter of the deltas over cur's base, made with the first of them, 16
 * bits or more for each of the `bound` keys they may hold.
 */
static struct router_fib_delta *delta_copy(const struct router_fib *cur, uint64_t bound)
{
	struct router_fib_part *x = cur->part[ROUTER_FIB_ROUTES];
	struct router_fib_delta *d;
	uint32_t words = 64;

	if (!x || !(d = malloc(sizeof(*d))))
		return NULL;
	while (words * 64 < bound * 32)
		words *= 2;
	if (!x->filter && (x->filter = calloc(words, sizeof(*x->filter))))
		x->filter_mask = words - 1;
	if (!x->filter) {
		free(d);
		return NULL;
	}
	if (cur->delta) {
		*d = *cur->delta;
	} else {
		memset(d, 0, sizeof(*d));
		d->exact = d->agg = &router_pmap_empty;
		for (uint32_t p = 0; p < ROUTER_MAX_PORTS; p++)
			d->neigh[p] = &router_pmap_empty;
		d->filter = x->filter;
		d->filter_mask = x->filter_mask;
	}
	router_pmap_ref(d->exact);
	router_pmap_ref(d->agg);
	for (uint32_t p = 0; p < ROUTER_MAX_PORTS; p++)
		router_pmap_ref(d->neigh[p]);
	return d;
}

/* The groups' tables anew, and the ports' (they hold the groups' MLIDs): 0 or -ENOMEM. */
static int delta_mcast(struct router_fib *fib, const struct router_rib *rib)
{
	if (!(fib->part[ROUTER_FIB_PORTS] = router_fib_part_new()) ||
	    !(fib->port = calloc(ROUTER_MAX_PORTS, sizeof(*fib->port))) ||
	    !(fib->part[ROUTER_FIB_MCAST] = router_fib_part_new()))
		return -ENOMEM;
	router_fib_ports_compile(fib, rib);
	return router_fib_mcast_compile(fib, rib);
}

/* Whether `cur` has the RIB's ports as they are (a port's state is in every route's value). */
static bool delta_ports_same(const struct router_rib *rib, const struct router_fib *cur)
{
	if (rib->nports != cur->nports)
		return false;
	for (uint32_t p = 0; p < rib->nports; p++)
		if (memcmp(&cur->port[p].cfg, &rib->port[p], sizeof(rib->port[p])))
			return false;
	return true;
}

/* cur with the logged changes in its delta; NULL when that cannot be (then: a whole compile). */
static struct router_fib *delta_make(struct router_rib *rib, const struct router_fib *cur)
{
	const struct router_rib_log *l = &rib->log;
	bool groups = rib->mcasts.stamp != l->mcasts_stamp;
	uint64_t bound = delta_base_entries(cur) / 16, batch = router_pmap_batch();
	struct router_fib_delta *d;
	struct router_fib *fib;
	int rc = 0;

	bound = bound < DELTA_MIN ? DELTA_MIN : bound > DELTA_MAX ? DELTA_MAX : bound;
	if ((cur->delta ? delta_entries(cur->delta) : 0) + l->n > bound)
		return NULL; /* merged: the compile is paid once in `bound` changes */
	if (!(fib = malloc(sizeof(*fib))))
		return NULL;
	*fib = *cur;
	fib->delta = NULL;
	for (int k = 0; k < ROUTER_FIB_NPARTS; k++)
		if (!groups || (k != ROUTER_FIB_PORTS && k != ROUTER_FIB_MCAST))
			router_fib_part_hold(fib, (enum router_fib_part_id)k);
		else
			fib->part[k] = NULL, fib->port = NULL; /* made anew below */
	if (groups) {
		memset(&fib->mcast, 0, sizeof(fib->mcast));
		fib->groups = NULL;
		fib->ngroups = 0;
		fib->feeds = NULL;
		fib->nfeeds = 0;
	}
	if (!(d = delta_copy(cur, bound))) {
		router_fib_free(fib);
		return NULL;
	}
	fib->delta = d;
	if (groups) {
		rc = delta_mcast(fib, rib);
		fib->ports_groups_id = router_fib_id_new();
	}
	for (uint32_t i = 0; !rc && i < l->n; i++)
		rc = delta_apply(fib, d, rib, &l->v[i], batch);
	d->ecmp_more = fib->part[ROUTER_FIB_ROUTES] ? fib->part[ROUTER_FIB_ROUTES]->more : NULL;
	if (rc) {
		router_fib_free(fib);
		return NULL;
	}
	if (!delta_entries(d)) { /* every change gave what the base has: no delta to read */
		fib->delta = NULL;
		router_fib_delta_free(d);
	}
	fib->nroutes = rib->routes.count;
	return fib;
}

/* Whether `cur` is the FIB the log follows, and nothing changed around the log. */
static bool delta_log_follows(const struct router_rib *rib, const struct router_fib *cur)
{
	const struct router_rib_log *l = &rib->log;

	return cur && cur->id && cur->id == l->since && !l->lost &&
	       rib->routes.stamp == l->routes_stamp && rib->neighs.stamp == l->neighs_stamp &&
	       delta_ports_same(rib, cur);
}

/* What changes next is logged against `fib`. */
static void delta_log_restart(struct router_rib *rib, const struct router_fib *fib)
{
	struct router_rib_log *l = &rib->log;

	l->since = fib->id;
	l->n = 0;
	l->lost = false;
	l->routes_stamp = rib->routes.stamp;
	l->neighs_stamp = rib->neighs.stamp;
	l->mcasts_stamp = rib->mcasts.stamp;
}

struct router_fib *router_rib_update(struct router_rib *rib, const struct router_fib *cur)
{
	struct router_fib *fib = NULL;

	if (delta_log_follows(rib, cur) && (fib = delta_make(rib, cur))) {
		fib->generation = ++rib->generation;
		fib->id = router_fib_id_new();
		rib->fib_deltas++;
	} else if ((fib = router_rib_compile(rib))) {
		rib->fib_compiles++;
	} else {
		return NULL; /* the log stays for the next try */
	}
	delta_log_restart(rib, fib);
	return fib;
}

struct router_fib *router_rib_merge(struct router_rib *rib, const struct router_fib *cur)
{
	struct router_fib *fib;

	if (!delta_log_follows(rib, cur) || rib->log.n ||
	    rib->mcasts.stamp != rib->log.mcasts_stamp || !(fib = router_fib_compile(rib)))
		return NULL;
	fib->generation = cur->generation;
	rib->fib_compiles++;
	delta_log_restart(rib, fib);
	return fib;
}
