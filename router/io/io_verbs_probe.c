/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_probe.c - a verbs port read for the preflight (io_verbs_probe.h):
 * opened, queried, closed; nothing is created on it.
 */
#include "router/io/io_verbs_probe.h"
#include "router/io/io_verbs.h"

#include <endian.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdio.h>
#include <string.h>

static void probe_port(struct ibv_context *ctx, uint8_t port_num, struct io_verbs_probe *out)
{
	struct ibv_port_attr pa;
	union ibv_gid g;
	int rc;

	memset(&pa, 0, sizeof(pa));
	if ((rc = ibv_query_port(ctx, port_num, &pa))) {
		out->port_err = rc > 0 ? -rc : (errno ? -errno : -EINVAL);
		return;
	}
	out->ethernet = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
	out->state = (uint8_t)pa.state;
	out->phys_state = pa.phys_state;
	out->lid = pa.lid;
	out->sm_lid = pa.sm_lid;
	out->lmc = pa.lmc;
	out->active_mtu = (uint8_t)pa.active_mtu;
	out->max_mtu = (uint8_t)pa.max_mtu;
	out->gid_tbl_len = pa.gid_tbl_len;
	out->pkey_tbl_len = pa.pkey_tbl_len;
	if (pa.gid_tbl_len > 0 && !ibv_query_gid(ctx, port_num, 0, &g)) {
		memcpy(out->gid0, g.raw, 16);
		out->gid0_ok = true;
	}
	for (int i = 0; i < pa.pkey_tbl_len && out->npkeys < IO_VERBS_PROBE_PKEYS; i++) {
		__be16 pk;

		if (ibv_query_pkey(ctx, port_num, i, &pk))
			break;
		if (be16toh(pk) & 0x7FFF) /* an empty entry: 0x0000 or 0x8000 (IBA 10.9.1.2) */
			out->pkeys[out->npkeys++] = be16toh(pk);
	}
}

int io_verbs_probe(const char *device, uint8_t port_num, struct io_verbs_probe *out)
{
	struct ibv_device **list;
	struct ibv_device *dev = NULL;
	struct ibv_context *ctx;
	struct ibv_device_attr da;
	int n = 0;

	memset(out, 0, sizeof(*out));
	if (!(list = ibv_get_device_list(&n))) {
		out->ndevs = errno ? -errno : -ENOSYS;
		return -ENODEV;
	}
	out->ndevs = n;
	for (int i = 0; i < n && !dev; i++)
		if (!strcmp(ibv_get_device_name(list[i]), device))
			dev = list[i];
	if (!dev) {
		ibv_free_device_list(list);
		return -ENODEV;
	}
	out->listed = true;
	snprintf(out->dev_name, sizeof(out->dev_name), "%s", dev->dev_name);
	snprintf(out->ibdev_path, sizeof(out->ibdev_path), "%s", dev->ibdev_path);
	if (!(ctx = ibv_open_device(dev))) {
		out->open_err = errno ? -errno : -ENODEV;
		ibv_free_device_list(list);
		return out->open_err;
	}
	memset(&da, 0, sizeof(da));
	if (!ibv_query_device(ctx, &da)) {
		out->limits_ok = true;
		out->nports = da.phys_port_cnt;
		out->max_qp = da.max_qp;
		out->max_qp_wr = da.max_qp_wr;
		out->max_cq = da.max_cq;
		out->max_cqe = da.max_cqe;
		out->max_mr = da.max_mr;
		out->max_ah = da.max_ah;
		out->max_mr_size = da.max_mr_size;
		snprintf(out->fw_ver, sizeof(out->fw_ver), "%s", da.fw_ver);
	}
	probe_port(ctx, port_num, out);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return out->port_err;
}

void io_verbs_need(uint32_t rq_depth, uint32_t sq_depth, unsigned nproxy, struct io_verbs_need *out)
{
	uint32_t nbufs = io_verbs_port_nbufs(rq_depth, nproxy);
	uint32_t nsend;

	if (!sq_depth)
		sq_depth = IO_VERBS_SQ_DEPTH;
	nsend = io_verbs_port_nsend(sq_depth, nproxy);
	out->qps = 1 + nproxy + IO_VERBS_MAX_QKEY;
	out->cqs = 2;
	out->cqe = nbufs > nsend ? nbufs : nsend;
	out->qp_wr = rq_depth > sq_depth ? rq_depth : sq_depth;
	out->pinned = io_verbs_pool_bytes(nbufs);
}
