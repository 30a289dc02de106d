/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_gid.c - text forms of GIDs, GID prefixes, GUIDs and LIDs, and the names
 * of their classes (IBA vol. 1, 4.1).  The parsers take input from the
 * config file and the control socket: they never read past the NUL and
 * reject anything that is not exactly one of the documented forms.
 */
#include "lib/ibr_gid.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int gid_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Copy text into a caller's buffer, or fail like inet_ntop() does. */
static const char *gid_put(const char *text, char *buf, size_t size)
{
	size_t n = strlen(text);

	if (!buf || n >= size) {
		errno = ENOSPC;
		return NULL;
	}
	memcpy(buf, text, n + 1);
	return buf;
}

/*
 * "0x" and 1..16 hex digits at s; the value in *out and the first byte after
 * the digits in *end.  -EINVAL if there is no "0x" or no digit, or too many.
 */
static int gid_parse_hex64(const char *s, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	int d, n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	s += 2;
	while ((d = gid_hexval(*s)) >= 0) {
		if (++n > 16)
			return -EINVAL;
		v = v << 4 | (uint64_t)d;
		s++;
	}
	if (n == 0)
		return -EINVAL;
	*out = v;
	*end = s;
	return 0;
}

/* One group of 1..4 hex digits at *pp; advances *pp past it. */
static int gid_parse_group(const char **pp, uint16_t *out)
{
	const char *p = *pp;
	unsigned int v = 0;
	int d, n = 0;

	while ((d = gid_hexval(*p)) >= 0) {
		if (++n > 4)
			return -EINVAL;
		v = v << 4 | (unsigned int)d;
		p++;
	}
	if (n == 0)
		return -EINVAL;
	*out = (uint16_t)v;
	*pp = p;
	return 0;
}

/* Place the n groups read of `total`, with a "::" before group `gap` (-1: none). */
static void gid_fill(uint8_t *raw, const uint16_t *grp, int n, int gap, int total)
{
	int i, j = 0;

	memset(raw, 0, 16);
	for (i = 0; i < n; i++) {
		if (i == gap)
			j += total - n;
		raw[2 * j] = (uint8_t)(grp[i] >> 8);
		raw[2 * j + 1] = (uint8_t)grp[i];
		j++;
	}
}

/*
 * Up to `total` groups (8, or 6 before a dotted quad) of 1-4 hex digits
 * separated by ':', with at most one "::" standing for one or more zero
 * groups, from s to `stop`, into the first 2 * total bytes of raw (the rest
 * zero).
 */
static int gid_parse_groups(const char *s, const char *stop, uint8_t *raw, int total)
{
	uint16_t grp[8];
	int n = 0, gap = -1;
	const char *p = s;

	if (p[0] == ':') {
		if (p[1] != ':')
			return -EINVAL;
		gap = 0;
		p += 2;
		if (p == stop)
			goto done;
	}
	for (;;) {
		if (n == total || gid_parse_group(&p, &grp[n]) < 0)
			return -EINVAL;
		n++;
		if (p == stop)
			break;
		if (*p != ':')
			return -EINVAL;
		if (*++p == ':') {
			if (gap >= 0)
				return -EINVAL;
			gap = n;
			if (++p == stop)
				break;
		}
	}
done:
	if (gap < 0 ? n != total : n > total - 1)
		return -EINVAL;
	gid_fill(raw, grp, n, gap, total);
	return 0;
}

/* A dotted quad, s to stop: four of 0..255 in decimal, without leading zeros (inet_pton's). */
static int gid_parse_quad(const char *s, const char *stop, uint8_t *out)
{
	for (int k = 0; k < 4; k++) {
		unsigned int v = 0;
		int n = 0;

		if (k && *s++ != '.')
			return -EINVAL;
		for (; s < stop && *s >= '0' && *s <= '9'; s++, n++)
			v = v * 10 + (unsigned int)(*s - '0');
		if (n == 0 || n > 3 || v > 255 || (n > 1 && s[-n] == '0'))
			return -EINVAL;
		out[k] = (uint8_t)v;
	}
	return s == stop ? 0 : -EINVAL;
}

