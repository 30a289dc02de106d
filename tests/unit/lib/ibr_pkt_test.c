/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for lib/ibr_pkt.c: header accessors (placement checked against the
 * IBA field tables, bit by bit), the parser and each of its error codes,
 * truncation at every length, the UD builder against hand-written fixtures
 * (tests/data/pkt_*.hex), the CRC helpers and the formatter.
 */
#include "lib/ibr_pkt.h"
#include "lib/crc/ibr_crc.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 0x1b5eedULL;

static uint32_t rnd(void)
{
	return (uint32_t)(ibr_test_rand(&seed) >> 32);
}

/* ---- accessors: every field against its (bit offset, width) in the IBA tables ---- */

struct field {
	const char *name;
	size_t hdr_len;
	unsigned int off; /* first bit, 0 = most significant bit of byte 0 */
	unsigned int width;
	uint32_t (*get)(const void *h);
	void (*set)(void *h, uint32_t v);
};

#define ACC(hdr, fld, type)                                \
	static uint32_t get_##hdr##_##fld(const void *h)   \
	{                                                  \
		return ibr_##hdr##_get_##fld(h);           \
	}                                                  \
	static void set_##hdr##_##fld(void *h, uint32_t v) \
	{                                                  \
		ibr_##hdr##_set_##fld(h, (type)v);         \
	}
#define FIELD(hdr, fld, len, off, width)                                             \
	{                                                                            \
#hdr "." #fld, len, off, width, get_##hdr##_##fld, set_##hdr##_##fld \
	}

ACC(lrh, vl, uint8_t)
ACC(lrh, lver, uint8_t)
ACC(lrh, sl, uint8_t)
ACC(lrh, lnh, uint8_t)
ACC(lrh, dlid, uint16_t)
ACC(lrh, pktlen, uint16_t)
ACC(lrh, slid, uint16_t)
ACC(grh, ipver, uint8_t)
ACC(grh, tclass, uint8_t)
ACC(grh, flowlabel, uint32_t)
ACC(grh, paylen, uint16_t)
ACC(grh, nxthdr, uint8_t)
ACC(grh, hoplmt, uint8_t)
ACC(bth, opcode, uint8_t)
ACC(bth, se, bool)
ACC(bth, migreq, bool)
ACC(bth, padcnt, uint8_t)
ACC(bth, tver, uint8_t)
ACC(bth, pkey, uint16_t)
ACC(bth, fecn, bool)
ACC(bth, becn, bool)
ACC(bth, destqp, uint32_t)
ACC(bth, ackreq, bool)
ACC(bth, psn, uint32_t)
ACC(deth, qkey, uint32_t)
ACC(deth, srcqp, uint32_t)
ACC(rwh, ethertype, uint16_t)

/* Written from the field tables (IBA 7.7, 8.3, 9.2, 9.3), not from the code. */
static const struct field fields[] = {
	FIELD(lrh, vl, 8, 0, 4),	  FIELD(lrh, lver, 8, 4, 4),
	FIELD(lrh, sl, 8, 8, 4),	  FIELD(lrh, lnh, 8, 14, 2),
	FIELD(lrh, dlid, 8, 16, 16),	  FIELD(lrh, pktlen, 8, 37, 11),
	FIELD(lrh, slid, 8, 48, 16),	  FIELD(grh, ipver, 40, 0, 4),
	FIELD(grh, tclass, 40, 4, 8),	  FIELD(grh, flowlabel, 40, 12, 20),
	FIELD(grh, paylen, 40, 32, 16),	  FIELD(grh, nxthdr, 40, 48, 8),
	FIELD(grh, hoplmt, 40, 56, 8),	  FIELD(bth, opcode, 12, 0, 8),
	FIELD(bth, se, 12, 8, 1),	  FIELD(bth, migreq, 12, 9, 1),
	FIELD(bth, padcnt, 12, 10, 2),	  FIELD(bth, tver, 12, 12, 4),
	FIELD(bth, pkey, 12, 16, 16),	  FIELD(bth, fecn, 12, 32, 1),
	FIELD(bth, becn, 12, 33, 1),	  FIELD(bth, destqp, 12, 40, 24),
	FIELD(bth, ackreq, 12, 64, 1),	  FIELD(bth, psn, 12, 72, 24),
	FIELD(deth, qkey, 8, 0, 32),	  FIELD(deth, srcqp, 8, 40, 24),
	FIELD(rwh, ethertype, 4, 16, 16),
};

