/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_tables_test.c - PKeyTable, SLtoVLMappingTable, VLArbitrationTable and
 * GUIDInfo (sma/sma_tables.c): Get/Set round trips entry by entry, block
 * ranges (0x001C past the cap), read-only GUID 0, and the events.
 */
#include "tests/unit/sma/sma_test.h"

static void test_pkey_default(void)
{
	struct sma *s = t_sma(1);
	uint8_t rep[IB_MAD_SIZE];

	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PKEY_TBL, 0, rep), 0);
	CU_ASSERT_EQUAL(ntohs(((uint16_t *)t_data(rep))[0]), 0xFFFF);
	for (int i = 1; i < 32; i++)
		CU_ASSERT_EQUAL(ntohs(((uint16_t *)t_data(rep))[i]), 0);
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PKEY_TBL, 1, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT(t_is_getresp(rep, IB_ATTR_PKEY_TBL, 1, 0x1234));
	sma_free(s);
}

/* PartitionCap 40: blocks 0 and 1 (8 entries in block 1); Set every entry. */
static void test_pkey_round_trip(void)
{
	struct sma_node_cfg c;
	struct sma_ops o = { .event = t_event };
	struct sma *s;
	uint8_t data[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];
	struct sma_port_view v;
	struct sma_event ev;

	t_cfg(&c, 1);
	c.ports[0].partition_cap = 40;
	t_nev = 0;
	s = sma_new(&c, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	for (unsigned int b = 0; b < 2; b++) {
		for (unsigned int i = 0; i < 32; i++)
			((uint16_t *)data)[i] = htons((uint16_t)(0x8000 | (b * 32 + i + 1)));
		CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PKEY_TBL, b, data, rep), 0);
		CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PKEY_TBL, b, rep), 0);
		for (unsigned int i = 0; i < 32; i++) {
			uint16_t want = b * 32 + i < 40 ? (uint16_t)(0x8000 | (b * 32 + i + 1)) : 0;

			CU_ASSERT_EQUAL(ntohs(((uint16_t *)t_data(rep))[i]), want);
		}
	}
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PKEY_TBL, 2, rep), IB_MAD_STS_INV_ATTR_VALUE);
	/* switch-only port bits of the AttributeModifier are ignored */
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PKEY_TBL, 0x00050000, rep), 0);
	CU_ASSERT(t_ev_count(SMA_EV_PKEYS, &ev) == 2 && ev.npkeys == 40);
	CU_ASSERT_EQUAL(sma_port_get(s, 1, &v), 0);
	CU_ASSERT(v.npkeys == 40 && v.pkeys[0] == 0x8001 && v.pkeys[39] == 0x8028);
	/* the same Set again: no event */
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PKEY_TBL, 1, data, rep), 0);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_PKEYS, NULL), 2);
	sma_free(s);
}

static void test_sl2vl(void)
{
	struct sma *s = t_sma(1);
	uint8_t data[IB_SMP_DATA_SIZE] = { 0 }, rep[IB_MAD_SIZE];
	struct sma_port_view v;

	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_SLVL_TABLE, 0, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_SLTOVL_MAPPING_TABLE_F), 0);
	mad_set_field64(data, 0, IB_SLTOVL_MAPPING_TABLE_F, 0x0123456789ABCDEFull);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_SLVL_TABLE, 0, data, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_SLTOVL_MAPPING_TABLE_F),
			0x0123456789ABCDEFull);
	CU_ASSERT_EQUAL(t_data(rep)[0], 0x01); /* SL0 in the high nibble of byte 0 */
	sma_port_get(s, 1, &v);
	for (unsigned int sl = 0; sl < 16; sl++)
		CU_ASSERT_EQUAL(v.sl2vl[sl], sl);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_SL2VL, NULL), 1);
	sma_free(s);
}

static void test_vlarb(void)
{
	struct sma *s = t_sma(1);
	uint8_t data[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	for (unsigned int b = 1; b <= 4; b++) {
		for (unsigned int i = 0; i < 32; i++) {
			data[2 * i] = (uint8_t)(0xF0 | ((i + b) & 0xF)); /* reserved bits set */
			data[2 * i + 1] = (uint8_t)(b * 40 + i);
		}
		CU_ASSERT_EQUAL(t_set(s, IB_ATTR_VL_ARBITRATION, b << 16, data, rep), 0);
	}
	for (unsigned int b = 1; b <= 4; b++) {
		CU_ASSERT_EQUAL(t_get(s, IB_ATTR_VL_ARBITRATION, b << 16, rep), 0);
		for (unsigned int i = 0; i < 32; i++) {
			CU_ASSERT_EQUAL(t_data(rep)[2 * i], (i + b) & 0xF);
			CU_ASSERT_EQUAL(t_data(rep)[2 * i + 1], (uint8_t)(b * 40 + i));
		}
	}
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_VL_ARBITRATION, 0, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_VL_ARBITRATION, 5 << 16, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_VLARB, NULL), 4);
	sma_free(s);
}

/* GUIDCap 16: two blocks; GUID 0 stays the port GUID. */
static void test_guid_info(void)
{
	struct sma_node_cfg c;
	struct sma_ops o = { .event = t_event };
	struct sma *s;
	uint8_t data[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];
	struct sma_port_view v;
	struct sma_event ev;

	t_cfg(&c, 1);
	c.ports[0].guid_cap = 16;
	t_nev = 0;
	s = sma_new(&c, &o);
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_GUID_INFO, 0, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_GUID_GUID0_F), T_PORT_GUID(1));
	for (unsigned int b = 0; b < 2; b++) {
		for (unsigned int i = 0; i < 8; i++)
			mad_set_field64(data, (int)(8 * i), IB_GUID_GUID0_F, 0xA000 + b * 8 + i);
		CU_ASSERT_EQUAL(t_set(s, IB_ATTR_GUID_INFO, b, data, rep), 0);
		for (unsigned int i = 0; i < 8; i++) {
			uint64_t want = b == 0 && i == 0 ? T_PORT_GUID(1) : 0xA000 + b * 8 + i;

			CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), (int)(8 * i), IB_GUID_GUID0_F),
					want);
		}
	}
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_GUID_INFO, 2, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT(t_ev_count(SMA_EV_ALIAS_GUIDS, &ev) == 2 && ev.nguids == 16);
	sma_port_get(s, 1, &v);
	CU_ASSERT(v.nguids == 16 && v.guids[0] == T_PORT_GUID(1) && v.guids[15] == 0xA00F);
	sma_free(s);
}

static CU_TestInfo tests[] = {
	{ "PKeyTable default", test_pkey_default },
	{ "PKeyTable round trip", test_pkey_round_trip },
	{ "SLtoVLMappingTable", test_sl2vl },
	{ "VLArbitrationTable", test_vlarb },
	{ "GUIDInfo", test_guid_info },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_tables", tests);
}
