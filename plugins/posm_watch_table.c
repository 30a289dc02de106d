/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_watch_table.c - what the membership watch (posm_watch.c) remembers
 * of OpenSM's multicast groups between two passes: per MGID, a digest of
 * what the daemons are told of the group (its MLID, components and
 * members); from that, each pass says which groups are new, which changed,
 * and which are gone.
 *
 * No OpenSM types: unit-tested on its own (tests/unit/plugins/).
 *
 * OpenSM walks its group table in MGID order, so the last pass's groups
 * are kept as an array in that order and a pass is a merge: each group
 * seen is compared with the next entries of that array and appended to
 * the pass's own, which becomes the last at the end.  Sequential reads and
 * writes only: a first version, a hash table keyed by MGID, cost a cache
 * miss per group and 11-15 ms a pass over 65536 groups, against 4.8-5.8 ms
 * for the merge (posm_watch_test, same machine).  A group out of order (another OpenSM's table) calls the
 * pass off rather than report groups wrongly.  Bounded (max groups): past
 * it the pass is called off, the table forgotten, and the refresh
 * snapshots alone tell the daemons (said once by the caller).
 */
#include "plugins/posm.h"

#include <stdlib.h>
#include <string.h>

#define TABLE_CAP_MIN 64

void posm_watch_table_init(struct posm_watch_table *t, uint32_t max)
{
	memset(t, 0, sizeof(*t));
	t->max = max;
}

void posm_watch_table_free(struct posm_watch_table *t)
{
	free(t->last);
	free(t->cur);
	posm_watch_table_init(t, t->max);
}

void posm_watch_table_reset(struct posm_watch_table *t)
{
	t->nlast = t->ncur = t->at = 0;
	t->seeded = t->seeding = false;
}

bool posm_watch_table_begin(struct posm_watch_table *t, size_t count)
{
	t->ncur = t->at = 0;
	t->off = count > t->max;
	if (t->off) {
		posm_watch_table_reset(t);
		return false;
	}
	t->seeding = !t->seeded;
	return true;
}

/* The pass is off: the table forgotten, the next pass that fits seeds it. */
static enum posm_watch_diff table_off(struct posm_watch_table *t)
{
	posm_watch_table_reset(t);
	t->off = true;
	return POSM_WATCH_OFF;
}

/* Room for one more entry of the pass; -1 without memory. */
static int table_room(struct posm_watch_table *t)
{
	uint32_t cap;
	struct posm_watch_ent *v;

	if (t->ncur < t->capcur)
		return 0;
	cap = t->capcur ? t->capcur * 2 : TABLE_CAP_MIN;
	if (cap > t->max)
		cap = t->max;
	if (!(v = realloc(t->cur, (size_t)cap * sizeof(*v))))
		return -1;
	t->cur = v;
	t->capcur = cap;
	return 0;
}

enum posm_watch_diff posm_watch_table_see(struct posm_watch_table *t, const uint8_t mgid[16],
					  uint64_t digest)
{
	enum posm_watch_diff d = POSM_WATCH_NEW;
	struct posm_watch_ent *e;
	int c = 1;

	if (t->off)
		return POSM_WATCH_OFF;
	if (t->ncur && memcmp(mgid, t->cur[t->ncur - 1].mgid, 16) <= 0)
		return table_off(t); /* not in MGID order: the merge would lie */
	if (t->ncur >= t->max || table_room(t))
		return table_off(t);
	/* the last pass's groups before this one are gone (told at the end) */
	while (t->at < t->nlast && (c = memcmp(t->last[t->at].mgid, mgid, 16)) < 0)
		t->at++;
	if (t->at < t->nlast && c == 0)
		d = t->last[t->at++].digest == digest ? POSM_WATCH_SAME : POSM_WATCH_CHANGED;
	e = &t->cur[t->ncur++];
	memcpy(e->mgid, mgid, 16);
	e->digest = digest;
	/* the first pass only learns: a daemon got every group in its snapshot */
	return t->seeding ? POSM_WATCH_SAME : d;
}

unsigned posm_watch_table_end(struct posm_watch_table *t,
			      void (*gone)(void *ctx, const uint8_t mgid[16]), void *ctx)
{
	struct posm_watch_ent *v;
	uint32_t cap, j = 0;
	unsigned n = 0;

	if (t->off)
		return 0;
	/* the second merge: each of the last pass's groups that this one lacks */
	for (uint32_t i = 0; i < t->nlast; i++) {
		int c = -1;

		while (j < t->ncur && (c = memcmp(t->cur[j].mgid, t->last[i].mgid, 16)) < 0)
			j++;
		if (j < t->ncur && c == 0)
			continue;
		if (gone)
			gone(ctx, t->last[i].mgid);
		n++;
	}
	/* this pass's array is the last now; the old one is reused for the next */
	v = t->last;
	t->last = t->cur;
	t->cur = v;
	cap = t->caplast;
	t->caplast = t->capcur;
	t->capcur = cap;
	t->nlast = t->ncur;
	t->ncur = t->at = 0;
	t->seeded = true;
	t->seeding = false;
	return n;
}
