/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_ctl.h - the daemon's ctl room: the control socket (ibrd_ctl.c), its
 * clients (ibrd_client.c), the answers' output (ibrd_out.h), the snapshots
 * long answers stream from (ibrd_snap.h) and the Prometheus text
 * (ibrd_prom.h).  What a request runs is the core's to say
 * (ibrd_ctl_open's runner: the cmd/ room's commands); this room calls only
 * down, into conf/ and lib/.
 */
#ifndef IBRD_CTL_H
#define IBRD_CTL_H

#include "daemon/ibrd.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ibrd_out;
struct ucred;

/* A listening control socket (ibrd_ctl.c). */
struct ibrd_ctl_listener {
	int fd;
	char path[IBRD_PATH_MAX];
	dev_t dev; /* the socket file it bound: removed at the end only if still there */
	ino_t ino;
	gid_t gid; /* members of this group may change state */
};

int ibrd_ctl_listener_open(struct ibrd_ctl_listener *l, const char *path, unsigned mode,
			   const char *group);
void ibrd_ctl_listener_close(struct ibrd_ctl_listener *l);
/* A reload moved the socket to `l` (taken). */
void ibrd_ctl_listener_swap(struct ibrd *d, struct ibrd_ctl_listener *l);
/* A reload's mode and group for the socket where it is. */
void ibrd_ctl_listener_chmod(struct ibrd *d, unsigned mode, const char *group);
/* The path the socket is bound at ("" before ibrd_ctl_open). */
const char *ibrd_ctl_listener_path(const struct ibrd *d);
/* What a request runs: the core's commands (ibrd_cmd_run). */
typedef int ibrd_ctl_run_fn(struct ibrd *d, struct ibrd_out *o, char *req, bool privileged);
int ibrd_ctl_open(struct ibrd *d, ibrd_ctl_run_fn *run);
void ibrd_ctl_close(struct ibrd *d);
/* An event on the listening socket or on a client (ev->kind says which). */
void ibrd_ctl_event(struct ibrd *d, struct ibrd_ev *ev, uint32_t events);
/* The client whose request runs now, else NULL (a signal's reload, a test). */
struct ibrd_client *ibrd_ctl_current(const struct ibrd *d);

/* ibrd_client.c: a client of the control socket */
/* Whoever takes a client over: a session reads its datagrams; both hear it close. */
struct ibrd_client_ops {
	int (*input)(void *arg, int fd); /* its datagrams instead of requests; < 0: close it */
	void (*closed)(void *arg, struct ibrd_client *c);
};
void ibrd_client_set_ops(struct ibrd_client *c, const struct ibrd_client_ops *ops, void *arg);
/* The output sink of a client's answer (ibrd_out): queue one part; it goes out at the turn's end. */
int ibrd_client_queue(void *ctx, const char *buf, size_t len);
/* The answers of this turn's requests go out (ibrd_sync.c: after the tables are published). */
void ibrd_client_flush_all(struct ibrd *d);
/* Queue a datagram for a client and send what the socket takes (sessions). */
int ibrd_client_send(struct ibrd_client *c, const void *buf, size_t len);
/* The current request is answered later: read nothing more from `c` until resumed. */
void ibrd_client_hold(struct ibrd_client *c);
void ibrd_client_resume(struct ibrd_client *c);
/* Close a client once the current event is handled. */
void ibrd_client_drop(struct ibrd_client *c);
const struct ucred *ibrd_client_cred(const struct ibrd_client *c);
/* The descriptor that came with the running request (SCM_RIGHTS), now the caller's; else -1. */
int ibrd_client_take_fd(struct ibrd_client *c);

#endif
