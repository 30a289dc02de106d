/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/io/io_verbs_dev.c over the fake provider: a device removed
 * without a word (rxe's `rdma link del`), one that reports
 * IBV_EVENT_DEVICE_FATAL (mlx5), and one absent when the ports open; each
 * let go of wholly (the fake counts what is left at its close), its ports
 * lost while the others forward, and opened again once it is back.
 */
#include "lib/ibr_pkt.h"
#include "router/io/io_verbs.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/io/io_verbs_fix.h"

#include <string.h>

#define NP     3
#define MLID_A 0xC001
#define QKEY   0x0B1B

static struct vfix fx;
static const uint8_t mgid[16] = { 0xff, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x07 };

static struct io_verbs_port *vp(int i)
{
	return io_verbs_port(fx.v, (unsigned)i);
}

/* Three ports on three devices, each attached to the group; `absent` removed before the open. */
static void open_fix(const char *tag, int absent)
{
	CU_ASSERT_EQUAL_FATAL(vfix_prepare(&fx, tag, NP, 1, 64, 64), 0);
	vfix_proxy_pair(&fx, 0, 1);
	if (absent >= 0) {
		int n;

		ibv_free_device_list(ibv_get_device_list(&n)); /* the devices exist */
		CU_ASSERT_EQUAL(fake_verbs_remove(vfix_dev[absent], false), 0);
	}
	CU_ASSERT_EQUAL_FATAL(vfix_open(&fx), 0);
	for (int i = 0; i < NP; i++)
		if (!vp(i)->lost)
			CU_ASSERT_EQUAL(io_verbs_mcast_attach(vp(i), mgid, (uint16_t)(MLID_A + i)),
					0);
}

/*
 * Host 0 sends to the group; port 0 receives it and sends the copy on
 * port `to`; how many went, the packet host `to` got (its length, else 0).
 */
static unsigned forward(int to, uint8_t tag, bool reap)
{
	uint8_t sgid[16], buf[8192];
	struct router_mbuf *m[ROUTER_BURST];
	struct io_tx_result txr;
	struct router_tx t = { 0 };
	unsigned sent;

	vfix_gid(sgid, 1, 7);
	vfix_host_ud(&fx, 0,
		     &(struct vfix_ud){ .slid = 100,
					.dlid = MLID_A,
					.sgid = sgid,
					.dgid = mgid,
					.dqp = 0xFFFFFF,
					.qkey = QKEY,
					.paylen = 100,
					.tag = tag });
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(&vp(0)->io, m, ROUTER_BURST), 1);
	t = (struct router_tx){ .m = m[0] };
	memcpy(t.hdr, m[0]->data, ROUTER_HDR_LEN);
	ibr_lrh_set_dlid((struct ibr_lrh *)t.hdr, (uint16_t)(MLID_A + to));
	sent = io_port_tx_burst(&vp(to)->io, &t, 1, &txr);
	io_port_rx_done(&vp(0)->io, m, 1);
	if (reap)
		io_verbs_port_reap(vp(to));
	if (sent)
		CU_ASSERT(vfix_host_recv(&fx, to, buf, sizeof(buf)) > 0 && buf[100] == tag);
	return sent;
}

/* Port `i` let go of: nothing of its device left open, its buffers all back. */
static void check_lost(int i, uint64_t closes_before)
{
	struct fake_verbs_stats s;
	struct io_verbs_qp_info qi[IO_VERBS_NQP];

	CU_ASSERT_TRUE(vp(i)->lost);
	CU_ASSERT_FALSE(vp(i)->up);
	CU_ASSERT_TRUE(io_verbs_dev_lost(fx.v, (unsigned)i));
	CU_ASSERT_EQUAL(fake_verbs_stats_get(vfix_dev[i], &s), 0);
	CU_ASSERT_EQUAL(s.closes, closes_before + 1);
	CU_ASSERT_EQUAL(s.close_live, 0); /* every QP, MR and AH destroyed before the close */
	CU_ASSERT_EQUAL(s.qp_live, 0);
	CU_ASSERT_EQUAL(io_port_fd(&vp(i)->io), -1);
	CU_ASSERT_EQUAL(io_verbs_async_fd(vp(i)), -1);
	CU_ASSERT_EQUAL(io_verbs_port_qps(vp(i), qi, IO_VERBS_NQP), 0);
	CU_ASSERT_EQUAL(io_verbs_port_refresh(vp(i)), -ENODEV);
	CU_ASSERT_EQUAL(io_verbs_mcast_attach(vp(i), mgid, 0xC00F), -ENODEV);
	vfix_pools_check(&fx);
}

