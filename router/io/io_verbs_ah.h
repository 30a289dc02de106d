/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_ah.h - the address-handle cache of a verbs port: one
 * ibv_create_ah per distinct (port, DLID, SL, DGID, FlowLabel, TClass,
 * HopLmt, SGID index), never one per packet.  Open addressing, linear
 * probing, a fixed power-of-two capacity, filled to 3/4 at most.
 *
 * Eviction by generations.  A posted send references its AH until it
 * completes, so no entry can be destroyed on its own.  When the current
 * table is full, the next add starts a new generation: the full table
 * becomes the old one, frozen, and the add goes into the emptied other.
 * The caller notes where its send queues are at that moment
 * (io_verbs_port.ah_mark); once every send posted before it has completed,
 * io_verbs_ah_retire() destroys the old generation's handles.  A lookup
 * that misses the current table and hits the old one moves the entry over
 * (its slot in the old table left as a tombstone, not destroyed), so a
 * handle in steady use is never recreated.  Only when the current table
 * fills again before the old one could be retired is a packet refused
 * (counted `full`): more than 3/4 of the capacity of new destinations
 * while one send queue's worth of sends was in flight.
 *
 * The handles are opaque here (the ibv_* calls stay in io_verbs*.c).
 */
#ifndef IO_VERBS_AH_H
#define IO_VERBS_AH_H

#include <stdbool.h>
#include <stdint.h>

struct io_verbs_ah_key {
	uint8_t dgid[16];
	uint32_t flow_label; /* 20 bits */
	uint16_t dlid;
	uint8_t sl;
	uint8_t tclass;
	uint8_t hoplmt;
	uint8_t sgid_index;
	uint8_t port; /* router port index */
	uint8_t rsv;  /* 0: keys are compared with memcmp */
};
_Static_assert(sizeof(struct io_verbs_ah_key) == 28, "no padding in the key");

struct io_verbs_ah_ent {
	struct io_verbs_ah_key key;
	void *ah; /* NULL: empty slot; io_verbs_ah_moved: moved to the current table */
};

struct io_verbs_ah_tab {
	struct io_verbs_ah_ent *ent;
	uint32_t n; /* slots used (tombstones included) */
};

struct io_verbs_ah {
	struct io_verbs_ah_tab cur, old; /* old: the generation before, until retired */
	uint32_t mask;			 /* capacity - 1 */
	uint64_t hits, misses, full;
	uint64_t gens;	  /* generations started */
	uint64_t moved;	  /* entries moved from the old generation */
	uint64_t retired; /* handles destroyed with their generation */
};

/* The tombstone of a moved entry (never a handle). */
extern char io_verbs_ah_moved[1];

/* `cap` rounded up to a power of two (at least 16), two tables of it.  0 or -ENOMEM. */
int io_verbs_ah_init(struct io_verbs_ah *c, uint32_t cap);
void io_verbs_ah_fini(struct io_verbs_ah *c);
/* The handle cached for `k`, or NULL (a miss, counted); an old one moves to the current. */
void *io_verbs_ah_find(struct io_verbs_ah *c, const struct io_verbs_ah_key *k);
/*
 * Cache `ah` for `k` (not present).  0; 1 when it started a new generation
 * (note where the send queues are: the old one waits for them); -ENOSPC
 * when full and the old generation is not retired yet (counted).
 */
int io_verbs_ah_add(struct io_verbs_ah *c, const struct io_verbs_ah_key *k, void *ah);
/* True while an old generation waits to be retired. */
static inline bool io_verbs_ah_draining(const struct io_verbs_ah *c)
{
	return c->old.n != 0;
}
/* No sends reference the old generation any more: `fn` on its handles, then empty it. */
unsigned io_verbs_ah_retire(struct io_verbs_ah *c, void (*fn)(void *ah));
/* Call `fn` on every handle of both generations, then empty them. */
void io_verbs_ah_clear(struct io_verbs_ah *c, void (*fn)(void *ah));

#endif
