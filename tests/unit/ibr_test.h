/* ibr_test.h - the one way every unit-test program runs its CUnit suite. */
#ifndef IBR_TEST_H
#define IBR_TEST_H

#include <CUnit/CUnit.h>

/*
 * Registers `tests` as one suite named `suite` (one suite per source file),
 * runs it and returns the process exit status: 0 only when at least one test
 * ran and no assertion failed.
 */
int ibr_test_run(const char *suite, CU_TestInfo *tests);

/* The same with a fixture: `init` (0 on success) before the tests, `cleanup` after. */
int ibr_test_run_fixture(const char *suite, CU_TestInfo *tests, int (*init)(void),
			 int (*cleanup)(void));

/* Seeded xorshift64* generator, so that failures of random tests repeat. */
unsigned long long ibr_test_rand(unsigned long long *state);

#endif
