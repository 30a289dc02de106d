/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_learn.h - the daemon's learn room: what the router learns from its
 * subnets and tells them.  The SA clients and what they learn into the RIB
 * (ibrd_sa.c), the route exchange with the other routers (ibrd_announce.c,
 * ibrd_peers.c), the multicast bridging policy (ibrd_mcast.c) and a RoCE
 * port's groups (ibrd_roce.c), and the OpenSM plugins' sessions
 * (ibrd_plugin*.c; a session's own state in ibrd_plugin.h).  It calls down
 * into sa/, router/ and the ctl/ and conf/ rooms, never into port/ (beside
 * it) nor up: the MAD channels it runs on are the core's d->chan[].
 */
#ifndef IBRD_LEARN_H
#define IBRD_LEARN_H

#include "daemon/ibrd.h"

#include "lib/ibr_log.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ibrd_plugin;
struct sa_group;
struct sa_peer;

/* ---- the SA clients (ibrd_sa.c) ---- */

/* What an SA client's callbacks get: its port (d->salog->port[]). */
struct ibrd_sa_port {
	struct ibrd *d;
	uint32_t idx;
	uint8_t node_type; /* what its SM sees (said when it is read or changes) */
};

/*
 * The SA clients' side of the learn room (d->salog): each port's callback
 * context, and when its client last told of a Report and of a table change.
 */
struct ibrd_salog {
	struct ibrd_sa_port port[ROUTER_MAX_PORTS];
	uint64_t report_ms[ROUTER_MAX_PORTS]; /* wall clock (ms since the epoch), or 0 */
	uint64_t change_ms[ROUTER_MAX_PORTS];
};

struct ibrd_salog *ibrd_salog_new(void);
/* An SA client on each port's MAD channel (d->chan[]) that the config gives one, into d->sa[]. */
int ibrd_sa_start(struct ibrd *d);
/* The SA clients go (their parting requests sent; the channels still wait for the answers). */
void ibrd_sa_stop(struct ibrd *d);
/*
 * The SA clients of the ports in `mask` go (their channels failed: what
 * they taught the RIB, their peers and announcements with them).
 */
void ibrd_sa_stop_ports(struct ibrd *d, uint32_t mask);
void ibrd_sa_tick(struct ibrd *d, uint64_t now_ns);
/* When the SA clients have work without an event (ns), UINT64_MAX: never. */
uint64_t ibrd_sa_deadline(const struct ibrd *d);
/* Wall-clock ms (epoch) of port idx's last Report and last table change published, or 0. */
void ibrd_sa_times(const struct ibrd *d, uint32_t idx, uint64_t *report_ms, uint64_t *change_ms);

/* ---- the route exchange (ibrd_announce.c, ibrd_peers.c) ---- */

/* Route announcements through each SA (d->ad): what was last handed over. */
struct ibrd_announce {
	const struct sa_client *sa[ROUTER_MAX_PORTS]; /* the client it went to */
	size_t n[ROUTER_MAX_PORTS];		      /* prefixes */
	uint64_t gen;				      /* RIB generation */
	unsigned lease;
	bool on;
	bool wait;	       /* the tables moved: announced when the pace allows */
	struct ibrd_pace pace; /* of the announcements the tables' moves call for */
};

struct ibrd_announce *ibrd_announce_new(void);
/* Each SA client's route announcements, after the tables changed (at their pace). */
void ibrd_announce_sync(struct ibrd *d);
/* When announcements wait for their pace (UINT64_MAX: none). */
uint64_t ibrd_announce_deadline(const struct ibrd *d);

/* A router that announced a prefix, as a next hop: its port in our port's subnet. */
struct ibrd_peer_nh {
	uint64_t guid; /* the announcing router's port */
	uint16_t lid;  /* its LID */
	uint8_t port;  /* our port on that subnet */
	uint8_t lmc;
};

/*
 * A prefix other routers announced: installed (source peer) through the
 * routers of its lowest metric, up to peer-ecmp of them, or held down
 * (ibrd_peers.c).
 */
struct ibrd_peer_route {
	uint64_t prefix;
	uint64_t until; /* held: the hold-down's end (ns) */
	uint8_t plen, metric;
	uint8_t n; /* next hops in nh[], ordered by port then LID */
	bool held; /* not installed: lost, or worse than it was, within peer-holddown */
	struct ibrd_peer_nh nh[ROUTER_ECMP_MAX];
};

/* Routes from the other routers' announcements (d->peer): what is installed or held. */
struct ibrd_peers {
	struct ibrd_peer_route *v; /* sorted by prefix, length */
	size_t n;
	uint64_t next; /* the first hold-down to end, UINT64_MAX for none */
	uint64_t changes, holddowns;
	const struct ibrd_conf *conf; /* the config it was computed under */
	bool dirty;		      /* an SA client's peers changed */
	/* the peers of a port: the SA clients' (NULL), a test's */
	size_t (*src)(const struct ibrd *d, uint32_t port, const struct sa_peer **v);
};

struct ibrd_peers *ibrd_peers_new(void);
/* The routes it holds, and itself. */
void ibrd_peers_free(struct ibrd_peers *x);
/* An SA client's peers changed (its callback). */
void ibrd_peers_changed(struct ibrd *d);
/* Before the FIB is compiled: the settings to the SA clients, the peer routes anew when due. */
void ibrd_peers_sync(struct ibrd *d);
/* The same at time `now` (ns, the monotonic clock of ibr_now_ns()): for tests. */
void ibrd_peers_sync_at(struct ibrd *d, uint64_t now);
/* When ibrd_peers_sync() has work without an event (a hold-down ends), UINT64_MAX: never. */
uint64_t ibrd_peers_deadline(const struct ibrd *d);

/* ---- multicast (ibrd_mcast.c: the bridging policy; ibrd_roce.c) ---- */

/* A join the router made (d->mcast->mjoins). */
struct ibrd_mjoin {
	uint8_t mgid[16];
	uint32_t port;
	uint8_t join_state; /* IBR_SA_JOIN_*: FullMember, or SendOnlyNonMember for a feed's out port */
	bool feed;	    /* a feed's (ibrd_mcast_feed.c): the bridging policy never leaves it */
	bool seen;	    /* the group showed in that subnet since the join */
	uint64_t sent_ns; /* when the join went out */
};

/* The subnets' groups as the policy sees them, and its joins and leaves. */
struct ibrd_mcast_ops {
	size_t (*groups)(struct ibrd *d, uint32_t port, const struct sa_group **v);
	/* 0 or -errno; join_state: IBR_SA_JOIN_FULL or IBR_SA_JOIN_SEND_ONLY (IBA 15.2.5.17) */
	int (*join)(struct ibrd *d, uint32_t port, const struct sa_group *tmpl, uint8_t join_state);
	void (*leave)(struct ibrd *d, uint32_t port, const uint8_t mgid[16], uint8_t join_state);
};

/* A RoCE port's groups as the bridging policy sees them (ibrd_roce.c). */
struct ibrd_roce_view {
	struct sa_group *v;
	size_t n, cap;
};

/* The bridging policy's state (d->mcast). */
struct ibrd_mcast {
	struct ibrd_mjoin *mjoins; /* the joins the router made */
	unsigned nmjoins, mjoins_cap;
	struct ibrd_roce_view roce_view[ROUTER_MAX_PORTS];
	const struct ibrd_mcast_ops *ops; /* the core's (SA client, plugin, RoCE), a test's */
	/* joins refused (no SA client or plugin there now): the policy again at retry_ns */
	uint64_t retry_ns, retry_wait_ns, join_failures;
	struct ibr_ratelimit rl_join;
	/* feeds (ibrd_mcast_feed.c): the sections without a way to join were told (this config) */
	bool feeds_told;
};

struct ibrd_mcast *ibrd_mcast_new(void);
/* Its joins and views, and itself (after ibrd_mcast_stop). */
void ibrd_mcast_free(struct ibrd_mcast *x);
void ibrd_mcast_policy(struct ibrd *d);
/* A refused join's retry is due: the policy runs again at the end of the turn. */
void ibrd_mcast_tick(struct ibrd *d, uint64_t now_ns);
/* When ibrd_mcast_tick() has work (ns), UINT64_MAX: never. */
uint64_t ibrd_mcast_deadline(const struct ibrd *d);
/* The groups the router joined are fed (receivers), whoever told the RIB of them. */
void ibrd_mcast_mark_joined(struct ibrd *d);
void ibrd_mcast_stop(struct ibrd *d);

/* ibrd_mcast.c, for ibrd_mcast_feed.c: the joins table */
struct ibrd_mjoin *ibrd_mcast_find(struct ibrd *d, const uint8_t mgid[16], uint32_t port);
/* The group `mgid` in port `p`'s subnet as the source of groups lists it, or NULL. */
const struct sa_group *ibrd_mcast_group(struct ibrd *d, uint32_t p, const uint8_t mgid[16]);
void ibrd_mcast_join(struct ibrd *d, uint32_t port, const struct sa_group *tmpl, uint8_t join_state,
		     bool feed);
/* Leave and forget join `i` (the table's last one takes its place). */
void ibrd_mcast_leave_at(struct ibrd *d, unsigned i);

/*
 * ibrd_mcast_feed.c: the router's joins of the feeds' MGIDs on the ports
 * an SA client or a plugin joins for, by direction (after the policy).
 */
void ibrd_mcast_feeds(struct ibrd *d);
/* A new config is in: its feeds' sections without a way to join are told again. */
void ibrd_mcast_feeds_conf(struct ibrd *d);

/* ibrd_roce.c: a RoCE port's groups for the policy (no SA there: the RIB's) */
size_t ibrd_roce_groups(struct ibrd *d, uint32_t port, const struct sa_group **v);
int ibrd_roce_join(struct ibrd *d, uint32_t port, const struct sa_group *tmpl);
void ibrd_roce_leave(struct ibrd *d, uint32_t port, const uint8_t mgid[16]);
void ibrd_roce_free(struct ibrd *d);

/* ---- OpenSM plugins (ibrd_plugin*.c; ibrouter-osm(8)), a learning source ---- */

/* The plugins' sessions (d->plug): oldest first, and who feeds each port. */
struct ibrd_plugins {
	struct ibrd_plugin *list;
	unsigned n, next_id;
	unsigned feeder[ROUTER_MAX_PORTS]; /* plugin id, 0 for none */
	const struct ibrd_conf *conf;	   /* the config the feeders were chosen under */
	uint64_t gen;			   /* RIB generation of the last routes sent */
	bool resend;			   /* a reload: every plugin's routes again */
	bool wait;			   /* the tables moved: routes sent when the pace allows */
	struct ibrd_pace pace;		   /* of the routes sent for the tables' moves */
};

struct ibrd_plugins *ibrd_plugins_new(void);
/* Before the FIB is compiled: which plugin feeds each port, their entries anew. */
void ibrd_plugin_feeders(struct ibrd *d);
/* After: each plugin's prefix routes, when the published tables moved (at their pace). */
void ibrd_plugin_routes_sync(struct ibrd *d);
/* When routes wait for their pace (UINT64_MAX: none). */
uint64_t ibrd_plugin_deadline(const struct ibrd *d);
/* ibrd_plugin_mcast.c: a plugin-fed port's groups and the router's joins there */
/* The groups of the plugin feeding `port` (ours told apart); 0 without a feeder. */
size_t ibrd_plugin_groups(struct ibrd *d, uint32_t port, const struct sa_group **v);
/*
 * Ask that plugin to join the port to `mgid` with `join_state` (tmpl: the
 * group's parameters), or leave (NULL: every JoinState of the port).
 */
int ibrd_plugin_mjoin(struct ibrd *d, uint32_t port, const uint8_t mgid[16],
		      const struct sa_group *tmpl, uint8_t join_state);

#endif
