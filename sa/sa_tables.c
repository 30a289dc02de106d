/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_tables.c - the SA client's neighbour and group tables (sa_int.h): the
 * current ones the API hands out, and the new ones a sync builds beside
 * them.  The bottom of sa/: the dispatcher (sa_client.c) and its parts
 * (sa_sync.c, sa_peers.c) call it, it calls none of them.
 */
#include "sa/sa_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sa_neigh *sa_neigh_find(struct sa_neigh_vec *t, uint64_t guid)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].guid == guid)
			return &t->v[i];
	return NULL;
}

static int sa_vec_grow(void **v, size_t *cap, size_t n, size_t size)
{
	size_t ncap = *cap ? *cap * 2 : 64;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*v, ncap * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	*cap = ncap;
	return 0;
}

/* Insert or replace by GUID; an LMC block seen twice keeps its lowest LID. */
int sa_neigh_put(struct sa_neigh_vec *t, const struct sa_neigh *n)
{
	struct sa_neigh *e = sa_neigh_find(t, n->guid);

	if (e) {
		if (n->lid < e->lid || e->lid == 0 || n->lmc != e->lmc)
			*e = *n;
		return 0;
	}
	if (sa_vec_grow((void **)&t->v, &t->cap, t->n, sizeof(*t->v)))
		return -ENOMEM;
	t->v[t->n++] = *n;
	return 0;
}

bool sa_neigh_del(struct sa_neigh_vec *t, uint64_t guid)
{
	struct sa_neigh *e = sa_neigh_find(t, guid);

	if (!e)
		return false;
	*e = t->v[--t->n];
	return true;
}

struct sa_group *sa_group_find(struct sa_group_vec *t, const uint8_t mgid[16])
{
	for (size_t i = 0; i < t->n; i++)
		if (!memcmp(t->v[i].mgid, mgid, 16))
			return &t->v[i];
	return NULL;
}

/* The group `mgid`, added empty if new; NULL on ENOMEM. */
struct sa_group *sa_group_get(struct sa_group_vec *t, const uint8_t mgid[16])
{
	struct sa_group *g = sa_group_find(t, mgid);

	if (g)
		return g;
	if (sa_vec_grow((void **)&t->v, &t->cap, t->n, sizeof(*t->v)))
		return NULL;
	g = &t->v[t->n++];
	memset(g, 0, sizeof(*g));
	memcpy(g->mgid, mgid, 16);
	return g;
}

bool sa_group_del(struct sa_group_vec *t, const uint8_t mgid[16])
{
	struct sa_group *g = sa_group_find(t, mgid);

	if (!g)
		return false;
	*g = t->v[--t->n];
	return true;
}
