/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_proxy.c - the QPs of the verbs ports (ibrouterctl(8)), UD
 * unicast proxies first:
 *   proxy add PORT GID QPN [qkey Q]   a QP on PORT stands for (GID, QPN, Q)
 *   proxy del PORT GID QPN
 *   show proxies [PORT]               the QPNs senders on PORT must use
 *   show qps [PORT]                   every QP: relay, proxies, the Q_Key
 *                                     QPs of the groups (io_verbs_mcast.c)
 *   show verbs [PORT]                 each verbs port's HCA side: link
 *                                     layer, GID, posts per packet, the
 *                                     receive queue's low-water mark, errors
 * Proxies added here last until the daemon stops (a reload keeps them);
 * the config's proxy sections are the permanent ones (ibrd_proxy.c).  A
 * change reopens the verbs ports (io_verbs creates its QPs when it opens):
 * packets in flight on them are lost, multicast attachments come back with
 * the workers.
 */
#include "daemon/ibrd.h"
#include "daemon/cmd/ibrd_cmd.h"
#include "router/io/io_verbs.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int proxy_num(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || end == s || v > max)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* The QPN of the proxy QP for x, now that the verbs ports are open again; 0: none. */
static uint32_t proxy_qpn(struct ibrd *d, const struct ibrd_proxy *x)
{
	for (unsigned k = 0; d->data->verbs && io_verbs_port(d->data->verbs, k); k++) {
		const struct io_verbs_port *p = io_verbs_port(d->data->verbs, k);

		for (unsigned i = 1; p->cfg.router_port == x->port && i <= p->cfg.nproxy; i++)
			if (p->q[i].remote.qpn == x->qpn && !memcmp(p->q[i].remote.gid, x->gid, 16))
				return p->q[i].qpn;
	}
	return 0;
}

/* What a proxy add or del did, and for an add the QPN senders on the port now use. */
static int proxy_done(struct ibrd *d, struct ibrd_out *o, const struct ibrd_proxy *x, bool add)
{
	const char *port = d->rib.port[x->port].name;
	char gs[IBR_GID_STRLEN], qs[64] = "";
	union ibr_gid g;
	uint32_t qpn = add ? proxy_qpn(d, x) : 0;

	memcpy(g.raw, x->gid, 16);
	ibr_gid_ntop(&g, gs, sizeof(gs));
	if (qpn)
		snprintf(qs, sizeof(qs), ": senders on port %s address QPN 0x%06x", port, qpn);
	log_info("control: proxy %s on port %s for QPN 0x%06x at %s", add ? "added" : "removed",
		 port, x->qpn, gs);
	if (!add)
		return ibrd_cmd_done(o, "removed the proxy on port %s for QPN 0x%06x at %s", port,
				     x->qpn, gs);
	return ibrd_cmd_done(o, "added a proxy on port %s for QPN 0x%06x at %s, Q_Key 0x%08x%s",
			     port, x->qpn, gs, x->qkey, qs);
}

