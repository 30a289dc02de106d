/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_lat.c - latency through the router on the sim backend (make bench):
 * a ping-pong between host A and host B, each on its own UNIX datagram
 * socket, through a middle that is either a router worker on two sim ports
 * (router_worker_run, as ibrouterd runs it, in event or busy mode) or a plain
 * relay on the same sockets (recv on one port, send on the other, nothing
 * else; asleep in epoll_wait in event mode, spinning in busy mode).  Prints,
 * for each mode, the round trip's percentiles through each middle and the
 * latency the router adds to one crossing, (router - relay) / 2:
 *   BENCH lat_<mode>_router_p50 / _p99 / _p999   us, a round trip
 *   BENCH lat_<mode>_relay_p50 / _p99 / _p999    us, a round trip
 *   BENCH lat_<mode>_added_p50 / _p99 / _p999    us, one crossing
 * The middle has a CPU of its own (1), the hosts share CPU 0 and block in
 * recv, the same for both middles: what differs is the middle's work.
 * The percentiles of ROUNDS runs of PINGS round trips each; a run of a
 * middle alternates with one of the other, so that drift in the machine's
 * load falls on both.
 */
#include "router/io/io_sim.h"
#include "router/router_rib.h"
#include "router/router_worker.h"

#include "lib/ibr_cpu.h"
#include "tests/bench/bench_hosts.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define PINGS  5000
#define ROUNDS 4
#define A_PFX  0xfec0000000000a00ull /* host A's subnet, behind port 0 */
#define B_PFX  0xfec0000000000b00ull /* host B's subnet, behind port 1 */

struct lat {
	char dir[64], a_host[96], a_rtr[96], b_rtr[96], b_host[96];
	int a_fd, b_fd;
	struct io_sim_port ra, rb;
	uint8_t ping[512], pong[512];
	size_t ping_len, pong_len;
	_Atomic bool stop;
	bool busy;
	struct router_pub pub;
	struct router_worker w;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Port 0 (LID 1) toward A's subnet, port 1 (LID 2) toward B's: a route each way. */
static struct router_rib *lat_rib(void)
{
	struct router_rib *rib = calloc(1, sizeof(*rib));

