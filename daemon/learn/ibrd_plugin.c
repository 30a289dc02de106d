/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_plugin.c - OpenSM plugins (ibrouter-osm(8)) as a learning source of
 * ibrouterd: sessions on the control socket, their data in the RIB as
 * source "osm-plugin", and the prefix routes sent back to them.
 *
 * A plugin connects like ibrouterctl and says "plugin hello 1"; it is
 * accepted only with `osm-plugin = true` (ibrouterd.conf(5)) and from root
 * or the daemon's own uid (SO_PEERCRED): it feeds the routing state, so the
 * socket group that may run state-changing commands is not enough.  Then the
 * connection carries lib/ibr_plug.h messages (ibrd_plugin_input.c decodes
 * them).
 *
 * A plugin is bound to the router ports in its subnet: a port whose GUID is
 * a router port in the plugin's snapshot, or whose prefix is the plugin's
 * subnet prefix (and that it serves, when it lists ports).  Each bound port
 * takes its plugin data from one plugin, its "feeder": the master OpenSM's
 * when several (a master and standbys) are connected, else the first.  The
 * feeder's end ports (but the router's own) become neighbours of source
 * osm-plugin; its groups become multicast entries where no preferred source
 * (static, sa) has one; and, on a port without an SA client, its record of
 * the router port gives the port's LID, LMC and prefix.  The RIB's
 * preference order merges the rest with the SA client's view.
 */
#include "daemon/ibrd.h"
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_out.h"
#include "daemon/learn/ibrd_plugin.h"
#include "daemon/ctl/ibrd_prom.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PLUGIN_BURST 256 /* datagrams read per event, so one plugin cannot starve the loop */

static bool plugin_feeds(const struct ibrd *d, const struct ibrd_plugin *p, uint32_t port)
{
	return d->plugin_feeder[port] == p->id;
}

/* ---- the RIB entries of one port from its feeder ---- */

static bool plugin_is_own(const struct ibrd *d, uint32_t port, uint64_t guid)
{
	return guid && guid == d->rib.port[port].guid;
}

static void plugin_neigh_put(struct ibrd *d, uint32_t port, const struct ibrd_pport *pp)
{
	struct router_neigh n = {
		.key = { .guid = pp->guid, .port = (uint8_t)port, .source = ROUTER_SRC_PLUGIN },
		.lid = pp->lid,
		.lmc = pp->lmc
	};

	if (plugin_is_own(d, port, pp->guid) || plugin_is_own(d, port, pp->base_guid))
		return;
	if (router_rib_neigh_add(&d->rib, &n))
		log_warnx("plugin: port %s: cannot add neighbour 0x%016llx", d->rib.port[port].name,
			  (unsigned long long)pp->guid);
}

/* A group into the port's table unless a preferred source has it there. */
static void plugin_mcast_put(struct ibrd *d, uint32_t port, const struct ibrd_pgroup *g)
{
	struct router_mcast m = { .source = ROUTER_SRC_PLUGIN };
	const struct router_mcast *old;
	bool ours = false; /* a join of the bridging policy: ibrd_mcast_mark_joined */

	memcpy(m.key.mgid, g->mgid, 16);
	m.key.port = (uint8_t)port;
	old = router_tab_find(&d->rib.mcasts, &m.key);
	if (old && old->source < ROUTER_SRC_PLUGIN)
		return;
	for (uint32_t i = 0; i < g->nmem; i++) {
		const struct ibrd_pmember *x = &g->mem[i];

		if (plugin_is_own(d, port, x->guid)) {
			ours = true; /* the router's own join never makes it a receiver */
			continue;
		}
		if (x->join_state & 0x3) /* FullMember or NonMember: receives */
			m.flags |= ROUTER_MCAST_RECEIVERS;
		m.flags |= ROUTER_MCAST_SENDERS;
	}
	if (ours) /* as the SA client does: a group the router joined is fed */
		m.flags |= ROUTER_MCAST_RECEIVERS;
	m.mlid = g->g.mlid;
	m.sl = g->g.sl;
	m.tclass = g->g.tclass;
	m.pkey = g->g.pkey;
	m.qkey = g->g.qkey;
	m.flowlabel = g->g.flowlabel;
	m.mtu = g->g.mtu;
	if (router_rib_mcast_add(&d->rib, &m))
		log_warnx("plugin: port %s: cannot add a group", d->rib.port[port].name);
}

