/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_sa_layout.c - the SA records as the IBA lays them out, by hand (ibr_sa_layout.h). */
#include "tests/unit/lib/ibr_sa_layout.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>

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

#define F(st, m, o, n)                                                                         \
	{                                                                                      \
		.name = #m, .set = set_##st##_##m, .get = get_##st##_##m, .offs = o, .bits = n \
	}
#define FB(st, m, o, n)                                                                         \
	{                                                                                       \
		.name = #m, .set = set_##st##_##m, .get = get_##st##_##m, .offs = o, .bits = n, \
		.wide_bool = true                                                               \
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
const struct fcase node_fields[] = {
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
const struct fcase pir_fields[] = {
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
const struct fcase mcm_fields[] = {
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
const struct fcase ii_fields[] = {
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
const struct fcase notice_fields[] = {
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
const struct fcase sr_fields[] = {
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
const struct rcase records[] = {
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

void check_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (got[i] != want[i]) {
			fprintf(stderr, "%s: byte %zu is %#04x, want %#04x\n", what, i, got[i],
				want[i]);
			CU_FAIL(what);
			return;
		}
}

const uint8_t gid_a[16] = { 0xFE, 0x80, 0,    0,    0,	  0,	0,    0,
			    0x00, 0x02, 0xC9, 0x03, 0x00, 0x0A, 0x0B, 0x0C };
