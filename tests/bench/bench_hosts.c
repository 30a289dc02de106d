/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_hosts.c - the sending and receiving hosts of the end-to-end
 * benchmarks; see bench_hosts.h.
 */
#include "tests/bench/bench_hosts.h"

#include "router/router_engine.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

int bench_host_socket(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0), sz = 4 << 20;
	struct timeval tv = { 0, 200000 };

	strcpy(sa.sun_path, path);
	unlink(path);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		abort();
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)); /* never hang */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	return fd;
}

void *bench_host_sender(void *arg)
{
	struct bench_hosts *h = arg;
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	struct mmsghdr msg[ROUTER_BURST];
	struct iovec iov[ROUTER_BURST];

	strcpy(to.sun_path, h->to);
	memset(msg, 0, sizeof(msg));
	for (int i = 0; i < ROUTER_BURST; i++) {
		iov[i] = (struct iovec){ (void *)(h->pkts + (size_t)i * h->stride), h->len };
		msg[i].msg_hdr.msg_name = &to;
		msg[i].msg_hdr.msg_namelen = sizeof(to);
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	while (!atomic_load(&h->stop))
		sendmmsg(h->tx_fd, msg, ROUTER_BURST, 0);
	return NULL;
}

void *bench_host_receiver(void *arg)
{
	struct bench_hosts *h = arg;
	static uint8_t bufs[ROUTER_BURST][512];
	struct mmsghdr msg[ROUTER_BURST];
	struct iovec iov[ROUTER_BURST];

	memset(msg, 0, sizeof(msg));
	for (int i = 0; i < ROUTER_BURST; i++) {
		iov[i] = (struct iovec){ bufs[i], sizeof(bufs[i]) };
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	while (!atomic_load(&h->stop)) {
		int n = recvmmsg(h->rx_fd, msg, ROUTER_BURST, 0, NULL);

		if (n > 0)
			atomic_fetch_add(&h->received, (uint64_t)n);
	}
	return NULL;
}
