/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma.h - the subnet-management agent (SMA) of the router's ports: one SMP
 * in, zero or one reply out (IBA vol. 1, chapter 14).
 *
 * The core is transport independent.  The daemon (daemon/) owns the
 * transports (sim data port, umad, ibsim), hands every SMP it receives on
 * QP0 to sma_process() as a whole 256-byte MAD, and sends the reply, if
 * any, back out of the same port with the LRH addresses sma_process()
 * chose.  What the SMA needs from the rest of the router (the route table,
 * for the vendor router attributes) comes in through struct sma_ops; what
 * the fabric changes (LID, LMC, GidPrefix, SM LID, port state, P_Keys,
 * SL2VL, alias GUIDs, ...) goes out as struct sma_event through
 * sma_ops.event.  This module never includes router/ or sa/ headers.
 *
 * The node is one Router (NodeType 3, 14.2.5.3) with cfg.num_ports ports;
 * each port is an end port with its own PortInfo, P_Key table, SL2VL,
 * VLArbitration, GUIDInfo, M_Key and lease timer.  Time is always an
 * argument (monotonic ns), so that tests control the M_Key lease timer.
 *
 * Not thread safe: call everything from one thread (the daemon's control
 * thread, or the thread that owns the SMP transport).
 */
#ifndef SMA_H
#define SMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SMA_MAX_PORTS	   16  /* router ports per node */
#define SMA_MAX_PKEYS	   128 /* PartitionCap at most (4 blocks of 32) */
#define SMA_MAX_GUIDS	   64  /* GUIDCap at most (8 blocks of 8) */
#define SMA_NODE_DESC_SIZE 64  /* NodeDescription, 14.2.5.2 */
#define SMA_TRAP_PATH_MAX  30  /* DrNoticeReturnPath entries in trap 256 */
#define SMA_NH_PER_BLOCK   4   /* NextHopTable records per SMP (sma_vendor.h) */
#define SMA_ADJ_PER_BLOCK  8   /* AdjacentSiteLocalSubnetsTable records per SMP */

/* PortState (14.2.5.6, Table 146 "PortState"). */
enum sma_port_state {
	SMA_PORT_NOP = 0,
	SMA_PORT_DOWN = 1,
	SMA_PORT_INIT = 2,
	SMA_PORT_ARMED = 3,
	SMA_PORT_ACTIVE = 4,
};

/* PortInfo:CapabilityMask bits (14.2.5.6) the SMA may advertise. */
#define SMA_CAP_IS_SM		  (1u << 1)
#define SMA_CAP_IS_TRAP		  (1u << 3)
#define SMA_CAP_IS_SL_MAP	  (1u << 6)
#define SMA_CAP_IS_SYS_IMAGE_GUID (1u << 11)
#define SMA_CAP_IS_CLIENT_REREG	  (1u << 25)
#define SMA_CAP_DEFAULT \
	(SMA_CAP_IS_TRAP | SMA_CAP_IS_SL_MAP | SMA_CAP_IS_SYS_IMAGE_GUID | SMA_CAP_IS_CLIENT_REREG)

/* ---- configuration (from ibrouterd.conf; copied by sma_new()) ---- */

/* Who may Set the port's attributes (sma_policy.c has the rules). */
enum sma_set_policy {
	SMA_SET_MASTER_SM = 0, /* the port's master SM only (or under its M_Key) */
	SMA_SET_OPEN,	       /* IBA's M_Key rule alone: with M_Key 0, anyone */
};

