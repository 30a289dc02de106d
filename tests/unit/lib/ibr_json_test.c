/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for lib/ibr_json.c: shape, escaping, UTF-8 repair, misuse, limits. */
#include "lib/ibr_json.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void test_reply_shape(void)
{
	struct ibr_json j;

	ibr_json_init(&j, 0);
	ibr_json_obj_open(&j, NULL);
	ibr_json_bool(&j, "ok", true);
	ibr_json_arr_open(&j, "data");
	ibr_json_obj_open(&j, NULL);
	ibr_json_str(&j, "prefix", "fec0:0:0:2::/64");
	ibr_json_u64(&j, "lid", 7);
	ibr_json_i64(&j, "metric", -1);
	ibr_json_hex64(&j, "guid", 0x2c90300001234ull);
	ibr_json_null(&j, "via");
	ibr_json_close(&j);
	ibr_json_u64(&j, NULL, 18446744073709551615ull);
	ibr_json_close(&j);
	ibr_json_close(&j);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), 0);
	CU_ASSERT_STRING_EQUAL(j.buf,
			       "{\"ok\":true,\"data\":[{\"prefix\":\"fec0:0:0:2::/64\",\"lid\":7,"
			       "\"metric\":-1,\"guid\":\"0x0002c90300001234\",\"via\":null},"
			       "18446744073709551615]}");
	CU_ASSERT_EQUAL(j.len, strlen(j.buf));
	ibr_json_free(&j);
}

static void test_escaping(void)
{
	struct ibr_json j;

	ibr_json_init(&j, 0);
	ibr_json_obj_open(&j, NULL);
	ibr_json_str(&j, "k\"", "a\"b\\c\n\t\x01\x7f");
	ibr_json_close(&j);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), 0);
	CU_ASSERT_STRING_EQUAL(j.buf, "{\"k\\\"\":\"a\\\"b\\\\c\\u000a\\u0009\\u0001\\u007f\"}");
	ibr_json_free(&j);
}

static void test_utf8(void)
{
	struct ibr_json j;
	/* valid 2/3/4-byte sequences pass; a lone continuation, an overlong
	 * '/', a surrogate and a truncated sequence become U+FFFD */
	const char in[] =
		"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\x80|\xc0\xaf|\xed\xa0\x80|\xe2\x82";

	ibr_json_init(&j, 0);
	ibr_json_str(&j, NULL, in);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), 0);
	CU_ASSERT_STRING_EQUAL(j.buf,
			       "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80|\xef\xbf\xbd|"
			       "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|"
			       "\xef\xbf\xbd\xef\xbf\xbd\"");
	ibr_json_free(&j);
}

static void test_strn_embedded_nul(void)
{
	struct ibr_json j;

	ibr_json_init(&j, 0);
	ibr_json_strn(&j, NULL, "a\0b", 3);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), 0);
	CU_ASSERT_STRING_EQUAL(j.buf, "\"a\\u0000b\"");
	ibr_json_free(&j);
}

static void test_doubles(void)
{
	struct ibr_json j;

	ibr_json_init(&j, 0);
	ibr_json_arr_open(&j, NULL);
	ibr_json_dbl(&j, NULL, 0.5);
	ibr_json_dbl(&j, NULL, NAN);
	ibr_json_dbl(&j, NULL, INFINITY);
	ibr_json_close(&j);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), 0);
	CU_ASSERT_STRING_EQUAL(j.buf, "[0.5,null,null]");
	ibr_json_free(&j);
}

static void test_misuse(void)
{
	struct ibr_json j;

	/* a key inside an array */
	ibr_json_init(&j, 0);
	ibr_json_arr_open(&j, NULL);
	ibr_json_u64(&j, "k", 1);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EINVAL);
	ibr_json_free(&j);
	/* no key inside an object */
	ibr_json_init(&j, 0);
	ibr_json_obj_open(&j, NULL);
	ibr_json_u64(&j, NULL, 1);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EINVAL);
	ibr_json_free(&j);
	/* unclosed, over-closed, two top-level values, empty */
	ibr_json_init(&j, 0);
	ibr_json_obj_open(&j, NULL);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EINVAL);
	ibr_json_close(&j);
	ibr_json_close(&j);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EINVAL);
	ibr_json_free(&j);
	ibr_json_init(&j, 0);
	ibr_json_u64(&j, NULL, 1);
	ibr_json_u64(&j, NULL, 2);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EINVAL);
	ibr_json_free(&j);
	ibr_json_init(&j, 0);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EINVAL);
	ibr_json_free(&j);
}

static void test_depth_and_limit(void)
{
	struct ibr_json j;

	ibr_json_init(&j, 0);
	for (int i = 0; i < IBR_JSON_MAX_DEPTH + 2; i++)
		ibr_json_arr_open(&j, NULL);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EINVAL);
	ibr_json_free(&j);

	ibr_json_init(&j, 16);
	ibr_json_arr_open(&j, NULL);
	for (int i = 0; i < 100; i++)
		ibr_json_u64(&j, NULL, 12345);
	ibr_json_close(&j);
	CU_ASSERT_EQUAL(ibr_json_finish(&j), -EMSGSIZE);
	CU_ASSERT(j.len <= 16);
	/* reset keeps the buffer and clears the error */
	ibr_json_reset(&j);
	ibr_json_str(&j, NULL, "ok");
	CU_ASSERT_EQUAL(ibr_json_finish(&j), 0);
	CU_ASSERT_STRING_EQUAL(j.buf, "\"ok\"");
	ibr_json_free(&j);
}

static CU_TestInfo tests[] = {
	{ "control reply shape", test_reply_shape },
	{ "escaping", test_escaping },
	{ "invalid UTF-8 becomes U+FFFD", test_utf8 },
	{ "strn with embedded NUL", test_strn_embedded_nul },
	{ "doubles, NaN and inf", test_doubles },
	{ "misuse is an error", test_misuse },
	{ "depth and size limits", test_depth_and_limit },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_json", tests);
}
