/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fake_verbs_qp.c - UD QPs of the fake provider: the state machine (IBA
 * 10.3.1), sends that become wire packets, wire packets that become receive
 * completions (IBA 11.4.2.1: the 40-byte GRH first in the scatter list), and
 * multicast attachment (IBA 10.5: delivery by MGID and MLID).
 */
#include "tests/fakes/fake_verbs_priv.h"

#include "lib/ibr_pkt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	struct fv_dev *d = fv_of(pd->context);
	struct fv_qp *q;
	unsigned slot;

	for (slot = 0; slot < FV_MAX_QPS && d->qps[slot]; slot++)
		;
	if (a->qp_type != IBV_QPT_UD || slot == FV_MAX_QPS || !a->cap.max_recv_wr ||
	    !a->cap.max_send_wr || a->cap.max_recv_sge > 4) {
		errno = EINVAL;
		return NULL;
	}
	q = calloc(1, sizeof(*q));
	if (!q || !(q->rq = calloc(a->cap.max_recv_wr, sizeof(*q->rq))) ||
	    !(q->sq_ah = calloc(a->cap.max_send_wr, sizeof(*q->sq_ah)))) {
		if (q)
			free(q->rq);
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	q->rq_size = a->cap.max_recv_wr;
	q->sq_size = a->cap.max_send_wr;
	q->sq_sig_all = a->sq_sig_all;
	q->qp.context = pd->context;
	q->qp.pd = pd;
	q->qp.send_cq = a->send_cq;
	q->qp.recv_cq = a->recv_cq;
	q->qp.qp_context = a->qp_context;
	q->qp.qp_type = IBV_QPT_UD;
	q->qp.state = IBV_QPS_RESET;
	q->qp.qp_num = d->next_qpn++;
	d->qps[slot] = q;
	d->st.qp_live++;
	return &q->qp;
}

/*
 * Entering the error state completes every posted receive WQE with a flush
 * error (IBA 10.3.1, Error state): they come back through the receive CQ.
 */
static void fv_rq_flush(struct fv_dev *d, struct fv_qp *q)
{
	while (q->rq_count) {
		struct fv_cqe e = { .wc = { .wr_id = q->rq[q->rq_head].wr_id,
					    .status = IBV_WC_WR_FLUSH_ERR,
					    .opcode = IBV_WC_RECV,
					    .qp_num = q->qp.qp_num } };

		q->rq_head = (q->rq_head + 1) % q->rq_size;
		q->rq_count--;
		if (fv_cq_push(d, (struct fv_cq *)q->qp.recv_cq, &e))
			d->st.rx_flushed++;
	}
}

int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask)
{
	struct fv_qp *q = (struct fv_qp *)qp;

	if (!(mask & IBV_QP_STATE))
		return EINVAL;
	switch (attr->qp_state) {
	case IBV_QPS_RESET: /* drops every outstanding WQE, no completions (IBA 10.3.1.1) */
		q->rq_count = q->rq_head = 0;
		fv_sq_retire(q, q->sq_out);
		q->sq_unsig = 0;
		break;
	case IBV_QPS_INIT:
		if (qp->state != IBV_QPS_RESET && qp->state != IBV_QPS_INIT)
			return EINVAL;
		if ((mask & IBV_QP_PORT) && attr->port_num != 1)
			return EINVAL;
		if (mask & IBV_QP_QKEY)
			q->qkey = attr->qkey;
		if (mask & IBV_QP_PKEY_INDEX)
			q->pkey_index = attr->pkey_index;
		break;
	case IBV_QPS_RTR:
		if (qp->state != IBV_QPS_INIT)
			return EINVAL;
		break;
	case IBV_QPS_RTS:
		if (qp->state != IBV_QPS_RTR)
			return EINVAL;
		if (mask & IBV_QP_SQ_PSN)
			q->psn = attr->sq_psn & 0xFFFFFF;
		break;
	case IBV_QPS_ERR:
		fv_rq_flush(fv_of(qp->context), q);
		break;
	default:
		return EINVAL;
	}
	qp->state = attr->qp_state;
	return 0;
}

int ibv_destroy_qp(struct ibv_qp *qp)
{
	struct fv_dev *d = fv_of(qp->context);
	struct fv_qp *q = (struct fv_qp *)qp;

	/* as the kernel's uverbs: a QP still attached to a group is not destroyed */
	for (unsigned i = 0; i < d->nmc; i++)
		if (d->mc[i].qp == q)
			return EBUSY;
	for (unsigned i = 0; i < FV_MAX_QPS; i++)
		if (d->qps[i] == q)
			d->qps[i] = NULL;
	d->st.qp_live--;
	fv_sq_retire(q, q->sq_out);
	free(q->sq_ah);
	free(q->rq);
	free(q);
	return 0;
}

