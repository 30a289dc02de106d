/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* lab_mad.c - what the lab's MAD clients share (lab_mad.h). */
#include "tests/lab/lab_mad.h"

#include "lib/ibr_log.h"

#include <poll.h>
#include <string.h>

void lab_mad_on_result(struct mad_chan *c, const struct mad_chan_result *r, void *arg)
{
	struct lab_mad_result *res = arg;

	(void)c;
	res->done = true;
	res->status = r->status;
	res->len = r->len;
	if (r->mad && r->len <= sizeof(res->mad))
		memcpy(res->mad, r->mad, r->len);
}

void lab_mad_run_until(struct mad_chan *c, const bool *done, unsigned int max_ms)
{
	uint64_t end = ibr_now_ns() + (uint64_t)max_ms * 1000000u;
	struct pollfd pfd = { .fd = mad_chan_fd(c), .events = POLLIN };

	while ((!done || !*done) && ibr_now_ns() < end) {
		int t = mad_chan_timeout_ms(c, ibr_now_ns());

		if (t < 0 || t > 50)
			t = 50;
		if (poll(&pfd, 1, t) > 0)
			mad_chan_process(c, 0);
		mad_chan_tick(c, ibr_now_ns());
	}
}
