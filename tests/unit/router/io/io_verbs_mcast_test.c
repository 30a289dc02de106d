/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/io/io_verbs_mcast.c over the fake provider (tests/fakes):
 * the QP of each group's Q_Key (IBA C10-25), created on demand, bounded,
 * destroyed once no group needs it with every buffer back in the pool, and
 * the groups of a published FIB followed; a controlled Q_Key forwarded
 * from the QP that has it (C10-15).
 */
#include "lib/ibr_pkt.h"
#include "router/io/io_verbs.h"
#include "router/router_rib.h"
#include "router/router_worker.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/io/io_verbs_fix.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define NP	   2
#define RELAY_QK   0x0B1B
#define CTRL_QK	   0x80010000u /* a controlled Q_Key */
#define MLID(p, k) ((uint16_t)(0xC000 + 0x10 * (p) + (k)))

static struct vfix fx;

/* Group k: ff15::k (site scope). */
static void mgid_of(uint8_t g[16], int k)
{
	memset(g, 0, 16);
	g[0] = 0xff;
	g[1] = 0x15;
	g[15] = (uint8_t)k;
}

static int setup(void)
{
	if (vfix_prepare(&fx, "io_verbs_mcast", NP, 1, 64, 64))
		return -1;
	return vfix_open(&fx);
}

static int teardown(void)
{
	vfix_close(&fx);
	return 0;
}

static struct io_verbs_port *port(int i)
{
	return io_verbs_port(fx.v, (unsigned)i);
}

/* The host of subnet `i` sends `n` packets to group k with Q_Key `qkey`. */
static void host_send(int i, int k, uint32_t qkey, int n)
{
	uint8_t pay[64] = { 0 }, pkt[256];
	struct ibr_pkt_ud_params p = { .slid = 100,
				       .dlid = MLID(i, k),
				       .grh = true,
				       .hoplmt = 64,
				       .pkey = 0xFFFF,
				       .dest_qp = 0xFFFFFF,
				       .qkey = qkey,
				       .src_qp = 0x42,
				       .payload = pay,
				       .payload_len = sizeof(pay) };
	int len;

	p.sgid[0] = 0xfe;
	p.sgid[7] = (uint8_t)(i + 1);
	p.sgid[15] = 7;
	mgid_of(p.dgid, k);
	len = ibr_pkt_build_ud(pkt, sizeof(pkt), &p);
	CU_ASSERT_FATAL(len > 0);
	for (int j = 0; j < n; j++)
		vfix_host_send(&fx, i, pkt, (size_t)len);
	fake_verbs_pump(vfix_dev[i]);
}

/* Receive on port i: how many packets; the first one's DETH Q_Key and DLID. */
static int rx(int i, uint32_t *qkey, uint16_t *dlid)
{
	struct router_mbuf *m[ROUTER_BURST];
	int n = io_port_rx_burst(&port(i)->io, m, ROUTER_BURST);

	if (n > 0 && qkey)
		*qkey = ibr_deth_get_qkey((const struct ibr_deth *)(m[0]->data + 60));
	if (n > 0 && dlid)
		*dlid = ibr_lrh_get_dlid((const struct ibr_lrh *)m[0]->data);
	if (n > 0)
		io_port_rx_done(&port(i)->io, m, (unsigned)n);
	return n;
}

static uint64_t qps_live(int i)
{
	struct fake_verbs_stats s;

	fake_verbs_stats_get(vfix_dev[i], &s);
	return s.qp_live;
}

