/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/io/io_verbs*.c over the fake provider of tests/fakes/: the
 * data path between three devices whose ports are sim wire ports, a "host"
 * socket at the other end of each (io_verbs_relay_fix.h): receives made into
 * packets, and dropped; one buffer sent on several ports; bursts batched;
 * send and receive queue faults; unicast refused, or relayed through a
 * proxy pair; the send queue kept from filling; the channel's fd.
 * io_verbs_event_test.c holds the port events, io_verbs_ah_test.c the
 * buffer pool and the AH cache.
 */
#include "lib/ibr_pkt.h"
#include "router/io/io_verbs.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/io/io_verbs_fix.h"
#include "tests/unit/router/io/io_verbs_relay_fix.h"

#include <string.h>

static void test_rx_synthesizes_a_packet(void)
{
	struct router_mbuf *m[ROUTER_BURST];
	struct ibr_pkt pk;
	uint8_t g[16];
	int n;

	host_send_mcast(0, 100, 0x11);
	n = io_port_rx_burst(port(0), m, ROUTER_BURST);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(m[0]->port, 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(m[0]->data, m[0]->len, &pk), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pk.grh);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), MLID_A);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(pk.lrh), 100);
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(pk.lrh), 3);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(pk.bth), 0xFFFFFF);
	CU_ASSERT_EQUAL(ibr_bth_get_pkey(pk.bth), 0xFFFF);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(pk.deth), HOST_QPN);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(pk.deth), QKEY);
	CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(pk.grh), 0x12345);
	CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(pk.grh), 64);
	vfix_gid(g, 1, 7);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_sgid(pk.grh), g, 16), 0);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), mgid, 16), 0);
	CU_ASSERT_EQUAL(pk.payload_len, 100);
	CU_ASSERT_EQUAL(pk.payload[0], 0x11);
	CU_ASSERT_EQUAL(pk.payload[99], 0x11);
	io_port_rx_done(port(0), m, 1);
	/* with ImmDt: the GRH moves, the ImmDt sits before the payload */
	host_send(0, mgid, MLID_A, 0xFFFFFF, QKEY, 33, 0x22, true);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(m[0]->data, m[0]->len, &pk), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pk.immdt);
	CU_ASSERT_EQUAL(ibr_be32_get(pk.immdt), 0xA5A5A5A5);
	CU_ASSERT_EQUAL(pk.payload_len, 33);
	CU_ASSERT_EQUAL(pk.payload[32], 0x22);
	io_port_rx_done(port(0), m, 1);
	vfix_pools_check(&fx);
}

static void test_rx_drops(void)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0);
	struct io_verbs_stats before = p->st;
	struct router_mbuf *m[ROUTER_BURST];
	struct fake_verbs_stats fs0, fs1;
	uint8_t other[16];

	fake_verbs_stats_get(vfix_dev[0], &fs0);
	/* a group the relay QP is not attached to: the HCA filters it */
	memcpy(other, mgid, 16);
	other[15] = 9;
	host_send(0, other, MLID_A, 0xFFFFFF, QKEY, 10, 1, false);
	/* the wrong Q_Key: the HCA drops it (C10-25) */
	host_send_mcast(0, 10, 1);
	host_send(0, mgid, MLID_A, 0xFFFFFF, QKEY + 1, 10, 1, false);
	/* no GRH: local to the subnet */
	host_send(0, NULL, 10, p->qpn, QKEY, 10, 1, false);
	CU_ASSERT_EQUAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	io_port_rx_done(port(0), m, 1);
	fake_verbs_stats_get(vfix_dev[0], &fs1);
	CU_ASSERT_EQUAL(fs1.rx_filtered - fs0.rx_filtered, 2);
	CU_ASSERT_EQUAL(p->st.rx_no_grh - before.rx_no_grh, 1);
	vfix_pools_check(&fx);
}

