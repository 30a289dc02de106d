/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa_test.c - SA record, Notice, InformInfo and ClassPortInfo codecs
 * (lib/ibr_sa.c).  The bit offsets below are the IBA's (vol. 1 15.2.5,
 * 13.4.8, 14.2.5.6), written out by hand, not taken from libibmad or from
 * lib/ibr_sa.c: every field is checked on its own (all ones, with the rest
 * zero, and the reverse), random records go round trip both ways, and
 * golden records are compared byte by byte.
 */
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 500

/* ---- bit helpers (IBA numbering: bit 0 is the MSB of byte 0) ---- */

static bool bit_get(const uint8_t *b, unsigned int i)
{
	return (b[i / 8] >> (7 - i % 8)) & 1;
}

static void bit_set(uint8_t *b, unsigned int i, bool on)
{
	uint8_t m = (uint8_t)(0x80 >> (i % 8));

	b[i / 8] = (uint8_t)(on ? b[i / 8] | m : b[i / 8] & ~m);
}

/* Fields up to 64 bits as an integer. */
static uint64_t bits_value(const uint8_t *b, unsigned int offs, unsigned int bits)
{
	uint64_t v = 0;

	for (unsigned int k = 0; k < bits; k++)
		v = v << 1 | bit_get(b, offs + k);
	return v;
}

static uint64_t mask_of(unsigned int bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static void fill_random(uint8_t *b, size_t len, unsigned long long *seed)
{
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(ibr_test_rand(seed) >> 24);
}

/* ---- field accessors ---- */

/* Byte arrays: set() repeats v's 8 bytes, get() ORs the array's 8-byte lanes. */
static void arr_set(uint8_t *a, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		a[i] = (uint8_t)(v >> (8 * (7 - i % 8)));
}

static uint64_t arr_get(const uint8_t *a, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)a[i] << (8 * (7 - i % 8));
	return v;
}

#define ACC(st, m)                                      \
	static void set_##st##_##m(void *p, uint64_t v) \
	{                                               \
		struct ibr_sa_##st *s = p;              \
		s->m = (__typeof__(s->m))v;             \
	}                                               \
	static uint64_t get_##st##_##m(const void *p)   \
	{                                               \
		const struct ibr_sa_##st *s = p;        \
		return s->m;                            \
	}
#define ACC_ARR(st, m)                                  \
	static void set_##st##_##m(void *p, uint64_t v) \
	{                                               \
		struct ibr_sa_##st *s = p;              \
		arr_set(s->m, sizeof(s->m), v);         \
	}                                               \
	static uint64_t get_##st##_##m(const void *p)   \
	{                                               \
		const struct ibr_sa_##st *s = p;        \
		return arr_get(s->m, sizeof(s->m));     \
	}
#define ACC_GUID(i)                                                      \
	static void set_guidinfo_rec_guid##i(void *p, uint64_t v)        \
	{                                                                \
		((struct ibr_sa_guidinfo_rec *)p)->guid[i] = v;          \
	}                                                                \
	static uint64_t get_guidinfo_rec_guid##i(const void *p)          \
	{                                                                \
		return ((const struct ibr_sa_guidinfo_rec *)p)->guid[i]; \
	}

struct fcase {
	const char *name;
	void (*set)(void *s, uint64_t v);
	uint64_t (*get)(const void *s);
	unsigned int offs, bits; /* on the wire, IBA bit offset and width */
	bool wide_bool;		 /* a bool in a wider field: true is written as 1 */
};

#define F(st, m, o, n)                                                                         \
	{                                                                                      \
		.name = #m, .set = set_##st##_##m, .get = get_##st##_##m, .offs = o, .bits = n \
	}
#define FB(st, m, o, n)                                                                         \
	{                                                                                       \
		.name = #m, .set = set_##st##_##m, .get = get_##st##_##m, .offs = o, .bits = n, \
		.wide_bool = true                                                               \
	}

/* The value a field holds once decoded from wire bits v, and its largest value. */
static uint64_t field_canon(const struct fcase *fc, uint64_t v)
{
	return fc->wide_bool ? v != 0 : v & mask_of(fc->bits);
}

static uint64_t field_max(const struct fcase *fc)
{
	return fc->wide_bool ? 1 : mask_of(fc->bits);
}

/* NodeRecord, 15.2.5.2: LID, 2 reserved bytes, NodeInfo (14.2.5.3), NodeDescription. */
ACC(node_rec, lid)
ACC(node_rec, base_version)
ACC(node_rec, class_version)
ACC(node_rec, node_type)
ACC(node_rec, nports)
ACC(node_rec, system_guid)
ACC(node_rec, node_guid)
ACC(node_rec, port_guid)
ACC(node_rec, partition_cap)
ACC(node_rec, device_id)
ACC(node_rec, revision)
ACC(node_rec, local_port)
ACC(node_rec, vendor_id)
static const struct fcase node_fields[] = {
	F(node_rec, lid, 0, 16),
	F(node_rec, base_version, 4 * 8, 8),
	F(node_rec, class_version, 5 * 8, 8),
	F(node_rec, node_type, 6 * 8, 8),
	F(node_rec, nports, 7 * 8, 8),
	F(node_rec, system_guid, 8 * 8, 64),
	F(node_rec, node_guid, 16 * 8, 64),
	F(node_rec, port_guid, 24 * 8, 64),
	F(node_rec, partition_cap, 32 * 8, 16),
	F(node_rec, device_id, 34 * 8, 16),
	F(node_rec, revision, 36 * 8, 32),
	F(node_rec, local_port, 40 * 8, 8),
	F(node_rec, vendor_id, 41 * 8, 24),
	/* NodeDescription, bytes 44..107: the text tests */
};
#define NODE_DESC_OFFS 44

/*
 * PortInfoRecord, 15.2.5.3: EndportLID, PortNum, Options, PortInfo at byte 4,
 * 4 reserved bytes last (as OpenSM's ib_portinfo_record_t lays it out; a
 * PortInfo read from byte 8 gave every neighbour of a LMC 1 subnet LMC 0).
 */
