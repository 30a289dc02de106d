/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_int.h - SMA internals shared by the sma_*.c files (not for the daemon).
 *
 * Each port keeps its PortInfo as the 64-byte wire image (14.2.5.6) and
 * reads and writes it through libibmad's field table (IB_PORT_*_F), so
 * that Get is a copy and Set a field-by-field check; the other per-port
 * tables are plain arrays.
 */
#ifndef SMA_INT_H
#define SMA_INT_H

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "sma/sma.h"

#include <infiniband/mad.h>

#define SMA_PKEYS_PER_BLOCK 32 /* PKeyTable, 14.2.5.7 */
#define SMA_GUIDS_PER_BLOCK 8  /* GUIDInfo, 14.2.5.5 */
#define SMA_VLARB_ENTRIES   64 /* per priority, 14.2.5.9 */
#define SMA_PHYS_POLLING    2  /* PortPhysicalState, 14.2.5.6 */
#define SMA_PHYS_DISABLED   3
#define SMA_PHYS_LINKUP	    5

struct sma_port {
	uint8_t num;
	uint8_t pi[IBR_SMP_DATA_SIZE]; /* PortInfo wire image */
	uint16_t partition_cap;
	uint8_t guid_cap;
	uint16_t pkeys[SMA_MAX_PKEYS];
	uint8_t sl2vl[16];
	uint8_t vlarb_low[SMA_VLARB_ENTRIES][2]; /* VL, weight */
	uint8_t vlarb_high[SMA_VLARB_ENTRIES][2];
	uint64_t guids[SMA_MAX_GUIDS];
	bool lease_running; /* M_Key lease timer, 14.2.4.2 */
	uint64_t lease_deadline_ns;
	/* the master SM this port is bound to, and how its Sets came (sma_policy.c) */
	bool sm_bound, sm_dr;
	uint16_t sm_bound_lid, sm_dr_slid;
	uint8_t sm_hops;
	uint8_t sm_path[2 * IBR_SMP_MAX_HOPS]; /* InitialPath[1..hops], ReturnPath[1..hops] */
	uint64_t sets_refused;
	/* an SM has set this port's PortInfo: its PortState is the SM's to move (sma_port_sync) */
	bool sm_managed;
	/* the vendor tables as sma_tables_refresh() last saw them, and what changed since read */
	bool tables_seen;
	uint64_t nh_sum, adj_sum;
	uint16_t table_changes; /* RouterInfo's mask: SMA_RI_CHANGE_* */
};

struct sma {
	struct sma_node_cfg cfg;
	struct sma_ops ops;
	struct sma_port ports[SMA_MAX_PORTS];
	struct sma_counters cnt;
	struct ibr_ratelimit log_rl;
	struct ibr_ratelimit policy_rl; /* refused Sets: a warning each, rate-limited */
};

/* What an attribute handler is given and gives back. */
struct sma_req {
	struct sma *s;
	struct sma_port *port; /* the arrival port */
	const uint8_t *mad;    /* the request */
	uint8_t *data;	       /* the reply's 64 attribute bytes (start: copy of the request's) */
	uint8_t method;	       /* IBR_MAD_METHOD_GET or _SET */
	uint32_t attr_mod;
	bool mkey_ok; /* the request's M_Key matched (M_Key shown in PortInfo) */
	uint64_t now_ns;
};

/* An attribute handler: a MAD status (0, 0x000C, 0x001C, ...). */
typedef uint16_t (*sma_attr_fn)(struct sma_req *r);

/* libibmad takes non-const buffers; these never write through the getter. */
static inline uint32_t sma_fget(const uint8_t *buf, enum MAD_FIELDS f)
{
	return mad_get_field((void *)buf, 0, f);
}

static inline uint64_t sma_fget64(const uint8_t *buf, enum MAD_FIELDS f)
{
	return mad_get_field64((void *)buf, 0, f);
}

static inline void sma_fset(uint8_t *buf, enum MAD_FIELDS f, uint32_t v)
{
	mad_set_field(buf, 0, f, v);
}

static inline void sma_fset64(uint8_t *buf, enum MAD_FIELDS f, uint64_t v)
{
	mad_set_field64(buf, 0, f, v);
}

/* sma_core.c */
void sma_event_emit(struct sma *s, struct sma_event *ev);
void sma_port_state_set(struct sma *s, struct sma_port *p, enum sma_port_state st);
struct sma_port *sma_port_lookup(struct sma *s, unsigned int port);

/* sma_node.c: NodeDescription, NodeInfo, SMInfo */
uint16_t sma_attr_node_desc(struct sma_req *r);
uint16_t sma_attr_node_info(struct sma_req *r);
uint16_t sma_attr_sm_info(struct sma_req *r);

/* sma_portinfo.c */
void sma_portinfo_init(struct sma *s, struct sma_port *p, const struct sma_port_cfg *cfg);
uint16_t sma_attr_port_info(struct sma_req *r);

/* sma_tables.c: PKeyTable, SLtoVLMappingTable, VLArbitration, GUIDInfo */
void sma_tables_init(struct sma_port *p, const struct sma_port_cfg *cfg);
uint16_t sma_attr_pkey_table(struct sma_req *r);
uint16_t sma_attr_sl2vl(struct sma_req *r);
uint16_t sma_attr_vlarb(struct sma_req *r);
uint16_t sma_attr_guid_info(struct sma_req *r);

/* sma_vendor.c: RouterInfo, NextHopTable, AdjacentSiteLocalSubnetsTable */
uint16_t sma_attr_router_info(struct sma_req *r);
uint16_t sma_attr_next_hop(struct sma_req *r);
uint16_t sma_attr_adj_subnets(struct sma_req *r);

/* sma_mkey.c */
enum sma_mkey_result {
	SMA_MKEY_PASS,	    /* M_Key matched, or no protection applies */
	SMA_MKEY_PASS_HIDE, /* mismatched Get at level 1: answer with M_Key zeroed */
	SMA_MKEY_FAIL,	    /* drop (and trap 256) */
};
enum sma_mkey_result sma_mkey_check(struct sma *s, struct sma_port *p, const uint8_t *mad,
				    const struct sma_rx *rx);
void sma_mkey_lease_run(struct sma_port *p, uint64_t now_ns);
/* The trap 256 event for an SMP that failed a check (mad: after the DR receive rules). */
void sma_mkey_trap(struct sma *s, struct sma_port *p, const uint8_t *mad, const struct sma_rx *rx);

/* sma_policy.c: the Set policy (smp: the request after the DR receive rules) */
bool sma_policy_set_ok(struct sma *s, struct sma_port *p, const uint8_t *smp,
		       const struct sma_rx *rx);
/* A refused Set: counted, logged (rate-limited), trap 256 asked for. */
void sma_policy_refused(struct sma *s, struct sma_port *p, const uint8_t *smp,
			const struct sma_rx *rx);
/* After a Set with status 0: bind the port to the SM a PortInfo Set named. */
void sma_policy_bind(struct sma_port *p, const uint8_t *smp);
void sma_policy_release(struct sma_port *p);

#endif