static unsigned int bit_at(const uint8_t *b, unsigned int i)
{
	return (b[i / 8] >> (7 - i % 8)) & 1;
}

/* After set(v) on random bytes: the field reads v, bit for bit where the table says. */
static void check_field(const struct field *f, uint32_t v, bool garbage)
{
	uint8_t before[40], after[40];
	uint32_t mask = f->width == 32 ? 0xffffffffu : (1u << f->width) - 1;
	uint32_t in = v & mask;

	for (size_t i = 0; i < f->hdr_len; i++)
		before[i] = (uint8_t)rnd();
	memcpy(after, before, f->hdr_len);
	/* bits above the field's width (within the setter's type) must be dropped */
	if (garbage && f->width > 1 && f->width < 32)
		in |= rnd() & ~mask;
	f->set(after, in);
	CU_ASSERT_EQUAL(f->get(after), v & mask);
	for (unsigned int i = 0; i < f->hdr_len * 8; i++) {
		unsigned int want = bit_at(before, i);

		if (i >= f->off && i < f->off + f->width)
			want = ((v & mask) >> (f->width - 1 - (i - f->off))) & 1;
		if (bit_at(after, i) != want) {
			fprintf(stderr, "%s: bit %u wrong after set(0x%x)\n", f->name, i, v);
			CU_FAIL("field placement");
			return;
		}
	}
}

static void test_accessors(void)
{
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		const struct field *f = &fields[k];

		check_field(f, 0, false);
		check_field(f, 0xffffffffu, false);
		for (int i = 0; i < 200; i++)
			check_field(f, rnd(), i & 1);
	}
}

static void test_grh_gids(void)
{
	struct ibr_grh h;
	uint8_t before[40], s[16], d[16], out[16];

	for (int iter = 0; iter < 100; iter++) {
		for (int i = 0; i < 40; i++)
			before[i] = h.b[i] = (uint8_t)rnd();
		for (int i = 0; i < 16; i++) {
			s[i] = (uint8_t)rnd();
			d[i] = (uint8_t)rnd();
		}
		ibr_grh_set_sgid(&h, s);
		CU_ASSERT(memcmp(h.b, before, 8) == 0);
		CU_ASSERT(memcmp(h.b + 8, s, 16) == 0);
		CU_ASSERT(memcmp(h.b + 24, before + 24, 16) == 0);
		ibr_grh_set_dgid(&h, d);
		CU_ASSERT(memcmp(h.b, before, 8) == 0);
		CU_ASSERT(memcmp(h.b + 8, s, 16) == 0);
		CU_ASSERT(memcmp(h.b + 24, d, 16) == 0);
		ibr_grh_get_sgid(&h, out);
		CU_ASSERT(memcmp(out, s, 16) == 0);
		ibr_grh_get_dgid(&h, out);
		CU_ASSERT(memcmp(out, d, 16) == 0);
		CU_ASSERT_PTR_EQUAL(ibr_grh_sgid(&h), &h.b[8]);
		CU_ASSERT_PTR_EQUAL(ibr_grh_dgid(&h), &h.b[24]);
	}
	memcpy(h.b + 8, "\xfe\xc0\x00\x00\x00\x00\x00\x01\x00\x02\xc9\x03\x00\x00\x12\x34", 16);
	memcpy(h.b + 24, "\xfe\xc0\x00\x00\x00\x00\x00\x02\x00\x02\xc9\x03\x00\x00\x56\x78", 16);
	CU_ASSERT_EQUAL(ibr_grh_get_sgid_prefix(&h), 0xfec0000000000001ull);
	CU_ASSERT_EQUAL(ibr_grh_get_sgid_iid(&h), 0x0002c90300001234ull);
	CU_ASSERT_EQUAL(ibr_grh_get_dgid_prefix(&h), 0xfec0000000000002ull);
	CU_ASSERT_EQUAL(ibr_grh_get_dgid_iid(&h), 0x0002c90300005678ull);
}

