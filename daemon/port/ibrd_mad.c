/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_mad.c - the MAD side of the router's ports (mad = ibsim or umad):
 * one MAD channel per port on the daemon's epoll loop (d->chan[]), carrying
 * SMPs that reach the router's SMA (vendor router attributes, SMInfo: what
 * ibsim forwards to an IsSM client), PerfMgt GMPs for the PMA, and the SA
 * client's queries and Reports (the SA client and what it learns are the
 * learn room's: daemon/learn/ibrd_sa.c).
 *
 * A umad port whose device cannot be opened (ib_umad not loaded, the HCA
 * not there yet, no such port) is lost until it comes, as a verbs device
 * is (ibrd_verbs.c): said once at warning level, opened again after 1 s,
 * then at twice the wait up to MAD_RETRY_MAX_MS, and counted; one whose
 * channel fails later (the device went: its fd reads an error) is lost
 * again the same way.  Port/ calls nothing in learn/: it marks the core's
 * d->chan_new (a channel came: its SA client to start) and d->chan_dead (a
 * channel failed: its SA client to stop, then ibrd_mad_reap() closes it),
 * and the core's loop sees to both (ibrouterd.c).
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

#define MAD_RETRY_MIN_MS 1000
#define MAD_RETRY_MAX_MS 10000

struct ibrd_mad_port {
	struct ibrd_ev ev; /* IBRD_EV_MAD; first */
	struct ibrd *d;
	uint32_t idx;
	struct mad_chan *chan;
	struct mad_transport *tp;
	uint64_t link_check_ns; /* ibsim: the next look at the port's link */
	bool link_down;		/* ibsim: the simulator has the port's link down */
	/* umad: no channel (not there yet, or failed): opened again at next_try_ns */
	struct ibrd_mad_info info;
	uint32_t wait_ms; /* the wait before the next try (doubles up to the max) */
	bool dead;	  /* its channel failed: closed by ibrd_mad_reap() */
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

/* "mlx5_0:1", "ibsim/RtrA": where the port attaches, for the logs. */
static const char *mad_where(const struct ibrd_conf_port *cp, char *buf, size_t n)
{
	if (cp->mad == IBRD_MAD_IBSIM)
		snprintf(buf, n, "ibsim %s/%s", cp->ibsim_socket, cp->ibsim_node);
	else
		snprintf(buf, n, "umad %s:%u", cp->umad_ca[0] ? cp->umad_ca : "(first active)",
			 cp->umad_port);
	return buf;
}

/* The transport and channel of mp, its handlers, on the loop.  0 or -errno (nothing left). */
static int mad_port_attach(struct ibrd_mad_port *mp)
{
	struct ibrd *d = mp->d;
	const struct ibrd_conf_port *cp = &d->conf->port[mp->idx];
	struct mad_chan_config cc = { .name = cp->name, .chan_id = mp->idx + 1 };
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &mp->ev };
	int rc = -EIO;

	if (!(mp->tp = mad_open_transport(cp)))
		return errno ? -errno : -ENODEV;
	if (!(mp->chan = mad_chan_create(mp->tp, &cc))) { /* registers the SMP and SA classes */
		mp->tp = NULL;				  /* closed by the channel */
		return -EIO;
	}
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
	if (d->epfd >= 0 && epoll_ctl(d->epfd, EPOLL_CTL_ADD, mad_chan_fd(mp->chan), &ev) < 0) {
		rc = -errno;
		goto fail;
	}
	d->chan[mp->idx] = mp->chan;
	return 0;
fail:
	mad_chan_destroy(mp->chan);
	mp->chan = NULL;
	mp->tp = NULL;
	return rc;
}

/* mp has no channel from now on: tried again in wait_ms (1 s the first time). */
static void mad_port_lose(struct ibrd_mad_port *mp, int err, uint64_t now)
{
	mp->info.lost = true;
	mp->info.err = err;
	mp->info.losses++;
	mp->wait_ms = MAD_RETRY_MIN_MS;
	mp->info.next_try_ns = now + (uint64_t)mp->wait_ms * 1000000u;
}

