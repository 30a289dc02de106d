/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for router/router_rib.c and router/router_fib.c: sources, preference,
 * longest prefix, replace, withdraw, neighbours, multicast, 10^6 routes. */
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void rib_two_ports(struct router_rib *rib)
{
	struct router_port p;

	router_rib_init(rib);
	router_port_defaults(&p, "a");
	CU_ASSERT_EQUAL(router_rib_port_add(rib, &p), 0);
	router_port_defaults(&p, "b");
	CU_ASSERT_EQUAL(router_rib_port_add(rib, &p), 1);
	CU_ASSERT_EQUAL(router_rib_port_add(rib, &p), -EEXIST);
	CU_ASSERT_EQUAL(router_rib_port_find(rib, "b"), 1);
	CU_ASSERT_EQUAL(router_rib_port_find(rib, "c"), -ENOENT);
}

static int route(struct router_rib *rib, uint64_t prefix, uint8_t plen, int src, uint8_t port,
		 int kind, uint16_t lid)
{
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = plen;
	r.key.source = (uint8_t)src;
	r.nh.port = port;
	r.nh.kind = (uint8_t)kind;
	r.nh.lid = lid;
	return router_rib_route_add(rib, &r);
}

/* Look `prefix` up in a freshly compiled FIB: the next hop or port 0xFF. */
static struct router_nh lookup(struct router_rib *rib, uint64_t prefix)
{
	struct router_fib *fib = router_rib_compile(rib);
	struct router_nh nh = { .port = 0xFF };
	uint64_t v;

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	v = router_fib_route_get(fib, prefix);
	if (v)
		nh = router_nh_unpack(v);
	router_fib_free(fib);
	return nh;
}

static void test_longest_prefix(void)
{
	struct router_rib rib;

	rib_two_ports(&rib);
	CU_ASSERT_EQUAL(
		route(&rib, 0xfec0000000000000ull, 16, ROUTER_SRC_STATIC, 0, ROUTER_NH_ROUTER, 10),
		0);
	CU_ASSERT_EQUAL(
		route(&rib, 0xfec0000000020000ull, 48, ROUTER_SRC_STATIC, 1, ROUTER_NH_ROUTER, 20),
		0);
	CU_ASSERT_EQUAL(
		route(&rib, 0xfec0000000020002ull, 64, ROUTER_SRC_STATIC, 1, ROUTER_NH_DIRECT, 0),
		0);
	CU_ASSERT_EQUAL(route(&rib, 0, 0, ROUTER_SRC_STATIC, 0, ROUTER_NH_ROUTER, 99), 0);
	CU_ASSERT_EQUAL(lookup(&rib, 0xfec0000000020002ull).kind, ROUTER_NH_DIRECT);
	CU_ASSERT_EQUAL(lookup(&rib, 0xfec0000000020003ull).lid, 20);
	CU_ASSERT_EQUAL(lookup(&rib, 0xfec0000000030003ull).lid, 10);
	CU_ASSERT_EQUAL(lookup(&rib, 0x2001000000000000ull).lid, 99); /* default */
	CU_ASSERT_EQUAL(router_rib_route_del(&rib, 0, 0, ROUTER_SRC_STATIC), 0);
	CU_ASSERT_EQUAL(lookup(&rib, 0x2001000000000000ull).port, 0xFF);
	router_rib_free(&rib);
}