	router_rib_init(rib);
	bench_ports_add(rib, 2, 0);
	for (unsigned i = 0; i < 2; i++) {
		struct router_nh nh = { .port = (uint8_t)i, .kind = ROUTER_NH_ROUTER, .lid = 0x60 };
		struct router_route r;

		memset(&r, 0, sizeof(r));
		r.key.prefix = i ? B_PFX : A_PFX;
		r.key.plen = 64;
		r.key.source = ROUTER_SRC_STATIC;
		router_rib_route_add_nhs(rib, &r, &nh, 1);
	}
	return rib;
}

/* Host B: every ping back as a pong, until the run stops. */
static void *host_b(void *arg)
{
	struct lat *l = arg;
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	uint8_t buf[512];

	strcpy(to.sun_path, l->b_rtr);
	while (!atomic_load(&l->stop))
		if (recv(l->b_fd, buf, sizeof(buf), 0) > 0)
			sendto(l->b_fd, l->pong, l->pong_len, 0, (struct sockaddr *)&to,
			       sizeof(to));
	return NULL;
}

/* The plain relay: a datagram from either side out of the other, nothing else. */
static void relay_one(struct io_sim_port *from, struct io_sim_port *to)
{
	uint8_t buf[512];
	ssize_t n;

	while ((n = recv(from->fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		sendto(to->fd, buf, (size_t)n, 0, (struct sockaddr *)&to->peer, to->peerlen);
}

static void *relay(void *arg)
{
	struct lat *l = arg;
	struct epoll_event ev = { .events = EPOLLIN }, got[2];
	int ep = epoll_create1(0);

	ev.data.u32 = 0;
	epoll_ctl(ep, EPOLL_CTL_ADD, l->ra.fd, &ev);
	ev.data.u32 = 1;
	epoll_ctl(ep, EPOLL_CTL_ADD, l->rb.fd, &ev);
	while (!atomic_load(&l->stop)) {
		if (!l->busy && epoll_wait(ep, got, 2, 100) <= 0)
			continue;
		relay_one(&l->ra, &l->rb);
		relay_one(&l->rb, &l->ra);
	}
	close(ep);
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* One run: PINGS round trips through the router (or the relay); their times (ns) into rtt. */
static int lat_run(bool router, bool busy, uint64_t *rtt)
{
	struct lat *l = calloc(1, sizeof(*l));
	struct router_rib *rib = lat_rib();
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	struct io_port *ports[2];
	pthread_t tb, tm;
	uint8_t buf[512];
	int lost = 0;

	snprintf(l->dir, sizeof(l->dir), "/tmp/ibr-lat.%d", (int)getpid());
	mkdir(l->dir, 0700);
	snprintf(l->a_host, sizeof(l->a_host), "%s/a-host", l->dir);
	snprintf(l->a_rtr, sizeof(l->a_rtr), "%s/a-rtr", l->dir);
	snprintf(l->b_rtr, sizeof(l->b_rtr), "%s/b-rtr", l->dir);
	snprintf(l->b_host, sizeof(l->b_host), "%s/b-host", l->dir);
	l->a_fd = bench_host_socket(l->a_host);
	l->b_fd = bench_host_socket(l->b_host);
	if (io_sim_open(&l->ra, l->a_rtr, l->a_host, 0) ||
	    io_sim_open(&l->rb, l->b_rtr, l->b_host, 1))
		abort();
	l->ping_len = bench_ud_build(l->ping, sizeof(l->ping), 1, A_PFX, 0x1000, B_PFX, 0x2000, 64);
	l->pong_len = bench_ud_build(l->pong, sizeof(l->pong), 2, B_PFX, 0x2000, A_PFX, 0x1000, 64);
	l->busy = busy;
	atomic_init(&l->stop, false);
	router_pub_init(&l->pub, 1);
	router_pub_publish(&l->pub, router_rib_compile(rib));
	ports[0] = &l->ra.io;
	ports[1] = &l->rb.io;
	router_worker_init(&l->w, 0, &l->pub, ports, 2, 3);
	l->w.mode = busy ? ROUTER_WORKER_BUSY : ROUTER_WORKER_EVENT;
	pthread_create(&tm, NULL, router ? router_worker_run : relay, router ? (void *)&l->w : l);
	pthread_create(&tb, NULL, host_b, l);
	bench_pin(tm, 1);
	bench_pin(tb, 0);
	bench_pin(pthread_self(), 0);
	strcpy(to.sun_path, l->a_rtr);
	for (int i = -200; i < PINGS; i++) { /* 200 to warm up */
		uint64_t t0 = now_ns();

		sendto(l->a_fd, l->ping, l->ping_len, 0, (struct sockaddr *)&to, sizeof(to));
		if (recv(l->a_fd, buf, sizeof(buf), 0) <= 0) {
			lost++; /* 200 ms without the pong */
			continue;
		}
		if (i >= 0)
			rtt[i] = now_ns() - t0;
	}
	atomic_store(&l->stop, true);
	atomic_store(&l->w.stop, true);
	pthread_join(tm, NULL);
	pthread_join(tb, NULL);
	router_worker_fini(&l->w);
	router_pub_destroy(&l->pub);
	io_sim_close(&l->ra);
	io_sim_close(&l->rb);
	close(l->a_fd);
	close(l->b_fd);
	unlink(l->a_host);
	unlink(l->b_host);
	rmdir(l->dir);
	router_rib_free(rib);
	free(rib);
	free(l);
	return lost;
}

static double pct_us(const uint64_t *v, size_t n, unsigned per_mille)
{
	size_t i = (n * per_mille) / 1000;

	return (double)v[i < n ? i : n - 1] / 1000.0;
}

static void lat_mode(bool busy)
{
	const char *mode = busy ? "busy" : "event";
	static uint64_t r[ROUNDS * PINGS], q[ROUNDS * PINGS];
	static const unsigned pm[] = { 500, 990, 999 };
	static const char *const pn[] = { "p50", "p99", "p999" };
	int lost = 0;

	for (int k = 0; k < ROUNDS; k++) {
		lost += lat_run(true, busy, r + (size_t)k * PINGS);
		lost += lat_run(false, busy, q + (size_t)k * PINGS);
	}
	if (lost) {
		printf("SKIP lat_%s: %d pings lost (the machine too loaded to time them)\n", mode,
		       lost);
		return;
	}
	qsort(r, ROUNDS * PINGS, sizeof(r[0]), cmp_u64);
	qsort(q, ROUNDS * PINGS, sizeof(q[0]), cmp_u64);
	for (int i = 0; i < 3; i++)
		printf("BENCH lat_%s_router_%s %.2f us\n", mode, pn[i],
		       pct_us(r, ROUNDS * PINGS, pm[i]));
	for (int i = 0; i < 3; i++)
		printf("BENCH lat_%s_relay_%s %.2f us\n", mode, pn[i],
		       pct_us(q, ROUNDS * PINGS, pm[i]));
	for (int i = 0; i < 3; i++)
		printf("BENCH lat_%s_added_%s %.2f us\n", mode, pn[i],
		       (pct_us(r, ROUNDS * PINGS, pm[i]) - pct_us(q, ROUNDS * PINGS, pm[i])) / 2);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char cpu[512];

	(void)argv;
	printf("cpu: %s\n", ibr_cpu_describe(cpu, sizeof(cpu)));
	if (argc > 1 && !strcmp(argv[1], "busy")) {
		lat_mode(true);
		return 0;
	}
	lat_mode(false);
	lat_mode(true);
	return 0;
}
