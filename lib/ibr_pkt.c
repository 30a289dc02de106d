/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_pkt.c - parse, check, build and format data-path packets (LRH .. VCRC). */
#include "lib/ibr_pkt.h"
#include "lib/crc/ibr_crc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>

static const char *const pkt_err_desc[] = {
#define IBR_PKT_ERR_DESC(name, id, desc) [IBR_PKT_ERR_##name] = desc,
	IBR_PKT_ERRORS(IBR_PKT_ERR_DESC)
#undef IBR_PKT_ERR_DESC
};

static const char *const pkt_err_id[] = {
#define IBR_PKT_ERR_ID(name, id, desc) [IBR_PKT_ERR_##name] = id,
	IBR_PKT_ERRORS(IBR_PKT_ERR_ID)
#undef IBR_PKT_ERR_ID
};

const char *ibr_pkt_strerror(enum ibr_pkt_err err)
{
	if ((unsigned int)err >= IBR_PKT_ERR__COUNT)
		return "unknown";
	return pkt_err_desc[err];
}

const char *ibr_pkt_errname(enum ibr_pkt_err err)
{
	if ((unsigned int)err >= IBR_PKT_ERR__COUNT)
		return "unknown";
	return pkt_err_id[err];
}

/* ---- parser ---- */

/* LNH 0/1: raw packets, no BTH and no ICRC; the payload runs up to the VCRC. */
static enum ibr_pkt_err pkt_parse_raw(struct ibr_pkt *p)
{
	size_t off = IBR_LRH_LEN;

	if (p->lnh == IBR_LNH_RAW) {
		if (p->len < off + IBR_RWH_LEN + IBR_VCRC_LEN)
			return IBR_PKT_ERR_SHORT_RWH;
		p->rwh = (const struct ibr_rwh *)(p->buf + off);
		off += IBR_RWH_LEN;
	} else {
		if (p->len < off + IBR_GRH_LEN + IBR_VCRC_LEN)
			return IBR_PKT_ERR_SHORT_IPV6;
		p->ipv6 = (const struct ibr_grh *)(p->buf + off);
		off += IBR_GRH_LEN;
	}
	p->payload = p->buf + off;
	p->hdr_len = (uint16_t)off;
	p->payload_len = (uint16_t)(p->vcrc_off - off);
	return IBR_PKT_ERR_OK;
}

/* LNH 3: the GRH after the LRH (IBA 8.3).  PktLen already matches len. */
static enum ibr_pkt_err pkt_parse_grh(struct ibr_pkt *p)
{
	const struct ibr_grh *grh;

	if (p->len < IBR_LRH_LEN + IBR_GRH_LEN + IBR_ICRC_LEN + IBR_VCRC_LEN)
		return IBR_PKT_ERR_SHORT_GRH;
	grh = (const struct ibr_grh *)(p->buf + IBR_LRH_LEN);
	p->grh = grh;
	if (ibr_grh_get_ipver(grh) != IBR_GRH_IPVER) /* C8-2 */
		return IBR_PKT_ERR_IPVER;
	if (ibr_grh_get_nxthdr(grh) != IBR_GRH_NXTHDR_IBA) /* C8-7 */
		return IBR_PKT_ERR_NXTHDR;
	/* PayLen: first byte after the GRH through the ICRC = PktLen*4 - LRH - GRH. */
	if (ibr_grh_get_paylen(grh) != p->icrc_off + IBR_ICRC_LEN - IBR_LRH_LEN - IBR_GRH_LEN)
		return IBR_PKT_ERR_PAYLEN;
	return IBR_PKT_ERR_OK;
}

/*
 * BTH and, for the UD group, DETH and ImmDt (IBA 9.2, 9.3); `off` is where
 * the BTH starts.  The ICRC sits at p->icrc_off, so headers must end by then.
 */
static enum ibr_pkt_err pkt_parse_transport(struct ibr_pkt *p, size_t off)
{
	uint8_t op;

