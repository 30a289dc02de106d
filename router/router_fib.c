/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_fib.c - compile the RIB into an immutable FIB: the base tables,
 * each a part the FIBs made from it later share (router_fib_delta.c makes
 * those, per change).  Runs on the control thread; the result is published
 * with router_pub.
 */
#include "router/router_fib_int.h"

#include <endian.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct router_fib_part *router_fib_part_new(void)
{
	struct router_fib_part *p = calloc(1, sizeof(*p));

	if (p)
		p->ref = 1;
	return p;
}

void router_fib_part_hold(struct router_fib *fib, enum router_fib_part_id id)
{
	if (fib->part[id])
		fib->part[id]->ref++;
}

uint64_t router_fib_id_new(void)
{
	static _Atomic uint64_t ids;

	return atomic_fetch_add_explicit(&ids, 1, memory_order_relaxed) + 1;
}

/* Whether `fib` held the last reference to its part `id` (then it frees what is in it). */
static bool fib_part_last(struct router_fib *fib, enum router_fib_part_id id)
{
	struct router_fib_part *p = fib->part[id];

	if (!p)
		return true;
	if (--p->ref)
		return false;
	for (uint32_t i = 0; i < p->nmore; i++)
		free(p->more[i]);
	free(p->more);
	free(p->filter);
	free(p->slot);
	free(p->key);
	free(p);
	return true;
}