static void test_bad_routes(void)
{
	struct router_rib rib;

	rib_two_ports(&rib);
	/* host bits past the length, a length past 64, an unknown port or source,
	 * a next router without a unicast LID */
	CU_ASSERT_EQUAL(route(&rib, 0xfec0000000000001ull, 16, ROUTER_SRC_STATIC, 0, 0, 1),
			-EINVAL);
	CU_ASSERT_EQUAL(route(&rib, 0, 65, ROUTER_SRC_STATIC, 0, 0, 1), -EINVAL);
	CU_ASSERT_EQUAL(route(&rib, 0, 0, ROUTER_SRC_STATIC, 2, 0, 1), -EINVAL);
	CU_ASSERT_EQUAL(route(&rib, 0, 0, ROUTER_SRC_MAX, 0, 0, 1), -EINVAL);
	CU_ASSERT_EQUAL(route(&rib, 0, 0, ROUTER_SRC_STATIC, 0, ROUTER_NH_ROUTER, 0), -EINVAL);
	CU_ASSERT_EQUAL(route(&rib, 0, 0, ROUTER_SRC_STATIC, 0, ROUTER_NH_ROUTER, 0xC001), -EINVAL);
	/* past the last kind (ROUTER_NH_GID): the FIB packs a kind in two bits */
	CU_ASSERT_EQUAL(route(&rib, 0, 0, ROUTER_SRC_STATIC, 0, ROUTER_NH_GID + 1, 0), -EINVAL);
	CU_ASSERT_EQUAL(rib.routes.count, 0);
	/* every kind up to it is taken, and a GID next hop needs no LID */
	CU_ASSERT_EQUAL(route(&rib, 0, 0, ROUTER_SRC_STATIC, 1, ROUTER_NH_GID, 0), 0);
	CU_ASSERT_EQUAL(lookup(&rib, 0x2001000000000000ull).kind, ROUTER_NH_GID);
	CU_ASSERT_EQUAL(router_rib_route_del(&rib, 0, 0, ROUTER_SRC_STATIC), 0);
	CU_ASSERT_EQUAL(router_rib_route_del(&rib, 0, 0, ROUTER_SRC_STATIC), -ENOENT);
	router_rib_free(&rib);
}

static void test_preference_and_replace(void)
{
	struct router_rib rib;
	uint64_t p = 0xfec0000000000002ull;

	rib_two_ports(&rib);
	CU_ASSERT_EQUAL(route(&rib, p, 64, ROUTER_SRC_SA, 0, ROUTER_NH_ROUTER, 5), 0);
	CU_ASSERT_EQUAL(route(&rib, p, 64, ROUTER_SRC_PEER, 0, ROUTER_NH_ROUTER, 6), 0);
	CU_ASSERT_EQUAL(lookup(&rib, p).lid, 5);
	CU_ASSERT_EQUAL(route(&rib, p, 64, ROUTER_SRC_STATIC, 1, ROUTER_NH_ROUTER, 7), 0);
	CU_ASSERT_EQUAL(lookup(&rib, p).lid, 7);
	/* same prefix and source: replaced, not added */
	CU_ASSERT_EQUAL(route(&rib, p, 64, ROUTER_SRC_STATIC, 1, ROUTER_NH_ROUTER, 8), 0);
	CU_ASSERT_EQUAL(rib.routes.count, 3);
	CU_ASSERT_EQUAL(lookup(&rib, p).lid, 8);
	/* withdrawing the best exposes the next best */
	CU_ASSERT_EQUAL(router_rib_route_del(&rib, p, 64, ROUTER_SRC_STATIC), 0);
	CU_ASSERT_EQUAL(lookup(&rib, p).lid, 5);
	router_rib_flush(&rib, ROUTER_SRC_SA, -1);
	CU_ASSERT_EQUAL(lookup(&rib, p).lid, 6);
	router_rib_flush(&rib, ROUTER_SRC_PEER, 1); /* other port: nothing goes */
	CU_ASSERT_EQUAL(lookup(&rib, p).lid, 6);
	router_rib_flush(&rib, ROUTER_SRC_PEER, 0);
	CU_ASSERT_EQUAL(lookup(&rib, p).port, 0xFF);
	router_rib_free(&rib);
}

/*
 * A subnet prefix is one port's: port b's connected route for port a's
 * prefix is refused (-EEXIST) and a's route stays; a port replaces its own;
 * other sources may still name the prefix on another port.
 */
