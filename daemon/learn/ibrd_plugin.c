/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_plugin.c - OpenSM plugins (ibrouter-osm(8)) as a learning source of
 * ibrouterd: sessions on the control socket, their data in the RIB as
 * source "osm-plugin", and the prefix routes sent back to them.
 *
 * A plugin connects like ibrouterctl and says "plugin hello 1" (the
 * command and its checks: daemon/cmd/ibrd_cmd_plugin.c, which makes the
 * session here); then the connection carries lib/ibr_plug.h messages
 * (ibrd_plugin_input.c decodes them).
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
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/learn/ibrd_plugin.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PLUGIN_BURST 256 /* datagrams read per event, so one plugin cannot starve the loop */

bool ibrd_plugin_feeds(const struct ibrd *d, const struct ibrd_plugin *p, uint32_t port)
{
	return d->plug->feeder[port] == p->id;
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
	for (p = d->plug->list; p && !ibrd_plugin_feeds(d, p, port); p = p->next)
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
		if (!ibrd_plugin_feeds(d, p, i))
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
		if (ibrd_plugin_feeds(d, p, i) &&
		    !router_rib_neigh_del(&d->rib, (uint8_t)i, pp->guid, ROUTER_SRC_PLUGIN))
			ibrd_rib_changed(d);
}

static void plugin_on_group(void *ctx, const struct ibrd_pgroup *g)
{
	struct ibrd_plugin *p = ctx;
	struct ibrd *d = p->d;

	p->gview_valid = false;
	for (uint32_t i = 0; i < d->rib.nports; i++)
		if (ibrd_plugin_feeds(d, p, i)) {
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
		if (ibrd_plugin_feeds(d, p, i) && m && m->source == ROUTER_SRC_PLUGIN) {
			router_rib_mcast_del(&d->rib, mgid, (uint8_t)i);
			ibrd_groups_changed(d);
		}
	}
}

/* ---- binding: which ports a plugin is in, and who feeds each ---- */

static uint32_t plugin_bound(const struct ibrd *d, const struct ibrd_plugin *p)
{
	uint32_t mask = 0;

	for (uint32_t i = 0; i < d->rib.nports; i++)
		if (ibrd_psess_binds(&p->s, d->rib.port[i].guid, d->rib.port[i].prefix))
			mask |= 1u << i;
	return mask;
}

/* Recompute bindings and feeders; re-project the ports whose feeder changed. */
static void plugin_rebind(struct ibrd *d, bool all)
{
	for (struct ibrd_plugin *p = d->plug->list; p; p = p->next)
		p->bound = plugin_bound(d, p);
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		struct ibrd_plugin *best = NULL;

		for (struct ibrd_plugin *p = d->plug->list; p; p = p->next) {
			if (!(p->bound >> i & 1) || !p->s.snapshots)
				continue;
			if (!best || (p->s.sm_state == 3 && best->s.sm_state != 3))
				best = p; /* the list is oldest first: ties go to the first */
		}
		if (all || d->plug->feeder[i] != (best ? best->id : 0)) {
			if (d->plug->feeder[i] != (best ? best->id : 0))
				log_info("plugin: port %s: fed by %s%u", d->rib.port[i].name,
					 best ? "plugin " : "no plugin", best ? best->id : 0);
			d->plug->feeder[i] = best ? best->id : 0;
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

struct ibrd_plugins *ibrd_plugins_new(void)
{
	return calloc(1, sizeof(struct ibrd_plugins));
}

struct ibrd_plugin *ibrd_plugin_new(struct ibrd *d, struct ibrd_client *c, const struct ucred *cr)
{
	struct ibrd_psess_ops ops = { plugin_on_port, plugin_on_port_del, plugin_on_group,
				      plugin_on_group_del };
	struct ibrd_plugin *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->d = d;
	p->client = c;
	p->id = ++d->plug->next_id;
	p->pid = (int)cr->pid;
	p->uid = (unsigned)cr->uid;
	p->connected_ns = p->last_ns = ibr_now_ns();
	ibrd_psess_init(&p->s, &ops, p);
	return p;
}

void ibrd_plugin_discard(struct ibrd_plugin *p)
{
	ibrd_psess_free(&p->s);
	free(p);
}

void ibrd_plugin_attach(struct ibrd *d, struct ibrd_plugin *p)
{
	struct ibrd_plugin **pp;

	for (pp = &d->plug->list; *pp; pp = &(*pp)->next)
		; /* oldest first */
	*pp = p;
	d->plug->n++;
	ibrd_client_set_ops(p->client, &plugin_client_ops, p);
	log_info("plugin %u: connected (pid %d, uid %u)", p->id, p->pid, p->uid);
}

/* Its client is closing: its entries go (another plugin may feed its ports). */
static void plugin_detach(struct ibrd *d, struct ibrd_plugin *p)
{
	struct ibrd_plugin **pp;

	for (pp = &d->plug->list; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	d->plug->n--;
	log_info("plugin %u: gone (%llu messages)", p->id, (unsigned long long)p->s.msgs);
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
		if (d->plug->feeder[i] == p->id) {
			d->plug->feeder[i] = 0;
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
				if (ibrd_plugin_feeds(d, p, j))
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
	bool reloaded = d->plug->conf != d->conf;

	d->plug->conf = d->conf;
	d->plug->resend |= reloaded;
	if (!d->plug->list)
		return;
	if (!d->conf->osm_plugin)
		for (struct ibrd_plugin *p = d->plug->list; p; p = p->next)
			ibrd_client_drop(p->client); /* turned off by a reload */
	/* a reload may have rebuilt the RIB: every port from scratch */
	plugin_rebind(d, reloaded);
}

/*
 * Routes again when the tables changed, or a plugin has none yet or moved
 * ports.  A plugin takes the whole set each time (the protocol's ROUTES
 * message), made from the whole RIB: when only the tables moved, every
 * plugin's at their pace (ibrd_pace), a burst of changes in one set.
 */
void ibrd_plugin_routes_sync(struct ibrd *d)
{
	uint64_t t0 = ibr_now_ns();
	bool moved = d->rib.generation != d->plug->gen, ran = false;
	bool wait = moved && d->plug->list && !ibrd_pace_due(&d->plug->pace, t0);

	for (struct ibrd_plugin *p = d->plug->list; p; p = p->next) {
		bool own = !p->sent_valid || p->sent_bound != p->bound || d->plug->resend;

		if (!p->s.snapshots || !(own || (moved && !wait)))
			continue;
		if (ibrd_plugin_routes_send(d, p))
			log_warnx("plugin %u: cannot send its prefix routes", p->id);
		p->sent_bound = p->bound;
		ran |= moved && !wait;
	}
	if (!wait)
		d->plug->gen = d->rib.generation;
	d->plug->wait = wait;
	d->plug->resend = false;
	if (ran)
		ibrd_pace_done(&d->plug->pace, t0, ibr_now_ns());
}

uint64_t ibrd_plugin_deadline(const struct ibrd *d)
{
	return d->plug && d->plug->wait ? d->plug->pace.next_ns : UINT64_MAX;
}