/* Accessors work at any alignment (headers sit at odd offsets in buffers). */
static void test_unaligned(void)
{
	uint8_t raw[64] = { 0 };

	for (size_t a = 0; a < 8; a++) {
		struct ibr_bth *bth = (struct ibr_bth *)(raw + a);

		memset(raw, 0, sizeof(raw));
		ibr_bth_set_destqp(bth, 0xabcdef);
		ibr_bth_set_psn(bth, 0x123456);
		CU_ASSERT_EQUAL(ibr_bth_get_destqp(bth), 0xabcdef);
		CU_ASSERT_EQUAL(ibr_bth_get_psn(bth), 0x123456);
		CU_ASSERT_EQUAL(raw[a + 5], 0xab);
		CU_ASSERT_EQUAL(raw[a + 11], 0x56);
	}
}

/* ---- fixtures ---- */

/* Hex bytes separated by blanks, '#' to end of line a comment; -1 if bad. */
static int load_hex(const char *name, uint8_t *out, size_t cap)
{
	const char *dir = getenv("srcdir");
	char path[512], line[512];
	size_t n = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/data/%s", dir ? dir : ".", name);
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *tok, *save = NULL;

		line[strcspn(line, "#")] = '\0';
		for (tok = strtok_r(line, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			char *end;
			unsigned long v = strtoul(tok, &end, 16);

			if (strlen(tok) != 2 || *end || n == cap) {
				fclose(fp);
				return -1;
			}
			out[n++] = (uint8_t)v;
		}
	}
	fclose(fp);
	return (int)n;
}

static const uint8_t sgid_a[16] = { 0xfe, 0xc0, 0, 0, 0, 0, 0, 1, 0, 2, 0xc9, 3, 0, 0, 0x12, 0x34 };
static const uint8_t dgid_b[16] = { 0xfe, 0xc0, 0, 0, 0, 0, 0, 2, 0, 2, 0xc9, 3, 0, 0, 0x56, 0x78 };

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