static void test_connected_conflict(void)
{
	const uint64_t pa = 0xfec0000000000001ull, pb = 0xfec0000000000002ull;
	struct router_rib rib;

	rib_two_ports(&rib);
	CU_ASSERT_EQUAL(route(&rib, pa, 64, ROUTER_SRC_CONNECTED, 0, ROUTER_NH_DIRECT, 0), 0);
	CU_ASSERT_EQUAL(route(&rib, pb, 64, ROUTER_SRC_CONNECTED, 1, ROUTER_NH_DIRECT, 0), 0);
	CU_ASSERT_EQUAL(route(&rib, pa, 64, ROUTER_SRC_CONNECTED, 1, ROUTER_NH_DIRECT, 0), -EEXIST);
	CU_ASSERT_EQUAL(lookup(&rib, pa).port, 0);
	CU_ASSERT_EQUAL(lookup(&rib, pb).port, 1);
	CU_ASSERT_EQUAL(router_rib_connected_prefix(&rib, 0), pa);
	CU_ASSERT_EQUAL(router_rib_connected_prefix(&rib, 1), pb);
	/* the owner re-adds its own; a static route may point elsewhere */
	CU_ASSERT_EQUAL(route(&rib, pa, 64, ROUTER_SRC_CONNECTED, 0, ROUTER_NH_DIRECT, 0), 0);
	CU_ASSERT_EQUAL(route(&rib, pa, 64, ROUTER_SRC_STATIC, 1, ROUTER_NH_ROUTER, 9), 0);
	CU_ASSERT_EQUAL(lookup(&rib, pa).port, 0);
	/* once a's route is gone, b may take the prefix */
	router_rib_flush(&rib, ROUTER_SRC_CONNECTED, 0);
	CU_ASSERT_EQUAL(router_rib_connected_prefix(&rib, 0), 0);
	CU_ASSERT_EQUAL(route(&rib, pa, 64, ROUTER_SRC_CONNECTED, 1, ROUTER_NH_DIRECT, 0), 0);
	router_rib_free(&rib);
}

static void test_neighbours(void)
{
	struct router_rib rib;
	struct router_neigh n;
	struct router_fib *fib;

	rib_two_ports(&rib);
	memset(&n, 0, sizeof(n));
	n.key.guid = 0x0002c90300001234ull;
	n.key.port = 1;
	n.key.source = ROUTER_SRC_SA;
	n.lid = 12;
	n.lmc = 2;
	CU_ASSERT_EQUAL(router_rib_neigh_add(&rib, &n), 0);
	n.key.source = ROUTER_SRC_STATIC;
	n.lid = 40;
	n.lmc = 0;
	CU_ASSERT_EQUAL(router_rib_neigh_add(&rib, &n), 0);
	n.lid = 0xC000;
	CU_ASSERT_EQUAL(router_rib_neigh_add(&rib, &n), -EINVAL);
	fib = router_rib_compile(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(router_hash_get(&fib->neigh[1], n.key.guid), router_neigh_pack(40, 0));
	CU_ASSERT_EQUAL(router_hash_get(&fib->neigh[0], n.key.guid), 0);
	router_fib_free(fib);
	CU_ASSERT_EQUAL(router_rib_neigh_del(&rib, 1, n.key.guid, ROUTER_SRC_STATIC), 0);
	fib = router_rib_compile(&rib);
	CU_ASSERT_EQUAL(router_hash_get(&fib->neigh[1], n.key.guid), router_neigh_pack(12, 2));
	router_fib_free(fib);
	router_rib_free(&rib);
}

static void test_mcast(void)
{
	struct router_rib rib;
	struct router_mcast m;
	struct router_fib *fib;
	const struct router_fib_mgroup *g;
	uint8_t other[16];

	rib_two_ports(&rib);
	memset(&m, 0, sizeof(m));
	m.key.mgid[0] = 0xFF;
	m.key.mgid[1] = 0x15;
	m.key.mgid[15] = 1;
	m.key.port = 0;
	m.mlid = 0xC001;
	m.sl = 3;
	m.flags = ROUTER_MCAST_SENDERS;
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), 0);
	m.key.port = 1;
	m.mlid = 0xC010;
	m.flags = ROUTER_MCAST_RECEIVERS;
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), 0);
	m.mlid = 0x0010; /* not a multicast LID */
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), -EINVAL);
	fib = router_rib_compile(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	g = router_fib_mgroup_get(fib, m.key.mgid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->on_ports, 3);
	CU_ASSERT_EQUAL(g->recv_ports, 2);
	CU_ASSERT_EQUAL(g->mlid[0], 0xC001);
	CU_ASSERT_EQUAL(g->mlid[1], 0xC010);
	CU_ASSERT_EQUAL(g->sl[1], 3);
	CU_ASSERT_TRUE(router_bit_test(fib->port[0].mlid_bits, 1));
	CU_ASSERT_FALSE(router_bit_test(fib->port[0].mlid_bits, 0x10));
	CU_ASSERT_TRUE(router_bit_test(fib->port[1].mlid_bits, 0x10));
	memcpy(other, m.key.mgid, 16);
	other[15] = 2;
	CU_ASSERT_PTR_NULL(router_fib_mgroup_get(fib, other));
	router_fib_free(fib);
	CU_ASSERT_EQUAL(router_rib_mcast_del(&rib, m.key.mgid, 1), 0);
	fib = router_rib_compile(&rib);
	g = router_fib_mgroup_get(fib, m.key.mgid);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->recv_ports, 0);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/*
 * Two MGIDs whose folded keys collide must both be found.  fold = lo ^ hi * C:
 * with hi halves 0x100 and 0x200 the products agree in their low byte, so
 * the lo halves can differ (making the folds equal) while both keep 0xFF in
 * their first byte (the low byte on this little-endian host).
 */
