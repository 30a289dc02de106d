/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_conf.c - loading ibrouterd.conf(5) with many routes, as
 * ibrd_conf_load() does at start and on every reload:
 *   BENCH conf_load_1e5  s: 10^5 routes (target: at most 1 s)
 *   BENCH conf_load_1e4  s: 10^4 routes, in the same run: a tenth of the
 *                        time when loading is linear (it was quadratic)
 *   BENCH conf_read_1e5  s: the baseline, reading the same file and
 *                        counting its lines, the least any parser does
 * The routes are written as ibrouterd -n prints them.  Each case is the
 * best of 5 runs (wall time); the file sits in the page cache.
 */
#include "daemon/conf/ibrd_conf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RUNS 5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int write_routes(const char *path, unsigned n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "router {\n\tnode-guid = 0x0002c90300000100\n}\n\n"
		   "port \"a\" {\n\tdata = none\n\tlid = 1\n\tsubnet-prefix = \"fec0::\"\n}\n\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(f,
			"route \"fec1:%x:%x::/64\" {\n\tport = \"a\"\n\tvia = direct\n"
			"\tlmc = 0\n\tmetric = %u\n}\n\n",
			i >> 16, i & 0xffff, i % 100);
	return fclose(f) ? -1 : 0;
}

/* Seconds to load path (n routes): the best of RUNS; exits on a failure. */
static double bench_load(const char *path, unsigned n)
{
	double best = 1e9;

	for (int r = 0; r < RUNS; r++) {
		double t0 = now(), t;
		struct ibrd_conf *c = ibrd_conf_load(path, stderr);

		t = now() - t0;
		if (!c || c->nroutes != n) {
			fprintf(stderr, "bench_conf: %s: did not load %u routes\n", path, n);
			exit(1);
		}
		ibrd_conf_free(c);
		best = t < best ? t : best;
	}
	return best;
}

/* Seconds to read path and count its lines: the best of RUNS. */
static double bench_read(const char *path)
{
	static char buf[1 << 16];
	double best = 1e9;
	size_t lines = 0;

	for (int r = 0; r < RUNS; r++) {
		double t0 = now(), t;
		FILE *f = fopen(path, "r");
		size_t n;

		if (!f)
			exit(1);
		lines = 0;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			for (const char *p = buf; (p = memchr(p, '\n', n - (size_t)(p - buf))); p++)
				lines++;
		fclose(f);
		t = now() - t0;
		best = t < best ? t : best;
	}
	return lines ? best : -1;
}

int main(void)
{
	char path[] = "/tmp/bench_conf.XXXXXX";
	int fd = mkstemp(path);
	double t4, t5, tr;

	if (fd < 0) {
		perror("bench_conf: mkstemp");
		return 1;
	}
	close(fd);
	if (write_routes(path, 10000) < 0)
		goto fail;
	t4 = bench_load(path, 10000);
	if (write_routes(path, 100000) < 0)
		goto fail;
	t5 = bench_load(path, 100000);
	tr = bench_read(path);
	unlink(path);
	printf("BENCH conf_load_1e5 %.3f s\n", t5);
	printf("BENCH conf_load_1e4 %.4f s\n", t4);
	printf("BENCH conf_read_1e5 %.4f s\n", tr);
	printf("conf: 10^5 routes take %.1fx the time of 10^4 (10x: linear), %.0fx reading the "
	       "file\n",
	       t5 / t4, t5 / tr);
	return 0;
fail:
	perror("bench_conf: writing the config");
	unlink(path);
	return 1;
}
