/* io_verbs_ah.c - the address-handle cache (io_verbs_ah.h). */
#include "router/io_verbs_ah.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int io_verbs_ah_init(struct io_verbs_ah *c, uint32_t cap)
{
	uint32_t n = 16;

	memset(c, 0, sizeof(*c));
	while (n < cap && n < (1u << 24))
		n <<= 1;
	c->ent = calloc(n, sizeof(*c->ent));
	if (!c->ent)
		return -ENOMEM;
	c->mask = n - 1;
	return 0;
}

void io_verbs_ah_fini(struct io_verbs_ah *c)
{
	free(c->ent);
	c->ent = NULL;
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

void *io_verbs_ah_find(struct io_verbs_ah *c, const struct io_verbs_ah_key *k)
{
	for (uint32_t i = ah_hash(k) & c->mask;; i = (i + 1) & c->mask) {
		struct io_verbs_ah_ent *e = &c->ent[i];

		if (!e->ah) {
			c->misses++;
			return NULL;
		}
		if (!memcmp(&e->key, k, sizeof(*k))) {
			c->hits++;
			return e->ah;
		}
	}
}

int io_verbs_ah_add(struct io_verbs_ah *c, const struct io_verbs_ah_key *k, void *ah)
{
	uint32_t i;

	if (c->n + 1 > (c->mask + 1) / 4 * 3) { /* keep probes short */
		c->full++;
		return -ENOSPC;
	}
	for (i = ah_hash(k) & c->mask; c->ent[i].ah; i = (i + 1) & c->mask)
		;
	c->ent[i].key = *k;
	c->ent[i].ah = ah;
	c->n++;
	return 0;
}

void io_verbs_ah_clear(struct io_verbs_ah *c, void (*fn)(void *ah))
{
	for (uint32_t i = 0; i <= c->mask; i++)
		if (c->ent[i].ah) {
			fn(c->ent[i].ah);
			c->ent[i].ah = NULL;
		}
	c->n = 0;
}
