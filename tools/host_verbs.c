/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* host_verbs.c - ibrouter-host's verbs mode (host_verbs.h). */
#include "tools/host_verbs.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_ipmc.h"
#include "lib/ibr_roce.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define HV_RQ	512 /* receive buffers */
#define HV_SQ	128 /* sends in flight */
#define HV_MTU	4096
#define HV_SLOT (IBR_GRH_LEN + HV_MTU)

struct host_verbs {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *rcq, *scq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	struct ibv_ah *ah;
	uint8_t *mem; /* HV_RQ receive slots, then HV_SQ send slots */
	uint8_t port;
	bool roce;
	int sgid_index;
	unsigned ifindex;
	uint8_t gid[16];
	uint16_t lid, pkey0;
	struct host_verbs_cfg cfg;
	struct ibr_ipmc ipmc;
	uint64_t sq_posted, sq_done;
};

static double hv_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct ibv_context *hv_device(const char *spec, uint8_t *port)
{
	char name[64];
	const char *colon = strchr(spec, ':');
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
	int nd;

	*port = 1;
	if (colon) {
		char *end;
		unsigned long p = strtoul(colon + 1, &end, 10);

		if (*end || p < 1 || p > 254)
			return fprintf(stderr, "ibrouter-host: %s: bad port\n", spec), NULL;
		*port = (uint8_t)p;
	}
	if (n == 0 || n >= sizeof(name))
		return fprintf(stderr, "ibrouter-host: %s: bad device\n", spec), NULL;
	memcpy(name, spec, n);
	name[n] = 0;
	if (!(list = ibv_get_device_list(&nd)))
		return fprintf(stderr, "ibrouter-host: no RDMA devices: %s\n", strerror(errno)),
		       NULL;
	for (int i = 0; i < nd && !ctx; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx)
		fprintf(stderr, "ibrouter-host: %s: no such device\n", name);
	return ctx;
}

/*
 * The GID to send from: the one asked for, else on RoCE the first RoCE v2
 * GID that is not link-local (a link-local GID never leaves its link, IBA
 * 4.1.1), on IB GID 0.  Its netdev too, for the IP-layer joins (ibr_ipmc.h).
 */
static int hv_pick_gid(struct host_verbs *v, int tbl_len)
{
	struct ibv_gid_entry e, best = { 0 };
	int pick = -1, rank = IBR_ROCE_GID_UNUSABLE;

	/* the one asked for; on IB the first valid one; on RoCE as the router picks */
	for (int i = 0; i < tbl_len && rank < IBR_ROCE_GID_ROUTABLE; i++) {
		union ibr_gid g;
		int r;

		if (ibv_query_gid_ex(v->ctx, v->port, (uint32_t)i, &e, 0))
			continue;
		memcpy(g.raw, e.gid.raw, 16);
		if (v->cfg.sgid)
			r = memcmp(g.raw, v->cfg.sgid, 16) ? IBR_ROCE_GID_UNUSABLE
							   : IBR_ROCE_GID_ROUTABLE;
		else if (!v->roce)
			r = ibr_gid_is_reserved(&g) ? IBR_ROCE_GID_UNUSABLE : IBR_ROCE_GID_ROUTABLE;
		else
			r = ibr_roce_gid_rank(g.raw, e.gid_type == IBV_GID_TYPE_ROCE_V2);
		if (r > rank) {
			pick = i;
			best = e;
			rank = r;
		}
	}
	if (pick < 0) {
		fprintf(stderr, "ibrouter-host: port %u: no %s GID\n", v->port,
			v->cfg.sgid ? "such" : "usable");
		return -1;
	}
	v->sgid_index = pick;
	v->ifindex = best.ndev_ifindex;
	memcpy(v->gid, best.gid.raw, 16);
	return 0;
}

static int hv_post_recv(struct host_verbs *v, unsigned slot)
{
	struct ibv_sge sge = { (uintptr_t)(v->mem + (size_t)slot * HV_SLOT), HV_SLOT, v->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 }, *bad;

	return ibv_post_recv(v->qp, &wr, &bad);
}

static int hv_qp_up(struct host_verbs *v)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = v->port, .qkey = v->cfg.qkey
	};

	if (ibv_modify_qp(v->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
		return -1;
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(v->qp, &a, IBV_QP_STATE))
		return -1;
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	return ibv_modify_qp(v->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN) ? -1 : 0;
}

