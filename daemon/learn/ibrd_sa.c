/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_sa.c - the SA client of each port with one (sa/sa_client.h), on the
 * port's MAD channel (d->chan[], the port room's), and what it learns
 * becomes RIB changes here: the port's LID, LMC and prefix (its connected
 * route), neighbours and multicast groups of source "sa", published at the
 * end of the loop's turn (ibrd_sync.c); the other routers' records go to
 * the peer routes (ibrd_peers.c).
 */
#include "daemon/learn/ibrd_learn.h"

#include "lib/ibr_log.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t sa_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * What the port is to its SM, from its own NodeInfo: a CA on an HCA (the
 * firmware answers the SMPs) or at an ibsim Hca node, a Router node at an
 * ibsim Rt node or through the SMA.  Said once, and again if it changes.
 */
static void sa_node_type(struct ibrd_sa_port *mp, uint8_t t)
{
	const char *name = mp->d->rib.port[mp->idx].name;

	if (!t || t == mp->node_type)
		return;
	mp->node_type = t;
	if (t == 1)
		log_info("sa: port %s: its SM sees a Channel Adapter (NodeType 1): peers find it "
			 "by its ServiceRecords; PathRecords from other subnets need the OpenSM "
			 "plugin (ibrouter-osm) in that subnet's OpenSM",
			 name);
	else if (t == 3)
		log_info("sa: port %s: its SM sees a Router node (NodeType 3)", name);
	else
		log_warnx("sa: port %s: its SM sees NodeType %u, neither a CA nor a router", name,
			  t);
}

static void sa_on_port(void *arg, const struct sa_port_state *ps)
{
	struct ibrd_sa_port *mp = arg;
	struct ibrd *d = mp->d;
	struct router_port p = d->rib.port[mp->idx];

	sa_node_type(mp, ps->node_type);
	if (ps->lid == p.lid && ps->lmc == p.lmc && (!ps->prefix || ps->prefix == p.prefix) &&
	    (!ps->port_guid || ps->port_guid == p.guid))
		return;
	p.lid = ps->lid;
	p.lmc = ps->lmc;
	if (ps->prefix)
		p.prefix = ps->prefix;
	if (ps->port_guid) /* the port as its subnet knows it (prefix routes name it) */
		p.guid = ps->port_guid;
	log_info("sa: port %s: LID 0x%04x LMC %u prefix 0x%016llx (from the SM)", p.name, p.lid,
		 p.lmc, (unsigned long long)p.prefix);
	router_rib_port_set(&d->rib, mp->idx, &p);
	ibrd_port_changed(d, mp->idx);
}

static void sa_neighs(struct ibrd_sa_port *mp)
{
	struct ibrd *d = mp->d;
	const struct sa_neigh *v;
	size_t n = sa_client_neighs(d->sa[mp->idx], &v);

	router_rib_flush_neighs(&d->rib, ROUTER_SRC_SA, (int)mp->idx);
	for (size_t i = 0; i < n; i++) {
		struct router_neigh rn = {
			.key = { .guid = v[i].guid,
				 .port = (uint8_t)mp->idx,
				 .source = ROUTER_SRC_SA },
			.lid = v[i].lid,
			.lmc = v[i].lmc,
		};

		if (router_rib_neigh_add(&d->rib, &rn))
			log_warnx("sa: port %s: cannot add neighbour 0x%016llx",
				  d->rib.port[mp->idx].name, (unsigned long long)v[i].guid);
	}
}

static void sa_groups(struct ibrd_sa_port *mp)
{
	struct ibrd *d = mp->d;
	const struct sa_group *v;
	size_t n = sa_client_groups(d->sa[mp->idx], &v);

	router_rib_flush_mcasts(&d->rib, ROUTER_SRC_SA, (int)mp->idx);
	for (size_t i = 0; i < n; i++) {
		struct router_mcast m = {
			.mlid = v[i].mlid,
			.sl = v[i].sl,
			/* a group the router joined may gain receivers without a trap
			 * (IBA has none for joins): it is fed while it exists (and
			 * ibrd_mcast_mark_joined sees to the joins still in flight) */
			.flags = (uint8_t)((v[i].receivers || v[i].ours ? ROUTER_MCAST_RECEIVERS
									: 0) |
					   (v[i].senders ? ROUTER_MCAST_SENDERS : 0)),
			.source = ROUTER_SRC_SA,
			.tclass = v[i].tclass,
			.pkey = v[i].pkey,
			.qkey = v[i].qkey,
			.flowlabel = v[i].flowlabel,
			.mtu = v[i].mtu,
		};

		memcpy(m.key.mgid, v[i].mgid, 16);
		m.key.port = (uint8_t)mp->idx;
		if (router_rib_mcast_add(&d->rib, &m))
			log_warnx("sa: port %s: cannot add a group", d->rib.port[mp->idx].name);
	}
}