static void test_rx_own_sgid_dropped(void)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0);
	uint64_t own = p->st.rx_own_sgid;
	struct router_mbuf *m[ROUTER_BURST];
	uint8_t pkt[512];
	struct ibr_pkt_ud_params u = { .slid = 11,
				       .dlid = MLID_A,
				       .grh = true,
				       .hoplmt = 2,
				       .pkey = 0xFFFF,
				       .dest_qp = 0xFFFFFF,
				       .qkey = QKEY,
				       .src_qp = 5,
				       .payload = "x",
				       .payload_len = 1 };
	int len;

	/* the fake cannot block loopback (no ibv_create_qp_ex): the SGID check is the guard */
	CU_ASSERT_FALSE(p->lb_blocked);
	/* a packet carrying the router's own GID on subnet 2 (its port 1): a loop */
	memcpy(u.sgid, io_verbs_port(fx.v, 1)->gid, 16);
	memcpy(u.dgid, mgid, 16);
	len = ibr_pkt_build_ud(pkt, sizeof(pkt), &u);
	vfix_host_send(&fx, 0, pkt, (size_t)len);
	CU_ASSERT_EQUAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 0);
	CU_ASSERT_EQUAL(p->st.rx_own_sgid - own, 1);
	vfix_pools_check(&fx);
}

/* One received buffer sent on two ports without a copy; it comes back after both sends. */
static void test_mcast_fanout_zero_copy(void)
{
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx tb, tc;
	struct ibr_pkt pk;
	uint8_t buf[8192];
	struct io_tx_result txr;
	struct io_verbs_buf *b;
	int n;

	vfix_host_drain(&fx);
	host_send_mcast(0, 200, 0x33);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	b = m[0]->priv;
	tb = tx_for(m[0], MLID_B);
	tc = tx_for(m[0], MLID_C);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &tb, 1, &txr), 1);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(2), &tc, 1, &txr), 1);
	io_port_rx_done(port(0), m, 1);
	/* the fake completes at once; until reaped the sends hold the buffer */
	CU_ASSERT_EQUAL(atomic_load(&b->refs), 2);
	for (int i = 1; i <= 2; i++) {
		n = vfix_host_recv(&fx, i, buf, sizeof(buf));
		CU_ASSERT_FATAL(n > 0);
		CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&pk), IBR_PKT_ERR_OK); /* the HCA's CRCs */
		CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), MLID_A + i);
		CU_ASSERT_EQUAL(ibr_lrh_get_slid(pk.lrh), 10 + i); /* the router's LID */
		CU_ASSERT_EQUAL(ibr_bth_get_destqp(pk.bth), 0xFFFFFF);
		CU_ASSERT_EQUAL(ibr_deth_get_qkey(pk.deth), QKEY);
		CU_ASSERT_EQUAL(ibr_deth_get_srcqp(pk.deth), io_verbs_port(fx.v, (unsigned)i)->qpn);
		CU_ASSERT_EQUAL(
			memcmp(ibr_grh_sgid(pk.grh), io_verbs_port(fx.v, (unsigned)i)->gid, 16), 0);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), mgid, 16), 0);
		CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(pk.grh), 63);
		CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(pk.grh), 0x12345);
		CU_ASSERT_EQUAL(ibr_grh_get_tclass(pk.grh), 0x20);
		CU_ASSERT_EQUAL(pk.payload_len, 200);
		CU_ASSERT_EQUAL(pk.payload[199], 0x33);
	}
	vfix_pools_check(&fx);
	CU_ASSERT_EQUAL(atomic_load(&b->refs), 0);
}

