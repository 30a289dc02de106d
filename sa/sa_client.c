/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_client.c - the SA client of one port: its phases, the poll of our own
 * PortInfo (hop-0 directed-route SMPs, 14.2.2), InformInfo Reports (13.4.8,
 * acknowledged with ReportResp, 13.4.6.1), the answers dispatched to the
 * parts, and the API.  See sa_client.h.
 *
 * The top of sa/; calls go one way, downwards:
 *   sa_client.c                             the dispatcher and the API
 *   sa_sync.c, sa_announce.c, sa_peers.c    the parts (a sync, traps and
 *                                           joins; our announcements; the
 *                                           other routers'), never calling
 *                                           each other nor up
 *   sa_io.c, sa_tables.c                    what they share: the clock, our
 *                                           GID, a request sent, the change
 *                                           notice; the tables
 * What the bottom must reach above it is given at sa_client_new() (c->up).
 */
#include "sa/sa_int.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_MS 1000000ull

static uint64_t sa_default_clock(void *arg)
{
	(void)arg;
	return ibr_now_ns();
}

const char *sa_client_phase_name(enum sa_client_phase p)
{
	static const char *const names[] = { "down", "sync", "ready", "backoff" };

	return (unsigned)p < sizeof(names) / sizeof(names[0]) ? names[p] : "unknown";
}

/* ---- the API's view of the state ---- */

size_t sa_client_neighs(const struct sa_client *c, const struct sa_neigh **v)
{
	*v = c->cur_n.v;
	return c->cur_n.n;
}

size_t sa_client_groups(const struct sa_client *c, const struct sa_group **v)
{
	*v = c->cur_g.v;
	return c->cur_g.n;
}

enum sa_client_phase sa_client_phase(const struct sa_client *c)
{
	return c->phase;
}

const struct sa_port_state *sa_client_port(const struct sa_client *c)
{
	return &c->ps;
}

const struct sa_client_stats *sa_client_stats(const struct sa_client *c)
{
	return &c->st;
}

/* ---- our own port ---- */

static bool sa_port_usable(const struct sa_port_state *ps)
{
	return ps->state == 4 /* Active */ && ps->lid && ps->sm_lid;
}

static void sa_port_result(struct sa_client *c, const struct mad_chan_result *r)
{
	struct ibr_sa_portinfo_rec pi;
	struct sa_port_state old = c->ps;
	bool sm_change;

	c->poll_inflight = false;
	if (r->status < 0 || r->len < IBR_MAD_SIZE || ibr_smp_dr_status(r->mad) ||
	    ibr_sa_portinfo_decode(r->mad + IBR_SMP_DATA_OFFS, IBR_SMP_DATA_SIZE, &pi)) {
		log_info("sa: %s: our PortInfo: %s", c->name,
			 r->status < 0 ? strerror(-r->status) : "bad answer");
		return;
	}
	c->ps.lid = pi.base_lid;
	c->ps.sm_lid = pi.sm_lid;
	c->ps.lmc = pi.lmc;
	c->ps.state = pi.state;
	c->ps.prefix = pi.gid_prefix;
	if (c->have_port && !memcmp(&old, &c->ps, sizeof(old)))
		return;
	c->have_port = true;
	log_info("sa: %s: port lid %u lmc %u sm-lid %u prefix 0x%016llx state %u", c->name,
		 c->ps.lid, c->ps.lmc, c->ps.sm_lid, (unsigned long long)c->ps.prefix, c->ps.state);
	if (c->ops.port)
		c->ops.port(c->arg, &c->ps);
	sm_change = old.sm_lid != c->ps.sm_lid || old.lid != c->ps.lid ||
		    old.prefix != c->ps.prefix || old.state != c->ps.state;
	if (!sa_port_usable(&c->ps)) {
		c->phase = SA_PHASE_DOWN;
		c->gen++; /* whatever was in flight is stale */
		return;
	}
	if (sm_change && c->have_guid) {
		/*
		 * a sync, but a change of SM only on a port that was usable:
		 * learning the port, or its coming back Active, is none
		 */
		if (sa_port_usable(&old))
			c->st.sm_changes++;
		sa_sync_start(c, "port or SM changed");
	}
}

static void sa_nodeinfo_result(struct sa_client *c, const struct mad_chan_result *r)
{
	if (r->status < 0 || r->len < IBR_MAD_SIZE || ibr_smp_dr_status(r->mad))
		return;
	c->ps.port_guid = mad_get_field64((void *)(r->mad + IBR_SMP_DATA_OFFS), 0,
					  IB_NODE_PORT_GUID_F);
	c->ps.node_type = (uint8_t)mad_get_field((void *)(r->mad + IBR_SMP_DATA_OFFS), 0,
						 IB_NODE_TYPE_F);
	c->have_guid = true;
	if (c->have_port && c->ops.port)
		c->ops.port(c->arg, &c->ps);
	if (c->have_port && sa_port_usable(&c->ps) && c->phase == SA_PHASE_DOWN)
		sa_sync_start(c, "port up");
}

static void sa_poll(struct sa_client *c, uint64_t now)
{
	c->next_poll = now + (uint64_t)c->cfg.poll_ms * NS_PER_MS;
	if (c->poll_inflight)
		return;
	c->st.port_polls++;
	if (!c->have_guid)
		sa_send_smp(c, IBR_SMP_ATTR_NODE_INFO, SA_REQ_NODEINFO);
	if (sa_send_smp(c, IBR_SMP_ATTR_PORT_INFO, SA_REQ_PORTINFO) == 0)
		c->poll_inflight = true;
}

/* ---- results and Reports ---- */

static void sa_on_result(struct mad_chan *ch, const struct mad_chan_result *r, void *arg)
{
	struct sa_req *q = arg;
	struct sa_client *c = q->c;

	(void)ch;
	if (c)
		LIST_REMOVE(q, link);
	if (!c || r->status == -ECANCELED) {
		free(q);
		return;
	}
	if (r->status == -ETIMEDOUT)
		c->st.query_timeouts++;
	switch (q->kind) {
	case SA_REQ_PORTINFO:
		sa_port_result(c, r);
		break;
	case SA_REQ_NODEINFO:
		sa_nodeinfo_result(c, r);
		break;
	case SA_REQ_NR_GUID:
	case SA_REQ_MCM_MGID:
	case SA_REQ_JOIN:
	case SA_REQ_LEAVE:
		sa_trap_result(c, q, r);
		break;
	case SA_REQ_UNSUB:
		break;
	case SA_REQ_AD_SET:
	case SA_REQ_AD_DEL:
		sa_ad_result(c, q, r);
		break;
	case SA_REQ_PEER_GET:
	case SA_REQ_PEER_SCAN:
	case SA_REQ_PEER_PROBE:
		sa_peers_result(c, q, r);
		break;
	default:
		sa_sync_result(c, q, r);
		break;
	}
	free(q);
}

/*
 * A Report (13.4.8.2): acknowledge it first, whatever it says (an
 * unanswered Report stalls ibsim, and OpenSM resends), then apply traps
 * 64-67 about our subnet.
 */
static bool sa_on_unsolicited(struct mad_chan *ch, struct mad_chan_msg *msg, void *arg)
{
	struct sa_client *c = arg;
	struct ibr_sa_notice n;
	uint8_t resp[IBR_MAD_SIZE];
	const uint8_t *gid;
	uint16_t trap;

	if (ibr_mad_method(msg->mad) != IBR_MAD_METHOD_REPORT ||
	    ibr_mad_attr_id(msg->mad) != IBR_ATTR_NOTICE)
		return false; /* the channel's default responder answers */
	if (ibr_mad_build_response(resp, msg->mad, msg->len, 0) == 0)
		mad_chan_respond(ch, msg, resp);
	c->st.reports++;
	/*
	 * Reports come from the SA, at the subnet's SM (13.4.8.2: the class
	 * manager forwards the traps to its subscribers): one from any other
	 * LID -- a host that would drop our neighbours with a trap 65 -- is
	 * answered and changes nothing.
	 */
	if (!c->ps.sm_lid || msg->from.lid != c->ps.sm_lid) {
		c->st.reports_ignored++;
		if (ibr_ratelimit_ok(&c->report_rl, sa_now(c)))
			log_warnx(
				"sa: %s: a Report from LID 0x%04x, not the SM's (0x%04x): ignored",
				c->name, msg->from.lid, c->ps.sm_lid);
		return true;
	}
	if (msg->len < IBR_SA_DATA_OFFS + IBR_SA_NOTICE_LEN ||
	    ibr_sa_notice_decode(msg->mad + IBR_SA_DATA_OFFS, msg->len - IBR_SA_DATA_OFFS, &n) ||
	    !n.is_generic || n.trap_num < IBR_TRAP_GID_IN_SERVICE ||
	    n.trap_num > IBR_TRAP_MCG_DELETED) {
		c->st.reports_ignored++;
		return true;
	}
	trap = n.trap_num;
	gid = ibr_sa_notice_gid(&n);
	/*
	 * Traps 64/65 name a port GID (14.2.5.1); one with another subnet's
	 * prefix is none of ours: it is not applied (a trap 65 would delete our
	 * neighbour of that GUID) nor reported as applied.  The one place that
	 * checks it: sa_sync_trap() relies on it.
	 */
	if (trap <= IBR_TRAP_GID_OUT_OF_SERVICE && ibr_mad_ld64(gid) != c->ps.prefix) {
		c->st.reports_ignored++;
		return true;
	}
	log_info("sa: %s: trap %u for %02x%02x:%02x%02x:...:%02x%02x", c->name, trap, gid[0],
		 gid[1], gid[2], gid[3], gid[14], gid[15]);
	sa_sync_trap(c, trap, gid);
	if (c->ops.report)
		c->ops.report(c->arg, trap, gid);
	return true;
}

/* ---- life ---- */

struct sa_client *sa_client_new(struct mad_chan *chan, const struct sa_client_config *cfg,
				const struct sa_client_ops *ops, void *arg)
{
	struct sa_client *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->chan = chan;
	c->cfg = *cfg;
	c->report_rl = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(1, 5);
	if (!c->cfg.poll_ms)
		c->cfg.poll_ms = 1000;
	if (!c->cfg.backoff_ms)
		c->cfg.backoff_ms = 1000;
	if (!c->cfg.walk_gap)
		c->cfg.walk_gap = 64;
	if (!c->cfg.walk_max_lid)
		c->cfg.walk_max_lid = 0xBFFF;
	if (!c->cfg.walk_max_mlids)
		c->cfg.walk_max_mlids = 0x400;
	if (!c->cfg.clock)
		c->cfg.clock = sa_default_clock;
	if (ops)
		c->ops = *ops;
	c->arg = arg;
	/* the answers come back here; a changed neighbour table goes to the peers first */
	c->up.result = sa_on_result;
	c->up.neighs = sa_peers_routers;
	snprintf(c->name, sizeof(c->name), "%s", cfg->name ? cfg->name : "port");
	c->st.table_mode = true;
	LIST_INIT(&c->reqs);
	c->phase = SA_PHASE_DOWN;
	if (mad_chan_set_handler(chan, IBR_MGMT_CLASS_SUBN_ADM, sa_on_unsolicited, c) < 0) {
		free(c);
		return NULL;
	}
	sa_poll(c, sa_now(c));
	return c;
}

static void sa_unsubscribe(struct sa_client *c)
{
	struct ibr_sa_informinfo ii = {
		.lid_begin = 0xFFFF,
		.is_generic = true,
		.subscribe = false,
		.type = 0xFFFF,
		.trap_num = 0xFFFF,
		.qpn = 1,
		.producer = 0xFFFFFF,
	};
	uint8_t mad[IBR_MAD_SIZE];

	if (!c->st.subscribed || !sa_port_usable(&c->ps))
		return;
	ibr_mad_build_sa(mad, IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO, 0, c->cfg.sm_key, 0);
	ibr_sa_informinfo_encode(&ii, mad + IBR_SA_DATA_OFFS);
	/* no wait for the answer: the channel may go right after */
	sa_send(c, mad, SA_REQ_UNSUB, NULL);
	c->st.subscribed = false;
}

void sa_client_free(struct sa_client *c)
{
	struct sa_req *q;

	if (!c)
		return;
	sa_unsubscribe(c);
	sa_ad_free(c);
	sa_peers_free(c);
	mad_chan_set_handler(c->chan, IBR_MGMT_CLASS_SUBN_ADM, NULL, NULL);
	while ((q = LIST_FIRST(&c->reqs))) {
		LIST_REMOVE(q, link);
		q->c = NULL; /* its callback frees it */
		/*
		 * the parting ones go out, answered or retried as long as the
		 * channel lives (mad_chan_drain()): the unsubscription, the
		 * announcements' Deletes and the groups' leaves
		 */
		if (q->kind != SA_REQ_UNSUB && q->kind != SA_REQ_AD_DEL && q->kind != SA_REQ_LEAVE)
			mad_chan_cancel(c->chan, q->tid);
	}
	free(c->cur_n.v);
	free(c->new_n.v);
	free(c->cur_g.v);
	free(c->new_g.v);
	free(c);
}

void sa_client_tick(struct sa_client *c, uint64_t now)
{
	if (now >= c->next_poll)
		sa_poll(c, now);
	if (c->phase == SA_PHASE_READY && c->cfg.resync_ms && now >= c->next_resync)
		sa_sync_start(c, "resync interval");
	else if (c->phase == SA_PHASE_BACKOFF && now >= c->next_retry)
		sa_sync_start(c, "retry");
	sa_ad_tick(c, now);
	sa_peers_tick(c, now);
}

uint64_t sa_client_next_deadline(const struct sa_client *c)
{
	uint64_t t = c->next_poll;

	if (c->phase == SA_PHASE_READY && c->cfg.resync_ms && c->next_resync < t)
		t = c->next_resync;
	if (c->phase == SA_PHASE_BACKOFF && c->next_retry < t)
		t = c->next_retry;
	if (sa_ad_deadline(c) < t)
		t = sa_ad_deadline(c);
	if (sa_peers_deadline(c) < t)
		t = sa_peers_deadline(c);
	return t;
}

void sa_client_resync(struct sa_client *c, const char *why)
{
	if (sa_port_usable(&c->ps) && c->have_guid)
		sa_sync_start(c, why);
	else
		c->next_poll = 0; /* poll at the next tick */
}

static int sa_member(struct sa_client *c, const uint8_t mgid[16], uint8_t join_state,
		     const struct sa_group *tmpl, bool join)
{
	struct ibr_sa_mcm_rec r = { .join_state = join_state };
	uint64_t comp = IBR_SA_MCM_COMP_MGID | IBR_SA_MCM_COMP_PORTGID | IBR_SA_MCM_COMP_JOINSTATE;
	uint8_t mad[IBR_MAD_SIZE];
	struct sa_req q = { .lid = 0 };

	if (!sa_port_usable(&c->ps) || !c->have_guid)
		return -ENETDOWN;
	memcpy(r.mgid, mgid, 16);
	sa_own_gid(c, r.port_gid);
	if (tmpl) { /* what a join that creates the group must give (OpenSM's required mask) */
		r.qkey = tmpl->qkey;
		r.pkey = tmpl->pkey;
		r.sl = tmpl->sl;
		r.tclass = tmpl->tclass;
		r.flowlabel = tmpl->flowlabel;
		r.mtu_sel = 2; /* exactly */
		r.mtu = tmpl->mtu;
		r.rate_sel = 2;
		r.rate = tmpl->rate;
		r.scope = mgid[1] & 0x0F;
		comp |= IBR_SA_MCM_COMP_QKEY | IBR_SA_MCM_COMP_PKEY | IBR_SA_MCM_COMP_SL |
			IBR_SA_MCM_COMP_TCLASS | IBR_SA_MCM_COMP_FLOW;
		if (tmpl->mtu)
			comp |= IBR_SA_MCM_COMP_MTU_SEL | IBR_SA_MCM_COMP_MTU;
		if (tmpl->rate)
			comp |= IBR_SA_MCM_COMP_RATE_SEL | IBR_SA_MCM_COMP_RATE;
	}
	ibr_mad_build_sa(mad, join ? IBR_MAD_METHOD_SET : IBR_MAD_METHOD_DELETE,
			 IBR_SA_ATTR_MCMEMBER_RECORD, comp, c->cfg.sm_key, 0);
	ibr_sa_mcm_rec_encode(&r, mad + IBR_SA_DATA_OFFS);
	ibr_sa_set_attr_offset(mad, (IBR_SA_MCM_REC_LEN + 7) / 8);
	memcpy(q.gid, mgid, 16);
	q.port = join_state;
	if (join)
		c->st.joins++;
	else
		c->st.leaves++;
	return sa_send(c, mad, join ? SA_REQ_JOIN : SA_REQ_LEAVE, &q);
}

int sa_client_join(struct sa_client *c, const uint8_t mgid[16], uint8_t join_state,
		   const struct sa_group *tmpl)
{
	return sa_member(c, mgid, join_state, tmpl, true);
}

int sa_client_leave(struct sa_client *c, const uint8_t mgid[16], uint8_t join_state)
{
	return sa_member(c, mgid, join_state, NULL, false);
}
