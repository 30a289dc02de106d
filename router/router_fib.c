/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_fib.c - compile the RIB into an immutable FIB.  Runs on the control
 * thread after every change; the result is published with router_pub.
 */
#include "router/router_fib.h"
#include "router/router_rib.h"

#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void router_fib_free(struct router_fib *fib)
{
	if (!fib)
		return;
	router_hash_free(&fib->exact);
	for (uint32_t i = 0; i < fib->nagg; i++)
		router_hash_free(&fib->agg[i].h);
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
		router_hash_free(&fib->neigh[i]);
	router_hash_free(&fib->mcast);
	free(fib->groups);
	free(fib->ecmp);
	free(fib);
}

/* Agg slot for a prefix length (kept in decreasing length order). */
static struct router_fib_agg *fib_agg_slot(struct router_fib *fib, uint8_t plen)
{
	for (uint32_t i = 0; i < fib->nagg; i++)
		if (fib->agg[i].plen == plen)
			return &fib->agg[i];
	return NULL;
}

/* A next hop's value: it, whether its egress port is usable, whether the route covers its prefix. */
static uint64_t fib_nh_val(const struct router_fib *fib, const struct router_route *r,
			   const struct router_nh *nh)
{
	uint64_t v = router_nh_pack(nh);
	uint64_t mask = r->key.plen ? ~0ull << (64 - r->key.plen) : 0;

	if (nh->port < fib->nports && fib->port[nh->port].usable)
		v |= ROUTER_VAL_PORT_OK;
	if (nh->port < fib->nports &&
	    ((fib->port[nh->port].cfg.prefix ^ r->key.prefix) & mask) == 0)
		v |= ROUTER_VAL_OWN_PFX;
	return v;
}

/* splitmix64's finaliser: every input bit moves every output bit. */
static uint64_t fib_mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int fib_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Next hop values val[0..n-1] (sorted) as buckets (router_fib.h): each
 * bucket goes to the next hop that scores highest for it, the score a hash
 * of the bucket and the next hop alone (not of the others, nor of their
 * order), so a next hop that goes takes only its own buckets with it.
 * Those through an unusable port take none while one is usable.
 */
static void fib_ecmp_fill(const uint64_t *val, unsigned n, struct router_fib_ecmp *g)
{
	unsigned nok = 0;

	g->n = n;
	for (unsigned i = 0; i < n; i++) {
		g->ports |= 1u << (router_nh_unpack(val[i]).port & 31);
		nok += (val[i] & ROUTER_VAL_PORT_OK) != 0;
	}
	for (uint32_t b = 0; b < ROUTER_ECMP_BUCKETS; b++) {
		uint64_t best = 0, score;

		g->bucket[b] = val[0];
		for (unsigned i = 0; i < n; i++) {
			if (nok && !(val[i] & ROUTER_VAL_PORT_OK))
				continue;
			/* the next hop's identity: its packed LID, port, kind and LMC */
			score = fib_mix((uint64_t)b << 32 ^ (val[i] & 0x1FFFFFFF));
			if (score >= best) {
				best = score;
				g->bucket[b] = val[i];
			}
		}
	}
}

/*
 * The compiler's index of the groups made so far, by their sorted next hop
 * values (routes through the same routers share one group): open
 * addressing, at most half full, so a lookup is O(1) however many routes
 * have several next hops and however few distinct groups they make.
 */
struct fib_ecmp_index {
	uint32_t *slot; /* group index + 1, 0 empty */
	uint32_t mask;
	struct fib_ecmp_key {
		uint64_t v[ROUTER_ECMP_MAX];
		unsigned n;
	} * key;      /* by group index */
	uint32_t cap; /* groups fib->ecmp and key have room for */
};

static uint64_t fib_ecmp_key_hash(const uint64_t *val, unsigned n)
{
	uint64_t h = n;

	for (unsigned i = 0; i < n; i++)
		h = fib_mix(h ^ val[i]);
	return h;
}

/* A new group for val[0..n-1] (sorted) at index fib->necmp; -ENOMEM. */
static int fib_ecmp_add(struct router_fib *fib, struct fib_ecmp_index *x, const uint64_t *val,
			unsigned n)
{
	if (fib->necmp == x->cap) {
		uint32_t nc = x->cap ? x->cap * 2 : 4;
		struct router_fib_ecmp *ng = realloc(fib->ecmp, nc * sizeof(*ng));
		struct fib_ecmp_key *nk;

		if (!ng)
			return -ENOMEM;
		fib->ecmp = ng;
		if (!(nk = realloc(x->key, nc * sizeof(*nk))))
			return -ENOMEM;
		x->key = nk;
		x->cap = nc;
	}
	memset(&fib->ecmp[fib->necmp], 0, sizeof(fib->ecmp[0]));
	fib_ecmp_fill(val, n, &fib->ecmp[fib->necmp]);
	x->key[fib->necmp].n = n;
	memcpy(x->key[fib->necmp].v, val, n * sizeof(val[0]));
	fib->necmp++;
	return 0;
}

