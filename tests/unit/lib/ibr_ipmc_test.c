/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for lib/ibr_ipmc.c: which family an MGID's group is, what is no
 * group, and joins and leaves on the loopback interface as the kernel's
 * tables (/proc/net/igmp, /proc/net/igmp6) show them.
 */
#include "lib/ibr_ipmc.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/ibr_test_ipmc.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

/* ::ffff:239.1.1.1 and ff15::1:8: groups no other test joins on lo */
static const uint8_t mgid4[16] = { [10] = 0xFF, 0xFF, 239, 1, 1, 1 };
static const uint8_t mgid6[16] = { 0xFF, 0x15, [13] = 1, [15] = 8 };

static void test_is_v4(void)
{
	static const uint8_t v4_ucast[16] = { [10] = 0xFF, 0xFF, 10, 1, 0, 1 };
	static const uint8_t v4_compat[16] = { [12] = 239, 1, 1, 1 }; /* ::239.1.1.1 */
	static const uint8_t near[16] = { [10] = 0xFF, 0xFE, 239, 1, 1, 1 };
	static const uint8_t mapped_high[16] = { [9] = 1, 0xFF, 0xFF, 239, 1, 1, 1 };

	CU_ASSERT_TRUE(ibr_ipmc_is_v4(mgid4));
	CU_ASSERT_TRUE(ibr_ipmc_is_v4(v4_ucast));
	CU_ASSERT_FALSE(ibr_ipmc_is_v4(mgid6));
	CU_ASSERT_FALSE(ibr_ipmc_is_v4(v4_compat));
	CU_ASSERT_FALSE(ibr_ipmc_is_v4(near));
	CU_ASSERT_FALSE(ibr_ipmc_is_v4(mapped_high));
}

/* Not a multicast address of either family: -EINVAL, no socket opened for it. */
static void test_not_a_group(void)
{
	static const uint8_t ucast6[16] = { 0xfe, 0xc0, [7] = 1, [15] = 1 };
	static const uint8_t ucast4[16] = { [10] = 0xFF, 0xFF, 10, 1, 0, 1 };
	static const uint8_t class_e[16] = { [10] = 0xFF, 0xFF, 240, 0, 0, 1 };
	struct ibr_ipmc m;

	ibr_ipmc_init(&m);
	CU_ASSERT_EQUAL(ibr_ipmc_set(&m, 1, ucast6, true), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ipmc_set(&m, 1, ucast4, true), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ipmc_set(&m, 1, class_e, true), -EINVAL);
	CU_ASSERT_EQUAL(ibr_ipmc_set(&m, 1, ucast4, false), -EINVAL);
	CU_ASSERT_EQUAL(m.fd4, -1);
	CU_ASSERT_EQUAL(m.fd6, -1);
	ibr_ipmc_fini(&m);
}

/*
 * Join `mgid`'s group on lo, then leave it: one member more in the
 * kernel's table, then as before; joined again, ibr_ipmc_fini() leaves it
 * too (the memberships are the sockets').  Leaving a group not joined is an
 * error.  A kernel that refuses the join with `skip_err` (IPv6 off), or
 * has no table of the family, is said on stderr (SKIP): never a silent pass.
 */
static void join_leave_lo(const uint8_t mgid[16], const char *what, int skip_err)
{
	unsigned lo = if_nametoindex("lo");
	struct ibr_ipmc m;
	int before, rc;

	CU_ASSERT_FATAL(lo > 0);
	before = ibr_test_ipmc_users(lo, mgid);
	ibr_ipmc_init(&m);
	rc = ibr_ipmc_set(&m, lo, mgid, true);
	if (before < 0 || (skip_err && rc == -skip_err)) {
		fprintf(stderr, "\n  SKIP: %s on lo: the kernel %s (%s)\n", what,
			before < 0 ? "has no table of it" : "refuses the join", strerror(-rc));
		ibr_ipmc_fini(&m);
		return;
	}
	/* qemu-user 7.2 passes IP_ADD_MEMBERSHIP's ip_mreqn on with a wrong ifindex */
	if (ibr_test_emulator_skip(rc == -ENODEV, "qemu-user's IP_ADD_MEMBERSHIP: ENODEV")) {
		ibr_ipmc_fini(&m);
		return;
	}
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(ibr_test_ipmc_users(lo, mgid), before + 1);
	CU_ASSERT_EQUAL(ibr_ipmc_set(&m, lo, mgid, false), 0);
	CU_ASSERT_EQUAL(ibr_test_ipmc_users(lo, mgid), before);
	CU_ASSERT(ibr_ipmc_set(&m, lo, mgid, false) < 0);
	CU_ASSERT_EQUAL(ibr_ipmc_set(&m, lo, mgid, true), 0);
	CU_ASSERT_EQUAL(ibr_test_ipmc_users(lo, mgid), before + 1);
	ibr_ipmc_fini(&m);
	CU_ASSERT_EQUAL(ibr_test_ipmc_users(lo, mgid), before);
	CU_ASSERT_EQUAL(m.fd4, -1);
	CU_ASSERT_EQUAL(m.fd6, -1);
}

static void test_join_v4(void)
{
	join_leave_lo(mgid4, "IPv4 group 239.1.1.1", 0);
}

static void test_join_v6(void)
{
	join_leave_lo(mgid6, "IPv6 group ff15::1:8", EADDRNOTAVAIL);
}

static CU_TestInfo tests[] = {
	{ "IPv4-mapped MGIDs", test_is_v4 },
	{ "no multicast address: -EINVAL", test_not_a_group },
	{ "an IPv4 group on lo: join, leave, fini", test_join_v4 },
	{ "an IPv6 group on lo: join, leave, fini", test_join_v6 },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_ipmc", tests);
}
