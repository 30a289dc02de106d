/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_gid_test.c - GID, GID prefix, GUID and LID helpers (lib/ibr_gid.c). */
#include "lib/ibr_gid.h"
#include "tests/unit/ibr_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static union ibr_gid gid_from_hex(const char *hex32)
{
	union ibr_gid g;

	for (int i = 0; i < 16; i++) {
		unsigned int b;

		sscanf(hex32 + 2 * i, "%2x", &b);
		g.raw[i] = (uint8_t)b;
	}
	return g;
}

static void test_make_accessors(void)
{
	union ibr_gid g = ibr_gid_make(0xfec0000000000001ull, 0x0002c90300001234ull);
	static const uint8_t want[16] = { 0xfe, 0xc0, 0,    0,	  0, 0, 0,    0x01,
					  0x00, 0x02, 0xc9, 0x03, 0, 0, 0x12, 0x34 };

	CU_ASSERT(memcmp(g.raw, want, 16) == 0);
	CU_ASSERT_EQUAL(ibr_gid_prefix(&g), 0xfec0000000000001ull);
	CU_ASSERT_EQUAL(ibr_gid_guid(&g), 0x0002c90300001234ull);
	union ibr_gid h = g;
	CU_ASSERT(ibr_gid_eq(&g, &h));
	h.raw[15] ^= 1;
	CU_ASSERT(!ibr_gid_eq(&g, &h));
}

static const struct {
	const char *text;
	const char *hex;
} gid_valid[] = {
	{ "::", "00000000000000000000000000000000" },
	{ "::1", "00000000000000000000000000000001" },
	{ "1::", "00010000000000000000000000000000" },
	{ "fec0::1:0:0:10:3", "fec00000000000010000000000100003" },
	{ "FEC0::1:0:0:10:3", "fec00000000000010000000000100003" },
	{ "FeC0::0001:0:0:10:3", "fec00000000000010000000000100003" },
	{ "fec0:0000:0000:0001:0000:0000:0010:0003", "fec00000000000010000000000100003" },
	{ "fe80::2:c903:0:1234", "fe800000000000000002c90300001234" },
	{ "ff12:401b:ffff::1", "ff12401bffff00000000000000000001" },
	{ "1:2:3:4:5:6:7:8", "00010002000300040005000600070008" },
	{ "1::2:3:4:5:6:7", "00010000000200030004000500060007" },
	{ "1:2:3:4:5:6:7::", "00010002000300040005000600070000" },
	{ "::2:3:4:5:6:7:8", "00000002000300040005000600070008" },
	{ "0:0:0:0:0:0:0:0", "00000000000000000000000000000000" },
	{ "0xfec0000000000001:0x0002c90300001234", "fec00000000000010002c90300001234" },
	{ "0XFEC0000000000001:0X2C90300001234", "fec00000000000010002c90300001234" },
	{ "0x1:0x2", "00000000000000010000000000000002" },
	/* RFC 4291 2.2 form 3: the last 32 bits as a dotted quad */
	{ "::ffff:1.2.3.4", "00000000000000000000ffff01020304" },
	{ "::FFFF:10.0.0.255", "00000000000000000000ffff0a0000ff" },
	{ "::1.2.3.4", "00000000000000000000000001020304" },
	{ "fec0::1.2.3.4", "fec00000000000000000000001020304" },
	{ "1:2:3:4:5:6:1.2.3.4", "00010002000300040005000601020304" },
	{ "1::6:0.0.0.0", "00010000000000000000000600000000" },
	{ "::ffff:255.255.255.255", "00000000000000000000ffffffffffff" },
};

static const char *const gid_invalid[] = {
	"",
	":",
	":::",
	"1:::2",
	"1::2::3",
	":1:2:3:4:5:6:7:8",
	"1:2:3:4:5:6:7:8:",
	"1:2:3:4:5:6:7",
	"1:2:3:4:5:6:7:8:9",
	"1::2:3:4:5:6:7:8",
	"::1:2:3:4:5:6:7:8",
	"12345::",
	"g::",
	" ::1",
	"::1 ",
	"::1\n",
	"1.2.3.4",
	":1.2.3.4",
	":::1.2.3.4",
	"::1.2.3",
	"::1.2.3.4.5",
	"::1.2.3.256",
	"::1.2.3.04",
	"::1.2.3.1234",
	"::1..3.4",
	"::1.2.3.4:5",
	"::1.2.3.4.",
	"::ffff:1.2.3.4 ",
	"1:2:3:4:5:6:7:1.2.3.4",
	"::1:2:3:4:5:6:1.2.3.4",
	"1:1.2.3.4",
	"1.2.3.4::",
	"::-1.2.3.4",
	"::+1.2.3.4",
	"fe80::1%eth0",
	"fec0::/64",
	"0x:0x1",
	"0x1:0x",
	"0x1",
	"0x1:",
	"0x1:2",
	"0x12345678901234567:0x1",
	"0x1:0x12345678901234567",
	"0xfec0000000000001:0x0002c90300001234:",
	"0xfec0000000000001::0x1",
	"-1::",
	"+1::",
};

