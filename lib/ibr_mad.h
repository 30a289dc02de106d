/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_mad.h - byte-exact codecs for the headers of MADs, SMPs (LID-routed and
 * directed-route), RMPP and SA MADs, and the names of classes, methods,
 * attributes and status codes for logging.
 *
 * IBA vol. 1 references: 13.4.2-13.4.7 (MAD common header, base version,
 * management classes, methods, attributes, status), 13.6.2 (RMPP header),
 * 14.2.1.1 (LID-routed SMP), 14.2.1.2 (directed-route SMP), 14.2.5 (SMP
 * attributes), 15.2.1.1 (SA MAD), 15.2.5 (SA attributes).  All offsets below
 * are cross-checked against libibmad's field tables by the unit tests.
 *
 * Buffers are byte arrays in network order.  Only ibr_mad_parse() and the
 * path-index accessors take a length or an index and check it; the inline
 * field accessors assume a buffer ibr_mad_parse() accepted, i.e. at least
 * IBR_MAD_HDR_SIZE bytes for the common header, IBR_MAD_SIZE for SMP
 * fields, IBR_SA_DATA_OFFS for the RMPP and SA headers.
 */
#ifndef IBR_MAD_H
#define IBR_MAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- sizes and offsets ---- */

#define IBR_MAD_SIZE	     256 /* every MAD of base version 1 (13.4.1) */
#define IBR_MAD_HDR_SIZE     24	 /* common header (13.4.2) */
#define IBR_MAD_BASE_VERSION 1

/* SMP, 14.2.1.1 (LID routed) and 14.2.1.2 (directed route) */
#define IBR_SMP_MKEY_OFFS	  24
#define IBR_SMP_DR_SLID_OFFS	  32
#define IBR_SMP_DR_DLID_OFFS	  34
#define IBR_SMP_DATA_OFFS	  64
#define IBR_SMP_DATA_SIZE	  64
#define IBR_SMP_INITIAL_PATH_OFFS 128
#define IBR_SMP_RETURN_PATH_OFFS  192
#define IBR_SMP_PATH_SIZE	  64 /* InitialPath[] / ReturnPath[] entries 0..63 */
#define IBR_SMP_MAX_HOPS	  63

/* RMPP header, 13.6.2.1 */
#define IBR_RMPP_HDR_OFFS 24
#define IBR_RMPP_HDR_SIZE 12

/* SA MAD, 15.2.1.1 */
#define IBR_SA_SM_KEY_OFFS	36
#define IBR_SA_ATTR_OFFSET_OFFS 44
#define IBR_SA_COMP_MASK_OFFS	48
#define IBR_SA_DATA_OFFS	56
#define IBR_SA_DATA_SIZE	200

_Static_assert(IBR_SMP_RETURN_PATH_OFFS + IBR_SMP_PATH_SIZE == IBR_MAD_SIZE, "DR SMP layout");
_Static_assert(IBR_SA_DATA_OFFS + IBR_SA_DATA_SIZE == IBR_MAD_SIZE, "SA MAD layout");
_Static_assert(IBR_RMPP_HDR_OFFS + IBR_RMPP_HDR_SIZE == IBR_SA_SM_KEY_OFFS, "RMPP header");

/* ---- management classes (13.4.4) and their class versions ---- */

enum ibr_mad_class {
	IBR_MGMT_CLASS_SUBN_LID = 0x01, /* SMP, LID routed */
	IBR_MGMT_CLASS_SUBN_ADM = 0x03, /* SA */
	IBR_MGMT_CLASS_PERF = 0x04,
	IBR_MGMT_CLASS_BM = 0x05,
	IBR_MGMT_CLASS_DEV_MGT = 0x06,
	IBR_MGMT_CLASS_CM = 0x07,
	IBR_MGMT_CLASS_SNMP = 0x08,
	IBR_MGMT_CLASS_VENDOR1_MIN = 0x09,
	IBR_MGMT_CLASS_VENDOR1_MAX = 0x0F,
	IBR_MGMT_CLASS_APP_MIN = 0x10,
	IBR_MGMT_CLASS_CC = 0x21, /* congestion control, Annex A10 */
	IBR_MGMT_CLASS_APP_MAX = 0x2F,
	IBR_MGMT_CLASS_VENDOR2_MIN = 0x30, /* with OUI and RMPP header */
	IBR_MGMT_CLASS_VENDOR2_MAX = 0x4F,
	IBR_MGMT_CLASS_SUBN_DR = 0x81, /* SMP, directed route */
};

