/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_mad_test.c - MAD, SMP, RMPP and SA header codecs (lib/ibr_mad.c),
 * every accessor cross-checked against libibmad's field tables.  libibmad's
 * mad_get_field()/mad_set_field() take no length: they are only ever called
 * on IBR_MAD_SIZE-byte buffers here.
 */
#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 2000

static void fill_random(uint8_t *m, size_t len, unsigned long long *seed)
{
	for (size_t i = 0; i < len; i++)
		m[i] = (uint8_t)(ibr_test_rand(seed) >> 24);
}

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
		fill_random(m, sizeof(m), seed);
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
			fill_random(m, sizeof(m), &seed);
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
		fill_random(m, sizeof(m), &seed);
		mad_get_array(m, 0, IB_DRSMP_PATH_F, ipath);
		mad_get_array(m, 0, IB_DRSMP_RPATH_F, rpath);
		for (unsigned int i = 0; i < IBR_SMP_PATH_SIZE; i++) {
			CU_ASSERT_EQUAL_FATAL(ibr_smp_dr_initial_path(m, i, &p), 0);
			CU_ASSERT_EQUAL_FATAL(p, ipath[i]);
			CU_ASSERT_EQUAL_FATAL(ibr_smp_dr_return_path(m, i, &p), 0);
			CU_ASSERT_EQUAL_FATAL(p, rpath[i]);
		}
		/* set with ours, read with theirs */
		fill_random(ipath, sizeof(ipath), &seed);
		fill_random(rpath, sizeof(rpath), &seed);
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
	fill_random(m, sizeof(m), &seed);
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
		fill_random(m, sizeof(m), &seed);
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
		fill_random(out, sizeof(out), &seed);
		memcpy(out + IBR_MAD_HDR_SIZE, m + IBR_MAD_HDR_SIZE,
		       IBR_MAD_SIZE - IBR_MAD_HDR_SIZE);
		ibr_mad_hdr_encode(&h, out);
		CU_ASSERT_FATAL(memcmp(out, m, sizeof(m)) == 0);
	}
}

/* ---- parse ---- */

/* Parse a heap copy of exactly len bytes, so that ASan sees any overread. */
static enum ibr_mad_err parse_exact(const uint8_t *m, size_t len, struct ibr_mad_hdr *h)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum ibr_mad_err err;

	memcpy(copy, m, len);
	err = ibr_mad_parse(copy, len, h);
	free(copy);
	return err;
}

static void mad_init(uint8_t *m, uint8_t base, uint8_t cls, uint8_t ver)
{
	memset(m, 0, IBR_MAD_SIZE + 1024);
	m[0] = base;
	m[1] = cls;
	m[2] = ver;
	m[3] = IBR_MAD_METHOD_GET;
}

