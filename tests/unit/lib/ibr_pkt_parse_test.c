/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_pkt_parse_test.c - the parser of lib/ibr_pkt.c: the hand-written
 * fixtures (tests/data/pkt_*.hex) parsed and built again, the ICRC over the
 * variant fields, one failing input per error code, and truncation at every
 * length (a group of ibr_pkt_test.h).
 */
#include "tests/unit/lib/ibr_pkt_test.h"
#include "lib/crc/ibr_crc.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_fixture_local(void)
{
	uint8_t wire[128], built[128];
	struct ibr_pkt p;
	struct ibr_pkt_ud_params up = {
		.slid = 1,
		.dlid = 4,
		.sl = 3,
		.vl = 1,
		.opcode = 0x64,
		.pkey = 0xffff,
		.dest_qp = 2,
		.psn = 7,
		.qkey = 0x80010000,
		.src_qp = 1,
		.payload = "hello",
		.payload_len = 5,
	};
	int n = load_hex("pkt_ud_local.hex", wire, sizeof(wire));

	CU_ASSERT_FATAL(n == 42);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(wire, (size_t)n, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(p.lnh, IBR_LNH_IBA_LOCAL);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(p.lrh), 1);
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(p.lrh), 3);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(p.lrh), 4);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(p.lrh), 1);
	CU_ASSERT_EQUAL(ibr_lrh_get_pktlen(p.lrh), 10);
	CU_ASSERT_PTR_NULL(p.grh);
	CU_ASSERT_PTR_EQUAL_FATAL(p.bth, wire + 8);
	CU_ASSERT_EQUAL(ibr_bth_get_opcode(p.bth), IBR_BTH_OP_UD_SEND_ONLY);
	CU_ASSERT_EQUAL(ibr_bth_get_pkey(p.bth), 0xffff);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(p.bth), 2);
	CU_ASSERT_EQUAL(ibr_bth_get_psn(p.bth), 7);
	CU_ASSERT_PTR_EQUAL_FATAL(p.deth, wire + 20);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(p.deth), IBR_QKEY_GSI);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(p.deth), 1);
	CU_ASSERT_PTR_NULL(p.immdt);
	CU_ASSERT_EQUAL(p.hdr_len, 28);
	CU_ASSERT_EQUAL(p.payload_len, 5);
	CU_ASSERT_EQUAL(p.padcnt, 3);
	CU_ASSERT(memcmp(p.payload, "hello", 5) == 0);
	CU_ASSERT_EQUAL(p.icrc_off, 36);
	CU_ASSERT_EQUAL(p.vcrc_off, 40);
	CU_ASSERT_EQUAL(ibr_le32_get(wire + p.icrc_off), 0xb818971f);
	CU_ASSERT_EQUAL(ibr_le16_get(wire + p.vcrc_off), 0x1237);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
	memset(built, 0xee, sizeof(built));
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(built, sizeof(built), &up), n);
	CU_ASSERT(memcmp(built, wire, (size_t)n) == 0);
}

