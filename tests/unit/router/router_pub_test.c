/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for router/router_pub.c: publication and quiescent-state reclamation. */
#include "router/router_pub.h"
#include "router/router_rib.h"
#include "tests/unit/ibr_test.h"

#include <pthread.h>
#include <stdlib.h>

static struct router_fib *fib_new(uint64_t gen)
{
	struct router_fib *f = calloc(1, sizeof(*f));

	f->generation = gen;
	return f;
}

static void test_reclaim_waits_for_readers(void)
{
	struct router_pub pub;
	struct router_fib *seen;

	CU_ASSERT_EQUAL_FATAL(router_pub_init(&pub, 2), 0);
	CU_ASSERT_EQUAL(router_pub_publish(&pub, fib_new(1)), 0);
	CU_ASSERT_EQUAL(pub.nretired, 0); /* nothing was current before */
	router_pub_online(&pub, 0);
	seen = router_pub_get(&pub);
	CU_ASSERT_EQUAL(seen->generation, 1);
	/* reader 1 stays offline: it never blocks reclamation */
	CU_ASSERT_EQUAL(router_pub_publish(&pub, fib_new(2)), 0);
	CU_ASSERT_EQUAL(pub.nretired, 1); /* reader 0 may still use FIB 1 */
	CU_ASSERT_EQUAL(seen->generation, 1);
	CU_ASSERT_EQUAL(router_pub_reclaim(&pub), 1);
	router_pub_quiescent(&pub, 0);
	CU_ASSERT_EQUAL(router_pub_reclaim(&pub), 0);
	CU_ASSERT_EQUAL(router_pub_get(&pub)->generation, 2);
	router_pub_offline(&pub, 0);
	CU_ASSERT_EQUAL(router_pub_publish(&pub, fib_new(3)), 0);
	CU_ASSERT_EQUAL(pub.nretired, 0); /* all offline: freed at once */
	router_pub_destroy(&pub);
	CU_ASSERT_EQUAL(router_pub_init(&pub, ROUTER_MAX_WORKERS + 1), -EINVAL);
}

struct reader_arg {
	struct router_pub *pub;
	uint32_t id;
	volatile int *stop;
	uint64_t bad;
	uint64_t reads;
};

/* Each FIB carries generation g and nroutes == g; a freed one (poisoned by
 * ASan, or reused) would break the invariant or crash. */
static void *reader(void *p)
{
	struct reader_arg *a = p;

	router_pub_online(a->pub, a->id);
	while (!*a->stop) {
		struct router_fib *f = router_pub_get(a->pub);

		for (int i = 0; i < 100; i++)
			if (f->nroutes != f->generation)
				a->bad++;
		a->reads++;
		router_pub_quiescent(a->pub, a->id);
	}
	router_pub_offline(a->pub, a->id);
	return NULL;
}

static void test_concurrent(void)
{
	struct router_pub pub;
	pthread_t t[2];
	struct reader_arg args[2];
	volatile int stop = 0;

	CU_ASSERT_EQUAL_FATAL(router_pub_init(&pub, 2), 0);
	router_pub_publish(&pub, fib_new(0));
	for (uint32_t i = 0; i < 2; i++) {
		args[i] = (struct reader_arg){ &pub, i, &stop, 0, 0 };
		pthread_create(&t[i], NULL, reader, &args[i]);
	}
	for (uint64_t g = 1; g <= 20000; g++) {
		struct router_fib *f = fib_new(g);

		f->nroutes = g;
		CU_ASSERT_EQUAL(router_pub_publish(&pub, f), 0);
	}
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	CU_ASSERT_EQUAL(args[0].bad + args[1].bad, 0);
	CU_ASSERT_EQUAL(router_pub_reclaim(&pub), 0);
	router_pub_destroy(&pub);
}

static CU_TestInfo tests[] = {
	{ "reclaim waits for online readers", test_reclaim_waits_for_readers },
	{ "two readers while 20000 FIBs are published", test_concurrent },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("router_pub", tests);
}
