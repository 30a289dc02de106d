/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* bench_sys.c - steal time from /proc/stat (proc(5): the "cpu" line's 8th value). */
#include "tests/bench/bench_sys.h"

#include <stdio.h>

struct bench_cpu_ticks bench_cpu_ticks_read(void)
{
	struct bench_cpu_ticks t = { 0, 0 };
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	if (!f)
		return t;
	/* user nice system idle iowait irq softirq steal */
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) == 8) {
		for (int i = 0; i < 8; i++)
			t.total += v[i];
		t.steal = v[7];
	}
	fclose(f);
	return t;
}

double bench_cpu_steal_pct(struct bench_cpu_ticks a, struct bench_cpu_ticks b)
{
	if (b.total <= a.total)
		return -1;
	return 100.0 * (double)(b.steal - a.steal) / (double)(b.total - a.total);
}
