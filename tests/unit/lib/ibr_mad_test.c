/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_mad_test.c - MAD, SMP, RMPP and SA header codecs (lib/ibr_mad.c),
 * every accessor cross-checked against libibmad's field tables.  libibmad's
 * mad_get_field()/mad_set_field() take no length: they are only ever called
 * on IBR_MAD_SIZE-byte buffers here.  ibr_mad_parse_test.c holds the parser
 * and the names, ibr_mad_build_test.c the builders.
 */
#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 2000

/* ---- field cross-check table ---- */

struct field_check {
	const char *name;
	unsigned int bits;
	uint64_t (*ours_get)(const uint8_t *m);
	void (*ours_set)(uint8_t *m, uint64_t v);
	enum MAD_FIELDS f; /* IB_NO_FIELD: theirs_get/theirs_set */
	uint64_t (*theirs_get)(uint8_t *m);
	void (*theirs_set)(uint8_t *m, uint64_t v);
};

#define WRAP(name, get, set, type)                   \
	static uint64_t g_##name(const uint8_t *m)   \
	{                                            \
		return get(m);                       \
	}                                            \
	static void s_##name(uint8_t *m, uint64_t v) \
	{                                            \
		set(m, (type)v);                     \
	}

WRAP(base_version, ibr_mad_base_version, ibr_mad_set_base_version, uint8_t)
WRAP(mgmt_class, ibr_mad_mgmt_class, ibr_mad_set_mgmt_class, uint8_t)
WRAP(class_version, ibr_mad_class_version, ibr_mad_set_class_version, uint8_t)
WRAP(method, ibr_mad_method, ibr_mad_set_method, uint8_t)
WRAP(status, ibr_mad_status, ibr_mad_set_status, uint16_t)
WRAP(class_specific, ibr_mad_class_specific, ibr_mad_set_class_specific, uint16_t)
WRAP(tid, ibr_mad_tid, ibr_mad_set_tid, uint64_t)
WRAP(attr_id, ibr_mad_attr_id, ibr_mad_set_attr_id, uint16_t)
WRAP(attr_mod, ibr_mad_attr_mod, ibr_mad_set_attr_mod, uint32_t)
WRAP(mkey, ibr_smp_mkey, ibr_smp_set_mkey, uint64_t)
WRAP(dr_dir, ibr_smp_dr_direction, ibr_smp_dr_set_direction, bool)
WRAP(dr_status, ibr_smp_dr_status, ibr_smp_dr_set_status, uint16_t)
WRAP(hop_ptr, ibr_smp_dr_hop_pointer, ibr_smp_dr_set_hop_pointer, uint8_t)
WRAP(hop_cnt, ibr_smp_dr_hop_count, ibr_smp_dr_set_hop_count, uint8_t)
WRAP(dr_slid, ibr_smp_dr_slid, ibr_smp_dr_set_slid, uint16_t)
WRAP(dr_dlid, ibr_smp_dr_dlid, ibr_smp_dr_set_dlid, uint16_t)
WRAP(rmpp_version, ibr_rmpp_version, ibr_rmpp_set_version, uint8_t)
WRAP(rmpp_type, ibr_rmpp_type, ibr_rmpp_set_type, uint8_t)
WRAP(rmpp_resp_time, ibr_rmpp_resp_time, ibr_rmpp_set_resp_time, uint8_t)
WRAP(rmpp_flags, ibr_rmpp_flags, ibr_rmpp_set_flags, uint8_t)
WRAP(rmpp_status, ibr_rmpp_status, ibr_rmpp_set_status, uint8_t)
WRAP(rmpp_seg_num, ibr_rmpp_seg_num, ibr_rmpp_set_seg_num, uint32_t)
WRAP(rmpp_data2, ibr_rmpp_data2, ibr_rmpp_set_data2, uint32_t)
WRAP(sa_sm_key, ibr_sa_sm_key, ibr_sa_set_sm_key, uint64_t)
WRAP(sa_attr_offset, ibr_sa_attr_offset, ibr_sa_set_attr_offset, uint16_t)
WRAP(sa_comp_mask, ibr_sa_comp_mask, ibr_sa_set_comp_mask, uint64_t)

/* ibr_mad_is_response() has no setter: set the R bit through the method. */
static uint64_t g_is_resp(const uint8_t *m)
{
	return ibr_mad_is_response(m);
}

static void s_is_resp(uint8_t *m, uint64_t v)
{
	ibr_mad_set_method(m, (uint8_t)((ibr_mad_method(m) & 0x7F) | (v ? 0x80 : 0)));
}

