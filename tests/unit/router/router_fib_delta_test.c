/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_fib_delta.c and router/router_pmap.c: the FIB a
 * change makes from the one before (its delta over a shared base) answers
 * every lookup as a whole compile of the same RIB does -- longest match over
 * mixed lengths, groups of next hops, preferred sources, neighbours,
 * multicast groups, ports, and the engine's verdicts -- after every step of
 * random adds, deletes and replaces; the base is compiled again exactly when
 * the delta outgrows its bound; what a change cannot express (a port, a
 * change made around the log) compiles whole; a published FIB never changes
 * its answers, and FIBs sharing parts free in any order.
 */
#include "router/router_engine.h"
#include "router/router_fib_int.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_pkt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 0x5eed1234abcdull;

static unsigned rnd(unsigned n)
{
	return (unsigned)(ibr_test_rand(&seed) % n);
}

/* ---- the persistent map ---- */

static void test_pmap_versions(void)
{
	struct router_pmap *v1 = router_pmap_ref(&router_pmap_empty), *v2;
	uint64_t b1 = router_pmap_batch(), b2;

	for (uint64_t k = 1; k <= 1000; k++)
		CU_ASSERT_EQUAL_FATAL(router_pmap_put(&v1, b1, k * 7919, k), 0);
	CU_ASSERT_EQUAL(router_pmap_count(v1), 1000);
	CU_ASSERT_EQUAL(router_pmap_count(&router_pmap_empty), 0);
	/* v2 from v1: a replace, an add; v1 stays what it was */
	v2 = router_pmap_ref(v1);
	b2 = router_pmap_batch();
	CU_ASSERT_EQUAL(router_pmap_put(&v2, b2, 7919, 99), 0);
	CU_ASSERT_EQUAL(router_pmap_put(&v2, b2, 5, 55), 0);
	CU_ASSERT_PTR_NOT_EQUAL(v1, v2);
	CU_ASSERT_EQUAL(router_pmap_get(v1, 7919), 1);
	CU_ASSERT_EQUAL(router_pmap_get(v2, 7919), 99);
	CU_ASSERT_EQUAL(router_pmap_get(v1, 5), 0);
	CU_ASSERT_EQUAL(router_pmap_get(v2, 5), 55);
	CU_ASSERT_EQUAL(router_pmap_count(v1), 1000);
	CU_ASSERT_EQUAL(router_pmap_count(v2), 1001);
	for (uint64_t k = 2; k <= 1000; k++)
		CU_ASSERT_EQUAL(router_pmap_get(v2, k * 7919), k);
	CU_ASSERT_EQUAL(router_pmap_put(&v2, b2, 6, 0), -EINVAL);
	/* the older freed first, then the newer: each keeps what it holds */
	router_pmap_unref(v1);
	CU_ASSERT_EQUAL(router_pmap_get(v2, 2 * 7919), 2);
	router_pmap_unref(v2);
	router_pmap_unref(&router_pmap_empty); /* never freed */
	CU_ASSERT_EQUAL(router_pmap_get(&router_pmap_empty, 5), 0);
}

/* A page takes ROUTER_PMAP_FILL keys; the next refuses, and the map stays as it was. */
static void test_pmap_page_full(void)
{
	struct router_pmap *m = router_pmap_ref(&router_pmap_empty);
	uint64_t batch = router_pmap_batch(), k = 0, first = 0;
	unsigned n = 0;

	while (n <= ROUTER_PMAP_FILL) {
		k = ibr_test_rand(&seed) | 1;
		if (router_pmap_hash(k) >> 52 != 0x123)
			continue; /* the keys of one page (root 0x4, mid 0x23) */
		if (!first)
			first = k;
		if (n < ROUTER_PMAP_FILL)
			CU_ASSERT_EQUAL_FATAL(router_pmap_put(&m, batch, k, n + 1), 0);
		n++;
	}
	CU_ASSERT_EQUAL(router_pmap_put(&m, batch, k, 1), -ENOSPC);
	CU_ASSERT_EQUAL(router_pmap_get(m, k), 0);
	CU_ASSERT_EQUAL(router_pmap_count(m), ROUTER_PMAP_FILL);
	CU_ASSERT_EQUAL(router_pmap_put(&m, batch, first, 77), 0); /* a replace still goes */
	CU_ASSERT_EQUAL(router_pmap_get(m, first), 77);
	router_pmap_unref(m);
}