#define IBR_SMP_CLASS_VERSION 1 /* 14.2.1 */
#define IBR_SA_CLASS_VERSION  2 /* 15.2.1.1 */

/*
 * The class version this code sends and accepts for `mgmt_class`: 1 for SMP,
 * PerfMgt, BM, DevMgt, SNMP; 2 for SA, CM and CC; 0 for classes whose
 * version is not fixed here (vendor and application classes: any version is
 * accepted) and for reserved class values.
 */
unsigned int ibr_mad_class_default_version(uint8_t mgmt_class);
/* False for reserved class values (0x00, 0x02, 0x50-0x80, 0x82-0xFF). */
bool ibr_mad_class_is_known(uint8_t mgmt_class);
/* Classes whose MADs carry an RMPP header at offset 24 (13.6.1): SA, vendor range 2. */
bool ibr_mad_class_has_rmpp(uint8_t mgmt_class);

/* ---- methods (13.4.5; R is bit 7 of the method byte) ---- */

enum ibr_mad_method {
	IBR_MAD_METHOD_GET = 0x01,
	IBR_MAD_METHOD_SET = 0x02,
	IBR_MAD_METHOD_SEND = 0x03,
	IBR_MAD_METHOD_TRAP = 0x05,
	IBR_MAD_METHOD_REPORT = 0x06,
	IBR_MAD_METHOD_TRAP_REPRESS = 0x07,
	IBR_MAD_METHOD_GET_TABLE = 0x12, /* SA, 15.2.2 */
	IBR_MAD_METHOD_GET_TRACE_TABLE = 0x13,
	IBR_MAD_METHOD_GET_MULTI = 0x14,
	IBR_MAD_METHOD_DELETE = 0x15,
	IBR_MAD_METHOD_RESP = 0x80, /* the R bit */
	IBR_MAD_METHOD_GET_RESP = 0x81,
	IBR_MAD_METHOD_REPORT_RESP = 0x86,
	IBR_MAD_METHOD_GET_TABLE_RESP = 0x92,
	IBR_MAD_METHOD_GET_TRACE_TABLE_RESP = 0x93,
	IBR_MAD_METHOD_GET_MULTI_RESP = 0x94,
	IBR_MAD_METHOD_DELETE_RESP = 0x95,
};

/*
 * The method of the response to a request method (13.4.5: Get and Set are
 * answered by GetResp, Trap by TrapRepress, X by X|R otherwise); 0 for
 * methods without a response (Send, responses themselves, unknown).
 */
uint8_t ibr_mad_response_method(uint8_t method);

/* ---- status (13.4.7; SA class-specific codes 15.2.1.1) ---- */

#define IBR_MAD_STATUS_OK		 0x0000
#define IBR_MAD_STATUS_BUSY		 0x0001
#define IBR_MAD_STATUS_REDIRECT		 0x0002
#define IBR_MAD_STATUS_BAD_VERSION	 0x0004 /* base or class version not supported */
#define IBR_MAD_STATUS_UNSUP_METHOD	 0x0008
#define IBR_MAD_STATUS_UNSUP_METHOD_ATTR 0x000C /* method/attribute combination */
#define IBR_MAD_STATUS_INVALID_FIELD	 0x001C /* invalid attribute or modifier value */
#define IBR_MAD_STATUS_CODE_MASK	 0x001C /* bits 2-4: the invalid-field code */
#define IBR_MAD_STATUS_CLASS_MASK	 0xFF00 /* bits 8-15: class specific */

#define IBR_SA_STATUS_NO_RESOURCES		  0x0100
#define IBR_SA_STATUS_REQ_INVALID		  0x0200
#define IBR_SA_STATUS_NO_RECORDS		  0x0300
#define IBR_SA_STATUS_TOO_MANY_RECORDS		  0x0400
#define IBR_SA_STATUS_REQ_INVALID_GID		  0x0500
#define IBR_SA_STATUS_REQ_INSUFFICIENT_COMPONENTS 0x0600
#define IBR_SA_STATUS_REQ_DENIED		  0x0700
#define IBR_SA_STATUS_PRIO_SUGGESTED		  0x0800

/* In a DR SMP, bit 15 of Status is the D (direction) bit (14.2.1.2). */
#define IBR_SMP_DR_STATUS_D    0x8000
#define IBR_SMP_DR_STATUS_MASK 0x7FFF

