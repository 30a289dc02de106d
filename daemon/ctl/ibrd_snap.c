/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibrd_snap.c - shared, immutable copies of RIB tables for streamed answers (ibrd_snap.h). */
#include "daemon/ctl/ibrd_snap.h"
#include "daemon/ctl/ibrd_client.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct router_tab *snap_tab(const struct router_rib *rib, enum ibrd_snap_kind kind)
{
	return kind == IBRD_SNAP_ROUTES	  ? &rib->routes
	       : kind == IBRD_SNAP_NEIGHS ? &rib->neighs
					  : &rib->mcasts;
}

static bool snap_fresh(const struct ibrd_snap *s, const struct router_rib *rib)
{
	if (s->stamp != snap_tab(rib, s->kind)->stamp || s->nports != rib->nports)
		return false;
	for (uint32_t i = 0; i < rib->nports; i++)
		if (strncmp(s->port[i], rib->port[i].name, ROUTER_PORT_NAME))
			return false;
	return true;
}

static void snap_free(struct ibrd *d, struct ibrd_snap *s)
{
	if (d->ctl) {
		if (d->ctl->snap[s->kind] == s)
			d->ctl->snap[s->kind] = NULL;
		ibrd_ctl_release(d, s->bytes);
	}
	free(s);
}

/*
 * One allocation: the header, the records, then (routes) the side store of
 * their other next hops (the RIB's as it is: the records' slots stay
 * valid) and the best flags.
 */
static struct ibrd_snap *snap_take(struct ibrd *d, enum ibrd_snap_kind kind, int *err)
{
	const struct router_tab *t = snap_tab(&d->rib, kind);
	size_t more = kind == IBRD_SNAP_ROUTES ? d->rib.nmore * sizeof(struct router_nh_more) : 0;
	size_t bytes = sizeof(struct ibrd_snap) + (size_t)t->count * t->recsz + more +
		       (kind == IBRD_SNAP_ROUTES ? t->count : 0);
	struct ibrd_snap *s;
	const uint8_t *rec;
	uint32_t pos = 0;

	if (d->ctl && (*err = ibrd_ctl_hold(d, bytes)))
		return NULL;
	if (!(s = calloc(1, bytes))) {
		if (d->ctl)
			ibrd_ctl_release(d, bytes);
		*err = -ENOMEM;
		return NULL;
	}
	s->kind = kind;
	s->refs = 1;
	s->stamp = t->stamp;
	s->bytes = bytes;
	s->recsz = t->recsz;
	s->recs = (uint8_t *)(s + 1);
	s->more = (struct router_nh_more *)(s->recs + (size_t)t->count * t->recsz);
	if (more)
		memcpy(s->more, d->rib.more, more);
	s->best = (uint8_t *)s->more + more;
	s->nports = d->rib.nports;
	for (uint32_t i = 0; i < d->rib.nports; i++)
		memcpy(s->port[i], d->rib.port[i].name, ROUTER_PORT_NAME);
	while (s->n < t->count && (rec = router_tab_next(t, &pos))) {
		memcpy(s->recs + (size_t)s->n * s->recsz, rec, s->recsz);
		if (kind == IBRD_SNAP_ROUTES) {
			const struct router_route *r = (const void *)rec;

			s->best[s->n] = router_rib_best_source(&d->rib, r->key.prefix,
							       r->key.plen) == r->key.source;
		}
		s->n++;
	}
	return s;
}

struct ibrd_snap *ibrd_snap_get(struct ibrd *d, enum ibrd_snap_kind kind, int *err)
{
	struct ibrd_snap *s = d->ctl ? d->ctl->snap[kind] : NULL;

	*err = 0;
	if (s && snap_fresh(s, &d->rib)) {
		s->refs++;
		return s;
	}
	if (!(s = snap_take(d, kind, err)))
		return NULL;
	if (d->ctl)
		d->ctl->snap[kind] = s; /* a stale one lives on for its readers */
	return s;
}

void ibrd_snap_put(struct ibrd *d, struct ibrd_snap *s)
{
	if (s && !--s->refs)
		snap_free(d, s);
}

const char *ibrd_snap_port(const struct ibrd_snap *s, uint32_t idx)
{
	return idx < s->nports ? s->port[idx] : "?";
}
