/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_fib_fix.h - what the FIB compiler's tests (router_fib_test.c,
 * router_fib_ecmp_test.c) build their RIBs from: ports, the usual two, and a
 * compile that must succeed.
 */
#ifndef ROUTER_FIB_FIX_H
#define ROUTER_FIB_FIX_H

#include "router/router_fib.h"
#include "router/router_rib.h"

#include <stdint.h>

#define PFX_A 0xfec0000000000a00ull /* port a's subnet prefix */
#define PFX_B 0xfec0000000000b00ull /* port b's */

void port_add(struct router_rib *rib, const char *name, uint16_t lid, uint8_t lmc, uint8_t site,
	      uint64_t prefix);
/* Ports a (LID 1, PFX_A) and b (LID 2, PFX_B) in a new RIB. */
void rib_two_ports(struct router_rib *rib);
/* router_rib_compile(), asserted to succeed (fatal). */
struct router_fib *compile(struct router_rib *rib);

#endif
