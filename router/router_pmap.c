/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_pmap.c - the persistent map's versions: path copying and reference counts. */
#include "router/router_pmap.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static struct router_pmap_page pmap_page0 = { .h = { .ref = ROUTER_PMAP_STATIC } };
static struct router_pmap_mid pmap_mid0 = {
	.h = { .ref = ROUTER_PMAP_STATIC },
	.page = { [0 ... ROUTER_PMAP_FAN - 1] = &pmap_page0 },
};
struct router_pmap router_pmap_empty = {
	.h = { .ref = ROUTER_PMAP_STATIC },
	.mid = { [0 ... ROUTER_PMAP_FAN - 1] = &pmap_mid0 },
};

uint64_t router_pmap_batch(void)
{
	/* 64 bits: a node of an old batch never passes for the new one's, even after years */
	static _Atomic uint64_t batches;

	return atomic_fetch_add_explicit(&batches, 1, memory_order_relaxed) + 1;
}

static void pmap_hold(struct router_pmap_hdr *h)
{
	if (h->ref != ROUTER_PMAP_STATIC)
		h->ref++;
}

/* A copy of node `h` (`size` bytes) for batch `batch`, held once; NULL when out of memory. */
static void *pmap_copy(const struct router_pmap_hdr *h, size_t size, uint64_t batch)
{
	struct router_pmap_hdr *c = malloc(size);

	if (!c)
		return NULL;
	memcpy(c, h, size);
	c->ref = 1;
	c->batch = batch;
	return c;
}

static void pmap_page_unref(struct router_pmap_page *p)
{
	if (p->h.ref != ROUTER_PMAP_STATIC && --p->h.ref == 0)
		free(p);
}

static void pmap_mid_unref(struct router_pmap_mid *m)
{
	if (m->h.ref == ROUTER_PMAP_STATIC || --m->h.ref)
		return;
	for (unsigned i = 0; i < ROUTER_PMAP_FAN; i++)
		pmap_page_unref(m->page[i]);
	free(m);
}

struct router_pmap *router_pmap_ref(struct router_pmap *m)
{
	pmap_hold(&m->h);
	return m;
}

void router_pmap_unref(struct router_pmap *m)
{
	if (!m || m->h.ref == ROUTER_PMAP_STATIC || --m->h.ref)
		return;
	for (unsigned i = 0; i < ROUTER_PMAP_FAN; i++)
		pmap_mid_unref(m->mid[i]);
	free(m);
}

/*
 * The root of *m as the batch's own: *m itself when the batch made it, else
 * a copy that holds every child once more and takes the caller's reference.
 */
static struct router_pmap *pmap_root_own(struct router_pmap **m, uint64_t batch)
{
	struct router_pmap *c;

	if ((*m)->h.batch == batch)
		return *m;
	if (!(c = pmap_copy(&(*m)->h, sizeof(*c), batch)))
		return NULL;
	for (unsigned i = 0; i < ROUTER_PMAP_FAN; i++)
		pmap_hold(&c->mid[i]->h);
	router_pmap_unref(*m);
	return *m = c;
}

/* Child `a` of root `r` (the batch's) as the batch's own, the same way. */
static struct router_pmap_mid *pmap_mid_own(struct router_pmap *r, unsigned a, uint64_t batch)
{
	struct router_pmap_mid *m = r->mid[a], *c;

	if (m->h.batch == batch)
		return m;
	if (!(c = pmap_copy(&m->h, sizeof(*c), batch)))
		return NULL;
	for (unsigned i = 0; i < ROUTER_PMAP_FAN; i++)
		pmap_hold(&c->page[i]->h);
	pmap_mid_unref(m);
	return r->mid[a] = c;
}

static struct router_pmap_page *pmap_page_own(struct router_pmap_mid *m, unsigned b, uint64_t batch)
{
	struct router_pmap_page *p = m->page[b], *c;

	if (p->h.batch == batch)
		return p;
	if (!(c = pmap_copy(&p->h, sizeof(*c), batch)))
		return NULL;
	pmap_page_unref(p);
	return m->page[b] = c;
}

int router_pmap_put(struct router_pmap **m, uint64_t batch, uint64_t key, uint64_t val)
{
	uint64_t h = router_pmap_hash(key);
	unsigned a = (unsigned)(h >> 58), b = (unsigned)(h >> 52) & 63,
		 i = (unsigned)(h >> 46) & 63;
	const struct router_pmap_page *p = (*m)->mid[a]->page[b];
	struct router_pmap *r;
	struct router_pmap_mid *mid;
	struct router_pmap_page *pg;
	bool fresh;

	if (!val)
		return -EINVAL;
	/* the slot first, in the version as it is: a refused put copies nothing */
	while (p->ent[i].val && p->ent[i].key != key)
		i = (i + 1) & 63;
	if (p->ent[i].val == val)
		return 0;
	fresh = p->ent[i].val == 0;
	if (fresh && p->h.n >= ROUTER_PMAP_FILL)
		return -ENOSPC;
	if (!(r = pmap_root_own(m, batch)) || !(mid = pmap_mid_own(r, a, batch)) ||
	    !(pg = pmap_page_own(mid, b, batch)))
		return -ENOMEM;
	pg->ent[i].key = key;
	pg->ent[i].val = val;
	if (fresh) {
		pg->h.n++;
		mid->h.n++;
		r->h.n++;
	}
	return 0;
}
