/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_pkt_build_test.c - the UD builder of lib/ibr_pkt.c: random packets
 * parsed back, the parameters it refuses, every buffer too short, the
 * payload already in the buffer (a group of ibr_pkt_test.h).
 */
#include "tests/unit/lib/ibr_pkt_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- builder ---- */

static void random_params(struct ibr_pkt_ud_params *up, uint8_t *payload, size_t max)
{
	memset(up, 0, sizeof(*up));
	up->slid = (uint16_t)rnd();
	up->dlid = (uint16_t)rnd();
	up->sl = rnd() & 15;
	up->vl = rnd() & 15;
	up->grh = rnd() & 1;
	for (int i = 0; i < 16; i++) {
		up->sgid[i] = (uint8_t)rnd();
		up->dgid[i] = (uint8_t)rnd();
	}
	up->tclass = (uint8_t)rnd();
	up->flowlabel = rnd() & 0xfffff;
	up->hoplmt = (uint8_t)rnd();
	up->opcode = rnd() & 1 ? 0x65 : 0x64;
	up->se = rnd() & 1;
	up->pkey = (uint16_t)rnd();
	up->dest_qp = rnd() & 0xffffff;
	up->psn = rnd() & 0xffffff;
	up->qkey = rnd();
	up->src_qp = rnd() & 0xffffff;
	up->immdt = rnd();
	up->payload_len = rnd() % max;
	for (size_t i = 0; i < up->payload_len; i++)
		payload[i] = (uint8_t)rnd();
	up->payload = payload;
}

static void check_roundtrip(const struct ibr_pkt_ud_params *up, const struct ibr_pkt *p)
{
	CU_ASSERT_EQUAL(ibr_lrh_get_slid(p->lrh), up->slid);
	CU_ASSERT_EQUAL(ibr_lrh_get_dlid(p->lrh), up->dlid);
	CU_ASSERT_EQUAL(ibr_lrh_get_sl(p->lrh), up->sl);
	CU_ASSERT_EQUAL(ibr_lrh_get_vl(p->lrh), up->vl);
	CU_ASSERT_EQUAL(p->grh != NULL, up->grh);
	if (p->grh) {
		CU_ASSERT(memcmp(ibr_grh_sgid(p->grh), up->sgid, 16) == 0);
		CU_ASSERT(memcmp(ibr_grh_dgid(p->grh), up->dgid, 16) == 0);
		CU_ASSERT_EQUAL(ibr_grh_get_tclass(p->grh), up->tclass);
		CU_ASSERT_EQUAL(ibr_grh_get_flowlabel(p->grh), up->flowlabel);
		CU_ASSERT_EQUAL(ibr_grh_get_hoplmt(p->grh), up->hoplmt);
	}
	CU_ASSERT_EQUAL(ibr_bth_get_opcode(p->bth), up->opcode);
	CU_ASSERT_EQUAL(ibr_bth_get_se(p->bth), up->se);
	CU_ASSERT_EQUAL(ibr_bth_get_tver(p->bth), 0);
	CU_ASSERT_EQUAL(ibr_bth_get_pkey(p->bth), up->pkey);
	CU_ASSERT_EQUAL(ibr_bth_get_destqp(p->bth), up->dest_qp);
	CU_ASSERT_EQUAL(ibr_bth_get_psn(p->bth), up->psn);
	CU_ASSERT_EQUAL(ibr_deth_get_qkey(p->deth), up->qkey);
	CU_ASSERT_EQUAL(ibr_deth_get_srcqp(p->deth), up->src_qp);
	CU_ASSERT_EQUAL(p->immdt != NULL, up->opcode == 0x65);
	if (p->immdt)
		CU_ASSERT_EQUAL(ibr_be32_get(p->immdt), up->immdt);
	CU_ASSERT_EQUAL(p->payload_len, up->payload_len);
	CU_ASSERT(memcmp(p->payload, up->payload, up->payload_len) == 0);
	for (unsigned int i = 0; i < p->padcnt; i++)
		CU_ASSERT_EQUAL(p->payload[p->payload_len + i], 0);
}

