/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_verbs.c - the verbs backend over the fake provider (make bench).
 * Prints
 *   BENCH verbs_fwd_256        pkt/s: 256-byte multicast packets forwarded
 *                              host A -> [worker, io_verbs] -> host B
 *   BENCH verbs_posts_per_pkt  ibv_post_send calls per forwarded packet
 *                              (target <= 0.0625: one per 16)
 *   BENCH verbs_relay_256      pkt/s: the same traffic through a plain verbs
 *                              relay over the same fake (a UD QP that receives
 *                              on one device, one that posts on the other,
 *                              nothing else): the baseline of verbs_fwd_256
 *   BENCH verbs_fwd_ratio      verbs_fwd_256 / verbs_relay_256 (target >= 0.9)
 *   BENCH sim_fwd_256          pkt/s: the same traffic through io_sim ports
 * Both backends run the same worker, engine and FIB in the same run, one
 * thread each for sender, router and receiver.  The fake provider reads the
 * wire with one recv() per packet and builds every packet with its CRCs on
 * send: it stands for the HCA, so verbs_fwd_256 measures the backend's
 * bookkeeping plus the fake's work, not an HCA's rate.
 */
#include "router/io/io_sim.h"
#include "router/io/io_verbs.h"
#include "router/router_rib.h"
#include "router/router_worker.h"
#include "tests/bench/bench_hosts.h"
#include "tests/fakes/fake_verbs.h"

#include "lib/ibr_pkt.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define PAYLOAD 256
#define QKEY	0x0B1B

struct run {
	char dir[64], a_host[96], a_rtr[96], b_rtr[96], b_host[96];
	struct bench_hosts h;
	uint8_t pkt[512];
	struct router_pub pub;
	struct router_worker w;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *router_loop(void *arg)
{
	struct run *r = arg;

	router_pub_online(&r->pub, 0);
	while (!atomic_load(&r->h.stop))
		if (!router_worker_poll(&r->w, 4096))
			sched_yield();
	router_pub_offline(&r->pub, 0);
	return NULL;
}

/* Two ports; group ff18::1 with senders on port 0 (MLID 0xC001) and receivers on 1 (0xC002). */
static struct router_rib *bench_rib(uint8_t flags)
{
	struct router_rib *rib = calloc(1, sizeof(*rib));

