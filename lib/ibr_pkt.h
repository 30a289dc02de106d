/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_pkt.h - data-path packet headers: LRH, GRH, BTH, DETH (and the raw
 * headers RWH and IPv6), a whole-packet parser, a UD packet builder and a
 * one-line formatter.
 *
 * A packet here is what the sim backend carries in one datagram: the bytes on
 * the wire from the first LRH byte through the VCRC (IBA vol. 1, ch. 5):
 *
 *	IBA local	LRH BTH [DETH [ImmDt]] payload pad ICRC VCRC	(LNH 2)
 *	IBA global	LRH GRH BTH [DETH [ImmDt]] payload pad ICRC VCRC	(LNH 3)
 *	raw IPv6	LRH IPv6-header payload VCRC			(LNH 1)
 *	raw EtherType	LRH RWH payload VCRC				(LNH 0)
 *
 * Raw packets carry no ICRC (IBA 7.8.1: the ICRC is present only when the
 * LNH says an IBA transport header follows).
 *
 * Headers are byte arrays, so a pointer into a received buffer can be used at
 * any alignment; every field is read and written through the static inline
 * accessors below, in network byte order.  They are on the router's data
 * path: each compiles to a load, a byte swap and a mask.  Setters keep every
 * other bit of the header, reserved bits included.
 */
#ifndef IBR_PKT_H
#define IBR_PKT_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/crc/ibr_crc.h" /* IBR_ICRC_LEN, IBR_VCRC_LEN */
#include "lib/ibr_gid.h"

/* ---- sizes (bytes) ---- */
#define IBR_LRH_LEN   8
#define IBR_GRH_LEN   40
#define IBR_BTH_LEN   12
#define IBR_DETH_LEN  8
#define IBR_IMMDT_LEN 4
#define IBR_RWH_LEN   4
#define IBR_GID_LEN   16
/* LRH PktLen is 11 bits of 4-byte words (LRH through ICRC); VCRC comes on top. */
#define IBR_PKTLEN_MAX	0x7ff
#define IBR_PKT_MAX_LEN (IBR_PKTLEN_MAX * 4 + IBR_VCRC_LEN)

/* ---- LRH Link Next Header (IBA 7.7) ---- */
#define IBR_LNH_RAW	   0 /* raw, RWH (EtherType) follows */
#define IBR_LNH_RAW_IPV6   1 /* raw, an IPv6 header follows (non-IBA transport) */
#define IBR_LNH_IBA_LOCAL  2 /* BTH follows */
#define IBR_LNH_IBA_GLOBAL 3 /* GRH then BTH follow */

/* ---- GRH constants (IBA 8.3) ---- */
#define IBR_GRH_IPVER	   6	/* C8-2: IPVer is 6 */
#define IBR_GRH_NXTHDR_IBA 0x1B /* C8-7: NxtHdr of an IBA packet (BTH follows) */

/*
 * LIDs: IBR_LID_RESERVED, IBR_LID_UCAST_MIN/MAX (0x0001-0xBFFF),
 * IBR_LID_MCAST_MIN/MAX (0xC000-0xFFFE), IBR_LID_PERMISSIVE (0xFFFF) and
 * ibr_lid_is_unicast()/ibr_lid_is_mcast() come from lib/ibr_gid.h.
 */

/* ---- QPs, keys, VLs ---- */
#define IBR_QP0		 0x000000 /* SMI: SMPs, always on VL15 */
#define IBR_QP1		 0x000001 /* GSI */
#define IBR_QPN_MCAST	 0xFFFFFF /* DestQP of every multicast packet */
#define IBR_QPN_MASK	 0xFFFFFF
#define IBR_PSN_MASK	 0xFFFFFF
#define IBR_QKEY_GSI	 0x80010000u /* the well-known Q_Key of QP1 */
#define IBR_PKEY_DEFAULT 0xFFFF
#define IBR_VL15	 15 /* management VL: SMPs only */