static void test_parse_table(void)
{
	union ibr_gid g;
	size_t i;

	for (i = 0; i < sizeof(gid_valid) / sizeof(gid_valid[0]); i++) {
		union ibr_gid want = gid_from_hex(gid_valid[i].hex);

		memset(&g, 0xAA, sizeof(g));
		CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(gid_valid[i].text, &g), 0);
		if (!ibr_gid_eq(&g, &want))
			fprintf(stderr, "parse %s: wrong value\n", gid_valid[i].text);
		CU_ASSERT(ibr_gid_eq(&g, &want));
	}
	for (i = 0; i < sizeof(gid_invalid) / sizeof(gid_invalid[0]); i++) {
		memset(&g, 0xAA, sizeof(g));
		if (ibr_gid_parse(gid_invalid[i], &g) != -EINVAL)
			fprintf(stderr, "parse accepted \"%s\"\n", gid_invalid[i]);
		CU_ASSERT_EQUAL(ibr_gid_parse(gid_invalid[i], &g), -EINVAL);
		CU_ASSERT_EQUAL(g.raw[0], 0xAA); /* untouched on error */
	}
	CU_ASSERT_EQUAL(ibr_gid_parse(NULL, &g), -EINVAL);
}

static const struct {
	const char *hex;
	const char *canon;
} gid_print[] = {
	{ "00000000000000000000000000000000", "::" },
	{ "00000000000000000000000000000001", "::1" },
	{ "00010000000000000000000000000000", "1::" },
	{ "fec00000000000010000000000100003", "fec0::1:0:0:10:3" }, /* tie: the first */
	{ "fec00000000000000000000100000003", "fec0::1:0:3" },
	{ "00010000000100000000000100000001", "1:0:1::1:0:1" },	   /* one 2-run only */
	{ "00010000000000010000000000010001", "1::1:0:0:1:1" },	   /* tie: the first */
	{ "00010000000000010000000000000001", "1:0:0:1::1" },	   /* the longer run */
	{ "00010002000300040005000600070000", "1:2:3:4:5:6:7:0" }, /* no single-group :: */
	{ "00000002000300040005000600070008", "0:2:3:4:5:6:7:8" },
	{ "0000000000000000000000000102ffff", "::102:ffff" },	  /* no dotted quad */
	{ "00000000000000000000ffff01020304", "::ffff:1.2.3.4" }, /* RFC 5952 5: mapped */
	{ "00000000000000000000ffff00000000", "::ffff:0.0.0.0" },
	{ "000000000000000000000000ffff0102", "::ffff:102" }, /* not mapped: hex */
	{ "00000000000000000001ffff01020304", "::1:ffff:102:304" },
	{ "ABCDEF0000000000000000000000FFFF", "abcd:ef00::ffff" },
};

static void test_print_table(void)
{
	char buf[IBR_GID_STRLEN], lbuf[IBR_GID_STRLEN];
	union ibr_gid g, back;

	for (size_t i = 0; i < sizeof(gid_print) / sizeof(gid_print[0]); i++) {
		g = gid_from_hex(gid_print[i].hex);
		CU_ASSERT_PTR_EQUAL(ibr_gid_ntop(&g, buf, sizeof(buf)), buf);
		if (strcmp(buf, gid_print[i].canon) != 0)
			fprintf(stderr, "ntop %s: %s, want %s\n", gid_print[i].hex, buf,
				gid_print[i].canon);
		CU_ASSERT_STRING_EQUAL(buf, gid_print[i].canon);
		CU_ASSERT_EQUAL(ibr_gid_parse(buf, &back), 0);
		CU_ASSERT(ibr_gid_eq(&g, &back));
		CU_ASSERT_PTR_EQUAL(ibr_gid_ntop_long(&g, lbuf, sizeof(lbuf)), lbuf);
		CU_ASSERT_EQUAL(strlen(lbuf), 39);
		CU_ASSERT_EQUAL(ibr_gid_parse(lbuf, &back), 0);
		CU_ASSERT(ibr_gid_eq(&g, &back));
	}
	g = gid_from_hex("fec00000000000010000000000100003");
	ibr_gid_ntop_long(&g, lbuf, sizeof(lbuf));
	CU_ASSERT_STRING_EQUAL(lbuf, "fec0:0000:0000:0001:0000:0000:0010:0003");
	g = ibr_gid_make(0xfec0000000000001ull, 0x0002c90300001234ull);
	char pg[IBR_GID_PG_STRLEN];
	CU_ASSERT_PTR_EQUAL(ibr_gid_ntop_pg(&g, pg, sizeof(pg)), pg);
	CU_ASSERT_STRING_EQUAL(pg, "0xfec0000000000001:0x0002c90300001234");
	CU_ASSERT_EQUAL(strlen(pg) + 1, IBR_GID_PG_STRLEN);
	CU_ASSERT_EQUAL(ibr_gid_parse(pg, &back), 0);
	CU_ASSERT(ibr_gid_eq(&g, &back));
}