/* The router port's own record: LID, LMC and prefix where no SA client learns them. */
static bool plugin_own_port(struct ibrd *d, uint32_t port, const struct ibrd_plugin *p)
{
	struct router_port rp = d->rib.port[port];
	const struct ibrd_pport *me;

	if (d->sa[port] || !rp.guid || !(me = ibrd_psess_port(&p->s, rp.guid)))
		return false;
	if (me->lid == rp.lid && me->lmc == rp.lmc &&
	    (!p->s.h.subnet_prefix || p->s.h.subnet_prefix == rp.prefix))
		return false;
	rp.lid = me->lid;
	rp.lmc = me->lmc;
	if (p->s.h.subnet_prefix)
		rp.prefix = p->s.h.subnet_prefix;
	log_info("plugin %u: port %s: LID 0x%04x LMC %u prefix 0x%016llx (from OpenSM)", p->id,
		 rp.name, rp.lid, rp.lmc, (unsigned long long)rp.prefix);
	router_rib_port_set(&d->rib, port, &rp);
	ibrd_port_changed(d, port);
	return true;
}

/* Port `port` from scratch: its plugin entries are the feeder's (none without one). */
static void plugin_project(struct ibrd *d, uint32_t port)
{
	const struct ibrd_pport *pp;
	const struct ibrd_pgroup *g;
	struct ibrd_plugin *p;
	uint32_t pos = 0;

	router_rib_flush_neighs(&d->rib, ROUTER_SRC_PLUGIN, (int)port);
	router_rib_flush_mcasts(&d->rib, ROUTER_SRC_PLUGIN, (int)port);
	ibrd_groups_changed(d);
	for (p = d->plugins; p && !plugin_feeds(d, p, port); p = p->next)
		;
	if (!p)
		return;
	p->gview_valid = false; /* a snapshot, a new feeder, or the port's GUID changed */
	plugin_own_port(d, port, p);
	while ((pp = router_tab_next(&p->s.live.ports, &pos)))
		plugin_neigh_put(d, port, pp);
	pos = 0;
	while ((g = router_tab_next(&p->s.live.groups, &pos)))
		plugin_mcast_put(d, port, g);
}

/* ---- deltas, as the session applies them (ibrd_psess_ops) ---- */

static void plugin_on_port(void *ctx, const struct ibrd_pport *pp)
{
	struct ibrd_plugin *p = ctx;
	struct ibrd *d = p->d;

	for (uint32_t i = 0; i < d->rib.nports; i++) {
		if (!plugin_feeds(d, p, i))
			continue;
		if (plugin_is_own(d, i, pp->guid))
			plugin_own_port(d, i, p);
		else
			plugin_neigh_put(d, i, pp);
		ibrd_rib_changed(d);
	}
}

static void plugin_on_port_del(void *ctx, const struct ibrd_pport *pp)
{
	struct ibrd_plugin *p = ctx;
	struct ibrd *d = p->d;

	for (uint32_t i = 0; i < d->rib.nports; i++)
		if (plugin_feeds(d, p, i) &&
		    !router_rib_neigh_del(&d->rib, (uint8_t)i, pp->guid, ROUTER_SRC_PLUGIN))
			ibrd_rib_changed(d);
}

static void plugin_on_group(void *ctx, const struct ibrd_pgroup *g)
{
	struct ibrd_plugin *p = ctx;
	struct ibrd *d = p->d;

	p->gview_valid = false;
	for (uint32_t i = 0; i < d->rib.nports; i++)
		if (plugin_feeds(d, p, i)) {
			plugin_mcast_put(d, i, g);
			ibrd_groups_changed(d);
		}
}

