/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* io_verbs_fix.c - the verbs backend's unit-test fixture (io_verbs_fix.h). */
#include "tests/unit/router/io/io_verbs_fix.h"
#include "lib/ibr_pkt.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

const char *const vfix_dev[VFIX_MAX_PORTS] = { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3" };

void vfix_path(const struct vfix *f, char *out, size_t n, const char *what, int i)
{
	snprintf(out, n, "%s/%s%d", f->dir, what, i);
}

void vfix_gid(uint8_t gid[16], int subnet, int iid)
{
	memset(gid, 0, 16);
	gid[0] = 0xfe;
	gid[1] = 0xc0;
	gid[7] = (uint8_t)subnet;
	gid[15] = (uint8_t)iid;
}

int vfix_prepare(struct vfix *f, const char *tag, unsigned n, uint16_t sm_lid, uint32_t rq_depth,
		 uint32_t sq_depth)
{
	return vfix_prepare_roce(f, tag, n, sm_lid, rq_depth, sq_depth, 0);
}

int vfix_prepare_roce(struct vfix *f, const char *tag, unsigned n, uint16_t sm_lid,
		      uint32_t rq_depth, uint32_t sq_depth, unsigned roce)
{
	memset(f, 0, sizeof(*f));
	for (unsigned i = 0; i < VFIX_MAX_PORTS; i++)
		f->host[i] = -1;
	if (n > VFIX_MAX_PORTS)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/%s.XXXXXX", tag);
	if (!mkdtemp(f->dir))
		return -1;
	f->n = n;
	for (unsigned i = 0; i < n; i++) {
		char s[108], h[108];
		struct fake_verbs_port_cfg fc = { .lid = (uint16_t)(10 + i),
						  .sm_lid = sm_lid,
						  .roce = roce >> i & 1 };
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		struct io_verbs_port_cfg *c = &f->cfg[i];

		vfix_path(f, s, sizeof(s), "hca", (int)i);
		vfix_path(f, h, sizeof(h), "host", (int)i);
		fc.sock = s;
		fc.peer = h;
		vfix_gid(fc.gid, (int)i + 1, 1); /* the router's GID on subnet i + 1 */
		if (fake_verbs_dev_add(vfix_dev[i], &fc))
			return -1;
		f->host[i] = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
		strcpy(sa.sun_path, h);
		if (f->host[i] < 0 || bind(f->host[i], (struct sockaddr *)&sa, sizeof(sa)))
			return -1;
		strcpy(c->device, vfix_dev[i]);
		c->port_num = 1;
		c->router_port = (uint8_t)i;
		c->rq_depth = rq_depth;
		c->sq_depth = sq_depth;
	}
	return 0;
}

void vfix_proxy_pair(struct vfix *f, int a, int b)
{
	struct io_verbs_proxy_cfg *pa = &f->cfg[a].proxy[0], *pb = &f->cfg[b].proxy[0];

	f->cfg[a].nproxy = f->cfg[b].nproxy = 1;
	vfix_gid(pa->gid, b + 1, 7);
	pa->qpn = VFIX_HOST_QPN;
	pa->qkey = 0x1234;
	vfix_gid(pb->gid, a + 1, 7);
	pb->qpn = VFIX_HOST_QPN;
	pb->qkey = 0x4321;
}

int vfix_open(struct vfix *f)
{
	f->v = io_verbs_open(f->cfg, f->n);
	return f->v ? 0 : -1;
}

void vfix_close(struct vfix *f)
{
	char p[108];

	if (f->v)
		io_verbs_close(f->v);
	f->v = NULL;
	for (unsigned i = 0; i < f->n; i++) {
		if (f->host[i] >= 0)
			close(f->host[i]);
		f->host[i] = -1;
		vfix_path(f, p, sizeof(p), "host", (int)i);
		unlink(p);
	}
	fake_verbs_reset();
	if (f->dir[0])
		rmdir(f->dir);
}

void vfix_host_send(const struct vfix *f, int i, const void *pkt, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	vfix_path(f, sa.sun_path, sizeof(sa.sun_path), "hca", i);
	CU_ASSERT_EQUAL(sendto(f->host[i], pkt, len, 0, (struct sockaddr *)&sa, sizeof(sa)),
			(ssize_t)len);
}

void vfix_host_ud(const struct vfix *f, int i, const struct vfix_ud *u)
{
	uint8_t pay[4096], pkt[8192];
	struct ibr_pkt_ud_params p = { .slid = u->slid,
				       .dlid = u->dlid,
				       .sl = 3,
				       .grh = u->dgid != NULL,
				       .hoplmt = 64,
				       .tclass = 0x20,
				       .flowlabel = 0x12345,
				       .pkey = 0xFFFF,
				       .dest_qp = u->dqp,
				       .qkey = u->qkey,
				       .src_qp = VFIX_HOST_QPN,
				       .payload = pay,
				       .payload_len = u->paylen,
				       .opcode = u->imm ? IBR_BTH_OP_UD_SEND_ONLY_IMM : 0,
				       .immdt = 0xA5A5A5A5 };
	int len;

	CU_ASSERT_FATAL(u->paylen <= sizeof(pay));
	memset(pay, u->tag, u->paylen);
	memcpy(p.sgid, u->sgid, 16);
	if (u->dgid)
		memcpy(p.dgid, u->dgid, 16);
	len = ibr_pkt_build_ud(pkt, sizeof(pkt), &p);
	CU_ASSERT_FATAL(len > 0);
	vfix_host_send(f, i, pkt, (size_t)len);
	fake_verbs_pump(vfix_dev[i]);
}

int vfix_host_recv(const struct vfix *f, int i, uint8_t *buf, size_t n)
{
	ssize_t r = recv(f->host[i], buf, n, MSG_DONTWAIT);

	return r < 0 ? -errno : (int)r;
}

void vfix_host_drain(const struct vfix *f)
{
	uint8_t b[8192];

	for (unsigned i = 0; i < f->n; i++)
		while (vfix_host_recv(f, (int)i, b, sizeof(b)) > 0)
			;
}

void vfix_pools_check(const struct vfix *f)
{
	for (unsigned i = 0; i < f->n; i++)
		io_verbs_port_reap(io_verbs_port(f->v, i));
	for (unsigned i = 0; i < f->n; i++) {
		struct io_verbs_port *p = io_verbs_port(f->v, i);
		uint32_t posted, nfree, held;

		io_verbs_port_bufs(p, &posted, &nfree, &held);
		CU_ASSERT_EQUAL(held, 0);
		CU_ASSERT_EQUAL(posted + nfree, p->pool.nbufs);
	}
}
