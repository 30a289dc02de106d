/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for the RoCE paths of router/io/io_verbs*.c over the fake provider in
 * its RoCE mode (tests/fakes/fake_verbs.h): devices 0 and 1 are RoCE v2
 * ports, device 2 an IB port.  What the port reads (link layer, GID, no
 * LID), what a receive becomes (the IP header made a GRH, a proxy's packets
 * addressed to its remote), what a send carries (global AHs from the RoCE
 * v2 GID, DLID 0) and the IP membership behind a group.
 */
#include "lib/ibr_pkt.h"
#include "router/io/io_verbs.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/ibr_test_ipmc.h"
#include "tests/unit/router/io/io_verbs_fix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define NP	 3
#define ROCE	 0x3 /* devices 0 and 1 */
#define MLID_A	 0xC001
#define MLID_C	 0xC003
#define HOST_QPN VFIX_HOST_QPN
#define QKEY	 0x0B1B

static struct vfix fx;
static const uint8_t mgid[16] = { 0xff, 0x0e, [15] = 0x01 };

static int setup(void)
{
	if (vfix_prepare_roce(&fx, "io_verbs_roce_test", NP, 1, 256, 256, ROCE))
		return -1;
	vfix_proxy_pair(&fx, 0, 2); /* host 7 on RoCE subnet 1 <-> host 7 on IB subnet 3 */
	if (vfix_open(&fx))
		return -1;
	/* the MLID is the router's name for the group on RoCE (the fake attaches it by MGID) */
	if (io_verbs_mcast_attach(io_verbs_port(fx.v, 0), mgid, MLID_A) ||
	    io_verbs_mcast_attach(io_verbs_port(fx.v, 2), mgid, MLID_C))
		return -1;
	return 0;
}

static int teardown(void)
{
	vfix_close(&fx);
	return 0;
}

static struct io_port *port(int i)
{
	return &io_verbs_port(fx.v, (unsigned)i)->io;
}

/* Host `i` sends a UD packet (RoCE: LIDs 0; IB: SLID 100 to the port's LID or MLID_C). */
static void host_send(int i, const uint8_t sgid[16], const uint8_t dgid[16], uint32_t dqp,
		      uint32_t qkey, size_t paylen, bool imm)
{
	struct vfix_ud u = { .sgid = sgid,
			     .dgid = dgid,
			     .dqp = dqp,
			     .qkey = qkey,
			     .paylen = paylen,
			     .tag = 0x5A,
			     .imm = imm };

	if (!((ROCE >> i) & 1)) {
		u.slid = 100;
		u.dlid = dqp == 0xFFFFFF ? MLID_C : 12;
	}
	vfix_host_ud(&fx, i, &u);
}

/* Host 7 of subnet `i` + 1 sends to `dgid`. */
static void host7_send(int i, const uint8_t dgid[16], uint32_t dqp, uint32_t qkey, size_t paylen,
		       bool imm)
{
	uint8_t sgid[16];

	vfix_gid(sgid, i + 1, 7);
	host_send(i, sgid, dgid, dqp, qkey, paylen, imm);
}

/* One packet out of rx_burst on port `i`, parsed into `pk`. */
static struct router_mbuf *rx_one(int i, struct ibr_pkt *pk)
{
	struct router_mbuf *m[ROUTER_BURST];

	CU_ASSERT_EQUAL_FATAL(io_port_rx_burst(port(i), m, ROUTER_BURST), 1);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(m[0]->data, m[0]->len, pk), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(pk->grh);
	return m[0];
}

/* The GRH the engine gets: NxtHdr 0x1B and the PayLen of a UD SEND_ONLY (C8-4). */
static void grh_check(const struct ibr_pkt *pk, uint32_t pay, bool imm)
{
	uint32_t pad = (4 - (pay & 3)) & 3;

	CU_ASSERT_EQUAL(ibr_grh_get_ipver(pk->grh), 6);
	CU_ASSERT_EQUAL(ibr_grh_get_nxthdr(pk->grh), IBR_GRH_NXTHDR_IBA);
	CU_ASSERT_EQUAL(ibr_grh_get_paylen(pk->grh), IBR_BTH_LEN + IBR_DETH_LEN +
							     (imm ? IBR_IMMDT_LEN : 0) + pay + pad +
							     IBR_ICRC_LEN);
	CU_ASSERT_EQUAL(pk->payload_len, pay);
}

