/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_mad_tp.h - the fake MAD transport and clock shared by the fuzz targets
 * that drive a real MAD channel (fuzz_mad_chan.c, fuzz_sa_client.c): it sends
 * nothing but checks every MAD it is handed is at least FZ_TP_MIN_SEND and at
 * most IBR_MAD_SIZE bytes (abort() otherwise, which the fuzzer reports),
 * counts them, and never receives: the targets feed the channel themselves.
 * Include it after mad/mad_chan.c.
 */
#ifndef FUZZ_MAD_TP_H
#define FUZZ_MAD_TP_H

#include <stdlib.h>

#ifndef FZ_TP_MIN_SEND
#define FZ_TP_MIN_SEND IBR_MAD_HDR_SIZE
#endif

struct fz_tp {
	struct mad_transport base;
	unsigned long sent;
};

static uint64_t fz_now; /* the channel's clock, in ms: the targets advance it */

static uint64_t fz_clock(void *arg)
{
	return fz_now;
}

static int fz_get_fd(struct mad_transport *tp)
{
	return -1;
}

static int fz_register(struct mad_transport *tp, uint8_t c, uint8_t v, bool rmpp)
{
	return 0;
}

static int fz_send(struct mad_transport *tp, const uint8_t *mad, size_t len,
		   const struct mad_addr *to, uint32_t timeout_ms)
{
	if (len < FZ_TP_MIN_SEND || len > IBR_MAD_SIZE)
		abort();
	((struct fz_tp *)tp)->sent++;
	return 0;
}

static ssize_t fz_recv(struct mad_transport *tp, const uint8_t **mad, struct mad_addr *from)
{
	return 0;
}

static int fz_set_issm(struct mad_transport *tp, bool on)
{
	return 0;
}

static void fz_close(struct mad_transport *tp)
{
}

/* The transport's ops under `nm`, with transport flags `fl` (MAD_TP_RMPP or 0). */
#define FZ_TP_OPS(nm, fl)                                                                        \
	{                                                                                        \
		.name = (nm), .flags = (fl), .get_fd = fz_get_fd, .register_class = fz_register, \
		.send = fz_send, .recv = fz_recv, .set_issm = fz_set_issm, .close = fz_close,    \
	}

#endif
