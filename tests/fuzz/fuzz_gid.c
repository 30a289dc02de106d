/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_gid.c - libFuzzer target for the text parsers of lib/ibr_gid.c (input
 * from the config file and the control socket): ibr_gid_parse(),
 * ibr_gid_prefix_parse(), ibr_guid_parse() and ibr_lid_parse() on the input
 * as a string.  Whatever they accept must print and parse back to the same
 * value; IPv6-form GIDs, dotted quads too, must agree with inet_pton().  The
 * first bytes are also used as a raw GID and prefix length for the classifiers,
 * printers and prefix matching.
 */
#include "lib/ibr_gid.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned int sink;

static void check_gid_text(const char *s)
{
	char buf[IBR_GID_STRLEN], pg[IBR_GID_PG_STRLEN];
	union ibr_gid g, back;
	uint8_t libc[16];
	int rc = ibr_gid_parse(s, &g);
	bool pg_form = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (!pg_form) {
		int lrc = inet_pton(AF_INET6, s, libc);

		if ((rc == 0) != (lrc == 1))
			abort();
		if (rc == 0 && memcmp(g.raw, libc, 16) != 0)
			abort();
	}
	if (rc != 0)
		return;
	if (!ibr_gid_ntop(&g, buf, sizeof(buf)) || ibr_gid_parse(buf, &back) ||
	    !ibr_gid_eq(&g, &back))
		abort();
	if (!ibr_gid_ntop_long(&g, buf, sizeof(buf)) || ibr_gid_parse(buf, &back) ||
	    !ibr_gid_eq(&g, &back))
		abort();
	if (!ibr_gid_ntop_pg(&g, pg, sizeof(pg)) || ibr_gid_parse(pg, &back) ||
	    !ibr_gid_eq(&g, &back))
		abort();
}

static void check_prefix_text(const char *s)
{
	char buf[IBR_GID_PREFIX_STRLEN];
	struct ibr_gid_prefix p, back;

	if (ibr_gid_prefix_parse(s, &p) != 0)
		return;
	if (p.len > 128 || ibr_gid_prefix_normalise(&p))
		abort(); /* parse returns only normalised prefixes */
	if (!ibr_gid_prefix_ntop(&p, buf, sizeof(buf)) || ibr_gid_prefix_parse(buf, &back) ||
	    !ibr_gid_eq(&p.addr, &back.addr) || p.len != back.len)
		abort();
	if (!ibr_gid_prefix_match(&p, &p.addr) || !ibr_gid_prefix_contains(&p, &p))
		abort();
}

static void check_guid_lid_text(const char *s)
{
	char buf[IBR_GUID_STRLEN];
	uint64_t guid, back;
	uint16_t lid;

	if (ibr_guid_parse(s, &guid) == 0) {
		if (!ibr_guid_ntop(guid, buf, sizeof(buf)) || ibr_guid_parse(buf, &back) ||
		    back != guid)
			abort();
	}
	if (ibr_lid_parse(s, &lid) == 0)
		sink += ibr_lid_class(lid) + ibr_lid_is_unicast(lid) + ibr_lid_is_mcast(lid);
}

/* The first 16 bytes as a raw GID, byte 16 as a prefix length. */
static void check_raw(const uint8_t *data, size_t size)
{
	char buf[IBR_GID_PREFIX_STRLEN], small[8];
	struct ibr_gid_prefix p, q;
	union ibr_gid g, back;

	if (size < 17)
		return;
	memcpy(g.raw, data, 16);
	sink += ibr_gid_class(&g) + ibr_gid_is_unicast(&g) + ibr_gid_mcast_scope(&g) +
		ibr_gid_mcast_flags(&g) + ibr_gid_mcast_is_transient(&g);
	sink += (unsigned int)strlen(ibr_gid_class_name(ibr_gid_class(&g)));
	sink += (unsigned int)strlen(ibr_gid_mcast_scope_name(ibr_gid_mcast_scope(&g)));
	if (!ibr_gid_ntop(&g, buf, sizeof(buf)) || ibr_gid_parse(buf, &back) ||
	    !ibr_gid_eq(&g, &back))
		abort();
	if (ibr_gid_ntop(&g, small, sizeof(small)) && strlen(small) >= sizeof(small))
		abort();
	p.addr = g;
	p.len = data[16];
	ibr_gid_prefix_normalise(&p);
	if (p.len > 128 || !ibr_gid_prefix_match(&p, &g))
		abort();
	q = p;
	if (ibr_gid_prefix_normalise(&q) || !ibr_gid_prefix_contains(&p, &q))
		abort();
	if (!ibr_gid_prefix_ntop(&p, buf, sizeof(buf)) || ibr_gid_prefix_parse(buf, &q) ||
	    !ibr_gid_eq(&p.addr, &q.addr) || q.len != p.len)
		abort();
	if (size >= 21)
		sink += ibr_lid_in_range((uint16_t)(data[17] << 8 | data[18]), data[19] & 0xF,
					 (uint16_t)(data[20] << 8 | data[19]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size > 4096)
		return 0;
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	check_gid_text(s);
	check_prefix_text(s);
	check_guid_lid_text(s);
	free(s);
	check_raw(data, size);
	return 0;
}
