/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_mgid.c - IP multicast groups and the MGIDs applications use for them (ibr_mgid.h). */
#include "lib/ibr_mgid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Bytes 2-3 of an IB-form MGID (RFC 4391 4; rdma_cm sets byte 3 to 0x01). */
#define MGID_SIG_IPOIB_V4   0x401Bu
#define MGID_SIG_IPOIB_V6   0x601Bu
#define MGID_SIG_RDMA_CM_V4 0x4001u
#define MGID_SIG_RDMA_CM_V6 0x6001u
/* ff1x:a01b::/32, an MGID the SA assigned: rdma_cm joins it as it is (cma_set_mgid()). */
#define MGID_SIG_SA_ASSIGNED 0xA01Bu

static const char *const mgid_form_names[] = {
	[IBR_MGID_FORM_IP] = "ip",
	[IBR_MGID_FORM_RDMA_CM] = "rdma-cm",
	[IBR_MGID_FORM_IPOIB] = "ipoib",
};
#define MGID_NFORMS (sizeof(mgid_form_names) / sizeof(mgid_form_names[0]))

const char *ibr_mgid_form_name(enum ibr_mgid_form f)
{
	return (unsigned int)f < MGID_NFORMS ? mgid_form_names[f] : "unknown";
}

int ibr_mgid_form_parse(const char *s, enum ibr_mgid_form *out)
{
	for (unsigned int i = 0; s && i < MGID_NFORMS; i++) {
		if (strcmp(s, mgid_form_names[i]) == 0) {
			*out = (enum ibr_mgid_form)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool ibr_mgid_group_is_v4(const union ibr_gid *group)
{
	return ibr_gid_is_v4mapped(group) && (group->raw[12] & 0xF0) == 0xE0; /* 224.0.0.0/4 */
}

bool ibr_mgid_group_is_ip(const union ibr_gid *group)
{
	return ibr_mgid_group_is_v4(group) || ibr_gid_is_mcast(group);
}

static unsigned int mgid_sig(const union ibr_gid *g)
{
	return (unsigned int)g->raw[2] << 8 | g->raw[3];
}

static bool mgid_is_sa_assigned(const union ibr_gid *g)
{
	return g->raw[0] == 0xFF && (g->raw[1] & 0xF0) == 0x10 &&
	       mgid_sig(g) == MGID_SIG_SA_ASSIGNED;
}

/* The signature of IB form f for an IPv4 or IPv6 group; 0 for FORM_IP or an unknown form. */
static unsigned int mgid_form_sig(enum ibr_mgid_form f, bool v4)
{
	switch (f) {
	case IBR_MGID_FORM_RDMA_CM:
		return v4 ? MGID_SIG_RDMA_CM_V4 : MGID_SIG_RDMA_CM_V6;
	case IBR_MGID_FORM_IPOIB:
		return v4 ? MGID_SIG_IPOIB_V4 : MGID_SIG_IPOIB_V6;
	case IBR_MGID_FORM_IP:
		break;
	}
	return 0;
}

int ibr_mgid_make(enum ibr_mgid_form f, const union ibr_gid *group, unsigned int scope,
		  uint16_t pkey, union ibr_gid *out)
{
	bool v4 = ibr_mgid_group_is_v4(group);
	unsigned int sig = mgid_form_sig(f, v4);
	union ibr_gid m;

	if (!ibr_mgid_group_is_ip(group))
		return -EINVAL;
	if (f == IBR_MGID_FORM_IP) {
		*out = *group;
		return 0;
	}
	if (f == IBR_MGID_FORM_RDMA_CM && !v4 && mgid_is_sa_assigned(group)) {
		*out = *group; /* whatever its scope: cma_set_mgid() tests the flags only */
		return 0;
	}
	/* scope 0 is reserved (IBA 4.1.1, RFC 4291 2.7); the nibble holds no more than 15 */
	if (!sig || scope < 1 || scope > 15)
		return -EINVAL;
	memset(&m, 0, sizeof(m));
	m.raw[0] = 0xFF;
	m.raw[1] = (uint8_t)(0x10 | scope); /* flags 0001: transient */
	m.raw[2] = (uint8_t)(sig >> 8);
	m.raw[3] = (uint8_t)sig;
	m.raw[4] = (uint8_t)(pkey >> 8);
	m.raw[5] = (uint8_t)pkey;
	if (v4) {
		/* RFC 4391 4: the low 28 bits; the top nibble is 0xE in every IPv4 group */
		memcpy(m.raw + 12, group->raw + 12, 4);
		m.raw[12] &= 0x0F;
	} else {
		/* RFC 4391 4: the low 80 bits; bytes 0-5 of the group are lost */
		memcpy(m.raw + 6, group->raw + 6, 10);
	}
	*out = m;
	return 0;
}

bool ibr_mgid_is_form_of(const union ibr_gid *mgid, enum ibr_mgid_form f,
			 const union ibr_gid *group)
{
	union ibr_gid want;

	/* the form for the scope and P_Key the MGID claims, if that MGID is it */
	if (ibr_mgid_make(f, group, ibr_mgid_scope(mgid), ibr_mgid_pkey(mgid), &want) != 0)
		return false;
	return ibr_gid_eq(mgid, &want);
}

/* An IB form as the kernel makes it: flags 1, scope 1..15, a signature; the form or -1. */
static int mgid_ib_form(const union ibr_gid *m, bool *v4)
{
	static const uint8_t zero[6];
	int f;

	if (m->raw[0] != 0xFF || (m->raw[1] & 0xF0) != 0x10 || ibr_mgid_scope(m) == 0)
		return -1;
	switch (mgid_sig(m)) {
	case MGID_SIG_RDMA_CM_V4:
	case MGID_SIG_RDMA_CM_V6:
		f = IBR_MGID_FORM_RDMA_CM;
		break;
	case MGID_SIG_IPOIB_V4:
	case MGID_SIG_IPOIB_V6:
		f = IBR_MGID_FORM_IPOIB;
		break;
	default:
		return -1;
	}
	*v4 = (m->raw[2] & 0xF0) == 0x40;
	/* bytes 6-11 and the top nibble of byte 12 are zero in the IPv4 forms */
	if (*v4 && (memcmp(m->raw + 6, zero, sizeof(zero)) != 0 || (m->raw[12] & 0xF0) != 0))
		return -1;
	return f;
}

int ibr_mgid_decode(const union ibr_gid *mgid, enum ibr_mgid_form *f, union ibr_gid *group,
		    unsigned int *scope, uint16_t *pkey)
{
	union ibr_gid g;
	unsigned int s = 0;
	uint16_t p = 0;
	bool v4 = false;
	int form = mgid_ib_form(mgid, &v4);
	int rc = 0;

	memset(&g, 0, sizeof(g));
	if (form >= 0) {
		s = ibr_mgid_scope(mgid);
		p = ibr_mgid_pkey(mgid);
		if (v4) {
			g.raw[10] = g.raw[11] = 0xFF;
			memcpy(g.raw + 12, mgid->raw + 12, 4);
			g.raw[12] |= 0xE0;
		} else {
			memcpy(g.raw + 6, mgid->raw + 6, 10);
			rc = -ENODATA;
		}
	} else if (ibr_mgid_group_is_ip(mgid)) {
		form = IBR_MGID_FORM_IP;
		g = *mgid;
		if (ibr_gid_is_mcast(mgid))
			s = ibr_mgid_scope(mgid);
	} else {
		return -EINVAL;
	}
	if (f)
		*f = (enum ibr_mgid_form)form;
	if (group)
		*group = g;
	if (scope)
		*scope = s;
	if (pkey)
		*pkey = p;
	return rc;
}

const char *ibr_mgid_ntop(const union ibr_gid *mgid, char *buf, size_t size)
{
	char gid[IBR_GID_STRLEN], tmp[IBR_MGID_STRLEN];
	enum ibr_mgid_form f = IBR_MGID_FORM_IP;
	union ibr_gid group = { .raw = { 0 } };
	unsigned int scope = 0;
	uint16_t pkey = 0;
	size_t n;
	int rc = ibr_mgid_decode(mgid, &f, &group, &scope, &pkey);
	const uint8_t *a = group.raw + 12;

	ibr_gid_ntop(mgid, gid, sizeof(gid));
	if (rc == 0 && f != IBR_MGID_FORM_IP)
		snprintf(tmp, sizeof(tmp), "%s (%s %u.%u.%u.%u scope %u pkey 0x%04x)", gid,
			 ibr_mgid_form_name(f), a[0], a[1], a[2], a[3], scope, pkey);
	else if (rc == 0 && ibr_mgid_group_is_v4(&group))
		snprintf(tmp, sizeof(tmp), "%s (%s %u.%u.%u.%u)", gid, ibr_mgid_form_name(f), a[0],
			 a[1], a[2], a[3]);
	else if (rc == -ENODATA)
		snprintf(tmp, sizeof(tmp), "%s (%s ipv6 scope %u pkey 0x%04x)", gid,
			 ibr_mgid_form_name(f), scope, pkey);
	else
		snprintf(tmp, sizeof(tmp), "%s", gid);
	n = strlen(tmp);
	if (n >= size) {
		errno = ENOSPC;
		return NULL;
	}
	memcpy(buf, tmp, n + 1);
	return buf;
}
