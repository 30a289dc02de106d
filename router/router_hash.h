/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_hash.h - open-addressing hash map from a 64-bit key to a 64-bit value,
 * the building block of the compiled lookup tables (routes by prefix,
 * neighbours by GUID).  Built once by the control thread, then read-only:
 * workers look keys up with no locks.  Value 0 means "empty slot", so callers
 * store values with a non-zero marker bit.
 *
 * Linear probing at a load factor of at most 1/2, multiply-shift hashing.
 * Entries are 16 bytes, four to a cache line; a lookup costs one cache miss
 * when the table is cold, which the engine hides by prefetching a whole burst
 * (each key's home slot, router_hash_slot) before looking any key up; tables
 * of 2 MiB and more sit on transparent huge pages, so that the miss is not
 * also a TLB miss.
 */
#ifndef ROUTER_HASH_H
#define ROUTER_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct router_hash_ent {
	uint64_t key;
	uint64_t val; /* 0: empty */
};

struct router_hash {
	struct router_hash_ent *ent;
	uint64_t mask;	/* size - 1 (size a power of two) */
	uint32_t shift; /* 64 - log2(size) */
	uint64_t count;
};

/* A table sized for `n` keys (at least 8 slots); 0 or -ENOMEM. */
int router_hash_init(struct router_hash *h, uint64_t n);
void router_hash_free(struct router_hash *h);
/* Insert or replace; `val` must be non-zero.  0, -EINVAL or -ENOSPC. */
int router_hash_put(struct router_hash *h, uint64_t key, uint64_t val);

static inline uint64_t router_hash_slot(const struct router_hash *h, uint64_t key)
{
	return (key * 0x9E3779B97F4A7C15ull) >> h->shift;
}

static inline void router_hash_prefetch(const struct router_hash *h, uint64_t key)
{
	if (h->ent)
		__builtin_prefetch(&h->ent[router_hash_slot(h, key)]);
}

/* The value stored for `key`, or 0. */
static inline uint64_t router_hash_get(const struct router_hash *h, uint64_t key)
{
	uint64_t i;

	if (!h->ent)
		return 0;
	for (i = router_hash_slot(h, key);; i = (i + 1) & h->mask) {
		const struct router_hash_ent *e = &h->ent[i];

		if (e->val == 0)
			return 0;
		if (e->key == key)
			return e->val;
	}
}

#endif
