/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_mgid_test.c - IP groups and their MGIDs (lib/ibr_mgid.c). */
#include "lib/ibr_mgid.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const enum ibr_mgid_form forms[] = { IBR_MGID_FORM_IP, IBR_MGID_FORM_RDMA_CM,
					    IBR_MGID_FORM_IPOIB };

static union ibr_gid gid(const char *text)
{
	union ibr_gid g;

	if (ibr_gid_parse(text, &g) != 0) {
		fprintf(stderr, "bad GID in the test: %s\n", text);
		memset(&g, 0, sizeof(g));
	}
	return g;
}

static void test_form_names(void)
{
	enum ibr_mgid_form f = IBR_MGID_FORM_IPOIB;
	static const char *const bad[] = { "", "IP", "rdma_cm", "rdmacm", "ipoib ", " ip", "ib" };

	CU_ASSERT_STRING_EQUAL(ibr_mgid_form_name(IBR_MGID_FORM_IP), "ip");
	CU_ASSERT_STRING_EQUAL(ibr_mgid_form_name(IBR_MGID_FORM_RDMA_CM), "rdma-cm");
	CU_ASSERT_STRING_EQUAL(ibr_mgid_form_name(IBR_MGID_FORM_IPOIB), "ipoib");
	CU_ASSERT_STRING_EQUAL(ibr_mgid_form_name((enum ibr_mgid_form)7), "unknown");
	for (size_t i = 0; i < N(forms); i++) {
		CU_ASSERT_EQUAL(ibr_mgid_form_parse(ibr_mgid_form_name(forms[i]), &f), 0);
		CU_ASSERT_EQUAL(f, forms[i]);
	}
	for (size_t i = 0; i < N(bad); i++) {
		f = IBR_MGID_FORM_RDMA_CM;
		CU_ASSERT_EQUAL(ibr_mgid_form_parse(bad[i], &f), -EINVAL);
		CU_ASSERT_EQUAL(f, IBR_MGID_FORM_RDMA_CM);
	}
	CU_ASSERT_EQUAL(ibr_mgid_form_parse(NULL, &f), -EINVAL);
}

static void test_group_class(void)
{
	static const struct {
		const char *g;
		bool v4, ip;
	} t[] = {
		{ "::ffff:224.0.0.0", true, true },
		{ "::ffff:224.0.0.1", true, true },
		{ "::ffff:239.255.255.255", true, true },
		{ "::ffff:230.1.2.3", true, true },
		{ "::ffff:223.255.255.255", false, false },
		{ "::ffff:240.0.0.1", false, false },
		{ "::ffff:10.0.0.1", false, false },
		{ "::224.1.1.1", false, false },
		{ "ff02::1", false, true },
		{ "ff12:a01b:ffff::1", false, true },
		{ "fe80::1", false, false },
		{ "::", false, false },
		{ "::1", false, false },
		{ "fec0::1", false, false },
	};

	for (size_t i = 0; i < N(t); i++) {
		union ibr_gid g = gid(t[i].g);

		CU_ASSERT_EQUAL(ibr_mgid_group_is_v4(&g), t[i].v4);
		CU_ASSERT_EQUAL(ibr_mgid_group_is_ip(&g), t[i].ip);
	}
}