static const struct {
	uint8_t base, cls, ver, rmpp_flags;
	size_t len;
	enum ibr_mad_err err;
} parse_cases[] = {
	{ 1, 0x01, 1, 0, 0, IBR_MAD_ERR_SHORT },
	{ 1, 0x01, 1, 0, 23, IBR_MAD_ERR_SHORT },
	{ 1, 0x81, 1, 0, 24, IBR_MAD_ERR_LENGTH },
	{ 1, 0x81, 1, 0, 255, IBR_MAD_ERR_LENGTH },
	{ 1, 0x81, 1, 0, 257, IBR_MAD_ERR_LENGTH },
	{ 1, 0x01, 1, 0, 128, IBR_MAD_ERR_LENGTH },
	{ 1, 0x01, 1, 1, 1024, IBR_MAD_ERR_LENGTH }, /* RMPP flag means nothing in an SMP */
	{ 1, 0x04, 1, 0, 255, IBR_MAD_ERR_LENGTH },
	{ 1, 0x04, 1, 1, 257, IBR_MAD_ERR_LENGTH },
	{ 1, 0x03, 2, 0, 255, IBR_MAD_ERR_LENGTH },
	{ 1, 0x03, 2, 0, 257, IBR_MAD_ERR_LENGTH },
	{ 1, 0x03, 2, 6, 300, IBR_MAD_ERR_LENGTH }, /* First|Last without Active */
	{ 1, 0x03, 2, 1, 55, IBR_MAD_ERR_LENGTH },
	{ 1, 0x30, 1, 1, 35, IBR_MAD_ERR_LENGTH },
	{ 2, 0x01, 1, 0, 256, IBR_MAD_ERR_BASE_VERSION },
	{ 0, 0x01, 1, 0, 256, IBR_MAD_ERR_BASE_VERSION },
	{ 0x80, 0x81, 1, 0, 256, IBR_MAD_ERR_BASE_VERSION }, /* OPA */
	{ 2, 0x81, 1, 0, 100, IBR_MAD_ERR_BASE_VERSION },    /* checked before length */
	{ 1, 0x00, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x02, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x50, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x80, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x82, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0xFF, 1, 0, 256, IBR_MAD_ERR_CLASS },
	{ 1, 0x01, 2, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x81, 0, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x81, 2, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x03, 1, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x03, 3, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x04, 2, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x07, 1, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x21, 1, 0, 256, IBR_MAD_ERR_CLASS_VERSION },
	{ 1, 0x81, 2, 0, 10, IBR_MAD_ERR_SHORT },
	{ 1, 0x01, 1, 0, 256, IBR_MAD_OK },
	{ 1, 0x81, 1, 0, 256, IBR_MAD_OK },
	{ 1, 0x03, 2, 0, 256, IBR_MAD_OK },
	{ 1, 0x03, 2, 1, 56, IBR_MAD_OK },   /* reassembled RMPP, no records */
	{ 1, 0x03, 2, 7, 1024, IBR_MAD_OK }, /* reassembled RMPP */
	{ 1, 0x03, 2, 1, 256, IBR_MAD_OK },
	{ 1, 0x04, 1, 0, 256, IBR_MAD_OK },
	{ 1, 0x07, 2, 0, 256, IBR_MAD_OK },
	{ 1, 0x21, 2, 0, 256, IBR_MAD_OK },
	{ 1, 0x09, 0, 0, 256, IBR_MAD_OK }, /* vendor: any class version */
	{ 1, 0x0F, 77, 0, 256, IBR_MAD_OK },
	{ 1, 0x10, 3, 0, 256, IBR_MAD_OK },
	{ 1, 0x30, 1, 1, 36, IBR_MAD_OK },
	{ 1, 0x4F, 9, 1, 700, IBR_MAD_OK },
};

static void test_parse_errors(void)
{
	uint8_t m[IBR_MAD_SIZE + 1024];
	struct ibr_mad_hdr h;

	for (size_t i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		mad_init(m, parse_cases[i].base, parse_cases[i].cls, parse_cases[i].ver);
		m[26] = parse_cases[i].rmpp_flags;
		ibr_mad_set_tid(m, 0x1122334455667788ull);
		memset(&h, 0xAA, sizeof(h));
		enum ibr_mad_err err = parse_exact(m, parse_cases[i].len, &h);
		if (err != parse_cases[i].err)
			fprintf(stderr, "case %zu: %s, want %s\n", i, ibr_mad_err_name(err),
				ibr_mad_err_name(parse_cases[i].err));
		CU_ASSERT_EQUAL(err, parse_cases[i].err);
		if (parse_cases[i].err == IBR_MAD_ERR_SHORT) {
			CU_ASSERT_EQUAL(h.mgmt_class, 0xAA); /* untouched */
			continue;
		}
		/* the header is decoded even when the MAD is refused */
		CU_ASSERT_EQUAL(h.base_version, parse_cases[i].base);
		CU_ASSERT_EQUAL(h.mgmt_class, parse_cases[i].cls);
		CU_ASSERT_EQUAL(h.class_version, parse_cases[i].ver);
		CU_ASSERT_EQUAL(h.tid, 0x1122334455667788ull);
	}
	CU_ASSERT_EQUAL(ibr_mad_parse(NULL, 256, &h), IBR_MAD_ERR_SHORT);
	CU_ASSERT_STRING_EQUAL(ibr_mad_err_name(IBR_MAD_OK), "ok");
	for (int e = IBR_MAD_OK; e <= IBR_MAD_ERR_CLASS_VERSION; e++)
		CU_ASSERT_STRING_NOT_EQUAL(ibr_mad_err_name((enum ibr_mad_err)e), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_err_name((enum ibr_mad_err)99), "unknown");
}

