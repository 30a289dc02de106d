/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_fib.c: what router_rib_compile() makes of a RIB.  The port snapshot
 * and everything derived from it for the per-packet work (usable, LID span, site, P_Keys, the
 * LRH bits by SL and TClass), the route values (next hop, ROUTER_VAL_PORT_OK,
 * ROUTER_VAL_OWN_PFX), the exact and aggregate tables and their lookup order, the preferred
 * source per prefix, neighbours, multicast groups, the generation, and a FIB staying what it
 * was once the RIB changes.  router_rib_test.c holds the RIB's own rules,
 * router_fib_ecmp_test.c the routes through several next hops.
 */
#include "router/router_fib.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/router_fib_fix.h"

#include <endian.h>
#include <string.h>

static void route_add(struct router_rib *rib, uint64_t prefix, uint8_t plen, int src, uint8_t port,
		      uint16_t lid)
{
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = plen;
	r.key.source = (uint8_t)src;
	r.nh.port = port;
	r.nh.kind = ROUTER_NH_ROUTER;
	r.nh.lid = lid;
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add(rib, &r), 0);
}

static void mcast_add(struct router_rib *rib, uint8_t lastbyte, uint8_t port, uint16_t mlid,
		      uint8_t sl, uint32_t qkey, uint8_t flags)
{
	struct router_mcast m;

	memset(&m, 0, sizeof(m));
	m.key.mgid[0] = 0xFF;
	m.key.mgid[1] = 0x15; /* site scope */
	m.key.mgid[15] = lastbyte;
	m.key.port = port;
	m.mlid = mlid;
	m.sl = sl;
	m.qkey = qkey;
	m.flags = flags;
	CU_ASSERT_EQUAL_FATAL(router_rib_mcast_add(rib, &m), 0);
}

/* Nothing in the RIB: an empty FIB whose lookups all miss, one generation on. */
static void test_empty(void)
{
	struct router_rib rib;
	struct router_fib *fib;
	uint8_t mgid[16] = { 0xFF, 0x15 };

	router_rib_init(&rib);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->nports, 0);
	CU_ASSERT_EQUAL(fib->nagg, 0);
	CU_ASSERT_EQUAL(fib->ngroups, 0);
	CU_ASSERT_EQUAL(fib->nroutes, 0);
	CU_ASSERT_EQUAL(fib->generation, 1);
	CU_ASSERT_EQUAL(rib.generation, 1);
	CU_ASSERT_EQUAL(router_fib_route_get(fib, PFX_A), 0);
	CU_ASSERT_EQUAL(router_fib_route_get(fib, 0), 0);
	CU_ASSERT_PTR_NULL(router_fib_mgroup_get(fib, mgid));
	router_fib_free(fib);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->generation, 2); /* every compile is a new generation */
	router_fib_free(fib);
	router_fib_free(NULL);
	router_rib_free(&rib);
}

/* The snapshot of each port and the facts derived from it. */
static void test_ports(void)
{
	struct router_rib rib;
	struct router_port p;
	struct router_fib *fib;

	router_rib_init(&rib);
	port_add(&rib, "a", 0x10, 2, 1, PFX_A); /* LIDs 0x10-0x13, site 1 */
	port_add(&rib, "b", 0, 0, 2, PFX_B);	/* up, but no LID yet */
	port_add(&rib, "c", 0x20, 0, 1, 0);	/* site 1, prefix still unknown */
	p = rib.port[2];
	p.flags &= (uint8_t)~ROUTER_PORT_UP; /* down, with a LID */
	p.npkeys = 4;
	p.pkeys[0] = 0xFFFF; /* full member of the default partition */
	p.pkeys[1] = 0x0005; /* limited member of 0x0005 */
	p.pkeys[2] = 0x8000; /* invalid, never a match */
	p.pkeys[3] = 0x0000;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 2, &p), 0);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->nports, 3);
	CU_ASSERT_EQUAL(memcmp(&fib->port[0].cfg, &rib.port[0], sizeof(rib.port[0])), 0);
	CU_ASSERT_EQUAL(memcmp(&fib->port[2].cfg, &rib.port[2], sizeof(rib.port[2])), 0);
	/* usable: up and with a LID */
	CU_ASSERT_TRUE(fib->port[0].usable);
	CU_ASSERT_FALSE(fib->port[1].usable);
	CU_ASSERT_FALSE(fib->port[2].usable);
	/* the DLIDs a port owns: 2^LMC from its LID; none without a LID */
	CU_ASSERT_EQUAL(fib->port[0].lid_span, 4);
	CU_ASSERT_EQUAL(fib->port[1].lid_span, 0);
	CU_ASSERT_EQUAL(fib->port[2].lid_span, 1);
	/* the port's GID as the data path loads it from the wire: big-endian words */
	CU_ASSERT_EQUAL(fib->port[0].gid_wire[0], htobe64(PFX_A));
	CU_ASSERT_EQUAL(fib->port[0].gid_wire[1], htobe64(rib.port[0].guid));
	/* the ports of its site, itself included */
	CU_ASSERT_EQUAL(fib->port[0].site_ports, 0x5);
	CU_ASSERT_EQUAL(fib->port[1].site_ports, 0x2);
	CU_ASSERT_EQUAL(fib->port[2].site_ports, 0x5);
	/* P_Keys by their low 15 bits, membership aside; 0x0000 and 0x8000 never */
	CU_ASSERT_TRUE(router_bit_test(fib->port[2].pkey_bits, 0x7FFF));
	CU_ASSERT_TRUE(router_bit_test(fib->port[2].pkey_bits, 0x0005));
	CU_ASSERT_FALSE(router_bit_test(fib->port[2].pkey_bits, 0x0000));
	CU_ASSERT_FALSE(router_bit_test(fib->port[2].pkey_bits, 0x0004));
	CU_ASSERT_FALSE(router_bit_test(fib->port[0].pkey_bits, 0x7FFF));
	router_fib_free(fib);
	router_rib_free(&rib);
}