/* Known MGIDs: the kernel's ip_ib_mc_map()/ipv6_ib_mc_map() and cma_set_mgid(). */
static const struct {
	enum ibr_mgid_form f;
	const char *group;
	unsigned int scope;
	uint16_t pkey;
	const char *mgid;
} known[] = {
	{ IBR_MGID_FORM_RDMA_CM, "::ffff:239.1.1.1", 2, 0xffff, "ff12:4001:ffff::f01:101" },
	{ IBR_MGID_FORM_IPOIB, "::ffff:239.1.1.1", 2, 0xffff, "ff12:401b:ffff::f01:101" },
	{ IBR_MGID_FORM_IP, "::ffff:239.1.1.1", 2, 0xffff, "::ffff:239.1.1.1" },
	{ IBR_MGID_FORM_RDMA_CM, "::ffff:239.1.1.1", 5, 0xffff, "ff15:4001:ffff::f01:101" },
	{ IBR_MGID_FORM_IPOIB, "::ffff:239.1.1.1", 8, 0xffff, "ff18:401b:ffff::f01:101" },
	{ IBR_MGID_FORM_RDMA_CM, "::ffff:239.1.1.1", 0xE, 0xffff, "ff1e:4001:ffff::f01:101" },
	{ IBR_MGID_FORM_RDMA_CM, "::ffff:239.1.1.1", 2, 0x8001, "ff12:4001:8001::f01:101" },
	{ IBR_MGID_FORM_IPOIB, "::ffff:239.1.1.1", 2, 0x7fff, "ff12:401b:7fff::f01:101" },
	{ IBR_MGID_FORM_IPOIB, "::ffff:224.0.0.1", 2, 0xffff, "ff12:401b:ffff::1" },
	{ IBR_MGID_FORM_IPOIB, "::ffff:224.0.0.251", 2, 0xffff, "ff12:401b:ffff::fb" },
	{ IBR_MGID_FORM_RDMA_CM, "::ffff:239.255.255.250", 2, 0xffff, "ff12:4001:ffff::fff:fffa" },
	/* IPv6: solicited-node, and a group whose bytes 2-5 are lost */
	{ IBR_MGID_FORM_IPOIB, "ff02::1:ff00:1", 2, 0xffff, "ff12:601b:ffff::1:ff00:1" },
	{ IBR_MGID_FORM_RDMA_CM, "ff0e::1234", 5, 0x8001, "ff15:6001:8001::1234" },
	{ IBR_MGID_FORM_RDMA_CM, "ff3e:30:2001:db8:1122:3344:5566:7788", 0xE, 0x7fff,
	  "ff1e:6001:7fff:db8:1122:3344:5566:7788" },
	{ IBR_MGID_FORM_IP, "ff0e::1234", 5, 0x8001, "ff0e::1234" },
	/* an SA-assigned MGID: rdma_cm keeps it, IPoIB maps it like any IPv6 group */
	{ IBR_MGID_FORM_RDMA_CM, "ff12:a01b:ffff::1", 8, 0x8001, "ff12:a01b:ffff::1" },
	{ IBR_MGID_FORM_IPOIB, "ff12:a01b:ffff::1", 2, 0xffff, "ff12:601b:ffff::1" },
};

static void test_make_known(void)
{
	char buf[IBR_GID_STRLEN];
	union ibr_gid out;

	for (size_t i = 0; i < N(known); i++) {
		union ibr_gid g = gid(known[i].group), want = gid(known[i].mgid);

		memset(&out, 0xAA, sizeof(out));
		CU_ASSERT_EQUAL_FATAL(
			ibr_mgid_make(known[i].f, &g, known[i].scope, known[i].pkey, &out), 0);
		if (!ibr_gid_eq(&out, &want))
			fprintf(stderr, "%s %s: %s, want %s\n", ibr_mgid_form_name(known[i].f),
				known[i].group, ibr_gid_ntop(&out, buf, sizeof(buf)),
				known[i].mgid);
		CU_ASSERT(ibr_gid_eq(&out, &want));
		CU_ASSERT(ibr_mgid_is_form_of(&want, known[i].f, &g));
	}
}

static void test_make_rejects(void)
{
	static const char *const not_groups[] = {
		"::ffff:10.0.0.1",
		"::ffff:223.1.1.1",
		"::ffff:240.0.0.1",
		"::224.1.1.1",
		"fe80::1",
		"fec0::1",
		"::",
		"::1",
		"2001:db8::1",
	};
	union ibr_gid g, out;

	for (size_t i = 0; i < N(not_groups); i++) {
		g = gid(not_groups[i]);
		for (size_t j = 0; j < N(forms); j++) {
			memset(&out, 0xAA, sizeof(out));
			CU_ASSERT_EQUAL(ibr_mgid_make(forms[j], &g, 2, 0xffff, &out), -EINVAL);
			CU_ASSERT_EQUAL(out.raw[0], 0xAA);
			CU_ASSERT(!ibr_mgid_is_form_of(&g, forms[j], &g));
		}
	}
	g = gid("::ffff:239.1.1.1");
	memset(&out, 0xAA, sizeof(out));
	CU_ASSERT_EQUAL(ibr_mgid_make(IBR_MGID_FORM_RDMA_CM, &g, 0, 0xffff, &out), -EINVAL);
	CU_ASSERT_EQUAL(ibr_mgid_make(IBR_MGID_FORM_IPOIB, &g, 16, 0xffff, &out), -EINVAL);
	CU_ASSERT_EQUAL(ibr_mgid_make((enum ibr_mgid_form)7, &g, 2, 0xffff, &out), -EINVAL);
	CU_ASSERT_EQUAL(out.raw[0], 0xAA);
	g = gid("ff0e::1");
	CU_ASSERT_EQUAL(ibr_mgid_make(IBR_MGID_FORM_RDMA_CM, &g, 0, 0xffff, &out), -EINVAL);
	/* the MGID is the group: scope and P_Key do not matter */
	CU_ASSERT_EQUAL(ibr_mgid_make(IBR_MGID_FORM_IP, &g, 0, 0, &out), 0);
	CU_ASSERT(ibr_gid_eq(&out, &g));
}