struct sma_port_cfg {
	uint64_t guid;		/* port GUID: non-zero, unique */
	uint32_t capmask;	/* PortInfo:CapabilityMask; 0 = SMA_CAP_DEFAULT */
	uint8_t mtu_cap;	/* MTUCap, 1..5 (256..4096); 0 = 4 (2048) */
	uint8_t vl_cap;		/* VLCap, 1..5 (VL0, VL0-1, ..., VL0-14); 0 = 1 */
	uint16_t partition_cap; /* P_Key entries, 1..SMA_MAX_PKEYS; 0 = 32 */
	uint8_t guid_cap;	/* GUIDCap, 1..SMA_MAX_GUIDS; 0 = 8 */
	uint8_t set_policy;	/* enum sma_set_policy */
	/*
	 * The M_Key the port starts with (0: none), with M_KeyProtectBits 1 so
	 * that Gets do not show it (14.2.4.1): every Set must carry it until the
	 * SM changes it.  The SM's own key (OpenSM's m_key).
	 */
	uint64_t mkey;
	/*
	 * The subnet's SM_Key (OpenSM's sm_key), which SMInfo shows on a port
	 * whose capmask has SMA_CAP_IS_SM (sma_node.c).
	 */
	uint64_t sm_key;
};

struct sma_node_cfg {
	uint64_t node_guid;	    /* non-zero */
	uint64_t system_image_guid; /* 0 = node_guid */
	uint16_t device_id;	    /* 0 = SMA_DEVICE_ID_DEFAULT (not a Mellanox ID) */
	uint32_t revision;
	uint32_t vendor_id;			  /* 24 bits; 0 = SMA_VENDOR_ID_DEFAULT */
	char node_desc[SMA_NODE_DESC_SIZE + 1];	  /* NUL terminated, at most 64 bytes used */
	unsigned int num_ports;			  /* 1..SMA_MAX_PORTS */
	struct sma_port_cfg ports[SMA_MAX_PORTS]; /* ports[0] is port 1 */
	uint32_t next_hop_cap;			  /* RouterInfo:NextHopTableCap; 0 = 1024 */
	uint8_t adj_cap; /* RouterInfo:AdjacentSiteLocalSubnetsTableCap; 0 = 64 */
};

/*
 * A DeviceID outside Mellanox/NVIDIA's ranges: OpenSM sends a Mellanox
 * vendor ExtendedPortInfo (0xFF90) to those (IBA-NOTES.md).  The default
 * VendorID is an arbitrary non-zero value, not a registered OUI: set the
 * real one in the config.
 */
#define SMA_DEVICE_ID_DEFAULT 0x1B0E
#define SMA_VENDOR_ID_DEFAULT 0x0A1B2C

/* ---- the router's tables, as the vendor attributes show them ---- */

/* One NextHopTable record (sma_vendor.h has the wire layout). */
struct sma_next_hop {
	uint64_t subnet_prefix;
	uint16_t pkey;
	uint8_t weight;
};

/* One AdjacentSiteLocalSubnetsTable record: a site-local subnet on a router port. */
struct sma_adj_subnet {
	uint16_t subnet_prefix; /* the 16-bit subnet ID of fec0:0:0:<id>::/64 */
	uint16_t pkey;
	uint16_t master_sm_lid;
};

/*
 * What the SMA asks of the router.  Every member may be NULL (the tables
 * then read as empty).  Table callbacks fill out[0..max-1] with the records
 * first, first+1, ... of the table as port `port` (1..num_ports) shows it
 * to its subnet, store how many in *filled, and return the table's Top
 * (the number of records in the whole table).  Each port has tables of its
 * own: the prefixes reachable through the router from its subnet, the
 * site-local subnets adjacent to the router in its site.
 */
struct sma_event;
struct sma_ops {
	void *arg;
	void (*event)(void *arg, const struct sma_event *ev);
	uint32_t (*next_hops)(void *arg, uint8_t port, uint32_t first, struct sma_next_hop *out,
			      unsigned int max, unsigned int *filled);
	uint32_t (*adj_subnets)(void *arg, uint8_t port, uint32_t first, struct sma_adj_subnet *out,
				unsigned int max, unsigned int *filled);
};

/* ---- what the fabric changed: events (through sma_ops.event) ---- */

