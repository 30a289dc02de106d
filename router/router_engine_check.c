/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_engine_check.c - the engine's numbered checks 1-17 one by one, in their order (IBA
 * vol. 1 chapters 7 and 8, 4.1.1): for a packet the fast path of router_engine.c refuses, the
 * first rule it breaks names its drop reason (router_drop.h).
 */
#include "router/router_engine_int.h"

#include "lib/ibr_gid.h"

#include <string.h>

/* Checks 1-6: the link layer's view of the packet (IBA 7.7, 7.8). */
static int eng_check_link(const struct router_fib_port *in, const struct router_mbuf *m)
{
	const struct ibr_lrh *lrh = (const struct ibr_lrh *)m->data;
	uint16_t dlid;

	/* 1. an LRH and a VCRC at least */
	if (m->len < IBR_LRH_LEN + IBR_VCRC_LEN)
		return ROUTER_DROP_SHORT;
	/* 2. LVer 0 is the only link version (IBA 7.7.2) */
	if (ibr_lrh_get_lver(lrh) != 0)
		return ROUTER_DROP_LVER;
	/* 3. PktLen counts 4-byte words from the LRH through the ICRC (IBA 7.7.8) */
	if ((uint32_t)ibr_lrh_get_pktlen(lrh) * 4 + IBR_VCRC_LEN != m->len)
		return ROUTER_DROP_PKTLEN;
	/* 4. the link-level check of the VCRC (IBA 7.8.2), a per-port option */
	if ((in->cfg.flags & ROUTER_PORT_VCRC_CHECK) && ibr_vcrc_verify(m->data, m->len))
		return ROUTER_DROP_VCRC;
	/* 5. VL15 carries SMPs only, and SMPs never cross a router (C8-1) */
	if (ibr_lrh_get_vl(lrh) == IBR_VL15)
		return ENG_TO_SMA;
	/* 6. the packet must be addressed to this port: one of its 2^LMC LIDs, or
	 *    a multicast LID of a group known on this subnet (IBA 8.2.3); the
	 *    FIB's lid_span says which (none without a LID, DLID 0 alone on a
	 *    RoCE port, whose packets the backend gives DLID 0) */
	dlid = ibr_lrh_get_dlid(lrh);
	if (dlid >= IBR_LID_MCAST_MIN && dlid <= IBR_LID_MCAST_MAX) {
		if (!router_bit_test(in->mlid_bits, dlid - IBR_LID_MCAST_MIN))
			return ROUTER_DROP_DLID;
	} else if ((uint32_t)(dlid - in->cfg.lid) >= in->lid_span) {
		return ROUTER_DROP_DLID;
	}
	return ENG_PASS;
}

/* Checks 7-13: the GRH and the transport headers a router relies on. */
static int eng_check_grh(const struct router_mbuf *m, uint16_t *payload)
{
	const uint8_t *b = m->data;
	const struct ibr_grh *grh = (const struct ibr_grh *)(b + GRH_OFF);
	const struct ibr_bth *bth = (const struct ibr_bth *)(b + BTH_OFF);
	uint32_t hdr = BTH_OFF + IBR_BTH_LEN;
	uint8_t op;

	/* 7. raw packets (LNH 0, 1): IBA does not specify routing them (8.1) */
	if (ibr_lrh_get_lnh((const struct ibr_lrh *)b) < IBR_LNH_IBA_LOCAL)
		return ROUTER_DROP_RAW;
	/* 8. no GRH: addressed to the router itself (C8-1: leaving the subnet needs a GRH) */
	if (ibr_lrh_get_lnh((const struct ibr_lrh *)b) == IBR_LNH_IBA_LOCAL)
		return ENG_TO_LOCAL;
	if (m->len < MIN_GLOBAL)
		return ROUTER_DROP_TRUNCATED;
	/* 9. C8-2: IPVer 6.  10. C8-7: NxtHdr 0x1B (raw IPv6 and others: not ours) */
	if (ibr_grh_get_ipver(grh) != IBR_GRH_IPVER)
		return ROUTER_DROP_IPVER;
	if (ibr_grh_get_nxthdr(grh) != IBR_GRH_NXTHDR_IBA)
		return ROUTER_DROP_NXTHDR;
	/* 11. PayLen: from after the GRH through the ICRC (C8-14 keeps it; it must agree) */
	if ((uint32_t)ibr_grh_get_paylen(grh) + IBR_LRH_LEN + IBR_GRH_LEN + IBR_VCRC_LEN != m->len)
		return ROUTER_DROP_PAYLEN;
	/* 12. UD: the DETH (and ImmDt) must fit; PadCnt within the payload (IBA 9.2.4) */
	op = ibr_bth_get_opcode(bth);
	if (ibr_bth_op_is_ud(op))
		hdr += IBR_DETH_LEN + (op == IBR_BTH_OP_UD_SEND_ONLY_IMM ? IBR_IMMDT_LEN : 0);
	if (hdr + IBR_ICRC_LEN + IBR_VCRC_LEN > m->len)
		return ROUTER_DROP_TRUNCATED;
	if (hdr + ibr_bth_get_padcnt(bth) + IBR_ICRC_LEN + IBR_VCRC_LEN > m->len)
		return ROUTER_DROP_PADCNT;
	*payload = (uint16_t)(m->len - hdr - ibr_bth_get_padcnt(bth) - IBR_ICRC_LEN - IBR_VCRC_LEN);
	/* 13. C8-16: HopLmt 0 or 1 is dropped; otherwise decremented */
	if (ibr_grh_get_hoplmt(grh) < 2)
		return ROUTER_DROP_HOPLMT;
	return ENG_PASS;
}

/* Checks 14-17: addresses (IBA 4.1.1) and the optional ICRC check. */
static int eng_check_gids(const struct router_fib_port *in, const struct router_mbuf *m)
{
	union ibr_gid sgid, dgid;

	memcpy(sgid.raw, m->data + SGID_OFF, 16);
	memcpy(dgid.raw, m->data + DGID_OFF, 16);
	/* 14. an SGID is never multicast, reserved or loopback */
	if (ibr_gid_is_mcast(&sgid) || ibr_gid_is_reserved(&sgid) || ibr_gid_is_loopback(&sgid))
		return ROUTER_DROP_SGID;
	/* 15. nor is a DGID reserved or loopback */
	if (ibr_gid_is_reserved(&dgid) || ibr_gid_is_loopback(&dgid))
		return ROUTER_DROP_DGID;
	/* 16. link-local GIDs are never routed, as SGID or DGID */
	if (ibr_gid_is_link_local(&sgid) || ibr_gid_is_link_local(&dgid))
		return ROUTER_DROP_LINK_LOCAL;
	return eng_check_icrc(in, m);
}

int router_engine_check_ordered(const struct router_fib_port *in, const struct router_mbuf *m,
				uint16_t *payload)
{
	int r;

	if ((r = eng_check_link(in, m)) != ENG_PASS)
		return r;
	if ((r = eng_check_grh(m, payload)) != ENG_PASS)
		return r;
	return eng_check_gids(in, m);
}
