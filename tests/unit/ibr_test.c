/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_test.c - CUnit runner shared by the unit-test programs. */
#include "tests/unit/ibr_test.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned int skipped_emulator;

int ibr_test_emulator_skip(int cond, const char *why)
{
	if (!cond || !getenv("IBR_TEST_WRAPPER"))
		return 0;
	fprintf(stderr, "\n  (skipped (emulator): %s)\n", why);
	skipped_emulator++;
	return 1;
}

int ibr_test_run(const char *suite, CU_TestInfo *tests)
{
	return ibr_test_run_fixture(suite, tests, NULL, NULL);
}

int ibr_test_run_fixture(const char *suite, CU_TestInfo *tests, int (*init)(void),
			 int (*cleanup)(void))
{
	CU_SuiteInfo suites[] = {
		{ (char *)suite, init, cleanup, NULL, NULL, tests },
		CU_SUITE_INFO_NULL,
	};
	unsigned int ran, failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 99;
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		fprintf(stderr, "%s: %s\n", suite, CU_get_error_msg());
		CU_cleanup_registry();
		return 99;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	ran = CU_get_number_of_tests_run();
	failed = CU_get_number_of_tests_failed() + CU_get_number_of_suites_failed();
	CU_cleanup_registry();
	if (skipped_emulator)
		printf("%u skipped (emulator)\n", skipped_emulator);
	if (ran == 0) {
		fprintf(stderr, "%s: no test ran\n", suite);
		return 1;
	}
	return failed ? 1 : 0;
}

unsigned long long ibr_test_rand(unsigned long long *state)
{
	unsigned long long x = *state ? *state : 0x9E3779B97F4A7C15ull;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

void ibr_test_rand_fill(uint8_t *b, size_t len, unsigned long long *state)
{
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(ibr_test_rand(state) >> 24);
}
