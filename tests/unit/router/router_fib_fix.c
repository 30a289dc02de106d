/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_fib_fix.c - the FIB tests' RIBs (router_fib_fix.h). */
#include "tests/unit/router/router_fib_fix.h"
#include "tests/unit/ibr_test.h"

void port_add(struct router_rib *rib, const char *name, uint16_t lid, uint8_t lmc, uint8_t site,
	      uint64_t prefix)
{
	struct router_port p;

	router_port_defaults(&p, name);
	p.lid = lid;
	p.lmc = lmc;
	p.site = site;
	p.prefix = prefix;
	p.guid = 0x0002c90300000000ull | lid;
	p.flags |= ROUTER_PORT_UP;
	CU_ASSERT_FATAL(router_rib_port_add(rib, &p) >= 0);
}

void rib_two_ports(struct router_rib *rib)
{
	router_rib_init(rib);
	port_add(rib, "a", 1, 0, 0, PFX_A);
	port_add(rib, "b", 2, 0, 0, PFX_B);
}

struct router_fib *compile(struct router_rib *rib)
{
	struct router_fib *fib = router_rib_compile(rib);

	CU_ASSERT_PTR_NOT_NULL_FATAL(fib);
	return fib;
}
