/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_pkt.c - libFuzzer target for ibr_pkt_parse(): arbitrary bytes as one
 * sim datagram (LRH .. VCRC).  On success, reads every field of every header
 * found, touches the payload's first and last bytes, checks the CRCs, formats
 * the packet (also into short buffers), and rebuilds UD packets with the
 * builder, which must reproduce the fields it controls.
 */
#include "lib/ibr_pkt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static volatile uint32_t sink;

static void read_fields(const struct ibr_pkt *p)
{
	const struct ibr_grh *g = p->grh ? p->grh : p->ipv6;
	uint32_t s = 0;

	s += ibr_lrh_get_vl(p->lrh) + ibr_lrh_get_lver(p->lrh) + ibr_lrh_get_sl(p->lrh);
	s += ibr_lrh_get_lnh(p->lrh) + ibr_lrh_get_dlid(p->lrh) + ibr_lrh_get_slid(p->lrh);
	s += ibr_lrh_get_pktlen(p->lrh);
	if (g) {
		s += ibr_grh_get_ipver(g) + ibr_grh_get_tclass(g) + ibr_grh_get_flowlabel(g);
		s += ibr_grh_get_paylen(g) + ibr_grh_get_nxthdr(g) + ibr_grh_get_hoplmt(g);
		s += (uint32_t)(ibr_grh_get_sgid_prefix(g) ^ ibr_grh_get_sgid_iid(g));
		s += (uint32_t)(ibr_grh_get_dgid_prefix(g) ^ ibr_grh_get_dgid_iid(g));
	}
	if (p->rwh)
		s += ibr_rwh_get_ethertype(p->rwh);
	if (p->bth) {
		s += ibr_bth_get_opcode(p->bth) + ibr_bth_get_se(p->bth) +
		     ibr_bth_get_migreq(p->bth);
		s += ibr_bth_get_padcnt(p->bth) + ibr_bth_get_tver(p->bth) +
		     ibr_bth_get_pkey(p->bth);
		s += ibr_bth_get_fecn(p->bth) + ibr_bth_get_becn(p->bth) +
		     ibr_bth_get_destqp(p->bth);
		s += ibr_bth_get_ackreq(p->bth) + ibr_bth_get_psn(p->bth);
	}
	if (p->deth)
		s += ibr_deth_get_qkey(p->deth) + ibr_deth_get_srcqp(p->deth);
	if (p->immdt)
		s += ibr_be32_get(p->immdt);
	if (p->payload_len)
		s += p->payload[0] + p->payload[p->payload_len - 1];
	if (p->padcnt)
		s += p->payload[p->payload_len + p->padcnt - 1];
	if (p->icrc_off)
		s += ibr_le32_get(p->buf + p->icrc_off);
	s += ibr_le16_get(p->buf + p->vcrc_off);
	sink = s;
}

/* The builder, fed the parsed fields, must give back the same fields. */
static void rebuild_ud(const struct ibr_pkt *p)
{
	static uint8_t out[IBR_PKT_MAX_LEN];
	struct ibr_pkt_ud_params up = { 0 };
	struct ibr_pkt q;
	uint8_t op = ibr_bth_get_opcode(p->bth);
	int n;

	if (op != IBR_BTH_OP_UD_SEND_ONLY && op != IBR_BTH_OP_UD_SEND_ONLY_IMM)
		return;
	up.slid = ibr_lrh_get_slid(p->lrh);
	up.dlid = ibr_lrh_get_dlid(p->lrh);
	up.sl = ibr_lrh_get_sl(p->lrh);
	up.vl = ibr_lrh_get_vl(p->lrh);
	up.grh = p->grh != NULL;
	if (p->grh) {
		ibr_grh_get_sgid(p->grh, up.sgid);
		ibr_grh_get_dgid(p->grh, up.dgid);
		up.tclass = ibr_grh_get_tclass(p->grh);
		up.flowlabel = ibr_grh_get_flowlabel(p->grh);
		up.hoplmt = ibr_grh_get_hoplmt(p->grh);
	}
	up.opcode = op;
	up.se = ibr_bth_get_se(p->bth);
	up.pkey = ibr_bth_get_pkey(p->bth);
	up.dest_qp = ibr_bth_get_destqp(p->bth);
	up.psn = ibr_bth_get_psn(p->bth);
	up.qkey = ibr_deth_get_qkey(p->deth);
	up.src_qp = ibr_deth_get_srcqp(p->deth);
	up.immdt = p->immdt ? ibr_be32_get(p->immdt) : 0;
	up.payload = p->payload;
	up.payload_len = p->payload_len;
	/* same headers, same payload, hence the same PadCnt and length */
	n = ibr_pkt_build_ud(out, sizeof(out), &up);
	if (n < 0 || (size_t)n != p->len || ibr_pkt_parse(out, (size_t)n, &q) != IBR_PKT_ERR_OK)
		abort();
	if (ibr_pkt_crc_check(&q) != IBR_PKT_ERR_OK || q.payload_len != p->payload_len ||
	    memcmp(q.payload, p->payload, p->payload_len) != 0 ||
	    ibr_bth_get_destqp(q.bth) != up.dest_qp || ibr_deth_get_srcqp(q.deth) != up.src_qp ||
	    ibr_lrh_get_dlid(q.lrh) != up.dlid || (q.grh != NULL) != up.grh)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibr_pkt p;
	enum ibr_pkt_err err;
	char line[512], tiny[8];
	int n;

	err = ibr_pkt_parse(data, size, &p);
	if (!ibr_pkt_strerror(err) || !ibr_pkt_errname(err))
		abort();
	/* the formatter is safe after a failed parse too */
	ibr_pkt_format(&p, line, sizeof(line));
	if (err != IBR_PKT_ERR_OK)
		return 0;
	read_fields(&p);
	ibr_pkt_crc_check(&p);
	n = ibr_pkt_format(&p, line, sizeof(line));
	if (n < 0 || ((size_t)n < sizeof(line) && (size_t)n != strlen(line)))
		abort();
	ibr_pkt_format(&p, tiny, sizeof(tiny));
	ibr_pkt_format(&p, NULL, 0);
	if (p.deth)
		rebuild_ud(&p);
	return 0;
}
