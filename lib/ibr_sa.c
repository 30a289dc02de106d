/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa.c - SA records (IBA vol. 1 15.2.5), Notice and InformInfo (13.4.8)
 * and ClassPortInfo (13.4.8.1) to and from host-order structs.
 *
 * Each layout is a table of fields.  A field is libibmad's (mad_get_field()
 * and friends with IB_*_F; its bit offsets are relative to the record's first
 * byte, PortInfo's to the PortInfo) where libibmad defines it, and otherwise
 * hand-written as an IBA bit offset (bit 0 is the MSB of byte 0) and width:
 * InformInfo, the PortInfoRecord header, the MCMemberRecord selectors,
 * PacketLifeTime, HopLimit and Scope, the Notice's IssuerGID and the
 * ServiceRecord's ServiceData elements (libibmad has one 64-byte blob).
 *
 * libibmad addresses fields shorter than a byte within the 32-bit word that
 * holds them (byte index ^ 3), so the base offsets used here are multiples
 * of 4 and every record length is one: it never touches a byte past the
 * record.  Its setters do not mask the value to the field's width (the
 * excess bits of a 20-bit FlowLabel would land in SL), so values are masked
 * here first.
 */
#include "lib/ibr_sa.h"
#include "lib/ibr_mad.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <limits.h>
#include <string.h>

#define IBR_SA_NODE_DESC_LEN 64
#define IBR_SA_PORTINFO_LEN  64 /* PortInfo, 14.2.5.6 */
/*
 * PortInfo within the PortInfoRecord (15.2.5.3): EndportLID, PortNum and
 * Options take the first 4 bytes, 4 reserved bytes follow the PortInfo
 * (OpenSM's ib_portinfo_record_t: lid, port_num, options, port_info, pad[4]).
 */
#define IBR_SA_PIR_PI_OFFS 4
#define IBR_SA_PIR_PAD	   4

_Static_assert(IBR_SA_NODE_REC_LEN % 4 == 0 && IBR_SA_PORTINFO_REC_LEN % 4 == 0 &&
		       IBR_SA_MCM_REC_LEN % 4 == 0 && IBR_SA_GUIDINFO_REC_LEN % 4 == 0 &&
		       IBR_SA_INFORMINFO_LEN % 4 == 0 && IBR_SA_NOTICE_LEN % 4 == 0 &&
		       IBR_SA_CLASSPORTINFO_LEN % 4 == 0 && IBR_SA_SERVICE_REC_LEN % 4 == 0,
	       "libibmad's word-swizzled accesses stay within a record");
_Static_assert(IBR_SA_PIR_PI_OFFS + IBR_SA_PORTINFO_LEN + IBR_SA_PIR_PAD == IBR_SA_PORTINFO_REC_LEN,
	       "PortInfoRecord layout");

/* ---- field tables ---- */

enum sa_kind {
	SA_INT,	  /* unsigned integer, 1..32 bits, or 64 bits (libibmad only) */
	SA_BOOL,  /* an integer field held as a bool */
	SA_BYTES, /* byte-aligned array of the member's size */
	SA_DESC,  /* NodeDescription: 64 bytes into a sanitised C string */
	SA_NAME,  /* ServiceName: 64 bytes, NUL-terminated, kept as they are */
};

struct sa_field {
	enum MAD_FIELDS mad; /* libibmad's field, or IB_NO_FIELD: hand-written */
	uint16_t bit_offs;   /* hand-written: IBA bit offset */
	uint16_t bits;	     /* width on the wire */
	uint8_t kind;	     /* enum sa_kind */
	uint16_t member;     /* offsetof() in the host struct */
	uint16_t size;	     /* sizeof() of the member */
};

#define SA_MEMBER(st, m) offsetof(struct st, m), sizeof(((struct st *)0)->m)
/* libibmad field f, `bits` wide */
#define SA_LIB(st, m, f, bits, kind)               \
	{                                          \
		f, 0, bits, kind, SA_MEMBER(st, m) \
	}
/* hand-written: IBA bit offset and width */
#define SA_HAND(st, m, offs, bits, kind)                        \
	{                                                       \
		IB_NO_FIELD, offs, bits, kind, SA_MEMBER(st, m) \
	}
#define SA_LIB_BYTES(st, m, f)                                                    \
	{                                                                         \
		f, 0, 8 * sizeof(((struct st *)0)->m), SA_BYTES, SA_MEMBER(st, m) \
	}
#define SA_HAND_BYTES(st, m, byte)                                                  \
	{                                                                           \
		IB_NO_FIELD, 8 * (byte), 8 * sizeof(((struct st *)0)->m), SA_BYTES, \
			SA_MEMBER(st, m)                                            \
	}