/* Closing QPs flushed and destroyed; every buffer posted to the open QPs or free. */
static void assert_settled(int i)
{
	struct io_verbs_port *p = port(i);
	uint32_t posted, nfree, held, depth = 0;
	struct io_verbs_qp_info qi[IO_VERBS_NQP];
	unsigned n;

	/* the flushes, 32 a burst, then the garbage collection */
	for (int k = 0; k < 64 && (p->nclosing || k < 2); k++)
		rx(i, NULL, NULL);
	io_verbs_port_reap(p);
	io_verbs_port_bufs(p, &posted, &nfree, &held);
	CU_ASSERT_EQUAL(held, 0);
	CU_ASSERT_EQUAL(posted + nfree, p->pool.nbufs);
	CU_ASSERT_EQUAL(p->nclosing, 0);
	n = io_verbs_port_qps(p, qi, IO_VERBS_NQP);
	for (unsigned k = 0; k < n; k++)
		depth += p->cfg.rq_depth; /* a Q_Key QP's as deep as the relay's */
	/* the open QPs (nearly) full -- reposts go in chains of 16 -- nothing elsewhere */
	CU_ASSERT(posted <= depth && depth - posted < 16u * n);
	CU_ASSERT_EQUAL(qps_live(i), n);
}

static void test_qp_per_qkey(void)
{
	struct io_verbs_port *p = port(0);
	uint64_t made = p->st.qkey_qps, closed = p->st.qkey_closed;
	uint8_t g[4][16];
	uint32_t qk = 0;
	uint16_t dlid = 0;

	for (int k = 1; k < 4; k++)
		mgid_of(g[k], k);
	CU_ASSERT_EQUAL(qps_live(0), 1);
	/* Q_Key unknown (0): the relay QP's */
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g[1], MLID(0, 1), 0), 0);
	CU_ASSERT_EQUAL(qps_live(0), 1);
	/* Q_Key 0xb, twice: one QP */
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g[2], MLID(0, 2), 0xb), 0);
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g[3], MLID(0, 3), 0xb), 0);
	CU_ASSERT_EQUAL(qps_live(0), 2);
	CU_ASSERT_EQUAL(p->st.qkey_qps - made, 1);
	CU_ASSERT_EQUAL(p->q[p->mc[1].slot].qkey, 0xb);
	CU_ASSERT_EQUAL(p->q[p->mc[1].slot].groups, 2);
	/* as deep as the relay QP, its buffers in the pool from the start */
	CU_ASSERT_EQUAL(p->q[p->mc[1].slot].rq_depth, p->cfg.rq_depth);
	CU_ASSERT_EQUAL(p->pool.nbufs, io_verbs_port_nbufs(p->cfg.rq_depth, p->cfg.nproxy));
	/* received with its Q_Key, which the synthesized DETH says; the relay's is filtered */
	host_send(0, 2, 0xb, 3);
	CU_ASSERT_EQUAL(rx(0, &qk, &dlid), 3);
	CU_ASSERT_EQUAL(qk, 0xb);
	CU_ASSERT_EQUAL(dlid, MLID(0, 2));
	host_send(0, 2, RELAY_QK, 2);
	CU_ASSERT_EQUAL(rx(0, NULL, NULL), 0);
	host_send(0, 1, RELAY_QK, 2);
	CU_ASSERT_EQUAL(rx(0, &qk, NULL), 2);
	CU_ASSERT_EQUAL(qk, RELAY_QK);
	/* the QP stays while a group needs it, then goes with its buffers back */
	CU_ASSERT_EQUAL(io_verbs_mcast_detach(p, g[2]), 0);
	assert_settled(0);
	CU_ASSERT_EQUAL(qps_live(0), 2);
	CU_ASSERT_EQUAL(io_verbs_mcast_detach(p, g[3]), 0);
	assert_settled(0);
	CU_ASSERT_EQUAL(qps_live(0), 1);
	CU_ASSERT_EQUAL(p->st.qkey_closed - closed, 1);
	host_send(0, 3, 0xb, 1);
	CU_ASSERT_EQUAL(rx(0, NULL, NULL), 0);
	/* the group's Q_Key changes: it moves to a QP of the new one */
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g[1], MLID(0, 1), 0xc), 0);
	CU_ASSERT_EQUAL(qps_live(0), 2);
	CU_ASSERT_EQUAL(io_verbs_mcast_detach(p, g[1]), 0);
	assert_settled(0);
	CU_ASSERT_EQUAL(qps_live(0), 1);
}

