/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_hosts.h - the two hosts of the end-to-end benchmarks (bench_fwd,
 * bench_verbs): a sender blasting a burst of packets at the router's
 * port-a socket with sendmmsg, and a receiver counting what reaches port
 * b's peer with recvmmsg, each on a blocking UNIX datagram socket of its own.
 */
#ifndef BENCH_HOSTS_H
#define BENCH_HOSTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_hosts {
	int tx_fd, rx_fd;    /* the hosts' sockets (bench_host_socket()) */
	char to[108];	     /* the sender's destination: the router's port-a socket */
	const uint8_t *pkts; /* ROUTER_BURST packets `stride` bytes apart (0: one packet) */
	size_t stride, len;  /* ... of `len` bytes each */
	_Atomic bool stop;   /* set to end both threads */
	_Atomic uint64_t received;
};

/* A socket bound at `path` (replaced), 4 MiB buffers, 200 ms timeouts; aborts on failure. */
int bench_host_socket(const char *path);
/* Thread bodies; `arg` is a struct bench_hosts. */
void *bench_host_sender(void *arg);
void *bench_host_receiver(void *arg);

#endif
