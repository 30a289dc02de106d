/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_rec.c - the routers' route announcements as the plugin finds them in
 * its OpenSM's SA (ibrouter-osm(8), RECORDS): the ServiceRecords that each
 * router port registers with learning { announce-routes }
 * (ibrouterd.conf(5); sa/sa_announce.c writes them), copied out of
 * OpenSM's list, judged by the trust rule, and turned into prefix-route
 * candidates -- so that an OpenSM that no daemon's socket reaches (on
 * another host) still answers PathRecords through the routers of its subnet.
 *
 * The set of one port is whole when its records 0 .. total-1 are there, all
 * of one generation (the announcer replaces them one Set at a time: between
 * two, the previous whole set stands).  A port lives while its records are
 * in the SA's list and their lease has not ended (OpenSM 3.3.23
 * osm_sa_service_record.c: osm_sr_rcv_lease_cb() removes a record whose
 * lease ran out, at least every 20 seconds; modified_time + lease_period is
 * when, and the copy skips it from then on) and while its refresh count
 * (ServiceData32[1], raised by every Set of the set, each third of the
 * lease) moves: a count that stood still for two thirds of the lease and a
 * read is a dead announcer whose records the SA still holds, as
 * ibrouterd's peer-routes judges it.
 *
 * No OpenSM function is called: the unit tests run this as it is, over
 * lists they build.
 */
#include "plugins/posm.h"

#include <complib/cl_types.h>
#include <complib/cl_byteswap.h>
#include <complib/cl_qlist.h>
#include <iba/ib_types.h>
#include <opensm/osm_service.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REC_NS 1000000000ull

static const char *const rec_why_name[] = {
	[POSM_REC_OK] = "trusted",
	[POSM_REC_OFF] = "no routers= option: records are not trusted",
	[POSM_REC_NOT_LISTED] = "not a router port of option routers=",
	[POSM_REC_KEY] = "its ServiceKey is not the one of option srkey=",
	[POSM_REC_SUBNET] = "its ServiceGID is not of this subnet",
	[POSM_REC_NOT_SERVED] = "not a router port this plugin serves (option ports=)",
	[POSM_REC_FORMAT] = "not records of version 1 with a lease",
};

const char *posm_rec_why_name(enum posm_rec_why why)
{
	if ((unsigned)why >= sizeof(rec_why_name) / sizeof(rec_why_name[0]))
		return "unknown reason";
	return rec_why_name[why];
}

static bool rec_in(const uint64_t *v, unsigned n, uint64_t guid)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i] == guid)
			return true;
	return false;
}

enum posm_rec_why posm_rec_trust(const struct posm_opts *o, uint64_t subnet_prefix,
				 const struct posm_rec *r)
{
	if (!o->nrouters && !o->routers_any)
		return POSM_REC_OFF;
	if (r->prefix != subnet_prefix)
		return POSM_REC_SUBNET;
	if (!o->routers_any && !rec_in(o->routers, o->nrouters, r->guid))
		return POSM_REC_NOT_LISTED;
	if (o->nserve && !rec_in(o->serve, o->nserve, r->guid))
		return POSM_REC_NOT_SERVED;
	if (o->srkey_set && memcmp(r->key, o->srkey, sizeof(r->key)))
		return POSM_REC_KEY;
	return POSM_REC_OK;
}

bool posm_rec_trust_port(const struct posm_opts *o, uint64_t guid, const struct posm_route *own,
			 size_t nown)
{
	if (!guid)
		return false;
	if (o->routers_any || rec_in(o->routers, o->nrouters, guid))
		return true;
	for (size_t i = 0; i < nown; i++)
		if (own[i].guid == guid)
			return true;
	return false;
}

/* ---- the copy out of OpenSM's list (its lock held by the caller) ---- */

static bool rec_is_ours(const ib_service_record_t *sr)
{
	return (cl_ntoh64(sr->service_id) & POSM_REC_ID_MASK) == POSM_REC_ID &&
	       !strncmp((const char *)sr->service_name, POSM_REC_NAME, sizeof(sr->service_name));
}

