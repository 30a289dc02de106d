/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_snap.c - OpenSM's view of the subnet into plugin messages
 * (lib/ibr_plug.h): the snapshot (every end port with its alias GUIDs,
 * every multicast group with members), the delta of one trap 64-67, one
 * group as it is now (after the router port's join or leave, or a change
 * the membership watch found) or gone, and the per-connection HELLO and
 * STATS.
 *
 * The structures are OpenSM's own (osm_subn_t of the OpenSM this plugin
 * was built for): the caller holds OpenSM's lock (the snapshot takes it as
 * reader; traps arrive with OpenSM holding it).  Everything is copied out;
 * nothing here blocks or allocates much beyond the output.
 */
#include "plugins/posm_osm.h"

#include <opensm/osm_multicast.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_version.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "?"
#endif

#define SNAP_TRAP_IN  64 /* GID in service */
#define SNAP_TRAP_OUT 65 /* GID out of service */
#define SNAP_TRAP_MC  66 /* multicast group created */
#define SNAP_TRAP_MD  67 /* multicast group deleted */

/* An end port with a LID: its record; false for a port without one yet. */
static bool snap_port_rec(const osm_port_t *port, struct ibr_plug_port *r)
{
	const osm_physp_t *ph = port->p_physp;

	memset(r, 0, sizeof(*r));
	if (!ph || !port->p_node)
		return false;
	r->guid = r->base_guid = cl_ntoh64(port->guid);
	r->lid = cl_ntoh16(ph->port_info.base_lid);
	r->lmc = ib_port_info_get_lmc(&ph->port_info);
	r->node_type = osm_node_get_type(port->p_node);
	r->port_num = ph->port_num;
	return r->lid != 0;
}

/* The port's record and its alias GUIDs (the alias table also holds each base GUID). */
static unsigned snap_port(struct posm *p, struct ibr_plug_pack *k, const osm_port_t *port,
			  bool all_aliases)
{
	const cl_qmap_t *at = &p->osm->subn.alias_port_guid_tbl;
	struct ibr_plug_port r;
	unsigned n = 0;

	if (!snap_port_rec(port, &r))
		return 0;
	ibr_plug_port_put(ibr_plug_pack_rec(k), &r);
	n++;
	if (all_aliases)
		return n; /* the snapshot walks the alias table once, after the ports */
	for (const cl_map_item_t *i = cl_qmap_head(at); i != cl_qmap_end(at); i = cl_qmap_next(i)) {
		const osm_alias_guid_t *a = (const osm_alias_guid_t *)i;
		struct ibr_plug_port x = r;

		if (a->p_base_port != port || a->alias_guid == port->guid)
			continue;
		x.guid = cl_ntoh64(a->alias_guid);
		x.flags = IBR_PLUG_PORT_ALIAS;
		ibr_plug_port_put(ibr_plug_pack_rec(k), &x);
		n++;
	}
	return n;
}

/* Every alias GUID of every port (one walk). */
static unsigned snap_aliases(struct posm *p, struct ibr_plug_pack *k)
{
	const cl_qmap_t *at = &p->osm->subn.alias_port_guid_tbl;
	unsigned n = 0;

	for (const cl_map_item_t *i = cl_qmap_head(at); i != cl_qmap_end(at); i = cl_qmap_next(i)) {
		const osm_alias_guid_t *a = (const osm_alias_guid_t *)i;
		struct ibr_plug_port r;

		if (!a->p_base_port || a->alias_guid == a->p_base_port->guid ||
		    !snap_port_rec(a->p_base_port, &r))
			continue;
		r.guid = cl_ntoh64(a->alias_guid);
		r.flags = IBR_PLUG_PORT_ALIAS;
		ibr_plug_port_put(ibr_plug_pack_rec(k), &r);
		n++;
	}
	return n;
}

/* One group: a GROUP chain, its members in the records. */
static int snap_group(struct posm *p, struct ibr_plug_pack *k, struct posm_bbuf *b, uint32_t *seq,
		      const osm_mgrp_t *g)
{
	const ib_member_rec_t *mr = &g->mcmember_rec;
	const cl_qmap_t *mt = &g->mcm_alias_port_tbl;
	struct ibr_plug_group x = { 0 };
	uint8_t fixed[IBR_PLUG_GROUP_LEN];
	size_t n = cl_qmap_count(mt);
	uint8_t hop;

	memcpy(x.mgid, mr->mgid.raw, 16);
	x.mlid = cl_ntoh16(g->mlid);
	x.pkey = cl_ntoh16(mr->pkey);
	x.qkey = cl_ntoh32(mr->qkey);
	ib_member_get_sl_flow_hop(mr->sl_flow_hop, &x.sl, &x.flowlabel, &hop);
	x.tclass = mr->tclass;
	x.mtu = mr->mtu & 0x3F;
	x.rate = mr->rate & 0x3F;
	x.scope = mr->mgid.raw[1] & 0x0F;
	x.flags = g->well_known ? IBR_PLUG_GROUP_WELL_KNOWN : 0;
	x.nmembers = n > UINT16_MAX ? UINT16_MAX : (uint16_t)n;
	ibr_plug_group_put(fixed, &x);
	ibr_plug_pack_start(k, IBR_PLUG_GROUP, fixed, posm_bbuf_emit, b, seq);
	n = 0;
	for (const cl_map_item_t *i = cl_qmap_head(mt); i != cl_qmap_end(mt) && n < UINT16_MAX;
	     i = cl_qmap_next(i), n++) {
		const osm_mcm_alias_guid_t *m = (const osm_mcm_alias_guid_t *)i;
		struct ibr_plug_member r = { .join_state = m->scope_state & 0x0F,
					     .proxy = m->proxy_join ? 1 : 0 };

		memcpy(r.gid, m->port_gid.raw, 16);
		ibr_plug_member_put(ibr_plug_pack_rec(k), &r);
	}
	return ibr_plug_pack_end(k);
}

