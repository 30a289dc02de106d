/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_plugin_input.c - the daemon's decoder of the OpenSM plugin's
 * messages (lib/ibr_plug.h) into the session's view of the subnet.  The
 * plugin is another process: every datagram is checked whole by
 * ibr_plug_parse() before a field is read, the order of messages is checked
 * (a hello first and once; snapshot parts between BEGIN and END; a GROUP
 * chain of one MGID), and every table is bounded.  A complete snapshot
 * replaces the view at once; an incomplete or inconsistent one is dropped
 * and the old view stays.  A port leaves with its aliases, found through
 * an index from each base GUID to the ports based on it (ibrd_plugin.h).
 */
#include "daemon/learn/ibrd_plugin.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void pview_init(struct ibrd_pview *v)
{
	router_tab_init(&v->ports, sizeof(struct ibrd_pport), sizeof(uint64_t));
	router_tab_init(&v->groups, sizeof(struct ibrd_pgroup), 16);
	router_tab_init(&v->deps, sizeof(struct ibrd_pdep), sizeof(uint64_t));
	router_tab_init(&v->bases, sizeof(struct ibrd_pbase), sizeof(uint64_t));
	v->members = 0;
	v->aliases = 0;
}

static void pview_free(struct ibrd_pview *v)
{
	struct ibrd_pgroup *g;
	uint32_t pos = 0;

	while ((g = router_tab_next(&v->groups, &pos)))
		free(g->mem);
	router_tab_free(&v->ports);
	router_tab_free(&v->groups);
	router_tab_free(&v->deps);
	router_tab_free(&v->bases);
	v->members = 0;
	v->aliases = 0;
}

void ibrd_psess_init(struct ibrd_psess *s, const struct ibrd_psess_ops *ops, void *ctx)
{
	memset(s, 0, sizeof(*s));
	pview_init(&s->live);
	pview_init(&s->staged);
	if (ops)
		s->ops = *ops;
	s->ctx = ctx;
}

void ibrd_psess_free(struct ibrd_psess *s)
{
	pview_free(&s->live);
	pview_free(&s->staged);
	free(s->grp.mem);
	memset(s, 0, sizeof(*s));
}

const struct ibrd_pport *ibrd_psess_port(const struct ibrd_psess *s, uint64_t guid)
{
	return router_tab_find(&s->live.ports, &guid);
}

/*
 * A router port is a CA port to its SM on an HCA (the firmware answers the
 * SMPs: NodeType 1), a Router node (3) only in the simulator; a switch (2)
 * is never one, nor an alias GUID.
 */
bool ibrd_psess_has_router(const struct ibrd_psess *s, uint64_t guid)
{
	const struct ibrd_pport *p = ibrd_psess_port(s, guid);

	return p && (p->node_type == 1 || p->node_type == 3) && !(p->flags & IBR_PLUG_PORT_ALIAS);
}

bool ibrd_psess_binds(const struct ibrd_psess *s, uint64_t guid, uint64_t prefix)
{
	bool served = s->nserve == 0;

	if (!s->hello)
		return false;
	for (unsigned j = 0; j < s->nserve && !served; j++)
		served = guid && s->serve[j] == guid;
	return served && ((guid && ibrd_psess_has_router(s, guid)) ||
			  (prefix && prefix == s->h.subnet_prefix));
}

/* The view a message about the subnet goes to. */
static struct ibrd_pview *psess_view(struct ibrd_psess *s)
{
	return s->snapping ? &s->staged : &s->live;
}

static int psess_hello(struct ibrd_psess *s, const struct ibr_plug_msg *m)
{
	if (s->hello)
		return -EPROTO;
	ibr_plug_hello_get(m->fixed, &s->h);
	if (m->count > IBRD_PSESS_SERVE_MAX)
		return -E2BIG;
	for (unsigned i = 0; i < m->count; i++)
		s->serve[i] = ibr_plug_guid_get(m->recs + 8 * i);
	s->nserve = m->count;
	s->sm_state = s->h.sm_state;
	s->hello = true;
	return IBRD_PSESS_HELLO;
}

