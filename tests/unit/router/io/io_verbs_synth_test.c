/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for router/io/io_verbs_synth.c: the packet the engine sees for a UD receive. */
#include "lib/ibr_pkt.h"
#include "lib/ibr_roce.h"
#include "router/io/io_verbs_synth.h"
#include "router/router_engine_int.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"

#include <string.h>

static struct io_verbs_pool pool;

/* A receive as the HCA leaves it: GRH (PayLen of a SEND_ONLY) and payload. */
static struct io_verbs_buf *recv_into(uint32_t pay, bool imm)
{
	struct io_verbs_buf *b = &pool.buf[0];
	struct ibr_grh *g = (struct ibr_grh *)(b->base + IO_VERBS_GRH_OFF);
	uint32_t pad = (4 - (pay & 3)) & 3;

	memset(b->base, 0xEE, IO_VERBS_BUFSZ); /* garbage around: all must be written */
	memset(g, 0, IBR_GRH_LEN);
	ibr_grh_set_ipver(g, IBR_GRH_IPVER);
	ibr_grh_set_nxthdr(g, IBR_GRH_NXTHDR_IBA);
	ibr_grh_set_hoplmt(g, 9);
	ibr_grh_set_paylen(g, (uint16_t)(IBR_BTH_LEN + IBR_DETH_LEN + (imm ? 4 : 0) + pay + pad +
					 IBR_ICRC_LEN));
	memset(b->base + IO_VERBS_PAY_OFF, 0x77, pay);
	return b;
}

/* What a completion of `pay` bytes says: DestQP 0x123, SrcQP 0x456, Q_Key 0x0B1B, LIDs 0, SL 0. */
static struct io_verbs_rx_info rx_info(uint32_t pay, bool imm, bool crc)
{
	return (struct io_verbs_rx_info){ .byte_len = IBR_GRH_LEN + pay,
					  .dest_qp = 0x123,
					  .src_qp = 0x456,
					  .qkey = 0x0B1B,
					  .pkey = 0xFFFF,
					  .has_imm = imm,
					  .crc_fill = crc };
}

static void synth_check(uint32_t pay, bool imm, bool crc)
{
	struct io_verbs_buf *b = recv_into(pay, imm);
	struct io_verbs_rx_info ri = rx_info(pay, imm, crc);
	struct ibr_pkt p;

	ri.imm = 0x11223344;
	ri.slid = 7;
	ri.dlid = 9;
	ri.pkey = 0x8001;
	ri.sl = 5;

	CU_ASSERT_TRUE_FATAL(io_verbs_synth(b, &ri));
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b->m.data, b->m.len, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(p.payload_len, pay);
	CU_ASSERT_EQUAL(p.payload, b->base + IO_VERBS_PAY_OFF); /* no copy */
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(p.lrh), 5);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(p.lrh), 7);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(p.lrh), 9);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(p.lrh), 0);
	CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(p.grh), 9);
	CU_ASSERT_EQUAL(ibr_bth_get_pkey(p.bth), 0x8001);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(p.bth), 0x123);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(p.deth), 0x456);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(p.deth), 0x0B1B);
	CU_ASSERT_EQUAL(b->paylen, pay);
	if (imm) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(p.immdt);
		CU_ASSERT_EQUAL(ibr_be32_get(p.immdt), 0x44332211); /* network order kept */
	}
	if (crc) {
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
	} else {
		CU_ASSERT_EQUAL(b->m.data[b->m.len - 1] | b->m.data[b->m.len - 2], 0);
	}
}

static void test_lengths(void)
{
	static const uint32_t pays[] = { 0, 1, 2, 3, 4, 255, 256, 4095, 4096 };

	for (unsigned i = 0; i < sizeof(pays) / sizeof(pays[0]); i++) {
		synth_check(pays[i], false, false);
		synth_check(pays[i], true, false);
		synth_check(pays[i], false, true);
		synth_check(pays[i], true, true);
	}
}