/* One group gone: a GROUPS_DEL of its MGID (as trap 67 tells it). */
static int snap_group_del(struct ibr_plug_pack *k, struct posm_bbuf *b, uint32_t *seq,
			  const uint8_t mgid[16])
{
	ibr_plug_pack_start(k, IBR_PLUG_GROUPS_DEL, NULL, posm_bbuf_emit, b, seq);
	memcpy(ibr_plug_pack_rec(k), mgid, 16);
	return ibr_plug_pack_end(k);
}

int posm_snap_take(struct posm *p, struct posm_bbuf *b)
{
	osm_subn_t *s = &p->osm->subn;
	struct ibr_plug_snap h = { .gen = atomic_fetch_add(&p->snap_gen, 1) + 1,
				   .subnet_prefix = cl_ntoh64(s->opt.subnet_prefix),
				   .sm_lid = cl_ntoh16(s->sm_base_lid) };
	struct ibr_plug_pack *k = malloc(sizeof(*k));
	uint8_t fixed[IBR_PLUG_SNAP_LEN];
	uint32_t seq = 0; /* renumbered per connection when sent */
	int rc;

	if (!k)
		return -ENOMEM;
	ibr_plug_snap_put(fixed, &h);
	ibr_plug_pack_start(k, IBR_PLUG_SNAP_BEGIN, fixed, posm_bbuf_emit, b, &seq);
	ibr_plug_pack_end(k);
	ibr_plug_pack_start(k, IBR_PLUG_PORTS, NULL, posm_bbuf_emit, b, &seq);
	for (const cl_map_item_t *i = cl_qmap_head(&s->port_guid_tbl);
	     i != cl_qmap_end(&s->port_guid_tbl); i = cl_qmap_next(i))
		h.nports += snap_port(p, k, (const osm_port_t *)i, true);
	h.nports += snap_aliases(p, k);
	ibr_plug_pack_end(k);
	for (const cl_fmap_item_t *i = cl_fmap_head(&s->mgrp_mgid_tbl);
	     i != cl_fmap_end(&s->mgrp_mgid_tbl); i = cl_fmap_next(i)) {
		const osm_mgrp_t *g = (const osm_mgrp_t *)i;

		/* as the SA shows them: a group is its members (none: no record) */
		if (!cl_qmap_count(&g->mcm_alias_port_tbl))
			continue;
		snap_group(p, k, b, &seq, g);
		h.ngroups++;
	}
	ibr_plug_snap_put(fixed, &h);
	ibr_plug_pack_start(k, IBR_PLUG_SNAP_END, fixed, posm_bbuf_emit, b, &seq);
	rc = ibr_plug_pack_end(k);
	free(k);
	return rc ? rc : b->err;
}

int posm_snap_trap(struct posm *p, const ib_mad_notice_attr_t *n, struct posm_bbuf *b)
{
	osm_subn_t *s = &p->osm->subn;
	ib_gid_t gid; /* the notice is packed: a copy, aligned */
	struct ibr_plug_pack *k;
	uint32_t seq = 0;
	unsigned trap;
	int rc = 0;

	if (!ib_notice_is_generic(n))
		return 0;
	trap = cl_ntoh16(n->g_or_v.generic.trap_num);
	/* 64-67 come from the SM itself (issuer = its port); a port's forged one does not count */
	if (trap < SNAP_TRAP_IN || trap > SNAP_TRAP_MD ||
	    n->issuer_gid.unicast.interface_id != s->sm_port_guid)
		return 0;
	memcpy(gid.raw, n->data_details.ntc_64_67.gid.raw, 16);
	if (!(k = malloc(sizeof(*k))))
		return -ENOMEM;
	if (trap == SNAP_TRAP_IN) {
		const osm_port_t *port = (const osm_port_t *)cl_qmap_get(&s->port_guid_tbl,
									 gid.unicast.interface_id);

		if (port != (const osm_port_t *)cl_qmap_end(&s->port_guid_tbl)) {
			ibr_plug_pack_start(k, IBR_PLUG_PORTS, NULL, posm_bbuf_emit, b, &seq);
			if (snap_port(p, k, port, false))
				rc = ibr_plug_pack_end(k);
		}
	} else if (trap == SNAP_TRAP_OUT) {
		ibr_plug_pack_start(k, IBR_PLUG_PORTS_DEL, NULL, posm_bbuf_emit, b, &seq);
		ibr_plug_guid_put(ibr_plug_pack_rec(k), cl_ntoh64(gid.unicast.interface_id));
		rc = ibr_plug_pack_end(k);
	} else if (trap == SNAP_TRAP_MC) {
		const osm_mgrp_t *g = (const osm_mgrp_t *)cl_fmap_get(&s->mgrp_mgid_tbl, &gid);

		if (g != (const osm_mgrp_t *)cl_fmap_end(&s->mgrp_mgid_tbl))
			rc = snap_group(p, k, b, &seq, g);
	} else {
		rc = snap_group_del(k, b, &seq, gid.raw);
	}
	free(k);
	return rc ? rc : b->err;
}

