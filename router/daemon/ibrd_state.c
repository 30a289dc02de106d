/*
 * ibrd_state.c - the config's ports and static entries in the RIB, the RIB
 * compiled and published to the workers, and reload (parse, validate, swap
 * what changed, keep the old config on error).
 */
#include "router/daemon/ibrd.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int state_route(struct ibrd *d, const struct ibrd_conf *c, const struct ibrd_conf_route *cr,
		       bool add)
{
	struct router_route r;
	int port = ibrd_conf_port_index(c, cr->port);

	if (port < 0)
		return -ENOENT;
	if (!add)
		return router_rib_route_del(&d->rib, cr->prefix, cr->plen, ROUTER_SRC_STATIC);
	memset(&r, 0, sizeof(r));
	r.key.prefix = cr->prefix;
	r.key.plen = cr->plen;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh.port = (uint8_t)port;
	r.nh.kind = cr->kind;
	r.nh.lid = cr->lid;
	r.nh.lmc = cr->lmc;
	r.metric = cr->metric;
	return router_rib_route_add(&d->rib, &r);
}

static int state_neigh(struct ibrd *d, const struct ibrd_conf *c, const struct ibrd_conf_neigh *cn,
		       bool add)
{
	struct router_neigh n;
	int port = ibrd_conf_port_index(c, cn->port);

	if (port < 0)
		return -ENOENT;
	if (!add)
		return router_rib_neigh_del(&d->rib, (uint8_t)port, cn->guid, ROUTER_SRC_STATIC);
	memset(&n, 0, sizeof(n));
	n.key.guid = cn->guid;
	n.key.port = (uint8_t)port;
	n.key.source = ROUTER_SRC_STATIC;
	n.lid = cn->lid;
	n.lmc = cn->lmc;
	return router_rib_neigh_add(&d->rib, &n);
}

static int state_mcast(struct ibrd *d, const struct ibrd_conf *c, const struct ibrd_conf_mcast *cm,
		       bool add)
{
	struct router_mcast m;
	int port = ibrd_conf_port_index(c, cm->port);

	if (port < 0)
		return -ENOENT;
	if (!add)
		return router_rib_mcast_del(&d->rib, cm->mgid, (uint8_t)port);
	memset(&m, 0, sizeof(m));
	memcpy(m.key.mgid, cm->mgid, 16);
	m.key.port = (uint8_t)port;
	m.mlid = cm->mlid;
	m.sl = cm->sl;
	m.tclass = cm->tclass;
	m.flowlabel = cm->flowlabel;
	m.pkey = cm->pkey;
	m.qkey = cm->qkey;
	m.mtu = cm->mtu;
	m.source = ROUTER_SRC_STATIC;
	m.flags = (uint8_t)((cm->receivers ? ROUTER_MCAST_RECEIVERS : 0) |
			    (cm->senders ? ROUTER_MCAST_SENDERS : 0));
	return router_rib_mcast_add(&d->rib, &m);
}

/* The config's static entries into (add) or out of (del) the RIB. */
static int state_statics(struct ibrd *d, const struct ibrd_conf *c, bool add)
{
	int rc = 0, r;

	for (unsigned i = 0; i < c->nroutes; i++)
		if ((r = state_route(d, c, &c->routes[i], add)) && add)
			rc = rc ? rc : r;
	for (unsigned i = 0; i < c->nneighs; i++)
		if ((r = state_neigh(d, c, &c->neighs[i], add)) && add)
			rc = rc ? rc : r;
	for (unsigned i = 0; i < c->nmcasts; i++)
		if ((r = state_mcast(d, c, &c->mcasts[i], add)) && add)
			rc = rc ? rc : r;
	return rc;
}

