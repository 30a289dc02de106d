/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_peers.c - routes of source "peer": the prefixes the other routers of
 * each subnet announce through its SA (learning { peer-routes },
 * ibrouterd.conf(5); the records: sa_client.h), read by each port's SA
 * client, installed with the announcing router's port as next hop.  A
 * distance vector, as RIP (RFC 2453) is one:
 *
 *  - a prefix's metric is the announced one: routers to cross after the
 *    next hop (16 and up: unreachable, not installed); among the routers
 *    that announce it the lowest metric wins, and the routers of that
 *    metric are its next hops, up to peer-ecmp of them (the engine keeps
 *    each flow on one: router_fib.h), the lower port index then the lower
 *    LID first (the same choice on every run);
 *  - split horizon is the announcing side's (ibrd_announce.c announces
 *    nothing into the subnet it learned it from);
 *  - hold-down: a prefix that lost its route, or whose metric grew, is
 *    held for peer-holddown seconds at the metric it had: meanwhile a
 *    route to it with a greater metric is not taken (it may be an echo of
 *    the route that went, counting to infinity around a ring); one as good
 *    as the old one is, at once, and so is a next hop of several that goes
 *    while others of the same metric stay;
 *  - withdrawal: a router that leaves its subnet (trap 65), whose records
 *    go or stop being refreshed (sa_peers.c) takes its prefixes with it.
 *
 * Our own ports are never peers (a router with two ports in one subnet
 * sees itself there), and no peer route is taken for a prefix that is one
 * of our ports' own.
 */
#include "daemon/learn/ibrd_learn.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PEER_UNREACHABLE 16

/* One router's announcement of one prefix, usable. */
struct peer_cand {
	uint64_t prefix;
	uint8_t plen, metric;
	struct ibrd_peer_nh nh;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct peer_cand *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if (x->plen != y->plen)
		return x->plen < y->plen ? -1 : 1;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	if (x->nh.port != y->nh.port)
		return x->nh.port < y->nh.port ? -1 : 1;
	return x->nh.lid < y->nh.lid ? -1 : x->nh.lid > y->nh.lid;
}

static int route_cmp(const void *a, const void *b)
{
	const struct ibrd_peer_route *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return x->plen < y->plen ? -1 : x->plen > y->plen;
}

static bool peer_is_us(const struct ibrd *d, uint64_t guid)
{
	for (uint32_t i = 0; i < d->rib.nports; i++)
		if (d->rib.port[i].guid == guid)
			return true;
	return false;
}

static bool peer_own_prefix(const struct ibrd *d, uint64_t prefix, uint8_t plen)
{
	for (uint32_t i = 0; plen == 64 && i < d->rib.nports; i++)
		if (d->rib.port[i].prefix == prefix)
			return true;
	return false;
}

static size_t peer_src(const struct ibrd *d, uint32_t p, const struct sa_peer **pv)
{
	if (d->peer->src)
		return d->peer->src(d, p, pv);
	return d->sa[p] ? sa_client_peers(d->sa[p], pv) : 0;
}

/* Every usable announcement of every port's peers, sorted: the best of each prefix first. */
static int peer_candidates(const struct ibrd *d, struct peer_cand **out, size_t *n)
{
	struct peer_cand *v = NULL;
	size_t cap = 0;

	*n = 0;
	for (uint32_t p = 0; p < d->rib.nports && p < ROUTER_MAX_PORTS; p++) {
		const struct sa_peer *pv;
		size_t np = peer_src(d, p, &pv);

		for (size_t i = 0; i < np; i++) {
			if (peer_is_us(d, pv[i].guid) || !pv[i].lid)
				continue;
			for (size_t k = 0; k < pv[i].n; k++) {
				const struct sa_route_ad *a = &pv[i].ad[k];

				if (a->metric >= PEER_UNREACHABLE ||
				    peer_own_prefix(d, a->prefix, a->plen))
					continue;
				if (*n == cap) {
					size_t nc = cap ? cap * 2 : 16;
					struct peer_cand *nv = realloc(v, nc * sizeof(*nv));

					if (!nv) {
						free(v);
						return -ENOMEM;
					}
					v = nv, cap = nc;
				}
				v[(*n)++] = (struct peer_cand){
					.prefix = a->prefix,
					.plen = a->plen,
					.metric = a->metric,
					.nh = { .guid = pv[i].guid,
						.lid = pv[i].lid,
						.port = (uint8_t)p,
						.lmc = pv[i].lmc },
				};
			}
		}
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cand_cmp);
	*out = v;
	return 0;
}