#define SA_N(t) (sizeof(t) / sizeof((t)[0]))

/* NodeRecord (15.2.5.2): LID, reserved, NodeInfo at byte 4, NodeDescription at 44. */
static const struct sa_field sa_node_rec[] = {
	SA_LIB(ibr_sa_node_rec, lid, IB_SA_NR_LID_F, 16, SA_INT),
	SA_LIB(ibr_sa_node_rec, base_version, IB_SA_NR_BASEVER_F, 8, SA_INT),
	SA_LIB(ibr_sa_node_rec, class_version, IB_SA_NR_CLASSVER_F, 8, SA_INT),
	SA_LIB(ibr_sa_node_rec, node_type, IB_SA_NR_TYPE_F, 8, SA_INT),
	SA_LIB(ibr_sa_node_rec, nports, IB_SA_NR_NPORTS_F, 8, SA_INT),
	SA_LIB(ibr_sa_node_rec, system_guid, IB_SA_NR_SYSTEM_GUID_F, 64, SA_INT),
	SA_LIB(ibr_sa_node_rec, node_guid, IB_SA_NR_GUID_F, 64, SA_INT),
	SA_LIB(ibr_sa_node_rec, port_guid, IB_SA_NR_PORT_GUID_F, 64, SA_INT),
	SA_LIB(ibr_sa_node_rec, partition_cap, IB_SA_NR_PARTITION_CAP_F, 16, SA_INT),
	SA_LIB(ibr_sa_node_rec, device_id, IB_SA_NR_DEVID_F, 16, SA_INT),
	SA_LIB(ibr_sa_node_rec, revision, IB_SA_NR_REVISION_F, 32, SA_INT),
	SA_LIB(ibr_sa_node_rec, local_port, IB_SA_NR_LOCAL_PORT_F, 8, SA_INT),
	SA_LIB(ibr_sa_node_rec, vendor_id, IB_SA_NR_VENDORID_F, 24, SA_INT),
	SA_LIB(ibr_sa_node_rec, desc, IB_SA_NR_NODEDESC_F, 8 * IBR_SA_NODE_DESC_LEN, SA_DESC),
};

/* PortInfoRecord header (15.2.5.3): EndportLID, PortNum, Options, 4 reserved bytes. */
static const struct sa_field sa_pir_hdr[] = {
	SA_HAND(ibr_sa_portinfo_rec, lid, 0, 16, SA_INT),
	SA_HAND(ibr_sa_portinfo_rec, port_num, 16, 8, SA_INT),
};

/* PortInfo (14.2.5.6), the fields the SA client reads. */
static const struct sa_field sa_portinfo[] = {
	SA_LIB(ibr_sa_portinfo_rec, mkey, IB_PORT_MKEY_F, 64, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, gid_prefix, IB_PORT_GID_PREFIX_F, 64, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, base_lid, IB_PORT_LID_F, 16, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, sm_lid, IB_PORT_SMLID_F, 16, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, cap_mask, IB_PORT_CAPMASK_F, 32, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, link_width_active, IB_PORT_LINK_WIDTH_ACTIVE_F, 8, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, state, IB_PORT_STATE_F, 4, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, phys_state, IB_PORT_PHYS_STATE_F, 4, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, lmc, IB_PORT_LMC_F, 3, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, link_speed_active, IB_PORT_LINK_SPEED_ACTIVE_F, 4, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, neighbor_mtu, IB_PORT_NEIGHBOR_MTU_F, 4, SA_INT),
	SA_LIB(ibr_sa_portinfo_rec, mtu_cap, IB_PORT_MTU_CAP_F, 4, SA_INT),
};

/* MCMemberRecord (15.2.5.17); libibmad lacks the selectors, PacketLifeTime, HopLimit, Scope. */
static const struct sa_field sa_mcm_rec[] = {
	SA_LIB_BYTES(ibr_sa_mcm_rec, mgid, IB_SA_MCM_MGID_F),
	SA_LIB_BYTES(ibr_sa_mcm_rec, port_gid, IB_SA_MCM_PORTGID_F),
	SA_LIB(ibr_sa_mcm_rec, qkey, IB_SA_MCM_QKEY_F, 32, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, mlid, IB_SA_MCM_MLID_F, 16, SA_INT),
	SA_HAND(ibr_sa_mcm_rec, mtu_sel, 304, 2, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, mtu, IB_SA_MCM_MTU_F, 6, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, tclass, IB_SA_MCM_TCLASS_F, 8, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, pkey, IB_SA_MCM_PKEY_F, 16, SA_INT),
	SA_HAND(ibr_sa_mcm_rec, rate_sel, 336, 2, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, rate, IB_SA_MCM_RATE_F, 6, SA_INT),
	SA_HAND(ibr_sa_mcm_rec, life_sel, 344, 2, SA_INT),
	SA_HAND(ibr_sa_mcm_rec, life, 346, 6, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, sl, IB_SA_MCM_SL_F, 4, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, flowlabel, IB_SA_MCM_FLOW_LABEL_F, 20, SA_INT),
	SA_HAND(ibr_sa_mcm_rec, hoplimit, 376, 8, SA_INT),
	SA_HAND(ibr_sa_mcm_rec, scope, 384, 4, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, join_state, IB_SA_MCM_JOIN_STATE_F, 4, SA_INT),
	SA_LIB(ibr_sa_mcm_rec, proxy_join, IB_SA_MCM_PROXY_JOIN_F, 1, SA_BOOL),
};