/*
 * The connected route of a port: its subnet prefix, delivered directly.
 * A subnet prefix is one port's: a port whose new prefix is already
 * another port's connected prefix (an SMP Set, the SA, the plugin, its
 * HCA's GID or a reload said so) is refused, rate-limited in the log; the
 * refused port keeps the connected prefix it had, or has none (prefix 0)
 * if it had none, and the first port keeps its route.  Link-local
 * prefixes (fe80::/10, every subnet's default, never routed: IBA 4.1.1)
 * get no route, so they may be shared.
 */
void ibrd_state_connected(struct ibrd *d, uint32_t idx)
{
	static struct ibr_ratelimit rl = IBR_RATELIMIT_INIT(1, 10);
	struct router_port *p = &d->rib.port[idx];
	uint64_t old = router_rib_connected_prefix(&d->rib, (uint8_t)idx);
	struct router_route r;
	union ibr_gid g;
	int rc;

	router_rib_flush(&d->rib, ROUTER_SRC_CONNECTED, (int)idx);
	g = ibr_gid_make(p->prefix, 0);
	if (!p->prefix || ibr_gid_is_link_local(&g))
		return;
	if (d->vdown[idx]) /* none while its HCA port's link is down */
		return;
	memset(&r, 0, sizeof(r));
	r.key.prefix = p->prefix;
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_CONNECTED;
	r.nh.port = (uint8_t)idx;
	r.nh.kind = ROUTER_NH_DIRECT;
	rc = router_rib_route_add(&d->rib, &r);
	if (rc == -EEXIST) {
		const struct router_route *owner = router_tab_find(&d->rib.routes, &r.key);
		union ibr_gid k = ibr_gid_make(old, 0);
		char gs[IBR_GID_STRLEN], ks[IBR_GID_STRLEN];

		if (ibr_ratelimit_ok(&rl, ibr_now_ns()))
			log_warnx("router: port %s: subnet prefix %s refused: it is port %s's; "
				  "%s kept",
				  p->name, ibr_gid_ntop(&g, gs, sizeof(gs)),
				  d->rib.port[owner->nh.port].name,
				  old ? ibr_gid_ntop(&k, ks, sizeof(ks)) : "no prefix");
		p->prefix = old;
		r.key.prefix = old;
		rc = old ? router_rib_route_add(&d->rib, &r) : 0;
	}
	if (rc)
		log_warnx("router: port %s: cannot add its connected route", p->name);
}

int ibrd_state_load(struct ibrd *d, struct ibrd_conf *c)
{
	int rc;

	router_rib_init(&d->rib);
	memset(d->vdown, 0, sizeof(d->vdown)); /* the verbs ports say again (ibrd_verbs.c) */
	for (unsigned i = 0; i < c->nports; i++) {
		if ((rc = router_rib_port_add(&d->rib, &c->port[i].rp)) < 0)
			return rc;
		ibrd_state_connected(d, i);
	}
	if ((rc = state_statics(d, c, true)))
		return rc;
	d->conf = c;
	ibrd_proxy_load(d, c);
	return 0;
}

int ibrd_state_publish(struct ibrd *d)
{
	struct router_fib *fib = router_rib_compile(&d->rib);
	int rc;

	if (!fib)
		return -ENOMEM;
	if ((rc = router_pub_publish(&d->pub, fib))) {
		router_fib_free(fib);
		return rc;
	}
	log_debug("router: published FIB %llu (%llu routes, %u groups)",
		  (unsigned long long)fib->generation, (unsigned long long)fib->nroutes,
		  fib->ngroups);
	return 0;
}

/*
 * Same ports, same names, same data paths (sockets, HCA ports, relay
 * Q_Keys): a reload can edit them live.
 */
static bool state_same_ports(const struct ibrd_conf *a, const struct ibrd_conf *b)
{
	if (a->nports != b->nports)
		return false;
	for (unsigned i = 0; i < a->nports; i++) {
		const struct ibrd_conf_port *p = &a->port[i], *q = &b->port[i];

		if (strcmp(p->name, q->name) || p->data != q->data ||
		    strcmp(p->sim_socket, q->sim_socket) || strcmp(p->sim_peer, q->sim_peer) ||
		    strcmp(p->device, q->device) || p->device_port != q->device_port ||
		    p->relay_qkey != q->relay_qkey)
			return false;
	}
	return true;
}

