/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf.h - ibrouterd's configuration (libconfuse), documented in
 * ibrouterd.conf(5).  Parsing builds a new struct ibrd_conf; the daemon
 * validates it and swaps it in whole (reload never edits the live one).
 */
#ifndef IBRD_CONF_H
#define IBRD_CONF_H

#include "router/router_port.h"
#include "router/router_rib.h"

#include "lib/ibr_gid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* configure's sysconfdir (Makefile.am), where make install puts the example */
#ifndef IBRD_SYSCONFDIR
#define IBRD_SYSCONFDIR "/etc"
#endif
#define IBRD_CONF_DEFAULT IBRD_SYSCONFDIR "/ibrouter/ibrouterd.conf"
/* the run directory of the default socket and PID file (its unit's RuntimeDirectory) */
#define IBRD_RUNDIR	  "/run/ibrouter"
#define IBRD_SOCK_DEFAULT IBRD_RUNDIR "/ibrouterd.sock"
#define IBRD_PATH_MAX	  108 /* sun_path */
#define IBRD_NAME_MAX	  64
#define IBRD_MAX_SITES	  16

#define IBRD_CONF_MAX_BYTES (64 << 20) /* a larger file is refused */

enum ibrd_data { IBRD_DATA_NONE, IBRD_DATA_SIM, IBRD_DATA_VERBS };
enum ibrd_mad { IBRD_MAD_NONE, IBRD_MAD_UMAD, IBRD_MAD_IBSIM };
/* Who may Set the port's SMA attributes (sma-set-policy; sma/sma_policy.c). */
enum ibrd_sma_policy { IBRD_SMA_MASTER_SM, IBRD_SMA_OPEN };

struct ibrd_conf_port {
	char name[ROUTER_PORT_NAME];
	enum ibrd_data data;
	char sim_socket[IBRD_PATH_MAX]; /* data = sim */
	char sim_peer[IBRD_PATH_MAX];
	char device[IBRD_NAME_MAX]; /* data = verbs: "mlx5_0" ("mlx5_0:1" in the file) */
	uint8_t device_port;
	uint32_t relay_qkey; /* data = verbs: the relay QP's Q_Key */
	uint32_t rq_depth;   /* data = verbs: the receive queue of the relay and each Q_Key QP */
	uint32_t sq_depth;   /* data = verbs: the relay QP's send queue */
	enum ibrd_mad mad;
	char umad_ca[IBRD_NAME_MAX]; /* mad = umad */
	uint8_t umad_port;
	char ibsim_socket[IBRD_NAME_MAX]; /* mad = ibsim: IBSIM_SOCKNAME of the server */
	char ibsim_node[IBRD_NAME_MAX];	  /* the node the port attaches at: an Rt or an Hca */
	uint8_t ibsim_port;
	char site[IBRD_NAME_MAX];
	bool sa_client;		/* learn this subnet from its SA */
	uint8_t sma_set_policy; /* enum ibrd_sma_policy */
	uint64_t sma_mkey;	/* the M_Key its SMA starts with (0: none); a secret */
	/* everything the forwarding core uses: LID, LMC, prefix, GUID, MTU, maps, P_Keys, flags */
	struct router_port rp;
};

struct ibrd_conf_route {
	uint64_t prefix; /* host order */
	uint8_t plen;
	char port[ROUTER_PORT_NAME];
	uint8_t kind; /* enum router_nh_kind */
	uint8_t nlid; /* ROUTER_NH_ROUTER: the next routers, equal cost (1..ROUTER_ECMP_MAX) */
	uint16_t lid[ROUTER_ECMP_MAX];
	uint8_t lmc;
	uint32_t metric;
};

struct ibrd_conf_neigh {
	uint64_t guid;
	char port[ROUTER_PORT_NAME];
	uint16_t lid;
	uint8_t lmc;
};

#define IBRD_WORKER_CPUS_MAX 64 /* as many as workers */

struct ibrd_conf_mcast {
	uint8_t mgid[16];
	char port[ROUTER_PORT_NAME];
	uint16_t mlid;
	uint8_t sl;
	uint8_t tclass;
	uint16_t pkey;
	uint32_t qkey;
	uint32_t flowlabel;
	uint16_t mtu;
	bool receivers, senders;
	/*
	 * "", or the feed this MGID names the group in on its port: the
	 * entries of one feed are one IP group under each port's MGID for it
	 * (rdma_cm's, IPoIB's, the IP group), carried between the ports
	 * whatever its scope; senders: taken from this port, receivers: sent
	 * into it.
	 */
	char feed[IBRD_NAME_MAX];
	uint8_t hop_limit; /* in a feed: its copies' HopLmt on this port at most */
};

/* A UD unicast proxy (data = verbs): a QP on `port` stands for (gid, qpn, qkey). */
struct ibrd_conf_proxy {
	uint8_t gid[16];
	char port[ROUTER_PORT_NAME];
	uint32_t qpn;
	uint32_t qkey;
};

struct ibrd_conf_mprefix {
	uint8_t mgid[16];
	uint8_t plen;
};