	router_rib_init(rib);
	for (unsigned i = 0; i < 2; i++) {
		struct router_port p;
		struct router_mcast m;
		char name[8];

		snprintf(name, sizeof(name), "p%u", i);
		router_port_defaults(&p, name);
		p.lid = (uint16_t)(10 + i);
		p.prefix = 0xfec0000000000000ull + i + 1;
		p.guid = 0x300000 + i;
		p.mtu = 4096;
		p.flags = ROUTER_PORT_UP | flags;
		router_rib_port_add(rib, &p);
		memset(&m, 0, sizeof(m));
		m.key.mgid[0] = 0xFF;
		m.key.mgid[1] = 0x18;
		m.key.mgid[15] = 1;
		m.key.port = (uint8_t)i;
		m.mlid = (uint16_t)(0xC001 + i);
		m.qkey = QKEY;
		m.flags = i ? ROUTER_MCAST_RECEIVERS : ROUTER_MCAST_SENDERS;
		router_rib_mcast_add(rib, &m);
	}
	return rib;
}

static void run_init(struct run *r, const char *tag)
{
	struct ibr_pkt_ud_params p = { .slid = 0x50,
				       .dlid = 0xC001,
				       .grh = true,
				       .hoplmt = 64,
				       .pkey = 0xFFFF,
				       .dest_qp = 0xFFFFFF,
				       .qkey = QKEY,
				       .src_qp = 0x42,
				       .payload_len = PAYLOAD };
	static uint8_t data[PAYLOAD];

	snprintf(r->dir, sizeof(r->dir), "/tmp/ibr-bench-%s.%d", tag, (int)getpid());
	mkdir(r->dir, 0700);
	snprintf(r->a_host, sizeof(r->a_host), "%s/a-host", r->dir);
	snprintf(r->a_rtr, sizeof(r->a_rtr), "%s/a-rtr", r->dir);
	snprintf(r->b_rtr, sizeof(r->b_rtr), "%s/b-rtr", r->dir);
	snprintf(r->b_host, sizeof(r->b_host), "%s/b-host", r->dir);
	r->h.tx_fd = bench_host_socket(r->a_host);
	r->h.rx_fd = bench_host_socket(r->b_host);
	snprintf(r->h.to, sizeof(r->h.to), "%s", r->a_rtr);
	r->h.pkts = r->pkt; /* one packet, a burst of it (stride 0) */
	p.sgid[0] = 0xfe;
	p.sgid[1] = 0xc0;
	p.sgid[7] = 1;
	p.sgid[15] = 7;
	p.dgid[0] = 0xFF;
	p.dgid[1] = 0x18;
	p.dgid[15] = 1;
	p.payload = data;
	r->h.len = (size_t)ibr_pkt_build_ud(r->pkt, sizeof(r->pkt), &p);
	atomic_init(&r->h.stop, false);
	atomic_init(&r->h.received, 0);
}

/* The fake HCAs mlx5_0 (LID 10, the wire to host A) and mlx5_1 (LID 11, to host B). */
static void run_fakes(const struct run *r)
{
	struct fake_verbs_port_cfg fa = { .lid = 10, .sock = r->a_rtr, .peer = r->a_host },
				   fb = { .lid = 11, .sock = r->b_rtr, .peer = r->b_host };

	fa.gid[0] = fb.gid[0] = 0xfe;
	fa.gid[1] = fb.gid[1] = 0xc0;
	fa.gid[7] = 1;
	fb.gid[7] = 2;
	fa.gid[15] = fb.gid[15] = 1;
	if (fake_verbs_dev_add("mlx5_0", &fa) || fake_verbs_dev_add("mlx5_1", &fb))
		abort();
}

/* Hosts A and B, and `middle` between them, for `secs`; pkt/s received by host B. */
static double run_timed(struct run *r, void *(*middle)(void *), void *arg, double secs)
{
	pthread_t ts, tr, tm;
	uint64_t start;
	double t0, rate;

	pthread_create(&tr, NULL, bench_host_receiver, &r->h);
	pthread_create(&tm, NULL, middle, arg);
	pthread_create(&ts, NULL, bench_host_sender, &r->h);
	usleep(200000); /* warm up */
	start = atomic_load(&r->h.received);
	t0 = now_s();
	usleep((useconds_t)(secs * 1e6));
	rate = (double)(atomic_load(&r->h.received) - start) / (now_s() - t0);
	atomic_store(&r->h.stop, true);
	pthread_join(ts, NULL);
	pthread_join(tm, NULL);
	pthread_join(tr, NULL);
	return rate;
}

/* Forward for `secs` through `ports`; pkt/s received by host B. */
static double run_measure(struct run *r, struct router_rib *rib, struct io_port **ports,
			  double secs)
{
	double rate;

	router_pub_init(&r->pub, 1);
	router_pub_publish(&r->pub, router_rib_compile(rib));
	if (router_worker_init(&r->w, 0, &r->pub, ports, 2, 3))
		abort();
	rate = run_timed(r, router_loop, r, secs);
	if (r->w.counters.tx_pkts[1] == 0)
		fprintf(stderr, "bench: the router forwarded nothing\n");
	router_worker_fini(&r->w);
	router_pub_destroy(&r->pub);
	return rate;
}

/* The hosts' sockets and directory, `rib` (NULL: none) and `r`. */
static void run_fini(struct run *r, struct router_rib *rib)
{
	close(r->h.tx_fd);
	close(r->h.rx_fd);
	unlink(r->a_host);
	unlink(r->b_host);
	rmdir(r->dir);
	if (rib)
		router_rib_free(rib);
	free(rib);
	free(r);
}

static double bench_sim(double secs)
{
	struct run *r = calloc(1, sizeof(*r));
	struct router_rib *rib = bench_rib(ROUTER_PORT_VCRC_CHECK);
	struct io_sim_port a, b;
	struct io_port *ports[2] = { &a.io, &b.io };
	double rate;

	run_init(r, "sim");
	if (io_sim_open(&a, r->a_rtr, r->a_host, 0) || io_sim_open(&b, r->b_rtr, r->b_host, 1))
		abort();
	rate = run_measure(r, rib, ports, secs);
	io_sim_close(&a);
	io_sim_close(&b);
	run_fini(r, rib);
	return rate;
}

static double bench_verbs(double secs, double *posts_per_pkt)
{
	struct run *r = calloc(1, sizeof(*r));
	struct router_rib *rib = bench_rib(ROUTER_PORT_CRC_OFFLOAD); /* the HCA checked the CRCs */
	/* router ports 0 and 1: the index stamped on what each receives, which the send
	 * side maps back to the port whose buffers they are */
	struct io_verbs_port_cfg cfg[2] = {
		{ .device = "mlx5_0", .port_num = 1, .router_port = 0 },
		{ .device = "mlx5_1", .port_num = 1, .router_port = 1 }
	};
	struct fake_verbs_stats s0, s1;
	struct io_port *ports[2];
	uint8_t mgid[16] = { 0xFF, 0x18, [15] = 1 };
	struct io_verbs *v;
	uint64_t fwd0;
	double rate;

	run_init(r, "verbs");
	run_fakes(r);
	if (!(v = io_verbs_open(cfg, 2)) ||
	    io_verbs_mcast_attach(io_verbs_port(v, 0), mgid, 0xC001) ||
	    io_verbs_mcast_attach(io_verbs_port(v, 1), mgid, 0xC002))
		abort();
	ports[0] = &io_verbs_port(v, 0)->io;
	ports[1] = &io_verbs_port(v, 1)->io;
	fake_verbs_stats_get("mlx5_1", &s0);
	rate = run_measure(r, rib, ports, secs);
	fake_verbs_stats_get("mlx5_1", &s1);
	fwd0 = r->w.counters.tx_pkts[1];
	*posts_per_pkt = fwd0 ? (double)(s1.post_send_calls - s0.post_send_calls) / (double)fwd0
			      : 0;
	io_verbs_close(v);
	fake_verbs_reset();
	run_fini(r, rib);
	return rate;
}

static double median3(const double *v)
{
	double a = v[0], b = v[1], c = v[2];

	return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

/* ---- the plain verbs relay: the baseline ---- */

#define VR_BUFS 512
#define VR_SIZE 4096 /* a receive buffer: the GRH's 40 bytes, then the payload */

struct vrelay {
	struct ibv_context *ctx[2];
	struct ibv_pd *pd[2];
	struct ibv_cq *rcq, *scq;
	struct ibv_qp *rqp, *sqp;
	struct ibv_mr *mr[2];
	struct ibv_ah *ah;
	uint8_t *buf;
	_Atomic bool *stop;
};

static struct ibv_context *vr_open(const char *name)
{
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;

	for (int i = 0; l && l[i] && !c; i++)
		if (!strcmp(ibv_get_device_name(l[i]), name))
			c = ibv_open_device(l[i]);
	ibv_free_device_list(l);
	if (!c)
		abort();
	return c;
}

/* A UD QP of Q_Key QKEY on port 1, ready to send and receive. */
static struct ibv_qp *vr_qp(struct ibv_pd *pd, struct ibv_cq *scq, struct ibv_cq *rcq)
{
	struct ibv_qp_init_attr ia = { .send_cq = scq,
				       .recv_cq = rcq,
				       .qp_type = IBV_QPT_UD,
				       .cap = { .max_send_wr = VR_BUFS,
						.max_recv_wr = VR_BUFS,
						.max_send_sge = 1,
						.max_recv_sge = 1 } };
	struct ibv_qp *qp = ibv_create_qp(pd, &ia);
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = QKEY };

	if (!qp ||
	    ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
		abort();
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		abort();
	a.qp_state = IBV_QPS_RTS;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
		abort();
	return qp;
}

static void vr_post_recv(struct vrelay *r, uint64_t id)
{
	struct ibv_sge sge = { (uintptr_t)(r->buf + id * VR_SIZE), VR_SIZE, r->mr[0]->lkey };
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = &sge, .num_sge = 1 }, *bad;

	if (ibv_post_recv(r->rqp, &wr, &bad))
		abort();
}

static void vr_init(struct vrelay *r, _Atomic bool *stop)
{
	uint8_t mgid[16] = { 0xFF, 0x18, [15] = 1 };
	struct ibv_ah_attr aa = { .is_global = 1, .dlid = 0xC002, .port_num = 1 };

	r->stop = stop;
	r->buf = aligned_alloc(4096, (size_t)VR_BUFS * VR_SIZE);
	for (int d = 0; d < 2; d++) {
		r->ctx[d] = vr_open(d ? "mlx5_1" : "mlx5_0");
		r->pd[d] = ibv_alloc_pd(r->ctx[d]);
		/* the same buffers on both devices: what comes in goes out as it is */
		r->mr[d] = ibv_reg_mr(r->pd[d], r->buf, (size_t)VR_BUFS * VR_SIZE,
				      IBV_ACCESS_LOCAL_WRITE);
		if (!r->pd[d] || !r->mr[d])
			abort();
	}
	r->rcq = ibv_create_cq(r->ctx[0], VR_BUFS, NULL, NULL, 0);
	r->scq = ibv_create_cq(r->ctx[1], VR_BUFS, NULL, NULL, 0);
	if (!r->rcq || !r->scq)
		abort();
	r->rqp = vr_qp(r->pd[0], r->rcq, r->rcq);
	r->sqp = vr_qp(r->pd[1], r->scq, r->rcq);
	if (ibv_attach_mcast(r->rqp, (const union ibv_gid *)mgid, 0xC001))
		abort();
	memcpy(aa.grh.dgid.raw, mgid, 16);
	aa.grh.hop_limit = 63;
	if (!(r->ah = ibv_create_ah(r->pd[1], &aa)))
		abort();
	for (uint64_t i = 0; i < VR_BUFS; i++)
		vr_post_recv(r, i);
}

/* Receive a burst, post it in one call, give back the buffers of completed sends. */
static void *vr_loop(void *arg)
{
	struct vrelay *r = arg;

	while (!atomic_load(r->stop)) {
		struct ibv_wc wc[ROUTER_BURST];
		struct ibv_sge sge[ROUTER_BURST];
		struct ibv_send_wr wr[ROUTER_BURST], *bad;
		int n = ibv_poll_cq(r->rcq, ROUTER_BURST, wc), k = 0;

		for (int i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS || wc[i].byte_len < 40) {
				vr_post_recv(r, wc[i].wr_id);
				continue;
			}
			sge[k] = (struct ibv_sge){ (uintptr_t)(r->buf + wc[i].wr_id * VR_SIZE + 40),
						   wc[i].byte_len - 40, r->mr[1]->lkey };
			wr[k] = (struct ibv_send_wr){ .wr_id = wc[i].wr_id,
						      .next = NULL,
						      .sg_list = &sge[k],
						      .num_sge = 1,
						      .opcode = IBV_WR_SEND,
						      .send_flags = IBV_SEND_SIGNALED };
			wr[k].wr.ud.ah = r->ah;
			wr[k].wr.ud.remote_qpn = 0xFFFFFF;
			wr[k].wr.ud.remote_qkey = QKEY;
			if (k)
				wr[k - 1].next = &wr[k];
			k++;
		}
		if (k && ibv_post_send(r->sqp, wr, &bad))
			abort();
		n = ibv_poll_cq(r->scq, ROUTER_BURST, wc);
		for (int i = 0; i < n; i++)
			vr_post_recv(r, wc[i].wr_id);
		if (!k && !n)
			sched_yield();
	}
	return NULL;
}

