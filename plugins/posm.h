/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm.h - libibrouter-osm.so, the OpenSM event plugin of ibrouter
 * (ibrouter-osm(8)): its parts and what they share.
 *
 *   posm_main.c   the osm_event_plugin symbol: create, delete, report()
 *   posm_opts.c   event_plugin_options
 *   posm_queue.c  batches of messages and the bounded queues they wait in
 *   posm_snap.c   OpenSM's subnet read into messages (snapshot, trap deltas)
 *   posm_conn.c   the plugin's thread: connections to ibrouterd, sending,
 *                 receiving prefix routes, timers
 *   posm_route.c  prefix routes: merged over routers, kept in OpenSM's list
 *   posm_mcast.c  the router port's joins and leaves (MCAST), made in OpenSM
 *   posm_mcast_check.c  what of an MCAST record is refused before OpenSM
 *   posm_rec.c    the routers' ServiceRecords: trusted or not, into routes
 *   posm_sr.c     those records read from OpenSM's SA, merged with the
 *                 daemons' routes
 *   posm_rtr.c    router ports on CA nodes in OpenSM's table of routers
 *   posm_watch.c  the membership watch: groups whose members changed
 *                 without a trap, found every watch_s seconds
 *   posm_watch_table.c  what the watch remembers of each group
 *   posm_log.c    the log (into OpenSM's) and the clock
 *
 * Threads (IBA-NOTES.md, OpenSM 3.3.23 source): report() runs on OpenSM's
 * threads -- the sweeper (SUBNET_UP, sweep events: OpenSM's lock free),
 * the dispatcher threads (TRAP: the lock held, read or write), and the
 * plugin's own thread too (TRAP: a router port's join it makes, the lock
 * held for writing, posm_mcast.c) -- and only copies what it needs and
 * queues it; the plugin's own thread does all I/O.
 * Lock order: OpenSM's lock, then route_lock; queue_lock is a leaf.
 */
#ifndef POSM_H
#define POSM_H

#include "lib/ibr_plug.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define POSM_NAME	  "ibrouter-osm"
#define POSM_SOCK_DEFAULT "/run/ibrouter/ibrouterd.sock"
#define POSM_SOCK_MAX	  8 /* routers (daemons) one plugin talks to */
#define POSM_SOCK_PATH	  108
#define POSM_SERVE_MAX	  16
#define POSM_ROUTES_MAX	  65536 /* prefix routes from one daemon */
#define POSM_WATCH_MAX	  65536 /* groups the watch follows; beyond: the refresh alone */
#define POSM_ROUTERS_MAX  64	/* routers= */

/* ---- options (posm_opts.c) ---- */

struct posm_opts {
	char sock[POSM_SOCK_MAX][POSM_SOCK_PATH];
	unsigned nsock;
	uint64_t serve[POSM_SERVE_MAX]; /* router port GUIDs; none: every one */
	unsigned nserve;
	int verbose;	    /* 0 errors, 1 changes (default), 2 more, 3 every message */
	unsigned queue;	    /* batches per queue (default 256) */
	unsigned refresh_s; /* a full snapshot every N s (default 30; 0 never) */
	unsigned watch_s;   /* the groups' members compared every N s (default 1; 0 never) */
	unsigned hold_s;    /* a vanished daemon's routes stay N s (default 60) */
	unsigned resweep_s; /* heavy sweeps asked for routes at most every N s (default 2; 0 never) */
	unsigned alive_s;   /* a daemon heard, then silent N s, is gone (default 10; 0 never) */
	unsigned sndbuf;    /* SO_SNDBUF of the connections (0: the kernel's) */
	/* the routers' ServiceRecords (posm_rec.c): trusted from these ports only */
	uint64_t routers[POSM_ROUTERS_MAX];
	unsigned nrouters;
	bool routers_any; /* routers=any: from every port (with srkey=, every keyed one) */
	bool srkey_set;	  /* srkey=: the ServiceKey every record must carry */
	uint8_t srkey[16];
	unsigned records_s; /* the records read every N s (default 2; 0 never) */
};

/*
 * Parse event_plugin_options: blank-separated key=value words (socket=PATH,
 * repeatable; ports=GUID[,GUID]; verbose=N; queue=N; refresh=S; watch=S;
 * hold=S; resweep=S; alive=S; sndbuf=BYTES; routers=GUID[,GUID]|any;
 * srkey=HEX32; records=S).  0 with `o` filled (defaults for what is absent), or -EINVAL
 * with a message in err.  Unknown keys are reported through `warn` (OpenSM
 * passes one option string to every plugin).
 */
int posm_opts_parse(const char *s, struct posm_opts *o, char *err, size_t errlen,
		    void (*warn)(void *ctx, const char *word), void *ctx);

/* ---- batches and queues (posm_queue.c) ---- */

/* Datagrams back to back (each one's length is in its header), shared by queues. */
struct posm_batch {
	atomic_uint ref;
	uint32_t nmsgs;
	size_t len;
	bool snapshot; /* a full snapshot: it makes older queued batches moot */
	uint8_t data[];
};

/* A growing buffer that the message packer emits into. */
struct posm_bbuf {
	uint8_t *buf;
	size_t len, cap;
	uint32_t nmsgs;
	int err;
};

int posm_bbuf_emit(void *ctx, const uint8_t *msg, size_t len); /* an ibr_plug_pack emit */
/* The buffer's messages as a batch (NULL when empty or out of memory); resets it. */
struct posm_batch *posm_bbuf_batch(struct posm_bbuf *b, bool snapshot);
void posm_bbuf_free(struct posm_bbuf *b);

struct posm_batch *posm_batch_ref(struct posm_batch *b);
void posm_batch_unref(struct posm_batch *b);
/* The length of the datagram at `off` in the batch (0 past the end). */
size_t posm_batch_msg_len(const struct posm_batch *b, size_t off);

/* A ring of batches, bounded in entries (no locking: the owner locks). */
struct posm_queue {
	struct posm_batch **v;
	unsigned cap, head, n;
	size_t bytes;
};

int posm_queue_init(struct posm_queue *q, unsigned cap);
void posm_queue_free(struct posm_queue *q);
/* Take a reference and queue; -ENOBUFS when full (the caller counts a drop). */
int posm_queue_push(struct posm_queue *q, struct posm_batch *b);
struct posm_batch *posm_queue_peek(const struct posm_queue *q);
/* Drop the head (its reference). */
void posm_queue_pop(struct posm_queue *q);
void posm_queue_clear(struct posm_queue *q);

/* ---- prefix routes (posm_route.c) ---- */

struct posm_route {
	uint64_t prefix; /* 0 with any = true: "*" */
	uint64_t guid;	 /* router port */
	uint32_t metric;
	bool any;
	/*
	 * Of a daemon that went away, kept for hold=S: a fallback only,
	 * installed for a prefix no connected daemon offers (a restart keeps
	 * its paths), never over one that does (another router takes over).
	 */
	bool held;
};

/* Counters of the last apply. */
struct posm_route_stats {
	uint32_t installed; /* our entries in OpenSM's list */
	uint32_t shadowed;  /* wanted, left out: an administrator's line has the prefix */
	uint32_t absent;    /* candidates whose router port OpenSM does not know */
	uint32_t applies;   /* times the list was rewritten */
};

/*
 * Make `list` (OpenSM's prefix_routes_list, a cl_qlist_t of
 * osm_prefix_route_t) hold the administrator's lines as they are plus, for
 * every prefix among the candidates `want` that no administrator's line
 * names, the candidate with the lowest metric (then the lowest GUID) whose
 * router port `present` says OpenSM knows; specific prefixes before every
 * administrator's line (a "*" of theirs must not hide them), our "*" last
 * and only when they have none.  Our entries are told from theirs without
 * trusting any pointer we kept (OpenSM frees the whole list when it re-reads
 * prefix_routes_file): see posm_route.c.  Caller holds OpenSM's lock for
 * writing, or is the only thread.  Returns the number of changes, -ENOMEM.
 */
int posm_route_apply(void *list, const struct posm_route *want, size_t n,
		     bool (*present)(void *ctx, uint64_t guid), void *ctx, const void *owner,
		     struct posm_route_stats *st);
/* Remove our entries from the list (unload). */
void posm_route_remove(void *list, const void *owner);
/* Our entry (for tests): the item is one posm_route_apply made for `owner`. */
bool posm_route_is_ours(const void *item, const void *owner);

/* ---- the router port's joins (posm_mcast_check.c; posm_mcast.c in OpenSM) ---- */

/* Why an MCAST record was refused: before OpenSM, then by OpenSM's rules. */
enum posm_mcast_why {
	POSM_MC_OK = 0,
	/* posm_mcast_check() */
	POSM_MC_NOT_MCAST,  /* mgid[0] != 0xFF */
	POSM_MC_JOIN_STATE, /* not 1 (FullMember), 4 (SendOnlyNonMember) nor 0 (leave) */
	POSM_MC_PKEY,	    /* low 15 bits 0 */
	POSM_MC_SL,	    /* > 15 */
	POSM_MC_MTU,	    /* not 0 nor an MTU code */
	POSM_MC_RATE,	    /* not 0 nor a rate code */
	POSM_MC_GUID,	    /* 0 */
	POSM_MC_NOT_SERVED, /* not in ports= */
	/* posm_mcast.c, inside OpenSM */
	POSM_MC_NOT_MASTER, /* OpenSM's SA would ignore the request */
	POSM_MC_NO_PORT,    /* OpenSM does not know the port */
	POSM_MC_NOT_ROUTER, /* not a Router node's port, nor a CA port trusted as a router's */
	POSM_MC_CREATE,	    /* OpenSM refused to create the group */
	POSM_MC_NO_GROUP,   /* a SendOnlyNonMember join of a group that does not exist */
	POSM_MC_MISMATCH,   /* components differ from the existing group's */
	POSM_MC_MTU_RATE,   /* MTU or rate differ from the group's */
	POSM_MC_PORT_CAPS,  /* the port cannot carry the group's MTU or rate */
	POSM_MC_PARTITION,  /* the port lacks the group's P_Key */
	POSM_MC_ADD,	    /* OpenSM could not add it */
	POSM_MC_NREASONS
};

/*
 * The checks of one MCAST record that need no OpenSM: a multicast GID, a
 * join state of 1 or 0, for a join a valid P_Key, SL, MTU and rate code,
 * a port GUID among `serve` (every one when nserve is 0).
 */
enum posm_mcast_why posm_mcast_check(const struct ibr_plug_mcast *r, const uint64_t *serve,
				     unsigned nserve);
const char *posm_mcast_why_name(enum posm_mcast_why why);

/* ---- what the membership watch remembers (posm_watch_table.c; posm_watch.c in OpenSM) ---- */

/* One group: its MGID and the digest of what the daemons are told of it. */
struct posm_watch_ent {
	uint8_t mgid[16];
	uint64_t digest;
};

/*
 * The groups of the last pass and of the pass under way, each an array in
 * MGID order -- the order OpenSM's table is walked in (compar_mgids() of
 * osm_subnet.c: memcmp) -- so that a pass is a merge of the two.
 */
struct posm_watch_table {
	struct posm_watch_ent *last, *cur;
	uint32_t nlast, ncur;
	uint32_t caplast, capcur; /* entries allocated */
	uint32_t at;		  /* the first entry of last not compared yet */
	uint32_t max;		  /* groups it may hold */
	bool seeded;  /* a whole pass went in since the last reset: what is new is told */
	bool seeding; /* this pass fills the table and tells nothing */
	bool off;     /* this pass (or the last) was called off: the table is reset */
};

/* What a pass found of one group. */
enum posm_watch_diff {
	POSM_WATCH_SAME,    /* as in the last pass (or seeding: nothing to tell) */
	POSM_WATCH_NEW,	    /* not in the last pass */
	POSM_WATCH_CHANGED, /* there, with another digest */
	POSM_WATCH_OFF,	    /* more than max groups, no memory, or out of order: reset */
};

void posm_watch_table_init(struct posm_watch_table *t, uint32_t max);
void posm_watch_table_free(struct posm_watch_table *t);
/* Forget every group: the next pass seeds the table again and tells nothing. */
void posm_watch_table_reset(struct posm_watch_table *t);
/* A pass over `count` groups starts; false (the table reset, off) when count > max. */
bool posm_watch_table_begin(struct posm_watch_table *t, size_t count);
/* The pass's next group (in ascending MGID order), with its digest. */
enum posm_watch_diff posm_watch_table_see(struct posm_watch_table *t, const uint8_t mgid[16],
					  uint64_t digest);
/*
 * The pass is over: each group of the last pass that this one did not see
 * is handed to gone(); returns how many.  After an OFF: nothing, and the
 * table stays to be seeded.
 */
unsigned posm_watch_table_end(struct posm_watch_table *t,
			      void (*gone)(void *ctx, const uint8_t mgid[16]), void *ctx);

/*
 * A group's digest, one 64-bit word at a time (start from 0; the order
 * counts): splitmix64's finaliser, every input bit moving every output
 * bit; the constant keeps a run of zero words from staying at 0.  Inline:
 * a pass calls it for every word of every member.
 */
static inline uint64_t posm_watch_digest(uint64_t h, uint64_t word)
{
	uint64_t x = h ^ word;

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return (x ^ (x >> 31)) + 0x9e3779b97f4a7c15ull;
}

/* ---- the routers' ServiceRecords (posm_rec.c) ---- */

/*
 * What a router port registers in its subnet's SA with learning {
 * announce-routes } (ibrouterd.conf(5); sa/sa_client.h, version 1): one
 * ServiceRecord per two prefixes, ServiceID POSM_REC_ID | index, ServiceGID
 * the port's GID, ServiceName POSM_REC_NAME, a lease.
 */
#define POSM_REC_ID	 0x1000140549520000ull
#define POSM_REC_ID_MASK 0xFFFFFFFFFFFF0000ull
#define POSM_REC_NAME	 "ibrouter.route-exchange.v1"
#define POSM_REC_VERSION 1
#define POSM_REC_SETS	 4096  /* records of one port's set (sa/sa_client.h SA_AD_MAX_RECS) */
#define POSM_REC_MAX	 65536 /* records read at once; beyond: the rest ignored */
#define POSM_REC_INF	 16    /* an announced metric this high is unreachable */
#define POSM_REC_LOGGED	 256   /* ports whose refusal was logged (then: verbose 2) */

/* One of those records as read from the SA (host order). */
struct posm_rec {
	uint64_t prefix;	 /* of the ServiceGID: the subnet of the port that registered it */
	uint64_t guid;		 /* of the ServiceGID: the router port that announces */
	uint16_t index;		 /* ServiceID's low 16 bits (and ServiceData16[0]) */
	uint16_t index16, total; /* ServiceData16[0], [1] */
	uint8_t version, n;	 /* ServiceData8[0], [1] */
	uint8_t plen[2], metric[2];
	uint64_t pfx[2];    /* ServiceData64[0]; ServiceData32[2..3] */
	uint32_t gen, beat; /* ServiceData32[0], [1] */
	uint32_t lease;	    /* ServiceLease as registered (seconds) */
	uint8_t key[16];    /* ServiceKey */
};

/*
 * Copy the records named POSM_REC_NAME out of OpenSM's SA (`list`: its
 * sa_sr_list, a cl_qlist_t of osm_svcr_t), those whose lease ended by now_s
 * (cl_get_time_stamp_sec(), OpenSM's clock) left out, at most POSM_REC_MAX
 * (*more then set).  *out is malloc'd (NULL when none).  The caller holds
 * OpenSM's lock.  0 or -ENOMEM.
 */
int posm_rec_collect(const void *list, uint32_t now_s, struct posm_rec **out, size_t *n,
		     bool *more);

/* Why the records of a port are not taken. */
enum posm_rec_why {
	POSM_REC_OK = 0,
	POSM_REC_OFF,	     /* no routers= option: no record is trusted */
	POSM_REC_NOT_LISTED, /* the port is not in routers= */
	POSM_REC_KEY,	     /* its ServiceKey is not srkey= */
	POSM_REC_SUBNET,     /* its ServiceGID's prefix is not this subnet's */
	POSM_REC_NOT_SERVED, /* not in ports= */
	POSM_REC_FORMAT,     /* not version 1, no lease, or a set that does not hold together */
};
const char *posm_rec_why_name(enum posm_rec_why why);

/*
 * The trust rule for records: a record counts only when the port that it
 * names in its ServiceGID is in this subnet, listed in routers= (or
 * routers=any), served (ports=), and, with srkey=, the record carries that
 * ServiceKey.  OpenSM lets any port register a record under any GID
 * (osm_sa_service_record.c checks only the P_Key), so the list bounds what
 * a hostile host can do to naming a listed port for a prefix; the key
 * (which the SA zeroes in its answers to requests without its SM_Key)
 * closes that too.
 */
enum posm_rec_why posm_rec_trust(const struct posm_opts *o, uint64_t subnet_prefix,
				 const struct posm_rec *r);

/*
 * A CA port is a router port for joins (posm_mcast.c) when routers= names
 * it (or is any), or the routes of the daemon that asks name it (a daemon
 * on the local socket speaks for its own ports).
 */
bool posm_rec_trust_port(const struct posm_opts *o, uint64_t guid, const struct posm_route *own,
			 size_t nown);

/* One router port whose records were read: what it announces, and whether it lives. */
struct posm_rec_port {
	uint64_t guid;
	uint32_t gen, beat, lease; /* of its record 0 */
	uint64_t beat_ns;	   /* when the refresh count last moved (or was first seen) */
	bool expired;		   /* the count stood still for 2/3 of the lease and a read */
	bool whole;		   /* a complete set was read once */
	bool seen;		   /* in this read */
	size_t n;
	struct posm_route *ads; /* its prefixes, metric as the daemons' (announced - 1) */
};

struct posm_recs {
	struct posm_rec_port *v;
	size_t n, cap;
	struct posm_route *routes; /* every live port's prefixes: the candidates */
	size_t nroutes;
	uint64_t logged[POSM_REC_LOGGED]; /* ports whose refusal was logged */
	unsigned nlogged;
	/* counters */
	uint64_t reads;
	uint32_t refused_ports; /* distinct ports refused (logged once each) */
	uint32_t refused_now;	/* records refused at the last read */
	uint32_t expired;	/* times a port's refresh count stopped */
};

/*
 * One read of the records (`v`, any order; sorted here): the ports' sets
 * updated, ports without records forgotten (deleted, or their lease ended:
 * failover), the candidates rebuilt.  say() gets each line to log with its
 * level (1 changes, 2 more).  Returns true when the candidates changed.
 * period_s: how often reads come (for the refresh count's deadline).
 */
bool posm_rec_update(struct posm_recs *s, const struct posm_opts *o, uint64_t subnet_prefix,
		     struct posm_rec *v, size_t n, uint64_t now_ns, unsigned period_s,
		     void (*say)(void *ctx, int level, const char *msg), void *ctx);
void posm_rec_free(struct posm_recs *s);

/*
 * The wanted routes: the daemons' (`sock`, held ones marked) and, for each
 * router port that no connected daemon's route names, its records' (the
 * socket is the faster path; the records fill in for routers not
 * connected).  *out is malloc'd (NULL when empty); its length, or SIZE_MAX
 * out of memory.
 */
size_t posm_rec_merge(const struct posm_route *sock, size_t nsock, const struct posm_route *rec,
		      size_t nrec, struct posm_route **out);

#endif
