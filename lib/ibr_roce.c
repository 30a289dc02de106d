/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_roce.c - a RoCE v2 receive's IP header made the GRH it stands for (ibr_roce.h). */
#include "lib/ibr_roce.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_pkt.h"

#include <string.h>

/*
 * Whether the 20 bytes at `ip4` are this RoCE v2 packet's IPv4 header beyond
 * doubt: version 4, IHL 5 (RoCE v2 carries no options), UDP, a total length
 * of the IB packet (`paylen`) + UDP + IPv4 headers, and the header checksum
 * right (RFC 791).  The 20 bytes before it are undefined (IBA A17.4.5.1):
 * where a NIC leaves there what reads as IPv6's version 6, this tells the
 * two apart; an IPv6 header's bytes 20-39 (its GIDs' last 20) pass it by
 * chance alone.
 */
static bool roce_ip4_sure(const uint8_t *ip4, uint32_t paylen)
{
	uint32_t sum = 0;

	if (ip4[0] != 0x45 || ip4[9] != 17 || ibr_be16_get(ip4 + 2) != paylen + 8 + 20)
		return false;
	for (int i = 0; i < 20; i += 2)
		sum += ibr_be16_get(ip4 + i);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return sum == 0xFFFF;
}

bool ibr_roce_grh(uint8_t *h, uint32_t byte_len, bool imm)
{
	uint32_t pay, paylen;

	if (byte_len < IBR_GRH_LEN)
		return false;
	pay = byte_len - IBR_GRH_LEN;
	paylen = IBR_BTH_LEN + IBR_DETH_LEN + (imm ? IBR_IMMDT_LEN : 0) + pay +
		 ((4 - (pay & 3)) & 3) + IBR_ICRC_LEN;
	if ((h[0] >> 4) != IBR_GRH_IPVER || roce_ip4_sure(h + 20, paylen)) {
		const uint8_t *ip4 = h + 20;
		uint8_t tos, ttl, src[4], dst[4];

		if ((ip4[0] >> 4) != 4)
			return false;
		tos = ip4[1];
		ttl = ip4[8];
		memcpy(src, ip4 + 12, 4);
		memcpy(dst, ip4 + 16, 4);
		memset(h, 0, IBR_GRH_LEN);
		h[0] = (uint8_t)(IBR_GRH_IPVER << 4 | tos >> 4);
		h[1] = (uint8_t)(tos << 4);
		h[7] = ttl;
		h[8 + 10] = h[8 + 11] = 0xFF; /* ::ffff:a.b.c.d */
		memcpy(h + 8 + 12, src, 4);
		h[24 + 10] = h[24 + 11] = 0xFF;
		memcpy(h + 24 + 12, dst, 4);
	}
	h[4] = (uint8_t)(paylen >> 8);
	h[5] = (uint8_t)paylen;
	h[6] = IBR_GRH_NXTHDR_IBA;
	return true;
}

int ibr_roce_gid_rank(const uint8_t gid[16], bool roce_v2)
{
	union ibr_gid g;

	memcpy(g.raw, gid, 16);
	if (!roce_v2 || ibr_gid_is_reserved(&g))
		return IBR_ROCE_GID_UNUSABLE;
	return ibr_gid_is_link_local(&g) ? IBR_ROCE_GID_LINK_LOCAL : IBR_ROCE_GID_ROUTABLE;
}