	if (off + IBR_BTH_LEN > p->icrc_off)
		return IBR_PKT_ERR_SHORT_BTH;
	p->bth = (const struct ibr_bth *)(p->buf + off);
	off += IBR_BTH_LEN;
	op = ibr_bth_get_opcode(p->bth);
	if (ibr_bth_op_is_ud(op)) {
		if (off + IBR_DETH_LEN > p->icrc_off)
			return IBR_PKT_ERR_SHORT_DETH;
		p->deth = (const struct ibr_deth *)(p->buf + off);
		off += IBR_DETH_LEN;
		if (op == IBR_BTH_OP_UD_SEND_ONLY_IMM) {
			if (off + IBR_IMMDT_LEN > p->icrc_off)
				return IBR_PKT_ERR_SHORT_IMMDT;
			p->immdt = p->buf + off;
			off += IBR_IMMDT_LEN;
		}
	}
	/* PadCnt bytes end the payload, just before the ICRC (IBA 9.2). */
	p->padcnt = ibr_bth_get_padcnt(p->bth);
	if (p->padcnt > p->icrc_off - off)
		return IBR_PKT_ERR_PADCNT;
	p->payload = p->buf + off;
	p->hdr_len = (uint16_t)off;
	p->payload_len = (uint16_t)(p->icrc_off - off - p->padcnt);
	return IBR_PKT_ERR_OK;
}

/* Runs on every packet: ~5 ns for a global UD packet (gcc -O2, 2-core dev VM). */
enum ibr_pkt_err ibr_pkt_parse(const void *buf, size_t len, struct ibr_pkt *out)
{
	enum ibr_pkt_err err;
	size_t off = IBR_LRH_LEN;

	memset(out, 0, sizeof(*out));
	out->buf = buf;
	out->len = len;
	if (len < IBR_LRH_LEN + IBR_VCRC_LEN)
		return IBR_PKT_ERR_SHORT;
	out->lrh = buf;
	out->lnh = ibr_lrh_get_lnh(out->lrh);
	if (ibr_lrh_get_lver(out->lrh) != 0)
		return IBR_PKT_ERR_LVER;
	/* PktLen counts LRH through ICRC (or the last byte before the VCRC). */
	if ((size_t)ibr_lrh_get_pktlen(out->lrh) * 4 + IBR_VCRC_LEN != len)
		return IBR_PKT_ERR_PKTLEN;
	out->vcrc_off = (uint16_t)(len - IBR_VCRC_LEN); /* len <= IBR_PKT_MAX_LEN now */
	if (out->lnh < IBR_LNH_IBA_LOCAL)
		return pkt_parse_raw(out);
	if (len < IBR_LRH_LEN + IBR_ICRC_LEN + IBR_VCRC_LEN)
		return out->lnh == IBR_LNH_IBA_GLOBAL ? IBR_PKT_ERR_SHORT_GRH
						      : IBR_PKT_ERR_SHORT_BTH;
	out->icrc_off = (uint16_t)(out->vcrc_off - IBR_ICRC_LEN);
	if (out->lnh == IBR_LNH_IBA_GLOBAL) {
		err = pkt_parse_grh(out);
		if (err != IBR_PKT_ERR_OK)
			return err;
		off += IBR_GRH_LEN;
	}
	return pkt_parse_transport(out, off);
}

/* ---- CRCs (IBA 7.8) ---- */

enum ibr_pkt_err ibr_pkt_crc_check(const struct ibr_pkt *p)
{
	if (ibr_le16_get(p->buf + p->vcrc_off) != ibr_vcrc(p->buf, p->vcrc_off))
		return IBR_PKT_ERR_VCRC;
	if (p->bth && ibr_le32_get(p->buf + p->icrc_off) != ibr_icrc(p->buf, p->icrc_off))
		return IBR_PKT_ERR_ICRC;
	return IBR_PKT_ERR_OK;
}

int ibr_pkt_crc_fill(void *buf, size_t len)
{
	uint8_t *b = buf;
	size_t min = IBR_LRH_LEN + IBR_VCRC_LEN;
	uint8_t lnh;

	if (!buf || len < min || len > IBR_PKT_MAX_LEN)
		return -EINVAL;
	lnh = ibr_lrh_get_lnh(buf);
	/* the ICRC masks fields of the GRH and the BTH: they must be there */
	if (lnh >= IBR_LNH_IBA_LOCAL)
		min += IBR_BTH_LEN + IBR_ICRC_LEN;
	if (lnh == IBR_LNH_IBA_GLOBAL)
		min += IBR_GRH_LEN;
	if (len < min)
		return -EINVAL;
	if (lnh >= IBR_LNH_IBA_LOCAL) {
		size_t icrc_off = len - IBR_VCRC_LEN - IBR_ICRC_LEN;

		ibr_le32_put(b + icrc_off, ibr_icrc(b, icrc_off));
	}
	ibr_le16_put(b + len - IBR_VCRC_LEN, ibr_vcrc(b, len - IBR_VCRC_LEN));
	return 0;
}