static void plugin_on_group_del(void *ctx, const uint8_t mgid[16])
{
	struct ibrd_plugin *p = ctx;
	struct ibrd *d = p->d;

	p->gview_valid = false;
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		struct router_mcast_key k = { .port = (uint8_t)i };
		const struct router_mcast *m;

		memcpy(k.mgid, mgid, 16);
		m = router_tab_find(&d->rib.mcasts, &k);
		if (plugin_feeds(d, p, i) && m && m->source == ROUTER_SRC_PLUGIN) {
			router_rib_mcast_del(&d->rib, mgid, (uint8_t)i);
			ibrd_groups_changed(d);
		}
	}
}

/* ---- binding: which ports a plugin is in, and who feeds each ---- */

static uint32_t plugin_bound(const struct ibrd *d, const struct ibrd_plugin *p)
{
	uint32_t mask = 0;

	if (!p->s.hello)
		return 0;
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		const struct router_port *rp = &d->rib.port[i];
		bool served = p->s.nserve == 0;

		for (unsigned j = 0; j < p->s.nserve && !served; j++)
			served = rp->guid && p->s.serve[j] == rp->guid;
		if (served && ((rp->guid && ibrd_psess_has_router(&p->s, rp->guid)) ||
			       (rp->prefix && rp->prefix == p->s.h.subnet_prefix)))
			mask |= 1u << i;
	}
	return mask;
}

/* Recompute bindings and feeders; re-project the ports whose feeder changed. */
static void plugin_rebind(struct ibrd *d, bool all)
{
	for (struct ibrd_plugin *p = d->plugins; p; p = p->next)
		p->bound = plugin_bound(d, p);
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		struct ibrd_plugin *best = NULL;

		for (struct ibrd_plugin *p = d->plugins; p; p = p->next) {
			if (!(p->bound >> i & 1) || !p->s.snapshots)
				continue;
			if (!best || (p->s.sm_state == 3 && best->s.sm_state != 3))
				best = p; /* the list is oldest first: ties go to the first */
		}
		if (all || d->plugin_feeder[i] != (best ? best->id : 0)) {
			if (d->plugin_feeder[i] != (best ? best->id : 0))
				log_info("plugin: port %s: fed by %s%u", d->rib.port[i].name,
					 best ? "plugin " : "no plugin", best ? best->id : 0);
			d->plugin_feeder[i] = best ? best->id : 0;
			plugin_project(d, i);
		}
	}
}

/* ---- sessions ---- */

static void plugin_detach(struct ibrd *d, struct ibrd_plugin *p);
static int plugin_input(struct ibrd *d, struct ibrd_plugin *p, int fd);

static int plugin_client_input(void *arg, int fd)
{
	struct ibrd_plugin *p = arg;

	return plugin_input(p->d, p, fd);
}

static void plugin_client_closed(void *arg, struct ibrd_client *c)
{
	struct ibrd_plugin *p = arg;

	(void)c;
	plugin_detach(p->d, p);
}

/* The client's datagrams are the plugin's from now on, and its close is the session's end. */
static const struct ibrd_client_ops plugin_client_ops = {
	.input = plugin_client_input,
	.closed = plugin_client_closed,
};