/* Every IPv4 group, form, scope and P_Key makes an MGID that decodes back. */
static void test_v4_round_trip(void)
{
	static const char *const groups[] = { "::ffff:224.0.0.0",   "::ffff:224.0.0.1",
					      "::ffff:224.255.0.7", "::ffff:230.5.6.7",
					      "::ffff:239.1.1.1",   "::ffff:239.255.255.255" };
	static const unsigned int scopes[] = { 1, 2, 5, 8, 0xE, 0xF };
	static const uint16_t pkeys[] = { 0xffff, 0x8001, 0x7fff, 0x0000 };

	for (size_t gi = 0; gi < N(groups); gi++)
		for (size_t fi = 0; fi < N(forms); fi++)
			for (size_t si = 0; si < N(scopes); si++)
				for (size_t pi = 0; pi < N(pkeys); pi++) {
					union ibr_gid g = gid(groups[gi]), m, back;
					enum ibr_mgid_form f = forms[fi], df;
					bool ib = f != IBR_MGID_FORM_IP;
					unsigned int scope;
					uint16_t pkey;

					CU_ASSERT_EQUAL_FATAL(
						ibr_mgid_make(f, &g, scopes[si], pkeys[pi], &m), 0);
					CU_ASSERT_EQUAL(
						ibr_mgid_decode(&m, &df, &back, &scope, &pkey), 0);
					CU_ASSERT_EQUAL(df, f);
					CU_ASSERT(ibr_gid_eq(&back, &g));
					/* an IPv4 group's own scope is RFC 2365's (ibr_gid.h) */
					CU_ASSERT_EQUAL(scope,
							ib ? scopes[si] : ibr_gid_mcast_scope(&g));
					CU_ASSERT_EQUAL(pkey, ib ? pkeys[pi] : 0);
					if (ib) {
						CU_ASSERT_EQUAL(ibr_mgid_scope(&m), scopes[si]);
						CU_ASSERT_EQUAL(ibr_mgid_pkey(&m), pkeys[pi]);
					}
					for (size_t o = 0; o < N(forms); o++)
						CU_ASSERT_EQUAL(
							ibr_mgid_is_form_of(&m, forms[o], &g),
							forms[o] == f);
				}
}

/* The top nibble of an IPv4 group is not in its IB forms: it is always 0xE. */
static void test_v4_top_nibble(void)
{
	union ibr_gid a = gid("::ffff:224.1.1.1"), b = gid("::ffff:239.1.1.1"), ma, mb, back;

	CU_ASSERT_EQUAL(ibr_mgid_make(IBR_MGID_FORM_IPOIB, &a, 2, 0xffff, &ma), 0);
	CU_ASSERT_EQUAL(ibr_mgid_make(IBR_MGID_FORM_IPOIB, &b, 2, 0xffff, &mb), 0);
	CU_ASSERT_EQUAL(ma.raw[12], 0x00);
	CU_ASSERT_EQUAL(mb.raw[12], 0x0F);
	CU_ASSERT_EQUAL(ibr_mgid_decode(&ma, NULL, &back, NULL, NULL), 0);
	CU_ASSERT(ibr_gid_eq(&back, &a));
	CU_ASSERT_EQUAL(ibr_mgid_decode(&mb, NULL, &back, NULL, NULL), 0);
	CU_ASSERT(ibr_gid_eq(&back, &b));
	CU_ASSERT(!ibr_mgid_is_form_of(&ma, IBR_MGID_FORM_IPOIB, &b));
	CU_ASSERT(!ibr_mgid_is_form_of(&mb, IBR_MGID_FORM_IPOIB, &a));
}