/* The base a port is listed under in the index, or 0: none (it is its own). */
static uint64_t pport_base(const struct ibrd_pport *p)
{
	return p->base_guid != p->guid ? p->base_guid : 0;
}

/* Port `guid` out of the list of `base` (it stays in deps); it cannot fail. */
static void pidx_unlink(struct ibrd_pview *v, uint64_t guid, uint64_t base)
{
	struct ibrd_pdep *d = router_tab_find(&v->deps, &guid), *x;
	struct ibrd_pbase *b = router_tab_find(&v->bases, &base);

	if (!d || !b)
		return; /* not listed: cannot happen */
	if (d->prev && (x = router_tab_find(&v->deps, &d->prev)))
		x->next = d->next;
	else
		b->head = d->next;
	if (d->next && (x = router_tab_find(&v->deps, &d->next)))
		x->prev = d->prev;
	else
		b->tail = d->prev;
	d->prev = d->next = 0;
	if (!b->head)
		router_tab_del(&v->bases, &base);
}

/* Port `guid`, in deps and not listed, at the end of the list of `base`, which exists. */
static void pidx_link(struct ibrd_pview *v, uint64_t guid, uint64_t base)
{
	struct ibrd_pdep *d = router_tab_find(&v->deps, &guid), *x;
	struct ibrd_pbase *b = router_tab_find(&v->bases, &base);

	if (!d || !b)
		return; /* made by pview_port_put: cannot happen */
	d->prev = b->tail;
	d->next = 0;
	if (b->tail && (x = router_tab_find(&v->deps, &b->tail)))
		x->next = guid;
	else
		b->head = guid;
	b->tail = guid;
}

/*
 * Port `p` into the view, replacing the port of its GUID, and into the
 * index under its base (an alias may move to another base).  What needs
 * memory comes first, so that a failure leaves the view as it was.
 */
static int pview_port_put(struct ibrd_pview *v, const struct ibrd_pport *p)
{
	const struct ibrd_pport *old = router_tab_find(&v->ports, &p->guid);
	uint64_t was = old ? pport_base(old) : 0, base = pport_base(p);
	bool was_alias = old && (old->flags & IBR_PLUG_PORT_ALIAS);
	int made_base = 0, made_dep = 0, rc;

	if (!old && v->ports.count >= IBRD_PSESS_PORTS_MAX)
		return -E2BIG;
	if (base && base != was) {
		struct ibrd_pbase b = { .base_guid = base };
		struct ibrd_pdep d = { .guid = p->guid };

		if (!router_tab_find(&v->bases, &base) &&
		    (made_base = router_tab_put(&v->bases, &b)) < 0)
			return made_base;
		if (!was && (made_dep = router_tab_put(&v->deps, &d)) < 0) {
			rc = made_dep;
			goto undo;
		}
	}
	if ((rc = router_tab_put(&v->ports, p)) < 0)
		goto undo;
	if (base != was) {
		if (was)
			pidx_unlink(v, p->guid, was);
		if (base)
			pidx_link(v, p->guid, base);
		else
			router_tab_del(&v->deps, &p->guid);
	}
	if (was_alias)
		v->aliases--;
	if (p->flags & IBR_PLUG_PORT_ALIAS)
		v->aliases++;
	return rc;
undo:
	if (made_dep > 0)
		router_tab_del(&v->deps, &p->guid);
	if (made_base > 0)
		router_tab_del(&v->bases, &base);
	return rc;
}

/* A port out of the view and out of the index. */
static void pview_port_del(struct ibrd_pview *v, const struct ibrd_pport *p)
{
	uint64_t base = pport_base(p);

	if (base) {
		pidx_unlink(v, p->guid, base);
		router_tab_del(&v->deps, &p->guid);
	}
	if (p->flags & IBR_PLUG_PORT_ALIAS)
		v->aliases--;
	router_tab_del(&v->ports, &p->guid);
}