int ibrd_cmd_plugin_hello(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "version", "id", "name" };
	struct ibrd_client *c = d->ctl_cur;
	struct ibrd_psess_ops ops = { plugin_on_port, plugin_on_port_del, plugin_on_group,
				      plugin_on_group_del };
	const struct ucred *cr;
	struct ibrd_plugin *p, **pp;
	char ver[20];
	int rc;

	if (argc != 3)
		return ibrd_out_usage(o, "usage: plugin hello VERSION");
	if (strcmp(argv[2], "1"))
		return ibrd_out_error(o, EINVAL,
				      "plugin protocol version %s is not spoken here (this "
				      "ibrouterd speaks %d)",
				      ibrd_out_escape(argv[2], ver, sizeof(ver)), IBR_PLUG_VERSION);
	if (!c)
		return ibrd_out_error(o, EINVAL, "plugin hello: only on the control socket");
	if (!d->conf->osm_plugin)
		return ibrd_out_error(
			o, ENOTSUP,
			"the OpenSM plugin is off here (learning { osm-plugin = true })");
	cr = ibrd_client_cred(c);
	if (cr->uid != 0 && cr->uid != geteuid())
		return ibrd_out_error(o, EPERM,
				      "plugin: uid %u may not feed this router (root or %u)",
				      (unsigned)cr->uid, (unsigned)geteuid());
	if (d->nplugins >= IBRD_PLUGINS_MAX)
		return ibrd_out_error(o, EBUSY, "plugin: %d plugins are connected already",
				      IBRD_PLUGINS_MAX);
	if (!(p = calloc(1, sizeof(*p))))
		return ibrd_out_error(o, ENOMEM, "out of memory");
	p->d = d;
	p->client = c;
	p->id = ++d->plugin_next_id;
	p->pid = (int)cr->pid;
	p->uid = (unsigned)cr->uid;
	p->connected_ns = p->last_ns = ibr_now_ns();
	ibrd_psess_init(&p->s, &ops, p);
	ibrd_out_object(o, cols, 3);
	ibrd_out_u64(o, IBR_PLUG_VERSION);
	ibrd_out_u64(o, p->id);
	ibrd_out_str(o, d->conf->name);
	if ((rc = ibrd_out_end(o))) {
		ibrd_psess_free(&p->s);
		free(p);
		return rc;
	}
	for (pp = &d->plugins; *pp; pp = &(*pp)->next)
		; /* oldest first */
	*pp = p;
	d->nplugins++;
	ibrd_client_set_ops(c, &plugin_client_ops, p);
	log_info("plugin %u: connected (pid %d, uid %u)", p->id, p->pid, p->uid);
	return 0;
}

/* Its client is closing: its entries go (another plugin may feed its ports). */
static void plugin_detach(struct ibrd *d, struct ibrd_plugin *p)
{
	struct ibrd_plugin **pp;

	for (pp = &d->plugins; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	d->nplugins--;
	log_info("plugin %u: gone (%llu messages)", p->id, (unsigned long long)p->s.msgs);
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
		if (d->plugin_feeder[i] == p->id) {
			d->plugin_feeder[i] = 0;
			if (i < d->rib.nports)
				plugin_project(d, i); /* flushed; the next sync finds another */
		}
	ibrd_psess_free(&p->s);
	free(p->sent);
	free(p->gview);
	free(p);
}

static void plugin_log_hello(const struct ibrd_plugin *p)
{
	const struct ibr_plug_hello *h = &p->s.h;

	log_info("plugin %u: %s, plugin %s, OpenSM pid %u, subnet prefix 0x%016llx, SM LID "
		 "0x%04x%s, %u ports served%s",
		 p->id, h->osm_version, h->plugin_version, h->pid,
		 (unsigned long long)h->subnet_prefix, h->sm_lid,
		 h->sm_state == 3 ? " (master)" : "", p->s.nserve, p->s.nserve ? "" : " (any)");
}

/*
 * The answer to each STATS (the plugin's heartbeat, every 2 s): a plugin
 * takes a daemon that answered once and then went silent (stopped, hung)
 * as gone, and another router's routes take over (ibrouter-osm(8) alive=).
 */
static int plugin_alive(struct ibrd_plugin *p)
{
	uint8_t msg[IBR_PLUG_HDR_LEN];

	ibr_plug_hdr_put(msg, IBR_PLUG_ALIVE, 0, 0, sizeof(msg), p->seq++);
	return ibrd_client_send(p->client, msg, sizeof(msg));
}

/* Datagrams from a plugin's socket; < 0: close it. */
static int plugin_input(struct ibrd *d, struct ibrd_plugin *p, int fd)
{
	static uint8_t buf[IBR_PLUG_MSG_MAX + 1]; /* the control thread's */
	bool rebind = false;

	for (int i = 0; i < PLUGIN_BURST; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
		int rc, err;

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0)
			return n < 0 ? -errno : -ECONNRESET;
		p->last_ns = ibr_now_ns();
		rc = (size_t)n > IBR_PLUG_MSG_MAX ? -EMSGSIZE
						  : ibrd_psess_input(&p->s, buf, (size_t)n);
		if (rc < 0) {
			log_warnx("plugin %u: protocol error (%s): closing", p->id, strerror(-rc));
			return rc;
		}
		if (rc & IBRD_PSESS_HELLO)
			plugin_log_hello(p);
		if (rc & (IBRD_PSESS_HELLO | IBRD_PSESS_STATS))
			rebind = true; /* the subnet prefix or the SM state may have changed */
		if ((rc & IBRD_PSESS_STATS) && (err = plugin_alive(p)) < 0)
			return err; /* its socket is full: it does not read */
		if (rc & IBRD_PSESS_SNAPSHOT) {
			log_debug("plugin %u: snapshot: %u end ports, %u groups", p->id,
				  p->s.live.ports.count, p->s.live.groups.count);
			p->bound = plugin_bound(d, p);
			for (uint32_t j = 0; j < d->rib.nports; j++)
				if (plugin_feeds(d, p, j))
					plugin_project(d, j);
			rebind = true;
		}
	}
	if (rebind)
		plugin_rebind(d, false);
	return 0;
}