/* libibmad splits the method byte into MadMethod (7 bits) and MadIsResponse. */
static uint64_t t_method(uint8_t *m)
{
	return mad_get_field(m, 0, IB_MAD_RESPONSE_F) << 7 | mad_get_field(m, 0, IB_MAD_METHOD_F);
}

static void t_set_method(uint8_t *m, uint64_t v)
{
	mad_set_field(m, 0, IB_MAD_METHOD_F, (uint32_t)(v & 0x7F));
	mad_set_field(m, 0, IB_MAD_RESPONSE_F, (uint32_t)(v >> 7));
}

/* ...and has no 16-bit ClassSpecific field: in a DR SMP it is HopPointer:HopCount. */
static uint64_t t_class_specific(uint8_t *m)
{
	return mad_get_field(m, 0, IB_DRSMP_HOPPTR_F) << 8 | mad_get_field(m, 0, IB_DRSMP_HOPCNT_F);
}

static void t_set_class_specific(uint8_t *m, uint64_t v)
{
	mad_set_field(m, 0, IB_DRSMP_HOPPTR_F, (uint32_t)(v >> 8));
	mad_set_field(m, 0, IB_DRSMP_HOPCNT_F, (uint32_t)(v & 0xFF));
}

#define F(n, bits, field)                                 \
	{                                                 \
#n, bits, g_##n, s_##n, field, NULL, NULL \
	}

static const struct field_check fields[] = {
	F(base_version, 8, IB_MAD_BASEVER_F),
	F(mgmt_class, 8, IB_MAD_MGMTCLASS_F),
	F(class_version, 8, IB_MAD_CLASSVER_F),
	{ "method", 8, g_method, s_method, IB_NO_FIELD, t_method, t_set_method },
	F(is_resp, 1, IB_MAD_RESPONSE_F),
	F(status, 16, IB_MAD_STATUS_F),
	{ "class_specific", 16, g_class_specific, s_class_specific, IB_NO_FIELD, t_class_specific,
	  t_set_class_specific },
	F(tid, 64, IB_MAD_TRID_F),
	F(attr_id, 16, IB_MAD_ATTRID_F),
	F(attr_mod, 32, IB_MAD_ATTRMOD_F),
	F(mkey, 64, IB_MAD_MKEY_F),
	F(dr_dir, 1, IB_DRSMP_DIRECTION_F),
	F(dr_status, 15, IB_DRSMP_STATUS_F),
	F(hop_ptr, 8, IB_DRSMP_HOPPTR_F),
	F(hop_cnt, 8, IB_DRSMP_HOPCNT_F),
	F(dr_slid, 16, IB_DRSMP_DRSLID_F),
	F(dr_dlid, 16, IB_DRSMP_DRDLID_F),
	F(rmpp_version, 8, IB_SA_RMPP_VERS_F),
	F(rmpp_type, 8, IB_SA_RMPP_TYPE_F),
	F(rmpp_resp_time, 5, IB_SA_RMPP_RESP_F),
	F(rmpp_flags, 3, IB_SA_RMPP_FLAGS_F),
	F(rmpp_status, 8, IB_SA_RMPP_STATUS_F),
	F(rmpp_seg_num, 32, IB_SA_RMPP_SEGNUM_F),
	F(rmpp_seg_num, 32, IB_SA_RMPP_D1_F),
	F(rmpp_data2, 32, IB_SA_RMPP_D2_F),
	F(rmpp_data2, 32, IB_SA_RMPP_LEN_F),
	F(rmpp_data2, 32, IB_SA_RMPP_NEWWIN_F),
	F(sa_sm_key, 64, IB_SA_MKEY_F),
	F(sa_attr_offset, 16, IB_SA_ATTROFFS_F),
	F(sa_comp_mask, 64, IB_SA_COMPMASK_F),
};

static uint64_t theirs_get(const struct field_check *fc, uint8_t *m)
{
	if (fc->f == IB_NO_FIELD)
		return fc->theirs_get(m);
	if (fc->bits == 64)
		return mad_get_field64(m, 0, fc->f);
	return mad_get_field(m, 0, fc->f);
}

static void theirs_set(const struct field_check *fc, uint8_t *m, uint64_t v)
{
	if (fc->f == IB_NO_FIELD)
		fc->theirs_set(m, v);
	else if (fc->bits == 64)
		mad_set_field64(m, 0, fc->f, v);
	else
		mad_set_field(m, 0, fc->f, (uint32_t)v);
}

