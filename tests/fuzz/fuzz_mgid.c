/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_mgid.c - libFuzzer target for lib/ibr_mgid.c, whose decoder reads
 * MGIDs off the wire (MCMemberRecords, packets' DGIDs): the first 16 bytes as
 * an MGID.  Whatever ibr_mgid_decode() recovers in full must make the same
 * MGID again and be its form; a partial IPv6 group must match for any first
 * bytes; the text must fit IBR_MGID_STRLEN and never overrun a small buffer.
 * Byte 16 onwards is also a group for ibr_mgid_make() in every form (byte 16:
 * the form, 17: the scope, 18-19: the P_Key, 20-35: the group), and the
 * input as a string goes to ibr_mgid_form_parse().
 */
#include "lib/ibr_mgid.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_decode(const union ibr_gid *m)
{
	char buf[IBR_MGID_STRLEN], small[12];
	enum ibr_mgid_form f;
	union ibr_gid g, again;
	unsigned int scope;
	uint16_t pkey;
	int rc = ibr_mgid_decode(m, &f, &g, &scope, &pkey);

	if (rc == 0) {
		if (ibr_mgid_make(f, &g, scope, pkey, &again) || !ibr_gid_eq(&again, m) ||
		    !ibr_mgid_is_form_of(m, f, &g))
			abort();
	} else if (rc == -ENODATA) {
		g.raw[0] = 0xFF; /* the lost first bytes of an IPv6 group: any will do */
		if (f == IBR_MGID_FORM_IP || !ibr_mgid_is_form_of(m, f, &g))
			abort();
	} else if (rc != -EINVAL) {
		abort();
	}
	if (ibr_mgid_ntop(m, buf, sizeof(buf)) != buf || strlen(buf) >= sizeof(buf))
		abort();
	if (ibr_mgid_ntop(m, small, sizeof(small)) && strlen(small) >= sizeof(small))
		abort();
}

static void check_make(const uint8_t *p)
{
	enum ibr_mgid_form f = (enum ibr_mgid_form)(p[0] % 4); /* 3: not a form */
	unsigned int scope = p[1];
	uint16_t pkey = (uint16_t)(p[2] << 8 | p[3]);
	union ibr_gid g, m, back;
	int rc;

	memcpy(g.raw, p + 4, 16);
	rc = ibr_mgid_make(f, &g, scope, pkey, &m);
	if (rc != 0) {
		if (rc != -EINVAL)
			abort();
		return;
	}
	if (!ibr_mgid_group_is_ip(&g) || !ibr_mgid_is_form_of(&m, f, &g))
		abort();
	/* an IPv4 group comes back whole from any form */
	if (ibr_mgid_group_is_v4(&g) &&
	    (ibr_mgid_decode(&m, NULL, &back, NULL, NULL) != 0 || !ibr_gid_eq(&back, &g)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum ibr_mgid_form f;
	union ibr_gid m;
	char s[16];

	if (size >= 16) {
		memcpy(m.raw, data, 16);
		check_decode(&m);
	}
	if (size >= 36)
		check_make(data + 16);
	if (size < sizeof(s)) {
		memcpy(s, data, size);
		s[size] = '\0';
		if (ibr_mgid_form_parse(s, &f) == 0 && strcmp(ibr_mgid_form_name(f), s) != 0)
			abort();
	}
	return 0;
}