/* A burst of 32 becomes one ibv_post_send, two CQEs, one AH; receives re-posted in chains. */
static void test_batching_and_ah_cache(void)
{
	struct io_verbs_port *pb = io_verbs_port(fx.v, 1);
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx t[ROUTER_BURST] = { 0 };
	struct fake_verbs_stats a0, a1, b0, b1;
	struct io_tx_result txr;
	uint64_t misses = pb->ah.misses;
	int n;

	vfix_host_drain(&fx);
	for (int i = 0; i < ROUTER_BURST; i++)
		host_send_mcast(0, 64, (uint8_t)i);
	fake_verbs_stats_get(vfix_dev[0], &a0);
	fake_verbs_stats_get(vfix_dev[1], &b0);
	n = io_port_rx_burst(port(0), m, ROUTER_BURST);
	CU_ASSERT_EQUAL_FATAL(n, ROUTER_BURST);
	for (int i = 0; i < n; i++)
		t[i] = tx_for(m[i], MLID_B);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), t, (unsigned)n, &txr), (unsigned)n);
	io_port_rx_done(port(0), m, (unsigned)n);
	/* the sends completed: reaped, their buffers go back at A's next (idle) burst */
	io_verbs_port_reap(pb);
	CU_ASSERT_EQUAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 0);
	fake_verbs_stats_get(vfix_dev[0], &a1);
	fake_verbs_stats_get(vfix_dev[1], &b1);
	CU_ASSERT_EQUAL(b1.post_send_calls - b0.post_send_calls, 1);
	CU_ASSERT_EQUAL(b1.send_wrs - b0.send_wrs, ROUTER_BURST);
	CU_ASSERT_EQUAL(b1.wire_tx + b1.wire_full - b0.wire_tx - b0.wire_full, ROUTER_BURST);
	CU_ASSERT_EQUAL(pb->ah.misses - misses, 0); /* the fan-out test created it */
	CU_ASSERT_EQUAL(b1.ah_created, 1);
	/* 32 buffers back: two chains of 16 */
	CU_ASSERT_EQUAL(a1.post_recv_calls - a0.post_recv_calls, 2);
	CU_ASSERT_EQUAL(a1.recv_wrs - a0.recv_wrs, ROUTER_BURST);
	/* another flow label: another AH */
	host_send_mcast(0, 64, 1);
	n = io_port_rx_burst(port(0), m, ROUTER_BURST);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	t[0] = tx_for(m[0], MLID_B);
	tx_set_flow(&t[0], 7);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), t, 1, &txr), 1);
	io_port_rx_done(port(0), m, 1);
	fake_verbs_stats_get(vfix_dev[1], &b1);
	CU_ASSERT_EQUAL(b1.ah_created, 2);
	vfix_pools_check(&fx);
}

/* Sends that fail put the QP in error; it is reset, nothing is lost, traffic resumes. */
static void test_fault_send_error(void)
{
	struct io_verbs_port *pb = io_verbs_port(fx.v, 1);
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx t[ROUTER_BURST] = { 0 };
	struct io_tx_result txr;
	uint64_t resets = pb->st.qp_resets;
	int n;

	vfix_host_drain(&fx);
	fake_verbs_fault_send_error(vfix_dev[1], 3);
	for (int i = 0; i < 8; i++)
		host_send_mcast(0, 64, (uint8_t)i);
	n = io_port_rx_burst(port(0), m, ROUTER_BURST);
	CU_ASSERT_EQUAL_FATAL(n, 8);
	for (int i = 0; i < n; i++)
		t[i] = tx_for(m[i], MLID_B);
	io_port_tx_burst(port(1), t, (unsigned)n, &txr);
	io_port_rx_done(port(0), m, (unsigned)n);
	io_verbs_port_reap(pb);
	CU_ASSERT(pb->st.tx_err >= 1);
	/* the egress port's owner recovers in its next burst */
	CU_ASSERT_EQUAL(io_port_rx_burst(port(1), m, ROUTER_BURST), 0);
	CU_ASSERT_EQUAL(pb->st.qp_resets - resets, 1);
	vfix_pools_check(&fx);
	/* traffic flows again */
	vfix_host_drain(&fx);
	host_send_mcast(0, 64, 9);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	t[0] = tx_for(m[0], MLID_B);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), t, 1, &txr), 1);
	io_port_rx_done(port(0), m, 1);
	CU_ASSERT(vfix_host_recv(&fx, 1, (uint8_t[8192]){ 0 }, 8192) > 0);
	vfix_pools_check(&fx);
}