static void fixture_grh_params(struct ibr_pkt_ud_params *up)
{
	static const uint8_t data[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

	memset(up, 0, sizeof(*up));
	up->slid = 0x22;
	up->dlid = 0x10;
	up->sl = 5;
	up->vl = 2;
	up->grh = true;
	memcpy(up->sgid, sgid_a, 16);
	memcpy(up->dgid, dgid_b, 16);
	up->tclass = 0xa5;
	up->flowlabel = 0x12345;
	up->hoplmt = 64;
	up->opcode = IBR_BTH_OP_UD_SEND_ONLY_IMM;
	up->se = true;
	up->pkey = 0x8001;
	up->dest_qp = 0xabc;
	up->psn = 0xfedcba;
	up->qkey = 0x11223344;
	up->src_qp = 0x123;
	up->immdt = 0xdeadbeef;
	up->payload = data;
	up->payload_len = sizeof(data);
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

/* A minimal packet of `len` bytes: consistent LRH, GRH and BTH opcode. */
static void mk(uint8_t *b, size_t len, uint8_t lnh, uint8_t op)
{
	memset(b, 0, len);
	ibr_lrh_set_lnh((struct ibr_lrh *)b, lnh);
	ibr_lrh_set_pktlen((struct ibr_lrh *)b, (uint16_t)((len - 2) / 4));
	if (lnh == IBR_LNH_IBA_GLOBAL && len >= 48) {
		struct ibr_grh *g = (struct ibr_grh *)(b + 8);

		ibr_grh_set_ipver(g, 6);
		ibr_grh_set_nxthdr(g, 0x1b);
		ibr_grh_set_paylen(g, (uint16_t)(len - 2 - 48));
	}
	if (lnh >= IBR_LNH_IBA_LOCAL && len >= (lnh == 3 ? 60u : 20u))
		b[lnh == 3 ? 48 : 8] = op;
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

/* ---- builder ---- */

static void random_params(struct ibr_pkt_ud_params *up, uint8_t *payload, size_t max)
{
	memset(up, 0, sizeof(*up));
	up->slid = (uint16_t)rnd();
	up->dlid = (uint16_t)rnd();
	up->sl = rnd() & 15;
	up->vl = rnd() & 15;
	up->grh = rnd() & 1;
	for (int i = 0; i < 16; i++) {
		up->sgid[i] = (uint8_t)rnd();
		up->dgid[i] = (uint8_t)rnd();
	}
	up->tclass = (uint8_t)rnd();
	up->flowlabel = rnd() & 0xfffff;
	up->hoplmt = (uint8_t)rnd();
	up->opcode = rnd() & 1 ? 0x65 : 0x64;
	up->se = rnd() & 1;
	up->pkey = (uint16_t)rnd();
	up->dest_qp = rnd() & 0xffffff;
	up->psn = rnd() & 0xffffff;
	up->qkey = rnd();
	up->src_qp = rnd() & 0xffffff;
	up->immdt = rnd();
	up->payload_len = rnd() % max;
	for (size_t i = 0; i < up->payload_len; i++)
		payload[i] = (uint8_t)rnd();
	up->payload = payload;
}

static void check_roundtrip(const struct ibr_pkt_ud_params *up, const struct ibr_pkt *p)
{
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(p->lrh), up->slid);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(p->lrh), up->dlid);
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(p->lrh), up->sl);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(p->lrh), up->vl);
	CU_ASSERT_EQUAL(p->grh != NULL, up->grh);
	if (p->grh) {
		CU_ASSERT(memcmp(ibr_grh_sgid(p->grh), up->sgid, 16) == 0);
		CU_ASSERT(memcmp(ibr_grh_dgid(p->grh), up->dgid, 16) == 0);
		CU_ASSERT_EQUAL(ibr_grh_get_tclass(p->grh), up->tclass);
		CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(p->grh), up->flowlabel);
		CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(p->grh), up->hoplmt);
	}
	CU_ASSERT_EQUAL(ibr_bth_get_opcode(p->bth), up->opcode);
	CU_ASSERT_EQUAL(ibr_bth_get_se(p->bth), up->se);
	CU_ASSERT_EQUAL(ibr_bth_get_tver(p->bth), 0);
	CU_ASSERT_EQUAL(ibr_bth_get_pkey(p->bth), up->pkey);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(p->bth), up->dest_qp);
	CU_ASSERT_EQUAL(ibr_bth_get_psn(p->bth), up->psn);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(p->deth), up->qkey);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(p->deth), up->src_qp);
	CU_ASSERT_EQUAL(p->immdt != NULL, up->opcode == 0x65);
	if (p->immdt)
		CU_ASSERT_EQUAL(ibr_be32_get(p->immdt), up->immdt);
	CU_ASSERT_EQUAL(p->payload_len, up->payload_len);
	CU_ASSERT(memcmp(p->payload, up->payload, up->payload_len) == 0);
	for (unsigned int i = 0; i < p->padcnt; i++)
		CU_ASSERT_EQUAL(p->payload[p->payload_len + i], 0);
}

static void test_build_roundtrip(void)
{
	static uint8_t buf[IBR_PKT_MAX_LEN], payload[4200];
	struct ibr_pkt_ud_params up;
	struct ibr_pkt p;

	for (int iter = 0; iter < 2000; iter++) {
		size_t want;
		int n;

		random_params(&up, payload, iter < 1000 ? 64 : sizeof(payload));
		want = 8 + (up.grh ? 40 : 0) + 12 + 8 + (up.opcode == 0x65 ? 4 : 0) +
		       ((up.payload_len + 3) & ~(size_t)3) + 6;
		n = ibr_pkt_build_ud(buf, sizeof(buf), &up);
		CU_ASSERT_EQUAL_FATAL(n, (int)want);
		CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &p), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(p.padcnt, (4 - up.payload_len % 4) % 4);
		check_roundtrip(&up, &p);
	}
}

