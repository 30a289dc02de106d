/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs.h - the verbs data-path backend (doc/ARCHITECTURE.md, "Data path",
 * model 2: UD datagrams).  Per port: a PD on its device, one buffer pool
 * (io_verbs_pool.h) registered with every device's PD so that any port can
 * send from any port's receive buffers, a receive CQ on a completion
 * channel (the worker's epoll fd), a send CQ, and one UD "relay" QP with a
 * deep receive queue, attached to the bridged multicast groups of its Q_Key
 * (those of other Q_Keys have QPs of their own, below).
 *
 * How the engine sees a verbs packet.  A UD receive carries the 40-byte
 * GRH and the payload (IBA 11.4.2.1); the HCA has already checked the LRH,
 * BTH, DETH, P_Key, Q_Key and both CRCs, and hides them.  The backend
 * writes in front of the payload what they must have been, from the work
 * completion: LRH (SL = wc.sl, SLID = wc.slid, LNH 3, PktLen; DLID = the
 * port's LID + wc.dlid_path_bits, or for a multicast DGID the MLID the QP
 * is attached with), BTH (UD SEND_ONLY, or _WITH_IMMEDIATE and the ImmDt,
 * PadCnt, the P_Key at wc.pkey_index, DestQP = 0xFFFFFF for a multicast
 * DGID else the QPN received on, PSN 0) and DETH (the QP's Q_Key, SrcQP =
 * wc.src_qp), then the ICRC and VCRC.  The engine then runs its numbered
 * checks on the GRH the sender built, unchanged.  The HCA has checked both
 * CRCs already: they are written as zeros unless the published FIB asks
 * for checks 4 or 17 on the port (vcrc-check, icrc-check), in which case
 * they are computed (~14 ns a 256-byte packet) so the checks pass.
 *
 * UD unicast: a proxy QP on the ingress port stands for a remote UD QP
 * (GID, QPN, Q_Key).  A sender addresses the remote's GID, with the
 * router's LID and the proxy's QPN; the engine routes the DGID, and the
 * egress port sends to the remote QPN and Q_Key.  It sends from its proxy
 * QP whose remote is the packet's source (SGID, SrcQP) when there is one,
 * so the remote's replies to the source QPN come back through it;
 * otherwise from the relay QP.
 *
 * Sending a router_tx: the AH comes from the rewritten header (DLID and SL
 * of the LRH; TClass, FlowLabel, HopLmt of the GRH) and the DGID, through
 * the AH cache (io_verbs_ah.h); multicast (DestQP 0xFFFFFF) goes to QPN
 * 0xFFFFFF with the packet's Q_Key.  The receiver sees the router's LID,
 * GID and QPN as the source: the limits of this model (ibrouterd(8)).
 *
 * Multicast groups: when a new FIB is published, the worker receiving from
 * the port attaches a QP to every group with an MLID on the port's subnet
 * and detaches it from the groups gone (joining them through the SA is the
 * control plane's work).  An HCA gives a UD packet only to a QP whose Q_Key
 * is the packet's (C10-25), so a group goes to the QP of its Q_Key: the
 * relay QP for the relay Q_Key (and groups whose Q_Key is unknown, 0), else
 * a "Q_Key QP" the port creates for it, at most IO_VERBS_MAX_QKEY a port,
 * and destroys when no group needs it any more (io_verbs_mcast.c).  A
 * packet received on one says its Q_Key in the DETH the backend writes.
 *
 * Batching: one chained ibv_post_send per egress port per burst, every
 * 16th work request and the last of a burst signalled; receive buffers are
 * re-posted in chains of IO_VERBS_REPOST.
 */
#ifndef IO_VERBS_H
#define IO_VERBS_H

#include "router/io/io_port.h"
#include "router/io/io_verbs_ah.h"
#include "router/io/io_verbs_pool.h"

#include "lib/ibr_ipmc.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define IO_VERBS_RQ_DEPTH 1024 /* default receive queue depth = buffers per port */
/* rq-depth's range: two chains of re-posts at least; the pool's indexes and rxe's WQEs at most */
#define IO_VERBS_RQ_DEPTH_MIN 64
#define IO_VERBS_RQ_DEPTH_MAX 16384
#define IO_VERBS_SQ_DEPTH     1024
/* sq-depth's range: a burst's copies to every port at least; as rq-depth at most */
#define IO_VERBS_SQ_DEPTH_MIN 64
#define IO_VERBS_SQ_DEPTH_MAX 16384
#define IO_VERBS_SIGNAL	      16 /* one signalled send per 16 (posts and CQEs per packet) */
#define IO_VERBS_REPOST	      16 /* receive buffers re-posted per chain */
#define IO_VERBS_AH_CAP	      4096
#define IO_VERBS_QKEY	      0x0B1B /* default relay Q_Key (the IPoIB one) */
#define IO_VERBS_MAX_MCAST    256    /* groups a relay QP attaches to */
#define IO_VERBS_MAX_PROXY    8	     /* proxy QPs per port */
#define IO_VERBS_PROXY_RQ     64     /* receive queue depth of a proxy QP */
#define IO_VERBS_PROXY_SQ     256
/*
 * Q_Key QPs per port: group Q_Keys other than the relay's.  Each receives as
 * deep as the relay QP (rq_depth buffers kept for it in the pool): rdma_cm
 * applications' groups all have a Q_Key of their own (0x01234567), and with
 * 128 a stream of 10,000 lost 15-35% at the port while the egress held the
 * buffers (tests/vm/vm_mckey.sh).
 */
#define IO_VERBS_MAX_QKEY 8
#define IO_VERBS_QKEY_SQ  64 /* its send queue: multicast with its controlled Q_Key */
/* QP slots of a port: the relay QP, its proxies, then IO_VERBS_MAX_QKEY Q_Key QPs */
#define IO_VERBS_NQP		 (1 + IO_VERBS_MAX_PROXY + IO_VERBS_MAX_QKEY)
#define IO_VERBS_QKEY_CONTROLLED 0x80000000u /* C10-15: a WR with it sends the QP's own */

/*
 * The receive buffers (every QP's receive queue) and send WRs (every send
 * queue) of a port of queue depths rq_depth, sq_depth and nproxy proxies:
 * its CQs' depths.
 */
uint32_t io_verbs_port_nbufs(uint32_t rq_depth, unsigned nproxy);
uint32_t io_verbs_port_nsend(uint32_t sq_depth, unsigned nproxy);

/* Where the packets sent to a proxy QP go: a UD QP on another subnet. */
struct io_verbs_proxy_cfg {
	uint8_t gid[16];
	uint32_t qpn;
	uint32_t qkey; /* also the proxy QP's own: senders use the remote's Q_Key */
};

struct io_verbs_port_cfg {
	char device[64];   /* "mlx5_0" */
	uint8_t port_num;  /* HCA port, from 1 */
	uint32_t rq_depth; /* 0: IO_VERBS_RQ_DEPTH */
	uint32_t sq_depth;
	uint32_t qkey;	     /* the relay QP's Q_Key; 0: IO_VERBS_QKEY */
	uint32_t ah_cap;     /* AH cache slots (3/4 used a generation); 0: IO_VERBS_AH_CAP */
	uint8_t router_port; /* the router's port index, stamped on received packets */
	unsigned nproxy;
	struct io_verbs_proxy_cfg proxy[IO_VERBS_MAX_PROXY];
};

enum io_verbs_qp_kind {
	IO_VERBS_QP_NONE = 0, /* an empty Q_Key slot */
	IO_VERBS_QP_RELAY,
	IO_VERBS_QP_PROXY,
	IO_VERBS_QP_QKEY,    /* receives the groups of one Q_Key */
	IO_VERBS_QP_CLOSING, /* a Q_Key QP no group needs: in the error state, flushing */
};

/*
 * A UD QP of a port: q[0] the relay QP, then the proxy QPs, then the Q_Key
 * slots (from qkey0).  Slots are fixed once the port is open.
 */
struct io_verbs_qp {
	void *qp; /* struct ibv_qp */
	uint32_t qpn, qkey;
	uint32_t rq_depth, rq_posted, sq_depth;
	/* sends in flight, by sequence number: released when a completion passes them */
	struct io_verbs_buf **sq_ring;
	uint64_t sq_head, sq_tail;
	uint32_t sq_unsig;
	bool error;	 /* a send failed: the QP is in the error state until reset */
	uint8_t kind;	 /* enum io_verbs_qp_kind; Q_Key slots change under tx_lock */
	uint32_t groups; /* multicast groups attached to it */
	struct io_verbs_proxy_cfg remote; /* proxy: where its packets go */
};

/*
 * Counters of one port: the receive side's by the worker that receives from
 * it, the send side's under tx_lock (any worker sends on any port), tx_down
 * with an atomic add.  Read approximately.
 */
struct io_verbs_stats {
	uint64_t rx;
	uint64_t rx_err;      /* receive completion in error */
	uint64_t rx_no_grh;   /* no GRH: from the local subnet, nothing to route */
	uint64_t rx_own_sgid; /* SGID is one of the router's own GIDs: a loop */
	uint64_t rx_bad_len;
	uint64_t tx_posts; /* ibv_post_send calls */
	uint64_t tx_wrs;
	uint64_t tx_err;     /* send completions in error (QP recovered) */
	uint64_t tx_no_ah;   /* no AH: cache full, create failed, no IPv4 GID */
	uint64_t tx_unicast; /* unicast without a proxy mapping: not sendable */
	uint64_t tx_down;
	uint64_t recv_posts; /* ibv_post_recv calls */
	uint64_t qp_resets;
	uint64_t events;
	uint64_t tx_qkey;     /* controlled Q_Key with no QP of it on the port: not sendable */
	uint64_t mc_no_qp;    /* a group not attached: no Q_Key slot left, or no QP */
	uint64_t qkey_qps;    /* Q_Key QPs created */
	uint64_t qkey_closed; /* Q_Key QPs destroyed */
	uint64_t mc_ip_err;   /* RoCE: the IP layer refused a group's membership */
	uint64_t cq_err;      /* IBV_EVENT_CQ_ERR: a CQ overran (completions lost) */
	uint64_t tx_foreign; /* from a port of another backend (sim): not sendable (unicast, not a UD SEND) */
	uint64_t tx_bounced;	 /* from a port of another backend: copied into a bounce buffer */
	uint64_t tx_bounce_full; /* ...when every bounce buffer was in flight: not sent */
	/*
	 * The fewest receive buffers the relay QP had posted after a poll since
	 * the port opened: 0 means it ran dry (the HCA dropped what came then).
	 */
	uint64_t rq_low;
};

/*
 * A counter of io_verbs_stats += n by its one writer (the port's owner, or
 * a sender under tx_lock): a relaxed atomic store, a plain load and store on
 * x86, so that io_verbs_port_stats() may read it from another thread.
 */
#define IO_VERBS_ST_ADD(ctr, n) __atomic_store_n((ctr), *(ctr) + (uint64_t)(n), __ATOMIC_RELAXED)

struct io_verbs;

struct io_verbs_mcast {
	uint8_t mgid[16];
	uint16_t mlid;
	uint8_t slot; /* the QP it is attached to: 0 or a Q_Key slot */
};

struct io_verbs_port {
	struct io_port io; /* first: the worker drives the port through it */
	struct io_verbs *v;
	uint8_t idx;
	struct io_verbs_port_cfg cfg;
	struct io_verbs_dev *dev;
	void *ch, *rcq, *scq; /* ibv_comp_channel, ibv_cq, ibv_cq (all QPs of the port) */
	struct io_verbs_qp q[IO_VERBS_NQP];
	unsigned nq;	     /* slots: 1 + proxies + IO_VERBS_MAX_QKEY */
	unsigned qkey0;	     /* the first Q_Key slot */
	unsigned nclosing;   /* Q_Key QPs closing: the owner destroys them once flushed */
	unsigned idle_polls; /* empty bursts of a polled port since its last housekeeping */
	int numa;	     /* its HCA's NUMA node, where its memory is; -1: not known */
	uint32_t qpn;	     /* the relay QP's */
	uint16_t lid;
	uint8_t lmc;
	bool up;	 /* active: sends go out (read by every worker) */
	bool lost;	 /* its device is gone: no CQ, no QP until it is back (io_verbs_dev_lose) */
	bool tx_lock_ok; /* tx_lock initialised */
	bool refresh;	 /* an event: the owner reads state, LID and GID again */
	bool mc_waiting; /* the last FIB has a group no Q_Key slot was free for */
	bool lb_blocked; /* the HCA blocks self multicast loopback */
	/*
	 * RoCE (link layer Ethernet): no LIDs, no SM.  The port's GID is its
	 * RoCE v2 GID at sgid_index (an address of the netdev `ifindex`), every
	 * AH is global from it, and a group's QP attachment goes with the IP
	 * layer's membership of the group (lib/ibr_ipmc.h).
	 */
	bool roce;
	uint8_t sgid_index;
	/*
	 * RoCE v2 cannot mix families in one packet (A17.4.5.2: an IPv4-mapped
	 * GID is an IPv4 header's address): to an IPv4 group the port sends
	 * from its IPv4 GID (::ffff:a.b.c.d at sgid4_index), when the netdev
	 * has an IPv4 address (has_gid4); `gid` is the IPv6 one when it has
	 * both, else the IPv4 one.
	 */
	bool has_gid4;
	uint8_t sgid4_index;
	uint8_t gid4[16];
	unsigned ifindex;
	uint16_t mtu; /* the port's active MTU in bytes (the largest UD payload) */
	uint8_t gid[16];
	uint16_t pkey[16];
	struct io_verbs_pool pool;
	uint32_t rq_posted;	    /* over all its QPs */
	pthread_spinlock_t tx_lock; /* the send side: rings, AH cache (any worker sends) */
	bool qp_error;		    /* some QP is in error: the owner recovers it */
	bool crc_fill; /* the FIB checks CRCs on this port: compute them (owner thread) */
	struct io_verbs_ah ah;
	/* each QP's sq_head when the AH cache began its generation: the old one's
	 * handles go once every send before that has completed */
	uint64_t ah_mark[IO_VERBS_NQP];
	struct io_verbs_mcast mc[IO_VERBS_MAX_MCAST];
	unsigned nmc;
	struct ibr_ipmc ipmc; /* RoCE: the IP groups behind mc[] */
	struct io_verbs_stats st;
};

/*
 * Open `n` ports (router port index i = cfg[i]) and register every pool
 * with every device.  NULL with errno set on failure (logged).
 */
struct io_verbs *io_verbs_open(const struct io_verbs_port_cfg *cfg, unsigned n);
void io_verbs_close(struct io_verbs *v);
struct io_verbs_port *io_verbs_port(struct io_verbs *v, unsigned i);

/*
 * A device lost, and found again.  A device goes in one of two ways: its
 * driver reports IBV_EVENT_DEVICE_FATAL (an HCA's firmware fault or
 * hot-unplug: the kernel has taken its resources back and every verb fails
 * from then on), or it is unregistered without a word to the process: the
 * kernel removes its uverbs device (ibv_device.dev_path,
 * /sys/class/infiniband_verbs/uverbsN) and then waits for every process
 * to close it before the removal can finish -- rxe's `rdma link del`, whose
 * driver cannot take resources back from a process (found in the VM lab,
 * tests/vm/vm_roce.sh).  Either way the router lets go of everything it
 * has on the device (io_verbs_dev_lose) so the removal finishes, its ports
 * are lost (not up, nothing sent or received, every buffer back in its
 * pool), and when a device of that name is listed again it opens it and
 * the ports' objects again (io_verbs_dev_reopen): new QPNs, the groups
 * attached again from the next FIB their worker reads.  A device absent
 * when the ports open is lost from the start.  Lose and reopen run while
 * no worker drives the ports (the daemon stops them).
 */
unsigned io_verbs_ndevs(const struct io_verbs *v);
const char *io_verbs_dev_name(const struct io_verbs *v, unsigned d);
bool io_verbs_dev_lost(const struct io_verbs *v, unsigned d);
/* Why open device `d` must be let go: a fatal event or its uverbs device gone; NULL: fine. */
const char *io_verbs_dev_check(const struct io_verbs *v, unsigned d);
/* Whether lost device `d` is listed again (ibv_get_device_list). */
bool io_verbs_dev_present(const struct io_verbs *v, unsigned d);
void io_verbs_dev_lose(struct io_verbs *v, unsigned d);
/* Open lost device `d` and its ports again: 0, or -errno and still lost. */
int io_verbs_dev_reopen(struct io_verbs *v, unsigned d);

/*
 * Attach the QP of Q_Key `qkey` to a group (IBA 10.5): the relay QP when
 * `qkey` is its Q_Key or 0 (unknown), else the port's Q_Key QP for it,
 * created when there is none (-ENOSPC past IO_VERBS_MAX_QKEY, counted).
 * Its MLID also names it to the engine.  The worker does it by itself for
 * the groups a published FIB has on the port (io_port fib_changed): every
 * group with an MLID there.  Owner thread.
 */
int io_verbs_mcast_attach_qkey(struct io_verbs_port *p, const uint8_t mgid[16], uint16_t mlid,
			       uint32_t qkey);
/* The same for a group of the relay Q_Key (or an unknown one). */
int io_verbs_mcast_attach(struct io_verbs_port *p, const uint8_t mgid[16], uint16_t mlid);
/* Detach; a Q_Key QP left with no group closes (destroyed once flushed). */
int io_verbs_mcast_detach(struct io_verbs_port *p, const uint8_t mgid[16]);

/* A receiving QP of a port as `show qps` lists it. */
struct io_verbs_qp_info {
	uint32_t qpn, qkey, groups;
	uint8_t kind; /* enum io_verbs_qp_kind */
};

/* Up to `max` of the port's QPs in use (any thread); how many. */
unsigned io_verbs_port_qps(struct io_verbs_port *p, struct io_verbs_qp_info *out, unsigned max);

enum io_verbs_event {
	IO_VERBS_EV_UP,
	IO_VERBS_EV_DOWN,
	IO_VERBS_EV_LID,
	IO_VERBS_EV_GID,
	IO_VERBS_EV_SM,
	IO_VERBS_EV_FATAL, /* the device: io_verbs_dev_check() says so, the ports are down */
	IO_VERBS_EV_OTHER,
};

/* The kind of an ibv_event_type (IO_VERBS_EV_OTHER for those not about a port). */
enum io_verbs_event io_verbs_event_kind(int ibv_event_type);

/* The fd of the port's device async events (the control thread's epoll). */
int io_verbs_async_fd(const struct io_verbs_port *p);
/*
 * Who reads the async events.  By default the owning worker of each port,
 * when the port is idle (at least every 100 ms), and nobody hears of them
 * but the port.  With `control` true only io_verbs_async_poll() callers do
 * (the daemon's control thread, which turns them into daemon events:
 * routes withdrawn, LIDs and prefixes updated, SA resyncs); the workers
 * then only read their port's state again when an event flagged it.
 */
void io_verbs_async_owner(struct io_verbs *v, bool control);
/*
 * Read the pending async events of the port's device and report each to
 * `fn` with the port it names; a port going down stops sending at once,
 * and every port an event names reads its state, LID, GID and P_Keys again
 * in its owner's thread (now, for `p`; `fn` may call io_verbs_port_refresh
 * to have it now).  Returns the count.
 */
unsigned io_verbs_async_poll(struct io_verbs_port *p,
			     void (*fn)(void *ctx, struct io_verbs_port *p, enum io_verbs_event),
			     void *ctx);

/*
 * Read the port's state, link layer, active MTU, LID, LMC, GID and P_Keys
 * now (ibv_query_port, ibv_query_gid_ex, ibv_query_pkey): on IB GID 0, on
 * RoCE the first RoCE v2 GID that is not link-local (else the first RoCE
 * v2 one).  0 or -EIO.
 */
int io_verbs_port_refresh(struct io_verbs_port *p);

/* Reap send completions (the worker does it in every burst; tests and shutdown call it). */
void io_verbs_port_reap(struct io_verbs_port *p);
/* A copy of the port's counters for another thread (`show verbs`): each read once, relaxed. */
void io_verbs_port_stats(const struct io_verbs_port *p, struct io_verbs_stats *out);
/* Buffers of the port's pool: on the receive queue, free, held. */
void io_verbs_port_bufs(struct io_verbs_port *p, uint32_t *posted, uint32_t *nfree, uint32_t *held);

#endif