static void rec_get(const ib_service_record_t *sr, struct posm_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->prefix = cl_ntoh64(sr->service_gid.unicast.prefix);
	r->guid = cl_ntoh64(sr->service_gid.unicast.interface_id);
	r->index = (uint16_t)cl_ntoh64(sr->service_id);
	r->index16 = cl_ntoh16(sr->service_data16[0]);
	r->total = cl_ntoh16(sr->service_data16[1]);
	r->version = sr->service_data8[0];
	r->n = sr->service_data8[1];
	r->plen[0] = sr->service_data8[2];
	r->plen[1] = sr->service_data8[3];
	r->metric[0] = sr->service_data8[4];
	r->metric[1] = sr->service_data8[5];
	r->gen = cl_ntoh32(sr->service_data32[0]);
	r->beat = cl_ntoh32(sr->service_data32[1]);
	r->pfx[0] = cl_ntoh64(sr->service_data64[0]);
	r->pfx[1] = (uint64_t)cl_ntoh32(sr->service_data32[2]) << 32 |
		    cl_ntoh32(sr->service_data32[3]);
	r->lease = cl_ntoh32(sr->service_lease);
	memcpy(r->key, sr->service_key, sizeof(r->key));
}

/* Still in its lease (osm_sr_rcv_lease_cb() keeps modified_time + lease_period the end of it). */
static bool rec_alive(const osm_svcr_t *s, uint32_t now_s)
{
	return s->service_record.service_lease == 0xFFFFFFFF ||
	       (uint64_t)s->modified_time + s->lease_period > now_s;
}

int posm_rec_collect(const void *list, uint32_t now_s, struct posm_rec **out, size_t *n, bool *more)
{
	const cl_qlist_t *l = list;
	const cl_list_item_t *i;
	size_t count = 0, k = 0;

	*out = NULL;
	*n = 0;
	*more = false;
	for (i = cl_qlist_head(l); i != cl_qlist_end(l); i = cl_qlist_next(i)) {
		const osm_svcr_t *s = (const osm_svcr_t *)i;

		count += rec_is_ours(&s->service_record) && rec_alive(s, now_s);
	}
	if (!count)
		return 0;
	if (count > POSM_REC_MAX) {
		*more = true;
		count = POSM_REC_MAX;
	}
	if (!(*out = malloc(count * sizeof(**out))))
		return -ENOMEM;
	for (i = cl_qlist_head(l); i != cl_qlist_end(l) && k < count; i = cl_qlist_next(i)) {
		const osm_svcr_t *s = (const osm_svcr_t *)i;

		if (rec_is_ours(&s->service_record) && rec_alive(s, now_s))
			rec_get(&s->service_record, &(*out)[k++]);
	}
	*n = k;
	return 0;
}

/* ---- one read: the ports' sets, their life, the candidates ---- */

static int rec_cmp(const void *a, const void *b)
{
	const struct posm_rec *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void rec_say(void (*say)(void *, int, const char *), void *ctx, int level, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

static void rec_say(void (*say)(void *, int, const char *), void *ctx, int level, const char *fmt,
		    ...)
{
	char msg[256];
	va_list ap;

	if (!say)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say(ctx, level, msg);
}

struct rec_read {
	struct posm_recs *s;
	const struct posm_opts *o;
	uint64_t subnet_prefix, now_ns;
	unsigned period_s;
	void (*say)(void *ctx, int level, const char *msg);
	void *ctx;
};

/* A refusal: counted, and logged once per port (then at verbose 2). */
static void rec_refuse(struct rec_read *rd, uint64_t guid, enum posm_rec_why why, size_t nrecs)
{
	struct posm_recs *s = rd->s;
	bool logged = rec_in(s->logged, s->nlogged, guid);

	s->refused_now += (uint32_t)nrecs;
	if (logged)
		return;
	if (s->nlogged < POSM_REC_LOGGED)
		s->logged[s->nlogged++] = guid;
	s->refused_ports++;
	rec_say(rd->say, rd->ctx, s->nlogged < POSM_REC_LOGGED ? 1 : 2,
		"ServiceRecords %s registered under port 0x%016llx refused: %s%s", POSM_REC_NAME,
		(unsigned long long)guid, posm_rec_why_name(why),
		s->nlogged == POSM_REC_LOGGED ? " (further ports at verbose=2)" : "");
}

static struct posm_rec_port *rec_port(struct posm_recs *s, uint64_t guid)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].guid == guid)
			return &s->v[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct posm_rec_port *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	memset(&s->v[s->n], 0, sizeof(s->v[0]));
	s->v[s->n].guid = guid;
	return &s->v[s->n++];
}

/* A record that keeps the format (version 1, a lease, one or two prefixes of /0../64). */
static bool rec_format(const struct posm_rec *r)
{
	if (r->version != POSM_REC_VERSION || !r->lease || r->lease == 0xFFFFFFFF ||
	    r->index != r->index16 || !r->total || r->total > POSM_REC_SETS || r->n < 1 || r->n > 2)
		return false;
	for (unsigned i = 0; i < r->n; i++)
		if (r->plen[i] > 64)
			return false;
	return true;
}