/*
 * RFC 4291 2.2, its three forms: up to eight groups of hex digits with at
 * most one "::" (forms 1 and 2), the last 32 bits also as a dotted quad
 * after six groups or a "::" (form 3: "::ffff:1.2.3.4", an IPv4-mapped
 * address, the GID of an IPv4 address on RoCE v2).  Stops at `stop`.
 */
static int gid_parse_ipv6(const char *s, const char *stop, uint8_t *raw)
{
	const char *last = NULL, *end;
	uint8_t quad[4];

	for (const char *p = s; p < stop; p++)
		if (*p == ':')
			last = p;
	if (!last || !memchr(last, '.', (size_t)(stop - last)))
		return gid_parse_groups(s, stop, raw, 8);
	/* the groups before the quad end at its ':', or after it when it ends a "::" */
	end = last > s && last[-1] == ':' ? last + 1 : last;
	if (gid_parse_quad(last + 1, stop, quad) < 0 || gid_parse_groups(s, end, raw, 6) < 0)
		return -EINVAL;
	memcpy(raw + 12, quad, 4);
	return 0;
}

int ibr_gid_parse(const char *s, union ibr_gid *out)
{
	uint64_t prefix, guid;
	const char *p;
	union ibr_gid g;

	if (!s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (gid_parse_hex64(s, &prefix, &p) < 0 || *p != ':')
			return -EINVAL;
		if (gid_parse_hex64(p + 1, &guid, &p) < 0 || *p != '\0')
			return -EINVAL;
		*out = ibr_gid_make(prefix, guid);
		return 0;
	}
	if (gid_parse_ipv6(s, s + strlen(s), g.raw) < 0)
		return -EINVAL;
	*out = g;
	return 0;
}

static char *gid_put_group(char *q, unsigned int v, bool full)
{
	static const char hex[] = "0123456789abcdef";
	bool started = full;

	for (int shift = 12; shift >= 0; shift -= 4) {
		unsigned int d = (v >> shift) & 0xF;

		if (d || started || shift == 0) {
			*q++ = hex[d];
			started = true;
		}
	}
	return q;
}

/* The first longest run of two or more zero groups: start in *best, or -1. */
static int gid_zero_run(const uint16_t *grp, int *best_len)
{
	int best = -1, len = 0, i, j;

	for (i = 0; i < 8; i = j + 1) {
		for (j = i; j < 8 && grp[j] == 0; j++)
			;
		if (j - i >= 2 && j - i > len) {
			best = i;
			len = j - i;
		}
	}
	*best_len = len;
	return best;
}

const char *ibr_gid_ntop(const union ibr_gid *g, char *buf, size_t size)
{
	char tmp[IBR_GID_STRLEN], *q = tmp;
	uint16_t grp[8];
	int i, best, best_len;

	/* RFC 5952 5: an IPv4-mapped address (RoCE v2's GID of an IPv4 address) with its quad */
	if (ibr_gid_is_v4mapped(g)) {
		snprintf(tmp, sizeof(tmp), "::ffff:%u.%u.%u.%u", g->raw[12], g->raw[13], g->raw[14],
			 g->raw[15]);
		return gid_put(tmp, buf, size);
	}
	for (i = 0; i < 8; i++)
		grp[i] = (uint16_t)(g->raw[2 * i] << 8 | g->raw[2 * i + 1]);
	best = gid_zero_run(grp, &best_len);
	for (i = 0; i < 8;) {
		if (i == best) {
			*q++ = ':';
			*q++ = ':';
			i += best_len;
			continue;
		}
		if (i > 0 && !(best >= 0 && i == best + best_len))
			*q++ = ':';
		q = gid_put_group(q, grp[i], false);
		i++;
	}
	*q = '\0';
	return gid_put(tmp, buf, size);
}