static void test_print_small_buffer(void)
{
	union ibr_gid g = gid_from_hex("fec00000000000010000000000100003");
	char buf[IBR_GID_PREFIX_STRLEN];
	struct ibr_gid_prefix p = { .addr = g, .len = 128 };

	/* "fec0::1:0:0:10:3" is 16 characters: 17 bytes needed */
	errno = 0;
	CU_ASSERT_PTR_NULL(ibr_gid_ntop(&g, buf, 16));
	CU_ASSERT_EQUAL(errno, ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(ibr_gid_ntop(&g, buf, 17));
	CU_ASSERT_PTR_NULL(ibr_gid_ntop_long(&g, buf, 39));
	CU_ASSERT_PTR_NOT_NULL(ibr_gid_ntop_long(&g, buf, 40));
	CU_ASSERT_PTR_NULL(ibr_gid_ntop_pg(&g, buf, 37));
	CU_ASSERT_PTR_NOT_NULL(ibr_gid_ntop_pg(&g, buf, 38));
	CU_ASSERT_PTR_NULL(ibr_guid_ntop(1, buf, 18));
	CU_ASSERT_PTR_NOT_NULL(ibr_guid_ntop(1, buf, 19));
	CU_ASSERT_PTR_NULL(ibr_gid_prefix_ntop(&p, buf, 20));
	CU_ASSERT_PTR_NOT_NULL(ibr_gid_prefix_ntop(&p, buf, 21));
	CU_ASSERT_STRING_EQUAL(buf, "fec0::1:0:0:10:3/128");
	CU_ASSERT_PTR_NULL(ibr_gid_ntop(&g, NULL, 0));
}

/* The longest canonical and prefix texts fit the documented sizes. */
static void test_print_max_len(void)
{
	union ibr_gid g;
	char buf[IBR_GID_STRLEN], pbuf[IBR_GID_PREFIX_STRLEN];
	struct ibr_gid_prefix p;

	memset(&g, 0xff, sizeof(g));
	CU_ASSERT_PTR_NOT_NULL(ibr_gid_ntop(&g, buf, sizeof(buf)));
	CU_ASSERT_EQUAL(strlen(buf) + 1, IBR_GID_STRLEN);
	p.addr = g;
	p.len = 128;
	CU_ASSERT_PTR_NOT_NULL(ibr_gid_prefix_ntop(&p, pbuf, sizeof(pbuf)));
	CU_ASSERT_EQUAL(strlen(pbuf) + 1, IBR_GID_PREFIX_STRLEN);
}

/* A random GID with many zero groups, so that "::" runs are exercised. */
static union ibr_gid gid_random(unsigned long long *seed)
{
	union ibr_gid g;
	unsigned long long r = ibr_test_rand(seed), mask = ibr_test_rand(seed);

	for (int i = 0; i < 8; i++) {
		uint16_t v = (mask >> (2 * i)) & 3 ? 0 : (uint16_t)(r >> (8 * (i % 6)));

		if (((mask >> 20) & 7) == (unsigned long long)i)
			v = (uint16_t)(r & 0xF); /* short groups */
		g.raw[2 * i] = (uint8_t)(v >> 8);
		g.raw[2 * i + 1] = (uint8_t)v;
	}
	return g;
}

/* Cross-check with glibc: same text as inet_ntop unless it chose a dotted quad. */
static void test_roundtrip_vs_libc(void)
{
	unsigned long long seed = 20240601;
	char ours[IBR_GID_STRLEN], libc[INET6_ADDRSTRLEN];
	union ibr_gid g, back;
	int compared = 0;

	for (int n = 0; n < 200000; n++) {
		g = gid_random(&seed);
		CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_gid_ntop(&g, ours, sizeof(ours)));
		CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(ours, &back), 0);
		CU_ASSERT_FATAL(ibr_gid_eq(&g, &back));
		inet_ntop(AF_INET6, g.raw, libc, sizeof(libc));
		if (!strchr(libc, '.')) {
			CU_ASSERT_STRING_EQUAL_FATAL(ours, libc);
			compared++;
		}
		ibr_gid_ntop_long(&g, ours, sizeof(ours));
		CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(ours, &back), 0);
		CU_ASSERT_FATAL(ibr_gid_eq(&g, &back));
	}
	CU_ASSERT(compared > 150000);
}

/* Random strings over the IPv6 alphabet: we accept exactly what inet_pton accepts. */
static void test_parse_vs_inet_pton(void)
{
	static const char alpha[] = "0000111aAfF::::::::9";
	unsigned long long seed = 7;
	char s[48];
	union ibr_gid ours;
	uint8_t libc[16];
	int accepted = 0;

	for (int n = 0; n < 300000; n++) {
		unsigned long long r = ibr_test_rand(&seed);
		size_t len = r % 24, i;

		for (i = 0; i < len; i++) {
			if (i % 8 == 0)
				r = ibr_test_rand(&seed);
			s[i] = alpha[(r >> (8 * (i % 8))) % (sizeof(alpha) - 1)];
		}
		s[len] = '\0';
		int rc = ibr_gid_parse(s, &ours);
		int lrc = inet_pton(AF_INET6, s, libc);
		if ((rc == 0) != (lrc == 1))
			fprintf(stderr, "\"%s\": ours %d, inet_pton %d\n", s, rc, lrc);
		CU_ASSERT_EQUAL_FATAL(rc == 0, lrc == 1);
		if (rc == 0) {
			CU_ASSERT_FATAL(memcmp(ours.raw, libc, 16) == 0);
			accepted++;
		}
	}
	CU_ASSERT(accepted > 1000);
}

static const struct {
	const char *gid;
	enum ibr_gid_class cls;
} gid_classes[] = {
	{ "::", IBR_GID_CLASS_RESERVED },
	{ "::1", IBR_GID_CLASS_LOOPBACK },
	{ "::2", IBR_GID_CLASS_GLOBAL },
	{ "0:0:0:1::", IBR_GID_CLASS_GLOBAL },
	{ "fe80::2:c903:0:1234", IBR_GID_CLASS_LINK_LOCAL },
	{ "febf:ffff::1", IBR_GID_CLASS_LINK_LOCAL },
	{ "fec0::1:0:0:10:3", IBR_GID_CLASS_SITE_LOCAL },
	{ "feff::1", IBR_GID_CLASS_SITE_LOCAL },
	{ "fe7f::1", IBR_GID_CLASS_GLOBAL },
	{ "fe00::1", IBR_GID_CLASS_GLOBAL },
	{ "2001:db8::1", IBR_GID_CLASS_GLOBAL },
	{ "fd00::1", IBR_GID_CLASS_GLOBAL },
	{ "ff02::1", IBR_GID_CLASS_MULTICAST },
	{ "ff12:401b:ffff::1", IBR_GID_CLASS_MULTICAST },
	{ "ff00::", IBR_GID_CLASS_MULTICAST },
	{ "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", IBR_GID_CLASS_MULTICAST },
};

