/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_state.c - the config's ports and static entries in the RIB (at start,
 * and anew for each reload: ibrd_reload.c), and the RIB compiled and
 * published to the workers.
 */
#include "daemon/ibrd.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * A static entry of config `c` into (add) or out of (del) the RIB; its port
 * is looked up by name in `at`, the config whose port indexes the RIB has.
 */
static int state_route(struct ibrd *d, const struct ibrd_conf *at, const struct ibrd_conf_route *cr,
		       bool add)
{
	struct router_nh nhs[ROUTER_ECMP_MAX];
	struct router_route r;
	int port = ibrd_conf_port_index(at, cr->port);
	unsigned n;

	if (!add) /* a route's key has no port */
		return router_rib_route_del(&d->rib, cr->prefix, cr->plen, ROUTER_SRC_STATIC);
	if (port < 0)
		return -ENOENT;
	memset(&r, 0, sizeof(r));
	r.key.prefix = cr->prefix;
	r.key.plen = cr->plen;
	r.key.source = ROUTER_SRC_STATIC;
	n = cr->kind == ROUTER_NH_ROUTER ? cr->nlid : 1;
	for (unsigned i = 0; i < n; i++) /* every next router on the route's port */
		nhs[i] = (struct router_nh){
			.port = (uint8_t)port, .kind = cr->kind, .lid = cr->lid[i], .lmc = cr->lmc
		};
	r.metric = cr->metric;
	return router_rib_route_add_nhs(&d->rib, &r, nhs, n);
}

static int state_neigh(struct ibrd *d, const struct ibrd_conf *at, const struct ibrd_conf_neigh *cn,
		       bool add)
{
	struct router_neigh n;
	int port = ibrd_conf_port_index(at, cn->port);

	if (port < 0)
		return -ENOENT;
	if (!add)
		return router_rib_neigh_del(&d->rib, (uint8_t)port, cn->guid, ROUTER_SRC_STATIC);
	ibrd_conf_neigh_rib(cn, (uint8_t)port, &n);
	return router_rib_neigh_add(&d->rib, &n);
}

static int state_mcast(struct ibrd *d, const struct ibrd_conf *at, const struct ibrd_conf *c,
		       const struct ibrd_conf_mcast *cm, bool add)
{
	struct router_mcast m;
	int port = ibrd_conf_port_index(at, cm->port);

	if (port < 0)
		return -ENOENT;
	ibrd_conf_mcast_rib(cm, (uint8_t)port, &m);
	m.feed = (uint16_t)ibrd_conf_feed_id(c, cm->feed);
	if (!add) {
		/* the group as a subnet's SA describes it now is not the file's to remove */
		const struct router_mcast *cur = router_tab_find(&d->rib.mcasts, &m.key);

		if (!cur || cur->source != ROUTER_SRC_STATIC)
			return -ENOENT;
		return router_rib_mcast_del(&d->rib, cm->mgid, (uint8_t)port);
	}
	return router_rib_mcast_add(&d->rib, &m);
}

