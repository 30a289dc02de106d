/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* io_verbs_ah.c - the address-handle cache and its generations (io_verbs_ah.h). */
#include "router/io/io_verbs_ah.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

char io_verbs_ah_moved[1];

int io_verbs_ah_init(struct io_verbs_ah *c, uint32_t cap)
{
	uint32_t n = 16;

	memset(c, 0, sizeof(*c));
	while (n < cap && n < (1u << 24))
		n <<= 1;
	c->cur.ent = calloc(n, sizeof(*c->cur.ent));
	c->old.ent = calloc(n, sizeof(*c->old.ent));
	if (!c->cur.ent || !c->old.ent) {
		io_verbs_ah_fini(c);
		return -ENOMEM;
	}
	c->mask = n - 1;
	return 0;
}

void io_verbs_ah_fini(struct io_verbs_ah *c)
{
	free(c->cur.ent);
	free(c->old.ent);
	c->cur.ent = c->old.ent = NULL;
}

/* FNV-1a over the key's 28 bytes: cheap next to an AH lookup miss (~µs in the kernel) */
static uint32_t ah_hash(const struct io_verbs_ah_key *k)
{
	const uint8_t *p = (const uint8_t *)k;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < sizeof(*k); i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* The slot of `k` in `t`, or NULL; tombstones keep the probe going. */
static struct io_verbs_ah_ent *ah_slot(const struct io_verbs_ah *c, struct io_verbs_ah_tab *t,
				       const struct io_verbs_ah_key *k)
{
	for (uint32_t i = ah_hash(k) & c->mask;; i = (i + 1) & c->mask) {
		struct io_verbs_ah_ent *e = &t->ent[i];

		if (!e->ah)
			return NULL;
		if (e->ah != io_verbs_ah_moved && !memcmp(&e->key, k, sizeof(*k)))
			return e;
	}
}

static bool ah_full(const struct io_verbs_ah *c)
{
	return c->cur.n + 1 > (c->mask + 1) / 4 * 3; /* keep probes short */
}

static void ah_put(struct io_verbs_ah *c, const struct io_verbs_ah_key *k, void *ah)
{
	uint32_t i;

	for (i = ah_hash(k) & c->mask; c->cur.ent[i].ah; i = (i + 1) & c->mask)
		;
	c->cur.ent[i].key = *k;
	c->cur.ent[i].ah = ah;
	c->cur.n++;
}

void *io_verbs_ah_find(struct io_verbs_ah *c, const struct io_verbs_ah_key *k)
{
	struct io_verbs_ah_ent *e = ah_slot(c, &c->cur, k);
	void *ah;

	if (e) {
		c->hits++;
		return e->ah;
	}
	/* the old generation's handle, while sends may still use it: it moves over */
	if (c->old.n && !ah_full(c) && (e = ah_slot(c, &c->old, k))) {
		ah = e->ah;
		e->ah = io_verbs_ah_moved;
		ah_put(c, k, ah);
		c->hits++;
		c->moved++;
		return ah;
	}
	c->misses++;
	return NULL;
}

int io_verbs_ah_add(struct io_verbs_ah *c, const struct io_verbs_ah_key *k, void *ah)
{
	struct io_verbs_ah_tab t;
	int rc = 0;

	if (ah_full(c)) {
		if (c->old.n) {
			c->full++;
			return -ENOSPC;
		}
		/* a new generation: the full table freezes, the empty one takes over */
		t = c->old;
		c->old = c->cur;
		c->cur = t;
		c->gens++;
		rc = 1;
	}
	ah_put(c, k, ah);
	return rc;
}

/* `fn` on the handles of `t` (not the tombstones), then empty it; how many. */
static unsigned ah_empty(struct io_verbs_ah *c, struct io_verbs_ah_tab *t, void (*fn)(void *ah))
{
	unsigned n = 0;

	for (uint32_t i = 0; t->n && i <= c->mask; i++) {
		void *ah = t->ent[i].ah;

		if (ah && ah != io_verbs_ah_moved) {
			fn(ah);
			n++;
		}
		t->ent[i].ah = NULL;
	}
	t->n = 0;
	return n;
}

unsigned io_verbs_ah_retire(struct io_verbs_ah *c, void (*fn)(void *ah))
{
	unsigned n = ah_empty(c, &c->old, fn);

	c->retired += n;
	return n;
}

void io_verbs_ah_clear(struct io_verbs_ah *c, void (*fn)(void *ah))
{
	ah_empty(c, &c->cur, fn);
	ah_empty(c, &c->old, fn);
}