/* GUIDInfoRecord (15.2.5.18): LID, BlockNum, 5 reserved bytes, GUIDInfo at byte 8. */
#define SA_GIR_GUID(i)                                                          \
	{                                                                       \
		IB_SA_GIR_GUID0_F + (i), 0, 64, SA_INT,                         \
			offsetof(struct ibr_sa_guidinfo_rec, guid) + 8 * (i), 8 \
	}
static const struct sa_field sa_guidinfo_rec[] = {
	SA_LIB(ibr_sa_guidinfo_rec, lid, IB_SA_GIR_LID_F, 16, SA_INT),
	SA_LIB(ibr_sa_guidinfo_rec, block, IB_SA_GIR_BLOCKNUM_F, 8, SA_INT),
	SA_GIR_GUID(0),
	SA_GIR_GUID(1),
	SA_GIR_GUID(2),
	SA_GIR_GUID(3),
	SA_GIR_GUID(4),
	SA_GIR_GUID(5),
	SA_GIR_GUID(6),
	SA_GIR_GUID(7),
};
_Static_assert(IB_SA_GIR_GUID7_F == IB_SA_GIR_GUID0_F + 7, "libibmad GUIDInfoRecord fields");

/* InformInfo (13.4.8.3), which libibmad lacks. */
static const struct sa_field sa_informinfo[] = {
	SA_HAND_BYTES(ibr_sa_informinfo, gid, 0),
	SA_HAND(ibr_sa_informinfo, lid_begin, 128, 16, SA_INT),
	SA_HAND(ibr_sa_informinfo, lid_end, 144, 16, SA_INT),
	/* 160: 16 bits reserved */
	SA_HAND(ibr_sa_informinfo, is_generic, 176, 8, SA_BOOL),
	SA_HAND(ibr_sa_informinfo, subscribe, 184, 8, SA_BOOL),
	SA_HAND(ibr_sa_informinfo, type, 192, 16, SA_INT),
	SA_HAND(ibr_sa_informinfo, trap_num, 208, 16, SA_INT),
	SA_HAND(ibr_sa_informinfo, qpn, 224, 24, SA_INT),
	/* 248: 3 bits reserved */
	SA_HAND(ibr_sa_informinfo, resp_time, 251, 5, SA_INT),
	/* 256: 8 bits reserved */
	SA_HAND(ibr_sa_informinfo, producer, 264, 24, SA_INT),
};

/* Notice (13.4.8.2); libibmad lacks IssuerGID. */
static const struct sa_field sa_notice[] = {
	SA_LIB(ibr_sa_notice, is_generic, IB_NOTICE_IS_GENERIC_F, 1, SA_BOOL),
	SA_LIB(ibr_sa_notice, type, IB_NOTICE_TYPE_F, 7, SA_INT),
	SA_LIB(ibr_sa_notice, producer, IB_NOTICE_PRODUCER_F, 24, SA_INT),
	SA_LIB(ibr_sa_notice, trap_num, IB_NOTICE_TRAP_NUMBER_F, 16, SA_INT),
	SA_LIB(ibr_sa_notice, issuer_lid, IB_NOTICE_ISSUER_LID_F, 16, SA_INT),
	SA_LIB(ibr_sa_notice, toggle, IB_NOTICE_TOGGLE_F, 1, SA_BOOL),
	SA_LIB(ibr_sa_notice, count, IB_NOTICE_COUNT_F, 15, SA_INT),
	SA_LIB_BYTES(ibr_sa_notice, details, IB_NOTICE_DATA_DETAILS_F),
	SA_HAND_BYTES(ibr_sa_notice, issuer_gid, 64),
};

