/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_prom.c - the Prometheus text exposition format (version 0.0.4) of
 * the answers that are not counters_prom's: show sa and show plugins.
 */
#include "daemon/ctl/ibrd_prom.h"

#include "lib/ibr_log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void ibrd_prom_family(struct ibrd_out *o, const struct ibrd_prom_metric *m)
{
	ibrd_out_printf(o, "# HELP %s %s\n# TYPE %s %s\n", m->name, m->help, m->name, m->type);
}

void ibrd_prom_sample(struct ibrd_out *o, const struct ibrd_prom_metric *m, const char *labels,
		      uint64_t v)
{
	const char *open = labels[0] ? "{" : "", *close = labels[0] ? "}" : "";
	uint64_t f = m->scale > 1 ? v % m->scale : 0;
	char frac[24];
	int digits = 0;
	size_t n;

	if (m->scale <= 1) {
		ibrd_out_printf(o, "%s%s%s%s %llu\n", m->name, open, labels, close,
				(unsigned long long)v);
		return;
	}
	/* in decimal, exactly (a double would round a ns timestamp), no trailing zero */
	for (uint64_t s = m->scale; s > 1 && digits < 19; s /= 10)
		digits++;
	frac[0] = '.';
	for (int k = digits; k > 0; k--, f /= 10)
		frac[k] = (char)('0' + f % 10);
	for (n = (size_t)digits; n > 0 && frac[n] == '0'; n--)
		;
	frac[n ? n + 1 : 0] = '\0'; /* "." alone: none */
	ibrd_out_printf(o, "%s%s%s%s %llu%s\n", m->name, open, labels, close,
			(unsigned long long)(v / m->scale), frac);
}

const char *ibrd_prom_escape(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return buf;
	for (; *s; s++) {
		const char *e = *s == '\\'   ? "\\\\"
				: *s == '"'  ? "\\\""
				: *s == '\n' ? "\\n"
					     : NULL;
		size_t len = e ? 2 : 1;

		if (n + len >= size)
			break; /* a whole character or none: "\" alone would eat the quote */
		if (e) {
			buf[n++] = e[0];
			buf[n++] = e[1];
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

uint64_t ibrd_prom_wall_ns(uint64_t mono_ns)
{
	uint64_t now = ibr_now_ns(), wall;
	struct timespec ts;

	if (!mono_ns)
		return 0;
	clock_gettime(CLOCK_REALTIME, &ts);
	wall = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	/* as long ago as it was on the monotonic clock (a later step of the wall clock shows) */
	return mono_ns <= now && now - mono_ns <= wall ? wall - (now - mono_ns) : wall;
}
