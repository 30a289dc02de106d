/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_counters.c - the forwarding counters summed over workers (router_counters.h). */
#include "router/router_counters.h"

#include <stddef.h>

void router_counters_add(struct router_counters *to, const struct router_counters *from)
{
	uint64_t *t = (uint64_t *)to;
	const uint64_t *f = (const uint64_t *)from;

	for (size_t i = 0; i < sizeof(*to) / sizeof(uint64_t); i++)
		t[i] += f[i];
}
