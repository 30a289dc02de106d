/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_tab.c - chained hash of fixed-size records for the RIB. */
#include "router/router_tab.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Stamps are drawn from one counter, so a stamp names one state of one table. */
static void tab_changed(struct router_tab *t)
{
	static _Atomic uint64_t stamps;

	t->stamp = atomic_fetch_add_explicit(&stamps, 1, memory_order_relaxed) + 1;
}

void router_tab_init(struct router_tab *t, size_t recsz, size_t keysz)
{
	memset(t, 0, sizeof(*t));
	t->recsz = recsz;
	t->keysz = keysz;
	tab_changed(t);
}

void router_tab_free(struct router_tab *t)
{
	free(t->recs);
	free(t->next);
	free(t->used);
	free(t->bucket);
	router_tab_init(t, t->recsz, t->keysz);
}

/* FNV-1a over the key, finished with a multiply so low bits mix well. */
static uint32_t tab_hash(const struct router_tab *t, const void *key)
{
	const uint8_t *p = key;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < t->keysz; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h >> 32);
}

static uint8_t *tab_rec(const struct router_tab *t, uint32_t i)
{
	return t->recs + (size_t)i * t->recsz;
}

void *router_tab_find(const struct router_tab *t, const void *key)
{
	uint32_t i;

	if (!t->nbucket)
		return NULL;
	for (i = t->bucket[tab_hash(t, key) & (t->nbucket - 1)]; i; i = t->next[i - 1])
		if (memcmp(tab_rec(t, i - 1), key, t->keysz) == 0)
			return tab_rec(t, i - 1);
	return NULL;
}

/* Double the record arrays and the bucket array, relinking every chain. */
static int tab_grow(struct router_tab *t)
{
	uint32_t ncap = t->cap ? t->cap * 2 : 16;
	uint32_t nb = ncap;
	uint8_t *recs = realloc(t->recs, (size_t)ncap * t->recsz);
	uint32_t *next, *bucket;
	uint8_t *used;

	if (!recs)
		return -ENOMEM;
	t->recs = recs;
	next = realloc(t->next, (size_t)ncap * sizeof(*next));
	if (!next)
		return -ENOMEM;
	t->next = next;
	used = realloc(t->used, ncap);
	if (!used)
		return -ENOMEM;
	memset(used + t->cap, 0, ncap - t->cap);
	t->used = used;
	bucket = calloc(nb, sizeof(*bucket));
	if (!bucket)
		return -ENOMEM;
	free(t->bucket);
	t->bucket = bucket;
	t->nbucket = nb;
	t->cap = ncap;
	for (uint32_t i = 0; i < t->hiwater; i++) {
		uint32_t b;

		if (!t->used[i])
			continue;
		b = tab_hash(t, tab_rec(t, i)) & (nb - 1);
		t->next[i] = t->bucket[b];
		t->bucket[b] = i + 1;
	}
	return 0;
}

int router_tab_put(struct router_tab *t, const void *rec)
{
	uint8_t *old = router_tab_find(t, rec);
	uint32_t i, b;

	tab_changed(t);
	if (old) {
		memcpy(old, rec, t->recsz);
		return 0;
	}
	if (!t->free_head && t->hiwater == t->cap) {
		int rc = tab_grow(t);

		if (rc)
			return rc;
	}
	if (t->free_head) {
		i = t->free_head - 1;
		t->free_head = t->next[i];
	} else {
		i = t->hiwater++;
	}
	memcpy(tab_rec(t, i), rec, t->recsz);
	t->used[i] = 1;
	b = tab_hash(t, rec) & (t->nbucket - 1);
	t->next[i] = t->bucket[b];
	t->bucket[b] = i + 1;
	t->count++;
	return 1;
}

int router_tab_del(struct router_tab *t, const void *key)
{
	uint32_t *link, i;

	if (!t->nbucket)
		return -ENOENT;
	link = &t->bucket[tab_hash(t, key) & (t->nbucket - 1)];
	for (i = *link; i; link = &t->next[i - 1], i = *link) {
		if (memcmp(tab_rec(t, i - 1), key, t->keysz) != 0)
			continue;
		*link = t->next[i - 1];
		t->used[i - 1] = 0;
		t->next[i - 1] = t->free_head;
		t->free_head = i;
		t->count--;
		tab_changed(t);
		return 0;
	}
	return -ENOENT;
}

void *router_tab_next(const struct router_tab *t, uint32_t *pos)
{
	while (*pos < t->hiwater) {
		uint32_t i = (*pos)++;

		if (t->used[i])
			return tab_rec(t, i);
	}
	return NULL;
}
