/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_verbs.c - the HCA async events of the verbs ports, as daemon events
 * on the control thread's epoll loop (io_verbs_async_owner: the workers
 * leave them to it).  What each does:
 *   port error (IBV_EVENT_PORT_ERR)   the router port goes down: its
 *                                     connected route is withdrawn, the FIB
 *                                     marks it unusable (nothing forwarded
 *                                     to it), `show ports` says so
 *   port active                       state, LID and GID read again, the
 *                                     port and its connected route back
 *   LID change                        the new LID is the router port's
 *                                     (the DLID it accepts; the HCA sends
 *                                     with it as SLID) unless the config
 *                                     fixes one
 *   GID change                        the port's GID read again (GID 0 on
 *                                     InfiniBand; on RoCE its RoCE v2 GID of
 *                                     an IPv4 or global IPv6 address): its
 *                                     prefix is the port's subnet prefix
 *                                     unless the config fixes one; logged as
 *                                     the GID the port uses, with a warning
 *                                     when RoCE has a link-local one only
 *   SM change, client reregister      the port's SA client resyncs (the new
 *                                     SM may have other tables, IBA 14.4.11)
 *   fatal device error, or the        the device is let go of (everything on
 *   device's uverbs device gone       it destroyed, so that its removal can
 *   (no event: rxe, rdma link del)    finish), its ports down as if their
 *                                     links were, and opened again once a
 *                                     device of its name is listed
 *                                     (ibrd_verbs_tick, once a second)
 * Each is logged.  At start the same reading of every port fills what the
 * config leaves to the fabric.
 */
#include "daemon/port/ibrd_port.h"
#include "router/io/io_verbs.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

/*
 * The HCA port's state in router port i: up or down (with the config's
 * `up`), the LID and the prefix of GID 0 where the config leaves them to
 * the fabric, the connected route only while the link is up.
 */
static void verbs_port_sync(struct ibrd *d, const struct io_verbs_port *vp)
{
	uint32_t i = vp->cfg.router_port;
	const struct router_port *cp = &d->conf->port[i].rp;
	struct router_port rp;
	uint64_t prefix = ibr_gid_ld64(vp->gid);

	if (i >= d->rib.nports)
		return;
	rp = d->rib.port[i];
	ibrd_port_link(d, i, vp->up, &rp);
	if (!cp->lid && vp->lid) {
		rp.lid = vp->lid;
		rp.lmc = vp->lmc;
	}
	if (!cp->prefix && prefix)
		rp.prefix = prefix;
	if (vp->roce) {
		/*
		 * RoCE: no LIDs (the config's `lid`, if any, is only a name), and
		 * the port's own GID is the netdev's address it sends from, so its
		 * interface ID is the port's GUID; the largest payload is the
		 * port's active MTU (a UD send above it fails, IBA 11.4.1.1).
		 */
		if (!(rp.flags & ROUTER_PORT_ROCE))
			ibrd_groups_changed(d); /* its groups are the RIB's now (ibrd_roce.c) */
		rp.flags |= ROUTER_PORT_ROCE;
		rp.guid = ibr_gid_ld64(vp->gid + 8);
		if (vp->mtu && vp->mtu < rp.mtu)
			rp.mtu = vp->mtu;
	}
	router_rib_port_set(&d->rib, i, &rp);
	ibrd_port_changed(d, i); /* its connected route: withdrawn while down */
}

/*
 * The GID the port sends from, as the log says it: "fd00:b::1 (index 1,
 * RoCE v2)" -- on RoCE the first RoCE v2 GID of an IPv4 or global IPv6
 * address of its network device, the link-local one only when there is no
 * other (io_verbs_event.c), on InfiniBand GID 0.
 */
static const char *verbs_gid_str(const struct io_verbs_port *vp, char *buf, size_t len)
{
	char gs[IBR_GID_STRLEN], g4s[IBR_GID_STRLEN + 40] = "";
	union ibr_gid g;

	/* and the IPv4 one it sends to IPv4 groups from, when the port has both */
	if (vp->roce && vp->has_gid4 && memcmp(vp->gid4, vp->gid, 16)) {
		memcpy(g.raw, vp->gid4, 16);
		snprintf(g4s, sizeof(g4s), ", IPv4 %s (index %u)", ibr_gid_ntop(&g, gs, sizeof(gs)),
			 vp->sgid4_index);
	}
	memcpy(g.raw, vp->gid, 16);
	snprintf(buf, len, "%s (index %u%s)%s", ibr_gid_ntop(&g, gs, sizeof(gs)), vp->sgid_index,
		 vp->roce ? ", RoCE v2" : "", g4s);
	return buf;
}