/* ---- FIBs against whole compiles ---- */

#define NPORTS	3
#define NROOTS	3
#define NGUIDS	24
#define NGROUPS 6
#define NPROBES 160
#define NKEEP	4 /* FIBs kept alive as QSBR keeps retired ones */
static const uint8_t plens[] = { 0, 8, 16, 24, 32, 40, 48, 56, 60, 63, 64 };

struct world {
	struct router_rib rib;
	uint64_t root[NROOTS];	 /* nested prefixes: root r masked to each length */
	uint64_t probe[NPROBES]; /* DGID prefixes looked up */
	struct router_fib *keep[NKEEP];
	uint64_t kept[NKEEP][NPROBES]; /* each kept FIB's answers when it was made */
};

static uint64_t mask_of(unsigned plen)
{
	return plen ? ~0ull << (64 - plen) : 0;
}

static void world_init(struct world *w)
{
	memset(w, 0, sizeof(*w));
	router_rib_init(&w->rib);
	for (unsigned i = 0; i < NPORTS; i++) {
		struct router_port p;
		char name[8];

		snprintf(name, sizeof(name), "p%u", i);
		router_port_defaults(&p, name);
		p.lid = (uint16_t)(1 + i);
		p.prefix = 0xfec0000000000001ull + i;
		p.guid = 0x300000 + i;
		p.site = (uint8_t)(i == 2);
		p.flags = ROUTER_PORT_UP;
		CU_ASSERT_FATAL(router_rib_port_add(&w->rib, &p) >= 0);
	}
	for (unsigned r = 0; r < NROOTS; r++)
		w->root[r] = ibr_test_rand(&seed);
	w->root[0] = 0xfec0000000000002ull; /* port 1's own prefix: a route covering it */
	for (unsigned i = 0; i < NPROBES; i++) {
		/* under a root with random bits from a random length on, or anywhere */
		unsigned plen = plens[rnd(sizeof(plens))];
		uint64_t r = w->root[rnd(NROOTS)];

		w->probe[i] = i % 8 == 7 ? ibr_test_rand(&seed)
					 : (r & mask_of(plen)) |
						   (ibr_test_rand(&seed) & ~mask_of(plen));
	}
}

static void world_fini(struct world *w)
{
	for (unsigned i = 0; i < NKEEP; i++)
		router_fib_free(w->keep[i]);
	router_rib_free(&w->rib);
}

