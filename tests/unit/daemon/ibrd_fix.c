/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibrd_fix.c - a daemon without its loop (ibrd_fix.h). */
#include "tests/unit/daemon/ibrd_fix.h"
#include "daemon/port/ibrd_port.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

struct ibrd *ibrd_fix_new(const char *conf, const char *name)
{
	struct ibrd *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->epfd = -1;
	if (!(d->conf = ibrd_conf_load_string(conf, name, stderr)) || ibrd_rooms_new(d) ||
	    (d->epfd = epoll_create1(EPOLL_CLOEXEC)) < 0 || router_pub_init(&d->pub, 1) ||
	    ibrd_state_build(d, d->conf, NULL, NULL, NULL)) {
		ibrd_fix_free(d);
		return NULL;
	}
	return d;
}

void ibrd_fix_free(struct ibrd *d)
{
	if (!d)
		return;
	if (d->agents)
		ibrd_sma_stop(d);
	router_pub_destroy(&d->pub);
	router_rib_free(&d->rib);
	ibrd_rooms_free(d);
	if (d->epfd >= 0)
		close(d->epfd);
	ibrd_conf_free(d->conf);
	free(d);
}
