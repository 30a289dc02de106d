/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd.h - ibrouterd's state and the functions its files share.  The daemon
 * is the one place that wires the forwarding core, the SMA and the SA client
 * together: modules talk only through it.  Its files are layered (core,
 * adapters, shared helpers; doc/ARCHITECTURE.md, "The daemon"), and calls go
 * one way: scripts/calls.sh daemon finds no circle.
 */
#ifndef IBRD_H
#define IBRD_H

#include "daemon/conf/ibrd_conf.h"
#include "router/io/io_sim.h"
#include "router/router_pub.h"
#include "router/router_rib.h"
#include "router/router_worker.h"

#include "lib/ibr_json.h"
#include "lib/ibr_pcap.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define IBRD_VERSION PACKAGE_VERSION

struct ibrd_client;
struct ibrd_out;
struct ibrd_ctl;
struct ibrd_smp;
struct ibrd_sma_tabs;
struct sma_pma;
struct io_port;
struct io_verbs;
struct ibrd_mad_port;
struct ibrd_mjoin;
struct ibrd_plugin;
struct ibrd_reload_job;
struct ucred;
struct mad_chan;
struct sa_client;
struct sa_peer;
struct sma;

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

/* What an epoll event's data.ptr points at: every such object starts with one. */
enum ibrd_ev_kind {
	IBRD_EV_SIGNAL,
	IBRD_EV_LISTEN,
	IBRD_EV_CLIENT,
	IBRD_EV_SMA,
	IBRD_EV_MAD,
	IBRD_EV_VERBS,
	IBRD_EV_RELOAD,
};
struct ibrd_ev {
	enum ibrd_ev_kind kind;
};

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

