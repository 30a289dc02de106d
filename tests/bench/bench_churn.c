/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_churn.c - route churn (make bench): route add/del applied one at a
 * time, each as the daemon applies a control command's change, with a
 * worker forwarding meanwhile.  Prints
 *   BENCH route_churn_1e5 / route_churn_1e6   changes/s with 10^5 / 10^6 routes
 *   BENCH fib_compile_1e6                     ms: one full compile of the 10^6-route RIB
 *   BENCH fwd_quiet_1e6                       ns/pkt a worker takes with no change
 *   BENCH fwd_during_churn_1e6                ns/pkt the same worker takes during the churn
 * and, as comments, the worker during changes at the target's rate (20,000 a
 * second) and on the last FIB after the churn, its delta still there (the
 * daemon merges it once the changes stop: ibrd_state_merge).
 * A change is what `ibrouterctl route add|del` does inside ibrouterd: the
 * RIB change and ibrd_rib_changed() (daemon/cmd/ibrd_cmd_edit.c), then the
 * tail of the loop's turn, ibrd_sync_run() (the FIB published, the SMA's
 * view and its vendor tables, the plugins' prefix routes, the
 * announcements: daemon/ibrd_sync.c), and the reclamation of retired FIBs,
 * all through the daemon's own functions (libibrd.a) on a daemon with two
 * ports and its SMA running; no plugin is connected and no SA client runs,
 * so their consumers have nothing to send.  The churn slides a window over
 * the routes: a new prefix is added, then the oldest static route deleted,
 * so that the RIB keeps its size and every change is to a prefix of its
 * own.  Each case runs CHURN_SECS (at most as many changes as routes, at
 * least one), long enough to take in the whole cost of the tables the changes
 * are merged into now and then.
 *
 * The worker is a reader of the daemon's publication (router_pub) as the
 * daemon's workers are: it takes the current FIB before each pass through
 * a pool of 256-byte packets, runs the engine over it in bursts and passes
 * a quiescent point; DGIDs are drawn anew before each pass (untimed) over
 * the routes the churn never deletes, so that the lookups miss the cache as
 * in bench_fwd.  Its figure is the median pass, quiet (before the churn)
 * and during the churn, on a core of its own (the control thread on the
 * other).
 */
#include "daemon/ibrd.h"
#include "daemon/port/ibrd_port.h"
#include "tests/unit/daemon/ibrd_fix.h"
#include "router/router_engine.h"

#include "lib/ibr_cpu.h"
#include "lib/ibr_pkt.h"
#include "tests/bench/bench_routes.h"
#include "tests/bench/bench_sys.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define POOL	   1024
#define CHURN_SECS 3.0
#define PACED_SECS 2.0
#define PACED_RATE 20000.0 /* the target: changes a second at 10^6 routes */
#define QUIET_SECS 1.0
#define MAX_PASSES (1u << 20)

static const char conf_text[] =
	"workers = 1\n"
	"router { node-guid = 0x0002c90300000100 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" vcrc-check = false }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void pin(pthread_t t, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(t, sizeof(set), &set); /* advice: without it the run still counts */
}

/* Route i of the window: a static route via port b to a next router, as the CLI adds it. */
static int route_add(struct ibrd *d, uint64_t i)
{
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = route_prefix(i);
	r.key.plen = 64;
	r.key.source = ROUTER_SRC_STATIC;
	r.nh = (struct router_nh){ .port = 1,
				   .kind = ROUTER_NH_ROUTER,
				   .lid = (uint16_t)(0x100 + i % 0x1000) };
	return router_rib_route_add_nhs(&d->rib, &r, &r.nh, 1);
}

/* The daemon's tail of a turn and what its loop does after it (ibrouterd.c). */
static void turn_end(struct ibrd *d)
{
	ibrd_sync_run(d);
	router_pub_reclaim(&d->pub);
}

/*
 * Changes for `secs` (at most `max` in all), as fast as they go or, `rate`
 * set, that many a second; `*n` counts every change of the run, so that
 * each is to a prefix of its own (the window goes on sliding).  Seconds.
 */
static double churn(struct ibrd *d, uint64_t nroutes, uint64_t *n, uint64_t max, double secs,
		    double rate)
{
	double t0 = now_s(), t;
	uint64_t k0 = *n;

	do {
		/* add route nroutes + k, then delete route k: the window slides */
		uint64_t k = *n / 2;
		int rc = *n % 2 ? router_rib_route_del(&d->rib, route_prefix(k), 64,
						       ROUTER_SRC_STATIC)
				: route_add(d, nroutes + k);

		if (rc)
			abort();
		ibrd_rib_changed(d);
		turn_end(d);
		++*n;
		while (rate && (t = now_s() - t0) < (double)(*n - k0) / rate)
			;
	} while ((t = now_s() - t0) < secs && *n < max);
	return t;
}

/* ---- the worker ---- */

enum { PH_WARM, PH_QUIET, PH_CHURN, PH_PACED, PH_AFTER, PH_STOP };