static void op_route(struct world *w)
{
	unsigned plen = plens[rnd(sizeof(plens))], src = ROUTER_SRC_STATIC + rnd(4);
	uint64_t prefix = w->root[rnd(NROOTS)] & mask_of(plen);
	struct router_nh nhs[ROUTER_ECMP_MAX];
	struct router_route r;
	unsigned n = 1 + (rnd(3) ? 0 : rnd(3));

	if (rnd(3) == 0) { /* a delete, of a route that may not be there */
		router_rib_route_del(&w->rib, prefix, (uint8_t)plen, (uint8_t)src);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = (uint8_t)plen;
	r.key.source = (uint8_t)src;
	r.metric = rnd(4);
	for (unsigned i = 0; i < n; i++) /* next routers: a few LIDs, so that groups repeat */
		nhs[i] = (struct router_nh){ .port = (uint8_t)rnd(NPORTS),
					     .kind = ROUTER_NH_ROUTER,
					     .lid = (uint16_t)(0x10 + i * 4 + rnd(4)),
					     .lmc = (uint8_t)rnd(2) };
	if (n == 1 && rnd(3) == 0)
		nhs[0].kind = (uint8_t)(rnd(2) ? ROUTER_NH_DIRECT : ROUTER_NH_ALGO);
	router_rib_route_add_nhs(&w->rib, &r, nhs, n); /* a repeated next hop: refused */
}

static void op_neigh(struct world *w)
{
	struct router_neigh n;

	memset(&n, 0, sizeof(n));
	n.key.guid = 0x100000 + rnd(NGUIDS);
	n.key.port = (uint8_t)rnd(NPORTS);
	n.key.source = (uint8_t)(ROUTER_SRC_STATIC + rnd(3));
	if (rnd(3) == 0) {
		router_rib_neigh_del(&w->rib, n.key.port, n.key.guid, n.key.source);
		return;
	}
	n.lid = (uint16_t)(0x100 + rnd(64));
	n.lmc = (uint8_t)rnd(3);
	router_rib_neigh_add(&w->rib, &n);
}

static void mgid_of(unsigned g, uint8_t *mgid)
{
	memset(mgid, 0, 16);
	mgid[0] = 0xFF;
	mgid[1] = 0x15;
	mgid[15] = (uint8_t)g;
}

static void op_mcast(struct world *w)
{
	struct router_mcast m;

	memset(&m, 0, sizeof(m));
	mgid_of(rnd(NGROUPS), m.key.mgid);
	m.key.port = (uint8_t)rnd(NPORTS);
	if (rnd(2)) {
		router_rib_mcast_del(&w->rib, m.key.mgid, m.key.port);
		return;
	}
	m.mlid = (uint16_t)(0xC001 + rnd(8));
	m.sl = (uint8_t)rnd(16);
	m.flags = (uint8_t)rnd(4);
	m.source = ROUTER_SRC_SA;
	router_rib_mcast_add(&w->rib, &m);
}

/* A port's state moves: every route's value with it (a whole compile). */
static void op_port(struct world *w)
{
	struct router_port p = w->rib.port[2];

	p.flags ^= ROUTER_PORT_UP;
	router_rib_port_set(&w->rib, 2, &p);
}

/* Two route values mean the same: equal, or groups of the same buckets. */
static bool val_same(const struct router_fib *a, uint64_t va, const struct router_fib *b,
		     uint64_t vb)
{
	const struct router_fib_ecmp *ga, *gb;

	if (!(va & ROUTER_VAL_ECMP) || !(vb & ROUTER_VAL_ECMP))
		return va == vb;
	ga = router_fib_ecmp_of(a, va);
	gb = router_fib_ecmp_of(b, vb);
	return (va & 0xFFFFFFFFull) == (vb & 0xFFFFFFFFull) && ga->n == gb->n &&
	       ga->ports == gb->ports && !memcmp(ga->bucket, gb->bucket, sizeof(ga->bucket));
}

static void pkt_make(uint8_t *buf, size_t size, uint64_t dprefix, uint64_t dguid, uint32_t *len)
{
	static uint8_t data[64];
	struct ibr_pkt_ud_params p;
	int n;

	memset(&p, 0, sizeof(p));
	p.slid = 0x50;
	p.dlid = 1;
	p.grh = true;
	for (int i = 0; i < 8; i++) {
		p.sgid[i] = (uint8_t)(0xfec0000000000001ull >> (56 - 8 * i));
		p.sgid[8 + i] = (uint8_t)(0x4242ull >> (56 - 8 * i));
		p.dgid[i] = (uint8_t)(dprefix >> (56 - 8 * i));
		p.dgid[8 + i] = (uint8_t)(dguid >> (56 - 8 * i));
	}
	p.hoplmt = 64;
	p.pkey = 0xFFFF;
	p.dest_qp = 5;
	p.qkey = 1;
	p.payload = data;
	p.payload_len = sizeof(data);
	n = ibr_pkt_build_ud(buf, size, &p);
	CU_ASSERT_FATAL(n > 0);
	*len = (uint32_t)n;
}

/* The engine's verdicts on a burst of packets to the probes, with `a` as with `ref`. */
static void engine_same(const struct world *w, const struct router_fib *a,
			const struct router_fib *ref)
{
	static uint8_t buf[ROUTER_BURST][256];
	static struct router_out oa, ob;
	struct router_counters ca, cb;
	struct router_mbuf m[ROUTER_BURST], *v[ROUTER_BURST];

	for (unsigned i = 0; i < ROUTER_BURST; i++) {
		pkt_make(buf[i], sizeof(buf[i]), w->probe[rnd(NPROBES)], 0x100000 + rnd(NGUIDS),
			 &m[i].len);
		m[i].data = buf[i];
		m[i].port = 0;
		v[i] = &m[i];
	}
	memset(&ca, 0, sizeof(ca));
	memset(&cb, 0, sizeof(cb));
	router_engine_burst(a, v, ROUTER_BURST, &oa, &ca);
	router_engine_burst(ref, v, ROUTER_BURST, &ob, &cb);
	CU_ASSERT_EQUAL(oa.ndrop, ob.ndrop);
	CU_ASSERT_EQUAL(oa.nlocal, ob.nlocal);
	for (unsigned p = 0; p < ROUTER_MAX_PORTS; p++) {
		CU_ASSERT_EQUAL_FATAL(oa.ntx[p], ob.ntx[p]);
		for (unsigned k = 0; k < oa.ntx[p]; k++) {
			CU_ASSERT_PTR_EQUAL(oa.tx[p][k].m, ob.tx[p][k].m);
			CU_ASSERT_EQUAL(memcmp(oa.tx[p][k].hdr, ob.tx[p][k].hdr, ROUTER_HDR_LEN),
					0);
		}
	}
	for (unsigned k = 0; k < oa.ndrop && k < ob.ndrop; k++)
		CU_ASSERT_EQUAL(oa.drop[k].reason, ob.drop[k].reason);
}

/* FIB `a` answers every lookup as `ref`, a whole compile of the same RIB. */
static void fib_same(const struct world *w, const struct router_fib *a,
		     const struct router_fib *ref)
{
	CU_ASSERT_EQUAL_FATAL(a->nports, ref->nports);
	for (uint32_t p = 0; p < a->nports; p++)
		CU_ASSERT_EQUAL(memcmp(&a->port[p], &ref->port[p], sizeof(a->port[p])), 0);
	CU_ASSERT_EQUAL(a->nroutes, ref->nroutes);
	for (unsigned i = 0; i < NPROBES; i++) {
		uint64_t va = router_fib_route_get(a, w->probe[i]);
		uint64_t vb = router_fib_route_get(ref, w->probe[i]);

		CU_ASSERT(val_same(a, va, ref, vb));
	}
	for (uint32_t p = 0; p < NPORTS; p++)
		for (unsigned g = 0; g < NGUIDS; g++)
			CU_ASSERT_EQUAL(router_fib_neigh_get(a, p, 0x100000 + g),
					router_hash_get(&ref->neigh[p], 0x100000 + g));
	CU_ASSERT_EQUAL(a->ngroups, ref->ngroups);
	for (unsigned g = 0; g < NGROUPS; g++) {
		const struct router_fib_mgroup *x, *y;
		uint8_t mgid[16];

		mgid_of(g, mgid);
		x = router_fib_mgroup_get(a, mgid);
		y = router_fib_mgroup_get(ref, mgid);
		CU_ASSERT_EQUAL_FATAL(!x, !y);
		if (x)
			CU_ASSERT(x->on_ports == y->on_ports && x->recv_ports == y->recv_ports &&
				  !memcmp(x->mlid, y->mlid, sizeof(x->mlid)) &&
				  !memcmp(x->sl, y->sl, sizeof(x->sl)));
	}
	engine_same(w, a, ref);
}

/* Keep `fib` as a retired FIB is kept, freeing a random older one; each kept one unchanged. */
static void keep_fib(struct world *w, struct router_fib *fib)
{
	unsigned slot = rnd(NKEEP);

	for (unsigned i = 0; i < NKEEP; i++)
		for (unsigned k = 0; w->keep[i] && k < NPROBES; k++)
			CU_ASSERT_EQUAL(router_fib_route_get(w->keep[i], w->probe[k]),
					w->kept[i][k]);
	router_fib_free(w->keep[slot]);
	w->keep[slot] = fib;
	for (unsigned k = 0; k < NPROBES; k++)
		w->kept[slot][k] = router_fib_route_get(fib, w->probe[k]);
}

/* Random turns of 1 to 4 changes; after each, the next FIB against a whole compile. */
static void test_random_turns(void)
{
	static struct world w;
	struct router_fib *cur = NULL;
	uint64_t deltas, compiles;

	world_init(&w);
	for (unsigned turn = 0; turn < 3000; turn++) {
		struct router_fib *next, *ref;

		for (unsigned n = 1 + rnd(4); n; n--) {
			unsigned op = rnd(100);

			if (op < 60)
				op_route(&w);
			else if (op < 90)
				op_neigh(&w);
			else if (op < 98)
				op_mcast(&w);
			else
				op_port(&w);
		}
		next = router_rib_update(&w.rib, cur);
		ref = router_rib_compile(&w.rib);
		CU_ASSERT_PTR_NOT_NULL_FATAL(next);
		CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
		fib_same(&w, next, ref);
		router_fib_free(ref);
		keep_fib(&w, next);
		cur = next;
	}
	deltas = w.rib.fib_deltas;
	compiles = w.rib.fib_compiles;
	/* most turns made a delta; the port changes (2 %) compiled whole */
	CU_ASSERT(deltas > 2500);
	CU_ASSERT(compiles >= 20 && compiles < 300);
	world_fini(&w);
}

/* A route of `prefix`/64 (static) via port 1 next router `lid`. */
static int route64(struct router_rib *rib, uint64_t prefix, uint16_t lid)
{
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = lid };
	return router_rib_route_add(rib, &r);
}