static void test_classify(void)
{
	union ibr_gid g;

	for (size_t i = 0; i < sizeof(gid_classes) / sizeof(gid_classes[0]); i++) {
		enum ibr_gid_class c;

		CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(gid_classes[i].gid, &g), 0);
		c = ibr_gid_class(&g);
		if (c != gid_classes[i].cls)
			fprintf(stderr, "%s: class %s, want %s\n", gid_classes[i].gid,
				ibr_gid_class_name(c), ibr_gid_class_name(gid_classes[i].cls));
		CU_ASSERT_EQUAL(c, gid_classes[i].cls);
		CU_ASSERT_EQUAL(ibr_gid_is_mcast(&g), c == IBR_GID_CLASS_MULTICAST);
		CU_ASSERT_EQUAL(ibr_gid_is_link_local(&g), c == IBR_GID_CLASS_LINK_LOCAL);
		CU_ASSERT_EQUAL(ibr_gid_is_site_local(&g), c == IBR_GID_CLASS_SITE_LOCAL);
		CU_ASSERT_EQUAL(ibr_gid_is_reserved(&g), c == IBR_GID_CLASS_RESERVED);
		CU_ASSERT_EQUAL(ibr_gid_is_loopback(&g), c == IBR_GID_CLASS_LOOPBACK);
		CU_ASSERT_EQUAL(ibr_gid_is_unicast(&g), c == IBR_GID_CLASS_LINK_LOCAL ||
								c == IBR_GID_CLASS_SITE_LOCAL ||
								c == IBR_GID_CLASS_GLOBAL);
	}
	CU_ASSERT_STRING_EQUAL(ibr_gid_class_name(IBR_GID_CLASS_RESERVED), "reserved");
	CU_ASSERT_STRING_EQUAL(ibr_gid_class_name(IBR_GID_CLASS_LOOPBACK), "loopback");
	CU_ASSERT_STRING_EQUAL(ibr_gid_class_name(IBR_GID_CLASS_LINK_LOCAL), "link-local");
	CU_ASSERT_STRING_EQUAL(ibr_gid_class_name(IBR_GID_CLASS_SITE_LOCAL), "site-local");
	CU_ASSERT_STRING_EQUAL(ibr_gid_class_name(IBR_GID_CLASS_GLOBAL), "global");
	CU_ASSERT_STRING_EQUAL(ibr_gid_class_name(IBR_GID_CLASS_MULTICAST), "multicast");
	CU_ASSERT_STRING_EQUAL(ibr_gid_class_name((enum ibr_gid_class)99), "unknown");
}

static void test_mcast_scope(void)
{
	static const struct {
		const char *mgid;
		unsigned int scope;
		bool transient;
		const char *name;
	} t[] = {
		{ "ff02::1", IBR_MCAST_SCOPE_LINK, false, "link-local" },
		{ "ff12:401b:ffff::1", IBR_MCAST_SCOPE_LINK, true, "link-local" },
		{ "ff15::1", IBR_MCAST_SCOPE_SITE, true, "site-local" },
		{ "ff05::1", IBR_MCAST_SCOPE_SITE, false, "site-local" },
		{ "ff18::1", IBR_MCAST_SCOPE_ORG, true, "organization-local" },
		{ "ff0e::1", IBR_MCAST_SCOPE_GLOBAL, false, "global" },
		{ "ff1e::1", IBR_MCAST_SCOPE_GLOBAL, true, "global" },
		{ "ff01::1", IBR_MCAST_SCOPE_INTERFACE, false, "interface-local" },
		{ "ff03::1", IBR_MCAST_SCOPE_REALM, false, "realm-local" },
		{ "ff04::1", IBR_MCAST_SCOPE_ADMIN, false, "admin-local" },
		{ "ff06::1", 6, false, "unassigned-6" },
		{ "ff00::1", 0, false, "reserved-0" },
		{ "ff0f::1", 0xF, false, "reserved-f" },
		{ "ffff::1", 0xF, true, "reserved-f" },
	};
	union ibr_gid g;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(t[i].mgid, &g), 0);
		CU_ASSERT(ibr_gid_is_mcast(&g));
		CU_ASSERT_EQUAL(ibr_gid_mcast_scope(&g), t[i].scope);
		CU_ASSERT_EQUAL(ibr_gid_mcast_is_transient(&g), t[i].transient);
		CU_ASSERT_EQUAL(ibr_gid_mcast_flags(&g) & IBR_MCAST_FLAG_T, t[i].transient);
		CU_ASSERT_STRING_EQUAL(ibr_gid_mcast_scope_name(ibr_gid_mcast_scope(&g)),
				       t[i].name);
	}
	CU_ASSERT_EQUAL(ibr_gid_parse("ff72::1", &g), 0);
	CU_ASSERT_EQUAL(ibr_gid_mcast_flags(&g), 7);
	CU_ASSERT_STRING_EQUAL(ibr_gid_mcast_scope_name(16), "invalid");
	for (unsigned int s = 0; s < 16; s++)
		CU_ASSERT_PTR_NOT_NULL(ibr_gid_mcast_scope_name(s));
}