/* ---- attribute IDs (14.2.5, 15.2.5, 13.4.8) ---- */

enum ibr_mad_attr {
	/* common to classes (13.4.8) */
	IBR_ATTR_CLASS_PORT_INFO = 0x0001,
	IBR_ATTR_NOTICE = 0x0002,
	IBR_ATTR_INFORM_INFO = 0x0003,
	/* SMP (14.2.5) */
	IBR_SMP_ATTR_NODE_DESC = 0x0010,
	IBR_SMP_ATTR_NODE_INFO = 0x0011,
	IBR_SMP_ATTR_SWITCH_INFO = 0x0012,
	IBR_SMP_ATTR_GUID_INFO = 0x0014,
	IBR_SMP_ATTR_PORT_INFO = 0x0015,
	IBR_SMP_ATTR_PKEY_TABLE = 0x0016,
	IBR_SMP_ATTR_SL2VL_TABLE = 0x0017,
	IBR_SMP_ATTR_VL_ARB = 0x0018,
	IBR_SMP_ATTR_LFT = 0x0019,
	IBR_SMP_ATTR_RFT = 0x001A,
	IBR_SMP_ATTR_MFT = 0x001B,
	IBR_SMP_ATTR_SM_INFO = 0x0020,
	IBR_SMP_ATTR_VENDOR_DIAG = 0x0030,
	IBR_SMP_ATTR_LED_INFO = 0x0031,
	IBR_SMP_ATTR_PORT_INFO_EXT = 0x0033,
	IBR_SMP_ATTR_MLNX_EXT_PORT_INFO = 0xFF90, /* vendor (Mellanox) */
	/* vendor router attributes (NVIDIA routers; see IBA-NOTES.md) */
	IBR_SMP_ATTR_ROUTER_INFO = 0xFFD0,
	IBR_SMP_ATTR_NEXT_HOP_TABLE = 0xFFD1,
	IBR_SMP_ATTR_ADJ_SITE_LOCAL_SUBNETS = 0xFFD2,
	/* SA records (15.2.5) */
	IBR_SA_ATTR_NODE_RECORD = 0x0011,
	IBR_SA_ATTR_PORT_INFO_RECORD = 0x0012,
	IBR_SA_ATTR_SL2VL_RECORD = 0x0013,
	IBR_SA_ATTR_SWITCH_INFO_RECORD = 0x0014,
	IBR_SA_ATTR_LFT_RECORD = 0x0015,
	IBR_SA_ATTR_RFT_RECORD = 0x0016,
	IBR_SA_ATTR_MFT_RECORD = 0x0017,
	IBR_SA_ATTR_SM_INFO_RECORD = 0x0018,
	IBR_SA_ATTR_LINK_RECORD = 0x0020,
	IBR_SA_ATTR_GUID_INFO_RECORD = 0x0030,
	IBR_SA_ATTR_SERVICE_RECORD = 0x0031,
	IBR_SA_ATTR_PKEY_TABLE_RECORD = 0x0033,
	IBR_SA_ATTR_PATH_RECORD = 0x0035,
	IBR_SA_ATTR_VL_ARB_RECORD = 0x0036,
	IBR_SA_ATTR_MCMEMBER_RECORD = 0x0038,
	IBR_SA_ATTR_TRACE_RECORD = 0x0039,
	IBR_SA_ATTR_MULTI_PATH_RECORD = 0x003A,
	IBR_SA_ATTR_SERVICE_ASSOC_RECORD = 0x003B,
	IBR_SA_ATTR_INFORM_INFO_RECORD = 0x00F3,
};

/* ---- names for logging (never NULL; unknown values give "unknown") ---- */

/* "SubnMgmt", "SubnMgmtDR", "SubnAdm", "PerfMgt", ..., "Vendor", "Application", "reserved". */
const char *ibr_mad_class_name(uint8_t mgmt_class);
/* "Get", "Set", "GetResp", ..., with the R bit; "unknown" otherwise. */
const char *ibr_mad_method_name(uint8_t method);
/* Attribute IDs depend on the class: NodeInfo (SMP) and NodeRecord (SA) are both 0x11. */
const char *ibr_mad_attr_name(uint8_t mgmt_class, uint16_t attr_id);
/* The code part of a status (bits 0-4) and, for SA, the class-specific byte. */
const char *ibr_mad_status_name(uint8_t mgmt_class, uint16_t status);