#define PI(byte) ((4 + (byte)) * 8)
ACC(portinfo_rec, lid)
ACC(portinfo_rec, port_num)
ACC(portinfo_rec, mkey)
ACC(portinfo_rec, gid_prefix)
ACC(portinfo_rec, base_lid)
ACC(portinfo_rec, sm_lid)
ACC(portinfo_rec, cap_mask)
ACC(portinfo_rec, lmc)
ACC(portinfo_rec, state)
ACC(portinfo_rec, phys_state)
ACC(portinfo_rec, mtu_cap)
ACC(portinfo_rec, neighbor_mtu)
ACC(portinfo_rec, link_width_active)
ACC(portinfo_rec, link_speed_active)
static const struct fcase pir_fields[] = {
	F(portinfo_rec, lid, 0, 16),
	F(portinfo_rec, port_num, 16, 8),
	/* PortInfo, 14.2.5.6 */
	F(portinfo_rec, mkey, PI(0), 64),
	F(portinfo_rec, gid_prefix, PI(8), 64),
	F(portinfo_rec, base_lid, PI(16), 16),
	F(portinfo_rec, sm_lid, PI(18), 16),
	F(portinfo_rec, cap_mask, PI(20), 32),
	F(portinfo_rec, link_width_active, PI(31), 8),
	F(portinfo_rec, state, PI(32) + 4, 4),
	F(portinfo_rec, phys_state, PI(33), 4),
	F(portinfo_rec, lmc, PI(34) + 5, 3),
	F(portinfo_rec, link_speed_active, PI(35), 4),
	F(portinfo_rec, neighbor_mtu, PI(36), 4),
	F(portinfo_rec, mtu_cap, PI(41) + 4, 4),
};

/* MCMemberRecord, 15.2.5.17 */
ACC_ARR(mcm_rec, mgid)
ACC_ARR(mcm_rec, port_gid)
ACC(mcm_rec, qkey)
ACC(mcm_rec, mlid)
ACC(mcm_rec, mtu_sel)
ACC(mcm_rec, mtu)
ACC(mcm_rec, tclass)
ACC(mcm_rec, pkey)
ACC(mcm_rec, rate_sel)
ACC(mcm_rec, rate)
ACC(mcm_rec, life_sel)
ACC(mcm_rec, life)
ACC(mcm_rec, sl)
ACC(mcm_rec, flowlabel)
ACC(mcm_rec, hoplimit)
ACC(mcm_rec, scope)
ACC(mcm_rec, join_state)
ACC(mcm_rec, proxy_join)
static const struct fcase mcm_fields[] = {
	F(mcm_rec, mgid, 0, 128),
	F(mcm_rec, port_gid, 16 * 8, 128),
	F(mcm_rec, qkey, 32 * 8, 32),
	F(mcm_rec, mlid, 36 * 8, 16),
	F(mcm_rec, mtu_sel, 38 * 8, 2),
	F(mcm_rec, mtu, 38 * 8 + 2, 6),
	F(mcm_rec, tclass, 39 * 8, 8),
	F(mcm_rec, pkey, 40 * 8, 16),
	F(mcm_rec, rate_sel, 42 * 8, 2),
	F(mcm_rec, rate, 42 * 8 + 2, 6),
	F(mcm_rec, life_sel, 43 * 8, 2),
	F(mcm_rec, life, 43 * 8 + 2, 6),
	F(mcm_rec, sl, 44 * 8, 4),
	F(mcm_rec, flowlabel, 44 * 8 + 4, 20),
	F(mcm_rec, hoplimit, 47 * 8, 8),
	F(mcm_rec, scope, 48 * 8, 4),
	F(mcm_rec, join_state, 48 * 8 + 4, 4),
	F(mcm_rec, proxy_join, 49 * 8, 1),
};

/* GUIDInfoRecord, 15.2.5.18: LID, BlockNum, 5 reserved bytes, GUIDInfo (8 GUIDs) at byte 8. */
ACC(guidinfo_rec, lid)
ACC(guidinfo_rec, block)
ACC_GUID(0)
ACC_GUID(1)
ACC_GUID(2)
ACC_GUID(3)
ACC_GUID(4)
ACC_GUID(5)
ACC_GUID(6)
ACC_GUID(7)
static const struct fcase gir_fields[] = {
	F(guidinfo_rec, lid, 0, 16),	 F(guidinfo_rec, block, 16, 8),
	F(guidinfo_rec, guid0, 64, 64),	 F(guidinfo_rec, guid1, 128, 64),
	F(guidinfo_rec, guid2, 192, 64), F(guidinfo_rec, guid3, 256, 64),
	F(guidinfo_rec, guid4, 320, 64), F(guidinfo_rec, guid5, 384, 64),
	F(guidinfo_rec, guid6, 448, 64), F(guidinfo_rec, guid7, 512, 64),
};

/* InformInfo, 13.4.8.3 */
ACC_ARR(informinfo, gid)
ACC(informinfo, lid_begin)
ACC(informinfo, lid_end)
ACC(informinfo, is_generic)
ACC(informinfo, subscribe)
ACC(informinfo, type)
ACC(informinfo, trap_num)
ACC(informinfo, qpn)
ACC(informinfo, resp_time)
ACC(informinfo, producer)
static const struct fcase ii_fields[] = {
	F(informinfo, gid, 0, 128),
	F(informinfo, lid_begin, 16 * 8, 16),
	F(informinfo, lid_end, 18 * 8, 16),
	FB(informinfo, is_generic, 22 * 8, 8),
	FB(informinfo, subscribe, 23 * 8, 8),
	F(informinfo, type, 24 * 8, 16),
	F(informinfo, trap_num, 26 * 8, 16),
	F(informinfo, qpn, 28 * 8, 24),
	F(informinfo, resp_time, 31 * 8 + 3, 5),
	F(informinfo, producer, 33 * 8, 24),
};

/* Notice, 13.4.8.2 */
ACC(notice, is_generic)
ACC(notice, type)
ACC(notice, producer)
ACC(notice, trap_num)
ACC(notice, issuer_lid)
ACC(notice, toggle)
ACC(notice, count)
ACC_ARR(notice, details)
ACC_ARR(notice, issuer_gid)
static const struct fcase notice_fields[] = {
	F(notice, is_generic, 0, 1),	    F(notice, type, 1, 7),
	F(notice, producer, 8, 24),	    F(notice, trap_num, 32, 16),
	F(notice, issuer_lid, 48, 16),	    F(notice, toggle, 64, 1),
	F(notice, count, 65, 15),	    F(notice, details, 10 * 8, 54 * 8),
	F(notice, issuer_gid, 64 * 8, 128),
};

