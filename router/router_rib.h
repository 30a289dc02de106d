/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_rib.h - the routing information base: every route, neighbour and
 * multicast group the router has learned, by source, plus the ports.  Owned
 * by the control thread; the daemon is its only caller (the SA client, the
 * plugin channel, the CLI and the config reach it through the daemon).
 * router_rib_compile() turns it into an immutable FIB for the workers.
 */
#ifndef ROUTER_RIB_H
#define ROUTER_RIB_H

#include "router/router_fib.h"
#include "router/router_port.h"
#include "router/router_tab.h"

#include <stdbool.h>
#include <stdint.h>

/* Where an entry came from; a lower value is preferred. */
enum router_src {
	ROUTER_SRC_CONNECTED = 0, /* the subnet prefix of one of our ports */
	ROUTER_SRC_STATIC,	  /* config file or CLI */
	ROUTER_SRC_SA,		  /* learned from a subnet's SA */
	ROUTER_SRC_PLUGIN,	  /* pushed by the OpenSM plugin */
	ROUTER_SRC_PEER,	  /* from another router */
	ROUTER_SRC_BRIDGE,	  /* a group the multicast policy put on a RoCE port */
	ROUTER_SRC_MAX
};

const char *router_src_name(int src);
int router_src_parse(const char *name); /* -EINVAL when unknown */

struct router_route_key {
	uint64_t prefix; /* GID prefix, host order; bits past plen are zero */
	uint8_t plen;	 /* 0..64 */
	uint8_t source;	 /* enum router_src */
	uint8_t rsv[6];
};

struct router_route {
	struct router_route_key key;
	struct router_nh nh; /* the next hop, the first of several */
	/*
	 * Next hops, 1..ROUTER_ECMP_MAX (0 is read as 1): several are next
	 * routers of equal cost, each once, and each flow (SGID, DGID,
	 * FlowLabel) keeps one of them; when one goes only its flows move
	 * (router_fib.h, ROUTER_VAL_ECMP).  The others than nh are the RIB's,
	 * out of the record (router_rib_route_nhs()): most routes have one,
	 * and a record of 32 bytes is what 10^6 routes, their snapshots and
	 * their reloads copy.
	 */
	uint8_t nnh;
	uint32_t metric; /* among routers (plugin prefix routes, peers); informational here */
	uint32_t more;	 /* the RIB's: the slot of the other next hops + 1 (0: none) */
};
_Static_assert(sizeof(struct router_route) == 32, "a route record stays small");

/* The next hops of a route past its first (the RIB's side store). */
struct router_nh_more {
	struct router_nh nh[ROUTER_ECMP_MAX - 1];
};

struct router_neigh_key {
	uint64_t guid; /* port GUID or alias GUID */
	uint8_t port;
	uint8_t source;
	uint8_t rsv[6];
};

struct router_neigh {
	struct router_neigh_key key;
	uint16_t lid;
	uint8_t lmc;
};

struct router_mcast_key {
	uint8_t mgid[16];
	uint8_t port;
	uint8_t rsv[7];
};

enum router_mcast_flag {
	ROUTER_MCAST_RECEIVERS = 1 << 0, /* the subnet has members that receive */
	ROUTER_MCAST_SENDERS = 1 << 1,	 /* the subnet has members that send */
};

/* A group as it exists on one port's subnet (IBA 15.2.5.17 MCMemberRecord). */
struct router_mcast {
	struct router_mcast_key key;
	uint16_t mlid;
	uint8_t sl;
	uint8_t flags; /* enum router_mcast_flag */
	uint8_t source;
	uint8_t tclass;
	uint16_t pkey;
	uint32_t qkey;
	uint32_t flowlabel;
	uint16_t mtu;
	/*
	 * 0, or the id (1..) of the feed this entry names on its port: the
	 * entries of one id are one group under each port's MGID for it
	 * (router_fib_feed); SENDERS: the router takes it from this port,
	 * RECEIVERS: it sends it there.
	 */
	uint16_t feed;
	/*
	 * In a feed: the HopLmt its copies leave this port with at most (0:
	 * 1), so that no other router -- nor this one -- forwards them again
	 * (C8-16: a router drops HopLmt 0 and 1): two routers that carry
	 * one feed between the same subnets never ping-pong it.
	 */
	uint8_t feed_hops;
};

/*
 * A route or neighbour key that changed since the FIB router_rib_update()
 * made last: that FIB with the values of these keys now is the next one.
 */
struct router_rib_change {
	uint64_t key; /* a route's prefix, a neighbour's GUID */
	uint8_t plen; /* a route's */
	uint8_t port; /* a neighbour's */
	uint8_t neigh;
	uint8_t rsv[5];
};

/* Changes kept: more, and the next FIB is compiled whole (cheaper by then). */
#define ROUTER_RIB_LOG_MAX 65536

