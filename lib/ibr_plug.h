/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_plug.h - the messages between the OpenSM plugin (libibrouter-osm.so,
 * ibrouter-osm(8)) and ibrouterd, on the daemon's control socket.
 *
 * The plugin connects like ibrouterctl and sends the text request
 * "plugin hello 1" (lib/ibr_ctl.h framing); after the daemon's
 * {"ok":true,...} reply the connection carries only these binary messages,
 * one per SOCK_SEQPACKET datagram, both ways.  Every message starts with a
 * 16-byte header, all fields in network byte order:
 *
 *   0  magic    u16  0x4950 ("IP")
 *   2  version  u8   IBR_PLUG_VERSION
 *   3  type     u8   enum ibr_plug_type
 *   4  flags    u16  IBR_PLUG_F_MORE: the next message continues this one
 *   6  count    u16  records after the fixed part
 *   8  length   u32  bytes of the whole message, header included
 *  12  seq      u32  the sender's message number (gaps: the plugin dropped)
 *
 * then the type's fixed part and `count` records of the type's record size.
 * The length must equal the datagram's and 16 + fixed + count * record; a
 * message that breaks that is refused whole.  A receiver skips a well-formed
 * message of a type it does not know (newer peers), so types can be added
 * within a version; any change to a known layout bumps the version.
 */
#ifndef IBR_PLUG_H
#define IBR_PLUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IBR_PLUG_VERSION 1
#define IBR_PLUG_MAGIC	 0x4950
#define IBR_PLUG_HDR_LEN 16
#define IBR_PLUG_MSG_MAX 32768 /* one datagram; the socket buffers hold several */
#define IBR_PLUG_F_MORE	 0x0001

enum ibr_plug_type {
	/* plugin -> daemon */
	IBR_PLUG_HELLO = 1, /* who: OpenSM version, subnet, SM, ports it serves (guid records) */
	IBR_PLUG_SNAP_BEGIN = 2, /* a full snapshot follows */
	IBR_PLUG_PORTS = 3,	 /* end ports (in a snapshot, or added: trap 64) */
	IBR_PLUG_PORTS_DEL = 4,	 /* end ports gone (trap 65): guid records */
	IBR_PLUG_GROUP = 5,	 /* one multicast group and members (snapshot, trap 66) */
	IBR_PLUG_GROUPS_DEL = 6, /* groups gone (trap 67): mgid records */
	IBR_PLUG_SNAP_END = 7,	 /* the snapshot is complete */
	IBR_PLUG_STATS = 8,	 /* the plugin's counters; also its heartbeat */
	/* daemon -> plugin */
	IBR_PLUG_ROUTES = 64, /* every prefix the router reaches through its ports here */
	IBR_PLUG_MCAST = 65,  /* the router port's joins and leaves, made inside OpenSM */
	IBR_PLUG_ALIVE = 66,  /* the answer to each STATS: the daemon reads (no fixed part) */
};

/* A parsed message: pointers into the caller's buffer. */
struct ibr_plug_msg {
	uint8_t type;
	uint16_t flags;
	uint16_t count;
	uint32_t seq;
	uint32_t len;
	const uint8_t *fixed; /* the type's fixed part */
	const uint8_t *recs;  /* count records of recsz bytes */
	size_t recsz;
	bool known; /* a type this side knows */
};

/*
 * Check one datagram and split it.  0; -EBADMSG (bad magic, length or
 * layout), -EPROTONOSUPPORT (another version).  A well-formed message of an
 * unknown type returns 0 with known = false.
 */
int ibr_plug_parse(const uint8_t *buf, size_t len, struct ibr_plug_msg *m);
/* The fixed and record sizes of a type; false when the type is unknown. */
bool ibr_plug_layout(uint8_t type, size_t *fixed, size_t *recsz);
const char *ibr_plug_type_name(uint8_t type);
/* Write a header at buf (16 bytes). */
void ibr_plug_hdr_put(uint8_t *buf, uint8_t type, uint16_t flags, uint16_t count, uint32_t len,
		      uint32_t seq);

/* ---- fixed parts and records, host order ---- */

#define IBR_PLUG_OSMVER_LEN  32 /* NUL-padded; a full-length string has no NUL */
#define IBR_PLUG_PLUGVER_LEN 16

