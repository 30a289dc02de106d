/*
 * io_verbs_ah.h - the address-handle cache of a verbs port: one
 * ibv_create_ah per distinct (port, DLID, SL, DGID, FlowLabel, TClass,
 * HopLmt, SGID index), never one per packet.  Open addressing, linear
 * probing, a fixed power-of-two capacity; entries are never evicted while
 * the port runs (a send may still reference the AH): when the table is
 * full, io_verbs drops the packet (counted) until io_verbs_ah_clear() at a
 * point where no send is outstanding.  The handles are opaque here (the
 * ibv_* calls stay in io_verbs.c).
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
	void *ah; /* NULL: empty slot */
};

struct io_verbs_ah {
	struct io_verbs_ah_ent *ent;
	uint32_t mask; /* capacity - 1 */
	uint32_t n;
	uint64_t hits, misses, full;
};

/* `cap` rounded up to a power of two (at least 16).  0 or -ENOMEM. */
int io_verbs_ah_init(struct io_verbs_ah *c, uint32_t cap);
void io_verbs_ah_fini(struct io_verbs_ah *c);
/* The handle cached for `k`, or NULL (a miss, counted). */
void *io_verbs_ah_find(struct io_verbs_ah *c, const struct io_verbs_ah_key *k);
/* Cache `ah` for `k` (not present).  0, or -ENOSPC when 3/4 full (counted). */
int io_verbs_ah_add(struct io_verbs_ah *c, const struct io_verbs_ah_key *k, void *ah);
/* Call `fn` on every handle, then empty the table. */
void io_verbs_ah_clear(struct io_verbs_ah *c, void (*fn)(void *ah));

#endif