/*
 * IB: an MGID and its MLID.  RoCE: an IP multicast address; the kernel
 * checks no MLID on Ethernet (there are none: the backend gives 0), and
 * delivery goes by MGID alone.
 */
int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	struct fv_dev *d = fv_of(qp->context);

	if (d->cfg.roce ? !fv_roce_mgid_ok(gid)
			: gid->raw[0] != 0xFF || lid < 0xC000 || lid == 0xFFFF)
		return EINVAL;
	if (d->nmc == FV_MAX_MCAST)
		return ENOMEM;
	d->mc[d->nmc++] = (struct fv_mcast){ (struct fv_qp *)qp, *gid, lid };
	return 0;
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	struct fv_dev *d = fv_of(qp->context);

	for (unsigned i = 0; i < d->nmc; i++)
		if (d->mc[i].qp == (struct fv_qp *)qp && (d->cfg.roce || d->mc[i].lid == lid) &&
		    !memcmp(d->mc[i].gid.raw, gid->raw, 16)) {
			d->mc[i] = d->mc[--d->nmc];
			return 0;
		}
	return EINVAL;
}

/* ---- send: a work request becomes a packet on the wire ---- */

/* Gather the SGEs (each inside a registered region) into `buf`; the length or -1. */
static int fv_gather(struct fv_dev *d, const struct ibv_send_wr *wr, uint8_t *buf, size_t size)
{
	size_t len = 0;

	for (int i = 0; i < wr->num_sge; i++) {
		const struct ibv_sge *s = &wr->sg_list[i];
		const struct ibv_mr *mr = NULL;

		for (unsigned k = 0; k < 16; k++)
			if (d->mrs[k] && d->mrs[k]->lkey == s->lkey)
				mr = d->mrs[k];
		if (!mr || s->addr < (uintptr_t)mr->addr ||
		    s->addr + s->length > (uintptr_t)mr->addr + mr->length ||
		    len + s->length > size)
			return -1;
		memcpy(buf + len, (const void *)(uintptr_t)s->addr, s->length);
		len += s->length;
	}
	return (int)len;
}

static enum ibv_wc_status fv_send_one(struct fv_dev *d, struct fv_qp *q,
				      const struct ibv_send_wr *wr)
{
	const struct ibv_ah_attr *ah = &((struct fv_ah *)wr->wr.ud.ah)->attr;
	uint8_t payload[4096], pkt[FV_PKT_MAX];
	struct ibr_pkt_ud_params p = { 0 };
	struct ibv_gid_entry sgid;
	int len = fv_gather(d, wr, payload, 128u << d->cfg.mtu);

	if (len < 0)
		return IBV_WC_LOC_PROT_ERR;
	if (wr->opcode != IBV_WR_SEND && wr->opcode != IBV_WR_SEND_WITH_IMM)
		return IBV_WC_LOC_QP_OP_ERR;
	p.slid = (uint16_t)(fv_lid(d) | ah->src_path_bits);
	p.dlid = ah->dlid;
	p.sl = ah->sl;
	p.grh = ah->is_global;
	/* the SGID the AH names (IB: GID 0; RoCE: a RoCE v2 entry, ibv_create_ah checked) */
	if (!fv_gid_entry(d, d->cfg.roce ? ah->grh.sgid_index : 0, &sgid))
		return IBV_WC_LOC_QP_OP_ERR;
	memcpy(p.sgid, sgid.gid.raw, 16);
	memcpy(p.dgid, ah->grh.dgid.raw, 16);
	p.tclass = ah->grh.traffic_class;
	p.flowlabel = d->cfg.roce ? 0 : ah->grh.flow_label; /* rxe sends FlowLabel 0 */
	p.hoplmt = ah->grh.hop_limit;
	p.opcode = wr->opcode == IBV_WR_SEND_WITH_IMM ? IBR_BTH_OP_UD_SEND_ONLY_IMM
						      : IBR_BTH_OP_UD_SEND_ONLY;
	p.immdt = be32toh(wr->imm_data);
	p.se = wr->send_flags & IBV_SEND_SOLICITED;
	p.pkey = d->cfg.pkey;
	p.dest_qp = wr->wr.ud.remote_qpn;
	p.psn = q->psn;
	q->psn = (q->psn + 1) & 0xFFFFFF;
	/* C10-15: a Q_Key with the high bit set means "use the QP's own" */
	p.qkey = (wr->wr.ud.remote_qkey & 0x80000000u) ? q->qkey : wr->wr.ud.remote_qkey;
	p.src_qp = q->qp.qp_num;
	p.payload = payload;
	p.payload_len = (size_t)len;
	len = ibr_pkt_build_ud(pkt, sizeof(pkt), &p);
	if (len < 0)
		return IBV_WC_LOC_LEN_ERR;
	if (d->state != IBV_PORT_ACTIVE) {
		d->st.tx_down++; /* a down link loses the packet; the WQE still completes */
		return IBV_WC_SUCCESS;
	}
	if (sendto(d->fd, pkt, (size_t)len, MSG_DONTWAIT, (struct sockaddr *)&d->peer,
		   sizeof(d->peer)) == len)
		d->st.wire_tx++;
	else
		d->st.wire_full++;
	return IBV_WC_SUCCESS;
}