static void check_field(const struct field_check *fc, unsigned long long *seed)
{
	uint8_t m[IBR_MAD_SIZE], a[IBR_MAD_SIZE], b[IBR_MAD_SIZE];
	uint64_t mask = fc->bits == 64 ? ~0ull : (1ull << fc->bits) - 1;

	for (int n = 0; n < ROUNDS; n++) {
		ibr_test_rand_fill(m, sizeof(m), seed);
		/* read: ours and theirs agree on random contents */
		if (fc->ours_get(m) != theirs_get(fc, m))
			fprintf(stderr, "%s: ours %#llx, libibmad %#llx\n", fc->name,
				(unsigned long long)fc->ours_get(m),
				(unsigned long long)theirs_get(fc, m));
		CU_ASSERT_EQUAL_FATAL(fc->ours_get(m), theirs_get(fc, m));
		/* write: both setters produce the same 256 bytes, and each reads back */
		uint64_t v = ibr_test_rand(seed) & mask;
		if (n < 2)
			v = n ? mask : 0;
		memcpy(a, m, sizeof(m));
		memcpy(b, m, sizeof(m));
		fc->ours_set(a, v);
		theirs_set(fc, b, v);
		if (memcmp(a, b, sizeof(a)) != 0)
			fprintf(stderr, "%s: set %#llx differs from libibmad\n", fc->name,
				(unsigned long long)v);
		CU_ASSERT_FATAL(memcmp(a, b, sizeof(a)) == 0);
		CU_ASSERT_EQUAL_FATAL(theirs_get(fc, a), v); /* set with ours, read with theirs */
		CU_ASSERT_EQUAL_FATAL(fc->ours_get(b), v);   /* and the reverse */
	}
}

static void test_fields_vs_libibmad(void)
{
	unsigned long long seed = 0x1BADB002;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		check_field(&fields[i], &seed);
}

/* Our setters touch only their own bits: bytes outside the field stay. */
static void test_setters_are_local(void)
{
	unsigned long long seed = 5;
	uint8_t m[IBR_MAD_SIZE], a[IBR_MAD_SIZE];

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field_check *fc = &fields[i];
		uint64_t mask = fc->bits == 64 ? ~0ull : (1ull << fc->bits) - 1;
		uint8_t ones[IBR_MAD_SIZE] = { 0 };

		/* the bits of the field: set all ones on a zero buffer */
		fc->ours_set(ones, mask);
		for (int n = 0; n < 200; n++) {
			ibr_test_rand_fill(m, sizeof(m), &seed);
			memcpy(a, m, sizeof(m));
			fc->ours_set(a, ibr_test_rand(&seed) & mask);
			for (size_t k = 0; k < sizeof(m); k++)
				CU_ASSERT_EQUAL_FATAL(a[k] & ~ones[k], m[k] & ~ones[k]);
		}
	}
}

static void test_dr_paths_vs_libibmad(void)
{
	unsigned long long seed = 11;
	uint8_t m[IBR_MAD_SIZE], ipath[IBR_SMP_PATH_SIZE], rpath[IBR_SMP_PATH_SIZE], p;

	for (int n = 0; n < ROUNDS; n++) {
		ibr_test_rand_fill(m, sizeof(m), &seed);
		mad_get_array(m, 0, IB_DRSMP_PATH_F, ipath);
		mad_get_array(m, 0, IB_DRSMP_RPATH_F, rpath);
		for (unsigned int i = 0; i < IBR_SMP_PATH_SIZE; i++) {
			CU_ASSERT_EQUAL_FATAL(ibr_smp_dr_initial_path(m, i, &p), 0);
			CU_ASSERT_EQUAL_FATAL(p, ipath[i]);
			CU_ASSERT_EQUAL_FATAL(ibr_smp_dr_return_path(m, i, &p), 0);
			CU_ASSERT_EQUAL_FATAL(p, rpath[i]);
		}
		/* set with ours, read with theirs */
		ibr_test_rand_fill(ipath, sizeof(ipath), &seed);
		ibr_test_rand_fill(rpath, sizeof(rpath), &seed);
		for (unsigned int i = 0; i < IBR_SMP_PATH_SIZE; i++) {
			CU_ASSERT_EQUAL_FATAL(ibr_smp_dr_set_initial_path(m, i, ipath[i]), 0);
			CU_ASSERT_EQUAL_FATAL(ibr_smp_dr_set_return_path(m, i, rpath[i]), 0);
		}
		uint8_t got[IBR_SMP_PATH_SIZE];
		mad_get_array(m, 0, IB_DRSMP_PATH_F, got);
		CU_ASSERT_FATAL(memcmp(got, ipath, sizeof(got)) == 0);
		mad_get_array(m, 0, IB_DRSMP_RPATH_F, got);
		CU_ASSERT_FATAL(memcmp(got, rpath, sizeof(got)) == 0);
	}
}

