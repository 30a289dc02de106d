/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_tab.h - the RIB's record store: a chained hash table of fixed-size
 * records whose first `keysz` bytes are the key.  Control thread only (the
 * data path reads compiled tables, router_fib.h).  Records stay at a stable
 * index until deleted, so iteration is a walk over the record array.
 */
#ifndef ROUTER_TAB_H
#define ROUTER_TAB_H

#include <stddef.h>
#include <stdint.h>

struct router_tab {
	size_t recsz;	  /* bytes per record, key first */
	size_t keysz;	  /* bytes of key at the start of each record */
	uint8_t *recs;	  /* cap records */
	uint32_t *next;	  /* chain links (index + 1; 0 ends), per record */
	uint8_t *used;	  /* 1 when the record holds data */
	uint32_t *bucket; /* nbucket heads (index + 1; 0 empty) */
	uint32_t nbucket; /* a power of two */
	uint32_t cap;
	uint32_t count;
	uint32_t free_head; /* free list through next[] (index + 1) */
	uint32_t hiwater;   /* records ever handed out */
	uint64_t stamp;	    /* new with every change, unique over all tables: copies compare it */
};

void router_tab_init(struct router_tab *t, size_t recsz, size_t keysz);
void router_tab_free(struct router_tab *t);
/* The record with this key, or NULL. */
void *router_tab_find(const struct router_tab *t, const void *key);
/*
 * Insert or replace the record whose key starts `rec`.  Returns 1 when it
 * was added, 0 when an existing record was replaced, -ENOMEM.
 */
int router_tab_put(struct router_tab *t, const void *rec);
/* 0, or -ENOENT when no record has this key. */
int router_tab_del(struct router_tab *t, const void *key);
/* Iterate: `*pos` starts at 0; returns the next record or NULL. */
void *router_tab_next(const struct router_tab *t, uint32_t *pos);

#endif
