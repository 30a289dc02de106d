/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_rib.c - the RIB's entries by source, and their compilation into a FIB. */
#include "router/router_rib.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const src_names[ROUTER_SRC_MAX] = {
	[ROUTER_SRC_CONNECTED] = "connected",
	[ROUTER_SRC_STATIC] = "static",
	[ROUTER_SRC_SA] = "sa",
	[ROUTER_SRC_PLUGIN] = "osm-plugin",
	[ROUTER_SRC_PEER] = "peer",
	[ROUTER_SRC_BRIDGE] = "bridge",
};

const char *router_src_name(int src)
{
	return src >= 0 && src < ROUTER_SRC_MAX ? src_names[src] : "unknown";
}

int router_src_parse(const char *name)
{
	for (int i = 0; i < ROUTER_SRC_MAX; i++)
		if (strcasecmp(name, src_names[i]) == 0)
			return i;
	return -EINVAL;
}

void router_rib_init(struct router_rib *rib)
{
	memset(rib, 0, sizeof(*rib));
	router_tab_init(&rib->routes, sizeof(struct router_route), sizeof(struct router_route_key));
	router_tab_init(&rib->neighs, sizeof(struct router_neigh), sizeof(struct router_neigh_key));
	router_tab_init(&rib->mcasts, sizeof(struct router_mcast), sizeof(struct router_mcast_key));
}

void router_rib_free(struct router_rib *rib)
{
	free(rib->log.v);
	memset(&rib->log, 0, sizeof(rib->log));
	router_tab_free(&rib->routes);
	router_tab_free(&rib->neighs);
	router_tab_free(&rib->mcasts);
	free(rib->more);
	free(rib->free_more);
	rib->more = NULL;
	rib->free_more = NULL;
	rib->nmore = rib->cap_more = rib->nfree_more = 0;
}

int router_rib_port_add(struct router_rib *rib, const struct router_port *p)
{
	if (rib->nports >= ROUTER_MAX_PORTS)
		return -ENOSPC;
	if (router_rib_port_find(rib, p->name) >= 0)
		return -EEXIST;
	rib->port[rib->nports] = *p;
	return (int)rib->nports++;
}

int router_rib_port_set(struct router_rib *rib, uint32_t idx, const struct router_port *p)
{
	if (idx >= rib->nports)
		return -ENOENT;
	rib->port[idx] = *p;
	return 0;
}

int router_rib_port_find(const struct router_rib *rib, const char *name)
{
	for (uint32_t i = 0; i < rib->nports; i++)
		if (strncmp(rib->port[i].name, name, ROUTER_PORT_NAME) == 0)
			return (int)i;
	return -ENOENT;
}

/*
 * A route (or neighbour) key changed: into the log the next FIB is made
 * from, with the table's stamp after the change.  `pre` is the stamp the
 * table had before it: another than the log's last means a change the log
 * did not see (a put around these functions), and the log is lost.
 * Nothing to log while no FIB was made from the log (the next is compiled
 * whole), or once it is lost.
 */
static void rib_log(struct router_rib *rib, uint64_t pre, uint64_t key, uint8_t plen, uint8_t port,
		    bool neigh)
{
	struct router_rib_log *l = &rib->log;

	if (!l->since || l->lost)
		return;
	if (pre != (neigh ? l->neighs_stamp : l->routes_stamp)) {
		l->lost = true;
		return;
	}
	if (l->n == l->cap) {
		uint32_t nc = l->cap ? l->cap * 2 : 64;
		struct router_rib_change *v;

		if (l->n == ROUTER_RIB_LOG_MAX || !(v = realloc(l->v, nc * sizeof(*v)))) {
			l->lost = true;
			return;
		}
		l->v = v;
		l->cap = nc;
	}
	l->v[l->n++] = (struct router_rib_change){
		.key = key, .plen = plen, .port = port, .neigh = neigh
	};
	if (neigh)
		l->neighs_stamp = rib->neighs.stamp;
	else
		l->routes_stamp = rib->routes.stamp;
}

static uint64_t prefix_mask(uint8_t plen)
{
	return plen == 0 ? 0 : ~0ull << (64 - plen);
}

static bool nh_valid(const struct router_rib *rib, const struct router_nh *nh)
{
	if (nh->port >= rib->nports || nh->kind > ROUTER_NH_GID || nh->lmc > 7)
		return false;
	/* the next router needs a unicast LID */
	return nh->kind != ROUTER_NH_ROUTER || (nh->lid != 0 && nh->lid < 0xC000);
}

static bool nh_same(const struct router_nh *a, const struct router_nh *b)
{
	return a->port == b->port && a->kind == b->kind && a->lid == b->lid && a->lmc == b->lmc;
}

unsigned router_route_nhs_in(const struct router_nh_more *more, const struct router_route *r,
			     struct router_nh *out)
{
	unsigned n = r->nnh ? r->nnh : 1;

	out[0] = r->nh;
	if (n > 1 && r->more)
		memcpy(out + 1, more[r->more - 1].nh, (n - 1) * sizeof(*out));
	return r->more || n == 1 ? n : 1;
}

