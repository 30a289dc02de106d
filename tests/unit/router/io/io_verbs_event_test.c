/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/io/io_verbs*.c over the fake provider of tests/fakes/: a
 * port's async events (io_verbs_relay_fix.h): down and up, sends refused
 * while down (two workers at once), the kinds of event, and the control
 * thread owning the events, as the fake's control socket sends them.
 */
#include "router/io/io_verbs.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/io/io_verbs_fix.h"
#include "tests/unit/router/io/io_verbs_relay_fix.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

static int events[8];

static void on_event(void *ctx, struct io_verbs_port *p, enum io_verbs_event ev)
{
	(void)ctx;
	(void)p;
	events[ev]++;
}

static void test_port_down_up(void)
{
	struct io_verbs_port *pb = io_verbs_port(fx.v, 1);
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx t = { 0 };
	struct io_tx_result txr;

	vfix_host_drain(&fx);
	CU_ASSERT_EQUAL(fake_verbs_port_set(vfix_dev[1], false), 0);
	CU_ASSERT_EQUAL(io_verbs_async_poll(pb, on_event, NULL), 1);
	CU_ASSERT_EQUAL(events[IO_VERBS_EV_DOWN], 1);
	CU_ASSERT_FALSE(pb->up);
	host_send_mcast(0, 64, 1);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	t = tx_for(m[0], MLID_B);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 0);
	io_port_rx_done(port(0), m, 1);
	vfix_pools_check(&fx);
	CU_ASSERT_EQUAL(fake_verbs_port_set(vfix_dev[1], true), 0);
	CU_ASSERT_EQUAL(fake_verbs_event(vfix_dev[1], IBV_EVENT_LID_CHANGE), 0);
	CU_ASSERT_EQUAL(io_verbs_async_poll(pb, on_event, NULL), 2);
	CU_ASSERT_EQUAL(events[IO_VERBS_EV_UP], 1);
	CU_ASSERT_EQUAL(events[IO_VERBS_EV_LID], 1);
	CU_ASSERT_TRUE(pb->up);
	host_send_mcast(0, 64, 2);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	t = tx_for(m[0], MLID_B);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 1);
	io_port_rx_done(port(0), m, 1);
	vfix_pools_check(&fx);
	/* the owning worker's idle burst reads the events by itself */
	CU_ASSERT_EQUAL(fake_verbs_port_set(vfix_dev[1], false), 0);
	CU_ASSERT_EQUAL(io_port_rx_burst(port(1), m, ROUTER_BURST), 0);
	CU_ASSERT_FALSE(pb->up);
	CU_ASSERT_EQUAL(fake_verbs_port_set(vfix_dev[1], true), 0);
	CU_ASSERT_EQUAL(io_port_rx_burst(port(1), m, ROUTER_BURST), 0);
	CU_ASSERT_TRUE(pb->up);
}

/* Two workers sending on one port that is down: each refused copy counted once. */
struct down_sender {
	struct router_tx t;
	unsigned n;
	pthread_barrier_t go;
};

static void *down_send(void *arg)
{
	struct down_sender *s = arg;
	struct io_tx_result txr;

	pthread_barrier_wait(&s->go);
	for (unsigned i = 0; i < s->n; i++)
		io_port_tx_burst(port(1), &s->t, 1, &txr);
	return NULL;
}

static void test_port_down_two_senders(void)
{
	struct io_verbs_port *pb = io_verbs_port(fx.v, 1);
	struct router_mbuf *m[ROUTER_BURST];
	struct down_sender s;
	pthread_t t[2];
	uint64_t before;

	vfix_host_drain(&fx);
	CU_ASSERT_EQUAL(fake_verbs_port_set(vfix_dev[1], false), 0);
	io_verbs_async_poll(pb, NULL, NULL);
	CU_ASSERT_FALSE_FATAL(pb->up);
	host_send_mcast(0, 64, 3);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	s.t = tx_for(m[0], MLID_B);
	s.n = 10000000; /* ~0.1 s each: long enough to overlap on a loaded machine */
	pthread_barrier_init(&s.go, NULL, 2);
	before = pb->st.tx_down;
	for (int i = 0; i < 2; i++)
		CU_ASSERT_EQUAL_FATAL(pthread_create(&t[i], NULL, down_send, &s), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&s.go);
	CU_ASSERT_EQUAL(pb->st.tx_down - before, 2ull * s.n);
	io_port_rx_done(port(0), m, 1);
	CU_ASSERT_EQUAL(fake_verbs_port_set(vfix_dev[1], true), 0);
	io_verbs_async_poll(pb, NULL, NULL);
	CU_ASSERT_TRUE(pb->up);
	vfix_pools_check(&fx);
}

