/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_rmpp_test.c - RMPP receiver (mad/mad_rmpp.c, IBA 13.6): in-order,
 * windowed, duplicate and out-of-order segments, every ABORT reason, the size
 * bound, and a lossy go-back-N sender whose message must arrive intact.
 */
#include "mad/mad_rmpp.h"

#include "lib/ibr_mad.h"
#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>

#define SA_SEG_DATA 200

/* Segment `seg` of an SA message of `n` segments whose data byte i is (uint8_t)(i * 7). */
static void make_seg(uint8_t *m, uint32_t seg, uint32_t n, uint32_t last_data)
{
	uint8_t flags = IBR_RMPP_FLAG_ACTIVE;
	uint32_t paylen;

	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE_RESP, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0x99);
	ibr_rmpp_set_version(m, IBR_RMPP_VERSION);
	ibr_rmpp_set_type(m, IBR_RMPP_TYPE_DATA);
	if (seg == 1)
		flags |= IBR_RMPP_FLAG_FIRST;
	if (seg == n)
		flags |= IBR_RMPP_FLAG_LAST;
	ibr_rmpp_set_flags(m, flags);
	ibr_rmpp_set_seg_num(m, seg);
	paylen = seg == 1 ? (n - 1) * MAD_RMPP_SEG_PAYLOAD + 20 + last_data : 0;
	if (seg == n)
		paylen = 20 + last_data;
	ibr_rmpp_set_data2(m, paylen);
	for (uint32_t i = 0; i < SA_SEG_DATA; i++)
		m[IBR_SA_DATA_OFFS + i] = (uint8_t)(((seg - 1) * SA_SEG_DATA + i) * 7);
}

static void test_single_segment(void)
{
	struct mad_rmpp_rx rx;
	uint8_t m[IBR_MAD_SIZE], reply[IBR_MAD_SIZE];
	bool send;

	CU_ASSERT_EQUAL(mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_LID, 1 << 20), -EINVAL);
	CU_ASSERT_EQUAL(mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_ADM, 1 << 20), 0);
	make_seg(m, 1, 1, 100);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_DONE);
	CU_ASSERT(send);
	CU_ASSERT_EQUAL(ibr_rmpp_type(reply), IBR_RMPP_TYPE_ACK);
	CU_ASSERT_EQUAL(ibr_mad_method(reply), IBR_MAD_METHOD_GET_TABLE);
	CU_ASSERT_EQUAL(ibr_mad_tid(reply), 0x99);
	CU_ASSERT_EQUAL(rx.len, IBR_SA_DATA_OFFS + 100);
	CU_ASSERT_EQUAL(memcmp(rx.buf, m, IBR_SA_DATA_OFFS + 100), 0);
	/* nothing more once done */
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_DROP);
	mad_rmpp_rx_free(&rx);
}

static void test_window(void)
{
	struct mad_rmpp_rx rx;
	uint8_t m[IBR_MAD_SIZE], reply[IBR_MAD_SIZE];
	uint32_t n = MAD_RMPP_WINDOW + 5;
	bool send;

	mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_ADM, 1 << 20);
	/* segment 2 before the first ACK opened the window: dropped */
	make_seg(m, 2, n, 8);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_DROP);
	CU_ASSERT(!send);
	for (uint32_t s = 1; s < n; s++) {
		make_seg(m, s, n, 8);
		CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send),
				MAD_RMPP_MORE);
		/* ACKs at 1 (window 1) and at 1 + WINDOW */
		CU_ASSERT_EQUAL(send, s == 1 || s == 1 + MAD_RMPP_WINDOW);
		if (send) {
			CU_ASSERT_EQUAL(ibr_rmpp_seg_num(reply), s);
			CU_ASSERT_EQUAL(ibr_rmpp_data2(reply), s + MAD_RMPP_WINDOW);
		}
	}
	/* a duplicate re-ACKs where we are */
	make_seg(m, 3, n, 8);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_MORE);
	CU_ASSERT(send);
	CU_ASSERT_EQUAL(ibr_rmpp_seg_num(reply), n - 1);
	make_seg(m, n, n, 8);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_DONE);
	CU_ASSERT_EQUAL(rx.len, IBR_SA_DATA_OFFS + (n - 1) * SA_SEG_DATA + 8);
	for (size_t i = 0; i + IBR_SA_DATA_OFFS < rx.len; i++)
		if (rx.buf[IBR_SA_DATA_OFFS + i] != (uint8_t)(i * 7)) {
			CU_FAIL("reassembled data differs");
			break;
		}
	mad_rmpp_rx_free(&rx);
}

