/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_plugin.h - what one OpenSM plugin (ibrouter-osm(8)) told ibrouterd
 * about its subnet: the session state that ibrd_plugin_input.c builds from
 * the plugin's messages (lib/ibr_plug.h).  It depends on lib/ and the
 * router's record store only, so the fuzzer and the unit tests drive it
 * without a daemon; ibrd_plugin.c turns it into RIB entries.
 */
#ifndef IBRD_PLUGIN_H
#define IBRD_PLUGIN_H

#include "lib/ibr_plug.h"
#include "router/router_tab.h"

#include <stdbool.h>
#include <stdint.h>

/* Bounds on what one plugin may make the daemon hold (its input is untrusted). */
#define IBRD_PSESS_PORTS_MAX   (1u << 20) /* end ports and alias GUIDs */
#define IBRD_PSESS_GROUPS_MAX  (1u << 16)
#define IBRD_PSESS_MEMBERS_MAX (1u << 22) /* over all groups */
#define IBRD_PSESS_SERVE_MAX   16

/* An end port or alias GUID of the subnet (router_tab record; key: guid). */
struct ibrd_pport {
	uint64_t guid;
	uint64_t base_guid;
	uint16_t lid;
	uint8_t lmc, node_type, port_num, flags;
	uint8_t rsv[2];
};

struct ibrd_pmember {
	uint64_t guid; /* interface ID of the member's port GID */
	uint8_t join_state;
};

/* A multicast group (router_tab record; key: mgid). */
struct ibrd_pgroup {
	uint8_t mgid[16];
	struct ibr_plug_group g;
	uint32_t nmem, capmem;
	struct ibrd_pmember *mem; /* owned */
};

/*
 * The index of the ports based on another GUID (aliases: base_guid != guid),
 * so that a port leaves with its aliases at the cost of its aliases, not of
 * the table: a list per base GUID, in the order its members came, linked by
 * GUID (0 ends it: no port has GUID 0).  It holds no more entries than the
 * ports it indexes, and a base only while its list is not empty.
 */
struct ibrd_pdep { /* router_tab record; key: guid, a port whose base is another GUID */
	uint64_t guid;
	uint64_t prev, next; /* the ports of the same base before and after it */
};

struct ibrd_pbase { /* router_tab record; key: base_guid */
	uint64_t base_guid;
	uint64_t head, tail; /* its first and last port in struct ibrd_pview.deps */
};

/* Tables of one view of the subnet: live, or a snapshot being received. */
struct ibrd_pview {
	struct router_tab ports;  /* struct ibrd_pport */
	struct router_tab groups; /* struct ibrd_pgroup */
	struct router_tab deps;	  /* struct ibrd_pdep: the ports based on another GUID */
	struct router_tab bases;  /* struct ibrd_pbase: the GUIDs those are based on */
	uint64_t members;	  /* over all groups */
	uint32_t aliases;	  /* alias records among the ports */
};

/* What a message changed (ibrd_psess_input's result bits). */
enum ibrd_psess_change {
	IBRD_PSESS_HELLO = 1 << 0,    /* the hello arrived: the session is up */
	IBRD_PSESS_SNAPSHOT = 1 << 1, /* a complete snapshot replaced the view */
	IBRD_PSESS_PORTS = 1 << 2,    /* end ports added or removed (a delta) */
	IBRD_PSESS_GROUPS = 1 << 3,   /* groups added or removed (a delta) */
	IBRD_PSESS_STATS = 1 << 4,    /* the plugin's counters */
};

/*
 * Deltas as they are applied, for a caller that mirrors them into the RIB
 * (any callback may be NULL).  A removed port's aliases are reported too.
 */
struct ibrd_psess_ops {
	void (*port)(void *ctx, const struct ibrd_pport *p);
	void (*port_del)(void *ctx, const struct ibrd_pport *p);
	void (*group)(void *ctx, const struct ibrd_pgroup *g);
	void (*group_del)(void *ctx, const uint8_t mgid[16]);
};

struct ibrd_psess {
	bool hello;
	struct ibr_plug_hello h;
	uint64_t serve[IBRD_PSESS_SERVE_MAX]; /* router port GUIDs it serves (none: any) */
	unsigned nserve;
	struct ibrd_pview live;
	bool snapping; /* between SNAP_BEGIN and SNAP_END */
	struct ibr_plug_snap snap;
	struct ibrd_pview staged;
	uint32_t snap_ports; /* records received in this snapshot */
	bool grp_open;	     /* a GROUP chain (MORE) is being received */
	struct ibrd_pgroup grp;
	bool seq_known;
	uint32_t next_seq;
	bool have_stats;
	struct ibr_plug_stats remote;
	uint8_t sm_state; /* from the last STATS, else the hello */
	struct ibrd_psess_ops ops;
	void *ctx;
	/* counters */
	uint64_t msgs, bytes, unknown, gaps, snapshots, snap_bad, deltas, refused;
};

