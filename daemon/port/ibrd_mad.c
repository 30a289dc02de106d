/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_mad.c - the MAD side of the router's ports (mad = ibsim or umad):
 * one MAD channel per port on the daemon's epoll loop (d->chan[]), carrying
 * SMPs that reach the router's SMA (vendor router attributes, SMInfo: what
 * ibsim forwards to an IsSM client), PerfMgt GMPs for the PMA, and the SA
 * client's queries and Reports (the SA client and what it learns are the
 * learn room's: daemon/learn/ibrd_sa.c).
 */
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "mad/mad_chan.h"
#include "mad/mad_ibsim.h"
#include "mad/mad_umad.h"
#include "sma/sma.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/epoll.h>
#include <time.h>

struct ibrd_mad_port {
	struct ibrd_ev ev; /* IBRD_EV_MAD; first */
	struct ibrd *d;
	uint32_t idx;
	struct mad_chan *chan;
	struct mad_transport *tp;
	uint64_t link_check_ns; /* ibsim: the next look at the port's link */
	bool link_down;		/* ibsim: the simulator has the port's link down */
};

static struct ibrd_mad_port *mad_port_of(struct ibrd_ev *ev)
{
	return (struct ibrd_mad_port *)((char *)ev - offsetof(struct ibrd_mad_port, ev));
}

/*
 * An ibsim port's link is the simulator's (Unlink, ReLink on its console):
 * read once a second (its GET_PORT), and while it is down the router port
 * is too (no connected route, nothing forwarded), its SMA's PortState Down;
 * back up, the SMA is at Init and the SM walks it to Active again (IBA
 * 14.2.5.6), as after any link flap.
 */
static void mad_link_check(struct ibrd_mad_port *mp, uint64_t now, bool now_please)
{
	struct ibrd *d = mp->d;
	struct router_port p;
	uint16_t lid;
	uint8_t state;
	bool down;

	struct pollfd pfd = { .fd = mad_chan_fd(mp->chan), .events = POLLIN };

	if (d->conf->port[mp->idx].mad != IBRD_MAD_IBSIM ||
	    (now < mp->link_check_ns && !now_please))
		return;
	/*
	 * Only with nothing waiting for us: ibsim spins on a full client socket
	 * (its write retries EAGAIN) and answers no control request meanwhile,
	 * so a GET_PORT then would block us both (lab_burst.sh: a burst of 100
	 * Reports went unacknowledged).
	 */
	if (!now_please && poll(&pfd, 1, 0) != 0) {
		mp->link_check_ns = now + 100000000ull;
		return;
	}
	mp->link_check_ns = now + 1000000000ull;
	if (mad_ibsim_get_port(mp->tp, &lid, &state))
		return;
	down = state == 1;			       /* PortState Down: no link */
	d->vdown[mp->idx] = d->vdown[mp->idx] || down; /* the verbs ports' flag: the same rule */
	if (down == mp->link_down)
		return;
	mp->link_down = down;
	log_info("mad: port %s: the simulator's link is %s", d->rib.port[mp->idx].name,
		 down ? "down: the port is down until it is back" : "up again");
	if (d->agents->sma)
		sma_port_set_link(d->agents->sma, mp->idx + 1, !down, ibr_now_ns());
	p = d->rib.port[mp->idx];
	ibrd_port_link(d, mp->idx, !down, &p);
	router_rib_port_set(&d->rib, mp->idx, &p);
	ibrd_port_changed(d, mp->idx);
}

/*
 * SMPs ibsim forwards to us (IsSM): the SMA answers, else the channel's
 * default responder.  ibsim routes a directed-route SMP itself and hands it
 * over with HopPointer still 0: at its destination it stands where a real
 * path leaves it (HopPointer = HopCount, C14-9), so the SMA's end-port rules
 * apply unchanged.  The kernel's SMI (umad) does this on real hardware.
 * Tested in tests/lab/lab_sa.sh: vendor SMPs from a host, and OpenSM's
 * SMInfo on the second router port (a wrong return path stalled OpenSM B).
 */
