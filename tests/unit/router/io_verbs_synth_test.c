/* Tests for router/io_verbs_synth.c: the packet the engine sees for a UD receive. */
#include "lib/ibr_pkt.h"
#include "router/io_verbs_synth.h"
#include "tests/unit/ibr_test.h"

#include <string.h>

static struct io_verbs_pool pool;

/* A receive as the HCA leaves it: GRH (PayLen of a SEND_ONLY) and payload. */
static struct io_verbs_buf *recv_into(uint32_t pay, bool imm)
{
	struct io_verbs_buf *b = &pool.buf[0];
	struct ibr_grh *g = (struct ibr_grh *)(b->base + IO_VERBS_GRH_OFF);
	uint32_t pad = (4 - (pay & 3)) & 3;

	memset(b->base, 0xEE, IO_VERBS_BUFSZ); /* garbage around: all must be written */
	memset(g, 0, IBR_GRH_LEN);
	ibr_grh_set_ipver(g, IBR_GRH_IPVER);
	ibr_grh_set_nxthdr(g, IBR_GRH_NXTHDR_IBA);
	ibr_grh_set_hoplmt(g, 9);
	ibr_grh_set_paylen(g, (uint16_t)(IBR_BTH_LEN + IBR_DETH_LEN + (imm ? 4 : 0) + pay + pad +
					 IBR_ICRC_LEN));
	memset(b->base + IO_VERBS_PAY_OFF, 0x77, pay);
	return b;
}

static void synth_check(uint32_t pay, bool imm, bool crc)
{
	struct io_verbs_buf *b = recv_into(pay, imm);
	struct io_verbs_rx_info ri = { .byte_len = IBR_GRH_LEN + pay,
				       .dest_qp = 0x123,
				       .src_qp = 0x456,
				       .qkey = 0x0B1B,
				       .imm = 0x11223344,
				       .slid = 7,
				       .dlid = 9,
				       .pkey = 0x8001,
				       .sl = 5,
				       .has_imm = imm,
				       .crc_fill = crc };
	struct ibr_pkt p;

	CU_ASSERT_TRUE_FATAL(io_verbs_synth(b, &ri));
	CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(b->m.data, b->m.len, &p), IBR_PKT_ERR_OK);
	CU_ASSERT_EQUAL(p.payload_len, pay);
	CU_ASSERT_EQUAL(p.payload, b->base + IO_VERBS_PAY_OFF); /* no copy */
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(p.lrh), 5);
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(p.lrh), 7);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(p.lrh), 9);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(p.lrh), 0);
	CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(p.grh), 9);
	CU_ASSERT_EQUAL(ibr_bth_get_pkey(p.bth), 0x8001);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(p.bth), 0x123);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(p.deth), 0x456);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(p.deth), 0x0B1B);
	CU_ASSERT_EQUAL(b->paylen, pay);
	if (imm) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(p.immdt);
		CU_ASSERT_EQUAL(ibr_be32_get(p.immdt), 0x44332211); /* network order kept */
	}
	if (crc) {
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
	} else {
		CU_ASSERT_EQUAL(b->m.data[b->m.len - 1] | b->m.data[b->m.len - 2], 0);
	}
}

static void test_lengths(void)
{
	static const uint32_t pays[] = { 0, 1, 2, 3, 4, 255, 256, 4095, 4096 };

	for (unsigned i = 0; i < sizeof(pays) / sizeof(pays[0]); i++) {
		synth_check(pays[i], false, false);
		synth_check(pays[i], true, false);
		synth_check(pays[i], false, true);
		synth_check(pays[i], true, true);
	}
}

/* Lengths the layout cannot hold are refused, the buffer untouched. */
static void test_bad_lengths(void)
{
	static const uint32_t lens[] = { 0, 1, 39, IBR_GRH_LEN + IO_VERBS_MTU + 1, UINT32_MAX };
	struct io_verbs_buf *b = recv_into(0, false);

	b->m.data = NULL;
	for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct io_verbs_rx_info ri = { .byte_len = lens[i] };

		CU_ASSERT_FALSE(io_verbs_synth(b, &ri));
	}
	CU_ASSERT_PTR_NULL(b->m.data);
}

static int setup(void)
{
	return io_verbs_pool_init(&pool, 1, 0);
}

static int teardown(void)
{
	io_verbs_pool_fini(&pool);
	return 0;
}

static CU_TestInfo tests[] = {
	{ "lengths, pad, ImmDt, CRCs", test_lengths },
	{ "lengths refused", test_bad_lengths },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_synth", tests, setup, teardown);
}