/* A GID change: the GID the port uses now, and on RoCE a warning when it is link-local only. */
static void verbs_gid_changed(struct ibrd *d, const struct io_verbs_port *vp)
{
	uint32_t i = vp->cfg.router_port;
	const char *name = d->conf->port[i].name;
	char gs[2 * IBR_GID_STRLEN + 80];
	union ibr_gid g;

	memcpy(g.raw, vp->gid, 16);
	verbs_gid_str(vp, gs, sizeof(gs));
	if (vp->roce && ibr_gid_is_link_local(&g))
		log_warnx(
			"verbs: port %s: GID change: %s, link-local: no RoCE v2 GID of an IPv4 or "
			"global IPv6 address on its network device, so nothing routed reaches "
			"the port until it has one",
			name, gs);
	else
		log_info("verbs: port %s: GID change: %s%s", name, gs,
			 d->conf->port[i].rp.prefix ? " (the config's prefix stays)" : "");
}

/* ---- async events ---- */

int ibrd_verbs_watch(struct ibrd *d)
{
	ibrd_verbs_unwatch(d); /* the same ports again, or others */
	for (unsigned k = 0; d->data->verbs && io_verbs_port(d->data->verbs, k); k++) {
		struct io_verbs_port *vp = io_verbs_port(d->data->verbs, k);
		int fd = io_verbs_async_fd(vp);
		struct ibrd_verbs_ev *e = &d->data->vev[d->data->nvev];
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &e->ev };
		bool seen = fd < 0; /* its device is lost: no events until it is back */

		verbs_port_sync(d, vp);
		for (unsigned j = 0; j < d->data->nvev; j++)
			seen |= d->data->vev[j].fd == fd; /* ports of one device share it */
		if (seen || d->epfd < 0)
			continue;
		*e = (struct ibrd_verbs_ev){ .ev.kind = IBRD_EV_VERBS, .k = k, .fd = fd };
		if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			log_warn("verbs: %s: async events", vp->cfg.device);
			return -errno;
		}
		d->data->nvev++;
	}
	if (d->data->verbs)
		io_verbs_async_owner(d->data->verbs, d->epfd >= 0);
	return 0;
}

void ibrd_verbs_sync(struct ibrd *d)
{
	for (unsigned k = 0; d->data->verbs && io_verbs_port(d->data->verbs, k); k++)
		verbs_port_sync(d, io_verbs_port(d->data->verbs, k));
}

void ibrd_verbs_unwatch(struct ibrd *d)
{
	for (unsigned j = 0; j < d->data->nvev; j++)
		epoll_ctl(d->epfd, EPOLL_CTL_DEL, d->data->vev[j].fd, NULL);
	d->data->nvev = 0;
	memset(d->vdown, 0, sizeof(d->vdown));
}

static void verbs_on_event(void *ctx, struct io_verbs_port *vp, enum io_verbs_event ev)
{
	struct ibrd *d = ctx;
	uint32_t i = vp->cfg.router_port;
	const char *name = d->conf->port[i].name;
	struct sa_client *sa;

	if (ev == IO_VERBS_EV_OTHER)
		return; /* not about a port (CQ, QP errors: the data path's) */
	if (ev == IO_VERBS_EV_FATAL) {
		log_warnx("verbs: port %s: %s: fatal device error: its ports are down, the device "
			  "is let go of and opened again once it is back",
			  name, vp->cfg.device);
		d->data->verbs_check_ns = 0; /* ibrd_verbs_tick in this loop turn */
		verbs_port_sync(d, vp);
		return;
	}
	if (io_verbs_port_refresh(vp))
		log_warnx("verbs: port %s: %s:%u: cannot read the port", name, vp->cfg.device,
			  vp->cfg.port_num);
	switch (ev) {
	case IO_VERBS_EV_DOWN:
		log_warnx("verbs: port %s: %s:%u link down: its routes withdrawn", name,
			  vp->cfg.device, vp->cfg.port_num);
		break;
	case IO_VERBS_EV_UP:
		log_info("verbs: port %s: %s:%u active, LID 0x%04x", name, vp->cfg.device,
			 vp->cfg.port_num, vp->lid);
		break;
	case IO_VERBS_EV_LID:
		log_info("verbs: port %s: LID change: 0x%04x%s", name, vp->lid,
			 d->conf->port[i].rp.lid ? " (the config's LID stays)" : "");
		break;
	case IO_VERBS_EV_GID:
		verbs_gid_changed(d, vp);
		break;
	default:
		sa = d->sa[i];
		log_info("verbs: port %s: SM change%s", name,
			 sa ? ": the SA client resyncs" : " (no SA client)");
		if (sa)
			sa_client_resync(sa, "SM change");
		break;
	}
	verbs_port_sync(d, vp);
}

