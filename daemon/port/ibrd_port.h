/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_port.h - the daemon's port room: what faces the router's ports.  The
 * data path (ibrd_data.c: sim sockets, verbs ports, workers, counters), the
 * HCA events (ibrd_verbs.c), the UD proxies (ibrd_proxy.c), captures
 * (ibrd_capture.c), the MAD channels (ibrd_mad.c), and the SMA and PMA on
 * them (ibrd_sma.c, ibrd_pma.c).  It calls down into router/, sma/, mad/ and
 * the ctl/ and conf/ rooms, never into learn/ (beside it) nor up.
 */
#ifndef IBRD_PORT_H
#define IBRD_PORT_H

#include "daemon/ibrd.h"
#include "router/io/io_sim.h"
#include "router/router_worker.h"

#include "lib/ibr_pcap.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct io_port;
struct io_verbs;
struct io_verbs_stats;
struct ibrd_smp;
struct ibrd_sma_tabs;
struct sma;
struct sma_pma;

/* ---- the data path (ibrd_data.c, ibrd_verbs.c, ibrd_proxy.c) ---- */

/*
 * A UD unicast proxy (a proxy section of the config, or ibrouterctl proxy
 * add): a QP on `port` stands for (gid, qpn, qkey).  At most 8 a port
 * (IO_VERBS_MAX_PROXY) on 16 ports.
 */
#define IBRD_MAX_PROXIES 128
struct ibrd_proxy {
	uint32_t port;
	uint8_t gid[16];
	uint32_t qpn, qkey;
	bool conf; /* from the config: replaced by a reload (the others stay) */
};

/* The async-event fd of a verbs device on the epoll loop (ibrd_verbs.c). */
struct ibrd_verbs_ev {
	struct ibrd_ev ev; /* IBRD_EV_VERBS; first */
	unsigned k;	   /* a verbs port of the device (io_verbs_port index) */
	int fd;
};

/* The sim sockets of a config being applied (ibrd_data.c): bound before anything changes. */
struct ibrd_sim_stage {
	int from[ROUTER_MAX_PORTS]; /* the open socket (old port index) a port keeps, or -1 */
	bool fresh[ROUTER_MAX_PORTS];
	struct io_sim_port sock[ROUTER_MAX_PORTS]; /* the new ones */
	bool kept[ROUTER_MAX_PORTS];		   /* old socket j is kept by a port */
	bool installed;				   /* the ports have them; the old set is below */
	struct io_sim_port old[ROUTER_MAX_PORTS];
	bool old_open[ROUTER_MAX_PORTS];
};

/* The refusal counters of a verbs port that ibrd_verbs_refusals.c says (io_verbs_stats). */
#define IBRD_VERBS_REFUSALS 10

/* The data path's state (d->data). */
struct ibrd_datapath {
	struct io_sim_port sim[ROUTER_MAX_PORTS];
	bool sim_open[ROUTER_MAX_PORTS];
	/* data = verbs ports, opened together (ibrd_data.c); vport by port index */
	struct io_verbs *verbs;
	struct io_port *vport[ROUTER_MAX_PORTS];
	char verbs_sig[ROUTER_MAX_PORTS * 80 + IBRD_MAX_PROXIES * 64];
	uint64_t verbs_check_ns; /* the next look at lost and vanished devices (ibrd_verbs_tick) */
	/* each verbs port's refusal counters when last said, and when (ibrd_verbs_refusals.c) */
	uint64_t refusals[ROUTER_MAX_PORTS][IBRD_VERBS_REFUSALS];
	uint64_t refusals_ns[ROUTER_MAX_PORTS];
	struct ibrd_proxy proxy[IBRD_MAX_PROXIES];
	unsigned nproxies;
	/* the HCA async events (ibrd_verbs.c): one fd a device */
	struct ibrd_verbs_ev vev[ROUTER_MAX_PORTS];
	unsigned nvev;
	unsigned nworkers;
	struct router_worker *workers;
	/* the core's: each worker's hooks (SMA, captures), before it starts */
	void (*worker_setup)(struct ibrd *d, struct router_worker *w);
	pthread_t *threads;
	bool running;
	struct router_counters retired; /* totals of workers stopped by a reload */
	struct router_counters cleared; /* subtracted from sums after "clear counters" */
};

