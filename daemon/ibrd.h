/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd.h - the core of ibrouterd: the state it owns, the hooks it gives its
 * rooms, and its own functions (the loop's tail, the config's state in the
 * RIB, reload, the PID file).  The daemon is the one place that wires the
 * forwarding core, the SMA, the MAD channels and the SA client together.
 * Its rooms (conf/, ctl/, cmd/, learn/, port/; daemon/LAYERS) keep their
 * state behind the pointers below and their functions in their own headers
 * (daemon/<room>/ibrd_<room>.h); calls go one way, from the core down
 * through the layers: scripts/calls.sh daemon finds no call up or across.
 */
#ifndef IBRD_H
#define IBRD_H

#include "daemon/conf/ibrd_conf.h"
#include "router/router_export.h"
#include "router/router_pub.h"
#include "router/router_rib.h"

#include <stdbool.h>
#include <stdint.h>

#define IBRD_VERSION PACKAGE_VERSION

/*
 * The subnet prefix of a subnet whose SM was given none (IBA 4.1.3: the
 * default GID prefix; OpenSM's subnet_prefix 0xfe80000000000000): its GIDs
 * are link-local, which no router forwards (IBA 8.4), so such a subnet
 * cannot be routed to.  Said loudly (ibrd_state_prefix_watch), never refused.
 */
#define IBRD_PREFIX_DEFAULT 0xfe80000000000000ull

struct ibrd;
struct ibrd_client;
struct ibrd_out;
struct ibrd_reload_job;
struct ibrd_watch;
struct mad_chan;
struct sa_client;
/* the rooms' state (each defined in its room's header) */
struct ibrd_ctl;
struct ibrd_datapath;
struct ibrd_agents;
struct ibrd_mad_port;
struct ibrd_capture;
struct ibrd_salog;
struct ibrd_mcast;
struct ibrd_plugins;
struct ibrd_announce;
struct ibrd_peers;

/*
 * The pace of work that a change of the RIB calls for but that reads the
 * whole RIB (the SMA's vendor tables, the plugins' prefix routes, the
 * announcements: their protocols carry whole tables): run for the first
 * change after a quiet spell, then at most every IBRD_PACE_MIN_NS and at
 * most an eleventh of the time (the gap after a run is IBRD_PACE_RATIO
 * times what the run took), for every change of the gap at once.  So a
 * burst of changes costs such work a bounded share of the control thread
 * however large the RIB, and a change is told at most a gap late
 * (ibrd_sync_deadline() wakes the loop for it).
 */
#define IBRD_PACE_MIN_NS (100 * 1000000ull)
#define IBRD_PACE_RATIO	 10

struct ibrd_pace {
	uint64_t next_ns; /* not before */
};

static inline bool ibrd_pace_due(const struct ibrd_pace *p, uint64_t now)
{
	return now >= p->next_ns;
}

