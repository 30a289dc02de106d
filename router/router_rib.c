/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_rib.c - the RIB's entries by source, and their compilation into a FIB. */
#include "router/router_rib.h"

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
	router_tab_free(&rib->routes);
	router_tab_free(&rib->neighs);
	router_tab_free(&rib->mcasts);
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

bool router_route_via(const struct router_route *r, uint8_t port)
{
	for (unsigned i = 0; i < (r->nnh ? r->nnh : 1u); i++)
		if (r->nhs[i].port == port)
			return true;
	return false;
}

int router_rib_route_add(struct router_rib *rib, const struct router_route *r)
{
	unsigned nnh = r->nnh ? r->nnh : 1;
	struct router_route rec;

	if (r->key.plen > 64 || r->key.source >= ROUTER_SRC_MAX || nnh > ROUTER_ECMP_MAX)
		return -EINVAL;
	if (r->key.prefix & ~prefix_mask(r->key.plen))
		return -EINVAL; /* host bits set: say so rather than guess */
	for (unsigned i = 0; i < nnh; i++) {
		if (!nh_valid(rib, &r->nhs[i]))
			return -EINVAL;
		/* several: next routers, each once (a flow's choice among routers) */
		if (nnh > 1 && r->nhs[i].kind != ROUTER_NH_ROUTER)
			return -EINVAL;
		for (unsigned k = 0; k < i; k++)
			if (nh_same(&r->nhs[k], &r->nhs[i]))
				return -EINVAL;
	}
	memset(&rec, 0, sizeof(rec));
	rec.key.prefix = r->key.prefix;
	rec.key.plen = r->key.plen;
	rec.key.source = r->key.source;
	memcpy(rec.nhs, r->nhs, nnh * sizeof(rec.nhs[0]));
	rec.nnh = (uint8_t)nnh;
	rec.metric = r->metric;
	if (rec.key.source == ROUTER_SRC_CONNECTED) {
		const struct router_route *cur = router_tab_find(&rib->routes, &rec.key);

		/* one subnet prefix, one port: never take another port's */
		if (cur && cur->nh.port != rec.nh.port)
			return -EEXIST;
	}
	return router_tab_put(&rib->routes, &rec) < 0 ? -ENOMEM : 0;
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

	memset(&k, 0, sizeof(k));
	k.prefix = prefix;
	k.plen = plen;
	k.source = source;
	return router_tab_del(&rib->routes, &k);
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

	if (n->key.port >= rib->nports || n->key.source >= ROUTER_SRC_MAX || n->lid == 0 ||
	    n->lid >= 0xC000 || n->lmc > 7)
		return -EINVAL;
	memset(&rec, 0, sizeof(rec));
	rec.key.guid = n->key.guid;
	rec.key.port = n->key.port;
	rec.key.source = n->key.source;
	rec.lid = n->lid;
	rec.lmc = n->lmc;
	return router_tab_put(&rib->neighs, &rec) < 0 ? -ENOMEM : 0;
}

int router_rib_neigh_del(struct router_rib *rib, uint8_t port, uint64_t guid, uint8_t source)
{
	struct router_neigh_key k;

	memset(&k, 0, sizeof(k));
	k.guid = guid;
	k.port = port;
	k.source = source;
	return router_tab_del(&rib->neighs, &k);
}

int router_rib_mcast_add(struct router_rib *rib, const struct router_mcast *m)
{
	struct router_mcast rec;

	if (m->key.port >= rib->nports || m->key.mgid[0] != 0xFF || m->mlid < 0xC000 ||
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
		struct router_route keep;
		unsigned n = 0;

		if (r->key.source != source || (port >= 0 && !router_route_via(r, (uint8_t)port)))
			continue;
		/* the next hops through other ports stay (a put of an existing key: in place) */
		keep = *r;
		for (unsigned i = 0; port >= 0 && i < r->nnh; i++)
			if (r->nhs[i].port != port)
				keep.nhs[n++] = r->nhs[i];
		keep.nnh = (uint8_t)n;
		if (n)
			router_tab_put(&rib->routes, &keep);
		else
			router_tab_del(&rib->routes, &r->key);
	}
}

void router_rib_flush_neighs(struct router_rib *rib, uint8_t source, int port)
{
	uint32_t pos = 0;
	struct router_neigh *n;

	while ((n = router_tab_next(&rib->neighs, &pos)))
		if (n->key.source == source && (port < 0 || n->key.port == port))
			router_tab_del(&rib->neighs, &n->key);
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
