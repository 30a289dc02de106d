/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_announce.c - what each port's SA client announces to the other
 * routers of its subnet (learning { announce-routes }, ibrouterd.conf(5);
 * the records: sa_client.h): the prefixes this router reaches through its
 * other ports, as it would give them to that subnet's OpenSM
 * (router_export_kind: nothing learned through the port itself -- split
 * horizon -- nor its own prefix, nor what it drops there), each with its
 * metric plus one hop.  Handed over when the tables, the setting or the
 * client changed; the SA client registers, refreshes and withdraws them.
 */
#include "daemon/learn/ibrd_learn.h"

#include "lib/ibr_log.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A metric of 16 is unreachable (a distance vector's infinity, as RIP's). */
#define AD_METRIC_MAX 15

/* Port p's announcement into *v (grown as needed): the count, or SIZE_MAX on ENOMEM. */
static size_t ad_collect(const struct ibrd *d, uint32_t p, struct sa_route_ad **v, size_t *cap)
{
	const struct router_route *r;
	uint32_t pos = 0;
	size_t n = 0;

	while ((r = router_tab_next(&d->rib.routes, &pos))) {
		enum router_export_kind k = router_export_kind(&d->rib, p, r);

		if ((k != ROUTER_EXPORT_LINE && k != ROUTER_EXPORT_ANY &&
		     k != ROUTER_EXPORT_AGGREGATE) ||
		    r->metric >= AD_METRIC_MAX)
			continue;
		if (n == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			struct sa_route_ad *nv = realloc(*v, nc * sizeof(*nv));

			if (!nv)
				return SIZE_MAX;
			*v = nv, *cap = nc;
		}
		(*v)[n++] = (struct sa_route_ad){ .prefix = r->key.prefix,
						  .plen = r->key.plen,
						  .metric = (uint8_t)(r->metric + 1) };
	}
	return n;
}

struct ibrd_announce *ibrd_announce_new(void)
{
	return calloc(1, sizeof(struct ibrd_announce));
}

/*
 * An announcement is the port's whole set, made from the whole RIB: when
 * only the tables moved (the setting and the clients as they were), every
 * port's at their pace (ibrd_pace), a burst of changes in one set.
 */
void ibrd_announce_sync(struct ibrd *d)
{
	bool on = d->conf && d->conf->announce_routes;
	unsigned lease = d->conf ? d->conf->announce_lease : 0;
	bool same = d->rib.generation == d->ad->gen && on == d->ad->on && lease == d->ad->lease;
	bool moved = !same && on && on == d->ad->on && lease == d->ad->lease, any = false;
	struct sa_route_ad *v = NULL;
	uint64_t t0 = ibr_now_ns();
	size_t cap = 0;

	for (uint32_t p = 0; p < d->rib.nports && p < ROUTER_MAX_PORTS; p++) {
		moved &= d->sa[p] == d->ad->sa[p];
		any |= d->sa[p] != NULL;
	}
	if ((d->ad->wait = moved && any && !ibrd_pace_due(&d->ad->pace, t0)))
		return;

	for (uint32_t p = 0; p < d->rib.nports && p < ROUTER_MAX_PORTS; p++) {
		struct sa_client *sa = d->sa[p];
		size_t n = 0;
		int rc;

		if (!sa || (same && sa == d->ad->sa[p]) || (!on && sa != d->ad->sa[p])) {
			/* nothing new, or a new client that has announced nothing to withdraw */
			d->ad->sa[p] = sa;
			continue;
		}
		if (on && (n = ad_collect(d, p, &v, &cap)) == SIZE_MAX) {
			log_warnx("sa: %s: route announcements: out of memory",
				  d->rib.port[p].name);
			continue; /* tried again at the next change */
		}
		if (n > 2 * SA_AD_MAX_RECS) {
			log_warnx("sa: %s: %zu prefixes to announce, the first %u only",
				  d->rib.port[p].name, n, 2 * SA_AD_MAX_RECS);
			n = 2 * SA_AD_MAX_RECS;
		}
		rc = sa_client_announce(sa, v, n, lease ? lease : 60);
		if (rc)
			log_warnx("sa: %s: route announcements refused: %s", d->rib.port[p].name,
				  strerror(-rc));
		else if (n != d->ad->n[p] || sa != d->ad->sa[p])
			log_info("sa: %s: announcing %zu prefixes to the subnet's routers",
				 d->rib.port[p].name, n);
		d->ad->n[p] = n;
		d->ad->sa[p] = sa;
	}
	free(v);
	d->ad->gen = d->rib.generation;
	d->ad->on = on;
	d->ad->lease = lease;
	if (moved && any)
		ibrd_pace_done(&d->ad->pace, t0, ibr_now_ns());
}

uint64_t ibrd_announce_deadline(const struct ibrd *d)
{
	return d->ad && d->ad->wait ? d->ad->pace.next_ns : UINT64_MAX;
}