struct abort_case {
	const char *what;
	void (*mutate)(uint8_t *m);
	uint8_t status;
};

static void mut_version(uint8_t *m)
{
	ibr_rmpp_set_version(m, 2);
}
static void mut_type(uint8_t *m)
{
	ibr_rmpp_set_type(m, IBR_RMPP_TYPE_ACK);
}
static void mut_status(uint8_t *m)
{
	ibr_rmpp_set_status(m, 5);
}
static void mut_first(uint8_t *m)
{
	ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE | IBR_RMPP_FLAG_LAST);
}
static void mut_seg0(uint8_t *m)
{
	ibr_rmpp_set_seg_num(m, 0);
}
static void mut_last_len(uint8_t *m)
{
	ibr_rmpp_set_data2(m, MAD_RMPP_SEG_PAYLOAD + 1);
}
static void mut_last_short(uint8_t *m)
{
	ibr_rmpp_set_data2(m, 19); /* less than the SA header */
}

static void test_aborts(void)
{
	static const struct abort_case cases[] = {
		{ "version", mut_version, IBR_RMPP_STATUS_BAD_VERSION },
		{ "type", mut_type, IBR_RMPP_STATUS_BAD_TYPE },
		{ "status", mut_status, IBR_RMPP_STATUS_ILLEGAL_STATUS },
		{ "first", mut_first, IBR_RMPP_STATUS_BAD_FIRST_SEG },
		{ "seg0", mut_seg0, IBR_RMPP_STATUS_BAD_FIRST_SEG },
		{ "last len", mut_last_len, IBR_RMPP_STATUS_BAD_LAST_LEN },
		{ "last short", mut_last_short, IBR_RMPP_STATUS_BAD_LAST_LEN },
	};
	uint8_t m[IBR_MAD_SIZE], reply[IBR_MAD_SIZE];
	struct mad_rmpp_rx rx;
	bool send;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_ADM, 1 << 20);
		make_seg(m, 1, 1, 50);
		cases[i].mutate(m);
		CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send),
				MAD_RMPP_ABORT);
		CU_ASSERT(send);
		CU_ASSERT_EQUAL(ibr_rmpp_type(reply), IBR_RMPP_TYPE_ABORT);
		if (ibr_rmpp_status(reply) != cases[i].status)
			CU_FAIL(cases[i].what);
		mad_rmpp_rx_free(&rx);
	}
	/* inconsistent total: first says 3 segments, the last comes as segment 2 */
	mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_ADM, 1 << 20);
	make_seg(m, 1, 3, 10);
	mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send);
	make_seg(m, 2, 2, 10);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_ABORT);
	CU_ASSERT_EQUAL(ibr_rmpp_status(reply), IBR_RMPP_STATUS_BAD_LAST_LEN);
	mad_rmpp_rx_free(&rx);
	/* the sender's STOP and ABORT end the transfer; short and inactive ones are ignored */
	mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_ADM, 1 << 20);
	make_seg(m, 1, 2, 10);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, 255, reply, &send), MAD_RMPP_DROP);
	ibr_rmpp_set_flags(m, 0);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_DROP);
	make_seg(m, 1, 2, 10);
	ibr_rmpp_set_type(m, IBR_RMPP_TYPE_STOP);
	CU_ASSERT_EQUAL(mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send), MAD_RMPP_STOPPED);
	CU_ASSERT(!send);
	mad_rmpp_rx_free(&rx);
}

