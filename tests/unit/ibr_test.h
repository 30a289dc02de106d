/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_test.h - the one way every unit-test program runs its CUnit suite. */
#ifndef IBR_TEST_H
#define IBR_TEST_H

#include <CUnit/CUnit.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Registers `tests` as one suite named `suite` (one suite per source file),
 * runs it and returns the process exit status: 0 only when at least one test
 * ran and no assertion failed.
 */
int ibr_test_run(const char *suite, CU_TestInfo *tests);

/* The same with a fixture: `init` (0 on success) before the tests, `cleanup` after. */
int ibr_test_run_fixture(const char *suite, CU_TestInfo *tests, int (*init)(void),
			 int (*cleanup)(void));

/*
 * Under an emulator (IBR_TEST_WRAPPER set: scripts/run's aarch64 stage runs
 * the suites under qemu-user), whether `cond` -- what the emulator gets wrong
 * of the real kernel -- holds: then the check is skipped, said on stderr
 * with `why`, and counted; ibr_test_run prints "N skipped (emulator)" at the
 * end, which scripts/run counts apart, neither passed nor failed.  Natively
 * always false: the check runs.
 */
int ibr_test_emulator_skip(int cond, const char *why);

/* Seeded xorshift64* generator, so that failures of random tests repeat. */
unsigned long long ibr_test_rand(unsigned long long *state);
/* `len` random bytes from it into `b` (bits 24-31 of each number). */
void ibr_test_rand_fill(uint8_t *b, size_t len, unsigned long long *state);

#endif