static void test_mcast_fold_collision(void)
{
	struct router_rib rib;
	struct router_mcast m;
	struct router_fib *fib;
	uint8_t a[16], b[16];
	uint64_t alo = 0x000000000000ABFFull, ahi = 0x100, bhi = 0x200, blo;

	blo = alo ^ (ahi * 0xff51afd7ed558ccdull) ^ (bhi * 0xff51afd7ed558ccdull);
	memcpy(a, &alo, 8);
	memcpy(a + 8, &ahi, 8);
	memcpy(b, &blo, 8);
	memcpy(b + 8, &bhi, 8);
	CU_ASSERT_EQUAL_FATAL(a[0], 0xFF);
	CU_ASSERT_EQUAL_FATAL(b[0], 0xFF);
	CU_ASSERT_NOT_EQUAL(memcmp(a, b, 16), 0);
	CU_ASSERT_EQUAL(router_mgid_fold(a), router_mgid_fold(b));

	rib_two_ports(&rib);
	memset(&m, 0, sizeof(m));
	memcpy(m.key.mgid, a, 16);
	m.mlid = 0xC001;
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), 0);
	memcpy(m.key.mgid, b, 16);
	m.mlid = 0xC002;
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), 0);
	fib = router_rib_compile(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(router_fib_mgroup_get(fib, a));
	CU_ASSERT_PTR_NOT_NULL_FATAL(router_fib_mgroup_get(fib, b));
	CU_ASSERT_EQUAL(router_fib_mgroup_get(fib, a)->mlid[0], 0xC001);
	CU_ASSERT_EQUAL(router_fib_mgroup_get(fib, b)->mlid[0], 0xC002);
	CU_ASSERT_EQUAL(fib->ngroups, 2);
	router_fib_free(fib);
	router_rib_free(&rib);
}

