/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa_service_test.c - the SA ServiceRecord of lib/ibr_sa.c (IBA
 * 15.2.5.14, as OpenSM's ib_service_record_t lays it out): a golden record
 * laid out by hand, its ComponentMask bits, its ServiceName text, the
 * requests built of it and the tables of them decoded.
 */
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/lib/ibr_sa_layout.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Member by member: the struct has padding after pkey. */
static bool sr_equal(const struct ibr_sa_service_rec *a, const struct ibr_sa_service_rec *b)
{
	return a->id == b->id && !memcmp(a->gid, b->gid, 16) && a->pkey == b->pkey &&
	       a->lease == b->lease && !memcmp(a->key, b->key, 16) &&
	       !memcmp(a->name, b->name, sizeof(a->name)) && !memcmp(a->data8, b->data8, 16) &&
	       !memcmp(a->data16, b->data16, sizeof(a->data16)) &&
	       !memcmp(a->data32, b->data32, sizeof(a->data32)) &&
	       !memcmp(a->data64, b->data64, sizeof(a->data64));
}

/*
 * ServiceRecord (15.2.5.14), laid out by hand at the byte offsets of OpenSM's
 * ib_service_record_t: a router announcing prefix fec0:0:0:2::/64.
 */
static void test_golden_service_rec(void)
{
	uint8_t golden[IBR_SA_SERVICE_REC_LEN] = {
		[0] = 0x10,   0x00, 0x00, 0x00, 0x49, 0x42, 0x52, 0x01, /* ServiceID */
		[24] = 0xFF,  0xFF,					/* ServiceP_Key */
		[26] = 0x00,  0x00,					/* reserved */
		[28] = 0x00,  0x00, 0x01, 0x2C,				/* ServiceLease 300 s */
		[48] = 'i',   'b',  'r',  ':',	'r',  '1',		/* ServiceName */
		[112] = 0x01, 0x02,					/* ServiceData8.0, .1 */
		[127] = 0x0F,						/* ServiceData8.15 */
		[128] = 0xAB, 0xCD,					/* ServiceData16.0 */
		[142] = 0x12, 0x34,					/* ServiceData16.7 */
		[144] = 0xDE, 0xAD, 0xBE, 0xEF,				/* ServiceData32.0 */
		[156] = 0x00, 0x00, 0x00, 0x40,				/* ServiceData32.3 */
		[160] = 0xFE, 0xC0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, /* ServiceData64.0 */
		[168] = 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, /* ServiceData64.1 */
	};
	struct ibr_sa_service_rec want = {
		.id = 0x1000000049425201ull,
		.pkey = 0xFFFF,
		.lease = 300,
		.name = "ibr:r1",
		.data8 = { [0] = 1, [1] = 2, [15] = 0x0F },
		.data16 = { [0] = 0xABCD, [7] = 0x1234 },
		.data32 = { [0] = 0xDEADBEEF, [3] = 0x40 },
		.data64 = { 0xFEC0000000000002ull, 0x0123456789ABCDEFull },
	};
	struct ibr_sa_service_rec got;
	uint8_t enc[IBR_SA_SERVICE_REC_LEN];

	for (int i = 0; i < 16; i++) { /* ServiceGID at 8, ServiceKey at 32 */
		golden[8 + i] = gid_a[i];
		golden[32 + i] = (uint8_t)(0xA0 + i);
		want.gid[i] = gid_a[i];
		want.key[i] = (uint8_t)(0xA0 + i);
	}
	ibr_sa_service_rec_encode(&want, enc);
	check_bytes("ServiceRecord golden", enc, golden, sizeof(golden));
	memset(&got, 0xA5, sizeof(got));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(sr_fields) / sizeof(sr_fields[0]); j++)
		CU_ASSERT_EQUAL(sr_fields[j].get(&got), sr_fields[j].get(&want));
	CU_ASSERT(sr_equal(&got, &want)); /* arrays whole, the name's padding */
	CU_ASSERT_EQUAL(got.lease, 300);
	CU_ASSERT_EQUAL(got.data16[7], 0x1234);
	CU_ASSERT_EQUAL(got.data32[3], 0x40);
	CU_ASSERT_EQUAL(got.data64[0], 0xFEC0000000000002ull);
	CU_ASSERT_STRING_EQUAL(got.name, "ibr:r1");
	/* an indefinite lease */
	golden[28] = golden[29] = golden[30] = golden[31] = 0xFF;
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_decode(golden, sizeof(golden), &got), 0);
	CU_ASSERT_EQUAL(got.lease, IBR_SA_SERVICE_LEASE_INDEFINITE);
}