void ibrd_plugin_feeders(struct ibrd *d)
{
	bool reloaded = d->plugin_conf != d->conf;

	d->plugin_conf = d->conf;
	d->plugin_resend |= reloaded;
	if (!d->plugins)
		return;
	if (!d->conf->osm_plugin)
		for (struct ibrd_plugin *p = d->plugins; p; p = p->next)
			ibrd_client_drop(p->client); /* turned off by a reload */
	/* a reload may have rebuilt the RIB: every port from scratch */
	plugin_rebind(d, reloaded);
}

void ibrd_plugin_routes_sync(struct ibrd *d)
{
	/* routes again when the tables changed, or a plugin has none yet or moved ports */
	for (struct ibrd_plugin *p = d->plugins; p; p = p->next) {
		if (!p->s.snapshots || (p->sent_valid && p->sent_bound == p->bound &&
					d->rib.generation == d->plugin_gen && !d->plugin_resend))
			continue;
		if (ibrd_plugin_routes_send(d, p))
			log_warnx("plugin %u: cannot send its prefix routes", p->id);
		p->sent_bound = p->bound;
	}
	d->plugin_gen = d->rib.generation;
	d->plugin_resend = false;
}

/* ---- show plugins ---- */

static const char *plugin_version_word(const char *v)
{
	const char *sp = strrchr(v, ' ');

	return sp && sp[1] ? sp + 1 : v;
}

/* The ports bound to p, as "a,b*": a star where another plugin feeds the port. */
static void plugin_ports_str(const struct ibrd *d, const struct ibrd_plugin *p, char *buf)
{
	buf[0] = '\0';
	for (uint32_t i = 0; i < d->rib.nports; i++)
		if (p->bound >> i & 1) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, d->rib.port[i].name);
			if (!plugin_feeds(d, p, i))
				strcat(buf, "*"); /* bound, but another plugin feeds it */
		}
}

#define PLUGIN_PORTS_LEN (ROUTER_MAX_PORTS * (ROUTER_PORT_NAME + 1) + 1)