/* ClassPortInfo, 13.4.8.1 */
ACC(classportinfo, base_version)
ACC(classportinfo, class_version)
ACC(classportinfo, cap_mask)
ACC(classportinfo, cap_mask2)
ACC(classportinfo, resp_time)
ACC_ARR(classportinfo, redirect_gid)
ACC(classportinfo, redirect_lid)
ACC(classportinfo, redirect_qp)
ACC(classportinfo, redirect_qkey)
ACC(classportinfo, redirect_pkey)
ACC(classportinfo, trap_lid)
static const struct fcase cpi_fields[] = {
	F(classportinfo, base_version, 0, 8),	    F(classportinfo, class_version, 8, 8),
	F(classportinfo, cap_mask, 16, 16),	    F(classportinfo, cap_mask2, 32, 27),
	F(classportinfo, resp_time, 59, 5),	    F(classportinfo, redirect_gid, 8 * 8, 128),
	F(classportinfo, redirect_lid, 28 * 8, 16), F(classportinfo, redirect_pkey, 30 * 8, 16),
	F(classportinfo, redirect_qp, 33 * 8, 24),  F(classportinfo, redirect_qkey, 36 * 8, 32),
	F(classportinfo, trap_lid, 60 * 8, 16),
};

/* ---- the records ---- */

#define CODEC(st, dec, enc)                                      \
	static int dec_##st(const uint8_t *r, size_t l, void *o) \
	{                                                        \
		return dec(r, l, o);                             \
	}                                                        \
	static void enc_##st(const void *i, uint8_t *r)          \
	{                                                        \
		enc(i, r);                                       \
	}
CODEC(node_rec, ibr_sa_node_rec_decode, ibr_sa_node_rec_encode)
CODEC(portinfo_rec, ibr_sa_portinfo_rec_decode, ibr_sa_portinfo_rec_encode)
CODEC(mcm_rec, ibr_sa_mcm_rec_decode, ibr_sa_mcm_rec_encode)
CODEC(guidinfo_rec, ibr_sa_guidinfo_rec_decode, ibr_sa_guidinfo_rec_encode)
CODEC(informinfo, ibr_sa_informinfo_decode, ibr_sa_informinfo_encode)
CODEC(notice, ibr_sa_notice_decode, ibr_sa_notice_encode)
CODEC(classportinfo, ibr_sa_classportinfo_decode, ibr_sa_classportinfo_encode)

struct rcase {
	const char *name;
	size_t len, size; /* record on the wire, host struct */
	int (*dec)(const uint8_t *rec, size_t len, void *out);
	void (*enc)(const void *in, uint8_t *rec);
	const struct fcase *f;
	size_t nf;
	size_t text_offs, text_len; /* a NodeDescription, handled apart */
};

#define R(st, name, len, fields, toffs, tlen)                                      \
	{                                                                          \
		name, len, sizeof(struct ibr_sa_##st), dec_##st, enc_##st, fields, \
			sizeof(fields) / sizeof(fields[0]), toffs, tlen            \
	}
static const struct rcase records[] = {
	R(node_rec, "NodeRecord", IBR_SA_NODE_REC_LEN, node_fields, NODE_DESC_OFFS, 64),
	R(portinfo_rec, "PortInfoRecord", IBR_SA_PORTINFO_REC_LEN, pir_fields, 0, 0),
	R(mcm_rec, "MCMemberRecord", IBR_SA_MCM_REC_LEN, mcm_fields, 0, 0),
	R(guidinfo_rec, "GUIDInfoRecord", IBR_SA_GUIDINFO_REC_LEN, gir_fields, 0, 0),
	R(informinfo, "InformInfo", IBR_SA_INFORMINFO_LEN, ii_fields, 0, 0),
	R(notice, "Notice", IBR_SA_NOTICE_LEN, notice_fields, 0, 0),
	R(classportinfo, "ClassPortInfo", IBR_SA_CLASSPORTINFO_LEN, cpi_fields, 0, 0),
};
#define NRECORDS (sizeof(records) / sizeof(records[0]))

#define MAX_REC 128

/* Room for any of the structs, aligned for them. */
union host {
	struct ibr_sa_node_rec node;
	struct ibr_sa_portinfo_rec pir;
	struct ibr_sa_mcm_rec mcm;
	struct ibr_sa_guidinfo_rec gir;
	struct ibr_sa_informinfo ii;
	struct ibr_sa_notice notice;
	struct ibr_sa_classportinfo cpi;
	uint8_t bytes[1];
};

static void check_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (got[i] != want[i]) {
			fprintf(stderr, "%s: byte %zu is %#04x, want %#04x\n", what, i, got[i],
				want[i]);
			CU_FAIL(what);
			return;
		}
}

/* ---- each field on its own ---- */

/* Field all ones (from an over-wide value), the rest zero: exactly its bits, and back. */
static void check_field_alone(const struct rcase *rc, const struct fcase *fc)
{
	union host host, back;
	uint8_t got[MAX_REC], want[MAX_REC] = { 0 };
	char what[96];

	memset(&host, 0, sizeof(host));
	snprintf(what, sizeof(what), "%s.%s all ones", rc->name, fc->name);
	fc->set(&host, ~0ull);
	rc->enc(&host, got);
	for (unsigned int k = 0; k < fc->bits; k++)
		bit_set(want, fc->offs + k, !fc->wide_bool || k == fc->bits - 1);
	check_bytes(what, got, want, rc->len);
	CU_ASSERT_EQUAL_FATAL(rc->dec(want, rc->len, &back), 0);
	CU_ASSERT_EQUAL(fc->get(&back), field_max(fc));
	for (size_t j = 0; j < rc->nf; j++)
		if (&rc->f[j] != fc && rc->f[j].get(&back) != 0) {
			fprintf(stderr, "%s: %s reads %s's bits\n", rc->name, rc->f[j].name,
				fc->name);
			CU_FAIL("a field reads its neighbour's bits");
		}

	/* the complement: every other bit set, the field reads 0 */
	memset(want, 0xFF, sizeof(want));
	for (unsigned int k = 0; k < fc->bits; k++)
		bit_set(want, fc->offs + k, false);
	CU_ASSERT_EQUAL_FATAL(rc->dec(want, rc->len, &back), 0);
	if (fc->get(&back) != 0)
		fprintf(stderr, "%s.%s: reads its neighbours' bits\n", rc->name, fc->name);
	CU_ASSERT_EQUAL(fc->get(&back), 0);
}