/* IPv4 groups as RoCE v2 names them: ::ffff:224.0.0.0/100 is a group, with its IPv4 scope */
static void test_mcast_v4(void)
{
	static const struct {
		const char *gid;
		bool group;
		unsigned int scope;
	} t[] = {
		{ "::ffff:239.1.1.1", true, IBR_MCAST_SCOPE_ORG },
		{ "::ffff:ef01:101", true, IBR_MCAST_SCOPE_ORG },
		{ "::ffff:239.255.0.1", true, IBR_MCAST_SCOPE_SITE },
		{ "::ffff:239.192.0.1", true, IBR_MCAST_SCOPE_ORG },
		{ "::ffff:224.0.0.5", true, IBR_MCAST_SCOPE_LINK },
		{ "::ffff:224.0.1.1", true, IBR_MCAST_SCOPE_GLOBAL },
		{ "::ffff:232.1.2.3", true, IBR_MCAST_SCOPE_GLOBAL },
		{ "::ffff:10.0.0.1", false, 0 },
		{ "::ffff:240.0.0.1", false, 0 },
		{ "::ffff:223.255.255.255", false, 0 },
		{ "::239.1.1.1", false, 0 }, /* IPv4-compatible, not mapped */
		{ "::fffe:239.1.1.1", false, 0 },
		{ "1::ffff:239.1.1.1", false, 0 },
	};
	union ibr_gid g;
	char buf[IBR_GID_STRLEN];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(t[i].gid, &g), 0);
		CU_ASSERT_EQUAL(ibr_gid_is_mcast(&g), t[i].group);
		CU_ASSERT_EQUAL(ibr_gid_raw_is_mcast(g.raw), t[i].group);
		CU_ASSERT_EQUAL(ibr_gid_is_v4mcast(&g), t[i].group);
		CU_ASSERT_EQUAL(ibr_gid_class(&g) == IBR_GID_CLASS_MULTICAST, t[i].group);
		if (t[i].group)
			CU_ASSERT_EQUAL(ibr_gid_mcast_scope(&g), t[i].scope);
	}
	/* shown in its IPv4 form */
	CU_ASSERT_EQUAL(ibr_gid_parse("::ffff:ef01:101", &g), 0);
	CU_ASSERT_STRING_EQUAL(ibr_gid_ntop(&g, buf, sizeof(buf)), "::ffff:239.1.1.1");
	/* an MGID stays one, whatever its last bytes */
	CU_ASSERT_EQUAL(ibr_gid_parse("ff12:4001:ffff::f01:101", &g), 0);
	CU_ASSERT(ibr_gid_is_mcast(&g) && !ibr_gid_is_v4mcast(&g));
}

/* A 16-byte key: 32 hex digits, 0x first or not, any case; nothing else. */
static void test_hex_key(void)
{
	static const uint8_t want[16] = { 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
					  0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	uint8_t k[16];

	CU_ASSERT_EQUAL(ibr_hex_key_parse("00112233445566778899aabbccddeeff", k, 16), 0);
	CU_ASSERT(!memcmp(k, want, 16));
	CU_ASSERT_EQUAL(ibr_hex_key_parse("0X00112233445566778899AABBCCDDEEFF", k, 16), 0);
	CU_ASSERT(!memcmp(k, want, 16));
	CU_ASSERT_EQUAL(ibr_hex_key_parse("0x00112233445566778899aabbccddeef", k, 16), -EINVAL);
	CU_ASSERT_EQUAL(ibr_hex_key_parse("00112233445566778899aabbccddeeff0", k, 16), -EINVAL);
	CU_ASSERT_EQUAL(ibr_hex_key_parse("00112233445566778899aabbccddeefg", k, 16), -EINVAL);
	CU_ASSERT_EQUAL(ibr_hex_key_parse("0x", k, 16), -EINVAL);
	CU_ASSERT_EQUAL(ibr_hex_key_parse("", k, 16), -EINVAL);
	CU_ASSERT_EQUAL(ibr_hex_key_parse("-0112233445566778899aabbccddeeff", k, 16), -EINVAL);
}

static void test_guid(void)
{
	static const struct {
		const char *s;
		int rc;
		uint64_t v;
	} t[] = {
		{ "0x0002c90300001234", 0, 0x0002c90300001234ull },
		{ "0X2C90300001234", 0, 0x0002c90300001234ull },
		{ "0xffffffffffffffff", 0, ~0ull },
		{ "0x0", 0, 0 },
		{ "0x00000000000000001", -EINVAL, 0 }, /* 17 digits */
		{ "0x", -EINVAL, 0 },
		{ "0002c90300001234", -EINVAL, 0 },
		{ "0x12g", -EINVAL, 0 },
		{ "0x12 ", -EINVAL, 0 },
		{ " 0x12", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "-0x1", -EINVAL, 0 },
	};
	char buf[IBR_GUID_STRLEN];
	uint64_t v;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		v = 42;
		CU_ASSERT_EQUAL(ibr_guid_parse(t[i].s, &v), t[i].rc);
		CU_ASSERT_EQUAL(v, t[i].rc ? 42 : t[i].v);
	}
	CU_ASSERT_EQUAL(ibr_guid_parse(NULL, &v), -EINVAL);
	CU_ASSERT_STRING_EQUAL(ibr_guid_ntop(0x0002c90300001234ull, buf, sizeof(buf)),
			       "0x0002c90300001234");
	CU_ASSERT_STRING_EQUAL(ibr_guid_ntop(0, buf, sizeof(buf)), "0x0000000000000000");
	unsigned long long seed = 3;
	for (int n = 0; n < 10000; n++) {
		uint64_t g = ibr_test_rand(&seed);

		ibr_guid_ntop(g, buf, sizeof(buf));
		CU_ASSERT_EQUAL_FATAL(ibr_guid_parse(buf, &v), 0);
		CU_ASSERT_EQUAL_FATAL(v, g);
	}
}