/* The numeric and yes/no columns of show plugins, in its order. */
enum plugin_prom_id {
	PLUGIN_PROM_SM_LID,
	PLUGIN_PROM_MASTER,
	PLUGIN_PROM_END_PORTS,
	PLUGIN_PROM_GROUPS,
	PLUGIN_PROM_MESSAGES,
	PLUGIN_PROM_SNAPSHOTS,
	PLUGIN_PROM_DELTAS,
	PLUGIN_PROM_GAPS,
	PLUGIN_PROM_DROPPED,
	PLUGIN_PROM_QUEUE_LEN,
	PLUGIN_PROM_QUEUE_MAX,
	PLUGIN_PROM_ROUTES_SENT,
	PLUGIN_PROM_OSM_ROUTES,
	PLUGIN_PROM_SHADOWED,
	PLUGIN_PROM_SWEEPS,
	PLUGIN_PROM_JOINS,
	PLUGIN_PROM_CONNECTED,
	PLUGIN_PROM_LAST,
	PLUGIN_PROM_MAX
};

static const struct ibrd_prom_metric plugin_prom_metrics[PLUGIN_PROM_MAX] = {
	[PLUGIN_PROM_SM_LID] = { "ibrouter_plugin_sm_lid", "gauge",
				 "The LID of the plugin's OpenSM.", 1 },
	[PLUGIN_PROM_MASTER] = { "ibrouter_plugin_master", "gauge",
				 "1 while the plugin's OpenSM is the master SM.", 1 },
	[PLUGIN_PROM_END_PORTS] = { "ibrouter_plugin_end_ports", "gauge",
				    "End ports in the plugin's view of its subnet.", 1 },
	[PLUGIN_PROM_GROUPS] = { "ibrouter_plugin_groups", "gauge",
				 "Multicast groups in the plugin's view of its subnet.", 1 },
	[PLUGIN_PROM_MESSAGES] = { "ibrouter_plugin_messages_total", "counter",
				   "Messages received from the plugin.", 1 },
	[PLUGIN_PROM_SNAPSHOTS] = { "ibrouter_plugin_snapshots_total", "counter",
				    "Complete snapshots received from the plugin.", 1 },
	[PLUGIN_PROM_DELTAS] = { "ibrouter_plugin_deltas_total", "counter",
				 "Deltas (traps 64 to 67) received from the plugin.", 1 },
	[PLUGIN_PROM_GAPS] = { "ibrouter_plugin_gaps_total", "counter",
			       "Gaps in the plugin's message numbers.", 1 },
	[PLUGIN_PROM_DROPPED] = { "ibrouter_plugin_dropped_messages_total", "counter",
				  "Messages the plugin dropped for this daemon (its count).", 1 },
	[PLUGIN_PROM_QUEUE_LEN] = { "ibrouter_plugin_queue_length", "gauge",
				    "Messages in the plugin's queue for this daemon.", 1 },
	[PLUGIN_PROM_QUEUE_MAX] = { "ibrouter_plugin_queue_limit", "gauge",
				    "The most messages the plugin's queue for this daemon holds.",
				    1 },
	[PLUGIN_PROM_ROUTES_SENT] = { "ibrouter_plugin_routes_sent", "gauge",
				      "Prefix routes in the last set sent to the plugin.", 1 },
	[PLUGIN_PROM_OSM_ROUTES] = { "ibrouter_plugin_osm_routes", "gauge",
				     "Prefix routes the plugin has in OpenSM.", 1 },
	[PLUGIN_PROM_SHADOWED] = { "ibrouter_plugin_shadowed_routes", "gauge",
				   "Routes left out: an administrator's line names the prefix.",
				   1 },
	[PLUGIN_PROM_SWEEPS] = { "ibrouter_plugin_sweeps_total", "counter",
				 "Heavy sweeps the plugin asked OpenSM for.", 1 },
	[PLUGIN_PROM_JOINS] = { "ibrouter_plugin_joins_sent_total", "counter",
				"Multicast joins and leaves sent to the plugin.", 1 },
	[PLUGIN_PROM_CONNECTED] = { "ibrouter_plugin_connected_timestamp_seconds", "gauge",
				    "When the plugin connected (Unix time).", 1000000000u },
	[PLUGIN_PROM_LAST] = { "ibrouter_plugin_last_message_timestamp_seconds", "gauge",
			       "When the last message came from the plugin (Unix time).",
			       1000000000u },
};