/*
 * A RoCE port (ROUTER_PORT_ROCE) has no LID and is usable all the same; it
 * owns DLID 0 alone (lid_span 1), the DLID its packets come in with.  The
 * same port without the flag is not usable and owns no DLID.
 */
static void test_roce_port(void)
{
	struct router_rib rib;
	struct router_port p;
	struct router_fib *fib;

	router_rib_init(&rib);
	port_add(&rib, "a", 0, 0, 0, PFX_A);
	port_add(&rib, "b", 0, 0, 0, PFX_B);
	p = rib.port[1];
	p.flags |= ROUTER_PORT_ROCE;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 1, &p), 0);
	fib = compile(&rib);
	CU_ASSERT_FALSE(fib->port[0].usable);
	CU_ASSERT_EQUAL(fib->port[0].lid_span, 0);
	CU_ASSERT_TRUE(fib->port[1].usable);
	CU_ASSERT_EQUAL(fib->port[1].lid_span, 1);
	router_fib_free(fib);
	/* down: not usable, RoCE or not */
	p.flags &= (uint8_t)~ROUTER_PORT_UP;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 1, &p), 0);
	fib = compile(&rib);
	CU_ASSERT_FALSE(fib->port[1].usable);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* Only the first npkeys entries of the table count, and no more than ROUTER_MAX_PKEYS. */