/* Port `i` back: up, its QPs new, forwarding to it again once its group is attached. */
static void check_back(int i)
{
	struct io_verbs_qp_info qi[IO_VERBS_NQP];

	CU_ASSERT_FALSE(vp(i)->lost);
	CU_ASSERT_TRUE(vp(i)->up);
	CU_ASSERT_FALSE(io_verbs_dev_lost(fx.v, (unsigned)i));
	CU_ASSERT(io_port_fd(&vp(i)->io) >= 0);
	CU_ASSERT(io_verbs_async_fd(vp(i)) >= 0);
	CU_ASSERT_EQUAL(io_verbs_port_qps(vp(i), qi, IO_VERBS_NQP), vp(i)->qkey0); /* + proxies */
	CU_ASSERT_EQUAL(vp(i)->nmc, 0); /* the groups come from the next FIB */
	CU_ASSERT_EQUAL(io_verbs_mcast_attach(vp(i), mgid, (uint16_t)(MLID_A + i)), 0);
	CU_ASSERT_EQUAL(forward(i, 0x5A, true), 1);
	vfix_pools_check(&fx);
}

/* rxe: the uverbs device goes, no event; the ports' sends in flight hold other ports' buffers. */
static void test_removed_without_event(void)
{
	struct io_verbs_stats st;
	struct fake_verbs_stats s;

	open_fix("io_verbs_dev_rm", -1);
	CU_ASSERT_EQUAL(forward(1, 1, true), 1);
	CU_ASSERT_EQUAL(forward(1, 2, false), 1); /* not reaped: port 0's buffer on b's ring */
	CU_ASSERT_PTR_NULL(io_verbs_dev_check(fx.v, 1));
	CU_ASSERT_EQUAL(fake_verbs_remove(vfix_dev[1], false), 0);
	CU_ASSERT_STRING_EQUAL(io_verbs_dev_check(fx.v, 1), "its uverbs device is gone");
	CU_ASSERT_PTR_NULL(io_verbs_dev_check(fx.v, 0));
	CU_ASSERT_EQUAL(io_verbs_async_poll(vp(1), NULL, NULL), 0); /* nothing said */
	CU_ASSERT_FALSE(io_verbs_dev_present(fx.v, 1));
	fake_verbs_stats_get(vfix_dev[1], &s);
	io_verbs_dev_lose(fx.v, 1);
	check_lost(1, s.closes);
	CU_ASSERT_PTR_NULL(io_verbs_dev_check(fx.v, 1)); /* lost: nothing more to let go */
	/* the others forward; to the lost port nothing goes, counted */
	CU_ASSERT_EQUAL(forward(2, 3, true), 1);
	io_verbs_port_stats(vp(1), &st);
	CU_ASSERT_EQUAL(forward(1, 4, true), 0);
	{
		struct io_verbs_stats st2;
		struct router_mbuf *m[ROUTER_BURST];

		io_verbs_port_stats(vp(1), &st2);
		CU_ASSERT_EQUAL(st2.tx_down, st.tx_down + 1);
		CU_ASSERT_EQUAL(io_port_rx_burst(&vp(1)->io, m, ROUTER_BURST), 0);
	}
	vfix_pools_check(&fx);
	/* not back yet: reopening fails and changes nothing */
	CU_ASSERT_EQUAL(io_verbs_dev_reopen(fx.v, 1), -ENODEV);
	CU_ASSERT_TRUE(vp(1)->lost);
	CU_ASSERT_EQUAL(fake_verbs_restore(vfix_dev[1]), 0);
	CU_ASSERT_TRUE(io_verbs_dev_present(fx.v, 1));
	CU_ASSERT_EQUAL(io_verbs_dev_reopen(fx.v, 1), 0);
	check_back(1);
	/* a send in flight from port 0's pool on port 1 when everything closes */
	CU_ASSERT_EQUAL(forward(1, 5, false), 1);
	vfix_close(&fx);
}

