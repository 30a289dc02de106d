/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_mad_build_test.c - the MAD builders of lib/ibr_mad.c: requests,
 * directed-route SMPs and responses, read back with libibmad's field
 * tables (on IBR_MAD_SIZE-byte buffers only: mad_get_field() takes no
 * length), and a MAD umad2sim cut short.
 */
#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <string.h>

static void test_build_requests(void)
{
	uint8_t m[IBR_MAD_SIZE];
	struct ibr_mad_hdr h;

	memset(m, 0xEE, sizeof(m));
	CU_ASSERT_EQUAL(ibr_mad_build_get(m, 0x01, 0x0015, 3, 0xABCDEF0123456789ull), 0);
	CU_ASSERT_EQUAL(ibr_mad_parse(m, sizeof(m), &h), IBR_MAD_OK);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_BASEVER_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_MGMTCLASS_F), IB_SMI_CLASS);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_CLASSVER_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_METHOD_F), IB_MAD_METHOD_GET);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_RESPONSE_F), 0);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_ATTRID_F), IB_ATTR_PORT_INFO);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_ATTRMOD_F), 3);
	CU_ASSERT_EQUAL(mad_get_field64(m, 0, IB_MAD_TRID_F), 0xABCDEF0123456789ull);
	for (size_t i = IBR_MAD_HDR_SIZE; i < sizeof(m); i++)
		CU_ASSERT_EQUAL_FATAL(m[i], 0);

	CU_ASSERT_EQUAL(ibr_mad_build_set(m, 0x81, 0x0015, 1, 2), 0);
	CU_ASSERT_EQUAL(ibr_mad_method(m), IBR_MAD_METHOD_SET);
	CU_ASSERT_EQUAL(ibr_mad_parse(m, sizeof(m), &h), IBR_MAD_OK);
	CU_ASSERT_EQUAL(ibr_mad_build_report(m, 0x03, IBR_ATTR_NOTICE, 9), 0);
	CU_ASSERT_EQUAL(ibr_mad_method(m), IBR_MAD_METHOD_REPORT);
	CU_ASSERT_EQUAL(ibr_mad_class_version(m), 2);
	CU_ASSERT_EQUAL(ibr_mad_parse(m, sizeof(m), &h), IBR_MAD_OK);
	CU_ASSERT_EQUAL(ibr_mad_build(m, 0x0A, 0x01, 1, 0, 0), 0);
	CU_ASSERT_EQUAL(ibr_mad_class_version(m), 1); /* vendor: version 1 by default */
	memset(m, 0xEE, sizeof(m));
	CU_ASSERT_EQUAL(ibr_mad_build_get(m, 0x02, 0x0015, 0, 0), -EINVAL);
	CU_ASSERT_EQUAL(m[0], 0xEE);

	CU_ASSERT_EQUAL(ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PATH_RECORD,
					 0x0000000000000C0Cull, 1, 77),
			0);
	CU_ASSERT_EQUAL(ibr_mad_parse(m, sizeof(m), &h), IBR_MAD_OK);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_MGMTCLASS_F), IB_SA_CLASS);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_CLASSVER_F), 2);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_METHOD_F), IB_MAD_METHOD_GET_TABLE);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_ATTRID_F), IB_SA_ATTR_PATHRECORD);
	CU_ASSERT_EQUAL(mad_get_field64(m, 0, IB_SA_MKEY_F), 1);
	CU_ASSERT_EQUAL(mad_get_field64(m, 0, IB_SA_COMPMASK_F), 0xC0C);
	CU_ASSERT_EQUAL(mad_get_field64(m, 0, IB_MAD_TRID_F), 77);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_SA_RMPP_FLAGS_F), 0);
}