static void check_fixture_grh_fields(const struct ibr_pkt *p, const uint8_t *wire)
{
	CU_ASSERT_EQUAL(p->lnh, IBR_LNH_IBA_GLOBAL);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(p->lrh), 2);
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(p->lrh), 5);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(p->lrh), 0x10);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(p->lrh), 0x22);
	CU_ASSERT_EQUAL(ibr_lrh_get_pktlen(p->lrh), 22);
	CU_ASSERT_PTR_EQUAL_FATAL(p->grh, wire + 8);
	CU_ASSERT_EQUAL(ibr_grh_get_ipver(p->grh), 6);
	CU_ASSERT_EQUAL(ibr_grh_get_tclass(p->grh), 0xa5);
	CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(p->grh), 0x12345);
	CU_ASSERT_EQUAL(ibr_grh_get_paylen(p->grh), 40);
	CU_ASSERT_EQUAL(ibr_grh_get_nxthdr(p->grh), 0x1b);
	CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(p->grh), 64);
	CU_ASSERT(memcmp(ibr_grh_sgid(p->grh), sgid_a, 16) == 0);
	CU_ASSERT(memcmp(ibr_grh_dgid(p->grh), dgid_b, 16) == 0);
	CU_ASSERT_PTR_EQUAL_FATAL(p->bth, wire + 48);
	CU_ASSERT_EQUAL(ibr_bth_get_opcode(p->bth), 0x65);
	CU_ASSERT_TRUE(ibr_bth_get_se(p->bth));
	CU_ASSERT_FALSE(ibr_bth_get_migreq(p->bth));
	CU_ASSERT_EQUAL(ibr_bth_get_padcnt(p->bth), 2);
	CU_ASSERT_EQUAL(ibr_bth_get_pkey(p->bth), 0x8001);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(p->bth), 0xabc);
	CU_ASSERT_EQUAL(ibr_bth_get_psn(p->bth), 0xfedcba);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p->deth);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(p->deth), 0x11223344);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(p->deth), 0x123);
	CU_ASSERT_PTR_EQUAL_FATAL(p->immdt, wire + 68);
	CU_ASSERT_EQUAL(ibr_be32_get(p->immdt), 0xdeadbeef);
	CU_ASSERT_EQUAL(p->hdr_len, 72);
	CU_ASSERT_EQUAL(p->payload_len, 10);
	CU_ASSERT_EQUAL(p->padcnt, 2);
	CU_ASSERT_EQUAL(p->payload[9], 9);
	CU_ASSERT_EQUAL(p->icrc_off, 84);
	CU_ASSERT_EQUAL(p->vcrc_off, 88);
}

static void test_fixture_grh_imm(void)
{
	uint8_t wire[128], built[128];
	struct ibr_pkt_ud_params up;
	struct ibr_pkt p;
	int n = load_hex("pkt_ud_grh_imm.hex", wire, sizeof(wire));

	CU_ASSERT_FATAL(n == 90);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(wire, (size_t)n, &p), IBR_PKT_ERR_OK);
	check_fixture_grh_fields(&p, wire);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
	fixture_grh_params(&up);
	memset(built, 0xee, sizeof(built));
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(built, sizeof(built), &up), n);
	CU_ASSERT(memcmp(built, wire, (size_t)n) == 0);
	/* exactly the right size is enough */
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(built, (size_t)n, &up), n);
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(built, (size_t)n - 1, &up), -ENOSPC);
}

/*
 * A router rewrites LRH, HopLmt (and may set FECN/BECN): the ICRC must stay
 * valid, only the VCRC changes.  A change to an invariant byte breaks it.
 */
static void test_icrc_variant_fields(void)
{
	uint8_t w[128];
	struct ibr_pkt p;
	int n = load_hex("pkt_ud_grh_imm.hex", w, sizeof(w));

	CU_ASSERT_FATAL(n == 90);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(w, (size_t)n, &p), IBR_PKT_ERR_OK);
	ibr_lrh_set_dlid((struct ibr_lrh *)w, 0x33);
	ibr_lrh_set_slid((struct ibr_lrh *)w, 0x44);
	ibr_lrh_set_sl((struct ibr_lrh *)w, 9);
	ibr_lrh_set_vl((struct ibr_lrh *)w, 7);
	ibr_grh_set_hoplmt((struct ibr_grh *)(w + 8), 63);
	ibr_grh_set_tclass((struct ibr_grh *)(w + 8), 0x11);
	ibr_grh_set_flowlabel((struct ibr_grh *)(w + 8), 0xfffff);
	ibr_bth_set_fecn((struct ibr_bth *)(w + 48), true);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_VCRC);
	ibr_vcrc_write(w, p.vcrc_off);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
	ibr_bth_set_pkey((struct ibr_bth *)(w + 48), 0x8002);
	ibr_vcrc_write(w, p.vcrc_off);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_ICRC);
}

/* ---- parse errors: one failing input per code ---- */

static bool covered[IBR_PKT_ERR__COUNT];

/* Parse a copy in an exact-size heap buffer (ASan sees any overread). */
static enum ibr_pkt_err parse_exact(const uint8_t *b, size_t len, struct ibr_pkt *p)
{
	uint8_t *c = malloc(len ? len : 1);
	enum ibr_pkt_err e;

	CU_ASSERT_FATAL(c != NULL);
	if (len)
		memcpy(c, b, len);
	e = ibr_pkt_parse(c, len, p);
	free(c);
	p->buf = NULL; /* the copy is gone */
	return e;
}