static const char *mad_lost_hint(int err)
{
	/* libibumad's answer without the module (it reads its ABI version first) */
	if (err == -EOPNOTSUPP)
		return " (ib_umad not loaded? ibrouterd --check tells)";
	if (err == -ENODEV || err == -ENOENT || err == -ENXIO)
		return " (the HCA or its port not there? ibrouterd --check tells)";
	if (err == -EACCES || err == -EPERM)
		return " (the umad device's permissions? ibrouterd --check tells)";
	return "";
}

static int mad_port_open(struct ibrd *d, uint32_t idx)
{
	const struct ibrd_conf_port *cp = &d->conf->port[idx];
	struct ibrd_mad_port *mp = calloc(1, sizeof(*mp));
	char where[2 * IBRD_NAME_MAX + 16];
	int rc;

	if (!mp)
		return -ENOMEM;
	mp->ev.kind = IBRD_EV_MAD;
	mp->d = d;
	mp->idx = idx;
	mp->info.configured = true;
	mad_where(cp, where, sizeof(where));
	if ((rc = mad_port_attach(mp))) {
		if (cp->mad == IBRD_MAD_IBSIM) { /* the simulator is started first: a mistake */
			log_warnx("mad: port %s: cannot attach (%s): %s", cp->name, where,
				  strerror(-rc));
			free(mp);
			return rc;
		}
		/* a real device: not there yet (ib_umad, the HCA), or not ours to open */
		mad_port_lose(mp, rc, ibr_now_ns());
		log_warnx("mad: port %s: %s: %s%s: its MAD channel is lost until it comes (its SA "
			  "client and SMA wait for it; tried again every 1 to %d s)",
			  cp->name, where, strerror(-rc), mad_lost_hint(rc),
			  MAD_RETRY_MAX_MS / 1000);
		d->mad[idx] = mp;
		return 0;
	}
	d->mad[idx] = mp;
	/* the SA client on it is the learn room's (ibrd_sa_start), as the config says */
	log_info("mad: port %s: attached (%s)%s", cp->name, where,
		 cp->sa_client && d->conf->sa_client ? ", SA client on" : "");
	return 0;
}

int ibrd_mad_start(struct ibrd *d)
{
	int rc;

	for (uint32_t i = 0; i < d->conf->nports; i++)
		if (d->conf->port[i].mad != IBRD_MAD_NONE && (rc = mad_port_open(d, i)))
			return rc;
	return 0;
}

/* A lost port's try: attached (its SA client started by the core), or a longer wait. */
static void mad_port_retry(struct ibrd_mad_port *mp, uint64_t now)
{
	struct ibrd *d = mp->d;
	const struct ibrd_conf_port *cp = &d->conf->port[mp->idx];
	char where[2 * IBRD_NAME_MAX + 16];
	int rc;

	mp->info.tries++;
	if ((rc = mad_port_attach(mp))) {
		if (rc != mp->info.err)
			log_warnx("mad: port %s: %s: still lost, now: %s", cp->name,
				  mad_where(cp, where, sizeof(where)), strerror(-rc));
		mp->info.err = rc;
		mp->wait_ms = mp->wait_ms * 2 > MAD_RETRY_MAX_MS ? MAD_RETRY_MAX_MS
								 : mp->wait_ms * 2;
		mp->info.next_try_ns = now + (uint64_t)mp->wait_ms * 1000000u;
		return;
	}
	mp->info.lost = false;
	mp->info.err = 0;
	mp->info.next_try_ns = 0;
	mp->link_check_ns = 0;
	d->chan_new |= 1u << mp->idx; /* the core starts its SA client (ibrd_sa_start) */
	log_info("mad: port %s: %s is here after %llu tries: attached%s", cp->name,
		 mad_where(cp, where, sizeof(where)), (unsigned long long)mp->info.tries,
		 cp->sa_client && d->conf->sa_client ? ", its SA client starts" : "");
}

