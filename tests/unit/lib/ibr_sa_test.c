/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa_test.c - SA record, Notice, InformInfo and ClassPortInfo codecs
 * (lib/ibr_sa.c).  The bit offsets below are the IBA's (vol. 1 15.2.5,
 * 13.4.8, 14.2.5.6; the ServiceRecord's, 15.2.5.14, as OpenSM's
 * ib_service_record_t lays them out), written out by hand, not taken from libibmad or from
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
/* Element i of array m, as an integer. */
#define ACC_ELEM(st, m, i)                                    \
	static void set_##st##_##m##_##i(void *p, uint64_t v) \
	{                                                     \
		struct ibr_sa_##st *s = p;                    \
		s->m[i] = (__typeof__(s->m[i]))v;             \
	}                                                     \
	static uint64_t get_##st##_##m##_##i(const void *p)   \
	{                                                     \
		const struct ibr_sa_##st *s = p;              \
		return s->m[i];                               \
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

/*
 * ServiceRecord, 15.2.5.14: ServiceID, ServiceGID, ServiceP_Key, 2 reserved
 * bytes, ServiceLease at 28, ServiceKey at 32, ServiceName at 48 (the text
 * tests), ServiceData8 at 112, ServiceData16 at 128, ServiceData32 at 144,
 * ServiceData64 at 160, 176 bytes in all.
 */
#define SR_NAME_OFFS 48
ACC(service_rec, id)
ACC_ARR(service_rec, gid)
ACC(service_rec, pkey)
ACC(service_rec, lease)
ACC_ARR(service_rec, key)
ACC_ARR(service_rec, data8)
ACC_ELEM(service_rec, data16, 0)
ACC_ELEM(service_rec, data16, 1)
ACC_ELEM(service_rec, data16, 2)
ACC_ELEM(service_rec, data16, 3)
ACC_ELEM(service_rec, data16, 4)
ACC_ELEM(service_rec, data16, 5)
ACC_ELEM(service_rec, data16, 6)
ACC_ELEM(service_rec, data16, 7)
ACC_ELEM(service_rec, data32, 0)
ACC_ELEM(service_rec, data32, 1)
ACC_ELEM(service_rec, data32, 2)
ACC_ELEM(service_rec, data32, 3)
ACC_ELEM(service_rec, data64, 0)
ACC_ELEM(service_rec, data64, 1)
static const struct fcase sr_fields[] = {
	F(service_rec, id, 0, 64),
	F(service_rec, gid, 8 * 8, 128),
	F(service_rec, pkey, 24 * 8, 16),
	F(service_rec, lease, 28 * 8, 32),
	F(service_rec, key, 32 * 8, 128),
	F(service_rec, data8, 112 * 8, 128),
	F(service_rec, data16_0, 128 * 8, 16),
	F(service_rec, data16_1, 130 * 8, 16),
	F(service_rec, data16_2, 132 * 8, 16),
	F(service_rec, data16_3, 134 * 8, 16),
	F(service_rec, data16_4, 136 * 8, 16),
	F(service_rec, data16_5, 138 * 8, 16),
	F(service_rec, data16_6, 140 * 8, 16),
	F(service_rec, data16_7, 142 * 8, 16),
	F(service_rec, data32_0, 144 * 8, 32),
	F(service_rec, data32_1, 148 * 8, 32),
	F(service_rec, data32_2, 152 * 8, 32),
	F(service_rec, data32_3, 156 * 8, 32),
	F(service_rec, data64_0, 160 * 8, 64),
	F(service_rec, data64_1, 168 * 8, 64),
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
CODEC(service_rec, ibr_sa_service_rec_decode, ibr_sa_service_rec_encode)

struct rcase {
	const char *name;
	size_t len, size; /* record on the wire, host struct */
	int (*dec)(const uint8_t *rec, size_t len, void *out);
	void (*enc)(const void *in, uint8_t *rec);
	const struct fcase *f;
	size_t nf;
	/* a NodeDescription or ServiceName, handled apart: wire offset and length */
	size_t text_offs, text_len;
	size_t text_host; /* offsetof() of its char array in the host struct */
	bool text_nul;	  /* the wire text must hold a NUL (ServiceName) */
};

#define R(st, name, len, fields)                                                   \
	{                                                                          \
		name, len, sizeof(struct ibr_sa_##st), dec_##st, enc_##st, fields, \
			sizeof(fields) / sizeof(fields[0]), 0, 0, 0, false         \
	}
#define RT(st, name, len, fields, toffs, tlen, member, nul)                        \
	{                                                                          \
		name, len, sizeof(struct ibr_sa_##st), dec_##st, enc_##st, fields, \
			sizeof(fields) / sizeof(fields[0]), toffs, tlen,           \
			offsetof(struct ibr_sa_##st, member), nul                  \
	}
static const struct rcase records[] = {
	RT(node_rec, "NodeRecord", IBR_SA_NODE_REC_LEN, node_fields, NODE_DESC_OFFS, 64, desc,
	   false),
	R(portinfo_rec, "PortInfoRecord", IBR_SA_PORTINFO_REC_LEN, pir_fields),
	R(mcm_rec, "MCMemberRecord", IBR_SA_MCM_REC_LEN, mcm_fields),
	R(guidinfo_rec, "GUIDInfoRecord", IBR_SA_GUIDINFO_REC_LEN, gir_fields),
	R(informinfo, "InformInfo", IBR_SA_INFORMINFO_LEN, ii_fields),
	R(notice, "Notice", IBR_SA_NOTICE_LEN, notice_fields),
	R(classportinfo, "ClassPortInfo", IBR_SA_CLASSPORTINFO_LEN, cpi_fields),
	RT(service_rec, "ServiceRecord", IBR_SA_SERVICE_REC_LEN, sr_fields, SR_NAME_OFFS, 64, name,
	   true),
};
#define NRECORDS (sizeof(records) / sizeof(records[0]))

#define MAX_REC 256

/* Room for any of the structs, aligned for them. */
union host {
	struct ibr_sa_node_rec node;
	struct ibr_sa_portinfo_rec pir;
	struct ibr_sa_mcm_rec mcm;
	struct ibr_sa_guidinfo_rec gir;
	struct ibr_sa_informinfo ii;
	struct ibr_sa_notice notice;
	struct ibr_sa_classportinfo cpi;
	struct ibr_sa_service_rec sr;
	uint8_t bytes[1];
};

/* The record's text in the host struct. */
static char *host_text(const struct rcase *rc, union host *h)
{
	return (char *)h + rc->text_host;
}

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
	if (rc->text_nul) /* a ServiceName of 63 0xFF bytes */
		want[rc->text_offs + rc->text_len - 1] = 0;
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
		CU_ASSERT_FATAL(rc->text_offs + rc->text_len <= rc->len);
		for (size_t k = 8 * rc->text_offs; k < 8 * (rc->text_offs + rc->text_len); k++)
			CU_ASSERT_FATAL(!bit_get(used, (unsigned int)k));
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
		/* a NodeDescription may fill its 64 bytes, a ServiceName 63 and its NUL */
		size_t nchars = rc->text_nul ? rc->text_len - 1 : rc->text_len;
		char *d = host_text(rc, &a);

		for (size_t k = 0; k < nchars; k++)
			d[k] = (char)(' ' + ibr_test_rand(seed) % 95);
		d[ibr_test_rand(seed) % (nchars + 1)] = '\0';
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
		CU_ASSERT_STRING_EQUAL(host_text(rc, &a), host_text(rc, &b));
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
	if (rc->text_len && (rc->text_nul || ibr_test_rand(seed) % 2)) {
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
		if (rc->text_nul)
			buf[rc->text_offs + rc->text_len - 1] = 0;
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
	/* 15.2.5.14; sizeof(ib_service_record_t) in OpenSM; AttributeOffset 22 */
	CU_ASSERT_EQUAL(IBR_SA_SERVICE_REC_LEN, 176);
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
	{ "golden ServiceRecord", test_golden_service_rec },
	{ "ServiceRecord ComponentMask", test_service_rec_comp_mask },
	{ "NodeDescription text", test_node_desc },
	{ "ServiceName text", test_service_name },
	{ "Notice GID", test_notice_gid },
	{ "table count", test_table_count },
	{ "table walk", test_table_walk },
	{ "ServiceRecord request", test_service_rec_build },
	{ "ServiceRecord table", test_service_rec_table },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_sa", tests);
}
