/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for what a reload keeps (ibrouterd.conf(5), Reload): the RIB a new
 * config gets from the old one (ibrd_state_build with the old RIB and the
 * port map) and the counters that move with their ports
 * (ibrd_counters_move).  A port is the same port when it has the same name,
 * wherever it now stands; what the fabric taught it and the entries no file
 * made move with it; the old file's entries go, the new file's come.
 */
#include "daemon/ibrd.h"
#include "daemon/port/ibrd_port.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char old_text[] =
	"router { node-guid = 0x2 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n"
	"port \"c\" { data = none subnet-prefix = \"fec0:0:0:3::\" }\n"
	"route \"fec0:0:0:9::/64\" { port = \"b\" via = 0x21 }\n"
	"neighbour \"0x0000000000110001\" { port = \"b\" lid = 5 }\n";
/* a removed; c before b; the file's route changed */
static const char new_text[] =
	"router { node-guid = 0x2 }\n"
	"port \"c\" { data = none subnet-prefix = \"fec0:0:0:3::\" }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n"
	"route \"fec0:0:0:8::/64\" { port = \"b\" via = 0x22 }\n";

static struct router_route *route(struct router_rib *rib, uint64_t prefix, uint8_t src)
{
	struct router_route_key k = { .prefix = prefix, .plen = 64, .source = src };

	return router_tab_find(&rib->routes, &k);
}

static struct router_neigh *neigh(struct router_rib *rib, uint8_t port, uint64_t guid, uint8_t src)
{
	struct router_neigh_key k = { .guid = guid, .port = port, .source = src };

	return router_tab_find(&rib->neighs, &k);
}

static void add_route(struct router_rib *rib, uint64_t prefix, uint8_t port, uint8_t src,
		      uint16_t lid)
{
	struct router_route r = { .key = { .prefix = prefix, .plen = 64, .source = src },
				  .nh = { .port = port, .kind = ROUTER_NH_ROUTER, .lid = lid } };

	CU_ASSERT_EQUAL_FATAL(router_rib_route_add(rib, &r), 0);
}

