/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_engine.c - the forwarding engine is the first reader of every packet
 * from the fabric.  Any bytes, as a packet arriving on port 0 or 1 (the first
 * input byte picks the port and the per-port options), must get a verdict:
 * no crash, no out-of-bounds read, and every copy it sends must be as long as
 * the packet, carry a valid VCRC and leave the ICRC bytes untouched.
 */
#include "router/router_engine.h"
#include "router/router_rib.h"

#include "lib/crc/ibr_crc.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct router_fib *fibs[4];

static void fuzz_route(struct router_rib *rib, uint64_t prefix, uint8_t plen, uint8_t port,
		       uint8_t kind, uint16_t lid)
{
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = prefix;
	r.key.plen = plen;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh.port = port;
	r.nh.kind = kind;
	r.nh.lid = lid;
	r.nh.lmc = 1;
	router_rib_route_add(rib, &r);
}

/* Four FIBs: VCRC check on/off x ICRC/P_Key/RPF checks on/off. */
static void fuzz_init(void)
{
	for (int f = 0; f < 4; f++) {
		struct router_rib rib;
		struct router_mcast m;
		struct router_neigh n;

		router_rib_init(&rib);
		for (int i = 0; i < 2; i++) {
			struct router_port p;

			router_port_defaults(&p, i ? "b" : "a");
			p.lid = (uint16_t)(i ? 0x10 : 1);
			p.prefix = 0xfec0000000000001ull + (uint64_t)i;
			p.guid = 0x300000 + (uint64_t)i;
			p.flags = (uint8_t)(ROUTER_PORT_UP | (f & 1 ? 0 : ROUTER_PORT_VCRC_CHECK) |
					    (f & 2 ? ROUTER_PORT_ICRC_CHECK | ROUTER_PORT_PKEY_CHECK
						   : 0));
			p.rpf = (uint8_t)(f & 2 ? ROUTER_RPF_STRICT : ROUTER_RPF_OFF);
			p.npkeys = 1;
			p.pkeys[0] = 0xFFFF;
			router_rib_port_add(&rib, &p);
		}
		fuzz_route(&rib, 0xfec0000000000001ull, 64, 0, ROUTER_NH_DIRECT, 0);
		fuzz_route(&rib, 0xfec0000000000002ull, 64, 1, ROUTER_NH_DIRECT, 0);
		fuzz_route(&rib, 0xfec0000000000000ull, 16, 1, ROUTER_NH_ROUTER, 0x20);
		fuzz_route(&rib, 0x2000000000000000ull, 3, 0, ROUTER_NH_ALGO, 0);
		memset(&n, 0, sizeof(n));
		n.key.guid = 0x110001;
		n.key.port = 1;
		n.lid = 4;
		n.lmc = 2;
		router_rib_neigh_add(&rib, &n);
		for (int i = 0; i < 2; i++) {
			memset(&m, 0, sizeof(m));
			m.key.mgid[0] = 0xFF;
			m.key.mgid[1] = 0x15;
			m.key.port = (uint8_t)i;
			m.mlid = (uint16_t)(0xC001 + i);
			m.flags = ROUTER_MCAST_RECEIVERS;
			router_rib_mcast_add(&rib, &m);
		}
		fibs[f] = router_rib_compile(&rib);
		router_rib_free(&rib);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct router_out out;
	static struct router_counters c;
	struct router_mbuf m, *v[1] = { &m };
	uint8_t *pkt;

	if (!fibs[0])
		fuzz_init();
	if (size < 1)
		return 0;
	pkt = malloc(size - 1 ? size - 1 : 1); /* exact size: ASan sees any overread */
	memcpy(pkt, data + 1, size - 1);
	memset(&m, 0, sizeof(m));
	m.data = pkt;
	m.len = (uint32_t)(size - 1);
	m.port = data[0] & 1;
	router_engine_burst(fibs[(data[0] >> 1) & 3], v, 1, &out, &c);
	if (out.ndrop + out.nsma + out.nlocal + (out.ncopies ? 1 : 0) != 1)
		abort(); /* exactly one fate */
	for (unsigned p = 0; p < ROUTER_MAX_PORTS; p++)
		for (unsigned i = 0; i < out.ntx[p]; i++) {
			uint8_t *copy = malloc(m.len);

			memcpy(copy, pkt, m.len);
			memcpy(copy, out.tx[p][i].hdr, ROUTER_HDR_LEN);
			copy[m.len - 2] = (uint8_t)out.tx[p][i].vcrc;
			copy[m.len - 1] = (uint8_t)(out.tx[p][i].vcrc >> 8);
			/* with the VCRC checked on ingress, every copy leaves with a valid one */
			if (!((data[0] >> 1) & 1) && ibr_vcrc_verify(copy, m.len))
				abort();
			if (memcmp(copy + m.len - 6, pkt + m.len - 6, 4))
				abort(); /* ICRC untouched */
			free(copy);
		}
	free(pkt);
	return 0;
}
