/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_int.h - internal to the SA client: its state, and the functions its
 * files give each other, by layer (calls go one way, downwards):
 * sa_client.c (the dispatcher: port poll, Reports, the answers, the API)
 * over its parts sa_sync.c (the queries of a full sync, of one trap, and
 * the joins' answers), sa_announce.c and sa_peers.c, over sa_io.c and
 * sa_tables.c (what the parts share).
 */
#ifndef SA_SA_INT_H
#define SA_SA_INT_H

#include "sa/sa_client.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"

#include <sys/queue.h>

/* Tables: plain arrays, searched linearly (a subnet has 10^3-10^4 end ports). */
struct sa_neigh_vec {
	struct sa_neigh *v;
	size_t n, cap;
};

struct sa_group_vec {
	struct sa_group *v;
	size_t n, cap;
};

enum sa_req_kind {
	SA_REQ_PORTINFO, /* hop-0 PortInfo: our LID, SM LID, prefix */
	SA_REQ_NODEINFO, /* hop-0 NodeInfo: our port GUID */
	SA_REQ_CPI,	 /* ClassPortInfo */
	SA_REQ_SUB,	 /* InformInfo subscribe */
	SA_REQ_UNSUB,
	SA_REQ_NR_TABLE,  /* NodeRecord GetTable */
	SA_REQ_PIR_TABLE, /* PortInfoRecord GetTable */
	SA_REQ_MCM_TABLE, /* MCMemberRecord GetTable */
	SA_REQ_NR_LID,	  /* NodeRecord Get by LID (walk) */
	SA_REQ_PIR_LID,	  /* PortInfoRecord Get by LID and port */
	SA_REQ_MCM_MLID,  /* MCMemberRecord GetTable by MLID (walk) */
	SA_REQ_GIR_TABLE, /* GUIDInfoRecord GetTable: alias GUIDs */
	SA_REQ_GIR_LID,	  /* GUIDInfoRecord GetTable by LID (walk) */
	SA_REQ_NR_GUID,	  /* trap 64: NodeRecord by PortGUID */
	SA_REQ_MCM_MGID,  /* trap 66: MCMemberRecord GetTable by MGID */
	SA_REQ_JOIN,
	SA_REQ_LEAVE,
	SA_REQ_AD_SET, /* ServiceRecord Set: a route announcement (sa_announce.c) */
	SA_REQ_AD_DEL,
	SA_REQ_PEER_GET,   /* ServiceRecord Get: a record of another router (sa_peers.c) */
	SA_REQ_PEER_SCAN,  /* ServiceRecord GetTable: every router's record 0 (sa_peers.c) */
	SA_REQ_PEER_PROBE, /* ServiceRecord Get: record 0 of one end port (tables cut) */
};

/* One request in flight: its context, freed by its callback. */
struct sa_req {
	LIST_ENTRY(sa_req) link;
	struct sa_client *c; /* NULL once the client is gone */
	enum sa_req_kind kind;
	unsigned int gen; /* the sync it belongs to (stale results are dropped) */
	uint64_t tid;
	uint16_t lid;
	uint8_t port;
	uint8_t gid[16];
	uint32_t seq; /* SA_REQ_PEER_*: the read or scan it belongs to */
};

LIST_HEAD(sa_req_list, sa_req);

/* A LID or MLID walk: requests in a window, ended by a gap of empty answers. */
struct sa_walk {
	bool active;
	uint32_t next, last_found, first, max;
	unsigned int inflight;
};

struct sa_client {
	struct mad_chan *chan;
	struct sa_client_config cfg;
	struct sa_client_ops ops;
	void *arg;
	char name[48];
	struct ibr_ratelimit report_rl; /* Reports not from the SM: a warning each, rate-limited */
	enum sa_client_phase phase;
	struct sa_port_state ps;
	bool have_port, have_guid, poll_inflight;
	uint64_t next_poll, next_resync, next_retry;
	struct sa_req_list reqs;
	struct sa_neigh_vec cur_n, new_n;
	struct sa_group_vec cur_g, new_g;
	/* the sync in progress */
	unsigned int gen, pending;
	int sync_err;
	bool sync_again;
	uint64_t sync_start;
	struct sa_walk lids, mlids;
	struct sa_client_stats st;
	/* route announcements (sa_announce.c) */
	struct {
		struct sa_route_ad *v;
		size_t n;
		uint32_t lease_s, gen;
		unsigned int regd;   /* records Set at the last send: Deletes past the new count */
		uint64_t next;	     /* the next refresh (0: nothing to announce) */
		uint64_t seen_syncs; /* st.syncs when last sent: a sync since means send again */
		uint32_t beat;	     /* the refresh count (ServiceData32[1]) */
		bool dirty;
	} ad;
	/* the other routers' records (sa_peers.c) */
	struct {
		struct sa_peer *v;
		size_t n, cap;
		uint32_t interval_ms, seq;
		/* the scan for routers: their records 0 (a GetTable, or probes when cut) */
		uint64_t scan_next_ns; /* the next one (an interval after the last start) */
		uint32_t scan_seq;     /* the one in flight: older answers are dropped */
		unsigned int probes;   /* probes of the scan still unanswered */
		size_t probe_at;       /* where the next probe round starts in cur_n */
		bool scan_busy, scan_again;
		bool scan_failing; /* said once until a scan works again */
		bool cut;	   /* a scan came back cut (no RMPP): probe from now on */
	} peers;
	/*
	 * What the bottom (sa_io.c) calls above it, set by sa_client_new():
	 * the dispatcher of the answers (each request's callback), and the
	 * peers' look at a changed neighbour table (sa_changed).  Pointers,
	 * so that calls go one way: the dispatcher names its parts and the
	 * bottom, the bottom names neither.
	 */
	struct {
		mad_chan_resp_fn result;
		void (*neighs)(struct sa_client *c);
	} up;
};

/* ---- the bottom: sa_io.c and sa_tables.c (they call nothing above) ---- */

/* sa_io.c */
uint64_t sa_now(const struct sa_client *c);
/* Our port GID: the SM's prefix and our port GUID. */
void sa_own_gid(const struct sa_client *c, uint8_t gid[16]);
/* Send an SA request built in `mad` to the SM; the context is allocated here. */
int sa_send(struct sa_client *c, uint8_t *mad, enum sa_req_kind kind, const struct sa_req *tmpl);
/* A hop-0 directed-route Get of `attr` to our own port's SMA. */
int sa_send_smp(struct sa_client *c, uint16_t attr, enum sa_req_kind kind);
/* The neighbour table changed (neighs) or the groups: the peers, then the daemon. */
void sa_changed(struct sa_client *c, bool neighs, bool groups);

/* sa_tables.c */
struct sa_neigh *sa_neigh_find(struct sa_neigh_vec *t, uint64_t guid);
int sa_neigh_put(struct sa_neigh_vec *t, const struct sa_neigh *n);
bool sa_neigh_del(struct sa_neigh_vec *t, uint64_t guid);
struct sa_group *sa_group_find(struct sa_group_vec *t, const uint8_t mgid[16]);
struct sa_group *sa_group_get(struct sa_group_vec *t, const uint8_t mgid[16]);
bool sa_group_del(struct sa_group_vec *t, const uint8_t mgid[16]);

/* ---- the parts: the dispatcher (sa_client.c) calls them; they never call each other ---- */

/* sa_announce.c: the announcements' timer (from sa_client_tick), results, withdrawal at free */
void sa_ad_tick(struct sa_client *c, uint64_t now);
uint64_t sa_ad_deadline(const struct sa_client *c);
void sa_ad_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r);
void sa_ad_free(struct sa_client *c);

/* sa_peers.c: the other routers' records */
void sa_peers_tick(struct sa_client *c, uint64_t now);
uint64_t sa_peers_deadline(const struct sa_client *c);
void sa_peers_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r);
/* The neighbour table changed: routers come and go (c->up.neighs, before ops.changed). */
void sa_peers_routers(struct sa_client *c);
void sa_peers_free(struct sa_client *c);

/* sa_sync.c */
void sa_sync_start(struct sa_client *c, const char *why);
void sa_sync_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r);
void sa_sync_done_one(struct sa_client *c);
/*
 * Trap 64 / 66: query the one port or group; trap 65 / 67 are applied at once.
 * The Report handler (sa_client.c) passes only traps about our subnet: a port
 * GID of traps 64/65 with another subnet's prefix never gets here.
 */
void sa_sync_trap(struct sa_client *c, uint16_t trap, const uint8_t gid[16]);
void sa_trap_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r);
/* MCMemberRecords of one response into `t` (group parameters, members). */
void sa_groups_add_records(struct sa_client *c, struct sa_group_vec *t, const uint8_t *mad,
			   size_t len);

#endif
