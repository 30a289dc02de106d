/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_fib.h - the compiled, immutable lookup tables the workers read.
 *
 * The control thread compiles the RIB (router_rib.h) into a new FIB and
 * publishes it with an atomic pointer swap (router_pub.h); a FIB is never
 * changed once published.  Everything a worker needs for one packet is here:
 * the port snapshot, unicast routes by GID prefix, neighbours by GUID, and
 * multicast groups by MGID.
 */
#ifndef ROUTER_FIB_H
#define ROUTER_FIB_H

#include "router/router_hash.h"
#include "router/router_port.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* How the DLID on the egress subnet is found (IBA 8.2.3). */
enum router_nh_kind {
	ROUTER_NH_ROUTER = 0, /* the next router's LID, carried in the route */
	ROUTER_NH_DIRECT = 1, /* final destination: the DGID's GUID in the neighbour table */
	ROUTER_NH_ALGO = 2,   /* final destination: DLID = low 16 bits of the DGID */
	ROUTER_NH_GID = 3,    /* final destination on a RoCE port: its GID alone, no LID */
};

/* A next hop packed in a 64-bit hash value (bit 63 marks it present). */
struct router_nh {
	uint16_t lid; /* ROUTER_NH_ROUTER: next router's base LID */
	uint8_t port; /* egress port index */
	uint8_t kind; /* enum router_nh_kind */
	uint8_t lmc;  /* ROUTER_NH_ROUTER: LMC of the next router's port */
};

#define ROUTER_VAL_PRESENT (1ull << 63)
/*
 * Set by the FIB compiler in a route's value when its egress port is in the
 * FIB and usable (up, with a LID or RoCE): a fact of the immutable FIB
 * that the data path then need not look up per packet.
 */
#define ROUTER_VAL_PORT_OK (1ull << 30)
/*
 * Set by the FIB compiler in a route's value when the route's prefix covers
 * its egress port's own subnet prefix: only then can a DGID it matches be
 * one of the router's own port GIDs (delivered locally, not forwarded).
 */
#define ROUTER_VAL_OWN_PFX (1ull << 31)

/* Bits 15-0 LID, 23-16 port, 25-24 kind, 28-26 LMC (all in the low 32: cheap tests). */
static inline uint64_t router_nh_pack(const struct router_nh *nh)
{
	return ROUTER_VAL_PRESENT | nh->lid | (uint64_t)nh->port << 16 |
	       (uint64_t)(nh->kind & 3) << 24 | (uint64_t)(nh->lmc & 7) << 26;
}

static inline struct router_nh router_nh_unpack(uint64_t v)
{
	struct router_nh nh = {
		.lid = (uint16_t)v,
		.port = (uint8_t)(v >> 16),
		.kind = (uint8_t)(v >> 24) & 3,
		.lmc = (uint8_t)(v >> 26) & 7,
	};
	return nh;
}

/* Neighbour value: LID and LMC of an end port, by its GUID. */
static inline uint64_t router_neigh_pack(uint16_t lid, uint8_t lmc)
{
	return ROUTER_VAL_PRESENT | lid | (uint64_t)(lmc & 7) << 16;
}

/* A multicast group as the data path needs it (IBA 8.3 / 8.4). */
struct router_fib_mgroup {
	uint8_t mgid[16];
	uint32_t next;	     /* next group whose folded MGID is equal (index + 1) */
	uint32_t on_ports;   /* ports whose subnet has the group (an MLID) */
	uint32_t recv_ports; /* ports whose subnet has receivers */
	uint16_t mlid[ROUTER_MAX_PORTS];
	uint8_t sl[ROUTER_MAX_PORTS];
	uint32_t qkey[ROUTER_MAX_PORTS]; /* its Q_Key there (0: unknown); verbs attaches by it */
};

#define ROUTER_LRH_SL_KEEP (1ull << 48) /* in lrh_by_tclass[]: no SL mapped */