/* ComponentMask bits, 15.2.5.14 (OpenSM's IB_SR_COMPMASK_*), written out. */
static void test_service_rec_comp_mask(void)
{
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_ID, 0x1ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_GID, 0x2ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_PKEY, 0x4ull);
	/* bit 3: the reserved field */
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_LEASE, 0x10ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_KEY, 0x20ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_NAME, 0x40ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA8(0), 0x80ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA8(15), 0x400000ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA16(0), 0x800000ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA16(7), 0x40000000ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA32(0), 0x80000000ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA32(3), 0x400000000ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA64(0), 0x800000000ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_DATA64(1), 0x1000000000ull);
	CU_ASSERT_EQUAL(IBR_SA_SR_COMP_RID, 0x7ull);
	/* 37 bits in all, each once: fields 0..36 less the reserved bit 3 */
	uint64_t all = IBR_SA_SR_COMP_RID | IBR_SA_SR_COMP_LEASE | IBR_SA_SR_COMP_KEY |
		       IBR_SA_SR_COMP_NAME;

	for (int i = 0; i < 16; i++)
		all |= IBR_SA_SR_COMP_DATA8(i);
	for (int i = 0; i < 8; i++)
		all |= IBR_SA_SR_COMP_DATA16(i);
	for (int i = 0; i < 4; i++)
		all |= IBR_SA_SR_COMP_DATA32(i);
	for (int i = 0; i < 2; i++)
		all |= IBR_SA_SR_COMP_DATA64(i);
	CU_ASSERT_EQUAL(all, 0x1FFFFFFFF7ull);
}

/* ---- ServiceName text (15.2.5.14: UTF-8, NUL-terminated) ---- */

static void test_service_name(void)
{
	uint8_t rec[IBR_SA_SERVICE_REC_LEN] = { 0 };
	uint8_t *d = rec + SR_NAME_OFFS;
	struct ibr_sa_service_rec r, sentinel;
	char s63[64];

	/* 64 bytes without a NUL: refused, out untouched */
	memset(d, 'n', 64);
	memset(&r, 0xA5, sizeof(r));
	memcpy(&sentinel, &r, sizeof(r));
	CU_ASSERT_EQUAL(ibr_sa_service_rec_decode(rec, sizeof(rec), &r), -EINVAL);
	CU_ASSERT(memcmp(&r, &sentinel, sizeof(r)) == 0);
	/* 63 characters and the NUL in the last byte: the longest name */
	d[63] = 0;
	memset(s63, 'n', 63);
	s63[63] = '\0';
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_decode(rec, sizeof(rec), &r), 0);
	CU_ASSERT_STRING_EQUAL(r.name, s63);
	/* the byte after the name is ServiceData8.0, not part of it */
	rec[112] = 'x';
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_decode(rec, sizeof(rec), &r), 0);
	CU_ASSERT_EQUAL(strlen(r.name), 63);
	CU_ASSERT_EQUAL(r.data8[0], 'x');
	/* bytes past the NUL are padding: dropped, and encoded back as zeros */
	memset(d, 0, 64);
	memcpy(d, "r1\0junk", 8);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_decode(rec, sizeof(rec), &r), 0);
	CU_ASSERT_STRING_EQUAL(r.name, "r1");
	for (size_t i = 2; i < sizeof(r.name); i++)
		CU_ASSERT_EQUAL(r.name[i], 0);
	ibr_sa_service_rec_encode(&r, rec);
	CU_ASSERT(memcmp(d, "r1\0\0\0\0\0\0", 8) == 0);
	/* UTF-8 and other bytes are kept as they are (no '?' as for NodeDescription) */
	static const uint8_t utf8[] = { 'r', 0xC3, 0xA9, 's', 'e', 'a', 'u', 0x01, 0x7F, 0xFF, 0 };

	memset(d, 0, 64);
	memcpy(d, utf8, sizeof(utf8));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_decode(rec, sizeof(rec), &r), 0);
	CU_ASSERT(memcmp(r.name, utf8, sizeof(utf8)) == 0);
	/* empty */
	memset(d, 0, 64);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_decode(rec, sizeof(rec), &r), 0);
	CU_ASSERT_STRING_EQUAL(r.name, "");

	/* encode: a name filling all 64 bytes is cut to 63 and a NUL */
	memset(&r, 0, sizeof(r));
	memset(r.name, 'z', sizeof(r.name));
	memset(rec, 0xEE, sizeof(rec));
	ibr_sa_service_rec_encode(&r, rec);
	for (int i = 0; i < 63; i++)
		CU_ASSERT_EQUAL(d[i], 'z');
	CU_ASSERT_EQUAL(d[63], 0);
	CU_ASSERT_EQUAL(rec[112], 0); /* nothing spilled into ServiceData8 */
	CU_ASSERT_EQUAL(ibr_sa_service_rec_decode(rec, sizeof(rec), &r), 0);
	/* ... before a UTF-8 sequence the cut would split: 62 x 'a' then U+00E9 */
	memset(&r, 0, sizeof(r));
	memset(r.name, 'a', 62);
	r.name[62] = (char)0xC3;
	r.name[63] = (char)0xA9;
	ibr_sa_service_rec_encode(&r, rec);
	CU_ASSERT_EQUAL(d[61], 'a');
	CU_ASSERT_EQUAL(d[62], 0);
	CU_ASSERT_EQUAL(d[63], 0);
	/* ... and a three-byte one (U+20AC) cut after its first two bytes */
	memset(r.name, 'a', 61);
	r.name[61] = (char)0xE2;
	r.name[62] = (char)0x82;
	r.name[63] = (char)0xAC;
	ibr_sa_service_rec_encode(&r, rec);
	CU_ASSERT_EQUAL(d[60], 'a');
	CU_ASSERT_EQUAL(d[61], 0);
	/* a whole sequence that fits stays */
	memset(r.name, 0, sizeof(r.name));
	memset(r.name, 'a', 61);
	r.name[61] = (char)0xC3;
	r.name[62] = (char)0xA9;
	ibr_sa_service_rec_encode(&r, rec);
	CU_ASSERT_EQUAL(d[61], 0xC3);
	CU_ASSERT_EQUAL(d[62], 0xA9);
	CU_ASSERT_EQUAL(d[63], 0);
}

