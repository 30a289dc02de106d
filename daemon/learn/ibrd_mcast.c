/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_mcast.c - the multicast bridging policy (ibrouterd.conf(5),
 * MULTICAST): for a group whose MGID is in a bridged scope and allowed by
 * the include/exclude lists, as long as it has members other than the
 * router in some subnet, the router is a FullMember of it in every subnet
 * within the MGID's scope (IBA 8.3: site scope stays within its site) --
 * where the members are, so that the SM sends their traffic to the router,
 * and in the others, creating the group there with the same Q_Key, P_Key,
 * SL, TClass and FlowLabel when it does not exist.  When no member other
 * than the router is left anywhere, it leaves.  Link-local scope (2) and
 * the reserved scopes 0 and 1 are never bridged.
 *
 * A feed's MGIDs (the config's mcast sections with a feed) are joined by
 * ibrd_mcast_feed.c in the same table of joins, by direction; the policy
 * never leaves those.
 *
 * No loop: the router's own membership never counts as a member here, and
 * the forwarding core never sends a packet back into its ingress subnet
 * and decrements the hop limit (C8-16).
 */
#include "daemon/learn/ibrd_learn.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "lib/ibr_sa.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MJOIN_RETRY_NS (5 * 1000000000ull) /* a join never seen is sent again */

/* The policy's view of the subnets (the core's: each port's SA client or plugin; a test's). */
static const struct ibrd_mcast_ops *mcast_ops(const struct ibrd *d)
{
	return d->mcast->ops;
}

static bool mcast_prefix_match(const struct ibrd_conf_mprefix *p, const uint8_t mgid[16])
{
	unsigned full = p->plen / 8, rest = p->plen % 8;

	if (memcmp(p->mgid, mgid, full))
		return false;
	return !rest || ((p->mgid[full] ^ mgid[full]) & (uint8_t)(0xFF << (8 - rest))) == 0;
}

/* The config's word on an MGID: its scope bridged, included, not excluded. */
static bool mcast_bridged(const struct ibrd_conf *c, const uint8_t mgid[16])
{
	unsigned scope = ibr_gid_raw_mcast_scope(mgid);
	bool in = c->ninclude == 0;

	if (!ibr_gid_raw_is_mcast(mgid) || scope <= IBR_MCAST_SCOPE_LINK ||
	    !(c->mcast_scopes >> scope & 1))
		return false;
	for (unsigned i = 0; i < c->ninclude && !in; i++)
		in = mcast_prefix_match(&c->include[i], mgid);
	for (unsigned i = 0; i < c->nexclude && in; i++)
		in = !mcast_prefix_match(&c->exclude[i], mgid);
	return in;
}

struct ibrd_mjoin *ibrd_mcast_find(struct ibrd *d, const uint8_t mgid[16], uint32_t port)
{
	for (unsigned i = 0; i < d->mcast->nmjoins; i++)
		if (d->mcast->mjoins[i].port == port && !memcmp(d->mcast->mjoins[i].mgid, mgid, 16))
			return &d->mcast->mjoins[i];
	return NULL;
}

/* The first retry of a refused join after a second, then twice as long, up to 30 s. */
#define MJOIN_BACKOFF_MIN_NS 1000000000ull
#define MJOIN_BACKOFF_MAX_NS 30000000000ull

static void mcast_join_failed(struct ibrd *d, uint32_t port)
{
	struct ibrd_mcast *x = d->mcast;
	uint64_t now = ibr_now_ns();

	x->join_failures++;
	if (!x->retry_ns) {
		x->retry_wait_ns = x->retry_wait_ns ? 2 * x->retry_wait_ns : MJOIN_BACKOFF_MIN_NS;
		if (x->retry_wait_ns > MJOIN_BACKOFF_MAX_NS)
			x->retry_wait_ns = MJOIN_BACKOFF_MAX_NS;
		x->retry_ns = now + x->retry_wait_ns;
	}
	if (ibr_ratelimit_ok(&x->rl_join, now))
		log_warnx("mcast: port %s: cannot join a bridged group there now (%llu refused "
			  "so far): trying again in %llu s",
			  d->rib.port[port].name, (unsigned long long)x->join_failures,
			  (unsigned long long)((x->retry_ns - now + 999999999) / 1000000000u));
}

void ibrd_mcast_tick(struct ibrd *d, uint64_t now)
{
	if (!d->mcast->retry_ns || now < d->mcast->retry_ns)
		return;
	d->mcast->retry_ns = 0;
	ibrd_groups_changed(d); /* the policy again, at the end of this turn */
}