static void expect_err(const uint8_t *b, size_t len, enum ibr_pkt_err want)
{
	struct ibr_pkt p;
	enum ibr_pkt_err got = parse_exact(b, len, &p);

	if (got != want)
		fprintf(stderr, "len %zu: got %s, want %s\n", len, ibr_pkt_errname(got),
			ibr_pkt_errname(want));
	CU_ASSERT_EQUAL(got, want);
	covered[want] = true;
}

static void test_err_lrh(void)
{
	uint8_t b[8200];

	expect_err(NULL, 0, IBR_PKT_ERR_SHORT);
	mk(b, 26, 2, 0x04);
	expect_err(b, 9, IBR_PKT_ERR_SHORT);
	expect_err(b, 26, IBR_PKT_ERR_OK);
	ibr_lrh_set_lver((struct ibr_lrh *)b, 1);
	expect_err(b, 26, IBR_PKT_ERR_LVER);
	mk(b, 26, 2, 0x04);
	expect_err(b, 30, IBR_PKT_ERR_PKTLEN); /* PktLen one word short */
	expect_err(b, 27, IBR_PKT_ERR_PKTLEN);
	ibr_lrh_set_pktlen((struct ibr_lrh *)b, 7);
	expect_err(b, 26, IBR_PKT_ERR_PKTLEN);
	/* the longest PktLen, and one byte more than it allows */
	mk(b, IBR_PKT_MAX_LEN, 2, 0x04);
	expect_err(b, IBR_PKT_MAX_LEN, IBR_PKT_ERR_OK);
	expect_err(b, IBR_PKT_MAX_LEN + 4, IBR_PKT_ERR_PKTLEN);
	/* rsv bits of the LRH are ignored, not checked */
	mk(b, 26, 2, 0x04);
	b[1] |= 0x0c;
	b[4] |= 0xf8;
	expect_err(b, 26, IBR_PKT_ERR_OK);
}

static void test_err_raw(void)
{
	uint8_t b[64];

	mk(b, 10, IBR_LNH_RAW, 0);
	expect_err(b, 10, IBR_PKT_ERR_SHORT_RWH);
	mk(b, 14, IBR_LNH_RAW, 0);
	expect_err(b, 14, IBR_PKT_ERR_OK);
	mk(b, 46, IBR_LNH_RAW_IPV6, 0);
	expect_err(b, 46, IBR_PKT_ERR_SHORT_IPV6);
	mk(b, 50, IBR_LNH_RAW_IPV6, 0);
	expect_err(b, 50, IBR_PKT_ERR_OK);
}

static void test_err_grh(void)
{
	uint8_t b[128];

	mk(b, 10, 3, 0);
	expect_err(b, 10, IBR_PKT_ERR_SHORT_GRH);
	mk(b, 50, 3, 0); /* LRH + GRH, no room for the ICRC */
	expect_err(b, 50, IBR_PKT_ERR_SHORT_GRH);
	mk(b, 66, 3, 0x04);
	expect_err(b, 66, IBR_PKT_ERR_OK);
	ibr_grh_set_ipver((struct ibr_grh *)(b + 8), 4);
	expect_err(b, 66, IBR_PKT_ERR_IPVER);
	mk(b, 66, 3, 0x04);
	ibr_grh_set_nxthdr((struct ibr_grh *)(b + 8), 0x11);
	expect_err(b, 66, IBR_PKT_ERR_NXTHDR);
	mk(b, 66, 3, 0x04);
	ibr_grh_set_paylen((struct ibr_grh *)(b + 8), 20); /* 16 is right */
	expect_err(b, 66, IBR_PKT_ERR_PAYLEN);
	ibr_grh_set_paylen((struct ibr_grh *)(b + 8), 24); /* counted the VCRC too */
	expect_err(b, 66, IBR_PKT_ERR_PAYLEN);
	ibr_grh_set_paylen((struct ibr_grh *)(b + 8), 16);
	expect_err(b, 66, IBR_PKT_ERR_OK);
}