static void test_pkeys(void)
{
	struct router_rib rib;
	struct router_port p;
	struct router_fib *fib;

	rib_two_ports(&rib);
	p = rib.port[1];
	p.npkeys = 3;
	p.pkeys[0] = 0xFFFF;
	p.pkeys[1] = 0x8001;
	p.pkeys[2] = 0x0000; /* empty entry */
	CU_ASSERT_EQUAL(router_rib_port_set(&rib, 1, &p), 0);
	CU_ASSERT_EQUAL(router_rib_port_set(&rib, 5, &p), -ENOENT);
	fib = router_rib_compile(&rib);
	CU_ASSERT_TRUE(router_bit_test(fib->port[1].pkey_bits, 0x7FFF));
	CU_ASSERT_TRUE(router_bit_test(fib->port[1].pkey_bits, 0x0001));
	CU_ASSERT_FALSE(router_bit_test(fib->port[1].pkey_bits, 0x0000));
	CU_ASSERT_FALSE(router_bit_test(fib->port[0].pkey_bits, 0x7FFF));
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* 10^6 exact routes plus aggregates: every one found, misses miss. */
static void test_million(void)
{
	enum { N = 1000000 };
	struct router_rib rib;
	struct router_fib *fib;
	uint64_t bad = 0;

	rib_two_ports(&rib);
	for (uint64_t i = 0; i < N; i++)
		if (route(&rib, 0xfec0000000000000ull | (i << 8), 64, ROUTER_SRC_SA, i & 1,
			  ROUTER_NH_ROUTER, (uint16_t)(1 + i % 0xBFFE)))
			bad++;
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(
		route(&rib, 0xfec0000000000000ull, 32, ROUTER_SRC_STATIC, 0, ROUTER_NH_ROUTER, 3),
		0);
	fib = router_rib_compile(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL(fib->nroutes, N + 1);
	for (uint64_t i = 0; i < N; i++) {
		struct router_nh nh = router_nh_unpack(
			router_fib_route_get(fib, 0xfec0000000000000ull | (i << 8)));

		if (nh.port != (i & 1) || nh.lid != 1 + i % 0xBFFE)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	/* not among the /64s: the /32 aggregate answers */
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(fib, 0xfec0000000000001ull)).lid, 3);
	CU_ASSERT_EQUAL(router_fib_route_get(fib, 0xfec1000000000001ull), 0);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* A port's P_Key table: each partition once, base 0 never, at most ROUTER_MAX_PKEYS. */
static void test_port_pkeys(void)
{
	struct router_port p;

	router_port_defaults(&p, "a");
	CU_ASSERT_EQUAL(router_port_pkey_add(&p, 0xFFFF), 0);
	CU_ASSERT_EQUAL(router_port_pkey_add(&p, 0x8001), 0);
	CU_ASSERT_EQUAL(router_port_pkey_add(&p, 0x7FFF), -EEXIST); /* 0xffff's partition */
	CU_ASSERT_EQUAL(router_port_pkey_add(&p, 0x0001), -EEXIST); /* limited member of 0x8001's */
	CU_ASSERT_EQUAL(router_port_pkey_add(&p, 0x8000), -EINVAL);
	CU_ASSERT_EQUAL(router_port_pkey_add(&p, 0x0000), -EINVAL);
	CU_ASSERT_EQUAL(p.npkeys, 2);
	CU_ASSERT_EQUAL(p.pkeys[0], 0xFFFF);
	CU_ASSERT_EQUAL(p.pkeys[1], 0x8001);
	for (uint16_t k = 2; p.npkeys < ROUTER_MAX_PKEYS; k++)
		CU_ASSERT_EQUAL_FATAL(router_port_pkey_add(&p, k), 0);
	CU_ASSERT_EQUAL(router_port_pkey_add(&p, 0x4000), -ENOSPC);
	CU_ASSERT_EQUAL(p.npkeys, ROUTER_MAX_PKEYS);
}

/* A route of `n` next routers: port ports[i], LID lids[i] (kind `kind` for all). */
static int route_n(struct router_rib *rib, uint64_t prefix, unsigned n, const uint8_t *ports,
		   const uint16_t *lids, int kind)
{
	struct router_nh nhs[ROUTER_ECMP_MAX + 1];
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_PEER;
	for (unsigned i = 0; i < n && i <= ROUTER_ECMP_MAX; i++)
		nhs[i] = (struct router_nh){ .port = ports[i],
					     .kind = (uint8_t)kind,
					     .lid = lids[i] };
	return router_rib_route_add_nhs(rib, &r, nhs, n);
}

static const struct router_route *find(const struct router_rib *rib, uint64_t prefix, int src)
{
	struct router_route_key k = { .prefix = prefix, .plen = 64, .source = (uint8_t)src };

	return router_tab_find(&rib->routes, &k);
}

/*
 * Several next hops: up to ROUTER_ECMP_MAX next routers, each once; a
 * flush by port takes only the next hops through it
 */
static void test_ecmp_routes(void)
{
	static const uint8_t ports[9] = { 0, 1, 0, 1, 0, 1, 0, 1, 0 };
	static const uint16_t lids[9] = { 5, 6, 7, 8, 9, 10, 11, 12, 13 };
	static const uint16_t twice[2] = { 5, 5 };
	uint64_t p = 0xfec0000000000003ull;
	struct router_nh v[ROUTER_ECMP_MAX];
	const struct router_route *r;
	struct router_rib rib;

	rib_two_ports(&rib);
	CU_ASSERT_EQUAL(route_n(&rib, p, 9, ports, lids, ROUTER_NH_ROUTER), -EINVAL);
	CU_ASSERT_EQUAL(route_n(&rib, p, 2, ports, twice, ROUTER_NH_ROUTER), 0); /* ports differ */
	CU_ASSERT_EQUAL(route_n(&rib, p, 2, (const uint8_t[]){ 1, 1 }, twice, ROUTER_NH_ROUTER),
			-EINVAL); /* the same next hop twice */
	CU_ASSERT_EQUAL(route_n(&rib, p, 2, ports, lids, ROUTER_NH_DIRECT), -EINVAL);
	CU_ASSERT_EQUAL(route_n(&rib, p, 3, (const uint8_t[]){ 0, 1, 2 }, lids, ROUTER_NH_ROUTER),
			-EINVAL); /* no port 2 */
	CU_ASSERT_EQUAL(route_n(&rib, p, 2, ports, (const uint16_t[]){ 5, 0 }, ROUTER_NH_ROUTER),
			-EINVAL);
	CU_ASSERT_EQUAL(route_n(&rib, p, 8, ports, lids, ROUTER_NH_ROUTER), 0);
	r = find(&rib, p, ROUTER_SRC_PEER);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->nnh, 8);
	CU_ASSERT_EQUAL(router_rib_route_nhs(&rib, r, v), 8);
	CU_ASSERT_EQUAL(v[0].lid, 5);
	CU_ASSERT_EQUAL(v[7].lid, 12);
	CU_ASSERT_EQUAL(sizeof(*r), 32); /* the other 7 out of the record */
	CU_ASSERT(router_route_via(&rib, r, 0) && router_route_via(&rib, r, 1));
	CU_ASSERT_EQUAL(rib.nmore - rib.nfree_more, 1);
	/* port b's next hops go, a's stay */
	router_rib_flush_routes(&rib, ROUTER_SRC_PEER, 1);
	r = find(&rib, p, ROUTER_SRC_PEER);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(router_rib_route_nhs(&rib, r, v), 4);
	for (unsigned i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(v[i].port, 0);
	CU_ASSERT(!router_route_via(&rib, r, 1));
	router_rib_flush_routes(&rib, ROUTER_SRC_PEER, 0);
	CU_ASSERT_PTR_NULL(find(&rib, p, ROUTER_SRC_PEER));
	CU_ASSERT_EQUAL(rib.nmore - rib.nfree_more, 0); /* its slot back */
	/* a route of one next hop replacing one of several gives its slot back */
	CU_ASSERT_EQUAL(route_n(&rib, p, 3, ports, lids, ROUTER_NH_ROUTER), 0);
	CU_ASSERT_EQUAL(rib.nmore - rib.nfree_more, 1);
	CU_ASSERT_EQUAL(route(&rib, p, 64, ROUTER_SRC_PEER, 1, ROUTER_NH_ROUTER, 7), 0);
	CU_ASSERT_EQUAL(rib.nmore - rib.nfree_more, 0);
	CU_ASSERT_EQUAL(router_rib_route_nhs(&rib, find(&rib, p, ROUTER_SRC_PEER), v), 1);
	/* one of several replaced by another of several: the same slot, new next hops */
	CU_ASSERT_EQUAL(route_n(&rib, p, 3, ports, lids, ROUTER_NH_ROUTER), 0);
	CU_ASSERT_EQUAL(route_n(&rib, p, 2, ports + 1, lids + 1, ROUTER_NH_ROUTER), 0);
	CU_ASSERT_EQUAL(rib.nmore - rib.nfree_more, 1);
	CU_ASSERT_EQUAL(router_rib_route_nhs(&rib, find(&rib, p, ROUTER_SRC_PEER), v), 2);
	CU_ASSERT_EQUAL(v[1].lid, 7);
	CU_ASSERT_EQUAL(router_rib_route_del(&rib, p, 64, ROUTER_SRC_PEER), 0);
	CU_ASSERT_EQUAL(rib.nmore - rib.nfree_more, 0);
	/* nnh 0 (a route built with .nh alone) is one next hop */
	CU_ASSERT_EQUAL(route(&rib, p, 64, ROUTER_SRC_STATIC, 1, ROUTER_NH_ROUTER, 7), 0);
	CU_ASSERT_EQUAL(find(&rib, p, ROUTER_SRC_STATIC)->nnh, 1);
	router_rib_free(&rib);
}

static CU_TestInfo tests[] = {
	{ "several next hops: limits, each once, a flush by port", test_ecmp_routes },
	{ "a port's P_Key table", test_port_pkeys },
	{ "longest prefix match and default route", test_longest_prefix },
	{ "invalid routes rejected", test_bad_routes },
	{ "source preference, replace, withdraw, flush", test_preference_and_replace },
	{ "a connected prefix is one port's", test_connected_conflict },
	{ "neighbours by source", test_neighbours },
	{ "multicast groups and MLID bitmaps", test_mcast },
	{ "MGIDs with colliding folded keys", test_mcast_fold_collision },
	{ "P_Key bitmap", test_pkeys },
	{ "10^6 routes", test_million },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("router_rib", tests);
}