/* ---- builder ---- */

static int pkt_ud_params_check(const struct ibr_pkt_ud_params *p)
{
	if (p->sl > 15 || p->vl > 15 || p->flowlabel > 0xfffff)
		return -EINVAL;
	if (p->dest_qp > IBR_QPN_MASK || p->src_qp > IBR_QPN_MASK || p->psn > IBR_PSN_MASK)
		return -EINVAL;
	if (p->opcode != 0 && p->opcode != IBR_BTH_OP_UD_SEND_ONLY &&
	    p->opcode != IBR_BTH_OP_UD_SEND_ONLY_IMM)
		return -EINVAL;
	if (!p->payload && p->payload_len)
		return -EINVAL;
	if (p->payload_len > IBR_PKT_MAX_LEN)
		return -EINVAL;
	return 0;
}

static void pkt_write_lrh_grh(uint8_t *b, const struct ibr_pkt_ud_params *p, size_t icrc_end)
{
	struct ibr_lrh *lrh = (struct ibr_lrh *)b;
	struct ibr_grh *grh = (struct ibr_grh *)(b + IBR_LRH_LEN);

	ibr_lrh_set_vl(lrh, p->vl);
	ibr_lrh_set_lver(lrh, 0);
	ibr_lrh_set_sl(lrh, p->sl);
	ibr_lrh_set_lnh(lrh, p->grh ? IBR_LNH_IBA_GLOBAL : IBR_LNH_IBA_LOCAL);
	ibr_lrh_set_dlid(lrh, p->dlid);
	ibr_lrh_set_pktlen(lrh, (uint16_t)(icrc_end / 4));
	ibr_lrh_set_slid(lrh, p->slid);
	if (!p->grh)
		return;
	ibr_grh_set_ipver(grh, IBR_GRH_IPVER); /* C8-2 */
	ibr_grh_set_tclass(grh, p->tclass);
	ibr_grh_set_flowlabel(grh, p->flowlabel);
	ibr_grh_set_paylen(grh, (uint16_t)(icrc_end - IBR_LRH_LEN - IBR_GRH_LEN));
	ibr_grh_set_nxthdr(grh, IBR_GRH_NXTHDR_IBA); /* C8-7 */
	ibr_grh_set_hoplmt(grh, p->hoplmt);
	ibr_grh_set_sgid(grh, p->sgid);
	ibr_grh_set_dgid(grh, p->dgid);
}

/* BTH, DETH and (0x65) ImmDt at b. */
static void pkt_write_transport(uint8_t *b, const struct ibr_pkt_ud_params *p, uint8_t op,
				uint8_t pad)
{
	struct ibr_bth *bth = (struct ibr_bth *)b;
	struct ibr_deth *deth = (struct ibr_deth *)(b + IBR_BTH_LEN);

	ibr_bth_set_opcode(bth, op);
	ibr_bth_set_se(bth, p->se);
	ibr_bth_set_padcnt(bth, pad);
	ibr_bth_set_tver(bth, 0);
	ibr_bth_set_pkey(bth, p->pkey);
	ibr_bth_set_destqp(bth, p->dest_qp);
	ibr_bth_set_psn(bth, p->psn);
	ibr_deth_set_qkey(deth, p->qkey);
	ibr_deth_set_srcqp(deth, p->src_qp);
	if (op == IBR_BTH_OP_UD_SEND_ONLY_IMM)
		ibr_be32_put(b + IBR_BTH_LEN + IBR_DETH_LEN, p->immdt);
}