/*
 * ibrd_verbs_refusals.c: the refusals of the verbs ports said, once a second
 * at most every 10 s a port (from ibrd_verbs_tick).
 */
void ibrd_verbs_refusals_tell(struct ibrd *d, uint64_t now);
/*
 * What grew in `st` since `last` (updated), as "name N (why), ..." in
 * `buf`: the number of packets refused, 0 for none.
 */
size_t ibrd_verbs_refusals(const struct io_verbs_stats *st, uint64_t last[IBRD_VERBS_REFUSALS],
			   char *buf, size_t len);

struct ibrd_datapath *ibrd_data_new(void);
void ibrd_data_free(struct ibrd_datapath *x);
/* Bind the sim sockets of config `c` beside the open ones (those whose path is open are kept). */
int ibrd_data_stage(struct ibrd *d, const struct ibrd_conf *c, struct ibrd_sim_stage *st);
/* With the workers stopped: the staged sockets become the ports'. */
void ibrd_data_install(struct ibrd *d, const struct ibrd_conf *c, struct ibrd_sim_stage *st);
/* Close the sockets no port kept. */
void ibrd_data_commit(struct ibrd_sim_stage *st);
/* Back to the sockets before the stage; the new ones closed. */
void ibrd_data_unstage(struct ibrd *d, struct ibrd_sim_stage *st);
/* At start: the config's sim sockets. */
int ibrd_data_open(struct ibrd *d);
/* At the end: the sim sockets closed. */
void ibrd_data_close(struct ibrd *d);
int ibrd_data_start(struct ibrd *d);
void ibrd_data_stop(struct ibrd *d);
void ibrd_counters_sum(struct ibrd *d, struct router_counters *sum);
/* The same since the start, whatever "clear counters" did (the PMA clears its own way). */
void ibrd_counters_total(struct ibrd *d, struct router_counters *sum);
/*
 * With the workers stopped: the counts of port src[i] become port i's
 * (src[i] < 0: zero); src has ROUTER_MAX_PORTS entries.
 */
void ibrd_counters_move(struct ibrd *d, const int *src);

/* ibrd_verbs.c: the verbs ports and their HCA events (port state, LID, GID, SM) */
/* Open the config's verbs ports (again, when their set or proxies changed), and watch them. */
int ibrd_verbs_open(struct ibrd *d);
/* Put the devices' async fds on the epoll loop, and the ports' state in the RIB. */
int ibrd_verbs_watch(struct ibrd *d);
/* Take them off (before the verbs ports close). */
void ibrd_verbs_unwatch(struct ibrd *d);
/*
 * The open verbs ports' state (link, LID, GID, RoCE: link layer, GUID, MTU)
 * into a RIB made anew from the file, by a reload that kept them open.
 */
void ibrd_verbs_sync(struct ibrd *d);
/* Events on a device's async fd. */
void ibrd_verbs_event(struct ibrd *d, struct ibrd_ev *ev);
/*
 * Once a second, and at once after a fatal device error: let go of the
 * devices that went away (their ports lost), open again those that are back.
 */
void ibrd_verbs_tick(struct ibrd *d, uint64_t now_ns);

/* ibrd_proxy.c: the UD unicast proxies of the verbs ports */
/* Index of the proxy (port, gid, qpn) in d->data->proxy, or -1. */
int ibrd_proxy_find(const struct ibrd *d, uint32_t port, const uint8_t *gid, uint32_t qpn);
/* Proxies on `port`. */
unsigned ibrd_proxy_count(const struct ibrd *d, uint32_t port);
/* The proxies of config `c` replace those of the last one; true if d->data->proxy changed. */
bool ibrd_proxy_load(struct ibrd *d, const struct ibrd_conf *c);

/* ---- captures (ibrd_capture.c): pcap files of one port (ERF type 21) ---- */