/* ---- big-endian loads and stores ---- */

static inline uint16_t ibr_mad_ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t ibr_mad_ld32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t ibr_mad_ld64(const uint8_t *p)
{
	return (uint64_t)ibr_mad_ld32(p) << 32 | ibr_mad_ld32(p + 4);
}

static inline void ibr_mad_st16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void ibr_mad_st32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void ibr_mad_st64(uint8_t *p, uint64_t v)
{
	ibr_mad_st32(p, (uint32_t)(v >> 32));
	ibr_mad_st32(p + 4, (uint32_t)v);
}

/* ---- common header (13.4.2): at least IBR_MAD_HDR_SIZE bytes ---- */

/* The common header, decoded to host order. */
struct ibr_mad_hdr {
	uint8_t base_version;
	uint8_t mgmt_class;
	uint8_t class_version;
	uint8_t method; /* with the R bit (0x80) */
	uint16_t status;
	uint16_t class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint16_t resv;
	uint32_t attr_mod;
};

/* Why ibr_mad_parse() refused a MAD (a validator's reason). */
enum ibr_mad_err {
	IBR_MAD_OK = 0,
	IBR_MAD_ERR_SHORT,	   /* shorter than the 24-byte common header */
	IBR_MAD_ERR_LENGTH,	   /* wrong length for the class */
	IBR_MAD_ERR_BASE_VERSION,  /* BaseVersion != 1 */
	IBR_MAD_ERR_CLASS,	   /* reserved management class */
	IBR_MAD_ERR_CLASS_VERSION, /* class version not the one of the class */
};

/*
 * Check a received MAD and decode its common header into *out.  Checks, in
 * order: len >= 24 (else SHORT, *out untouched), BaseVersion 1, a known
 * class, its class version, then the length: SMPs exactly 256 bytes; other
 * MADs 256 bytes, except that a class with RMPP (SA, vendor range 2) whose
 * RMPP Active flag is set may arrive reassembled by the kernel's RMPP layer
 * (Linux umad ABI: first header, then all segments' data) and so be of any
 * length from its header size (56 for SA, 36 for vendor) up.  *out is filled
 * whenever len >= 24, so that the caller can log or answer with
 * IBR_MAD_STATUS_BAD_VERSION.
 */
enum ibr_mad_err ibr_mad_parse(const void *buf, size_t len, struct ibr_mad_hdr *out);
const char *ibr_mad_err_name(enum ibr_mad_err err);

/* Encode *h into the first 24 bytes of buf. */
void ibr_mad_hdr_encode(const struct ibr_mad_hdr *h, void *buf);
/* Decode the first 24 bytes of buf (no checks). */
void ibr_mad_hdr_decode(const void *buf, struct ibr_mad_hdr *h);

static inline uint8_t ibr_mad_base_version(const uint8_t *m)
{
	return m[0];
}

static inline void ibr_mad_set_base_version(uint8_t *m, uint8_t v)
{
	m[0] = v;
}

static inline uint8_t ibr_mad_mgmt_class(const uint8_t *m)
{
	return m[1];
}

static inline void ibr_mad_set_mgmt_class(uint8_t *m, uint8_t v)
{
	m[1] = v;
}

static inline uint8_t ibr_mad_class_version(const uint8_t *m)
{
	return m[2];
}

static inline void ibr_mad_set_class_version(uint8_t *m, uint8_t v)
{
	m[2] = v;
}

/* The whole method byte, R bit included. */
static inline uint8_t ibr_mad_method(const uint8_t *m)
{
	return m[3];
}

static inline void ibr_mad_set_method(uint8_t *m, uint8_t v)
{
	m[3] = v;
}

static inline bool ibr_mad_is_response(const uint8_t *m)
{
	return (m[3] & IBR_MAD_METHOD_RESP) != 0;
}

/* Status as 16 bits; in a DR SMP it includes the D bit (see ibr_smp_dr_*). */
static inline uint16_t ibr_mad_status(const uint8_t *m)
{
	return ibr_mad_ld16(m + 4);
}

static inline void ibr_mad_set_status(uint8_t *m, uint16_t v)
{
	ibr_mad_st16(m + 4, v);
}

static inline uint16_t ibr_mad_class_specific(const uint8_t *m)
{
	return ibr_mad_ld16(m + 6);
}

static inline void ibr_mad_set_class_specific(uint8_t *m, uint16_t v)
{
	ibr_mad_st16(m + 6, v);
}