int ibr_pkt_build_ud(void *buf, size_t size, const struct ibr_pkt_ud_params *p)
{
	uint8_t *b = buf;
	uint8_t op, pad;
	size_t bth_off, hdr, icrc_off, total;
	int err;

	err = pkt_ud_params_check(p);
	if (err)
		return err;
	op = p->opcode ? p->opcode : IBR_BTH_OP_UD_SEND_ONLY;
	bth_off = IBR_LRH_LEN + (p->grh ? IBR_GRH_LEN : 0);
	hdr = bth_off + IBR_BTH_LEN + IBR_DETH_LEN;
	if (op == IBR_BTH_OP_UD_SEND_ONLY_IMM)
		hdr += IBR_IMMDT_LEN;
	pad = (uint8_t)(-p->payload_len & 3);
	icrc_off = hdr + p->payload_len + pad;
	total = icrc_off + IBR_ICRC_LEN + IBR_VCRC_LEN;
	if (total > IBR_PKT_MAX_LEN)
		return -EINVAL;
	if (!buf || size < total)
		return -ENOSPC;
	/* payload first: it may already sit inside buf */
	if (p->payload_len)
		memmove(b + hdr, p->payload, p->payload_len);
	memset(b + hdr + p->payload_len, 0, pad);
	memset(b, 0, hdr);
	pkt_write_lrh_grh(b, p, icrc_off + IBR_ICRC_LEN);
	pkt_write_transport(b + bth_off, p, op, pad);
	ibr_le32_put(b + icrc_off, ibr_icrc(b, icrc_off));
	ibr_le16_put(b + icrc_off + IBR_ICRC_LEN, ibr_vcrc(b, icrc_off + IBR_ICRC_LEN));
	return (int)total;
}

/* ---- opcode names (IBA 9.2, table of opcodes; 1.2.1 with XRC) ---- */

static const char *const bth_op_names[] = {
	"SEND_FIRST",
	"SEND_MIDDLE",
	"SEND_LAST",
	"SEND_LAST_WITH_IMMEDIATE",
	"SEND_ONLY",
	"SEND_ONLY_WITH_IMMEDIATE",
	"RDMA_WRITE_FIRST",
	"RDMA_WRITE_MIDDLE",
	"RDMA_WRITE_LAST",
	"RDMA_WRITE_LAST_WITH_IMMEDIATE",
	"RDMA_WRITE_ONLY",
	"RDMA_WRITE_ONLY_WITH_IMMEDIATE",
	"RDMA_READ_REQUEST",
	"RDMA_READ_RESPONSE_FIRST",
	"RDMA_READ_RESPONSE_MIDDLE",
	"RDMA_READ_RESPONSE_LAST",
	"RDMA_READ_RESPONSE_ONLY",
	"ACKNOWLEDGE",
	"ATOMIC_ACKNOWLEDGE",
	"COMPARE_SWAP",
	"FETCH_ADD",
	"RESYNC",
	"SEND_LAST_WITH_INVALIDATE",
	"SEND_ONLY_WITH_INVALIDATE",
};

/* Bit n set: operation n (the low 5 bits) is defined for the group. */
static const uint32_t bth_op_valid[8] = {
	[IBR_BTH_GRP_RC] = 0x00dfffff,	/* 0x00-0x14, 0x16, 0x17 */
	[IBR_BTH_GRP_UC] = 0x00000fff,	/* sends and RDMA writes */
	[IBR_BTH_GRP_RD] = 0x003fffff,	/* 0x00-0x15 */
	[IBR_BTH_GRP_UD] = 0x00000030,	/* SEND_ONLY, SEND_ONLY_WITH_IMMEDIATE */
	[IBR_BTH_GRP_XRC] = 0x00dfffff, /* as RC */
};

const char *ibr_bth_op_group_name(uint8_t op)
{
	static const char *const names[8] = { "RC",  "UC",  "RD",     "UD",
					      "CNP", "XRC", "VENDOR", "VENDOR" };

	return names[IBR_BTH_OP_GROUP(op)];
}

const char *ibr_bth_op_name(uint8_t op)
{
	unsigned int n = op & 0x1f;

	if (op == IBR_BTH_OP_CNP)
		return "CNP";
	if (!(bth_op_valid[IBR_BTH_OP_GROUP(op)] & (1u << n)))
		return NULL;
	return bth_op_names[n];
}

/* ---- formatter ---- */

struct pkt_fmt {
	char *buf;
	size_t n;
	size_t pos;
};

