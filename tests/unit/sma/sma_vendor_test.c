/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_vendor_test.c - the vendor router attributes (sma/sma_vendor.c): a
 * test per field of each layout table (its bytes and bits on the wire,
 * neighbours untouched), then RouterInfo, NextHopTable and
 * AdjacentSiteLocalSubnetsTable filled from fake route tables, block
 * ranges, and Set refused.
 */
#include "sma/sma_vendor.h"
#include "tests/unit/sma/sma_test.h"

/* Each field: all ones written into a zero record sets exactly these bytes/bits. */
struct vf_expect {
	const struct sma_vfield *f;
	unsigned int first_byte, last_byte;
	uint8_t first_mask, last_mask;
};

static void vf_check(const struct vf_expect *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t buf[64] = { 0 }, pat[64];
		uint64_t all = e[i].f->bits == 64 ? ~0ull : (1ull << e[i].f->bits) - 1;

		sma_vfield_set(buf, e[i].f, all);
		for (unsigned int b = 0; b < 64; b++) {
			uint8_t want = 0;

			if (b == e[i].first_byte)
				want = e[i].first_mask;
			else if (b == e[i].last_byte)
				want = e[i].last_mask;
			else if (b > e[i].first_byte && b < e[i].last_byte)
				want = 0xFF;
			if (buf[b] != want) {
				fprintf(stderr, "field %s byte %u: %#x\n", e[i].f->name, b, buf[b]);
				CU_FAIL("field position");
			}
		}
		CU_ASSERT_EQUAL(sma_vfield_get(buf, e[i].f), all);
		/* a pattern value round-trips and leaves the rest of a full record */
		memset(pat, 0xFF, sizeof(pat));
		sma_vfield_set(pat, e[i].f, 0x5A5A5A5A5A5A5A5Aull & all);
		CU_ASSERT_EQUAL(sma_vfield_get(pat, e[i].f), 0x5A5A5A5A5A5A5A5Aull & all);
		sma_vfield_set(pat, e[i].f, all);
		for (unsigned int b = 0; b < 64; b++)
			CU_ASSERT_EQUAL(pat[b], 0xFF);
	}
}

static void test_router_info_fields(void)
{
	const struct sma_vfield *f = sma_vendor_ri_fields;
	const struct vf_expect e[] = {
		{ &f[SMA_RI_CAPABILITY_MASK], 0, 3, 0xFF, 0xFF },
		{ &f[SMA_RI_NEXT_HOP_TABLE_CAP], 4, 7, 0xFF, 0xFF },
		{ &f[SMA_RI_NEXT_HOP_TABLE_TOP], 8, 11, 0xFF, 0xFF },
		{ &f[SMA_RI_TABLE_CHANGES], 12, 13, 0xFF, 0xFF },
		{ &f[SMA_RI_ADJ_TABLE_TOP], 14, 14, 0xFF, 0xFF },
		{ &f[SMA_RI_ADJ_TABLE_CAP], 15, 15, 0xFF, 0xFF },
	};

	vf_check(e, sizeof(e) / sizeof(e[0]));
}

static void test_next_hop_fields(void)
{
	const struct sma_vfield *f = sma_vendor_nh_fields;
	const struct vf_expect e[] = {
		{ &f[SMA_NH_SUBNET_PREFIX], 0, 7, 0xFF, 0xFF },
		{ &f[SMA_NH_WEIGHT], 8, 8, 0xFF, 0xFF },
		{ &f[SMA_NH_PKEY], 10, 11, 0xFF, 0xFF },
	};

	vf_check(e, sizeof(e) / sizeof(e[0]));
}

static void test_adj_fields(void)
{
	const struct sma_vfield *f = sma_vendor_adj_fields;
	const struct vf_expect e[] = {
		{ &f[SMA_ADJ_PKEY], 0, 1, 0xFF, 0xFF },
		{ &f[SMA_ADJ_SUBNET_PREFIX], 2, 3, 0xFF, 0xFF },
		{ &f[SMA_ADJ_MASTER_SM_LID], 6, 7, 0xFF, 0xFF },
	};

	vf_check(e, sizeof(e) / sizeof(e[0]));
}