int fv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad)
{
	struct fv_dev *d = fv_of(qp->context);
	struct fv_qp *q = (struct fv_qp *)qp;
	struct fv_ah *ah;

	d->st.post_send_calls++;
	for (; wr; wr = wr->next) {
		struct fv_cqe e = {
			.wc = { .wr_id = wr->wr_id, .opcode = IBV_WC_SEND, .qp_num = qp->qp_num },
			.qp = q
		};

		if (qp->state != IBV_QPS_RTS && qp->state != IBV_QPS_ERR) {
			*bad = wr;
			return EINVAL;
		}
		if (q->sq_out == q->sq_size) {
			d->st.sq_full++;
			*bad = wr;
			return ENOMEM;
		}
		/* the WQE holds its AH until a polled completion retires it */
		ah = (struct fv_ah *)wr->wr.ud.ah;
		q->sq_ah[(q->sq_first + q->sq_out++) % q->sq_size] = ah;
		if (ah)
			ah->refs++;
		d->st.send_wrs++;
		if (qp->state == IBV_QPS_ERR)
			e.wc.status = IBV_WC_WR_FLUSH_ERR;
		else if (d->fault_send && !--d->fault_send)
			e.wc.status = IBV_WC_LOC_QP_OP_ERR;
		else
			e.wc.status = fv_send_one(d, q, wr);
		if (e.wc.status == IBV_WC_SUCCESS && !(wr->send_flags & IBV_SEND_SIGNALED) &&
		    !q->sq_sig_all) {
			q->sq_unsig++;
			continue;
		}
		/* a completion retires its WQE and the unsignalled ones before it (IBA 10.8.6) */
		e.retire = q->sq_unsig + 1;
		q->sq_unsig = 0;
		if (e.wc.status != IBV_WC_SUCCESS)
			qp->state = IBV_QPS_ERR; /* errors always complete, and stop the QP */
		fv_cq_push(d, (struct fv_cq *)qp->send_cq, &e);
	}
	return 0;
}

/* ---- receive: a wire packet becomes a completion ---- */

int fv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad)
{
	struct fv_dev *d = fv_of(qp->context);
	struct fv_qp *q = (struct fv_qp *)qp;

	d->st.post_recv_calls++;
	for (; wr; wr = wr->next) {
		struct fv_recv *r;

		if (qp->state == IBV_QPS_RESET || q->rq_count == q->rq_size || wr->num_sge > 4 ||
		    wr->num_sge < 1) {
			*bad = wr;
			return ENOMEM;
		}
		r = &q->rq[(q->rq_head + q->rq_count++) % q->rq_size];
		r->wr_id = wr->wr_id;
		r->nsge = wr->num_sge;
		memcpy(r->sge, wr->sg_list, sizeof(r->sge[0]) * (size_t)wr->num_sge);
		d->st.recv_wrs++;
	}
	return 0;
}

/* Scatter `n` bytes over the WQE's SGEs; false when they do not fit. */
static bool fv_scatter(const struct fv_recv *r, const uint8_t *src, size_t n)
{
	for (int i = 0; i < r->nsge && n; i++) {
		size_t k = r->sge[i].length < n ? r->sge[i].length : n;

		memcpy((void *)(uintptr_t)r->sge[i].addr, src, k);
		src += k;
		n -= k;
	}
	return n == 0;
}