static void pkt_fmt_add(struct pkt_fmt *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void pkt_fmt_add(struct pkt_fmt *f, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	if (f->pos < f->n)
		r = vsnprintf(f->buf + f->pos, f->n - f->pos, fmt, ap);
	else
		r = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (r > 0)
		f->pos += (size_t)r;
}

static void pkt_fmt_gids(struct pkt_fmt *f, const struct ibr_grh *h)
{
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];

	if (!inet_ntop(AF_INET6, ibr_grh_sgid(h), s, sizeof(s)))
		snprintf(s, sizeof(s), "?");
	if (!inet_ntop(AF_INET6, ibr_grh_dgid(h), d, sizeof(d)))
		snprintf(d, sizeof(d), "?");
	pkt_fmt_add(f, "%s > %s", s, d);
}

static void pkt_fmt_transport(struct pkt_fmt *f, const struct ibr_pkt *p)
{
	const struct ibr_bth *bth = p->bth;
	uint8_t op = ibr_bth_get_opcode(bth);
	const char *name = ibr_bth_op_name(op);

	pkt_fmt_add(f, ", %s ", ibr_bth_op_group_name(op));
	if (name)
		pkt_fmt_add(f, "%s", name);
	else
		pkt_fmt_add(f, "op 0x%02x", op);
	pkt_fmt_add(f, " pkey 0x%04x", ibr_bth_get_pkey(bth));
	if (p->deth)
		pkt_fmt_add(f, " qp 0x%06x >", ibr_deth_get_srcqp(p->deth));
	else
		pkt_fmt_add(f, " qp");
	pkt_fmt_add(f, " 0x%06x psn %u", ibr_bth_get_destqp(bth), ibr_bth_get_psn(bth));
	if (p->deth)
		pkt_fmt_add(f, " qkey 0x%08x", ibr_deth_get_qkey(p->deth));
	if (p->immdt)
		pkt_fmt_add(f, " imm 0x%08x", ibr_be32_get(p->immdt));
	if (ibr_bth_get_tver(bth))
		pkt_fmt_add(f, " tver %u", ibr_bth_get_tver(bth));
	pkt_fmt_add(f, "%s%s%s%s%s", ibr_bth_get_se(bth) ? " se" : "",
		    ibr_bth_get_migreq(bth) ? " m" : "", ibr_bth_get_fecn(bth) ? " fecn" : "",
		    ibr_bth_get_becn(bth) ? " becn" : "", ibr_bth_get_ackreq(bth) ? " ackreq" : "");
	pkt_fmt_add(f, ", payload %u pad %u", p->payload_len, p->padcnt);
}

int ibr_pkt_format(const struct ibr_pkt *p, char *buf, size_t n)
{
	struct pkt_fmt f = { buf, n, 0 };
	const struct ibr_lrh *lrh = p->lrh;

	if (n)
		buf[0] = '\0';
	if (!lrh) {
		pkt_fmt_add(&f, "(short packet, %zu bytes)", p->len);
		return (int)f.pos;
	}
	pkt_fmt_add(&f, "lid 0x%04x > 0x%04x vl %u sl %u len %zu", ibr_lrh_get_slid(lrh),
		    ibr_lrh_get_dlid(lrh), ibr_lrh_get_vl(lrh), ibr_lrh_get_sl(lrh), p->len);
	if (p->grh) {
		pkt_fmt_add(&f, ", gid ");
		pkt_fmt_gids(&f, p->grh);
		pkt_fmt_add(&f, " tc 0x%02x fl 0x%05x hop %u", ibr_grh_get_tclass(p->grh),
			    ibr_grh_get_flowlabel(p->grh), ibr_grh_get_hoplmt(p->grh));
	}
	if (p->bth) {
		pkt_fmt_transport(&f, p);
	} else if (p->rwh) {
		pkt_fmt_add(&f, ", raw ethertype 0x%04x, payload %u", ibr_rwh_get_ethertype(p->rwh),
			    p->payload_len);
	} else if (p->ipv6) {
		pkt_fmt_add(&f, ", raw ipv6 ");
		pkt_fmt_gids(&f, p->ipv6);
		pkt_fmt_add(&f, " nxt %u, payload %u", ibr_grh_get_nxthdr(p->ipv6), p->payload_len);
	} else {
		pkt_fmt_add(&f, " lnh %u", p->lnh);
	}
	return (int)f.pos;
}