enum sma_event_type {
	SMA_EV_LID,	      /* LID or LMC (lid, lmc) */
	SMA_EV_GID_PREFIX,    /* GidPrefix (gid_prefix) */
	SMA_EV_SM,	      /* MasterSMLID or MasterSMSL (sm_lid, sm_sl) */
	SMA_EV_PORT_STATE,    /* PortState (state, old_state) */
	SMA_EV_PKEYS,	      /* the P_Key table (pkeys, npkeys) */
	SMA_EV_SL2VL,	      /* SLtoVLMappingTable (sl2vl) */
	SMA_EV_VLARB,	      /* VLArbitration (no payload: read with sma_port_get) */
	SMA_EV_ALIAS_GUIDS,   /* GUIDInfo (guids, nguids; guids[0] is the port GUID) */
	SMA_EV_MTU_VLS,	      /* NeighborMTU or OperationalVLs (neighbor_mtu, oper_vls) */
	SMA_EV_CLIENT_REREG,  /* ClientReregister was set: re-register SA subscriptions */
	SMA_EV_TRAP_BAD_MKEY, /* send trap 256: see sma_trap_bad_mkey_build() */
	SMA_EV_TRAP_REPRESS,  /* the SM repressed our trap (trap_number) */
};

/* Trap 256 (bad M_Key) details, 14.2.5.1 Notice, as OpenSM decodes them. */
struct sma_trap_mkey {
	uint16_t lid; /* LRH SLID of the offending SMP */
	uint16_t dr_slid;
	uint8_t method;
	uint16_t attr_id;
	uint32_t attr_mod;
	uint64_t mkey;	/* the M_Key the SMP carried */
	bool dr;	/* directed route: the fields below are valid */
	bool truncated; /* HopCount > SMA_TRAP_PATH_MAX */
	uint8_t hop_cnt;
	uint8_t return_path[SMA_TRAP_PATH_MAX];
};

struct sma_event {
	enum sma_event_type type;
	uint8_t port; /* 1..num_ports */
	uint16_t lid;
	uint8_t lmc;
	uint64_t gid_prefix;
	uint16_t sm_lid;
	uint8_t sm_sl;
	enum sma_port_state state, old_state;
	uint8_t neighbor_mtu, oper_vls;
	const uint16_t *pkeys; /* valid during the callback only */
	unsigned int npkeys;
	const uint8_t *sl2vl; /* 16 entries */
	const uint64_t *guids;
	unsigned int nguids;
	uint16_t trap_number;
	struct sma_trap_mkey trap;
};

/* ---- processing ---- */

/* Why a request got no reply.  Each reason has a counter. */
#define SMA_DROP_REASONS(X)                                                                  \
	X(LENGTH, "length", "not exactly 256 bytes")                                         \
	X(BASE_VERSION, "base-version", "BaseVersion is not 1")                              \
	X(CLASS, "class", "not an SMP class (0x01 or 0x81)")                                 \
	X(PORT, "port", "arrival port out of range")                                         \
	X(DLID, "dlid", "LRH DLID neither one of the port's LIDs nor permissive")            \
	X(RESPONSE, "response", "a response (R bit): the SMA sends no requests")             \
	X(NO_RESPONSE_METHOD, "no-response-method", "Send, or Trap (for an SM)")             \
	X(DR_HOP_PTR_ZERO, "dr-c14-9-1", "C14-9:1 outgoing, HopCount > 0, HopPointer 0")     \
	X(DR_FORWARD_OUT, "dr-c14-9-2", "C14-9:2 outgoing, would need forwarding")           \
	X(DR_DLID, "dr-c14-9-3", "C14-9:3 end of DR path and DrDLID not permissive")         \
	X(DR_HOP_PTR_OUT, "dr-c14-9-5", "C14-9:5 outgoing, unreasonable HopPointer")         \
	X(DR_RETURN_PORT, "dr-c14-13-1", "C14-13:1 returning, ReturnPath is not this port")  \
	X(DR_FORWARD_RET, "dr-c14-13-2", "C14-13:2 returning, would need forwarding")        \
	X(DR_SLID, "dr-c14-13-3", "C14-13:3 returning, DrSLID not permissive")               \
	X(DR_HOP_PTR_RET, "dr-c14-13-5", "C14-13:5 returning, unreasonable HopPointer")      \
	X(DR_RETURNING, "dr-returning", "a returning (D=1) request: for an SM, not the SMA") \
	X(DR_REPLY, "dr-reply", "the reply breaks the send rules (14.2.2.2)")                \
	X(MKEY, "mkey", "M_Key check failed (14.2.4)")                                       \
	X(SET_POLICY, "set-policy", "a Set not from the port's master SM (sma_policy.c)")    \
	X(TRAP_REPRESS, "trap-repress", "TrapRepress consumed (no reply by definition)")