/* An IPv6 IB form keeps bytes 6-15 of the group: decode says so, is_form_of decides. */
static void test_v6_partial(void)
{
	union ibr_gid g = gid("ff0e::1234"), m, back;
	union ibr_gid same_tail = gid("ff05::1234"), other = gid("ff0e::1235");
	enum ibr_mgid_form f;
	unsigned int scope;
	uint16_t pkey;

	for (size_t fi = 1; fi < N(forms); fi++) {
		CU_ASSERT_EQUAL(ibr_mgid_make(forms[fi], &g, 8, 0x8001, &m), 0);
		memset(&back, 0xAA, sizeof(back));
		CU_ASSERT_EQUAL(ibr_mgid_decode(&m, &f, &back, &scope, &pkey), -ENODATA);
		CU_ASSERT_EQUAL(f, forms[fi]);
		CU_ASSERT_EQUAL(scope, 8);
		CU_ASSERT_EQUAL(pkey, 0x8001);
		CU_ASSERT(memcmp(back.raw, "\0\0\0\0\0\0", 6) == 0);
		CU_ASSERT(memcmp(back.raw + 6, g.raw + 6, 10) == 0);
		CU_ASSERT(ibr_mgid_is_form_of(&m, forms[fi], &g));
		CU_ASSERT(ibr_mgid_is_form_of(&m, forms[fi], &same_tail)); /* bytes 0-5 lost */
		CU_ASSERT(!ibr_mgid_is_form_of(&m, forms[fi], &other));
		CU_ASSERT(!ibr_mgid_is_form_of(&m, IBR_MGID_FORM_IP, &g));
		CU_ASSERT(!ibr_mgid_is_form_of(&m, forms[3 - fi], &g));
	}
}

static void test_is_form_of_negatives(void)
{
	static const struct {
		const char *mgid;
		enum ibr_mgid_form f;
	} t[] = {
		{ "ff12:401b:ffff::f01:101", IBR_MGID_FORM_RDMA_CM }, /* other signature */
		{ "ff12:4001:ffff::f01:101", IBR_MGID_FORM_IPOIB },
		{ "ff12:6001:ffff::f01:101", IBR_MGID_FORM_RDMA_CM }, /* IPv6 signature */
		{ "ff12:4001:ffff::f01:102", IBR_MGID_FORM_RDMA_CM }, /* other address */
		{ "ff12:4001:ffff::e01:101", IBR_MGID_FORM_RDMA_CM },
		{ "ff12:4001:ffff::ff01:101", IBR_MGID_FORM_RDMA_CM },	/* top nibble kept */
		{ "ff12:4001:ffff:1::f01:101", IBR_MGID_FORM_RDMA_CM }, /* bytes 6-11 */
		{ "ff12:4001:ffff:0:0:1:f01:101", IBR_MGID_FORM_RDMA_CM },
		{ "ff02:4001:ffff::f01:101", IBR_MGID_FORM_RDMA_CM }, /* flags 0 */
		{ "ff10:4001:ffff::f01:101", IBR_MGID_FORM_RDMA_CM }, /* scope 0 */
		{ "fe12:4001:ffff::f01:101", IBR_MGID_FORM_RDMA_CM }, /* not multicast */
		{ "ff12:4001:ffff::f01:101", IBR_MGID_FORM_IP },
		{ "::ffff:239.1.1.2", IBR_MGID_FORM_IP },
		{ "::ffff:239.1.1.1", IBR_MGID_FORM_RDMA_CM },
	};
	union ibr_gid g = gid("::ffff:239.1.1.1"), v6 = gid("ff0e::f01:101");

	for (size_t i = 0; i < N(t); i++) {
		union ibr_gid m = gid(t[i].mgid);

		if (ibr_mgid_is_form_of(&m, t[i].f, &g))
			fprintf(stderr, "%s is %s of 239.1.1.1?\n", t[i].mgid,
				ibr_mgid_form_name(t[i].f));
		CU_ASSERT(!ibr_mgid_is_form_of(&m, t[i].f, &g));
	}
	/* an IPv6 group with the same low bytes is not the IPv4 group's form */
	union ibr_gid m4 = gid("ff12:4001:ffff::f01:101");
	CU_ASSERT(!ibr_mgid_is_form_of(&m4, IBR_MGID_FORM_RDMA_CM, &v6));
	CU_ASSERT(!ibr_mgid_is_form_of(&m4, (enum ibr_mgid_form)7, &g));
}