/* Lengths the layout cannot hold are refused, the buffer untouched. */
static void test_bad_lengths(void)
{
	static const uint32_t lens[] = { 0, 1, 39, IBR_GRH_LEN + IO_VERBS_MTU + 1, UINT32_MAX };
	struct io_verbs_buf *b = recv_into(0, false);

	b->m.data = NULL;
	for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct io_verbs_rx_info ri = { .byte_len = lens[i] };

		CU_ASSERT_FALSE(io_verbs_synth(b, &ri));
	}
	CU_ASSERT_PTR_NULL(b->m.data);
}

/*
 * RoCE v2 (ibr_roce_grh): what the NIC leaves in front of the payload.
 * An IPv6 header: TClass 0xB8, FlowLabel 0x12345, PayLen (the UDP length,
 * set per case), NxtHdr 17, HopLmt 33, fec0::1:0:0:0:7 -> fec0::2:0:0:0:1.
 */
/* clang-format off */
static const uint8_t roce_ip6[IBR_GRH_LEN] = {
	0x6B, 0x81, 0x23, 0x45, 0, 0, 17, 33,
	0xfe, 0xc0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 7,
	0xfe, 0xc0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1,
};
/* clang-format on */
/*
 * IPv4 (IBA A17.4.5.1): 20 undefined bytes (rxe: zeros), then the IPv4
 * header of a 100-byte SEND_ONLY: TOS 0x28, total length 152, DF, TTL 17,
 * UDP, its checksum, 10.1.0.7 -> 10.2.0.1.
 */
/* clang-format off */
static const uint8_t roce_ip4[IBR_GRH_LEN] = {
	[20] = 0x45, 0x28, 0x00, 0x98, 0, 0, 0x40, 0, 17, 17, 0x55, 0x23,
	10, 1, 0, 7, 10, 2, 0, 1,
};
/* clang-format on */

/* The buffer of a RoCE receive of `pay` bytes, `ip` in front of it: its header. */
static uint8_t *roce_recv(const uint8_t ip[IBR_GRH_LEN], uint32_t pay)
{
	struct io_verbs_buf *b = &pool.buf[0];

	memset(b->base, 0xEE, IO_VERBS_BUFSZ);
	memcpy(b->base + IO_VERBS_GRH_OFF, ip, IBR_GRH_LEN);
	memset(b->base + IO_VERBS_PAY_OFF, 0x77, pay);
	return b->base + IO_VERBS_GRH_OFF;
}

/* The IB PayLen of a UD SEND_ONLY (C8-4): BTH, DETH, ImmDt, payload, pad, ICRC. */
static uint32_t ud_paylen(uint32_t pay, bool imm)
{
	return IBR_BTH_LEN + IBR_DETH_LEN + (imm ? IBR_IMMDT_LEN : 0) + pay +
	       ((4 - (pay & 3)) & 3) + IBR_ICRC_LEN;
}

/*
 * The converted receive made a packet (io_verbs_synth, DLID 0 and SLID 0
 * as on RoCE) and run through checks 1-17 on a RoCE port (LID 0): the
 * engine takes it (ENG_PASS) with `pay` payload bytes.
 */
static void roce_engine_check(uint32_t pay, bool imm)
{
	struct io_verbs_rx_info ri = rx_info(pay, imm, true);
	struct router_rib rib;
	struct router_port p;
	struct router_fib *fib;
	uint16_t payload = 0;

	router_rib_init(&rib);
	router_port_defaults(&p, "roce");
	p.flags |= ROUTER_PORT_UP | ROUTER_PORT_ROCE;
	CU_ASSERT_EQUAL_FATAL(router_rib_port_add(&rib, &p), 0);
	fib = router_rib_compile(&rib);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	CU_ASSERT_TRUE_FATAL(io_verbs_synth(&pool.buf[0], &ri));
	CU_ASSERT_EQUAL(router_engine_check_ordered(&fib->port[0], &pool.buf[0].m, &payload),
			ENG_PASS);
	CU_ASSERT_EQUAL(payload, pay);
	router_fib_free(fib);
	router_rib_free(&rib);
}