static void test_dr_path_bounds(void)
{
	uint8_t m[IBR_MAD_SIZE + 64], before[sizeof(m)], p = 0x55;

	memset(m, 0x11, sizeof(m));
	memcpy(before, m, sizeof(m));
	CU_ASSERT_EQUAL(ibr_smp_dr_initial_path(m, 64, &p), -EINVAL);
	CU_ASSERT_EQUAL(ibr_smp_dr_return_path(m, 64, &p), -EINVAL);
	CU_ASSERT_EQUAL(ibr_smp_dr_initial_path(m, ~0u, &p), -EINVAL);
	CU_ASSERT_EQUAL(ibr_smp_dr_return_path(m, 1000, &p), -EINVAL);
	CU_ASSERT_EQUAL(p, 0x55);
	CU_ASSERT_EQUAL(ibr_smp_dr_set_initial_path(m, 64, 9), -EINVAL);
	CU_ASSERT_EQUAL(ibr_smp_dr_set_return_path(m, 64, 9), -EINVAL);
	CU_ASSERT_EQUAL(ibr_smp_dr_set_return_path(m, ~0u, 9), -EINVAL);
	CU_ASSERT(memcmp(m, before, sizeof(m)) == 0);
	CU_ASSERT_EQUAL(ibr_smp_dr_set_initial_path(m, 63, 9), 0);
	CU_ASSERT_EQUAL(m[IBR_SMP_INITIAL_PATH_OFFS + 63], 9);
	CU_ASSERT_EQUAL(ibr_smp_dr_set_return_path(m, 63, 8), 0);
	CU_ASSERT_EQUAL(m[IBR_MAD_SIZE - 1], 8);
	CU_ASSERT_EQUAL(ibr_smp_dr_set_initial_path(m, 0, 7), 0);
	CU_ASSERT_EQUAL(m[IBR_SMP_INITIAL_PATH_OFFS], 7);
}

/* Data areas and constants agree with libibmad. */
static void test_layout_vs_libibmad(void)
{
	unsigned long long seed = 13;
	uint8_t m[IBR_MAD_SIZE], got[IBR_MAD_SIZE];

	CU_ASSERT_EQUAL(IBR_MAD_SIZE, IB_MAD_SIZE);
	CU_ASSERT_EQUAL(IBR_SMP_DATA_OFFS, IB_SMP_DATA_OFFS);
	CU_ASSERT_EQUAL(IBR_SMP_DATA_SIZE, IB_SMP_DATA_SIZE);
	CU_ASSERT_EQUAL(IBR_SA_DATA_OFFS, IB_SA_DATA_OFFS);
	CU_ASSERT_EQUAL(IBR_SA_DATA_SIZE, IB_SA_DATA_SIZE);
	ibr_test_rand_fill(m, sizeof(m), &seed);
	mad_get_array(m, 0, IB_SA_DATA_F, got);
	CU_ASSERT(memcmp(got, ibr_sa_data(m), IBR_SA_DATA_SIZE) == 0);
	/* IB_SM_DATA_F is an empty field in libibmad: use IB_GS_DATA_F (64..255) */
	mad_get_array(m, 0, IB_GS_DATA_F, got);
	CU_ASSERT(memcmp(got, ibr_smp_data(m), IBR_SMP_DATA_SIZE) == 0);
	CU_ASSERT_PTR_EQUAL(ibr_smp_data(m), m + IB_SMP_DATA_OFFS);
}