enum sma_drop {
#define SMA_DROP_ENUM(id, name, text) SMA_DROP_##id,
	SMA_DROP_REASONS(SMA_DROP_ENUM)
#undef SMA_DROP_ENUM
		SMA_DROP_MAX
};

enum sma_verdict {
	SMA_REPLY,   /* send reply[] out of tx->port with tx's LRH addresses */
	SMA_DISCARD, /* no reply; *why says why (and its counter went up) */
};

/* One received SMP and what the transport knows of its packet. */
struct sma_rx {
	uint8_t port;	 /* arrival port, 1..num_ports */
	uint16_t slid;	 /* LRH SLID of the request (0xFFFF if permissive or unknown) */
	uint16_t dlid;	 /* LRH DLID; 0 when the transport checked it (an HCA, ibsim) */
	uint64_t now_ns; /* monotonic clock */
};

/*
 * How to send the reply: out of `port`, LRH DLID = the request's LRH SLID
 * (responses return to their requester, 13.5.1; on a directed-route hop
 * that is the permissive LID), LRH SLID = the port's LID, or permissive on
 * a directed-route hop or while the port has no LID.  VL15, SL 0, QP0.
 */
struct sma_tx {
	uint8_t port;
	uint16_t dlid;
	uint16_t slid;
};

/* What arrived on one port (an arrival port out of range counts in the totals only). */
struct sma_port_counters {
	uint64_t rx;
	uint64_t replies;
	uint64_t drops[SMA_DROP_MAX];
};

struct sma_counters {
	uint64_t rx;
	uint64_t replies;
	uint64_t replies_error; /* replies with a non-zero status */
	uint64_t drops[SMA_DROP_MAX];
	uint64_t mkey_violations;
	uint64_t traps; /* trap 256 events produced */
	uint64_t events;
	struct sma_port_counters port[SMA_MAX_PORTS]; /* port[0] is port 1 */
};

struct sma;

/* A new SMA, or NULL (errno EINVAL for a bad config, ENOMEM). All ports start Down/Polling. */
struct sma *sma_new(const struct sma_node_cfg *cfg, const struct sma_ops *ops);
/*
 * A new SMA for a changed configuration (a reload): port i of `cfg` was port
 * from[i] + 1 of `old` (from[i] < 0: a new port) and keeps all it was told
 * (PortInfo, P_Keys, SL2VL, VLArbitration, GUIDs, M_Key and lease, its master
 * SM) when its port configuration is the same; a port configured otherwise
 * starts as a new one does.  The counters carry on.  `old` is unchanged.
 */
struct sma *sma_renew(const struct sma *old, const struct sma_node_cfg *cfg, const int *from,
		      const struct sma_ops *ops);
void sma_free(struct sma *s);

/*
 * Process one SMP (len bytes at req) received on rx->port.  On SMA_REPLY,
 * reply[] holds the 256-byte GetResp (TID, AttributeID and AttributeModifier
 * echoed; for a DR SMP the D bit set and HopPointer per 14.2.2.2) and *tx
 * how to send it.  On SMA_DISCARD, *why (if why is not NULL) says why.
 * reply may not alias req.  Events are delivered before this returns.
 */
enum sma_verdict sma_process(struct sma *s, const struct sma_rx *rx, const void *req, size_t len,
			     uint8_t *reply, struct sma_tx *tx, enum sma_drop *why);

