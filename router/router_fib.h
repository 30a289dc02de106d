/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_fib.h - the compiled, immutable lookup tables the workers read.
 *
 * The control thread compiles the RIB (router_rib.h) into a new FIB and
 * publishes it with an atomic pointer swap (router_pub.h); a FIB is never
 * changed once published.  Everything a worker needs for one packet is here:
 * the port snapshot, unicast routes by GID prefix, neighbours by GUID, and
 * multicast groups by MGID.
 *
 * A FIB is its base tables, compiled whole from the RIB now and then, and a
 * delta: the routes and neighbours changed since, each with its value now
 * (or "gone"), in persistent maps (router_pmap.h) that the next FIB shares
 * but for the path to what it changes (router_fib_delta.c).  So a change
 * costs the same whatever the RIB's size, and the FIBs made from one base
 * share its tables (struct router_fib_part: each part freed with the last
 * FIB holding it).  Lookups read the delta first when there is one, and
 * fall back to the base.
 */
#ifndef ROUTER_FIB_H
#define ROUTER_FIB_H

#include "router/router_hash.h"
#include "router/router_pmap.h"
#include "router/router_port.h"

#include <endian.h>
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

/*
 * Set by the FIB compiler in the value of a route with several next hops
 * (router_rib.h, ROUTER_ECMP_MAX): bits 62-32 are then the index of its
 * group in fib->ecmp, and the low bits nothing; router_fib_ecmp_pick()
 * turns it into the value of one next hop for a flow.
 */
#define ROUTER_VAL_ECMP (1ull << 29)

/*
 * In a FIB's delta only: this route or neighbour is gone since the base (a
 * value no route has: bit 62 belongs to a group index, and then
 * ROUTER_VAL_ECMP is set).
 */
#define ROUTER_VAL_TOMB (ROUTER_VAL_PRESENT | 1ull << 62)

/* Next hops a route may hold (equal cost: the engine spreads flows over them). */
#define ROUTER_ECMP_MAX 8

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
	/*
	 * 0, or this MGID is a feed's name for its group on an ingress port:
	 * the feed's index + 1 in fib->feeds, which names it on the egress
	 * ports.  A feed is carried whatever its MGIDs' scope (it is
	 * configured: an application-level bridge, not IBA 8.3 routing).
	 */
	uint32_t feed;
};

/*
 * A feed (ibrouterd.conf(5)): one IP group under the name each port's
 * applications give it -- an rdma_cm or IPoIB MGID on InfiniBand, the IP
 * group on RoCE (lib/ibr_mgid.h).
 */
struct router_fib_feed {
	uint8_t dgid[ROUTER_MAX_PORTS][16]; /* the MGID it has on each port */
	uint8_t hops[ROUTER_MAX_PORTS];	    /* a copy's HopLmt there at most (router_mcast) */
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

/*
 * The next hops of a route with several, as buckets: a flow's hash picks a
 * bucket, the bucket a next hop (a value as a single route's: its own
 * PORT_OK and OWN_PFX bits).  The compiler fills each bucket with the next
 * hop that scores highest for it (rendezvous hashing), so when one next hop
 * goes only the flows of its buckets move, and a new one takes about its
 * share from each of the others.  Next hops through unusable ports get no
 * bucket while one is usable.  1024 buckets: 2 to 8 next hops share them
 * within +-20 % (router_fib_test); routes with the same next hops share one
 * group (8 KiB).
 */
#define ROUTER_ECMP_BUCKETS 1024
struct router_fib_ecmp {
	uint32_t ports; /* the egress ports of its next hops, bit per port (reverse path) */
	uint32_t n;	/* next hops */
	uint64_t bucket[ROUTER_ECMP_BUCKETS];
};

struct router_fib_agg {
	uint8_t plen; /* prefix length, < 64 */
	uint64_t mask;
	struct router_hash h; /* masked prefix -> next hop */
};

/*
 * What changed since the base tables of a FIB were compiled: by key, the
 * value a whole compile would give now, ROUTER_VAL_TOMB where it would
 * give none.  An entry of a prefix and length shadows the base's entry of
 * the same prefix and length, and only that one: the longest match runs
 * over the lengths of both, the delta's first at each.
 *
 * A lookup asks the filter first: a Bloom filter of every key that the
 * deltas over this base have held (two bits of one 64-bit word a key, at
 * least 16 bits a key).  A key whose bits are not all set is in none of the
 * maps, and nearly every packet's key stops there, at a line of a table
 * that stays in cache, instead of at a map's page.  The filter is the one
 * thing the FIBs over one base share that changes after they are published
 * (the routes part's; freed with the base): it only gains bits, each set
 * before the FIB holding its key is published.  An older FIB that sees a
 * later FIB's bit looks in its own maps and finds nothing there, as for
 * any false positive: no published FIB's answer ever changes.  A filter
 * of each FIB's own is copied with the FIB, and every worker then fetches
 * the lines it reads anew from the control thread's core: measured with one
 * in each mid node of the maps, a worker took 17.4 -> 26.7 ns a packet
 * during 4 x 10^4 changes/s; with this one 17.4 -> 18.7 during 2.3 x 10^5
 * (bench_churn fwd_quiet_1e6, fwd_during_churn_1e6).
 */
struct router_fib_delta {
	struct router_pmap *exact;		     /* 64-bit subnet prefix -> value */
	struct router_pmap *agg;		     /* router_fib_agg_key() -> value */
	uint64_t agg_plens;			     /* bit n: agg holds prefixes of length n */
	uint32_t neigh_ports;			     /* bit p: neigh[p] holds entries */
	struct router_pmap *neigh[ROUTER_MAX_PORTS]; /* GUID -> LID/LMC */
	const uint64_t *filter;			     /* read with relaxed atomic loads */
	uint32_t filter_mask;			     /* its words - 1 */
	/* groups made since the base, value indexes from fib->necmp on (the routes part's) */
	struct router_fib_ecmp *const *ecmp_more;
};

/* A prefix shorter than /64 in the delta's map: the bit past the prefix marks its length. */
static inline uint64_t router_fib_agg_key(uint64_t prefix, unsigned plen)
{
	return prefix | 1ull << (63 - plen);
}

/* A neighbour in the filter: its GUID, and its port in the top byte (apart from the routes). */
static inline uint64_t router_fib_neigh_key(uint64_t guid, uint32_t port)
{
	return guid ^ (uint64_t)(port + 1) << 56;
}

/*
 * The filter's word of `key` (into *w) and its two bits: the top bits of a
 * product, after the key's high half is folded into its low (a product's
 * low bits depend on the key's low bits alone); the word from bits apart.
 */
static inline uint64_t router_fib_filter_bits(uint64_t key, uint32_t mask, uint32_t *w)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ull;

