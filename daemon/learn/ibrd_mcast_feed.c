/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_mcast_feed.c - the router's joins of the feeds' MGIDs (mcast sections
 * with a feed, ibrouterd.conf(5)) in the subnets where an SM builds the
 * multicast trees: there the router's port receives a group, or may send
 * to it, only as a member (IBA 15.2.5.17; C15-0.2.2: a port that is no
 * member is not in the group's tree).  The JoinState follows the section's
 * direction:
 *
 *  - senders (the router takes the feed from this port, "in" or "both"):
 *    FullMember, always -- it creates the group when the publisher's
 *    send-only join has not (only a FullMember creates one, o15-0.1.9), so
 *    that the SM routes the publisher's packets to the router;
 *  - receivers only ("out": the router sends the feed into it):
 *    SendOnlyNonMember, while the group has members there that receive --
 *    a SendOnlyNonMember cannot create the group, and a group without
 *    receivers needs no copy; the router leaves when they are gone;
 *  - neither: no join (the section only names the group).
 *
 * With the Q_Key, P_Key, SL, TClass, FlowLabel and MTU of the group where
 * it exists (an SA refuses other components, o15-0.2.4), else the
 * section's, its Q_Key rdma_cm's (0x01234567) when it gives none.  Not on
 * a RoCE port: no SA there, its worker joins the IP group itself.  A port
 * without an SA client and no OpenSM plugin has nobody to join through:
 * said once a config.  The joins live in the bridging policy's table
 * (flag feed), which never leaves them for want of members; a section that
 * changed direction or went is left here.
 */
#include "daemon/learn/ibrd_learn.h"

#include "lib/ibr_log.h"
#include "lib/ibr_sa.h"
#include "sa/sa_client.h"

#include <string.h>

#define FEED_QKEY_RDMA_CM 0x01234567u /* rdma_cm's Q_Key for RDMA_PS_UDP (librdmacm) */

/* Whether port `p` can join at all: an SA client there, or a plugin to ask. */
static bool feed_can_join(const struct ibrd *d, uint32_t p)
{
	return (p < d->conf->nports && d->conf->port[p].sa_client) || d->conf->osm_plugin;
}

/* The JoinState section `cm` wants on its port now, 0 for none. */
static uint8_t feed_want(struct ibrd *d, const struct ibrd_conf_mcast *cm, uint32_t p)
{
	const struct sa_group *g;

	if (!cm->feed[0] || (d->rib.port[p].flags & ROUTER_PORT_ROCE) || !feed_can_join(d, p))
		return 0;
	if (cm->senders)
		return IBR_SA_JOIN_FULL;
	if (!cm->receivers)
		return 0;
	g = ibrd_mcast_group(d, p, cm->mgid);
	return g && g->receivers ? IBR_SA_JOIN_SEND_ONLY : 0;
}

/* The section whose MGID and port are these, or NULL. */
static const struct ibrd_conf_mcast *feed_section(const struct ibrd *d, const uint8_t mgid[16],
						  uint32_t p)
{
	for (unsigned i = 0; i < d->conf->nmcasts; i++) {
		const struct ibrd_conf_mcast *cm = &d->conf->mcasts[i];

		if (cm->feed[0] && !memcmp(cm->mgid, mgid, 16) &&
		    ibrd_conf_port_index(d->conf, cm->port) == (int)p)
			return cm;
	}
	return NULL;
}

static void feed_template(const struct ibrd_conf_mcast *cm, struct sa_group *t)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->mgid, cm->mgid, 16);
	t->mlid = cm->mlid;
	t->qkey = cm->qkey ? cm->qkey : FEED_QKEY_RDMA_CM;
	t->pkey = cm->pkey;
	t->sl = cm->sl;
	t->tclass = cm->tclass;
	t->flowlabel = cm->flowlabel;
	t->mtu = ibr_sa_mtu_code(cm->mtu);
	t->scope = (uint8_t)(cm->mgid[1] & 0x0F);
}

/* Ports that cannot join a feed's group, said once a config. */
static void feed_tell_cannot(struct ibrd *d)
{
	if (d->mcast->feeds_told)
		return;
	d->mcast->feeds_told = true;
	for (unsigned i = 0; i < d->conf->nmcasts; i++) {
		const struct ibrd_conf_mcast *cm = &d->conf->mcasts[i];
		int p = ibrd_conf_port_index(d->conf, cm->port);

		if (cm->feed[0] && p >= 0 && (uint32_t)p < d->rib.nports &&
		    !(d->rib.port[p].flags & ROUTER_PORT_ROCE) && !feed_can_join(d, (uint32_t)p) &&
		    (cm->senders || cm->receivers))
			log_warnx("mcast: feed \"%s\": port %s has no SA client and osm-plugin is "
				  "off: the router does not join the feed's MGID there, and an SM "
				  "builds its tree without the router's port",
				  cm->feed, cm->port);
	}
}

void ibrd_mcast_feeds_conf(struct ibrd *d)
{
	d->mcast->feeds_told = false;
}

void ibrd_mcast_feeds(struct ibrd *d)
{
	if (!d->mcast->ops)
		return; /* no source of groups wired (yet) */
	feed_tell_cannot(d);
	/* joins whose section went, or wants another JoinState now */
	for (unsigned i = 0; i < d->mcast->nmjoins;) {
		const struct ibrd_mjoin *j = &d->mcast->mjoins[i];
		const struct ibrd_conf_mcast *cm;

		if (!j->feed) {
			i++;
			continue;
		}
		cm = feed_section(d, j->mgid, j->port);
		if (cm && feed_want(d, cm, j->port) == j->join_state)
			i++;
		else
			ibrd_mcast_leave_at(d, i); /* the last one moved here */
	}
	for (unsigned i = 0; i < d->conf->nmcasts; i++) {
		const struct ibrd_conf_mcast *cm = &d->conf->mcasts[i];
		int p = ibrd_conf_port_index(d->conf, cm->port);
		const struct sa_group *here;
		struct ibrd_mjoin *j;
		struct sa_group t;
		uint8_t want;

		if (!cm->feed[0] || p < 0 || (uint32_t)p >= d->rib.nports ||
		    !(want = feed_want(d, cm, (uint32_t)p)))
			continue;
		if ((j = ibrd_mcast_find(d, cm->mgid, (uint32_t)p))) {
			/* the policy's join of the same MGID: the feed's from now on */
			if (!j->feed && j->join_state == want)
				j->feed = true;
			if (j->feed)
				continue;
			ibrd_mcast_leave_at(d, (unsigned)(j - d->mcast->mjoins));
		}
		if ((here = ibrd_mcast_group(d, (uint32_t)p, cm->mgid)))
			t = *here;
		else
			feed_template(cm, &t);
		ibrd_mcast_join(d, (uint32_t)p, &t, want, true);
	}
}
