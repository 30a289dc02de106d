/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_osm.h - the plugin's state inside OpenSM (built against the OpenSM
 * headers of the same version as the OpenSM that loads it: its structures
 * are read directly).
 */
#ifndef POSM_OSM_H
#define POSM_OSM_H

#include "plugins/posm.h"

/*
 * First: it says how this OpenSM was built (ENABLE_OSM_PERF_MGR, ...), and
 * osm_subnet.h and osm_opensm.h lay their structures out by it without
 * including it themselves.  Without it every field after the first #ifdef
 * is read at the wrong offset.
 */
#include <opensm/osm_config.h>

#include <opensm/osm_opensm.h>

/* ---- router ports on CA nodes in OpenSM's table of routers (posm_rtr.c) ---- */

struct posm_rtr_stats {
	uint32_t ours;	  /* our entries in the table (last sync) */
	uint32_t unknown; /* GUIDs named that are in no port of OpenSM's (last sync) */
	uint32_t not_ca;  /* GUIDs of a switch port (last sync): no entry made */
	uint64_t added, removed, repointed; /* since the plugin started */
};

enum posm_rtr_note {
	POSM_RTR_ADDED,	    /* an entry of ours made (a port that came, or came back) */
	POSM_RTR_REMOVED,   /* one of ours taken out (no route names it) */
	POSM_RTR_REPOINTED, /* one of ours pointed at the port OpenSM has now */
	POSM_RTR_UNKNOWN,   /* a GUID no port of OpenSM's has */
	POSM_RTR_NOT_CA,    /* a GUID of a switch's port: left out */
};

/*
 * Make the table of routers (s->rtr_guid_tbl) hold an entry of ours for
 * each GUID of `guids` (sorted, host order) that is a port of a CA node in
 * OpenSM's table of ports, pointing at that port, and no entry of ours
 * for any other GUID; never touch an entry that is not ours.  note() hears
 * of every change and of every GUID that cannot have one.  The caller holds
 * OpenSM's lock for writing.  The number of changes, or -ENOMEM (the table
 * consistent, some entries missing).
 */
int posm_rtr_sync(osm_subn_t *s, const uint64_t *guids, size_t n, const void *owner,
		  struct posm_rtr_stats *st,
		  void (*note)(void *ctx, enum posm_rtr_note what, uint64_t guid), void *ctx);
/* Take all of ours out and free them (unload): how many; OpenSM's lock held for writing. */
unsigned posm_rtr_remove(osm_subn_t *s, const void *owner);
/* The entry is one posm_rtr_sync made for `owner` (what tells ours from OpenSM's). */
bool posm_rtr_is_ours(const void *entry, const void *owner);

#define POSM_UNKNOWN_MAX 64

/* A connection to one ibrouterd (posm_conn.c; the plugin thread's only). */
enum posm_conn_state {
	POSM_DOWN,  /* waiting to (re)connect */
	POSM_HELLO, /* "plugin hello" sent, its reply awaited */
	POSM_UP,    /* binary messages both ways */
};

struct posm_conn {
	char path[POSM_SOCK_PATH];
	char router[64]; /* the daemon's name, from its reply */
	int fd;
	enum posm_conn_state state;
	uint64_t retry_ns;   /* next connect attempt */
	uint64_t hello_ns;   /* when the hello went out */
	unsigned backoff_ms; /* doubles to 30 s while the daemon stays away */
	struct posm_queue q;
	size_t off;	/* bytes of the head batch already sent */
	bool want_snap; /* a full snapshot is owed (new connection, drops, refresh) */
	uint32_t seq;
	/* the prefix routes it announced; kept hold_s after it went away */
	struct posm_route *routes, *staging;
	size_t nroutes, nstaging;
	bool staging_bad;
	uint64_t down_ns; /* when it went away; 0 while up or never up */
	uint64_t rx_ns;	  /* when it last sent anything */
	bool alive;	  /* it answers STATS with ALIVE: its silence means it is stuck */
	/* counters */
	uint64_t enqueued, dropped, sent;
	uint32_t snapshots, connects;
	uint64_t drop_log_ns, drops_logged;
};

struct posm {
	osm_opensm_t *osm;
	struct posm_opts o;
	bool conf_file; /* OpenSM re-reads prefix_routes_file at heavy sweeps */
	pthread_t thread;
	bool started;
	int efd; /* eventfd: report() wakes the thread */
	atomic_bool stop;
	/* report() -> thread */
	pthread_mutex_t qlock;
	struct posm_queue inbox;
	atomic_bool snap_wanted; /* report() could not queue something: resync */
	_Atomic uint64_t events, inbox_drops;
	atomic_uint snap_gen;
	/* the thread's */
	struct posm_conn conn[POSM_SOCK_MAX];
	unsigned nconn;
	uint64_t next_refresh_ns, next_stats_ns;
	/* prefix routes wanted (thread writes; the sweeper reads): under route_lock */
	pthread_mutex_t route_lock;
	struct posm_route *want;
	size_t nwant;
	uint64_t want_gen, applied_gen;
	struct posm_route_stats rst;
	struct posm_route_stats
		logged; /* the counts last logged (sweeper thread, or ours when alone) */
	uint32_t sweeps;
	uint64_t sweep_ns; /* when we last asked OpenSM for a heavy sweep */
	bool sweep_owed;   /* routes changed since the last heavy sweep we saw */
	uint64_t route_log_gen;
	/* the router port's joins (posm_mcast.c; the thread's, read at unload) */
	uint64_t mc_joins, mc_leaves, mc_refused;
	uint64_t mc_log_ns; /* the refusals' log: this window's start, its lines */
	unsigned mc_logged;
	/* router ports of CA nodes in OpenSM's table of routers (posm_rtr.c; under OpenSM's lock) */
	struct posm_rtr_stats rtr;
	uint64_t unknown[POSM_UNKNOWN_MAX]; /* GUIDs routes name that OpenSM does not know, logged */
	unsigned nunknown;
	uint64_t unknown_logs; /* such GUIDs logged (each once while it stays unknown) */
	/* the routers' ServiceRecords (posm_sr.c; the thread's) */
	struct posm_recs recs;
	uint64_t rec_next_ns, rec_last_ns;
	atomic_bool rec_due; /* a sweep ended: read them soon */
	bool rec_more_logged;
	/* the membership watch (posm_watch.c; the thread's) */
	struct posm_watch_table watch;
	uint64_t watch_ns;		   /* the next pass */
	uint64_t watch_passes, watch_told; /* passes made, groups told (changed or gone) */
};