/*
 * The workers read `ports` (port bit, mode, generation) without the lock,
 * every other field under `lock`.
 */
struct ibrd_capture {
	pthread_mutex_t lock;
	struct ibr_pcap pcap;
	_Atomic uint32_t ports;
	uint32_t word; /* ports of the running capture */
	uint32_t gen;  /* the control thread's only */
	bool on;
	uint64_t limit, count;
	char file[IBRD_PATH_MAX];
};

struct ibrd_capture *ibrd_capture_new(void);
void ibrd_capture_free(struct ibrd_capture *x);
void ibrd_capture_hooks(struct ibrd *d, struct router_worker *w);
/*
 * Capture to `fd` (the caller's no more: closed on failure), a descriptor
 * ibrouterctl opened as its user; `file` is the name it gave (a label).
 * 0, or -errno with a message in err.
 */
int ibrd_capture_start(struct ibrd *d, int port, const char *file, bool all, uint64_t count, int fd,
		       char *err, size_t errlen);
/* Close the file; returns the packets written, or -ENOENT when none was running. */
int64_t ibrd_capture_stop(struct ibrd *d);
/* From the control loop: close a capture that reached its count. */
void ibrd_capture_tick(struct ibrd *d);

/* ---- the SMA and the PMA (ibrd_sma.c, ibrd_pma.c) ---- */

/*
 * Why an SMP, or the SMA's reply, was lost outside the SMA (which counts its
 * own drops): the daemon's queue, a VL15 packet that is no SMP, and the
 * replies that could not be sent (ibrd_sma.c, ibrd_mad.c; show sma drops).
 */
#define IBRD_SMP_LOSSES(X)                                                              \
	X(QUEUE_FULL, "queue-full", "the SMA's queue was full (the SM retries)")        \
	X(NOT_SMP, "not-an-smp", "VL15 but no 256-byte MAD to QP0 (IBA 14.2.1)")        \
	X(CRC, "crc", "ICRC or VCRC wrong (IBA 7.8)")                                   \
	X(REPLY_AGAIN, "reply-again", "the reply found the peer's queue full (EAGAIN)") \
	X(REPLY_NO_PEER, "reply-no-peer",                                               \
	  "the reply found no one at the peer (ENOENT, ECONNREFUSED)")                  \
	X(REPLY_ERROR, "reply-error", "the reply could not be built or sent")

enum ibrd_smp_loss {
#define IBRD_SMP_LOSS_ENUM(id, name, text) IBRD_SMP_##id,
	IBRD_SMP_LOSSES(IBRD_SMP_LOSS_ENUM)
#undef IBRD_SMP_LOSS_ENUM
		IBRD_SMP_LOSS_MAX
};

/* The loss a reply's send error is (0 or -errno from a send). */
static inline enum ibrd_smp_loss ibrd_smp_reply_loss(int err)
{
	if (err == -EAGAIN || err == -EWOULDBLOCK || err == -ENOBUFS)
		return IBRD_SMP_REPLY_AGAIN;
	if (err == -ENOENT || err == -ECONNREFUSED)
		return IBRD_SMP_REPLY_NO_PEER;
	return IBRD_SMP_REPLY_ERROR;
}

/* The SMA and the PMA of the sim ports: SMPs queued by the workers, answered here. */
struct ibrd_agents {
	struct ibrd_ev ev_sma; /* IBRD_EV_SMA: smp_efd */
	struct sma *sma;
	struct sma_pma *pma;		 /* the PerfMgt agent (ibrd_pma.c) */
	struct router_counters *pma_sum; /* the totals a PMA request reads (ibrd_pma_one) */
	pthread_mutex_t smp_lock;
	struct ibrd_smp *smp_q;
	unsigned smp_head, smp_n;
	/* SMPs and replies lost around the SMA, by port (enum ibrd_smp_loss; under smp_lock) */
	uint64_t smp_lost[ROUTER_MAX_PORTS][IBRD_SMP_LOSS_MAX];
	int smp_efd;
	uint64_t sma_tables_key;	/* what the SMA's vendor tables were last built at */
	struct ibrd_pace sma_pace;	/* their rebuilds (ibrd.h) */
	bool sma_tables_wait;		/* they moved: rebuilt when the pace allows */
	uint64_t sma_trap_tid;		/* the TIDs of the SMA's traps */
	struct ibrd_sma_tabs *sma_tabs; /* each port's NextHopTable (ibrd_sma.c) */
};