static void test_fields_alone(void)
{
	for (size_t i = 0; i < NRECORDS; i++)
		for (size_t j = 0; j < records[i].nf; j++)
			check_field_alone(&records[i], &records[i].f[j]);
}

/* The fields do not overlap and stay inside the record. */
static void test_field_tables(void)
{
	for (size_t i = 0; i < NRECORDS; i++) {
		const struct rcase *rc = &records[i];
		uint8_t used[MAX_REC] = { 0 };

		CU_ASSERT_FATAL(rc->len <= MAX_REC && rc->size <= sizeof(union host));
		for (size_t j = 0; j < rc->nf; j++) {
			const struct fcase *fc = &rc->f[j];

			CU_ASSERT_FATAL(fc->offs + fc->bits <= 8 * rc->len);
			for (unsigned int k = 0; k < fc->bits; k++) {
				CU_ASSERT_FATAL(!bit_get(used, fc->offs + k));
				bit_set(used, fc->offs + k, true);
			}
		}
	}
}

/* ---- round trips ---- */

/* host -> wire -> host with random values of every field */
static void check_host_round_trip(const struct rcase *rc, unsigned long long *seed)
{
	union host a, b;
	uint8_t wire[MAX_REC], again[MAX_REC];

	memset(&a, 0, sizeof(a));
	for (size_t j = 0; j < rc->nf; j++)
		rc->f[j].set(&a, ibr_test_rand(seed) & field_max(&rc->f[j]));
	if (rc->text_len) {
		char *d = a.node.desc;

		for (size_t k = 0; k < rc->text_len; k++)
			d[k] = (char)(' ' + ibr_test_rand(seed) % 95);
		d[ibr_test_rand(seed) % (rc->text_len + 1)] = '\0';
	}
	rc->enc(&a, wire);
	CU_ASSERT_EQUAL_FATAL(rc->dec(wire, rc->len, &b), 0);
	for (size_t j = 0; j < rc->nf; j++)
		if (rc->f[j].get(&a) != rc->f[j].get(&b)) {
			fprintf(stderr, "%s.%s: %#llx came back as %#llx\n", rc->name,
				rc->f[j].name, (unsigned long long)rc->f[j].get(&a),
				(unsigned long long)rc->f[j].get(&b));
			CU_FAIL("host round trip");
		}
	if (rc->text_len)
		CU_ASSERT_STRING_EQUAL(a.node.desc, b.node.desc);
	rc->enc(&b, again);
	CU_ASSERT(memcmp(wire, again, rc->len) == 0);
}

/*
 * wire -> host -> wire with random bytes: every field's bits come back, reserved
 * bits come back zero, and each field decodes to the value of its bits.
 */
static void check_wire_round_trip(const struct rcase *rc, unsigned long long *seed)
{
	uint8_t r[MAX_REC], got[MAX_REC], want[MAX_REC] = { 0 };
	union host host;

	fill_random(r, rc->len, seed);
	for (size_t k = 0; k < rc->text_len; k++) /* printable text, maybe NUL-terminated early */
		r[rc->text_offs + k] = (uint8_t)(' ' + ibr_test_rand(seed) % 95);
	if (rc->text_len && ibr_test_rand(seed) % 2) {
		size_t end = ibr_test_rand(seed) % rc->text_len;

		memset(r + rc->text_offs + end, 0, rc->text_len - end);
	}
	memcpy(want + rc->text_offs, r + rc->text_offs, rc->text_len);
	CU_ASSERT_EQUAL_FATAL(rc->dec(r, rc->len, &host), 0);
	for (size_t j = 0; j < rc->nf; j++) {
		const struct fcase *fc = &rc->f[j];

		if (fc->wide_bool) {
			bit_set(want, fc->offs + fc->bits - 1, bits_value(r, fc->offs, fc->bits));
		} else {
			for (unsigned int k = 0; k < fc->bits; k++)
				bit_set(want, fc->offs + k, bit_get(r, fc->offs + k));
		}
		if (fc->bits <= 64 &&
		    fc->get(&host) != field_canon(fc, bits_value(r, fc->offs, fc->bits))) {
			fprintf(stderr, "%s.%s: decoded %#llx, bits say %#llx\n", rc->name,
				fc->name, (unsigned long long)fc->get(&host),
				(unsigned long long)bits_value(r, fc->offs, fc->bits));
			CU_FAIL("decoded value");
		}
	}
	rc->enc(&host, got);
	check_bytes(rc->name, got, want, rc->len);
}

static void test_round_trips(void)
{
	unsigned long long seed = 0x5A5A0001;

	for (int n = 0; n < ROUNDS; n++)
		for (size_t i = 0; i < NRECORDS; i++) {
			check_host_round_trip(&records[i], &seed);
			check_wire_round_trip(&records[i], &seed);
		}
}

/* ---- lengths ---- */

/* Shorter than the layout: -EMSGSIZE, output untouched; exactly the layout in a
 * buffer of exactly that size (ASan sees an overread in the sanitizer build). */
static void test_short_lengths(void)
{
	for (size_t i = 0; i < NRECORDS; i++) {
		const struct rcase *rc = &records[i];
		uint8_t *buf = malloc(rc->len);
		union host out, sentinel;

		CU_ASSERT_FATAL(buf != NULL);
		memset(buf, 0x5C, rc->len);
		memset(&out, 0xA5, sizeof(out));
		memcpy(&sentinel, &out, sizeof(out));
		for (size_t len = 0; len < rc->len; len++) {
			CU_ASSERT_EQUAL(rc->dec(buf + rc->len - len, len, &out), -EMSGSIZE);
			CU_ASSERT(memcmp(&out, &sentinel, sizeof(out)) == 0);
		}
		CU_ASSERT_EQUAL(rc->dec(NULL, 0, &out), -EMSGSIZE);
		CU_ASSERT_EQUAL(rc->dec(NULL, rc->len - 1, &out), -EMSGSIZE);
		CU_ASSERT_EQUAL(rc->dec(buf, rc->len, &out), 0);
		/* longer is fine (a record in a table) */
		free(buf);
		buf = calloc(1, rc->len + 40);
		CU_ASSERT_FATAL(buf != NULL);
		CU_ASSERT_EQUAL(rc->dec(buf, rc->len + 40, &out), 0);
		free(buf);
	}
	/* the PortInfo alone: 64 bytes */
	uint8_t *pi = calloc(1, 64);
	struct ibr_sa_portinfo_rec p;

	CU_ASSERT_FATAL(pi != NULL);
	CU_ASSERT_EQUAL(ibr_sa_portinfo_decode(pi, 63, &p), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_portinfo_decode(NULL, 0, &p), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_portinfo_decode(pi, 64, &p), 0);
	free(pi);
}