static void test_size_bound(void)
{
	struct mad_rmpp_rx rx;
	uint8_t m[IBR_MAD_SIZE], reply[IBR_MAD_SIZE];
	enum mad_rmpp_rc rc = MAD_RMPP_MORE;
	bool send;
	uint32_t s;

	mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_ADM, 1000);
	for (s = 1; s <= 10 && rc == MAD_RMPP_MORE; s++) {
		make_seg(m, s, 10, 10);
		rc = mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send);
	}
	CU_ASSERT_EQUAL(rc, MAD_RMPP_ABORT);
	CU_ASSERT_EQUAL(ibr_rmpp_type(reply), IBR_RMPP_TYPE_STOP);
	CU_ASSERT_EQUAL(ibr_rmpp_status(reply), IBR_RMPP_STATUS_RESOURCES);
	CU_ASSERT(rx.len <= 1000);
	mad_rmpp_rx_free(&rx);
}

/* A go-back-N sender over a link that loses, duplicates and reorders segments. */
static void test_lossy_sender(void)
{
	unsigned long long seed = 0x5eed;

	for (int round = 0; round < 200; round++) {
		uint32_t n = 1 + (uint32_t)(ibr_test_rand(&seed) % 90);
		uint32_t last = 1 + (uint32_t)(ibr_test_rand(&seed) % SA_SEG_DATA);
		uint32_t acked = 0, nwl = 1, next = 1;
		uint8_t m[IBR_MAD_SIZE], reply[IBR_MAD_SIZE];
		struct mad_rmpp_rx rx;
		enum mad_rmpp_rc rc = MAD_RMPP_MORE;
		int steps = 0;
		bool send;

		mad_rmpp_rx_init(&rx, IBR_MGMT_CLASS_SUBN_ADM, 1 << 20);
		while (rc != MAD_RMPP_DONE && steps++ < 100000) {
			uint32_t s = next;
			unsigned long long r = ibr_test_rand(&seed) % 10;

			if (next > nwl || next > n) { /* sender timeout: go back */
				next = acked + 1;
				continue;
			}
			next++;
			if (r == 0)
				continue; /* lost */
			if (r == 1 && s > 1)
				s = s - 1 - (uint32_t)(ibr_test_rand(&seed) % (s - 1)); /* stale */
			if (r == 2 && s < n)
				s++; /* reordered */
			make_seg(m, s, n, last);
			rc = mad_rmpp_rx_input(&rx, m, IBR_MAD_SIZE, reply, &send);
			CU_ASSERT_NOT_EQUAL(rc, MAD_RMPP_ABORT);
			if (send && ibr_test_rand(&seed) % 5 && ibr_rmpp_seg_num(reply) >= acked) {
				acked = ibr_rmpp_seg_num(reply); /* ACKs get lost too */
				nwl = ibr_rmpp_data2(reply);
			}
		}
		CU_ASSERT_EQUAL_FATAL(rc, MAD_RMPP_DONE);
		CU_ASSERT_EQUAL(rx.len, IBR_SA_DATA_OFFS + (n - 1) * SA_SEG_DATA + last);
		for (size_t i = 0; i + IBR_SA_DATA_OFFS < rx.len; i++)
			if (rx.buf[IBR_SA_DATA_OFFS + i] != (uint8_t)(i * 7)) {
				CU_FAIL("reassembled data differs");
				break;
			}
		mad_rmpp_rx_free(&rx);
	}
}

static CU_TestInfo tests[] = {
	{ "single segment, ACKed, header kept", test_single_segment },
	{ "window, ACK points, duplicates re-ACKed", test_window },
	{ "every ABORT reason (13.6.2.1), STOP from the sender", test_aborts },
	{ "reassembly bounded: STOP, resources exhausted", test_size_bound },
	{ "lossy go-back-N sender: message intact", test_lossy_sender },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_mad_rmpp", tests);
}
