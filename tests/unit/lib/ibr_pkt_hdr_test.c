/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_pkt_hdr_test.c - the header accessors of lib/ibr_pkt.c, placement
 * checked against the IBA field tables bit by bit, at any alignment (a group
 * of ibr_pkt_test.h).
 */
#include "tests/unit/lib/ibr_pkt_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

CU_TestInfo ibr_pkt_hdr_tests[] = {
	{ "accessors match the IBA field tables", test_accessors },
	{ "GRH GIDs, prefixes and interface IDs", test_grh_gids },
	{ "accessors at any alignment", test_unaligned },
	CU_TEST_INFO_NULL,
};
