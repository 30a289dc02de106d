/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/learn/ibrd_peers.c, the routes of source peer: over a
 * fake view of what the other routers of two subnets announce (ports a and
 * b), which routes the RIB gets: the lowest metric, the routers of equal
 * metric all next hops in one order at every run (up to peer-ecmp), nothing
 * for our own prefixes, our own ports or an
 * unreachable metric, and the hold-down of a prefix that lost its route or
 * whose metric grew (a worse route waits, an equal one does not).
 */
#include "daemon/learn/ibrd_learn.h"
#include "sa/sa_client.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPORTS	  2
#define MAX_PEERS 4
#define MAX_ADS	  4
#define SEC	  1000000000ull

#define PFX_A 0xfec0000000000001ull /* port a's own */
#define PFX_B 0xfec0000000000002ull
#define PFX_C 0xfec0000000000003ull /* beyond the routers of b */
#define PFX_D 0xfec0000000000004ull
#define AGG_E 0xfec0000000050000ull /* a /48 */

static struct ibrd d;
static struct ibrd_peers peer_room; /* d.peer */
static struct sa_peer peers[NPORTS][MAX_PEERS];
static struct sa_route_ad ads[NPORTS][MAX_PEERS][MAX_ADS];
static size_t npeers[NPORTS];
static uint64_t now;

static size_t fake_src(const struct ibrd *dd, uint32_t port, const struct sa_peer **v)
{
	(void)dd;
	*v = peers[port];
	return port < NPORTS ? npeers[port] : 0;
}

static const char conf_text[] =
	"router { node-guid = 0x2 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\"\n"
	"\tport-guid = 0x0002c90300000011 }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\"\n"
	"\tport-guid = 0x0002c90300000012 }\n"
	"learning { peer-routes = true peer-holddown = 10 }\n";

/* Router `guid` at `lid` on port `port` (added when new), announcing nothing yet. */
static struct sa_peer *peer(uint32_t port, uint64_t guid, uint16_t lid)
{
	struct sa_peer *p;

	for (size_t i = 0; i < npeers[port]; i++)
		if (peers[port][i].guid == guid)
			return &peers[port][i];
	CU_ASSERT_FATAL(npeers[port] < MAX_PEERS);
	p = &peers[port][npeers[port]];
	memset(p, 0, sizeof(*p));
	p->guid = guid;
	p->lid = lid;
	p->read = true;
	p->ad = ads[port][npeers[port]++];
	return p;
}

/* Peer p announces `prefix`/`plen` at `metric` (replacing its announcement of it). */
static void announce(struct sa_peer *p, uint64_t prefix, uint8_t plen, uint8_t metric)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->ad[i].prefix == prefix && p->ad[i].plen == plen) {
			p->ad[i].metric = metric;
			return;
		}
	CU_ASSERT_FATAL(p->n < MAX_ADS);
	p->ad[p->n++] = (struct sa_route_ad){ .prefix = prefix, .plen = plen, .metric = metric };
}

static void withdraw(struct sa_peer *p, uint64_t prefix)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->ad[i].prefix == prefix) {
			p->ad[i] = p->ad[--p->n];
			return;
		}
}

/* The peers changed (the SA client's callback), then the sync at `now`. */
static void sync_now(void)
{
	ibrd_peers_changed(&d);
	ibrd_peers_sync_at(&d, now);
}

/* The RIB's peer route of prefix/plen, or NULL. */
static const struct router_route *route(uint64_t prefix, uint8_t plen)
{
	struct router_route_key k = { .prefix = prefix, .plen = plen, .source = ROUTER_SRC_PEER };

	return router_tab_find(&d.rib.routes, &k);
}

static unsigned peer_routes(void)
{
	const struct router_route *r;
	uint32_t pos = 0;
	unsigned n = 0;

	while ((r = router_tab_next(&d.rib.routes, &pos)))
		n += r->key.source == ROUTER_SRC_PEER;
	return n;
}

/* The RIB's peer route to prefix/plen: metric, and one next hop, port and LID */
static void check_route(uint64_t prefix, uint8_t plen, uint8_t port, uint16_t lid, uint32_t metric)
{
	const struct router_route *r = route(prefix, plen);

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL(r->nnh, 1);
	CU_ASSERT_EQUAL(r->nh.port, port);
	CU_ASSERT_EQUAL(r->nh.kind, ROUTER_NH_ROUTER);
	CU_ASSERT_EQUAL(r->nh.lid, lid);
	CU_ASSERT_EQUAL(r->metric, metric);
}

