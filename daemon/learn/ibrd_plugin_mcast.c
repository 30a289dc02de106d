/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_plugin_mcast.c - a port fed by an OpenSM plugin, as the multicast
 * bridging policy (ibrd_mcast.c) sees its subnet: the feeder's groups as
 * struct sa_group records, the router's own membership told apart from the
 * others', and the router's joins and leaves there, which the plugin makes
 * inside OpenSM (IBR_PLUG_MCAST, lib/ibr_plug.h) because the port has no SA
 * client to send a MCMemberRecord Set from (IBA 15.2.5.17).
 *
 * So the policy works the same whatever source told the router of a group:
 * a host's join in a plugin-fed subnet makes the router a member in the
 * other subnets, and a group elsewhere makes the plugin join the router's
 * port to it here, so that this subnet's SM sends the members' traffic to
 * the router (ibrouterd.conf(5), MULTICAST).
 */
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/learn/ibrd_plugin.h"

#include "lib/ibr_log.h"
#include "lib/ibr_sa.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The plugin that feeds `port`, or NULL. */
static struct ibrd_plugin *pmc_feeder(struct ibrd *d, uint32_t port)
{
	unsigned id = port < ROUTER_MAX_PORTS ? d->plug->feeder[port] : 0;

	for (struct ibrd_plugin *p = d->plug->list; p && id; p = p->next)
		if (p->id == id)
			return p;
	return NULL;
}

/* One group of the plugin's live view, as the SA client would have read it. */
static void pmc_group(const struct ibrd_pgroup *g, uint64_t own, struct sa_group *x)
{
	memset(x, 0, sizeof(*x));
	memcpy(x->mgid, g->mgid, 16);
	x->mlid = g->g.mlid;
	x->qkey = g->g.qkey;
	x->pkey = g->g.pkey;
	x->sl = g->g.sl;
	x->tclass = g->g.tclass;
	x->mtu = g->g.mtu;
	x->rate = g->g.rate;
	x->scope = g->g.scope ? g->g.scope : (uint8_t)(g->mgid[1] & 0x0F);
	x->flowlabel = g->g.flowlabel;
	for (uint32_t i = 0; i < g->nmem; i++) {
		const struct ibrd_pmember *m = &g->mem[i];

		if (own && m->guid == own) {
			x->ours = true; /* the router's own join is never a member here */
			continue;
		}
		x->members++;
		if (m->join_state & (IBR_SA_JOIN_FULL | IBR_SA_JOIN_NON))
			x->receivers = true;
		x->senders = true; /* every join state may send (IBA 15.2.5.17.2) */
	}
}

/* The view rebuilt: one record per group the plugin listed (with members). */
static int pmc_view_build(struct ibrd *d, struct ibrd_plugin *p, uint32_t port)
{
	uint32_t n = p->s.live.groups.count, pos = 0, i = 0;
	const struct ibrd_pgroup *g;
	struct sa_group *v = NULL;

	if (n && !(v = calloc(n, sizeof(*v))))
		return -ENOMEM;
	while ((g = router_tab_next(&p->s.live.groups, &pos)) && i < n)
		pmc_group(g, d->rib.port[port].guid, &v[i++]);
	free(p->gview);
	p->gview = v;
	p->ngview = i;
	p->gview_port = port;
	p->gview_valid = true;
	return 0;
}

size_t ibrd_plugin_groups(struct ibrd *d, uint32_t port, const struct sa_group **v)
{
	struct ibrd_plugin *p = pmc_feeder(d, port);

	*v = NULL;
	if (!p)
		return 0;
	if ((!p->gview_valid || p->gview_port != port) && pmc_view_build(d, p, port)) {
		log_warnx("plugin %u: port %s: no memory for its groups", p->id,
			  d->rib.port[port].name);
		return 0;
	}
	*v = p->gview;
	return p->ngview;
}

static int pmc_emit(void *ctx, const uint8_t *msg, size_t len)
{
	struct ibrd_plugin *p = ctx;

	return ibrd_client_send(p->client, msg, len);
}

int ibrd_plugin_mjoin(struct ibrd *d, uint32_t port, const uint8_t mgid[16],
		      const struct sa_group *tmpl, uint8_t join_state)
{
	struct ibrd_plugin *p = pmc_feeder(d, port);
	struct ibr_plug_mcast r = { .guid = d->rib.port[port].guid };
	struct ibr_plug_pack *k;
	int rc;

	if (!p)
		return -ENOENT;
	if (!(p->s.h.flags & IBR_PLUG_HELLO_MCAST)) {
		if (!p->mjoin_warned)
			log_warnx("plugin %u: port %s: this plugin makes no joins (an older "
				  "ibrouter-osm): groups are not bridged into its subnet",
				  p->id, d->rib.port[port].name);
		p->mjoin_warned = true;
		return -ENOTSUP;
	}
	if (!r.guid)
		return -EINVAL; /* the plugin joins a port it knows by its GUID */
	memcpy(r.mgid, mgid, 16);
	if (tmpl) {
		r.qkey = tmpl->qkey;
		r.flowlabel = tmpl->flowlabel;
		r.pkey = tmpl->pkey;
		r.sl = tmpl->sl;
		r.tclass = tmpl->tclass;
		r.mtu = tmpl->mtu;
		r.rate = tmpl->rate;
		r.join_state = join_state;
		/*
		 * An older plugin refuses a SendOnlyNonMember join: the port joins
		 * as a FullMember there, which the SM also sends the group's
		 * traffic to (the router drops what a port that only receives the
		 * feed sends it: the section's senders = false).
		 */
		if (join_state == IBR_SA_JOIN_SEND_ONLY &&
		    !(p->s.h.flags & IBR_PLUG_HELLO_MCAST_SENDONLY)) {
			if (!p->sendonly_warned)
				log_warnx("plugin %u: port %s: this plugin makes no "
					  "SendOnlyNonMember joins (an older ibrouter-osm): the "
					  "port joins a feed's groups as a FullMember",
					  p->id, d->rib.port[port].name);
			p->sendonly_warned = true;
			r.join_state = IBR_SA_JOIN_FULL;
		}
	}
	if (!(k = malloc(sizeof(*k))))
		return -ENOMEM;
	ibr_plug_pack_start(k, IBR_PLUG_MCAST, NULL, pmc_emit, p, &p->seq);
	ibr_plug_mcast_put(ibr_plug_pack_rec(k), &r);
	rc = ibr_plug_pack_end(k);
	free(k);
	if (rc == 0)
		p->mjoins_sent++;
	return rc;
}
