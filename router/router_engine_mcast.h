/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_engine_mcast.h - private to router_engine.c: the ports a multicast
 * packet may reach from its ingress port, by its MGID's scope (IBA 8.3) or
 * as a feed's (router_fib.h), inlined into the engine's hot path.
 */
#ifndef ROUTER_ENGINE_MCAST_H
#define ROUTER_ENGINE_MCAST_H

#include "router/router_engine_int.h"
#include "router/router_fib.h"

#include "lib/ibr_gid.h"

/* Ports a packet from `in` may reach under the multicast scope of its MGID. */
static inline int eng_scope_ports(const struct router_fib *fib, uint8_t in, unsigned scope,
				  uint32_t *ports)
{
	uint32_t mask;

	switch (scope) {
	case IBR_MCAST_SCOPE_SITE:
		mask = fib->port[in].site_ports;
		break;
	case IBR_MCAST_SCOPE_ORG:
	case IBR_MCAST_SCOPE_GLOBAL:
		mask = (1u << fib->nports) - 1;
		break;
	default: /* 2 link-local: never routed; 1, 3, 4, ...: not assigned */
		return ROUTER_DROP_SCOPE;
	}
	*ports = mask & ~(1u << in);
	return ENG_PASS;
}

/* A feed's ports: every one but the ingress, whatever its MGIDs' scope (router_fib.h). */
static inline uint32_t eng_feed_ports(const struct router_fib *fib, uint8_t in)
{
	return ((1u << fib->nports) - 1) & ~(1u << in);
}

#endif