/* The run took from `start` to `end`: the next not before the gap is over. */
static inline void ibrd_pace_done(struct ibrd_pace *p, uint64_t start, uint64_t end)
{
	uint64_t gap = (end - start) * IBRD_PACE_RATIO;

	p->next_ns = end + (gap > IBRD_PACE_MIN_NS ? gap : IBRD_PACE_MIN_NS);
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
 * What a room may ask of the core, which it cannot call (BIRD's protocol
 * hooks, the other way round): the core fills them in at start (ibrouterd.c).
 */
struct ibrd_hooks {
	/*
	 * Parse the config file again (on a thread of its own) and apply it;
	 * the client `c` (NULL: a signal) is answered in format `fmt` once it
	 * is done and reads nothing more until then.
	 */
	int (*reload)(struct ibrd *d, struct ibrd_client *c, int fmt);
	/* The data path again with the config it has (the proxies changed). */
	int (*reload_data)(struct ibrd *d);
};

struct ibrd {
	const char *conf_path;
	const char *sock_path; /* -s, else the config's */
	bool foreground;
	int verbose;
	struct ibrd_conf *conf;
	const struct ibrd_hooks *hooks;
	/* router core */
	struct router_rib rib;
	struct router_pub pub;
	/* event loop */
	int epfd, sigfd;
	struct ibrd_ev ev_signal;
	bool quit;
	struct ibrd_reload_job *reload; /* a parse of the config file (ibrd_reload.c) */
	struct ibrd_watch *watch;	/* systemd's watchdog (ibrd_notify.c), else NULL */
	/* what the loop's tail has to do (ibrd_sync.c), said by whoever changed it */
	unsigned dirty;		 /* enum ibrd_dirty */
	uint32_t dirty_ports;	 /* ports whose prefix or link changed: their connected routes */
	uint64_t fib_publishes;	 /* FIBs published since start (version) */
	uint64_t fib_changed_ns; /* when the RIB's last change was published */
	bool fib_delta;		 /* the published FIB has a delta (router_fib.h) */
	struct ibrd_pace merge_pace; /* of the deltas merged when the changes stop */
	uint64_t start_ns;
	char pid_file[IBRD_PATH_MAX];
	/* each port's link as its backend sees it (HCA port state, ibsim's link): down, no route */
	bool vdown[ROUTER_MAX_PORTS];
	/* each port's MAD channel (port/ibrd_mad.c makes them) and SA client (learn/ibrd_sa.c) */
	struct mad_chan *chan[ROUTER_MAX_PORTS];
	struct sa_client *sa[ROUTER_MAX_PORTS];
	/*
	 * What port/ says of the channels and the core's loop sees to, as port/
	 * never calls learn/: chan_new, the ports whose lost channel came (their
	 * SA clients start: ibrd_sa_start); chan_dead, those whose channel
	 * failed (their SA clients stop, then ibrd_mad_reap closes them).
	 */
	uint32_t chan_new, chan_dead;
	/* each port's link-local subnet prefix last warned of (0: none; ibrd_state_prefix_watch) */
	uint64_t prefix_said[ROUTER_MAX_PORTS];
	/* the rooms' state, each room's own */
	struct ibrd_ctl *ctl;	    /* ctl/: the control socket and its clients */
	struct ibrd_datapath *data; /* port/: sim sockets, verbs ports, workers, proxies */
	struct ibrd_agents *agents; /* port/: the SMA and the PMA, their SMP queue */
	struct ibrd_mad_port *mad[ROUTER_MAX_PORTS]; /* port/: the MAD side of each port */
	struct ibrd_capture *cap;		     /* port/: a pcap capture of one port */
	struct ibrd_salog *salog;		     /* learn/: when the SA clients last told */
	struct ibrd_mcast *mcast;		     /* learn/: the bridging policy's joins */
	struct ibrd_plugins *plug;		     /* learn/: the OpenSM plugins' sessions */
	struct ibrd_announce *ad;		     /* learn/: what the SA clients announce */
	struct ibrd_peers *peer;		     /* learn/: routes from the other routers */
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

/* ibrd_rooms.c: each room's state, made at start and freed at the end */
/* 0, or -ENOMEM with whatever was made freed. */
int ibrd_rooms_new(struct ibrd *d);
void ibrd_rooms_free(struct ibrd *d);

/* ibrd_sync.c: the end of each turn of the loop: compile, publish, tell; 0 or -errno */
int ibrd_sync_run(struct ibrd *d);
/* When paced work of the tail is due (ibrd_pace): UINT64_MAX for never. */
uint64_t ibrd_sync_deadline(const struct ibrd *d);

/* ibrd_state.c: config -> RIB -> FIB */
/*
 * Fill d->rib anew from config `c`.  On a reload, `old` is the RIB of the
 * old config `oc` and port i of `c` was port from[i] there (-1: new): what
 * the fabric taught the port and the entries no file made move with it.
 */
int ibrd_state_build(struct ibrd *d, const struct ibrd_conf *c, const struct ibrd_conf *oc,
		     const struct router_rib *old, const int *from);
int ibrd_state_publish(struct ibrd *d);
/*
 * Once the RIB's changes stopped (IBRD_MERGE_IDLE_NS without one), the
 * published FIB's delta merged into a base of its own, at its pace.
 */
void ibrd_state_merge(struct ibrd *d);
#define IBRD_MERGE_IDLE_NS (1000 * 1000000ull)
/* The connected route of port `idx` after its prefix changed. */
void ibrd_state_connected(struct ibrd *d, uint32_t idx);
/*
 * Each port whose subnet's prefix (its SM's, else its own) is link-local,
 * the SM's default fe80::/64 above all, cannot be routed to: a warning
 * each time that becomes so, a line when it no longer is.
 */
void ibrd_state_prefix_watch(struct ibrd *d);

/* ibrd_reload.c: a new config applied whole or not at all */
/* The hooks of reload (struct ibrd_hooks' reload and reload_data). */
int ibrd_reload_request(struct ibrd *d, struct ibrd_client *c, int fmt);
int ibrd_reload_data(struct ibrd *d);
/* The parse is done (IBRD_EV_RELOAD): apply, answer, parse again if asked since. */
void ibrd_reload_event(struct ibrd *d);
/* At the end: wait for a parse that runs, free everything. */
void ibrd_reload_fini(struct ibrd *d);
/* Apply `nc` (taken: freed on error); 0 or -errno with `err` set. */
int ibrd_reload_apply(struct ibrd *d, struct ibrd_conf *nc, char *err, size_t errlen);

/* ibrd_notify.c: the service manager (sd_notify(3); no-ops without NOTIFY_SOCKET) */
/* READY=1 and STATUS=, and the watchdog when WATCHDOG_USEC asks for one; 0 or -ENOMEM. */
int ibrd_notify_start(struct ibrd *d);
void ibrd_notify_reloading(struct ibrd *d);
/* READY=1 again, the STATUS= saying whether the new config is the one that forwards. */
void ibrd_notify_reloaded(struct ibrd *d, bool ok);
void ibrd_notify_stopping(struct ibrd *d);
/* WATCHDOG=1 each half period, only while every worker's beat count moves. */
void ibrd_notify_tick(struct ibrd *d, uint64_t now_ns);
/* When ibrd_notify_tick() has work (ns), UINT64_MAX: never. */
uint64_t ibrd_notify_deadline(const struct ibrd *d);

/* ibrd_privs.c: started as root with `user` set, it becomes that user; 0 or -errno */
int ibrd_privs_drop(struct ibrd *d, const char *sock_path);

/* ibrd_pidfile.c */
/* Write our PID to `path`; 0 or -errno. */
int ibrd_pidfile_write(const char *path);
/* Remove `path` if it holds our PID. */
void ibrd_pidfile_remove(const char *path);

#endif
