/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_notify.c - the daemon and its service manager (ibrouterd.service is
 * Type=notify; sd_notify(3)): READY=1 once the config is applied and the
 * ports are open, STATUS= with what the router is doing, RELOADING=1 and
 * READY=1 around a reload, STOPPING=1 at the end, and WATCHDOG=1 from the
 * control loop only while every worker makes progress: a worker stuck
 * (a driver call that never returns, a hook that blocks) stops the pings,
 * and systemd restarts the router after WatchdogSec= (ibrouterd(8),
 * SYSTEMD).  Started by hand, without NOTIFY_SOCKET, each is a no-op.
 */
#include "daemon/ibrd.h"
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>

/* The watchdog's state (d->watch): what each worker's count was at the last look. */
struct ibrd_watch {
	uint64_t period_ns;		     /* WatchdogSec=, 0: no watchdog */
	uint64_t next_ns;		     /* the next look */
	const struct router_worker *workers; /* the set the counts below are of */
	unsigned nworkers;
	uint64_t *beats;
	bool stuck; /* said so in the log, since the last ping */
	uint64_t pings;
};

/* STATUS=: the ports up, the workers, the FIBs published (systemctl status shows it). */
static void notify_status(struct ibrd *d, const char *state)
{
	unsigned up = 0;

	for (uint32_t i = 0; i < d->rib.nports; i++)
		up += !!(d->rib.port[i].flags & ROUTER_PORT_UP);
	sd_notifyf(0, "STATUS=%s: %u of %u ports up, %u workers, FIB %llu", state, up,
		   d->rib.nports, d->data ? d->data->nworkers : 0,
		   (unsigned long long)d->fib_publishes);
}

int ibrd_notify_start(struct ibrd *d)
{
	uint64_t usec = 0;
	int rc;

	if ((rc = sd_watchdog_enabled(0, &usec)) < 0)
		log_warnx("systemd: WATCHDOG_USEC: %s: no watchdog", strerror(-rc));
	if (rc > 0 && usec) {
		if (!(d->watch = calloc(1, sizeof(*d->watch))))
			return -ENOMEM;
		/* a look every half period: a worker stuck for a whole period misses a ping */
		d->watch->period_ns = usec * 1000u;
		d->watch->next_ns = ibr_now_ns();
		log_info("systemd: watchdog every %llu ms, while every worker makes progress",
			 (unsigned long long)usec / 1000u);
	}
	notify_status(d, "forwarding");
	sd_notify(0, "READY=1");
	return 0;
}

void ibrd_notify_reloading(struct ibrd *d)
{
	(void)d;
	sd_notify(0, "RELOADING=1\nSTATUS=reloading the config");
}

void ibrd_notify_reloaded(struct ibrd *d, bool ok)
{
	notify_status(d, ok ? "reloaded, forwarding" : "reload failed, the old config forwards");
	sd_notify(0, "READY=1");
}

void ibrd_notify_stopping(struct ibrd *d)
{
	sd_notify(0, "STOPPING=1\nSTATUS=stopping");
	if (d->watch)
		free(d->watch->beats);
	free(d->watch);
	d->watch = NULL;
}

/* True when each worker's count moved since the last look (a new set of workers: it did). */
static bool watch_progress(struct ibrd *d, struct ibrd_watch *x)
{
	const struct ibrd_datapath *dp = d->data;
	bool ok = true;

	if (!dp->running) /* a reload stopped them: the loop itself is what makes progress */
		return true;
	if (x->workers != dp->workers || x->nworkers != dp->nworkers) {
		uint64_t *b = realloc(x->beats, (dp->nworkers ? dp->nworkers : 1) * sizeof(*b));

		if (!b)
			return true; /* cannot tell: better a ping than a restart */
		x->beats = b;
		x->workers = dp->workers;
		x->nworkers = dp->nworkers;
		for (unsigned i = 0; i < x->nworkers; i++)
			x->beats[i] = atomic_load_explicit(&dp->workers[i].beats,
							   memory_order_relaxed);
		return true;
	}
	for (unsigned i = 0; i < x->nworkers; i++) {
		uint64_t b = atomic_load_explicit(&dp->workers[i].beats, memory_order_relaxed);

		if (b == x->beats[i]) {
			if (!x->stuck)
				log_warnx("watchdog: worker %u made no progress in %llu ms: no "
					  "ping to systemd until it does",
					  i, (unsigned long long)(x->period_ns / 2000000u));
			ok = false;
		}
		x->beats[i] = b;
	}
	return ok;
}

void ibrd_notify_tick(struct ibrd *d, uint64_t now)
{
	struct ibrd_watch *x = d->watch;

	if (!x || now < x->next_ns)
		return;
	x->next_ns = now + x->period_ns / 2;
	if (!watch_progress(d, x)) {
		x->stuck = true;
		return;
	}
	if (x->stuck)
		log_info("watchdog: every worker makes progress again");
	x->stuck = false;
	x->pings++;
	sd_notify(0, "WATCHDOG=1");
}

uint64_t ibrd_notify_deadline(const struct ibrd *d)
{
	return d->watch ? d->watch->next_ns : UINT64_MAX;
}