static void test_build_errors(void)
{
	static uint8_t buf[IBR_PKT_MAX_LEN + 16], payload[IBR_PKT_MAX_LEN];
	struct ibr_pkt_ud_params up, bad;
	int n;

	fixture_grh_params(&up);
#define BAD(stmt)                                                                   \
	do {                                                                        \
		bad = up;                                                           \
		stmt;                                                               \
		CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &bad), -EINVAL); \
	} while (0)
	BAD(bad.sl = 16);
	BAD(bad.vl = 16);
	BAD(bad.flowlabel = 0x100000);
	BAD(bad.dest_qp = 0x1000000);
	BAD(bad.src_qp = 0x1000000);
	BAD(bad.psn = 0x1000000);
	BAD(bad.opcode = 0x04);
	BAD(bad.opcode = 0x66);
	BAD(bad.payload = NULL);
	BAD(bad.payload_len = (size_t)-1);
#undef BAD
	/* the largest UD packet PktLen allows, local: 28 + 8156 + 6 = 8190 */
	up.grh = false;
	up.opcode = 0x64;
	up.payload = payload;
	up.payload_len = 8156;
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &up), IBR_PKT_MAX_LEN);
	up.payload_len = 8157;
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &up), -EINVAL);
	/* every buffer size short of the packet: -ENOSPC, nothing written */
	fixture_grh_params(&up);
	n = ibr_pkt_build_ud(buf, sizeof(buf), &up);
	CU_ASSERT_EQUAL_FATAL(n, 90);
	for (int size = 0; size < n; size++) {
		uint8_t *c = malloc(size ? (size_t)size : 1);

		CU_ASSERT_EQUAL(ibr_pkt_build_ud(c, (size_t)size, &up), -ENOSPC);
		free(c);
	}
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(NULL, 0, &up), -ENOSPC);
	/* opcode 0 means SEND_ONLY */
	up.opcode = 0;
	n = ibr_pkt_build_ud(buf, sizeof(buf), &up);
	CU_ASSERT_EQUAL(n, 86);
	CU_ASSERT_EQUAL(buf[48], IBR_BTH_OP_UD_SEND_ONLY);
}

/* The payload may already sit in the output buffer (in place, or overlapping). */
static void test_build_in_place(void)
{
	uint8_t ref[256], buf[256];
	struct ibr_pkt_ud_params up;
	int n;

	fixture_grh_params(&up);
	n = ibr_pkt_build_ud(ref, sizeof(ref), &up);
	CU_ASSERT_FATAL(n == 90);
	for (size_t at = 0; at < 100; at += 7) {
		memset(buf, 0x5a, sizeof(buf));
		memcpy(buf + at, up.payload, up.payload_len);
		{
			struct ibr_pkt_ud_params in = up;

			in.payload = buf + at;
			CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &in), n);
		}
		CU_ASSERT(memcmp(buf, ref, (size_t)n) == 0);
	}
}

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

static CU_TestInfo tests[] = {
	{ "accessors match the IBA field tables", test_accessors },
	{ "GRH GIDs, prefixes and interface IDs", test_grh_gids },
	{ "accessors at any alignment", test_unaligned },
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
	{ "builder round trip", test_build_roundtrip },
	{ "builder errors", test_build_errors },
	{ "builder with the payload in the buffer", test_build_in_place },
	{ "raw packets", test_parse_raw },
	{ "non-UD packets", test_parse_non_ud },
	{ "crc_fill errors", test_crc_fill_errors },
	{ "opcode names", test_opcode_names },
	{ "format fixtures", test_format },
	{ "format raw, flags, reserved opcodes", test_format_other },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_pkt", tests);
}
