/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_roce.c - the multicast groups of a RoCE port as the bridging policy
 * sees them (ibrd_mcast.c).  A RoCE port has no SM and no SA: nobody lists
 * its groups or takes a join.  What the router knows of them is its RIB:
 * groups the config or `mcast add` put on the port, whose members are the
 * hosts an operator knows to be there (they count as members, so the
 * policy bridges them into the IB subnets), and groups the policy bridged
 * onto the port itself (source "bridge": the router's own, no member).
 * A join creates the group on the port with the parameters of the subnet
 * where its members are (Q_Key, P_Key, SL, TClass, FlowLabel; the MLID
 * there as the router's name for it, ibrouterd.conf(5)), and the port's
 * worker attaches the relay QP and joins the IP group behind the MGID
 * (lib/ibr_ipmc.h), so that the Ethernet side hears it; a leave removes
 * what a join made, never the config's.
 */
#include "daemon/learn/ibrd_learn.h"
#include "lib/ibr_sa.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The group `mgid` on `port` in the RIB, or NULL. */
static struct router_mcast *roce_find(struct ibrd *d, uint32_t port, const uint8_t mgid[16])
{
	struct router_mcast_key k;

	memset(&k, 0, sizeof(k));
	memcpy(k.mgid, mgid, 16);
	k.port = (uint8_t)port;
	return router_tab_find(&d->rib.mcasts, &k);
}

/*
 * The port's view, rebuilt at each call (one pass over the RIB's groups:
 * the policy asks while it runs, which is only when groups changed); it
 * stays valid until the next call for the same port.
 */
size_t ibrd_roce_groups(struct ibrd *d, uint32_t port, const struct sa_group **v)
{
	struct ibrd_roce_view *rv = &d->mcast->roce_view[port];
	const struct router_mcast *m;
	uint32_t pos = 0;

	rv->n = 0;
	while ((m = router_tab_next(&d->rib.mcasts, &pos))) {
		struct sa_group *g;
		bool ours = m->source == ROUTER_SRC_BRIDGE;

		if (m->key.port != port)
			continue;
		if (rv->n == rv->cap) {
			size_t cap = rv->cap ? rv->cap * 2 : 16;

			if (!(g = realloc(rv->v, cap * sizeof(*g))))
				break; /* the groups seen so far */
			rv->v = g;
			rv->cap = cap;
		}
		g = &rv->v[rv->n++];
		*g = (struct sa_group){ .mlid = m->mlid,
					.qkey = m->qkey,
					.pkey = m->pkey,
					.sl = m->sl,
					.tclass = m->tclass,
					.mtu = ibr_sa_mtu_code(m->mtu),
					.scope = (uint8_t)ibr_gid_raw_mcast_scope(m->key.mgid),
					.flowlabel = m->flowlabel,
					.members = ours ? 0 : 1,
					.receivers = !ours && (m->flags & ROUTER_MCAST_RECEIVERS),
					.senders = !ours && (m->flags & ROUTER_MCAST_SENDERS),
					.ours = ours };
		memcpy(g->mgid, m->key.mgid, 16);
	}
	*v = rv->v;
	return rv->n;
}

int ibrd_roce_join(struct ibrd *d, uint32_t port, const struct sa_group *tmpl)
{
	struct router_mcast m = { .mlid = tmpl->mlid >= 0xC000 && tmpl->mlid < 0xFFFF ? tmpl->mlid
										      : 0xC000,
				  .sl = tmpl->sl & 0x0F,
				  /* RoCE hosts may send and receive: the router cannot tell */
				  .flags = ROUTER_MCAST_RECEIVERS | ROUTER_MCAST_SENDERS,
				  .source = ROUTER_SRC_BRIDGE,
				  .tclass = tmpl->tclass,
				  .pkey = tmpl->pkey,
				  .qkey = tmpl->qkey,
				  .flowlabel = tmpl->flowlabel,
				  .mtu = tmpl->mtu };
	int rc;

	if (roce_find(d, port, tmpl->mgid))
		return 0; /* there already: the config's, or ours */
	memcpy(m.key.mgid, tmpl->mgid, 16);
	m.key.port = (uint8_t)port;
	if ((rc = router_rib_mcast_add(&d->rib, &m)))
		return rc;
	ibrd_rib_changed(d); /* compiled in this turn, after the policy */
	return 0;
}

void ibrd_roce_leave(struct ibrd *d, uint32_t port, const uint8_t mgid[16])
{
	const struct router_mcast *m = roce_find(d, port, mgid);

	if (m && m->source == ROUTER_SRC_BRIDGE &&
	    !router_rib_mcast_del(&d->rib, mgid, (uint8_t)port))
		ibrd_rib_changed(d);
}

void ibrd_roce_free(struct ibrd *d)
{
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++) {
		free(d->mcast->roce_view[i].v);
		d->mcast->roce_view[i] = (struct ibrd_roce_view){ 0 };
	}
}