static void test_build_keeps(void)
{
	struct ibrd_conf *oc = ibrd_conf_load_string(old_text, "old.conf", stderr);
	struct ibrd_conf *nc = ibrd_conf_load_string(new_text, "new.conf", stderr);
	struct ibrd d;
	struct router_rib old;
	struct router_neigh n = { .key = { .guid = 0x110077, .port = 1, .source = ROUTER_SRC_SA },
				  .lid = 0x77 };
	struct router_neigh gone = {
		.key = { .guid = 0x100077, .port = 0, .source = ROUTER_SRC_SA }, .lid = 0x78
	};
	const int from[2] = { 2, 1 }; /* new c was old 2, new b old 1 */
	struct router_route *r;
	struct router_fib *fib;
	uint64_t gen;

	CU_ASSERT_PTR_NOT_NULL_FATAL(oc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(nc);
	memset(&d, 0, sizeof(d));
	CU_ASSERT_EQUAL_FATAL(ibrd_state_build(&d, oc, NULL, NULL, NULL), 0);
	/* what the fabric and the operator added since: c's LID from its SM, a
	 * neighbour learned in b and one in a, a route added with ibrouterctl via c */
	d.rib.port[2].lid = 0x30;
	CU_ASSERT_EQUAL_FATAL(router_rib_neigh_add(&d.rib, &n), 0);
	CU_ASSERT_EQUAL_FATAL(router_rib_neigh_add(&d.rib, &gone), 0);
	add_route(&d.rib, 0xfec0000000000007ull, 2, ROUTER_SRC_STATIC, 0x31);
	fib = router_rib_compile(&d.rib); /* a publication: the generation moves */
	CU_ASSERT_PTR_NOT_NULL(fib);
	router_fib_free(fib);
	gen = d.rib.generation;
	old = d.rib;
	CU_ASSERT_EQUAL_FATAL(ibrd_state_build(&d, nc, oc, &old, from), 0);
	/* the ports in the new order; c keeps the LID its SM gave it, b its own */
	CU_ASSERT_EQUAL(d.rib.nports, 2);
	CU_ASSERT_STRING_EQUAL(d.rib.port[0].name, "c");
	CU_ASSERT_EQUAL(d.rib.port[0].lid, 0x30);
	CU_ASSERT_EQUAL(d.rib.port[1].lid, 2);
	CU_ASSERT(d.rib.generation >= gen); /* the plugins compare generations */
	/* connected routes made anew at the new indexes */
	r = route(&d.rib, 0xfec0000000000003ull, ROUTER_SRC_CONNECTED);
	CU_ASSERT(r && r->nh.port == 0);
	r = route(&d.rib, 0xfec0000000000002ull, ROUTER_SRC_CONNECTED);
	CU_ASSERT(r && r->nh.port == 1);
	CU_ASSERT_PTR_NULL(route(&d.rib, 0xfec0000000000001ull, ROUTER_SRC_CONNECTED));
	/* the route added by hand via c follows c; the old file's route goes, the new one's comes */
	r = route(&d.rib, 0xfec0000000000007ull, ROUTER_SRC_STATIC);
	CU_ASSERT(r && r->nh.port == 0 && r->nh.lid == 0x31);
	CU_ASSERT_PTR_NULL(route(&d.rib, 0xfec0000000000009ull, ROUTER_SRC_STATIC));
	r = route(&d.rib, 0xfec0000000000008ull, ROUTER_SRC_STATIC);
	CU_ASSERT(r && r->nh.port == 1 && r->nh.lid == 0x22);
	/* b's learned neighbour moved with b; the file's neighbour went with the file; a's went */
	CU_ASSERT_PTR_NOT_NULL(neigh(&d.rib, 1, 0x110077, ROUTER_SRC_SA));
	CU_ASSERT_PTR_NULL(neigh(&d.rib, 1, 0x110001, ROUTER_SRC_STATIC));
	CU_ASSERT_EQUAL(d.rib.neighs.count, 1);
	router_rib_free(&old);
	router_rib_free(&d.rib);
	ibrd_conf_free(oc);
	ibrd_conf_free(nc);
}

/* Counters belong to a port by name: they move with it, a new port starts at zero. */
static void test_counters_move(void)
{
	static struct ibrd d;
	int from[ROUTER_MAX_PORTS];

	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		from[i] = -1;
	from[0] = 2, from[2] = 0; /* 0 and 2 swapped, 1 new */
	memset(&d, 0, sizeof(d));
	CU_ASSERT_PTR_NOT_NULL_FATAL(d.data = ibrd_data_new());
	d.data->retired.rx_pkts[0] = 10;
	d.data->retired.tx_pkts[2] = 30;
	d.data->retired.drop[2][ROUTER_DROP_NO_ROUTE] = 3;
	d.data->cleared.rx_pkts[2] = 7;
	ibrd_counters_move(&d, from);
	CU_ASSERT_EQUAL(d.data->retired.tx_pkts[0], 30);
	CU_ASSERT_EQUAL(d.data->retired.drop[0][ROUTER_DROP_NO_ROUTE], 3);
	CU_ASSERT_EQUAL(d.data->cleared.rx_pkts[0], 7);
	CU_ASSERT_EQUAL(d.data->retired.rx_pkts[1], 0); /* new */
	CU_ASSERT_EQUAL(d.data->retired.rx_pkts[2], 10);
	CU_ASSERT_EQUAL(d.data->retired.tx_pkts[2], 0);
	ibrd_data_free(d.data);
}

static CU_TestInfo tests[] = {
	{ "the new RIB keeps by port name", test_build_keeps },
	{ "counters move with their port", test_counters_move },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_reload", tests);
}