/*
 * A route's value: its next hop's, or its group's (several next hops): the
 * group of the same next hop values when one was made already, else a new
 * one.  0 when out of memory.
 */
static uint64_t fib_route_val(struct router_fib *fib, struct fib_ecmp_index *x,
			      const struct router_rib *rib, const struct router_route *r)
{
	struct router_nh nhs[ROUTER_ECMP_MAX];
	uint64_t val[ROUTER_ECMP_MAX];
	unsigned n;
	uint32_t s;

	if (r->nnh <= 1)
		return fib_nh_val(fib, r, &r->nh);
	n = router_rib_route_nhs(rib, r, nhs);
	for (unsigned i = 0; i < n; i++)
		val[i] = fib_nh_val(fib, r, &nhs[i]);
	if (n == 1)
		return val[0];
	qsort(val, n, sizeof(val[0]), fib_u64_cmp);
	for (s = (uint32_t)fib_ecmp_key_hash(val, n) & x->mask; x->slot[s]; s = (s + 1) & x->mask) {
		const struct fib_ecmp_key *k = &x->key[x->slot[s] - 1];

		if (k->n == n && !memcmp(k->v, val, n * sizeof(val[0])))
			return ROUTER_VAL_PRESENT | ROUTER_VAL_ECMP |
			       (uint64_t)(x->slot[s] - 1) << 32;
	}
	if (fib_ecmp_add(fib, x, val, n))
		return 0;
	x->slot[s] = fib->necmp;
	return ROUTER_VAL_PRESENT | ROUTER_VAL_ECMP | (uint64_t)(fib->necmp - 1) << 32;
}

/* fib_compile_routes() with the route counts by length and the groups' index. */
static int fib_compile_routes_in(struct router_fib *fib, const struct router_rib *rib,
				 const uint64_t *count, struct fib_ecmp_index *x)
{
	const struct router_route *r;
	uint32_t pos = 0;
	uint64_t v;
	int rc;

	if ((rc = router_hash_init(&fib->exact, count[64])))
		return rc;
	for (int plen = 63; plen >= 0; plen--) {
		struct router_fib_agg *a;

		if (!count[plen])
			continue;
		a = &fib->agg[fib->nagg++];
		a->plen = (uint8_t)plen;
		a->mask = plen ? ~0ull << (64 - plen) : 0;
		if ((rc = router_hash_init(&a->h, count[plen])))
			return rc;
	}
	for (int src = ROUTER_SRC_MAX - 1; src >= 0; src--) {
		pos = 0;
		while ((r = router_tab_next(&rib->routes, &pos))) {
			struct router_hash *h = &fib->exact;

			if (r->key.source != src)
				continue;
			if (r->key.plen < 64)
				h = &fib_agg_slot(fib, r->key.plen)->h;
			if (!(v = fib_route_val(fib, x, rib, r)))
				return -ENOMEM;
			if ((rc = router_hash_put(h, r->key.prefix, v)))
				return rc;
		}
	}
	fib->nroutes = rib->routes.count;
	return 0;
}

/*
 * Routes: the preferred source wins.  Inserting sources from the least to the
 * most preferred lets each put replace what a worse source left.
 */
static int fib_compile_routes(struct router_fib *fib, const struct router_rib *rib)
{
	uint64_t count[65] = { 0 }, necmp = 0;
	struct fib_ecmp_index x = { 0 };
	const struct router_route *r;
	uint32_t pos = 0;
	int rc;

	while ((r = router_tab_next(&rib->routes, &pos))) {
		count[r->key.plen]++;
		necmp += r->nnh > 1;
	}
	/* the index: room for every route with several next hops, at most half full */
	for (x.mask = 1; x.mask < 2 * necmp; x.mask <<= 1)
		;
	if (necmp && !(x.slot = calloc(x.mask, sizeof(*x.slot))))
		return -ENOMEM;
	x.mask--;
	rc = fib_compile_routes_in(fib, rib, count, &x);
	free(x.slot);
	free(x.key);
	return rc;
}

