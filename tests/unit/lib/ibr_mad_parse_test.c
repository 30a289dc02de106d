/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_mad_parse_test.c - the MAD parser of lib/ibr_mad.c and each of its
 * errors, random MADs of any length, and the names of classes, methods,
 * attributes and status codes.
 */
#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse a heap copy of exactly len bytes, so that ASan sees any overread. */
static enum ibr_mad_err parse_exact(const uint8_t *m, size_t len, struct ibr_mad_hdr *h)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum ibr_mad_err err;

	memcpy(copy, m, len);
	err = ibr_mad_parse(copy, len, h);
	free(copy);
	return err;
}

static void mad_init(uint8_t *m, uint8_t base, uint8_t cls, uint8_t ver)
{
	memset(m, 0, IBR_MAD_SIZE + 1024);
	m[0] = base;
	m[1] = cls;
	m[2] = ver;
	m[3] = IBR_MAD_METHOD_GET;
}

static const struct {
	uint8_t base, cls, ver, rmpp_flags;
	size_t len;
	enum ibr_mad_err err;
} parse_cases[] = {
	{ 1, 0x01, 1, 0, 0, IBR_MAD_ERR_SHORT },
	{ 1, 0x01, 1, 0, 23, IBR_MAD_ERR_SHORT },
	{ 1, 0x81, 1, 0, 24, IBR_MAD_ERR_LENGTH },
	{ 1, 0x81, 1, 0, 255, IBR_MAD_ERR_LENGTH },
	{ 1, 0x81, 1, 0, 257, IBR_MAD_ERR_LENGTH },
	{ 1, 0x01, 1, 0, 128, IBR_MAD_ERR_LENGTH },
	{ 1, 0x01, 1, 1, 1024, IBR_MAD_ERR_LENGTH }, /* RMPP flag means nothing in an SMP */
	{ 1, 0x04, 1, 0, 255, IBR_MAD_ERR_LENGTH },
	{ 1, 0x04, 1, 1, 257, IBR_MAD_ERR_LENGTH },
	{ 1, 0x03, 2, 0, 255, IBR_MAD_ERR_LENGTH },
	{ 1, 0x03, 2, 0, 257, IBR_MAD_ERR_LENGTH },
	{ 1, 0x03, 2, 6, 300, IBR_MAD_ERR_LENGTH }, /* First|Last without Active */
	{ 1, 0x03, 2, 1, 55, IBR_MAD_ERR_LENGTH },
	{ 1, 0x30, 1, 1, 35, IBR_MAD_ERR_LENGTH },
	{ 2, 0x01, 1, 0, 256, IBR_MAD_ERR_BASE_VERSION },
	{ 0, 0x01, 1, 0, 256, IBR_MAD_ERR_BASE_VERSION },
	{ 0x80, 0x81, 1, 0, 256, IBR_MAD_ERR_BASE_VERSION }, /* OPA */
	{ 2, 0x81, 1, 0, 100, IBR_MAD_ERR_BASE_VERSION },    /* checked before length */
	{ 1, 0x00, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x02, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x50, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x80, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x82, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0xFF, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x01, 2, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x81, 0, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x81, 2, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x03, 1, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x03, 3, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x04, 2, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x07, 1, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x21, 1, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x81, 2, 0, 10, IBR_MAD_ERR_SHORT },
	{ 1, 0x01, 1, 0, 256, IBR_MAD_OK },
	{ 1, 0x81, 1, 0, 256, IBR_MAD_OK },
	{ 1, 0x03, 2, 0, 256, IBR_MAD_OK },
	{ 1, 0x03, 2, 1, 56, IBR_MAD_OK },   /* reassembled RMPP, no records */
	{ 1, 0x03, 2, 7, 1024, IBR_MAD_OK }, /* reassembled RMPP */
	{ 1, 0x03, 2, 1, 256, IBR_MAD_OK },
	{ 1, 0x04, 1, 0, 256, IBR_MAD_OK },
	{ 1, 0x07, 2, 0, 256, IBR_MAD_OK },
	{ 1, 0x21, 2, 0, 256, IBR_MAD_OK },
	{ 1, 0x09, 0, 0, 256, IBR_MAD_OK }, /* vendor: any class version */
	{ 1, 0x0F, 77, 0, 256, IBR_MAD_OK },
	{ 1, 0x10, 3, 0, 256, IBR_MAD_OK },
	{ 1, 0x30, 1, 1, 36, IBR_MAD_OK },
	{ 1, 0x4F, 9, 1, 700, IBR_MAD_OK },
};

