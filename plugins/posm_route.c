/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_route.c - the router's prefix routes in OpenSM's in-memory list
 * (osm_subn_t.prefix_routes_list, what prefix_routes_file fills), so that
 * its SA answers PathRecords to remote prefixes with a router port's LID
 * (opensm/osm_sa_path_record.c find_router(): the first entry whose prefix
 * is the DGID's or "*" wins, and names a router port by GUID).
 *
 * Living in a list OpenSM owns (read in opensm/osm_subnet.c, 3.3.23):
 *  - parse_prefix_routes_file() runs at every heavy sweep when OpenSM has a
 *    config file; it free()s every item of the list, ours included, then
 *    appends one malloc'd osm_prefix_route_t (32 bytes) per line.  So our
 *    items are malloc'd, list item first, and free() is right for them; and
 *    no pointer we kept survives a re-read: the address of a freed item of
 *    ours may come back as one of the administrator's.  An item is ours
 *    when malloc_usable_size() says it is a block of our size -- OpenSM's
 *    32-byte blocks are never that large, even when malloc hands out a
 *    split chunk (the remainder of a split is at least MINSIZE) -- and then
 *    our magic and owner are readable inside it and must match.
 *  - the administrator's lines are never moved or removed; a prefix they
 *    name is theirs (ours is left out and counted as shadowed); our
 *    specific prefixes go before all their lines, so a "*" of theirs does
 *    not hide them; our "*" goes last, and only when they have none.
 *  - the re-read itself takes no lock: the caller makes sure it cannot run
 *    concurrently (posm_main.c), and holds OpenSM's lock for writing
 *    against the SA, which reads the list under it.
 */
#include "plugins/posm.h"

#include <complib/cl_types.h>
#include <complib/cl_byteswap.h>
#include <complib/cl_qlist.h>
#include <iba/ib_types.h>
#include <opensm/osm_prefix_route.h>

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#define ROUTE_MAGIC 0x6962726f75746531ull /* "ibroute1" */
#define ROUTE_ITEM  256			  /* bytes: 8x OpenSM's item */

/* At the start of a ROUTE_ITEM-byte block. */
struct route_item {
	osm_prefix_route_t r; /* first: OpenSM frees items with free(item) */
	uint64_t magic;
	const void *owner;
	uint32_t metric;
};
_Static_assert(sizeof(struct route_item) <= ROUTE_ITEM, "an item fits its block");

bool posm_route_is_ours(const void *item, const void *owner)
{
	const struct route_item *it = item;

	return malloc_usable_size((void *)item) >= ROUTE_ITEM && it->magic == ROUTE_MAGIC &&
	       it->owner == owner;
}

static int route_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Candidates grouped by prefix ("*" last), best first within a prefix: a
 * connected daemon's before a held one's, then the lowest metric, then the
 * lowest port GUID (the same order in every plugin: one router a prefix).
 */
static int route_cand_cmp(const void *a, const void *b)
{
	const struct posm_route *x = a, *y = b;

	if (x->any != y->any)
		return x->any ? 1 : -1;
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if (x->held != y->held)
		return x->held ? 1 : -1;
	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* The administrator's prefixes (host order, 0 for "*"), sorted; NULL with *n 0 when none. */
static uint64_t *route_admin(cl_qlist_t *l, const void *owner, size_t *n, int *err)
{
	size_t cap = 0;
	uint64_t *v = NULL;

	*n = 0;
	*err = 0;
	for (cl_list_item_t *i = cl_qlist_head(l); i != cl_qlist_end(l); i = cl_qlist_next(i)) {
		if (posm_route_is_ours(i, owner))
			continue;
		if (*n == cap) {
			uint64_t *x = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof(*v));

			if (!x) {
				free(v);
				*err = -ENOMEM;
				return NULL;
			}
			v = x;
		}
		v[(*n)++] = cl_ntoh64(((osm_prefix_route_t *)i)->prefix);
	}
	if (*n)
		qsort(v, *n, sizeof(*v), route_u64_cmp);
	return v;
}

static bool route_in(const uint64_t *v, size_t n, uint64_t x)
{
	return n && bsearch(&x, v, n, sizeof(*v), route_u64_cmp);
}

/* What should be ours, in list order: the best present candidate of each free prefix. */
static size_t route_target(struct posm_route *c, size_t n, const uint64_t *admin, size_t nadmin,
			   bool (*present)(void *ctx, uint64_t guid), void *ctx,
			   struct posm_route_stats *st)
{
	size_t out = 0;

	if (n)
		qsort(c, n, sizeof(*c), route_cand_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		bool found = false;

		for (; j < n && c[j].any == c[i].any && c[j].prefix == c[i].prefix; j++)
			if (!found && (!present || present(ctx, c[j].guid))) {
				c[out] = c[j];
				found = true;
			}
		if (route_in(admin, nadmin, c[i].any ? 0 : c[i].prefix))
			st->shadowed++;
		else if (!found)
			st->absent++;
		else
			out++;
		i = j;
	}
	return out;
}

/* Our entries are exactly `t`: the first ones of the list, "*" the last one. */
static bool route_same(cl_qlist_t *l, const struct posm_route *t, size_t n, const void *owner)
{
	cl_list_item_t *i = cl_qlist_head(l);
	size_t k = 0, ours = 0;

	for (; k < n && !t[k].any; k++, i = cl_qlist_next(i)) {
		const struct route_item *it = (const struct route_item *)i;

		if (i == cl_qlist_end(l) || !posm_route_is_ours(i, owner) ||
		    it->r.prefix != cl_hton64(t[k].prefix) || it->r.guid != cl_hton64(t[k].guid))
			return false;
	}
	if (k < n) { /* the "*" */
		const struct route_item *it = (const struct route_item *)cl_qlist_tail(l);

		if (cl_is_qlist_empty(l) || !posm_route_is_ours(&it->r.list_item, owner) ||
		    it->r.prefix || it->r.guid != cl_hton64(t[k].guid))
			return false;
	}
	for (i = cl_qlist_head(l); i != cl_qlist_end(l); i = cl_qlist_next(i))
		ours += posm_route_is_ours(i, owner);
	return ours == n;
}

void posm_route_remove(void *list, const void *owner)
{
	cl_qlist_t *l = list;
	cl_list_item_t *i = cl_qlist_head(l);

	while (i != cl_qlist_end(l)) {
		cl_list_item_t *next = cl_qlist_next(i);

		if (posm_route_is_ours(i, owner)) {
			cl_qlist_remove_item(l, i);
			free(i);
		}
		i = next;
	}
}

static struct route_item *route_item_new(const struct posm_route *r, const void *owner)
{
	struct route_item *it = calloc(1, ROUTE_ITEM);

	if (!it)
		return NULL;
	it->r.prefix = cl_hton64(r->any ? 0 : r->prefix);
	it->r.guid = cl_hton64(r->guid);
	it->magic = ROUTE_MAGIC;
	it->owner = owner;
	it->metric = r->metric;
	return it;
}

int posm_route_apply(void *list, const struct posm_route *want, size_t n,
		     bool (*present)(void *ctx, uint64_t guid), void *ctx, const void *owner,
		     struct posm_route_stats *st)
{
	cl_qlist_t *l = list;
	struct route_item **items = NULL;
	struct posm_route *t = NULL;
	uint64_t *admin;
	size_t nadmin, nt;
	int err;

	st->installed = st->shadowed = st->absent = 0;
	admin = route_admin(l, owner, &nadmin, &err);
	if (err)
		return err;
	if (n && !(t = malloc(n * sizeof(*t)))) {
		free(admin);
		return -ENOMEM;
	}
	if (n)
		memcpy(t, want, n * sizeof(*t));
	nt = route_target(t, n, admin, nadmin, present, ctx, st);
	free(admin);
	if (route_same(l, t, nt, owner)) {
		st->installed = (uint32_t)nt;
		free(t);
		return 0;
	}
	/* all new items first: out of memory leaves the list as it was */
	if (nt && !(items = calloc(nt, sizeof(*items))))
		goto nomem;
	for (size_t k = 0; k < nt; k++)
		if (!(items[k] = route_item_new(&t[k], owner)))
			goto nomem;
	posm_route_remove(l, owner);
	for (size_t k = nt; k-- > 0;) /* specifics at the head, ascending */
		if (!t[k].any)
			cl_qlist_insert_head(l, &items[k]->r.list_item);
	if (nt && t[nt - 1].any)
		cl_qlist_insert_tail(l, &items[nt - 1]->r.list_item);
	st->installed = (uint32_t)nt;
	st->applies++;
	free(items);
	free(t);
	return 1;
nomem:
	for (size_t k = 0; items && k < nt; k++)
		free(items[k]);
	free(items);
	free(t);
	return -ENOMEM;
}