static int fib_compile_neighs(struct router_fib *fib, const struct router_rib *rib)
{
	uint64_t count[ROUTER_MAX_PORTS] = { 0 };
	const struct router_neigh *n;
	uint32_t pos = 0;
	int rc;

	while ((n = router_tab_next(&rib->neighs, &pos)))
		count[n->key.port]++;
	for (uint32_t p = 0; p < rib->nports; p++)
		if ((rc = router_hash_init(&fib->neigh[p], count[p])))
			return rc;
	for (int src = ROUTER_SRC_MAX - 1; src >= 0; src--) {
		pos = 0;
		while ((n = router_tab_next(&rib->neighs, &pos))) {
			if (n->key.source != src)
				continue;
			rc = router_hash_put(&fib->neigh[n->key.port], n->key.guid,
					     router_neigh_pack(n->lid, n->lmc));
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The group of this MGID, created at the end of the array when new. */
static struct router_fib_mgroup *fib_group(struct router_fib *fib, const uint8_t *mgid)
{
	uint64_t key = router_mgid_fold(mgid);
	uint64_t v = router_hash_get(&fib->mcast, key);
	struct router_fib_mgroup *g;

	for (uint32_t i = (uint32_t)v; i; i = fib->groups[i - 1].next)
		if (memcmp(fib->groups[i - 1].mgid, mgid, 16) == 0)
			return &fib->groups[i - 1];
	g = &fib->groups[fib->ngroups++];
	memset(g, 0, sizeof(*g));
	memcpy(g->mgid, mgid, 16);
	g->next = (uint32_t)v; /* chain in front of groups with the same folded key */
	if (router_hash_put(&fib->mcast, key, ROUTER_VAL_PRESENT | fib->ngroups))
		return NULL;
	return g;
}

static int fib_compile_mcast(struct router_fib *fib, const struct router_rib *rib)
{
	const struct router_mcast *m;
	uint32_t pos = 0;
	int rc;

	if ((rc = router_hash_init(&fib->mcast, rib->mcasts.count)))
		return rc;
	fib->groups = calloc(rib->mcasts.count ? rib->mcasts.count : 1, sizeof(*fib->groups));
	if (!fib->groups)
		return -ENOMEM;
	while ((m = router_tab_next(&rib->mcasts, &pos))) {
		struct router_fib_mgroup *g = fib_group(fib, m->key.mgid);
		uint8_t p = m->key.port;

		if (!g)
			return -ENOMEM;
		g->on_ports |= 1u << p;
		if (m->flags & ROUTER_MCAST_RECEIVERS)
			g->recv_ports |= 1u << p;
		g->mlid[p] = m->mlid;
		g->sl[p] = m->sl;
		g->qkey[p] = m->qkey;
		router_bit_set(fib->port[p].mlid_bits, m->mlid - 0xC000u);
	}
	return 0;
}

/* The LRH bits of a packet leaving by `fp`, by SL and by TClass (IBA 8.2.3). */
static void fib_port_lrh(struct router_fib_port *fp)
{
	for (uint32_t sl = 0; sl < 16; sl++)
		fp->lrh_by_sl[sl] = (uint64_t)(fp->cfg.sl_vl[sl] & 0xF) << 60 | (uint64_t)sl << 52 |
				    fp->cfg.lid;
	for (uint32_t tc = 0; tc < 256; tc++) {
		fp->lrh_by_tclass[tc] = ROUTER_LRH_SL_KEEP;
		if (fp->cfg.tclass_sl[tc] != ROUTER_SL_KEEP) {
			fp->lrh_by_tclass[tc] = fp->lrh_by_sl[fp->cfg.tclass_sl[tc] & 0xF];
			fp->tclass_map = true;
		}
	}
	/* the default (and OpenSM's without QoS): SL kept, every SL on one VL */
	fp->lrh_keep_sl = !fp->tclass_map;
	for (uint32_t sl = 1; sl < 16; sl++)
		if ((fp->cfg.sl_vl[sl] & 0xF) != (fp->cfg.sl_vl[0] & 0xF))
			fp->lrh_keep_sl = false;
	fp->lrh_keep_sl_bits = fp->lrh_by_sl[0];
}

static void fib_compile_ports(struct router_fib *fib, const struct router_rib *rib)
{
	fib->nports = rib->nports;
	for (uint32_t p = 0; p < rib->nports; p++) {
		struct router_fib_port *fp = &fib->port[p];

		fp->cfg = rib->port[p];
		fib_port_lrh(fp);
		fp->gid_wire[0] = htobe64(fp->cfg.prefix);
		fp->gid_wire[1] = htobe64(fp->cfg.guid);
		fp->usable = (fp->cfg.flags & ROUTER_PORT_UP) &&
			     (fp->cfg.lid != 0 || (fp->cfg.flags & ROUTER_PORT_ROCE));
		if (fp->cfg.lid || (fp->cfg.flags & ROUTER_PORT_ROCE))
			fp->lid_span = fp->cfg.lmc < 32 ? 1u << fp->cfg.lmc : UINT32_MAX;
		for (uint32_t q = 0; q < rib->nports; q++)
			if (rib->port[q].site == fp->cfg.site)
				fp->site_ports |= 1u << q;
		for (uint32_t k = 0; k < fp->cfg.npkeys && k < ROUTER_MAX_PKEYS; k++)
			if (fp->cfg.pkeys[k] &
			    0x7FFF) /* 0x0000/0x8000: invalid P_Key, never a match */
				router_bit_set(fp->pkey_bits, fp->cfg.pkeys[k] & 0x7FFF);
	}
}

struct router_fib *router_rib_compile(struct router_rib *rib)
{
	struct router_fib *fib = calloc(1, sizeof(*fib));

	if (!fib)
		return NULL;
	fib_compile_ports(fib, rib);
	if (fib_compile_routes(fib, rib) || fib_compile_neighs(fib, rib) ||
	    fib_compile_mcast(fib, rib)) {
		router_fib_free(fib);
		return NULL;
	}
	fib->generation = ++rib->generation;
	return fib;
}