static void test_sizes_vs_libibmad(void)
{
	CU_ASSERT_EQUAL(IBR_SA_NODE_REC_LEN, IB_SA_NR_RECSZ);
	CU_ASSERT_EQUAL(IBR_SA_GUIDINFO_REC_LEN, IB_SA_GIR_RECSZ);
	/* libibmad says 53 for the MCMemberRecord; the IBA's layout ends at byte 52. */
	CU_ASSERT_EQUAL(IBR_SA_MCM_REC_LEN, 52);
	CU_ASSERT_EQUAL(IBR_SA_PORTINFO_REC_LEN, 8 + 64);
	CU_ASSERT_EQUAL(IBR_SA_INFORMINFO_LEN, 36);
	CU_ASSERT_EQUAL(IBR_SA_NOTICE_LEN, 80);
	CU_ASSERT_EQUAL(IBR_SA_CLASSPORTINFO_LEN, 72);
}

/* ---- golden records, laid out by hand from the IBA tables ---- */

static const uint8_t gid_a[16] = { 0xFE, 0x80, 0,    0,	   0,	 0,    0,    0,
				   0x00, 0x02, 0xC9, 0x03, 0x00, 0x0A, 0x0B, 0x0C };
static const uint8_t mgid_a[16] = { 0xFF, 0x12, 0x40, 0x1B, 0xFF, 0xFF, 0,    0,
				    0,	  0,	0,    0,    0xFF, 0xFF, 0xFF, 0xFF };

