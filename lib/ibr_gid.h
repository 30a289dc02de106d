/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_gid.h - GIDs, GID prefixes, GUIDs and LIDs: text forms and classes.
 *
 * IBA vol. 1, 4.1 (addressing): a GID is a 128-bit IPv6-style address made
 * of a 64-bit subnet prefix and a 64-bit interface ID (a port GUID or an
 * alias GUID), in network byte order on the wire and in union ibr_gid.
 * 4.1.1 GID classes (link-local fe80::/10, site-local fec0::/10, global,
 * multicast ff00::/8 with flags and scope); 4.1.3 / 7.11.1 LIDs and the LMC.
 *
 * The classification helpers are static inlines: the router checks SGID and
 * DGID of every packet (IBA 8.4, C8-17/C8-18 and the link-local rule).
 * Everything else (text parsing and printing) lives in ibr_gid.c.
 */
#ifndef IBR_GID_H
#define IBR_GID_H

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * A GID as it appears on the wire (network byte order).  be64[] is there for
 * fast equality and hashing only: it holds the halves in network order, and
 * gives the union 8-byte alignment, so never cast a packet pointer to a
 * union ibr_gid: copy the 16 bytes (memcpy compiles to two loads).
 */
union ibr_gid {
	uint8_t raw[16];
	uint64_t be64[2];
};
_Static_assert(sizeof(union ibr_gid) == 16, "a GID is 16 bytes");

/* Buffer sizes for the text forms, with the terminating NUL. */
#define IBR_GID_STRLEN	      40 /* "ffff:ffff:...:ffff" (8 x 4 + 7), the longest canonical form */
#define IBR_GID_PG_STRLEN     38 /* "0xfec0000000000001:0x0002c90300001234" */
#define IBR_GID_PREFIX_STRLEN 44 /* a GID, "/", up to three digits */
#define IBR_GUID_STRLEN	      19 /* "0x0002c90300001234" */

/* Big-endian 64-bit load/store at any alignment: one load and a byte swap (hot). */
static inline uint64_t ibr_gid_ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline void ibr_gid_st64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

/* The subnet prefix (bytes 0-7), host order. */
static inline uint64_t ibr_gid_prefix(const union ibr_gid *g)
{
	return ibr_gid_ld64(g->raw);
}

/* The interface ID (bytes 8-15: a port GUID or alias GUID), host order. */
static inline uint64_t ibr_gid_guid(const union ibr_gid *g)
{
	return ibr_gid_ld64(g->raw + 8);
}

/* A GID from a host-order subnet prefix and interface ID. */
static inline union ibr_gid ibr_gid_make(uint64_t prefix, uint64_t guid)
{
	union ibr_gid g;

	ibr_gid_st64(g.raw, prefix);
	ibr_gid_st64(g.raw + 8, guid);
	return g;
}

static inline bool ibr_gid_eq(const union ibr_gid *a, const union ibr_gid *b)
{
	return memcmp(a->raw, b->raw, sizeof(a->raw)) == 0;
}

/* ---- classes (IBA 4.1.1) ---- */

enum ibr_gid_class {
	IBR_GID_CLASS_RESERVED,	  /* :: (all zero): never valid in a packet */
	IBR_GID_CLASS_LOOPBACK,	  /* ::1: never valid in a packet */
	IBR_GID_CLASS_LINK_LOCAL, /* fe80::/10 unicast: never forwarded by a router */
	IBR_GID_CLASS_SITE_LOCAL, /* fec0::/10 unicast: forwarded only within the site */
	IBR_GID_CLASS_GLOBAL,	  /* any other unicast */
	IBR_GID_CLASS_MULTICAST,  /* ff00::/8 (an MGID), or an IPv4 group (ibr_gid_is_mcast) */
};

/* Multicast scopes (low nibble of byte 1 of an MGID; IBA 4.1.1, RFC 4291 2.7). */
enum ibr_gid_mcast_scope {
	IBR_MCAST_SCOPE_INTERFACE = 0x1,
	IBR_MCAST_SCOPE_LINK = 0x2, /* never routed */
	IBR_MCAST_SCOPE_REALM = 0x3,
	IBR_MCAST_SCOPE_ADMIN = 0x4,
	IBR_MCAST_SCOPE_SITE = 0x5,
	IBR_MCAST_SCOPE_ORG = 0x8,
	IBR_MCAST_SCOPE_GLOBAL = 0xE,
};