static void sa_on_changed(void *arg, bool neighs, bool groups)
{
	struct ibrd_sa_port *mp = arg;

	if (neighs)
		sa_neighs(mp);
	if (groups)
		sa_groups(mp);
	if (groups)
		ibrd_groups_changed(mp->d); /* the bridging policy, then the FIB */
	else
		ibrd_rib_changed(mp->d);
	mp->d->salog->change_ms[mp->idx] = sa_wall_ms();
}

static void sa_on_peers(void *arg)
{
	struct ibrd_sa_port *mp = arg;

	ibrd_peers_changed(mp->d);
	mp->d->salog->change_ms[mp->idx] = sa_wall_ms();
}

static void sa_on_report(void *arg, uint16_t trap, const uint8_t gid[16])
{
	struct ibrd_sa_port *mp = arg;

	(void)gid;
	mp->d->salog->report_ms[mp->idx] = sa_wall_ms();
	log_debug("sa: port %s: trap %u applied", mp->d->rib.port[mp->idx].name, trap);
}

struct ibrd_salog *ibrd_salog_new(void)
{
	return calloc(1, sizeof(struct ibrd_salog));
}

int ibrd_sa_start(struct ibrd *d)
{
	struct ibrd_salog *x = d->salog;
	struct sa_client_ops ops = {
		.port = sa_on_port,
		.changed = sa_on_changed,
		.report = sa_on_report,
		.peers = sa_on_peers,
	};

	if (!d->conf->sa_client)
		return 0;
	for (uint32_t i = 0; i < d->conf->nports; i++) {
		const struct ibrd_conf_port *cp = &d->conf->port[i];
		struct sa_client_config sc = {
			.name = cp->name,
			.sm_key = d->conf->sm_key,
			.resync_ms = d->conf->resync_interval * 1000u,
		};

		memcpy(sc.ad_key, d->conf->announce_key, sizeof(sc.ad_key));

		if (!cp->sa_client || !d->chan[i] || d->sa[i])
			continue;
		x->port[i] = (struct ibrd_sa_port){ .d = d, .idx = i };
		if (!(d->sa[i] = sa_client_new(d->chan[i], &sc, &ops, &x->port[i])))
			return -ENOMEM;
	}
	return 0;
}

void ibrd_sa_stop(struct ibrd *d)
{
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		struct sa_client *sa = d->sa[i];

		d->sa[i] = NULL;
		sa_client_free(sa); /* unsubscribes, deletes; the channel awaits the answers */
		if (d->salog)	    /* a client made again (a reload) has told nothing yet */
			d->salog->report_ms[i] = d->salog->change_ms[i] = 0;
	}
}

void ibrd_sa_stop_ports(struct ibrd *d, uint32_t mask)
{
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		struct sa_client *sa = d->sa[i];

		if (!(mask >> i & 1) || !sa)
			continue;
		log_warnx("sa: port %s: its MAD channel failed: the SA client stops, what it "
			  "learned goes (it starts again when the channel is back)",
			  d->rib.port[i].name);
		d->sa[i] = NULL;
		sa_client_free(sa);
		/* its neighbours and groups leave the RIB; its peers, its announcements */
		router_rib_flush_neighs(&d->rib, ROUTER_SRC_SA, (int)i);
		router_rib_flush_mcasts(&d->rib, ROUTER_SRC_SA, (int)i);
		ibrd_groups_changed(d);
		ibrd_peers_changed(d);
		d->ad->sa[i] = NULL; /* a client made again is announced to afresh */
		d->salog->report_ms[i] = d->salog->change_ms[i] = 0;
	}
}

void ibrd_sa_tick(struct ibrd *d, uint64_t now)
{
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
		if (d->sa[i])
			sa_client_tick(d->sa[i], now);
}

uint64_t ibrd_sa_deadline(const struct ibrd *d)
{
	uint64_t t = UINT64_MAX, x;

	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
		if (d->sa[i] && (x = sa_client_next_deadline(d->sa[i])) < t)
			t = x;
	return t;
}

void ibrd_sa_times(const struct ibrd *d, uint32_t idx, uint64_t *report_ms, uint64_t *change_ms)
{
	bool ok = idx < ROUTER_MAX_PORTS && d->salog;

	*report_ms = ok ? d->salog->report_ms[idx] : 0;
	*change_ms = ok ? d->salog->change_ms[idx] : 0;
}
