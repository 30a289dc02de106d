/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/router_worker.c's telling its ports of a new FIB
 * (io_port fib_changed): once for each FIB with new ports' or groups'
 * tables, not for one that changed routes or neighbours alone (which under
 * churn comes every round, and io_verbs's answer is O(groups)); always for
 * a FIB made by hand; again when the port asks (fib_again).
 */
#include "router/router_pub.h"
#include "router/router_rib.h"
#include "router/router_worker.h"
#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>

struct fake_port {
	struct io_port io;
	unsigned told;
};

static int fake_rx(struct io_port *p, struct router_mbuf **out, unsigned n)
{
	(void)p, (void)out, (void)n;
	return 0;
}

static unsigned fake_tx(struct io_port *p, const struct router_tx *tx, unsigned n,
			struct io_tx_result *r)
{
	(void)p, (void)tx, (void)r;
	return n;
}

static int fake_fd(const struct io_port *p)
{
	(void)p;
	return -1;
}

static void fake_fib_changed(struct io_port *p, const struct router_fib *fib)
{
	(void)fib;
	((struct fake_port *)p)->told++;
}

static const struct io_port_ops fake_ops = {
	.rx_burst = fake_rx,
	.tx_burst = fake_tx,
	.fd = fake_fd,
	.fib_changed = fake_fib_changed,
};

static struct router_rib rib;
static struct router_pub pub;
static struct router_worker w;
static struct fake_port port = { .io = { .ops = &fake_ops } };

/* The next FIB (router_rib_update, or `f` when given) published, and one round of the worker. */
static void publish(struct router_fib *f)
{
	struct router_fib *fib = f ? f : router_rib_update(&rib, router_pub_get(&pub));

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_EQUAL_FATAL(router_pub_publish(&pub, fib), 0);
	router_worker_poll(&w, 64);
}

static void test_told(void)
{
	struct io_port *ports[1] = { &port.io };
	struct router_route r = {
		.key = { .prefix = 0x2001000000000001ull, .plen = 64, .source = ROUTER_SRC_STATIC },
		.nh = { .port = 0, .kind = ROUTER_NH_ROUTER, .lid = 5 }
	};
	struct router_neigh n = { .key = { .guid = 0x42, .port = 0, .source = ROUTER_SRC_SA },
				  .lid = 9 };
	struct router_mcast m = { .key = { .mgid = { 0xff, 0x15, [15] = 1 }, .port = 0 },
				  .mlid = 0xC001 };
	struct router_port p;

	router_rib_init(&rib);
	router_port_defaults(&p, "a");
	p.lid = 1;
	p.flags |= ROUTER_PORT_UP;
	CU_ASSERT_FATAL(router_rib_port_add(&rib, &p) == 0);
	CU_ASSERT_EQUAL_FATAL(router_pub_init(&pub, 1), 0);
	CU_ASSERT_EQUAL_FATAL(router_worker_init(&w, 0, &pub, ports, 1, 1), 0);
	publish(NULL); /* compiled whole: told */
	CU_ASSERT_EQUAL(port.told, 1);
	CU_ASSERT_EQUAL(router_rib_route_add(&rib, &r), 0);
	publish(NULL); /* a route: a delta, the same ports and groups */
	CU_ASSERT_PTR_NOT_NULL(router_pub_get(&pub)->delta);
	CU_ASSERT_EQUAL(router_rib_neigh_add(&rib, &n), 0);
	publish(NULL); /* a neighbour: the same */
	CU_ASSERT_EQUAL(port.told, 1);
	CU_ASSERT_EQUAL(router_rib_mcast_add(&rib, &m), 0);
	publish(NULL); /* a group: new groups' tables, told */
	CU_ASSERT_EQUAL(port.told, 2);
	publish(router_rib_merge(&rib, router_pub_get(&pub))); /* merged: all new, told */
	CU_ASSERT_PTR_NULL(router_pub_get(&pub)->delta);
	CU_ASSERT_EQUAL(port.told, 3);
	router_worker_poll(&w, 64); /* the same FIB: nothing */
	CU_ASSERT_EQUAL(port.told, 3);
	port.io.fib_again = true; /* the port asks again */
	router_worker_poll(&w, 64);
	CU_ASSERT_EQUAL(port.told, 4);
	CU_ASSERT_FALSE(port.io.fib_again);
	publish(calloc(1, sizeof(struct router_fib))); /* made by hand: always told */
	CU_ASSERT_EQUAL(port.told, 5);
	router_worker_fini(&w);
	router_pub_destroy(&pub);
	router_rib_free(&rib);
}

int main(void)
{
	CU_TestInfo tests[] = {
		{ "ports told of new ports' or groups' tables only", test_told },
		CU_TEST_INFO_NULL,
	};

	return ibr_test_run("router_worker_fib", tests);
}