static void test_pkey_count(void)
{
	struct router_rib rib;
	struct router_port p;
	struct router_fib *fib;

	rib_two_ports(&rib);
	p = rib.port[0];
	for (int i = 0; i < ROUTER_MAX_PKEYS; i++)
		p.pkeys[i] = (uint16_t)(0x8000 | (i + 1));
	p.npkeys = 2;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 0, &p), 0);
	fib = compile(&rib);
	CU_ASSERT_TRUE(router_bit_test(fib->port[0].pkey_bits, 1));
	CU_ASSERT_TRUE(router_bit_test(fib->port[0].pkey_bits, 2));
	CU_ASSERT_FALSE(router_bit_test(fib->port[0].pkey_bits, 3));
	router_fib_free(fib);
	p.npkeys = ROUTER_MAX_PKEYS + 10; /* more than the table holds */
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 0, &p), 0);
	fib = compile(&rib);
	CU_ASSERT_TRUE(router_bit_test(fib->port[0].pkey_bits, ROUTER_MAX_PKEYS));
	CU_ASSERT_FALSE(router_bit_test(fib->port[0].pkey_bits, ROUTER_MAX_PKEYS + 1));
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* The LRH bits a packet leaving a port gets: VL by SL, SL by TClass, SLID (IBA 8.2.3). */
static void test_lrh_bits(void)
{
	struct router_rib rib;
	struct router_port p;
	struct router_fib *fib;
	const struct router_fib_port *fp;

	rib_two_ports(&rib);
	fib = compile(&rib);
	fp = &fib->port[0];
	/* the defaults: SL kept, every SL on VL0 */
	CU_ASSERT_FALSE(fp->tclass_map);
	CU_ASSERT_TRUE(fp->lrh_keep_sl);
	CU_ASSERT_EQUAL(fp->lrh_keep_sl_bits, 1); /* VL0, SL0, SLID 1 */
	for (int sl = 0; sl < 16; sl++)
		CU_ASSERT_EQUAL(fp->lrh_by_sl[sl], (uint64_t)sl << 52 | 1);
	for (int tc = 0; tc < 256; tc++)
		CU_ASSERT_EQUAL(fp->lrh_by_tclass[tc], ROUTER_LRH_SL_KEEP);
	router_fib_free(fib);

	/* SL 3 on VL 2: one VL no longer takes every SL */
	p = rib.port[1];
	p.sl_vl[3] = 2;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 1, &p), 0);
	fib = compile(&rib);
	fp = &fib->port[1];
	CU_ASSERT_FALSE(fp->lrh_keep_sl);
	CU_ASSERT_FALSE(fp->tclass_map);
	CU_ASSERT_EQUAL(fp->lrh_by_sl[3], 2ull << 60 | 3ull << 52 | 2);
	CU_ASSERT_EQUAL(fp->lrh_by_sl[4], 4ull << 52 | 2);
	CU_ASSERT_TRUE(fib->port[0].lrh_keep_sl); /* the other port's stays */
	router_fib_free(fib);

	/* TClass 0x40 to SL 3: the map is on, the others keep their SL */
	p.tclass_sl[0x40] = 3;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 1, &p), 0);
	fib = compile(&rib);
	fp = &fib->port[1];
	CU_ASSERT_TRUE(fp->tclass_map);
	CU_ASSERT_FALSE(fp->lrh_keep_sl);
	CU_ASSERT_EQUAL(fp->lrh_by_tclass[0x40], fp->lrh_by_sl[3]);
	CU_ASSERT_EQUAL(fp->lrh_by_tclass[0x41], ROUTER_LRH_SL_KEEP);
	router_fib_free(fib);

	/* a TClass map alone, every SL on one VL, is no longer the keep-SL shortcut */
	p.sl_vl[3] = 0;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 1, &p), 0);
	fib = compile(&rib);
	CU_ASSERT_TRUE(fib->port[1].tclass_map);
	CU_ASSERT_FALSE(fib->port[1].lrh_keep_sl);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* A route's value: its next hop, whether its port is usable, whether it covers the port's prefix. */
static void test_route_values(void)
{
	struct router_rib rib;
	struct router_port p;
	struct router_fib *fib;
	struct router_nh nh;
	uint64_t v;

	rib_two_ports(&rib);
	route_add(&rib, PFX_A, 64, ROUTER_SRC_CONNECTED, 0, 1);
	route_add(&rib, 0xfec0000000000000ull, 48, ROUTER_SRC_STATIC, 0, 7); /* covers a and b */
	route_add(&rib, 0x2001000000000000ull, 16, ROUTER_SRC_STATIC, 0, 8); /* covers neither */
	route_add(&rib, 0, 0, ROUTER_SRC_STATIC, 1, 9);			     /* covers all */
	route_add(&rib, 0x3000000000000000ull, 64, ROUTER_SRC_SA, 1, 10);
	fib = compile(&rib);
	v = router_fib_route_get(fib, PFX_A);
	nh = router_nh_unpack(v);
	CU_ASSERT_EQUAL(nh.port, 0);
	CU_ASSERT_EQUAL(nh.lid, 1);
	CU_ASSERT_EQUAL(nh.kind, ROUTER_NH_ROUTER);
	CU_ASSERT_TRUE((v & ROUTER_VAL_PRESENT) != 0);
	CU_ASSERT_TRUE((v & ROUTER_VAL_PORT_OK) != 0);
	CU_ASSERT_TRUE((v & ROUTER_VAL_OWN_PFX) != 0);
	v = router_fib_route_get(fib, 0xfec0000000000c00ull);
	CU_ASSERT_EQUAL(router_nh_unpack(v).lid, 7);
	CU_ASSERT_TRUE((v & ROUTER_VAL_OWN_PFX) != 0);
	v = router_fib_route_get(fib, 0x2001000000000001ull);
	CU_ASSERT_EQUAL(router_nh_unpack(v).lid, 8);
	CU_ASSERT_FALSE((v & ROUTER_VAL_OWN_PFX) != 0);
	CU_ASSERT_TRUE((v & ROUTER_VAL_PORT_OK) != 0);
	v = router_fib_route_get(fib, 0x4000000000000000ull);
	CU_ASSERT_EQUAL(router_nh_unpack(v).lid, 9);
	CU_ASSERT_TRUE((v & ROUTER_VAL_OWN_PFX) !=
		       0); /* the default route covers port b's prefix */
	v = router_fib_route_get(fib, 0x3000000000000000ull);
	CU_ASSERT_EQUAL(router_nh_unpack(v).lid, 10);
	CU_ASSERT_FALSE((v & ROUTER_VAL_OWN_PFX) != 0); /* a /64 other than b's own */
	router_fib_free(fib);

	/* port b down: its routes stay, without PORT_OK; port a's keep it */
	p = rib.port[1];
	p.flags &= (uint8_t)~ROUTER_PORT_UP;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 1, &p), 0);
	fib = compile(&rib);
	v = router_fib_route_get(fib, 0x3000000000000000ull);
	CU_ASSERT_EQUAL(router_nh_unpack(v).lid, 10);
	CU_ASSERT_FALSE((v & ROUTER_VAL_PORT_OK) != 0);
	CU_ASSERT_TRUE((router_fib_route_get(fib, PFX_A) & ROUTER_VAL_PORT_OK) != 0);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* Per prefix the preferred source wins whatever the order they came in. */