unsigned router_rib_route_nhs(const struct router_rib *rib, const struct router_route *r,
			      struct router_nh *out)
{
	return router_route_nhs_in(rib->more, r, out);
}

bool router_route_via(const struct router_rib *rib, const struct router_route *r, uint8_t port)
{
	struct router_nh v[ROUTER_ECMP_MAX];
	unsigned n = router_rib_route_nhs(rib, r, v);

	for (unsigned i = 0; i < n; i++)
		if (v[i].port == port)
			return true;
	return false;
}

/* A slot of the side store: its index + 1, or 0 (out of memory). */
static uint32_t more_get(struct router_rib *rib)
{
	if (rib->nfree_more)
		return rib->free_more[--rib->nfree_more] + 1;
	if (rib->nmore == rib->cap_more) {
		uint32_t nc = rib->cap_more ? rib->cap_more * 2 : 16;
		struct router_nh_more *nm = realloc(rib->more, nc * sizeof(*nm));
		uint32_t *nf;

		if (!nm)
			return 0;
		rib->more = nm;
		if (!(nf = realloc(rib->free_more, nc * sizeof(*nf))))
			return 0;
		rib->free_more = nf;
		rib->cap_more = nc;
	}
	return ++rib->nmore;
}

static void more_put(struct router_rib *rib, uint32_t slot)
{
	if (slot)
		rib->free_more[rib->nfree_more++] = slot - 1;
}

int router_rib_route_add_nhs(struct router_rib *rib, const struct router_route *r,
			     const struct router_nh *nhs, unsigned n)
{
	const struct router_route *cur;
	struct router_route rec;
	uint32_t old_more;
	uint64_t pre;

	if (r->key.plen > 64 || r->key.source >= ROUTER_SRC_MAX || n < 1 || n > ROUTER_ECMP_MAX)
		return -EINVAL;
	if (r->key.prefix & ~prefix_mask(r->key.plen))
		return -EINVAL; /* host bits set: say so rather than guess */
	for (unsigned i = 0; i < n; i++) {
		if (!nh_valid(rib, &nhs[i]))
			return -EINVAL;
		/* several: next routers, each once (a flow's choice among routers) */
		if (n > 1 && nhs[i].kind != ROUTER_NH_ROUTER)
			return -EINVAL;
		for (unsigned k = 0; k < i; k++)
			if (nh_same(&nhs[k], &nhs[i]))
				return -EINVAL;
	}
	memset(&rec, 0, sizeof(rec));
	rec.key.prefix = r->key.prefix;
	rec.key.plen = r->key.plen;
	rec.key.source = r->key.source;
	rec.nh = nhs[0];
	rec.nnh = (uint8_t)n;
	rec.metric = r->metric;
	/*
	 * The route it replaces: its port (connected), its side-store slot.
	 * Not looked for while no route has one and this one needs none: the
	 * usual add (10^5 of them in a reload) is one hash walk, the put's.
	 */
	cur = rec.key.source == ROUTER_SRC_CONNECTED || n > 1 || rib->nmore > rib->nfree_more
		      ? router_tab_find(&rib->routes, &rec.key)
		      : NULL;
	/* one subnet prefix, one port: never take another port's */
	if (cur && rec.key.source == ROUTER_SRC_CONNECTED && cur->nh.port != rec.nh.port)
		return -EEXIST;
	old_more = cur ? cur->more : 0; /* cur is not read past the put (it may move) */
	/* the other next hops: the replaced route's slot, or a new one */
	if (n > 1 && !(rec.more = old_more ? old_more : more_get(rib)))
		return -ENOMEM;
	if (n > 1)
		memcpy(rib->more[rec.more - 1].nh, nhs + 1, (n - 1) * sizeof(*nhs));
	pre = rib->routes.stamp;
	if (router_tab_put(&rib->routes, &rec) < 0) {
		if (n > 1 && !old_more)
			more_put(rib, rec.more);
		return -ENOMEM;
	}
	if (n == 1)
		more_put(rib, old_more);
	rib_log(rib, pre, rec.key.prefix, rec.key.plen, 0, false);
	return 0;
}

int router_rib_route_add(struct router_rib *rib, const struct router_route *r)
{
	return router_rib_route_add_nhs(rib, r, &r->nh, 1);
}

uint64_t router_rib_connected_prefix(const struct router_rib *rib, uint8_t port)
{
	const struct router_route *r;
	uint32_t pos = 0;

	while ((r = router_tab_next(&rib->routes, &pos)))
		if (r->key.source == ROUTER_SRC_CONNECTED && r->nh.port == port)
			return r->key.prefix;
	return 0;
}

int router_rib_route_del(struct router_rib *rib, uint64_t prefix, uint8_t plen, uint8_t source)
{
	struct router_route_key k;
	const struct router_route *r;
	uint64_t pre;

	memset(&k, 0, sizeof(k));
	k.prefix = prefix;
	k.plen = plen;
	k.source = source;
	if (!(r = router_tab_find(&rib->routes, &k)))
		return -ENOENT;
	more_put(rib, r->more);
	pre = rib->routes.stamp;
	router_tab_del(&rib->routes, &k);
	rib_log(rib, pre, prefix, plen, 0, false);
	return 0;
}