/*
 * The best of each prefix from the sorted candidates: its lowest metric,
 * the routers of that metric as next hops, at most `ecmp` (the first in
 * the candidates' order), into *out (sorted by prefix and length).
 */
static int peer_best(const struct peer_cand *c, size_t nc, unsigned ecmp,
		     struct ibrd_peer_route **out, size_t *n)
{
	struct ibrd_peer_route *v = calloc(nc ? nc : 1, sizeof(*v));

	*n = 0;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < nc; i++) {
		struct ibrd_peer_route *r = *n ? &v[*n - 1] : NULL;

		if (!r || r->prefix != c[i].prefix || r->plen != c[i].plen) {
			r = &v[(*n)++];
			*r = (struct ibrd_peer_route){ .prefix = c[i].prefix,
						       .plen = c[i].plen,
						       .metric = c[i].metric };
		}
		/* the same router twice (a copy of its record) is one next hop */
		if (c[i].metric == r->metric && r->n < ecmp &&
		    (!r->n || r->nh[r->n - 1].port != c[i].nh.port ||
		     r->nh[r->n - 1].lid != c[i].nh.lid))
			r->nh[r->n++] = c[i].nh;
	}
	*out = v;
	return 0;
}

static bool nh_eq(const struct ibrd_peer_nh *x, const struct ibrd_peer_nh *y)
{
	return x->guid == y->guid && x->lid == y->lid && x->port == y->port && x->lmc == y->lmc;
}

static bool route_eq(const struct ibrd_peer_route *x, const struct ibrd_peer_route *y)
{
	if (x->prefix != y->prefix || x->plen != y->plen || x->metric != y->metric ||
	    x->n != y->n || x->held != y->held || x->until != y->until)
		return false;
	for (unsigned i = 0; i < x->n; i++)
		if (!nh_eq(&x->nh[i], &y->nh[i]))
			return false;
	return true;
}

static const struct ibrd_peer_route *route_find(const struct ibrd_peer_route *v, size_t n,
						const struct ibrd_peer_route *key)
{
	return n ? bsearch(key, v, n, sizeof(*v), route_cmp) : NULL;
}

static void peer_log(const char *what, const struct ibrd_peer_route *r, const struct ibrd *d)
{
	union ibr_gid g = ibr_gid_make(r->prefix, 0);
	char gs[IBR_GID_STRLEN], via[ROUTER_ECMP_MAX * 24];
	size_t at = 0;

	via[0] = '\0';
	for (unsigned i = 0; i < r->n && at < sizeof(via); i++)
		at += (size_t)snprintf(via + at, sizeof(via) - at, "%s%s lid %u", i ? ", " : "",
				       d->rib.port[r->nh[i].port].name, r->nh[i].lid);
	log_info("peer: %s/%u %s (metric %u via %s)", ibr_gid_ntop(&g, gs, sizeof(gs)), r->plen,
		 what, r->metric, via);
}

/* The RIB's peer routes as the table says (held ones have none). */
static void peer_install(struct ibrd *d)
{
	int rc;

	router_rib_flush_routes(&d->rib, ROUTER_SRC_PEER, -1);
	for (size_t i = 0; i < d->peer->n; i++) {
		const struct ibrd_peer_route *p = &d->peer->v[i];
		struct router_route r = {
			.key = { .prefix = p->prefix, .plen = p->plen, .source = ROUTER_SRC_PEER },
			.metric = p->metric,
		};
		struct router_nh nhs[ROUTER_ECMP_MAX];

		if (p->held)
			continue;
		for (unsigned k = 0; k < p->n; k++)
			nhs[k] = (struct router_nh){ .kind = ROUTER_NH_ROUTER,
						     .port = p->nh[k].port,
						     .lid = p->nh[k].lid,
						     .lmc = p->nh[k].lmc };
		if ((rc = router_rib_route_add_nhs(&d->rib, &r, nhs, p->n)))
			log_warnx("peer: cannot add a route: %s", strerror(-rc));
	}
}

/*
 * The new table from the best routes and the old table (hold-downs), into
 * d->peer; the RIB's peer routes replaced when it differs.  Off: none, and
 * nothing held (the operator turned them off, no route went away).
 */