/*
 * Fake route tables: port 1 shows 6 next hops and 10 adjacent subnets, port
 * 2 shows nh_port2 next hops (prefixes of its own) and none; nh_bump changes
 * the weight of port 1's third record, adj_bump the SM LID of its first.
 */
static unsigned int nh_port2 = 2;
static uint8_t nh_bump, adj_bump;

static uint32_t fake_nh(void *arg, uint8_t port, uint32_t first, struct sma_next_hop *out,
			unsigned int max, unsigned int *filled)
{
	uint32_t top = port == 1 ? 6 : nh_port2;

	(void)arg;
	*filled = 0;
	for (uint32_t i = first; i < top && *filled < max; i++, (*filled)++) {
		out[*filled].subnet_prefix =
			(port == 1 ? 0xFEC0000000000000ull : 0xFEC0000000010000ull) | (i + 1);
		out[*filled].pkey = (uint16_t)(0xFFFF - i);
		out[*filled].weight = (uint8_t)(10 + i + (port == 1 && i == 2 ? nh_bump : 0));
	}
	return top;
}

static uint32_t fake_adj(void *arg, uint8_t port, uint32_t first, struct sma_adj_subnet *out,
			 unsigned int max, unsigned int *filled)
{
	(void)arg;
	*filled = 0;
	if (port != 1)
		return 0;
	for (uint32_t i = first; i < 10 && *filled < max; i++, (*filled)++) {
		out[*filled].subnet_prefix = (uint16_t)(i + 1);
		out[*filled].pkey = 0xFFFF;
		out[*filled].master_sm_lid = (uint16_t)(100 + i + (i == 0 ? adj_bump : 0));
	}
	return 10;
}

static const struct sma_ops fake_ops = {
	.event = t_event,
	.next_hops = fake_nh,
	.adj_subnets = fake_adj,
};

/* Get `attr` block `mod` (LID routed) on arrival port `port`; the status. */
static unsigned int get_at(struct sma *s, unsigned int port, unsigned int attr, uint32_t mod,
			   uint8_t *rep)
{
	uint8_t req[IB_MAD_SIZE];

	t_smp(req, 0, IB_MAD_METHOD_GET, attr, mod, 0x1234);
	if (t_run_at(s, port, req, rep, 0, NULL) != SMA_REPLY)
		return 0xFFFF;
	return t_status(rep);
}

/* RouterInfo's table-change mask on port `port`. */
static uint64_t changes_at(struct sma *s, unsigned int port)
{
	uint8_t rep[IB_MAD_SIZE];

	CU_ASSERT_EQUAL(get_at(s, port, 0xFFD0, 0, rep), 0);
	return sma_vfield_get(t_data(rep), &sma_vendor_ri_fields[SMA_RI_TABLE_CHANGES]);
}

static void test_router_info(void)
{
	struct sma *s = t_sma_ops(2, &fake_ops);
	const struct sma_vfield *f = sma_vendor_ri_fields;
	uint8_t rep[IB_MAD_SIZE], zero[IB_SMP_DATA_SIZE] = { 0 };

	CU_ASSERT_EQUAL(t_get(s, 0xFFD0, 0, rep), 0);
	CU_ASSERT(t_is_getresp(rep, 0xFFD0, 0, 0x1234));
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_RI_NEXT_HOP_TABLE_CAP]), 1024);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_RI_NEXT_HOP_TABLE_TOP]), 6);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_RI_ADJ_TABLE_CAP]), 64);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_RI_ADJ_TABLE_TOP]), 10);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_RI_CAPABILITY_MASK]), 0);
	for (unsigned int b = 16; b < 64; b++)
		CU_ASSERT_EQUAL(t_data(rep)[b], 0);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_RI_TABLE_CHANGES]), 0);
	CU_ASSERT_EQUAL(t_get(s, 0xFFD0, 1, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT_EQUAL(t_set(s, 0xFFD0, 0, zero, rep), IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
	sma_free(s);
	/* no callbacks: empty tables */
	s = t_sma(1);
	CU_ASSERT_EQUAL(t_get(s, 0xFFD0, 0, rep), 0);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_RI_NEXT_HOP_TABLE_TOP]), 0);
	CU_ASSERT_EQUAL(t_get(s, 0xFFD1, 0, rep), 0);
	CU_ASSERT_EQUAL(t_get(s, 0xFFD2, 0, rep), 0);
	sma_free(s);
}