static void plugin_prom_values(const struct ibrd_plugin *p, uint64_t v[PLUGIN_PROM_MAX])
{
	const struct ibr_plug_stats *st = &p->s.remote;

	v[PLUGIN_PROM_SM_LID] = p->s.h.sm_lid;
	v[PLUGIN_PROM_MASTER] = p->s.sm_state == 3;
	v[PLUGIN_PROM_END_PORTS] = p->s.live.ports.count;
	v[PLUGIN_PROM_GROUPS] = p->s.live.groups.count;
	v[PLUGIN_PROM_MESSAGES] = p->s.msgs;
	v[PLUGIN_PROM_SNAPSHOTS] = p->s.snapshots;
	v[PLUGIN_PROM_DELTAS] = p->s.deltas;
	v[PLUGIN_PROM_GAPS] = p->s.gaps;
	v[PLUGIN_PROM_DROPPED] = st->dropped;
	v[PLUGIN_PROM_QUEUE_LEN] = st->queue_len;
	v[PLUGIN_PROM_QUEUE_MAX] = st->queue_max;
	v[PLUGIN_PROM_ROUTES_SENT] = p->nsent;
	v[PLUGIN_PROM_OSM_ROUTES] = st->routes;
	v[PLUGIN_PROM_SHADOWED] = st->shadowed;
	v[PLUGIN_PROM_SWEEPS] = st->sweeps;
	v[PLUGIN_PROM_JOINS] = p->mjoins_sent;
	/* the text form's ages, as the times they count from (Prometheus' advice) */
	v[PLUGIN_PROM_CONNECTED] = ibrd_prom_wall_ns(p->connected_ns);
	v[PLUGIN_PROM_LAST] = ibrd_prom_wall_ns(p->last_ns);
}

/*
 * Who each plugin is (ibrouter_plugin_info: the text form's pid, opensm,
 * prefix and ports, as labels) and which ports it is bound to
 * (ibrouter_plugin_feeds: 1 where it feeds the port, 0 where another does).
 */
static void plugin_prom_who(struct ibrd *d, struct ibrd_out *o)
{
	ibrd_out_printf(o, "# HELP ibrouter_plugin_info Who the plugin is (labels); always 1.\n"
			   "# TYPE ibrouter_plugin_info gauge\n");
	for (const struct ibrd_plugin *p = d->plugins; p; p = p->next) {
		char ports[PLUGIN_PORTS_LEN], eports[2 * PLUGIN_PORTS_LEN], ever[2 * 40];
		union ibr_gid g = ibr_gid_make(p->s.h.subnet_prefix, 0);
		char gs[IBR_GID_STRLEN];

		plugin_ports_str(d, p, ports);
		ibrd_prom_escape(plugin_version_word(p->s.h.osm_version), ever, sizeof(ever));
		ibrd_prom_escape(ports, eports, sizeof(eports));
		ibrd_out_printf(o,
				"ibrouter_plugin_info{plugin=\"%u\",pid=\"%u\",opensm=\"%s\","
				"prefix=\"%s\",ports=\"%s\"} 1\n",
				p->id, (unsigned)p->s.h.pid, ever,
				p->s.h.subnet_prefix ? ibr_gid_ntop(&g, gs, sizeof(gs)) : "",
				eports);
	}
	ibrd_out_printf(o, "# HELP ibrouter_plugin_feeds Per port bound to the plugin: 1 if the "
			   "plugin feeds it, 0 if another plugin does.\n"
			   "# TYPE ibrouter_plugin_feeds gauge\n");
	for (const struct ibrd_plugin *p = d->plugins; p; p = p->next)
		for (uint32_t i = 0; i < d->rib.nports; i++) {
			char name[2 * ROUTER_PORT_NAME + 1];

			if (p->bound >> i & 1)
				ibrd_out_printf(
					o, "ibrouter_plugin_feeds{plugin=\"%u\",port=\"%s\"} %d\n",
					p->id,
					ibrd_prom_escape(d->rib.port[i].name, name, sizeof(name)),
					plugin_feeds(d, p, i));
		}
}