struct ibrd_conf {
	char file[IBRD_PATH_MAX + 64]; /* where it was read from */
	/* router identity */
	char name[IBRD_NAME_MAX];
	uint64_t node_guid;
	uint64_t system_image_guid;
	char node_desc[IBRD_NAME_MAX];
	/* ports, routes, neighbours, groups, proxies */
	unsigned nports;
	struct ibrd_conf_port port[ROUTER_MAX_PORTS];
	unsigned nroutes, nneighs, nmcasts, nproxies;
	struct ibrd_conf_route *routes;
	struct ibrd_conf_neigh *neighs;
	struct ibrd_conf_mcast *mcasts;
	struct ibrd_conf_proxy *proxies;
	/* learning */
	bool sa_client;
	bool osm_plugin;
	unsigned resync_interval; /* s */
	bool announce_routes;	  /* route exchange through the SA (ibrd_announce.c) */
	unsigned announce_lease;  /* s */
	uint8_t announce_key[16]; /* the announcements' ServiceKey; all zero: none */
	bool peer_routes;	  /* the other routers' announcements as routes (ibrd_peers.c) */
	unsigned peer_interval;	  /* s */
	unsigned peer_holddown;	  /* s */
	unsigned peer_ecmp;	  /* next hops a peer route may hold, 1..ROUTER_ECMP_MAX */
	uint64_t sm_key;
	/* multicast policy */
	uint16_t mcast_scopes; /* bit per scope nibble (1 << 5 site, 1 << 8 org, 1 << 0xE global) */
	unsigned ninclude, nexclude;
	struct ibrd_conf_mprefix *include, *exclude;
	/* control socket */
	char ctl_socket[IBRD_PATH_MAX];
	unsigned ctl_mode;
	char ctl_group[IBRD_NAME_MAX];
	/* process */
	unsigned workers;
	uint8_t worker_mode;  /* enum router_worker_mode: event, busy, hybrid */
	unsigned worker_poll; /* µs: a hybrid worker polls this long after its last packet */
	/* worker i runs on CPU worker_cpus[i % n]; none: where the kernel puts it */
	uint16_t worker_cpus[IBRD_WORKER_CPUS_MAX];
	unsigned nworker_cpus;
	int log_level; /* syslog priority */
	char pid_file[IBRD_PATH_MAX];
	char user[IBRD_NAME_MAX]; /* started as root: the user it runs as once started, "" stays */
	/* sites by name: site index = position (ports refer to them) */
	unsigned nsites;
	char sites[IBRD_MAX_SITES][IBRD_NAME_MAX];
};

/*
 * Parse `path` into a new config.  On error returns NULL and writes one line
 * per problem to `err` (not NULL), each naming the file, the line, the key
 * and why, e.g.
 *   ibrouterd.conf:12: port "b": lmc: 9 is out of range 0..7
 * Unknown keys and sections are errors.  Cross-checks (routes naming ports
 * that exist, unique socket paths, ...) are part of parsing.  Only a
 * regular file is read (not a directory, FIFO or device), of at most
 * IBRD_CONF_MAX_BYTES; reading never blocks on it.
 *
 * Any thread may call it, and it uses nothing of the daemon's.  It is not
 * reentrant (libconfuse's lexer and the parse callbacks keep global state):
 * calls from several threads run one at a time, serialised by a mutex, and
 * it must not be called from a signal handler.  Time and memory are linear
 * in the size of the file (10^5 routes in well under a second).
 */
struct ibrd_conf *ibrd_conf_load(const char *path, FILE *err);
/* The same from a string (tests); `name` stands for the file name in messages. */
struct ibrd_conf *ibrd_conf_load_string(const char *text, const char *name, FILE *err);
void ibrd_conf_free(struct ibrd_conf *c);

/* Whether ibrd_conf_print() shows secrets (sm-key) or prints IBRD_CONF_REDACTED. */
enum ibrd_conf_secrets { IBRD_CONF_REDACT, IBRD_CONF_SECRETS };

/*
 * Print the normalised config: every key, defaults filled in, canonical
 * forms (GIDs per RFC 5952, GUIDs as 0x%016x).  With IBRD_CONF_SECRETS its
 * output parses again to an equal config (ibrouterd -N); redacted
 * (ibrouterd -n, show config to an unprivileged client) a secret prints as
 * "redacted", which does not parse.
 */
void ibrd_conf_print(const struct ibrd_conf *c, FILE *out, enum ibrd_conf_secrets secrets);

/* Index of port `name`, or -1. */
int ibrd_conf_port_index(const struct ibrd_conf *c, const char *name);

/*
 * The remote GID of a UD proxy, as a proxy section's title or proxy add's
 * word: unicast, not link-local, with a subnet prefix (zero only for RoCE
 * v2's GID of an IPv4 address, ::ffff:a.b.c.d).  0, or -EINVAL with *why the
 * refusal in the config's words.
 */
int ibrd_conf_proxy_gid(const char *text, union ibr_gid *g, const char **why);

/*
 * A static neighbour or group of the config (a file's section, or an
 * ibrouterctl add read by the same grammar) as the RIB holds it, source
 * static, on router port index `port` (ibrd_conf_entry.c): the one
 * conversion the config's state (ibrd_state.c) and the CLI's edits share.
 */
void ibrd_conf_neigh_rib(const struct ibrd_conf_neigh *cn, uint8_t port, struct router_neigh *n);
void ibrd_conf_mcast_rib(const struct ibrd_conf_mcast *cm, uint8_t port, struct router_mcast *m);
/* The id of feed `feed` in `c` (1 + its first mcast section's index), 0 for "" or none. */
unsigned ibrd_conf_feed_id(const struct ibrd_conf *c, const char *feed);

#endif