struct ibrd_agents *ibrd_agents_new(void);
void ibrd_agents_free(struct ibrd_agents *x);
/* An SMP or a reply of port `idx` lost around the SMA (any thread). */
static inline void ibrd_smp_lost(struct ibrd *d, uint32_t idx, enum ibrd_smp_loss why)
{
	if (idx >= ROUTER_MAX_PORTS || (unsigned)why >= IBRD_SMP_LOSS_MAX)
		return;
	pthread_mutex_lock(&d->agents->smp_lock);
	d->agents->smp_lost[idx][why]++;
	pthread_mutex_unlock(&d->agents->smp_lock);
}
int ibrd_sma_start(struct ibrd *d);
void ibrd_sma_stop(struct ibrd *d);
/*
 * The SMA for a reload's config `nc` (port i was port from[i]): ports that
 * stay keep what their SMs set; in place only with ibrd_sma_swap().
 */
struct sma *ibrd_sma_renew(struct ibrd *d, const struct ibrd_conf *nc, const int *from);
void ibrd_sma_swap(struct ibrd *d, struct sma *s);
void ibrd_sma_hooks(struct ibrd *d, struct router_worker *w);
void ibrd_sma_event(struct ibrd *d);
/*
 * After the turn's tables are published: the SMA's view of the ports anew,
 * and of its vendor tables when they moved, at their pace (ibrd_pace).
 */
void ibrd_sma_sync(struct ibrd *d);
/* A port forwards when it is up and has a LID (what the FIB compiler calls usable). */
static inline bool ibrd_port_forwards(const struct router_port *p)
{
	return (p->flags & ROUTER_PORT_UP) && p->lid;
}
/* ibrd_sma_tables.c: the SMA's vendor tables */
struct sma_next_hop;
struct sma_adj_subnet;
#define IBRD_SMA_NH_CAP 1024 /* RouterInfo:NextHopTableCap (sma_node_cfg_of) */
struct ibrd_sma_tabs *ibrd_sma_tables_new(void);
void ibrd_sma_tables_free(struct ibrd_sma_tabs *t);
/*
 * The vendor tables anew when they moved, compared with what they were
 * (the table-change mask of RouterInfo); `paced`: at their pace.
 */
void ibrd_sma_tables_sync(struct ibrd *d, bool paced);
/* Before the SMA answers SMP `mad`: the vendor tables it reads, up to date. */
void ibrd_sma_tables_fresh(struct ibrd *d, const uint8_t *mad);
/* When the vendor tables' paced rebuild is due (UINT64_MAX: none waits). */
uint64_t ibrd_sma_deadline(const struct ibrd *d);
/* The SMA's ops (struct sma_ops): the tables' records from `first`, their count. */
uint32_t ibrd_sma_next_hops(void *arg, uint8_t port, uint32_t first, struct sma_next_hop *out,
			    unsigned max, unsigned *filled);
uint32_t ibrd_sma_adj_subnets(void *arg, uint8_t port, uint32_t first, struct sma_adj_subnet *out,
			      unsigned max, unsigned *filled);
/* Port i's SMPs and replies lost around the SMA, by enum ibrd_smp_loss (a copy). */
void ibrd_sma_losses(struct ibrd *d, uint32_t i, uint64_t lost[IBRD_SMP_LOSS_MAX]);
/*
 * The non-empty P_Keys of a table (base 0 is an empty entry), "0xffff<sep>0x8001"
 * into buf; false when they did not all fit.
 */