/*
 * A small base (its bound: 4096 entries): 4096 changes of keys of their own
 * make deltas, the 4097th compiles whole, the delta merged; right throughout.
 */
static void test_merge_bound(void)
{
	static struct world w;
	struct router_fib *cur, *ref;
	uint64_t compiles;

	world_init(&w);
	for (uint64_t i = 0; i < 100; i++)
		CU_ASSERT_EQUAL_FATAL(route64(&w.rib, 0x2001000000000000ull + i, 0x20), 0);
	cur = router_rib_update(&w.rib, NULL);
	compiles = w.rib.fib_compiles;
	for (uint64_t i = 0; i < 4097; i++) {
		struct router_fib *next;
		uint64_t key = 0x2002000000000000ull + i;
		int rc;

		/* adds and deletes of the base's routes, each key once */
		if (i % 2 || i / 2 >= 100)
			rc = route64(&w.rib, key, (uint16_t)(0x20 + i % 7));
		else
			rc = router_rib_route_del(&w.rib, 0x2001000000000000ull + i / 2, 64,
						  ROUTER_SRC_STATIC);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		next = router_rib_update(&w.rib, cur);
		CU_ASSERT_PTR_NOT_NULL_FATAL(next);
		CU_ASSERT_EQUAL(w.rib.fib_compiles, compiles + (i == 4096));
		CU_ASSERT_EQUAL(!next->delta, i == 4096);
		if (i % 512 == 0 || i >= 4095) {
			ref = router_rib_compile(&w.rib);
			fib_same(&w, next, ref);
			for (uint64_t k = 0; k <= i; k += 97)
				CU_ASSERT_EQUAL(
					router_fib_route_get(next, 0x2002000000000000ull + k),
					router_fib_route_get(ref, 0x2002000000000000ull + k));
			router_fib_free(ref);
		}
		router_fib_free(cur);
		cur = next;
	}
	router_fib_free(cur);
	world_fini(&w);
}