static void test_constants_vs_libibmad(void)
{
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_SUBN_LID, IB_SMI_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_SUBN_DR, IB_SMI_DIRECT_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_SUBN_ADM, IB_SA_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_PERF, IB_PERFORMANCE_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_BM, IB_BOARD_MGMT_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_DEV_MGT, IB_DEVICE_MGMT_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_CM, IB_CM_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_SNMP, IB_SNMP_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_CC, IB_CC_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_VENDOR1_MIN, IB_VENDOR_RANGE1_START_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_VENDOR1_MAX, IB_VENDOR_RANGE1_END_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_VENDOR2_MIN, IB_VENDOR_RANGE2_START_CLASS);
	CU_ASSERT_EQUAL(IBR_MGMT_CLASS_VENDOR2_MAX, IB_VENDOR_RANGE2_END_CLASS);

	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET, IB_MAD_METHOD_GET);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_SET, IB_MAD_METHOD_SET);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET_RESP, IB_MAD_METHOD_GET_RESPONSE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_SEND, IB_MAD_METHOD_SEND);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_TRAP, IB_MAD_METHOD_TRAP);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_TRAP_REPRESS, IB_MAD_METHOD_TRAP_REPRESS);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_REPORT, IB_MAD_METHOD_REPORT);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_REPORT_RESP, IB_MAD_METHOD_REPORT_RESPONSE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET_TABLE, IB_MAD_METHOD_GET_TABLE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET_TABLE_RESP, IB_MAD_METHOD_GET_TABLE_RESPONSE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET_TRACE_TABLE, IB_MAD_METHOD_GET_TRACE_TABLE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET_TRACE_TABLE_RESP,
			IB_MAD_METHOD_GET_TRACE_TABLE_RESPONSE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET_MULTI, IB_MAD_METHOD_GETMULTI);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_GET_MULTI_RESP, IB_MAD_METHOD_GETMULTI_RESPONSE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_DELETE, IB_MAD_METHOD_DELETE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_DELETE_RESP, IB_MAD_METHOD_DELETE_RESPONSE);
	CU_ASSERT_EQUAL(IBR_MAD_METHOD_RESP, IB_MAD_RESPONSE);

	CU_ASSERT_EQUAL(IBR_MAD_STATUS_OK, IB_MAD_STS_OK);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_BUSY, IB_MAD_STS_BUSY);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_REDIRECT, IB_MAD_STS_REDIRECT);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_BAD_VERSION, IB_MAD_STS_BAD_BASE_VER_OR_CLASS);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_UNSUP_METHOD, IB_MAD_STS_METHOD_NOT_SUPPORTED);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_UNSUP_METHOD_ATTR, IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_UNSUP_METHOD_ATTR, 0x000C);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_INVALID_FIELD, IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT_EQUAL(IBR_MAD_STATUS_INVALID_FIELD, 0x001C);
}

static void test_attr_ids_vs_libibmad(void)
{
	CU_ASSERT_EQUAL(IBR_ATTR_CLASS_PORT_INFO, CLASS_PORT_INFO);
	CU_ASSERT_EQUAL(IBR_ATTR_NOTICE, NOTICE);
	CU_ASSERT_EQUAL(IBR_ATTR_INFORM_INFO, INFORM_INFO);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_NODE_DESC, IB_ATTR_NODE_DESC);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_NODE_INFO, IB_ATTR_NODE_INFO);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_SWITCH_INFO, IB_ATTR_SWITCH_INFO);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_GUID_INFO, IB_ATTR_GUID_INFO);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_PORT_INFO, IB_ATTR_PORT_INFO);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_PKEY_TABLE, IB_ATTR_PKEY_TBL);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_SL2VL_TABLE, IB_ATTR_SLVL_TABLE);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_VL_ARB, IB_ATTR_VL_ARBITRATION);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_LFT, IB_ATTR_LINEARFORWTBL);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_MFT, IB_ATTR_MULTICASTFORWTBL);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_SM_INFO, IB_ATTR_SMINFO);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_PORT_INFO_EXT, IB_ATTR_PORT_INFO_EXT);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_MLNX_EXT_PORT_INFO, IB_ATTR_MLNX_EXT_PORT_INFO);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_NODE_RECORD, IB_SA_ATTR_NODERECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_PORT_INFO_RECORD, IB_SA_ATTR_PORTINFORECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_SL2VL_RECORD, IB_SA_ATTR_SL2VLTABLERECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_SWITCH_INFO_RECORD, IB_SA_ATTR_SWITCHINFORECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_LFT_RECORD, IB_SA_ATTR_LFTRECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_RFT_RECORD, IB_SA_ATTR_RFTRECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_MFT_RECORD, IB_SA_ATTR_MFTRECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_SM_INFO_RECORD, IB_SA_ATTR_SMINFORECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_LINK_RECORD, IB_SA_ATTR_LINKRECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_GUID_INFO_RECORD, IB_SA_ATTR_GUIDINFORECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_SERVICE_RECORD, IB_SA_ATTR_SERVICERECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_PKEY_TABLE_RECORD, IB_SA_ATTR_PKEYTABLERECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_PATH_RECORD, IB_SA_ATTR_PATHRECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_VL_ARB_RECORD, IB_SA_ATTR_VLARBTABLERECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_MCMEMBER_RECORD, IB_SA_ATTR_MCRECORD);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_MULTI_PATH_RECORD, IB_SA_ATTR_MULTIPATH);
	CU_ASSERT_EQUAL(IBR_SA_ATTR_INFORM_INFO_RECORD, IB_SA_ATTR_INFORMINFORECORD);

	CU_ASSERT_EQUAL(IBR_RMPP_TYPE_DATA, IB_RMPP_TYPE_DATA);
	CU_ASSERT_EQUAL(IBR_RMPP_TYPE_ACK, IB_RMPP_TYPE_ACK);
	CU_ASSERT_EQUAL(IBR_RMPP_TYPE_STOP, IB_RMPP_TYPE_STOP);
	CU_ASSERT_EQUAL(IBR_RMPP_TYPE_ABORT, IB_RMPP_TYPE_ABORT);
	CU_ASSERT_EQUAL(IBR_RMPP_FLAG_ACTIVE, IB_RMPP_FLAG_ACTIVE);
	CU_ASSERT_EQUAL(IBR_RMPP_FLAG_FIRST, IB_RMPP_FLAG_FIRST);
	CU_ASSERT_EQUAL(IBR_RMPP_FLAG_LAST, IB_RMPP_FLAG_LAST);
	/* the brief's attribute IDs */
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_ROUTER_INFO, 0xFFD0);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_NEXT_HOP_TABLE, 0xFFD1);
	CU_ASSERT_EQUAL(IBR_SMP_ATTR_ADJ_SITE_LOCAL_SUBNETS, 0xFFD2);
}

