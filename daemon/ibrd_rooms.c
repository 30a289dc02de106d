/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_rooms.c - each room's state (struct ibrd's pointers), made at start
 * and freed at the end by the core, which owns the pointers; the rooms make
 * and free what is inside.  The control socket's state is made when it
 * opens (ibrd_ctl_open), the MAD ports' with their channels (ibrd_mad_start).
 */
#include "daemon/ibrd.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/port/ibrd_port.h"

#include <errno.h>
#include <stdlib.h>

int ibrd_rooms_new(struct ibrd *d)
{
	if (!(d->data = ibrd_data_new()) || !(d->agents = ibrd_agents_new()) ||
	    !(d->cap = ibrd_capture_new()) || !(d->salog = ibrd_salog_new()) ||
	    !(d->mcast = ibrd_mcast_new()) || !(d->plug = ibrd_plugins_new()) ||
	    !(d->ad = ibrd_announce_new()) || !(d->peer = ibrd_peers_new())) {
		ibrd_rooms_free(d);
		return -ENOMEM;
	}
	return 0;
}

void ibrd_rooms_free(struct ibrd *d)
{
	ibrd_peers_free(d->peer);
	free(d->ad);
	free(d->plug);
	ibrd_mcast_free(d->mcast);
	free(d->salog);
	ibrd_capture_free(d->cap);
	ibrd_agents_free(d->agents);
	ibrd_data_free(d->data);
	d->peer = NULL;
	d->ad = NULL;
	d->plug = NULL;
	d->mcast = NULL;
	d->salog = NULL;
	d->cap = NULL;
	d->agents = NULL;
	d->data = NULL;
}
