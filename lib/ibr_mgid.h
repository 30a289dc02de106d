/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_mgid.h - the MGIDs applications use for an IP multicast group, and back.
 *
 * An IP group is held as a 16-byte GID: the IPv4 group a.b.c.d (224/4,
 * RFC 5771) as the IPv4-mapped ::ffff:a.b.c.d, an IPv6 group (ff00::/8,
 * RFC 4291 2.7) as itself.  Who joins it picks the MGID:
 *
 *  - IPoIB (RFC 4391 4, the kernel's ip_ib_mc_map()/ipv6_ib_mc_map()) and
 *    rdma_cm's IPoIB port space: ff1s:401b:PPPP::0g:hhhh for IPv4 and
 *    ff1s:601b:PPPP plus the group's bytes 6-15 for IPv6, s the scope of the
 *    interface's broadcast address (2, link-local, by default), PPPP the
 *    P_Key as the broadcast address has it (full-member bit 0x8000 set).  Of
 *    an IPv4 group only the low 28 bits go in (the top nibble is always 0xE),
 *    of an IPv6 group its first 6 bytes are lost;
 *  - rdma_cm's UDP port space (RDMA_PS_UDP: mckey, most UD applications) on
 *    IB (the kernel's cma_set_mgid()): the same with signature 0x4001 /
 *    0x6001 (byte 3 set to 0x01), except that an IPv6 group ff1x:a01b::/32
 *    is an MGID the SA assigned and is used as it is;
 *  - rdma_cm on RoCE: the group itself (IBA A17.4.5.2), no translation.
 */
#ifndef IBR_MGID_H
#define IBR_MGID_H

#include "lib/ibr_gid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ibr_mgid_form {
	IBR_MGID_FORM_IP,      /* "ip": the group itself (RoCE) */
	IBR_MGID_FORM_RDMA_CM, /* "rdma-cm": ff1s:4001 / ff1s:6001 (RDMA_PS_UDP on IB) */
	IBR_MGID_FORM_IPOIB,   /* "ipoib": ff1s:401b / ff1s:601b (IPoIB, RDMA_PS_IPOIB) */
};

/* Room for ibr_mgid_ntop()'s text with its NUL: a GID and "(rdma-cm 239.255.255.255 ...)". */
#define IBR_MGID_STRLEN 96

/* "ip", "rdma-cm", "ipoib"; "unknown" for anything else. */
const char *ibr_mgid_form_name(enum ibr_mgid_form f);
/* One of the names above, exactly.  0 or -EINVAL (*out untouched). */
int ibr_mgid_form_parse(const char *s, enum ibr_mgid_form *out);

/* An IPv4 group: ::ffff:a.b.c.d with a in 224..239. */
bool ibr_mgid_group_is_v4(const union ibr_gid *group);
/* An IP group: an IPv4 group as above, or an IPv6 multicast address ff00::/8. */
bool ibr_mgid_group_is_ip(const union ibr_gid *group);

/*
 * The MGID of form `f` for the IP group `group`, scope 1..15 and P_Key
 * `pkey` (placed as given, big endian in bytes 4-5) into *out.  Where the
 * MGID is the group, FORM_IP and FORM_RDMA_CM of an SA-assigned ff1x:a01b
 * group, scope and pkey are ignored.  0, or -EINVAL (not an IP group, scope
 * out of range for an IB form, unknown form; *out untouched).
 */
int ibr_mgid_make(enum ibr_mgid_form f, const union ibr_gid *group, unsigned int scope,
		  uint16_t pkey, union ibr_gid *out);

/*
 * Whether `mgid` (as seen on the wire) is form `f` of the IP group `group`
 * for some scope 1..15 and some P_Key: the question to ask of an IPv6 group,
 * whose first 6 bytes its IB forms lose.  False when `group` is not an IP
 * group.
 */
bool ibr_mgid_is_form_of(const union ibr_gid *mgid, enum ibr_mgid_form f,
			 const union ibr_gid *group);

/* Scope nibble of an IB-form MGID (byte 1, IBA 4.1.1). */
static inline unsigned int ibr_mgid_scope(const union ibr_gid *mgid)
{
	return ibr_gid_mcast_scope(mgid);
}

/* P_Key of an IB-form MGID (bytes 4-5, big endian), host order. */
static inline uint16_t ibr_mgid_pkey(const union ibr_gid *mgid)
{
	return (uint16_t)(mgid->raw[4] << 8 | mgid->raw[5]);
}

/*
 * What `mgid` is, from its 16 bytes alone (any bytes are safe).  An IB form
 * is recognised by flags 1, scope 1..15, its signature and, for IPv4, bytes
 * 6-11 zero and the top nibble of byte 12 zero (what the kernel makes); it
 * is preferred to FORM_IP, which every ff00::/8 MGID also is.  Each output
 * may be NULL.
 *
 *  0        the group is known: an IPv4 IB form (*group the IPv4 group), or
 *           FORM_IP (*group = mgid: an IPv4 group, or any other ff00::/8
 *           address, SA-assigned MGIDs included, which rdma_cm uses as is).
 *           *scope and *pkey those of the IB form; for FORM_IP *pkey is 0
 *           (no P_Key) and *scope the group's scope: an MGID's nibble, an
 *           IPv4 group's by RFC 2365 (ibr_gid_mcast_scope()).
 *  -ENODATA an IPv6 IB form: *f, *scope and *pkey are set, *group has the
 *           group's bytes 6-15 and zero in bytes 0-5, which are lost; test
 *           candidate groups with ibr_mgid_is_form_of().
 *  -EINVAL  not a multicast MGID of any form; outputs untouched.
 */
int ibr_mgid_decode(const union ibr_gid *mgid, enum ibr_mgid_form *f, union ibr_gid *group,
		    unsigned int *scope, uint16_t *pkey);

/*
 * The MGID as text and, where ibr_mgid_decode() knows its IPv4 group, what
 * it stands for: "ff12:4001:ffff::f01:101 (rdma-cm 239.1.1.1 scope 2 pkey
 * 0xffff)", "::ffff:239.1.1.1 (ip 239.1.1.1)"; an IPv6 IB form names its
 * form, scope and P_Key only; anything else is the GID alone.  Returns buf,
 * or NULL (errno ENOSPC) if the text does not fit; IBR_MGID_STRLEN always
 * does.
 */
const char *ibr_mgid_ntop(const union ibr_gid *mgid, char *buf, size_t size);

#endif
