/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_roce.h - what a RoCE v2 UD receive leaves in front of the payload, as
 * the GRH of the IB packet it carried: the verbs backend's receive
 * (router/io/io_verbs_rx.c) and ibrouter-host's verbs mode read it the same way.
 */
#ifndef IBR_ROCE_H
#define IBR_ROCE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A RoCE v2 receive's first 40 bytes made the GRH the engine checks.  The
 * NIC leaves there the IP header of the packet: an IPv6 header (its NxtHdr
 * UDP's, 17, and its PayLen the UDP datagram's), or for IPv4 20 undefined
 * bytes and the IPv4 header (IBA A17.4.5.1; rxe zeroes the 20; where they
 * read as version 6, a whole valid IPv4 header behind them, checksum and
 * all, still says IPv4).  IPv6 keeps its TClass, FlowLabel, HopLmt and
 * addresses; IPv4 becomes IPVer 6, TClass = TOS, FlowLabel 0, HopLmt = TTL
 * and the IPv4-mapped GIDs.  Both get NxtHdr 0x1B and the PayLen of the IB
 * packet they stand for (BTH, DETH, ImmDt when `imm`, the payload of
 * `byte_len` - 40 bytes, pad, ICRC: C8-4).  False, and the header
 * untouched, when it is neither (or byte_len is below 40).
 */
bool ibr_roce_grh(uint8_t *h, uint32_t byte_len, bool imm);

/*
 * How good a RoCE port's GID table entry is to send from: 0 not usable
 * (RoCE v1, which is not routable, or a reserved GID), 1 link-local (it
 * never leaves its link, IBA 4.1.1: only when nothing else is there), 2 any
 * other.  The port's GID is the first entry of the best rank (the verbs
 * backend's and ibrouter-host's choice alike).
 */
enum { IBR_ROCE_GID_UNUSABLE, IBR_ROCE_GID_LINK_LOCAL, IBR_ROCE_GID_ROUTABLE };
int ibr_roce_gid_rank(const uint8_t gid[16], bool roce_v2);

#endif
