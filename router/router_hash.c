/* router_hash.c - construction of the read-only 64-bit hash maps. */
#include "router/router_hash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int router_hash_init(struct router_hash *h, uint64_t n)
{
	uint32_t bits = 3;

	memset(h, 0, sizeof(*h));
	while (bits < 40 && (1ull << bits) < 2 * n)
		bits++;
	h->ent = calloc(1ull << bits, sizeof(*h->ent));
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