const char *ibr_gid_ntop_long(const union ibr_gid *g, char *buf, size_t size)
{
	char tmp[IBR_GID_STRLEN], *q = tmp;

	for (int i = 0; i < 8; i++) {
		if (i > 0)
			*q++ = ':';
		q = gid_put_group(q, (unsigned int)(g->raw[2 * i] << 8 | g->raw[2 * i + 1]), true);
	}
	*q = '\0';
	return gid_put(tmp, buf, size);
}

const char *ibr_gid_ntop_pg(const union ibr_gid *g, char *buf, size_t size)
{
	char tmp[IBR_GID_PG_STRLEN];

	snprintf(tmp, sizeof(tmp), "0x%016" PRIx64 ":0x%016" PRIx64, ibr_gid_prefix(g),
		 ibr_gid_guid(g));
	return gid_put(tmp, buf, size);
}

const char *ibr_gid_class_name(enum ibr_gid_class c)
{
	switch (c) {
	case IBR_GID_CLASS_RESERVED:
		return "reserved";
	case IBR_GID_CLASS_LOOPBACK:
		return "loopback";
	case IBR_GID_CLASS_LINK_LOCAL:
		return "link-local";
	case IBR_GID_CLASS_SITE_LOCAL:
		return "site-local";
	case IBR_GID_CLASS_GLOBAL:
		return "global";
	case IBR_GID_CLASS_MULTICAST:
		return "multicast";
	}
	return "unknown";
}

const char *ibr_gid_mcast_scope_name(unsigned int scope)
{
	static const char *const names[16] = {
		"reserved-0",	      "interface-local", "link-local",	 "realm-local",
		"admin-local",	      "site-local",	 "unassigned-6", "unassigned-7",
		"organization-local", "unassigned-9",	 "unassigned-a", "unassigned-b",
		"unassigned-c",	      "unassigned-d",	 "global",	 "reserved-f",
	};

	return scope < 16 ? names[scope] : "invalid";
}

/* ---- GUIDs ---- */

