/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client.h - the SA client of one router port (libsa): learns the port's
 * own LID, SM LID and subnet prefix, the subnet's end ports (port GUID ->
 * LID, LMC) and its multicast groups from the subnet's SA (OpenSM), keeps
 * them current from InformInfo Reports (traps 64-67), and resyncs in full
 * at start, on an SM change, after SA timeouts and on an interval.
 *
 * It runs on a struct mad_chan (shared with the SMA) and owns no file
 * descriptor: the daemon calls sa_client_tick() from its event loop (the
 * channel's callbacks drive everything else).  Results reach the daemon
 * through struct sa_client_ops: the client never touches the router's
 * tables (modules talk only through the daemon: doc/ARCHITECTURE.md,
 * Modules, Boundaries).
 *
 * GetTable responses cut after their first MAD by a transport without RMPP
 * (ibsim/umad2sim) are detected by the channel (-EMSGSIZE); the client then
 * walks LIDs (NodeRecord and PortInfoRecord Gets) and MLIDs (one
 * MCMemberRecord GetTable per MLID) instead, stopping after a run of empty
 * answers past the last one found.
 *
 * IBA vol. 1: 15.2.5 (SA records), 13.4.8 (Notice, InformInfo), 14.2.5.1
 * (traps 64-67), 13.4.6.1 (every Report acknowledged with ReportResp).
 */
#ifndef SA_SA_CLIENT_H
#define SA_SA_CLIENT_H

#include "mad/mad_chan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sa_client;

/* The router port as its subnet sees it (a hop-0 PortInfo and NodeInfo). */
struct sa_port_state {
	uint16_t lid, sm_lid;
	uint8_t lmc;
	uint8_t state;	    /* PortInfo PortState: 4 = active */
	uint64_t prefix;    /* GidPrefix, host order */
	uint64_t port_guid; /* ours: never a neighbour */
	uint8_t sm_sl;
	/* what the port is to its SM (hop-0 NodeInfo): 1 a CA (an HCA's port: its
	 * firmware answers the SMPs), 3 a Router node (the SMA, or ibsim's Rt); 0 not read */
	uint8_t node_type;
};

/* An end port of the subnet (NodeRecord + PortInfoRecord). */
struct sa_neigh {
	uint64_t guid; /* port GUID */
	uint16_t lid;  /* base LID */
	uint8_t lmc;
	uint8_t node_type; /* 1 CA, 2 switch, 3 router */
	uint8_t port_num;
};

/* A multicast group of the subnet (MCMemberRecords of one MGID). */
struct sa_group {
	uint8_t mgid[16];
	uint16_t mlid;
	uint32_t qkey;
	uint16_t pkey;
	uint8_t sl, tclass, mtu, rate, scope;
	uint32_t flowlabel;
	unsigned members; /* member records seen, ours excluded */
	bool receivers;	  /* a member other than us receives (Full or NonMember) */
	bool senders;	  /* a member other than us may send */
	bool ours;	  /* we are a member */
};

enum sa_client_phase {
	SA_PHASE_DOWN,	  /* no LID or no SM yet: polling our PortInfo */
	SA_PHASE_SYNC,	  /* full sync in progress */
	SA_PHASE_READY,	  /* synced, following Reports */
	SA_PHASE_BACKOFF, /* the last sync failed: retry later */
};

struct sa_client_stats {
	uint64_t syncs, sync_failures, reports, reports_ignored, queries, query_timeouts,
		truncated_tables, port_polls, sm_changes, joins, leaves;
	/* route announcements (sa_client_announce): Sets and Deletes sent, refused or lost */
	uint64_t ad_sets, ad_deletes, ad_failures;
	/* the other routers' announcements (sa_client_peers): records read, reads that failed
	 * (lost, refused, or a set that changed while read; scans and probes too), records
	 * refused (not version 1, malformed, not what was asked), peers whose records stopped
	 * being refreshed (expired); scans for the routers (GetTables of every set's record 0,
	 * or rounds of probes), probes (Gets of one end port's record 0, where tables are cut) */
	uint64_t peer_records, peer_read_failures, peer_refused, peer_expired;
	uint64_t peer_scans, peer_probes;
	uint64_t last_sync_ns;	    /* duration of the last complete sync */
	uint64_t last_sync_done_ns; /* when it completed (the config clock) */
	bool subscribed;
	bool table_mode; /* false once a truncated table was seen */
};

/* What the client tells the daemon.  Every callback is optional. */
struct sa_client_ops {
	/* Our port's LID, SM LID, prefix or state changed (or was learned). */
	void (*port)(void *arg, const struct sa_port_state *ps);
	/* The neighbour or group tables changed: read them with sa_client_neighs()/groups(). */
	void (*changed)(void *arg, bool neighs, bool groups);
	/* A trap was applied (for logs and the convergence benchmark). */
	void (*report)(void *arg, uint16_t trap, const uint8_t gid[16]);
	/* The other routers' announcements changed: read them with sa_client_peers(). */
	void (*peers)(void *arg);
};

struct sa_client_config {
	const char *name;	 /* for logs: "sa: port b: ..." */
	uint64_t sm_key;	 /* SA SM_Key: member lists need OpenSM's sa_key */
	uint32_t poll_ms;	 /* own PortInfo poll (default 1000) */
	uint32_t resync_ms;	 /* full resync interval (0 = never; default 60000) */
	uint32_t backoff_ms;	 /* retry after a failed sync (default 1000) */
	unsigned int walk_gap;	 /* empty LIDs/MLIDs ending a walk (default 64) */
	uint16_t walk_max_lid;	 /* last unicast LID walked (default 0xBFFF) */
	uint16_t walk_max_mlids; /* MLIDs walked from 0xC000 (default 0x400) */
	/*
	 * The ServiceKey of the route announcements (all zero: none): a reader
	 * that knows it (the OpenSM plugin's srkey=) takes only records with it.
	 */
	uint8_t ad_key[16];
	uint64_t (*clock)(void *arg); /* monotonic ns; default ibr_now_ns() */
	void *clock_arg;
};

/*
 * A client on channel `chan` (not owned).  It installs the channel's SA-class
 * handler (Reports).  Starts by polling the port at once.  NULL on ENOMEM.
 */
struct sa_client *sa_client_new(struct mad_chan *chan, const struct sa_client_config *cfg,
				const struct sa_client_ops *ops, void *arg);
/* Unsubscribes (best effort, no wait), cancels its requests, frees. */
void sa_client_free(struct sa_client *c);

/* Run timers (port poll, resync interval, backoff).  Call after mad_chan_tick(). */
void sa_client_tick(struct sa_client *c, uint64_t now_ns);
/* The earliest time sa_client_tick() has work, UINT64_MAX when none. */
uint64_t sa_client_next_deadline(const struct sa_client *c);
/* Resync now (an SM change seen elsewhere: ClientReregister from the SMA, a CLI command). */
void sa_client_resync(struct sa_client *c, const char *why);

enum sa_client_phase sa_client_phase(const struct sa_client *c);
const char *sa_client_phase_name(enum sa_client_phase p);
const struct sa_port_state *sa_client_port(const struct sa_client *c);
const struct sa_client_stats *sa_client_stats(const struct sa_client *c);
/* The current tables (valid until the next callback or tick). */
size_t sa_client_neighs(const struct sa_client *c, const struct sa_neigh **v);
size_t sa_client_groups(const struct sa_client *c, const struct sa_group **v);

/*
 * Join (Set) or leave (Delete) MCMemberRecord `mgid` with `join_state`
 * (IBR_SA_JOIN_*) as our port; `tmpl` gives the group's parameters when the
 * join may create it (Q_Key, P_Key, SL, TClass, FlowLabel, MTU, rate), else
 * NULL.  Asynchronous: the result shows in the group table.  0 or -errno.
 */
int sa_client_join(struct sa_client *c, const uint8_t mgid[16], uint8_t join_state,
		   const struct sa_group *tmpl);
int sa_client_leave(struct sa_client *c, const uint8_t mgid[16], uint8_t join_state);

/*
 * Route announcements to the other routers of the subnet (issue 20: route
 * exchange through the SA).  Version 1 of the records, one ServiceRecord
 * (15.2.5.14) per SA_AD_PER_REC prefixes, registered as our port:
 *   ServiceID     SA_AD_SERVICE_ID | index (0 .. records-1)
 *   ServiceGID    our port GID; ServiceP_Key 0xFFFF; ServiceLease lease_s
 *   ServiceName   SA_AD_SERVICE_NAME, NUL-padded to 64 bytes
 *   ServiceData8  [0] format version (1), [1] prefixes in this record (1..2),
 *                 [2 + i] prefix i's length (0..64), [4 + i] its metric
 *   ServiceData16 [0] this record's index, [1] the records of the set
 *   ServiceData32 [0] the set's generation (it grows with every change),
 *                 [1] the refresh count (it grows with every Set of the set:
 *                 the SA answers a record's lease as it was set, not what
 *                 is left of it, so a reader tells a live announcer from
 *                 a dead one by this count), [2] and [3] prefix 1's upper
 *                 and lower 32 bits
 *   ServiceData64 [0] prefix 0 (the upper 64 bits of the GID, host order
 *                 here, big-endian on the wire as every SA field); [1] unused
 * Nothing past ServiceData64[0] (record byte 168, MAD byte 224): OpenSM in
 * the ibsim lab stores bytes 224..255 of a MAD it receives through
 * umad2sim as something else (measured: 0x3001000000000000 where a zero was
 * sent; tests/lab/lab_announce.sh), so the format does not depend on them.
 * The ServiceID base is 0x10 (an external organisation's range, IBA
 * Annex A3) followed by the OpenFabrics OUI 0x001405 and "IR": provisional
 * until the OUI's holder agrees.
 */
#define SA_AD_SERVICE_ID   0x1000140549520000ull
#define SA_AD_SERVICE_NAME "ibrouter.route-exchange.v1"
#define SA_AD_VERSION	   1
#define SA_AD_PER_REC	   2
#define SA_AD_MAX_RECS	   4096 /* 8192 prefixes a port */

struct sa_route_ad {
	uint64_t prefix; /* host order */
	uint8_t plen;	 /* 0..64 */
	uint8_t metric;	 /* hops to the prefix from this router */
};

/*
 * Announce `n` prefixes (copied) on this port with a lease of lease_s
 * seconds (1..0xFFFFFFFE): Set once the port has its LID and SM, again every
 * lease_s / 3 s and after every full sync (a new SM has no records), records
 * no longer used deleted.  n = 0 withdraws them all.  0, -EINVAL (lease 0 or
 * indefinite, more than SA_AD_MAX_RECS records, a length past 64), -ENOMEM.
 * sa_client_free() deletes what is registered.
 */
int sa_client_announce(struct sa_client *c, const struct sa_route_ad *v, size_t n,
		       uint32_t lease_s);
/* The records registered now (those Set at the last send). */
unsigned int sa_client_announced(const struct sa_client *c);

/*
 * The other routers of the subnet and what they announce.  A router is an
 * end port of the neighbour table, not ours, of any NodeType (an HCA's port
 * is a CA to its SM: the firmware answers the SMPs), found by its own
 * records: a scan reads record 0 of every set with one GetTable (ServiceID
 * SA_AD_SERVICE_ID | 0, ServiceName; long answers come back whole through
 * RMPP), or, where the transport cuts tables after one MAD (umad2sim), with
 * a Get of record 0 by RID to each end port not yet a peer (at most 256 a
 * scan, the next scan going on from there).  A scan runs when the
 * neighbour table changes (a sync, a trap 64) and every interval.  Each
 * peer's records are read with Gets by RID (ServiceID, its port GID, P_Key
 * 0xFFFF), record 0 first, the others after it as record 0 counts them, all
 * of one generation or the read is dropped: at once when found, then every
 * interval.  A peer stays while its port is in the neighbour table (one
 * whose records are gone announces nothing: it withdrew) and is forgotten
 * when it leaves (trap 65, a sync without it).  A peer whose refresh count
 * has not moved for two thirds of its lease plus one interval (an
 * announcer Sets every third: one refresh may be lost) is expired: its
 * prefixes are dropped until the count moves again (it is dead but its
 * records outlive it at the SA, up to their lease).
 */
struct sa_peer {
	uint64_t guid; /* the router port's GUID */
	uint16_t lid;
	uint8_t lmc;
	bool read;		/* its records were read whole once (or it has none) */
	bool expired;		/* the refresh count stopped: ad dropped (n = 0) */
	uint32_t lease_s;	/* of its record 0 */
	uint32_t gen, beat;	/* ServiceData32[0] and [1] of its record 0 */
	uint64_t beat_ns;	/* when beat was last seen to change */
	uint64_t read_ns;	/* the last complete read */
	uint64_t next_read_ns;	/* the next read (an interval after the last start) */
	uint64_t since_ns;	/* first seen in the neighbour table */
	size_t n;		/* prefixes announced */
	struct sa_route_ad *ad; /* they, metric as announced (16: unreachable) */
	/* the read in progress (the client's) */
	struct sa_route_ad *rd;
	size_t rd_n, rd_cap;
	unsigned int rd_total, rd_next;
	uint32_t rd_gen, rd_beat, rd_lease, rd_seq;
	bool rd_busy;
};

/* The peers (valid until the next callback or tick). */
size_t sa_client_peers(const struct sa_client *c, const struct sa_peer **v);
/* Read the peers every interval_ms (0: never, and forget them). */
void sa_client_peer_interval(struct sa_client *c, uint32_t interval_ms);

#endif
