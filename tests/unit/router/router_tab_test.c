/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for router/router_tab.c: put/find/del/iterate against a model. */
#include "router/router_tab.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct rec {
	uint64_t key;
	uint64_t val;
};

static void test_basic(void)
{
	struct router_tab t;
	struct rec r = { 7, 70 }, *p;
	uint64_t k = 7;

	router_tab_init(&t, sizeof(r), sizeof(r.key));
	CU_ASSERT_PTR_NULL(router_tab_find(&t, &k));
	CU_ASSERT_EQUAL(router_tab_del(&t, &k), -ENOENT);
	CU_ASSERT_EQUAL(router_tab_put(&t, &r), 1);
	r.val = 71;
	CU_ASSERT_EQUAL(router_tab_put(&t, &r), 0); /* replaced */
	p = router_tab_find(&t, &k);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->val, 71);
	CU_ASSERT_EQUAL(t.count, 1);
	CU_ASSERT_EQUAL(router_tab_del(&t, &k), 0);
	CU_ASSERT_PTR_NULL(router_tab_find(&t, &k));
	CU_ASSERT_EQUAL(t.count, 0);
	router_tab_free(&t);
}

/* Random puts and deletes, checked against a direct-mapped model. */
static void test_model(void)
{
	enum { N = 5000 };
	static uint64_t model[N]; /* 0: absent, else value */
	unsigned long long seed = 42;
	struct router_tab t;
	uint32_t pos = 0, seen = 0;
	struct rec *p;

	memset(model, 0, sizeof(model));
	router_tab_init(&t, sizeof(struct rec), sizeof(uint64_t));
	for (int i = 0; i < 200000; i++) {
		uint64_t k = ibr_test_rand(&seed) % N;
		struct rec r = { k * 0x10001, ibr_test_rand(&seed) | 1 };
		uint64_t key = k * 0x10001;

		if (ibr_test_rand(&seed) % 3) {
			CU_ASSERT_EQUAL(router_tab_put(&t, &r), model[k] ? 0 : 1);
			model[k] = r.val;
		} else {
			CU_ASSERT_EQUAL(router_tab_del(&t, &key), model[k] ? 0 : -ENOENT);
			model[k] = 0;
		}
	}
	for (uint64_t k = 0; k < N; k++) {
		uint64_t key = k * 0x10001;

		p = router_tab_find(&t, &key);
		if (model[k]) {
			CU_ASSERT_PTR_NOT_NULL(p);
			if (p)
				CU_ASSERT_EQUAL(p->val, model[k]);
		} else {
			CU_ASSERT_PTR_NULL(p);
		}
	}
	while ((p = router_tab_next(&t, &pos))) {
		CU_ASSERT_EQUAL(model[p->key / 0x10001], p->val);
		seen++;
	}
	CU_ASSERT_EQUAL(seen, t.count);
	router_tab_free(&t);
}

/* Every change gives a new stamp, unique over tables: a copy knows it is stale. */
static void test_stamp(void)
{
	struct router_tab t, u;
	struct rec r = { 7, 70 };
	uint64_t k = 7, s0, s1, s2;

	router_tab_init(&t, sizeof(r), sizeof(r.key));
	router_tab_init(&u, sizeof(r), sizeof(r.key));
	CU_ASSERT_NOT_EQUAL(t.stamp, u.stamp);
	s0 = t.stamp;
	CU_ASSERT_EQUAL(router_tab_put(&t, &r), 1);
	s1 = t.stamp;
	CU_ASSERT_NOT_EQUAL(s1, s0);
	CU_ASSERT_PTR_NOT_NULL(router_tab_find(&t, &k));
	CU_ASSERT_EQUAL(t.stamp, s1); /* a lookup changes nothing */
	CU_ASSERT_EQUAL(router_tab_put(&t, &r), 0);
	s2 = t.stamp;
	CU_ASSERT_NOT_EQUAL(s2, s1); /* a replacement is a change */
	CU_ASSERT_EQUAL(router_tab_del(&t, &k), 0);
	CU_ASSERT_NOT_EQUAL(t.stamp, s2);
	s2 = t.stamp;
	CU_ASSERT_EQUAL(router_tab_del(&t, &k), -ENOENT);
	CU_ASSERT_EQUAL(t.stamp, s2); /* nothing deleted, nothing changed */
	router_tab_free(&t);
	CU_ASSERT_NOT_EQUAL(t.stamp, s2);
	CU_ASSERT_NOT_EQUAL(t.stamp, u.stamp);
	router_tab_free(&u);
}

static CU_TestInfo tests[] = {
	{ "put, replace, find, delete", test_basic },
	{ "a new stamp with every change", test_stamp },
	{ "random operations against a model", test_model },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("router_tab", tests);
}