/*
 * The delta's lengths against the base's: a /64 gone falls back to the /48;
 * a /56 added shadows the /48 under it alone; the /48 gone leaves the /32;
 * back again; a length only the delta has.
 */
static void test_shadowing(void)
{
	static struct world w;
	const uint64_t p48 = 0x2001000000010000ull, host = p48 | 0xFF00;
	struct router_fib *cur, *next;
	struct router_route r;

	world_init(&w);
	memset(&r, 0, sizeof(r));
	r.key.source = ROUTER_SRC_STATIC;
	r.nh = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER };
#define ADD(pfx, len, l)                                                               \
	do {                                                                           \
		r.key.prefix = (pfx)&mask_of(len), r.key.plen = (len), r.nh.lid = (l); \
		CU_ASSERT_EQUAL_FATAL(router_rib_route_add(&w.rib, &r), 0);            \
	} while (0)
#define STEP()                                         \
	do {                                           \
		next = router_rib_update(&w.rib, cur); \
		CU_ASSERT_PTR_NOT_NULL_FATAL(next);    \
		router_fib_free(cur);                  \
		cur = next;                            \
	} while (0)
#define LID(key) router_nh_unpack(router_fib_route_get(cur, key)).lid
	ADD(p48, 32, 32);
	ADD(p48, 48, 48);
	ADD(host, 64, 64);
	cur = router_rib_update(&w.rib, NULL);
	CU_ASSERT_EQUAL(LID(host), 64);
	router_rib_route_del(&w.rib, host, 64, ROUTER_SRC_STATIC);
	STEP();
	CU_ASSERT_PTR_NOT_NULL(cur->delta);
	CU_ASSERT_EQUAL(LID(host), 48);
	ADD(host, 56, 56);
	STEP();
	CU_ASSERT_EQUAL(LID(host), 56);
	CU_ASSERT_EQUAL(LID(p48 | 0x1000), 48); /* outside the /56 */
	router_rib_route_del(&w.rib, p48, 48, ROUTER_SRC_STATIC);
	STEP();
	CU_ASSERT_EQUAL(LID(host), 56);
	CU_ASSERT_EQUAL(LID(p48 | 0x1000), 32);
	ADD(p48, 48, 49);
	STEP();
	CU_ASSERT_EQUAL(LID(p48 | 0x1000), 49);
	ADD(0x3000000000000000ull, 4, 4); /* a length the base has not */
	STEP();
	CU_ASSERT_EQUAL(LID(0x3123456789abcdefull), 4);
	CU_ASSERT_EQUAL(LID(host), 56);
	router_rib_route_del(&w.rib, 0x3000000000000000ull, 4, ROUTER_SRC_STATIC);
	STEP();
	CU_ASSERT_EQUAL(router_fib_route_get(cur, 0x3123456789abcdefull), 0);