void ibrd_verbs_event(struct ibrd *d, struct ibrd_ev *ev)
{
	const struct ibrd_verbs_ev *e =
		(const struct ibrd_verbs_ev *)((char *)ev - offsetof(struct ibrd_verbs_ev, ev));
	struct io_verbs_port *vp = d->data->verbs ? io_verbs_port(d->data->verbs, e->k) : NULL;

	if (vp)
		io_verbs_async_poll(vp, verbs_on_event,
				    d); /* the ports it changed: ibrd_port_changed */
}

/* ---- devices lost and found again ---- */

/* The router ports on verbs device `k`, for the log: "a, b". */
static const char *verbs_dev_ports(struct ibrd *d, unsigned k, char *buf, size_t n)
{
	const char *dev = io_verbs_dev_name(d->data->verbs, k);
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned j = 0; io_verbs_port(d->data->verbs, j) && len < n; j++) {
		const struct io_verbs_port *vp = io_verbs_port(d->data->verbs, j);

		if (!strcmp(vp->cfg.device, dev))
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? ", " : "",
						d->conf->port[vp->cfg.router_port].name);
	}
	return buf;
}

/*
 * What io_verbs.h says of a device that goes: let go of it at once (rxe's
 * removal waits in the kernel until the router has closed it; a fatal error
 * has made it useless), its ports down like links that went down (routes
 * withdrawn, nothing forwarded to them), and opened again once a device of
 * its name is listed.  Both with the workers stopped and started again:
 * the whole data path pauses for as long as they take to stop (their 100 ms
 * epoll timeout at most).  Looked at once a second: one stat() a device.
 */
void ibrd_verbs_tick(struct ibrd *d, uint64_t now)
{
	uint32_t lose = 0, found = 0;
	char ports[ROUTER_MAX_PORTS * 40];
	unsigned n;
	bool running;
	int rc;

	if (!d->data->verbs || now < d->data->verbs_check_ns)
		return;
	d->data->verbs_check_ns = now + 1000000000ull;
	ibrd_verbs_refusals_tell(d, now);
	n = io_verbs_ndevs(d->data->verbs);
	for (unsigned k = 0; k < n; k++) {
		const char *why;

		if (io_verbs_dev_lost(d->data->verbs, k)) {
			if (io_verbs_dev_present(d->data->verbs, k))
				found |= 1u << k;
		} else if ((why = io_verbs_dev_check(d->data->verbs, k))) {
			log_warnx("verbs: device %s lost (%s): port %s down until it is back",
				  io_verbs_dev_name(d->data->verbs, k), why,
				  verbs_dev_ports(d, k, ports, sizeof(ports)));
			lose |= 1u << k;
		}
	}
	if (!lose && !found)
		return;
	running = d->data->running;
	if (running)
		ibrd_data_stop(d);
	ibrd_verbs_unwatch(d);
	for (unsigned k = 0; k < n; k++) {
		if (lose & (1u << k))
			io_verbs_dev_lose(d->data->verbs, k);
		if (!(found & (1u << k)))
			continue;
		if ((rc = io_verbs_dev_reopen(d->data->verbs, k)))
			log_warnx(
				"verbs: device %s is back but did not open: %s (again in a second)",
				io_verbs_dev_name(d->data->verbs, k), strerror(-rc));
		else
			log_info("verbs: device %s is back: port %s open again",
				 io_verbs_dev_name(d->data->verbs, k),
				 verbs_dev_ports(d, k, ports, sizeof(ports)));
	}
	if ((rc = ibrd_verbs_watch(d)))
		log_warnx("verbs: async events not watched: %s", strerror(-rc));
	if (running && (rc = ibrd_data_start(d)))
		log_warnx("verbs: the data path did not start again: %s", strerror(-rc));
}

/* ---- the verbs ports ---- */

/* The verbs ports still open at exit (stop() in ibrouterd.c knows only sim sockets). */
static struct io_verbs *verbs_live;