static void test_golden_node_rec(void)
{
	static const uint8_t golden[IBR_SA_NODE_REC_LEN] = {
		[0] = 0x00,  0x2A,	       /* LID 0x2A, then 2 reserved */
		[4] = 0x01,  0x01, 0x03, 0x02, /* Base 1, Class 1, router, 2 ports */
		[8] = 0x00,  0x02, 0xC9, 0x03, 0x00, 0x11, 0x22, 0x33, /* SystemImageGUID */
		[16] = 0x00, 0x02, 0xC9, 0x03, 0x00, 0x11, 0x22, 0x34, /* NodeGUID */
		[24] = 0x00, 0x02, 0xC9, 0x03, 0x00, 0x11, 0x22, 0x35, /* PortGUID */
		[32] = 0x00, 0x40,				       /* PartitionCap 64 */
		[34] = 0xCF, 0x09,				       /* DeviceID */
		[36] = 0x00, 0x00, 0x00, 0xA0,			       /* Revision */
		[40] = 0x01,					       /* LocalPortNum */
		[41] = 0x00, 0x02, 0xC9,			       /* VendorID */
		[44] = 'i',  'b',  'r',	 'o',  'u',  't',  'e',	 'r',  ' ', 'r', '1',
	};
	struct ibr_sa_node_rec want = {
		.lid = 0x2A,
		.base_version = 1,
		.class_version = 1,
		.node_type = 3,
		.nports = 2,
		.system_guid = 0x0002C90300112233ull,
		.node_guid = 0x0002C90300112234ull,
		.port_guid = 0x0002C90300112235ull,
		.partition_cap = 64,
		.device_id = 0xCF09,
		.revision = 0xA0,
		.local_port = 1,
		.vendor_id = 0x0002C9,
		.desc = "ibrouter r1",
	};
	struct ibr_sa_node_rec got;
	uint8_t enc[IBR_SA_NODE_REC_LEN];

	ibr_sa_node_rec_encode(&want, enc);
	check_bytes("NodeRecord golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(node_fields) / sizeof(node_fields[0]); j++)
		CU_ASSERT_EQUAL(node_fields[j].get(&got), node_fields[j].get(&want));
	CU_ASSERT_STRING_EQUAL(got.desc, "ibrouter r1");
}

static void test_golden_mcm_rec(void)
{
	uint8_t golden[IBR_SA_MCM_REC_LEN] = {
		[32] = 0x00, 0x00, 0x00, 0x0B, /* Q_Key */
		[36] = 0xC0, 0x01,	       /* MLID */
		[38] = 0x84,		       /* MTUSelector 2 (exactly), MTU 4 (2048) */
		[39] = 0x00,		       /* TClass */
		[40] = 0xFF, 0xFF,	       /* P_Key */
		[42] = 0x83,		       /* RateSelector 2, Rate 3 (10 Gb/s) */
		[43] = 0x52,		       /* PacketLifeTimeSelector 1, PacketLifeTime 0x12 */
		[44] = 0x31, 0x23, 0x45,       /* SL 3, FlowLabel 0x12345 */
		[47] = 0x40,		       /* HopLimit 64 */
		[48] = 0x21,		       /* Scope 2 (link-local), JoinState full member */
		[49] = 0x80,		       /* ProxyJoin */
	};
	struct ibr_sa_mcm_rec want = {
		.qkey = 0x0B,
		.mlid = 0xC001,
		.mtu_sel = 2,
		.mtu = 4,
		.tclass = 0,
		.pkey = 0xFFFF,
		.rate_sel = 2,
		.rate = 3,
		.life_sel = 1,
		.life = 0x12,
		.sl = 3,
		.flowlabel = 0x12345,
		.hoplimit = 64,
		.scope = 2,
		.join_state = IBR_SA_JOIN_FULL,
		.proxy_join = true,
	};
	struct ibr_sa_mcm_rec got;
	uint8_t enc[IBR_SA_MCM_REC_LEN];

	memcpy(golden + 0, mgid_a, 16);
	memcpy(golden + 16, gid_a, 16);
	memcpy(want.mgid, mgid_a, 16);
	memcpy(want.port_gid, gid_a, 16);
	ibr_sa_mcm_rec_encode(&want, enc);
	check_bytes("MCMemberRecord golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_mcm_rec_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(mcm_fields) / sizeof(mcm_fields[0]); j++)
		CU_ASSERT_EQUAL(mcm_fields[j].get(&got), mcm_fields[j].get(&want));
	CU_ASSERT(memcmp(got.mgid, mgid_a, 16) == 0);
	CU_ASSERT(memcmp(got.port_gid, gid_a, 16) == 0);
}

static void test_golden_informinfo(void)
{
	uint8_t golden[IBR_SA_INFORMINFO_LEN] = {
		[16] = 0xFF, 0xFF,	       /* LIDRangeBegin: all */
		[18] = 0x00, 0x00,	       /* LIDRangeEnd */
		[22] = 0x01,		       /* IsGeneric */
		[23] = 0x01,		       /* Subscribe */
		[24] = 0xFF, 0xFF,	       /* Type: all */
		[26] = 0x00, 0x42,	       /* TrapNumber 66 */
		[28] = 0x00, 0x00, 0x01,       /* QPN 1 */
		[31] = 0x13,		       /* 3 reserved bits, RespTimeValue 19 */
		[32] = 0x00, 0x00, 0x00, 0x04, /* reserved, ProducerType 4 (class manager) */
	};
	struct ibr_sa_informinfo want = {
		.lid_begin = 0xFFFF,
		.lid_end = 0,
		.is_generic = true,
		.subscribe = true,
		.type = 0xFFFF,
		.trap_num = IBR_TRAP_MCG_CREATED,
		.qpn = 1,
		.resp_time = 19,
		.producer = 4,
	};
	struct ibr_sa_informinfo got;
	uint8_t enc[IBR_SA_INFORMINFO_LEN];

	memcpy(golden, gid_a, 16);
	memcpy(want.gid, gid_a, 16);
	ibr_sa_informinfo_encode(&want, enc);
	check_bytes("InformInfo golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_informinfo_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(ii_fields) / sizeof(ii_fields[0]); j++)
		CU_ASSERT_EQUAL(ii_fields[j].get(&got), ii_fields[j].get(&want));
	CU_ASSERT(memcmp(got.gid, gid_a, 16) == 0);

	/* IsGeneric and Subscribe are bytes: any non-zero value is true */
	golden[22] = 0x80;
	golden[23] = 0x00;
	CU_ASSERT_EQUAL_FATAL(ibr_sa_informinfo_decode(golden, sizeof(golden), &got), 0);
	CU_ASSERT_TRUE(got.is_generic);
	CU_ASSERT_FALSE(got.subscribe);
	/* QPN's and RespTimeValue's neighbours: reserved bits set do not leak in */
	golden[31] = 0xFF;
	golden[32] = 0xFF;
	CU_ASSERT_EQUAL_FATAL(ibr_sa_informinfo_decode(golden, sizeof(golden), &got), 0);
	CU_ASSERT_EQUAL(got.resp_time, 0x1F);
	CU_ASSERT_EQUAL(got.qpn, 1);
	CU_ASSERT_EQUAL(got.producer, 4);
}

static void test_golden_notice(void)
{
	uint8_t golden[IBR_SA_NOTICE_LEN] = {
		[0] = 0x81,			 /* IsGeneric, Type 1 (urgent) */
		[1] = 0x00, 0x00, 0x04,		 /* ProducerType 4: class manager */
		[4] = 0x00, 0x40,		 /* TrapNumber 64: GID in service */
		[6] = 0x00, 0x01,		 /* IssuerLID 1 */
		[8] = 0x80, 0x05,		 /* NoticeToggle, NoticeCount 5 */
		[10] = 0,   0,	  0,	0, 0, 0, /* DataDetails: 6 reserved bytes, GIDADDR at 16 */
	};
	struct ibr_sa_notice want = {
		.is_generic = true,
		.type = 1,
		.producer = 4,
		.trap_num = IBR_TRAP_GID_IN_SERVICE,
		.issuer_lid = 1,
		.toggle = true,
		.count = 5,
	};
	struct ibr_sa_notice got;
	uint8_t enc[IBR_SA_NOTICE_LEN];

	memcpy(golden + 16, gid_a, 16);
	golden[63] = 0xEE;		 /* last byte of DataDetails */
	memcpy(golden + 64, mgid_a, 16); /* IssuerGID (any GID will do) */
	memcpy(want.details + 6, gid_a, 16);
	want.details[53] = 0xEE;
	memcpy(want.issuer_gid, mgid_a, 16);
	ibr_sa_notice_encode(&want, enc);
	check_bytes("Notice golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_notice_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(notice_fields) / sizeof(notice_fields[0]); j++)
		CU_ASSERT_EQUAL(notice_fields[j].get(&got), notice_fields[j].get(&want));
	CU_ASSERT(memcmp(got.details, want.details, sizeof(got.details)) == 0);
	CU_ASSERT(memcmp(got.issuer_gid, mgid_a, 16) == 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_sa_notice_gid(&got));
	CU_ASSERT(ibr_sa_notice_gid(&got) == got.details + 6);
	CU_ASSERT(memcmp(ibr_sa_notice_gid(&got), gid_a, 16) == 0);
}

static void test_golden_portinfo_rec(void)
{
	/* PortInfoRecord: EndportLID 0x10, port 1, Options, then PortInfo at byte 4 */
	uint8_t pir[IBR_SA_PORTINFO_REC_LEN] = {
		[0] = 0x00,	 0x10, 0x01, 0x00, /* EndportLID, PortNum, Options */
		[4 + 8] = 0xFE,	 0x80,		   /* GidPrefix fe80:: */
		[4 + 16] = 0x00, 0x10,		   /* LID */
		[4 + 18] = 0x00, 0x01,		   /* MasterSMLID */
		[4 + 20] = 0x02, 0x51, 0x08, 0x48, /* CapabilityMask */
		[4 + 31] = 0x02,		   /* LinkWidthActive 4x */
		[4 + 32] = 0x24,		   /* LinkSpeedSupported 2, PortState 4 active */
		[4 + 33] = 0x52,		   /* PortPhysicalState 5, LinkDownDefault 2 */
		[4 + 34] = 0x02,		   /* M_KeyProtectBits 0, LMC 2 */
		[4 + 35] = 0x11,		   /* LinkSpeedActive 1, LinkSpeedEnabled 1 */
		[4 + 36] = 0x50,		   /* NeighborMTU 5 (4096), MasterSMSL 0 */
		[4 + 41] = 0x04,		   /* InitTypeReply 0, MTUCap 4 */
	};
	struct ibr_sa_portinfo_rec p, q;

	CU_ASSERT_EQUAL_FATAL(ibr_sa_portinfo_rec_decode(pir, sizeof(pir), &p), 0);
	CU_ASSERT_EQUAL(p.lid, 0x10);
	CU_ASSERT_EQUAL(p.port_num, 1);
	CU_ASSERT_EQUAL(p.gid_prefix, 0xFE80000000000000ull);
	CU_ASSERT_EQUAL(p.base_lid, 0x10);
	CU_ASSERT_EQUAL(p.sm_lid, 1);
	CU_ASSERT_EQUAL(p.cap_mask, 0x02510848);
	CU_ASSERT_EQUAL(p.link_width_active, 2);
	CU_ASSERT_EQUAL(p.state, 4);
	CU_ASSERT_EQUAL(p.phys_state, 5);
	CU_ASSERT_EQUAL(p.lmc, 2);
	CU_ASSERT_EQUAL(p.link_speed_active, 1);
	CU_ASSERT_EQUAL(p.neighbor_mtu, 5);
	CU_ASSERT_EQUAL(p.mtu_cap, 4);
	/* the PortInfo alone decodes the same, without the record's key */
	CU_ASSERT_EQUAL_FATAL(ibr_sa_portinfo_decode(pir + 4, 64, &q), 0);
	CU_ASSERT_EQUAL(q.lid, 0);
	CU_ASSERT_EQUAL(q.port_num, 0);
	q.lid = p.lid;
	q.port_num = p.port_num;
	for (size_t j = 0; j < sizeof(pir_fields) / sizeof(pir_fields[0]); j++)
		CU_ASSERT_EQUAL(pir_fields[j].get(&q), pir_fields[j].get(&p));
}

static void test_golden_guidinfo_cpi(void)
{
	uint8_t gir[IBR_SA_GUIDINFO_REC_LEN] = { [0] = 0x00, 0x07, 0x02 }; /* LID 7, block 2 */
	struct ibr_sa_guidinfo_rec g;
	uint8_t cpi[IBR_SA_CLASSPORTINFO_LEN] = {
		[0] = 0x01,  0x02, 0x26, 0x02, /* versions, CapabilityMask */
		[4] = 0x00,  0x00, 0x00, 0x33, /* CapabilityMask2 1, RespTimeValue 19 */
		[28] = 0x00, 0x05, 0xFF, 0xFF, /* RedirectLID, RedirectP_Key */
		[32] = 0x00, 0x00, 0x00, 0x01, /* reserved, RedirectQP 1 */
		[36] = 0x80, 0x01, 0x00, 0x00, /* RedirectQ_Key */
		[60] = 0x00, 0x09,	       /* TrapLID */
	};
	struct ibr_sa_classportinfo c;

	gir[8 + 7] = 0x01;				    /* GUID0 = 1 */
	memset(gir + IBR_SA_GUIDINFO_REC_LEN - 8, 0xAB, 8); /* GUID7 */
	CU_ASSERT_EQUAL_FATAL(ibr_sa_guidinfo_rec_decode(gir, sizeof(gir), &g), 0);
	CU_ASSERT_EQUAL(g.lid, 7);
	CU_ASSERT_EQUAL(g.block, 2);
	CU_ASSERT_EQUAL(g.guid[0], 1);
	CU_ASSERT_EQUAL(g.guid[1], 0);
	CU_ASSERT_EQUAL(g.guid[7], 0xABABABABABABABABull);

	memcpy(cpi + 8, gid_a, 16);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_classportinfo_decode(cpi, sizeof(cpi), &c), 0);
	CU_ASSERT_EQUAL(c.base_version, 1);
	CU_ASSERT_EQUAL(c.class_version, 2);
	CU_ASSERT_EQUAL(c.cap_mask, 0x2602);
	CU_ASSERT_EQUAL(c.cap_mask2, 1);
	CU_ASSERT_EQUAL(c.resp_time, 19);
	CU_ASSERT(memcmp(c.redirect_gid, gid_a, 16) == 0);
	CU_ASSERT_EQUAL(c.redirect_lid, 5);
	CU_ASSERT_EQUAL(c.redirect_pkey, 0xFFFF);
	CU_ASSERT_EQUAL(c.redirect_qp, 1);
	CU_ASSERT_EQUAL(c.redirect_qkey, 0x80010000);
	CU_ASSERT_EQUAL(c.trap_lid, 9);
}

/* ---- NodeDescription text ---- */

static void test_node_desc(void)
{
	uint8_t rec[IBR_SA_NODE_REC_LEN] = { 0 };
	uint8_t *d = rec + NODE_DESC_OFFS;
	struct ibr_sa_node_rec n;
	char full[65];

	/* 64 bytes without a NUL: all kept, terminated */
	for (int i = 0; i < 64; i++)
		full[i] = (char)('A' + i % 26);
	full[64] = '\0';
	memcpy(d, full, 64);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, sizeof(rec), &n), 0);
	CU_ASSERT_EQUAL(strlen(n.desc), 64);
	CU_ASSERT_STRING_EQUAL(n.desc, full);
	/* non-printable bytes become '?'; the text ends at the first NUL */
	memset(d, 0, 64);
	static const uint8_t odd[] = { 's', 'w', 0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, ' ',
				       'x', 0,	 'h',  'i',  'd',  'd',	 'e',  'n' };

	memcpy(d, odd, sizeof(odd));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, sizeof(rec), &n), 0);
	CU_ASSERT_STRING_EQUAL(n.desc, "sw?????? x");
	for (size_t i = strlen(n.desc); i < sizeof(n.desc); i++)
		CU_ASSERT_EQUAL(n.desc[i], 0);
	/* empty */
	memset(d, 0, 64);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, sizeof(rec), &n), 0);
	CU_ASSERT_STRING_EQUAL(n.desc, "");
	/* encode: NUL-padded to 64 bytes; a full 64-character text has no NUL */
	memset(&n, 0, sizeof(n));
	strcpy(n.desc, "r1");
	memset(rec, 0xEE, sizeof(rec));
	ibr_sa_node_rec_encode(&n, rec);
	CU_ASSERT(memcmp(d, "r1\0\0", 4) == 0);
	for (int i = 2; i < 64; i++)
		CU_ASSERT_EQUAL(d[i], 0);
	memcpy(n.desc, full, sizeof(full));
	ibr_sa_node_rec_encode(&n, rec);
	CU_ASSERT(memcmp(d, full, 64) == 0);
	/* a desc missing its terminator is cut at 64 bytes */
	memset(n.desc, 'z', sizeof(n.desc));
	ibr_sa_node_rec_encode(&n, rec);
	for (int i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(d[i], 'z');
}