/* mlx5: IBV_EVENT_DEVICE_FATAL stops the device's ports at once, then the same. */
static int fatal_seen;

static void on_fatal(void *ctx, struct io_verbs_port *p, enum io_verbs_event ev)
{
	(void)ctx;
	if (ev == IO_VERBS_EV_FATAL && p == vp(2))
		fatal_seen++;
}

static void test_fatal_event(void)
{
	struct fake_verbs_stats s;

	open_fix("io_verbs_dev_fatal", -1);
	CU_ASSERT_EQUAL(io_verbs_event_kind(IBV_EVENT_DEVICE_FATAL), IO_VERBS_EV_FATAL);
	CU_ASSERT_EQUAL(forward(2, 1, true), 1);
	CU_ASSERT_EQUAL(fake_verbs_remove(vfix_dev[2], true), 0);
	CU_ASSERT_EQUAL(io_verbs_async_poll(vp(2), on_fatal, NULL), 1);
	CU_ASSERT_EQUAL(fatal_seen, 1);
	CU_ASSERT_FALSE(vp(2)->up); /* before the device is let go: nothing more sent */
	CU_ASSERT_EQUAL(forward(2, 2, true), 0);
	CU_ASSERT_STRING_EQUAL(io_verbs_dev_check(fx.v, 2), "a fatal device error");
	CU_ASSERT_EQUAL(io_verbs_async_poll(vp(2), on_fatal, NULL), 0); /* read no more */
	fake_verbs_stats_get(vfix_dev[2], &s);
	io_verbs_dev_lose(fx.v, 2);
	check_lost(2, s.closes);
	CU_ASSERT_EQUAL(fake_verbs_restore(vfix_dev[2]), 0);
	CU_ASSERT_EQUAL(io_verbs_dev_reopen(fx.v, 2), 0);
	CU_ASSERT_PTR_NULL(io_verbs_dev_check(fx.v, 2)); /* the fatal mark went with it */
	check_back(2);
	vfix_close(&fx);
}

/* A device not there when the ports open: the port is lost from the start, the rest work. */
static void test_absent_at_open(void)
{
	struct fake_verbs_stats s;

	open_fix("io_verbs_dev_absent", 1);
	CU_ASSERT_TRUE(vp(1)->lost);
	CU_ASSERT_FALSE(vp(1)->up);
	CU_ASSERT_EQUAL(fake_verbs_stats_get(vfix_dev[1], &s), 0);
	CU_ASSERT_EQUAL(s.closes, 0); /* never opened */
	CU_ASSERT_EQUAL(io_port_fd(&vp(1)->io), -1);
	CU_ASSERT_EQUAL(forward(2, 1, true), 1);
	CU_ASSERT_EQUAL(forward(1, 2, true), 0);
	vfix_pools_check(&fx);
	CU_ASSERT_EQUAL(fake_verbs_restore(vfix_dev[1]), 0);
	CU_ASSERT_EQUAL(io_verbs_dev_reopen(fx.v, 1), 0);
	check_back(1); /* its relay QP and its proxy's */
	vfix_close(&fx);
}

static CU_TestInfo tests[] = {
	{ "a device removed without an event", test_removed_without_event },
	{ "IBV_EVENT_DEVICE_FATAL", test_fatal_event },
	{ "a device absent at the open", test_absent_at_open },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("io_verbs_dev", tests);
}
