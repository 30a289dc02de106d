/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_log.c - stderr/syslog logging and the rate limiter for hot paths. */
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static bool log_foreground = true;
static int log_level = LOG_INFO;
static void (*log_sink)(int pri, const char *msg);

static const char *const log_names[] = {
	[LOG_EMERG] = "emerg", [LOG_ALERT] = "alert",	  [LOG_CRIT] = "crit",
	[LOG_ERR] = "err",     [LOG_WARNING] = "warning", [LOG_NOTICE] = "notice",
	[LOG_INFO] = "info",   [LOG_DEBUG] = "debug",
};

void log_init(const char *ident, bool foreground, int level)
{
	log_foreground = foreground;
	log_level = level;
	if (!foreground)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

void log_setlevel(int level)
{
	log_level = level;
}

int log_getlevel(void)
{
	return log_level;
}

int log_level_parse(const char *name)
{
	char *end;
	long n;

	for (int i = LOG_ERR; i <= LOG_DEBUG; i++)
		if (strcasecmp(name, log_names[i]) == 0)
			return i;
	if (strcasecmp(name, "warn") == 0)
		return LOG_WARNING;
	errno = 0;
	n = strtol(name, &end, 10);
	if (errno == 0 && *name && *end == '\0' && n >= LOG_ERR && n <= LOG_DEBUG)
		return (int)n;
	return -EINVAL;
}

const char *log_level_name(int level)
{
	if (level < LOG_EMERG || level > LOG_DEBUG)
		return "unknown";
	return log_names[level];
}

void log_set_sink(void (*sink)(int pri, const char *msg))
{
	log_sink = sink;
}

static void log_emit(int pri, const char *fmt, va_list ap, const char *suffix)
{
	char msg[1024];
	int n;

	if (pri > log_level)
		return;
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		return;
	if (suffix && (size_t)n < sizeof(msg))
		snprintf(msg + n, sizeof(msg) - (size_t)n, ": %s", suffix);
	if (log_sink)
		log_sink(pri, msg);
	else if (log_foreground)
		fprintf(stderr, "%s\n", msg);
	else
		syslog(pri, "%s", msg);
}

void log_warn(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_WARNING, fmt, ap, strerror(saved));
	va_end(ap);
	errno = saved;
}

#define LOG_DEFINE(fn, pri)                   \
	void fn(const char *fmt, ...)         \
	{                                     \
		va_list ap;                   \
		va_start(ap, fmt);            \
		log_emit(pri, fmt, ap, NULL); \
		va_end(ap);                   \
	}
LOG_DEFINE(log_warnx, LOG_WARNING)
LOG_DEFINE(log_info, LOG_INFO)
LOG_DEFINE(log_debug, LOG_DEBUG)

void fatal(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_ERR, fmt, ap, saved ? strerror(saved) : NULL);
	va_end(ap);
	exit(1);
}

void fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_ERR, fmt, ap, NULL);
	va_end(ap);
	exit(1);
}

uint64_t ibr_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool ibr_ratelimit_ok(struct ibr_ratelimit *rl, uint64_t now_ns)
{
	const uint64_t full = (uint64_t)rl->burst * 1000000000u;

	if (rl->last_ns == 0) {
		rl->tokens_x1e9 = full;
	} else if (now_ns > rl->last_ns && rl->per_sec) {
		uint64_t delta = now_ns - rl->last_ns;

		/* a long idle period refills the bucket; never multiply past it */
		if (delta > full / rl->per_sec)
			rl->tokens_x1e9 = full;
		else if (rl->tokens_x1e9 + delta * rl->per_sec > full)
			rl->tokens_x1e9 = full;
		else
			rl->tokens_x1e9 += delta * rl->per_sec;
	}
	rl->last_ns = now_ns;
	if (rl->tokens_x1e9 >= 1000000000u) {
		rl->tokens_x1e9 -= 1000000000u;
		return true;
	}
	rl->suppressed++;
	return false;
}
