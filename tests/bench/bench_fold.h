/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * bench_fold.h - the carry-less multiply probe of bench_crc (tests/bench/bench_fold.c).
 */
#ifndef BENCH_FOLD_H
#define BENCH_FOLD_H

#include <stdbool.h>

#define BENCH_FOLD_WIDTHS 3 /* xmm, ymm, zmm */

struct bench_fold {
	const char *width; /* "xmm", "ymm", "zmm" */
	unsigned lanes;	   /* 128-bit lanes a multiply */
	double tp_ns;	   /* ns a multiply, twelve independent chains */
	double lat_ns;	   /* ns a multiply, one chain */
};

/* Fills f[0..BENCH_FOLD_WIDTHS) with the widths this CPU has; returns how many. */
int bench_fold_probe(struct bench_fold *f);

/* The fastest a fold on f's width can go: GB/s of message. */
double bench_fold_bound_gbs(const struct bench_fold *f);

#endif
