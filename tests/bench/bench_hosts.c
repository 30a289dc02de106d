/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_hosts.c - the sending and receiving hosts of the end-to-end
 * benchmarks; see bench_hosts.h.
 */
#include "tests/bench/bench_hosts.h"

#include "router/router_engine.h"
#include "router/router_rib.h"

#include "lib/ibr_pkt.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
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

void bench_gid_set(uint8_t *g, uint64_t prefix, uint64_t guid)
{
	for (int i = 0; i < 8; i++) {
		g[i] = (uint8_t)(prefix >> (56 - 8 * i));
		g[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

size_t bench_ud_build(uint8_t *buf, size_t size, uint16_t dlid, uint64_t spfx, uint64_t sguid,
		      uint64_t dpfx, uint64_t dguid, size_t len)
{
	static uint8_t data[4096];
	struct ibr_pkt_ud_params p;
	int n;

	memset(&p, 0, sizeof(p));
	p.slid = 0x50;
	p.dlid = dlid;
	p.grh = true;
	bench_gid_set(p.sgid, spfx, sguid);
	bench_gid_set(p.dgid, dpfx, dguid);
	p.hoplmt = 64;
	p.pkey = 0xFFFF;
	p.dest_qp = dlid >= 0xC000 ? 0xFFFFFF : 5;
	p.qkey = 1;
	p.src_qp = 2;
	p.payload = data;
	p.payload_len = len < sizeof(data) ? len : sizeof(data);
	n = ibr_pkt_build_ud(buf, size, &p);
	if (n < 0)
		abort();
	return (size_t)n;
}

void bench_ports_add(struct router_rib *rib, unsigned nports, uint8_t flags)
{
	for (unsigned i = 0; i < nports; i++) {
		struct router_port p;
		char name[16];

		snprintf(name, sizeof(name), "p%u", i);
		router_port_defaults(&p, name);
		p.lid = (uint16_t)(i + 1);
		p.prefix = 0xfec0000000000000ull + i;
		p.guid = 0x300000 + i;
		p.mtu = 4096;
		p.flags = ROUTER_PORT_UP | flags;
		router_rib_port_add(rib, &p);
	}
}

void bench_pin(unsigned long t, int cpu)
{
	cpu_set_t set;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np((pthread_t)t, sizeof(set), &set);
}
