/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host_send.c - "ibrouter-host ... send": well-formed UD packets built from
 * the options, each with its sequence number as PSN and in the payload's
 * first 4 bytes, sent to the peer in bursts or paced at -r RATE.
 */
#include "tools/host.h"

#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/uio.h>

int host_send(struct host *h)
{
	static uint8_t buf[HOST_BURST][IBR_PKT_MAX_LEN + 2];
	static uint8_t payload[IBR_PKT_MAX_LEN];
	struct mmsghdr msg[HOST_BURST];
	struct iovec iov[HOST_BURST];
	uint64_t sent = 0;
	double t0 = host_clock_now();

	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)i;
	if (!h->p.payload)
		h->p.payload = payload;
	while (sent < h->count && !host_stop) {
		unsigned n = h->count - sent < HOST_BURST ? (unsigned)(h->count - sent)
							  : HOST_BURST;
		int r;

		if (h->rate > 0) /* pace: one packet per 1/rate s, in bursts of at most n */
			n = 1;
		memset(msg, 0, sizeof(msg));
		for (unsigned i = 0; i < n; i++) {
			int len;

			h->p.psn = (uint32_t)(sent + i) &
				   IBR_PSN_MASK; /* lets receivers see loss */
			/* the sequence number in the first 4 payload bytes too, as
			 * verbs mode sends it (an HCA sets the PSN itself): what the
			 * receiver reads whichever kind of port the packet crossed */
			if (h->p.payload == payload && h->p.payload_len >= 4) {
				uint32_t seq = htobe32((uint32_t)(sent + i));

				memcpy(payload, &seq, 4);
			}
			len = ibr_pkt_build_ud(buf[i], sizeof(buf[i]), &h->p);
			if (len < 0) {
				fprintf(stderr, "ibrouter-host: cannot build the packet: %s\n",
					strerror(-len));
				return 2;
			}
			if (h->bad_vcrc)
				buf[i][len - 1] ^= 0xFF;
			host_capture_write(h, buf[i], (size_t)len);
			iov[i] = (struct iovec){ buf[i], (size_t)len };
			msg[i].msg_hdr.msg_name = &h->peer;
			msg[i].msg_hdr.msg_namelen = h->peerlen;
			msg[i].msg_hdr.msg_iov = &iov[i];
			msg[i].msg_hdr.msg_iovlen = 1;
		}
		/* blocks while the peer's queue is full (host_signal() ends the wait) */
		r = sendmmsg(h->fd, msg, n, MSG_NOSIGNAL);
		if (r < 0) {
			if (errno == EINTR || host_stop)
				continue;
			fprintf(stderr, "ibrouter-host: send to %s: %s\n", h->peer_path,
				strerror(errno));
			return 1;
		}
		sent += (unsigned)r;
		if (h->rate > 0) {
			double due = t0 + (double)sent / h->rate, now = host_clock_now();

			if (due > now)
				host_clock_sleep(h, due - now);
		}
	}
	if (!h->quiet)
		printf("sent %" PRIu64 " packets\n", sent);
	return sent == h->count ? 0 : 1;
}
