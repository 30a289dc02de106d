/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* io_verbs_relay_fix.c - the fixture of the relay's verbs tests (io_verbs_relay_fix.h). */
#include "tests/unit/router/io/io_verbs_relay_fix.h"
#include "lib/ibr_pkt.h"

#include <string.h>

struct vfix fx;
const uint8_t mgid[16] = { 0xff, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 };

int setup(void)
{
	struct io_verbs_port_cfg *cfg = fx.cfg;

	if (vfix_prepare(&fx, "io_verbs_test", NP, 1, 256, 256))
		return -1;
	cfg[2].ah_cap = 16;	    /* 12 AHs a generation: test_ah_eviction */
	vfix_proxy_pair(&fx, 0, 1); /* host 7 on subnet 1 <-> host 7 on subnet 2 */
	if (vfix_open(&fx))
		return -1;
	for (int i = 0; i < NP; i++)
		if (io_verbs_mcast_attach(io_verbs_port(fx.v, (unsigned)i), mgid,
					  (uint16_t)(MLID_A + i)))
			return -1;
	return 0;
}

int teardown(void)
{
	vfix_close(&fx);
	return 0;
}

/* Host 7 on subnet `i` + 1 sends a UD packet to the router's port i (SLID 100). */
void host_send(int i, const uint8_t dgid[16], uint16_t dlid, uint32_t dqp, uint32_t qkey,
	       size_t paylen, uint8_t tag, bool imm)
{
	uint8_t sgid[16];

	vfix_gid(sgid, i + 1, 7);
	vfix_host_ud(&fx, i,
		     &(struct vfix_ud){ .slid = 100,
					.dlid = dlid,
					.sgid = sgid,
					.dgid = dgid,
					.dqp = dqp,
					.qkey = qkey,
					.paylen = paylen,
					.tag = tag,
					.imm = imm });
}

void host_send_mcast(int i, size_t paylen, uint8_t tag)
{
	host_send(i, mgid, (uint16_t)(MLID_A + i), 0xFFFFFF, QKEY, paylen, tag, false);
}

struct io_port *port(int i)
{
	return &io_verbs_port(fx.v, (unsigned)i)->io;
}

/* The copy the engine would make for `port`: LRH to the egress MLID, HopLmt - 1. */
struct router_tx tx_for(struct router_mbuf *m, uint16_t dlid)
{
	struct router_tx t = { .m = m };

	memcpy(t.hdr, m->data, ROUTER_HDR_LEN);
	ibr_lrh_set_dlid((struct ibr_lrh *)t.hdr, dlid);
	t.hdr[15]--; /* GRH byte 7: HopLmt */
	return t;
}

/* Set the FlowLabel in a copy's GRH word (bits 19-0 of GRH bytes 0-3). */
void tx_set_flow(struct router_tx *t, uint32_t fl)
{
	ibr_be32_setbits(t->hdr + 8, 0xFFFFF, fl);
}
