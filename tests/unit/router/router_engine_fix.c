/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_engine_fix.c - the forwarding engine tests' fixture (router_engine_fix.h). */
#include "tests/unit/router/router_engine_fix.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <string.h>

struct router_rib rib;
struct router_fib *fib;
struct router_counters cnt;
struct router_out out;
int fixture_errors; /* setup runs outside any test: no CU_ASSERT there */

void gid_set(uint8_t *g, uint64_t prefix, uint64_t guid)
{
	for (int i = 0; i < 8; i++) {
		g[i] = (uint8_t)(prefix >> (56 - 8 * i));
		g[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

static void add_port(const char *name, uint64_t prefix, uint16_t lid, uint8_t site, bool up)
{
	struct router_port p;

	router_port_defaults(&p, name);
	p.prefix = prefix;
	p.guid = 0x300000 + lid;
	p.lid = lid;
	p.site = site;
	if (up)
		p.flags |= ROUTER_PORT_UP;
	if (router_rib_port_add(&rib, &p) < 0)
		fixture_errors++;
}

void add_route(uint64_t prefix, uint8_t plen, uint8_t port, int kind, uint16_t lid)
{
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = plen;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh.port = port;
	r.nh.kind = (uint8_t)kind;
	r.nh.lid = lid;
	if (router_rib_route_add(&rib, &r))
		fixture_errors++;
}

static void add_neigh(uint8_t port, uint64_t guid, uint16_t lid, uint8_t lmc)
{
	struct router_neigh n;

	memset(&n, 0, sizeof(n));
	n.key.guid = guid;
	n.key.port = port;
	n.key.source = ROUTER_SRC_SA;
	n.lid = lid;
	n.lmc = lmc;
	if (router_rib_neigh_add(&rib, &n))
		fixture_errors++;
}

void add_group(uint8_t scope, uint8_t id, uint8_t port, uint16_t mlid, uint8_t sl, int flags)
{
	struct router_mcast m;

	memset(&m, 0, sizeof(m));
	m.key.mgid[0] = 0xFF;
	m.key.mgid[1] = scope;
	m.key.mgid[15] = id;
	m.key.port = port;
	m.mlid = mlid;
	m.sl = sl;
	m.flags = (uint8_t)flags;
	if (router_rib_mcast_add(&rib, &m))
		fixture_errors++;
}

void recompile(void)
{
	router_fib_free(fib);
	fib = router_rib_compile(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
}

/* Ports a (0, lid 1), b (1, lid 0x10), c (2, lid 0x20, site 1), d (3, down). */
int setup(void)
{
	router_rib_init(&rib);
	add_port("a", PFX_A, 0x1, 0, true);
	add_port("b", PFX_B, 0x10, 0, true);
	add_port("c", PFX_C, 0x20, 1, true);
	add_port("d", PFX_D, 0x40, 0, false);
	add_route(PFX_A, 64, 0, ROUTER_NH_DIRECT, 0);
	add_route(PFX_B, 64, 1, ROUTER_NH_DIRECT, 0);
	add_route(PFX_C, 32, 2, ROUTER_NH_ROUTER, 0x30);
	add_route(PFX_S, 64, 2, ROUTER_NH_ROUTER, 0x31);
	add_route(PFX_D, 64, 3, ROUTER_NH_DIRECT, 0);
	add_route(PFX_G, 64, 1, ROUTER_NH_ALGO, 0);
	add_neigh(1, HOST_B, 5, 0);
	add_neigh(1, HOST_B_LMC, 8, 2);
	add_neigh(0, HOST_A, 3, 0);
	add_group(0x15, 1, 0, 0xC001, 0, ROUTER_MCAST_SENDERS);
	add_group(0x15, 1, 1, 0xC002, 4, ROUTER_MCAST_RECEIVERS);
	add_group(0x15, 1, 2, 0xC003, 5, ROUTER_MCAST_RECEIVERS);
	add_group(0x18, 1, 0, 0xC004, 0, ROUTER_MCAST_SENDERS);
	add_group(0x18, 1, 1, 0xC005, 1, ROUTER_MCAST_RECEIVERS);
	add_group(0x18, 1, 2, 0xC006, 2, ROUTER_MCAST_RECEIVERS);
	add_group(0x12, 1, 0, 0xC007, 0, ROUTER_MCAST_RECEIVERS);
	add_group(0x12, 1, 1, 0xC008, 0, ROUTER_MCAST_RECEIVERS);
	add_group(0x15, 2, 0, 0xC009, 0, ROUTER_MCAST_RECEIVERS); /* receivers only in A */
	fib = router_rib_compile(&rib);
	return fib && !fixture_errors ? 0 : 1;
}

int teardown(void)
{
	router_fib_free(fib);
	fib = NULL;
	router_rib_free(&rib);
	return 0;
}

/* The default test packet: host in A -> HOST_B in B, through port a. */
void params_default(struct ibr_pkt_ud_params *p, size_t payload_len)
{
	static uint8_t payload[4096];

	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 1);
	memset(p, 0, sizeof(*p));
	p->slid = 3;
	p->dlid = 1;
	p->sl = 2;
	p->grh = true;
	gid_set(p->sgid, PFX_A, HOST_A);
	gid_set(p->dgid, PFX_B, HOST_B);
	p->tclass = 0;
	p->flowlabel = 0x12345;
	p->hoplmt = 64;
	p->pkey = 0xFFFF;
	p->dest_qp = 0x42;
	p->qkey = 0x11111111;
	p->src_qp = 0x43;
	p->payload = payload;
	p->payload_len = payload_len;
}

uint8_t pkt[8192];
struct router_mbuf mb;

int build(const struct ibr_pkt_ud_params *p)
{
	int len = ibr_pkt_build_ud(pkt, sizeof(pkt), p);

	CU_ASSERT_FATAL(len > 0);
	mb.data = pkt;
	mb.len = (uint32_t)len;
	mb.port = 0;
	return len;
}

/* Run the engine on `mb` alone; fresh counters each time. */
void run(void)
{
	struct router_mbuf *v[1] = { &mb };

	memset(&cnt, 0, sizeof(cnt));
	router_engine_burst(fib, v, 1, &out, &cnt);
}

uint64_t drops_total(void)
{
	uint64_t t = 0;

	for (int p = 0; p < ROUTER_MAX_PORTS; p++)
		for (int r = 0; r < ROUTER_DROP_MAX; r++)
			t += cnt.drop[p][r];
	return t;
}

/* Exactly one drop, for `reason`, and nothing sent, to the SMA or local. */
void expect_drop(int reason, const char *what)
{
	bool ok = out.ndrop == 1 && out.drop[0].reason == reason && out.ncopies == 0 &&
		  out.nsma == 0 && out.nlocal == 0 && cnt.drop[mb.port][reason] == 1 &&
		  drops_total() == 1 && cnt.rx_pkts[mb.port] == 1;

	if (!ok)
		fprintf(stderr, "\n  %s: want drop %s, got ndrop %u reason %s copies %u\n", what,
			router_drop_name(reason), out.ndrop,
			out.ndrop ? router_drop_name(out.drop[0].reason) : "-", out.ncopies);
	CU_ASSERT_TRUE(ok);
}

/* Exactly one copy, on `port`, nothing dropped. */
void expect_fwd(int port, const char *what)
{
	bool ok = out.ndrop == 0 && out.ncopies == 1 && out.ntx[port] == 1 && drops_total() == 0;

	if (!ok)
		fprintf(stderr, "\n  %s: want forward on %d, got ndrop %u (%s) copies %u\n", what,
			port, out.ndrop, out.ndrop ? router_drop_name(out.drop[0].reason) : "-",
			out.ncopies);
	CU_ASSERT_TRUE(ok);
}

/* The bytes a copy puts on the wire. */
void tx_bytes(const struct router_tx *tx, uint8_t *dst)
{
	router_tx_build(tx, dst);
}

void mcast_params(struct ibr_pkt_ud_params *p, uint8_t scope, uint8_t id, uint16_t mlid)
{
	params_default(p, 100);
	memset(p->dgid, 0, 16);
	p->dgid[0] = 0xFF;
	p->dgid[1] = scope;
	p->dgid[15] = id;
	p->dlid = mlid;
	p->dest_qp = 0xFFFFFF;
}