/*
 * The prefixes of a whole set (records v[0..n) of one port, trusted, by
 * index), into *ads; -EAGAIN when the set is not whole (being replaced),
 * -EINVAL when it breaks the format, -ENOMEM.
 */
static int rec_set(struct rec_read *rd, const struct posm_rec *v, size_t n, struct posm_route **ads,
		   size_t *nads)
{
	const struct posm_rec *r0 = &v[0];
	size_t have = 0, k = 0;

	*ads = NULL;
	*nads = 0;
	for (size_t i = 0; i < n; i++)
		if (!rec_format(&v[i]))
			return -EINVAL;
	if (r0->index != 0)
		return -EAGAIN;
	for (size_t i = 0; i < n && v[i].index < r0->total; i++) {
		if (v[i].gen != r0->gen || v[i].total != r0->total || v[i].index != have)
			return v[i].index < have ? -EINVAL : -EAGAIN; /* twice, or a gap */
		have++;
	}
	if (have != r0->total)
		return -EAGAIN;
	if (!(*ads = calloc(have * 2, sizeof(**ads))))
		return -ENOMEM;
	for (size_t i = 0; i < have; i++)
		for (unsigned j = 0; j < v[i].n; j++) {
			struct posm_route a = { .guid = v[i].guid };

			if (v[i].metric[j] >= POSM_REC_INF)
				continue; /* unreachable */
			/* the announcer adds its own hop: the daemons' routes count without it */
			a.metric = v[i].metric[j] ? v[i].metric[j] - 1u : 0;
			if (v[i].plen[j] == 0) {
				a.any = true;
			} else if (v[i].plen[j] == 64 && v[i].pfx[j] &&
				   v[i].pfx[j] != rd->subnet_prefix) {
				a.prefix = v[i].pfx[j];
			} else {
				continue; /* OpenSM matches /64 and "*" only; never our own prefix */
			}
			(*ads)[k++] = a;
		}
	*nads = k;
	return 0;
}

static bool rec_ads_same(const struct posm_route *a, size_t na, const struct posm_route *b,
			 size_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na * sizeof(*a)));
}

/* The refresh count of record 0: a count that stopped is a dead announcer. */
static void rec_beat(struct rec_read *rd, struct posm_rec_port *ps, const struct posm_rec *r0)
{
	uint64_t deadline;

	if (!ps->beat_ns || r0->beat != ps->beat) {
		if (ps->expired)
			rec_say(rd->say, rd->ctx, 1,
				"router port 0x%016llx: its records are refreshed again: its "
				"prefixes are back",
				(unsigned long long)ps->guid);
		ps->beat = r0->beat;
		ps->beat_ns = rd->now_ns ? rd->now_ns : 1;
		ps->expired = false;
		return;
	}
	/* an announcer Sets each third of the lease: one lost Set is no death */
	deadline = ((uint64_t)ps->lease * 2 / 3 + rd->period_s + 1) * REC_NS;
	if (!ps->expired && rd->now_ns - ps->beat_ns >= deadline) {
		ps->expired = true;
		rd->s->expired++;
		rec_say(rd->say, rd->ctx, 1,
			"router port 0x%016llx: its records were not refreshed for %llu s "
			"(lease %u s): its router is taken as dead, its prefixes withdrawn",
			(unsigned long long)ps->guid,
			(unsigned long long)((rd->now_ns - ps->beat_ns) / REC_NS), ps->lease);
	}
}

/* The trusted records v[0..n) of one port (by index). */
static void rec_port_read(struct rec_read *rd, const struct posm_rec *v, size_t n)
{
	struct posm_rec_port *ps = rec_port(rd->s, v[0].guid);
	struct posm_route *ads;
	size_t nads;
	int rc;

	if (!ps)
		return; /* out of memory: the port is forgotten, and read again next time */
	ps->seen = true;
	rc = rec_set(rd, v, n, &ads, &nads);
	if (rc == -EINVAL) {
		rec_refuse(rd, v[0].guid, POSM_REC_FORMAT, n);
		ps->seen = false; /* not taken, nor what it had: forgotten */
		return;
	}
	if (rc == 0) {
		ps->lease = v[0].lease;
		if (!ps->whole || !rec_ads_same(ads, nads, ps->ads, ps->n))
			rec_say(rd->say, rd->ctx, ps->whole ? 2 : 1,
				"router port 0x%016llx announces %zu prefix%s in its records "
				"(generation %u)",
				(unsigned long long)ps->guid, nads, nads == 1 ? "" : "es",
				v[0].gen);
		free(ps->ads);
		ps->ads = ads;
		ps->n = nads;
		ps->whole = true;
	}
	if (v[0].index == 0 && (rc == 0 || ps->whole))
		rec_beat(rd, ps, &v[0]);
	if (rc == 0)
		ps->gen = v[0].gen;
}