void ibrd_psess_init(struct ibrd_psess *s, const struct ibrd_psess_ops *ops, void *ctx);
void ibrd_psess_free(struct ibrd_psess *s);
/*
 * One datagram from the plugin: enum ibrd_psess_change bits (0: nothing to
 * do), or -errno when the plugin broke the protocol (the daemon then closes
 * the session): -EBADMSG, -EPROTONOSUPPORT, -EPROTO (out of order),
 * -E2BIG (past a bound above), -ENOMEM.
 */
int ibrd_psess_input(struct ibrd_psess *s, const uint8_t *buf, size_t len);
/* The end port or alias `guid` of the live view, or NULL. */
const struct ibrd_pport *ibrd_psess_port(const struct ibrd_psess *s, uint64_t guid);
/*
 * `guid` is an end port of the live view that a router port can be: a CA
 * port (an HCA's, NodeType 1) or a Router node's (3); not an alias.
 */
bool ibrd_psess_has_router(const struct ibrd_psess *s, uint64_t guid);
/* The alias index of view `v` agrees with its ports (the unit tests' and the fuzzer's check). */
bool ibrd_pview_index_ok(const struct ibrd_pview *v);
/*
 * The session covers the router port of GUID `guid` and prefix `prefix`
 * (0: unknown): among the ports it serves (all when its hello named none),
 * and an end port of its view (ibrd_psess_has_router) or of its subnet
 * prefix.
 */
bool ibrd_psess_binds(const struct ibrd_psess *s, uint64_t guid, uint64_t prefix);

/* ---- the daemon's side (ibrd_plugin.c) ---- */

#define IBRD_PLUGINS_MAX 16

struct ibrd;
struct ibrd_client;
struct sa_group;

/* One connected plugin: a control-socket client after "plugin hello". */
struct ibrd_plugin {
	struct ibrd_psess s;
	struct ibrd *d;
	struct ibrd_client *client;
	unsigned id;
	int pid; /* of the connecting process (SO_PEERCRED) */
	unsigned uid;
	uint64_t connected_ns, last_ns;
	uint32_t bound;		     /* router ports in this plugin's subnet, one bit each */
	uint32_t seq;		     /* our message numbers */
	struct ibr_plug_route *sent; /* the last ROUTES set, to send only changes */
	size_t nsent;
	bool sent_valid;
	uint32_t sent_bound; /* the ports those routes were for */
	uint64_t routes_msgs;
	/* its groups as the bridging policy reads them (ibrd_plugin_mcast.c) */
	struct sa_group *gview;
	size_t ngview;
	uint32_t gview_port;  /* the port whose GUID is "ours" in gview */
	bool gview_valid;     /* false: the live view changed since it was built */
	bool mjoin_warned;    /* said once that it makes no joins */
	bool sendonly_warned; /* said once that it makes no SendOnlyNonMember joins */
	uint64_t mjoins_sent;
	struct ibrd_plugin *next;
};

struct ucred;
/*
 * A new session for control client `c` (its credentials `cr`), once the
 * command checked its hello; its id is taken.  NULL when out of memory.
 * It joins the sessions with ibrd_plugin_attach() once the hello is
 * answered, else it goes with ibrd_plugin_discard().
 */
struct ibrd_plugin *ibrd_plugin_new(struct ibrd *d, struct ibrd_client *c, const struct ucred *cr);
void ibrd_plugin_attach(struct ibrd *d, struct ibrd_plugin *p);
void ibrd_plugin_discard(struct ibrd_plugin *p);
/* `p` feeds router port `port` (bound to it, and chosen among the plugins bound there). */
bool ibrd_plugin_feeds(const struct ibrd *d, const struct ibrd_plugin *p, uint32_t port);

/* ibrd_plugin_routes.c: what the plugin installs as OpenSM prefix routes */
/*
 * The prefixes reachable through each port in `ports` (one bit per port)
 * from that port's subnet, named by the port's GUID, sorted.  The count, or
 * SIZE_MAX when out of memory; *out is NULL when the count is 0.
 */
size_t ibrd_plugin_routes(struct ibrd *d, uint32_t ports, struct ibr_plug_route **out);
/* Send them to `p` when they changed since the last time. */
int ibrd_plugin_routes_send(struct ibrd *d, struct ibrd_plugin *p);

#endif
