/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* fake_verbs_priv.h - the fake provider's objects, shared by its files. */
#ifndef FAKE_VERBS_PRIV_H
#define FAKE_VERBS_PRIV_H

#include "tests/fakes/fake_verbs.h"

#include "lib/ibr_pkt.h"

#include <pthread.h>
#include <stdbool.h>
#include <sys/un.h>

#define FV_MAX_QPS    32 /* a router port: relay, 8 proxies, 8 Q_Key QPs */
#define FV_MAX_MCAST  64
#define FV_MAX_EVENTS 64
#define FV_PKT_MAX    8192
#define FV_QPN_FIRST  0x100
#define FV_PUMP	      64 /* packets read from the wire per poll */

struct fv_cqe {
	struct ibv_wc wc;
	struct fv_qp *qp; /* send completions: the QP whose WQEs it retires */
	uint32_t retire;
};

struct fv_cq {
	struct ibv_cq cq;
	struct fv_cqe *ring;
	unsigned size, head, count;
	bool armed;
};

struct fv_recv {
	uint64_t wr_id;
	struct ibv_sge sge[4];
	int nsge;
};

struct fv_qp {
	struct ibv_qp qp;
	uint32_t qkey;
	uint16_t pkey_index;
	uint32_t psn;
	struct fv_recv *rq;
	unsigned rq_size, rq_head, rq_count;
	unsigned sq_size, sq_out, sq_unsig; /* WQEs held until a polled completion retires them */
	bool sq_sig_all;
	struct fv_ah **sq_ah; /* the AH of each held WQE, oldest at sq_first */
	unsigned sq_first;
};

struct fv_mcast {
	struct fv_qp *qp;
	union ibv_gid gid;
	uint16_t lid;
};

struct fv_ah {
	struct ibv_ah ah;
	struct ibv_ah_attr attr;
	unsigned refs; /* held WQEs that use it */
	bool dead;     /* destroyed while in use (counted): freed with its last WQE */
};

struct fv_dev {
	struct ibv_device dev;
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct sockaddr_un peer;
	struct fake_verbs_port_cfg cfg;
	/*
	 * What a test changes on the control thread (fake_verbs_ctl: the link,
	 * the LID, the GID) while the workers' wire reads it: the state atomic,
	 * the LID through fv_lid(), the GID under gid_lock (fv_gid_entry).
	 */
	_Atomic enum ibv_port_state state;
	pthread_mutex_t gid_lock;
	int fd;
	struct ibv_context *ctx;
	struct fv_qp *qps[FV_MAX_QPS];
	uint32_t next_qpn;
	struct fv_mcast mc[FV_MAX_MCAST];
	unsigned nmc;
	int evpipe[2];
	int ctl_fd, async_ep; /* the control socket <sock>.ctl; the async fd, an epoll set */
	char ctl[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct ibv_async_event ev[FV_MAX_EVENTS];
	unsigned nev;
	unsigned fault_rq, fault_send;
	bool removed; /* unregistered (fake_verbs_remove): not listed, dev_path gone */
	struct ibv_mr *mrs[16];
	struct fake_verbs_stats st;
};

/* The port's LID, which fake_verbs_ctl's "lid" may change under the workers. */
static inline uint16_t fv_lid(const struct fv_dev *d)
{
	return __atomic_load_n(&d->cfg.lid, __ATOMIC_RELAXED);
}

static inline struct fv_dev *fv_of(struct ibv_context *ctx)
{
	return (struct fv_dev *)ctx->device;
}

/* Queue a completion; false (counted) when the CQ is full. */
bool fv_cq_push(struct fv_dev *d, struct fv_cq *q, const struct fv_cqe *e);
/* Release `n` held WQEs of `q`, oldest first, and their AH references. */
void fv_sq_retire(struct fv_qp *q, unsigned n);
/* fake_verbs_roce.c: the GID table (IB: one entry; RoCE: fake_verbs.h); false past its end */
bool fv_gid_entry(const struct fv_dev *d, uint32_t index, struct ibv_gid_entry *e);
/* RoCE: whether `gid` is one of the port's (IP delivers unicast to its own addresses only) */
bool fv_roce_gid_own(const struct fv_dev *d, const uint8_t gid[16]);
/* RoCE: 0, or EINVAL for an AH that is not global from a RoCE v2 GID */
int fv_roce_ah_check(const struct fv_dev *d, const struct ibv_ah_attr *a);
/* RoCE: whether an MGID is an IP multicast address (IPv6, or IPv4-mapped 224.0.0.0/4) */
bool fv_roce_mgid_ok(const union ibv_gid *g);
/* RoCE: the IP header a receive leaves in front of the payload, from the packet's GRH */
void fv_roce_ip_hdr(uint8_t out[IBR_GRH_LEN], const struct ibr_grh *g);
/* fake_verbs_qp.c: the data path of the "HCA" */
void fv_wire_pump(struct fv_dev *d);
int fv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad);
int fv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad);

#endif