/* The per-port snapshot with the bitmaps the validator tests per packet. */
struct router_fib_port {
	struct router_port cfg;
	/* derived by the compiler, for the per-packet work */
	uint64_t gid_wire[2]; /* the port's GID (prefix, GUID) as 64-bit loads of wire bytes */
	uint32_t lid_span;    /* 2^LMC with a LID or on RoCE, else 0: ours iff DLID - LID < it */
	uint32_t site_ports;  /* ports of this port's site, itself included */
	bool usable;	      /* up, with a LID or RoCE: packets may leave by it */
	bool tclass_map;      /* some TClass maps to an SL (else every one keeps its SL) */
	bool lrh_keep_sl;     /* no TClass map and one VL for every SL: lrh_keep_sl_bits */
	/*
	 * The bits a packet leaving here gets in its LRH, read as a big-endian
	 * 64-bit word: VL (63-60), SL (55-52), SLID (15-0).  By SL, and by the
	 * GRH's TClass through tclass_sl (ROUTER_LRH_SL_KEEP: keep the packet's SL).
	 */
	uint64_t lrh_keep_sl_bits; /* VL, SLID: the packet's SL is kept */
	uint64_t lrh_by_sl[16];
	uint64_t lrh_by_tclass[256];
	uint64_t pkey_bits[32768 / 64]; /* allowed P_Key base values (low 15 bits) */
	uint64_t mlid_bits[16384 / 64]; /* multicast LIDs of groups known on this subnet */
};

struct router_fib_agg {
	uint8_t plen; /* prefix length, < 64 */
	uint64_t mask;
	struct router_hash h; /* masked prefix -> next hop */
};

struct router_fib {
	uint64_t generation;
	uint32_t nports;
	struct router_fib_port port[ROUTER_MAX_PORTS];
	struct router_hash exact; /* 64-bit subnet prefix -> next hop */
	uint32_t nagg;
	struct router_fib_agg agg[64];		    /* by decreasing length */
	struct router_hash neigh[ROUTER_MAX_PORTS]; /* GUID -> LID/LMC */
	struct router_hash mcast;		    /* folded MGID -> group index + 1 */
	struct router_fib_mgroup *groups;
	uint32_t ngroups;
	uint64_t nroutes;
};

static inline bool router_bit_test(const uint64_t *bits, uint32_t i)
{
	return (bits[i >> 6] >> (i & 63)) & 1;
}

static inline void router_bit_set(uint64_t *bits, uint32_t i)
{
	bits[i >> 6] |= 1ull << (i & 63);
}

/* The next hop for a 64-bit subnet prefix: exact first, then aggregates. */
static inline uint64_t router_fib_route_get(const struct router_fib *fib, uint64_t prefix)
{
	uint64_t v = router_hash_get(&fib->exact, prefix);

	for (uint32_t i = 0; !v && i < fib->nagg; i++)
		v = router_hash_get(&fib->agg[i].h, prefix & fib->agg[i].mask);
	return v;
}

static inline uint64_t router_mgid_fold(const uint8_t *mgid)
{
	uint64_t a, b;

	memcpy(&a, mgid, 8);
	memcpy(&b, mgid + 8, 8);
	return a ^ (b * 0xff51afd7ed558ccdull);
}

static inline const struct router_fib_mgroup *router_fib_mgroup_get(const struct router_fib *fib,
								    const uint8_t *mgid)
{
	uint64_t v = router_hash_get(&fib->mcast, router_mgid_fold(mgid)), a, b;

	memcpy(&a, mgid, 8);
	memcpy(&b, mgid + 8, 8);
	/* two 64-bit compares, not a memcmp() call: this runs per multicast packet */
	for (uint32_t i = (uint32_t)v; i; i = fib->groups[i - 1].next) {
		const struct router_fib_mgroup *g = &fib->groups[i - 1];
		uint64_t ga, gb;

		memcpy(&ga, g->mgid, 8);
		memcpy(&gb, g->mgid + 8, 8);
		if (((ga ^ a) | (gb ^ b)) == 0)
			return g;
	}
	return NULL;
}

void router_fib_free(struct router_fib *fib);

#endif
