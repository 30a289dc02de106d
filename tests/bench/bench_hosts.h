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

struct router_rib;

/* GID = prefix:guid, bytes in wire order. */
void bench_gid_set(uint8_t *g, uint64_t prefix, uint64_t guid);
/*
 * A UD datagram with a GRH into buf (512 bytes at least): SLID 0x50, DLID
 * `dlid`, SGID spfx:sguid, DGID dpfx:dguid, HopLmt 64, P_Key 0xffff, QPN 5
 * (0xffffff to a multicast DLID), Q_Key 1, `len` bytes of payload.  Returns
 * its length.
 */
size_t bench_ud_build(uint8_t *buf, size_t size, uint16_t dlid, uint64_t spfx, uint64_t sguid,
		      uint64_t dpfx, uint64_t dguid, size_t len);
/* Ports p0.. (LID i + 1, prefix fec0::i/64, up, MTU 4096, `flags`) into rib. */
void bench_ports_add(struct router_rib *rib, unsigned nports, uint8_t flags);
/* Thread t onto `cpu` where the machine has 2 CPUs or more (advice: a run counts without it). */
void bench_pin(unsigned long t, int cpu);

/* A socket bound at `path` (replaced), 4 MiB buffers, 200 ms timeouts; aborts on failure. */
int bench_host_socket(const char *path);
/* Thread bodies; `arg` is a struct bench_hosts. */
void *bench_host_sender(void *arg);
void *bench_host_receiver(void *arg);

#endif