static void test_source_preference(void)
{
	struct router_rib rib;
	struct router_fib *fib;

	rib_two_ports(&rib);
	route_add(&rib, 0x5000000000000000ull, 64, ROUTER_SRC_PEER, 1, 50);
	route_add(&rib, 0x5000000000000000ull, 64, ROUTER_SRC_SA, 1, 30);
	route_add(&rib, 0x5000000000000000ull, 64, ROUTER_SRC_PLUGIN, 1, 40);
	route_add(&rib, 0x6000000000000000ull, 8, ROUTER_SRC_SA, 1, 31);
	route_add(&rib, 0x6000000000000000ull, 8, ROUTER_SRC_STATIC, 0, 21);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->nroutes, 5); /* every route of the RIB, one value per prefix */
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0x5000000000000000ull)).lid, 30);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0x6000000000000001ull)).lid, 21);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0x6000000000000001ull)).port, 0);
	router_fib_free(fib);
	/* the preferred one withdrawn: the next one answers */
	CU_ASSERT_EQUAL(router_rib_route_del(&rib, 0x5000000000000000ull, 64, ROUTER_SRC_SA), 0);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0x5000000000000000ull)).lid, 40);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/*
 * The exact table holds the /64s, one aggregate table each shorter length, longest first:
 * the longest prefix answers, whatever its source.
 */
static void test_aggregates(void)
{
	struct router_rib rib;
	struct router_fib *fib;
	const uint64_t base = 0xfec0123456789abcull;

	rib_two_ports(&rib);
	/* a route at every length 0..64 covering `base`, the next hop's LID its length + 1 */
	for (int plen = 0; plen <= 64; plen++)
		route_add(&rib, plen ? base & ~0ull << (64 - plen) : 0, (uint8_t)plen,
			  plen & 1 ? ROUTER_SRC_PEER : ROUTER_SRC_STATIC, 0, (uint16_t)(plen + 1));
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->nagg, 64); /* lengths 63..0: every aggregate slot */
	CU_ASSERT_EQUAL(fib->nroutes, 65);
	for (uint32_t i = 0; i < fib->nagg; i++) {
		CU_ASSERT_EQUAL(fib->agg[i].plen, 63 - i);
		CU_ASSERT_EQUAL(fib->agg[i].mask,
				fib->agg[i].plen ? ~0ull << (64 - fib->agg[i].plen) : 0);
	}
	CU_ASSERT_EQUAL(router_hash_get(&fib->exact, base) != 0, 1);
	/* each address that leaves the route of length L at bit L answers L - 1... */
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, base)).lid, 65);
	for (int plen = 1; plen <= 64; plen++) {
		uint64_t other = base ^ 1ull << (64 - plen); /* differs in bit plen - 1 */

		CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, other)).lid, plen);
	}
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* Some lengths only: only those have tables, in decreasing length, and misses miss. */
static void test_aggregate_gaps(void)
{
	struct router_rib rib;
	struct router_fib *fib;

	rib_two_ports(&rib);
	route_add(&rib, 0xfe00000000000000ull, 8, ROUTER_SRC_STATIC, 0, 8);
	route_add(&rib, 0xfec0000000000000ull, 32, ROUTER_SRC_SA, 1, 32);
	route_add(&rib, 0xfec0000100000000ull, 32, ROUTER_SRC_SA, 1, 33);
	route_add(&rib, 0xfec0000000120000ull, 48, ROUTER_SRC_STATIC, 0, 48);
	fib = compile(&rib);
	CU_ASSERT_EQUAL_FATAL(fib->nagg, 3);
	CU_ASSERT_EQUAL(fib->agg[0].plen, 48);
	CU_ASSERT_EQUAL(fib->agg[1].plen, 32);
	CU_ASSERT_EQUAL(fib->agg[2].plen, 8);
	CU_ASSERT_EQUAL(fib->agg[1].mask, 0xFFFFFFFF00000000ull);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0xfec0000000120001ull)).lid, 48);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0xfec0000000130001ull)).lid, 32);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0xfec0000100000000ull)).lid, 33);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0xfec0000200000000ull)).lid, 8);
	CU_ASSERT_EQUAL(router_fib_route_get(fib, 0xfd00000000000000ull), 0);
	CU_ASSERT_EQUAL(router_fib_route_get(fib, 0), 0);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* Neighbours: one table per port, the preferred source's LID and LMC per GUID. */