/*
 * What port `port` forwards with, as the router has it.  The router's port
 * state is the one state: the config, the SA client, the OpenSM plugin,
 * the HCA and this SMA's own Sets (through SMA_EV_LID / SMA_EV_GID_PREFIX)
 * change it, and sma_port_sync() makes PortInfo show it: LID, LMC and
 * GidPrefix become these (GidPrefix 0: not known, the default fe80::), and
 * while the port forwards its link is up (IBA 14.2.5.6).  Its PortState:
 * on a port no SM has set (a static configuration) Active while the port
 * forwards (it passes traffic, as an Active port does); on a port an SM
 * manages (it has taken a PortInfo Set) the SM's, as the SM moves it (Init,
 * Armed, Active: OpenSM walks a port and its neighbour through them), only
 * a Down brought back to Init while the link is up.  A port that stops
 * forwarding and shows Active falls back to Init.  So a router port is
 * taken down by the router's configuration, not by a subnet's SM.  No
 * events: the router is the one telling.  0, or -EINVAL for a bad port or
 * LID.
 */
struct sma_port_fwd {
	uint16_t lid;
	uint8_t lmc;
	uint64_t gid_prefix;
	bool forwarding;
};
int sma_port_sync(struct sma *s, unsigned int port, const struct sma_port_fwd *f);
/* Physical link up or down (14.2.5.6 PortPhysicalState): up moves Down to Init. */
int sma_port_set_link(struct sma *s, unsigned int port, bool up, uint64_t now_ns);
/* Run the M_Key lease timers (also run by sma_process()). */
void sma_tick(struct sma *s, uint64_t now_ns);
/*
 * The router's tables may have changed (the daemon calls this after it
 * published new forwarding tables): each port's NextHopTable and
 * AdjacentSiteLocalSubnetsTable are read through sma_ops and compared with
 * what they held at the last call; one that differs sets its bit in the
 * port's RouterInfo table-change mask (sma_vendor.h), and a Get of that
 * table on that port clears it.  The first call only takes note.
 */
void sma_tables_refresh(struct sma *s);

/* A read-only view of one port (decoded from its PortInfo). */
struct sma_port_view {
	uint64_t guid, mkey, gid_prefix;
	uint16_t lid, sm_lid, mkey_lease_period, mkey_violations;
	uint8_t lmc, sm_sl, mkey_protect, neighbor_mtu, oper_vls, subnet_timeout;
	enum sma_port_state state;
	uint8_t phys_state;
	uint16_t npkeys;
	uint16_t pkeys[SMA_MAX_PKEYS];
	uint8_t sl2vl[16];
	unsigned int nguids;
	uint64_t guids[SMA_MAX_GUIDS];
	/* the Set policy: the master SM the port is bound to, refused Sets */
	uint8_t set_policy; /* enum sma_set_policy */
	bool sm_bound;	    /* to the sender of the PortInfo Set that named sm_bound_lid */
	bool sm_dr;	    /* ... which came by directed route, sm_hops hops */
	uint16_t sm_bound_lid;
	uint8_t sm_hops;
	uint64_t sets_refused;
};
int sma_port_get(const struct sma *s, unsigned int port, struct sma_port_view *v);
/*
 * Forget the port's master SM (sma_policy.c): the next PortInfo Set that
 * names a MasterSMLID binds the port to its sender.  For an SM that moved.
 */
int sma_port_release(struct sma *s, unsigned int port);

const struct sma_counters *sma_counters_get(const struct sma *s);
const char *sma_drop_name(enum sma_drop why);
const char *sma_drop_text(enum sma_drop why);

/*
 * The trap 256 request (LID-routed SubnTrap(Notice), 14.2.5.1, 13.4.8.2) for
 * an SMA_EV_TRAP_BAD_MKEY event, to the port's MasterSMLID, with `tid`.
 * 0, or -EAGAIN when the port has no SM LID or no LID yet (the trap cannot
 * be sent, 14.2.4.3), -EINVAL for a bad event.
 */
int sma_trap_bad_mkey_build(const struct sma *s, const struct sma_event *ev, uint64_t tid,
			    uint8_t *mad, struct sma_tx *tx);

#endif