static int peer_compute(struct ibrd *d, uint64_t now, bool on)
{
	uint64_t hold = on ? (uint64_t)d->conf->peer_holddown * 1000000000ull : 0;
	struct ibrd_peer_route *best = NULL, *nv;
	struct peer_cand *cand = NULL;
	size_t nc = 0, nb = 0, nn = 0;
	bool same;
	int rc;

	if (on && (rc = peer_candidates(d, &cand, &nc)))
		return rc;
	rc = peer_best(cand, nc, on ? d->conf->peer_ecmp : 1, &best, &nb);
	free(cand);
	if (rc)
		return rc;
	/* at most every old entry and every best */
	if (!(nv = calloc(d->peer->n + nb + 1, sizeof(*nv)))) {
		free(best);
		return -ENOMEM;
	}
	d->peer->next = UINT64_MAX;
	/* the old entries: replaced, held down, or gone */
	for (size_t i = 0; i < d->peer->n; i++) {
		const struct ibrd_peer_route *o = &d->peer->v[i];
		const struct ibrd_peer_route *b = route_find(best, nb, o);
		bool worse = !b || b->metric > o->metric;

		if (!worse) {
			if (o->held)
				peer_log("out of hold-down", b, d);
			else if (!route_eq(o, b))
				peer_log("changed", b, d);
			nv[nn++] = *b;
		} else if (hold && (!o->held || now < o->until)) {
			nv[nn] = *o;
			if (!o->held) {
				nv[nn].held = true;
				nv[nn].until = now + hold;
				peer_log(b ? "held down (a longer route came)"
					   : "held down (withdrawn)",
					 o, d);
				d->peer->holddowns++;
			}
			if (nv[nn].until < d->peer->next)
				d->peer->next = nv[nn].until;
			nn++;
		} else if (!o->held) {
			peer_log("withdrawn", o, d);
		} else if (b) {
			peer_log("taken after its hold-down", b, d);
			nv[nn++] = *b;
		} else {
			peer_log("gone after its hold-down", o, d);
		}
	}
	/* prefixes new to the table */
	for (size_t i = 0; i < nb; i++) {
		if (route_find(d->peer->v, d->peer->n, &best[i]))
			continue;
		peer_log("learned", &best[i], d);
		nv[nn++] = best[i];
	}
	free(best);
	qsort(nv, nn, sizeof(*nv), route_cmp);
	same = nn == d->peer->n;
	for (size_t i = 0; same && i < nn; i++)
		same = route_eq(&nv[i], &d->peer->v[i]);
	free(d->peer->v);
	d->peer->v = nv;
	d->peer->n = nn;
	if (same)
		return 0;
	peer_install(d);
	d->peer->changes++;
	ibrd_rib_changed(d);
	return 0;
}

void ibrd_peers_changed(struct ibrd *d)
{
	d->peer->dirty = true;
}

void ibrd_peers_sync(struct ibrd *d)
{
	ibrd_peers_sync_at(d, ibr_now_ns());
}

void ibrd_peers_sync_at(struct ibrd *d, uint64_t now)
{
	bool on = d->conf && d->conf->peer_routes && d->conf->sa_client;
	uint32_t ms = on ? d->conf->peer_interval * 1000u : 0;
	int rc;

	for (uint32_t p = 0; p < d->rib.nports && p < ROUTER_MAX_PORTS; p++)
		if (d->sa[p])
			sa_client_peer_interval(d->sa[p], ms);
	if (d->peer->conf != d->conf) {
		/* a reload: ports may have moved, SA clients be new, peer-holddown changed */
		d->peer->conf = d->conf;
		d->peer->dirty = true;
	}
	if (!d->peer->dirty && now < d->peer->next)
		return;
	d->peer->dirty = false;
	if (!on && !d->peer->n) {
		d->peer->next = UINT64_MAX;
		return;
	}
	if ((rc = peer_compute(d, now, on))) {
		log_warnx("peer: cannot compute the peer routes: %s", strerror(-rc));
		d->peer->dirty = true; /* at the next turn */
	}
}

uint64_t ibrd_peers_deadline(const struct ibrd *d)
{
	return d->peer->dirty ? 0 : d->peer->next;
}

struct ibrd_peers *ibrd_peers_new(void)
{
	return calloc(1, sizeof(struct ibrd_peers));
}

void ibrd_peers_free(struct ibrd_peers *x)
{
	if (!x)
		return;
	free(x->v);
	free(x);
}