/*
 * show plugins -o prometheus: every family's HELP and TYPE, then a sample
 * per plugin, labelled plugin="ID" (the id of show plugins and of the log's
 * "plugin ID:" lines); no plugin, no sample, still a valid exposition.
 */
static int plugin_prom(struct ibrd *d, struct ibrd_out *o)
{
	uint64_t v[IBRD_PLUGINS_MAX][PLUGIN_PROM_MAX];
	unsigned id[IBRD_PLUGINS_MAX], n = 0;

	for (const struct ibrd_plugin *p = d->plugins; p && n < IBRD_PLUGINS_MAX; p = p->next) {
		id[n] = p->id;
		plugin_prom_values(p, v[n++]);
	}
	plugin_prom_who(d, o);
	for (int m = 0; m < PLUGIN_PROM_MAX; m++) {
		ibrd_prom_family(o, &plugin_prom_metrics[m]);
		for (unsigned i = 0; i < n; i++) {
			char labels[24];

			snprintf(labels, sizeof(labels), "plugin=\"%u\"", id[i]);
			ibrd_prom_sample(o, &plugin_prom_metrics[m], labels, v[i][m]);
		}
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_show_plugins(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = {
		"id",	  "pid",       "opensm",      "prefix",	     "sm_lid",	   "master",
		"ports",  "end_ports", "groups",      "messages",    "snapshots",  "deltas",
		"gaps",	  "dropped",   "queue",	      "routes_sent", "osm_routes", "shadowed",
		"sweeps", "joins",     "connected_s", "idle_s",
	};
	uint64_t now = ibr_now_ns();

	(void)argv;
	if (argc != 2)
		return ibrd_out_usage(o, "usage: show plugins");
	if (o->fmt == IBRD_FMT_PROM)
		return plugin_prom(d, o);
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (struct ibrd_plugin *p = d->plugins; p; p = p->next) {
		const struct ibr_plug_stats *st = &p->s.remote;
		char ports[PLUGIN_PORTS_LEN], buf[32];

		plugin_ports_str(d, p, ports);
		ibrd_out_u64(o, p->id);
		ibrd_out_u64(o, (uint64_t)p->s.h.pid);
		/* "OpenSM 3.3.23" -> "3.3.23": one word, as text tables need */
		ibrd_out_str(o, p->s.h.osm_version[0] ? plugin_version_word(p->s.h.osm_version)
						      : NULL);
		ibrd_out_prefix(o, p->s.h.subnet_prefix);
		ibrd_out_lid(o, p->s.h.sm_lid);
		ibrd_out_bool(o, p->s.sm_state == 3);
		ibrd_out_str(o, ports[0] ? ports : NULL);
		ibrd_out_u64(o, p->s.live.ports.count);
		ibrd_out_u64(o, p->s.live.groups.count);
		ibrd_out_u64(o, p->s.msgs);
		ibrd_out_u64(o, p->s.snapshots);
		ibrd_out_u64(o, p->s.deltas);
		ibrd_out_u64(o, p->s.gaps);
		ibrd_out_u64(o, st->dropped);
		snprintf(buf, sizeof(buf), "%u/%u", st->queue_len, st->queue_max);
		ibrd_out_str(o, buf);
		ibrd_out_u64(o, p->nsent);
		ibrd_out_u64(o, st->routes);
		ibrd_out_u64(o, st->shadowed);
		ibrd_out_u64(o, st->sweeps);
		ibrd_out_u64(o, p->mjoins_sent);
		ibrd_out_u64(o, (now - p->connected_ns) / 1000000000u);
		ibrd_out_u64(o, (now - p->last_ns) / 1000000000u);
	}
	return ibrd_out_end(o);
}