static void test_build_roundtrip(void)
{
	static uint8_t buf[IBR_PKT_MAX_LEN], payload[4200];
	struct ibr_pkt_ud_params up;
	struct ibr_pkt p;

	for (int iter = 0; iter < 2000; iter++) {
		size_t want;
		int n;

		random_params(&up, payload, iter < 1000 ? 64 : sizeof(payload));
		want = 8 + (up.grh ? 40 : 0) + 12 + 8 + (up.opcode == 0x65 ? 4 : 0) +
		       ((up.payload_len + 3) & ~(size_t)3) + 6;
		n = ibr_pkt_build_ud(buf, sizeof(buf), &up);
		CU_ASSERT_EQUAL_FATAL(n, (int)want);
		CU_ASSERT_EQUAL_FATAL(ibr_pkt_parse(buf, (size_t)n, &p), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(ibr_pkt_crc_check(&p), IBR_PKT_ERR_OK);
		CU_ASSERT_EQUAL(p.padcnt, (4 - up.payload_len % 4) % 4);
		check_roundtrip(&up, &p);
	}
}

static void test_build_errors(void)
{
	static uint8_t buf[IBR_PKT_MAX_LEN + 16], payload[IBR_PKT_MAX_LEN];
	struct ibr_pkt_ud_params up, bad;
	int n;

	fixture_grh_params(&up);
#define BAD(stmt)                                                                   \
	do {                                                                        \
		bad = up;                                                           \
		stmt;                                                               \
		CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &bad), -EINVAL); \
	} while (0)
	BAD(bad.sl = 16);
	BAD(bad.vl = 16);
	BAD(bad.flowlabel = 0x100000);
	BAD(bad.dest_qp = 0x1000000);
	BAD(bad.src_qp = 0x1000000);
	BAD(bad.psn = 0x1000000);
	BAD(bad.opcode = 0x04);
	BAD(bad.opcode = 0x66);
	BAD(bad.payload = NULL);
	BAD(bad.payload_len = (size_t)-1);
#undef BAD
	/* the largest UD packet PktLen allows, local: 28 + 8156 + 6 = 8190 */
	up.grh = false;
	up.opcode = 0x64;
	up.payload = payload;
	up.payload_len = 8156;
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &up), IBR_PKT_MAX_LEN);
	up.payload_len = 8157;
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &up), -EINVAL);
	/* every buffer size short of the packet: -ENOSPC, nothing written */
	fixture_grh_params(&up);
	n = ibr_pkt_build_ud(buf, sizeof(buf), &up);
	CU_ASSERT_EQUAL_FATAL(n, 90);
	for (int size = 0; size < n; size++) {
		uint8_t *c = malloc(size ? (size_t)size : 1);

		CU_ASSERT_EQUAL(ibr_pkt_build_ud(c, (size_t)size, &up), -ENOSPC);
		free(c);
	}
	CU_ASSERT_EQUAL(ibr_pkt_build_ud(NULL, 0, &up), -ENOSPC);
	/* opcode 0 means SEND_ONLY */
	up.opcode = 0;
	n = ibr_pkt_build_ud(buf, sizeof(buf), &up);
	CU_ASSERT_EQUAL(n, 86);
	CU_ASSERT_EQUAL(buf[48], IBR_BTH_OP_UD_SEND_ONLY);
}

/* The payload may already sit in the output buffer (in place, or overlapping). */
static void test_build_in_place(void)
{
	uint8_t ref[256], buf[256];
	struct ibr_pkt_ud_params up;
	int n;

	fixture_grh_params(&up);
	n = ibr_pkt_build_ud(ref, sizeof(ref), &up);
	CU_ASSERT_FATAL(n == 90);
	for (size_t at = 0; at < 100; at += 7) {
		memset(buf, 0x5a, sizeof(buf));
		memcpy(buf + at, up.payload, up.payload_len);
		{
			struct ibr_pkt_ud_params in = up;

			in.payload = buf + at;
			CU_ASSERT_EQUAL(ibr_pkt_build_ud(buf, sizeof(buf), &in), n);
		}
		CU_ASSERT(memcmp(buf, ref, (size_t)n) == 0);
	}
}

CU_TestInfo ibr_pkt_build_tests[] = {
	{ "builder round trip", test_build_roundtrip },
	{ "builder errors", test_build_errors },
	{ "builder with the payload in the buffer", test_build_in_place },
	CU_TEST_INFO_NULL,
};
