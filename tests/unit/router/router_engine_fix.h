/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_engine_fix.h - the fixture of the forwarding engine's tests
 * (router_engine_*test.c): a FIB of four ports and their routes, neighbours
 * and groups; one packet built, run through the engine alone, and its fate
 * checked.
 */
#ifndef ROUTER_ENGINE_FIX_H
#define ROUTER_ENGINE_FIX_H

#include "router/router_engine.h"
#include "router/router_rib.h"

#include "lib/ibr_pkt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PFX_A	   0xfec0000000000001ull
#define PFX_B	   0xfec0000000000002ull
#define PFX_C	   0x20010db800000000ull
#define PFX_S	   0xfec0000000000009ull /* site-local, but behind port c (site 1) */
#define PFX_D	   0xfec000000000000dull /* behind port d, which is down */
#define PFX_G	   0xfec0000000000003ull /* algorithmic next hop via b */
#define PFX_GSRC   0x20010db8000000aaull /* a global source prefix */
#define HOST_A	   0x0000000000100001ull
#define HOST_B	   0x0000000000110001ull
#define HOST_B_LMC 0x0000000000110002ull

/* The RIB of the fixture, its FIB, the counters and output of the last run. */
extern struct router_rib rib;
extern struct router_fib *fib;
extern struct router_counters cnt;
extern struct router_out out;
/* The packet under test and its mbuf. */
extern uint8_t pkt[8192];
extern struct router_mbuf mb;

/*
 * The suite's fixture: ports a (0, lid 1), b (1, lid 0x10), c (2, lid 0x20,
 * site 1), d (3, down), with their routes, neighbours and groups; teardown
 * frees it.
 */
int setup(void);
int teardown(void);
/* The GID of `guid` under `prefix` into g[16]. */
void gid_set(uint8_t *g, uint64_t prefix, uint64_t guid);
/* A static route, a group member added to the RIB (errors counted, failing setup). */
void add_route(uint64_t prefix, uint8_t plen, uint8_t port, int kind, uint16_t lid);
void add_group(uint8_t scope, uint8_t id, uint8_t port, uint16_t mlid, uint8_t sl, int flags);
/* The FIB compiled again from the RIB (fatal if it fails). */
void recompile(void);
/* The default test packet: host in A -> HOST_B in B, through port a. */
void params_default(struct ibr_pkt_ud_params *p, size_t payload_len);
/* The default packet sent to group ff<scope>::<id> on `mlid`. */
void mcast_params(struct ibr_pkt_ud_params *p, uint8_t scope, uint8_t id, uint16_t mlid);
/* `p` built into pkt, mb on port 0; its length. */
int build(const struct ibr_pkt_ud_params *p);
/* Run the engine on `mb` alone; fresh counters each time. */
void run(void);
/* Every drop counted in the last run. */
uint64_t drops_total(void);
/* Exactly one drop, for `reason`, and nothing sent, to the SMA or local. */
void expect_drop(int reason, const char *what);
/* Exactly one copy, on `port`, nothing dropped. */
void expect_fwd(int port, const char *what);
/* The bytes a copy puts on the wire. */
void tx_bytes(const struct router_tx *tx, uint8_t *dst);

#endif