/* IPv6: NxtHdr 0x1B and the IB PayLen (the UDP length less 8); the rest kept. */
static void test_roce_ipv6(void)
{
	static const uint32_t pays[] = { 0, 1, 2, 3, 256, 1021 };

	for (unsigned i = 0; i < sizeof(pays) / sizeof(pays[0]); i++)
		for (int imm = 0; imm < 2; imm++) {
			uint8_t *h = roce_recv(roce_ip6, pays[i]);
			const struct ibr_grh *g = (const struct ibr_grh *)h;
			uint32_t udp = 8 + ud_paylen(pays[i], imm);

			h[4] = (uint8_t)(udp >> 8);
			h[5] = (uint8_t)udp;
			CU_ASSERT_TRUE_FATAL(ibr_roce_grh(h, IBR_GRH_LEN + pays[i], imm));
			CU_ASSERT_EQUAL(ibr_grh_get_ipver(g), 6);
			CU_ASSERT_EQUAL(ibr_grh_get_tclass(g), 0xB8);
			CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(g), 0x12345);
			CU_ASSERT_EQUAL(ibr_grh_get_paylen(g), udp - 8);
			CU_ASSERT_EQUAL(ibr_grh_get_nxthdr(g), IBR_GRH_NXTHDR_IBA);
			CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(g), 33);
			CU_ASSERT_EQUAL(memcmp(h + 8, roce_ip6 + 8, 32), 0); /* the GIDs */
			roce_engine_check(pays[i], imm);
		}
}

/* IPv4: IPVer 6, TClass = TOS, FlowLabel 0, HopLmt = TTL, ::ffff:a.b.c.d GIDs. */
static void test_roce_ipv4(void)
{
	static const uint8_t sgid[16] = { [10] = 0xFF, 0xFF, 10, 1, 0, 7 },
			     dgid[16] = { [10] = 0xFF, 0xFF, 10, 2, 0, 1 };

	for (int imm = 0; imm < 2; imm++) {
		uint8_t *h = roce_recv(roce_ip4, 100);
		const struct ibr_grh *g = (const struct ibr_grh *)h;

		CU_ASSERT_TRUE_FATAL(ibr_roce_grh(h, IBR_GRH_LEN + 100, imm));
		CU_ASSERT_EQUAL(ibr_grh_get_ipver(g), 6);
		CU_ASSERT_EQUAL(ibr_grh_get_tclass(g), 0x28);
		CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(g), 0);
		CU_ASSERT_EQUAL(ibr_grh_get_paylen(g), ud_paylen(100, imm));
		CU_ASSERT_EQUAL(ibr_grh_get_nxthdr(g), IBR_GRH_NXTHDR_IBA);
		CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(g), 17);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_sgid(g), sgid, 16), 0);
		CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid(g), dgid, 16), 0);
		roce_engine_check(100, imm);
	}
}

/*
 * IPv4 behind 20 undefined bytes that read as IPv6 (version 6 in byte 0,
 * as a NIC other than rxe may leave them): the valid IPv4 header behind
 * says IPv4; with its checksum wrong it is taken for the IPv6 it seems.
 */
static void test_roce_ipv4_garbage(void)
{
	static const uint8_t dgid[16] = { [10] = 0xFF, 0xFF, 10, 2, 0, 1 };
	uint8_t ip[IBR_GRH_LEN], *h;

	memcpy(ip, roce_ip4, sizeof(ip));
	memset(ip, 0x6D, 20);
	h = roce_recv(ip, 100);
	CU_ASSERT_TRUE_FATAL(ibr_roce_grh(h, IBR_GRH_LEN + 100, false));
	CU_ASSERT_EQUAL(ibr_grh_get_tclass((const struct ibr_grh *)h), 0x28);
	CU_ASSERT_EQUAL(ibr_grh_get_hoplmt((const struct ibr_grh *)h), 17);
	CU_ASSERT_EQUAL(memcmp(ibr_grh_dgid((const struct ibr_grh *)h), dgid, 16), 0);
	ip[30]++; /* the checksum */
	h = roce_recv(ip, 100);
	CU_ASSERT_TRUE_FATAL(ibr_roce_grh(h, IBR_GRH_LEN + 100, false));
	CU_ASSERT_EQUAL(memcmp(h + 8, ip + 8, 32), 0); /* IPv6: the bytes as GIDs */
}

