/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_engine_int.h - private to router_engine.c and router_engine_check.c: the check results
 * besides a drop reason, the offsets of the headers a global packet starts with, and the check
 * both paths run.
 */
#ifndef ROUTER_ENGINE_INT_H
#define ROUTER_ENGINE_INT_H

#include "router/router_engine.h"

#include "lib/crc/ibr_crc.h"
#include "lib/ibr_pkt.h"

/* Check results besides a drop reason (>= 0). */
#define ENG_PASS     (-1) /* go on (or: sent) */
#define ENG_TO_SMA   (-2) /* VL15: for the SMA */
#define ENG_TO_LOCAL (-3) /* addressed to the router itself */

#define GRH_OFF	   IBR_LRH_LEN
#define SGID_OFF   (GRH_OFF + 8)
#define DGID_OFF   (GRH_OFF + 24)
#define BTH_OFF	   (IBR_LRH_LEN + IBR_GRH_LEN)
#define MIN_GLOBAL (BTH_OFF + IBR_BTH_LEN + IBR_ICRC_LEN + IBR_VCRC_LEN)

/* 17. ICRC, when the port asks (off by default: the router is not the end node) */
static inline int eng_check_icrc(const struct router_fib_port *in, const struct router_mbuf *m)
{
	if ((in->cfg.flags & ROUTER_PORT_ICRC_CHECK) &&
	    ibr_icrc_verify(m->data, m->len - IBR_VCRC_LEN))
		return ROUTER_DROP_ICRC;
	return ENG_PASS;
}

/*
 * Checks 1-17 one after the other, in their numbered order (router_engine_check.c): the first
 * rule broken is the drop reason.  Or ENG_TO_SMA, ENG_TO_LOCAL, ENG_PASS.  The way for the
 * packets the fast path (eng_check_fast()) refuses.
 */
int router_engine_check_ordered(const struct router_fib_port *in, const struct router_mbuf *m,
				uint16_t *payload);

#endif