static void test_parse_errors(void)
{
	uint8_t m[IBR_MAD_SIZE + 1024];
	struct ibr_mad_hdr h;

	for (size_t i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		mad_init(m, parse_cases[i].base, parse_cases[i].cls, parse_cases[i].ver);
		m[26] = parse_cases[i].rmpp_flags;
		ibr_mad_set_tid(m, 0x1122334455667788ull);
		memset(&h, 0xAA, sizeof(h));
		enum ibr_mad_err err = parse_exact(m, parse_cases[i].len, &h);
		if (err != parse_cases[i].err)
			fprintf(stderr, "case %zu: %s, want %s\n", i, ibr_mad_err_name(err),
				ibr_mad_err_name(parse_cases[i].err));
		CU_ASSERT_EQUAL(err, parse_cases[i].err);
		if (parse_cases[i].err == IBR_MAD_ERR_SHORT) {
			CU_ASSERT_EQUAL(h.mgmt_class, 0xAA); /* untouched */
			continue;
		}
		/* the header is decoded even when the MAD is refused */
		CU_ASSERT_EQUAL(h.base_version, parse_cases[i].base);
		CU_ASSERT_EQUAL(h.mgmt_class, parse_cases[i].cls);
		CU_ASSERT_EQUAL(h.class_version, parse_cases[i].ver);
		CU_ASSERT_EQUAL(h.tid, 0x1122334455667788ull);
	}
	CU_ASSERT_EQUAL(ibr_mad_parse(NULL, 256, &h), IBR_MAD_ERR_SHORT);
	CU_ASSERT_STRING_EQUAL(ibr_mad_err_name(IBR_MAD_OK), "ok");
	for (int e = IBR_MAD_OK; e <= IBR_MAD_ERR_CLASS_VERSION; e++)
		CU_ASSERT_STRING_NOT_EQUAL(ibr_mad_err_name((enum ibr_mad_err)e), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_err_name((enum ibr_mad_err)99), "unknown");
}

/* Random headers and lengths: the verdict follows the documented rules. */
static void test_parse_random(void)
{
	unsigned long long seed = 23;
	uint8_t m[2048];
	struct ibr_mad_hdr h;

	for (int n = 0; n < 100000; n++) {
		size_t len = ibr_test_rand(&seed) % 600;
		ibr_test_rand_fill(m, 64, &seed);
		m[0] = ibr_test_rand(&seed) % 4 ? 1 : m[0];
		if (ibr_test_rand(&seed) % 2)
			m[2] = (uint8_t)ibr_mad_class_default_version(m[1]);
		if (ibr_test_rand(&seed) % 4 == 0)
			len = IBR_MAD_SIZE;
		enum ibr_mad_err err = parse_exact(m, len, &h);
		enum ibr_mad_err want;
		unsigned int ver = ibr_mad_class_default_version(m[1]);
		bool rmpp_ok = ibr_mad_class_has_rmpp(m[1]) && (m[26] & 1) &&
			       len >= (m[1] == 3 ? 56u : 36u);

		if (len < 24)
			want = IBR_MAD_ERR_SHORT;
		else if (m[0] != 1)
			want = IBR_MAD_ERR_BASE_VERSION;
		else if (!ibr_mad_class_is_known(m[1]))
			want = IBR_MAD_ERR_CLASS;
		else if (ver && m[2] != ver)
			want = IBR_MAD_ERR_CLASS_VERSION;
		else if (len != IBR_MAD_SIZE && !rmpp_ok)
			want = IBR_MAD_ERR_LENGTH;
		else
			want = IBR_MAD_OK;
		CU_ASSERT_EQUAL_FATAL(err, want);
	}
}

static void test_classes(void)
{
	int known = 0;

	for (unsigned int c = 0; c < 256; c++) {
		const char *name = ibr_mad_class_name((uint8_t)c);

		CU_ASSERT_PTR_NOT_NULL_FATAL(name);
		if (ibr_mad_class_is_known((uint8_t)c))
			known++;
		else
			CU_ASSERT_STRING_EQUAL(name, "reserved");
		CU_ASSERT_EQUAL(ibr_mad_class_has_rmpp((uint8_t)c),
				c == 0x03 || (c >= 0x30 && c <= 0x4F));
	}
	CU_ASSERT_EQUAL(known, 1 + 6 + 7 + 32 + 32 + 1);
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x01), "SubnMgmt");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x81), "SubnMgmtDR");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x03), "SubnAdm");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x04), "PerfMgt");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x21), "CongestionMgt");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x0A), "Vendor");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x31), "VendorOUI");
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x01), 1);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x81), 1);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x03), 2);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x07), 2);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x0A), 0);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x02), 0);
}