static void test_qkey_limit(void)
{
	struct io_verbs_port *p = port(0);
	uint64_t refused = p->st.mc_no_qp;
	uint8_t g[16];

	for (int k = 1; k <= IO_VERBS_MAX_QKEY; k++) {
		mgid_of(g, k);
		CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g, MLID(0, k), 0x100u + (unsigned)k),
				0);
	}
	CU_ASSERT_EQUAL(qps_live(0), 1 + IO_VERBS_MAX_QKEY);
	assert_settled(0); /* the pool had a buffer for every one */
	mgid_of(g, 9);
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g, MLID(0, 9), 0x109), -ENOSPC);
	CU_ASSERT_EQUAL(p->st.mc_no_qp - refused, 1);
	CU_ASSERT_EQUAL(p->nmc, IO_VERBS_MAX_QKEY);
	/* one of the eight Q_Keys again, or the relay's: no new QP needed */
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g, MLID(0, 9), 0x101), 0);
	mgid_of(g, 10);
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(p, g, MLID(0, 10), RELAY_QK), 0);
	while (p->nmc)
		io_verbs_mcast_detach(p, p->mc[0].mgid);
	assert_settled(0);
	CU_ASSERT_EQUAL(qps_live(0), 1);
}

/* A FIB with group ff15::1 on both ports, of Q_Key `qkey` on port 0, or none. */
static struct router_fib *fib_with(uint32_t qkey)
{
	struct router_rib rib;
	struct router_fib *fib;

	router_rib_init(&rib);
	for (int i = 0; i < NP; i++) {
		struct router_port rp;
		struct router_mcast m = { .key.port = (uint8_t)i, .mlid = MLID(i, 1) };
		char name[8];

		snprintf(name, sizeof(name), "p%d", i);
		router_port_defaults(&rp, name);
		router_rib_port_add(&rib, &rp);
		mgid_of(m.key.mgid, 1);
		m.qkey = i ? 0xb : qkey;
		if (qkey)
			router_rib_mcast_add(&rib, &m);
	}
	fib = router_rib_compile(&rib);
	router_rib_free(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	return fib;
}

/*
 * A port whose egress sends the packet's own CRCs (no CRC offload: a sim
 * port) makes every verbs port compute the CRCs of what it receives: RoCE
 * -> sim arrived with a zero ICRC (VM lab).  Verbs ports alone: no cost.
 */
static void test_crc_fill_for_raw_egress(void)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0);
	struct router_rib rib;
	struct router_fib *fib;

	for (int raw = 0; raw < 2; raw++) {
		router_rib_init(&rib);
		for (int i = 0; i < NP; i++) {
			struct router_port rp;
			char name[8];

			snprintf(name, sizeof(name), "p%d", i);
			router_port_defaults(&rp, name);
			rp.flags = (uint8_t)(rp.flags & ~ROUTER_PORT_VCRC_CHECK);
			if (!(raw && i == NP - 1))
				rp.flags |= ROUTER_PORT_CRC_OFFLOAD;
			router_rib_port_add(&rib, &rp);
		}
		fib = router_rib_compile(&rib);
		router_rib_free(&rib);
		CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
		io_port_fib_changed(&p->io, fib);
		CU_ASSERT_EQUAL(p->crc_fill, raw == 1);
		router_fib_free(fib);
	}
}

