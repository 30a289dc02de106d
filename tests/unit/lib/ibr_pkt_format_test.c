/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_pkt_format_test.c - packets other than UD in lib/ibr_pkt.c (raw, RC,
 * RD, reserved opcodes) through the parser and the CRC filler, and packets
 * as text: opcode names and the formatter (a group of ibr_pkt_test.h).
 */
#include "tests/unit/lib/ibr_pkt_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- raw and non-UD packets ---- */

static void test_parse_raw(void)
{
	uint8_t b[64];
	struct ibr_pkt p;

	mk(b, 22, IBR_LNH_RAW, 0);
	ibr_rwh_set_ethertype((struct ibr_rwh *)(b + 8), 0x0800);
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 22), 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 22, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NULL(p.bth);
	CU_ASSERT_PTR_NULL(p.grh);
	CU_ASSERT_PTR_EQUAL_FATAL(p.rwh, b + 8);
	CU_ASSERT_EQUAL(ibr_rwh_get_ethertype(p.rwh), 0x0800);
	CU_ASSERT_EQUAL(p.icrc_off, 0);
	CU_ASSERT_EQUAL(p.hdr_len, 12);
	CU_ASSERT_EQUAL(p.payload_len, 8); /* up to the VCRC: no ICRC */
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
	/* no ICRC was written into the payload */
	for (int i = 12; i < 20; i++)
		CU_ASSERT_EQUAL(b[i], 0);

	mk(b, 58, IBR_LNH_RAW_IPV6, 0);
	b[8] = 0x60;
	b[14] = 17; /* IPv6 next header: UDP */
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 58), 0);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 58, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NULL(p.bth);
	CU_ASSERT_PTR_NULL(p.grh);
	CU_ASSERT_PTR_EQUAL_FATAL(p.ipv6, b + 8);
	CU_ASSERT_EQUAL(ibr_grh_get_nxthdr(p.ipv6), 17);
	CU_ASSERT_EQUAL(p.hdr_len, 48);
	CU_ASSERT_EQUAL(p.payload_len, 8);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
}

static void test_parse_non_ud(void)
{
	uint8_t b[64];
	struct ibr_pkt p;

	mk(b, 42, IBR_LNH_IBA_LOCAL, 0x04); /* RC SEND_ONLY, 13 bytes + 3 pad */
	ibr_bth_set_padcnt((struct ibr_bth *)(b + 8), 3);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 42, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NULL(p.deth);
	CU_ASSERT_PTR_NULL(p.immdt);
	CU_ASSERT_EQUAL(p.hdr_len, 20);
	CU_ASSERT_EQUAL(p.payload_len, 13);
	CU_ASSERT_EQUAL(p.icrc_off, 36);
	/* RD: RDETH and DETH are left in the payload (not decoded here) */
	mk(b, 42, IBR_LNH_IBA_LOCAL, 0x44);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 42, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NULL(p.deth);
	CU_ASSERT_EQUAL(p.payload_len, 16);
	/* TVer and reserved opcodes pass: a router does not judge the transport */
	mk(b, 34, IBR_LNH_IBA_LOCAL, 0x66);
	ibr_bth_set_tver((struct ibr_bth *)(b + 8), 5);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 34, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_PTR_NOT_NULL(p.deth);
	CU_ASSERT_EQUAL(p.payload_len, 0);
}

static void test_crc_fill_errors(void)
{
	uint8_t b[128] = { 0 };

	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(NULL, 42), -EINVAL);
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 9), -EINVAL);
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, IBR_PKT_MAX_LEN + 1), -EINVAL);
	mk(b, 26, 2, 0x04);
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 25), -EINVAL); /* no room for BTH + ICRC */
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 26), 0);
	mk(b, 66, 3, 0x04);
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 65), -EINVAL);
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 66), 0);
	mk(b, 10, 0, 0);
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(b, 10), 0);
}

/* ---- names and formatting ---- */

static void test_opcode_names(void)
{
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_group_name(0x64), "UD");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x64), "SEND_ONLY");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x65), "SEND_ONLY_WITH_IMMEDIATE");
	CU_ASSERT_PTR_NULL(ibr_bth_op_name(0x60));
	CU_ASSERT_PTR_NULL(ibr_bth_op_name(0x66));
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_group_name(0x04), "RC");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x10), "RDMA_READ_RESPONSE_ONLY");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x14), "FETCH_ADD");
	CU_ASSERT_PTR_NULL(ibr_bth_op_name(0x15)); /* RESYNC is RD only */
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x17), "SEND_ONLY_WITH_INVALIDATE");
	CU_ASSERT_PTR_NULL(ibr_bth_op_name(0x18));
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_group_name(0x2b), "UC");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x2b), "RDMA_WRITE_ONLY_WITH_IMMEDIATE");
	CU_ASSERT_PTR_NULL(ibr_bth_op_name(0x2c)); /* no RDMA read on UC */
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x55), "RESYNC");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0x80), "CNP");
	CU_ASSERT_PTR_NULL(ibr_bth_op_name(0x81));
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_group_name(0xa4), "XRC");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_name(0xa4), "SEND_ONLY");
	CU_ASSERT_STRING_EQUAL(ibr_bth_op_group_name(0xe0), "VENDOR");
	CU_ASSERT_PTR_NULL(ibr_bth_op_name(0xc0));
	for (int op = 0; op < 256; op++)
		CU_ASSERT_PTR_NOT_NULL(ibr_bth_op_group_name((uint8_t)op));
	CU_ASSERT_TRUE(ibr_bth_op_is_ud(0x64));
	CU_ASSERT_TRUE(ibr_bth_op_is_ud(0x7f));
	CU_ASSERT_FALSE(ibr_bth_op_is_ud(0x80));
	CU_ASSERT_FALSE(ibr_bth_op_is_ud(0x5f));
}