	*w = (uint32_t)(h >> 49) & mask;
	return 1ull << ((h >> 43) & 63) | 1ull << ((h >> 37) & 63) | 1ull << ((h >> 31) & 63) |
	       1ull << ((h >> 25) & 63);
}

/* Whether `key` may be in the delta's maps (false: it is in none). */
static inline bool router_fib_delta_may(const struct router_fib_delta *d, uint64_t key)
{
	uint32_t w;
	uint64_t b = router_fib_filter_bits(key, d->filter_mask, &w);

	return (__atomic_load_n(&d->filter[w], __ATOMIC_RELAXED) & b) == b;
}

/* The parts of a FIB that the FIBs made from it share (router_fib_part, router_fib.c). */
enum router_fib_part_id {
	ROUTER_FIB_PORTS,  /* port[] */
	ROUTER_FIB_ROUTES, /* exact, agg[], ecmp, and the groups made since */
	ROUTER_FIB_NEIGHS, /* neigh[] */
	ROUTER_FIB_MCAST,  /* mcast, groups */
	ROUTER_FIB_NPARTS
};
struct router_fib_part;

struct router_fib {
	uint64_t generation;
	uint32_t nports;
	struct router_fib_port *port; /* nports of them */
	struct router_hash exact;     /* 64-bit subnet prefix -> next hop */
	uint32_t nagg;
	struct router_fib_agg agg[64];		    /* by decreasing length */
	struct router_hash neigh[ROUTER_MAX_PORTS]; /* GUID -> LID/LMC */
	struct router_hash mcast;		    /* folded MGID -> group index + 1 */
	struct router_fib_mgroup *groups;
	uint32_t ngroups;
	struct router_fib_feed *feeds; /* by feed id - 1 (the groups' part) */
	uint32_t nfeeds;
	uint64_t nroutes;
	struct router_fib_ecmp *ecmp; /* routes with several next hops (ROUTER_VAL_ECMP) */
	uint32_t necmp;
	const struct router_fib_delta *delta; /* NULL: the base tables are the whole FIB */
	/*
	 * New when the ports' or the groups' tables are (a FIB that changed
	 * routes or neighbours alone keeps its predecessor's): what a
	 * backend's fib_changed reads (io_port.h).  0: a FIB made by hand.
	 */
	uint64_t ports_groups_id;
	/* the control thread's: who frees what, and what router_rib_update knows it by */
	struct router_fib_part *part[ROUTER_FIB_NPARTS];
	uint64_t id;
};

static inline bool router_bit_test(const uint64_t *bits, uint32_t i)
{
	return (bits[i >> 6] >> (i & 63)) & 1;
}

static inline void router_bit_set(uint64_t *bits, uint32_t i)
{
	bits[i >> 6] |= 1ull << (i & 63);
}

/* router_fib_route_get() of a FIB with a delta (router_fib_delta.c). */
uint64_t router_fib_delta_route_get(const struct router_fib *fib, uint64_t prefix);