/* The same with n next hops, "port:lid" in order (ports[i], lids[i]) */
static void check_routes(uint64_t prefix, uint32_t metric, unsigned n, const uint8_t *ports,
			 const uint16_t *lids)
{
	const struct router_route *r = route(prefix, 64);
	struct router_nh v[ROUTER_ECMP_MAX];

	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	CU_ASSERT_EQUAL_FATAL(router_rib_route_nhs(&d.rib, r, v), n);
	CU_ASSERT_EQUAL(r->metric, metric);
	for (unsigned i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(v[i].port, ports[i]);
		CU_ASSERT_EQUAL(v[i].lid, lids[i]);
		CU_ASSERT_EQUAL(v[i].kind, ROUTER_NH_ROUTER);
	}
}

static void log_quiet(int pri, const char *msg)
{
	(void)pri;
	if (getenv("IBRD_TEST_VERBOSE"))
		fprintf(stderr, "%s\n", msg);
}

/* No peer routes, none held (as at start). */
static void peers_forget(void)
{
	free(d.peer->v);
	d.peer->v = NULL;
	d.peer->n = 0;
}

static int setup(void)
{
	log_set_sink(log_quiet);
	memset(&d, 0, sizeof(d));
	memset(&peer_room, 0, sizeof(peer_room));
	d.peer = &peer_room;
	d.conf = ibrd_conf_load_string(conf_text, "peers.conf", stderr);
	if (!d.conf)
		return 1;
	router_rib_init(&d.rib);
	for (unsigned i = 0; i < d.conf->nports; i++)
		if (router_rib_port_add(&d.rib, &d.conf->port[i].rp) < 0)
			return 1;
	d.peer->src = fake_src;
	return d.rib.nports == NPORTS ? 0 : 1;
}

static int teardown(void)
{
	peers_forget();
	router_rib_free(&d.rib);
	ibrd_conf_free(d.conf);
	return 0;
}

/* A fresh start: no peers, no peer routes, no hold-downs. */
static void reset(void)
{
	memset(npeers, 0, sizeof(npeers));
	now = 1000 * SEC;
	sync_now();
	peers_forget();
	router_rib_flush_routes(&d.rib, ROUTER_SRC_PEER, -1);
	d.peer->next = UINT64_MAX;
}

/* What the routers of b announce becomes routes through b, at their LIDs */
static void test_learned(void)
{
	struct sa_peer *r2;
	uint64_t gen;

	reset();
	r2 = peer(1, 0x0002c90300000901ull, 12);
	announce(r2, PFX_C, 64, 1);
	announce(r2, AGG_E, 48, 2);
	r2->lmc = 1;
	gen = d.peer->changes;
	sync_now();
	CU_ASSERT_EQUAL(peer_routes(), 2);
	check_route(PFX_C, 64, 1, 12, 1);
	check_route(AGG_E, 48, 1, 12, 2);
	CU_ASSERT_EQUAL(route(PFX_C, 64)->nh.lmc, 1);
	CU_ASSERT_EQUAL(d.peer->changes, gen + 1);
	CU_ASSERT(d.dirty & IBRD_DIRTY_FIB);
	/* the same again: no change */
	d.dirty = 0;
	sync_now();
	CU_ASSERT_EQUAL(d.peer->changes, gen + 1);
	CU_ASSERT_EQUAL(d.dirty & IBRD_DIRTY_FIB, 0);
}

/*
 * The lowest metric wins; the routers of equal metric are all next hops,
 * the lower port then the lower LID first, whatever the order read; up to
 * peer-ecmp of them
 */
static void test_best(void)
{
	struct sa_peer *r2, *r3, *r4;

	reset();
	r2 = peer(1, 0x0002c90300000901ull, 12);
	r3 = peer(1, 0x0002c90300000a01ull, 14);
	announce(r2, PFX_C, 64, 3);
	announce(r3, PFX_C, 64, 2);
	sync_now();
	check_route(PFX_C, 64, 1, 14, 2);
	reset();
	r3 = peer(1, 0x0002c90300000a01ull, 14);
	r2 = peer(1, 0x0002c90300000901ull, 12);
	r4 = peer(0, 0x0002c90300000b01ull, 30);
	announce(r3, PFX_D, 64, 2);
	announce(r2, PFX_D, 64, 2);
	sync_now();
	check_routes(PFX_D, 2, 2, (const uint8_t[]){ 1, 1 }, (const uint16_t[]){ 12, 14 });
	announce(r4, PFX_D, 64, 2);
	sync_now();
	check_routes(PFX_D, 2, 3, (const uint8_t[]){ 0, 1, 1 }, (const uint16_t[]){ 30, 12, 14 });
	/* one of them goes: the others at once, no hold-down (the metric stays) */
	withdraw(r2, PFX_D);
	sync_now();
	check_routes(PFX_D, 2, 2, (const uint8_t[]){ 0, 1 }, (const uint16_t[]){ 30, 14 });
	/* peer-ecmp 1: the first alone */
	d.conf->peer_ecmp = 1;
	sync_now();
	check_route(PFX_D, 64, 0, 30, 2);
	d.conf->peer_ecmp = ROUTER_ECMP_MAX;
}

