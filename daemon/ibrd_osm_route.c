/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_osm_route.c - what a route is to the OpenSM of a port's subnet: a
 * prefix route it can hold (a /64 line or the default "*"), one it cannot
 * (an aggregate), site-local traffic the router drops, or none of its
 * business.  Shared by "show osm-prefix-routes" (ibrd_cmd_osm.c) and the
 * routes the plugin installs (ibrd_plugin_routes.c).
 */
#include "daemon/ibrd.h"

#include "lib/ibr_gid.h"

static bool osm_site_local(uint64_t prefix)
{
	union ibr_gid g = ibr_gid_make(prefix, 0);

	return ibr_gid_is_site_local(&g);
}

enum ibrd_osm_kind ibrd_osm_route_kind(const struct ibrd *d, uint32_t port,
				       const struct router_route *r)
{
	const struct router_port *me = &d->rib.port[port], *via = &d->rib.port[r->nh.port];
	union ibr_gid g = ibr_gid_make(r->key.prefix, 0);

	if (router_route_via(&d->rib, r, (uint8_t)port) ||
	    router_rib_best_source(&d->rib, r->key.prefix, r->key.plen) != r->key.source)
		return IBRD_OSM_NONE;
	/* the SA never asks for its own prefix or a link-local one */
	if (r->key.plen == 64 && (r->key.prefix == me->prefix || ibr_gid_is_link_local(&g)))
		return IBRD_OSM_NONE;
	/*
	 * IBA 4.1.1: the engine drops site-local SGIDs or DGIDs between
	 * sites; the subnet's hosts have SGIDs of its own prefix.
	 */
	if (via->site != me->site &&
	    (osm_site_local(me->prefix) || (r->key.plen >= 10 && osm_site_local(r->key.prefix))))
		return IBRD_OSM_SITE;
	if (r->key.plen == 64)
		return IBRD_OSM_LINE;
	return r->key.plen == 0 ? IBRD_OSM_ANY : IBRD_OSM_AGGREGATE;
}
