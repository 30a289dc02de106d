/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * The verbs backend under the forwarding worker and engine (router_worker.c
 * over io_verbs*.c over the fake provider): packets a host sends on one
 * subnet reach hosts on the others, and the engine's numbered checks see the
 * GRH the sender built (HopLmt, scope, group), as with the sim backend.
 */
#include "lib/ibr_pkt.h"
#include "router/io/io_verbs.h"
#include "router/router_rib.h"
#include "router/router_worker.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/io/io_verbs_fix.h"

#include <stdio.h>
#include <string.h>

#define NP   3
#define QKEY 0x0B1B

static struct vfix fx;
static struct router_rib rib;
static struct router_pub pub;
static struct router_worker w;
/* ff18::1 is bridged; ff12::1 is link-local; ff18::2 is attached but unknown to the FIB */
static const uint8_t g_site[16] = { 0xff, 0x18, [15] = 1 };
static const uint8_t g_link[16] = { 0xff, 0x12, [15] = 1 };
static const uint8_t g_none[16] = { 0xff, 0x18, [15] = 2 };

static void rib_fill(void)
{
	router_rib_init(&rib);
	for (int i = 0; i < NP; i++) {
		struct router_port p;
		struct router_mcast m;
		char name[8];

		snprintf(name, sizeof(name), "p%d", i);
		router_port_defaults(&p, name);
		p.lid = (uint16_t)(10 + i);
		p.prefix = 0xfec0000000000000ull + (uint64_t)i + 1;
		p.guid = 0x300000 + (uint64_t)i;
		p.mtu = 4096;
		p.flags = ROUTER_PORT_UP | ROUTER_PORT_CRC_OFFLOAD; /* the HCA checks the CRCs */
		router_rib_port_add(&rib, &p);
		memset(&m, 0, sizeof(m));
		memcpy(m.key.mgid, g_site, 16);
		m.key.port = (uint8_t)i;
		m.mlid = (uint16_t)(0xC001 + i);
		m.qkey = QKEY;
		m.flags = i ? ROUTER_MCAST_RECEIVERS : ROUTER_MCAST_SENDERS;
		router_rib_mcast_add(&rib, &m);
	}
}

static int setup(void)
{
	struct io_port *ports[NP];

	/* no SM LID; the send queues of the default depth */
	if (vfix_prepare(&fx, "io_verbs_fwd", NP, 0, 128, 0) || vfix_open(&fx))
		return -1;
	for (int i = 0; i < NP; i++) {
		struct io_verbs_port *p = io_verbs_port(fx.v, (unsigned)i);

		if (io_verbs_mcast_attach(p, g_site, (uint16_t)(0xC001 + i)))
			return -1;
		ports[i] = &p->io;
	}
	if (io_verbs_mcast_attach(io_verbs_port(fx.v, 0), g_link, 0xC00A) ||
	    io_verbs_mcast_attach(io_verbs_port(fx.v, 0), g_none, 0xC00B))
		return -1;
	rib_fill();
	if (router_pub_init(&pub, 1) || router_pub_publish(&pub, router_rib_compile(&rib)))
		return -1;
	router_pub_online(&pub, 0);
	return router_worker_init(&w, 0, &pub, ports, NP, (1u << NP) - 1);
}

static int teardown(void)
{
	router_worker_fini(&w);
	router_pub_offline(&pub, 0);
	router_pub_destroy(&pub);
	router_rib_free(&rib);
	vfix_close(&fx);
	return 0;
}

static void host_send(int i, const uint8_t mgid[16], uint16_t mlid, uint8_t hoplmt)
{
	uint8_t pkt[1024], pay[100];
	struct ibr_pkt_ud_params p = { .slid = 100,
				       .dlid = mlid,
				       .sl = 2,
				       .grh = true,
				       .hoplmt = hoplmt,
				       .pkey = 0xFFFF,
				       .dest_qp = 0xFFFFFF,
				       .qkey = QKEY,
				       .src_qp = 0x42,
				       .payload = pay,
				       .payload_len = sizeof(pay) };
	int len;

	memset(pay, 0x5A, sizeof(pay));
	vfix_gid(p.sgid, i + 1, 7);
	memcpy(p.dgid, mgid, 16);
	len = ibr_pkt_build_ud(pkt, sizeof(pkt), &p);
	vfix_host_send(&fx, i, pkt, (size_t)len);
}

