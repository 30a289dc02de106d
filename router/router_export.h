/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_export.h - what a route of the RIB is to the subnet manager of one
 * router port's subnet (router_export.c): a prefix route OpenSM can hold, one
 * it cannot, site-local traffic the router drops, or none of its business.
 * The daemon's prefix-routes answer, the OpenSM plugins' routes, the SMA's
 * vendor tables and the route announcements all ask the same question.
 */
#ifndef ROUTER_EXPORT_H
#define ROUTER_EXPORT_H

#include "router/router_rib.h"

#include <stdint.h>

enum router_export_kind {
	ROUTER_EXPORT_LINE,	 /* a /64: one "<prefix> <guid>" line */
	ROUTER_EXPORT_ANY,	 /* ::/0: "* <guid>", after every other line */
	ROUTER_EXPORT_AGGREGATE, /* shorter than /64, longer than /0: not expressible */
	ROUTER_EXPORT_SITE,	 /* site-local traffic the router drops (other site) */
	ROUTER_EXPORT_NONE,	 /* not for this subnet: its own, link-local, not best, via it */
};

/* Route `r` of `rib` as the SM of router port `port`'s subnet would hold it. */
enum router_export_kind router_export_kind(const struct router_rib *rib, uint32_t port,
					   const struct router_route *r);

#endif