static void test_err_transport(void)
{
	uint8_t b[128];

	mk(b, 22, 2, 0x04); /* LRH + BTH but no ICRC */
	expect_err(b, 22, IBR_PKT_ERR_SHORT_BTH);
	mk(b, 14, 2, 0x04);
	expect_err(b, 14, IBR_PKT_ERR_SHORT_BTH);
	mk(b, 62, 3, 0x04); /* LRH + GRH + BTH but no ICRC */
	expect_err(b, 62, IBR_PKT_ERR_SHORT_BTH);
	mk(b, 26, 2, 0x64); /* UD with no room for the DETH */
	expect_err(b, 26, IBR_PKT_ERR_SHORT_DETH);
	mk(b, 30, 2, 0x7f); /* any UD-group opcode carries one */
	expect_err(b, 30, IBR_PKT_ERR_SHORT_DETH);
	mk(b, 34, 2, 0x65); /* ImmDt missing */
	expect_err(b, 34, IBR_PKT_ERR_SHORT_IMMDT);
	mk(b, 74, 3, 0x65);
	expect_err(b, 74, IBR_PKT_ERR_SHORT_IMMDT);
	mk(b, 34, 2, 0x64); /* no payload: no pad */
	expect_err(b, 34, IBR_PKT_ERR_OK);
	ibr_bth_set_padcnt((struct ibr_bth *)(b + 8), 1);
	expect_err(b, 34, IBR_PKT_ERR_PADCNT);
	mk(b, 38, 2, 0x64); /* 4 payload bytes: pad up to 3 */
	ibr_bth_set_padcnt((struct ibr_bth *)(b + 8), 3);
	expect_err(b, 38, IBR_PKT_ERR_OK);
	mk(b, 26, 2, 0x04); /* RC, no payload */
	ibr_bth_set_padcnt((struct ibr_bth *)(b + 8), 2);
	expect_err(b, 26, IBR_PKT_ERR_PADCNT);
}

static void test_err_crc(void)
{
	uint8_t w[128];
	struct ibr_pkt p;
	int n = load_hex("pkt_ud_local.hex", w, sizeof(w));

	CU_ASSERT_FATAL(n == 42);
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(w, (size_t)n, &p), IBR_PKT_ERR_OK);
	w[n - 1] ^= 0x01;
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_VCRC);
	covered[IBR_PKT_ERR_VCRC] = true;
	w[n - 1] ^= 0x01;
	w[30] ^= 0x80; /* a payload bit, VCRC recomputed as a switch would */
	ibr_vcrc_write(w, p.vcrc_off);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_ICRC);
	covered[IBR_PKT_ERR_ICRC] = true;
	CU_ASSERT_EQUAL(ibr_pkt_crc_fill(w, (size_t)n), 0);
	CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
}

/* Runs last: every code above was produced by some input. */
static void test_err_all_covered(void)
{
	for (int e = 0; e < IBR_PKT_ERR__COUNT; e++) {
		if (!covered[e])
			fprintf(stderr, "no failing input for %s\n", ibr_pkt_errname(e));
		CU_ASSERT_TRUE(covered[e]);
	}
}

static void test_strerror(void)
{
	for (int e = 0; e < IBR_PKT_ERR__COUNT; e++) {
		CU_ASSERT(strlen(ibr_pkt_strerror(e)) > 0);
		CU_ASSERT(strlen(ibr_pkt_errname(e)) > 0);
		for (int f = 0; f < e; f++) {
			CU_ASSERT(strcmp(ibr_pkt_strerror(e), ibr_pkt_strerror(f)) != 0);
			CU_ASSERT(strcmp(ibr_pkt_errname(e), ibr_pkt_errname(f)) != 0);
		}
	}
	CU_ASSERT_STRING_EQUAL(ibr_pkt_errname(IBR_PKT_ERR_OK), "ok");
	CU_ASSERT_STRING_EQUAL(ibr_pkt_errname(IBR_PKT_ERR_PAYLEN), "paylen");
	CU_ASSERT_STRING_EQUAL(ibr_pkt_strerror(IBR_PKT_ERR__COUNT), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_pkt_errname((enum ibr_pkt_err) - 1), "unknown");
}

/* ---- truncation ---- */