#undef ADD
#undef STEP
#undef LID
	router_fib_free(cur);
	world_fini(&w);
}

/*
 * A better source over the base's route, then withdrawn: the base's comes
 * back.  The same value again adds nothing to the delta.
 */
static void test_best_source(void)
{
	static struct world w;
	struct router_fib *a, *b, *c;
	struct router_route r;

	world_init(&w);
	memset(&r, 0, sizeof(r));
	r.key.prefix = 0x2001000000000007ull;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_PEER;
	r.nh = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 0x71 };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add(&w.rib, &r), 0);
	a = router_rib_update(&w.rib, NULL);
	r.key.source = ROUTER_SRC_SA;
	r.nh.lid = 0x72;
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add(&w.rib, &r), 0);
	b = router_rib_update(&w.rib, a);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(a, r.key.prefix)).lid, 0x71);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(b, r.key.prefix)).lid, 0x72);
	CU_ASSERT_EQUAL(router_rib_route_del(&w.rib, r.key.prefix, 64, ROUTER_SRC_SA), 0);
	c = router_rib_update(&w.rib, b);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(c, r.key.prefix)).lid, 0x71);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(b, r.key.prefix)).lid, 0x72);
	router_fib_free(b); /* the middle one first: the others keep their parts */
	router_fib_free(a);
	/* a worse source changes nothing anyone reads: no delta entry for it */
	r.key.source = ROUTER_SRC_BRIDGE;
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add(&w.rib, &r), 0);
	a = router_rib_update(&w.rib, c);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(a, r.key.prefix)).lid, 0x71);
	CU_ASSERT_EQUAL(a->delta ? router_pmap_count(a->delta->exact) : 0,
			c->delta ? router_pmap_count(c->delta->exact) : 0);
	router_fib_free(c);
	router_fib_free(a);
	world_fini(&w);
}

/*
 * What a delta cannot say compiles whole: a port's change, a route changed
 * around the log, more changes than the log keeps.  A group's change makes
 * the groups' and ports' tables anew and shares the routes'.
 */
