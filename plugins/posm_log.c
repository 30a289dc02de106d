/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_log.c - the plugin's log lines (into OpenSM's log, at the plugin's
 * own verbosity) and its clock: leaves that every other file of the plugin
 * calls, and that call none of them.
 */
#include "plugins/posm_osm.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

uint64_t posm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void posm_log(struct posm *p, int level, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (level > p->o.verbose)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* the plugin's verbosity decides; OpenSM's log_flags still filter INFO */
	osm_log(&p->osm->log, level == 0 ? OSM_LOG_ERROR : OSM_LOG_INFO, POSM_NAME ": %s\n", msg);
}
