/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* router_port.c - port defaults, and the rule of a port's P_Key table. */
#include "router/router_port.h"

#include <errno.h>
#include <string.h>

void router_port_defaults(struct router_port *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	strncpy(p->name, name, sizeof(p->name) - 1);
	p->mtu = 2048;
	p->flags = ROUTER_PORT_VCRC_CHECK;
	p->rpf = ROUTER_RPF_OFF;
	memset(p->tclass_sl, ROUTER_SL_KEEP, sizeof(p->tclass_sl));
	/* sl_vl all zero: every SL on VL0, the one data VL every port has */
}

int router_port_pkey_add(struct router_port *p, uint16_t pkey)
{
	if (!(pkey & 0x7FFF))
		return -EINVAL;
	for (unsigned i = 0; i < p->npkeys; i++)
		if ((p->pkeys[i] & 0x7FFF) == (pkey & 0x7FFF))
			return -EEXIST;
	if (p->npkeys >= ROUTER_MAX_PKEYS)
		return -ENOSPC;
	p->pkeys[p->npkeys++] = pkey;
	return 0;
}