enum ibr_plug_hello_flag {
	IBR_PLUG_HELLO_MASTER = 1 << 0,	  /* OpenSM is the master SM */
	IBR_PLUG_HELLO_CONFFILE = 1 << 1, /* it runs with a config file (routes need sweeps) */
	IBR_PLUG_HELLO_MCAST = 1 << 2,	  /* it makes MCAST joins (an older plugin skips them) */
	/* and SendOnlyNonMember ones (join state 4; an older plugin refuses them) */
	IBR_PLUG_HELLO_MCAST_SENDONLY = 1 << 3,
};

struct ibr_plug_hello { /* fixed part: 80 bytes; records: served port GUIDs (8) */
	char osm_version[IBR_PLUG_OSMVER_LEN + 1];
	char plugin_version[IBR_PLUG_PLUGVER_LEN + 1];
	uint64_t subnet_prefix;
	uint64_t sm_guid;
	uint16_t sm_lid;
	uint8_t sm_state; /* IBA SMInfo state: 0 not active .. 3 master */
	uint8_t flags;	  /* enum ibr_plug_hello_flag */
	uint32_t pid;	  /* OpenSM's */
	uint32_t queue_max;
};
#define IBR_PLUG_HELLO_LEN 80

struct ibr_plug_snap { /* SNAP_BEGIN and SNAP_END fixed part: 24 bytes */
	uint32_t gen;
	uint32_t nports; /* END: records sent */
	uint32_t ngroups;
	uint64_t subnet_prefix;
	uint16_t sm_lid;
};
#define IBR_PLUG_SNAP_LEN 24

enum ibr_plug_port_flag {
	IBR_PLUG_PORT_ALIAS = 1 << 0, /* an alias GUID of base_guid (same LIDs) */
};

struct ibr_plug_port { /* record: 24 bytes */
	uint64_t guid;
	uint64_t base_guid; /* the port's own GUID; = guid unless an alias */
	uint16_t lid;
	uint8_t lmc;
	uint8_t node_type; /* 1 CA, 2 switch, 3 router */
	uint8_t port_num;
	uint8_t flags; /* enum ibr_plug_port_flag */
};
#define IBR_PLUG_PORT_LEN 24

struct ibr_plug_group { /* GROUP fixed part: 40 bytes */
	uint8_t mgid[16];
	uint16_t mlid;
	uint16_t pkey;
	uint32_t qkey;
	uint32_t flowlabel;
	uint8_t sl, tclass, mtu, rate;
	uint8_t scope;
	uint8_t flags;	   /* IBR_PLUG_GROUP_WELL_KNOWN */
	uint16_t nmembers; /* members of the whole group (a MORE chain) */
};
#define IBR_PLUG_GROUP_LEN	  40
#define IBR_PLUG_GROUP_WELL_KNOWN 0x01

struct ibr_plug_member { /* GROUP record: 20 bytes */
	uint8_t gid[16];
	uint8_t join_state; /* IBA MCMemberRecord JoinState bits: 1 full, 2 non, 4 send-only */
	uint8_t proxy;
};
#define IBR_PLUG_MEMBER_LEN 20

struct ibr_plug_stats {	    /* fixed part: 64 bytes */
	uint64_t events;    /* report() calls */
	uint64_t enqueued;  /* messages queued for this daemon */
	uint64_t dropped;   /* messages dropped for it (queue full, daemon away) */
	uint32_t snapshots; /* snapshots sent to it */
	uint32_t connects;  /* successful connections to it */
	uint32_t queue_len; /* now */
	uint32_t queue_max; /* limit */
	uint32_t routes;    /* prefix routes the plugin has in OpenSM now */
	uint32_t shadowed;  /* routes left out: an administrator's line names the prefix */
	uint32_t sweeps;    /* heavy sweeps it asked OpenSM for */
	uint32_t applies;   /* times it rewrote OpenSM's prefix routes */
	uint8_t sm_state;   /* OpenSM's SMInfo state now (3: master) */
};
#define IBR_PLUG_STATS_LEN 64

enum ibr_plug_route_flag {
	IBR_PLUG_ROUTE_ANY = 1 << 0, /* every prefix ("*" in prefix_routes_file); prefix 0 */
};