static int hv_attach(struct host_verbs *v)
{
	for (unsigned i = 0; i < v->cfg.njoin; i++) {
		union ibv_gid g;
		int rc;

		memcpy(g.raw, v->cfg.join[i], 16);
		if ((rc = ibv_attach_mcast(v->qp, &g, v->roce ? 0 : v->cfg.join_mlid))) {
			fprintf(stderr, "ibrouter-host: attach: %s\n", strerror(rc));
			return -1;
		}
		if (v->roce && !v->cfg.no_ip_join &&
		    (rc = ibr_ipmc_set(&v->ipmc, v->ifindex, v->cfg.join[i], true))) {
			fprintf(stderr, "ibrouter-host: IP join on ifindex %u: %s\n", v->ifindex,
				strerror(-rc));
			return -1;
		}
	}
	return 0;
}

static void hv_say(const struct host_verbs *v)
{
	union ibr_gid g;
	char gs[IBR_GID_STRLEN];

	memcpy(g.raw, v->gid, 16);
	fprintf(stderr, "ibrouter-host: %s:%u %s gid %s index %d lid %u qpn 0x%06x qkey 0x%x\n",
		ibv_get_device_name(v->ctx->device), v->port, v->roce ? "Ethernet" : "InfiniBand",
		ibr_gid_ntop(&g, gs, sizeof(gs)), v->sgid_index, v->lid, v->qp->qp_num,
		v->cfg.qkey);
	fflush(stderr);
}

struct host_verbs *host_verbs_open(const struct host_verbs_cfg *cfg)
{
	struct host_verbs *v = calloc(1, sizeof(*v));
	struct ibv_port_attr pa;
	size_t memlen = (size_t)(HV_RQ + HV_SQ) * HV_SLOT;

	if (!v)
		return NULL;
	v->cfg = *cfg;
	ibr_ipmc_init(&v->ipmc);
	if (!(v->ctx = hv_device(cfg->device, &v->port)))
		goto fail;
	if (ibv_query_port(v->ctx, v->port, &pa)) {
		fprintf(stderr, "ibrouter-host: %s: no port %u\n", cfg->device, v->port);
		goto fail;
	}
	v->roce = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	v->lid = pa.lid;
	ibv_query_pkey(v->ctx, v->port, 0, &v->pkey0);
	v->pkey0 = be16toh(v->pkey0);
	if (hv_pick_gid(v, pa.gid_tbl_len))
		goto fail;
	if (!(v->mem = aligned_alloc(4096, memlen)))
		goto fail;
	if (!(v->pd = ibv_alloc_pd(v->ctx)) ||
	    !(v->mr = ibv_reg_mr(v->pd, v->mem, memlen, IBV_ACCESS_LOCAL_WRITE)) ||
	    !(v->ch = ibv_create_comp_channel(v->ctx)) ||
	    !(v->rcq = ibv_create_cq(v->ctx, HV_RQ, NULL, v->ch, 0)) ||
	    !(v->scq = ibv_create_cq(v->ctx, HV_SQ, NULL, NULL, 0))) {
		fprintf(stderr, "ibrouter-host: %s: %s\n", cfg->device, strerror(errno));
		goto fail;
	}
	struct ibv_qp_init_attr qa = { .send_cq = v->scq,
				       .recv_cq = v->rcq,
				       .cap = { .max_send_wr = HV_SQ,
						.max_recv_wr = HV_RQ,
						.max_send_sge = 1,
						.max_recv_sge = 1 },
				       .qp_type = IBV_QPT_UD };

	if (!(v->qp = ibv_create_qp(v->pd, &qa)) || hv_qp_up(v)) {
		fprintf(stderr, "ibrouter-host: UD QP: %s\n", strerror(errno));
		goto fail;
	}
	for (unsigned i = 0; i < HV_RQ; i++)
		if (hv_post_recv(v, i))
			goto fail;
	fcntl(v->ch->fd, F_SETFL, fcntl(v->ch->fd, F_GETFL) | O_NONBLOCK);
	ibv_req_notify_cq(v->rcq, 0);
	if (hv_attach(v))
		goto fail;
	hv_say(v);
	return v;
fail:
	host_verbs_close(v);
	return NULL;
}

void host_verbs_close(struct host_verbs *v)
{
	if (!v)
		return;
	for (unsigned i = 0; v->qp && i < v->cfg.njoin; i++) {
		union ibv_gid g;

		memcpy(g.raw, v->cfg.join[i], 16);
		ibv_detach_mcast(v->qp, &g, v->roce ? 0 : v->cfg.join_mlid);
	}
	ibr_ipmc_fini(&v->ipmc);
	if (v->ah)
		ibv_destroy_ah(v->ah);
	if (v->qp)
		ibv_destroy_qp(v->qp);
	if (v->rcq)
		ibv_destroy_cq(v->rcq);
	if (v->scq)
		ibv_destroy_cq(v->scq);
	if (v->ch)
		ibv_destroy_comp_channel(v->ch);
	if (v->mr)
		ibv_dereg_mr(v->mr);
	if (v->pd)
		ibv_dealloc_pd(v->pd);
	if (v->ctx)
		ibv_close_device(v->ctx);
	free(v->mem);
	free(v);
}