/* New port settings; what the fabric taught us (LID, prefix) stays unless configured. */
static void state_port_update(struct ibrd *d, uint32_t idx, const struct router_port *np)
{
	struct router_port p = *np;
	const struct router_port *cur = &d->rib.port[idx];

	if (!p.lid) {
		p.lid = cur->lid;
		p.lmc = cur->lmc;
	}
	if (!p.prefix)
		p.prefix = cur->prefix;
	if (d->vdown[idx]) /* the HCA port's link is down (ibrd_verbs.c) */
		p.flags &= (uint8_t)~ROUTER_PORT_UP;
	if (ibrd_mad_sa(d, idx)) /* the GUID its subnet knows the port by (ibsim: its own) */
		p.guid = cur->guid;
	router_rib_port_set(&d->rib, idx, &p);
	ibrd_state_connected(d, idx);
}

static int state_swap_live(struct ibrd *d, struct ibrd_conf *nc)
{
	int rc;

	state_statics(d, d->conf, false);
	for (unsigned i = 0; i < nc->nports; i++)
		state_port_update(d, i, &nc->port[i].rp);
	if ((rc = state_statics(d, nc, true))) {
		/* cannot happen after a clean parse; put the old entries back */
		state_statics(d, nc, false);
		state_statics(d, d->conf, true);
		return rc;
	}
	return 0;
}

/* The new config's proxies; the verbs ports reopen when they changed. */
static int state_proxies(struct ibrd *d, const struct ibrd_conf *nc)
{
	struct ibrd_proxy saved[IBRD_MAX_PROXIES];
	unsigned nsaved = d->nproxies;
	int rc;

	memcpy(saved, d->proxy, sizeof(saved));
	if (!ibrd_proxy_load(d, nc) || !(rc = ibrd_data_restart(d)))
		return 0;
	memcpy(d->proxy, saved, sizeof(saved)); /* back to those that worked */
	d->nproxies = nsaved;
	ibrd_data_restart(d);
	return rc;
}

int ibrd_state_reload(struct ibrd *d, char *err, size_t errlen)
{
	FILE *ef = fmemopen(err, errlen, "w");
	struct ibrd_conf *nc, *old = d->conf;
	bool live = false;
	int rc;

	if (!ef)
		return -ENOMEM;
	nc = ibrd_conf_load(d->conf_path, ef);
	fclose(ef);
	if (!nc)
		return -EINVAL;
	if (state_same_ports(old, nc)) {
		rc = state_swap_live(d, nc);
		live = true;
	} else {
		/* ports come or go: restart the data path; sockets of ports that
		 * stay keep their queues (ibrd_data_start reuses them by name).
		 * The MAD attachments start again too: the SA clients sync anew
		 * into the new RIB (their ports may have moved) */
		ibrd_mcast_stop(d);
		ibrd_mad_stop(d);
		ibrd_data_stop(d);
		router_rib_free(&d->rib);
		rc = ibrd_state_load(d, nc);
		if (!rc)
			rc = ibrd_data_start(d);
		if (!rc)
			rc = ibrd_mad_start(d);
	}
	if (rc) {
		if (d->conf == nc)
			d->conf = old;
		ibrd_conf_free(nc);
		snprintf(err, errlen, "reload: cannot apply %s: %s", d->conf_path, strerror(-rc));
		return rc;
	}
	d->conf = nc;
	ibrd_conf_free(old);
	if (live && (rc = state_proxies(d, nc))) {
		snprintf(err, errlen, "reload: proxies: %s (the previous ones stay)",
			 strerror(-rc));
		ibrd_state_publish(d);
		return rc;
	}
	return ibrd_state_publish(d);
}