#define IBR_MCAST_FLAG_T 0x1 /* flags nibble 000T: 1 = transient, 0 = well known */

/*
 * The one test of "a group" for every part of the router (config, CLI,
 * engine, RIB, verbs backend, plugin input), on the 16 bytes as they come:
 * an MGID (ff00::/8, IBA 4.1.1), or an IPv4 group as RoCE v2 names it, the
 * IPv4-mapped ::ffff:224.0.0.0/100 (224.0.0.0/4; RoCE annex A17.4.5.2:
 * an IPv4 packet's GIDs are its addresses so mapped; rdma_cm joins an IPv4
 * group on RoCE by that GID).  Byte 0 alone decides the common case.
 */
static inline bool ibr_gid_raw_is_v4mcast(const uint8_t *b)
{
	static const uint8_t mapped[12] = { [10] = 0xFF, [11] = 0xFF };

	return memcmp(b, mapped, sizeof(mapped)) == 0 && (b[12] & 0xF0) == 0xE0;
}

static inline bool ibr_gid_raw_is_mcast(const uint8_t *b)
{
	return b[0] == 0xFF || (b[0] == 0 && ibr_gid_raw_is_v4mcast(b));
}

static inline bool ibr_gid_is_mcast(const union ibr_gid *g)
{
	return ibr_gid_raw_is_mcast(g->raw);
}

/* An IPv4 group (::ffff:224.0.0.0/100), a RoCE v2 port's form of it. */
static inline bool ibr_gid_is_v4mcast(const union ibr_gid *g)
{
	return ibr_gid_raw_is_v4mcast(g->raw);
}

/* fe80::/10, unicast. */
static inline bool ibr_gid_is_link_local(const union ibr_gid *g)
{
	return g->raw[0] == 0xFE && (g->raw[1] & 0xC0) == 0x80;
}

/* fec0::/10, unicast. */
static inline bool ibr_gid_is_site_local(const union ibr_gid *g)
{
	return g->raw[0] == 0xFE && (g->raw[1] & 0xC0) == 0xC0;
}

static inline bool ibr_gid_is_reserved(const union ibr_gid *g)
{
	return (g->be64[0] | g->be64[1]) == 0;
}

/* ::ffff:0:0/96, an IPv4-mapped address: RoCE v2's GID of an IPv4 address (its prefix is 0). */
static inline bool ibr_gid_raw_is_v4mapped(const uint8_t *b)
{
	static const uint8_t mapped[12] = { [10] = 0xFF, [11] = 0xFF };

	return memcmp(b, mapped, sizeof(mapped)) == 0;
}

static inline bool ibr_gid_is_v4mapped(const union ibr_gid *g)
{
	return ibr_gid_raw_is_v4mapped(g->raw);
}

static inline bool ibr_gid_is_loopback(const union ibr_gid *g)
{
	static const uint8_t one[16] = { [15] = 1 };

	return memcmp(g->raw, one, sizeof(one)) == 0;
}

static inline enum ibr_gid_class ibr_gid_class(const union ibr_gid *g)
{
	if (ibr_gid_is_mcast(g))
		return IBR_GID_CLASS_MULTICAST;
	if (ibr_gid_is_link_local(g))
		return IBR_GID_CLASS_LINK_LOCAL;
	if (ibr_gid_is_site_local(g))
		return IBR_GID_CLASS_SITE_LOCAL;
	if (ibr_gid_is_reserved(g))
		return IBR_GID_CLASS_RESERVED;
	if (ibr_gid_is_loopback(g))
		return IBR_GID_CLASS_LOOPBACK;
	return IBR_GID_CLASS_GLOBAL;
}

/* Unicast and neither reserved nor loopback: may appear as SGID or DGID. */
static inline bool ibr_gid_is_unicast(const union ibr_gid *g)
{
	enum ibr_gid_class c = ibr_gid_class(g);

	return c != IBR_GID_CLASS_MULTICAST && c != IBR_GID_CLASS_RESERVED &&
	       c != IBR_GID_CLASS_LOOPBACK;
}

/*
 * The scope of a group (meaningful only when ibr_gid_raw_is_mcast()): an
 * MGID's scope nibble; an IPv4 group's from its address, as IPv4 scopes
 * them: 224.0.0.0/24 is the local network's (RFC 5771: never forwarded,
 * link-local), 239.255.0.0/16 the local scope of RFC 2365 (site-local),
 * the rest of 239.0.0.0/8 administratively scoped within the
 * organization (RFC 2365 6.2), any other global.
 */
