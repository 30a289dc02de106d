/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* io_verbs_synth.c - the headers the HCA consumed, written back (io_verbs_synth.h). */
#include "router/io/io_verbs_synth.h"

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
