/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for lib/ibr_log.c: levels, sink, errno suffix, rate limiter. */
#include "lib/ibr_log.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <string.h>

static char last_msg[1100];
static int last_pri;
static int nmsgs;

static void sink(int pri, const char *msg)
{
	last_pri = pri;
	nmsgs++;
	snprintf(last_msg, sizeof(last_msg), "%s", msg);
}

static void test_levels(void)
{
	log_set_sink(sink);
	log_setlevel(LOG_INFO);
	nmsgs = 0;
	log_debug("hidden %d", 1);
	CU_ASSERT_EQUAL(nmsgs, 0);
	log_info("sa: port %s: up", "a");
	CU_ASSERT_EQUAL(nmsgs, 1);
	CU_ASSERT_EQUAL(last_pri, LOG_INFO);
	CU_ASSERT_STRING_EQUAL(last_msg, "sa: port a: up");
	log_setlevel(LOG_DEBUG);
	log_debug("shown");
	CU_ASSERT_EQUAL(nmsgs, 2);
	CU_ASSERT_EQUAL(last_pri, LOG_DEBUG);
	log_setlevel(LOG_ERR);
	log_warnx("quiet");
	CU_ASSERT_EQUAL(nmsgs, 2);
	log_set_sink(NULL);
}

static void test_warn_errno(void)
{
	log_set_sink(sink);
	log_setlevel(LOG_INFO);
	errno = ENOENT;
	log_warn("open %s", "/x");
	CU_ASSERT_STRING_EQUAL(last_msg, "open /x: No such file or directory");
	CU_ASSERT_EQUAL(last_pri, LOG_WARNING);
	CU_ASSERT_EQUAL(errno, ENOENT); /* preserved for the caller */
	log_set_sink(NULL);
}

static void test_long_message_truncated(void)
{
	char big[3000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	log_set_sink(sink);
	log_setlevel(LOG_INFO);
	log_info("%s", big);
	CU_ASSERT_EQUAL(strlen(last_msg), 1023);
	log_set_sink(NULL);
}

static void test_level_parse(void)
{
	CU_ASSERT_EQUAL(log_level_parse("debug"), LOG_DEBUG);
	CU_ASSERT_EQUAL(log_level_parse("INFO"), LOG_INFO);
	CU_ASSERT_EQUAL(log_level_parse("warn"), LOG_WARNING);
	CU_ASSERT_EQUAL(log_level_parse("warning"), LOG_WARNING);
	CU_ASSERT_EQUAL(log_level_parse("err"), LOG_ERR);
	CU_ASSERT_EQUAL(log_level_parse("6"), LOG_INFO);
	CU_ASSERT_EQUAL(log_level_parse("9"), -EINVAL);
	CU_ASSERT_EQUAL(log_level_parse(""), -EINVAL);
	CU_ASSERT_EQUAL(log_level_parse("loud"), -EINVAL);
	CU_ASSERT_STRING_EQUAL(log_level_name(LOG_NOTICE), "notice");
	CU_ASSERT_STRING_EQUAL(log_level_name(42), "unknown");
}

static void test_ratelimit(void)
{
	struct ibr_ratelimit rl = IBR_RATELIMIT_INIT(10, 3);
	uint64_t t = 1000000000ull;
	int ok = 0;

	/* a burst of 3 passes, the rest is suppressed */
	for (int i = 0; i < 100; i++)
		ok += ibr_ratelimit_ok(&rl, t);
	CU_ASSERT_EQUAL(ok, 3);
	CU_ASSERT_EQUAL(rl.suppressed, 97);
	/* 10 per second: 100 ms gives exactly one more */
	t += 100000000ull;
	CU_ASSERT_TRUE(ibr_ratelimit_ok(&rl, t));
	CU_ASSERT_FALSE(ibr_ratelimit_ok(&rl, t));
	/* a very long idle period refills to the burst, no more, no overflow */
	t += 1000000000ull * 1000000000ull;
	ok = 0;
	for (int i = 0; i < 10; i++)
		ok += ibr_ratelimit_ok(&rl, t);
	CU_ASSERT_EQUAL(ok, 3);
	/* time going backwards does not refill */
	CU_ASSERT_FALSE(ibr_ratelimit_ok(&rl, t - 5000000000ull));
}

static CU_TestInfo tests[] = {
	{ "levels and sink", test_levels },
	{ "log_warn appends strerror", test_warn_errno },
	{ "long messages are truncated", test_long_message_truncated },
	{ "level names parse", test_level_parse },
	{ "rate limiter", test_ratelimit },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_log", tests);
}