/* ---- ServiceRecord requests and tables ---- */

static void test_service_rec_build(void)
{
	struct ibr_sa_service_rec r = { .id = 0x1000000049425201ull,
					.pkey = 0xFFFF,
					.lease = IBR_SA_SERVICE_LEASE_INDEFINITE,
					.name = "ibr:r1" },
				  back;
	const uint64_t comp = IBR_SA_SR_COMP_RID | IBR_SA_SR_COMP_NAME | IBR_SA_SR_COMP_LEASE;
	uint8_t m[IBR_MAD_SIZE], wire[IBR_SA_SERVICE_REC_LEN], before[IBR_MAD_SIZE];

	memcpy(r.gid, gid_a, 16);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_build(m, IBR_MAD_METHOD_SET, comp, &r, 1, 0x77),
			      0);
	CU_ASSERT_EQUAL(m[0], 1);    /* BaseVersion */
	CU_ASSERT_EQUAL(m[1], 0x03); /* SubnAdm */
	CU_ASSERT_EQUAL(m[2], 2);    /* ClassVersion */
	CU_ASSERT_EQUAL(m[3], IBR_MAD_METHOD_SET);
	CU_ASSERT_EQUAL(ibr_mad_attr_id(m), 0x0031);
	CU_ASSERT_EQUAL(ibr_mad_tid(m), 0x77);
	CU_ASSERT_EQUAL(ibr_sa_sm_key(m), 1);
	CU_ASSERT_EQUAL(ibr_sa_comp_mask(m), comp);
	CU_ASSERT_EQUAL(m[48 + 7], 0x57); /* ComponentMask, big-endian at byte 48: bits 0-2, 4, 6 */
	CU_ASSERT_EQUAL(ibr_sa_attr_offset(m), 22);
	ibr_sa_service_rec_encode(&r, wire);
	CU_ASSERT(memcmp(m + IBR_SA_DATA_OFFS, wire, sizeof(wire)) == 0);
	for (size_t i = IBR_SA_DATA_OFFS + sizeof(wire); i < IBR_MAD_SIZE; i++)
		CU_ASSERT_EQUAL(m[i], 0);
	CU_ASSERT_EQUAL_FATAL(
		ibr_sa_service_rec_decode(m + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &back), 0);
	CU_ASSERT(sr_equal(&back, &r));
	/* the other methods of 15.2.5.14; Get and GetTable with any mask */
	CU_ASSERT_EQUAL(
		ibr_sa_service_rec_build(m, IBR_MAD_METHOD_DELETE, IBR_SA_SR_COMP_RID, &r, 0, 1),
		0);
	CU_ASSERT_EQUAL(m[3], IBR_MAD_METHOD_DELETE);
	CU_ASSERT_EQUAL(
		ibr_sa_service_rec_build(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_SR_COMP_ID, &r, 0, 2),
		0);
	CU_ASSERT_EQUAL(m[3], IBR_MAD_METHOD_GET_TABLE);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_build(m, IBR_MAD_METHOD_GET, 0, &r, 0, 3), 0);
	/* refused, m untouched: a Set or Delete without the whole RID, other methods */
	memset(m, 0xEE, sizeof(m));
	memcpy(before, m, sizeof(m));
	CU_ASSERT_EQUAL(ibr_sa_service_rec_build(m, IBR_MAD_METHOD_SET,
						 IBR_SA_SR_COMP_ID | IBR_SA_SR_COMP_GID, &r, 0, 4),
			-EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_build(m, IBR_MAD_METHOD_DELETE,
						 IBR_SA_SR_COMP_ID | IBR_SA_SR_COMP_PKEY, &r, 0, 5),
			-EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_build(m, IBR_MAD_METHOD_SEND, comp, &r, 0, 6), -EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_build(m, IBR_MAD_METHOD_GET_RESP, comp, &r, 0, 7),
			-EINVAL);
	CU_ASSERT(memcmp(m, before, sizeof(m)) == 0);
}

