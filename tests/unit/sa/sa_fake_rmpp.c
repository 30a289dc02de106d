/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_fake_rmpp.c - the fake SA's RMPP sender (sa_fake.h, fake_wire_rmpp()):
 * a GetTable answer as DATA segments on the wire (IBA 13.6.3, sender side),
 * for a transport without RMPP of its own, so that the channel's receiver
 * (mad/mad_rmpp.c) reassembles and ACKs them.  Segment 1 alone first (the
 * receiver's first window is 1), then up to each ACK's NewWindowLast; the
 * ACK of the Last segment ends the transfer.  Every segment is 256 bytes:
 * the MAD and SA headers of the answer, 200 bytes of its records; the
 * First segment's PayloadLength counts the SA header of every segment and
 * the records, the Last's its own (13.6.2.3).
 */
#include "tests/unit/sa/sa_fake.h"

#include "tests/unit/ibr_test.h"

#include <stdlib.h>
#include <string.h>

#define SEG_DATA  (IBR_MAD_SIZE - IBR_SA_DATA_OFFS) /* 200 record bytes a segment */
#define SEG_EXTRA (IBR_SA_DATA_OFFS - 36)	    /* the SA header each one repeats */

static const struct mad_transport_ops *wire_ops(void)
{
	static struct mad_transport_ops o;

	o = *F->base.ops;
	o.name = "fake-wire-rmpp";
	o.flags &= ~(unsigned int)MAD_TP_RMPP; /* the channel reassembles */
	return &o;
}

void fake_wire_rmpp(void)
{
	F->base.ops = wire_ops();
	F->wire = true;
}

static void tx_segment(const struct ftx *t, uint32_t seg)
{
	size_t data = t->len - IBR_SA_DATA_OFFS, at = (size_t)(seg - 1) * SEG_DATA;
	size_t n = data - at < SEG_DATA ? data - at : SEG_DATA;
	uint8_t *m = calloc(1, IBR_MAD_SIZE), flags = IBR_RMPP_FLAG_ACTIVE;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	memcpy(m, t->msg, IBR_SA_DATA_OFFS);
	if (n)
		memcpy(m + IBR_SA_DATA_OFFS, t->msg + IBR_SA_DATA_OFFS + at, n);
	ibr_rmpp_set_version(m, IBR_RMPP_VERSION);
	ibr_rmpp_set_type(m, IBR_RMPP_TYPE_DATA);
	ibr_rmpp_set_status(m, 0);
	ibr_rmpp_set_seg_num(m, seg);
	if (seg == 1) {
		flags |= IBR_RMPP_FLAG_FIRST;
		ibr_rmpp_set_data2(m, (uint32_t)(data + t->nseg * SEG_EXTRA));
	}
	if (seg == t->nseg) {
		flags |= IBR_RMPP_FLAG_LAST;
		ibr_rmpp_set_data2(m, (uint32_t)(n + SEG_EXTRA));
	}
	if (seg != 1 && seg != t->nseg)
		ibr_rmpp_set_data2(m, 0);
	ibr_rmpp_set_flags(m, flags);
	F->rmpp_segments++;
	fake_push(m, IBR_MAD_SIZE, true, ibr_mad_attr_id(m));
}

void fake_rmpp_send(uint8_t *m, size_t len)
{
	size_t data = len - IBR_SA_DATA_OFFS;
	struct ftx *t = NULL;

	for (size_t i = 0; i < sizeof(F->tx) / sizeof(F->tx[0]) && !t; i++)
		if (!F->tx[i].msg)
			t = &F->tx[i];
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	*t = (struct ftx){ .msg = m,
			   .len = len,
			   .tid = ibr_mad_tid(m),
			   .nseg = data ? (uint32_t)((data + SEG_DATA - 1) / SEG_DATA) : 1,
			   .sent = 1 };
	tx_segment(t, 1);
}

void fake_rmpp_ack(const uint8_t *ack)
{
	uint64_t tid = ibr_mad_tid(ack);
	struct ftx *t = NULL;

	for (size_t i = 0; i < sizeof(F->tx) / sizeof(F->tx[0]) && !t; i++)
		if (F->tx[i].msg && F->tx[i].tid == tid)
			t = &F->tx[i];
	if (!t)
		return; /* a transfer already over */
	F->rmpp_acks++;
	if (ibr_rmpp_type(ack) == IBR_RMPP_TYPE_ACK && ibr_rmpp_seg_num(ack) < t->nseg) {
		uint32_t last = ibr_rmpp_data2(ack) < t->nseg ? ibr_rmpp_data2(ack) : t->nseg;

		while (t->sent < last)
			tx_segment(t, ++t->sent);
		return;
	}
	if (ibr_rmpp_type(ack) == IBR_RMPP_TYPE_ACK)
		F->rmpp_done++;
	free(t->msg); /* the Last ACKed, or a STOP or ABORT */
	*t = (struct ftx){ .msg = NULL };
}

void fake_rmpp_free(void)
{
	for (size_t i = 0; i < sizeof(F->tx) / sizeof(F->tx[0]); i++)
		free(F->tx[i].msg);
	memset(F->tx, 0, sizeof(F->tx));
}
