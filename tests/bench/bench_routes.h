/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_routes.h - the route keys of the forwarding benchmarks: route i's /64 prefix, spread
 * over 40 bits below fec0::/16 (bench_fwd's routes, and bench_dpdk's, the same keys for a
 * peer's structures).
 */
#ifndef BENCH_ROUTES_H
#define BENCH_ROUTES_H

#include <stdint.h>

static inline uint64_t route_prefix(uint64_t i)
{
	return 0xfec0000000000000ull | (i * 0x9E3779B1ull & 0xFFFFFFFFFFull) << 8 | 0x80;
}

#endif
