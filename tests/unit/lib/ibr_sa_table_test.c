/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa_table_test.c - SA tables in lib/ibr_sa.c: how many records a
 * GetTable response holds by its AttributeOffset and length, and a
 * reassembled one walked record by record.
 */
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tables ---- */

static void sa_msg(uint8_t *m, size_t len, uint16_t attr_offset)
{
	memset(m, 0, len);
	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE_RESP, IBR_SA_ATTR_NODE_RECORD, 0, 0, 1);
	ibr_sa_set_attr_offset(m, attr_offset);
}

static void test_table_count(void)
{
	static uint8_t m[4096];
	const size_t nr = IBR_SA_NODE_REC_LEN, stride = 14 * 8; /* 108 -> 112 */

	/* shorter than the SA header */
	sa_msg(m, sizeof(m), 14);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 55, nr), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 0, nr), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_table_count(NULL, 256, nr), -EMSGSIZE);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 55, 0));
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(NULL, 256, 0));
	/* header only: no records */
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56, nr), 0);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56, 0));
	/* whole records only */
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + stride - 1, nr), 0);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + stride, nr), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 3 * stride, nr), 3);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 3 * stride - 1, nr), 2);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 3 * stride + nr, nr), 3);
	CU_ASSERT(ibr_sa_table_rec(m, 56 + 3 * stride, 2) == m + 56 + 2 * stride);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56 + 3 * stride, 3));
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56 + 3 * stride - 1, 2));
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 56 + 3 * stride, UINT_MAX));
	/* a single 256-byte MAD: (256 - 56) / 112 = 1 */
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, nr), 1);
	/* AttributeOffset smaller than the record */
	sa_msg(m, sizeof(m), 13);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, nr), -EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 4 * 104, nr), -EINVAL);
	/* AttributeOffset larger than the record: it is the stride */
	sa_msg(m, sizeof(m), 16);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 2 * 128, nr), 2);
	CU_ASSERT(ibr_sa_table_rec(m, 56 + 2 * 128, 1) == m + 56 + 128);
	/* MCMemberRecords in a single MAD: 200 / 56 */
	sa_msg(m, sizeof(m), 7);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, IBR_SA_MCM_REC_LEN), 3);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, 57), -EINVAL);
	/* AttributeOffset 0: a Get response, one record in a single MAD */
	sa_msg(m, sizeof(m), 0);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, nr), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, IBR_SA_DATA_SIZE), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 256, IBR_SA_DATA_SIZE + 1), 0);
	CU_ASSERT(ibr_sa_table_rec(m, 256, 0) == m + 56);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 256, 1));
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 255, nr), -EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 257, nr), -EINVAL);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56 + 2 * stride, nr), -EINVAL);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, 300, 0));
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, 56, nr), 0);
	/* the largest AttributeOffset */
	sa_msg(m, sizeof(m), 0xFFFF);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, sizeof(m), nr), 0);
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, sizeof(m), 0));
	/* a count past INT_MAX is capped (only the header is read) */
	sa_msg(m, sizeof(m), 1);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, SIZE_MAX, 8), INT_MAX);
	CU_ASSERT_EQUAL(ibr_sa_table_count(m, SIZE_MAX, 9), -EINVAL);
}

/* A reassembled GetTable response of NodeRecords, walked and decoded. */
static void test_table_walk(void)
{
	const size_t stride = 14 * 8, n = 9, len = 56 + n * stride;
	uint8_t *m = calloc(1, len);
	struct ibr_sa_node_rec r = { .node_type = 1, .nports = 1 };
	int count;

	CU_ASSERT_FATAL(m != NULL);
	sa_msg(m, len, 14);
	for (size_t i = 0; i < n; i++) {
		r.lid = (uint16_t)(0x100 + i);
		r.port_guid = 0x1000 + i;
		snprintf(r.desc, sizeof(r.desc), "host%zu", i);
		ibr_sa_node_rec_encode(&r, m + 56 + i * stride);
	}
	count = ibr_sa_table_count(m, len, IBR_SA_NODE_REC_LEN);
	CU_ASSERT_EQUAL_FATAL(count, (int)n);
	for (int i = 0; i < count; i++) {
		const uint8_t *rec = ibr_sa_table_rec(m, len, (unsigned int)i);
		char want[16];

		CU_ASSERT_PTR_NOT_NULL_FATAL(rec);
		CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, (size_t)(m + len - rec), &r), 0);
		CU_ASSERT_EQUAL(r.lid, 0x100 + i);
		CU_ASSERT_EQUAL(r.port_guid, 0x1000ull + (unsigned int)i);
		snprintf(want, sizeof(want), "host%d", i);
		CU_ASSERT_STRING_EQUAL(r.desc, want);
	}
	CU_ASSERT_PTR_NULL(ibr_sa_table_rec(m, len, (unsigned int)count));
	free(m);
}

static CU_TestInfo tests[] = {
	{ "table count", test_table_count },
	{ "table walk", test_table_walk },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_sa_table", tests);
}
