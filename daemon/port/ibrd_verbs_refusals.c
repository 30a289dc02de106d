/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_verbs_refusals.c - the packets a verbs port refused, said: the workers
 * only count them (io_verbs_stats: a log line from the data path would
 * cost every packet of a flood), so the control thread looks at the
 * counters once a second (ibrd_verbs_tick) and logs, at most every 10 s a
 * port, what grew since its last line, by counter.  Not counted as
 * refusals: rx_no_grh (local traffic, nothing to route) and rx_own_sgid
 * (the router's own multicast looped back by the device), which are the
 * port working as it should, and tx_down (the port's state change is said).
 */
#include "daemon/port/ibrd_port.h"
#include "router/io/io_verbs.h"

#include "lib/ibr_log.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define WATCH_EVERY_NS (10 * 1000000000ull)

/* Each refusal counter: its name in show verbs, its place, and why in a few words. */
static const struct {
	const char *name, *why;
	size_t off;
} watch_ctr[IBRD_VERBS_REFUSALS] = {
#define W(f, why)                                           \
	{                                                   \
#f, why, offsetof(struct io_verbs_stats, f) \
	}
	W(rx_err, "receive completions in error"),
	W(rx_bad_len, "datagrams too short or too long"),
	W(tx_err, "send completions in error"),
	W(tx_no_ah, "no address handle"),
	W(tx_unicast, "unicast without a proxy"),
	W(tx_qkey, "a controlled Q_Key no QP of the port has"),
	W(mc_no_qp, "groups not attached"),
	W(cq_err, "completion queue overruns"),
	W(tx_foreign, "from another backend, not a UD SEND"),
	W(tx_bounce_full, "every bounce buffer in flight"),
#undef W
};

static uint64_t watch_get(const struct io_verbs_stats *st, unsigned i)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)st + watch_ctr[i].off, sizeof(v));
	return v;
}

size_t ibrd_verbs_refusals(const struct io_verbs_stats *st, uint64_t last[IBRD_VERBS_REFUSALS],
			   char *buf, size_t len)
{
	size_t at = 0;
	uint64_t total = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < IBRD_VERBS_REFUSALS; i++) {
		uint64_t v = watch_get(st, i);
		/* a port opened again counts from 0: its counters are new */
		uint64_t grew = v >= last[i] ? v - last[i] : v;

		last[i] = v;
		if (!grew)
			continue;
		total += grew;
		at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s %llu (%s)",
				       at ? ", " : "", watch_ctr[i].name, (unsigned long long)grew,
				       watch_ctr[i].why);
	}
	return (size_t)total;
}

void ibrd_verbs_refusals_tell(struct ibrd *d, uint64_t now)
{
	struct ibrd_datapath *x = d->data;

	for (unsigned k = 0; x->verbs && io_verbs_port(x->verbs, k); k++) {
		const struct io_verbs_port *p = io_verbs_port(x->verbs, k);
		uint32_t rp = p->cfg.router_port;
		struct io_verbs_stats st;
		char line[1024];
		size_t n;

		if (rp >= ROUTER_MAX_PORTS || rp >= d->conf->nports ||
		    now - x->refusals_ns[rp] < WATCH_EVERY_NS)
			continue;
		io_verbs_port_stats(p, &st);
		if (!(n = ibrd_verbs_refusals(&st, x->refusals[rp], line, sizeof(line))))
			continue;
		x->refusals_ns[rp] = now;
		log_warnx("verbs: port %s: %zu packet%s refused since the last report: %s "
			  "(ibrouterctl show verbs)",
			  d->conf->port[rp].name, n, n == 1 ? "" : "s", line);
	}
}