static void test_hdr_codec(void)
{
	unsigned long long seed = 17;
	uint8_t m[IBR_MAD_SIZE], out[IBR_MAD_SIZE];
	struct ibr_mad_hdr h;

	for (int n = 0; n < ROUNDS; n++) {
		ibr_test_rand_fill(m, sizeof(m), &seed);
		ibr_mad_hdr_decode(m, &h);
		CU_ASSERT_EQUAL_FATAL(h.base_version, mad_get_field(m, 0, IB_MAD_BASEVER_F));
		CU_ASSERT_EQUAL_FATAL(h.mgmt_class, mad_get_field(m, 0, IB_MAD_MGMTCLASS_F));
		CU_ASSERT_EQUAL_FATAL(h.class_version, mad_get_field(m, 0, IB_MAD_CLASSVER_F));
		CU_ASSERT_EQUAL_FATAL(h.method & 0x7F, mad_get_field(m, 0, IB_MAD_METHOD_F));
		CU_ASSERT_EQUAL_FATAL(h.status, mad_get_field(m, 0, IB_MAD_STATUS_F));
		CU_ASSERT_EQUAL_FATAL(h.tid, mad_get_field64(m, 0, IB_MAD_TRID_F));
		CU_ASSERT_EQUAL_FATAL(h.attr_id, mad_get_field(m, 0, IB_MAD_ATTRID_F));
		CU_ASSERT_EQUAL_FATAL(h.attr_mod, mad_get_field(m, 0, IB_MAD_ATTRMOD_F));
		CU_ASSERT_EQUAL_FATAL(h.resv, m[18] << 8 | m[19]);
		ibr_test_rand_fill(out, sizeof(out), &seed);
		memcpy(out + IBR_MAD_HDR_SIZE, m + IBR_MAD_HDR_SIZE,
		       IBR_MAD_SIZE - IBR_MAD_HDR_SIZE);
		ibr_mad_hdr_encode(&h, out);
		CU_ASSERT_FATAL(memcmp(out, m, sizeof(m)) == 0);
	}
}

static CU_TestInfo tests[] = {
	{ "fields vs libibmad", test_fields_vs_libibmad },
	{ "setters touch only their field", test_setters_are_local },
	{ "DR paths vs libibmad", test_dr_paths_vs_libibmad },
	{ "DR path bounds", test_dr_path_bounds },
	{ "data areas vs libibmad", test_layout_vs_libibmad },
	{ "constants vs libibmad", test_constants_vs_libibmad },
	{ "attribute IDs vs libibmad", test_attr_ids_vs_libibmad },
	{ "header encode/decode", test_hdr_codec },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_mad", tests);
}