static void test_whole_when(void)
{
	static struct world w;
	struct router_fib *a, *b;
	struct router_route r;
	struct router_mcast m;
	uint64_t n;

	world_init(&w);
	CU_ASSERT_EQUAL_FATAL(route64(&w.rib, 0x2001000000000001ull, 0x20), 0);
	a = router_rib_update(&w.rib, NULL);
	/* a group: the routes' tables shared, the groups' and the ports' new */
	memset(&m, 0, sizeof(m));
	mgid_of(1, m.key.mgid);
	m.key.port = 1;
	m.mlid = 0xC005;
	CU_ASSERT_EQUAL_FATAL(router_rib_mcast_add(&w.rib, &m), 0);
	n = w.rib.fib_compiles;
	b = router_rib_update(&w.rib, a);
	CU_ASSERT_EQUAL(w.rib.fib_compiles, n);
	CU_ASSERT_PTR_EQUAL(b->exact.ent, a->exact.ent);
	CU_ASSERT_PTR_NOT_EQUAL(b->port, a->port);
	CU_ASSERT(router_bit_test(b->port[1].mlid_bits, 5) &&
		  !router_bit_test(a->port[1].mlid_bits, 5));
	CU_ASSERT_PTR_NOT_NULL(router_fib_mgroup_get(b, m.key.mgid));
	CU_ASSERT_PTR_NULL(router_fib_mgroup_get(a, m.key.mgid));
	router_fib_free(a);
	/* a port */
	op_port(&w);
	a = router_rib_update(&w.rib, b);
	CU_ASSERT_EQUAL(w.rib.fib_compiles, n + 1);
	router_fib_free(b);
	/* a route put around the RIB's functions */
	memset(&r, 0, sizeof(r));
	r.key.prefix = 0x2001000000000009ull;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 9 };
	CU_ASSERT_EQUAL_FATAL(router_tab_put(&w.rib.routes, &r), 1);
	b = router_rib_update(&w.rib, a);
	CU_ASSERT_EQUAL(w.rib.fib_compiles, n + 2);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(b, r.key.prefix)).lid, 9);
	router_fib_free(a);
	/* ... and one followed by a change the log sees */
	r.nh.lid = 10;
	CU_ASSERT_EQUAL_FATAL(router_tab_put(&w.rib.routes, &r), 0);
	CU_ASSERT_EQUAL_FATAL(route64(&w.rib, 0x200100000000000aull, 0x21), 0);
	a = router_rib_update(&w.rib, b);
	CU_ASSERT_EQUAL(w.rib.fib_compiles, n + 3);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(a, r.key.prefix)).lid, 10);
	router_fib_free(b);
	b = a;
	/* more changes than the log keeps */
	for (uint64_t i = 0; i <= ROUTER_RIB_LOG_MAX; i++)
		route64(&w.rib, 0x2003000000000000ull + i, 0x21);
	CU_ASSERT(w.rib.log.lost);
	a = router_rib_update(&w.rib, b);
	CU_ASSERT_EQUAL(w.rib.fib_compiles, n + 4);
	CU_ASSERT_FALSE(w.rib.log.lost);
	router_fib_free(b);
	/* a FIB made elsewhere (not the last this RIB made): whole */
	b = router_rib_compile(&w.rib);
	route64(&w.rib, 0x2004000000000000ull, 0x21);
	router_fib_free(router_rib_update(&w.rib, b));
	CU_ASSERT_EQUAL(w.rib.fib_compiles, n + 5);
	router_fib_free(b);
	router_fib_free(a);
	world_fini(&w);
}

/*
 * One route's next routers changed again and again: each set a new group in
 * the delta, until ROUTER_FIB_MORE_ECMP of them; the next compiles whole.
 * Sets seen before reuse their group.
 */
