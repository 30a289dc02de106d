/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_fix.h - the fixture the verbs backend's unit tests share: `n`
 * fake HCAs (tests/fakes/fake_verbs.h) whose ports are sim wire sockets in a
 * fresh directory under /tmp, a "host" socket bound at the other end of each,
 * and the io_verbs_port_cfg array that opens them as router ports 0..n-1.
 */
#ifndef IO_VERBS_FIX_H
#define IO_VERBS_FIX_H

#include "router/io/io_verbs.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VFIX_MAX_PORTS 4
#define VFIX_HOST_QPN  0x42 /* the QPN every host sends from (vfix_host_ud) */

struct vfix {
	char dir[64];
	unsigned n;
	int host[VFIX_MAX_PORTS]; /* host i's socket, bound at the peer of device i */
	struct io_verbs_port_cfg cfg[VFIX_MAX_PORTS];
	struct io_verbs *v; /* NULL until vfix_open() */
};

/* The devices' names: "mlx5_0", "mlx5_1", ... */
extern const char *const vfix_dev[VFIX_MAX_PORTS];

/*
 * Device i ("hca<i>" in a new /tmp/<tag>.XXXXXX, its peer "host<i>"): LID
 * 10 + i, SM LID `sm_lid`, GID fec0:0:0:<i+1>::1; cfg[i] opens its port 1 as
 * router port i with the given queue depths.  The caller may add to f->cfg
 * (AH cache, proxies) before vfix_open().  0 or -1.
 */
int vfix_prepare(struct vfix *f, const char *tag, unsigned n, uint16_t sm_lid, uint32_t rq_depth,
		 uint32_t sq_depth);
/*
 * The same with the devices whose bit is set in `roce` (bit i: device i) in
 * the fake's RoCE mode (fake_verbs.h): no LIDs, and GID
 * fec0:0:0:<i+1>::1 at index 1 of their GID table.
 */
int vfix_prepare_roce(struct vfix *f, const char *tag, unsigned n, uint16_t sm_lid,
		      uint32_t rq_depth, uint32_t sq_depth, unsigned roce);
/*
 * Before vfix_open(): a pair of proxies, host 7 of subnet a + 1 <-> host 7
 * of subnet b + 1 (both QPN VFIX_HOST_QPN): port a's first proxy QP goes to
 * the one on b's subnet with Q_Key 0x1234, port b's to the one on a's with
 * Q_Key 0x4321.
 */
void vfix_proxy_pair(struct vfix *f, int a, int b);
/* io_verbs_open() on f->cfg.  0 or -1. */
int vfix_open(struct vfix *f);
/* Closes the backend and the host sockets, forgets the devices, removes the directory. */
void vfix_close(struct vfix *f);

/* `out` = <dir>/<what><i>: "hca" is device i's socket, "host" host i's. */
void vfix_path(const struct vfix *f, char *out, size_t n, const char *what, int i);
/* fec0:0:0:<subnet>::<iid>, in the low byte of each. */
void vfix_gid(uint8_t gid[16], int subnet, int iid);

/* Host i puts a packet on device i's wire (one assertion: all of it sent). */
void vfix_host_send(const struct vfix *f, int i, const void *pkt, size_t len);
/* What a host sends in vfix_host_ud(); the rest is fixed (see there). */
struct vfix_ud {
	uint16_t slid, dlid;
	const uint8_t *sgid, *dgid; /* dgid NULL: no GRH */
	uint32_t dqp, qkey;
	size_t paylen; /* at most 4096 */
	uint8_t tag;   /* every payload byte */
	bool imm;      /* SEND with ImmDt 0xA5A5A5A5 */
};

/*
 * Host i sends a UD packet to device i (SL 3, TClass 0x20, FlowLabel
 * 0x12345, HopLmt 64, P_Key 0xFFFF, SrcQP VFIX_HOST_QPN) and the fake HCA
 * takes it off the wire (which queues 10 datagrams at most).  Assertions.
 */
void vfix_host_ud(const struct vfix *f, int i, const struct vfix_ud *u);
/* Without waiting: the length of the packet host i received, or -errno. */
int vfix_host_recv(const struct vfix *f, int i, uint8_t *buf, size_t n);
/* Every host's socket read empty. */
void vfix_host_drain(const struct vfix *f);

/* Every buffer of every port posted or free, none held (two assertions a port). */
void vfix_pools_check(const struct vfix *f);

#endif