static void test_fib_follows(void)
{
	struct io_verbs_port *p = port(0);
	struct router_fib *f1 = fib_with(0xb), *f2 = fib_with(0xc), *f0 = fib_with(0);
	uint32_t qk = 0;

	io_port_fib_changed(&p->io, f1);
	CU_ASSERT_EQUAL(qps_live(0), 2);
	host_send(0, 1, 0xb, 2);
	CU_ASSERT_EQUAL(rx(0, &qk, NULL), 2);
	CU_ASSERT_EQUAL(qk, 0xb);
	io_port_fib_changed(&p->io, f2); /* the SM's record says another Q_Key */
	assert_settled(0);
	CU_ASSERT_EQUAL(qps_live(0), 2);
	host_send(0, 1, 0xb, 1);
	CU_ASSERT_EQUAL(rx(0, NULL, NULL), 0);
	host_send(0, 1, 0xc, 1);
	CU_ASSERT_EQUAL(rx(0, &qk, NULL), 1);
	CU_ASSERT_EQUAL(qk, 0xc);
	io_port_fib_changed(&p->io, f0); /* the group is gone */
	assert_settled(0);
	CU_ASSERT_EQUAL(qps_live(0), 1);
	CU_ASSERT_EQUAL(p->nmc, 0);
	router_fib_free(f0);
	router_fib_free(f1);
	router_fib_free(f2);
}

/* A FIB with groups ff15::first..last on port 0, group k of Q_Key 0x100 + k. */
static struct router_fib *fib_groups(int first, int last)
{
	struct router_rib rib;
	struct router_fib *fib;

	router_rib_init(&rib);
	for (int i = 0; i < NP; i++) {
		struct router_port rp;
		char name[8];

		snprintf(name, sizeof(name), "p%d", i);
		router_port_defaults(&rp, name);
		router_rib_port_add(&rib, &rp);
	}
	for (int k = first; k <= last; k++) {
		struct router_mcast m = { .key.port = 0, .mlid = MLID(0, k), .qkey = 0x100u + k };

		mgid_of(m.key.mgid, k);
		router_rib_mcast_add(&rib, &m);
	}
	fib = router_rib_compile(&rib);
	router_rib_free(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	return fib;
}

/* Whether group ff15::k is attached on port p. */
static bool attached(const struct io_verbs_port *p, int k)
{
	uint8_t g[16];

	mgid_of(g, k);
	for (unsigned i = 0; i < p->nmc; i++)
		if (!memcmp(p->mc[i].mgid, g, 16))
			return true;
	return false;
}

/*
 * A group refused for want of a Q_Key slot gets the slot a closing QP leaves
 * once that QP is gone, through its worker, with no new FIB published.
 */
static void test_refused_group_gets_freed_slot(void)
{
	struct io_verbs_port *p = port(0);
	struct io_port *ports[NP] = { &port(0)->io, &port(1)->io };
	uint64_t refused = p->st.mc_no_qp, closed;
	struct router_worker w;
	struct router_pub pub;
	const int last = IO_VERBS_MAX_QKEY + 1;
	int k;

	CU_ASSERT_EQUAL_FATAL(router_pub_init(&pub, 1), 0);
	CU_ASSERT_EQUAL(router_pub_publish(&pub, fib_groups(1, last)), 0);
	router_pub_online(&pub, 0);
	CU_ASSERT_EQUAL_FATAL(router_worker_init(&w, 0, &pub, ports, NP, 1u), 0);
	router_worker_poll(&w, 1);
	CU_ASSERT_EQUAL(p->nmc, IO_VERBS_MAX_QKEY);
	CU_ASSERT_EQUAL(p->st.mc_no_qp - refused, 1);
	CU_ASSERT_FALSE(attached(p, last));
	/* group 1 leaves: its QP closes, the slot is not free before it is gone */
	router_pub_offline(&pub, 0);
	CU_ASSERT_EQUAL(router_pub_publish(&pub, fib_groups(2, last)), 0);
	router_pub_online(&pub, 0);
	closed = p->st.qkey_closed;
	router_worker_poll(&w, 1);
	/* all its flushes in that one wake-up (io_verbs_rx_burst polls on past
	 * them), so the QP is gone at once; the group waits for the next round */
	CU_ASSERT_EQUAL(p->nclosing, 0);
	CU_ASSERT_EQUAL(p->st.qkey_closed - closed, 1);
	CU_ASSERT_FALSE(attached(p, last));
	for (k = 0; k < 64 && !attached(p, last); k++)
		router_worker_poll(&w, 1); /* the flushes, the QP destroyed, the FIB again */
	CU_ASSERT(attached(p, last));
	CU_ASSERT_EQUAL(p->nmc, IO_VERBS_MAX_QKEY);
	CU_ASSERT_EQUAL(qps_live(0), 1 + IO_VERBS_MAX_QKEY);
	CU_ASSERT_FALSE(p->io.fib_again);
	host_send(0, last, 0x100u + last, 2);
	for (k = 0; k < 8 && w.counters.rx_pkts[0] < 2; k++)
		router_worker_poll(&w, 64);
	CU_ASSERT_EQUAL(w.counters.rx_pkts[0], 2);
	router_worker_fini(&w);
	router_pub_offline(&pub, 0);
	router_pub_destroy(&pub);
	while (p->nmc)
		io_verbs_mcast_detach(p, p->mc[0].mgid);
	assert_settled(0);
	CU_ASSERT_EQUAL(qps_live(0), 1);
}

/* Forward one packet received on port 0 to port 1's MLID of group 1. */
static unsigned forward_one(void)
{
	struct router_mbuf *m[ROUTER_BURST];
	struct router_tx t = { 0 };
	struct io_tx_result txr;
	unsigned sent;

	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(&port(0)->io, m, ROUTER_BURST), 1);
	t.m = m[0];
	memcpy(t.hdr, m[0]->data, ROUTER_HDR_LEN);
	ibr_lrh_set_dlid((struct ibr_lrh *)t.hdr, MLID(1, 1));
	t.hdr[15]--; /* HopLmt */
	sent = io_port_tx_burst(&port(1)->io, &t, 1, &txr);
	io_port_rx_done(&port(0)->io, m, 1);
	io_verbs_port_reap(port(1));
	return sent;
}