struct router_rib_log {
	uint64_t since; /* the id of the FIB they follow; 0: none, the next is compiled whole */
	/* the tables' stamps: a route or neighbour changed around the log, or the groups */
	uint64_t routes_stamp, neighs_stamp, mcasts_stamp;
	bool lost; /* more than ROUTER_RIB_LOG_MAX, or out of memory */
	struct router_rib_change *v;
	uint32_t n, cap;
};

struct router_rib {
	uint32_t nports;
	struct router_port port[ROUTER_MAX_PORTS];
	struct router_tab routes; /* struct router_route */
	/* the routes' other next hops: slots, a free list through free_more[] */
	struct router_nh_more *more;
	uint32_t *free_more;
	uint32_t nmore, cap_more, nfree_more; /* slots handed out, room, free ones */
	struct router_tab neighs;	      /* struct router_neigh */
	struct router_tab mcasts;	      /* struct router_mcast */
	uint64_t generation;		      /* bumped by every compile */
	struct router_rib_log log;	      /* since the last router_rib_update() */
	uint64_t fib_compiles, fib_deltas;    /* router_rib_update()'s FIBs: whole, with a delta */
};

void router_rib_init(struct router_rib *rib);
void router_rib_free(struct router_rib *rib);

/* Add a port (returns its index) or replace port `idx`'s settings. */
int router_rib_port_add(struct router_rib *rib, const struct router_port *p);
int router_rib_port_set(struct router_rib *rib, uint32_t idx, const struct router_port *p);
/* Index of the port called `name`, or -ENOENT. */
int router_rib_port_find(const struct router_rib *rib, const char *name);

/*
 * Routes: add replaces the route with the same prefix, length and source,
 * except that a connected route never replaces another port's: -EEXIST
 * (a subnet prefix belongs to one port; the daemon decides what the
 * refused port keeps).  router_rib_route_add() takes r->nh alone;
 * router_rib_route_add_nhs() the route's key and metric from r and its n
 * next hops from nhs[] (1..ROUTER_ECMP_MAX; several: next routers, each
 * once).
 */
int router_rib_route_add(struct router_rib *rib, const struct router_route *r);
int router_rib_route_add_nhs(struct router_rib *rib, const struct router_route *r,
			     const struct router_nh *nhs, unsigned n);
/* Route r's next hops into out[ROUTER_ECMP_MAX]: their count. */
unsigned router_rib_route_nhs(const struct router_rib *rib, const struct router_route *r,
			      struct router_nh *out);
/* The same from a copy of the side store (a snapshot's): `more` as rib->more. */
unsigned router_route_nhs_in(const struct router_nh_more *more, const struct router_route *r,
			     struct router_nh *out);
/* The prefix of port `port`'s connected route, or 0 when it has none. */
uint64_t router_rib_connected_prefix(const struct router_rib *rib, uint8_t port);
int router_rib_route_del(struct router_rib *rib, uint64_t prefix, uint8_t plen, uint8_t source);
int router_rib_neigh_add(struct router_rib *rib, const struct router_neigh *n);
int router_rib_neigh_del(struct router_rib *rib, uint8_t port, uint64_t guid, uint8_t source);
int router_rib_mcast_add(struct router_rib *rib, const struct router_mcast *m);
int router_rib_mcast_del(struct router_rib *rib, const uint8_t *mgid, uint8_t port);
/* The preferred source among the routes for this prefix and length, or -ENOENT. */
int router_rib_best_source(const struct router_rib *rib, uint64_t prefix, uint8_t plen);
/* Whether route r has a next hop through port `port`. */
bool router_route_via(const struct router_rib *rib, const struct router_route *r, uint8_t port);

/*
 * Drop every entry of `source` (on port `port`, or all ports when < 0; a
 * route with next hops through other ports keeps those).
 */
void router_rib_flush(struct router_rib *rib, uint8_t source, int port);
/* The same for one table (a learned source replaces its neighbours or its groups). */
void router_rib_flush_routes(struct router_rib *rib, uint8_t source, int port);
void router_rib_flush_neighs(struct router_rib *rib, uint8_t source, int port);
void router_rib_flush_mcasts(struct router_rib *rib, uint8_t source, int port);

/* A new FIB of the current state, or NULL (out of memory). */
struct router_fib *router_rib_compile(struct router_rib *rib);
/*
 * The next FIB to publish after `cur` (the FIB published now, or NULL): when
 * cur is the last this function made from this RIB and what changed since
 * were routes and neighbours (and groups), cur's tables with the changes in
 * its delta, in time linear in the changes alone; else, or once the delta
 * outgrows its bound (router_fib_delta.c), router_rib_compile().  NULL when
 * out of memory (then the changes stay for the next call).
 */
struct router_fib *router_rib_update(struct router_rib *rib, const struct router_fib *cur);
/*
 * A FIB without a delta that is `cur` (the FIB router_rib_update() made
 * last, with a delta), compiled whole: its generation kept, as nothing
 * changed.  NULL when cur is not that FIB, when something changed since
 * (router_rib_update() then), or out of memory.
 */
struct router_fib *router_rib_merge(struct router_rib *rib, const struct router_fib *cur);

#endif