/* Nothing for our own prefixes, our own ports, metric 16 and more, a peer without a LID */
static void test_refused(void)
{
	struct sa_peer *r2, *us, *nolid;

	reset();
	r2 = peer(1, 0x0002c90300000901ull, 12);
	announce(r2, PFX_A, 64, 1); /* port a's own subnet */
	announce(r2, PFX_B, 64, 1); /* b's own */
	announce(r2, PFX_D, 64, 16);
	us = peer(1, 0x0002c90300000011ull, 1); /* our port a, seen in b */
	announce(us, PFX_C, 64, 1);
	nolid = peer(1, 0x0002c90300000c01ull, 0);
	announce(nolid, AGG_E, 48, 1);
	sync_now();
	CU_ASSERT_EQUAL(peer_routes(), 0);
}

/*
 * Hold-down: a withdrawn prefix is held for peer-holddown (10 s); a longer
 * route waits for its end, an equal one does not.
 */
static void test_holddown(void)
{
	struct sa_peer *r2, *r3;
	uint64_t holds;

	reset();
	r2 = peer(1, 0x0002c90300000901ull, 12);
	r3 = peer(1, 0x0002c90300000a01ull, 14);
	announce(r2, PFX_C, 64, 1);
	announce(r3, PFX_C, 64, 3);
	sync_now();
	check_route(PFX_C, 64, 1, 12, 1);
	holds = d.peer->holddowns;
	/* R2 withdraws it: held, R3's metric 3 not taken */
	withdraw(r2, PFX_C);
	now += SEC;
	sync_now();
	CU_ASSERT_PTR_NULL(route(PFX_C, 64));
	CU_ASSERT_EQUAL(d.peer->holddowns, holds + 1);
	CU_ASSERT_EQUAL(ibrd_peers_deadline(&d), now + 10 * SEC);
	now += 9 * SEC;
	ibrd_peers_sync_at(&d, now);
	CU_ASSERT_PTR_NULL(route(PFX_C, 64));
	/* its end: R3's route */
	now += SEC;
	ibrd_peers_sync_at(&d, now);
	check_route(PFX_C, 64, 1, 14, 3);
	CU_ASSERT_EQUAL(ibrd_peers_deadline(&d), UINT64_MAX);
	/* a metric that grows is held too; R2 back at 1 ends it at once */
	announce(r3, PFX_C, 64, 5);
	now += SEC;
	sync_now();
	CU_ASSERT_PTR_NULL(route(PFX_C, 64));
	announce(r2, PFX_C, 64, 1);
	now += SEC;
	sync_now();
	check_route(PFX_C, 64, 1, 12, 1);
	/* an equal route taken at once: R3 at 1 too (both), R2 gone */
	announce(r3, PFX_C, 64, 1);
	sync_now();
	check_routes(PFX_C, 1, 2, (const uint8_t[]){ 1, 1 }, (const uint16_t[]){ 12, 14 });
	withdraw(r2, PFX_C);
	now += SEC;
	sync_now();
	check_route(PFX_C, 64, 1, 14, 1);
	/* withdrawn by every router: held, then gone */
	withdraw(r3, PFX_C);
	now += SEC;
	sync_now();
	CU_ASSERT_PTR_NULL(route(PFX_C, 64));
	CU_ASSERT_EQUAL(d.peer->n, 1);
	now += 10 * SEC;
	ibrd_peers_sync_at(&d, now);
	CU_ASSERT_EQUAL(d.peer->n, 0);
	CU_ASSERT_EQUAL(peer_routes(), 0);
}

/* peer-routes off: the peer routes go */
static void test_off(void)
{
	struct sa_peer *r2;

	reset();
	r2 = peer(1, 0x0002c90300000901ull, 12);
	announce(r2, PFX_C, 64, 1);
	sync_now();
	CU_ASSERT_EQUAL(peer_routes(), 1);
	d.conf->peer_routes = false; /* at once: no hold-down */
	sync_now();
	CU_ASSERT_EQUAL(peer_routes(), 0);
	CU_ASSERT_EQUAL(d.peer->n, 0);
	d.conf->peer_routes = true;
}

static CU_TestInfo tests[] = {
	{ "what the routers announce: routes through them", test_learned },
	{ "the lowest metric; equals all next hops, up to peer-ecmp", test_best },
	{ "own prefixes, own ports, metric 16, no LID: nothing", test_refused },
	{ "hold-down: a worse route waits, an equal one not", test_holddown },
	{ "peer-routes off: the routes go", test_off },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_peers", tests, setup, teardown);
}
