/*
 * ibrd_ctl.h - the control socket's own state (ibrd_ctl.c), shared with the
 * snapshots of long answers (ibrd_snap.c), which count against its bound.
 */
#ifndef IBRD_CTL_H
#define IBRD_CTL_H

#include "router/daemon/ibrd.h"
#include "router/daemon/ibrd_snap.h"

#include "lib/ibr_log.h"

#include <stdbool.h>
#include <stddef.h>

struct ibrd_ctl {
	struct ibrd_ev ev_timer; /* IBRD_EV_LISTEN: the listener's pause is over */
	int timerfd;
	int spare; /* held for EMFILE: closed to accept and refuse one client */
	bool paused;
	unsigned max_clients; /* from RLIMIT_NOFILE */
	size_t held;	      /* bytes of reply parts queued and of snapshots, all clients */
	struct ibrd_snap *snap[IBRD_SNAP_KINDS]; /* the last copy of each table, while read */
	struct ibrd_client *cur;		 /* the client whose event is being handled */
	struct ibr_ratelimit rl_accept, rl_refuse, rl_drop;
};

/*
 * Take `bytes` from the bound on what all clients hold; when it is short,
 * clients that have not read for CTL_STALL_S are dropped first.  0 or
 * -ENOBUFS.
 */
int ibrd_ctl_hold(struct ibrd *d, size_t bytes);
void ibrd_ctl_release(struct ibrd *d, size_t bytes);

#endif
