/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_probe.h - what a verbs port is, read without opening it for
 * forwarding (ibrouterd --check): the device listed and opened, its port's
 * attributes (link layer, state, LID, SM LID, MTU, GID and P_Key tables),
 * the device's limits against what a router port takes, and the memory a
 * router port registers.  Part of the verbs backend: the one place of the
 * project that calls ibv_* (doc/ARCHITECTURE.md, Boundaries), so that tests
 * run it over the fake provider (tests/fakes/).
 */
#ifndef IO_VERBS_PROBE_H
#define IO_VERBS_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IO_VERBS_PROBE_PKEYS 32 /* P_Keys kept (the table's first ones) */

struct io_verbs_probe {
	bool listed;	      /* ibv_get_device_list() has it */
	int ndevs;	      /* devices listed (-errno: the list failed) */
	int open_err;	      /* 0, or -errno of ibv_open_device() */
	char dev_name[64];    /* its uverbs device: "uverbs0" (/dev/infiniband/...) */
	char ibdev_path[256]; /* its sysfs directory (the driver is under device/) */
	int port_err;	      /* 0, or -errno of ibv_query_port() (no such port) */
	uint8_t nports;	      /* the device's physical ports (0: not read) */
	/* the port */
	bool ethernet; /* link layer Ethernet (RoCE) */
	uint8_t state; /* IBV_PORT_*: 4 active */
	uint8_t phys_state;
	uint16_t lid, sm_lid;
	uint8_t lmc;
	uint8_t active_mtu, max_mtu; /* IBV_MTU_* (1: 256 ... 5: 4096) */
	int gid_tbl_len, pkey_tbl_len;
	uint8_t gid0[16]; /* GID 0 (its upper half: the subnet prefix) */
	bool gid0_ok;
	uint16_t pkeys[IO_VERBS_PROBE_PKEYS]; /* the table's first entries, host order */
	unsigned npkeys;
	/* the device's limits (ibv_query_device) */
	bool limits_ok;
	int max_qp, max_qp_wr, max_cq, max_cqe, max_mr, max_ah;
	uint64_t max_mr_size;
	char fw_ver[64];
};

/*
 * Read device `device`'s port `port_num` into *out (zeroed first).  Returns
 * 0 when the port was read, else the first error (-ENODEV: not listed; the
 * open's or the query's -errno), what was read before it kept in *out.
 */
int io_verbs_probe(const char *device, uint8_t port_num, struct io_verbs_probe *out);

/* What a router port of `nproxy` proxies takes of the device (io_verbs.c opens it so). */
struct io_verbs_need {
	unsigned qps;	/* the relay QP, its proxies, the Q_Key QPs */
	unsigned cqs;	/* a receive and a send CQ */
	uint32_t cqe;	/* the deeper CQ: every receive buffer */
	uint32_t qp_wr; /* the deepest queue */
	size_t pinned;	/* bytes of receive buffers registered with each device */
};
/* A port of queue depths rq_depth and sq_depth (rq-depth, sq-depth) and nproxy proxies. */
void io_verbs_need(uint32_t rq_depth, uint32_t sq_depth, unsigned nproxy,
		   struct io_verbs_need *out);

#endif