/* ClassPortInfo (13.4.8.1), the fields the SA client reads. */
static const struct sa_field sa_classportinfo[] = {
	SA_LIB(ibr_sa_classportinfo, base_version, IB_CPI_BASEVER_F, 8, SA_INT),
	SA_LIB(ibr_sa_classportinfo, class_version, IB_CPI_CLASSVER_F, 8, SA_INT),
	SA_LIB(ibr_sa_classportinfo, cap_mask, IB_CPI_CAPMASK_F, 16, SA_INT),
	SA_LIB(ibr_sa_classportinfo, cap_mask2, IB_CPI_CAPMASK2_F, 27, SA_INT),
	SA_LIB(ibr_sa_classportinfo, resp_time, IB_CPI_RESP_TIME_VALUE_F, 5, SA_INT),
	SA_LIB_BYTES(ibr_sa_classportinfo, redirect_gid, IB_CPI_REDIRECT_GID_F),
	SA_LIB(ibr_sa_classportinfo, redirect_lid, IB_CPI_REDIRECT_LID_F, 16, SA_INT),
	SA_LIB(ibr_sa_classportinfo, redirect_pkey, IB_CPI_REDIRECT_PKEY_F, 16, SA_INT),
	SA_LIB(ibr_sa_classportinfo, redirect_qp, IB_CPI_REDIRECT_QP_F, 24, SA_INT),
	SA_LIB(ibr_sa_classportinfo, redirect_qkey, IB_CPI_REDIRECT_QKEY_F, 32, SA_INT),
	SA_LIB(ibr_sa_classportinfo, trap_lid, IB_CPI_TRAP_LID_F, 16, SA_INT),
};

/*
 * ServiceRecord (15.2.5.14): ServiceID, ServiceGID, ServiceP_Key, 2 reserved
 * bytes, ServiceLease at 28, ServiceKey at 32, ServiceName at 48, then
 * ServiceData8[16] at 112, ServiceData16[8] at 128, ServiceData32[4] at 144
 * and ServiceData64[2] at 160, as OpenSM's ib_service_record_t lays it out.
 * libibmad has ServiceData as a single 512-bit field; its elements are
 * big-endian integers of their own, hand-written here.
 */
#define IBR_SA_SR_DATA8_OFFS  112
#define IBR_SA_SR_DATA16_OFFS 128
#define IBR_SA_SR_DATA32_OFFS 144
#define IBR_SA_SR_DATA64_OFFS 160
_Static_assert(IBR_SA_SR_DATA64_OFFS + 2 * 8 == IBR_SA_SERVICE_REC_LEN, "ServiceRecord layout");

/* Element i of ServiceData<bits> (host array m): `bits` wide at byte + i * bits / 8. */
#define SA_SR_DATA(m, byte, bits, i)                                                          \
	{                                                                                     \
		IB_NO_FIELD, 8 * (byte) + (bits) * (i), bits, SA_INT,                         \
			offsetof(struct ibr_sa_service_rec, m) + (bits) / 8 * (i), (bits) / 8 \
	}
static const struct sa_field sa_service_rec[] = {
	SA_LIB(ibr_sa_service_rec, id, IB_SA_SR_ID_F, 64, SA_INT),
	SA_LIB_BYTES(ibr_sa_service_rec, gid, IB_SA_SR_GID_F),
	SA_LIB(ibr_sa_service_rec, pkey, IB_SA_SR_PKEY_F, 16, SA_INT),
	/* 208: 16 bits reserved */
	SA_LIB(ibr_sa_service_rec, lease, IB_SA_SR_LEASE_F, 32, SA_INT),
	SA_LIB_BYTES(ibr_sa_service_rec, key, IB_SA_SR_KEY_F),
	SA_LIB(ibr_sa_service_rec, name, IB_SA_SR_NAME_F, 8 * IBR_SA_SERVICE_NAME_LEN, SA_NAME),
	SA_HAND_BYTES(ibr_sa_service_rec, data8, IBR_SA_SR_DATA8_OFFS),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 0),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 1),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 2),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 3),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 4),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 5),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 6),
	SA_SR_DATA(data16, IBR_SA_SR_DATA16_OFFS, 16, 7),
	SA_SR_DATA(data32, IBR_SA_SR_DATA32_OFFS, 32, 0),
	SA_SR_DATA(data32, IBR_SA_SR_DATA32_OFFS, 32, 1),
	SA_SR_DATA(data32, IBR_SA_SR_DATA32_OFFS, 32, 2),
	SA_SR_DATA(data32, IBR_SA_SR_DATA32_OFFS, 32, 3),
	SA_SR_DATA(data64, IBR_SA_SR_DATA64_OFFS, 64, 0),
	SA_SR_DATA(data64, IBR_SA_SR_DATA64_OFFS, 64, 1),
};

/* ---- hand-written fields: big-endian bit strings, at most 32 bits ---- */