/* Random headers and lengths: the verdict follows the documented rules. */
static void test_parse_random(void)
{
	unsigned long long seed = 23;
	uint8_t m[2048];
	struct ibr_mad_hdr h;

	for (int n = 0; n < 100000; n++) {
		size_t len = ibr_test_rand(&seed) % 600;
		fill_random(m, 64, &seed);
		m[0] = ibr_test_rand(&seed) % 4 ? 1 : m[0];
		if (ibr_test_rand(&seed) % 2)
			m[2] = (uint8_t)ibr_mad_class_default_version(m[1]);
		if (ibr_test_rand(&seed) % 4 == 0)
			len = IBR_MAD_SIZE;
		enum ibr_mad_err err = parse_exact(m, len, &h);
		enum ibr_mad_err want;
		unsigned int ver = ibr_mad_class_default_version(m[1]);
		bool rmpp_ok = ibr_mad_class_has_rmpp(m[1]) && (m[26] & 1) &&
			       len >= (m[1] == 3 ? 56u : 36u);

		if (len < 24)
			want = IBR_MAD_ERR_SHORT;
		else if (m[0] != 1)
			want = IBR_MAD_ERR_BASE_VERSION;
		else if (!ibr_mad_class_is_known(m[1]))
			want = IBR_MAD_ERR_CLASS;
		else if (ver && m[2] != ver)
			want = IBR_MAD_ERR_CLASS_VERSION;
		else if (len != IBR_MAD_SIZE && !rmpp_ok)
			want = IBR_MAD_ERR_LENGTH;
		else
			want = IBR_MAD_OK;
		CU_ASSERT_EQUAL_FATAL(err, want);
	}
}

static void test_classes(void)
{
	int known = 0;

	for (unsigned int c = 0; c < 256; c++) {
		const char *name = ibr_mad_class_name((uint8_t)c);

		CU_ASSERT_PTR_NOT_NULL_FATAL(name);
		if (ibr_mad_class_is_known((uint8_t)c))
			known++;
		else
			CU_ASSERT_STRING_EQUAL(name, "reserved");
		CU_ASSERT_EQUAL(ibr_mad_class_has_rmpp((uint8_t)c),
				c == 0x03 || (c >= 0x30 && c <= 0x4F));
	}
	CU_ASSERT_EQUAL(known, 1 + 6 + 7 + 32 + 32 + 1);
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x01), "SubnMgmt");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x81), "SubnMgmtDR");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x03), "SubnAdm");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x04), "PerfMgt");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x21), "CongestionMgt");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x0A), "Vendor");
	CU_ASSERT_STRING_EQUAL(ibr_mad_class_name(0x31), "VendorOUI");
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x01), 1);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x81), 1);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x03), 2);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x07), 2);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x0A), 0);
	CU_ASSERT_EQUAL(ibr_mad_class_default_version(0x02), 0);
}

static void test_methods(void)
{
	static const struct {
		uint8_t req, resp;
		const char *name;
	} t[] = {
		{ 0x01, 0x81, "Get" },	     { 0x02, 0x81, "Set" },
		{ 0x05, 0x07, "Trap" },	     { 0x06, 0x86, "Report" },
		{ 0x12, 0x92, "GetTable" },  { 0x13, 0x93, "GetTraceTable" },
		{ 0x14, 0x94, "GetMulti" },  { 0x15, 0x95, "Delete" },
		{ 0x03, 0, "Send" },	     { 0x07, 0, "TrapRepress" },
		{ 0x81, 0, "GetResp" },	     { 0x86, 0, "ReportResp" },
		{ 0x92, 0, "GetTableResp" }, { 0x93, 0, "GetTraceTableResp" },
		{ 0x94, 0, "GetMultiResp" }, { 0x95, 0, "DeleteResp" },
	};
	int named = 0;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CU_ASSERT_EQUAL(ibr_mad_response_method(t[i].req), t[i].resp);
		CU_ASSERT_STRING_EQUAL(ibr_mad_method_name(t[i].req), t[i].name);
	}
	for (unsigned int m = 0; m < 256; m++) {
		const char *n = ibr_mad_method_name((uint8_t)m);

		CU_ASSERT_PTR_NOT_NULL_FATAL(n);
		named += strcmp(n, "unknown") != 0;
		uint8_t r = ibr_mad_response_method((uint8_t)m);
		if (r) {
			/* TrapRepress (0x07) is the one response without the R bit */
			CU_ASSERT((r & IBR_MAD_METHOD_RESP) || m == IBR_MAD_METHOD_TRAP);
			CU_ASSERT_STRING_NOT_EQUAL(ibr_mad_method_name(r), "unknown");
		}
	}
	CU_ASSERT_EQUAL(named, 16);
	uint8_t mad[IBR_MAD_SIZE] = { 0 };
	ibr_mad_set_method(mad, 0x81);
	CU_ASSERT(ibr_mad_is_response(mad));
	ibr_mad_set_method(mad, 0x01);
	CU_ASSERT_FALSE(ibr_mad_is_response(mad));
}

