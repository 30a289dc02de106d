/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_mcast.c - the router port's joins and leaves that ibrouterd asks for
 * (IBR_PLUG_MCAST, lib/ibr_plug.h), made inside OpenSM.
 *
 * Why: ibrouterd's bridging policy makes the router a FullMember of a
 * bridged group in every subnet, so that the SM routes the group's traffic
 * to it; a feed's port that the router only sends into, a SendOnlyNonMember
 * (join state 4).  A router port with no SA client here (mad = none) cannot send a
 * MCMemberRecord Set; the plugin makes that join for it, as OpenSM's SA
 * would make one from that port (IBA 15.2.5.17), and then sends every
 * daemon the group as it is now.  The port is a Router node's, or, as on
 * real hardware where the router's ports are HCA ports, a CA port that is
 * a router port by the trust rule (posm_rec_trust_port(): routers=, or the
 * asking daemon's own prefix routes name it); never another host's.
 *
 * What this mirrors (OpenSM 3.3.23, opensm/osm_sa_mcmember_record.c):
 *  - the SA answers nothing unless it is the master past its first sweep
 *    (osm_sa_mad_ctrl.c): the same here;
 *  - mcmr_rcv_join_mgrp(): a known port, a valid P_Key; a group that does
 *    not exist is created only by a FullMember (o15-0.1.9) with the
 *    components of REQUIRED_MC_CREATE_COMP_MASK (always given here), by
 *    osm_mcmr_rcv_find_or_create_new_mgrp() (exported: the create itself,
 *    mcmr_rcv_create_new_mgrp(), is static), which also validates the MGID
 *    and chooses MTU and rate when none is given; an existing group must
 *    match the given components when mcgroup_join_validation is on
 *    (validate_other_comp_fields(), o15-0.2.4 5.), and the MTU and rate
 *    selectors "exactly" (validate_more_comp_fields()); the port must carry
 *    the group's MTU and rate (validate_port_caps()) and be in its partition
 *    (osm_physp_has_pkey()); a group created for a join that then fails is
 *    removed again (osm_mgrp_cleanup()); the member record takes the
 *    group's components (copy_from_create_mc_rec(), o15-0.1.11);
 *    osm_mgrp_add_port() asks for the MLID's reroute and sends trap 66
 *    when the port is the group's first full member;
 *  - validate_modify() (o15-0.2.1) has nothing to refuse: the request is
 *    the port's own (ProxyJoin 0);
 *  - a leave: osm_mgrp_delete_port() (every join state of the port, as when
 *    OpenSM drops a port), which sends trap 67 and deletes the group when
 *    its last full member goes.
 * Only functions /usr/sbin/opensm exports (nm -D) or libopensm has (which
 * OpenSM itself links: ib_path_compare_rates) are called; the rest of what
 * the SA does in static functions is done here.
 *
 * The traps of osm_mgrp_add_port() and osm_mgrp_delete_port() reach our
 * report() on this very thread, OpenSM's lock held by us: no plugin mutex
 * may be held across these calls (main_trap takes qlock).
 */
#include "plugins/posm_osm.h"

#include <opensm/osm_helper.h>
#include <opensm/osm_multicast.h>
#include <opensm/osm_node.h>
#include <opensm/osm_pkey.h>
#include <opensm/osm_port.h>
#include <opensm/osm_sa.h>

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#define MCAST_LOG_NS   (10 * 1000000000ull)
#define MCAST_LOG_MAX  8 /* refusals logged at verbose 1 per 10 s; the rest at 2 */
#define MCAST_RECS_MAX (IBR_PLUG_MSG_MAX / IBR_PLUG_MCAST_LEN)

/* What a record did, for the log. */
struct mcast_done {
	uint16_t mlid;
	bool was_member; /* before the record */
	bool created;	 /* the join created the group */
	bool gone;	 /* the leave deleted it */
};

static const char *mcast_mgid_str(const uint8_t mgid[16], char *buf, size_t len)
{
	return inet_ntop(AF_INET6, mgid, buf, (socklen_t)len) ? buf : "?";
}

/*
 * The port, when OpenSM knows it and it is a router port: a port of a Router
 * node (a swept one: in rtr_guid_tbl), or a CA port that the trust rule
 * takes for one (routers=, or the asking daemon's own routes name it:
 * posm_rec_trust_port()) -- on real hardware a router's ports are HCA ports.
 */
static enum posm_mcast_why mcast_port(struct posm *p, const struct posm_conn *c, uint64_t guid,
				      osm_port_t **out)
{
	osm_subn_t *s = &p->osm->subn;
	ib_net64_t g = cl_hton64(guid);
	osm_port_t *port = osm_get_port_by_guid(s, g);
	cl_map_item_t *r;

	*out = NULL;
	if (!port || !port->p_physp || !port->p_node)
		return POSM_MC_NO_PORT;
	switch (osm_node_get_type(port->p_node)) {
	case IB_NODE_TYPE_ROUTER:
		r = cl_qmap_get(&s->rtr_guid_tbl, g);
		if (r == cl_qmap_end(&s->rtr_guid_tbl) || posm_rtr_is_ours(r, p))
			return POSM_MC_NOT_ROUTER;
		break;
	case IB_NODE_TYPE_CA:
		if (!posm_rec_trust_port(&p->o, guid, c->routes, c->nroutes))
			return POSM_MC_NOT_ROUTER;
		break;
	default:
		return POSM_MC_NOT_ROUTER;
	}
	*out = port;
	return POSM_MC_OK;
}

/* The MCMemberRecord the port would send, and its ComponentMask (as sa/sa_client.c sends it). */
static ib_net64_t mcast_rec(struct posm *p, const struct ibr_plug_mcast *r, ib_member_rec_t *rec)
{
	uint8_t scope = r->mgid[1] & 0x0F;
	ib_net64_t mask = IB_MCR_COMPMASK_MGID | IB_MCR_COMPMASK_PORT_GID |
			  IB_MCR_COMPMASK_JOIN_STATE | IB_MCR_COMPMASK_QKEY |
			  IB_MCR_COMPMASK_TCLASS | IB_MCR_COMPMASK_PKEY | IB_MCR_COMPMASK_FLOW |
			  IB_MCR_COMPMASK_SL;

	memset(rec, 0, sizeof(*rec));
	memcpy(rec->mgid.raw, r->mgid, 16);
	/* the SA refuses another prefix (ERR 1B40): the subnet's, as configured */
	rec->port_gid.unicast.prefix = p->osm->subn.opt.subnet_prefix;
	rec->port_gid.unicast.interface_id = cl_hton64(r->guid);
	rec->qkey = cl_hton32(r->qkey);
	rec->pkey = cl_hton16(r->pkey);
	rec->tclass = r->tclass;
	/*
	 * Hop limit and packet lifetime are not in the message: a created group
	 * gets what OpenSM gives its own (osm_prtn.c: hop limit 0 in link-local
	 * scope, else 255 -- hosts send with it, so 0 would keep their packets
	 * from crossing the router; PacketLifeTime the subnet timeout).  Not in
	 * the mask: an existing group's are not compared.
	 */
	rec->sl_flow_hop = ib_member_set_sl_flow_hop(
		r->sl, r->flowlabel, scope == IB_MC_SCOPE_LINK_LOCAL ? 0 : IB_HOPLIMIT_MAX);
	rec->pkt_life = p->osm->subn.opt.subnet_timeout & 0x3F;
	rec->scope_state = ib_member_set_scope_state(scope, r->join_state);
	if (r->mtu) {
		rec->mtu = (uint8_t)(IB_PATH_SELECTOR_EXACTLY << 6 | r->mtu);
		mask |= IB_MCR_COMPMASK_MTU_SEL | IB_MCR_COMPMASK_MTU;
	}
	if (r->rate) {
		rec->rate = (uint8_t)(IB_PATH_SELECTOR_EXACTLY << 6 | r->rate);
		mask |= IB_MCR_COMPMASK_RATE_SEL | IB_MCR_COMPMASK_RATE;
	}
	return mask;
}

/* An existing group against the join's components (validate_other/more_comp_fields). */
static enum posm_mcast_why mcast_match(struct posm *p, const osm_mgrp_t *g,
				       const ib_member_rec_t *rec, ib_net64_t mask)
{
	const ib_member_rec_t *gr = &g->mcmember_rec;
	uint8_t sl, gsl, hop, ghop;
	uint32_t fl, gfl;

	if (p->osm->subn.opt.mcgroup_join_validation) {
		ib_member_get_sl_flow_hop(rec->sl_flow_hop, &sl, &fl, &hop);
		ib_member_get_sl_flow_hop(gr->sl_flow_hop, &gsl, &gfl, &ghop);
		if (rec->qkey != gr->qkey || rec->tclass != gr->tclass || sl != gsl || fl != gfl ||
		    !(ib_pkey_is_full_member(rec->pkey) || ib_pkey_is_full_member(gr->pkey)) ||
		    ib_pkey_get_base(rec->pkey) != ib_pkey_get_base(gr->pkey))
			return POSM_MC_MISMATCH;
	}
	if ((mask & IB_MCR_COMPMASK_MTU) && (rec->mtu & 0x3F) != (gr->mtu & 0x3F))
		return POSM_MC_MTU_RATE;
	if ((mask & IB_MCR_COMPMASK_RATE) &&
	    ib_path_compare_rates(gr->rate & 0x3F, rec->rate & 0x3F) != 0)
		return POSM_MC_MTU_RATE;
	return POSM_MC_OK;
}

/* The port carries the group's MTU and rate (validate_port_caps). */
static bool mcast_port_caps(const osm_mgrp_t *g, const osm_physp_t *ph)
{
	const ib_port_info_t *pi = &ph->port_info;
	int ext = (pi->capability_mask & IB_PORT_CAP_HAS_EXT_SPEEDS) != 0;

	return ib_port_info_get_neighbor_mtu(pi) >= (g->mcmember_rec.mtu & 0x3F) &&
	       ib_path_compare_rates(ib_port_info_compute_rate(pi, ext),
				     g->mcmember_rec.rate & 0x3F) >= 0;
}

/* The member record takes the group's components (copy_from_create_mc_rec). */
static void mcast_from_group(ib_member_rec_t *rec, const osm_mgrp_t *g)
{
	const ib_member_rec_t *gr = &g->mcmember_rec;

	rec->qkey = gr->qkey;
	rec->mlid = gr->mlid;
	rec->tclass = gr->tclass;
	rec->pkey = gr->pkey;
	rec->sl_flow_hop = gr->sl_flow_hop;
	rec->scope_state = ib_member_set_scope_state(gr->scope_state >> 4, rec->scope_state & 0x0F);
	rec->mtu = gr->mtu;
	rec->rate = gr->rate;
	rec->pkt_life = gr->pkt_life;
}

static enum posm_mcast_why mcast_join(struct posm *p, const struct ibr_plug_mcast *r,
				      osm_port_t *port, struct mcast_done *d)
{
	osm_subn_t *s = &p->osm->subn;
	enum posm_mcast_why why = POSM_MC_OK;
	ib_member_rec_t rec;
	ib_net64_t mask = mcast_rec(p, r, &rec);
	osm_mgrp_t *g = osm_get_mgrp_by_mgid(s, &rec.mgid);

	d->created = !g;
	/* o15-0.1.9: only a FullMember creates a group (mcmr_rcv_join_mgrp) */
	if (!g && !(r->join_state & 0x1)) /* FullMember */
		return POSM_MC_NO_GROUP;
	if (!g && !(g = osm_mcmr_rcv_find_or_create_new_mgrp(&p->osm->sa, mask, &rec)))
		return POSM_MC_CREATE;
	if (!d->created)
		why = mcast_match(p, g, &rec, mask);
	if (!why && !mcast_port_caps(g, port->p_physp))
		why = POSM_MC_PORT_CAPS;
	if (!why && !osm_physp_has_pkey(&p->osm->log, g->mcmember_rec.pkey, port->p_physp))
		why = POSM_MC_PARTITION;
	if (!why) {
		d->mlid = cl_ntoh16(g->mlid);
		d->was_member = osm_mgrp_get_mcm_port(g, port->guid) != NULL;
		mcast_from_group(&rec, g);
		/* the reroute request and trap 66 (first full member) are its own */
		if (!osm_mgrp_add_port(s, &p->osm->log, g, port, &rec, FALSE))
			why = POSM_MC_ADD;
	}
	/* a group made for this join and left without members: gone again (it has no full member) */
	if (why && d->created)
		osm_mgrp_cleanup(s, g);
	return why;
}

static void mcast_leave(struct posm *p, const struct ibr_plug_mcast *r, osm_port_t *port,
			struct mcast_done *d)
{
	osm_subn_t *s = &p->osm->subn;
	ib_gid_t mgid;
	osm_mgrp_t *g;

	memcpy(mgid.raw, r->mgid, 16);
	g = osm_get_mgrp_by_mgid(s, &mgid);
	d->was_member = g && osm_mgrp_get_mcm_port(g, port->guid);
	if (!d->was_member)
		return; /* nothing to leave: the wanted state holds */
	d->mlid = cl_ntoh16(g->mlid);
	/* trap 67 and the group's deletion (last full member) are its own; g may be freed */
	osm_mgrp_delete_port(s, &p->osm->log, g, port);
	d->gone = osm_get_mgrp_by_mgid(s, &mgid) == NULL;
}

static void mcast_refused(struct posm *p, const char *from, const struct ibr_plug_mcast *r,
			  enum posm_mcast_why why)
{
	uint64_t now = posm_now_ns();
	char g[INET6_ADDRSTRLEN];

	p->mc_refused++;
	if (!p->mc_log_ns || now - p->mc_log_ns >= MCAST_LOG_NS) {
		p->mc_log_ns = now;
		p->mc_logged = 0;
	}
	/* a daemon that insists must not flood OpenSM's log: a few lines per window */
	posm_log(p, p->mc_logged < MCAST_LOG_MAX ? 1 : 2,
		 "ibrouterd at %s: %s of port 0x%016llx %s %s refused: %s%s", from,
		 r->join_state ? "join" : "leave", (unsigned long long)r->guid,
		 r->join_state ? "to" : "from", mcast_mgid_str(r->mgid, g, sizeof(g)),
		 posm_mcast_why_name(why),
		 p->mc_logged + 1 == MCAST_LOG_MAX ? " (more refusals for 10 s: verbose=2)" : "");
	p->mc_logged++;
}

static void mcast_done_log(struct posm *p, const struct ibr_plug_mcast *r,
			   const struct mcast_done *d)
{
	unsigned long long guid = (unsigned long long)r->guid;
	char g[INET6_ADDRSTRLEN];

	mcast_mgid_str(r->mgid, g, sizeof(g));
	if (r->join_state && d->was_member)
		posm_log(p, 2, "router port 0x%016llx is in %s already (MLID 0x%04x)", guid, g,
			 d->mlid);
	else if (r->join_state)
		posm_log(p, 1, "joined router port 0x%016llx to %s (MLID 0x%04x)%s", guid, g,
			 d->mlid, d->created ? ", a group it created" : "");
	else if (d->was_member)
		posm_log(p, 1, "router port 0x%016llx left %s (MLID 0x%04x)%s", guid, g, d->mlid,
			 d->gone ? ", and the group is gone" : "");
	else
		posm_log(p, 2, "router port 0x%016llx is not in %s: nothing to leave", guid, g);
}

/* One record, OpenSM's lock held for writing. */
static void mcast_one(struct posm *p, const struct posm_conn *c, const struct ibr_plug_mcast *r,
		      bool master)
{
	const char *from = c->path;
	struct mcast_done d = { 0 };
	enum posm_mcast_why why = master ? POSM_MC_OK : POSM_MC_NOT_MASTER;
	osm_port_t *port = NULL;

	if (!why)
		why = mcast_port(p, c, r->guid, &port);
	if (why == POSM_MC_NO_PORT && !r->join_state) {
		/* a port OpenSM dropped was taken out of its groups with it */
		posm_log(p, 2, "router port 0x%016llx is not in the subnet: nothing to leave",
			 (unsigned long long)r->guid);
		return;
	}
	if (!why && r->join_state)
		why = mcast_join(p, r, port, &d);
	else if (!why)
		mcast_leave(p, r, port, &d);
	if (why) {
		mcast_refused(p, from, r, why);
		return;
	}
	if (r->join_state)
		p->mc_joins++;
	else if (d.was_member)
		p->mc_leaves++;
	mcast_done_log(p, r, &d);
}

int posm_mcast_apply(struct posm *p, const struct posm_conn *c, const struct ibr_plug_msg *m,
		     struct posm_bbuf *b)
{
	const char *from = c->path;
	osm_subn_t *s = &p->osm->subn;
	bool named[MCAST_RECS_MAX] = { false }; /* a record that reached OpenSM */
	unsigned n = m->count < MCAST_RECS_MAX ? m->count : MCAST_RECS_MAX;
	bool master;
	int rc = 0;

	cl_plock_excl_acquire(&p->osm->lock);
	/* the SA ignores every request until then (osm_sa_mad_ctrl.c) */
	master = s->sm_state == IB_SMINFO_STATE_MASTER && !s->first_time_master_sweep;
	for (unsigned i = 0; i < n; i++) {
		struct ibr_plug_mcast r;
		enum posm_mcast_why why;

		ibr_plug_mcast_get(m->recs + m->recsz * i, &r);
		why = posm_mcast_check(&r, p->o.serve, p->o.nserve);
		if (why) {
			mcast_refused(p, from, &r, why);
			continue;
		}
		named[i] = true;
		mcast_one(p, c, &r, master);
	}
	/* each group named once, as it is now: the daemon sees what its records did */
	for (unsigned i = 0; i < n && !rc; i++) {
		const uint8_t *mgid = m->recs + m->recsz * i; /* the record's first field */
		bool seen = false;

		for (unsigned j = 0; j < i && named[i] && !seen; j++)
			seen = named[j] && !memcmp(mgid, m->recs + m->recsz * j, 16);
		if (named[i] && !seen)
			rc = posm_snap_group(p, mgid, b);
	}
	cl_plock_release(&p->osm->lock);
	return rc;
}