/* Ports not seen in this read are gone; the candidates from those that live. */
static bool rec_rebuild(struct rec_read *rd)
{
	struct posm_recs *s = rd->s;
	struct posm_route *v = NULL;
	size_t n = 0, k = 0;

	for (size_t i = 0; i < s->n;) {
		struct posm_rec_port *ps = &s->v[i];

		if (ps->seen) {
			ps->seen = false;
			n += ps->expired ? 0 : ps->n;
			i++;
			continue;
		}
		if (ps->whole)
			rec_say(rd->say, rd->ctx, 1,
				"router port 0x%016llx: its records are gone (deleted, or their "
				"lease ended): its prefixes withdrawn",
				(unsigned long long)ps->guid);
		free(ps->ads);
		s->v[i] = s->v[--s->n];
	}
	if (n && !(v = malloc(n * sizeof(*v)))) {
		rec_say(rd->say, rd->ctx, 0, "out of memory reading the records: keeping the old");
		return false;
	}
	for (size_t i = 0; i < s->n; i++)
		if (!s->v[i].expired && s->v[i].n) {
			memcpy(v + k, s->v[i].ads, s->v[i].n * sizeof(*v));
			k += s->v[i].n;
		}
	if (rec_ads_same(v, k, s->routes, s->nroutes)) {
		free(v);
		return false;
	}
	free(s->routes);
	s->routes = v;
	s->nroutes = k;
	return true;
}

bool posm_rec_update(struct posm_recs *s, const struct posm_opts *o, uint64_t subnet_prefix,
		     struct posm_rec *v, size_t n, uint64_t now_ns, unsigned period_s,
		     void (*say)(void *ctx, int level, const char *msg), void *ctx)
{
	struct rec_read rd = { s, o, subnet_prefix, now_ns, period_s, say, ctx };
	struct posm_rec *keep = n ? malloc(n * sizeof(*keep)) : NULL;

	if (n && !keep) {
		rec_say(say, ctx, 0, "out of memory reading the records: keeping the old");
		return false;
	}
	s->reads++;
	s->refused_now = 0;
	if (n)
		qsort(v, n, sizeof(*v), rec_cmp);
	for (size_t i = 0, j; i < n; i = j) {
		size_t k = 0;

		for (j = i; j < n && v[j].guid == v[i].guid; j++) {
			enum posm_rec_why why = posm_rec_trust(o, subnet_prefix, &v[j]);

			if (why == POSM_REC_OK)
				keep[k++] = v[j];
			else if (why != POSM_REC_OFF)
				rec_refuse(&rd, v[j].guid, why, 1);
		}
		if (k)
			rec_port_read(&rd, keep, k);
	}
	free(keep);
	return rec_rebuild(&rd);
}

void posm_rec_free(struct posm_recs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].ads);
	free(s->v);
	free(s->routes);
	memset(s, 0, sizeof(*s));
}

/* ---- the daemons' routes first, the records for the routers not connected ---- */

static int rec_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t posm_rec_merge(const struct posm_route *sock, size_t nsock, const struct posm_route *rec,
		      size_t nrec, struct posm_route **out)
{
	uint64_t *conn = nsock ? malloc(nsock * sizeof(*conn)) : NULL;
	size_t nconn = 0, n = 0;

	*out = NULL;
	if ((nsock && !conn) ||
	    (nsock + nrec && !(*out = malloc((nsock + nrec) * sizeof(**out))))) {
		free(conn);
		return SIZE_MAX;
	}
	for (size_t i = 0; i < nsock; i++) {
		(*out)[n++] = sock[i];
		if (!sock[i].held)
			conn[nconn++] = sock[i].guid;
	}
	if (nconn)
		qsort(conn, nconn, sizeof(*conn), rec_u64_cmp);
	for (size_t i = 0; i < nrec; i++) {
		/* a connected daemon speaks for its ports: their records are its past */
		if (nconn && bsearch(&rec[i].guid, conn, nconn, sizeof(*conn), rec_u64_cmp))
			continue;
		(*out)[n] = rec[i];
		(*out)[n++].held = false;
	}
	free(conn);
	if (!n) {
		free(*out);
		*out = NULL;
	}
	return n;
}