/* The static entries of config `c` into (add) or out of (del) the RIB. */
static int state_statics(struct ibrd *d, const struct ibrd_conf *at, const struct ibrd_conf *c,
			 bool add)
{
	int rc = 0, r;

	for (unsigned i = 0; i < c->nroutes; i++)
		if ((r = state_route(d, at, &c->routes[i], add)) && add)
			rc = rc ? rc : r;
	for (unsigned i = 0; i < c->nneighs; i++)
		if ((r = state_neigh(d, at, &c->neighs[i], add)) && add)
			rc = rc ? rc : r;
	for (unsigned i = 0; i < c->nmcasts; i++)
		if ((r = state_mcast(d, at, c, &c->mcasts[i], add)) && add)
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
	/* a RoCE subnet has no LIDs: its hosts are reached by GID, no neighbour needed */
	r.nh.kind = (p->flags & ROUTER_PORT_ROCE) ? ROUTER_NH_GID : ROUTER_NH_DIRECT;
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

/*
 * What port `p` of the new config keeps of the old port `cur` (old index
 * `oi`): what the fabric taught it (LID and LMC, prefix) unless the file
 * sets them now, the GUID its subnet knows it by when an SA client learnt
 * it, a link the HCA reports down, and the P_Key table its SM set unless
 * the file gives one.
 */
static void state_port_learned(struct ibrd *d, struct router_port *p, const struct router_port *cur,
			       const struct ibrd_conf_port *ocp, uint32_t oi, uint32_t ni)
{
	/* a P_Key table that the old file did not give came from the SM (ibrd_sma.c) */
	if (!(p->flags & ROUTER_PORT_PKEY_CHECK) && (cur->flags & ROUTER_PORT_PKEY_CHECK) &&
	    !(ocp->rp.flags & ROUTER_PORT_PKEY_CHECK)) {
		p->flags |= ROUTER_PORT_PKEY_CHECK;
		p->npkeys = cur->npkeys;
		memcpy(p->pkeys, cur->pkeys, sizeof(p->pkeys));
	}
	if (!p->lid) {
		p->lid = cur->lid;
		p->lmc = cur->lmc;
	}
	if (!p->prefix)
		p->prefix = cur->prefix;
	if (d->vdown[ni]) /* the HCA port's link is down (ibrd_verbs.c) */
		p->flags &= (uint8_t)~ROUTER_PORT_UP;
	if (d->sa[oi]) /* the GUID its subnet knows the port by (ibsim: its own) */
		p->guid = cur->guid;
}

/*
 * The entries of `old` that no file made -- learned from an SA or a plugin,
 * added with ibrouterctl -- follow their port to its new index (`to`, -1:
 * the port is gone, and they go with it).  Connected routes are made anew.
 */
static int state_carry(struct ibrd *d, const struct router_rib *old, const int *to)
{
	const struct router_route *r;
	const struct router_neigh *n;
	const struct router_mcast *m;
	uint32_t pos = 0;
	int rc;

	while ((r = router_tab_next(&old->routes, &pos))) {
		struct router_nh v[ROUTER_ECMP_MAX];
		unsigned nv, keep = 0;

		if (r->key.source == ROUTER_SRC_CONNECTED)
			continue;
		/* each next hop to its port's new index; those through a port gone, gone */
		nv = router_rib_route_nhs(old, r, v);
		for (unsigned i = 0; i < nv; i++)
			if (to[v[i].port] >= 0) {
				v[keep] = v[i];
				v[keep++].port = (uint8_t)to[v[i].port];
			}
		if (keep && (rc = router_rib_route_add_nhs(&d->rib, r, v, keep)))
			return rc;
	}
	pos = 0;
	while ((n = router_tab_next(&old->neighs, &pos))) {
		struct router_neigh x = *n;

		if (to[n->key.port] < 0)
			continue;
		x.key.port = (uint8_t)to[n->key.port];
		if ((rc = router_rib_neigh_add(&d->rib, &x)))
			return rc;
	}
	pos = 0;
	while ((m = router_tab_next(&old->mcasts, &pos))) {
		struct router_mcast x = *m;

		if (to[m->key.port] < 0)
			continue;
		x.key.port = (uint8_t)to[m->key.port];
		if ((rc = router_rib_mcast_add(&d->rib, &x)))
			return rc;
	}
	return 0;
}

int ibrd_state_build(struct ibrd *d, const struct ibrd_conf *c, const struct ibrd_conf *oc,
		     const struct router_rib *old, const int *from)
{
	int to[ROUTER_MAX_PORTS];
	int rc;

	router_rib_init(&d->rib);
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		to[i] = -1;
	for (unsigned i = 0; i < c->nports; i++) {
		struct router_port p = c->port[i].rp;

		if (old && from[i] >= 0) {
			state_port_learned(d, &p, &old->port[from[i]], &oc->port[from[i]],
					   (uint32_t)from[i], i);
			to[from[i]] = (int)i;
		}
		if ((rc = router_rib_port_add(&d->rib, &p)) < 0)
			return rc;
		ibrd_state_connected(d, i);
	}
	if (old) {
		d->rib.generation = old->generation; /* the plugins compare generations */
		if ((rc = state_carry(d, old, to)))
			return rc;
		/* the old file's entries go, whoever last set them; the new file's come */
		state_statics(d, c, oc, false);
	}
	return state_statics(d, c, c, true);
}

/* A link-local prefix (fe80::/10; the default, fe80::/64, above all): never routed. */
static bool prefix_unroutable(uint64_t prefix)
{
	union ibr_gid g = ibr_gid_make(prefix, 0);

	return prefix && ibr_gid_is_link_local(&g);
}

void ibrd_state_prefix_watch(struct ibrd *d)
{
	for (uint32_t i = 0; i < d->rib.nports && i < ROUTER_MAX_PORTS; i++) {
		uint64_t rib = d->rib.port[i].prefix;
		uint64_t sm = d->sa[i] ? sa_client_port(d->sa[i])->prefix : 0;
		uint64_t bad = prefix_unroutable(sm) ? sm : prefix_unroutable(rib) ? rib : 0;
		union ibr_gid g = ibr_gid_make(bad, 0);
		char gs[IBR_GID_STRLEN];

		if (bad == d->prefix_said[i])
			continue;
		if (bad)
			log_warnx("port %s: its subnet's prefix is %s/64%s: its GIDs are "
				  "link-local, which no router forwards (IBA 8.4): nothing is "
				  "routed to or from that subnet until its SM has a prefix of its "
				  "own (OpenSM: subnet_prefix, e.g. 0xfec0000000000001)",
				  d->rib.port[i].name, ibr_gid_ntop(&g, gs, sizeof(gs)),
				  bad == IBRD_PREFIX_DEFAULT ? ", the SM's default" : "");
		else
			log_info("port %s: its subnet's prefix is no longer link-local: routed",
				 d->rib.port[i].name);
		d->prefix_said[i] = bad;
	}
}

/*
 * The next FIB: the published one with what changed in the RIB since in its
 * delta, or compiled whole (router_rib_update says when), then published.
 */
int ibrd_state_publish(struct ibrd *d)
{
	struct router_fib *fib = router_rib_update(&d->rib, router_pub_get(&d->pub));
	int rc;

	if (!fib)
		return -ENOMEM;
	if ((rc = router_pub_publish(&d->pub, fib))) {
		router_fib_free(fib);
		return rc;
	}
	d->fib_delta = fib->delta != NULL;
	d->fib_changed_ns = ibr_now_ns();
	log_debug("router: published FIB %llu (%llu routes, %u groups%s)",
		  (unsigned long long)fib->generation, (unsigned long long)fib->nroutes,
		  fib->ngroups, fib->delta ? ", a delta" : "");
	return 0;
}

/*
 * A FIB with a delta costs the workers ~2 ns a packet more than its base
 * alone (router_engine.c): once the changes stop, the delta is merged into a
 * base of its own, so that a quiet router forwards at full speed.  The
 * compile reads the whole RIB (~120 ms for 10^6 routes): at the pace of
 * such work (ibrd_pace), when the loop has nothing else to do.
 */
void ibrd_state_merge(struct ibrd *d)
{
	uint64_t t0 = ibr_now_ns();
	struct router_fib *fib;

	if (!d->fib_delta || t0 < d->fib_changed_ns + IBRD_MERGE_IDLE_NS ||
	    !ibrd_pace_due(&d->merge_pace, t0))
		return;
	fib = router_rib_merge(&d->rib, router_pub_get(&d->pub));
	if (fib && router_pub_publish(&d->pub, fib) == 0) {
		d->fib_delta = false;
		d->fib_publishes++;
		log_debug("router: FIB %llu merged (%llu routes)",
			  (unsigned long long)fib->generation, (unsigned long long)fib->nroutes);
	} else {
		router_fib_free(fib); /* tried again after the gap */
	}
	ibrd_pace_done(&d->merge_pace, t0, ibr_now_ns());
}