static void test_fault_rq_exhausted(void)
{
	struct router_mbuf *m[ROUTER_BURST];
	struct fake_verbs_stats s0, s1;
	int n;

	fake_verbs_stats_get(vfix_dev[0], &s0);
	fake_verbs_fault_rq_exhausted(vfix_dev[0], 5);
	for (int i = 0; i < 10; i++)
		host_send_mcast(0, 64, (uint8_t)i);
	n = io_port_rx_burst(port(0), m, ROUTER_BURST);
	CU_ASSERT_EQUAL(n, 5);
	io_port_rx_done(port(0), m, (unsigned)n);
	fake_verbs_stats_get(vfix_dev[0], &s1);
	CU_ASSERT_EQUAL(s1.rx_no_wqe - s0.rx_no_wqe, 5);
	vfix_pools_check(&fx);
}

/* Unicast without a proxy mapping cannot be relayed (counted, buffer back). */
static void test_unicast_refused(void)
{
	struct io_verbs_port *pa = io_verbs_port(fx.v, 0), *pb = io_verbs_port(fx.v, 1);
	uint64_t before = pb->st.tx_unicast;
	struct io_tx_result txr;
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx t = { 0 };
	uint8_t g[16];

	vfix_gid(g, 2, 7);
	host_send(0, g, 10, pa->qpn, QKEY, 16, 1, false);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp((const struct ibr_bth *)(m[0]->data + 48)), pa->qpn);
	t = tx_for(m[0], 20);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 0);
	CU_ASSERT_EQUAL(pb->st.tx_unicast - before, 1);
	io_port_rx_done(port(0), m, 1);
	vfix_pools_check(&fx);
}

/* A packet as a sim port receives it: multicast UD to ff0e::1, every byte of the payload `tag`. */
static size_t sim_pkt(uint8_t *buf, size_t size, uint32_t dqp, size_t paylen, bool imm, uint8_t tag)
{
	static uint8_t pay[4096];
	struct ibr_pkt_ud_params u = { .slid = 3,
				       .dlid = MLID_A,
				       .grh = true,
				       .tclass = 0x20,
				       .flowlabel = 0x12345,
				       .hoplmt = 64,
				       .opcode = imm ? 0x65 : 0x64,
				       .pkey = 0xFFFF,
				       .dest_qp = dqp,
				       .qkey = QKEY,
				       .src_qp = 0x77,
				       .immdt = 0xA1B2C3D4,
				       .payload = pay,
				       .payload_len = paylen };
	int n;

	memset(pay, tag, paylen);
	vfix_gid(u.sgid, 5, 9);
	memcpy(u.dgid, mgid, 16);
	n = ibr_pkt_build_ud(buf, size, &u);
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_crc_fill(buf, (size_t)n), 0);
	return (size_t)n;
}

/*
 * A packet that came in on a port of another backend (a sim port's: no
 * verbs buffer) is copied into a bounce buffer of the egress port and sent
 * from it -- payload, ImmDt and Q_Key as they came; unicast (no ingress
 * proxy QP), a length that lies and bounce buffers all in flight are
 * refused and counted, and every bounce buffer comes back.  It was refused
 * outright (tx_foreign), so an IB sim port's groups never reached RoCE.
 */