static bool mad_on_smp(struct mad_chan *ch, struct mad_chan_msg *msg, void *arg)
{
	struct ibrd_mad_port *mp = arg;
	struct sma_rx rx = { .port = (uint8_t)(mp->idx + 1),
			     .slid = msg->from.lid,
			     .now_ns = ibr_now_ns() };
	uint8_t req[IBR_MAD_SIZE], reply[IBR_MAD_SIZE];
	struct sma_tx tx;
	enum sma_drop why;
	bool routed;
	int rc;

	if (!mp->d->agents->sma || msg->len < IBR_MAD_SIZE)
		return false;
	/*
	 * An SMP over a link we hold down: it is up again (a ReLink), and the
	 * SM, which heard of it first (trap 128), asks now -- not after our
	 * next look: read it first, or the SMA answers Down and the SM gives
	 * the port up (OpenSM: ERR 3A04 "has LID 0")
	 */
	if (mp->link_down)
		mad_link_check(mp, ibr_now_ns(), true);
	memcpy(req, msg->mad, IBR_MAD_SIZE);
	routed = mp->d->conf->port[mp->idx].mad == IBRD_MAD_IBSIM && ibr_smp_is_dr(req) &&
		 !ibr_smp_dr_direction(req) && ibr_smp_dr_hop_pointer(req) == 0 &&
		 ibr_smp_dr_hop_count(req) > 0;

	if (routed)
		ibr_smp_dr_set_hop_pointer(req, ibr_smp_dr_hop_count(req));
	ibrd_sma_tables_fresh(mp->d, req); /* the vendor tables it may read, up to date */
	/*
	 * the SMA's verdict is final: an SMP it discards (a wrong M_Key,
	 * 14.2.4.1; a bad DR path, C14-9) has no answer, not the channel's
	 * status 0x000C, which told a prober without the key that the port
	 * exists (tests/lab/lab_osm_sma.sh 6)
	 */
	if (sma_process(mp->d->agents->sma, &rx, req, sizeof(req), reply, &tx, &why) != SMA_REPLY)
		return true;
	if (routed) {
		/*
		 * and ibsim takes the reply back the way it came, from HopPointer 0
		 * and the return path as it was: the SMA recorded our router port
		 * number there, but ibsim models each router port as a one-port
		 * node, and would route a reply from "port 2" nowhere (OpenSM then
		 * waits for it for good).
		 */
		ibr_smp_dr_set_hop_pointer(reply, 0);
		memcpy(reply + IBR_SMP_RETURN_PATH_OFFS, req + IBR_SMP_RETURN_PATH_OFFS,
		       IBR_SMP_PATH_SIZE);
	}
	if ((rc = mad_chan_respond(ch, msg, reply)))
		ibrd_smp_lost(mp->d, mp->idx, ibrd_smp_reply_loss(rc));
	return true;
}

/*
 * PerfMgt GMPs ibsim hands us (to QP1 of an IsSM client): the router's PMA
 * (ibrd_pma.c) answers, as perfquery and OpenSM's perfmgr expect of a port.
 */
static bool mad_on_perf(struct mad_chan *ch, struct mad_chan_msg *msg, void *arg)
{
	struct ibrd_mad_port *mp = arg;
	uint8_t reply[IBR_MAD_SIZE];
	int rc;

	if (msg->len < IBR_MAD_SIZE || ibrd_pma_mad(mp->d, mp->idx, msg->mad, msg->len, reply))
		return false;
	if ((rc = mad_chan_respond(ch, msg, reply)))
		ibrd_smp_lost(mp->d, mp->idx, ibrd_smp_reply_loss(rc));
	return true;
}

/* ---- life ---- */

static struct mad_transport *mad_open_transport(const struct ibrd_conf_port *cp)
{
	if (cp->mad == IBRD_MAD_IBSIM)
		return mad_ibsim_open(cp->ibsim_socket[0] ? cp->ibsim_socket : NULL,
				      cp->ibsim_node[0] ? cp->ibsim_node : NULL, 0);
	return mad_umad_open(cp->umad_ca[0] ? cp->umad_ca : NULL, cp->umad_port);
}

