/*
 * mad_umad_test.c - the umad transport (sa/mad_umad.c) where no InfiniBand
 * hardware is present: opening a port that does not exist fails cleanly with
 * errno set, and the agents' method masks (13.4.5) are the unsolicited methods
 * each class serves.
 */
#include "sa/mad_umad.h"

#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>

/* methods are 7 bits (the R bit is not part of the mask) */
static bool mask_has(const uint64_t mask[2], uint8_t method)
{
	return (mask[method / 64] >> (method % 64)) & 1;
}

static void test_method_masks(void)
{
	uint64_t m[2];

	mad_umad_method_mask(IBR_MGMT_CLASS_SUBN_DR, m);
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_GET) && mask_has(m, IBR_MAD_METHOD_SET));
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_TRAP_REPRESS));
	CU_ASSERT(!mask_has(m, IBR_MAD_METHOD_REPORT) && !mask_has(m, IBR_MAD_METHOD_SEND));
	mad_umad_method_mask(IBR_MGMT_CLASS_SUBN_LID, m);
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_GET));
	mad_umad_method_mask(IBR_MGMT_CLASS_SUBN_ADM, m);
	CU_ASSERT(mask_has(m, IBR_MAD_METHOD_REPORT));
	CU_ASSERT(!mask_has(m, IBR_MAD_METHOD_GET) && !mask_has(m, IBR_MAD_METHOD_GET_TABLE));
}

static void test_open_missing_port(void)
{
	errno = 0;
	CU_ASSERT_PTR_NULL(mad_umad_open("ibr_no_such_ca", 1));
	CU_ASSERT_NOT_EQUAL(errno, 0);
}

static CU_TestInfo tests[] = {
	{ "agents' method masks", test_method_masks },
	{ "a CA that does not exist: NULL, errno set", test_open_missing_port },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_mad_umad", tests);
}
