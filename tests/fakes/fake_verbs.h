/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fake_verbs.h - a fake libibverbs for tests: the entry points
 * router/io/io_verbs*.c use, compiled against the system's
 * <infiniband/verbs.h>, whose devices' ports are sim wire ports
 * (doc/ARCHITECTURE.md, "Data path", model 1).  A UD send becomes a whole
 * IB packet on the port's socket (LRH, GRH, BTH, DETH, payload, ICRC, VCRC,
 * built by lib/ibr_pkt); a packet from the socket becomes a receive
 * completion the way an HCA makes one (IBA 11.4.2.1, the GRH in the first 40
 * bytes of the scatter list; in RoCE mode the IP header there, as rxe
 * leaves it).  No threads: the "HCA" runs inside ibv_poll_cq.
 *
 * Not modelled: RC/UC/RD QPs, SRQs, multicast loopback (never delivered),
 * link-level flow control, VL arbitration.  See tests/fakes/README.
 */
#ifndef FAKE_VERBS_H
#define FAKE_VERBS_H

#include <infiniband/verbs.h>
#include <stdbool.h>
#include <stdint.h>

#define FAKE_VERBS_MAX_DEVS 8

struct fake_verbs_port_cfg {
	const char *sock; /* bound here */
	const char *peer; /* sends go here */
	uint16_t lid;
	uint8_t lmc;
	uint16_t sm_lid;
	uint8_t gid[16];  /* GID index 0 (RoCE: 1) */
	uint16_t pkey;	  /* P_Key index 0 (0: 0xFFFF) */
	enum ibv_mtu mtu; /* 0: IBV_MTU_4096 (RoCE: IBV_MTU_1024) */
	bool down;	  /* start in IBV_PORT_DOWN */
	/*
	 * RoCE v2 mode (link layer Ethernet) on the same IB sim wire: no LIDs
	 * (port LID 0, wc.slid 0, a group attached with any MLID, delivered by
	 * MGID), the GID table of FAKE_VERBS_ROCE_NGIDS entries below, global
	 * AHs from a RoCE v2 entry only, unicast delivered only to the port's
	 * own GIDs (IP delivers to the host's own addresses), and the GRH slot
	 * of a receive holding the IP header (IPv6, or IPv4 for IPv4-mapped
	 * GIDs) as rxe leaves it; sent FlowLabels are 0, as rxe sends.
	 */
	bool roce;
};

/*
 * A RoCE port's GID table: 0 fe80::<the interface ID of `gid`> RoCE v2,
 * 1 `gid` RoCE v2, 2 `gid` RoCE v1, all of the netdev
 * FAKE_VERBS_ROCE_IFINDEX (1: lo, so that IP joins there work).
 */
#define FAKE_VERBS_ROCE_NGIDS	3
#define FAKE_VERBS_ROCE_IFINDEX 1

struct fake_verbs_stats {
	uint64_t post_send_calls; /* ibv_post_send() calls */
	uint64_t post_recv_calls;
	uint64_t send_wrs; /* work requests posted */
	uint64_t recv_wrs;
	uint64_t wire_tx;      /* packets put on the wire */
	uint64_t wire_full;    /* refused by the sim peer (its queue is full): lost */
	uint64_t wire_rx;      /* packets read from the wire */
	uint64_t rx_delivered; /* receive completions (all QPs) */
	uint64_t rx_no_wqe;    /* dropped: receive queue empty (or the fault) */
	uint64_t rx_filtered;  /* dropped: LID, QPN, Q_Key, P_Key, MGID, CRC */
	uint64_t tx_down;      /* sends discarded while the port is down */
	uint64_t ah_created;
	uint64_t ah_live;
	uint64_t cq_overrun;
	uint64_t sq_full;	  /* post_send refused: send queue full */
	uint64_t ah_busy_destroy; /* ibv_destroy_ah on an AH a held WQE still uses */
	uint64_t qp_live;	  /* QPs created and not destroyed */
	uint64_t rx_flushed;	  /* receive WQEs completed with a flush error (QP to ERR) */
	uint64_t closes;	  /* ibv_close_device() calls */
	uint64_t close_live;	  /* QPs, MRs and AHs still there at a close (not destroyed) */
	uint64_t cq_arms;	  /* ibv_req_notify_cq() calls */
};

