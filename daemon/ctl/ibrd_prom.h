/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_prom.h - what the answers in Prometheus text exposition format
 * (version 0.0.4) share: a metric's HELP and TYPE lines, its samples with
 * scaled values, label values escaped as the format wants, and the wall
 * clock of a monotonic time (a "_timestamp_seconds" gauge is Unix time).
 */
#ifndef IBRD_PROM_H
#define IBRD_PROM_H

#include "daemon/ctl/ibrd_out.h"

#include <stddef.h>
#include <stdint.h>

/* One metric family of an answer. */
struct ibrd_prom_metric {
	const char *name; /* a counter's ends in _total */
	const char *type; /* "counter" or "gauge" */
	const char *help; /* no backslash or newline: it goes out as it is */
	/* a sample's value is v / scale: 1 for a count, 1000 for ms, 1e9 for ns */
	uint64_t scale;
};

/* "# HELP name help" and "# TYPE name type". */
void ibrd_prom_family(struct ibrd_out *o, const struct ibrd_prom_metric *m);
/* "name{labels} value": labels already escaped (ibrd_prom_escape), "" for none. */
void ibrd_prom_sample(struct ibrd_out *o, const struct ibrd_prom_metric *m, const char *labels,
		      uint64_t v);

/*
 * A label value as the exposition format writes it: backslash, double quote
 * and line feed as \\, \" and \n, every other byte as it is.  Cut short at
 * a character (never inside an escape) when it does not fit `size`.
 * Returns buf.
 */
const char *ibrd_prom_escape(const char *s, char *buf, size_t size);

/* The Unix time, in ns, of `mono_ns` on the ibr_now_ns() clock; 0 stays 0 (never). */
uint64_t ibrd_prom_wall_ns(uint64_t mono_ns);

#endif