static void test_foreign_bounced(void)
{
	struct io_verbs_port *pb = io_verbs_port(fx.v, 1);
	static uint8_t pkt[8192], buf[8192];
	struct router_mbuf m = { .data = pkt, .port = 5, .priv = (void *)8 };
	struct io_verbs_stats st0, st1;
	struct io_tx_result txr;
	struct router_tx t = { 0 };
	struct ibr_pkt pk;
	int n;

	vfix_host_drain(&fx);
	io_verbs_port_stats(pb, &st0);
	for (int imm = 0; imm <= 1; imm++) {
		m.len = sim_pkt(pkt, sizeof(pkt), 0xFFFFFF, 1000 + (size_t)imm, imm, 0x5A);
		t = tx_for(&m, MLID_B);
		CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 1);
		CU_ASSERT_EQUAL(txr.bytes, m.len);
		n = vfix_host_recv(&fx, 1, buf, sizeof(buf));
		CU_ASSERT_FATAL(n > 0);
		CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&pk), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), MLID_B);
		CU_ASSERT_EQUAL(ibr_bth_get_destqp(pk.bth), 0xFFFFFF);
		CU_ASSERT_EQUAL(ibr_deth_get_qkey(pk.deth), QKEY);
		CU_ASSERT_EQUAL(ibr_deth_get_srcqp(pk.deth), pb->qpn);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), mgid, 16), 0);
		CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(pk.grh), 63);
		CU_ASSERT_EQUAL(pk.payload_len, 1000u + (unsigned)imm);
		CU_ASSERT_EQUAL(pk.payload[0], 0x5A);
		CU_ASSERT_EQUAL(pk.payload[999 + imm], 0x5A);
		CU_ASSERT_EQUAL(ibr_bth_get_opcode(pk.bth), imm ? 0x65 : 0x64);
		if (imm)
			CU_ASSERT_EQUAL(ibr_be32_get(pk.immdt), 0xA1B2C3D4);
	}
	/* unicast: no proxy QP on the ingress side */
	m.len = sim_pkt(pkt, sizeof(pkt), 0x123, 64, false, 1);
	t = tx_for(&m, 20);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 0);
	/* PayLen says more than the packet has; then less */
	m.len = sim_pkt(pkt, sizeof(pkt), 0xFFFFFF, 64, false, 1);
	m.len -= 4;
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 0);
	m.len += 8;
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 0);
	m.len = 30; /* not even the headers */
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 0);
	io_verbs_port_stats(pb, &st1);
	CU_ASSERT_EQUAL(st1.tx_bounced - st0.tx_bounced, 2);
	CU_ASSERT_EQUAL(st1.tx_foreign - st0.tx_foreign, 4);
	/* every bounce buffer in flight: the next is not sent, and counted */
	m.len = sim_pkt(pkt, sizeof(pkt), 0xFFFFFF, 64, false, 2);
	t = tx_for(&m, MLID_B);
	io_verbs_port_reap(pb);
	CU_ASSERT_EQUAL(pb->pool.nbounce_free, IO_VERBS_BOUNCE);
	{
		uint32_t held = pb->pool.nbounce_free;
		struct io_verbs_buf *taken[IO_VERBS_BOUNCE];

		for (uint32_t k = 0; k < held; k++)
			taken[k] = io_verbs_pool_bounce_take(&pb->pool);
		CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 0);
		io_verbs_port_stats(pb, &st0);
		CU_ASSERT_EQUAL(st0.tx_bounce_full - st1.tx_bounce_full, 1);
		for (uint32_t k = 0; k < held; k++) {
			io_verbs_buf_ref(taken[k]);
			io_verbs_buf_unref(&pb->pool, taken[k]);
		}
	}
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 1);
	CU_ASSERT(vfix_host_recv(&fx, 1, buf, sizeof(buf)) > 0);
	io_verbs_port_reap(pb);
	CU_ASSERT_EQUAL(pb->pool.nbounce_free, IO_VERBS_BOUNCE);
	vfix_pools_check(&fx);
}

/*
 * A feed's copy (tx.dgid) leaves with the egress port's name for the group:
 * the address handle's DGID; a plain copy right after it keeps the packet's
 * (a separate AH: the cache is keyed by DGID).
 */