static inline unsigned int ibr_gid_raw_mcast_scope(const uint8_t *b)
{
	if (b[0] == 0xFF)
		return b[1] & 0x0F;
	if (b[12] == 224 && b[13] == 0 && b[14] == 0)
		return IBR_MCAST_SCOPE_LINK;
	if (b[12] == 239)
		return b[13] == 255 ? IBR_MCAST_SCOPE_SITE : IBR_MCAST_SCOPE_ORG;
	return IBR_MCAST_SCOPE_GLOBAL;
}

static inline unsigned int ibr_gid_mcast_scope(const union ibr_gid *g)
{
	return ibr_gid_raw_mcast_scope(g->raw);
}

/* Flags nibble of an MGID (000T). */
static inline unsigned int ibr_gid_mcast_flags(const union ibr_gid *g)
{
	return g->raw[1] >> 4;
}

static inline bool ibr_gid_mcast_is_transient(const union ibr_gid *g)
{
	return (g->raw[1] & 0x10) != 0;
}

/* "reserved", "loopback", "link-local", "site-local", "global", "multicast". */
const char *ibr_gid_class_name(enum ibr_gid_class c);
/* "link-local", "site-local", "organization-local", "global", ..., "unassigned-6". */
const char *ibr_gid_mcast_scope_name(unsigned int scope);

/* ---- text forms ---- */

/*
 * Parse a GID: IPv6 text (RFC 4291 2.2: "fec0::1:0:0:10:3", "::", hex digits
 * of either case, the long form "fec0:0000:0000:0001:0000:0000:0010:0003",
 * the last 32 bits as a dotted quad, "::ffff:1.2.3.4", RoCE v2's GID of an
 * IPv4 address, as inet_pton(3) takes it: 0..255, no leading zeros), or the
 * OpenSM prefix:GUID form "0xfec0000000000001:0x0002c90300001234" (each half
 * "0x" and 1-16 hex digits).  Zone IDs, blanks and anything else are
 * rejected.  0 or -EINVAL.
 */
int ibr_gid_parse(const char *s, union ibr_gid *out);

/*
 * Canonical text (RFC 5952: lower case, no leading zeros, the longest run of
 * two or more zero groups, the first one on a tie, shown as "::"; an
 * IPv4-mapped address ::ffff:0:0/96 with its dotted quad, "::ffff:1.2.3.4",
 * as section 5 has it, and no other dotted quad).  Returns buf, or NULL
 * (errno ENOSPC) if size < the text + NUL; IBR_GID_STRLEN always suffices.
 */
const char *ibr_gid_ntop(const union ibr_gid *g, char *buf, size_t size);
/* The long form: eight groups of four hex digits. */
const char *ibr_gid_ntop_long(const union ibr_gid *g, char *buf, size_t size);
/* The prefix:GUID form, "0x%016" PRIx64 ":0x%016" PRIx64 (IBR_GID_PG_STRLEN). */
const char *ibr_gid_ntop_pg(const union ibr_gid *g, char *buf, size_t size);

/* ---- GUIDs (EUI-64, host order) ---- */

/* "0x" (or "0X") and 1-16 hex digits; nothing else.  0 or -EINVAL. */
int ibr_guid_parse(const char *s, uint64_t *out);
/*
 * A key of `n` bytes written as exactly 2n hex digits, "0x" first or not
 * (an SA ServiceKey: the config's announce-key, the plugin's srkey=), into
 * out[]; nothing else.  0 or -EINVAL (out[] then undefined).
 */
int ibr_hex_key_parse(const char *s, uint8_t *out, size_t n);
/* "0x%016" PRIx64 into buf (IBR_GUID_STRLEN); buf, or NULL (errno ENOSPC). */
const char *ibr_guid_ntop(uint64_t guid, char *buf, size_t size);

/* ---- GID prefixes ---- */

/*
 * A GID prefix: the first `len` bits of addr (0..128).  Host bits (those
 * after len) are always zero in a valid prefix: ibr_gid_prefix_parse()
 * rejects text with host bits set ("fec0::1/64" is a GID typed by mistake,
 * not a prefix), and ibr_gid_prefix_normalise() clears them for prefixes
 * built in code.
 */
struct ibr_gid_prefix {
	union ibr_gid addr;
	uint8_t len;
};

/*
 * "<gid>/<len>" with <gid> any IPv6 form ibr_gid_parse() takes and <len>
 * 0..128 in decimal without sign or leading zeros; or a bare OpenSM subnet
 * prefix "0xfec0000000000002" (1-16 hex digits), which means <that>::/64.
 * 0, or -EINVAL (bad text, length out of range or host bits set).
 */
