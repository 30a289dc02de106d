/* io_verbs_synth.c - the headers the HCA consumed, written back (io_verbs_synth.h). */
#include "router/io_verbs_synth.h"

#include "lib/ibr_pkt.h"

#include <string.h>

bool io_verbs_synth(struct io_verbs_buf *b, const struct io_verbs_rx_info *ri)
{
	uint8_t *grh = b->base + IO_VERBS_GRH_OFF, *pkt, *bth, *deth;
	uint32_t pay, pad, len;

	/* the completion's length is the HCA's word, but never trusted blindly */
	if (ri->byte_len < IBR_GRH_LEN || ri->byte_len > IBR_GRH_LEN + IO_VERBS_MTU)
		return false;
	pay = ri->byte_len - IBR_GRH_LEN;
	pad = (4 - (pay & 3)) & 3; /* IBA 9.2.4: PadCnt to a 4-byte boundary */
	if (ri->has_imm) {	   /* the ImmDt goes between the DETH and the payload */
		memmove(grh - 4, grh, IBR_GRH_LEN);
		grh -= 4;
		memcpy(b->base + IO_VERBS_PAY_OFF - 4, &ri->imm, 4);
	}
	pkt = grh - IBR_LRH_LEN;
	bth = grh + IBR_GRH_LEN;
	deth = bth + IBR_BTH_LEN;
	len = (uint32_t)(b->base + IO_VERBS_PAY_OFF - pkt) + pay + pad + IBR_ICRC_LEN +
	      IBR_VCRC_LEN;
	memset(pkt, 0, IBR_LRH_LEN);
	memset(bth, 0, IBR_BTH_LEN + IBR_DETH_LEN);
	memset(b->base + IO_VERBS_PAY_OFF + pay, 0, pad + IBR_ICRC_LEN + IBR_VCRC_LEN);
	ibr_lrh_set_sl((struct ibr_lrh *)pkt, ri->sl);
	ibr_lrh_set_lnh((struct ibr_lrh *)pkt, IBR_LNH_IBA_GLOBAL);
	ibr_lrh_set_dlid((struct ibr_lrh *)pkt, ri->dlid);
	ibr_lrh_set_pktlen((struct ibr_lrh *)pkt, (uint16_t)((len - IBR_VCRC_LEN) / 4));
	ibr_lrh_set_slid((struct ibr_lrh *)pkt, ri->slid);
	ibr_bth_set_opcode((struct ibr_bth *)bth,
			   ri->has_imm ? IBR_BTH_OP_UD_SEND_ONLY_IMM : IBR_BTH_OP_UD_SEND_ONLY);
	ibr_bth_set_padcnt((struct ibr_bth *)bth, (uint8_t)pad);
	ibr_bth_set_pkey((struct ibr_bth *)bth, ri->pkey);
	ibr_bth_set_destqp((struct ibr_bth *)bth, ri->dest_qp);
	ibr_deth_set_qkey((struct ibr_deth *)deth, ri->qkey);
	ibr_deth_set_srcqp((struct ibr_deth *)deth, ri->src_qp);
	if (ri->crc_fill)
		ibr_pkt_crc_fill(pkt, len); /* the ICRC, then the VCRC over it */
	b->m.data = pkt;
	b->m.len = len;
	b->paylen = pay;
	b->has_imm = ri->has_imm;
	b->imm = ri->imm;
	return true;
}

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

bool io_verbs_roce_grh(uint8_t *h, uint32_t byte_len, bool imm)
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