int router_rib_best_source(const struct router_rib *rib, uint64_t prefix, uint8_t plen)
{
	struct router_route_key k;

	memset(&k, 0, sizeof(k));
	k.prefix = prefix;
	k.plen = plen;
	for (int src = 0; src < ROUTER_SRC_MAX; src++) {
		k.source = (uint8_t)src;
		if (router_tab_find(&rib->routes, &k))
			return src;
	}
	return -ENOENT;
}

int router_rib_neigh_add(struct router_rib *rib, const struct router_neigh *n)
{
	struct router_neigh rec;
	uint64_t pre;

	if (n->key.port >= rib->nports || n->key.source >= ROUTER_SRC_MAX || n->lid == 0 ||
	    n->lid >= 0xC000 || n->lmc > 7)
		return -EINVAL;
	memset(&rec, 0, sizeof(rec));
	rec.key.guid = n->key.guid;
	rec.key.port = n->key.port;
	rec.key.source = n->key.source;
	rec.lid = n->lid;
	rec.lmc = n->lmc;
	pre = rib->neighs.stamp;
	if (router_tab_put(&rib->neighs, &rec) < 0)
		return -ENOMEM;
	rib_log(rib, pre, rec.key.guid, 0, rec.key.port, true);
	return 0;
}

int router_rib_neigh_del(struct router_rib *rib, uint8_t port, uint64_t guid, uint8_t source)
{
	struct router_neigh_key k;
	uint64_t pre;

	memset(&k, 0, sizeof(k));
	k.guid = guid;
	k.port = port;
	k.source = source;
	pre = rib->neighs.stamp;
	if (router_tab_del(&rib->neighs, &k))
		return -ENOENT;
	rib_log(rib, pre, guid, 0, port, true);
	return 0;
}

int router_rib_mcast_add(struct router_rib *rib, const struct router_mcast *m)
{
	struct router_mcast rec;

	if (m->key.port >= rib->nports || !ibr_gid_raw_is_mcast(m->key.mgid) || m->mlid < 0xC000 ||
	    m->mlid == 0xFFFF || m->sl > 15 || m->source >= ROUTER_SRC_MAX)
		return -EINVAL;
	rec = *m;
	memset(rec.key.rsv, 0, sizeof(rec.key.rsv));
	return router_tab_put(&rib->mcasts, &rec) < 0 ? -ENOMEM : 0;
}

int router_rib_mcast_del(struct router_rib *rib, const uint8_t *mgid, uint8_t port)
{
	struct router_mcast_key k;

	memset(&k, 0, sizeof(k));
	memcpy(k.mgid, mgid, 16);
	k.port = port;
	return router_tab_del(&rib->mcasts, &k);
}

void router_rib_flush_routes(struct router_rib *rib, uint8_t source, int port)
{
	uint32_t pos = 0;
	struct router_route *r;

	/* deleting the record at the cursor is safe: slots are only reused by puts */
	while ((r = router_tab_next(&rib->routes, &pos))) {
		struct router_nh v[ROUTER_ECMP_MAX];
		unsigned n, keep = 0;

		if (r->key.source != source ||
		    (port >= 0 && !router_route_via(rib, r, (uint8_t)port)))
			continue;
		/* the next hops through other ports stay (a put of an existing key: in place) */
		n = router_rib_route_nhs(rib, r, v);
		for (unsigned i = 0; port >= 0 && i < n; i++)
			if (v[i].port != port)
				v[keep++] = v[i];
		if (keep) {
			router_rib_route_add_nhs(rib, r, v, keep);
		} else {
			uint64_t pre = rib->routes.stamp;

			more_put(rib, r->more);
			router_tab_del(&rib->routes, &r->key);
			rib_log(rib, pre, r->key.prefix, r->key.plen, 0, false);
		}
	}
}

void router_rib_flush_neighs(struct router_rib *rib, uint8_t source, int port)
{
	uint32_t pos = 0;
	struct router_neigh *n;

	while ((n = router_tab_next(&rib->neighs, &pos)))
		if (n->key.source == source && (port < 0 || n->key.port == port)) {
			uint64_t pre = rib->neighs.stamp;

			router_tab_del(&rib->neighs, &n->key);
			rib_log(rib, pre, n->key.guid, 0, n->key.port, true);
		}
}

void router_rib_flush_mcasts(struct router_rib *rib, uint8_t source, int port)
{
	uint32_t pos = 0;
	struct router_mcast *m;

	while ((m = router_tab_next(&rib->mcasts, &pos)))
		if (m->source == source && (port < 0 || m->key.port == port))
			router_tab_del(&rib->mcasts, &m->key);
}

void router_rib_flush(struct router_rib *rib, uint8_t source, int port)
{
	router_rib_flush_routes(rib, source, port);
	router_rib_flush_neighs(rib, source, port);
	router_rib_flush_mcasts(rib, source, port);
}
