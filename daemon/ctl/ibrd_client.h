/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_client.h - the control socket's clients and the socket's own state, shared by
 * the socket (ibrd_ctl.c), the client object (ibrd_client.c) and the
 * snapshots of long answers (ibrd_snap.c), which count against the bound on
 * what all clients hold.
 */
#ifndef IBRD_CLIENT_H
#define IBRD_CLIENT_H

#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/ctl/ibrd_out.h"
#include "daemon/ctl/ibrd_snap.h"

#include "lib/ibr_log.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#define CTL_QUEUE_MAX	(64u << 20) /* what one session (a plugin's) may have queued */
#define CTL_HELD_MAX	(16u << 20) /* beyond each client's first part, all clients */
#define CTL_PARTS_BURST 8	    /* parts made for one client per event */
#define CTL_STALL_S	5	    /* not read for so long: may be dropped when short */

/* The control socket's state (d->ctl; made by ibrd_ctl_open, gone with ibrd_ctl_close). */
struct ibrd_ctl {
	struct ibrd_ctl_listener listen;
	struct ibrd_ev ev_listen;
	struct ibrd_client *clients;
	unsigned nclients;
	struct ibrd_client *req; /* the client whose request runs, else NULL */
	struct ibrd_ev ev_timer; /* IBRD_EV_LISTEN: the listener's pause is over */
	int timerfd;
	int spare; /* held for EMFILE: closed to accept and refuse one client */
	bool paused;
	unsigned max_clients; /* from RLIMIT_NOFILE */
	ibrd_ctl_run_fn *run; /* what a request runs (the core's commands) */
	size_t held;	      /* bytes of reply parts queued and of snapshots, all clients */
	struct ibrd_snap *snap[IBRD_SNAP_KINDS]; /* the last copy of each table, while read */
	struct ibrd_client *cur;		 /* the client whose event is being handled */
	struct ibrd_client *deferred;		 /* whose answers wait for the turn's end */
	struct ibr_ratelimit rl_accept, rl_refuse, rl_drop;
};

struct ibrd_client_part {
	struct ibrd_client_part *next;
	size_t len;
	char buf[];
};

struct ibrd_client {
	struct ibrd_ev ev; /* first: epoll's data.ptr points here */
	int fd;
	bool privileged;
	bool doomed;   /* shut down: closed in its own event */
	bool held;     /* its last request is answered later (a reload): read no more */
	bool deferred; /* its answer goes out at the end of the turn (ibrd_ctl_flush) */
	struct ibrd_client *deferred_next;
	struct ucred cred;
	int fd_in; /* the running request's descriptor (SCM_RIGHTS), else -1 */
	const struct ibrd_client_ops *ops; /* whoever took it over, else NULL */
	void *ops_arg;
	uint32_t events;
	struct ibrd_client_part *head, *tail;
	size_t queued;
	uint64_t blocked_ns; /* when the socket first refused the head part, else 0 */
	struct ibrd_out out; /* the reply being made: a stream's state lives here */
	struct ibrd_client *next;
	struct ibrd *d;
};

/* A session's client (an OpenSM plugin's): its datagrams are the session's, not requests. */
static inline bool ibrd_client_is_session(const struct ibrd_client *c)
{
	return c->ops && c->ops->input;
}

/* True when a rate-limited message may go out; *held: how many were held back since. */
static inline bool ibrd_ctl_log_ok(struct ibr_ratelimit *rl, unsigned long long *held)
{
	if (!ibr_ratelimit_ok(rl, ibr_now_ns()))
		return false;
	*held = rl->suppressed;
	rl->suppressed = 0;
	return true;
}

/* ibrd_client.c */
/* A client on `fd` (accepted, its credentials read), on the loop; NULL: out of memory. */
struct ibrd_client *ibrd_client_new(struct ibrd *d, int fd, const struct ucred *cr, bool priv);
/* Free it now (its own event, or shutdown): its ops hear of it first. */
void ibrd_client_close(struct ibrd_client *c);
/* Its answer goes out at the end of the turn, once what its request changed is published. */
void ibrd_client_defer(struct ibrd_client *c);
/* Forget the parts queued for it (an answer replaced by an error). */
void ibrd_client_parts_free(struct ibrd_client *c);
/*
 * Send what the socket takes, make a stream's next parts while it takes
 * them, then wait for room or for the next request.  -1: drop it.
 */
int ibrd_client_output(struct ibrd_client *c);
/*
 * Take `bytes` from the bound on what all clients hold; when it is short,
 * clients that have not read for CTL_STALL_S are dropped first.  0 or
 * -ENOBUFS.
 */
int ibrd_ctl_hold(struct ibrd *d, size_t bytes);
void ibrd_ctl_release(struct ibrd *d, size_t bytes);

#endif
