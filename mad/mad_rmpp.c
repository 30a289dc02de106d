/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_rmpp.c - RMPP receiver (IBA vol. 1, 13.6): reassembly of the DATA
 * segments of one response, ACKs, ABORTs.  See mad_rmpp.h.
 *
 * Receiver rules followed here (13.6.3.2, 13.6.4 receiver flow):
 *   - ES (expected segment) starts at 1; NewWindowLast at 1, so the sender
 *     sends segment 1 alone and waits for our first ACK;
 *   - a segment equal to ES and within the window is appended, ES advances;
 *     when it reaches NewWindowLast, or is the Last one, we ACK it with
 *     SegmentNumber = ES - 1 and a new NewWindowLast;
 *   - a segment below ES is a duplicate (our ACK was lost): ACK again;
 *   - a segment above ES, or beyond the window, is dropped: the sender's
 *     timer resends from the last ACKed segment;
 *   - First must be exactly on segment 1 (ABORT 120), PayloadLength of the
 *     Last segment must be consistent (ABORT 119), RMPPStatus of DATA must be
 *     0 (ABORT 124), RMPPType must be DATA/STOP/ABORT (ABORT 121),
 *     RMPPVersion must be 1 (ABORT 125); a message beyond max_len is refused
 *     with STOP, status 1 (resources exhausted).
 */
#include "mad/mad_rmpp.h"

#include "lib/ibr_mad.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RMPP_VENDOR_HDR_LEN 40 /* common 24 + RMPP 12 + OUI 4 (13.4.2.2 vendor range 2) */

int mad_rmpp_rx_init(struct mad_rmpp_rx *rx, uint8_t mgmt_class, size_t max_len)
{
	memset(rx, 0, sizeof(*rx));
	if (!ibr_mad_class_has_rmpp(mgmt_class))
		return -EINVAL;
	rx->hdr_len = mgmt_class == IBR_MGMT_CLASS_SUBN_ADM ? IBR_SA_DATA_OFFS
							    : RMPP_VENDOR_HDR_LEN;
	rx->max_len = max_len;
	rx->es = 1;
	rx->newwin = 1;
	return 0;
}

void mad_rmpp_rx_free(struct mad_rmpp_rx *rx)
{
	free(rx->buf);
	rx->buf = NULL;
	rx->len = rx->cap = 0;
}

void mad_rmpp_build_reply(uint8_t *reply, const uint8_t *seg, uint8_t type, uint8_t status,
			  uint32_t seg_num, uint32_t data2)
{
	memset(reply, 0, IBR_MAD_SIZE);
	memcpy(reply, seg, IBR_MAD_HDR_SIZE);
	ibr_mad_set_method(reply, ibr_mad_method(seg) ^ IBR_MAD_METHOD_RESP);
	ibr_mad_set_status(reply, 0);
	ibr_rmpp_set_version(reply, IBR_RMPP_VERSION);
	ibr_rmpp_set_type(reply, type);
	ibr_rmpp_set_flags(reply, IBR_RMPP_FLAG_ACTIVE);
	ibr_rmpp_set_status(reply, status);
	ibr_rmpp_set_seg_num(reply, seg_num);
	ibr_rmpp_set_data2(reply, data2);
	/* a vendor-range-2 ACK keeps the OUI so that it reaches the right agent */
	if (ibr_mad_mgmt_class(seg) != IBR_MGMT_CLASS_SUBN_ADM)
		memcpy(reply + 36, seg + 36, 4);
}

static enum mad_rmpp_rc rx_abort(const uint8_t *seg, uint8_t status, uint8_t *reply,
				 bool *send_reply)
{
	mad_rmpp_build_reply(reply, seg, IBR_RMPP_TYPE_ABORT, status, 0, 0);
	*send_reply = true;
	return MAD_RMPP_ABORT;
}

static void rx_ack(struct mad_rmpp_rx *rx, const uint8_t *seg, uint8_t *reply, bool *send_reply)
{
	mad_rmpp_build_reply(reply, seg, IBR_RMPP_TYPE_ACK, IBR_RMPP_STATUS_NORMAL, rx->es - 1,
			     rx->newwin);
	*send_reply = true;
}

/* Append `n` bytes, growing the buffer (doubling) up to max_len.  0 or -ENOMEM/-EMSGSIZE. */
static int rx_append(struct mad_rmpp_rx *rx, const uint8_t *p, size_t n)
{
	if (rx->len + n > rx->max_len)
		return -EMSGSIZE;
	if (rx->len + n > rx->cap) {
		size_t cap = rx->cap ? rx->cap : 4096;
		uint8_t *b;

		while (cap < rx->len + n)
			cap *= 2;
		if (cap > rx->max_len)
			cap = rx->max_len;
		b = realloc(rx->buf, cap);
		if (!b)
			return -ENOMEM;
		rx->buf = b;
		rx->cap = cap;
	}
	memcpy(rx->buf + rx->len, p, n);
	rx->len += n;
	return 0;
}

