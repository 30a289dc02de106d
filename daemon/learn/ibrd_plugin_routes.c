/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_plugin_routes.c - the prefix routes an OpenSM plugin installs for
 * the router (ibrouter-osm(8)): for a port P of the router in the plugin's
 * subnet, every prefix whose best route leaves by another port, named by
 * P's port GUID, so that OpenSM's SA answers PathRecords to that prefix
 * with P's LID.  The same choice as "show osm-prefix-routes" (the file an
 * administrator would write), for the same reasons:
 *  - OpenSM matches whole 64-bit prefixes or "*" (osm_sa_path_record.c
 *    find_router()): /64 routes and ::/0 go, other lengths cannot;
 *  - the SA never asks for its own prefix, and link-local GIDs never leave
 *    the subnet;
 *  - site-local GIDs do not cross sites (IBA 4.1.1): the engine would drop
 *    them, so OpenSM must not answer with a path through the router.
 * The metric is the route's; among several routers the plugin keeps the
 * lowest per prefix.
 */
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/learn/ibrd_plugin.h"

#include "lib/ibr_pkt.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * The route `r` as seen from port `port`'s subnet: true with *x filled when
 * it goes (the "show osm-prefix-routes" lines: a /64 or "*").
 */
static bool proutes_one(const struct ibrd *d, uint32_t port, const struct router_route *r,
			struct ibr_plug_route *x)
{
	enum router_export_kind k = router_export_kind(&d->rib, port, r);

	if (k != ROUTER_EXPORT_LINE && k != ROUTER_EXPORT_ANY)
		return false;
	memset(x, 0, sizeof(*x));
	x->prefix = r->key.plen ? r->key.prefix : 0;
	x->guid = d->rib.port[port].guid;
	x->metric = r->metric;
	x->flags = r->key.plen ? 0 : IBR_PLUG_ROUTE_ANY;
	return true;
}

static int proutes_cmp(const void *a, const void *b)
{
	const struct ibr_plug_route *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->flags != y->flags)
		return x->flags < y->flags ? -1 : 1; /* "*" after the prefixes */
	return x->prefix < y->prefix ? -1 : x->prefix > y->prefix;
}

size_t ibrd_plugin_routes(struct ibrd *d, uint32_t ports, struct ibr_plug_route **out)
{
	const struct router_route *r;
	size_t n = 0, cap = 0;

	*out = NULL;
	for (uint32_t p = 0; p < d->rib.nports; p++) {
		uint32_t pos = 0;

		if (!(ports >> p & 1) || !d->rib.port[p].guid)
			continue;
		while ((r = router_tab_next(&d->rib.routes, &pos))) {
			struct ibr_plug_route x;

			if (!proutes_one(d, p, r, &x))
				continue;
			if (n == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				struct ibr_plug_route *v = realloc(*out, ncap * sizeof(*v));

				if (!v) {
					free(*out);
					*out = NULL;
					return SIZE_MAX;
				}
				*out = v;
				cap = ncap;
			}
			(*out)[n++] = x;
		}
	}
	if (n)
		qsort(*out, n, sizeof(**out), proutes_cmp);
	return n;
}

static int proutes_emit(void *ctx, const uint8_t *msg, size_t len)
{
	struct ibrd_plugin *p = ctx;

	return ibrd_client_send(p->client, msg, len);
}

int ibrd_plugin_routes_send(struct ibrd *d, struct ibrd_plugin *p)
{
	struct ibr_plug_route *v;
	struct ibr_plug_pack *k;
	uint8_t fixed[IBR_PLUG_ROUTES_LEN] = { 0 };
	size_t n = ibrd_plugin_routes(d, p->bound, &v);
	int rc;

	if (n == SIZE_MAX)
		return -ENOMEM;
	if (p->sent_valid && n == p->nsent && (!n || !memcmp(v, p->sent, n * sizeof(*v)))) {
		free(v);
		return 0;
	}
	if (!(k = malloc(sizeof(*k)))) {
		free(v);
		return -ENOMEM;
	}
	ibr_be32_put(fixed, (uint32_t)++p->routes_msgs);
	ibr_plug_pack_start(k, IBR_PLUG_ROUTES, fixed, proutes_emit, p, &p->seq);
	for (size_t i = 0; i < n; i++)
		ibr_plug_route_put(ibr_plug_pack_rec(k), &v[i]);
	rc = ibr_plug_pack_end(k);
	free(k);
	free(p->sent);
	p->sent = v;
	p->nsent = n;
	p->sent_valid = rc == 0;
	log_debug("plugin %u: %zu prefix routes sent", p->id, n);
	return rc;
}