uint64_t ibrd_mcast_deadline(const struct ibrd *d)
{
	return d->mcast && d->mcast->retry_ns ? d->mcast->retry_ns : UINT64_MAX;
}

void ibrd_mcast_join(struct ibrd *d, uint32_t port, const struct sa_group *tmpl, uint8_t join_state,
		     bool feed)
{
	struct ibrd_mjoin *j;

	if (ibrd_mcast_find(d, tmpl->mgid, port))
		return;
	if (d->mcast->nmjoins == d->mcast->mjoins_cap) {
		unsigned cap = d->mcast->mjoins_cap ? d->mcast->mjoins_cap * 2 : 16;

		j = realloc(d->mcast->mjoins, cap * sizeof(*j));
		if (!j)
			return;
		d->mcast->mjoins = j;
		d->mcast->mjoins_cap = cap;
	}
	if (mcast_ops(d)->join(d, port, tmpl, join_state)) {
		/*
		 * No SA client or plugin there, its port away, or it cannot send
		 * now: the policy runs again at the retry (ibrd_mcast_tick), which
		 * nothing else would bring while the groups stay as they are.
		 */
		mcast_join_failed(d, port);
		return;
	}
	d->mcast->retry_wait_ns = 0;
	j = &d->mcast->mjoins[d->mcast->nmjoins++];
	memcpy(j->mgid, tmpl->mgid, 16);
	j->port = port;
	j->join_state = join_state;
	j->feed = feed;
	j->seen = false;
	j->sent_ns = ibr_now_ns();
	if (feed)
		log_info("mcast: port %s: joining a feed's group as a %s", d->rib.port[port].name,
			 join_state == IBR_SA_JOIN_FULL ? "FullMember" : "SendOnlyNonMember");
	else
		log_info("mcast: port %s: joining a bridged group (MLID elsewhere 0x%04x)",
			 d->rib.port[port].name, tmpl->mlid);
}

void ibrd_mcast_leave_at(struct ibrd *d, unsigned i)
{
	const struct ibrd_mjoin *j = &d->mcast->mjoins[i];

	mcast_ops(d)->leave(d, j->port, j->mgid, j->join_state);
	log_info("mcast: port %s: leaving a %s", d->rib.port[j->port].name,
		 j->feed ? "feed's group (its section changed or went)"
			 : "group with no member left beyond the router");
	d->mcast->mjoins[i] = d->mcast->mjoins[--d->mcast->nmjoins];
}

const struct sa_group *ibrd_mcast_group(struct ibrd *d, uint32_t p, const uint8_t mgid[16])
{
	const struct sa_group *v;
	size_t n = mcast_ops(d)->groups(d, p, &v);

	for (size_t i = 0; i < n; i++)
		if (!memcmp(v[i].mgid, mgid, 16))
			return &v[i];
	return NULL;
}

/*
 * A group the router joined is fed in that subnet (RECEIVERS), whoever told
 * the RIB of it (the SA client, a plugin): IBA has no trap for a member's
 * join, so the router keeps forwarding into a subnet where it is a member
 * while the group exists there.  Not a static group (the config's, `mcast
 * add`): the operator said whether that subnet has receivers, and
 * receivers = false stays so (on a RoCE port the policy's join finds the
 * config's group and keeps it, ibrd_roce.c).  Run after the policy, before
 * the FIB is compiled (ibrd_sync.c).
 */
void ibrd_mcast_mark_joined(struct ibrd *d)
{
	for (unsigned i = 0; i < d->mcast->nmjoins; i++) {
		struct router_mcast_key k;
		struct router_mcast *m;

		memset(&k, 0, sizeof(k));
		memcpy(k.mgid, d->mcast->mjoins[i].mgid, 16);
		k.port = (uint8_t)d->mcast->mjoins[i].port;
		m = router_tab_find(&d->rib.mcasts, &k);
		if (m && m->source != ROUTER_SRC_STATIC)
			m->flags |= ROUTER_MCAST_RECEIVERS;
	}
}

/*
 * Our join on `port` as the subnet shows it: seen once the group is listed
 * there; forgotten (so joined again) when a group once seen is gone -- an SM
 * that restarted lost it -- or when a join was never seen in time.
 */
static void mcast_check_join(struct ibrd *d, const uint8_t mgid[16], uint32_t port)
{
	struct ibrd_mjoin *j = ibrd_mcast_find(d, mgid, port);
	bool there = ibrd_mcast_group(d, port, mgid) != NULL;

	if (!j)
		return;
	if (there) {
		j->seen = true;
	} else if (j->seen || ibr_now_ns() - j->sent_ns > MJOIN_RETRY_NS) {
		log_info("mcast: port %s: our bridged group is gone there: joining again",
			 d->rib.port[port].name);
		*j = d->mcast->mjoins[--d->mcast->nmjoins];
	}
}