/*
 * The port as the backend reads it: RoCE, the first RoCE v2 GID that is
 * not link-local (index 1, not the fe80:: one at 0), LID 0, the active MTU,
 * the netdev; the IB port beside it as before.
 */
static void test_port_query(void)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0), *ib = io_verbs_port(fx.v, 2);
	uint8_t g[16];

	vfix_gid(g, 1, 1);
	CU_ASSERT_TRUE(p->roce);
	CU_ASSERT_TRUE(p->up);
	CU_ASSERT_EQUAL(p->sgid_index, 1);
	CU_ASSERT_EQUAL(memcmp(p->gid, g, 16), 0);
	CU_ASSERT_EQUAL(p->lid, 0);
	CU_ASSERT_EQUAL(p->lmc, 0);
	CU_ASSERT_EQUAL(p->mtu, 1024);
	CU_ASSERT_EQUAL(p->ifindex, FAKE_VERBS_ROCE_IFINDEX);
	CU_ASSERT_FALSE(ib->roce);
	CU_ASSERT_EQUAL(ib->sgid_index, 0);
	CU_ASSERT_EQUAL(ib->lid, 12);
	CU_ASSERT_EQUAL(ib->mtu, 4096);
}

/* A new address on the netdev (GID change): an IPv4 one is taken; a link-local only, at 0. */
static void test_gid_change(void)
{
	static const uint8_t v4[16] = { [10] = 0xFF, 0xFF, 10, 1, 0, 1 };
	static const uint8_t ll[16] = { 0xfe, 0x80, [15] = 0x21 };
	struct io_verbs_port *p = io_verbs_port(fx.v, 1);
	uint8_t g[16];

	CU_ASSERT_EQUAL(fake_verbs_port_gid(vfix_dev[1], v4), 0);
	CU_ASSERT_EQUAL(io_verbs_async_poll(p, NULL, NULL), 1);
	CU_ASSERT_EQUAL(memcmp(p->gid, v4, 16), 0);
	CU_ASSERT_EQUAL(p->sgid_index, 1);
	CU_ASSERT_EQUAL(fake_verbs_port_gid(vfix_dev[1], ll), 0);
	CU_ASSERT_EQUAL(io_verbs_async_poll(p, NULL, NULL), 1);
	CU_ASSERT_EQUAL(p->sgid_index, 0); /* the first RoCE v2 GID, link-local as it is */
	CU_ASSERT_TRUE(p->up);
	vfix_gid(g, 2, 1);
	CU_ASSERT_EQUAL(fake_verbs_port_gid(vfix_dev[1], g), 0);
	CU_ASSERT_EQUAL(io_verbs_async_poll(p, NULL, NULL), 1);
	CU_ASSERT_EQUAL(memcmp(p->gid, g, 16), 0);
	CU_ASSERT_EQUAL(p->sgid_index, 1);
	CU_ASSERT_EQUAL(fake_verbs_port_lid(vfix_dev[1], 7), -EINVAL); /* no LIDs */
}

/*
 * A group's packet on RoCE: the IPv6 header made a GRH (NxtHdr 0x1B, the IB
 * PayLen), TClass, HopLmt and GIDs kept, FlowLabel 0 as rxe sent it; SLID
 * 0, and the DLID the MLID the router named the group with.
 */
static void test_rx_ipv6(void)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0);
	uint64_t bad = p->st.rx_bad_len;
	struct router_mbuf *m;
	struct ibr_pkt pk;
	uint8_t g[16];

	for (int imm = 0; imm < 2; imm++) {
		host7_send(0, mgid, 0xFFFFFF, QKEY, imm ? 33 : 100, imm);
		m = rx_one(0, &pk);
		grh_check(&pk, imm ? 33 : 100, imm);
		CU_ASSERT_EQUAL(ibr_grh_get_tclass(pk.grh), 0x20);
		CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(pk.grh), 0);
		CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(pk.grh), 64);
		vfix_gid(g, 1, 7);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_sgid(pk.grh), g, 16), 0);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), mgid, 16), 0);
		CU_ASSERT_EQUAL(ibr_lrh_get_slid(pk.lrh), 0);
		CU_ASSERT_EQUAL(ibr_lrh_get_sl(pk.lrh), 0);
		CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), MLID_A);
		CU_ASSERT_EQUAL(ibr_deth_get_qkey(pk.deth), QKEY);
		CU_ASSERT_EQUAL(pk.immdt != NULL, imm);
		io_port_rx_done(port(0), &m, 1);
	}
	CU_ASSERT_EQUAL(p->st.rx_bad_len, bad);
	vfix_pools_check(&fx);
}