static void test_decode_other(void)
{
	static const struct {
		const char *mgid;
		int rc;
		unsigned int scope;
	} t[] = {
		/* not an IB form as the kernel makes it: an IPv6 group as is (FORM_IP) */
		{ "ff12:4001:ffff:1::f01:101", 0, 2 },
		{ "ff12:4001:ffff::1f01:101", 0, 2 },
		{ "ff02:401b:ffff::f01:101", 0, 2 },
		{ "ff10:401b:ffff::f01:101", 0, 0 },
		{ "ff32:601b:ffff::1", 0, 2 },
		{ "ff15:a01b:ffff::1", 0, 5 }, /* SA-assigned */
		{ "ff0e::1", 0, 0xE },
		{ "::ffff:239.1.1.1", 0, 8 }, /* RFC 2365 6.2: organisation */
		{ "::ffff:239.255.1.1", 0, 5 },
		{ "::ffff:224.0.0.251", 0, 2 },
		{ "::ffff:233.1.1.1", 0, 0xE },
		/* not multicast at all */
		{ "fe80::1", -EINVAL, 0 },
		{ "::ffff:10.0.0.1", -EINVAL, 0 },
		{ "::ffff:240.0.0.1", -EINVAL, 0 },
		{ "::", -EINVAL, 0 },
		{ "fe12:4001:ffff::f01:101", -EINVAL, 0 },
	};

	for (size_t i = 0; i < N(t); i++) {
		union ibr_gid m = gid(t[i].mgid), g;
		enum ibr_mgid_form f = IBR_MGID_FORM_IPOIB;
		unsigned int scope = 99;
		uint16_t pkey = 42;

		memset(&g, 0xAA, sizeof(g));
		CU_ASSERT_EQUAL(ibr_mgid_decode(&m, &f, &g, &scope, &pkey), t[i].rc);
		if (t[i].rc == 0) {
			CU_ASSERT_EQUAL(f, IBR_MGID_FORM_IP);
			CU_ASSERT(ibr_gid_eq(&g, &m));
			CU_ASSERT_EQUAL(scope, t[i].scope);
			CU_ASSERT_EQUAL(pkey, 0);
			CU_ASSERT(ibr_mgid_is_form_of(&m, IBR_MGID_FORM_IP, &g));
		} else {
			CU_ASSERT_EQUAL(f, IBR_MGID_FORM_IPOIB); /* untouched */
			CU_ASSERT_EQUAL(g.raw[0], 0xAA);
			CU_ASSERT_EQUAL(scope, 99);
			CU_ASSERT_EQUAL(pkey, 42);
		}
	}
}

/* Any 16 bytes: what decodes makes the same MGID again; the text always fits. */
static void test_decode_random(void)
{
	static const uint8_t heads[][4] = { { 0xFF, 0x12, 0x40, 0x01 },
					    { 0xFF, 0x1E, 0x40, 0x1B },
					    { 0xFF, 0x15, 0x60, 0x01 },
					    { 0xFF, 0x12, 0x60, 0x1B },
					    { 0xFF, 0x12, 0xA0, 0x1B } };
	unsigned long long seed = 0x6d676964ull;
	char buf[IBR_MGID_STRLEN];

	for (int i = 0; i < 20000; i++) {
		union ibr_gid m, g, again;
		enum ibr_mgid_form f;
		unsigned int scope;
		uint16_t pkey;
		int rc;

		ibr_test_rand_fill(m.raw, sizeof(m.raw), &seed);
		if (i % 4 == 1)
			memcpy(m.raw, heads[(i / 4) % N(heads)], 4);
		if (i % 4 == 2) {
			memcpy(m.raw, heads[(i / 4) % N(heads)], 4);
			memset(m.raw + 6, 0, 6);
			m.raw[12] &= 0x0F;
		}
		if (i % 4 == 3) {
			memset(m.raw, 0, 10);
			m.raw[10] = m.raw[11] = 0xFF;
		}
		rc = ibr_mgid_decode(&m, &f, &g, &scope, &pkey);
		CU_ASSERT(rc == 0 || rc == -ENODATA || rc == -EINVAL);
		if (rc == 0) {
			CU_ASSERT_EQUAL(ibr_mgid_make(f, &g, scope, pkey, &again), 0);
			CU_ASSERT(ibr_gid_eq(&again, &m));
			CU_ASSERT(ibr_mgid_is_form_of(&m, f, &g));
		} else if (rc == -ENODATA) {
			g.raw[0] = 0xFF; /* any first 6 bytes of an IPv6 group */
			CU_ASSERT(ibr_mgid_is_form_of(&m, f, &g));
		}
		CU_ASSERT_PTR_EQUAL(ibr_mgid_ntop(&m, buf, sizeof(buf)), buf);
	}
}

