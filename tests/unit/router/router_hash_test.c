/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for router/router_hash.c: the workers' read-only maps. */
#include "router/router_hash.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>

static void test_put_get(void)
{
	struct router_hash h;

	CU_ASSERT_EQUAL_FATAL(router_hash_init(&h, 4), 0);
	CU_ASSERT_EQUAL(h.mask + 1, 8);
	CU_ASSERT_EQUAL(router_hash_get(&h, 5), 0);
	CU_ASSERT_EQUAL(router_hash_put(&h, 5, 0), -EINVAL); /* 0 means empty */
	CU_ASSERT_EQUAL(router_hash_put(&h, 0, 9), 0);	     /* key 0 is a key like any */
	CU_ASSERT_EQUAL(router_hash_put(&h, 5, 50), 0);
	CU_ASSERT_EQUAL(router_hash_put(&h, 5, 51), 0);
	CU_ASSERT_EQUAL(router_hash_get(&h, 0), 9);
	CU_ASSERT_EQUAL(router_hash_get(&h, 5), 51);
	CU_ASSERT_EQUAL(h.count, 2);
	/* the load factor stays at or under 1/2 */
	CU_ASSERT_EQUAL(router_hash_put(&h, 6, 1), 0);
	CU_ASSERT_EQUAL(router_hash_put(&h, 7, 1), 0);
	CU_ASSERT_EQUAL(router_hash_put(&h, 8, 1), -ENOSPC);
	router_hash_free(&h);
	/* an empty (freed) map answers 0, never crashes */
	CU_ASSERT_EQUAL(router_hash_get(&h, 5), 0);
}

static void test_many(void)
{
	struct router_hash h;
	unsigned long long seed = 7;
	enum { N = 100000 };

	CU_ASSERT_EQUAL_FATAL(router_hash_init(&h, N), 0);
	for (uint64_t i = 0; i < N; i++)
		CU_ASSERT_EQUAL(router_hash_put(&h, i << 20, i + 1), 0);
	for (uint64_t i = 0; i < N; i++)
		if (router_hash_get(&h, i << 20) != i + 1)
			CU_FAIL("lost key");
	for (int i = 0; i < 1000; i++) {
		uint64_t k = ibr_test_rand(&seed) | 1; /* odd keys were never put */
		CU_ASSERT_EQUAL(router_hash_get(&h, k), 0);
	}
	router_hash_free(&h);
}

static CU_TestInfo tests[] = {
	{ "put, replace, get, load factor", test_put_get },
	{ "100k keys", test_many },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("router_hash", tests);
}