/* After a successful parse every pointer and length stays inside the packet. */
static void check_bounds(const struct ibr_pkt *p, const uint8_t *b, size_t len)
{
	size_t end = p->icrc_off ? p->icrc_off : p->vcrc_off;

	CU_ASSERT_EQUAL(p->vcrc_off, len - 2);
	CU_ASSERT_PTR_EQUAL(p->payload, b + p->hdr_len);
	CU_ASSERT_EQUAL((size_t)p->hdr_len + p->payload_len + p->padcnt, end);
	if (p->icrc_off)
		CU_ASSERT_EQUAL(p->icrc_off + 4u, p->vcrc_off);
	if (p->deth)
		CU_ASSERT((const uint8_t *)p->deth + 8 <= p->payload);
	if (p->immdt)
		CU_ASSERT(p->immdt + 4 <= p->payload);
}

static void truncate_all(const uint8_t *pkt, size_t len)
{
	struct ibr_pkt p;
	char line[512];

	for (size_t l = 0; l < len; l++) {
		uint8_t *c = malloc(l ? l : 1);
		enum ibr_pkt_err e;

		CU_ASSERT_FATAL(c != NULL);
		memcpy(c, pkt, l);
		CU_ASSERT_NOT_EQUAL(ibr_pkt_parse(c, l, &p), IBR_PKT_ERR_OK);
		ibr_pkt_format(&p, line, sizeof(line));
		/* and with PktLen (and PayLen) fixed up to the shorter length */
		if (l >= 10 && (l - 2) % 4 == 0) {
			ibr_lrh_set_pktlen((struct ibr_lrh *)c, (uint16_t)((l - 2) / 4));
			if (ibr_lrh_get_lnh((struct ibr_lrh *)c) == 3 && l >= 48)
				ibr_grh_set_paylen((struct ibr_grh *)(c + 8), (uint16_t)(l - 50));
			e = ibr_pkt_parse(c, l, &p);
			if (e == IBR_PKT_ERR_OK) {
				check_bounds(&p, c, l);
				ibr_pkt_crc_check(&p);
			}
			ibr_pkt_format(&p, line, sizeof(line));
		}
		free(c);
	}
}

static void test_truncation(void)
{
	uint8_t w[IBR_PKT_MAX_LEN], payload[300];
	struct ibr_pkt_ud_params up;
	int n;

	n = load_hex("pkt_ud_local.hex", w, sizeof(w));
	CU_ASSERT_FATAL(n == 42);
	truncate_all(w, (size_t)n);
	n = load_hex("pkt_ud_grh_imm.hex", w, sizeof(w));
	CU_ASSERT_FATAL(n == 90);
	truncate_all(w, (size_t)n);
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)rnd();
	fixture_grh_params(&up);
	up.payload = payload;
	for (size_t pl = 0; pl < 12; pl++) {
		up.payload_len = pl * 23;
		up.grh = pl & 1;
		up.opcode = pl & 2 ? 0x65 : 0x64;
		n = ibr_pkt_build_ud(w, sizeof(w), &up);
		CU_ASSERT_FATAL(n > 0);
		truncate_all(w, (size_t)n);
	}
	mk(w, 58, IBR_LNH_RAW, 0);
	truncate_all(w, 58);
	mk(w, 70, IBR_LNH_RAW_IPV6, 0);
	truncate_all(w, 70);
	mk(w, 78, IBR_LNH_IBA_GLOBAL, 0x0a); /* RC RDMA_WRITE_ONLY */
	truncate_all(w, 78);
}

CU_TestInfo ibr_pkt_parse_tests[] = {
	{ "fixture: local UD packet", test_fixture_local },
	{ "fixture: global UD packet with immediate", test_fixture_grh_imm },
	{ "ICRC ignores the variant fields", test_icrc_variant_fields },
	{ "errors: LRH", test_err_lrh },
	{ "errors: raw packets", test_err_raw },
	{ "errors: GRH", test_err_grh },
	{ "errors: BTH, DETH, ImmDt, PadCnt", test_err_transport },
	{ "errors: CRCs", test_err_crc },
	{ "errors: every code has a failing input", test_err_all_covered },
	{ "strerror and errname", test_strerror },
	{ "truncation at every length", test_truncation },
	CU_TEST_INFO_NULL,
};