struct ibr_plug_route { /* ROUTES record: 24 bytes; fixed part: gen (8 bytes) */
	uint64_t prefix;
	uint64_t guid; /* the router port in the plugin's subnet */
	uint32_t metric;
	uint32_t flags; /* enum ibr_plug_route_flag */
};
#define IBR_PLUG_ROUTE_LEN  24
#define IBR_PLUG_ROUTES_LEN 8

/*
 * MCAST record: 40 bytes, no fixed part.  A join or leave of the router's
 * own port, for a port that has no SA client in that subnet: the plugin
 * makes it as the SA would make a MCMemberRecord Set (or Delete) from that
 * port (IBA 15.2.5.17), creating the group with these parameters when it
 * does not exist, then sends the group as it is now (a GROUP delta, or
 * GROUPS_DEL).  The plugin accepts only router ports that it serves: ports
 * of Router nodes, or CA ports that its trust rule takes for router ports
 * (ibrouter-osm(8): routers=, or this daemon's own prefix routes name them).
 */
struct ibr_plug_mcast {
	uint8_t mgid[16];
	uint64_t guid; /* the router port */
	uint32_t qkey;
	uint32_t flowlabel; /* 20 bits */
	uint16_t pkey;
	uint8_t sl, tclass;
	uint8_t mtu, rate;  /* IBA codes; 0: the SA chooses */
	uint8_t join_state; /* JoinState bits (1: FullMember); 0: leave */
};
#define IBR_PLUG_MCAST_LEN 40

void ibr_plug_hello_put(uint8_t *p, const struct ibr_plug_hello *h);
void ibr_plug_hello_get(const uint8_t *p, struct ibr_plug_hello *h);
void ibr_plug_snap_put(uint8_t *p, const struct ibr_plug_snap *s);
void ibr_plug_snap_get(const uint8_t *p, struct ibr_plug_snap *s);
void ibr_plug_port_put(uint8_t *p, const struct ibr_plug_port *r);
void ibr_plug_port_get(const uint8_t *p, struct ibr_plug_port *r);
void ibr_plug_group_put(uint8_t *p, const struct ibr_plug_group *g);
void ibr_plug_group_get(const uint8_t *p, struct ibr_plug_group *g);
void ibr_plug_member_put(uint8_t *p, const struct ibr_plug_member *m);
void ibr_plug_member_get(const uint8_t *p, struct ibr_plug_member *m);
void ibr_plug_stats_put(uint8_t *p, const struct ibr_plug_stats *s);
void ibr_plug_stats_get(const uint8_t *p, struct ibr_plug_stats *s);
void ibr_plug_route_put(uint8_t *p, const struct ibr_plug_route *r);
void ibr_plug_route_get(const uint8_t *p, struct ibr_plug_route *r);
void ibr_plug_mcast_put(uint8_t *p, const struct ibr_plug_mcast *r);
void ibr_plug_mcast_get(const uint8_t *p, struct ibr_plug_mcast *r);
/* GUID (8 bytes) and MGID (16 bytes) records are stored as they are on the wire. */
void ibr_plug_guid_put(uint8_t *p, uint64_t guid);
uint64_t ibr_plug_guid_get(const uint8_t *p);

/*
 * A packer: messages of one type with one fixed part, as many records each
 * as fit in IBR_PLUG_MSG_MAX, MORE on every message but the last of the
 * batch.  Each finished message goes to `emit` (which copies it).
 */
struct ibr_plug_pack {
	int (*emit)(void *ctx, const uint8_t *msg, size_t len); /* 0 or -errno */
	void *ctx;
	uint32_t *seq; /* numbers the messages; may be NULL */
	uint8_t type;
	size_t fixed, recsz, max_recs;
	uint8_t buf[IBR_PLUG_MSG_MAX];
	uint16_t count;
	bool started; /* a message is open */
	int err;      /* first error of emit */
};

/* Start a batch; `fixed` is copied into every message (NULL: zeros). */
int ibr_plug_pack_start(struct ibr_plug_pack *k, uint8_t type, const uint8_t *fixed,
			int (*emit)(void *ctx, const uint8_t *msg, size_t len), void *ctx,
			uint32_t *seq);
/* Room for one more record: returns where to write it (recsz bytes, zeroed). */
uint8_t *ibr_plug_pack_rec(struct ibr_plug_pack *k);
/* End the batch (an empty batch is one message with no record); first error. */
int ibr_plug_pack_end(struct ibr_plug_pack *k);

#endif