static int mad_port_open(struct ibrd *d, uint32_t idx)
{
	const struct ibrd_conf_port *cp = &d->conf->port[idx];
	struct ibrd_mad_port *mp = calloc(1, sizeof(*mp));
	struct mad_transport *tp;
	struct mad_chan_config cc = { .name = cp->name, .chan_id = idx + 1 };
	struct epoll_event ev = { .events = EPOLLIN };
	int rc = -ENOMEM;

	if (!mp)
		return rc;
	mp->ev.kind = IBRD_EV_MAD;
	mp->d = d;
	mp->idx = idx;
	if (!(mp->tp = tp = mad_open_transport(cp))) {
		rc = -errno;
		log_warnx("mad: port %s: cannot attach (%s): %s", cp->name,
			  cp->mad == IBRD_MAD_IBSIM ? cp->ibsim_node : cp->umad_ca, strerror(-rc));
		free(mp);
		return rc;
	}
	if (!(mp->chan = mad_chan_create(tp, &cc))) /* registers the SMP and SA classes */
		goto fail;
	if (mad_chan_set_handler(mp->chan, IBR_MGMT_CLASS_SUBN_DR, mad_on_smp, mp) ||
	    mad_chan_set_handler(mp->chan, IBR_MGMT_CLASS_SUBN_LID, mad_on_smp, mp))
		goto fail;
	/* the PMA on ibsim ports only: on an HCA its own agent has class 0x04 */
	if (cp->mad == IBRD_MAD_IBSIM &&
	    mad_chan_set_handler(mp->chan, IBR_MGMT_CLASS_PERF, mad_on_perf, mp))
		goto fail;
	/*
	 * IsSM on ibsim ports only: ibsim forwards vendor SMPs (the router
	 * attributes), SMInfo and Reports only to a client that has it (LAB.md;
	 * set after the agents), so the SMA answers SMInfo there, with the
	 * subnet's SM_Key (sma_node_cfg_of in ibrd_sma.c: OpenSM ignores an
	 * SMInfo whose key is not its own and says so, ERR 2F18).  Never on
	 * umad: an HCA port with IsSM is an SM to every SM of the subnet, and
	 * the kernel hands SMPs and Reports to the router's agents without it.
	 */
	if (cp->mad == IBRD_MAD_IBSIM && mad_chan_set_issm(mp->chan, true))
		log_warnx("mad: port %s: cannot set IsSM: vendor SMPs and Reports will not "
			  "reach us",
			  cp->name);
	ev.data.ptr = &mp->ev;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, mad_chan_fd(mp->chan), &ev) < 0) {
		rc = -errno;
		goto fail;
	}
	d->mad[idx] = mp;
	d->chan[idx] = mp->chan;
	/* the SA client on it is the learn room's (ibrd_sa_start), as the config says */
	log_info("mad: port %s: attached (%s %s%s%s)%s", cp->name,
		 cp->mad == IBRD_MAD_IBSIM ? "ibsim" : "umad",
		 cp->mad == IBRD_MAD_IBSIM ? cp->ibsim_socket : cp->umad_ca,
		 cp->mad == IBRD_MAD_IBSIM ? "/" : "",
		 cp->mad == IBRD_MAD_IBSIM ? cp->ibsim_node : "",
		 cp->sa_client && d->conf->sa_client ? ", SA client on" : "");
	return 0;
fail:
	if (mp->chan)
		mad_chan_destroy(mp->chan);
	free(mp);
	return rc;
}

int ibrd_mad_start(struct ibrd *d)
{
	int rc;

	for (uint32_t i = 0; i < d->conf->nports; i++)
		if (d->conf->port[i].mad != IBRD_MAD_NONE && (rc = mad_port_open(d, i)))
			return rc;
	return 0;
}

/*
 * The SA clients went first (ibrd_sa_stop), all of them, so that every
 * port's parting requests (the unsubscription, the announcements' Deletes,
 * the leaves of ibrd_mcast_stop()) are out at once; here their answers are
 * awaited, with the usual retries, for at most MAD_PART_MS in all: a Delete
 * sent once and lost (ibsim's queue of a client is 10 datagrams; an SA busy
 * with a sweep) left the records at the SA for their lease, in the lab
 * under load.
 */
#define MAD_PART_MS 1000
void ibrd_mad_stop(struct ibrd *d)
{
	uint64_t until = ibr_now_ns() + (uint64_t)MAD_PART_MS * 1000000u;

	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		struct ibrd_mad_port *mp = d->mad[i];
		unsigned int left;

		if (!mp)
			continue;
		if ((left = mad_chan_drain(mp->chan, until)))
			log_info("mad: %s: %u parting SA requests unanswered in %d ms",
				 mad_chan_name(mp->chan), left, MAD_PART_MS);
		mad_chan_destroy(mp->chan); /* clears IsSM */
		free(mp);
		d->mad[i] = NULL;
		d->chan[i] = NULL;
	}
}

void ibrd_mad_event(struct ibrd *d, struct ibrd_ev *ev)
{
	struct ibrd_mad_port *mp = mad_port_of(ev);

	mad_chan_process(mp->chan, 0);
	(void)d;
}

void ibrd_mad_tick(struct ibrd *d, uint64_t now)
{
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		struct ibrd_mad_port *mp = d->mad[i];

		if (!mp)
			continue;
		mad_chan_tick(mp->chan, now);
		mad_link_check(mp, now, false);
	}
}

uint64_t ibrd_mad_deadline(const struct ibrd *d)
{
	uint64_t t = UINT64_MAX;

	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		uint64_t x;

		if (d->mad[i] && (x = mad_chan_next_deadline(d->mad[i]->chan)) < t)
			t = x;
	}
	return t;
}

int ibrd_mad_send_smp(struct ibrd *d, uint32_t idx, const uint8_t *mad, uint16_t dlid)
{
	struct ibrd_mad_port *mp = idx < ROUTER_MAX_PORTS ? d->mad[idx] : NULL;
	struct mad_addr to = { .lid = dlid }; /* QP0 to QP0 */

	if (!mp || !mp->chan)
		return -ENOENT;
	return mad_chan_send(mp->chan, mad, IBR_MAD_SIZE, &to);
}