/*
 * Programs that cannot call fake_verbs_dev_add() (ibrouterd linked with the
 * fake, tests/verbs) get their devices from the environment: when none was
 * added, the first ibv_get_device_list() reads
 *   FAKE_VERBS_DEVICES="name,sock,peer,lid,gid[,lmc|,roce];name,..."
 * e.g. "mlx5_0,/tmp/x/a.sock,/tmp/x/a.peer,0x1,fec0::1:0:0:0:1" (LMC 0 unless
 * given: the port answers to LIDs lid..lid+2^lmc-1, as the SM set it), or
 * "rxe0,/tmp/x/a.sock,/tmp/x/a.peer,0,fec0::1:0:0:0:1,roce" (RoCE mode: LID 0).
 */
#define FAKE_VERBS_ENV "FAKE_VERBS_DEVICES"

/* Add a one-port device named `name` ("mlx5_0").  Before ibv_get_device_list(). 0 or -errno. */
int fake_verbs_dev_add(const char *name, const struct fake_verbs_port_cfg *cfg);
/* Forget every device (all contexts must be closed). */
void fake_verbs_reset(void);
/* The next `n` receive attempts on the device find its receive queues empty. */
void fake_verbs_fault_rq_exhausted(const char *name, unsigned n);
/* The `nth` next send work request (1: the next) completes with IBV_WC_LOC_QP_OP_ERR. */
void fake_verbs_fault_send_error(const char *name, unsigned nth);
/* Port state change, with IBV_EVENT_PORT_ACTIVE / IBV_EVENT_PORT_ERR on the async fd. */
int fake_verbs_port_set(const char *name, bool up);
/* Another async event (LID change, GID change, SM change) for port 1. */
int fake_verbs_event(const char *name, enum ibv_event_type type);
/* The SM gave the port another LID: IBV_EVENT_LID_CHANGE (RoCE: -EINVAL, no LIDs). */
int fake_verbs_port_lid(const char *name, uint16_t lid);
/* The port's GID changed (another subnet prefix; RoCE: another address): IBV_EVENT_GID_CHANGE. */
int fake_verbs_port_gid(const char *name, const uint8_t gid[16]);
/*
 * The device is unregistered (rdma link del, a hot-unplug): it is no longer
 * listed or opened, and its ibv_device.dev_path, the uverbs device, is gone
 * ("", which access() does not find; "/dev/null" while it is there).  As
 * rxe does, an open context keeps working and hears nothing until it is
 * closed; with `fatal`, as mlx5 does, IBV_EVENT_DEVICE_FATAL comes on its
 * async fd.  fake_verbs_restore() registers it again.  0 or -ENOENT.
 */
int fake_verbs_remove(const char *name, bool fatal);
int fake_verbs_restore(const char *name);
/*
 * The same from another process (tests/verbs: the HCA events of an
 * ibrouterd linked with the fake): while a device is open, a UNIX datagram
 * socket at "<sock>.ctl" takes one command a datagram,
 *   down | up | lid LID | gid GID | sm | remove | remove fatal | add
 * applied when the async fd is read (it is readable when a command waits);
 * tests/fakes/fake_verbs_ctl sends one.  Anything else is ignored.  A
 * removed device keeps its control socket once closed, read by
 * ibv_get_device_list(), so that `add` reaches it.
 */
#define FAKE_VERBS_CTL_SUFFIX ".ctl"
/* Apply one such command to device `name`; 0, -ENOENT or -EINVAL. */
int fake_verbs_ctl(const char *name, const char *cmd);
/*
 * Let the "HCA" take what the wire holds now into its queues (as
 * ibv_poll_cq does first): a sender on the sim wire can only queue
 * net.unix.max_dgram_qlen datagrams (10 by default) ahead of the reader.
 */
void fake_verbs_pump(const char *name);
/* Counters of the device; 0 or -ENOENT. */
int fake_verbs_stats_get(const char *name, struct fake_verbs_stats *s);

#endif