/* ---- Notice GID ---- */

static void test_notice_gid(void)
{
	struct ibr_sa_notice n = { .is_generic = true };

	for (unsigned int t = 0; t < 200; t++) {
		n.trap_num = (uint16_t)t;
		const uint8_t *want = t >= 64 && t <= 67 ? n.details + 6 : NULL;

		CU_ASSERT(ibr_sa_notice_gid(&n) == want);
	}
	n.trap_num = 64;
	n.is_generic = false; /* vendor notice: DeviceID 64 */
	CU_ASSERT_PTR_NULL(ibr_sa_notice_gid(&n));
}

/* ---- tables ---- */

static void sa_msg(uint8_t *m, size_t len, uint16_t attr_offset)
{
	memset(m, 0, len);
	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE_RESP, IBR_SA_ATTR_NODE_RECORD, 0, 0, 1);
	ibr_sa_set_attr_offset(m, attr_offset);
}

static void test_table_count(void)
{
	static uint8_t m[4096];
	const size_t nr = IBR_SA_NODE_REC_LEN, stride = 14 * 8; /* 108 -> 112 */

	/* shorter than the SA header */
	sa_msg(m, sizeof(m), 14);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 55, nr), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 0, nr), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_table_count(NULL, 256, nr), -EMSGSIZE);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 55, 0));
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(NULL, 256, 0));
	/* header only: no records */
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56, nr), 0);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56, 0));
	/* whole records only */
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + stride - 1, nr), 0);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + stride, nr), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 3 * stride, nr), 3);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 3 * stride - 1, nr), 2);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 3 * stride + nr, nr), 3);
	CU_ASSERT(ibr_sa_table_rec(m, 56 + 3 * stride, 2) == m + 56 + 2 * stride);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56 + 3 * stride, 3));
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56 + 3 * stride - 1, 2));
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56 + 3 * stride, UINT_MAX));
	/* a single 256-byte MAD: (256 - 56) / 112 = 1 */
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, nr), 1);
	/* AttributeOffset smaller than the record */
	sa_msg(m, sizeof(m), 13);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, nr), -EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 4 * 104, nr), -EINVAL);
	/* AttributeOffset larger than the record: it is the stride */
	sa_msg(m, sizeof(m), 16);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 2 * 128, nr), 2);
	CU_ASSERT(ibr_sa_table_rec(m, 56 + 2 * 128, 1) == m + 56 + 128);
	/* MCMemberRecords in a single MAD: 200 / 56 */
	sa_msg(m, sizeof(m), 7);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, IBR_SA_MCM_REC_LEN), 3);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, 57), -EINVAL);
	/* AttributeOffset 0: a Get response, one record in a single MAD */
	sa_msg(m, sizeof(m), 0);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, nr), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, IBR_SA_DATA_SIZE), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, IBR_SA_DATA_SIZE + 1), 0);
	CU_ASSERT(ibr_sa_table_rec(m, 256, 0) == m + 56);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 256, 1));
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 255, nr), -EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 257, nr), -EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 2 * stride, nr), -EINVAL);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 300, 0));
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56, nr), 0);
	/* the largest AttributeOffset */
	sa_msg(m, sizeof(m), 0xFFFF);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, sizeof(m), nr), 0);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, sizeof(m), 0));
	/* a count past INT_MAX is capped (only the header is read) */
	sa_msg(m, sizeof(m), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, SIZE_MAX, 8), INT_MAX);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, SIZE_MAX, 9), -EINVAL);
}