static void test_prefix_parse(void)
{
	static const struct {
		const char *s;
		int rc;
		const char *hex;
		unsigned int len;
		const char *print;
	} t[] = {
		{ "fec0:0:0:2::/64", 0, "fec00000000000020000000000000000", 64, "fec0:0:0:2::/64" },
		{ "FEC0:0000:0000:0002:0000:0000:0000:0000/64", 0,
		  "fec00000000000020000000000000000", 64, "fec0:0:0:2::/64" },
		{ "fec0::/10", 0, "fec00000000000000000000000000000", 10, "fec0::/10" },
		{ "fe80::/10", 0, "fe800000000000000000000000000000", 10, "fe80::/10" },
		{ "::/0", 0, "00000000000000000000000000000000", 0, "::/0" },
		{ "fec0::1:0:0:10:3/128", 0, "fec00000000000010000000000100003", 128,
		  "fec0::1:0:0:10:3/128" },
		{ "fec0:0:0:2:8000::/65", 0, "fec00000000000028000000000000000", 65,
		  "fec0:0:0:2:8000::/65" },
		{ "0xfec0000000000002", 0, "fec00000000000020000000000000000", 64,
		  "fec0:0:0:2::/64" },
		{ "::ffff:0.0.0.0/96", 0, "00000000000000000000ffff00000000", 96,
		  "::ffff:0.0.0.0/96" },
		{ "::ffff:10.1.0.0/112", 0, "00000000000000000000ffff0a010000", 112,
		  "::ffff:10.1.0.0/112" },
		{ "::ffff:10.1.0.1/112", -EINVAL, NULL, 0, NULL }, /* host bits */
		{ "fec0::1/64", -EINVAL, NULL, 0, NULL },	   /* host bits */
		{ "fec0:0:0:2:4000::/65", -EINVAL, NULL, 0, NULL },
		{ "fec1::/15", -EINVAL, NULL, 0, NULL },
		{ "fec0::/129", -EINVAL, NULL, 0, NULL },
		{ "fec0::/064", -EINVAL, NULL, 0, NULL },
		{ "fec0::/", -EINVAL, NULL, 0, NULL },
		{ "fec0::/-1", -EINVAL, NULL, 0, NULL },
		{ "fec0::/+64", -EINVAL, NULL, 0, NULL },
		{ "fec0::/64 ", -EINVAL, NULL, 0, NULL },
		{ "fec0::/64/64", -EINVAL, NULL, 0, NULL },
		{ "/64", -EINVAL, NULL, 0, NULL },
		{ "fec0::", -EINVAL, NULL, 0, NULL },
		{ "fec0::/1000", -EINVAL, NULL, 0, NULL },
		{ "0xfec0000000000002/64", -EINVAL, NULL, 0, NULL },
		{ "0xfec0000000000001:0x0/64", -EINVAL, NULL, 0, NULL },
		{ "1.2.3.4/8", -EINVAL, NULL, 0, NULL },
		{ "", -EINVAL, NULL, 0, NULL },
	};
	struct ibr_gid_prefix p;
	char buf[IBR_GID_PREFIX_STRLEN];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&p, 0xAA, sizeof(p));
		int rc = ibr_gid_prefix_parse(t[i].s, &p);
		if (rc != t[i].rc)
			fprintf(stderr, "prefix \"%s\": %d, want %d\n", t[i].s, rc, t[i].rc);
		CU_ASSERT_EQUAL(rc, t[i].rc);
		if (rc || t[i].rc) {
			CU_ASSERT_EQUAL(p.len, 0xAA);
			continue;
		}
		union ibr_gid want = gid_from_hex(t[i].hex);
		CU_ASSERT(ibr_gid_eq(&p.addr, &want));
		CU_ASSERT_EQUAL(p.len, t[i].len);
		CU_ASSERT_STRING_EQUAL(ibr_gid_prefix_ntop(&p, buf, sizeof(buf)), t[i].print);
		CU_ASSERT_FALSE(ibr_gid_prefix_normalise(&p));
	}
	CU_ASSERT_EQUAL(ibr_gid_prefix_parse(NULL, &p), -EINVAL);
}

static void test_prefix_normalise(void)
{
	struct ibr_gid_prefix p;

	CU_ASSERT_EQUAL(ibr_gid_parse("fec0::1:0:0:10:3", &p.addr), 0);
	p.len = 64;
	CU_ASSERT_TRUE(ibr_gid_prefix_normalise(&p));
	CU_ASSERT_EQUAL(ibr_gid_prefix(&p.addr), 0xfec0000000000001ull);
	CU_ASSERT_EQUAL(ibr_gid_guid(&p.addr), 0);
	CU_ASSERT_FALSE(ibr_gid_prefix_normalise(&p));

	memset(&p.addr, 0xff, sizeof(p.addr));
	p.len = 13;
	CU_ASSERT_TRUE(ibr_gid_prefix_normalise(&p));
	CU_ASSERT_EQUAL(p.addr.raw[0], 0xff);
	CU_ASSERT_EQUAL(p.addr.raw[1], 0xf8);
	for (int i = 2; i < 16; i++)
		CU_ASSERT_EQUAL(p.addr.raw[i], 0);

	memset(&p.addr, 0xff, sizeof(p.addr));
	p.len = 200;
	CU_ASSERT_TRUE(ibr_gid_prefix_normalise(&p));
	CU_ASSERT_EQUAL(p.len, 128);
	CU_ASSERT_EQUAL(p.addr.raw[15], 0xff);

	memset(&p.addr, 0xff, sizeof(p.addr));
	p.len = 0;
	CU_ASSERT_TRUE(ibr_gid_prefix_normalise(&p));
	CU_ASSERT(ibr_gid_is_reserved(&p.addr));

	struct ibr_gid_prefix s = ibr_gid_prefix_from_subnet(0xfec0000000000002ull);
	CU_ASSERT_EQUAL(s.len, 64);
	CU_ASSERT_EQUAL(ibr_gid_prefix(&s.addr), 0xfec0000000000002ull);
	CU_ASSERT_EQUAL(ibr_gid_guid(&s.addr), 0);
}

