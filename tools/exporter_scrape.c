/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* exporter_scrape.c - ibrouterd's Prometheus answers, joined into one exposition. */
#include "tools/exporter_scrape.h"
#include "lib/ibr_ctl_client.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* the commands with a Prometheus form (ibrouterctl(8)); each names its own metric families */
static const char *const scrape_cmds[] = { "show counters", "show sma",	    "show sa",
					   "show plugins",  "show latency", "show workers",
					   "show verbs" };
#define SCRAPE_NCMDS	(sizeof(scrape_cmds) / sizeof(scrape_cmds[0]))
#define SCRAPE_TEXT_MAX (64u << 20) /* one command's answer; more is no router's */

static int body_add(struct exporter_body *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t c = b->cap ? b->cap : 16384;
		char *p;

		while (c < b->len + n + 1)
			c *= 2;
		if (!(p = realloc(b->buf, c)))
			return -ENOMEM;
		b->buf = p, b->cap = c;
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
	return 0;
}

static int body_printf(struct exporter_body *b, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return body_add(b, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * One command's exposition into b: 1 answered, 0 refused (an older daemon
 * without that command's Prometheus form), -1 the daemon is not there or
 * did not answer in time (the scrape stops: up 0), -ENOMEM.
 */
static int scrape_cmd(const char *sock, int timeout_s, const char *cmd, struct exporter_body *b)
{
	char req[64], err[256], *text;
	size_t len;
	int fd, rc;

	snprintf(req, sizeof(req), "-o prometheus %s", cmd);
	if ((fd = ibr_ctl_connect(sock, timeout_s)) < 0)
		return -1;
	rc = ibr_ctl_call_text(fd, req, SCRAPE_TEXT_MAX, &text, &len, err, sizeof(err));
	close(fd);
	if (rc == -ENOMEM)
		return rc;
	if (rc == -EPROTO || rc == -E2BIG || rc == -EBADMSG)
		return 0;
	if (rc)
		return -1;
	/* every sample line ends in a newline: the next command's HELP starts a line */
	rc = body_add(b, text, len);
	if (!rc && len && text[len - 1] != '\n')
		rc = body_add(b, "\n", 1);
	free(text);
	return rc ? rc : 1;
}

int exporter_scrape_run(const char *sock, int timeout_s, struct exporter_body *b)
{
	int ok[SCRAPE_NCMDS] = { 0 }, rc = 0;
	double t0 = now_s();
	bool up = true;

	b->len = 0;
	if (body_add(b, "", 0))
		return -ENOMEM;
	for (size_t i = 0; i < SCRAPE_NCMDS && up; i++) {
		int r = scrape_cmd(sock, timeout_s, scrape_cmds[i], b);

		if (r == -ENOMEM)
			goto nomem;
		up = r >= 0;
		ok[i] = r > 0;
	}
	rc |= body_printf(b,
			  "# HELP ibrouter_up Whether ibrouterd answered on its control socket.\n"
			  "# TYPE ibrouter_up gauge\nibrouter_up %d\n",
			  up);
	rc |= body_printf(b, "# HELP ibrouter_exporter_command_success Whether the command's "
			     "Prometheus answer is in this scrape.\n"
			     "# TYPE ibrouter_exporter_command_success gauge\n");
	for (size_t i = 0; i < SCRAPE_NCMDS; i++)
		rc |= body_printf(b, "ibrouter_exporter_command_success{command=\"%s\"} %d\n",
				  scrape_cmds[i], ok[i]);
	rc |= body_printf(b,
			  "# HELP ibrouter_exporter_scrape_duration_seconds How long the "
			  "scrape of ibrouterd took.\n"
			  "# TYPE ibrouter_exporter_scrape_duration_seconds gauge\n"
			  "ibrouter_exporter_scrape_duration_seconds %.6f\n",
			  now_s() - t0);
	if (!rc)
		return 0;
nomem:
	b->len = 0;
	return -ENOMEM;
}

void exporter_body_free(struct exporter_body *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
}