static inline uint64_t ibr_mad_tid(const uint8_t *m)
{
	return ibr_mad_ld64(m + 8);
}

static inline void ibr_mad_set_tid(uint8_t *m, uint64_t v)
{
	ibr_mad_st64(m + 8, v);
}

static inline uint16_t ibr_mad_attr_id(const uint8_t *m)
{
	return ibr_mad_ld16(m + 16);
}

static inline void ibr_mad_set_attr_id(uint8_t *m, uint16_t v)
{
	ibr_mad_st16(m + 16, v);
}

static inline uint32_t ibr_mad_attr_mod(const uint8_t *m)
{
	return ibr_mad_ld32(m + 20);
}

static inline void ibr_mad_set_attr_mod(uint8_t *m, uint32_t v)
{
	ibr_mad_st32(m + 20, v);
}

/* ---- SMP (14.2.1): IBR_MAD_SIZE bytes ---- */

static inline bool ibr_smp_is_dr(const uint8_t *m)
{
	return m[1] == IBR_MGMT_CLASS_SUBN_DR;
}

static inline uint64_t ibr_smp_mkey(const uint8_t *m)
{
	return ibr_mad_ld64(m + IBR_SMP_MKEY_OFFS);
}

static inline void ibr_smp_set_mkey(uint8_t *m, uint64_t v)
{
	ibr_mad_st64(m + IBR_SMP_MKEY_OFFS, v);
}

/* The 64 bytes of SMP data (attribute contents). */
static inline uint8_t *ibr_smp_data(uint8_t *m)
{
	return m + IBR_SMP_DATA_OFFS;
}

/* DR SMP (14.2.1.2): D bit, 15-bit Status, HopPointer, HopCount, DrSLID, DrDLID. */

static inline bool ibr_smp_dr_direction(const uint8_t *m)
{
	return (m[4] & 0x80) != 0;
}

static inline void ibr_smp_dr_set_direction(uint8_t *m, bool returning)
{
	m[4] = (uint8_t)((m[4] & 0x7F) | (returning ? 0x80 : 0));
}

static inline uint16_t ibr_smp_dr_status(const uint8_t *m)
{
	return ibr_mad_ld16(m + 4) & IBR_SMP_DR_STATUS_MASK;
}

/* Sets the low 15 bits of Status; keeps the D bit. */
static inline void ibr_smp_dr_set_status(uint8_t *m, uint16_t v)
{
	ibr_mad_st16(m + 4, (uint16_t)((ibr_mad_ld16(m + 4) & IBR_SMP_DR_STATUS_D) |
				       (v & IBR_SMP_DR_STATUS_MASK)));
}

/* ClassSpecific high byte. */
static inline uint8_t ibr_smp_dr_hop_pointer(const uint8_t *m)
{
	return m[6];
}

static inline void ibr_smp_dr_set_hop_pointer(uint8_t *m, uint8_t v)
{
	m[6] = v;
}

/* ClassSpecific low byte. */
static inline uint8_t ibr_smp_dr_hop_count(const uint8_t *m)
{
	return m[7];
}

static inline void ibr_smp_dr_set_hop_count(uint8_t *m, uint8_t v)
{
	m[7] = v;
}

static inline uint16_t ibr_smp_dr_slid(const uint8_t *m)
{
	return ibr_mad_ld16(m + IBR_SMP_DR_SLID_OFFS);
}

static inline void ibr_smp_dr_set_slid(uint8_t *m, uint16_t v)
{
	ibr_mad_st16(m + IBR_SMP_DR_SLID_OFFS, v);
}

static inline uint16_t ibr_smp_dr_dlid(const uint8_t *m)
{
	return ibr_mad_ld16(m + IBR_SMP_DR_DLID_OFFS);
}

static inline void ibr_smp_dr_set_dlid(uint8_t *m, uint16_t v)
{
	ibr_mad_st16(m + IBR_SMP_DR_DLID_OFFS, v);
}

/*
 * InitialPath[idx] and ReturnPath[idx], idx 0..63 (entry 0 is unused by the
 * DR rules, 14.2.2, but readable).  0, or -EINVAL for idx > 63.
 */