/* RoCE v2 over IPv4 (IPv4-mapped GIDs): 20 zero bytes and the IPv4 header, made a GRH. */
static void test_rx_ipv4(void)
{
	static const uint8_t v4[16] = { [10] = 0xFF, 0xFF, 10, 1, 0, 1 },
			     host[16] = { [10] = 0xFF, 0xFF, 10, 1, 0, 7 };
	struct io_verbs_port *p = io_verbs_port(fx.v, 1);
	struct router_mbuf *m;
	struct ibr_pkt pk;
	uint8_t g[16];

	CU_ASSERT_EQUAL(fake_verbs_port_gid(vfix_dev[1], v4), 0);
	io_verbs_async_poll(p, NULL, NULL);
	host_send(1, host, v4, p->qpn, QKEY, 61, false);
	m = rx_one(1, &pk);
	grh_check(&pk, 61, false);
	CU_ASSERT_EQUAL(ibr_grh_get_tclass(pk.grh), 0x20);
	CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(pk.grh), 0);
	CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(pk.grh), 64);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_sgid(pk.grh), host, 16), 0);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), v4, 16), 0);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(pk.bth), p->qpn);
	io_port_rx_done(port(1), &m, 1);
	vfix_gid(g, 2, 1);
	CU_ASSERT_EQUAL(fake_verbs_port_gid(vfix_dev[1], g), 0);
	io_verbs_async_poll(p, NULL, NULL);
	vfix_pools_check(&fx);
}

/*
 * A proxy QP's packet: IP delivered it because it was for the router's
 * own address (one for the remote's GID, as IB would carry it, never
 * arrives); it leaves the backend addressed to the proxy's remote.  On the
 * relay QP the DGID stays the router's.
 */
static void test_rx_proxy_dgid(void)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0);
	struct fake_verbs_stats s0, s1;
	struct router_mbuf *m;
	struct ibr_pkt pk;
	uint8_t remote[16];

	vfix_gid(remote, 3, 7);
	CU_ASSERT_EQUAL_FATAL(p->q[1].kind, IO_VERBS_QP_PROXY);
	host7_send(0, p->gid, p->q[1].qpn, 0x1234, 20, false);
	m = rx_one(0, &pk);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), remote, 16), 0);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(pk.bth), p->q[1].qpn);
	io_port_rx_done(port(0), &m, 1);
	host7_send(0, p->gid, p->qpn, QKEY, 20, false);
	m = rx_one(0, &pk);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), p->gid, 16), 0);
	io_port_rx_done(port(0), &m, 1);
	fake_verbs_stats_get(vfix_dev[0], &s0);
	host7_send(0, remote, p->q[1].qpn, 0x1234, 20, false);
	CU_ASSERT_EQUAL(io_port_rx_burst(port(0), &m, 1), 0);
	fake_verbs_stats_get(vfix_dev[0], &s1);
	CU_ASSERT_EQUAL(s1.rx_filtered - s0.rx_filtered, 1);
	vfix_pools_check(&fx);
}

/*
 * Out of a RoCE port: a global AH from the RoCE v2 GID (the wire's SGID is
 * the port's, not the link-local one at index 0), DLID 0 whatever the
 * engine wrote, SLID 0; TClass and HopLmt from the packet, FlowLabel 0 as
 * rxe sends.  The fake takes no AH that is not global from a RoCE v2 GID.
 */
