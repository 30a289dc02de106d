/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_log.h - logging for every ibrouter program (doc/ARCHITECTURE.md, "Conventions").
 *
 * Messages go to stderr in the foreground (-d) and to syslog otherwise.
 * Callers prefix messages with their subsystem ("sa: port b: ...").
 * The data path never logs per packet: it uses ibr_ratelimit_ok().
 */
#ifndef IBR_LOG_H
#define IBR_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <syslog.h>

#define IBR_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* Levels are syslog priorities: LOG_ERR .. LOG_DEBUG. */
void log_init(const char *ident, bool foreground, int level);
void log_setlevel(int level);
int log_getlevel(void);
/* Parse "err", "warning", "info", "debug" (or a number 3..7); -EINVAL else. */
int log_level_parse(const char *name);
const char *log_level_name(int level);

/* Redirect output (tests); NULL restores stderr/syslog. */
void log_set_sink(void (*sink)(int pri, const char *msg));

void log_warn(const char *fmt, ...) IBR_PRINTF(1, 2); /* appends strerror(errno) */
void log_warnx(const char *fmt, ...) IBR_PRINTF(1, 2);
void log_info(const char *fmt, ...) IBR_PRINTF(1, 2);
void log_debug(const char *fmt, ...) IBR_PRINTF(1, 2);
/* Start-up only: log and exit(1). */
_Noreturn void fatal(const char *fmt, ...) IBR_PRINTF(1, 2);
_Noreturn void fatalx(const char *fmt, ...) IBR_PRINTF(1, 2);

/*
 * Token bucket for logs on paths that can run per packet: at most `burst`
 * messages, refilled at `per_sec` a second.  `suppressed` counts what was
 * held back, so the next message that passes can say how many were lost.
 */
struct ibr_ratelimit {
	uint32_t per_sec;
	uint32_t burst;
	uint64_t tokens_x1e9; /* tokens scaled by 1e9 (one token per second = per_sec) */
	uint64_t last_ns;
	uint64_t suppressed;
};

#define IBR_RATELIMIT_INIT(rate, bucket)             \
	{                                            \
		.per_sec = (rate), .burst = (bucket) \
	}

/* `now_ns` from a monotonic clock; true when a message may be logged. */
bool ibr_ratelimit_ok(struct ibr_ratelimit *rl, uint64_t now_ns);
uint64_t ibr_now_ns(void);

#endif