static uint32_t sa_bits_get(const uint8_t *p, unsigned int offs, unsigned int bits)
{
	unsigned int end = offs + bits; /* first bit after the field */
	uint64_t v = 0;

	for (unsigned int i = offs / 8; i < (end + 7) / 8; i++)
		v = v << 8 | p[i];
	v >>= (8 - end % 8) % 8;
	return (uint32_t)(v & ((1ull << bits) - 1));
}

static void sa_bits_set(uint8_t *p, unsigned int offs, unsigned int bits, uint32_t val)
{
	unsigned int first = offs / 8, last = (offs + bits - 1) / 8;
	unsigned int shift = 7 - (offs + bits - 1) % 8;
	uint64_t mask = ((1ull << bits) - 1) << shift, cur = 0;

	for (unsigned int i = first; i <= last; i++)
		cur = cur << 8 | p[i];
	cur = (cur & ~mask) | (((uint64_t)val << shift) & mask);
	for (unsigned int i = last + 1; i-- > first; cur >>= 8)
		p[i] = (uint8_t)cur;
}

/* ---- wire <-> host ---- */

static uint64_t sa_mask(unsigned int bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* Hand-written fields wider than 32 bits (ServiceData64): two halves, high first. */
static uint64_t sa_hand_get(const uint8_t *p, const struct sa_field *f)
{
	unsigned int lo = f->bits > 32 ? 32 : f->bits, hi = f->bits - lo;
	uint64_t v = sa_bits_get(p, f->bit_offs + hi, lo);

	return hi ? (uint64_t)sa_bits_get(p, f->bit_offs, hi) << 32 | v : v;
}

static void sa_hand_set(uint8_t *p, const struct sa_field *f, uint64_t v)
{
	unsigned int lo = f->bits > 32 ? 32 : f->bits, hi = f->bits - lo;

	sa_bits_set(p, f->bit_offs + hi, lo, (uint32_t)v);
	if (hi)
		sa_bits_set(p, f->bit_offs, hi, (uint32_t)(v >> 32));
}

/* libibmad takes non-const buffers; its getters never write. */
static uint64_t sa_wire_get(const struct sa_field *f, const uint8_t *rec, int base)
{
	if (f->mad == IB_NO_FIELD)
		return sa_hand_get(rec + base, f);
	if (f->bits == 64)
		return mad_get_field64((void *)rec, base, f->mad);
	return mad_get_field((void *)rec, base, f->mad) & sa_mask(f->bits);
}

static void sa_wire_set(const struct sa_field *f, uint8_t *rec, int base, uint64_t v)
{
	v &= sa_mask(f->bits);
	if (f->mad == IB_NO_FIELD)
		sa_hand_set(rec + base, f, v);
	else if (f->bits == 64)
		mad_set_field64(rec, base, f->mad, v);
	else
		mad_set_field(rec, base, f->mad, (uint32_t)v);
}

static void sa_host_store(uint8_t *p, const struct sa_field *f, uint64_t v)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;
	bool b = v != 0;

	if (f->kind == SA_BOOL)
		memcpy(p, &b, sizeof(b));
	else if (f->size == 1)
		memcpy(p, &v8, 1);
	else if (f->size == 2)
		memcpy(p, &v16, 2);
	else if (f->size == 4)
		memcpy(p, &v32, 4);
	else
		memcpy(p, &v, 8);
}

static uint64_t sa_host_load(const uint8_t *p, const struct sa_field *f)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (f->size) {
	case 1: /* a bool's byte too: read as a byte, any non-zero is true */
		memcpy(&v8, p, 1);
		return f->kind == SA_BOOL ? v8 != 0 : v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v64, p, 8);
	return v64;
}

/* NUL-terminated at the first NUL or after 64 bytes; non-printable bytes become '?'. */
static void sa_desc_get(const uint8_t *rec, int base, const struct sa_field *f, char *desc)
{
	uint8_t raw[IBR_SA_NODE_DESC_LEN];
	size_t i;

	mad_get_array((void *)rec, base, f->mad, raw);
	for (i = 0; i < sizeof(raw) && raw[i]; i++)
		desc[i] = raw[i] >= 0x20 && raw[i] < 0x7F ? (char)raw[i] : '?';
	memset(desc + i, 0, f->size - i);
}

static void sa_desc_set(uint8_t *rec, int base, const struct sa_field *f, const char *desc)
{
	uint8_t raw[IBR_SA_NODE_DESC_LEN] = { 0 };

	memcpy(raw, desc, strnlen(desc, sizeof(raw)));
	mad_set_array(rec, base, f->mad, raw);
}

/*
 * ServiceName (15.2.5.14): UTF-8, NUL-terminated within its 64 bytes (the
 * decoder refuses a name without a NUL before getting here).  Copied up to
 * the NUL, the rest zeroed: bytes past it are padding.
 */
