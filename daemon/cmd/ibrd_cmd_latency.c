/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_latency.c - `show latency [PORT]`: the router's residence time
 * per egress port, from each packet's receive to the post of its copy
 * (router_counters.h, counted by the workers in log2 buckets): copies, mean,
 * and the 50th, 99th and 99.9th percentiles and the maximum as the upper
 * bound of their bucket (a percentile is known to a factor of 2).  With -o
 * prometheus, a histogram ibrouter_residence_seconds per port.
 */
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/port/ibrd_port.h"

#include <errno.h>
#include <stdlib.h>

/* The upper bound (ns) of the bucket where the q-th part (per mille) of n copies falls. */
static uint64_t lat_quantile(const uint64_t *res, uint64_t n, unsigned per_mille)
{
	/* the copy of rank ceil(n q), counted from 1 */
	uint64_t rank = (n * per_mille + 999) / 1000, seen = 0;

	for (unsigned b = 0; b < ROUTER_RES_BUCKETS; b++)
		if ((seen += res[b]) >= rank && res[b])
			return router_res_bucket_le(b);
	return 0;
}

static int lat_prom(struct ibrd *d, struct ibrd_out *o, const struct router_counters *c, int port)
{
	ibrd_out_printf(o, "# HELP ibrouter_residence_seconds Time from a packet's receive to the "
			   "post of its copy, by egress port.\n"
			   "# TYPE ibrouter_residence_seconds histogram\n");
	for (uint32_t p = 0; p < d->rib.nports; p++) {
		const char *name = d->rib.port[p].name;
		uint64_t cum = 0;

		if (port >= 0 && (uint32_t)port != p)
			continue;
		for (unsigned b = 0; b + 1 < ROUTER_RES_BUCKETS; b++) {
			cum += c->res[p][b];
			ibrd_out_printf(
				o,
				"ibrouter_residence_seconds_bucket{port=\"%s\",le=\"%.9g\"} "
				"%llu\n",
				name, (double)router_res_bucket_le(b) / 1e9,
				(unsigned long long)cum);
		}
		cum += c->res[p][ROUTER_RES_BUCKETS - 1];
		ibrd_out_printf(o,
				"ibrouter_residence_seconds_bucket{port=\"%s\",le=\"+Inf\"} %llu\n"
				"ibrouter_residence_seconds_sum{port=\"%s\"} %.9f\n"
				"ibrouter_residence_seconds_count{port=\"%s\"} %llu\n",
				name, (unsigned long long)cum, name, (double)c->res_ns[p] / 1e9,
				name, (unsigned long long)cum);
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_show_latency(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "port",   "copies",	 "mean_ns", "p50_ns",
					    "p99_ns", "p999_ns", "max_ns" };
	struct router_counters *c;
	int port = -1, rc;

	if (argc > 3)
		return ibrd_out_usage(o, "usage: show latency [PORT]");
	if (argc == 3 && (port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	if (!(c = malloc(sizeof(*c))))
		return ibrd_out_error(o, ENOMEM, "out of memory");
	ibrd_counters_sum(d, c);
	if (o->fmt == IBRD_FMT_PROM) {
		rc = lat_prom(d, o, c, port);
		free(c);
		return rc;
	}
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (uint32_t p = 0; p < d->rib.nports; p++) {
		uint64_t n = 0, max = 0;

		if (port >= 0 && (uint32_t)port != p)
			continue;
		for (unsigned b = 0; b < ROUTER_RES_BUCKETS; b++)
			if (c->res[p][b]) {
				n += c->res[p][b];
				max = router_res_bucket_le(b);
			}
		ibrd_out_str(o, d->rib.port[p].name);
		ibrd_out_u64(o, n);
		ibrd_out_u64(o, n ? c->res_ns[p] / n : 0);
		ibrd_out_u64(o, lat_quantile(c->res[p], n, 500));
		ibrd_out_u64(o, lat_quantile(c->res[p], n, 990));
		ibrd_out_u64(o, lat_quantile(c->res[p], n, 999));
		ibrd_out_u64(o, max);
	}
	free(c);
	return ibrd_out_end(o);
}