/* A reassembled GetTable response of NodeRecords, walked and decoded. */
static void test_table_walk(void)
{
	const size_t stride = 14 * 8, n = 9, len = 56 + n * stride;
	uint8_t *m = calloc(1, len);
	struct ibr_sa_node_rec r = { .node_type = 1, .nports = 1 };
	int count;

	CU_ASSERT_FATAL(m != NULL);
	sa_msg(m, len, 14);
	for (size_t i = 0; i < n; i++) {
		r.lid = (uint16_t)(0x100 + i);
		r.port_guid = 0x1000 + i;
		snprintf(r.desc, sizeof(r.desc), "host%zu", i);
		ibr_sa_node_rec_encode(&r, m + 56 + i * stride);
	}
	count = ibr_sa_table_count(m, len, IBR_SA_NODE_REC_LEN);
	CU_ASSERT_EQUAL_FATAL(count, (int)n);
	for (int i = 0; i < count; i++) {
		const uint8_t *rec = ibr_sa_table_rec(m, len, (unsigned int)i);
		char want[16];

		CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
		CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, (size_t)(m + len - rec), &r), 0);
		CU_ASSERT_EQUAL(r.lid, 0x100 + i);
		CU_ASSERT_EQUAL(r.port_guid, 0x1000ull + (unsigned int)i);
		snprintf(want, sizeof(want), "host%d", i);
		CU_ASSERT_STRING_EQUAL(r.desc, want);
	}
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, len, (unsigned int)count));
	free(m);
}

static CU_TestInfo tests[] = {
	{ "field tables are disjoint", test_field_tables },
	{ "each field alone", test_fields_alone },
	{ "round trips (host and wire)", test_round_trips },
	{ "short lengths", test_short_lengths },
	{ "sizes vs libibmad", test_sizes_vs_libibmad },
	{ "golden NodeRecord", test_golden_node_rec },
	{ "golden MCMemberRecord", test_golden_mcm_rec },
	{ "golden InformInfo", test_golden_informinfo },
	{ "golden Notice", test_golden_notice },
	{ "golden PortInfoRecord", test_golden_portinfo_rec },
	{ "golden GUIDInfoRecord, ClassPortInfo", test_golden_guidinfo_cpi },
	{ "NodeDescription text", test_node_desc },
	{ "Notice GID", test_notice_gid },
	{ "table count", test_table_count },
	{ "table walk", test_table_walk },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_sa", tests);
}