/* ---- BTH OpCode (IBA 9.2): bits 7-5 transport, bits 4-0 operation ---- */
#define IBR_BTH_OP_GROUP(op)	    ((uint8_t)(op) >> 5)
#define IBR_BTH_GRP_RC		    0 /* 000 reliable connection */
#define IBR_BTH_GRP_UC		    1 /* 001 unreliable connection */
#define IBR_BTH_GRP_RD		    2 /* 010 reliable datagram */
#define IBR_BTH_GRP_UD		    3 /* 011 unreliable datagram: DETH follows the BTH */
#define IBR_BTH_GRP_CNP		    4 /* 100 congestion notification (IBA 1.2.1 A10) */
#define IBR_BTH_GRP_XRC		    5 /* 101 extended reliable connection (A14) */
#define IBR_BTH_OP_UD_SEND_ONLY	    0x64
#define IBR_BTH_OP_UD_SEND_ONLY_IMM 0x65 /* ImmDt follows the DETH */
#define IBR_BTH_OP_CNP		    0x80

/* ---- wire structs ---- */
struct ibr_lrh {
	uint8_t b[IBR_LRH_LEN];
};
struct ibr_grh {
	uint8_t b[IBR_GRH_LEN];
};
struct ibr_bth {
	uint8_t b[IBR_BTH_LEN];
};
struct ibr_deth {
	uint8_t b[IBR_DETH_LEN];
};
struct ibr_rwh {
	uint8_t b[IBR_RWH_LEN];
};
_Static_assert(sizeof(struct ibr_lrh) == 8, "LRH is 8 bytes");
_Static_assert(sizeof(struct ibr_grh) == 40, "GRH is 40 bytes");
_Static_assert(sizeof(struct ibr_bth) == 12, "BTH is 12 bytes");
_Static_assert(sizeof(struct ibr_deth) == 8, "DETH is 8 bytes");
_Static_assert(sizeof(struct ibr_rwh) == 4, "RWH is 4 bytes");

/* ---- big-endian loads and stores at any alignment ---- */
static inline uint16_t ibr_be16_get(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return be16toh(v);
}