/* Send completions reaped; false on a failed one (said). */
static bool hv_reap(struct host_verbs *v)
{
	struct ibv_wc wc[16];
	int n;

	while ((n = ibv_poll_cq(v->scq, 16, wc)) > 0)
		for (int i = 0; i < n; i++) {
			v->sq_done++;
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "ibrouter-host: send: %s\n",
					ibv_wc_status_str(wc[i].status));
				return false;
			}
		}
	return n >= 0;
}

static int hv_ah(struct host_verbs *v, const struct ibr_pkt_ud_params *p)
{
	struct ibv_ah_attr a = { .dlid = v->roce ? 0 : p->dlid,
				 .sl = p->sl,
				 .port_num = v->port,
				 .is_global = p->grh || v->roce };

	memcpy(a.grh.dgid.raw, p->dgid, 16);
	a.grh.sgid_index = (uint8_t)v->sgid_index;
	a.grh.hop_limit = p->hoplmt;
	a.grh.traffic_class = p->tclass;
	a.grh.flow_label = p->flowlabel;
	if (!(v->ah = ibv_create_ah(v->pd, &a))) {
		fprintf(stderr, "ibrouter-host: address handle: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int host_verbs_send(struct host_verbs *v, const struct ibr_pkt_ud_params *p, uint64_t count,
		    double rate, volatile sig_atomic_t *stop)
{
	double t0 = hv_now();
	uint64_t sent = 0;

	if (p->payload_len > HV_MTU || p->payload_len < 4)
		return fprintf(stderr, "ibrouter-host: --size: 4..%u in verbs mode\n", HV_MTU), 2;
	if (hv_ah(v, p))
		return 1;
	while (sent < count && !*stop) {
		unsigned slot = (unsigned)(sent % HV_SQ);
		uint8_t *b = v->mem + (size_t)(HV_RQ + slot) * HV_SLOT;
		struct ibv_sge sge = { (uintptr_t)b, (uint32_t)p->payload_len, v->mr->lkey };
		struct ibv_send_wr wr = { .wr_id = sent,
					  .sg_list = &sge,
					  .num_sge = 1,
					  .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED },
				   *bad;
		uint32_t seq = htobe32((uint32_t)sent);

		if (!hv_reap(v))
			return 1;
		if (v->sq_posted - v->sq_done >= HV_SQ) { /* the send queue is full: wait */
			struct timespec ts = { 0, 100000 };

			nanosleep(&ts, NULL);
			continue;
		}
		memcpy(b, &seq, 4);
		for (size_t i = 4; i < p->payload_len; i++)
			b[i] = (uint8_t)i;
		wr.wr.ud.ah = v->ah;
		wr.wr.ud.remote_qpn = p->dest_qp;
		wr.wr.ud.remote_qkey = p->qkey;
		if (p->opcode == IBR_BTH_OP_UD_SEND_ONLY_IMM) {
			wr.opcode = IBV_WR_SEND_WITH_IMM;
			wr.imm_data = htobe32(p->immdt);
		}
		if (ibv_post_send(v->qp, &wr, &bad)) {
			fprintf(stderr, "ibrouter-host: post send: %s\n", strerror(errno));
			return 1;
		}
		v->sq_posted++;
		sent++;
		if (rate > 0) {
			double due = t0 + (double)sent / rate, now = hv_now();

			if (due > now) {
				double s = due - now;
				struct timespec ts = { (time_t)s,
						       (long)((s - (double)(time_t)s) * 1e9) };

				nanosleep(&ts, NULL);
			}
		}
	}
	/* every send completed before the QP goes: a destroyed QP drops what it holds */
	for (double end = hv_now() + 5; v->sq_done < v->sq_posted && hv_now() < end;) {
		struct timespec ts = { 0, 1000000 };

		if (!hv_reap(v))
			return 1;
		nanosleep(&ts, NULL);
	}
	printf("sent %" PRIu64 " datagrams\n", sent);
	return sent == count && v->sq_done == v->sq_posted ? 0 : 1;
}

/*
 * The GRH of a receive: the sender's on IB; on RoCE v2 the IP header the NIC
 * leaves there, made the GRH it stands for (lib/ibr_roce.h, as the router's
 * own receive does).  False when it is neither.
 */
static bool hv_grh(const struct host_verbs *v, const uint8_t *buf, const struct ibv_wc *wc,
		   struct ibr_pkt_ud_params *p)
{
	uint8_t h[IBR_GRH_LEN];
	const struct ibr_grh *g = (const struct ibr_grh *)h;

	memcpy(h, buf, sizeof(h));
	if (v->roce && !ibr_roce_grh(h, wc->byte_len, wc->wc_flags & IBV_WC_WITH_IMM))
		return false;
	p->grh = true;
	p->tclass = ibr_grh_get_tclass(g);
	p->flowlabel = ibr_grh_get_flowlabel(g);
	p->hoplmt = ibr_grh_get_hoplmt(g);
	memcpy(p->sgid, ibr_grh_sgid(g), 16);
	memcpy(p->dgid, ibr_grh_dgid(g), 16);
	return true;
}

static void hv_deliver(struct host_verbs *v, const struct ibv_wc *wc,
		       void (*fn)(void *ctx, const uint8_t *pkt, size_t len), void *ctx)
{
	static uint8_t pkt[IBR_PKT_MAX_LEN + 2];
	const uint8_t *b = v->mem + (size_t)wc->wr_id * HV_SLOT;
	struct ibr_pkt_ud_params p = { .slid = wc->slid,
				       .dlid = v->lid,
				       .sl = wc->sl,
				       .pkey = v->pkey0,
				       .dest_qp = v->qp->qp_num,
				       .src_qp = wc->src_qp,
				       .qkey = v->cfg.qkey };
	uint32_t seq;
	int len;

	if ((wc->wc_flags & IBV_WC_GRH) && !hv_grh(v, b, wc, &p)) {
		fprintf(stderr,
			"ibrouter-host: a datagram without an IP header or GRH not shown\n");
		return;
	}
	if (p.grh && ibr_gid_raw_is_mcast(p.dgid)) {
		p.dest_qp = IBR_QPN_MCAST;
		p.dlid = v->roce ? 0 : v->cfg.join_mlid;
	}
	if (wc->wc_flags & IBV_WC_WITH_IMM) {
		p.opcode = IBR_BTH_OP_UD_SEND_ONLY_IMM;
		p.immdt = be32toh(wc->imm_data);
	}
	p.payload = b + IBR_GRH_LEN;
	p.payload_len = wc->byte_len - IBR_GRH_LEN;
	if (p.payload_len >= 4) { /* the sender's sequence number, shown as the PSN */
		memcpy(&seq, p.payload, 4);
		p.psn = be32toh(seq) & IBR_PSN_MASK;
	}
	if ((len = ibr_pkt_build_ud(pkt, sizeof(pkt), &p)) > 0)
		fn(ctx, pkt, (size_t)len);
	else
		fprintf(stderr, "ibrouter-host: a datagram of %u bytes not shown: %s\n",
			wc->byte_len, strerror(-len));
}

long host_verbs_recv(struct host_verbs *v, uint64_t limit, int timeout_ms,
		     volatile sig_atomic_t *stop,
		     void (*fn)(void *ctx, const uint8_t *pkt, size_t len), void *ctx)
{
	double deadline = timeout_ms > 0 ? hv_now() + timeout_ms / 1000.0 : 0;
	uint64_t got = 0;

	while (got < limit && !*stop) {
		struct ibv_wc wc[32];
		int n = ibv_poll_cq(v->rcq, 32, wc);

		if (n < 0)
			return -1;
		if (n == 0) {
			struct pollfd pfd = { .fd = v->ch->fd, .events = POLLIN };
			double left = deadline ? deadline - hv_now() : 0.2;
			struct ibv_cq *cq;
			void *cctx;

			if (deadline && left <= 0)
				break;
			if (poll(&pfd, 1, (int)((left > 0.2 ? 0.2 : left) * 1000) + 1) > 0)
				while (!ibv_get_cq_event(v->ch, &cq, &cctx))
					ibv_ack_cq_events(cq, 1);
			ibv_req_notify_cq(v->rcq, 0);
			continue;
		}
		for (int i = 0; i < n; i++) {
			if (wc[i].status == IBV_WC_SUCCESS && wc[i].byte_len >= IBR_GRH_LEN &&
			    got < limit) {
				got++;
				hv_deliver(v, &wc[i], fn, ctx);
			} else if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "ibrouter-host: receive: %s\n",
					ibv_wc_status_str(wc[i].status));
			}
			hv_post_recv(v, (unsigned)wc[i].wr_id);
		}
	}
	return (long)got;
}