static void test_build_dr_smp(void)
{
	uint8_t m[IBR_MAD_SIZE], got[IBR_SMP_PATH_SIZE], path[IBR_SMP_MAX_HOPS + 1];
	struct ibr_mad_hdr h;

	for (unsigned int i = 0; i < sizeof(path); i++)
		path[i] = (uint8_t)(i + 1);
	CU_ASSERT_EQUAL(ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, 5,
					     0x1234, path, 3),
			0);
	CU_ASSERT_EQUAL(ibr_mad_parse(m, sizeof(m), &h), IBR_MAD_OK);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_MAD_MGMTCLASS_F), IB_SMI_DIRECT_CLASS);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_DRSMP_HOPCNT_F), 3);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_DRSMP_HOPPTR_F), 0);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_DRSMP_DIRECTION_F), 0);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_DRSMP_DRSLID_F), 0xFFFF);
	CU_ASSERT_EQUAL(mad_get_field(m, 0, IB_DRSMP_DRDLID_F), 0xFFFF);
	CU_ASSERT_EQUAL(mad_get_field64(m, 0, IB_MAD_MKEY_F), 0x1234);
	mad_get_array(m, 0, IB_DRSMP_PATH_F, got);
	CU_ASSERT_EQUAL(got[0], 0);
	CU_ASSERT_EQUAL(got[1], 1);
	CU_ASSERT_EQUAL(got[2], 2);
	CU_ASSERT_EQUAL(got[3], 3);
	CU_ASSERT_EQUAL(got[4], 0);

	CU_ASSERT_EQUAL(ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, 0x11, 0, 5, 0, path, 63), 0);
	mad_get_array(m, 0, IB_DRSMP_PATH_F, got);
	CU_ASSERT(memcmp(got + 1, path, 63) == 0);
	CU_ASSERT_EQUAL(ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, 0x11, 0, 5, 0, NULL, 0), 0);
	CU_ASSERT_EQUAL(ibr_smp_dr_hop_count(m), 0);
	CU_ASSERT_EQUAL(ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, 0x11, 0, 5, 0, path, 64),
			-EINVAL);
	CU_ASSERT_EQUAL(ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, 0x11, 0, 5, 0, NULL, 2),
			-EINVAL);
}

static void test_build_response(void)
{
	unsigned long long seed = 29;
	uint8_t req[IBR_MAD_SIZE], resp[IBR_MAD_SIZE];

	/* LID-routed Get: GetResp, status, everything else echoed */
	ibr_test_rand_fill(req, sizeof(req), &seed);
	ibr_mad_build_get(req, 0x01, IBR_SMP_ATTR_PORT_INFO, 1, 0x42);
	ibr_test_rand_fill(req + 24, 232, &seed);
	CU_ASSERT_EQUAL(
		ibr_mad_build_response(resp, req, sizeof(req), IBR_MAD_STATUS_UNSUP_METHOD_ATTR),
		0);
	CU_ASSERT_EQUAL(mad_get_field(resp, 0, IB_MAD_METHOD_F), 0x01);
	CU_ASSERT_EQUAL(mad_get_field(resp, 0, IB_MAD_RESPONSE_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(resp, 0, IB_MAD_STATUS_F), 0x000C);
	CU_ASSERT(memcmp(resp + 8, req + 8, IBR_MAD_SIZE - 8) == 0);

	/* DR Set: GetResp, D bit set, 15-bit status, hop fields and paths echoed */
	ibr_mad_build_dr_smp(req, IBR_MAD_METHOD_SET, IBR_SMP_ATTR_PORT_INFO, 1, 0x43, 0,
			     (const uint8_t *)"\x01\x02", 2);
	ibr_smp_dr_set_hop_pointer(req, 3);
	CU_ASSERT_EQUAL(
		ibr_mad_build_response(resp, req, sizeof(req), IBR_MAD_STATUS_INVALID_FIELD), 0);
	CU_ASSERT_EQUAL(mad_get_field(resp, 0, IB_DRSMP_DIRECTION_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(resp, 0, IB_DRSMP_STATUS_F), 0x001C);
	CU_ASSERT_EQUAL(mad_get_field(resp, 0, IB_DRSMP_HOPPTR_F), 3);
	CU_ASSERT_EQUAL(mad_get_field(resp, 0, IB_DRSMP_HOPCNT_F), 2);
	CU_ASSERT_EQUAL(ibr_mad_method(resp), IBR_MAD_METHOD_GET_RESP);
	CU_ASSERT(memcmp(resp + 8, req + 8, IBR_MAD_SIZE - 8) == 0);

	/* in place, and the D bit survives a status of all ones */
	CU_ASSERT_EQUAL(ibr_mad_build_response(req, req, sizeof(req), 0xFFFF), 0);
	CU_ASSERT_EQUAL(mad_get_field(req, 0, IB_DRSMP_DIRECTION_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(req, 0, IB_DRSMP_STATUS_F), 0x7FFF);
}

static void test_build_response_gmp(void)
{
	unsigned long long seed = 31;
	uint8_t req[IBR_MAD_SIZE], resp[IBR_MAD_SIZE];

	/* SA Report: ReportResp, RMPP header cleared, SA header and data echoed */
	ibr_test_rand_fill(req, sizeof(req), &seed);
	ibr_mad_set_base_version(req, 1);
	ibr_mad_set_mgmt_class(req, 0x03);
	ibr_mad_set_method(req, IBR_MAD_METHOD_REPORT);
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, req, sizeof(req), 0), 0);
	CU_ASSERT_EQUAL(ibr_mad_method(resp), IBR_MAD_METHOD_REPORT_RESP);
	CU_ASSERT_EQUAL(ibr_mad_status(resp), 0);
	for (int i = IBR_RMPP_HDR_OFFS; i < IBR_RMPP_HDR_OFFS + IBR_RMPP_HDR_SIZE; i++)
		CU_ASSERT_EQUAL(resp[i], 0);
	CU_ASSERT(memcmp(resp + 36, req + 36, IBR_MAD_SIZE - 36) == 0);
	CU_ASSERT(memcmp(resp + 6, req + 6, 18) == 0);

	/* Trap: TrapRepress; methods without a response are refused */
	ibr_mad_set_method(req, IBR_MAD_METHOD_TRAP);
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, req, sizeof(req), 0), 0);
	CU_ASSERT_EQUAL(ibr_mad_method(resp), IBR_MAD_METHOD_TRAP_REPRESS);
	memset(resp, 0x5A, sizeof(resp));
	ibr_mad_set_method(req, IBR_MAD_METHOD_GET_RESP);
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, req, sizeof(req), 0), -EINVAL);
	ibr_mad_set_method(req, IBR_MAD_METHOD_SEND);
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, req, sizeof(req), 0), -EINVAL);
	CU_ASSERT_EQUAL(resp[0], 0x5A);

	/* a short request (a reassembled RMPP message may be): zero-filled copy */
	ibr_mad_set_method(req, IBR_MAD_METHOD_GET);
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, req, 23, 0), -EINVAL);
	CU_ASSERT_EQUAL(resp[0], 0x5A);
	uint8_t *small = malloc(60);
	memcpy(small, req, 60);
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, small, 60, 0), 0);
	free(small);
	CU_ASSERT(memcmp(resp + 36, req + 36, 24) == 0);
	for (int i = 60; i < IBR_MAD_SIZE; i++)
		CU_ASSERT_EQUAL_FATAL(resp[i], 0);
	/* a longer one: only the first 256 bytes */
	uint8_t big[IBR_MAD_SIZE + 100];
	memset(big, 0x33, sizeof(big));
	memcpy(big, req, 24);
	memset(resp, 0, sizeof(resp));
	CU_ASSERT_EQUAL(ibr_mad_build_response(resp, big, sizeof(big), 0), 0);
	CU_ASSERT_EQUAL(resp[IBR_MAD_SIZE - 1], 0x33);
}