int posm_snap_group(struct posm *p, const uint8_t mgid[16], struct posm_bbuf *b)
{
	osm_subn_t *s = &p->osm->subn;
	const osm_mgrp_t *g;
	struct ibr_plug_pack *k;
	ib_gid_t key; /* the map's key type, aligned */
	uint32_t seq = 0;
	int rc;

	if (!(k = malloc(sizeof(*k))))
		return -ENOMEM;
	memcpy(key.raw, mgid, 16);
	g = (const osm_mgrp_t *)cl_fmap_get(&s->mgrp_mgid_tbl, &key);
	/* as the snapshot and the SA show it: a group without members is no group */
	if (g != (const osm_mgrp_t *)cl_fmap_end(&s->mgrp_mgid_tbl) &&
	    cl_qmap_count(&g->mcm_alias_port_tbl)) {
		rc = snap_group(p, k, b, &seq, g);
	} else {
		rc = snap_group_del(k, b, &seq, mgid);
	}
	free(k);
	return rc ? rc : b->err;
}

int posm_snap_group_del(const uint8_t mgid[16], struct posm_bbuf *b)
{
	struct ibr_plug_pack *k = malloc(sizeof(*k));
	uint32_t seq = 0;
	int rc;

	if (!k)
		return -ENOMEM;
	rc = snap_group_del(k, b, &seq, mgid);
	free(k);
	return rc ? rc : b->err;
}

int posm_snap_hello(struct posm *p, struct posm_bbuf *b, uint32_t *seq)
{
	osm_subn_t *s = &p->osm->subn;
	struct ibr_plug_hello h = {
		.subnet_prefix = cl_ntoh64(s->opt.subnet_prefix),
		.sm_guid = cl_ntoh64(s->sm_port_guid),
		.sm_lid = cl_ntoh16(s->sm_base_lid),
		.sm_state = s->sm_state,
		.flags = (uint8_t)((s->sm_state == IB_SMINFO_STATE_MASTER ? IBR_PLUG_HELLO_MASTER
									  : 0) |
				   (p->conf_file ? IBR_PLUG_HELLO_CONFFILE : 0) |
				   IBR_PLUG_HELLO_MCAST | IBR_PLUG_HELLO_MCAST_SENDONLY),
		.pid = (uint32_t)getpid(),
		.queue_max = p->o.queue
	};
	uint8_t fixed[IBR_PLUG_HELLO_LEN];
	struct ibr_plug_pack *k = malloc(sizeof(*k));
	int rc;

	if (!k)
		return -ENOMEM;
	strncpy(h.osm_version, OSM_VERSION, IBR_PLUG_OSMVER_LEN);
	strncpy(h.plugin_version, PACKAGE_VERSION, IBR_PLUG_PLUGVER_LEN);
	ibr_plug_hello_put(fixed, &h);
	ibr_plug_pack_start(k, IBR_PLUG_HELLO, fixed, posm_bbuf_emit, b, seq);
	for (unsigned i = 0; i < p->o.nserve; i++)
		ibr_plug_guid_put(ibr_plug_pack_rec(k), p->o.serve[i]);
	rc = ibr_plug_pack_end(k);
	free(k);
	return rc;
}

int posm_snap_stats(struct posm *p, const struct posm_conn *c, struct posm_bbuf *b, uint32_t *seq)
{
	struct ibr_plug_stats st = { .events = atomic_load(&p->events),
				     .enqueued = c->enqueued,
				     .dropped = c->dropped,
				     .snapshots = c->snapshots,
				     .connects = c->connects,
				     .queue_len = c->q.n,
				     .queue_max = c->q.cap,
				     .sweeps = p->sweeps,
				     .sm_state = p->osm->subn.sm_state };
	uint8_t fixed[IBR_PLUG_STATS_LEN];
	struct ibr_plug_pack *k = malloc(sizeof(*k));
	int rc;

	if (!k)
		return -ENOMEM;
	pthread_mutex_lock(&p->route_lock);
	st.routes = p->rst.installed;
	st.shadowed = p->rst.shadowed;
	st.applies = p->rst.applies;
	pthread_mutex_unlock(&p->route_lock);
	ibr_plug_stats_put(fixed, &st);
	ibr_plug_pack_start(k, IBR_PLUG_STATS, fixed, posm_bbuf_emit, b, seq);
	rc = ibr_plug_pack_end(k);
	free(k);
	return rc;
}