static int psess_ports(struct ibrd_psess *s, const struct ibr_plug_msg *m)
{
	struct ibrd_pview *v = psess_view(s);

	for (unsigned i = 0; i < m->count; i++) {
		struct ibr_plug_port r;
		struct ibrd_pport p;
		int rc;

		ibr_plug_port_get(m->recs + m->recsz * i, &r);
		if (!r.guid || r.lid == 0 || r.lid >= 0xC000 || r.lmc > 7) {
			s->refused++; /* not a unicast end port: skip the record */
			continue;
		}
		memset(&p, 0, sizeof(p));
		p.guid = r.guid;
		p.base_guid = r.base_guid ? r.base_guid : r.guid;
		p.lid = r.lid;
		p.lmc = r.lmc;
		p.node_type = r.node_type;
		p.port_num = r.port_num;
		p.flags = r.flags & IBR_PLUG_PORT_ALIAS;
		if ((rc = pview_port_put(v, &p)) < 0)
			return rc;
		if (s->snapping)
			s->snap_ports++;
		else if (s->ops.port)
			s->ops.port(s->ctx, &p);
	}
	return s->snapping ? 0 : IBRD_PSESS_PORTS;
}

/* One record out of the view (its callback after, with a copy). */
static void psess_port_drop(struct ibrd_psess *s, struct ibrd_pview *v, struct ibrd_pport *p)
{
	struct ibrd_pport gone = *p;

	pview_port_del(v, &gone);
	if (!s->snapping && s->ops.port_del)
		s->ops.port_del(s->ctx, &gone);
}

/*
 * A port leaves with the ports based on it, its aliases (they share its
 * LIDs), first to last as they came: the index lists them, so the cost is
 * theirs, not the table's (10,000 GUIDs among 200,000 ports: 2 ms; a scan
 * of the table for each took 4.5 s).  As with that scan, only while the
 * view holds an alias; the scan stopped at the view's last alias, so a port
 * based on this one but without the alias flag (against lib/ibr_plug.h)
 * could stay when it lay beyond in the table: now it leaves too.
 */
static int psess_ports_del(struct ibrd_psess *s, const struct ibr_plug_msg *m)
{
	struct ibrd_pview *v = psess_view(s);

	for (unsigned i = 0; i < m->count; i++) {
		uint64_t guid = ibr_plug_guid_get(m->recs + 8 * i);
		struct ibrd_pport *p = router_tab_find(&v->ports, &guid);
		const struct ibrd_pbase *b;

		if (p)
			psess_port_drop(s, v, p);
		if (!v->aliases)
			continue;
		while ((b = router_tab_find(&v->bases, &guid)) &&
		       (p = router_tab_find(&v->ports, &b->head)))
			psess_port_drop(s, v, p); /* out of the list: the next is its head */
	}
	return s->snapping ? 0 : IBRD_PSESS_PORTS;
}

/* The group received (a whole chain) into the view, replacing an older one. */
static int psess_group_commit(struct ibrd_psess *s)
{
	struct ibrd_pview *v = psess_view(s);
	struct ibrd_pgroup *old = router_tab_find(&v->groups, s->grp.mgid);
	int rc;

	if (old) {
		v->members -= old->nmem;
		free(old->mem);
		old->mem = NULL;
		old->nmem = 0;
	} else if (v->groups.count >= IBRD_PSESS_GROUPS_MAX) {
		return -E2BIG;
	}
	if (v->members + s->grp.nmem > IBRD_PSESS_MEMBERS_MAX) {
		if (old)
			router_tab_del(&v->groups, s->grp.mgid);
		return -E2BIG;
	}
	if ((rc = router_tab_put(&v->groups, &s->grp)) < 0) {
		if (old)
			router_tab_del(&v->groups, s->grp.mgid);
		return rc;
	}
	v->members += s->grp.nmem;
	s->grp.mem = NULL; /* the table owns it now */
	s->grp_open = false;
	if (!s->snapping && s->ops.group)
		s->ops.group(s->ctx, router_tab_find(&v->groups, s->grp.mgid));
	return s->snapping ? 0 : IBRD_PSESS_GROUPS;
}