int ibr_hex_key_parse(const char *s, uint8_t *out, size_t n)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (strlen(s) != 2 * n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int hi = gid_hexval(s[2 * i]), lo = gid_hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int ibr_guid_parse(const char *s, uint64_t *out)
{
	const char *end;
	uint64_t v;

	if (!s || gid_parse_hex64(s, &v, &end) < 0 || *end != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

const char *ibr_guid_ntop(uint64_t guid, char *buf, size_t size)
{
	char tmp[IBR_GUID_STRLEN];

	snprintf(tmp, sizeof(tmp), "0x%016" PRIx64, guid);
	return gid_put(tmp, buf, size);
}

/* ---- prefixes ---- */

/* Bits of byte i of a /len prefix that belong to the prefix. */
static uint8_t gid_prefix_mask(unsigned int len, unsigned int i)
{
	if (len >= 8 * (i + 1))
		return 0xFF;
	if (len <= 8 * i)
		return 0;
	return (uint8_t)(0xFF << (8 - (len - 8 * i)));
}

static bool gid_host_bits_zero(const union ibr_gid *a, unsigned int len)
{
	for (unsigned int i = len / 8; i < 16; i++)
		if (a->raw[i] & ~gid_prefix_mask(len, i))
			return false;
	return true;
}

/* "0", or 1..3 digits without a leading zero, up to 128. */
static int gid_parse_plen(const char *s, uint8_t *out)
{
	unsigned int v = 0;
	int n = 0;

	if (s[0] == '0' && s[1] != '\0')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (++n > 3)
			return -EINVAL;
		v = v * 10 + (unsigned int)(*s - '0');
	}
	if (n == 0 || *s != '\0' || v > 128)
		return -EINVAL;
	*out = (uint8_t)v;
	return 0;
}

int ibr_gid_prefix_parse(const char *s, struct ibr_gid_prefix *out)
{
	struct ibr_gid_prefix p;
	const char *slash, *end;
	uint64_t subnet;

	if (!s)
		return -EINVAL;
	slash = strchr(s, '/');
	if (!slash) {
		if (gid_parse_hex64(s, &subnet, &end) < 0 || *end != '\0')
			return -EINVAL;
		*out = ibr_gid_prefix_from_subnet(subnet);
		return 0;
	}
	if (gid_parse_ipv6(s, slash, p.addr.raw) < 0 || gid_parse_plen(slash + 1, &p.len) < 0)
		return -EINVAL;
	if (!gid_host_bits_zero(&p.addr, p.len))
		return -EINVAL;
	*out = p;
	return 0;
}

const char *ibr_gid_prefix_ntop(const struct ibr_gid_prefix *p, char *buf, size_t size)
{
	char gid[IBR_GID_STRLEN], tmp[IBR_GID_PREFIX_STRLEN];

	ibr_gid_ntop(&p->addr, gid, sizeof(gid));
	snprintf(tmp, sizeof(tmp), "%s/%u", gid, (unsigned int)(p->len > 128 ? 128 : p->len));
	return gid_put(tmp, buf, size);
}

bool ibr_gid_prefix_normalise(struct ibr_gid_prefix *p)
{
	bool changed = false;

	if (p->len > 128) {
		p->len = 128;
		changed = true;
	}
	for (unsigned int i = p->len / 8; i < 16; i++) {
		uint8_t b = p->addr.raw[i] & gid_prefix_mask(p->len, i);

		if (b != p->addr.raw[i]) {
			p->addr.raw[i] = b;
			changed = true;
		}
	}
	return changed;
}

/* First len bits of a and b equal (len <= 128). */
static bool gid_bits_eq(const uint8_t *a, const uint8_t *b, unsigned int len)
{
	unsigned int full = len / 8;

	if (memcmp(a, b, full) != 0)
		return false;
	if (len % 8 == 0)
		return true;
	return ((a[full] ^ b[full]) & gid_prefix_mask(len, full)) == 0;
}

bool ibr_gid_prefix_match(const struct ibr_gid_prefix *p, const union ibr_gid *g)
{
	return gid_bits_eq(p->addr.raw, g->raw, p->len > 128 ? 128 : p->len);
}

bool ibr_gid_prefix_contains(const struct ibr_gid_prefix *outer, const struct ibr_gid_prefix *inner)
{
	unsigned int olen = outer->len > 128 ? 128 : outer->len;
	unsigned int ilen = inner->len > 128 ? 128 : inner->len;

	return olen <= ilen && gid_bits_eq(outer->addr.raw, inner->addr.raw, olen);
}

struct ibr_gid_prefix ibr_gid_prefix_from_subnet(uint64_t subnet_prefix)
{
	struct ibr_gid_prefix p = { .addr = ibr_gid_make(subnet_prefix, 0), .len = 64 };

	return p;
}

/* ---- LIDs ---- */

const char *ibr_lid_class_name(enum ibr_lid_class c)
{
	switch (c) {
	case IBR_LID_CLASS_RESERVED:
		return "reserved";
	case IBR_LID_CLASS_UNICAST:
		return "unicast";
	case IBR_LID_CLASS_MULTICAST:
		return "multicast";
	case IBR_LID_CLASS_PERMISSIVE:
		return "permissive";
	}
	return "unknown";
}

int ibr_lid_parse(const char *s, uint16_t *out)
{
	const char *end;
	uint64_t v = 0;

	if (!s || !*s)
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (gid_parse_hex64(s, &v, &end) < 0 || *end != '\0' || end - s > 6)
			return -EINVAL;
	} else {
		for (end = s; *end >= '0' && *end <= '9'; end++) {
			v = v * 10 + (uint64_t)(*end - '0');
			if (v > 0xFFFF)
				return -EINVAL;
		}
		if (*end != '\0')
			return -EINVAL;
	}
	if (v > 0xFFFF)
		return -EINVAL;
	*out = (uint16_t)v;
	return 0;
}
