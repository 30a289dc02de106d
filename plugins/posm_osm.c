/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_osm.c - what the plugin changes inside OpenSM: the prefix routes
 * (posm_route.c does the list surgery), and, when it must, a heavy sweep.
 *
 * When the list may be edited (OpenSM 3.3.23, opensm/osm_state_mgr.c and
 * osm_subnet.c): OpenSM re-reads prefix_routes_file -- emptying the list
 * and filling it again, without taking its lock -- in do_sweep() on the
 * sweeper thread, before and at the start of every heavy sweep, when it was
 * started with a config file (osm_subn_opt_t.config_file set; otherwise it
 * never touches the list).  So:
 *  - without a config file, the plugin's thread edits the list at once,
 *    holding OpenSM's lock for writing (the SA reads the list under it);
 *  - with one, only the sweeper thread may edit it: the plugin re-applies
 *    its routes from report() on HEAVY_SWEEP_START (a sweep forced by
 *    SIGHUP or a trap re-read the file just before it), HEAVY_SWEEP_DONE
 *    and SUBNET_UP (after every re-read of the sweep); when the router's
 *    routes change it
 *    asks OpenSM for a heavy sweep, as an administrator's SIGHUP would, at
 *    most once every resweep_s seconds (option resweep=0: never; the change
 *    then waits for OpenSM's next heavy sweep).
 * The table of routers (rtr_guid_tbl: the CA ports that routes name,
 * posm_rtr.c) is kept in the same calls, under the same lock; OpenSM never
 * touches it without its lock, so it needs no more.
 * When OpenSM decides on a heavy sweep only during a light one, it re-reads
 * the file after HEAVY_SWEEP_START: until HEAVY_SWEEP_DONE only the file's
 * lines are in the list, and PathRecords to the router's prefixes fail for
 * that long (ibrouter-osm(8), LIMITS).
 */
#include "plugins/posm_osm.h"

#include <opensm/osm_sm.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* find_router() answers only with a port in rtr_guid_tbl: an unknown one would fail PathRecords. */
static bool osm_router_present(void *ctx, uint64_t guid)
{
	struct posm *p = ctx;
	const cl_qmap_t *t = &p->osm->subn.rtr_guid_tbl;

	return cl_qmap_get(t, cl_hton64(guid)) != cl_qmap_end(t);
}

static int osm_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The router ports the wanted routes name, sorted, each once (NULL with *n 0: none). */
static uint64_t *osm_named(const struct posm_route *want, size_t nwant, size_t *n)
{
	uint64_t *v = nwant ? malloc(nwant * sizeof(*v)) : NULL;
	size_t k = 0;

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < nwant; i++)
		v[i] = want[i].guid;
	qsort(v, nwant, sizeof(*v), osm_u64_cmp);
	for (size_t i = 0; i < nwant; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*n = k;
	return v;
}

/* What a sync of the table of routers did (OpenSM's lock held: p->unknown is its). */
static void osm_rtr_note(void *ctx, enum posm_rtr_note what, uint64_t guid)
{
	struct posm *p = ctx;
	unsigned long long g = (unsigned long long)guid;

	switch (what) {
	case POSM_RTR_ADDED:
		posm_log(p, 1,
			 "router port 0x%016llx is a CA port: in OpenSM's table of routers "
			 "now, for its PathRecords",
			 g);
		break;
	case POSM_RTR_REMOVED:
		posm_log(p, 1,
			 "router port 0x%016llx: no prefix route names it any more: out of "
			 "OpenSM's table of routers",
			 g);
		break;
	case POSM_RTR_REPOINTED:
		posm_log(p, 2, "router port 0x%016llx: OpenSM has a new port object for it", g);
		break;
	case POSM_RTR_NOT_CA:
		posm_log(p, 2,
			 "router port 0x%016llx is a switch's port: routes through it left out", g);
		break;
	case POSM_RTR_UNKNOWN:
		for (unsigned i = 0; i < p->nunknown; i++)
			if (p->unknown[i] == guid)
				return; /* said already, and still unknown */
		p->unknown_logs++;
		/* past the table's room, each apply would say it again: at verbose 2 then */
		posm_log(p, p->nunknown < POSM_UNKNOWN_MAX ? 1 : 2,
			 "prefix routes name router port 0x%016llx, which OpenSM does not know (no "
			 "port of its subnet has that GUID): left out",
			 g);
		if (p->nunknown < POSM_UNKNOWN_MAX)
			p->unknown[p->nunknown++] = guid;
		break;
	}
}

/* GUIDs logged as unknown that OpenSM knows now, or that no route names: forgotten. */
static void osm_unknown_prune(struct posm *p, const uint64_t *named, size_t n)
{
	unsigned k = 0;

	for (unsigned i = 0; i < p->nunknown; i++) {
		uint64_t g = p->unknown[i];
		bool still = n && bsearch(&g, named, n, sizeof(*named), osm_u64_cmp) &&
			     cl_qmap_get(&p->osm->subn.port_guid_tbl, cl_hton64(g)) ==
				     cl_qmap_end(&p->osm->subn.port_guid_tbl);

		if (still)
			p->unknown[k++] = g;
	}
	p->nunknown = k;
}

void posm_osm_apply_locked(struct posm *p)
{
	struct posm_route_stats st;
	uint64_t *named;
	size_t nnamed;
	int rc, rrc;

	pthread_mutex_lock(&p->route_lock);
	named = osm_named(p->want, p->nwant, &nnamed);
	rrc = p->nwant && !named ? -ENOMEM : 0;
	osm_unknown_prune(p, named, nnamed);
	/* first the table of routers: the routes then find their CA ports in it */
	if (!rrc)
		rrc = posm_rtr_sync(&p->osm->subn, named, nnamed, p, &p->rtr, osm_rtr_note, p);
	st = p->rst;
	rc = posm_route_apply(&p->osm->subn.prefix_routes_list, p->want, p->nwant,
			      osm_router_present, p, p, &st);
	p->rst = st;
	p->applied_gen = p->want_gen;
	pthread_mutex_unlock(&p->route_lock);
	free(named);
	if (rrc < 0)
		posm_log(p, 0, "cannot update OpenSM's table of routers: out of memory");
	if (rc < 0) {
		posm_log(p, 0, "cannot update OpenSM's prefix routes: out of memory");
	} else if (rc > 0) {
		/* a heavy sweep re-reads the file and we put the same back: say it once */
		bool news = st.installed != p->logged.installed ||
			    st.shadowed != p->logged.shadowed || st.absent != p->logged.absent;

		posm_log(p, news ? 1 : 3,
			 "prefix routes: %u installed, %u left to the administrator's lines, %u "
			 "through router ports OpenSM does not know",
			 st.installed, st.shadowed, st.absent);
		p->logged = st;
	}
}

void posm_osm_on_sweep(struct posm *p)
{
	cl_plock_excl_acquire(&p->osm->lock);
	posm_osm_apply_locked(p);
	cl_plock_release(&p->osm->lock);
	pthread_mutex_lock(&p->route_lock);
	p->sweep_owed = p->applied_gen != p->want_gen;
	pthread_mutex_unlock(&p->route_lock);
}

/* Ask for a heavy sweep: OpenSM re-reads its files, then we re-apply (on the sweeper thread). */
static void osm_ask_sweep(struct posm *p, uint64_t now)
{
	p->sweep_ns = now;
	p->sweeps++;
	posm_log(p, 1, "the router's prefix routes changed: asking OpenSM for a heavy sweep");
	p->osm->subn.force_heavy_sweep = TRUE;
	osm_sm_signal(&p->osm->sm, OSM_SIGNAL_SWEEP);
}

void posm_osm_routes_changed(struct posm *p)
{
	if (!p->conf_file) {
		cl_plock_excl_acquire(&p->osm->lock);
		posm_osm_apply_locked(p);
		cl_plock_release(&p->osm->lock);
		return;
	}
	pthread_mutex_lock(&p->route_lock);
	p->sweep_owed = true;
	pthread_mutex_unlock(&p->route_lock);
	posm_osm_tick(p, posm_now_ns());
}

void posm_osm_tick(struct posm *p, uint64_t now)
{
	bool owed;

	if (!p->conf_file || !p->o.resweep_s)
		return;
	pthread_mutex_lock(&p->route_lock);
	owed = p->sweep_owed && p->applied_gen != p->want_gen;
	pthread_mutex_unlock(&p->route_lock);
	if (owed && (!p->sweep_ns || now - p->sweep_ns >= p->o.resweep_s * 1000000000ull))
		osm_ask_sweep(p, now);
}