static void test_tx(void)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0);
	struct ibv_ah_attr a = { .is_global = 1, .port_num = 1, .grh.sgid_index = 1 };
	struct ibv_pd *pd = ((struct ibv_qp *)p->q[0].qp)->pd;
	struct router_mbuf *m;
	struct router_tx t = { 0 };
	struct io_tx_result txr;
	struct ibr_pkt pk;
	struct ibv_ah *ah;
	uint8_t buf[2048];
	int n;

	vfix_host_drain(&fx);
	host7_send(2, mgid, 0xFFFFFF, QKEY, 40, false);
	m = rx_one(2, &pk);
	t = (struct router_tx){ .m = m };
	memcpy(t.hdr, m->data, ROUTER_HDR_LEN);
	ibr_lrh_set_dlid((struct ibr_lrh *)t.hdr, MLID_A); /* the group's MLID on port 0 */
	t.hdr[15]--;					   /* HopLmt */
	CU_ASSERT_EQUAL(io_port_tx_burst(port(0), &t, 1, &txr), 1);
	io_port_rx_done(port(2), &m, 1);
	n = vfix_host_recv(&fx, 0, buf, sizeof(buf));
	CU_ASSERT_FATAL(n > 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &pk), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(pk.lrh), 0);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(pk.lrh), 0);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_sgid(pk.grh), p->gid, 16), 0);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(pk.grh), mgid, 16), 0);
	CU_ASSERT_EQUAL(ibr_grh_get_tclass(pk.grh), 0x20);
	CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(pk.grh), 63);
	CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(pk.grh), 0);
	CU_ASSERT_EQUAL(pk.payload_len, 40);
	CU_ASSERT_EQUAL(p->st.tx_no_ah, 0);
	vfix_pools_check(&fx);
	/* the fake's RoCE AH rules */
	memcpy(a.grh.dgid.raw, mgid, 16);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ah = ibv_create_ah(pd, &a));
	ibv_destroy_ah(ah);
	a.grh.sgid_index = 2; /* RoCE v1 */
	errno = 0;
	CU_ASSERT_PTR_NULL(ibv_create_ah(pd, &a));
	CU_ASSERT_EQUAL(errno, EINVAL);
	a.grh.sgid_index = 1;
	a.is_global = 0;
	errno = 0;
	CU_ASSERT_PTR_NULL(ibv_create_ah(pd, &a));
	CU_ASSERT_EQUAL(errno, EINVAL);
}

/*
 * A group attached on a RoCE port is joined at the IP layer on the port's
 * netdev (lo here: one member more in /proc/net/igmp6 or igmp), and left
 * with the detach; an IB port joins nothing.
 */
static void mcast_ip_check(const uint8_t g[16], const char *what)
{
	struct io_verbs_port *p = io_verbs_port(fx.v, 0), *ib = io_verbs_port(fx.v, 2);
	int before = ibr_test_ipmc_users(FAKE_VERBS_ROCE_IFINDEX, g);
	uint64_t err = p->st.mc_ip_err;

	CU_ASSERT_EQUAL_FATAL(io_verbs_mcast_attach(p, g, 0xC010), 0);
	if (before < 0 || p->st.mc_ip_err != err) {
		fprintf(stderr, "\n  SKIP: %s on lo: %s\n", what,
			before < 0 ? "the kernel has no table of it"
				   : "the kernel refuses the join");
		CU_ASSERT_EQUAL(io_verbs_mcast_detach(p, g), 0);
		return;
	}
	CU_ASSERT_EQUAL(ibr_test_ipmc_users(FAKE_VERBS_ROCE_IFINDEX, g), before + 1);
	CU_ASSERT_EQUAL(io_verbs_mcast_detach(p, g), 0);
	CU_ASSERT_EQUAL(ibr_test_ipmc_users(FAKE_VERBS_ROCE_IFINDEX, g), before);
	if (g[0] == 0xFF) { /* an IB port attaches IB MGIDs only */
		CU_ASSERT_EQUAL_FATAL(io_verbs_mcast_attach(ib, g, 0xC010), 0);
		CU_ASSERT_EQUAL(ibr_test_ipmc_users(FAKE_VERBS_ROCE_IFINDEX, g), before);
		CU_ASSERT_EQUAL(io_verbs_mcast_detach(ib, g), 0);
	}
}

static void test_mcast_ip(void)
{
	/* ff15::1:9 and ::ffff:239.1.1.2: groups no other test joins on lo */
	static const uint8_t g6[16] = { 0xff, 0x15, [13] = 1, [15] = 9 };
	static const uint8_t g4[16] = { [10] = 0xFF, 0xFF, 239, 1, 1, 2 };

	mcast_ip_check(g6, "IPv6 group ff15::1:9");
	mcast_ip_check(g4, "IPv4 group 239.1.1.2");
}

static CU_TestInfo tests[] = {
	{ "a RoCE port: link layer, GID, no LID", test_port_query },
	{ "a RoCE port's GID changes", test_gid_change },
	{ "rx: IPv6 header made a GRH", test_rx_ipv6 },
	{ "rx: IPv4 header made a GRH", test_rx_ipv4 },
	{ "rx: a proxy's packet addressed to its remote", test_rx_proxy_dgid },
	{ "tx: global AH from the RoCE v2 GID, DLID 0", test_tx },
	{ "groups joined at the IP layer", test_mcast_ip },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_roce", tests, setup, teardown);
}
