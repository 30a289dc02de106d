/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_mad_chan.c - libFuzzer target for the MAD channel's receive path
 * (mad/mad_chan.c, RMPP reassembly in mad/mad_rmpp.c, ibsim datagram decode in
 * mad/mad_ibsim.c) over a fake transport and a fake clock.  The input is a
 * script of records [op][len:2][bytes]: op&3 = 0 send a request (GetTable or
 * Get, so that responses can match), 1 feed a MAD of exactly len bytes (in a
 * buffer of that size, so ASan sees any overread; op bit 2 makes its TID match
 * the newest request), 2 advance the clock by len ms and tick, 3 decode len
 * bytes as an ibsim datagram and feed it.  Invariants: outstanding and queued
 * counts stay within bounds; every request's callback runs exactly once.
 *
 * run.sh compiles only lib/ and router/, so the sa/ sources are included here.
 */
#include "mad/mad_chan.c"
#include "mad/mad_ibsim.c"
#include "mad/mad_rmpp.c"

#include "tests/fuzz/fuzz_mad_tp.h"

static long fz_pending;
static uint64_t fz_last_tid;

static const struct mad_transport_ops fz_ops = FZ_TP_OPS("fuzz", 0);

static void fz_done(struct mad_chan *c, const struct mad_chan_result *r, void *arg)
{
	fz_pending--;
	if (r->status == 0 && (!r->mad || r->len < IBR_MAD_HDR_SIZE))
		abort();
	if (r->mad && r->len)
		fz_last_tid ^= r->mad[r->len - 1];
}

static void fz_request(struct mad_chan *c, uint8_t sel)
{
	uint8_t m[IBR_MAD_SIZE];
	const struct mad_addr to = { .lid = 1, .qpn = 1 };

	if (sel & 1)
		ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, 0, 0);
	else
		ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, 0, 0, NULL,
				     0);
	if (mad_chan_send_request(c, m, &to, NULL, fz_done, NULL, &fz_last_tid) == 0)
		fz_pending++;
}

static void fz_feed(struct mad_chan *c, const uint8_t *p, size_t len, bool match)
{
	uint8_t *m = malloc(len ? len : 1);
	const struct mad_addr from = { .lid = 1, .qpn = 1, .local_qpn = 1 };

	memcpy(m, p, len);
	if (match && len >= 16)
		ibr_mad_st32(m + 12, (uint32_t)fz_last_tid);
	mad_chan_input(c, m, len, &from);
	free(m);
}

static void fz_feed_ibsim(struct mad_chan *c, const uint8_t *p, size_t len)
{
	uint8_t *d = malloc(len ? len : 1);
	const uint8_t *mad;
	struct mad_addr from;
	size_t n;

	memcpy(d, p, len);
	n = mad_ibsim_req_decode(d, len, &mad, &from);
	if (n)
		mad_chan_input(c, mad, n, &from);
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_tp tp = { .base.ops = &fz_ops };
	struct mad_chan_config cfg = { .chan_id = 7,
				       .max_outstanding = 4,
				       .max_queued = 8,
				       .rmpp_max_len = 64 * 1024,
				       .clock = fz_clock };
	struct mad_chan *c;

	fz_now = 1;
	fz_pending = 0;
	fz_last_tid = 0;
	c = mad_chan_create(&tp.base, &cfg);
	if (!c)
		return 0;
	while (size >= 3) {
		uint8_t op = data[0];
		size_t len = (size_t)data[1] << 8 | data[2];

		data += 3;
		size -= 3;
		if (len > size)
			len = size;
		switch (op & 3) {
		case 0:
			fz_request(c, op >> 2);
			break;
		case 1:
			fz_feed(c, data, len, op & 4);
			break;
		case 2:
			fz_now += (uint64_t)len * 1000000u;
			mad_chan_tick(c, fz_now);
			break;
		case 3:
			fz_feed_ibsim(c, data, len);
			break;
		}
		data += len;
		size -= len;
		if (mad_chan_outstanding(c) > 4 || mad_chan_queued(c) > 8)
			abort();
	}
	mad_chan_destroy(c);
	if (fz_pending != 0)
		abort();
	return 0;
}