/* Reference: bit i (0 = MSB of byte 0) of a GID. */
static int gid_bit(const union ibr_gid *g, unsigned int i)
{
	return (g->raw[i / 8] >> (7 - i % 8)) & 1;
}

static void test_prefix_match(void)
{
	struct ibr_gid_prefix p, q;
	union ibr_gid g;
	unsigned long long seed = 99;

	CU_ASSERT_EQUAL(ibr_gid_prefix_parse("fec0:0:0:2::/64", &p), 0);
	CU_ASSERT_EQUAL(ibr_gid_parse("fec0::2:2:c903:0:1234", &g), 0);
	CU_ASSERT(ibr_gid_prefix_match(&p, &g));
	CU_ASSERT_EQUAL(ibr_gid_parse("fec0::3:2:c903:0:1234", &g), 0);
	CU_ASSERT_FALSE(ibr_gid_prefix_match(&p, &g));
	CU_ASSERT_EQUAL(ibr_gid_prefix_parse("::/0", &q), 0);
	CU_ASSERT(ibr_gid_prefix_match(&q, &g));
	CU_ASSERT_EQUAL(ibr_gid_prefix_parse("fec0::/10", &q), 0);
	CU_ASSERT(ibr_gid_prefix_match(&q, &g));
	CU_ASSERT(ibr_gid_prefix_contains(&q, &p));
	CU_ASSERT_FALSE(ibr_gid_prefix_contains(&p, &q));
	CU_ASSERT(ibr_gid_prefix_contains(&p, &p));
	CU_ASSERT_EQUAL(ibr_gid_parse("fe80::1", &g), 0);
	CU_ASSERT_FALSE(ibr_gid_prefix_match(&q, &g));

	/* Random prefixes of every length against a bitwise reference. */
	for (int n = 0; n < 50000; n++) {
		union ibr_gid a = ibr_gid_make(ibr_test_rand(&seed), ibr_test_rand(&seed));
		union ibr_gid b = a;
		unsigned int len = (unsigned int)(ibr_test_rand(&seed) % 129);
		unsigned int flip = (unsigned int)(ibr_test_rand(&seed) % 128);

		b.raw[flip / 8] ^= (uint8_t)(0x80 >> (flip % 8));
		p.addr = a;
		p.len = (uint8_t)len;
		ibr_gid_prefix_normalise(&p);
		for (unsigned int i = len; i < 128; i++)
			CU_ASSERT_EQUAL_FATAL(gid_bit(&p.addr, i), 0);
		for (unsigned int i = 0; i < len; i++)
			CU_ASSERT_EQUAL_FATAL(gid_bit(&p.addr, i), gid_bit(&a, i));
		CU_ASSERT_FATAL(ibr_gid_prefix_match(&p, &a));
		CU_ASSERT_EQUAL_FATAL(ibr_gid_prefix_match(&p, &b), flip >= len);
		/* print and parse back */
		char buf[IBR_GID_PREFIX_STRLEN];
		CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_gid_prefix_ntop(&p, buf, sizeof(buf)));
		CU_ASSERT_EQUAL_FATAL(ibr_gid_prefix_parse(buf, &q), 0);
		CU_ASSERT_FATAL(ibr_gid_eq(&p.addr, &q.addr) && p.len == q.len);
	}
}

static void test_lid_class(void)
{
	static const struct {
		uint16_t lid;
		enum ibr_lid_class cls;
	} t[] = {
		{ 0x0000, IBR_LID_CLASS_RESERVED },   { 0x0001, IBR_LID_CLASS_UNICAST },
		{ 0x1234, IBR_LID_CLASS_UNICAST },    { 0xBFFF, IBR_LID_CLASS_UNICAST },
		{ 0xC000, IBR_LID_CLASS_MULTICAST },  { 0xFFFE, IBR_LID_CLASS_MULTICAST },
		{ 0xFFFF, IBR_LID_CLASS_PERMISSIVE },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CU_ASSERT_EQUAL(ibr_lid_class(t[i].lid), t[i].cls);
		CU_ASSERT_EQUAL(ibr_lid_is_unicast(t[i].lid), t[i].cls == IBR_LID_CLASS_UNICAST);
		CU_ASSERT_EQUAL(ibr_lid_is_mcast(t[i].lid), t[i].cls == IBR_LID_CLASS_MULTICAST);
	}
	for (uint32_t l = 0; l <= 0xFFFF; l++) {
		enum ibr_lid_class c = ibr_lid_class((uint16_t)l);
		enum ibr_lid_class want = l == 0       ? IBR_LID_CLASS_RESERVED
					  : l < 0xC000 ? IBR_LID_CLASS_UNICAST
					  : l < 0xFFFF ? IBR_LID_CLASS_MULTICAST
						       : IBR_LID_CLASS_PERMISSIVE;
		CU_ASSERT_EQUAL_FATAL(c, want);
	}
	CU_ASSERT_STRING_EQUAL(ibr_lid_class_name(IBR_LID_CLASS_RESERVED), "reserved");
	CU_ASSERT_STRING_EQUAL(ibr_lid_class_name(IBR_LID_CLASS_UNICAST), "unicast");
	CU_ASSERT_STRING_EQUAL(ibr_lid_class_name(IBR_LID_CLASS_MULTICAST), "multicast");
	CU_ASSERT_STRING_EQUAL(ibr_lid_class_name(IBR_LID_CLASS_PERMISSIVE), "permissive");
	CU_ASSERT_STRING_EQUAL(ibr_lid_class_name((enum ibr_lid_class)9), "unknown");
}

