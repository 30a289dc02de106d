/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_export.c - what a route is to the OpenSM of a port's subnet: a
 * prefix route it can hold (a /64 line or the default "*"), one it cannot
 * (an aggregate), site-local traffic the router drops, or none of its
 * business.  A question of the RIB alone, so that every part of the daemon
 * that tells a subnet of routes ("show osm-prefix-routes", the plugins'
 * prefix routes, the SMA's tables, the announcements) asks it here.
 */
#include "router/router_export.h"

#include "lib/ibr_gid.h"

static bool osm_site_local(uint64_t prefix)
{
	union ibr_gid g = ibr_gid_make(prefix, 0);

	return ibr_gid_is_site_local(&g);
}

enum router_export_kind router_export_kind(const struct router_rib *rib, uint32_t port,
					   const struct router_route *r)
{
	const struct router_port *me = &rib->port[port], *via = &rib->port[r->nh.port];
	union ibr_gid g = ibr_gid_make(r->key.prefix, 0);

	if (router_route_via(rib, r, (uint8_t)port) ||
	    router_rib_best_source(rib, r->key.prefix, r->key.plen) != r->key.source)
		return ROUTER_EXPORT_NONE;
	/* the SA never asks for its own prefix or a link-local one */
	if (r->key.plen == 64 && (r->key.prefix == me->prefix || ibr_gid_is_link_local(&g)))
		return ROUTER_EXPORT_NONE;
	/*
	 * IBA 4.1.1: the engine drops site-local SGIDs or DGIDs between
	 * sites; the subnet's hosts have SGIDs of its own prefix.
	 */
	if (via->site != me->site &&
	    (osm_site_local(me->prefix) || (r->key.plen >= 10 && osm_site_local(r->key.prefix))))
		return ROUTER_EXPORT_SITE;
	if (r->key.plen == 64)
		return ROUTER_EXPORT_LINE;
	return r->key.plen == 0 ? ROUTER_EXPORT_ANY : ROUTER_EXPORT_AGGREGATE;
}
