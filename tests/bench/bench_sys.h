/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_sys.h - what the machine did while a benchmark ran: the share of
 * CPU time the hypervisor gave to other guests (steal, /proc/stat), so that
 * a figure from a shared VM says how shared it was.
 */
#ifndef BENCH_SYS_H
#define BENCH_SYS_H

struct bench_cpu_ticks {
	unsigned long long total, steal;
};

/* The machine's CPU ticks so far (all CPUs); zeros where /proc/stat cannot be read. */
struct bench_cpu_ticks bench_cpu_ticks_read(void);

/* Steal between two readings, in percent of all CPU time; -1 when unknown. */
double bench_cpu_steal_pct(struct bench_cpu_ticks a, struct bench_cpu_ticks b);

#endif