int ibr_smp_dr_initial_path(const uint8_t *m, unsigned int idx, uint8_t *port);
int ibr_smp_dr_set_initial_path(uint8_t *m, unsigned int idx, uint8_t port);
int ibr_smp_dr_return_path(const uint8_t *m, unsigned int idx, uint8_t *port);
int ibr_smp_dr_set_return_path(uint8_t *m, unsigned int idx, uint8_t port);

/* ---- RMPP header (13.6.2.1): bytes 24..35 ---- */

#define IBR_RMPP_VERSION 1

enum ibr_rmpp_type {
	IBR_RMPP_TYPE_NONE = 0,
	IBR_RMPP_TYPE_DATA = 1,
	IBR_RMPP_TYPE_ACK = 2,
	IBR_RMPP_TYPE_STOP = 3,
	IBR_RMPP_TYPE_ABORT = 4,
};

#define IBR_RMPP_FLAG_ACTIVE 0x1
#define IBR_RMPP_FLAG_FIRST  0x2
#define IBR_RMPP_FLAG_LAST   0x4

/* RMPPStatus (13.6.2.1) */
#define IBR_RMPP_STATUS_NORMAL		 0
#define IBR_RMPP_STATUS_RESOURCES	 1   /* resources exhausted (STOP) */
#define IBR_RMPP_STATUS_TOTAL_TIME	 118 /* ABORT codes from here */
#define IBR_RMPP_STATUS_BAD_LAST_LEN	 119 /* inconsistent Last and PayloadLength */
#define IBR_RMPP_STATUS_BAD_FIRST_SEG	 120 /* inconsistent First and SegmentNumber */
#define IBR_RMPP_STATUS_BAD_TYPE	 121
#define IBR_RMPP_STATUS_NEW_WINDOW_LAST	 122 /* NewWindowLast too small */
#define IBR_RMPP_STATUS_SEG_TOO_BIG	 123
#define IBR_RMPP_STATUS_ILLEGAL_STATUS	 124
#define IBR_RMPP_STATUS_BAD_VERSION	 125
#define IBR_RMPP_STATUS_TOO_MANY_RETRIES 126
#define IBR_RMPP_STATUS_UNSPECIFIED	 127

static inline uint8_t ibr_rmpp_version(const uint8_t *m)
{
	return m[24];
}

static inline void ibr_rmpp_set_version(uint8_t *m, uint8_t v)
{
	m[24] = v;
}

static inline uint8_t ibr_rmpp_type(const uint8_t *m)
{
	return m[25];
}

static inline void ibr_rmpp_set_type(uint8_t *m, uint8_t v)
{
	m[25] = v;
}

/* RRespTime: the top 5 bits of byte 26. */
static inline uint8_t ibr_rmpp_resp_time(const uint8_t *m)
{
	return m[26] >> 3;
}

static inline void ibr_rmpp_set_resp_time(uint8_t *m, uint8_t v)
{
	m[26] = (uint8_t)((m[26] & 0x07) | (v & 0x1F) << 3);
}

/* RMPPFlags: the low 3 bits of byte 26 (IBR_RMPP_FLAG_*). */
static inline uint8_t ibr_rmpp_flags(const uint8_t *m)
{
	return m[26] & 0x07;
}

static inline void ibr_rmpp_set_flags(uint8_t *m, uint8_t v)
{
	m[26] = (uint8_t)((m[26] & 0xF8) | (v & 0x07));
}

static inline uint8_t ibr_rmpp_status(const uint8_t *m)
{
	return m[27];
}

static inline void ibr_rmpp_set_status(uint8_t *m, uint8_t v)
{
	m[27] = v;
}

/* Data1: SegmentNumber in DATA and ACK packets. */
static inline uint32_t ibr_rmpp_seg_num(const uint8_t *m)
{
	return ibr_mad_ld32(m + 28);
}

static inline void ibr_rmpp_set_seg_num(uint8_t *m, uint32_t v)
{
	ibr_mad_st32(m + 28, v);
}

/* Data2: PayloadLength in DATA packets, NewWindowLast in ACK packets. */
static inline uint32_t ibr_rmpp_data2(const uint8_t *m)
{
	return ibr_mad_ld32(m + 32);
}

static inline void ibr_rmpp_set_data2(uint8_t *m, uint32_t v)
{
	ibr_mad_st32(m + 32, v);
}

/*
 * True for a MAD of a class with RMPP (len >= 36) whose RMPP header says the
 * Active flag but RMPPVersion 0 and neither First nor Last: the sender asked
 * for RMPP and no RMPP layer ran, which is what umad2sim delivers for a
 * multi-MAD GetTable response cut after its first MAD (lab/LAB.md).  A real
 * RMPP transfer always has version 1, and its single or first segment has First.
 */