int ibrd_cmd_proxy(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	bool add = !strcmp(argv[1], "add");
	struct ibrd_proxy x = { .qkey = IO_VERBS_QKEY }, saved[IBRD_MAX_PROXIES];
	unsigned nsaved = d->data->nproxies;
	const char *why;
	union ibr_gid g;
	char esc[64];
	int port, at, rc;

	if ((add ? argc != 5 && argc != 7 : argc != 5) || proxy_num(argv[4], 0xFFFFFE, &x.qpn) ||
	    (argc == 7 && (strcmp(argv[5], "qkey") || proxy_num(argv[6], UINT32_MAX, &x.qkey))))
		return ibrd_out_usage(o, "usage: proxy %s",
				      add ? "add PORT GID QPN [qkey Q]" : "del PORT GID QPN");
	/* the GID as a proxy section's title is read (ibrouterd.conf(5)) */
	if (ibrd_conf_proxy_gid(argv[3], &g, &why))
		return ibrd_out_usage(o, "proxy %s: %s: %s", argv[1],
				      ibrd_out_escape(argv[3], esc, sizeof(esc)), why);
	if ((port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	if (d->conf->port[port].data != IBRD_DATA_VERBS)
		return ibrd_out_error(o, EINVAL, "port %s: proxies need data = verbs", argv[2]);
	x.port = (uint32_t)port;
	memcpy(x.gid, g.raw, 16);
	at = ibrd_proxy_find(d, x.port, x.gid, x.qpn);
	if (add && at >= 0)
		return ibrd_out_error(o, EEXIST, "proxy exists");
	if (!add && at < 0)
		return ibrd_out_error(o, ENOENT, "no such proxy");
	if (add && (d->data->nproxies == IBRD_MAX_PROXIES ||
		    ibrd_proxy_count(d, x.port) == IO_VERBS_MAX_PROXY))
		return ibrd_out_error(o, ENOSPC, "port %s: at most %u proxies", argv[2],
				      IO_VERBS_MAX_PROXY);
	memcpy(saved, d->data->proxy, sizeof(saved));
	if (add)
		d->data->proxy[d->data->nproxies++] = x;
	else
		d->data->proxy[at] = d->data->proxy[--d->data->nproxies];
	if ((rc = d->hooks->reload_data(d))) {
		/* back to the proxies that worked */
		memcpy(d->data->proxy, saved, sizeof(saved));
		d->data->nproxies = nsaved;
		d->hooks->reload_data(d);
		return ibrd_out_error(o, -rc, "proxy %s: %s", argv[1], strerror(-rc));
	}
	return proxy_done(d, o, &x, add);
}

/* "show WHAT [PORT]": the port's index, -1 for all, or -errno (answered). */
static int show_port_arg(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	int only = -1;

	if (argc > 3) {
		ibrd_out_usage(o, "usage: show %s [PORT]", argv[1]);
		return -EINVAL;
	}
	if (argc == 3 && (only = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	return only;
}

int ibrd_cmd_show_proxies(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "port", "qpn", "gid", "remote_qpn", "qkey" };
	int only = show_port_arg(d, o, argc, argv);

	if (only < -1)
		return only;
	ibrd_out_table(o, cols, 5);
	for (unsigned k = 0; d->data->verbs && io_verbs_port(d->data->verbs, k); k++) {
		const struct io_verbs_port *p = io_verbs_port(d->data->verbs, k);

		if (only >= 0 && p->cfg.router_port != only)
			continue;
		for (unsigned i = 1; i <= p->cfg.nproxy; i++) {
			char gs[IBR_GID_STRLEN], qs[12], rs[12], ks[12];
			union ibr_gid g;

			memcpy(g.raw, p->q[i].remote.gid, 16);
			snprintf(qs, sizeof(qs), "0x%06x", p->q[i].qpn);
			snprintf(rs, sizeof(rs), "0x%06x", p->q[i].remote.qpn);
			snprintf(ks, sizeof(ks), "0x%08x", p->q[i].remote.qkey);
			ibrd_out_str(o, d->conf->port[p->cfg.router_port].name);
			ibrd_out_str(o, qs);
			ibrd_out_str(o, ibr_gid_ntop(&g, gs, sizeof(gs)));
			ibrd_out_str(o, rs);
			ibrd_out_str(o, ks);
		}
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_show_qps(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "port", "qpn", "kind", "qkey", "groups" };
	static const char *const kinds[] = { "-", "relay", "proxy", "qkey", "closing" };
	int only = show_port_arg(d, o, argc, argv);

	if (only < -1)
		return only;
	ibrd_out_table(o, cols, 5);
	for (unsigned k = 0; d->data->verbs && io_verbs_port(d->data->verbs, k); k++) {
		struct io_verbs_port *p = io_verbs_port(d->data->verbs, k);
		struct io_verbs_qp_info qi[IO_VERBS_NQP];
		unsigned n;

		if (only >= 0 && p->cfg.router_port != only)
			continue;
		n = io_verbs_port_qps(p, qi, IO_VERBS_NQP);
		for (unsigned i = 0; i < n; i++) {
			char qs[12], ks[12];

			snprintf(qs, sizeof(qs), "0x%06x", qi[i].qpn);
			snprintf(ks, sizeof(ks), "0x%08x", qi[i].qkey);
			ibrd_out_str(o, d->conf->port[p->cfg.router_port].name);
			ibrd_out_str(o, qs);
			ibrd_out_str(o, kinds[qi[i].kind < 5 ? qi[i].kind : 0]);
			ibrd_out_str(o, ks);
			ibrd_out_u64(o, qi[i].groups);
		}
	}
	return ibrd_out_end(o);
}

/*
 * show verbs -o prometheus: each verbs port's state (1 active), receive
 * queue depth and low-water mark, posts a packet, and its counters, with
 * the labels port and device.
 */
static int verbs_prom(struct ibrd *d, struct ibrd_out *o, int only)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} m[] = {
#define C(f, h) { "ibrouter_verbs_" #f "_total", h, offsetof(struct io_verbs_stats, f) }
		C(rx, "Datagrams received."),
		C(tx_wrs, "Work requests sent."),
		C(tx_posts, "ibv_post_send calls."),
		C(rx_err, "Receive completions in error."),
		C(rx_bad_len, "Datagrams of a bad length."),
		C(tx_err, "Send completions in error."),
		C(tx_no_ah, "Copies without an address handle."),
		C(tx_down, "Copies for a port that was down."),
		C(qp_resets, "QP resets."),
		C(cq_err, "Completion queue overruns."),
		C(mc_ip_err, "IP multicast memberships the kernel refused."),
		C(tx_foreign, "Copies from a sim port that cannot be sent."),
		C(tx_bounced, "Copies from a sim port sent through a bounce buffer."),
		C(tx_bounce_full, "Copies from a sim port dropped: every bounce buffer in flight."),
		C(tx_unicast, "Unicast without a proxy."),
		C(tx_qkey, "A controlled Q_Key no QP of the port has."),
		C(mc_no_qp, "Groups not attached to a QP."),
#undef C
	};
	const struct io_verbs_port *p;

	ibrd_out_printf(
		o, "# HELP ibrouter_verbs_up 1 while the verbs port is active.\n"
		   "# TYPE ibrouter_verbs_up gauge\n"
		   "# HELP ibrouter_verbs_rq_depth The relay QP's receive queue depth.\n"
		   "# TYPE ibrouter_verbs_rq_depth gauge\n"
		   "# HELP ibrouter_verbs_sq_depth The relay QP's send queue depth.\n"
		   "# TYPE ibrouter_verbs_sq_depth gauge\n"
		   "# HELP ibrouter_verbs_rq_low The fewest receive buffers posted after a "
		   "poll (0: it ran dry).\n"
		   "# TYPE ibrouter_verbs_rq_low gauge\n"
		   "# HELP ibrouter_verbs_posts_per_packet ibv_post_send calls a work request.\n"
		   "# TYPE ibrouter_verbs_posts_per_packet gauge\n");
	for (unsigned k = 0; d->data->verbs && (p = io_verbs_port(d->data->verbs, k)); k++) {
		struct io_verbs_stats st;
		char lb[200];

		if (only >= 0 && p->cfg.router_port != only)
			continue;
		io_verbs_port_stats(p, &st);
		snprintf(lb, sizeof(lb), "port=\"%s\",device=\"%s:%u\"",
			 d->conf->port[p->cfg.router_port].name, p->cfg.device, p->cfg.port_num);
		ibrd_out_printf(o,
				"ibrouter_verbs_up{%s} %d\nibrouter_verbs_rq_depth{%s} %u\n"
				"ibrouter_verbs_sq_depth{%s} %u\nibrouter_verbs_rq_low{%s} %llu\n"
				"ibrouter_verbs_posts_per_packet{%s} %.4f\n",
				lb, p->up && !p->lost, lb, (unsigned)p->cfg.rq_depth, lb,
				(unsigned)p->cfg.sq_depth, lb, (unsigned long long)st.rq_low, lb,
				st.tx_wrs ? (double)st.tx_posts / (double)st.tx_wrs : 0.0);
	}
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		ibrd_out_printf(o, "# HELP %s %s\n# TYPE %s counter\n", m[i].name, m[i].help,
				m[i].name);
		for (unsigned k = 0; d->data->verbs && (p = io_verbs_port(d->data->verbs, k));
		     k++) {
			struct io_verbs_stats st;
			uint64_t v;

			if (only >= 0 && p->cfg.router_port != only)
				continue;
			io_verbs_port_stats(p, &st);
			memcpy(&v, (const uint8_t *)&st + m[i].off, sizeof(v));
			ibrd_out_printf(o, "%s{port=\"%s\",device=\"%s:%u\"} %llu\n", m[i].name,
					d->conf->port[p->cfg.router_port].name, p->cfg.device,
					p->cfg.port_num, (unsigned long long)v);
		}
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_show_verbs(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = {
		"port",		  "device",	"link",	       "state",	     "gid",
		"sgid_index",	  "mtu",	"rx",	       "tx_wrs",     "tx_posts",
		"posts_per_pkt",  "recv_posts", "rq_depth",    "rq_low",     "rx_err",
		"rx_bad_len",	  "tx_err",	"tx_no_ah",    "tx_down",    "qp_resets",
		"events",	  "cq_err",	"mc_ip_err",   "tx_foreign", "tx_bounced",
		"tx_bounce_full", "rx_no_grh",	"rx_own_sgid", "tx_unicast", "tx_qkey",
		"mc_no_qp",	  "numa",
	};
	int only = show_port_arg(d, o, argc, argv);

	_Static_assert(sizeof(cols) / sizeof(cols[0]) <= IBRD_OUT_COLS, "show verbs: too wide");
	if (only < -1)
		return only;
	if (o->fmt == IBRD_FMT_PROM)
		return verbs_prom(d, o, only);
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (unsigned k = 0; d->data->verbs && io_verbs_port(d->data->verbs, k); k++) {
		const struct io_verbs_port *p = io_verbs_port(d->data->verbs, k);
		struct io_verbs_stats stats, *st = &stats;
		char dev[80], gs[IBR_GID_STRLEN], ppp[24];
		union ibr_gid g;

		if (only >= 0 && p->cfg.router_port != only)
			continue;
		io_verbs_port_stats(p, &stats);
		memcpy(g.raw, p->gid, 16);
		snprintf(dev, sizeof(dev), "%s:%u", p->cfg.device, p->cfg.port_num);
		/* the batching's measure: ibv_post_send calls per work request sent */
		snprintf(ppp, sizeof(ppp), "%.4f",
			 st->tx_wrs ? (double)st->tx_posts / (double)st->tx_wrs : 0.0);
		ibrd_out_str(o, d->conf->port[p->cfg.router_port].name);
		ibrd_out_str(o, dev);
		ibrd_out_str(o, p->roce ? "ethernet" : "infiniband");
		/* lost: its device is gone (io_verbs.h), opened again when it is back */
		ibrd_out_str(o, p->lost ? "lost" : p->up ? "active" : "down");
		ibrd_out_str(o, ibr_gid_ntop(&g, gs, sizeof(gs)));
		ibrd_out_u64(o, p->sgid_index);
		ibrd_out_u64(o, p->mtu);
		ibrd_out_u64(o, st->rx);
		ibrd_out_u64(o, st->tx_wrs);
		ibrd_out_u64(o, st->tx_posts);
		ibrd_out_str(o, ppp);
		ibrd_out_u64(o, st->recv_posts);
		ibrd_out_u64(o, p->cfg.rq_depth);
		ibrd_out_u64(o, st->rq_low);
		ibrd_out_u64(o, st->rx_err);
		ibrd_out_u64(o, st->rx_bad_len);
		ibrd_out_u64(o, st->tx_err);
		ibrd_out_u64(o, st->tx_no_ah);
		ibrd_out_u64(o, st->tx_down);
		ibrd_out_u64(o, st->qp_resets);
		ibrd_out_u64(o, st->events);
		ibrd_out_u64(o, st->cq_err);
		ibrd_out_u64(o, st->mc_ip_err);
		ibrd_out_u64(o, st->tx_foreign);
		ibrd_out_u64(o, st->tx_bounced);
		ibrd_out_u64(o, st->tx_bounce_full);
		ibrd_out_u64(o, st->rx_no_grh);
		ibrd_out_u64(o, st->rx_own_sgid);
		ibrd_out_u64(o, st->tx_unicast);
		ibrd_out_u64(o, st->tx_qkey);
		ibrd_out_u64(o, st->mc_no_qp);
		if (p->numa >= 0)
			ibrd_out_u64(o, (uint64_t)p->numa);
		else
			ibrd_out_str(o, "-");
	}
	return ibrd_out_end(o);
}