void router_fib_free(struct router_fib *fib)
{
	if (!fib)
		return;
	if (fib_part_last(fib, ROUTER_FIB_PORTS))
		free(fib->port);
	if (fib_part_last(fib, ROUTER_FIB_ROUTES)) {
		router_hash_free(&fib->exact);
		for (uint32_t i = 0; i < fib->nagg; i++)
			router_hash_free(&fib->agg[i].h);
		free(fib->ecmp);
	}
	if (fib_part_last(fib, ROUTER_FIB_NEIGHS))
		for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
			router_hash_free(&fib->neigh[i]);
	if (fib_part_last(fib, ROUTER_FIB_MCAST)) {
		router_hash_free(&fib->mcast);
		free(fib->groups);
		free(fib->feeds);
	}
	router_fib_delta_free(fib->delta);
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

static uint64_t fib_ecmp_key_hash(const uint64_t *val, unsigned n)
{
	uint64_t h = n;

	for (unsigned i = 0; i < n; i++)
		h = fib_mix(h ^ val[i]);
	return h;
}

/*
 * The index of the groups made so far (struct router_fib_part), by their
 * sorted next hop values (routes through the same routers share one group):
 * open addressing, at most half full, so a lookup is O(1) however many
 * routes have several next hops and however few distinct groups they make.
 * The group of val[0..n-1]: its number, or -1 with *at the slot it takes.
 */
static int64_t fib_ecmp_find(const struct router_fib_part *x, const uint64_t *val, unsigned n,
			     uint32_t *at)
{
	uint32_t s;

	if (!x->mask)
		return -1;
	for (s = (uint32_t)fib_ecmp_key_hash(val, n) & x->mask; x->slot[s]; s = (s + 1) & x->mask) {
		const struct router_fib_ecmp_key *k = &x->key[x->slot[s] - 1];

		if (k->n == n && !memcmp(k->v, val, n * sizeof(val[0])))
			return x->slot[s] - 1;
	}
	*at = s;
	return -1;
}

/* Room in the index for `want` groups, at most half full: 0 or -ENOMEM. */
static int fib_ecmp_index_room(struct router_fib_part *x, uint64_t want)
{
	uint32_t mask, *slot;

	if (want > x->capkey) {
		uint32_t nc = x->capkey ? x->capkey : 4;
		struct router_fib_ecmp_key *nk;

		while (nc < want)
			nc *= 2;
		if (!(nk = realloc(x->key, nc * sizeof(*nk))))
			return -ENOMEM;
		x->key = nk;
		x->capkey = nc;
	}
	if (x->mask && 2 * want <= (uint64_t)x->mask + 1)
		return 0;
	for (mask = 16; mask < 2 * want; mask <<= 1)
		;
	if (!(slot = calloc(mask, sizeof(*slot))))
		return -ENOMEM;
	free(x->slot);
	x->slot = slot;
	x->mask = mask - 1;
	for (uint32_t g = 0; g < x->nkey; g++) { /* again, in the new size */
		uint32_t s = (uint32_t)fib_ecmp_key_hash(x->key[g].v, x->key[g].n) & x->mask;

		while (x->slot[s])
			s = (s + 1) & x->mask;
		x->slot[s] = g + 1;
	}
	return 0;
}

/*
 * A new group for val[0..n-1] (sorted): the base's next (fib->ecmp) when
 * compiling, else the delta's (more[]); its number, or -1 when out of
 * memory or of room for the delta's groups.
 */
static int64_t fib_ecmp_add(struct router_fib *fib, struct router_fib_part *x, const uint64_t *val,
			    unsigned n, bool more)
{
	struct router_fib_ecmp *g;
	uint32_t at = 0;

	if (fib_ecmp_index_room(x, (uint64_t)x->nkey + 1))
		return -1;
	fib_ecmp_find(x, val, n, &at); /* the slot, in the index as it is now */
	if (more) {
		if (x->nmore == ROUTER_FIB_MORE_ECMP)
			return -1;
		if (!x->more && !(x->more = calloc(ROUTER_FIB_MORE_ECMP, sizeof(*x->more))))
			return -1;
		if (!(g = calloc(1, sizeof(*g))))
			return -1;
		x->more[x->nmore++] = g;
	} else {
		if (fib->necmp == x->capecmp) {
			uint32_t nc = x->capecmp ? x->capecmp * 2 : 4;
			struct router_fib_ecmp *ng = realloc(fib->ecmp, nc * sizeof(*ng));

			if (!ng)
				return -1;
			fib->ecmp = ng;
			x->capecmp = nc;
		}
		g = &fib->ecmp[fib->necmp++];
		memset(g, 0, sizeof(*g));
	}
	fib_ecmp_fill(val, n, g);
	x->key[x->nkey].n = n;
	memcpy(x->key[x->nkey].v, val, n * sizeof(val[0]));
	x->slot[at] = ++x->nkey;
	return x->nkey - 1;
}

uint64_t router_fib_route_val(struct router_fib *fib, const struct router_rib *rib,
			      const struct router_route *r, bool more)
{
	struct router_fib_part *x = fib->part[ROUTER_FIB_ROUTES];
	struct router_nh nhs[ROUTER_ECMP_MAX];
	uint64_t val[ROUTER_ECMP_MAX];
	unsigned n;
	uint32_t at;
	int64_t g;

	if (r->nnh <= 1)
		return fib_nh_val(fib, r, &r->nh);
	n = router_rib_route_nhs(rib, r, nhs);
	for (unsigned i = 0; i < n; i++)
		val[i] = fib_nh_val(fib, r, &nhs[i]);
	if (n == 1)
		return val[0];
	qsort(val, n, sizeof(val[0]), fib_u64_cmp);
	if ((g = fib_ecmp_find(x, val, n, &at)) < 0 && (g = fib_ecmp_add(fib, x, val, n, more)) < 0)
		return 0;
	return ROUTER_VAL_PRESENT | ROUTER_VAL_ECMP | (uint64_t)g << 32;
}

/* fib_compile_routes() with the route counts by length. */
static int fib_compile_routes_in(struct router_fib *fib, const struct router_rib *rib,
				 const uint64_t *count)
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
			if (!(v = router_fib_route_val(fib, rib, r, false)))
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
 * most preferred lets each put replace what a worse source left.  The
 * groups' index stays with the routes part, for the deltas made from it.
 */
static int fib_compile_routes(struct router_fib *fib, const struct router_rib *rib)
{
	uint64_t count[65] = { 0 }, necmp = 0;
	const struct router_route *r;
	uint32_t pos = 0;

	while ((r = router_tab_next(&rib->routes, &pos))) {
		count[r->key.plen]++;
		necmp += r->nnh > 1;
	}
	/* room for a group for every route with several next hops */
	if (necmp && fib_ecmp_index_room(fib->part[ROUTER_FIB_ROUTES], necmp))
		return -ENOMEM;
	return fib_compile_routes_in(fib, rib, count);
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

/*
 * The feeds: each id's entries name one group on their ports.  A packet
 * that comes in on a port the feed takes it from (SENDERS), with that
 * port's MGID, goes to every other port the feed sends it to (RECEIVERS),
 * under that port's MGID.  `fe` holds the feed entries, `n` of them.
 */
static int fib_feeds_compile(struct router_fib *fib, const struct router_mcast *const *fe,
			     uint32_t n)
{
	uint32_t maxid = 0;

	for (uint32_t i = 0; i < n; i++)
		if (fe[i]->feed > maxid)
			maxid = fe[i]->feed;
	if (!maxid)
		return 0;
	if (!(fib->feeds = calloc(maxid, sizeof(*fib->feeds))))
		return -ENOMEM;
	fib->nfeeds = maxid;
	for (uint32_t i = 0; i < n; i++) {
		memcpy(fib->feeds[fe[i]->feed - 1].dgid[fe[i]->key.port], fe[i]->key.mgid, 16);
		fib->feeds[fe[i]->feed - 1].hops[fe[i]->key.port] = fe[i]->feed_hops
									    ? fe[i]->feed_hops
									    : 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct router_mcast *in = fe[i];
		struct router_fib_mgroup *g;

		if (!(in->flags & ROUTER_MCAST_SENDERS))
			continue;
		if (!(g = fib_group(fib, in->key.mgid)))
			return -ENOMEM;
		g->feed = in->feed;
		for (uint32_t j = 0; j < n; j++) {
			const struct router_mcast *out = fe[j];
			uint8_t q = out->key.port;

			if (out->feed != in->feed || q == in->key.port ||
			    !(out->flags & ROUTER_MCAST_RECEIVERS))
				continue;
			g->on_ports |= 1u << q;
			g->recv_ports |= 1u << q;
			g->mlid[q] = out->mlid;
			g->sl[q] = out->sl;
			g->qkey[q] = out->qkey;
		}
	}
	return 0;
}

int router_fib_mcast_compile(struct router_fib *fib, const struct router_rib *rib)
{
	const struct router_mcast *m, **fe = NULL;
	uint32_t pos = 0, nfe = 0;
	int rc;

	if ((rc = router_hash_init(&fib->mcast, rib->mcasts.count)))
		return rc;
	fib->groups = calloc(rib->mcasts.count ? rib->mcasts.count : 1, sizeof(*fib->groups));
	if (!fib->groups)
		return -ENOMEM;
	while ((m = router_tab_next(&rib->mcasts, &pos))) {
		struct router_fib_mgroup *g = fib_group(fib, m->key.mgid);
		uint8_t p = m->key.port;

		if (!g) {
			free(fe);
			return -ENOMEM;
		}
		g->on_ports |= 1u << p;
		if (m->flags & ROUTER_MCAST_RECEIVERS)
			g->recv_ports |= 1u << p;
		g->mlid[p] = m->mlid;
		g->sl[p] = m->sl;
		g->qkey[p] = m->qkey;
		router_bit_set(fib->port[p].mlid_bits, m->mlid - 0xC000u);
		if (m->feed) {
			if (!fe && !(fe = calloc(rib->mcasts.count, sizeof(*fe))))
				return -ENOMEM; /* fe is NULL: nothing to free */
			fe[nfe++] = m;
		}
	}
	rc = fib_feeds_compile(fib, fe, nfe);
	free(fe);
	return rc;
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

void router_fib_ports_compile(struct router_fib *fib, const struct router_rib *rib)
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

struct router_fib *router_fib_compile(const struct router_rib *rib)
{
	struct router_fib *fib = calloc(1, sizeof(*fib));
	bool parts = fib != NULL;

	for (int i = 0; parts && i < ROUTER_FIB_NPARTS; i++)
		parts = (fib->part[i] = router_fib_part_new()) != NULL;
	/* every port's room, zeroed, as when the ports were inline: nports bounds no reader */
	if (!parts || !(fib->port = calloc(ROUTER_MAX_PORTS, sizeof(*fib->port)))) {
		router_fib_free(fib);
		return NULL;
	}
	router_fib_ports_compile(fib, rib);
	if (fib_compile_routes(fib, rib) || fib_compile_neighs(fib, rib) ||
	    router_fib_mcast_compile(fib, rib)) {
		router_fib_free(fib);
		return NULL;
	}
	fib->id = fib->ports_groups_id = router_fib_id_new();
	return fib;
}

struct router_fib *router_rib_compile(struct router_rib *rib)
{
	struct router_fib *fib = router_fib_compile(rib);

	if (fib)
		fib->generation = ++rib->generation;
	return fib;
}
