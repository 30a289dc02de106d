/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_watch.c - the membership watch: every watch_s seconds, the groups
 * whose members changed without a trap, told to every daemon.
 *
 * Why: the SM's traps tell a group created (66) or deleted (67) (IBA
 * volume 1, chapter 14), nothing in between: OpenSM 3.3.23 sends 66 when a
 * group gets its first full member (osm_mgrp_add_port()) and 67 when its
 * last full member goes and the group with it (osm_mgrp_delete_port()).  A host's
 * join to a group that exists, or its leave from one that survives -- the
 * router port is a member of every bridged group (posm_mcast.c) -- raises
 * none: without the watch the daemon learns that a group lost its last real
 * member only at the next refresh snapshot, and keeps the router in it (and
 * the stream flowing) that long.
 *
 * A pass: OpenSM's lock as reader, a walk of subn.mgrp_mgid_tbl, a digest
 * per group of what a GROUP message carries (MLID, components, each
 * member's port GID, JoinState and ProxyJoin; the member map is ordered by
 * port GUID, so the same members give the same digest), compared with the
 * last pass's (posm_watch_table.c).  A group new or changed is told as it
 * is now (posm_snap_group(), under the lock: it reads OpenSM's structures);
 * one gone, or left without members (as the SA and the snapshot show it:
 * no such group), as a GROUPS_DEL, built after the lock is released.  Messages go through the inbox (posm_conn.c), behind the trap
 * deltas reported before the pass.
 *
 * No flood: the table's first pass (after the start, after a reset) only
 * learns.  A daemon gets a full snapshot when it connects, taken after the
 * pass of that loop round (conn_timers() before conn_snapshots()), so
 * nothing falls between the two; a seed at any other time owes every
 * daemon a snapshot (the table lost what they were told).  With no daemon
 * up there is nothing to compare against: the table is forgotten.
 * Bounded: past POSM_WATCH_MAX groups the watch stops (said once) and the
 * refresh alone tells.
 */
#include "plugins/posm_osm.h"

#include <opensm/osm_mcm_port.h>
#include <opensm/osm_multicast.h>

#include <string.h>

/* What a GROUP message carries of g, as one digest (snap_group() in posm_snap.c sends it). */
static uint64_t watch_digest(const osm_mgrp_t *g)
{
	const ib_member_rec_t *mr = &g->mcmember_rec;
	const cl_qmap_t *mt = &g->mcm_alias_port_tbl;
	uint64_t h = 0;

	h = posm_watch_digest(h, (uint64_t)g->mlid | (uint64_t)mr->pkey << 16 |
					 (uint64_t)mr->qkey << 32);
	h = posm_watch_digest(h, (uint64_t)mr->sl_flow_hop | (uint64_t)mr->tclass << 32 |
					 (uint64_t)mr->mtu << 40 | (uint64_t)mr->rate << 48 |
					 (uint64_t)(g->well_known ? 1 : 0) << 56);
	for (const cl_map_item_t *i = cl_qmap_head(mt); i != cl_qmap_end(mt); i = cl_qmap_next(i)) {
		const osm_mcm_alias_guid_t *m = (const osm_mcm_alias_guid_t *)i;
		uint64_t w[2];

		memcpy(w, m->port_gid.raw, 16);
		h = posm_watch_digest(h, w[0]);
		h = posm_watch_digest(h, w[1]);
		h = posm_watch_digest(h, (uint64_t)(m->scope_state & 0x0F) |
						 (m->proxy_join ? 0x100u : 0));
	}
	return h;
}

static bool watch_any_up(const struct posm *p)
{
	for (unsigned i = 0; i < p->nconn; i++)
		if (p->conn[i].state == POSM_UP)
			return true;
	return false;
}

/* The groups gone, after the lock: each a GROUPS_DEL. */
struct watch_gone {
	struct posm_bbuf *b;
	int rc;
};

static void watch_gone(void *ctx, const uint8_t mgid[16])
{
	struct watch_gone *x = ctx;

	if (!x->rc)
		x->rc = posm_snap_group_del(mgid, x->b);
}

/*
 * The walk, OpenSM's lock held: each group with members into the table,
 * those new or changed into b.  The number told, or -1 when the table is
 * called off; *rc the first message that failed.
 */
static long watch_walk(struct posm *p, struct posm_bbuf *b, int *rc)
{
	const cl_fmap_t *tbl = &p->osm->subn.mgrp_mgid_tbl;
	struct posm_watch_table *t = &p->watch;
	long told = 0;

	if (!posm_watch_table_begin(t, cl_fmap_count(tbl)))
		return -1;
	/*
	 * Hot: one pass over 10^4 groups of 4 members takes 0.52-0.65 ms, over
	 * 65536 groups 4.8-5.8 ms (posm_watch_test, the fastest of 11 passes,
	 * -O2, on an AMD EPYC VM of 2 cores, loaded), OpenSM's lock held.
	 */
	for (const cl_fmap_item_t *i = cl_fmap_head(tbl); i != cl_fmap_end(tbl);
	     i = cl_fmap_next(i)) {
		const osm_mgrp_t *g = (const osm_mgrp_t *)i;
		enum posm_watch_diff d;

		if (!cl_qmap_count(&g->mcm_alias_port_tbl))
			continue; /* no members: not a group as the SA shows them; gone */
		d = posm_watch_table_see(t, g->mcmember_rec.mgid.raw, watch_digest(g));
		if (d == POSM_WATCH_OFF)
			return -1;
		if (d == POSM_WATCH_SAME)
			continue;
		told++;
		if (!*rc)
			*rc = posm_snap_group(p, g->mcmember_rec.mgid.raw, b);
	}
	return told;
}

/* The watch called off: once in the log, and once when it is on again. */
static void watch_log_off(struct posm *p, bool was_off)
{
	struct posm_watch_table *t = &p->watch;

	if (t->off && !was_off)
		posm_log(p, 1,
			 "membership watch off: more than %u groups (or no memory, or OpenSM's "
			 "table out of MGID order); changes without a trap wait for the refresh "
			 "(%u s)",
			 t->max, p->o.refresh_s);
	else if (!t->off && was_off)
		posm_log(p, 1, "membership watch on again");
}

int posm_watch_pass(struct posm *p, uint64_t now, struct posm_bbuf *b)
{
	struct posm_watch_table *t = &p->watch;
	struct watch_gone gone = { .b = b };
	bool was_off = t->off, seeding;
	long told;

	if (!p->o.watch_s)
		return 0;
	if (!watch_any_up(p)) {
		/* nobody to tell: each daemon that comes gets a snapshot, the seed before it */
		if (t->nlast || t->seeded)
			posm_watch_table_reset(t);
		return 0;
	}
	/* an unseeded table is seeded at once, in the round its daemon came up */
	if (now < p->watch_ns && (t->seeded || t->off))
		return 0;
	p->watch_ns = now + p->o.watch_s * 1000000000ull;
	p->watch_passes++;
	cl_plock_acquire(&p->osm->lock);
	seeding = !t->seeded;
	told = watch_walk(p, b, &gone.rc);
	cl_plock_release(&p->osm->lock);
	if (told >= 0)
		told += posm_watch_table_end(t, watch_gone, &gone);
	watch_log_off(p, was_off);
	if (told < 0) /* off: the table is forgotten; the next pass that fits seeds it */
		return 0;
	p->watch_told += (uint64_t)told;
	if (told)
		posm_log(p, 3, "membership watch: %ld groups changed without a trap", told);
	/* a seed owes a snapshot: the daemons up may miss what changed since the table was right */
	return seeding || gone.rc ? 1 : 0;
}