static void fv_deliver(struct fv_dev *d, struct fv_qp *q, const struct ibr_pkt *p)
{
	uint8_t tmp[IBR_GRH_LEN + 4096];
	struct fv_cqe e = { .wc = { .opcode = IBV_WC_RECV, .qp_num = q->qp.qp_num } };
	struct fv_recv *r;
	size_t n = IBR_GRH_LEN + p->payload_len;

	if (q->qp.state == IBV_QPS_RESET || q->qp.state == IBV_QPS_INIT ||
	    q->qp.state == IBV_QPS_ERR ||
	    ibr_deth_get_qkey(p->deth) != q->qkey) { /* C10-25: Q_Key mismatch drops */
		d->st.rx_filtered++;
		return;
	}
	if (!q->rq_count || d->fault_rq) {
		if (d->fault_rq)
			d->fault_rq--;
		d->st.rx_no_wqe++; /* UD: silently dropped (IBA 10.7.2.3) */
		return;
	}
	r = &q->rq[q->rq_head];
	q->rq_head = (q->rq_head + 1) % q->rq_size;
	q->rq_count--;
	/* without a GRH the first 40 bytes are undefined (IBA 11.4.2.1): zeros here;
	 * on RoCE they hold the IP header (fake_verbs_roce.c) */
	memset(tmp, 0, IBR_GRH_LEN);
	if (d->cfg.roce)
		fv_roce_ip_hdr(tmp, p->grh);
	else if (p->grh)
		memcpy(tmp, p->grh, IBR_GRH_LEN);
	if (n > sizeof(tmp))
		n = sizeof(tmp);
	memcpy(tmp + IBR_GRH_LEN, p->payload, n - IBR_GRH_LEN);
	e.wc.wr_id = r->wr_id;
	e.wc.status = fv_scatter(r, tmp, n) ? IBV_WC_SUCCESS : IBV_WC_LOC_LEN_ERR;
	e.wc.byte_len = (uint32_t)n;
	e.wc.src_qp = ibr_deth_get_srcqp(p->deth);
	/* RoCE: no LIDs, no SL in the packet (its priority is the VLAN's or DSCP's) */
	e.wc.slid = d->cfg.roce ? 0 : ibr_lrh_get_slid(p->lrh);
	e.wc.sl = d->cfg.roce ? 0 : ibr_lrh_get_sl(p->lrh);
	e.wc.pkey_index = 0;
	e.wc.dlid_path_bits = (uint8_t)(ibr_lrh_get_dlid(p->lrh) & ((1u << d->cfg.lmc) - 1));
	e.wc.wc_flags = p->grh ? IBV_WC_GRH : 0;
	if (p->immdt) {
		e.wc.wc_flags |= IBV_WC_WITH_IMM;
		e.wc.imm_data = htobe32(ibr_be32_get(p->immdt));
	}
	if (fv_cq_push(d, (struct fv_cq *)q->qp.recv_cq, &e))
		d->st.rx_delivered++;
}

/* What an HCA port does with one packet off the wire. */
static void fv_wire_rx(struct fv_dev *d, const uint8_t *buf, size_t len)
{
	struct ibr_pkt p;
	uint16_t dlid;
	uint32_t qpn;
	bool hit = false;

	if (ibr_pkt_parse(buf, len, &p) != IBR_PKT_ERR_OK || ibr_pkt_crc_check(&p) || !p.deth ||
	    d->state != IBV_PORT_ACTIVE || (d->cfg.roce && !p.grh) || /* RoCE v2: always IP */
	    p.payload_len > (128u << d->cfg.mtu) ||   /* longer than the MTU: the link drops it */
	    ibr_bth_get_pkey(p.bth) != d->cfg.pkey) { /* C9-42 (simplified): P_Key match */
		d->st.rx_filtered++;
		return;
	}
	dlid = ibr_lrh_get_dlid(p.lrh);
	qpn = ibr_bth_get_destqp(p.bth);
	if (qpn == 0xFFFFFF) { /* multicast: every QP attached to this MGID and MLID */
		for (unsigned i = 0; p.grh && i < d->nmc; i++)
			if ((d->cfg.roce || d->mc[i].lid == dlid) &&
			    !memcmp(d->mc[i].gid.raw, ibr_grh_dgid(p.grh), 16)) {
				fv_deliver(d, d->mc[i].qp, &p);
				hit = true;
			}
	} else if (d->cfg.roce ? fv_roce_gid_own(d, ibr_grh_dgid(p.grh))
			       : dlid >= fv_lid(d) &&
					 (unsigned)(dlid - fv_lid(d)) < (1u << d->cfg.lmc)) {
		/* RoCE: IP delivers to the host's own addresses, whatever the DLID */
		for (unsigned i = 0; i < FV_MAX_QPS; i++)
			if (d->qps[i] && d->qps[i]->qp.qp_num == qpn) {
				fv_deliver(d, d->qps[i], &p);
				hit = true;
			}
	}
	if (!hit)
		d->st.rx_filtered++;
}

void fv_wire_pump(struct fv_dev *d)
{
	uint8_t buf[FV_PKT_MAX];

	for (unsigned i = 0; i < FV_PUMP; i++) {
		ssize_t n = recv(d->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n <= 0)
			return;
		d->st.wire_rx++;
		fv_wire_rx(d, buf, (size_t)n);
	}
}