static void test_mcast_across_subnets(void)
{
	uint8_t buf[8192];
	struct ibr_pkt pk;

	host_send(0, g_site, 0xC001, 64);
	CU_ASSERT_EQUAL(router_worker_poll(&w, 64), 1);
	for (int i = 1; i < NP; i++) {
		int n = vfix_host_recv(&fx, i, buf, sizeof(buf));

		CU_ASSERT_FATAL(n > 0);
		CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&pk), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), 0xC001 + i);
		CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(pk.grh), 63);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), g_site, 16), 0);
		/* UD model: the source is the router's egress port (ibrouterd(8), LIMITS) */
		CU_ASSERT_EQUAL(
			memcmp(ibr_grh_sgid(pk.grh), io_verbs_port(fx.v, (unsigned)i)->gid, 16), 0);
		CU_ASSERT_EQUAL(pk.payload_len, 100);
		CU_ASSERT_EQUAL(pk.payload[99], 0x5A);
	}
	CU_ASSERT_EQUAL(w.counters.tx_pkts[1], 1);
	CU_ASSERT_EQUAL(w.counters.tx_pkts[2], 1);
}

/*
 * The numbered checks run on the GRH the sender built; groups the FIB does
 * not have on the port are not attached (the worker detached the test's
 * extra groups at its first FIB), so the HCA filters them.
 */
static void test_engine_checks(void)
{
	struct fake_verbs_stats s0, s1;

	CU_ASSERT_EQUAL(io_verbs_port(fx.v, 0)->nmc, 1);
	fake_verbs_stats_get(vfix_dev[0], &s0);
	host_send(0, g_site, 0xC001, 1);
	host_send(0, g_link, 0xC00A, 64);
	host_send(0, g_none, 0xC00B, 64);
	CU_ASSERT_EQUAL(router_worker_poll(&w, 64), 1);
	CU_ASSERT_EQUAL(w.counters.drop[0][ROUTER_DROP_HOPLMT], 1);
	fake_verbs_stats_get(vfix_dev[0], &s1);
	CU_ASSERT_EQUAL(s1.rx_filtered - s0.rx_filtered, 2);
}

/* A group added to the FIB is attached by the worker before its next burst. */
static void test_fib_change_attaches(void)
{
	struct router_mcast m = { .mlid = 0xC00B, .qkey = QKEY, .flags = ROUTER_MCAST_SENDERS };
	uint8_t buf[8192];

	memcpy(m.key.mgid, g_none, 16);
	m.key.port = 0;
	router_rib_mcast_add(&rib, &m);
	m.key.port = 2;
	m.mlid = 0xC00C;
	m.flags = ROUTER_MCAST_RECEIVERS;
	router_rib_mcast_add(&rib, &m);
	router_pub_offline(&pub, 0);
	CU_ASSERT_EQUAL(router_pub_publish(&pub, router_rib_compile(&rib)), 0);
	router_pub_online(&pub, 0);
	CU_ASSERT_EQUAL(router_worker_poll(&w, 64), 0);
	CU_ASSERT_EQUAL(io_verbs_port(fx.v, 0)->nmc, 2);
	CU_ASSERT_EQUAL(io_verbs_port(fx.v, 2)->nmc, 2);
	host_send(0, g_none, 0xC00B, 64);
	CU_ASSERT_EQUAL(router_worker_poll(&w, 64), 1);
	CU_ASSERT(vfix_host_recv(&fx, 2, buf, sizeof(buf)) > 0);
	CU_ASSERT(vfix_host_recv(&fx, 1, buf, sizeof(buf)) < 0);
}

/* Never back into the ingress subnet; the pools come back whole. */
static void test_pools_restored(void)
{
	uint8_t buf[8192];

	host_send(1, g_site, 0xC002, 64);
	CU_ASSERT_EQUAL(router_worker_poll(&w, 64), 1);
	CU_ASSERT(vfix_host_recv(&fx, 1, buf, sizeof(buf)) < 0);
	CU_ASSERT(vfix_host_recv(&fx, 2, buf, sizeof(buf)) > 0);
	vfix_pools_check(&fx);
}

static CU_TestInfo tests[] = {
	{ "multicast across subnets", test_mcast_across_subnets },
	{ "engine checks on verbs packets", test_engine_checks },
	{ "FIB change attaches", test_fib_change_attaches },
	{ "pools restored", test_pools_restored },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_fwd", tests, setup, teardown);
}