static void sa_name_get(const uint8_t *rec, int base, const struct sa_field *f, char *name)
{
	uint8_t raw[IBR_SA_SERVICE_NAME_LEN];
	size_t n;

	mad_get_array((void *)rec, base, f->mad, raw);
	n = strnlen((const char *)raw, sizeof(raw) - 1);
	memcpy(name, raw, n);
	memset(name + n, 0, f->size - n);
}

/*
 * At most 63 bytes and the NUL.  A longer name is cut before the UTF-8
 * sequence the cut would split (continuation bytes are 10xxxxxx), so that
 * what goes on the wire is still UTF-8 when the name was.
 */
static void sa_name_set(uint8_t *rec, int base, const struct sa_field *f, const char *name)
{
	uint8_t raw[IBR_SA_SERVICE_NAME_LEN] = { 0 };
	size_t n = strnlen(name, f->size);

	if (n > sizeof(raw) - 1) {
		n = sizeof(raw) - 1;
		while (n > 0 && ((unsigned char)name[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(raw, name, n);
	mad_set_array(rec, base, f->mad, raw);
}

static void sa_decode(const struct sa_field *t, size_t n, const uint8_t *rec, int base, void *obj)
{
	for (size_t i = 0; i < n; i++) {
		const struct sa_field *f = &t[i];
		uint8_t *p = (uint8_t *)obj + f->member;

		if (f->kind == SA_DESC)
			sa_desc_get(rec, base, f, (char *)p);
		else if (f->kind == SA_NAME)
			sa_name_get(rec, base, f, (char *)p);
		else if (f->kind == SA_BYTES && f->mad != IB_NO_FIELD)
			mad_get_array((void *)rec, base, f->mad, p);
		else if (f->kind == SA_BYTES)
			memcpy(p, rec + base + f->bit_offs / 8, f->size);
		else
			sa_host_store(p, f, sa_wire_get(f, rec, base));
	}
}

static void sa_encode(const struct sa_field *t, size_t n, const void *obj, uint8_t *rec, int base)
{
	for (size_t i = 0; i < n; i++) {
		const struct sa_field *f = &t[i];
		const uint8_t *p = (const uint8_t *)obj + f->member;

		if (f->kind == SA_DESC)
			sa_desc_set(rec, base, f, (const char *)p);
		else if (f->kind == SA_NAME)
			sa_name_set(rec, base, f, (const char *)p);
		else if (f->kind == SA_BYTES && f->mad != IB_NO_FIELD)
			mad_set_array(rec, base, f->mad, (void *)p);
		else if (f->kind == SA_BYTES)
			memcpy(rec + base + f->bit_offs / 8, p, f->size);
		else
			sa_wire_set(f, rec, base, sa_host_load(p, f));
	}
}

/* ---- tables of records (15.2.5.1, 15.2.2) ---- */

int ibr_sa_table_count(const uint8_t *mad, size_t len, size_t min_len)
{
	size_t stride, n;

	if (!mad || len < IBR_SA_DATA_OFFS)
		return -EMSGSIZE;
	if (len == IBR_SA_DATA_OFFS)
		return 0; /* no data: nothing to misread, whatever AttributeOffset says */
	stride = (size_t)ibr_sa_attr_offset(mad) * 8;
	if (stride == 0) {
		/* a Get response: the one record fills the data area of a single MAD */
		if (len != IBR_MAD_SIZE)
			return -EINVAL;
		return min_len <= IBR_SA_DATA_SIZE ? 1 : 0;
	}
	if (stride < min_len)
		return -EINVAL;
	n = (len - IBR_SA_DATA_OFFS) / stride;
	return n > INT_MAX ? INT_MAX : (int)n;
}

const uint8_t *ibr_sa_table_rec(const uint8_t *mad, size_t len, unsigned int i)
{
	size_t stride;

	if (!mad || len <= IBR_SA_DATA_OFFS)
		return NULL;
	stride = (size_t)ibr_sa_attr_offset(mad) * 8;
	if (stride == 0)
		return len == IBR_MAD_SIZE && i == 0 ? mad + IBR_SA_DATA_OFFS : NULL;
	if (i >= (len - IBR_SA_DATA_OFFS) / stride)
		return NULL;
	return mad + IBR_SA_DATA_OFFS + (size_t)i * stride;
}

/* ---- records ---- */

static int sa_rec_decode(const struct sa_field *t, size_t n, size_t rec_len, const uint8_t *rec,
			 size_t len, void *out, size_t out_size)
{
	if (!rec || len < rec_len)
		return -EMSGSIZE;
	memset(out, 0, out_size);
	sa_decode(t, n, rec, 0, out);
	return 0;
}

static void sa_rec_encode(const struct sa_field *t, size_t n, size_t rec_len, const void *in,
			  uint8_t *rec)
{
	memset(rec, 0, rec_len);
	sa_encode(t, n, in, rec, 0);
}

int ibr_sa_node_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_node_rec *out)
{
	return sa_rec_decode(sa_node_rec, SA_N(sa_node_rec), IBR_SA_NODE_REC_LEN, rec, len, out,
			     sizeof(*out));
}

void ibr_sa_node_rec_encode(const struct ibr_sa_node_rec *in, uint8_t rec[IBR_SA_NODE_REC_LEN])
{
	sa_rec_encode(sa_node_rec, SA_N(sa_node_rec), IBR_SA_NODE_REC_LEN, in, rec);
}

int ibr_sa_portinfo_decode(const uint8_t *pi, size_t len, struct ibr_sa_portinfo_rec *out)
{
	return sa_rec_decode(sa_portinfo, SA_N(sa_portinfo), IBR_SA_PORTINFO_LEN, pi, len, out,
			     sizeof(*out));
}

int ibr_sa_portinfo_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_portinfo_rec *out)
{
	if (!rec || len < IBR_SA_PORTINFO_REC_LEN)
		return -EMSGSIZE;
	memset(out, 0, sizeof(*out));
	sa_decode(sa_pir_hdr, SA_N(sa_pir_hdr), rec, 0, out);
	sa_decode(sa_portinfo, SA_N(sa_portinfo), rec, IBR_SA_PIR_PI_OFFS, out);
	return 0;
}

void ibr_sa_portinfo_rec_encode(const struct ibr_sa_portinfo_rec *in,
				uint8_t rec[IBR_SA_PORTINFO_REC_LEN])
{
	sa_rec_encode(sa_pir_hdr, SA_N(sa_pir_hdr), IBR_SA_PORTINFO_REC_LEN, in, rec);
	sa_encode(sa_portinfo, SA_N(sa_portinfo), in, rec, IBR_SA_PIR_PI_OFFS);
}

int ibr_sa_mcm_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_mcm_rec *out)
{
	return sa_rec_decode(sa_mcm_rec, SA_N(sa_mcm_rec), IBR_SA_MCM_REC_LEN, rec, len, out,
			     sizeof(*out));
}

void ibr_sa_mcm_rec_encode(const struct ibr_sa_mcm_rec *in, uint8_t rec[IBR_SA_MCM_REC_LEN])
{
	sa_rec_encode(sa_mcm_rec, SA_N(sa_mcm_rec), IBR_SA_MCM_REC_LEN, in, rec);
}

int ibr_sa_guidinfo_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_guidinfo_rec *out)
{
	return sa_rec_decode(sa_guidinfo_rec, SA_N(sa_guidinfo_rec), IBR_SA_GUIDINFO_REC_LEN, rec,
			     len, out, sizeof(*out));
}