/* A listening control socket (ibrd_ctl.c). */
struct ibrd_ctl_listener {
	int fd;
	char path[IBRD_PATH_MAX];
	dev_t dev; /* the socket file it bound: removed at the end only if still there */
	ino_t ino;
	gid_t gid; /* members of this group may change state */
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

/* A RoCE port's groups as the bridging policy sees them (ibrd_roce.c). */
struct sa_group;
struct ibrd_roce_view {
	struct sa_group *v;
	size_t n, cap;
};

struct ibrd {
	const char *conf_path;
	const char *sock_path; /* -s, else the config's */
	bool foreground;
	int verbose;
	struct ibrd_conf *conf;
	/* router core */
	struct router_rib rib;
	struct router_pub pub;
	struct io_sim_port sim[ROUTER_MAX_PORTS];
	bool sim_open[ROUTER_MAX_PORTS];
	/* data = verbs ports, opened together (ibrd_data.c); vport by port index */
	struct io_verbs *verbs;
	struct io_port *vport[ROUTER_MAX_PORTS];
	char verbs_sig[ROUTER_MAX_PORTS * 80 + IBRD_MAX_PROXIES * 64];
	uint64_t verbs_check_ns; /* the next look at lost and vanished devices (ibrd_verbs_tick) */
	struct ibrd_proxy proxy[IBRD_MAX_PROXIES];
	unsigned nproxies;
	/* the HCA async events (ibrd_verbs.c): one fd a device; ports whose link is down */
	struct ibrd_verbs_ev vev[ROUTER_MAX_PORTS];
	unsigned nvev;
	bool vdown[ROUTER_MAX_PORTS];
	unsigned nworkers;
	struct router_worker *workers;
	/* the core's: each worker's hooks (SMA, captures), before it starts */
	void (*worker_setup)(struct ibrd *d, struct router_worker *w);
	pthread_t *threads;
	bool running;
	struct router_counters retired; /* totals of workers stopped by a reload */
	struct router_counters cleared; /* subtracted from sums after "clear counters" */
	/* event loop */
	int epfd, sigfd;
	struct ibrd_ctl_listener listen;
	struct ibrd_ev ev_signal, ev_listen, ev_sma;
	/* the SMA: SMPs queued by the workers, answered on the control thread */
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
	uint64_t sma_trap_tid;		/* the TIDs of the SMA's traps */
	struct ibrd_sma_tabs *sma_tabs; /* each port's NextHopTable (ibrd_sma.c) */
	/* MAD channels (mad = ibsim or umad) and their SA clients */
	struct ibrd_mad_port *mad[ROUTER_MAX_PORTS];
	uint64_t sa_changes, sa_reports, sa_last_change_ns;
	/* multicast bridging: the joins the router made (ibrd_mcast.c) */
	struct ibrd_mjoin *mjoins;
	unsigned nmjoins, mjoins_cap;
	struct ibrd_roce_view roce_view[ROUTER_MAX_PORTS]; /* ibrd_roce.c */
	const struct ibrd_mcast_ops *mcast_ops; /* the core's (SA client or plugin), a test's */
	bool quit;
	struct ibrd_reload_job *reload; /* a parse of the config file (ibrd_reload.c) */
	struct ibrd_client *clients;
	unsigned nclients;
	struct ibrd_client *ctl_cur; /* the client whose request runs, else NULL */
	struct ibrd_ctl *ctl;	     /* the control socket's own state (ibrd_ctl.h) */
	/* OpenSM plugins (ibrd_plugin.c): sessions, oldest first, and who feeds each port */
	struct ibrd_plugin *plugins;
	unsigned nplugins, plugin_next_id;
	unsigned plugin_feeder[ROUTER_MAX_PORTS]; /* plugin id, 0 for none */
	const struct ibrd_conf *plugin_conf;	  /* the config the feeders were chosen under */
	uint64_t plugin_gen;			  /* RIB generation of the last routes sent */
	bool plugin_resend;			  /* a reload: every plugin's routes again */
	/* what the loop's tail has to do (ibrd_sync.c), said by whoever changed it */
	unsigned dirty;		/* enum ibrd_dirty */
	uint32_t dirty_ports;	/* ports whose prefix or link changed: their connected routes */
	uint64_t fib_publishes; /* FIBs published since start (version) */
	/* the SA client of each port with one (ibrd_mad.c makes them), read by all */
	struct sa_client *sa[ROUTER_MAX_PORTS];
	/* route announcements through each SA (ibrd_announce.c): what was last handed over */
	struct {
		const struct sa_client *sa[ROUTER_MAX_PORTS]; /* the client it went to */
		size_t n[ROUTER_MAX_PORTS];		      /* prefixes */
		uint64_t gen;				      /* RIB generation */
		unsigned lease;
		bool on;
	} ad;
	/* routes from the other routers' announcements (ibrd_peers.c): what is installed or held */
	struct {
		struct ibrd_peer_route *v; /* sorted by prefix, length */
		size_t n;
		uint64_t next; /* the first hold-down to end, UINT64_MAX for none */
		uint64_t changes, holddowns;
		const struct ibrd_conf *conf; /* the config it was computed under */
		bool dirty;		      /* an SA client's peers changed */
		/* the peers of a port: the SA clients' (NULL), a test's */
		size_t (*src)(const struct ibrd *d, uint32_t port, const struct sa_peer **v);
	} peer;
	uint64_t start_ns;
	char pid_file[IBRD_PATH_MAX];
	/*
	 * capture (ibrd_capture.c): the workers read cap_ports (port bit, mode,
	 * generation) without the lock, every other field under cap_lock
	 */
	pthread_mutex_t cap_lock;
	struct ibr_pcap cap;
	_Atomic uint32_t cap_ports;
	uint32_t cap_word; /* cap_ports of the running capture */
	uint32_t cap_gen;  /* the control thread's only */
	bool cap_on;
	uint64_t cap_limit, cap_count;
	char cap_file[IBRD_PATH_MAX];
};

/* A router that announced a prefix, as a next hop: its port in our port's subnet. */
struct ibrd_peer_nh {
	uint64_t guid; /* the announcing router's port */
	uint16_t lid;  /* its LID */
	uint8_t port;  /* our port on that subnet */
	uint8_t lmc;
};

/*
 * A prefix other routers announced: installed (source peer) through the
 * routers of its lowest metric, up to peer-ecmp of them, or held down
 * (ibrd_peers.c).
 */
struct ibrd_peer_route {
	uint64_t prefix;
	uint64_t until; /* held: the hold-down's end (ns) */
	uint8_t plen, metric;
	uint8_t n; /* next hops in nh[], ordered by port then LID */
	bool held; /* not installed: lost, or worse than it was, within peer-holddown */
	struct ibrd_peer_nh nh[ROUTER_ECMP_MAX];
};

/* What the loop's tail has to do (ibrd_sync.c). */
enum ibrd_dirty {
	IBRD_DIRTY_FIB = 1u << 0,   /* the RIB changed: compile and publish the FIB */
	IBRD_DIRTY_MCAST = 1u << 1, /* groups changed: the bridging policy runs */
};

/* The RIB changed: the FIB is compiled and published at the end of the turn. */
static inline void ibrd_rib_changed(struct ibrd *d)
{
	d->dirty |= IBRD_DIRTY_FIB;
}

/* Port `idx`'s prefix or link changed (router_rib_port_set): its connected route anew. */
static inline void ibrd_port_changed(struct ibrd *d, uint32_t idx)
{
	d->dirty_ports |= 1u << idx;
	d->dirty |= IBRD_DIRTY_FIB;
}

/*
 * Port `idx`'s link as its backend sees it (an HCA port's state, ibsim's link): down, the port
 * is down and has no connected route (vdown, ibrd_state.c); up, it is as the config's `up`
 * says.  Into `rp`, the port the caller then sets (router_rib_port_set, ibrd_port_changed).
 */
static inline void ibrd_port_link(struct ibrd *d, uint32_t idx, bool up, struct router_port *rp)
{
	d->vdown[idx] = !up;
	if (up && (d->conf->port[idx].rp.flags & ROUTER_PORT_UP))
		rp->flags |= ROUTER_PORT_UP;
	else
		rp->flags &= (uint8_t)~ROUTER_PORT_UP;
}

/* Groups came, went or changed members: the bridging policy runs, the FIB anew. */
static inline void ibrd_groups_changed(struct ibrd *d)
{
	d->dirty |= IBRD_DIRTY_MCAST | IBRD_DIRTY_FIB;
}

/* An SMP or a reply of port `idx` lost around the SMA (any thread). */
static inline void ibrd_smp_lost(struct ibrd *d, uint32_t idx, enum ibrd_smp_loss why)
{
	if (idx >= ROUTER_MAX_PORTS || (unsigned)why >= IBRD_SMP_LOSS_MAX)
		return;
	pthread_mutex_lock(&d->smp_lock);
	d->smp_lost[idx][why]++;
	pthread_mutex_unlock(&d->smp_lock);
}

/* ibrd_sync.c: the end of each turn of the loop: compile, publish, tell; 0 or -errno */
int ibrd_sync_run(struct ibrd *d);

/* ibrd_data.c: the data path */
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
/* Events on a device's async fd. */
void ibrd_verbs_event(struct ibrd *d, struct ibrd_ev *ev);
/*
 * Once a second, and at once after a fatal device error: let go of the
 * devices that went away (their ports lost), open again those that are back.
 */
void ibrd_verbs_tick(struct ibrd *d, uint64_t now_ns);

/* ibrd_proxy.c: the UD unicast proxies of the verbs ports */
/* Index of the proxy (port, gid, qpn) in d->proxy, or -1. */
int ibrd_proxy_find(const struct ibrd *d, uint32_t port, const uint8_t *gid, uint32_t qpn);
/* Proxies on `port`. */
unsigned ibrd_proxy_count(const struct ibrd *d, uint32_t port);
/* The proxies of config `c` replace those of the last one; true if d->proxy changed. */
bool ibrd_proxy_load(struct ibrd *d, const struct ibrd_conf *c);

/* ibrd_state.c: config -> RIB -> FIB */
/*
 * Fill d->rib anew from config `c`.  On a reload, `old` is the RIB of the
 * old config `oc` and port i of `c` was port from[i] there (-1: new): what
 * the fabric taught the port and the entries no file made move with it.
 */
int ibrd_state_build(struct ibrd *d, const struct ibrd_conf *c, const struct ibrd_conf *oc,
		     const struct router_rib *old, const int *from);
int ibrd_state_publish(struct ibrd *d);

/* ibrd_reload.c: a new config applied whole or not at all */
/*
 * Parse the config file again (on a thread of its own) and apply it; the
 * client `c` (NULL: a signal) is answered in format `fmt` once it is done
 * and reads nothing more until then.
 */
int ibrd_reload_request(struct ibrd *d, struct ibrd_client *c, int fmt);
/* The parse is done (IBRD_EV_RELOAD): apply, answer, parse again if asked since. */
void ibrd_reload_event(struct ibrd *d);
/* At the end: wait for a parse that runs, free everything. */
void ibrd_reload_fini(struct ibrd *d);
/* The data path again with the config it has (the verbs ports reopened when their proxies changed). */
int ibrd_reload_data(struct ibrd *d);
/* Apply `nc` (taken: freed on error); 0 or -errno with `err` set. */
int ibrd_reload_apply(struct ibrd *d, struct ibrd_conf *nc, char *err, size_t errlen);

/* ibrd_pidfile.c */
/* Write our PID to `path`; 0 or -errno. */
int ibrd_pidfile_write(const char *path);
/* Remove `path` if it holds our PID. */
void ibrd_pidfile_remove(const char *path);
/* The connected route of port `idx` after its prefix changed. */
void ibrd_state_connected(struct ibrd *d, uint32_t idx);

/* ibrd_capture.c: pcap captures of one port (ERF type 21) */
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

/* ibrd_sma.c: the SMA of the router's ports, on the sim data path */
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
/* ibrd_pma.c: the PerfMgt agent of the sim ports (GMPs from the SMA's queue) */
int ibrd_pma_start(struct ibrd *d);
void ibrd_pma_renew(struct ibrd *d, unsigned nports, const int *from);
void ibrd_pma_stop(struct ibrd *d);
void ibrd_pma_one(struct ibrd *d, uint32_t port, const uint8_t *pkt, size_t len);
/* One PerfMgt MAD for router port index `port`: 0 and the 256-byte reply, or -errno (none). */
int ibrd_pma_mad(struct ibrd *d, uint32_t port, const uint8_t *mad, size_t len, uint8_t *reply);
/* After the turn's tables are published: the SMA's view of the ports and tables anew. */
void ibrd_sma_sync(struct ibrd *d);

/* ibrd_mad.c: MAD channels of the ports, the SMA and SA client on them */
int ibrd_mad_start(struct ibrd *d);
void ibrd_mad_stop(struct ibrd *d);
void ibrd_mad_event(struct ibrd *d, struct ibrd_ev *ev);
void ibrd_mad_tick(struct ibrd *d, uint64_t now_ns);
/* An SMP the router itself sends (a trap) on port idx's MAD channel, LID-routed to `dlid`. */
int ibrd_mad_send_smp(struct ibrd *d, uint32_t idx, const uint8_t *mad, uint16_t dlid);
/* Milliseconds until the MAD side has work (at most 1000). */
int ibrd_mad_timeout_ms(const struct ibrd *d, uint64_t now_ns);
struct mad_chan *ibrd_mad_chan(struct ibrd *d, uint32_t idx);
/* Wall-clock ms (epoch) of port idx's last Report and last table change published, or 0. */
void ibrd_mad_times(struct ibrd *d, uint32_t idx, uint64_t *report_ms, uint64_t *change_ms);

/* ibrd_roce.c: a RoCE port's groups for the policy (no SA there: the RIB's) */
size_t ibrd_roce_groups(struct ibrd *d, uint32_t port, const struct sa_group **v);
int ibrd_roce_join(struct ibrd *d, uint32_t port, const struct sa_group *tmpl);
void ibrd_roce_leave(struct ibrd *d, uint32_t port, const uint8_t mgid[16]);
void ibrd_roce_free(struct ibrd *d);

/* ibrd_mcast.c: the multicast bridging policy (joins and leaves per subnet) */
/* A join the router made (d->mjoins). */
struct ibrd_mjoin {
	uint8_t mgid[16];
	uint32_t port;
	bool seen;	  /* the group showed in that subnet since the join */
	uint64_t sent_ns; /* when the join went out */
};
struct sa_group;
/* The subnets' groups as the policy sees them, and its joins and leaves. */
struct ibrd_mcast_ops {
	size_t (*groups)(struct ibrd *d, uint32_t port, const struct sa_group **v);
	int (*join)(struct ibrd *d, uint32_t port, const struct sa_group *tmpl); /* 0 or -errno */
	void (*leave)(struct ibrd *d, uint32_t port, const uint8_t mgid[16]);
};
void ibrd_mcast_policy(struct ibrd *d);
/* The groups the router joined are fed (receivers), whoever told the RIB of them. */
void ibrd_mcast_mark_joined(struct ibrd *d);
void ibrd_mcast_stop(struct ibrd *d);

/* ibrd_osm_route.c: what a route is to the OpenSM of a port's subnet (prefix routes) */
enum ibrd_osm_kind {
	IBRD_OSM_LINE,	    /* a /64: one "<prefix> <guid>" line */
	IBRD_OSM_ANY,	    /* ::/0: "* <guid>", after every other line */
	IBRD_OSM_AGGREGATE, /* shorter than /64, longer than /0: not expressible */
	IBRD_OSM_SITE,	    /* site-local traffic the router drops (other site) */
	IBRD_OSM_NONE,	    /* not for this subnet: its own, link-local, not best, via it */
};
enum ibrd_osm_kind ibrd_osm_route_kind(const struct ibrd *d, uint32_t port,
				       const struct router_route *r);

/* ibrd_ctl.c: the control socket */
int ibrd_ctl_listener_open(struct ibrd_ctl_listener *l, const char *path, unsigned mode,
			   const char *group);
void ibrd_ctl_listener_close(struct ibrd_ctl_listener *l);
/* A reload moved the socket to `l` (taken). */
void ibrd_ctl_listener_swap(struct ibrd *d, struct ibrd_ctl_listener *l);
/* A reload's mode and group for the socket where it is. */
void ibrd_ctl_listener_chmod(struct ibrd *d, unsigned mode, const char *group);
/* What a request runs: the core's commands (ibrd_cmd_run). */
typedef int ibrd_ctl_run_fn(struct ibrd *d, struct ibrd_out *o, char *req, bool privileged);
int ibrd_ctl_open(struct ibrd *d, ibrd_ctl_run_fn *run);

void ibrd_ctl_close(struct ibrd *d);
/* An event on the listening socket or on a client (ev->kind says which). */
void ibrd_ctl_event(struct ibrd *d, struct ibrd_ev *ev, uint32_t events);

/* ibrd_client.c: a client of the control socket */
/* Whoever takes a client over: a session reads its datagrams; both hear it close. */
struct ibrd_client_ops {
	int (*input)(void *arg, int fd); /* its datagrams instead of requests; < 0: close it */
	void (*closed)(void *arg, struct ibrd_client *c);
};
void ibrd_client_set_ops(struct ibrd_client *c, const struct ibrd_client_ops *ops, void *arg);
/* The output sink of a client's answer (ibrd_out): queue one part; it goes out at the turn's end. */
int ibrd_client_queue(void *ctx, const char *buf, size_t len);
/* The answers of this turn's requests go out (ibrd_sync.c: after the tables are published). */
void ibrd_client_flush_all(struct ibrd *d);
/* Queue a datagram for a client and send what the socket takes (sessions). */
int ibrd_client_send(struct ibrd_client *c, const void *buf, size_t len);
/* The current request is answered later: read nothing more from `c` until resumed. */
void ibrd_client_hold(struct ibrd_client *c);
void ibrd_client_resume(struct ibrd_client *c);
/* Close a client once the current event is handled. */
void ibrd_client_drop(struct ibrd_client *c);
const struct ucred *ibrd_client_cred(const struct ibrd_client *c);
/* The descriptor that came with the running request (SCM_RIGHTS), now the caller's; else -1. */
int ibrd_client_take_fd(struct ibrd_client *c);

/* ibrd_plugin.c: OpenSM plugins (ibrouter-osm(8)), a learning source */
/* Before the FIB is compiled: which plugin feeds each port, their entries anew. */
void ibrd_plugin_feeders(struct ibrd *d);
/* After: each plugin's prefix routes, when the published tables moved. */
void ibrd_plugin_routes_sync(struct ibrd *d);
/* ibrd_announce.c: each SA client's route announcements, after the tables changed */
void ibrd_announce_sync(struct ibrd *d);
/* ibrd_peers.c: the other routers' announcements as routes of source peer */
/* An SA client's peers changed (its callback). */
void ibrd_peers_changed(struct ibrd *d);
/* Before the FIB is compiled: the settings to the SA clients, the peer routes anew when due. */
void ibrd_peers_sync(struct ibrd *d);
/* The same at time `now` (ns, the monotonic clock of ibr_now_ns()): for tests. */
void ibrd_peers_sync_at(struct ibrd *d, uint64_t now);
/* When ibrd_peers_sync() has work without an event (a hold-down ends), UINT64_MAX: never. */
uint64_t ibrd_peers_deadline(const struct ibrd *d);
void ibrd_peers_free(struct ibrd *d);
/* ibrd_plugin_mcast.c: a plugin-fed port's groups and the router's joins there */
/* The groups of the plugin feeding `port` (ours told apart); 0 without a feeder. */
size_t ibrd_plugin_groups(struct ibrd *d, uint32_t port, const struct sa_group **v);
/* Ask that plugin to join the port to `mgid` (tmpl: the group's parameters), or leave (NULL). */
int ibrd_plugin_mjoin(struct ibrd *d, uint32_t port, const uint8_t mgid[16],
		      const struct sa_group *tmpl);

/* ibrd_cmd.c: one request -> reply parts, through an output sink */
struct ibrd_out;
int ibrd_cmd_run(struct ibrd *d, struct ibrd_out *o, char *req, bool privileged);

#endif