static void test_lid_range(void)
{
	CU_ASSERT(ibr_lid_in_range(4, 0, 4));
	CU_ASSERT_FALSE(ibr_lid_in_range(4, 0, 5));
	CU_ASSERT(ibr_lid_in_range(4, 2, 4));
	CU_ASSERT(ibr_lid_in_range(4, 2, 7));
	CU_ASSERT_FALSE(ibr_lid_in_range(4, 2, 8));
	CU_ASSERT_FALSE(ibr_lid_in_range(4, 2, 3));
	CU_ASSERT_FALSE(ibr_lid_in_range(5, 1, 5)); /* unaligned base */
	CU_ASSERT_FALSE(ibr_lid_in_range(6, 2, 6));
	CU_ASSERT(ibr_lid_in_range(0x80, 7, 0xFF));
	CU_ASSERT_FALSE(ibr_lid_in_range(0x80, 8, 0x80)); /* LMC > 7 */
	CU_ASSERT_FALSE(ibr_lid_in_range(0, 0, 0));	  /* reserved */
	CU_ASSERT_FALSE(ibr_lid_in_range(0, 2, 1));	  /* includes LID 0 */
	CU_ASSERT(ibr_lid_in_range(0xBF80, 7, 0xBFFF));
	CU_ASSERT_FALSE(ibr_lid_in_range(0xC000, 0, 0xC000)); /* multicast */
	CU_ASSERT_FALSE(ibr_lid_in_range(0xFFFF, 0, 0xFFFF));
	CU_ASSERT(ibr_lid_range_valid(1, 0));
	CU_ASSERT_FALSE(ibr_lid_range_valid(1, 1));
	CU_ASSERT(ibr_lid_range_valid(0xBFFE, 1));
	CU_ASSERT_FALSE(ibr_lid_range_valid(0xBFFE, 2));

	/* exhaustive over small bases against the definition */
	for (unsigned int lmc = 0; lmc <= 8; lmc++)
		for (uint32_t base = 0; base < 0x100; base++)
			for (uint32_t lid = 0; lid < 0x100; lid++) {
				uint32_t n = 1u << lmc;
				bool valid = lmc <= 7 && base % n == 0 && base >= 1;
				bool want = valid && lid >= base && lid < base + n;
				CU_ASSERT_EQUAL_FATAL(
					ibr_lid_in_range((uint16_t)base, lmc, (uint16_t)lid), want);
			}
}

static void test_lid_parse(void)
{
	static const struct {
		const char *s;
		int rc;
		uint16_t v;
	} t[] = {
		{ "0", 0, 0 },
		{ "7", 0, 7 },
		{ "65535", 0, 0xFFFF },
		{ "0xffff", 0, 0xFFFF },
		{ "0XC000", 0, 0xC000 },
		{ "0x1", 0, 1 },
		{ "0007", 0, 7 },
		{ "65536", -EINVAL, 0 },
		{ "0x10000", -EINVAL, 0 },
		{ "0x", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "7 ", -EINVAL, 0 },
		{ "0x0ffff", -EINVAL, 0 },
		{ "99999999999999999999", -EINVAL, 0 },
		{ "1e3", -EINVAL, 0 },
	};
	uint16_t v;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		v = 42;
		CU_ASSERT_EQUAL(ibr_lid_parse(t[i].s, &v), t[i].rc);
		CU_ASSERT_EQUAL(v, t[i].rc ? 42 : t[i].v);
	}
	CU_ASSERT_EQUAL(ibr_lid_parse(NULL, &v), -EINVAL);
}

static CU_TestInfo tests[] = {
	{ "make and accessors", test_make_accessors },
	{ "parse table", test_parse_table },
	{ "print table", test_print_table },
	{ "print into small buffers", test_print_small_buffer },
	{ "a 16-byte key in hex", test_hex_key },
	{ "print maximum lengths", test_print_max_len },
	{ "round trip, inet_ntop cross-check", test_roundtrip_vs_libc },
	{ "parse, inet_pton cross-check", test_parse_vs_inet_pton },
	{ "classification", test_classify },
	{ "multicast scope and flags", test_mcast_scope },
	{ "IPv4 groups (::ffff:224.0.0.0/100)", test_mcast_v4 },
	{ "GUID parse and print", test_guid },
	{ "prefix parse and print", test_prefix_parse },
	{ "prefix normalise", test_prefix_normalise },
	{ "prefix match and contains", test_prefix_match },
	{ "LID classes", test_lid_class },
	{ "LID ranges (LMC)", test_lid_range },
	{ "LID parse", test_lid_parse },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_gid", tests);
}