void ibr_sa_guidinfo_rec_encode(const struct ibr_sa_guidinfo_rec *in,
				uint8_t rec[IBR_SA_GUIDINFO_REC_LEN])
{
	sa_rec_encode(sa_guidinfo_rec, SA_N(sa_guidinfo_rec), IBR_SA_GUIDINFO_REC_LEN, in, rec);
}

int ibr_sa_informinfo_decode(const uint8_t *rec, size_t len, struct ibr_sa_informinfo *out)
{
	return sa_rec_decode(sa_informinfo, SA_N(sa_informinfo), IBR_SA_INFORMINFO_LEN, rec, len,
			     out, sizeof(*out));
}

void ibr_sa_informinfo_encode(const struct ibr_sa_informinfo *in,
			      uint8_t rec[IBR_SA_INFORMINFO_LEN])
{
	sa_rec_encode(sa_informinfo, SA_N(sa_informinfo), IBR_SA_INFORMINFO_LEN, in, rec);
}

int ibr_sa_notice_decode(const uint8_t *rec, size_t len, struct ibr_sa_notice *out)
{
	return sa_rec_decode(sa_notice, SA_N(sa_notice), IBR_SA_NOTICE_LEN, rec, len, out,
			     sizeof(*out));
}

void ibr_sa_notice_encode(const struct ibr_sa_notice *in, uint8_t rec[IBR_SA_NOTICE_LEN])
{
	sa_rec_encode(sa_notice, SA_N(sa_notice), IBR_SA_NOTICE_LEN, in, rec);
}

/* Traps 64-67 (13.4.8.2): 6 reserved bytes, then the GID (GIDADDR or MGID). */
const uint8_t *ibr_sa_notice_gid(const struct ibr_sa_notice *n)
{
	if (!n->is_generic || n->trap_num < IBR_TRAP_GID_IN_SERVICE ||
	    n->trap_num > IBR_TRAP_MCG_DELETED)
		return NULL;
	return n->details + 6;
}

