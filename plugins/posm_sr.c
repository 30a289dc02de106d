/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_sr.c - the routers' ServiceRecords (posm_rec.c), read out of this
 * OpenSM's SA on the plugin's thread: its list of ServiceRecords
 * (osm_subn_t.sa_sr_list, which the SA changes under OpenSM's lock: a Set, a
 * Delete, the lease timer osm_sr_rcv_lease_cb()) copied under the lock taken
 * as reader, every records= seconds and soon after each sweep's end (at
 * most every READ_MIN_NS), never by a MAD.  What the trusted ones announce
 * joins the daemons' routes (posm_conn.c), and goes into OpenSM as they do
 * (posm_osm.c).
 */
#include "plugins/posm_osm.h"

#include <complib/cl_timer.h>

#include <stdlib.h>

#define READ_MIN_NS (500 * 1000000ull) /* a sweep's end reads again, not sooner than this */

static void sr_say(void *ctx, int level, const char *msg)
{
	posm_log(ctx, level, "%s", msg);
}

bool posm_sr_enabled(const struct posm *p)
{
	return p->o.records_s && (p->o.nrouters || p->o.routers_any);
}

void posm_sr_sweep(struct posm *p)
{
	if (posm_sr_enabled(p)) {
		atomic_store(&p->rec_due, true);
		posm_wake(p);
	}
}

void posm_sr_tick(struct posm *p, uint64_t now)
{
	struct posm_rec *v = NULL;
	size_t n = 0;
	bool more = false, changed;
	uint64_t prefix;
	int rc;

	if (!posm_sr_enabled(p))
		return;
	if (now < p->rec_next_ns &&
	    !(atomic_load(&p->rec_due) && now - p->rec_last_ns >= READ_MIN_NS))
		return;
	atomic_store(&p->rec_due, false);
	p->rec_last_ns = now;
	p->rec_next_ns = now + p->o.records_s * 1000000000ull;
	cl_plock_acquire(&p->osm->lock);
	rc = posm_rec_collect(&p->osm->subn.sa_sr_list, cl_get_time_stamp_sec(), &v, &n, &more);
	prefix = cl_ntoh64(p->osm->subn.opt.subnet_prefix);
	cl_plock_release(&p->osm->lock);
	if (rc) {
		posm_log(p, 0, "cannot read the routers' ServiceRecords: out of memory");
		return;
	}
	if (more && !p->rec_more_logged)
		posm_log(p, 0, "more than %u ServiceRecords %s: the rest ignored", POSM_REC_MAX,
			 POSM_REC_NAME);
	p->rec_more_logged = more;
	changed = posm_rec_update(&p->recs, &p->o, prefix, v, n, now, p->o.records_s, sr_say, p);
	free(v);
	if (changed) {
		posm_log(p, 2, "the routers' records: %zu prefix routes", p->recs.nroutes);
		posm_routes_merge(p);
	}
}