static void test_format(void)
{
	static const char want_local[] =
		"lid 0x0001 > 0x0004 vl 1 sl 3 len 42, UD SEND_ONLY pkey 0xffff "
		"qp 0x000001 > 0x000002 psn 7 qkey 0x80010000, payload 5 pad 3";
	static const char want_grh[] =
		"lid 0x0022 > 0x0010 vl 2 sl 5 len 90, gid fec0::1:2:c903:0:1234 > "
		"fec0::2:2:c903:0:5678 tc 0xa5 fl 0x12345 hop 64, UD "
		"SEND_ONLY_WITH_IMMEDIATE pkey 0x8001 qp 0x000123 > 0x000abc psn 16702650 "
		"qkey 0x11223344 imm 0xdeadbeef se, payload 10 pad 2";
	uint8_t w[128];
	char line[512];
	struct ibr_pkt p;
	int n;

	n = load_hex("pkt_ud_local.hex", w, sizeof(w));
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(w, (size_t)n, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(ibr_pkt_format(&p, line, sizeof(line)), (int)strlen(want_local));
	CU_ASSERT_STRING_EQUAL(line, want_local);
	n = load_hex("pkt_ud_grh_imm.hex", w, sizeof(w));
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(w, (size_t)n, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(ibr_pkt_format(&p, line, sizeof(line)), (int)strlen(want_grh));
	CU_ASSERT_STRING_EQUAL(line, want_grh);
	/* snprintf semantics at every buffer size */
	for (size_t sz = 0; sz <= sizeof(want_grh); sz++) {
		char *c = malloc(sz ? sz : 1);

		CU_ASSERT_EQUAL(ibr_pkt_format(&p, c, sz), (int)strlen(want_grh));
		if (sz) {
			CU_ASSERT_EQUAL(strlen(c), sz - 1);
			CU_ASSERT(strncmp(c, want_grh, sz - 1) == 0);
		}
		free(c);
	}
}

static void test_format_other(void)
{
	uint8_t b[128] = { 0 };
	char line[512];
	struct ibr_pkt p;

	CU_ASSERT_EQUAL(ibr_pkt_parse(b, 4, &p), IBR_PKT_ERR_SHORT);
	ibr_pkt_format(&p, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "(short packet, 4 bytes)");
	mk(b, 22, IBR_LNH_RAW, 0);
	ibr_rwh_set_ethertype((struct ibr_rwh *)(b + 8), 0x86dd);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 22, &p), IBR_PKT_ERR_OK);
	ibr_pkt_format(&p, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "lid 0x0000 > 0x0000 vl 0 sl 0 len 22, raw ethertype 0x86dd, "
				     "payload 8");
	mk(b, 30, IBR_LNH_IBA_LOCAL, 0x11); /* RC ACKNOWLEDGE with every flag */
	b[9] = 0xc1;
	b[12] = 0xc0;
	b[16] = 0x80;
	ibr_bth_set_destqp((struct ibr_bth *)(b + 8), 0x42);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 30, &p), IBR_PKT_ERR_OK);
	ibr_pkt_format(&p, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "lid 0x0000 > 0x0000 vl 0 sl 0 len 30, RC ACKNOWLEDGE pkey "
				     "0x0000 qp 0x000042 psn 0 tver 1 se m fecn becn ackreq, "
				     "payload 4 pad 0");
	b[8] = 0x3f; /* reserved UC opcode */
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b, 30, &p), IBR_PKT_ERR_OK);
	ibr_pkt_format(&p, line, sizeof(line));
	CU_ASSERT(strstr(line, ", UC op 0x3f pkey") != NULL);
}

CU_TestInfo ibr_pkt_format_tests[] = {
	{ "raw packets", test_parse_raw },
	{ "non-UD packets", test_parse_non_ud },
	{ "crc_fill errors", test_crc_fill_errors },
	{ "opcode names", test_opcode_names },
	{ "format fixtures", test_format },
	{ "format raw, flags, reserved opcodes", test_format_other },
	CU_TEST_INFO_NULL,
};