static void test_controlled_qkey_sent_from_its_qp(void)
{
	uint8_t g[16], buf[512];
	struct ibr_pkt pk;
	uint64_t refused = port(1)->st.tx_qkey;
	int n;

	mgid_of(g, 1);
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(port(0), g, MLID(0, 1), CTRL_QK), 0);
	/* port 1 has no QP of that Q_Key yet: a WR cannot send it (C10-15) */
	host_send(0, 1, CTRL_QK, 1);
	CU_ASSERT_EQUAL(forward_one(), 0);
	CU_ASSERT_EQUAL(port(1)->st.tx_qkey - refused, 1);
	CU_ASSERT_EQUAL(io_verbs_mcast_attach_qkey(port(1), g, MLID(1, 1), CTRL_QK), 0);
	host_send(0, 1, CTRL_QK, 1);
	CU_ASSERT_EQUAL(forward_one(), 1);
	n = vfix_host_recv(&fx, 1, buf, sizeof(buf));
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(pk.deth), CTRL_QK);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), MLID(1, 1));
	for (int i = 0; i < NP; i++) {
		io_verbs_mcast_detach(port(i), g);
		assert_settled(i);
		CU_ASSERT_EQUAL(qps_live(i), 1);
	}
}

static CU_TestInfo tests[] = {
	{ "a QP per Q_Key, gone with its last group", test_qp_per_qkey },
	{ "at most IO_VERBS_MAX_QKEY Q_Key QPs", test_qkey_limit },
	{ "the groups of a published FIB", test_fib_follows },
	{ "CRCs computed when a port sends raw packets", test_crc_fill_for_raw_egress },
	{ "a refused group gets the slot a closing QP frees", test_refused_group_gets_freed_slot },
	{ "a controlled Q_Key sent from its QP", test_controlled_qkey_sent_from_its_qp },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_mcast", tests, setup, teardown);
}