static void test_feed_dgid(void)
{
	static const uint8_t feed_mgid[16] = { 0xff, 0x12, 0x40, 0x01, 0xff, 0xff, 0, 0,
					       0,    0,	   0,	 0,    0xef, 1,	   1, 1 };
	struct router_mbuf *m[ROUTER_BURST];
	struct io_tx_result txr;
	struct router_tx t[2] = { 0 };
	struct ibr_pkt pk;
	uint8_t buf[8192];

	vfix_host_drain(&fx);
	host_send_mcast(0, 64, 0x44);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	t[0] = tx_for(m[0], MLID_B);
	t[0].dgid = feed_mgid;
	t[1] = tx_for(m[0], MLID_B);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), t, 2, &txr), 2);
	io_port_rx_done(port(0), m, 1);
	for (int k = 0; k < 2; k++) {
		int n = vfix_host_recv(&fx, 1, buf, sizeof(buf));

		CU_ASSERT_FATAL(n > 0);
		CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&pk), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), k == 0 ? feed_mgid : mgid, 16), 0);
		CU_ASSERT_EQUAL(pk.payload_len, 64);
	}
	vfix_pools_check(&fx);
}

/* The completion channel's fd wakes a sleeper when the wire has packets. */
static void test_fd_readable(void)
{
	struct router_mbuf *m[ROUTER_BURST];
	struct pollfd {
		int fd;
		short events, revents;
	};
	int fd = io_port_fd(port(2));

	CU_ASSERT(fd >= 0);
	host_send_mcast(2, 8, 1);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(2), m, ROUTER_BURST), 1);
	io_port_rx_done(port(2), m, 1);
	CU_ASSERT_EQUAL(io_port_rx_burst(port(2), m, ROUTER_BURST), 0); /* re-arms */
	vfix_pools_check(&fx);
}

/*
 * A port a busy worker polls (io_port.polled): an empty burst arms no CQ
 * notification (a system call on a kernel provider, on every spin), yet
 * packets are received; polled no more, the next empty burst arms it.
 */
static void test_polled_no_arm(void)
{
	struct router_mbuf *m[ROUTER_BURST];
	struct fake_verbs_stats a, b;
	const char *dev = io_verbs_port(fx.v, 2)->cfg.device;

	CU_ASSERT_EQUAL_FATAL(fake_verbs_stats_get(dev, &a), 0);
	port(2)->polled = true;
	for (int i = 0; i < 3000; i++)
		CU_ASSERT_EQUAL(io_port_rx_burst(port(2), m, ROUTER_BURST), 0);
	CU_ASSERT_EQUAL_FATAL(fake_verbs_stats_get(dev, &b), 0);
	CU_ASSERT_EQUAL(b.cq_arms, a.cq_arms);
	host_send_mcast(2, 8, 1);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(2), m, ROUTER_BURST), 1);
	io_port_rx_done(port(2), m, 1);
	port(2)->polled = false;
	CU_ASSERT_EQUAL(io_port_rx_burst(port(2), m, ROUTER_BURST), 0);
	CU_ASSERT_EQUAL_FATAL(fake_verbs_stats_get(dev, &b), 0);
	CU_ASSERT_EQUAL(b.cq_arms, a.cq_arms + 1);
	vfix_pools_check(&fx);
}

/*
 * UD unicast through proxies: A sends to the proxy QPN on port 0, B gets it
 * at the remote QPN and Q_Key from port 1's paired proxy, and B's reply to
 * that source QPN reaches A from the proxy A sent to.
 */