int ibr_gid_prefix_parse(const char *s, struct ibr_gid_prefix *out);
/* "fec0:0:0:2::/64"; buf or NULL (errno ENOSPC); IBR_GID_PREFIX_STRLEN suffices. */
const char *ibr_gid_prefix_ntop(const struct ibr_gid_prefix *p, char *buf, size_t size);
/* Clear the host bits; len > 128 becomes 128.  True if anything changed. */
bool ibr_gid_prefix_normalise(struct ibr_gid_prefix *p);
/* True if the first p->len bits of g equal those of p->addr. */
bool ibr_gid_prefix_match(const struct ibr_gid_prefix *p, const union ibr_gid *g);
/* True if every GID in `inner` is in `outer` (outer->len <= inner->len and match). */
bool ibr_gid_prefix_contains(const struct ibr_gid_prefix *outer,
			     const struct ibr_gid_prefix *inner);
/* The /64 prefix of a host-order subnet prefix (what OpenSM's subnet_prefix means). */
struct ibr_gid_prefix ibr_gid_prefix_from_subnet(uint64_t subnet_prefix);

/* ---- LIDs (IBA 4.1.3, 7.11.1) ---- */

#define IBR_LID_RESERVED   0x0000
#define IBR_LID_UCAST_MIN  0x0001
#define IBR_LID_UCAST_MAX  0xBFFF
#define IBR_LID_MCAST_MIN  0xC000
#define IBR_LID_MCAST_MAX  0xFFFE
#define IBR_LID_PERMISSIVE 0xFFFF
#define IBR_LMC_MAX	   7

enum ibr_lid_class {
	IBR_LID_CLASS_RESERVED,	  /* 0 */
	IBR_LID_CLASS_UNICAST,	  /* 0x0001-0xBFFF */
	IBR_LID_CLASS_MULTICAST,  /* 0xC000-0xFFFE */
	IBR_LID_CLASS_PERMISSIVE, /* 0xFFFF */
};

static inline enum ibr_lid_class ibr_lid_class(uint16_t lid)
{
	if (lid == IBR_LID_RESERVED)
		return IBR_LID_CLASS_RESERVED;
	if (lid <= IBR_LID_UCAST_MAX)
		return IBR_LID_CLASS_UNICAST;
	if (lid != IBR_LID_PERMISSIVE)
		return IBR_LID_CLASS_MULTICAST;
	return IBR_LID_CLASS_PERMISSIVE;
}

static inline bool ibr_lid_is_unicast(uint16_t lid)
{
	return lid >= IBR_LID_UCAST_MIN && lid <= IBR_LID_UCAST_MAX;
}

static inline bool ibr_lid_is_mcast(uint16_t lid)
{
	return lid >= IBR_LID_MCAST_MIN && lid <= IBR_LID_MCAST_MAX;
}

/*
 * A port with base LID `base` and LMC `lmc` owns the 2^lmc LIDs
 * base .. base + 2^lmc - 1 (IBA 7.11.1).  The SM assigns base LIDs with the
 * low `lmc` bits zero, so a valid range is: lmc <= 7, base aligned to 2^lmc,
 * every LID in it unicast.
 */
static inline bool ibr_lid_range_valid(uint16_t base, unsigned int lmc)
{
	uint32_t n;

	if (lmc > IBR_LMC_MAX)
		return false;
	n = 1u << lmc;
	return (base & (n - 1)) == 0 && base >= IBR_LID_UCAST_MIN &&
	       (uint32_t)base + n - 1 <= IBR_LID_UCAST_MAX;
}

/*
 * True if `lid` is one of the LIDs of (base, lmc).  An invalid range (see
 * ibr_lid_range_valid(): unaligned base, lmc > 7, not all unicast) matches
 * nothing.
 */
static inline bool ibr_lid_in_range(uint16_t base, unsigned int lmc, uint16_t lid)
{
	return ibr_lid_range_valid(base, lmc) && (lid & ~((1u << lmc) - 1)) == base;
}

/* "reserved", "unicast", "multicast", "permissive". */
const char *ibr_lid_class_name(enum ibr_lid_class c);

/* A LID in decimal or "0x" hex, 0..0xFFFF, nothing else.  0 or -EINVAL. */
int ibr_lid_parse(const char *s, uint16_t *out);

#endif