/* posm_log.c: the log and the clock (they call no other file of the plugin) */
/* Log into OpenSM's log when `level` <= verbose (0 goes out as an error). */
void posm_log(struct posm *p, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
uint64_t posm_now_ns(void);

/* posm_snap.c: OpenSM's subnet into messages (into b, via the packer) */
/* The whole subnet; the caller holds OpenSM's lock as reader. */
int posm_snap_take(struct posm *p, struct posm_bbuf *b);
/* One trap's delta (64-67 from the SM; others: 0 and nothing); OpenSM holds its lock. */
int posm_snap_trap(struct posm *p, const ib_mad_notice_attr_t *n, struct posm_bbuf *b);
/*
 * One group as it is now: its GROUP chain when it has members, otherwise
 * a GROUPS_DEL of its MGID; the caller holds OpenSM's lock (reader at least).
 */
int posm_snap_group(struct posm *p, const uint8_t mgid[16], struct posm_bbuf *b);
/* A GROUPS_DEL of one MGID (no lock needed). */
int posm_snap_group_del(const uint8_t mgid[16], struct posm_bbuf *b);
/* The HELLO for a connection. */
int posm_snap_hello(struct posm *p, struct posm_bbuf *b, uint32_t *seq);
/* The STATS for a connection. */
int posm_snap_stats(struct posm *p, const struct posm_conn *c, struct posm_bbuf *b, uint32_t *seq);

/* posm_conn.c: the plugin's thread */
int posm_conn_start(struct posm *p);
void posm_conn_stop(struct posm *p);
void posm_wake(struct posm *p);
/*
 * Queue b's messages for every daemon, behind what waits in the inbox (any
 * thread; no plugin mutex held).  rc: how building them went; when it
 * failed, or the inbox is full, nothing is queued and every daemon is owed
 * a snapshot instead.  Empty and rc 0: nothing to do.
 */
void posm_inbox_put(struct posm *p, struct posm_bbuf *b, bool snapshot, int rc);

/*
 * posm_watch.c: the membership watch (the plugin's thread).  When due
 * (every watch_s seconds), with a daemon up: one pass over OpenSM's groups
 * under its lock (reader), into b the state of each group that changed
 * since the last pass and the MGID of each gone.  0, or 1 when every
 * daemon up must get a snapshot instead (the table was seeded anew, or a
 * message could not be built).
 */
int posm_watch_pass(struct posm *p, uint64_t now, struct posm_bbuf *b);

/*
 * posm_mcast.c: one MCAST message from the daemon of connection `c`: each
 * record's join or leave of a router port (a Router node's, or a CA port
 * that posm_rec_trust_port() takes for one), made inside OpenSM under its
 * lock (taken here, for writing; no plugin mutex may be held: OpenSM
 * reports the traps it sends to report() on this thread), then into b the
 * state of every group a record named.  0, or -ENOMEM when b could not
 * hold it all.
 */
int posm_mcast_apply(struct posm *p, const struct posm_conn *c, const struct ibr_plug_msg *m,
		     struct posm_bbuf *b);

/*
 * posm_sr.c: the routers' ServiceRecords read from OpenSM's SA (the
 * plugin's thread).  Enabled by routers= (and records= not 0).
 */
bool posm_sr_enabled(const struct posm *p);
/* A sweep ended (report(), any thread): read them soon. */
void posm_sr_sweep(struct posm *p);
/* On the thread's timer: read them when due; a change merges the routes again. */
void posm_sr_tick(struct posm *p, uint64_t now);

/*
 * posm_conn.c: the wanted routes again from every daemon's set and the
 * records' (posm_rec_merge), and into OpenSM when they changed (the
 * plugin's thread).
 */
void posm_routes_merge(struct posm *p);

/* posm_osm.c: the plugin's changes inside OpenSM */
/* Bring OpenSM's prefix routes in line with p->want; the caller holds OpenSM's lock for writing. */
void posm_osm_apply_locked(struct posm *p);
/* On the sweeper thread (sweep events): re-apply (the list may have been re-read). */
void posm_osm_on_sweep(struct posm *p);
/* The wanted routes changed (thread): apply now, or ask for a heavy sweep. */
void posm_osm_routes_changed(struct posm *p);
/* Called on the thread's timer: a heavy sweep owed and not asked yet. */
void posm_osm_tick(struct posm *p, uint64_t now);

#endif