static void test_event_kinds(void)
{
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_PORT_ACTIVE), IO_VERBS_EV_UP);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_PORT_ERR), IO_VERBS_EV_DOWN);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_LID_CHANGE), IO_VERBS_EV_LID);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_GID_CHANGE), IO_VERBS_EV_GID);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_SM_CHANGE), IO_VERBS_EV_SM);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_CLIENT_REREGISTER), IO_VERBS_EV_SM);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_PKEY_CHANGE), IO_VERBS_EV_OTHER);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_QP_FATAL), IO_VERBS_EV_OTHER);
	CU_ASSERT_EQUAL(io_verbs_event_kind(-1), IO_VERBS_EV_OTHER);
}

static void on_event_refresh(void *ctx, struct io_verbs_port *p, enum io_verbs_event ev)
{
	on_event(ctx, p, ev);
	CU_ASSERT_EQUAL(io_verbs_port_refresh(p), 0);
}

/* A command on the fake's control socket, as tests/verbs sends it from another process. */
static void ctl_send(int i, const char *cmd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char s[96];

	vfix_path(&fx, s, sizeof(s), "hca", i);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s%s", s, FAKE_VERBS_CTL_SUFFIX);
	CU_ASSERT_EQUAL(sendto(fx.host[i], cmd, strlen(cmd), 0, (struct sockaddr *)&sa, sizeof(sa)),
			(ssize_t)strlen(cmd));
}

/*
 * With the control thread owning the async events, an idle worker leaves
 * them to it; the control thread's poll reports them and refreshes the
 * port (LID, GID) at once.  Events come from the fake's control socket.
 */
static void test_async_owner(void)
{
	struct io_verbs_port *pc = io_verbs_port(fx.v, 2);
	struct router_mbuf *m[ROUTER_BURST];
	uint8_t g[16];
	int before[8];

	memcpy(before, events, sizeof(events));
	io_verbs_async_owner(fx.v, true);
	ctl_send(2, "lid 0x33");
	ctl_send(2, "bogus command");
	ctl_send(2, "gid fec0::9:0:0:0:1");
	ctl_send(2, "sm");
	ctl_send(2, "down");
	CU_ASSERT_EQUAL(io_port_rx_burst(port(2), m, ROUTER_BURST), 0); /* idle: not its events */
	CU_ASSERT_EQUAL(pc->lid, 12);
	CU_ASSERT_EQUAL(io_verbs_async_poll(pc, on_event_refresh, NULL), 4);
	CU_ASSERT_EQUAL(events[IO_VERBS_EV_LID] - before[IO_VERBS_EV_LID], 1);
	CU_ASSERT_EQUAL(events[IO_VERBS_EV_GID] - before[IO_VERBS_EV_GID], 1);
	CU_ASSERT_EQUAL(events[IO_VERBS_EV_SM] - before[IO_VERBS_EV_SM], 1);
	CU_ASSERT_EQUAL(events[IO_VERBS_EV_DOWN] - before[IO_VERBS_EV_DOWN], 1);
	CU_ASSERT_EQUAL(pc->lid, 0x33);
	vfix_gid(g, 9, 1);
	CU_ASSERT_EQUAL(memcmp(pc->gid, g, 16), 0);
	CU_ASSERT_FALSE(pc->up);
	CU_ASSERT_FALSE(pc->refresh);
	/* an event the worker's thread must act on: flagged, read in its idle burst */
	ctl_send(2, "up");
	CU_ASSERT_EQUAL(io_verbs_async_poll(pc, NULL, NULL), 1);
	CU_ASSERT_TRUE(pc->up); /* `p` itself is read at once */
	CU_ASSERT_EQUAL(fake_verbs_port_lid(vfix_dev[2], 12), 0);
	vfix_gid(g, 3, 1);
	CU_ASSERT_EQUAL(fake_verbs_port_gid(vfix_dev[2], g), 0);
	CU_ASSERT_EQUAL(io_verbs_async_poll(pc, NULL, NULL), 2);
	CU_ASSERT_EQUAL(pc->lid, 12);
	io_verbs_async_owner(fx.v, false);
}

static CU_TestInfo tests[] = {
	{ "port down and up", test_port_down_up },
	{ "port down: two senders counted", test_port_down_two_senders },
	{ "async event kinds", test_event_kinds },
	{ "async events owned by the control thread", test_async_owner },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_event", tests, setup, teardown);
}
