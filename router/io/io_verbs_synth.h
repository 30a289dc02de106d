/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_synth.h - how the engine sees a verbs packet (io_verbs.h): from
 * the GRH and payload a UD receive left in a buffer (io_verbs_pool.h
 * layout) and what the work completion says, the whole packet the HCA
 * consumed, LRH through VCRC.  No verbs types here: io_verbs_rx.c fills the
 * description from its ibv_wc.
 */
#ifndef IO_VERBS_SYNTH_H
#define IO_VERBS_SYNTH_H

#include "router/io/io_verbs_pool.h"

#include <stdbool.h>
#include <stdint.h>

struct io_verbs_rx_info {
	uint32_t byte_len; /* GRH + payload: IBR_GRH_LEN .. IBR_GRH_LEN + IO_VERBS_MTU (checked) */
	uint32_t dest_qp;  /* BTH DestQP: 0xFFFFFF for multicast, else the QP received on */
	uint32_t src_qp;   /* DETH SrcQP (wc.src_qp) */
	uint32_t qkey;	   /* DETH Q_Key: the receiving QP's (the HCA matched it, C10-25) */
	uint32_t imm;	   /* ImmDt in network order, when has_imm */
	uint16_t slid;	   /* wc.slid */
	uint16_t dlid;	   /* the port's LID + wc.dlid_path_bits, or the group's MLID */
	uint16_t pkey;	   /* the P_Key at wc.pkey_index */
	uint8_t sl;	   /* wc.sl */
	bool has_imm;
	bool crc_fill; /* compute ICRC and VCRC (else zeros: the HCA checked them) */
};

/*
 * Write the LRH (VL 0, LNH 3), BTH (UD SEND_ONLY or _WITH_IMMEDIATE, PadCnt,
 * TVer 0, PSN 0), DETH and ImmDt around the GRH at IO_VERBS_GRH_OFF and the
 * payload at IO_VERBS_PAY_OFF, then the pad, ICRC and VCRC; point b->m at
 * the packet.  With ImmDt the GRH moves up 4 bytes.  Returns false, and
 * writes nothing, when byte_len is outside its range.  ~10 stores a packet,
 * no payload copy (plus the CRCs when crc_fill).
 */
bool io_verbs_synth(struct io_verbs_buf *b, const struct io_verbs_rx_info *ri);

#endif