static void test_umad2sim_truncated(void)
{
	uint8_t m[IBR_MAD_SIZE];

	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, 0, 1);
	ibr_mad_set_method(m, IBR_MAD_METHOD_GET_TABLE_RESP);
	/* what umad2sim delivers: Active only, version 0 */
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE);
	CU_ASSERT(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	ibr_rmpp_set_resp_time(m, 0x1F); /* RRespTime does not matter */
	CU_ASSERT(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(m, 35));
	CU_ASSERT(ibr_rmpp_is_umad2sim_truncated(m, 36));
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(NULL, 256));
	/* a real single-segment RMPP response: version 1, Active|First|Last */
	ibr_rmpp_set_version(m, IBR_RMPP_VERSION);
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE | IBR_RMPP_FLAG_FIRST | IBR_RMPP_FLAG_LAST);
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	/* version 0 but First or Last set: not the umad2sim signature */
	ibr_rmpp_set_version(m, 0);
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE | IBR_RMPP_FLAG_FIRST);
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE | IBR_RMPP_FLAG_LAST);
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	/* a later segment of a real transfer: version 1, Active only */
	ibr_rmpp_set_version(m, 1);
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE);
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	/* no RMPP at all */
	ibr_rmpp_set_version(m, 0);
	ibr_rmpp_set_flags(m, 0);
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	/* a class without an RMPP header */
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE);
	ibr_mad_set_mgmt_class(m, 0x81);
	CU_ASSERT_FALSE(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
	ibr_mad_set_mgmt_class(m, 0x31);
	CU_ASSERT(ibr_rmpp_is_umad2sim_truncated(m, sizeof(m)));
}

static CU_TestInfo tests[] = {
	{ "build requests", test_build_requests },
	{ "build DR SMP", test_build_dr_smp },
	{ "build responses (SMP)", test_build_response },
	{ "build responses (GMP, short)", test_build_response_gmp },
	{ "umad2sim truncation", test_umad2sim_truncated },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_mad_build", tests);
}