static void test_next_hop_table(void)
{
	struct sma *s = t_sma_ops(1, &fake_ops);
	const struct sma_vfield *f = sma_vendor_nh_fields;
	uint8_t rep[IB_MAD_SIZE], zero[IB_SMP_DATA_SIZE] = { 0 };

	for (unsigned int b = 0; b < 2; b++) {
		CU_ASSERT_EQUAL(t_get(s, 0xFFD1, b, rep), 0);
		for (unsigned int i = 0; i < 4; i++) {
			uint8_t *rec = t_data(rep) + 16 * i;
			unsigned int n = b * 4 + i;

			if (n >= 6) {
				CU_ASSERT_EQUAL(sma_vfield_get(rec, &f[SMA_NH_SUBNET_PREFIX]), 0);
				continue;
			}
			CU_ASSERT_EQUAL(sma_vfield_get(rec, &f[SMA_NH_SUBNET_PREFIX]),
					0xFEC0000000000000ull | (n + 1));
			CU_ASSERT_EQUAL(sma_vfield_get(rec, &f[SMA_NH_PKEY]), 0xFFFF - n);
			CU_ASSERT_EQUAL(sma_vfield_get(rec, &f[SMA_NH_WEIGHT]), 10 + n);
		}
	}
	CU_ASSERT_EQUAL(t_get(s, 0xFFD1, 255, rep), 0); /* inside the cap: empty */
	CU_ASSERT_EQUAL(t_get(s, 0xFFD1, 256, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT_EQUAL(t_set(s, 0xFFD1, 0, zero, rep), IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
	sma_free(s);
}

static void test_adj_table(void)
{
	struct sma *s = t_sma_ops(1, &fake_ops);
	const struct sma_vfield *f = sma_vendor_adj_fields;
	uint8_t rep[IB_MAD_SIZE], zero[IB_SMP_DATA_SIZE] = { 0 };

	for (unsigned int b = 0; b < 2; b++) {
		CU_ASSERT_EQUAL(t_get(s, 0xFFD2, b, rep), 0);
		for (unsigned int i = 0; i < 8; i++) {
			uint8_t *rec = t_data(rep) + 8 * i;
			unsigned int n = b * 8 + i;

			CU_ASSERT_EQUAL(sma_vfield_get(rec, &f[SMA_ADJ_SUBNET_PREFIX]),
					n < 10 ? n + 1 : 0);
			CU_ASSERT_EQUAL(sma_vfield_get(rec, &f[SMA_ADJ_PKEY]), n < 10 ? 0xFFFF : 0);
			CU_ASSERT_EQUAL(sma_vfield_get(rec, &f[SMA_ADJ_MASTER_SM_LID]),
					n < 10 ? 100 + n : 0);
		}
	}
	CU_ASSERT_EQUAL(t_get(s, 0xFFD2, 8, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT_EQUAL(t_set(s, 0xFFD2, 0, zero, rep), IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
	sma_free(s);
}

/* Each port has tables of its own: its tops, its records. */
static void test_per_port(void)
{
	struct sma *s = t_sma_ops(2, &fake_ops);
	const struct sma_vfield *ri = sma_vendor_ri_fields, *f = sma_vendor_nh_fields;
	uint8_t rep[IB_MAD_SIZE];

	nh_port2 = 2;
	CU_ASSERT_EQUAL(get_at(s, 2, 0xFFD0, 0, rep), 0);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &ri[SMA_RI_NEXT_HOP_TABLE_TOP]), 2);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &ri[SMA_RI_ADJ_TABLE_TOP]), 0);
	CU_ASSERT_EQUAL(get_at(s, 1, 0xFFD0, 0, rep), 0);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &ri[SMA_RI_NEXT_HOP_TABLE_TOP]), 6);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &ri[SMA_RI_ADJ_TABLE_TOP]), 10);
	CU_ASSERT_EQUAL(get_at(s, 2, 0xFFD1, 0, rep), 0);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep), &f[SMA_NH_SUBNET_PREFIX]),
			0xFEC0000000010001ull);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep) + 16, &f[SMA_NH_SUBNET_PREFIX]),
			0xFEC0000000010002ull);
	CU_ASSERT_EQUAL(sma_vfield_get(t_data(rep) + 32, &f[SMA_NH_SUBNET_PREFIX]), 0);
	CU_ASSERT_EQUAL(get_at(s, 2, 0xFFD2, 0, rep), 0);
	for (unsigned int b = 0; b < 64; b++)
		CU_ASSERT_EQUAL(t_data(rep)[b], 0);
	sma_free(s);
}