static void test_attr_names(void)
{
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0x0011), "NodeInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0011), "NodeInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0011), "NodeRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0010), "NodeDescription");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0012), "SwitchInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0014), "GUIDInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0015), "PortInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0016), "P_KeyTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0017), "SLtoVLMappingTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0018), "VLArbitrationTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x0020), "SMInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0xFFD0), "RouterInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0xFFD1), "NextHopTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0xFFD2), "AdjacentSiteLocalSubnetsTable");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0002), "Notice");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x01, 0x0002), "Notice");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0003), "InformInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x04, 0x0001), "ClassPortInfo");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0012), "PortInfoRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0030), "GUIDInfoRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0035), "PathRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x0038), "MCMemberRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0x00F3), "InformInfoRecord");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x03, 0xFFD0), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x04, 0x0011), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_attr_name(0x81, 0x1234), "unknown");
	for (unsigned int c = 0; c < 256; c += 0x11)
		for (uint32_t a = 0; a <= 0xFFFF; a += 0x7)
			CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_mad_attr_name((uint8_t)c, (uint16_t)a));
}

static void test_status_names(void)
{
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0000), "OK");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0001), "Busy");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0002), "Redirect");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0004), "BadVersion");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0008), "UnsupportedMethod");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x000C), "UnsupportedMethodAttribute");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x001C), "InvalidField");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x0010), "ReservedCode");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x81, 0x8000), "OK"); /* D bit only */
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x81, 0x801C), "InvalidField");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x01, 0x8000), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0300), "SA_NoRecords");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0200), "SA_RequestInvalid");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0100), "SA_NoResources");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0400), "SA_TooManyRecords");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0500), "SA_InvalidGID");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0600), "SA_InsufficientComponents");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0700), "SA_RequestDenied");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0800), "SA_PrioritySuggested");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x0900), "SA_unknown");
	CU_ASSERT_STRING_EQUAL(ibr_mad_status_name(0x03, 0x001C), "InvalidField");
	for (uint32_t s = 0; s <= 0xFFFF; s++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_mad_status_name((uint8_t)(s & 0x83), (uint16_t)s));
}

/* ---- builders ---- */

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
	fill_random(req, sizeof(req), &seed);
	ibr_mad_build_get(req, 0x01, IBR_SMP_ATTR_PORT_INFO, 1, 0x42);
	fill_random(req + 24, 232, &seed);
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
	fill_random(req, sizeof(req), &seed);
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
	{ "fields vs libibmad", test_fields_vs_libibmad },
	{ "setters touch only their field", test_setters_are_local },
	{ "DR paths vs libibmad", test_dr_paths_vs_libibmad },
	{ "DR path bounds", test_dr_path_bounds },
	{ "data areas vs libibmad", test_layout_vs_libibmad },
	{ "constants vs libibmad", test_constants_vs_libibmad },
	{ "attribute IDs vs libibmad", test_attr_ids_vs_libibmad },
	{ "header encode/decode", test_hdr_codec },
	{ "parse errors", test_parse_errors },
	{ "parse random", test_parse_random },
	{ "classes", test_classes },
	{ "methods", test_methods },
	{ "attribute names", test_attr_names },
	{ "status names", test_status_names },
	{ "build requests", test_build_requests },
	{ "build DR SMP", test_build_dr_smp },
	{ "build responses (SMP)", test_build_response },
	{ "build responses (GMP, short)", test_build_response_gmp },
	{ "umad2sim truncation", test_umad2sim_truncated },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_mad", tests);
}