static void vr_fini(struct vrelay *r)
{
	ibv_destroy_ah(r->ah);
	ibv_destroy_qp(r->rqp);
	ibv_destroy_qp(r->sqp);
	ibv_destroy_cq(r->rcq);
	ibv_destroy_cq(r->scq);
	for (int d = 0; d < 2; d++) {
		ibv_dereg_mr(r->mr[d]);
		ibv_dealloc_pd(r->pd[d]);
		ibv_close_device(r->ctx[d]);
	}
	free(r->buf);
}

static double bench_vrelay(double secs)
{
	struct run *r = calloc(1, sizeof(*r));
	struct vrelay vr;
	double rate;

	run_init(r, "vrelay");
	run_fakes(r);
	memset(&vr, 0, sizeof(vr));
	vr_init(&vr, &r->h.stop);
	rate = run_timed(r, vr_loop, &vr, secs);
	vr_fini(&vr);
	fake_verbs_reset();
	run_fini(r, NULL);
	return rate;
}

int main(int argc, char **argv)
{
	double posts = 0, secs = argc > 1 ? atof(argv[1]) : 1.5, vrate, srate;

	double relay[3], fwd[3];

	/* alternating runs, each case its median: the machine's drift falls on both */
	for (int i = 0; i < 3; i++) {
		fwd[i] = bench_verbs(secs / 3, &posts);
		relay[i] = bench_vrelay(secs / 3);
	}
	vrate = median3(fwd);
	printf("BENCH verbs_fwd_256 %.0f pkt/s\n", vrate);
	printf("BENCH verbs_relay_256 %.0f pkt/s\n", median3(relay));
	printf("BENCH verbs_fwd_ratio %.3f\n", median3(relay) > 0 ? vrate / median3(relay) : 0);
	printf("BENCH verbs_posts_per_pkt %.4f posts/pkt\n", posts);
	srate = bench_sim(secs);
	printf("BENCH sim_fwd_256 %.0f pkt/s\n", srate);
	/* a backend that forwarded nothing is a broken bench, not a figure (make bench stops) */
	return vrate > 0 && srate > 0 ? 0 : 1;
}