struct worker {
	struct ibrd *d;
	uint64_t lo, hi; /* DGIDs on routes [lo, hi) */
	_Atomic int phase;
	uint8_t *buf;
	struct router_mbuf m[POOL], *v[POOL];
	double *pass[PH_STOP];
	unsigned npass[PH_STOP];
	uint64_t drops;
	int why; /* a drop's reason */
};

#define DGID_PFX_OFF (IBR_LRH_LEN + 24)

static void pool_fill(struct worker *w)
{
	static uint8_t data[256];
	struct ibr_pkt_ud_params p;
	size_t stride = 512;

	w->buf = aligned_alloc(4096, stride * POOL);
	if (!w->buf)
		abort();
	for (unsigned i = 0; i < POOL; i++) {
		int len;

		memset(&p, 0, sizeof(p));
		p.slid = 0x50;
		p.dlid = 1;
		p.grh = true;
		for (int k = 0; k < 8; k++) {
			p.sgid[k] = (uint8_t)(0xfec0000000000001ull >> (56 - 8 * k));
			p.sgid[8 + k] = (uint8_t)((0x1000ull + i) >> (56 - 8 * k));
			p.dgid[8 + k] = (uint8_t)((0x2000ull + i) >> (56 - 8 * k));
		}
		p.hoplmt = 64;
		p.pkey = 0xFFFF;
		p.dest_qp = 5;
		p.qkey = 1;
		p.src_qp = 2;
		p.payload = data;
		p.payload_len = sizeof(data);
		len = ibr_pkt_build_ud(w->buf + stride * i, stride, &p);
		if (len < 0)
			abort();
		w->m[i] = (struct router_mbuf){ .data = w->buf + stride * i,
						.len = (uint32_t)len,
						.port = 0 };
		w->v[i] = &w->m[i];
	}
}

/*
 * A new route for every packet's DGID (the engine checks no CRC on these
 * ports and never writes into a packet: only the prefix changes).
 */
static void pool_redraw(struct worker *w, unsigned *seed)
{
	for (unsigned i = 0; i < POOL; i++) {
		uint64_t pfx = route_prefix(w->lo + (uint64_t)rand_r(seed) % (w->hi - w->lo));

		for (int k = 0; k < 8; k++)
			w->m[i].data[DGID_PFX_OFF + k] = (uint8_t)(pfx >> (56 - 8 * k));
	}
}

static void *worker_loop(void *arg)
{
	struct worker *w = arg;
	static struct router_out out;
	static struct router_counters c;
	unsigned seed = 1;
	int ph;

	router_pub_online(&w->d->pub, 0);
	while ((ph = atomic_load(&w->phase)) != PH_STOP) {
		const struct router_fib *fib = router_pub_get(&w->d->pub);
		double t0;

		pool_redraw(w, &seed);
		/* the first burst untimed, as bench_fwd's run_engine() */
		router_engine_burst(fib, w->v, ROUTER_BURST, &out, &c);
		t0 = now_s();
		for (unsigned i = ROUTER_BURST; i < POOL; i += ROUTER_BURST) {
			router_engine_burst(fib, w->v + i, ROUTER_BURST, &out, &c);
			w->drops += out.ndrop;
			if (out.ndrop) /* none expected: said at the end */
				w->why = out.drop[0].reason;
		}
		if (w->npass[ph] < MAX_PASSES)
			w->pass[ph][w->npass[ph]++] = (now_s() - t0) * 1e9 / (POOL - ROUTER_BURST);
		router_pub_quiescent(&w->d->pub, 0);
	}
	router_pub_offline(&w->d->pub, 0);
	return NULL;
}

static double pass_median(struct worker *w, int ph)
{
	if (!w->npass[ph])
		return 0;
	qsort(w->pass[ph], w->npass[ph], sizeof(double), cmp_double);
	return w->pass[ph][w->npass[ph] / 2];
}

/* ---- the daemon ---- */

static struct ibrd *daemon_new(uint64_t nroutes)
{
	struct ibrd *d = ibrd_fix_new(conf_text, "bench.conf");

	if (!d)
		abort();
	for (uint64_t i = 0; i < nroutes; i++)
		if (route_add(d, i))
			abort();
	ibrd_rib_changed(d);
	turn_end(d);
	if (ibrd_sma_start(d))
		abort();
	turn_end(d);
	return d;
}

/* ms for one full compile of the daemon's RIB (the best of 3). */
static double compile_ms(struct ibrd *d)
{
	double best = 1e9;

	for (int k = 0; k < 3; k++) {
		double t0 = now_s(), t;
		struct router_fib *fib = router_rib_compile(&d->rib);

		t = (now_s() - t0) * 1e3;
		if (!fib)
			abort();
		router_fib_free(fib);
		best = t < best ? t : best;
	}
	return best;
}

/*
 * Changes a second at `nroutes` routes, the worker forwarding meanwhile;
 * its quiet and churn figures into fwd[0..1].
 */
