/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_tx.c - a copy the engine made (struct router_tx), as the bytes
 * that leave: for backends and captures that send or write whole packets.
 */
#include "router/router_engine.h"

#include "lib/ibr_pkt.h"

#include <string.h>

size_t router_tx_build(const struct router_tx *tx, uint8_t *buf)
{
	const struct router_mbuf *m = tx->m;

	memcpy(buf, tx->hdr, ROUTER_HDR_LEN);
	memcpy(buf + ROUTER_HDR_LEN, m->data + ROUTER_HDR_LEN, m->len - ROUTER_HDR_LEN);
	if (tx->dgid) {
		/* the DGID is an invariant field (IBA 7.8.1): the ICRC changes with it */
		memcpy(buf + IBR_LRH_LEN + 24, tx->dgid, 16); /* GRH bytes 24-39 */
		ibr_pkt_crc_fill(buf, m->len);
	} else {
		buf[m->len - 2] = (uint8_t)tx->vcrc; /* least-significant byte first */
		buf[m->len - 1] = (uint8_t)(tx->vcrc >> 8);
	}
	return m->len;
}