/* A response of ServiceRecords: method, AttributeOffset, records from byte 56. */
static void sr_msg(uint8_t *m, size_t len, uint8_t method, uint16_t attr_offset)
{
	memset(m, 0, len);
	ibr_mad_build_sa(m, method, IBR_SA_ATTR_SERVICE_RECORD, 0, 0, 1);
	ibr_sa_set_attr_offset(m, attr_offset);
}

static void test_service_rec_table(void)
{
	const size_t stride = 22 * 8, n = 4, len = 56 + n * stride;
	uint8_t *m = malloc(len);
	struct ibr_sa_service_rec r = { .pkey = 0xFFFF, .lease = 60 }, out[8];
	unsigned int refused = 99;

	CU_ASSERT_FATAL(m != NULL);
	/* a reassembled GetTable response, the third record's name unterminated */
	sr_msg(m, len, IBR_MAD_METHOD_GET_TABLE_RESP, 22);
	for (size_t i = 0; i < n; i++) {
		r.id = 0x100 + i;
		r.data64[0] = 0xFEC0000000000000ull | i;
		snprintf(r.name, sizeof(r.name), "ibr:r%zu", i);
		ibr_sa_service_rec_encode(&r, m + 56 + i * stride);
	}
	memset(m + 56 + 2 * stride + SR_NAME_OFFS, 'u', 64);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_service_rec_table_decode(m, len, out, 8, &refused), 3);
	CU_ASSERT_EQUAL(refused, 1);
	CU_ASSERT_EQUAL(out[0].id, 0x100);
	CU_ASSERT_EQUAL(out[1].id, 0x101);
	CU_ASSERT_EQUAL(out[2].id, 0x103);
	CU_ASSERT_EQUAL(out[2].data64[0], 0xFEC0000000000003ull);
	CU_ASSERT_STRING_EQUAL(out[2].name, "ibr:r3");
	/* at most max; refused may be NULL */
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(m, len, out, 1, NULL), 1);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(m, len, out, 0, &refused), 0);
	CU_ASSERT_EQUAL(refused, 0);
	/* a record cut short at the end does not count */
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(m, len - 1, out, 8, &refused), 2);
	CU_ASSERT_EQUAL(refused, 1);
	/* the message's own errors, *refused zeroed */
	refused = 99;
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(m, 55, out, 8, &refused), -EMSGSIZE);
	CU_ASSERT_EQUAL(refused, 0);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(NULL, 0, out, 8, NULL), -EMSGSIZE);
	ibr_sa_set_attr_offset(m, 21); /* 168 bytes: smaller than the record */
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(m, len, out, 8, NULL), -EINVAL);
	/* header only */
	sr_msg(m, len, IBR_MAD_METHOD_GET_TABLE_RESP, 22);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(m, 56, out, 8, NULL), 0);
	free(m);

	/* single MADs: a Get response's one record, a GetTable's none (AttributeOffset 0) */
	uint8_t mad[IBR_MAD_SIZE];

	sr_msg(mad, sizeof(mad), IBR_MAD_METHOD_GET_RESP, 0);
	r.id = 7;
	ibr_sa_service_rec_encode(&r, mad + 56);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(mad, sizeof(mad), out, 8, &refused), 1);
	CU_ASSERT_EQUAL(out[0].id, 7);
	sr_msg(mad, sizeof(mad), IBR_MAD_METHOD_GET_TABLE_RESP, 0);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(mad, sizeof(mad), out, 8, &refused), 0);
	CU_ASSERT_EQUAL(refused, 0);
	/* one record a MAD (176 of 200 bytes): what umad2sim leaves of a table */
	sr_msg(mad, sizeof(mad), IBR_MAD_METHOD_GET_TABLE_RESP, 22);
	ibr_sa_service_rec_encode(&r, mad + 56);
	CU_ASSERT_EQUAL(ibr_sa_service_rec_table_decode(mad, sizeof(mad), out, 8, &refused), 1);
}

static CU_TestInfo tests[] = {
	{ "golden ServiceRecord", test_golden_service_rec },
	{ "ServiceRecord ComponentMask", test_service_rec_comp_mask },
	{ "ServiceName text", test_service_name },
	{ "ServiceRecord request", test_service_rec_build },
	{ "ServiceRecord table", test_service_rec_table },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_sa_service", tests);
}
