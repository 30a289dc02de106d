/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_relay_fix.h - the fixture of io_verbs_test.c, io_verbs_event_test.c
 * and io_verbs_ah_test.c, over io_verbs_fix.h: three fake HCAs opened as
 * router ports 0..2 (port 2's AH cache 16 entries, ports 0 and 1 a proxy
 * pair), each port's relay QP attached to ff0e::1 (MLID_A + port), and host 7
 * of subnet i + 1 sending UD packets to port i; what the engine would make of
 * them for another port.
 */
#ifndef IO_VERBS_RELAY_FIX_H
#define IO_VERBS_RELAY_FIX_H

#include "router/io/io_verbs.h"
#include "tests/unit/router/io/io_verbs_fix.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NP	 3
#define MLID_A	 0xC001
#define MLID_B	 0xC002
#define MLID_C	 0xC003
#define HOST_QPN VFIX_HOST_QPN
#define QKEY	 0x0B1B

extern struct vfix fx;
extern const uint8_t mgid[16];

/* The suite's fixture: the three devices opened and attached; teardown closes them. */
int setup(void);
int teardown(void);

/* Host 7 on subnet `i` + 1 sends a UD packet to the router's port i (SLID 100). */
void host_send(int i, const uint8_t dgid[16], uint16_t dlid, uint32_t dqp, uint32_t qkey,
	       size_t paylen, uint8_t tag, bool imm);
/* The same to ff0e::1 on port i's MLID, Q_Key QKEY. */
void host_send_mcast(int i, size_t paylen, uint8_t tag);
/* Router port i's io_port. */
struct io_port *port(int i);
/* The copy the engine would make for `port`: LRH to the egress MLID, HopLmt - 1. */
struct router_tx tx_for(struct router_mbuf *m, uint16_t dlid);
/* Set the FlowLabel in a copy's GRH word (bits 19-0 of GRH bytes 0-3). */
void tx_set_flow(struct router_tx *t, uint32_t fl);

#endif
