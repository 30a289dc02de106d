/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_pub.c - FIB publication and quiescent-state reclamation. */
#include "router/router_pub.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int router_pub_init(struct router_pub *pub, uint32_t nreaders)
{
	if (nreaders > ROUTER_MAX_WORKERS)
		return -EINVAL;
	memset(pub, 0, sizeof(*pub));
	atomic_init(&pub->cur, NULL);
	atomic_init(&pub->epoch, 1);
	pub->nreaders = nreaders;
	for (uint32_t i = 0; i < ROUTER_MAX_WORKERS; i++)
		atomic_init(&pub->reader[i].seen, ROUTER_PUB_OFFLINE);
	return 0;
}

int router_pub_set_readers(struct router_pub *pub, uint32_t nreaders)
{
	if (nreaders > ROUTER_MAX_WORKERS)
		return -EINVAL;
	for (uint32_t i = 0; i < ROUTER_MAX_WORKERS; i++)
		atomic_store(&pub->reader[i].seen, ROUTER_PUB_OFFLINE);
	pub->nreaders = nreaders;
	return 0;
}

void router_pub_destroy(struct router_pub *pub)
{
	router_fib_free(atomic_exchange(&pub->cur, NULL));
	for (uint32_t i = 0; i < pub->nretired; i++)
		router_fib_free(pub->retired[i].fib);
	free(pub->retired);
	pub->retired = NULL;
	pub->nretired = pub->capretired = 0;
}

int router_pub_publish(struct router_pub *pub, struct router_fib *fib)
{
	struct router_fib *old;

	/* make room first, so that a failure leaves the old FIB in place */
	if (pub->nretired == pub->capretired) {
		uint32_t cap = pub->capretired ? pub->capretired * 2 : 8;
		struct router_pub_retired *r = realloc(pub->retired, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		pub->retired = r;
		pub->capretired = cap;
	}
	old = atomic_exchange(&pub->cur, fib);
	/*
	 * The epoch moves after the swap (both seq_cst): a worker that reads the
	 * new epoch at a quiescent point reads the new FIB afterwards.
	 */
	if (old) {
		pub->retired[pub->nretired].fib = old;
		pub->retired[pub->nretired].epoch = atomic_fetch_add(&pub->epoch, 1) + 1;
		pub->nretired++;
	}
	router_pub_reclaim(pub);
	return 0;
}

uint32_t router_pub_reclaim(struct router_pub *pub)
{
	uint64_t min = ROUTER_PUB_OFFLINE;
	uint32_t keep = 0;

	for (uint32_t i = 0; i < pub->nreaders; i++) {
		uint64_t s = atomic_load_explicit(&pub->reader[i].seen, memory_order_acquire);

		if (s < min)
			min = s;
	}
	for (uint32_t i = 0; i < pub->nretired; i++) {
		if (pub->retired[i].epoch <= min)
			router_fib_free(pub->retired[i].fib);
		else
			pub->retired[keep++] = pub->retired[i];
	}
	pub->nretired = keep;
	return keep;
}