/*
 * Whether a port can hold the group by this ID: an IPv4 group's
 * ::ffff:a.b.c.d is a RoCE port's name for it; an SA takes only MGIDs
 * (ff00::/8), and IB applications name it otherwise (rdma_cm's MGID),
 * which only a configured feed translates to.
 */
static bool mcast_form_ok(const struct ibrd *d, uint32_t p, const uint8_t mgid[16])
{
	return !ibr_gid_raw_is_v4mcast(mgid) || (d->rib.port[p].flags & ROUTER_PORT_ROCE);
}

/* One MGID: join within its scope while it has members beyond the router, else leave. */
static void mcast_apply(struct ibrd *d, const uint8_t mgid[16])
{
	const struct sa_group *tmpl = NULL;
	struct sa_group tcopy;
	uint32_t members = 0, sites = 0;
	bool site_scope = ibr_gid_raw_mcast_scope(mgid) == IBR_MCAST_SCOPE_SITE;

	if (mcast_bridged(d->conf, mgid)) {
		for (uint32_t p = 0; p < d->rib.nports; p++) {
			const struct sa_group *g = ibrd_mcast_group(d, p, mgid);

			if (g && (g->members || g->senders || g->receivers)) {
				members |= 1u << p;
				sites |= 1u << d->rib.port[p].site;
				/* a copy: the next port's groups() may rebuild the view
				 * this one is in (a plugin's, a RoCE port's) */
				if (!tmpl) {
					tcopy = *g;
					tmpl = &tcopy;
				}
			}
		}
	}
	for (uint32_t p = 0; p < d->rib.nports; p++)
		mcast_check_join(d, mgid, p);
	/*
	 * Where the group exists, with that subnet's parameters: an SA joins a
	 * port to an existing group only when the components given match the
	 * group's (o15-0.2.4; OpenSM's mcgroup_join_validation); elsewhere with
	 * those of a subnet where it has members, to create it alike.
	 */
	for (uint32_t p = 0; p < d->rib.nports && tmpl; p++)
		if ((!site_scope || (sites >> d->rib.port[p].site & 1)) &&
		    mcast_form_ok(d, p, mgid)) {
			const struct sa_group *here = ibrd_mcast_group(d, p, mgid);

			ibrd_mcast_join(d, p, here ? here : tmpl, IBR_SA_JOIN_FULL, false);
		}
	/* a feed's joins are the feed's (ibrd_mcast_feeds), whatever the members */
	for (unsigned i = 0; i < d->mcast->nmjoins && !members;)
		if (!d->mcast->mjoins[i].feed && !memcmp(d->mcast->mjoins[i].mgid, mgid, 16))
			ibrd_mcast_leave_at(d, i);
		else
			i++;
}

void ibrd_mcast_policy(struct ibrd *d)
{
	if (!d->mcast->ops)
		return; /* no source of groups wired (yet) */
	for (uint32_t p = 0; p < d->rib.nports; p++) {
		const struct sa_group *v;
		size_t n = mcast_ops(d)->groups(d, p, &v);

		for (size_t i = 0; i < n; i++) {
			uint8_t mgid[16];

			memcpy(mgid, v[i].mgid, 16); /* a join may grow the table under us */
			mcast_apply(d, mgid);
			n = mcast_ops(d)->groups(d, p, &v);
		}
	}
	/* joins of groups no subnet lists any more */
	for (unsigned i = 0; i < d->mcast->nmjoins; i++) {
		uint8_t mgid[16];
		unsigned before = d->mcast->nmjoins;

		memcpy(mgid, d->mcast->mjoins[i].mgid, 16);
		mcast_apply(d, mgid);
		if (d->mcast->nmjoins < before)
			i = (unsigned)-1; /* restart: the array moved */
	}
}

struct ibrd_mcast *ibrd_mcast_new(void)
{
	struct ibrd_mcast *x = calloc(1, sizeof(*x));

	if (x)
		x->rl_join = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(1, 10);
	return x;
}

void ibrd_mcast_free(struct ibrd_mcast *x)
{
	if (!x)
		return;
	free(x->mjoins);
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++)
		free(x->roce_view[i].v);
	free(x);
}

void ibrd_mcast_stop(struct ibrd *d)
{
	while (d->mcast->nmjoins && d->mcast->ops)
		ibrd_mcast_leave_at(d, d->mcast->nmjoins - 1);
	free(d->mcast->mjoins);
	d->mcast->mjoins = NULL;
	d->mcast->mjoins_cap = 0;
	ibrd_roce_free(d);
}
