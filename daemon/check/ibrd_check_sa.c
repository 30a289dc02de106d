/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_check_sa.c - the preflight's look through a port's MAD channel
 * (ibrd_check.h): the port's own NodeInfo and PortInfo (hop-0 SMPs, which
 * its SMA answers: an HCA's firmware, ibsim, or the router's SMA), hence
 * what it is to its SM (a CA or a Router node, and what that means), its
 * LID, SM and subnet prefix; then one SA query (its NodeRecord, by LID)
 * with a short timeout: is the SA there.
 */
#include "daemon/check/ibrd_check.h"
#include "mad/mad_chan.h"
#include "mad/mad_ibsim.h"
#include "mad/mad_umad.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

/* One request's outcome. */
struct sa_wait {
	bool done;
	int status;
	uint8_t mad[IBR_MAD_SIZE];
	size_t len;
};

static void on_result(struct mad_chan *ch, const struct mad_chan_result *r, void *arg)
{
	struct sa_wait *w = arg;

	(void)ch;
	w->done = true;
	w->status = r->status;
	w->len = 0;
	if ((r->status == 0 || r->status == -EMSGSIZE) && r->mad) {
		w->len = r->len < IBR_MAD_SIZE ? r->len : IBR_MAD_SIZE;
		memcpy(w->mad, r->mad, w->len);
	}
}

static uint64_t env_now(const struct ibrd_check *k)
{
	return k->env && k->env->clock ? k->env->clock(k->env->arg) : ibr_now_ns();
}

/* Wait for the channel until until_ns: its fd polled, its timers run. */
static void env_wait(const struct ibrd_check *k, struct mad_chan *ch, uint64_t until)
{
	uint64_t now = ibr_now_ns();
	struct pollfd p = { .fd = mad_chan_fd(ch), .events = POLLIN };
	int ms = until > now ? (int)((until - now + 999999) / 1000000) : 0, t;

	if (k->env && k->env->wait) {
		k->env->wait(k->env->arg, ch, until);
		return;
	}
	if ((t = mad_chan_timeout_ms(ch, now)) >= 0 && t < ms)
		ms = t;
	if (poll(&p, 1, ms) > 0)
		mad_chan_process(ch, 0);
	mad_chan_tick(ch, ibr_now_ns());
}

/* Send `mad` to `to` and wait for its outcome (the channel's timeout, one retry). */
static int ask(struct ibrd_check *k, struct mad_chan *ch, const uint8_t *mad,
	       const struct mad_addr *to, struct sa_wait *w, uint64_t *took_ns)
{
	uint32_t tmo = k->env && k->env->sa_timeout_ms ? k->env->sa_timeout_ms : 500;
	struct mad_chan_req_opts o = { .timeout_ms = tmo, .retries = 1 };
	uint64_t t0 = env_now(k), until = t0 + 4ull * tmo * 1000000u;
	int rc;

	memset(w, 0, sizeof(*w));
	if ((rc = mad_chan_send_request(ch, mad, to, &o, on_result, w, NULL)))
		return rc;
	while (!w->done && env_now(k) < until)
		env_wait(k, ch, until);
	if (!w->done) {
		mad_chan_cancel(ch, 0); /* never: the channel's timers end it first */
		return -ETIMEDOUT;
	}
	*took_ns = env_now(k) - t0;
	return w->status;
}

/* A hop-0 directed-route Get of `attr`: answered by the port's own SMA (IBA 14.2.2). */
static int ask_smp(struct ibrd_check *k, struct mad_chan *ch, uint16_t attr, struct sa_wait *w)
{
	struct mad_addr to = { .lid = 0xFFFF, .qpn = 0 };
	uint8_t mad[IBR_MAD_SIZE];
	uint64_t took;
	int rc;

	ibr_mad_build_dr_smp(mad, IBR_MAD_METHOD_GET, attr, 0, 0, 0, NULL, 0);
	if ((rc = ask(k, ch, mad, &to, w, &took)))
		return rc;
	if (w->len < IBR_MAD_SIZE || ibr_smp_dr_status(w->mad))
		return -EPROTO;
	return 0;
}

static struct mad_transport *open_transport(struct ibrd_check *k, const struct ibrd_conf_port *p)
{
	if (k->env && k->env->transport)
		return k->env->transport(k->env->arg, p);
	if (p->mad == IBRD_MAD_IBSIM)
		return mad_ibsim_open(p->ibsim_socket, p->ibsim_node, 0);
	return mad_umad_open(p->umad_ca[0] ? p->umad_ca : NULL, p->umad_port);
}

/* What the port is to its SM, and what that means. */
static void say_node(struct ibrd_check *k, const struct ibrd_conf_port *p, unsigned type)
{
	char what[96];

	snprintf(what, sizeof(what), "port %s: node", p->name);
	if (type == 3)
		ibrd_check_say(k, IBRD_CHECK_OK, what,
			       "a Router node to its SM: PathRecords to other subnets find it, "
			       "peers find it by its ServiceRecords");
	else if (type == 1)
		ibrd_check_say(
			k, IBRD_CHECK_WARN, what,
			"a Channel Adapter to its SM (an HCA's firmware answers its SMPs): "
			"PathRecords from other subnets need the OpenSM plugin "
			"(ibrouter-osm) in that subnet's OpenSM%s; peers find it by its "
			"ServiceRecords; the SMA's router attributes are not served%s",
			k->conf->osm_plugin ? " (osm-plugin is on: a plugin session binds it)" : "",
			p->mad == IBRD_MAD_IBSIM ? " by the firmware (ibsim forwards them)" : "");
	else
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "NodeType %u: neither a CA nor a router: not a router port", type);
}

