/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_workers.c - `show workers`: each forwarding worker's mode
 * (ibrouterd.conf(5), worker-mode), the CPU it is pinned to, the ports it
 * receives from, and how it waited: its sleeps in epoll_wait (wakeups), its
 * polls that found nothing (idle_polls: a busy worker's spin), its turns,
 * and the share of its turns that found packets (busy_share).
 */
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/port/ibrd_port.h"
#include "router/router_worker.h"

#include <stddef.h>
#include <stdio.h>

static const char *const worker_modes[] = { "event", "busy", "hybrid" };

/* One counter of every worker (`off` in struct router_worker), as a Prometheus family. */
static void workers_counter(struct ibrd *d, struct ibrd_out *o, const char *name, const char *help,
			    size_t off)
{
	ibrd_out_printf(o, "# HELP %s %s\n# TYPE %s counter\n", name, help, name);
	for (unsigned i = 0; i < d->data->nworkers; i++) {
		const _Atomic uint64_t *v =
			(const _Atomic uint64_t *)((const char *)&d->data->workers[i] + off);

		ibrd_out_printf(o, "%s{worker=\"%u\"} %llu\n", name, i,
				(unsigned long long)atomic_load_explicit(v, memory_order_relaxed));
	}
}

/* show workers -o prometheus: each worker's mode and CPU as labels, its counts. */
static int workers_prom(struct ibrd *d, struct ibrd_out *o)
{
	ibrd_out_printf(o, "# HELP ibrouter_worker_info A forwarding worker, its mode and CPU.\n"
			   "# TYPE ibrouter_worker_info gauge\n");
	for (unsigned i = 0; i < d->data->nworkers; i++) {
		const struct router_worker *w = &d->data->workers[i];

		ibrd_out_printf(o, "ibrouter_worker_info{worker=\"%u\",mode=\"%s\",cpu=\"%d\"} 1\n",
				i, w->mode < 3 ? worker_modes[w->mode] : "?", w->cpu);
	}
	workers_counter(d, o, "ibrouter_worker_wakeups_total", "Sleeps in epoll_wait.",
			offsetof(struct router_worker, wakeups));
	workers_counter(d, o, "ibrouter_worker_idle_polls_total", "Polls that found no packet.",
			offsetof(struct router_worker, idle_polls));
	workers_counter(d, o, "ibrouter_worker_turns_total", "Turns of the worker's loop.",
			offsetof(struct router_worker, beats));
	workers_counter(d, o, "ibrouter_worker_work_turns_total", "Turns that found packets.",
			offsetof(struct router_worker, work_turns));
	return ibrd_out_end(o);
}

int ibrd_cmd_show_workers(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "worker",  "mode",	     "cpu",   "ports",
					    "wakeups", "idle_polls", "turns", "busy_share" };

	(void)argv;
	if (argc > 2)
		return ibrd_out_usage(o, "usage: show workers");
	if (o->fmt == IBRD_FMT_PROM)
		return workers_prom(d, o);
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (unsigned i = 0; i < d->data->nworkers; i++) {
		const struct router_worker *w = &d->data->workers[i];
		char cpu[12] = "-", ports[ROUTER_MAX_PORTS * (ROUTER_PORT_NAME + 1)] = "",
		     share[16];
		uint64_t turns = atomic_load_explicit(&w->beats, memory_order_relaxed);
		size_t at = 0;

		if (w->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "%d", w->cpu);
		for (uint32_t p = 0; p < w->nports && p < d->conf->nports; p++)
			if (w->rx_ports & (1u << p))
				at += (size_t)snprintf(
					ports + at, at < sizeof(ports) ? sizeof(ports) - at : 0,
					"%s%s", at ? "," : "", d->conf->port[p].name);
		ibrd_out_u64(o, i);
		ibrd_out_str(o, w->mode < 3 ? worker_modes[w->mode] : "?");
		ibrd_out_str(o, cpu);
		ibrd_out_str(o, at ? ports : "-");
		ibrd_out_u64(o, atomic_load_explicit(&w->wakeups, memory_order_relaxed));
		ibrd_out_u64(o, atomic_load_explicit(&w->idle_polls, memory_order_relaxed));
		ibrd_out_u64(o, turns);
		/* the share of its turns that found packets: 1 for a saturated worker */
		snprintf(
			share, sizeof(share), "%.4f",
			turns ? (double)atomic_load_explicit(&w->work_turns, memory_order_relaxed) /
					(double)turns
			      : 0.0);
		ibrd_out_str(o, share);
	}
	return ibrd_out_end(o);
}