static void verbs_atexit(void)
{
	if (verbs_live)
		io_verbs_close(verbs_live);
	verbs_live = NULL;
}

/*
 * The verbs ports of the config, opened together: io_verbs registers every
 * port's buffers with every device, so any port can send from any other's.
 * Kept across reloads while the same devices serve the same port indexes
 * and proxies; their async events on the loop (ibrd_verbs_watch).
 */
int ibrd_verbs_open(struct ibrd *d)
{
	static bool atexit_set;
	struct io_verbs_port_cfg cfg[ROUTER_MAX_PORTS];
	char sig[sizeof(d->data->verbs_sig)] = "";
	unsigned n = 0, at[ROUTER_MAX_PORTS];
	size_t len = 0;

	memset(cfg, 0, sizeof(cfg));
	for (unsigned i = 0; i < d->conf->nports; i++) {
		const struct ibrd_conf_port *p = &d->conf->port[i];

		if (p->data != IBRD_DATA_VERBS)
			continue;
		snprintf(cfg[n].device, sizeof(cfg[n].device), "%s", p->device);
		cfg[n].port_num = p->device_port;
		cfg[n].router_port = (uint8_t)i;
		cfg[n].qkey = p->relay_qkey;
		cfg[n].rq_depth = p->rq_depth;
		cfg[n].sq_depth = p->sq_depth;
		len += (size_t)snprintf(sig + len, sizeof(sig) - len, "%u=%s:%u:%x:%u:%u ", i,
					p->device, p->device_port, p->relay_qkey, p->rq_depth,
					p->sq_depth);
		for (unsigned k = 0; k < d->data->nproxies; k++) {
			const struct ibrd_proxy *x = &d->data->proxy[k];
			struct io_verbs_proxy_cfg *c = &cfg[n].proxy[cfg[n].nproxy];

			if (x->port != i || cfg[n].nproxy == IO_VERBS_MAX_PROXY)
				continue;
			memcpy(c->gid, x->gid, 16);
			c->qpn = x->qpn;
			c->qkey = x->qkey;
			cfg[n].nproxy++;
			len += (size_t)snprintf(sig + len, sizeof(sig) - len, "p:");
			for (unsigned b = 0; b < 16; b++)
				len += (size_t)snprintf(sig + len, sizeof(sig) - len, "%02x",
							x->gid[b]);
			len += (size_t)snprintf(sig + len, sizeof(sig) - len, ":%x:%x ", x->qpn,
						x->qkey);
		}
		at[n++] = i;
	}
	if (d->data->verbs && !strcmp(sig, d->data->verbs_sig))
		return ibrd_verbs_watch(d); /* the same ports: their state into the new RIB */
	memset(d->data->vport, 0, sizeof(d->data->vport));
	ibrd_verbs_unwatch(d);
	if (d->data->verbs)
		io_verbs_close(d->data->verbs);
	d->data->verbs = verbs_live = NULL;
	d->data->verbs_sig[0] = '\0';
	if (!n)
		return ibrd_verbs_watch(d);
	if (!(d->data->verbs = io_verbs_open(cfg, n))) {
		int rc = -errno;

		log_warnx("router: verbs ports: %s", strerror(-rc));
		return rc;
	}
	verbs_live = d->data->verbs;
	if (!atexit_set)
		atexit(verbs_atexit);
	atexit_set = true;
	strcpy(d->data->verbs_sig, sig);
	for (unsigned k = 0; k < n; k++) {
		struct io_verbs_port *vp = io_verbs_port(d->data->verbs, k);
		char addr[2 * IBR_GID_STRLEN + 96];

		d->data->vport[at[k]] = &vp->io;
		/* a RoCE port has no LID: its GID is its address */
		if (vp->roce) {
			memcpy(addr, "GID ", 4);
			verbs_gid_str(vp, addr + 4, sizeof(addr) - 4);
		} else {
			snprintf(addr, sizeof(addr), "LID 0x%04x", vp->lid);
		}
		log_info("router: port %s: verbs %s:%u, %s, relay QPN 0x%06x Q_Key 0x%08x, %s",
			 d->conf->port[at[k]].name, vp->cfg.device, vp->cfg.port_num, addr, vp->qpn,
			 vp->q[0].qkey,
			 vp->lost ? "lost (no such device yet)"
			 : vp->up ? "active"
				  : "down");
	}
	return ibrd_verbs_watch(d);
}
