/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for lib/ibr_ctl.c: request splitting and the reply envelope reader. */
#include "lib/ibr_ctl.h"
#include "lib/ibr_json.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <string.h>

static void test_split(void)
{
	char line[] = "  route add  fec0:0:0:2::/64 port \"my b\"\tlid 7 \"\" x\\y \"q\\\"t\"\n";
	char *argv[16];
	int n = ibr_ctl_split(line, argv, 16);

	CU_ASSERT_EQUAL_FATAL(n, 10);
	CU_ASSERT_STRING_EQUAL(argv[0], "route");
	CU_ASSERT_STRING_EQUAL(argv[2], "fec0:0:0:2::/64");
	CU_ASSERT_STRING_EQUAL(argv[4], "my b");
	CU_ASSERT_STRING_EQUAL(argv[6], "7");
	CU_ASSERT_STRING_EQUAL(argv[7], "");
	CU_ASSERT_STRING_EQUAL(argv[8], "x\\y"); /* backslashes only escape inside quotes */
	CU_ASSERT_STRING_EQUAL(argv[9], "q\"t");
}

static void test_split_errors(void)
{
	char a[] = "show \"routes", b[] = "a b c d", c[] = "show\x01", d[] = "   ";
	char *argv[3];

	CU_ASSERT_EQUAL(ibr_ctl_split(a, argv, 3), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ctl_split(b, argv, 3), -E2BIG);
	CU_ASSERT_EQUAL(ibr_ctl_split(c, argv, 3), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ctl_split(d, argv, 3), 0);
}

/* Control characters and DEL are refused in quotes too, with or without a backslash. */
static void test_split_control(void)
{
	char a[] = "x \"\\\x1b[2J\"", b[] = "x \"a\\\nb\"", c[] = "x \"a\x7f\"", d[] = "x \x7f",
	     e[] = "x \"\\\x7f\"", f[] = "x \"\xc2\x9b\" \"\\\\\"";
	char *argv[4];

	CU_ASSERT_EQUAL(ibr_ctl_split(a, argv, 4), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ctl_split(b, argv, 4), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ctl_split(c, argv, 4), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ctl_split(d, argv, 4), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ctl_split(e, argv, 4), -EINVAL);
	/* bytes from 0x80 up pass (UTF-8 names); an escaped backslash is one */
	CU_ASSERT_EQUAL_FATAL(ibr_ctl_split(f, argv, 4), 3);
	CU_ASSERT_STRING_EQUAL(argv[1], "\xc2\x9b");
	CU_ASSERT_STRING_EQUAL(argv[2], "\\");
}

static void test_reply_roundtrip(void)
{
	struct ibr_json j;
	struct ibr_ctl_reply r;

	/* whatever the emitter writes, the reader reads back */
	ibr_json_init(&j, 0);
	ibr_json_obj_open(&j, NULL);
	ibr_json_bool(&j, "ok", true);
	ibr_json_bool(&j, "more", true);
	ibr_json_arr_open(&j, "data");
	ibr_json_obj_open(&j, NULL);
	ibr_json_str(&j, "name", "a \"b\"\n\xc3\xa9");
	ibr_json_close(&j);
	ibr_json_close(&j);
	ibr_json_str(&j, "text", "line1\n\tline2 \x01");
	ibr_json_close(&j);
	CU_ASSERT_EQUAL_FATAL(ibr_json_finish(&j), 0);
	CU_ASSERT_EQUAL_FATAL(ibr_ctl_reply_parse(j.buf, j.len, &r), 0);
	CU_ASSERT_TRUE(r.ok);
	CU_ASSERT_TRUE(r.more);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.text);
	CU_ASSERT_STRING_EQUAL(r.text, "line1\n\tline2 \x01");
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.data);
	CU_ASSERT_EQUAL(r.data_len, strlen("[{\"name\":\"a \\\"b\\\"\\u000a\xc3\xa9\"}]"));
	CU_ASSERT_EQUAL(memcmp(r.data, "[{\"name\"", 8), 0);
	ibr_ctl_reply_free(&r);
	ibr_json_free(&j);
}

static void test_reply_error(void)
{
	const char *e = "{\"ok\":false,\"error\":\"EPERM\",\"msg\":\"route add: not allowed\"}";
	struct ibr_ctl_reply r;

	CU_ASSERT_EQUAL_FATAL(ibr_ctl_reply_parse(e, strlen(e), &r), 0);
	CU_ASSERT_FALSE(r.ok);
	CU_ASSERT_FALSE(r.more);
	CU_ASSERT_STRING_EQUAL(r.error, "EPERM");
	CU_ASSERT_STRING_EQUAL(r.msg, "route add: not allowed");
	CU_ASSERT_PTR_NULL(r.data);
	ibr_ctl_reply_free(&r);
}

static void test_reply_bad(void)
{
	static const char *const bad[] = {
		"",
		"[]",
		"{",
		"{\"ok\":tru}",
		"{\"ok\":true",
		"{\"ok\" true}",
		"{\"a\":[1,2}",
		"{\"a\":\"x}",
		"{} x",
		"{\"ok\":true,}",
		"{\"a\":\"\\q\"}",
		"{\"a\":\"\\u12\"}",
		"{\"a\":]}",
		"{\"a\":1:2}",
	};
	struct ibr_ctl_reply r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = ibr_ctl_reply_parse(bad[i], strlen(bad[i]), &r);

		if (rc != -EBADMSG)
			fprintf(stderr, "\n  accepted: %s\n", bad[i]);
		CU_ASSERT_EQUAL(rc, -EBADMSG);
	}
	/* not NUL-terminated: the length is what counts */
	CU_ASSERT_EQUAL(ibr_ctl_reply_parse("{\"ok\":true}xx", 11, &r), 0);
	CU_ASSERT_TRUE(r.ok);
	ibr_ctl_reply_free(&r);
}

static CU_TestInfo tests[] = {
	{ "split requests", test_split },
	{ "split errors", test_split_errors },
	{ "split refuses control characters, escaped or not", test_split_control },
	{ "reply written by ibr_json reads back", test_reply_roundtrip },
	{ "error reply", test_reply_error },
	{ "malformed replies rejected", test_reply_bad },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_ctl", tests);
}