/* Neither IPv6 at byte 0 nor IPv4 at byte 20, or shorter than 40: false, untouched. */
static void test_roce_neither(void)
{
	uint8_t ip[IBR_GRH_LEN], *h;

	memcpy(ip, roce_ip6, sizeof(ip));
	ip[0] = 0x5B; /* version 5; byte 20 has version 0 */
	h = roce_recv(ip, 16);
	CU_ASSERT_FALSE(ibr_roce_grh(h, IBR_GRH_LEN + 16, false));
	CU_ASSERT_EQUAL(memcmp(h, ip, sizeof(ip)), 0);
	for (uint32_t len = 0; len < IBR_GRH_LEN; len += 13) {
		h = roce_recv(roce_ip6, 0);
		CU_ASSERT_FALSE(ibr_roce_grh(h, len, false));
		CU_ASSERT_EQUAL(memcmp(h, roce_ip6, sizeof(roce_ip6)), 0);
	}
	h = roce_recv(roce_ip4, 0);
	CU_ASSERT_FALSE(ibr_roce_grh(h, IBR_GRH_LEN - 1, false));
	CU_ASSERT_EQUAL(memcmp(h, roce_ip4, sizeof(roce_ip4)), 0);
}

static int setup(void)
{
	return io_verbs_pool_init(&pool, 1, 0);
}

static int teardown(void)
{
	io_verbs_pool_fini(&pool);
	return 0;
}

/* The GID a RoCE port sends from: RoCE v2, not reserved, link-local only as the last resort. */
static void test_roce_gid_rank(void)
{
	static const uint8_t global[16] = { 0xfd, 0, 0, 0xb, [15] = 1 },
			     ll[16] = { 0xfe, 0x80, [15] = 1 },
			     v4[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 1 }, zero[16] = { 0 };

	CU_ASSERT_EQUAL(ibr_roce_gid_rank(global, true), IBR_ROCE_GID_ROUTABLE);
	CU_ASSERT_EQUAL(ibr_roce_gid_rank(v4, true), IBR_ROCE_GID_ROUTABLE);
	CU_ASSERT_EQUAL(ibr_roce_gid_rank(ll, true), IBR_ROCE_GID_LINK_LOCAL);
	CU_ASSERT_EQUAL(ibr_roce_gid_rank(global, false), IBR_ROCE_GID_UNUSABLE); /* RoCE v1 */
	CU_ASSERT_EQUAL(ibr_roce_gid_rank(zero, true), IBR_ROCE_GID_UNUSABLE);
	CU_ASSERT(IBR_ROCE_GID_ROUTABLE > IBR_ROCE_GID_LINK_LOCAL &&
		  IBR_ROCE_GID_LINK_LOCAL > IBR_ROCE_GID_UNUSABLE);
}

static CU_TestInfo tests[] = {
	{ "RoCE GID rank", test_roce_gid_rank },
	{ "lengths, pad, ImmDt, CRCs", test_lengths },
	{ "lengths refused", test_bad_lengths },
	{ "RoCE v2 over IPv6: the GRH", test_roce_ipv6 },
	{ "RoCE v2 over IPv4: the GRH", test_roce_ipv4 },
	{ "RoCE v2 over IPv4, undefined bytes like IPv6", test_roce_ipv4_garbage },
	{ "RoCE v2: neither IP version, too short", test_roce_neither },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_synth", tests, setup, teardown);
}
