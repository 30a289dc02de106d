/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for plugins/posm_opts.c: event_plugin_options of libibrouter-osm.so. */
#include "plugins/posm.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <string.h>

static char warned[256];

static void warn(void *ctx, const char *word)
{
	(void)ctx;
	strncat(warned, word, sizeof(warned) - strlen(warned) - 2);
	strcat(warned, " ");
}

static void test_defaults(void)
{
	struct posm_opts o;
	char err[128] = "";

	CU_ASSERT_EQUAL_FATAL(posm_opts_parse(NULL, &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_EQUAL(o.nsock, 1);
	CU_ASSERT_STRING_EQUAL(o.sock[0], POSM_SOCK_DEFAULT);
	CU_ASSERT_EQUAL(o.nserve, 0);
	CU_ASSERT_EQUAL(o.verbose, 1);
	CU_ASSERT_EQUAL(o.queue, 256);
	CU_ASSERT_EQUAL(o.refresh_s, 30);
	CU_ASSERT_EQUAL(o.watch_s, 1);
	CU_ASSERT_EQUAL(o.hold_s, 60);
	CU_ASSERT_EQUAL(o.resweep_s, 2);
	CU_ASSERT_EQUAL(o.alive_s, 10);
	CU_ASSERT_EQUAL(o.sndbuf, 0);
	/* the routers' records: read every 2 s, but trusted from nobody until routers= */
	CU_ASSERT_EQUAL(o.nrouters, 0);
	CU_ASSERT_FALSE(o.routers_any);
	CU_ASSERT_FALSE(o.srkey_set);
	CU_ASSERT_EQUAL(o.records_s, 2);
	CU_ASSERT_EQUAL(posm_opts_parse("  \t ", &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_EQUAL(o.nsock, 1);
}

static void test_all_keys(void)
{
	struct posm_opts o;
	char err[128] = "";

	warned[0] = '\0';
	CU_ASSERT_EQUAL_FATAL(
		posm_opts_parse("socket=/run/a.sock socket=/run/b.sock;ports=0x300001,300002 "
				"verbose=3 queue=0x10 refresh=0 hold=5 resweep=0 alive=5 "
				"sndbuf=4096 other=1 "
				"flag",
				&o, err, sizeof(err), warn, NULL),
		0);
	CU_ASSERT_EQUAL(o.nsock, 2); /* the first socket= replaces the default */
	CU_ASSERT_STRING_EQUAL(o.sock[0], "/run/a.sock");
	CU_ASSERT_STRING_EQUAL(o.sock[1], "/run/b.sock");
	CU_ASSERT_EQUAL_FATAL(o.nserve, 2);
	CU_ASSERT_EQUAL(o.serve[0], 0x300001);
	CU_ASSERT_EQUAL(o.serve[1], 0x300002); /* GUIDs are hex, with or without 0x */
	CU_ASSERT_EQUAL(o.verbose, 3);
	CU_ASSERT_EQUAL(o.queue, 16);
	CU_ASSERT_EQUAL(o.refresh_s, 0);
	CU_ASSERT_EQUAL(o.hold_s, 5);
	CU_ASSERT_EQUAL(o.resweep_s, 0);
	CU_ASSERT_EQUAL(o.alive_s, 5);
	CU_ASSERT_EQUAL(o.sndbuf, 4096);
	CU_ASSERT_EQUAL(posm_opts_parse("alive=0", &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_EQUAL(o.alive_s, 0); /* never */
	/* OpenSM gives every plugin the same line: others' words are reported, not refused */
	CU_ASSERT_STRING_EQUAL(warned, "other=1 flag ");
}

static void test_bad_values(void)
{
	static const char *const bad[] = {
		"verbose=4",
		"verbose=",
		"verbose=-1",
		"queue=1",
		"queue=x",
		"refresh=86401",
		"hold=1e3",
		"resweep=3601",
		"alive=4", /* within two heartbeats (STATS every 2 s) */
		"alive=1",
		"alive=3601",
		"socket=rel.sock",
		"socket=",
		"ports=",
		"ports=0",
		"ports=1,",
		"ports=,1",
		"ports=zz",
		"ports=-1",
		"sndbuf=16777217",
		"ports=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
		"socket=/a socket=/b socket=/c socket=/d socket=/e socket=/f socket=/g socket=/h "
		"socket=/i",
	};
	struct posm_opts o;
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(posm_opts_parse(bad[i], &o, err, sizeof(err), warn, NULL), -EINVAL);
		CU_ASSERT(strstr(err, "bad option") != NULL);
	}
	/* the message names the word as written */
	posm_opts_parse("hold=abc", &o, err, sizeof(err), warn, NULL);
	CU_ASSERT_STRING_EQUAL(err, "bad option \"hold=abc\"");
}

static void test_watch(void)
{
	static const char *const bad[] = { "watch=3601", "watch=", "watch=-1", "watch=1s",
					   "watch=0.5" };
	struct posm_opts o;
	char err[128];

	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("watch=0", &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_EQUAL(o.watch_s, 0); /* off: the refresh alone tells what no trap does */
	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("watch=3600", &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_EQUAL(o.watch_s, 3600);
	CU_ASSERT_EQUAL_FATAL(
		posm_opts_parse("refresh=10 watch=5", &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_EQUAL(o.watch_s, 5);
	CU_ASSERT_EQUAL(o.refresh_s, 10);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(posm_opts_parse(bad[i], &o, err, sizeof(err), warn, NULL), -EINVAL);
		CU_ASSERT(strstr(err, bad[i]) != NULL);
	}
}

static void test_records(void)
{
	static const char *const bad[] = {
		"routers=",
		"routers=0",
		"routers=1,",
		"routers=any,1",
		"routers=zz",
		"records=3601",
		"records=-1",
		"records=1s",
		"srkey=",
		"srkey=0x1234",
		"srkey=0x000000000000000000000000000000000", /* 33 digits */
		"srkey=0x0000000000000000000000000000000g",  /* not hex */
		"srkey=00000000000000000000000000000000",    /* all zero */
	};
	char list[1100] = "routers=", err[128];
	struct posm_opts o;
	size_t n = strlen(list);

	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("routers=0x300001,0x300005 records=0 "
					      "srkey=0x00112233445566778899AABBCCDDEEFF",
					      &o, err, sizeof(err), warn, NULL),
			      0);
	CU_ASSERT_EQUAL_FATAL(o.nrouters, 2);
	CU_ASSERT_EQUAL(o.routers[0], 0x300001);
	CU_ASSERT_EQUAL(o.routers[1], 0x300005);
	CU_ASSERT_FALSE(o.routers_any);
	CU_ASSERT_EQUAL(o.records_s, 0);
	CU_ASSERT_TRUE(o.srkey_set);
	CU_ASSERT_EQUAL(o.srkey[0], 0x00);
	CU_ASSERT_EQUAL(o.srkey[1], 0x11);
	CU_ASSERT_EQUAL(o.srkey[15], 0xFF);
	CU_ASSERT_EQUAL_FATAL(
		posm_opts_parse("routers=any srkey=0102030405060708090a0b0c0d0e0f10 records=3600",
				&o, err, sizeof(err), warn, NULL),
		0);
	CU_ASSERT_TRUE(o.routers_any);
	CU_ASSERT_EQUAL(o.nrouters, 0);
	CU_ASSERT_EQUAL(o.srkey[15], 0x10);
	CU_ASSERT_EQUAL(o.records_s, 3600);
	/* the last routers= counts */
	CU_ASSERT_EQUAL_FATAL(
		posm_opts_parse("routers=any routers=7", &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_FALSE(o.routers_any);
	CU_ASSERT_EQUAL(o.nrouters, 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CU_ASSERT_EQUAL(posm_opts_parse(bad[i], &o, err, sizeof(err), warn, NULL), -EINVAL);
		CU_ASSERT(strstr(err, "bad option") != NULL);
	}
	/* a bad key is not written out in the message: OpenSM's log is no place for it */
	posm_opts_parse("srkey=0x0011223344556677889900112233445", &o, err, sizeof(err), warn,
			NULL);
	CU_ASSERT_STRING_EQUAL(err, "bad option \"srkey=...\"");
	/* at most POSM_ROUTERS_MAX */
	for (unsigned i = 1; i <= POSM_ROUTERS_MAX; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%x", i > 1 ? "," : "", i);
	CU_ASSERT_EQUAL(posm_opts_parse(list, &o, err, sizeof(err), warn, NULL), 0);
	CU_ASSERT_EQUAL(o.nrouters, POSM_ROUTERS_MAX);
	snprintf(list + n, sizeof(list) - n, ",ff");
	CU_ASSERT_EQUAL(posm_opts_parse(list, &o, err, sizeof(err), warn, NULL), -EINVAL);
}

static void test_long_socket(void)
{
	char s[300], err[128];
	struct posm_opts o;

	memset(s, 0, sizeof(s));
	strcpy(s, "socket=/");
	memset(s + 8, 'x', POSM_SOCK_PATH - 1); /* "/" and 107 bytes: no room for the NUL */
	CU_ASSERT_EQUAL(posm_opts_parse(s, &o, err, sizeof(err), NULL, NULL), -EINVAL);
	s[8 + POSM_SOCK_PATH - 2] = '\0';
	CU_ASSERT_EQUAL(posm_opts_parse(s, &o, err, sizeof(err), NULL, NULL), 0);
	CU_ASSERT_EQUAL(strlen(o.sock[0]), POSM_SOCK_PATH - 1);
}

static CU_TestInfo tests[] = {
	{ "defaults", test_defaults },
	{ "every key", test_all_keys },
	{ "bad values refused", test_bad_values },
	{ "watch", test_watch },
	{ "socket path length", test_long_socket },
	{ "routers, srkey, records", test_records },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("posm_opts", tests);
}