int ibr_sa_classportinfo_decode(const uint8_t *rec, size_t len, struct ibr_sa_classportinfo *out)
{
	return sa_rec_decode(sa_classportinfo, SA_N(sa_classportinfo), IBR_SA_CLASSPORTINFO_LEN,
			     rec, len, out, sizeof(*out));
}

void ibr_sa_classportinfo_encode(const struct ibr_sa_classportinfo *in,
				 uint8_t rec[IBR_SA_CLASSPORTINFO_LEN])
{
	sa_rec_encode(sa_classportinfo, SA_N(sa_classportinfo), IBR_SA_CLASSPORTINFO_LEN, in, rec);
}

int ibr_sa_service_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_service_rec *out)
{
	uint8_t name[IBR_SA_SERVICE_NAME_LEN];

	if (!rec || len < IBR_SA_SERVICE_REC_LEN)
		return -EMSGSIZE;
	/* 15.2.5.14: the name is NUL-terminated; without one it cannot be a C string */
	mad_get_array((void *)rec, 0, IB_SA_SR_NAME_F, name);
	if (!memchr(name, 0, sizeof(name)))
		return -EINVAL;
	return sa_rec_decode(sa_service_rec, SA_N(sa_service_rec), IBR_SA_SERVICE_REC_LEN, rec, len,
			     out, sizeof(*out));
}

void ibr_sa_service_rec_encode(const struct ibr_sa_service_rec *in,
			       uint8_t rec[IBR_SA_SERVICE_REC_LEN])
{
	sa_rec_encode(sa_service_rec, SA_N(sa_service_rec), IBR_SA_SERVICE_REC_LEN, in, rec);
}

int ibr_sa_service_rec_build(uint8_t *m, uint8_t method, uint64_t comp_mask,
			     const struct ibr_sa_service_rec *rec, uint64_t sm_key, uint64_t tid)
{
	switch (method) {
	case IBR_MAD_METHOD_GET:
	case IBR_MAD_METHOD_GET_TABLE:
		break;
	case IBR_MAD_METHOD_SET:
	case IBR_MAD_METHOD_DELETE:
		/*
		 * The RID (ServiceID, ServiceGID, ServiceP_Key) picks the record to
		 * create, replace or remove: OpenSM compares those 26 bytes as sent
		 * (match_rid_of_svc_rec()), whatever the mask says.
		 */
		if ((comp_mask & IBR_SA_SR_COMP_RID) != IBR_SA_SR_COMP_RID)
			return -EINVAL;
		break;
	default: /* 15.2.5.14: ServiceRecord has no other methods */
		return -EINVAL;
	}
	ibr_mad_build_sa(m, method, IBR_SA_ATTR_SERVICE_RECORD, comp_mask, sm_key, tid);
	ibr_sa_service_rec_encode(rec, m + IBR_SA_DATA_OFFS);
	ibr_sa_set_attr_offset(m, (IBR_SA_SERVICE_REC_LEN + 7) / 8);
	return 0;
}

int ibr_sa_service_rec_table_decode(const uint8_t *mad, size_t len, struct ibr_sa_service_rec *out,
				    unsigned int max, unsigned int *refused)
{
	int n = ibr_sa_table_count(mad, len, IBR_SA_SERVICE_REC_LEN);
	unsigned int got = 0, bad = 0;

	if (refused)
		*refused = 0;
	if (n < 0)
		return n;
	/*
	 * ibr_sa_table_count() reads AttributeOffset 0 as a Get response's one
	 * record; OpenSM answers a GetTable that matches nothing with offset 0.
	 */
	if (ibr_sa_attr_offset(mad) == 0 && ibr_mad_method(mad) == IBR_MAD_METHOD_GET_TABLE_RESP)
		n = 0;
	for (int i = 0; i < n && got < max; i++) {
		const uint8_t *rec = ibr_sa_table_rec(mad, len, (unsigned int)i);

		if (rec &&
		    ibr_sa_service_rec_decode(rec, (size_t)(mad + len - rec), &out[got]) == 0)
			got++;
		else
			bad++;
	}
	if (refused)
		*refused = bad;
	return (int)got;
}

/*
 * A group's MTU as an SA record codes it (IBA 15.2.5.17: 1 = 256 ... 5 =
 * 4096): the config and `mcast add` give bytes, groups learned from an SA
 * or the plugin their code already.  Was cast to uint8_t, which made 2048
 * bytes 0 and a join into an IB subnet carry no valid MTU.
 */
uint8_t ibr_sa_mtu_code(uint16_t mtu)
{
	uint8_t code = 1;

	if (mtu <= 5)
		return (uint8_t)mtu;
	while (code < 5 && (256u << code) <= mtu)
		code++;
	return code;
}