static void test_neighbours(void)
{
	struct router_rib rib;
	struct router_neigh n;
	struct router_fib *fib;

	rib_two_ports(&rib);
	memset(&n, 0, sizeof(n));
	n.key.guid = 0x0002c9030000abcdull;
	n.key.port = 1;
	n.key.source = ROUTER_SRC_PLUGIN;
	n.lid = 40;
	n.lmc = 1;
	CU_ASSERT_EQUAL_FATAL(router_rib_neigh_add(&rib, &n), 0);
	n.key.source = ROUTER_SRC_SA;
	n.lid = 41;
	n.lmc = 2;
	CU_ASSERT_EQUAL_FATAL(router_rib_neigh_add(&rib, &n), 0);
	n.key.port = 0; /* the same GUID behind the other port */
	n.key.source = ROUTER_SRC_PEER;
	n.lid = 42;
	n.lmc = 0;
	CU_ASSERT_EQUAL_FATAL(router_rib_neigh_add(&rib, &n), 0);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(router_hash_get(&fib->neigh[1], n.key.guid), router_neigh_pack(41, 2));
	CU_ASSERT_EQUAL(router_hash_get(&fib->neigh[0], n.key.guid), router_neigh_pack(42, 0));
	CU_ASSERT_EQUAL(router_hash_get(&fib->neigh[1], n.key.guid + 1), 0);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* A group is one FIB entry with its MLID, SL and Q_Key per port that has it. */
static void test_mcast_groups(void)
{
	struct router_rib rib;
	struct router_fib *fib;
	const struct router_fib_mgroup *g;
	uint8_t mgid[16] = { 0xFF, 0x15 };

	router_rib_init(&rib);
	port_add(&rib, "a", 1, 0, 0, PFX_A);
	port_add(&rib, "b", 2, 0, 0, PFX_B);
	port_add(&rib, "c", 3, 0, 0, 0xfec0000000000c00ull);
	mcast_add(&rib, 0x01, 0, 0xC001, 1, 0x11, ROUTER_MCAST_RECEIVERS);
	mcast_add(&rib, 0x01, 2, 0xC101, 3, 0x33, ROUTER_MCAST_SENDERS);
	mcast_add(&rib, 0x02, 1, 0xC002, 0, 0, ROUTER_MCAST_RECEIVERS | ROUTER_MCAST_SENDERS);
	fib = compile(&rib);
	CU_ASSERT_EQUAL(fib->ngroups, 2);
	mgid[15] = 0x01;
	g = router_fib_mgroup_get(fib, mgid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(memcmp(g->mgid, mgid, 16), 0);
	CU_ASSERT_EQUAL(g->on_ports, 0x5);
	CU_ASSERT_EQUAL(g->recv_ports, 0x1); /* port c's members only send */
	CU_ASSERT_EQUAL(g->mlid[0], 0xC001);
	CU_ASSERT_EQUAL(g->mlid[2], 0xC101);
	CU_ASSERT_EQUAL(g->mlid[1], 0);
	CU_ASSERT_EQUAL(g->sl[2], 3);
	CU_ASSERT_EQUAL(g->qkey[0], 0x11);
	CU_ASSERT_EQUAL(g->qkey[2], 0x33);
	/* each port knows the MLIDs of its own subnet's groups */
	CU_ASSERT_TRUE(router_bit_test(fib->port[0].mlid_bits, 0x001));
	CU_ASSERT_TRUE(router_bit_test(fib->port[2].mlid_bits, 0x101));
	CU_ASSERT_FALSE(router_bit_test(fib->port[0].mlid_bits, 0x101));
	CU_ASSERT_TRUE(router_bit_test(fib->port[1].mlid_bits, 0x002));
	mgid[15] = 0x02;
	g = router_fib_mgroup_get(fib, mgid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->on_ports, 0x2);
	CU_ASSERT_EQUAL(g->recv_ports, 0x2);
	mgid[15] = 0x03;
	CU_ASSERT_PTR_NULL(router_fib_mgroup_get(fib, mgid));
	mgid[15] = 0x01;
	mgid[1] = 0x14; /* the same bytes but for the scope: another group */
	CU_ASSERT_PTR_NULL(router_fib_mgroup_get(fib, mgid));
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* The highest MLID maps to the last bit of the bitmap. */
static void test_mlid_edges(void)
{
	struct router_rib rib;
	struct router_fib *fib;

	rib_two_ports(&rib);
	mcast_add(&rib, 0x01, 0, 0xC000, 0, 0, ROUTER_MCAST_RECEIVERS);
	mcast_add(&rib, 0x02, 0, 0xFFFE, 0, 0, ROUTER_MCAST_RECEIVERS);
	fib = compile(&rib);
	CU_ASSERT_TRUE(router_bit_test(fib->port[0].mlid_bits, 0));
	CU_ASSERT_TRUE(router_bit_test(fib->port[0].mlid_bits, 0x3FFE));
	CU_ASSERT_FALSE(router_bit_test(fib->port[0].mlid_bits, 0x3FFF));
	CU_ASSERT_FALSE(router_bit_test(fib->port[1].mlid_bits, 0));
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* A compiled FIB is immutable: what the RIB does next does not reach it. */
static void test_immutable(void)
{
	struct router_rib rib;
	struct router_port p;
	struct router_fib *old, *cur;

	rib_two_ports(&rib);
	route_add(&rib, 0x7000000000000000ull, 64, ROUTER_SRC_STATIC, 1, 70);
	old = compile(&rib);
	route_add(&rib, 0x7000000000000000ull, 64, ROUTER_SRC_CONNECTED, 0, 71);
	route_add(&rib, 0x8000000000000000ull, 64, ROUTER_SRC_STATIC, 0, 80);
	p = rib.port[1];
	p.lid = 99;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_set(&rib, 1, &p), 0);
	cur = compile(&rib);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(old, 0x7000000000000000ull)).lid, 70);
	CU_ASSERT_EQUAL(router_fib_route_get(old, 0x8000000000000000ull), 0);
	CU_ASSERT_EQUAL(old->port[1].cfg.lid, 2);
	CU_ASSERT_EQUAL(old->port[1].lrh_by_sl[0] & 0xFFFF, 2);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(cur, 0x7000000000000000ull)).lid, 71);
	CU_ASSERT_EQUAL(cur->port[1].lrh_by_sl[0] & 0xFFFF, 99);
	CU_ASSERT_EQUAL(cur->generation, old->generation + 1);
	router_fib_free(old);
	router_fib_free(cur);
	router_rib_free(&rib);
}

static CU_TestInfo tests[] = {
	{ "an empty RIB", test_empty },
	{ "the port snapshot and what derives from it", test_ports },
	{ "a RoCE port: usable without a LID", test_roce_port },
	{ "P_Keys: npkeys entries, at most ROUTER_MAX_PKEYS", test_pkey_count },
	{ "LRH bits by SL and TClass", test_lrh_bits },
	{ "route values: next hop, PORT_OK, OWN_PFX", test_route_values },
	{ "the preferred source per prefix", test_source_preference },
	{ "aggregates at every length, longest first", test_aggregates },
	{ "aggregates at some lengths, misses", test_aggregate_gaps },
	{ "neighbours per port and source", test_neighbours },
	{ "multicast groups per port", test_mcast_groups },
	{ "MLID bitmap edges", test_mlid_edges },
	{ "a FIB is immutable once compiled", test_immutable },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("router_fib", tests);
}