bool ibrd_sma_pkeys_str(const uint16_t *pk, unsigned n, const char *sep, char *buf, size_t size);
/* The alias GUIDs of a GUIDInfo table (entries 1 and up that are set); *count of them. */
bool ibrd_sma_guids_str(const uint64_t *g, unsigned n, const char *sep, char *buf, size_t size,
			unsigned *count);
/* ibrd_pma.c: the PerfMgt agent of the sim ports (GMPs from the SMA's queue) */
int ibrd_pma_start(struct ibrd *d);
void ibrd_pma_renew(struct ibrd *d, unsigned nports, const int *from);
void ibrd_pma_stop(struct ibrd *d);
void ibrd_pma_one(struct ibrd *d, uint32_t port, const uint8_t *pkt, size_t len);
/* One PerfMgt MAD for router port index `port`: 0 and the 256-byte reply, or -errno (none). */
int ibrd_pma_mad(struct ibrd *d, uint32_t port, const uint8_t *mad, size_t len, uint8_t *reply);

/* ---- what each port is to its SM (ibrd_node.c) ---- */

enum ibrd_node_kind { IBRD_NODE_UNKNOWN, IBRD_NODE_CA, IBRD_NODE_ROUTER };

/*
 * Port i to its subnet's SM: as its SA client read it (hop-0 NodeInfo),
 * else a CA on an HCA (mad = umad, data = verbs), a Router node on a sim
 * port (the SMA answers), unknown on an ibsim port not read yet.
 */
enum ibrd_node_kind ibrd_port_node(const struct ibrd *d, uint32_t i);
/* "ca", "router", "-". */
const char *ibrd_node_kind_name(enum ibrd_node_kind k);
/*
 * What an operator must know of port i, "; "-separated into buf (empty:
 * nothing): its MAD channel lost, its subnet at the default prefix
 * fe80::/64, a CA port's needs (the OpenSM plugin for PathRecords; on an HCA
 * no router attributes).
 */
const char *ibrd_port_notes(const struct ibrd *d, uint32_t i, char *buf, size_t n);
/* At start: what each port is to its SM and what that means, logged. */
void ibrd_port_roles_log(struct ibrd *d);

/* ---- the MAD channels (ibrd_mad.c): mad = ibsim or umad ---- */

/* A port's MAD side as `show ports` and `show sa` tell it. */
struct ibrd_mad_info {
	bool configured;      /* mad = ibsim or umad */
	bool lost;	      /* no channel: its device not there (yet), or it failed */
	int err;	      /* why (-errno of the last try), 0 when attached */
	uint64_t tries;	      /* opens tried while lost */
	uint64_t losses;      /* times it was lost: at start, or its channel failed */
	uint64_t next_try_ns; /* the next try while lost */
};

/*
 * Each port's MAD channel into d->chan[], with the SMA and PMA on it.  A
 * umad port whose device cannot be opened is lost until it comes (said
 * once, tried again at a bounded rate by ibrd_mad_tick, which marks
 * d->chan_new when it comes); an ibsim one stops the start (-errno).
 */
int ibrd_mad_start(struct ibrd *d);
/* Port idx's MAD side (configured false: none). */
void ibrd_mad_info(const struct ibrd *d, uint32_t idx, struct ibrd_mad_info *out);
/*
 * Close the channels that failed (d->chan_dead), their SA clients stopped
 * first by the core: their ports lost until their devices are back.
 */
void ibrd_mad_reap(struct ibrd *d);
/*
 * Wait for the channels' parting requests (their SA clients went first:
 * ibrd_sa_stop) for at most a second in all, then close them.
 */
void ibrd_mad_stop(struct ibrd *d);
void ibrd_mad_event(struct ibrd *d, struct ibrd_ev *ev);
void ibrd_mad_tick(struct ibrd *d, uint64_t now_ns);
/* An SMP the router itself sends (a trap) on port idx's MAD channel, LID-routed to `dlid`. */
int ibrd_mad_send_smp(struct ibrd *d, uint32_t idx, const uint8_t *mad, uint16_t dlid);
/* When the channels have work without an event (ns), UINT64_MAX: never. */
uint64_t ibrd_mad_deadline(const struct ibrd *d);

#endif
