/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_pmap.h - a persistent map from a 64-bit key to a non-zero 64-bit
 * value: the changes a FIB carries over the tables it was compiled with
 * (router_fib.h, struct router_fib_delta).  A version is never changed once
 * made public; the next copies only the path to what it changes (its root,
 * one mid node and one page: 2 KiB) and shares every other node with the
 * versions before it, so a change costs the same with ten entries or 60,000.
 * A node counts the parents that hold it and goes with the last; making,
 * sharing and freeing versions is the control thread's alone, so the counts
 * are plain integers.
 *
 * Two levels of 64 children by the top bits of the key's hash, then a page
 * of 64 slots probed linearly from the next bits, at most 48 of them full:
 * a lookup reads the root and a mid node (at most 33 KiB for all), then a
 * probe in one page.  Empty children are shared empty nodes, never NULL, so
 * a lookup tests nothing but slots.  (A FIB asks its delta's maps only
 * when its filter says a key may be there: router_fib.h.)
 * There is no delete (a FIB's delta says "gone" with a value of its own),
 * and a put into a page already at its fill refuses (-ENOSPC): the FIB is
 * then compiled whole and the map starts empty again.
 */
#ifndef ROUTER_PMAP_H
#define ROUTER_PMAP_H

#include "router/router_hash.h"

#include <stdbool.h>
#include <stdint.h>

#define ROUTER_PMAP_FAN	  64 /* children of the root and of a mid node */
#define ROUTER_PMAP_SLOTS 64 /* slots of a page */
#define ROUTER_PMAP_FILL  48 /* keys a page takes: probes stay short, one slot is always empty */

/*
 * Every node starts with its parents' count and the batch that made it: a
 * node of the batch being made is the new version's alone (no version made
 * public holds it), so further puts of the batch change it in place.
 */
struct router_pmap_hdr {
	uint32_t ref; /* parents holding it; ROUTER_PMAP_STATIC: a shared empty node */
	uint32_t n;   /* keys below it */
	uint64_t batch;
};
#define ROUTER_PMAP_STATIC UINT32_MAX

struct router_pmap_page {
	struct router_pmap_hdr h;
	struct router_hash_ent ent[ROUTER_PMAP_SLOTS]; /* val 0: empty */
};

struct router_pmap_mid {
	struct router_pmap_hdr h;
	struct router_pmap_page *page[ROUTER_PMAP_FAN];
};

/* A version of the map: its root. */
struct router_pmap {
	struct router_pmap_hdr h;
	struct router_pmap_mid *mid[ROUTER_PMAP_FAN];
};

/* The empty map: every version starts from it (its count never moves). */
extern struct router_pmap router_pmap_empty;

/* Fibonacci hashing: the top bits, which the levels take, depend on every key bit. */
static inline uint64_t router_pmap_hash(uint64_t key)
{
	return key * 0x9E3779B97F4A7C15ull;
}

/* The value of `key`, or 0. */
static inline uint64_t router_pmap_get(const struct router_pmap *m, uint64_t key)
{
	uint64_t h = router_pmap_hash(key);
	const struct router_pmap_page *p = m->mid[h >> 58]->page[(h >> 52) & 63];

	for (uint32_t i = (uint32_t)(h >> 46) & 63;; i = (i + 1) & 63) {
		const struct router_hash_ent *e = &p->ent[i];

		if (e->val == 0)
			return 0;
		if (e->key == key)
			return e->val;
	}
}

/* The line of `key`'s first slot on its way into the cache (a lookup soon after finds it there). */
static inline void router_pmap_prefetch(const struct router_pmap *m, uint64_t key)
{
	uint64_t h = router_pmap_hash(key);

	__builtin_prefetch(&m->mid[h >> 58]->page[(h >> 52) & 63]->ent[(h >> 46) & 63]);
}

/* Keys in version `m`. */
static inline uint64_t router_pmap_count(const struct router_pmap *m)
{
	return m->h.n;
}

/* A new batch: the puts of one new version (never 0, never seen before). */
uint64_t router_pmap_batch(void);
/*
 * Put key -> val (val non-zero) into the version `*m` being made by batch
 * `batch`; the caller holds one reference to *m, which moves to the copy
 * when *m is shared (then *m is the copy).  0; -ENOSPC (the key's page is
 * full) or -ENOMEM, with *m unchanged in what it maps.
 */
int router_pmap_put(struct router_pmap **m, uint64_t batch, uint64_t key, uint64_t val);
/* One more holder of version `m` (returned). */
struct router_pmap *router_pmap_ref(struct router_pmap *m);
/* One holder less: the nodes no version holds any more are freed. */
void router_pmap_unref(struct router_pmap *m);

#endif