static double churn_case(const char *tag, uint64_t nroutes, double *fwd, double *cms)
{
	struct ibrd *d = daemon_new(nroutes);
	struct worker *w = calloc(1, sizeof(*w));
	struct bench_cpu_ticks ticks;
	uint64_t n = 0, nflat, pubs, compiles, deltas, dn;
	const struct router_fib *fib;
	pthread_t t;
	double secs;

	if (!w)
		abort();
	*cms = compile_ms(d);
	w->d = d;
	w->lo = nroutes / 2; /* the window deletes at most nroutes / 2 from 0 */
	w->hi = nroutes;
	for (int ph = 0; ph < PH_STOP; ph++)
		if (!(w->pass[ph] = malloc(MAX_PASSES * sizeof(double))))
			abort();
	pool_fill(w);
	atomic_init(&w->phase, PH_WARM);
	pthread_create(&t, NULL, worker_loop, w);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		pin(t, 1);
		pin(pthread_self(), 0);
	}
	usleep(200000);
	atomic_store(&w->phase, PH_QUIET);
	usleep((useconds_t)(QUIET_SECS * 1e6));
	atomic_store(&w->phase, PH_CHURN);
	ticks = bench_cpu_ticks_read();
	pubs = d->fib_publishes;
	compiles = d->rib.fib_compiles;
	deltas = d->rib.fib_deltas;
	secs = churn(d, nroutes, &n, nroutes < 1000000 ? nroutes : 1000000, CHURN_SECS, 0);
	nflat = n;
	pubs = d->fib_publishes - pubs; /* of the run at full speed */
	compiles = d->rib.fib_compiles - compiles;
	deltas = d->rib.fib_deltas - deltas;
	/* at the target's rate: what forwarding pays then */
	atomic_store(&w->phase, PH_PACED);
	churn(d, nroutes, &n, nroutes, PACED_SECS, PACED_RATE);
	/* the last FIB, and its delta, with no change: what the lookups cost, apart from the churn */
	fib = router_pub_get(&d->pub);
	dn = fib->delta ? router_pmap_count(fib->delta->exact) : 0;
	atomic_store(&w->phase, PH_AFTER);
	usleep((useconds_t)(QUIET_SECS * 1e6));
	atomic_store(&w->phase, PH_STOP);
	pthread_join(t, NULL);
	fwd[0] = pass_median(w, PH_QUIET);
	fwd[1] = pass_median(w, PH_CHURN);
	fwd[2] = pass_median(w, PH_AFTER);
	fwd[3] = pass_median(w, PH_PACED);
	printf("# %s: %llu changes in %.2f s, %llu publishes (%llu FIBs compiled whole, %llu with "
	       "a delta; the last's delta: %llu /64s); worker: %u quiet passes, %u during the "
	       "churn, %llu drops%s%s; steal %.1f%%\n",
	       tag, (unsigned long long)nflat, secs, (unsigned long long)pubs,
	       (unsigned long long)compiles, (unsigned long long)deltas, (unsigned long long)dn,
	       w->npass[PH_QUIET], w->npass[PH_CHURN], (unsigned long long)w->drops,
	       w->drops ? " as " : "", w->drops ? router_drop_name(w->why) : "",
	       bench_cpu_steal_pct(ticks, bench_cpu_ticks_read()));
	for (int ph = 0; ph < PH_STOP; ph++)
		free(w->pass[ph]);
	free(w->buf);
	free(w);
	ibrd_fix_free(d);
	return (double)nflat / secs;
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	char cpu[512];
	double fwd[4], cms, rate;

	printf("cpu: %s\n", ibr_cpu_describe(cpu, sizeof(cpu)));
	fflush(stdout);
	if (!only || strstr("route_churn_1e5", only)) {
		rate = churn_case("route_churn_1e5", 100000, fwd, &cms);
		printf("BENCH route_churn_1e5 %.*f changes/s\n", rate < 100 ? 2 : 0, rate);
		printf("# fib_compile_1e5 %.1f ms; fwd_quiet_1e5 %.2f ns/pkt, fwd_during_churn_1e5 "
		       "%.2f ns/pkt, at 20,000 changes/s %.2f, after it %.2f\n",
		       cms, fwd[0], fwd[1], fwd[3], fwd[2]);
		fflush(stdout);
	}
	if (!only || strstr("route_churn_1e6", only)) {
		rate = churn_case("route_churn_1e6", 1000000, fwd, &cms);
		printf("BENCH route_churn_1e6 %.*f changes/s\n", rate < 100 ? 2 : 0, rate);
		printf("BENCH fib_compile_1e6 %.1f ms\n", cms);
		printf("BENCH fwd_quiet_1e6 %.2f ns/pkt\n", fwd[0]);
		printf("BENCH fwd_during_churn_1e6 %.2f ns/pkt\n", fwd[1]);
		printf("# fwd_during_churn_2e4_1e6 %.2f ns/pkt: at 20,000 changes/s\n", fwd[3]);
		printf("# fwd_after_churn_1e6 %.2f ns/pkt: the last FIB, no change meanwhile\n",
		       fwd[2]);
	}
	return 0;
}