static int psess_group(struct ibrd_psess *s, const struct ibr_plug_msg *m)
{
	struct ibr_plug_group g;

	ibr_plug_group_get(m->fixed, &g);
	if (!ibr_gid_raw_is_mcast(g.mgid) || g.mlid < 0xC000 || g.mlid == 0xFFFF || g.sl > 15)
		return -EBADMSG;
	if (s->grp_open && memcmp(s->grp.mgid, g.mgid, 16))
		return -EPROTO; /* a chain is one group */
	if (!s->grp_open) {
		free(s->grp.mem);
		memset(&s->grp, 0, sizeof(s->grp));
		memcpy(s->grp.mgid, g.mgid, 16);
		s->grp_open = true;
	}
	s->grp.g = g;
	if (s->grp.nmem + m->count > UINT16_MAX + 1u)
		return -E2BIG;
	if (s->grp.nmem + m->count > s->grp.capmem) {
		uint32_t cap = s->grp.nmem + m->count;
		struct ibrd_pmember *mem = realloc(s->grp.mem, cap * sizeof(*mem));

		if (!mem)
			return -ENOMEM;
		s->grp.mem = mem;
		s->grp.capmem = cap;
	}
	for (unsigned i = 0; i < m->count; i++) {
		struct ibr_plug_member r;
		struct ibrd_pmember *x = &s->grp.mem[s->grp.nmem++];

		ibr_plug_member_get(m->recs + m->recsz * i, &r);
		x->guid = ibr_plug_guid_get(r.gid + 8);
		x->join_state = r.join_state & 0x0F;
	}
	if (m->flags & IBR_PLUG_F_MORE)
		return 0;
	return psess_group_commit(s);
}

static int psess_groups_del(struct ibrd_psess *s, const struct ibr_plug_msg *m)
{
	struct ibrd_pview *v = psess_view(s);

	for (unsigned i = 0; i < m->count; i++) {
		const uint8_t *mgid = m->recs + 16 * i;
		struct ibrd_pgroup *g = router_tab_find(&v->groups, mgid);

		if (!g)
			continue;
		v->members -= g->nmem;
		free(g->mem);
		router_tab_del(&v->groups, mgid);
		if (!s->snapping && s->ops.group_del)
			s->ops.group_del(s->ctx, mgid);
	}
	return s->snapping ? 0 : IBRD_PSESS_GROUPS;
}

static int psess_snap_begin(struct ibrd_psess *s, const struct ibr_plug_msg *m)
{
	pview_free(&s->staged);
	pview_init(&s->staged);
	ibr_plug_snap_get(m->fixed, &s->snap);
	s->snap_ports = 0;
	s->snapping = true; /* a BEGIN while snapping: the plugin started over */
	return 0;
}

static bool pgroup_same(const struct ibrd_pgroup *a, const struct ibrd_pgroup *b)
{
	if (memcmp(&a->g, &b->g, sizeof(a->g)) || a->nmem != b->nmem)
		return false;
	for (uint32_t i = 0; i < a->nmem; i++)
		if (a->mem[i].guid != b->mem[i].guid ||
		    a->mem[i].join_state != b->mem[i].join_state)
			return false;
	return true;
}

/* The same subnet twice (a periodic refresh usually is): no work for the daemon. */
static bool pview_same(const struct ibrd_pview *a, const struct ibrd_pview *b)
{
	const struct ibrd_pport *p, *q;
	const struct ibrd_pgroup *g, *h;
	uint32_t pos = 0;

	if (a->ports.count != b->ports.count || a->groups.count != b->groups.count)
		return false;
	while ((p = router_tab_next(&a->ports, &pos)))
		if (!(q = router_tab_find(&b->ports, &p->guid)) || memcmp(p, q, sizeof(*p)))
			return false;
	pos = 0;
	while ((g = router_tab_next(&a->groups, &pos)))
		if (!(h = router_tab_find(&b->groups, g->mgid)) || !pgroup_same(g, h))
			return false;
	return true;
}

