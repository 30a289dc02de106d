/*
 * io_verbs_int.h - private to the io_verbs*.c files that call ibv_*: the
 * devices and the set of ports (io_verbs.h shows only the ports).
 */
#ifndef IO_VERBS_INT_H
#define IO_VERBS_INT_H

#include "router/io_verbs.h"

#include <infiniband/verbs.h>

struct io_verbs_dev {
	char name[64];
	struct ibv_context *ctx;
	struct ibv_pd *pd;
};

struct io_verbs {
	unsigned nports, ndevs;
	struct io_verbs_port port[ROUTER_MAX_PORTS];
	struct io_verbs_dev dev[ROUTER_MAX_PORTS];
	struct ibv_mr *mr[ROUTER_MAX_PORTS][ROUTER_MAX_PORTS]; /* [pool's port][device] */
	bool async_ctl; /* the control thread reads the async events (io_verbs_async_owner) */
};

/*
 * io_verbs_event.c: the owning worker's idle work on events: read the
 * device's async events unless the control thread does, and read the
 * port's state again when an event flagged it.
 */
void io_verbs_event_idle(struct io_verbs_port *p);

#endif