static inline void ibr_be16_put(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint32_t ibr_be32_get(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline void ibr_be32_put(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint64_t ibr_be64_get(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

/* Replace the bits of `mask` in the big-endian word at p. */
static inline void ibr_be32_setbits(uint8_t *p, uint32_t mask, uint32_t v)
{
	ibr_be32_put(p, (ibr_be32_get(p) & ~mask) | (v & mask));
}

static inline void ibr_be16_setbits(uint8_t *p, uint16_t mask, uint16_t v)
{
	ibr_be16_put(p, (uint16_t)((ibr_be16_get(p) & ~mask) | (v & mask)));
}

static inline void ibr_u8_setbits(uint8_t *p, uint8_t mask, uint8_t v)
{
	*p = (uint8_t)((*p & ~mask) | (v & mask));
}

/* The CRCs are stored least-significant byte first (IBA 7.8). */
static inline uint32_t ibr_le32_get(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline void ibr_le32_put(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint16_t ibr_le16_get(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline void ibr_le16_put(uint8_t *p, uint16_t v)
{
	v = htole16(v);
	memcpy(p, &v, sizeof(v));
}

/*
 * ---- LRH, IBA 7.7 ----
 *	byte 0	VL(4) LVer(4)
 *	byte 1	SL(4) rsv(2) LNH(2)
 *	2-3	DLID
 *	4-5	rsv(5) PktLen(11): 4-byte words from the first LRH byte through the
 *		ICRC (the last byte before the VCRC)
 *	6-7	SLID
 */
static inline uint8_t ibr_lrh_get_vl(const struct ibr_lrh *h)
{
	return h->b[0] >> 4;
}

static inline void ibr_lrh_set_vl(struct ibr_lrh *h, uint8_t vl)
{
	ibr_u8_setbits(&h->b[0], 0xf0, (uint8_t)(vl << 4));
}

/* Link version: 0 (IBA 7.7); a receiver drops any other value. */
static inline uint8_t ibr_lrh_get_lver(const struct ibr_lrh *h)
{
	return h->b[0] & 0x0f;
}

static inline void ibr_lrh_set_lver(struct ibr_lrh *h, uint8_t lver)
{
	ibr_u8_setbits(&h->b[0], 0x0f, lver);
}

static inline uint8_t ibr_lrh_get_sl(const struct ibr_lrh *h)
{
	return h->b[1] >> 4;
}

static inline void ibr_lrh_set_sl(struct ibr_lrh *h, uint8_t sl)
{
	ibr_u8_setbits(&h->b[1], 0xf0, (uint8_t)(sl << 4));
}

static inline uint8_t ibr_lrh_get_lnh(const struct ibr_lrh *h)
{
	return h->b[1] & 0x03;
}

static inline void ibr_lrh_set_lnh(struct ibr_lrh *h, uint8_t lnh)
{
	ibr_u8_setbits(&h->b[1], 0x03, lnh);
}

static inline uint16_t ibr_lrh_get_dlid(const struct ibr_lrh *h)
{
	return ibr_be16_get(&h->b[2]);
}

static inline void ibr_lrh_set_dlid(struct ibr_lrh *h, uint16_t lid)
{
	ibr_be16_put(&h->b[2], lid);
}

static inline uint16_t ibr_lrh_get_pktlen(const struct ibr_lrh *h)
{
	return ibr_be16_get(&h->b[4]) & IBR_PKTLEN_MAX;
}

static inline void ibr_lrh_set_pktlen(struct ibr_lrh *h, uint16_t words)
{
	ibr_be16_setbits(&h->b[4], IBR_PKTLEN_MAX, words);
}

static inline uint16_t ibr_lrh_get_slid(const struct ibr_lrh *h)
{
	return ibr_be16_get(&h->b[6]);
}

static inline void ibr_lrh_set_slid(struct ibr_lrh *h, uint16_t lid)
{
	ibr_be16_put(&h->b[6], lid);
}

/*
 * ---- GRH, IBA 8.3 (the layout of an IPv6 header) ----
 *	0-3	IPVer(4)=6 TClass(8) FlowLabel(20)
 *	4-5	PayLen: bytes from the first byte after the GRH through the ICRC
 *	6	NxtHdr = 0x1B (C8-7)
 *	7	HopLmt
 *	8-23	SGID
 *	24-39	DGID
 * A router keeps IPVer (C8-12), TClass (C8-13), PayLen and NxtHdr (C8-14/15),
 * SGID and DGID (C8-17/18); it decrements HopLmt (C8-16).
 */
static inline uint8_t ibr_grh_get_ipver(const struct ibr_grh *h)
{
	return h->b[0] >> 4;
}

static inline void ibr_grh_set_ipver(struct ibr_grh *h, uint8_t v)
{
	ibr_u8_setbits(&h->b[0], 0xf0, (uint8_t)(v << 4));
}

static inline uint8_t ibr_grh_get_tclass(const struct ibr_grh *h)
{
	return (uint8_t)(ibr_be16_get(&h->b[0]) >> 4);
}

static inline void ibr_grh_set_tclass(struct ibr_grh *h, uint8_t tc)
{
	ibr_be16_setbits(&h->b[0], 0x0ff0, (uint16_t)(tc << 4));
}

static inline uint32_t ibr_grh_get_flowlabel(const struct ibr_grh *h)
{
	return ibr_be32_get(&h->b[0]) & 0xfffff;
}

static inline void ibr_grh_set_flowlabel(struct ibr_grh *h, uint32_t fl)
{
	ibr_be32_setbits(&h->b[0], 0xfffff, fl);
}

static inline uint16_t ibr_grh_get_paylen(const struct ibr_grh *h)
{
	return ibr_be16_get(&h->b[4]);
}

static inline void ibr_grh_set_paylen(struct ibr_grh *h, uint16_t len)
{
	ibr_be16_put(&h->b[4], len);
}

static inline uint8_t ibr_grh_get_nxthdr(const struct ibr_grh *h)
{
	return h->b[6];
}

static inline void ibr_grh_set_nxthdr(struct ibr_grh *h, uint8_t nh)
{
	h->b[6] = nh;
}

static inline uint8_t ibr_grh_get_hoplmt(const struct ibr_grh *h)
{
	return h->b[7];
}

static inline void ibr_grh_set_hoplmt(struct ibr_grh *h, uint8_t hl)
{
	h->b[7] = hl;
}

/* The GIDs in place (16 bytes, network order), for lookups without a copy. */
static inline const uint8_t *ibr_grh_sgid(const struct ibr_grh *h)
{
	return &h->b[8];
}

static inline const uint8_t *ibr_grh_dgid(const struct ibr_grh *h)
{
	return &h->b[24];
}

static inline void ibr_grh_get_sgid(const struct ibr_grh *h, uint8_t gid[IBR_GID_LEN])
{
	memcpy(gid, &h->b[8], IBR_GID_LEN);
}

static inline void ibr_grh_set_sgid(struct ibr_grh *h, const uint8_t gid[IBR_GID_LEN])
{
	memcpy(&h->b[8], gid, IBR_GID_LEN);
}

static inline void ibr_grh_get_dgid(const struct ibr_grh *h, uint8_t gid[IBR_GID_LEN])
{
	memcpy(gid, &h->b[24], IBR_GID_LEN);
}

static inline void ibr_grh_set_dgid(struct ibr_grh *h, const uint8_t gid[IBR_GID_LEN])
{
	memcpy(&h->b[24], gid, IBR_GID_LEN);
}

/* Subnet prefix and interface ID halves of the GIDs, in host order. */
static inline uint64_t ibr_grh_get_sgid_prefix(const struct ibr_grh *h)
{
	return ibr_be64_get(&h->b[8]);
}

static inline uint64_t ibr_grh_get_sgid_iid(const struct ibr_grh *h)
{
	return ibr_be64_get(&h->b[16]);
}

static inline uint64_t ibr_grh_get_dgid_prefix(const struct ibr_grh *h)
{
	return ibr_be64_get(&h->b[24]);
}

static inline uint64_t ibr_grh_get_dgid_iid(const struct ibr_grh *h)
{
	return ibr_be64_get(&h->b[32]);
}

/*
 * ---- BTH, IBA 9.2 ----
 *	0	OpCode
 *	1	SE(1) M(1) PadCnt(2) TVer(4)
 *	2-3	P_Key
 *	4	FECN(1) BECN(1) rsv(6)	(IBA 1.0: 8 reserved bits; FECN/BECN from
 *					 1.2, Annex A10 congestion control)
 *	5-7	DestQP
 *	8	A(1) rsv(7)
 *	9-11	PSN
 * Byte 4 is variant (a switch may set FECN): the ICRC covers it as all ones.
 */
static inline uint8_t ibr_bth_get_opcode(const struct ibr_bth *h)
{
	return h->b[0];
}

static inline void ibr_bth_set_opcode(struct ibr_bth *h, uint8_t op)
{
	h->b[0] = op;
}

/* Solicited Event */
static inline bool ibr_bth_get_se(const struct ibr_bth *h)
{
	return h->b[1] >> 7;
}

static inline void ibr_bth_set_se(struct ibr_bth *h, bool se)
{
	ibr_u8_setbits(&h->b[1], 0x80, se ? 0x80 : 0);
}

/* MigReq */
static inline bool ibr_bth_get_migreq(const struct ibr_bth *h)
{
	return (h->b[1] >> 6) & 1;
}

static inline void ibr_bth_set_migreq(struct ibr_bth *h, bool m)
{
	ibr_u8_setbits(&h->b[1], 0x40, m ? 0x40 : 0);
}

/* Pad bytes at the end of the payload, before the ICRC (0..3). */
static inline uint8_t ibr_bth_get_padcnt(const struct ibr_bth *h)
{
	return (h->b[1] >> 4) & 0x03;
}

static inline void ibr_bth_set_padcnt(struct ibr_bth *h, uint8_t pad)
{
	ibr_u8_setbits(&h->b[1], 0x30, (uint8_t)(pad << 4));
}

static inline uint8_t ibr_bth_get_tver(const struct ibr_bth *h)
{
	return h->b[1] & 0x0f;
}

static inline void ibr_bth_set_tver(struct ibr_bth *h, uint8_t tver)
{
	ibr_u8_setbits(&h->b[1], 0x0f, tver);
}

static inline uint16_t ibr_bth_get_pkey(const struct ibr_bth *h)
{
	return ibr_be16_get(&h->b[2]);
}

static inline void ibr_bth_set_pkey(struct ibr_bth *h, uint16_t pkey)
{
	ibr_be16_put(&h->b[2], pkey);
}

/* Forward Explicit Congestion Notification */
static inline bool ibr_bth_get_fecn(const struct ibr_bth *h)
{
	return h->b[4] >> 7;
}

static inline void ibr_bth_set_fecn(struct ibr_bth *h, bool f)
{
	ibr_u8_setbits(&h->b[4], 0x80, f ? 0x80 : 0);
}

/* Backward Explicit Congestion Notification */
static inline bool ibr_bth_get_becn(const struct ibr_bth *h)
{
	return (h->b[4] >> 6) & 1;
}

static inline void ibr_bth_set_becn(struct ibr_bth *h, bool b)
{
	ibr_u8_setbits(&h->b[4], 0x40, b ? 0x40 : 0);
}

static inline uint32_t ibr_bth_get_destqp(const struct ibr_bth *h)
{
	return ibr_be32_get(&h->b[4]) & IBR_QPN_MASK;
}

static inline void ibr_bth_set_destqp(struct ibr_bth *h, uint32_t qpn)
{
	ibr_be32_setbits(&h->b[4], IBR_QPN_MASK, qpn);
}

/* AckReq */
static inline bool ibr_bth_get_ackreq(const struct ibr_bth *h)
{
	return h->b[8] >> 7;
}

static inline void ibr_bth_set_ackreq(struct ibr_bth *h, bool a)
{
	ibr_u8_setbits(&h->b[8], 0x80, a ? 0x80 : 0);
}

static inline uint32_t ibr_bth_get_psn(const struct ibr_bth *h)
{
	return ibr_be32_get(&h->b[8]) & IBR_PSN_MASK;
}

static inline void ibr_bth_set_psn(struct ibr_bth *h, uint32_t psn)
{
	ibr_be32_setbits(&h->b[8], IBR_PSN_MASK, psn);
}

/* Every opcode of the UD group carries a DETH (IBA 9.3). */
static inline bool ibr_bth_op_is_ud(uint8_t op)
{
	return IBR_BTH_OP_GROUP(op) == IBR_BTH_GRP_UD;
}

/*
 * ---- DETH, IBA 9.3 ----
 *	0-3	Q_Key
 *	4	rsv(8)
 *	5-7	SrcQP
 */
static inline uint32_t ibr_deth_get_qkey(const struct ibr_deth *h)
{
	return ibr_be32_get(&h->b[0]);
}

static inline void ibr_deth_set_qkey(struct ibr_deth *h, uint32_t qkey)
{
	ibr_be32_put(&h->b[0], qkey);
}

static inline uint32_t ibr_deth_get_srcqp(const struct ibr_deth *h)
{
	return ibr_be32_get(&h->b[4]) & IBR_QPN_MASK;
}

static inline void ibr_deth_set_srcqp(struct ibr_deth *h, uint32_t qpn)
{
	ibr_be32_setbits(&h->b[4], IBR_QPN_MASK, qpn);
}

/* ---- RWH, the raw header of LNH 0 packets (IBA ch. 5): rsv(16) | EtherType(16) ---- */
static inline uint16_t ibr_rwh_get_ethertype(const struct ibr_rwh *h)
{
	return ibr_be16_get(&h->b[2]);
}

static inline void ibr_rwh_set_ethertype(struct ibr_rwh *h, uint16_t et)
{
	ibr_be16_put(&h->b[2], et);
}

/*
 * ---- parser ----
 * Each reason has its own code so that the router's drop counters can name
 * it.  X(NAME, "counter-name", "description").
 */
#define IBR_PKT_ERRORS(X)                                                                    \
	X(OK, "ok", "no error")                                                              \
	X(SHORT, "short", "shorter than LRH + VCRC")                                         \
	X(LVER, "lver", "LRH LVer is not 0")                                                 \
	X(PKTLEN, "pktlen", "LRH PktLen * 4 + 2 is not the packet length")                   \
	X(SHORT_RWH, "short_rwh", "raw packet too short for its RWH")                        \
	X(SHORT_IPV6, "short_ipv6", "raw IPv6 packet too short for its IPv6 header")         \
	X(SHORT_GRH, "short_grh", "LNH 3 packet too short for GRH + ICRC")                   \
	X(IPVER, "ipver", "GRH IPVer is not 6 (C8-2)")                                       \
	X(NXTHDR, "nxthdr", "GRH NxtHdr is not 0x1B (C8-7)")                                 \
	X(PAYLEN, "paylen", "GRH PayLen disagrees with LRH PktLen")                          \
	X(SHORT_BTH, "short_bth", "IBA packet too short for BTH + ICRC")                     \
	X(SHORT_DETH, "short_deth", "UD packet too short for DETH")                          \
	X(SHORT_IMMDT, "short_immdt", "SEND_ONLY_WITH_IMMEDIATE packet too short for ImmDt") \
	X(PADCNT, "padcnt", "BTH PadCnt larger than the payload")                            \
	X(ICRC, "icrc", "ICRC mismatch")                                                     \
	X(VCRC, "vcrc", "VCRC mismatch")

/* clang-format off */
enum ibr_pkt_err {
#define IBR_PKT_ERR_ENUM(name, id, desc) IBR_PKT_ERR_##name,
	IBR_PKT_ERRORS(IBR_PKT_ERR_ENUM)
#undef IBR_PKT_ERR_ENUM
	IBR_PKT_ERR__COUNT
};
/* clang-format on */

/* "GRH PayLen disagrees ..." / "paylen"; "unknown" out of range. */
const char *ibr_pkt_strerror(enum ibr_pkt_err err);
const char *ibr_pkt_errname(enum ibr_pkt_err err);

/*
 * A parsed packet: pointers into the buffer given to ibr_pkt_parse(), valid
 * while it is.  Headers the packet lacks are NULL.
 */
struct ibr_pkt {
	const uint8_t *buf;	     /* first LRH byte */
	size_t len;		     /* LRH through VCRC */
	const struct ibr_lrh *lrh;   /* always (when len >= 8) */
	const struct ibr_grh *grh;   /* LNH 3 only */
	const struct ibr_grh *ipv6;  /* LNH 1: the raw IPv6 header (GRH layout) */
	const struct ibr_rwh *rwh;   /* LNH 0 */
	const struct ibr_bth *bth;   /* LNH 2 and 3 */
	const struct ibr_deth *deth; /* UD opcode group (011xxxxx) */
	const uint8_t *immdt;	     /* 4 bytes, SEND_ONLY_WITH_IMMEDIATE (0x65) only */
	/*
	 * The bytes after the last header parsed here, pad excluded: for UD the
	 * message data; for RC/UC/RD/XRC/CNP whatever follows the BTH, extension
	 * headers (RETH, AETH, ...) included, since they are not decoded here;
	 * for raw packets everything up to the VCRC (raw packets have no PadCnt).
	 */
	const uint8_t *payload;
	uint16_t payload_len;
	uint16_t hdr_len; /* payload - buf */
	uint8_t lnh;
	uint8_t padcnt;	   /* BTH PadCnt; 0 for raw packets */
	uint16_t icrc_off; /* offset of the ICRC; 0 for raw packets, which have none */
	uint16_t vcrc_off; /* offset of the VCRC: len - 2 */
};

/*
 * Parse one packet of `len` bytes (LRH through VCRC) and check its structure,
 * in this order, each failure with its own reason:
 *   len >= LRH + VCRC; LVer == 0 and PktLen * 4 + 2 == len (IBA 7.7);
 *   the header the LNH names fits (RWH, IPv6 header, or GRH/BTH + ICRC);
 *   with a GRH: IPVer == 6 (C8-2), NxtHdr == 0x1B (C8-7),
 *   PayLen == PktLen * 4 - 8 - 40 (8.3);
 *   the BTH fits; UD opcodes: the DETH fits, and for 0x65 the ImmDt;
 *   PadCnt <= the bytes between the headers and the ICRC.
 * Every length is checked before it is read.  CRCs are not checked (see
 * ibr_pkt_crc_check()), nor router rules such as HopLmt or scopes, nor the
 * transport fields (TVer, reserved opcodes) a router passes through untouched.
 *
 * Returns IBR_PKT_ERR_OK (0) and fills *out, or the first failed check; on
 * failure *out holds what was parsed before it (other fields NULL/0).
 */
enum ibr_pkt_err ibr_pkt_parse(const void *buf, size_t len, struct ibr_pkt *out);

/*
 * Compare the stored CRCs of a successfully parsed packet with computed ones:
 * the VCRC first (the per-link check), then, for IBA packets, the ICRC.
 */
enum ibr_pkt_err ibr_pkt_crc_check(const struct ibr_pkt *p);

/*
 * Compute and store the ICRC (when the LRH's LNH is 2 or 3) and the VCRC of
 * the `len`-byte packet at buf (LRH through VCRC).  Only the LNH and `len` are
 * used: the rest need not be valid (tests build broken packets with good
 * CRCs).  0, or -EINVAL when len is outside LRH + VCRC .. IBR_PKT_MAX_LEN or
 * too short for the headers whose fields the ICRC masks (GRH, BTH).
 */
int ibr_pkt_crc_fill(void *buf, size_t len);

/* ---- builder ---- */
struct ibr_pkt_ud_params {
	uint16_t slid;
	uint16_t dlid;
	uint8_t sl; /* 0..15 */
	uint8_t vl; /* 0..15 */
	bool grh;   /* LNH 3 with a GRH, else LNH 2 */
	uint8_t sgid[IBR_GID_LEN];
	uint8_t dgid[IBR_GID_LEN];
	uint8_t tclass;
	uint32_t flowlabel; /* 0..0xFFFFF */
	uint8_t hoplmt;
	uint8_t opcode; /* 0x64 or 0x65; 0 means 0x64 */
	bool se;	/* BTH solicited event */
	uint16_t pkey;
	uint32_t dest_qp; /* 0..0xFFFFFF */
	uint32_t psn;	  /* 0..0xFFFFFF */
	uint32_t qkey;
	uint32_t src_qp;     /* 0..0xFFFFFF */
	uint32_t immdt;	     /* 0x65 only; written in network order */
	const void *payload; /* may overlap buf */
	size_t payload_len;
};

/*
 * Write a UD packet into buf: LRH (LVer 0, PktLen), the GRH when asked
 * (IPVer 6, NxtHdr 0x1B, PayLen), BTH (PadCnt, TVer 0), DETH, ImmDt for 0x65,
 * the payload, zero pad bytes to a 4-byte boundary, then ICRC and VCRC (from
 * lib/crc/ibr_crc.h).  Reserved bits are 0.  Returns the packet length, -ENOSPC
 * when `size` is too small, or -EINVAL for an out-of-range field, an opcode
 * other than 0x64/0x65, or a packet longer than PktLen can express.
 */
int ibr_pkt_build_ud(void *buf, size_t size, const struct ibr_pkt_ud_params *p);

/* ---- formatter ---- */

/* "RC" "UC" "RD" "UD" "CNP" "XRC" or "VENDOR" (groups 110, 111). */
const char *ibr_bth_op_group_name(uint8_t op);
/* "SEND_ONLY", "RDMA_WRITE_FIRST", ...; NULL for an opcode IBA reserves. */
const char *ibr_bth_op_name(uint8_t op);

/*
 * One line, tcpdump style, for logs and tools, e.g.
 *   lid 0x0001 > 0x0002 vl 0 sl 0 len 74, gid fec0::1 > fec0::2 tc 0x00 fl 0x00000
 *   hop 64, UD SEND_ONLY pkey 0xffff qp 0x000001 > 0x000002 psn 0 qkey 0x80010000,
 *   payload 0 pad 0
 * Like snprintf: writes at most n bytes including the NUL and returns the
 * length the whole line needs.  p comes from ibr_pkt_parse(); after a failed
 * parse the line shows the headers parsed before the failing check.
 */
int ibr_pkt_format(const struct ibr_pkt *p, char *buf, size_t n);

#endif