/* The snapshot is whole when END names what BEGIN opened and the counts match. */
static int psess_snap_end(struct ibrd_psess *s, const struct ibr_plug_msg *m)
{
	struct ibr_plug_snap e;
	struct ibrd_pview tmp;
	bool same;

	if (!s->snapping)
		return -EPROTO;
	ibr_plug_snap_get(m->fixed, &e);
	s->snapping = false;
	if (e.gen != s->snap.gen || e.nports != s->snap_ports ||
	    e.ngroups != s->staged.groups.count) {
		s->snap_bad++;
		pview_free(&s->staged);
		pview_init(&s->staged);
		return 0;
	}
	same = s->snapshots && pview_same(&s->live, &s->staged) &&
	       (!e.subnet_prefix || e.subnet_prefix == s->h.subnet_prefix);
	tmp = s->live;
	s->live = s->staged;
	s->staged = tmp;
	pview_free(&s->staged);
	pview_init(&s->staged);
	if (e.subnet_prefix)
		s->h.subnet_prefix = e.subnet_prefix;
	if (e.sm_lid)
		s->h.sm_lid = e.sm_lid;
	s->snapshots++;
	return same ? 0 : IBRD_PSESS_SNAPSHOT;
}

int ibrd_psess_input(struct ibrd_psess *s, const uint8_t *buf, size_t len)
{
	struct ibr_plug_msg m;
	int rc;

	if ((rc = ibr_plug_parse(buf, len, &m)))
		return rc;
	s->msgs++;
	s->bytes += len;
	if (s->seq_known && m.seq != s->next_seq)
		s->gaps++; /* the plugin dropped messages: its counters say why */
	s->seq_known = true;
	s->next_seq = m.seq + 1;
	if (!m.known) {
		s->unknown++;
		return 0;
	}
	if (!s->hello && m.type != IBR_PLUG_HELLO)
		return -EPROTO;
	if (s->grp_open && m.type != IBR_PLUG_GROUP)
		return -EPROTO; /* a GROUP chain ended without its last part */
	switch (m.type) {
	case IBR_PLUG_HELLO:
		return psess_hello(s, &m);
	case IBR_PLUG_SNAP_BEGIN:
		return psess_snap_begin(s, &m);
	case IBR_PLUG_SNAP_END:
		return psess_snap_end(s, &m);
	case IBR_PLUG_STATS:
		ibr_plug_stats_get(m.fixed, &s->remote);
		s->have_stats = true;
		s->sm_state = s->remote.sm_state;
		return IBRD_PSESS_STATS;
	default:
		break;
	}
	if (!s->snapping)
		s->deltas++;
	switch (m.type) {
	case IBR_PLUG_PORTS:
		return psess_ports(s, &m);
	case IBR_PLUG_PORTS_DEL:
		return psess_ports_del(s, &m);
	case IBR_PLUG_GROUP:
		return psess_group(s, &m);
	case IBR_PLUG_GROUPS_DEL:
		return psess_groups_del(s, &m);
	default:
		return -EPROTO; /* ROUTES: the daemon's own message, not the plugin's */
	}
}

/*
 * The alias index agrees with the ports: every port based on another GUID
 * is in deps and listed once under its base, the lists run both ways, and
 * nothing else is there (so it never holds more than the ports).  What the
 * unit tests and the fuzzer check after each message; nothing calls it on
 * the daemon's path.
 */
bool ibrd_pview_index_ok(const struct ibrd_pview *v)
{
	const struct ibrd_pport *p;
	const struct ibrd_pbase *b;
	const struct ibrd_pdep *d;
	uint32_t pos = 0, ndeps = 0, listed = 0;

	while ((p = router_tab_next(&v->ports, &pos))) {
		bool dep = p->base_guid != p->guid;

		ndeps += dep;
		if (dep != (router_tab_find(&v->deps, &p->guid) != NULL))
			return false;
	}
	if (ndeps != v->deps.count || v->bases.count > v->deps.count)
		return false;
	pos = 0;
	while ((b = router_tab_next(&v->bases, &pos))) {
		uint64_t prev = 0;

		if (!b->head)
			return false; /* an empty list stayed */
		for (uint64_t g = b->head; g; prev = g, g = d->next) {
			d = router_tab_find(&v->deps, &g);
			p = router_tab_find(&v->ports, &g);
			if (++listed > v->deps.count || !d || !p || p->base_guid != b->base_guid ||
			    d->prev != prev)
				return false;
		}
		if (b->tail != prev)
			return false;
	}
	return listed == v->deps.count;
}