static void test_methods(void)
{
	static const struct {
		uint8_t req, resp;
		const char *name;
	} t[] = {
		{ 0x01, 0x81, "Get" },	     { 0x02, 0x81, "Set" },
		{ 0x05, 0x07, "Trap" },	     { 0x06, 0x86, "Report" },
		{ 0x12, 0x92, "GetTable" },  { 0x13, 0x93, "GetTraceTable" },
		{ 0x14, 0x94, "GetMulti" },  { 0x15, 0x95, "Delete" },
		{ 0x03, 0, "Send" },	     { 0x07, 0, "TrapRepress" },
		{ 0x81, 0, "GetResp" },	     { 0x86, 0, "ReportResp" },
		{ 0x92, 0, "GetTableResp" }, { 0x93, 0, "GetTraceTableResp" },
		{ 0x94, 0, "GetMultiResp" }, { 0x95, 0, "DeleteResp" },
	};
	int named = 0;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CU_ASSERT_EQUAL(ibr_mad_response_method(t[i].req), t[i].resp);
		CU_ASSERT_STRING_EQUAL(ibr_mad_method_name(t[i].req), t[i].name);
	}
	for (unsigned int m = 0; m < 256; m++) {
		const char *n = ibr_mad_method_name((uint8_t)m);

		CU_ASSERT_PTR_NOT_NULL_FATAL(n);
		named += strcmp(n, "unknown") != 0;
		uint8_t r = ibr_mad_response_method((uint8_t)m);
		if (r) {
			/* TrapRepress (0x07) is the one response without the R bit */
			CU_ASSERT((r & IBR_MAD_METHOD_RESP) || m == IBR_MAD_METHOD_TRAP);
			CU_ASSERT_STRING_NOT_EQUAL(ibr_mad_method_name(r), "unknown");
		}
	}
	CU_ASSERT_EQUAL(named, 16);
	uint8_t mad[IBR_MAD_SIZE] = { 0 };
	ibr_mad_set_method(mad, 0x81);
	CU_ASSERT(ibr_mad_is_response(mad));
	ibr_mad_set_method(mad, 0x01);
	CU_ASSERT_FALSE(ibr_mad_is_response(mad));
}

static void test_attr_names(void)
{
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0x0011), "NodeInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0011), "NodeInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0011), "NodeRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0010), "NodeDescription");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0012), "SwitchInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0014), "GUIDInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0015), "PortInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0016), "P_KeyTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0017), "SLtoVLMappingTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0018), "VLArbitrationTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0020), "SMInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0xFFD0), "RouterInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0xFFD1), "NextHopTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0xFFD2), "AdjacentSiteLocalSubnetsTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0002), "Notice");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0x0002), "Notice");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0003), "InformInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x04, 0x0001), "ClassPortInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0012), "PortInfoRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0030), "GUIDInfoRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0035), "PathRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0038), "MCMemberRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x00F3), "InformInfoRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0xFFD0), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x04, 0x0011), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x1234), "unknown");
	for (unsigned int c = 0; c < 256; c += 0x11)
		for (uint32_t a = 0; a <= 0xFFFF; a += 0x7)
			CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_mad_attr_name((uint8_t)c, (uint16_t)a));
}

static void test_status_names(void)
{
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0000), "OK");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0001), "Busy");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0002), "Redirect");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0004), "BadVersion");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0008), "UnsupportedMethod");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x000C), "UnsupportedMethodAttribute");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x001C), "InvalidField");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0010), "ReservedCode");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x81, 0x8000), "OK"); /* D bit only */
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x81, 0x801C), "InvalidField");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x8000), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0300), "SA_NoRecords");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0200), "SA_RequestInvalid");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0100), "SA_NoResources");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0400), "SA_TooManyRecords");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0500), "SA_InvalidGID");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0600), "SA_InsufficientComponents");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0700), "SA_RequestDenied");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0800), "SA_PrioritySuggested");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0900), "SA_unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x001C), "InvalidField");
	for (uint32_t s = 0; s <= 0xFFFF; s++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_mad_status_name((uint8_t)(s & 0x83), (uint16_t)s));
}

static CU_TestInfo tests[] = {
	{ "parse errors", test_parse_errors },
	{ "parse random", test_parse_random },
	{ "classes", test_classes },
	{ "methods", test_methods },
	{ "attribute names", test_attr_names },
	{ "status names", test_status_names },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_mad_parse", tests);
}