void ibrd_mad_info(const struct ibrd *d, uint32_t idx, struct ibrd_mad_info *out)
{
	const struct ibrd_mad_port *mp = idx < ROUTER_MAX_PORTS ? d->mad[idx] : NULL;

	if (mp)
		*out = mp->info;
	else
		*out = (struct ibrd_mad_info){ .configured = false };
}

void ibrd_mad_reap(struct ibrd *d)
{
	uint64_t now = ibr_now_ns();

	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		struct ibrd_mad_port *mp = d->mad[i];

		if (!mp || !mp->dead)
			continue;
		mp->dead = false;
		if (d->epfd >= 0)
			epoll_ctl(d->epfd, EPOLL_CTL_DEL, mad_chan_fd(mp->chan), NULL);
		mad_chan_destroy(mp->chan);
		mp->chan = NULL;
		mp->tp = NULL;
		d->chan[i] = NULL;
		mad_port_lose(mp, mp->info.err, now);
	}
	d->chan_dead = 0;
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
		if (!mp->chan) { /* lost: nothing to wait for */
			free(mp);
			d->mad[i] = NULL;
			continue;
		}
		if ((left = mad_chan_drain(mp->chan, until)))
			log_info("mad: %s: %u parting SA requests unanswered in %d ms",
				 mad_chan_name(mp->chan), left, MAD_PART_MS);
		mad_chan_destroy(mp->chan); /* clears IsSM */
		free(mp);
		d->mad[i] = NULL;
		d->chan[i] = NULL;
	}
	d->chan_new = d->chan_dead = 0; /* of channels gone: new ones tell again */
}

void ibrd_mad_event(struct ibrd *d, struct ibrd_ev *ev)
{
	struct ibrd_mad_port *mp = mad_port_of(ev);
	int rc;

	if (!mp->chan || mp->dead)
		return;
	rc = mad_chan_process(mp->chan, 0);
	/*
	 * An error from a umad device itself (it went: ENODEV, EIO; the fd of a
	 * removed HCA stays readable): the channel is dead, off the loop at
	 * once (or its fd fires forever), closed once the core stopped its SA
	 * client (d->chan_dead, ibrd_mad_reap), and the port lost until the
	 * device is back.
	 */
	if (rc < 0 && d->conf->port[mp->idx].mad == IBRD_MAD_UMAD && rc != -EAGAIN &&
	    rc != -EINTR && rc != -ENOMEM && rc != -EMSGSIZE) {
		const struct ibrd_conf_port *cp = &d->conf->port[mp->idx];
		char where[2 * IBRD_NAME_MAX + 16];

		log_warnx("mad: port %s: %s failed: %s: its MAD channel is lost until it comes "
			  "back (its SA client stops; tried again every 1 to %d s)",
			  cp->name, mad_where(cp, where, sizeof(where)), strerror(-rc),
			  MAD_RETRY_MAX_MS / 1000);
		if (d->epfd >= 0)
			epoll_ctl(d->epfd, EPOLL_CTL_DEL, mad_chan_fd(mp->chan), NULL);
		mp->info.err = rc;
		mp->dead = true;
		d->chan_dead |= 1u << mp->idx;
	}
}

void ibrd_mad_tick(struct ibrd *d, uint64_t now)
{
	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		struct ibrd_mad_port *mp = d->mad[i];

		if (!mp || mp->dead)
			continue;
		if (!mp->chan) {
			if (now >= mp->info.next_try_ns)
				mad_port_retry(mp, now);
			continue;
		}
		mad_chan_tick(mp->chan, now);
		mad_link_check(mp, now, false);
	}
}

uint64_t ibrd_mad_deadline(const struct ibrd *d)
{
	uint64_t t = UINT64_MAX;

	for (uint32_t i = 0; i < ROUTER_MAX_PORTS; i++) {
		const struct ibrd_mad_port *mp = d->mad[i];
		uint64_t x;

		if (!mp || mp->dead)
			continue;
		x = mp->chan ? mad_chan_next_deadline(mp->chan) : mp->info.next_try_ns;
		if (x < t)
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