static void test_ntop(void)
{
	static const struct {
		const char *mgid, *text;
	} t[] = {
		{ "ff12:4001:ffff::f01:101",
		  "ff12:4001:ffff::f01:101 (rdma-cm 239.1.1.1 scope 2 pkey 0xffff)" },
		{ "ff1e:401b:8001::1", "ff1e:401b:8001::1 (ipoib 224.0.0.1 scope 14 pkey 0x8001)" },
		{ "ff15:4001:7fff::fff:fffa",
		  "ff15:4001:7fff::fff:fffa (rdma-cm 239.255.255.250 scope 5 pkey 0x7fff)" },
		{ "::ffff:239.1.1.1", "::ffff:239.1.1.1 (ip 239.1.1.1)" },
		{ "ff12:601b:ffff::1:ff00:1",
		  "ff12:601b:ffff::1:ff00:1 (ipoib ipv6 scope 2 pkey 0xffff)" },
		{ "ff0e::1", "ff0e::1" },
		{ "ff12:a01b:ffff::1", "ff12:a01b:ffff::1" },
		{ "fe80::1", "fe80::1" },
	};
	char buf[IBR_MGID_STRLEN], small[IBR_MGID_STRLEN];

	for (size_t i = 0; i < N(t); i++) {
		union ibr_gid m = gid(t[i].mgid);
		size_t len = strlen(t[i].text);

		CU_ASSERT_PTR_EQUAL(ibr_mgid_ntop(&m, buf, sizeof(buf)), buf);
		CU_ASSERT_STRING_EQUAL(buf, t[i].text);
		errno = 0;
		CU_ASSERT_PTR_NULL(ibr_mgid_ntop(&m, small, len));
		CU_ASSERT_EQUAL(errno, ENOSPC);
		CU_ASSERT_PTR_EQUAL(ibr_mgid_ntop(&m, small, len + 1), small);
		CU_ASSERT_STRING_EQUAL(small, t[i].text);
	}
}

/* The longest text there is fits IBR_MGID_STRLEN. */
static void test_ntop_max_len(void)
{
	union ibr_gid m = gid("ff1f:4001:ffff::fff:ffff");
	char buf[IBR_MGID_STRLEN];

	CU_ASSERT_PTR_EQUAL(ibr_mgid_ntop(&m, buf, sizeof(buf)), buf);
	CU_ASSERT_STRING_EQUAL(
		buf, "ff1f:4001:ffff::fff:ffff (rdma-cm 239.255.255.255 scope 15 pkey 0xffff)");
	m = gid("ff1f:601b:ffff:ffff:ffff:ffff:ffff:ffff");
	CU_ASSERT_PTR_EQUAL(ibr_mgid_ntop(&m, buf, sizeof(buf)), buf);
	CU_ASSERT(strlen(buf) < IBR_MGID_STRLEN);
}

static CU_TestInfo tests[] = {
	{ "form names", test_form_names },
	{ "IP groups", test_group_class },
	{ "known MGIDs (kernel, librdmacm)", test_make_known },
	{ "make rejects non-groups and bad scopes", test_make_rejects },
	{ "IPv4 round trip: forms, scopes, P_Keys", test_v4_round_trip },
	{ "IPv4 top nibble", test_v4_top_nibble },
	{ "IPv6 forms are partial", test_v6_partial },
	{ "is_form_of negatives", test_is_form_of_negatives },
	{ "decode of other MGIDs", test_decode_other },
	{ "decode of random bytes", test_decode_random },
	{ "text", test_ntop },
	{ "text maximum length", test_ntop_max_len },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_mgid", tests);
}