/* The next hop for a 64-bit subnet prefix in the base tables alone: exact first, then aggregates. */
static inline uint64_t router_fib_base_route_get(const struct router_fib *fib, uint64_t prefix)
{
	uint64_t v = router_hash_get(&fib->exact, prefix);

	for (uint32_t i = 0; !v && i < fib->nagg; i++)
		v = router_hash_get(&fib->agg[i].h, prefix & fib->agg[i].mask);
	return v;
}

/* The next hop for a 64-bit subnet prefix: the delta's, or the base's. */
static inline uint64_t router_fib_route_get(const struct router_fib *fib, uint64_t prefix)
{
	if (__builtin_expect(fib->delta != NULL, 0))
		return router_fib_delta_route_get(fib, prefix);
	return router_fib_base_route_get(fib, prefix);
}

/* The neighbour value (router_neigh_pack) of port `port`'s end port `guid`, or 0. */
static inline uint64_t router_fib_neigh_get(const struct router_fib *fib, uint32_t port,
					    uint64_t guid)
{
	const struct router_fib_delta *d = fib->delta;
	uint64_t v;

	if (__builtin_expect(d != NULL, 0) && (d->neigh_ports >> port & 1) &&
	    router_fib_delta_may(d, router_fib_neigh_key(guid, port)) &&
	    (v = router_pmap_get(d->neigh[port], guid)))
		return v == ROUTER_VAL_TOMB ? 0 : v;
	return router_hash_get(&fib->neigh[port], guid);
}

/*
 * A flow's hash (IBA 8.2.3: one flow, SGID, DGID and FlowLabel, keeps one
 * path, o8-2), from the GRH's first byte: the four GID halves, rotated
 * apart, and the FlowLabel summed into one word, times an odd constant
 * (2^64 / golden ratio).  The top bits of a product depend on every bit
 * of the factor: the LMC path takes the top LMC bits (up to 7), the choice
 * among equal-cost next hops the 10 bits below them, so the two are apart.
 * (The low bits of a product depend only on the low bits of its factors: a
 * choice taken from them would let the GUIDs' last bytes never count.)
 */
static inline uint64_t router_rotl(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

static inline uint64_t router_flow_hash(const uint8_t *grh)
{
	uint64_t s0, s1, d0, d1;
	uint32_t w0;

	memcpy(&w0, grh, 4);
	memcpy(&s0, grh + 8, 8);
	memcpy(&s1, grh + 16, 8);
	memcpy(&d0, grh + 24, 8);
	memcpy(&d1, grh + 32, 8);
	return (s0 + router_rotl(s1, 16) + router_rotl(d0, 32) + router_rotl(d1, 48) +
		((uint64_t)(be32toh(w0) & 0xFFFFF) << 8)) *
	       0x9E3779B97F4A7C15ull;
}

/* The bucket of a flow of this hash among ROUTER_ECMP_BUCKETS (bits 56-47). */
static inline uint32_t router_ecmp_bucket(uint64_t flow_hash)
{
	return (uint32_t)(flow_hash >> 47) & (ROUTER_ECMP_BUCKETS - 1);
}

/* The group of a route value with ROUTER_VAL_ECMP: the base's, or one made since. */
static inline const struct router_fib_ecmp *router_fib_ecmp_of(const struct router_fib *fib,
							       uint64_t v)
{
	uint32_t i = (uint32_t)(v >> 32) & 0x7FFFFFFF;

	if (__builtin_expect(i < fib->necmp, 1))
		return &fib->ecmp[i];
	return fib->delta->ecmp_more[i - fib->necmp];
}

/*
 * The next hop of the flow of this GRH, come in by port `in`, on a route
 * whose value has ROUTER_VAL_ECMP: its bucket's; when that one leads back
 * out of `in` (a drop: never back into the subnet it came from) and
 * another next hop does not, the first bucket after it that does not (the
 * same for every packet of the flow).
 */
static inline uint64_t router_fib_ecmp_pick(const struct router_fib *fib, uint64_t v,
					    const uint8_t *grh, uint8_t in)
{
	const struct router_fib_ecmp *g = router_fib_ecmp_of(fib, v);
	uint32_t b = router_ecmp_bucket(router_flow_hash(grh));
	uint64_t nh = g->bucket[b];

	if (__builtin_expect((uint8_t)(nh >> 16) == in && (g->ports & ~(1u << (in & 31))), 0))
		for (uint32_t k = 1; k < ROUTER_ECMP_BUCKETS; k++) {
			uint64_t x = g->bucket[(b + k) & (ROUTER_ECMP_BUCKETS - 1)];

			if ((uint8_t)(x >> 16) != in)
				return x;
		}
	return nh;
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

/*
 * Free `fib` and the parts no other FIB holds.  FIBs that share parts may
 * be freed in any order.
 */
void router_fib_free(struct router_fib *fib);

#endif