/* Check the Last segment's PayloadLength (13.6.2.3); the data bytes it carries, or -1. */
static long rx_last_len(const struct mad_rmpp_rx *rx, uint32_t seg_num, uint32_t paylen)
{
	size_t class_extra = rx->hdr_len - (IBR_RMPP_HDR_OFFS + IBR_RMPP_HDR_SIZE);

	if (paylen < class_extra || paylen > MAD_RMPP_SEG_PAYLOAD)
		return -1;
	if (rx->first_paylen &&
	    rx->first_paylen != (uint64_t)(seg_num - 1) * MAD_RMPP_SEG_PAYLOAD + paylen)
		return -1;
	return (long)(paylen - class_extra);
}

/* One DATA segment equal to ES: append it; MORE, DONE or ABORT. */
static enum mad_rmpp_rc rx_accept(struct mad_rmpp_rx *rx, const uint8_t *seg, uint8_t *reply,
				  bool *send_reply)
{
	uint8_t flags = ibr_rmpp_flags(seg);
	uint32_t seg_num = ibr_rmpp_seg_num(seg);
	size_t n = IBR_MAD_SIZE - rx->hdr_len;
	int rc;

	if (seg_num == 1) {
		rx->first_paylen = ibr_rmpp_data2(seg);
		rc = rx_append(rx, seg, rx->hdr_len);
		if (rc)
			goto stop;
	}
	if (flags & IBR_RMPP_FLAG_LAST) {
		long last = rx_last_len(rx, seg_num, ibr_rmpp_data2(seg));

		if (last < 0)
			return rx_abort(seg, IBR_RMPP_STATUS_BAD_LAST_LEN, reply, send_reply);
		n = (size_t)last;
	}
	rc = rx_append(rx, seg + rx->hdr_len, n);
	if (rc)
		goto stop;
	rx->es++;
	if (flags & IBR_RMPP_FLAG_LAST) {
		rx->newwin = seg_num;
		rx->done = true;
		rx_ack(rx, seg, reply, send_reply);
		return MAD_RMPP_DONE;
	}
	if (seg_num == rx->newwin) {
		rx->newwin = seg_num + MAD_RMPP_WINDOW;
		rx_ack(rx, seg, reply, send_reply);
	}
	return MAD_RMPP_MORE;
stop:
	/* 13.6.2.1: STOP with "resources exhausted" tells the sender to give up */
	mad_rmpp_build_reply(reply, seg, IBR_RMPP_TYPE_STOP, IBR_RMPP_STATUS_RESOURCES, 0, 0);
	*send_reply = true;
	return MAD_RMPP_ABORT;
}

enum mad_rmpp_rc mad_rmpp_rx_input(struct mad_rmpp_rx *rx, const uint8_t *seg, size_t len,
				   uint8_t *reply, bool *send_reply)
{
	uint8_t flags, type;
	uint32_t seg_num;

	*send_reply = false;
	if (len != IBR_MAD_SIZE || rx->done)
		return MAD_RMPP_DROP;
	flags = ibr_rmpp_flags(seg);
	type = ibr_rmpp_type(seg);
	if (!(flags & IBR_RMPP_FLAG_ACTIVE))
		return MAD_RMPP_DROP;
	if (ibr_rmpp_version(seg) != IBR_RMPP_VERSION)
		return rx_abort(seg, IBR_RMPP_STATUS_BAD_VERSION, reply, send_reply);
	if (type == IBR_RMPP_TYPE_STOP || type == IBR_RMPP_TYPE_ABORT)
		return MAD_RMPP_STOPPED;
	if (type != IBR_RMPP_TYPE_DATA)
		return rx_abort(seg, IBR_RMPP_STATUS_BAD_TYPE, reply, send_reply);
	if (ibr_rmpp_status(seg) != IBR_RMPP_STATUS_NORMAL)
		return rx_abort(seg, IBR_RMPP_STATUS_ILLEGAL_STATUS, reply, send_reply);
	seg_num = ibr_rmpp_seg_num(seg);
	if ((seg_num == 1) != ((flags & IBR_RMPP_FLAG_FIRST) != 0) || seg_num == 0)
		return rx_abort(seg, IBR_RMPP_STATUS_BAD_FIRST_SEG, reply, send_reply);
	if (seg_num < rx->es) {
		/* a duplicate: our ACK was lost, say again where we are */
		rx_ack(rx, seg, reply, send_reply);
		return MAD_RMPP_MORE;
	}
	if (seg_num > rx->es || seg_num > rx->newwin)
		return MAD_RMPP_DROP;
	return rx_accept(rx, seg, reply, send_reply);
}