/*
 * RouterInfo's table-change mask: a table that changed between two
 * refreshes sets its bit on its port only; a Get of that table clears it.
 */
static void test_table_changes(void)
{
	struct sma *s = t_sma_ops(2, &fake_ops);
	uint8_t rep[IB_MAD_SIZE];

	nh_port2 = 2;
	nh_bump = adj_bump = 0;
	sma_tables_refresh(s); /* the first look: nothing changed yet */
	CU_ASSERT_EQUAL(changes_at(s, 1), 0);
	CU_ASSERT_EQUAL(changes_at(s, 2), 0);
	sma_tables_refresh(s); /* the same tables */
	CU_ASSERT_EQUAL(changes_at(s, 1), 0);
	nh_bump = 1; /* a weight in port 1's table */
	sma_tables_refresh(s);
	CU_ASSERT_EQUAL(changes_at(s, 1), SMA_RI_CHANGE_NH);
	CU_ASSERT_EQUAL(changes_at(s, 2), 0);
	CU_ASSERT_EQUAL(changes_at(s, 1), SMA_RI_CHANGE_NH); /* RouterInfo does not clear it */
	adj_bump = 1;
	nh_port2 = 3; /* a record more on port 2 */
	sma_tables_refresh(s);
	CU_ASSERT_EQUAL(changes_at(s, 1), SMA_RI_CHANGE_NH | SMA_RI_CHANGE_ADJ);
	CU_ASSERT_EQUAL(changes_at(s, 2), SMA_RI_CHANGE_NH);
	CU_ASSERT_EQUAL(get_at(s, 1, 0xFFD1, 1, rep), 0); /* any block of the table */
	CU_ASSERT_EQUAL(changes_at(s, 1), SMA_RI_CHANGE_ADJ);
	CU_ASSERT_EQUAL(changes_at(s, 2), SMA_RI_CHANGE_NH);
	CU_ASSERT_EQUAL(get_at(s, 1, 0xFFD2, 0, rep), 0);
	CU_ASSERT_EQUAL(changes_at(s, 1), 0);
	CU_ASSERT_EQUAL(get_at(s, 2, 0xFFD1, 0, rep), 0);
	CU_ASSERT_EQUAL(changes_at(s, 2), 0);
	sma_tables_refresh(s); /* unchanged since: stays clear */
	CU_ASSERT_EQUAL(changes_at(s, 1), 0);
	CU_ASSERT_EQUAL(changes_at(s, 2), 0);
	nh_bump = adj_bump = 0;
	nh_port2 = 2;
	sma_free(s);
}

static CU_TestInfo tests[] = {
	{ "RouterInfo field table", test_router_info_fields },
	{ "NextHopRecord field table", test_next_hop_fields },
	{ "AdjSiteLocalSubnetRecord field table", test_adj_fields },
	{ "RouterInfo", test_router_info },
	{ "NextHopTable", test_next_hop_table },
	{ "AdjacentSiteLocalSubnetsTable", test_adj_table },
	{ "each port's tables", test_per_port },
	{ "RouterInfo's table-change mask", test_table_changes },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_vendor", tests);
}