bool ibr_rmpp_is_umad2sim_truncated(const void *mad, size_t len);

/* ---- SA header (15.2.1.1): bytes 36..55, data from 56 ---- */

static inline uint64_t ibr_sa_sm_key(const uint8_t *m)
{
	return ibr_mad_ld64(m + IBR_SA_SM_KEY_OFFS);
}

static inline void ibr_sa_set_sm_key(uint8_t *m, uint64_t v)
{
	ibr_mad_st64(m + IBR_SA_SM_KEY_OFFS, v);
}

/* AttributeOffset: record size in 8-byte words (GetTable responses). */
static inline uint16_t ibr_sa_attr_offset(const uint8_t *m)
{
	return ibr_mad_ld16(m + IBR_SA_ATTR_OFFSET_OFFS);
}

static inline void ibr_sa_set_attr_offset(uint8_t *m, uint16_t v)
{
	ibr_mad_st16(m + IBR_SA_ATTR_OFFSET_OFFS, v);
}

static inline uint64_t ibr_sa_comp_mask(const uint8_t *m)
{
	return ibr_mad_ld64(m + IBR_SA_COMP_MASK_OFFS);
}

static inline void ibr_sa_set_comp_mask(uint8_t *m, uint64_t v)
{
	ibr_mad_st64(m + IBR_SA_COMP_MASK_OFFS, v);
}

static inline uint8_t *ibr_sa_data(uint8_t *m)
{
	return m + IBR_SA_DATA_OFFS;
}

/* ---- builders: each fills a whole IBR_MAD_SIZE-byte buffer ---- */

/*
 * Zero the MAD and write a request header: BaseVersion 1, the class's
 * default version (1 if it has none), method, TID, AttributeID and
 * AttributeModifier.  0, or -EINVAL for a reserved class.
 */
int ibr_mad_build(uint8_t *m, uint8_t mgmt_class, uint8_t method, uint16_t attr_id,
		  uint32_t attr_mod, uint64_t tid);
int ibr_mad_build_get(uint8_t *m, uint8_t mgmt_class, uint16_t attr_id, uint32_t attr_mod,
		      uint64_t tid);
int ibr_mad_build_set(uint8_t *m, uint8_t mgmt_class, uint16_t attr_id, uint32_t attr_mod,
		      uint64_t tid);
/* A Report (13.4.5; SA Reports carry attribute Notice, 15.2.5.1). */
int ibr_mad_build_report(uint8_t *m, uint8_t mgmt_class, uint16_t attr_id, uint64_t tid);

/*
 * The response to the req_len-byte MAD `req` in the IBR_MAD_SIZE-byte `resp`
 * (they may be the same buffer): a copy of the request's first 256 bytes
 * (zero-filled if req_len is shorter) so that TID, AttributeID,
 * AttributeModifier and, for a DR SMP, HopCount, HopPointer, DrSLID/DrDLID
 * and the paths are echoed (13.4.6.2, 14.2.2), with the response method,
 * `status`, and for a DR SMP the D bit set (the hop pointer is left to the DR
 * rules, 14.2.2.2).  Classes with RMPP get the RMPP header cleared.  0, or
 * -EINVAL if req_len < 24 or req's method has no response
 * (ibr_mad_response_method()); resp is untouched then.
 */
int ibr_mad_build_response(uint8_t *resp, const uint8_t *req, size_t req_len, uint16_t status);

/*
 * A directed-route SMP request leaving this port (14.2.2.1): method, attr,
 * TID, M_Key, DrSLID = DrDLID = permissive (a pure directed route), D = 0,
 * HopPointer 0, HopCount = hops and InitialPath[1..hops] = path[0..hops-1].
 * 0, or -EINVAL if hops > 63.
 */
int ibr_mad_build_dr_smp(uint8_t *m, uint8_t method, uint16_t attr_id, uint32_t attr_mod,
			 uint64_t tid, uint64_t mkey, const uint8_t *path, unsigned int hops);

/* An SA request (15.2.1.1): class 0x03 version 2, SM_Key, ComponentMask. */
int ibr_mad_build_sa(uint8_t *m, uint8_t method, uint16_t attr_id, uint64_t comp_mask,
		     uint64_t sm_key, uint64_t tid);

#endif