/* The SA: the port's own NodeRecord by its LID, answered within the timeout. */
static void ask_sa(struct ibrd_check *k, struct mad_chan *ch, const struct ibrd_conf_port *p,
		   const struct ibr_sa_portinfo_rec *pi)
{
	struct ibr_sa_node_rec nr = { .lid = pi->base_lid };
	struct mad_addr to = { .lid = pi->sm_lid, .qpn = 1, .qkey = MAD_QP1_QKEY };
	uint8_t mad[IBR_MAD_SIZE], rec[IBR_SA_NODE_REC_LEN];
	struct sa_wait w;
	uint64_t took = 0;
	char what[96];
	int rc;

	snprintf(what, sizeof(what), "port %s: SA", p->name);
	ibr_mad_build_sa(mad, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD, 1ull << 0,
			 k->conf->sm_key, 0);
	ibr_sa_node_rec_encode(&nr, rec);
	memcpy(mad + IBR_SA_DATA_OFFS, rec, sizeof(rec));
	ibr_sa_set_attr_offset(mad, (IBR_SA_NODE_REC_LEN + 7) / 8);
	rc = ask(k, ch, mad, &to, &w, &took);
	if (rc)
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "at LID 0x%04x: %s: the SA client cannot learn the subnet "
			       "(announcements, peers, neighbours) until it answers",
			       pi->sm_lid, rc == -ETIMEDOUT ? "no answer" : strerror(-rc));
	else if (ibr_mad_status(w.mad))
		ibrd_check_say(k, IBRD_CHECK_WARN, what,
			       "at LID 0x%04x answers, with status 0x%04x to our NodeRecord",
			       pi->sm_lid, ibr_mad_status(w.mad));
	else
		ibrd_check_say(k, IBRD_CHECK_OK, what, "at LID 0x%04x answers (%.1f ms)",
			       pi->sm_lid, (double)took / 1e6);
}

void ibrd_check_sa(struct ibrd_check *k, unsigned i)
{
	const struct ibrd_conf_port *p = &k->conf->port[i];
	struct mad_chan_config cc = { .name = p->name, .chan_id = i + 1 };
	struct ibr_sa_portinfo_rec pi;
	struct mad_transport *tp;
	struct mad_chan *ch;
	struct sa_wait w;
	char what[96], gs[IBR_GID_STRLEN];
	union ibr_gid g;
	unsigned type;
	int rc;

	if (p->mad == IBRD_MAD_NONE)
		return;
	if (k->env && k->env->clock) {
		cc.clock = k->env->clock;
		cc.clock_arg = k->env->arg;
	}
	snprintf(what, sizeof(what), "port %s: MAD channel", p->name);
	if (!(tp = open_transport(k, p)) || !(ch = mad_chan_create(tp, &cc))) {
		rc = errno ? -errno : -EIO;
		ibrd_check_say(
			k, IBRD_CHECK_FAIL, what, "%s %s: %s%s",
			p->mad == IBRD_MAD_IBSIM ? "ibsim" : "umad",
			p->mad == IBRD_MAD_IBSIM ? p->ibsim_socket : p->umad_ca, strerror(-rc),
			rc == -EBUSY ? " (a running ibrouterd holds the port's agents?)" : "");
		return;
	}
	if ((rc = ask_smp(k, ch, IBR_SMP_ATTR_NODE_INFO, &w))) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what, "the port's own NodeInfo: %s",
			       rc == -ETIMEDOUT ? "no answer" : strerror(-rc));
		goto out;
	}
	type = (unsigned)mad_get_field(w.mad + IBR_SMP_DATA_OFFS, 0, IB_NODE_TYPE_F);
	ibrd_check_say(k, IBRD_CHECK_OK, what, "open; the port's SMA answers (GUID 0x%016llx)",
		       (unsigned long long)mad_get_field64(w.mad + IBR_SMP_DATA_OFFS, 0,
							   IB_NODE_PORT_GUID_F));
	say_node(k, p, type);
	if ((rc = ask_smp(k, ch, IBR_SMP_ATTR_PORT_INFO, &w)) ||
	    ibr_sa_portinfo_decode(w.mad + IBR_SMP_DATA_OFFS, IBR_SMP_DATA_SIZE, &pi)) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what, "the port's own PortInfo: %s",
			       rc ? strerror(-rc) : "undecodable");
		goto out;
	}
	snprintf(what, sizeof(what), "port %s: subnet", p->name);
	g = ibr_gid_make(pi.gid_prefix, 0);
	if (pi.state != 4 || !pi.base_lid || !pi.sm_lid) {
		ibrd_check_say(k, IBRD_CHECK_WARN, what,
			       "port %s, LID 0x%04x, SM LID 0x%04x: no SM has brought it up yet, "
			       "the SA cannot be asked (the SA client waits for it)",
			       pi.state == 4 ? "Active" : "not Active", pi.base_lid, pi.sm_lid);
		goto out;
	}
	if (ibr_gid_is_link_local(&g))
		ibrd_check_say(k, IBRD_CHECK_WARN, what,
			       "prefix %s/64%s: link-local GIDs are never routed: give the SM a "
			       "subnet_prefix of its own (OpenSM: subnet_prefix 0xfec0...)",
			       ibr_gid_ntop(&g, gs, sizeof(gs)),
			       pi.gid_prefix == 0xfe80000000000000ull ? ", the SM's default" : "");
	else
		ibrd_check_say(k, IBRD_CHECK_OK, what, "prefix %s/64, LID 0x%04x, SM LID 0x%04x",
			       ibr_gid_ntop(&g, gs, sizeof(gs)), pi.base_lid, pi.sm_lid);
	ask_sa(k, ch, p, &pi);
out:
	mad_chan_destroy(ch);
}