static void test_ecmp_more(void)
{
	static struct world w;
	struct router_fib *cur, *next;
	struct router_nh nhs[2];
	struct router_route r;
	uint64_t n;

	world_init(&w);
	memset(&r, 0, sizeof(r));
	r.key.prefix = 0x2001000000000005ull;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_STATIC;
	nhs[0] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 1 };
	nhs[1] = (struct router_nh){ .port = 1, .kind = ROUTER_NH_ROUTER, .lid = 2 };
	CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&w.rib, &r, nhs, 2), 0);
	cur = router_rib_update(&w.rib, NULL);
	CU_ASSERT_EQUAL(cur->necmp, 1);
	n = w.rib.fib_compiles;
	for (unsigned i = 0; i <= ROUTER_FIB_MORE_ECMP; i++) {
		nhs[1].lid = (uint16_t)(3 + i);
		CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&w.rib, &r, nhs, 2), 0);
		next = router_rib_update(&w.rib, cur);
		CU_ASSERT_PTR_NOT_NULL_FATAL(next);
		CU_ASSERT_EQUAL(w.rib.fib_compiles, n + (i == ROUTER_FIB_MORE_ECMP));
		CU_ASSERT_EQUAL(
			router_fib_ecmp_of(next, router_fib_route_get(next, r.key.prefix))->n, 2);
		router_fib_free(cur);
		cur = next;
	}
	CU_ASSERT_PTR_NULL(cur->delta);
	CU_ASSERT_EQUAL(cur->necmp, 1);
	/* a set seen before reuses its group: the base's, or one the delta made */
	for (unsigned i = 0; i < 4; i++) {
		nhs[1].lid = (uint16_t)(i % 2 ? 3 + ROUTER_FIB_MORE_ECMP : 2);
		CU_ASSERT_EQUAL_FATAL(router_rib_route_add_nhs(&w.rib, &r, nhs, 2), 0);
		next = router_rib_update(&w.rib, cur);
		CU_ASSERT_EQUAL(next->part[ROUTER_FIB_ROUTES]->nmore, 1);
		/* the base's group is number 0, the delta's first number 1 */
		CU_ASSERT_EQUAL(router_fib_route_get(next, r.key.prefix) >> 32 & 0x7FFFFFFF,
				i % 2 ? 0 : 1);
		router_fib_free(cur);
		cur = next;
	}
	router_fib_free(cur);
	world_fini(&w);
}

/*
 * Merged: the same answers from a base alone, the generation kept (nothing
 * changed); the next change is a delta over the merged base.  Refused when
 * something changed since, or for a FIB that is not the last one made.
 */
static void test_merge(void)
{
	static struct world w;
	struct router_fib *a, *b, *m, *ref;

	world_init(&w);
	for (unsigned i = 0; i < 300; i++)
		op_route(&w);
	a = router_rib_update(&w.rib, NULL);
	for (unsigned i = 0; i < 50; i++)
		op_route(&w);
	b = router_rib_update(&w.rib, a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b->delta);
	CU_ASSERT_PTR_NULL(router_rib_merge(&w.rib, a)); /* not the last */
	m = router_rib_merge(&w.rib, b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NULL(m->delta);
	CU_ASSERT_EQUAL(m->generation, b->generation);
	ref = router_rib_compile(&w.rib);
	fib_same(&w, m, ref);
	fib_same(&w, b, ref);
	router_fib_free(ref);
	router_fib_free(a);
	router_fib_free(b);
	/* a change since: no merge; the next FIB a delta over m */
	CU_ASSERT_EQUAL_FATAL(route64(&w.rib, 0x2005000000000000ull, 0x22), 0);
	CU_ASSERT_PTR_NULL(router_rib_merge(&w.rib, m));
	a = router_rib_update(&w.rib, m);
	CU_ASSERT_PTR_NOT_NULL(a->delta);
	CU_ASSERT_PTR_EQUAL(a->exact.ent, m->exact.ent);
	CU_ASSERT_EQUAL(router_nh_unpack(router_fib_route_get(a, 0x2005000000000000ull)).lid, 0x22);
	router_fib_free(m);
	router_fib_free(a);
	world_fini(&w);
}

int main(void)
{
	CU_TestInfo tests[] = {
		{ "persistent map: versions share, old ones stay", test_pmap_versions },
		{ "persistent map: a full page refuses", test_pmap_page_full },
		{ "random turns: every FIB as a whole compile", test_random_turns },
		{ "the delta's bound: merged into a whole compile", test_merge_bound },
		{ "lengths: the delta shadows its own length only", test_shadowing },
		{ "preferred sources through the delta", test_best_source },
		{ "what compiles whole, what shares", test_whole_when },
		{ "groups of next hops made in the delta", test_ecmp_more },
		{ "merged once the changes stop", test_merge },
		CU_TEST_INFO_NULL,
	};

	return ibr_test_run("router_fib_delta", tests);
}