static void test_unicast_proxy_pair(void)
{
	struct io_verbs_port *pa = io_verbs_port(fx.v, 0), *pb = io_verbs_port(fx.v, 1);
	struct router_mbuf *m[ROUTER_BURST];
	struct fake_verbs_stats s0, s1;
	struct router_tx t = { 0 };
	struct ibr_pkt pk;
	uint8_t g[16], buf[8192];
	struct io_tx_result txr;
	int n;

	CU_ASSERT_EQUAL_FATAL(pa->qkey0, 2); /* the relay QP and one proxy */
	CU_ASSERT_NOT_EQUAL(pa->q[1].qpn, pa->qpn);
	vfix_host_drain(&fx);
	fake_verbs_stats_get(vfix_dev[1], &s0);
	vfix_gid(g, 2, 7);
	host_send(0, g, 10, pa->q[1].qpn, 0x1234, 77, 0x44, false);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(0), m, ROUTER_BURST), 1);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp((const struct ibr_bth *)(m[0]->data + 48)),
			pa->q[1].qpn);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey((const struct ibr_deth *)(m[0]->data + 60)), 0x1234);
	t = tx_for(m[0], 20);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(1), &t, 1, &txr), 1);
	io_port_rx_done(port(0), m, 1);
	n = vfix_host_recv(&fx, 1, buf, sizeof(buf));
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), 20);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(pk.bth), HOST_QPN);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(pk.deth), 0x1234);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(pk.deth), pb->q[1].qpn); /* the paired proxy */
	CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), g, 16), 0);
	CU_ASSERT_EQUAL(pk.payload_len, 77);
	fake_verbs_stats_get(vfix_dev[1], &s1);
	CU_ASSERT_EQUAL(s1.post_send_calls - s0.post_send_calls, 1);
	/* the reply, to the source QPN B saw */
	vfix_gid(g, 1, 7);
	host_send(1, g, 11, pb->q[1].qpn, 0x4321, 5, 0x55, false);
	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(1), m, ROUTER_BURST), 1);
	t = tx_for(m[0], 30);
	CU_ASSERT_EQUAL(io_port_tx_burst(port(0), &t, 1, &txr), 1);
	io_port_rx_done(port(1), m, 1);
	n = vfix_host_recv(&fx, 0, buf, sizeof(buf));
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(pk.bth), HOST_QPN);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(pk.deth), 0x4321);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(pk.deth), pa->q[1].qpn);
	vfix_pools_check(&fx);
}

/*
 * Twenty full bursts into a send queue of 256: each burst reaps the last
 * one's completions and ends signalled, so the queue never fills (the fake
 * holds a WQE until a polled completion retires it, as an HCA does).
 */
static void test_send_queue_never_fills(void)
{
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx t[ROUTER_BURST] = { 0 };
	struct fake_verbs_stats s0, s1;
	unsigned sent = 0;
	struct io_tx_result txr;

	fake_verbs_stats_get(vfix_dev[2], &s0);
	for (int round = 0; round < 20; round++) {
		int n;

		for (int i = 0; i < ROUTER_BURST; i++)
			host_send_mcast(0, 32, (uint8_t)i);
		n = io_port_rx_burst(port(0), m, ROUTER_BURST);
		CU_ASSERT_EQUAL_FATAL(n, ROUTER_BURST);
		for (int i = 0; i < n; i++)
			t[i] = tx_for(m[i], MLID_C);
		sent += io_port_tx_burst(port(2), t, (unsigned)n, &txr);
		io_port_rx_done(port(0), m, (unsigned)n);
		vfix_host_drain(&fx);
	}
	fake_verbs_stats_get(vfix_dev[2], &s1);
	CU_ASSERT_EQUAL(sent, 20 * ROUTER_BURST);
	CU_ASSERT_EQUAL(s1.sq_full - s0.sq_full, 0);
	CU_ASSERT_EQUAL(s1.post_send_calls - s0.post_send_calls, 20);
	vfix_pools_check(&fx);
}

static CU_TestInfo tests[] = {
	{ "rx synthesizes LRH/BTH/DETH", test_rx_synthesizes_a_packet },
	{ "rx drops", test_rx_drops },
	{ "rx own SGID dropped", test_rx_own_sgid_dropped },
	{ "multicast fan-out without copy", test_mcast_fanout_zero_copy },
	{ "batching and AH cache", test_batching_and_ah_cache },
	{ "fault: send error", test_fault_send_error },
	{ "fault: receive queue exhausted", test_fault_rq_exhausted },
	{ "unicast without proxy", test_unicast_refused },
	{ "a packet of another backend is sent from a bounce buffer", test_foreign_bounced },
	{ "a feed's copy leaves with the egress port's MGID", test_feed_dgid },
	{ "unicast through a proxy pair", test_unicast_proxy_pair },
	{ "send queue never fills", test_send_queue_never_fills },
	{ "channel fd", test_fd_readable },
	{ "a polled port arms no CQ notification", test_polled_no_arm },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs", tests, setup, teardown);
}
