/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_client.c - a client of the control socket: its reply parts queued
 * and sent without blocking, the stream it reads (ibrd_out_stream), the
 * bound on what all clients hold together, and its life (dropped from
 * anywhere, freed only in its own event).  ibrd_ctl.c accepts clients and
 * reads their requests; whoever takes a client over (an OpenSM plugin's
 * session, a reload that answers later) does so through its ops, so that
 * neither the socket nor the client knows them.
 */
#include "daemon/ctl/ibrd_client.h"
#include "daemon/ibrd.h"
#include "daemon/ctl/ibrd_out.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

struct ibrd_client *ibrd_client_new(struct ibrd *d, int fd, const struct ucred *cr, bool priv)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ibrd_client *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ev.kind = IBRD_EV_CLIENT;
	c->fd = fd;
	c->d = d;
	c->events = EPOLLIN;
	c->fd_in = -1;
	c->privileged = priv;
	c->cred = *cr;
	ev.data.ptr = c;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		free(c);
		return NULL;
	}
	c->next = d->ctl->clients;
	d->ctl->clients = c;
	d->ctl->nclients++;
	return c;
}

void ibrd_client_parts_free(struct ibrd_client *c)
{
	while (c->head) {
		struct ibrd_client_part *p = c->head;

		c->head = p->next;
		ibrd_ctl_release(c->d, p->len);
		free(p);
	}
	c->tail = NULL;
	c->queued = 0;
}

void ibrd_client_close(struct ibrd_client *c)
{
	struct ibrd *d = c->d;
	struct ibrd_client **pp;

	for (pp = &d->ctl->clients; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	if (c->ops && c->ops->closed) /* whoever took the client over (a plugin, a reload) */
		c->ops->closed(c->ops_arg, c);
	for (pp = &d->ctl->deferred; c->deferred && *pp; pp = &(*pp)->deferred_next)
		if (*pp == c) {
			*pp = c->deferred_next;
			break;
		}
	if (c->fd_in >= 0)
		close(c->fd_in);
	if (d->ctl->req == c)
		d->ctl->req = NULL;
	if (d->ctl->cur == c)
		d->ctl->cur = NULL;
	ibrd_client_parts_free(c);
	ibrd_out_free(&c->out); /* a stream's snapshot goes with it */
	close(c->fd);
	d->ctl->nclients--;
	free(c);
}

/*
 * Drop a client from wherever: its memory now, the client itself in its own
 * event (the shutdown makes its socket hang up) or at the end of this one.
 */
static void client_drop(struct ibrd_client *c)
{
	if (c->doomed)
		return;
	c->doomed = true;
	shutdown(c->fd, SHUT_RDWR);
	if (c == c->d->ctl->cur)
		return; /* its command may still be writing: closed at the end of the event */
	ibrd_client_parts_free(c);
	ibrd_out_free(&c->out);
}

/* Drop the clients that have not read for CTL_STALL_S, to make room. */
static void client_evict(struct ibrd *d)
{
	uint64_t now = ibr_now_ns(), stall = (uint64_t)CTL_STALL_S * 1000000000u;
	unsigned long long held;
	unsigned n = 0;

	for (struct ibrd_client *c = d->ctl->clients; c; c = c->next)
		if (!ibrd_client_is_session(c) && !c->doomed && c != d->ctl->cur && c->blocked_ns &&
		    now - c->blocked_ns >= stall) {
			client_drop(c);
			n++;
		}
	if (n && ibrd_ctl_log_ok(&d->ctl->rl_drop, &held))
		log_info("control: dropped %u clients that read nothing for %d s (%llu more such "
			 "messages not logged)",
			 n, CTL_STALL_S, held);
}

/*
 * `force`: a client's first part, or a plugin's, which the bound never
 * refuses.  `own`: what the asking client holds already; nor does it refuse
 * one that is alone in holding anything, so that any one answer can go out.
 */
static int ctl_hold(struct ibrd *d, size_t bytes, bool force, size_t own)
{
	struct ibrd_ctl *x = d->ctl;

	if (!force && x->held + bytes > CTL_HELD_MAX) {
		client_evict(d);
		if (x->held + bytes > CTL_HELD_MAX && x->held > own)
			return -ENOBUFS;
	}
	x->held += bytes;
	return 0;
}

int ibrd_ctl_hold(struct ibrd *d, size_t bytes)
{
	return ctl_hold(d, bytes, false, 0);
}

void ibrd_ctl_release(struct ibrd *d, size_t bytes)
{
	d->ctl->held -= bytes < d->ctl->held ? bytes : d->ctl->held;
}

/* The output sink of a command: queue one part for the client. */
int ibrd_client_queue(void *ctx, const char *buf, size_t len)
{
	struct ibrd_client *c = ctx;
	struct ibrd_client_part *p;
	int rc;

	if (c->doomed || c->queued + len > CTL_QUEUE_MAX)
		return -ENOBUFS;
	if ((rc = ctl_hold(c->d, len, !c->queued || ibrd_client_is_session(c), c->queued)))
		return rc;
	if (!(p = malloc(sizeof(*p) + len))) {
		ibrd_ctl_release(c->d, len);
		return -ENOMEM;
	}
	p->next = NULL;
	p->len = len;
	memcpy(p->buf, buf, len);
	if (c->tail)
		c->tail->next = p;
	else
		c->head = p;
	c->tail = p;
	c->queued += len;
	return 0;
}

/* Send what the socket takes now.  -1: drop. */
static int client_flush(struct ibrd_client *c)
{
	while (c->head) {
		struct ibrd_client_part *p = c->head;
		ssize_t n = send(c->fd, p->buf, p->len, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!c->blocked_ns)
				c->blocked_ns = ibr_now_ns();
			return 0;
		}
		if (n < 0)
			return -1;
		c->blocked_ns = 0;
		c->head = p->next;
		if (!c->head)
			c->tail = NULL;
		c->queued -= p->len;
		ibrd_ctl_release(c->d, p->len);
		free(p);
	}
	return 0;
}

/*
 * Send what the socket takes, make a stream's next parts while it takes
 * them (CTL_PARTS_BURST at a time, so that other clients have their turn),
 * then wait for room (EPOLLOUT) or for the next request.  -1: drop.
 */
int ibrd_client_output(struct ibrd_client *c)
{
	uint32_t want;

	for (int i = 0;; i++) {
		int rc;

		if (client_flush(c) < 0)
			return -1;
		if (c->head || !c->out.next || i == CTL_PARTS_BURST)
			break;
		if ((rc = ibrd_out_pump(&c->out)) < 0)
			return -1; /* mid-answer: nothing sensible can follow */
		if (rc == 0)
			ibrd_out_free(&c->out);
	}
	want = c->head || c->out.next ? EPOLLOUT : c->held ? 0 : EPOLLIN;
	if (want != c->events) {
		struct epoll_event ev = { .events = want, .data.ptr = c };

		if (epoll_ctl(c->d->epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0)
			return -1;
		c->events = want;
	}
	return 0;
}

int ibrd_client_send(struct ibrd_client *c, const void *buf, size_t len)
{
	int rc;

	if (c->doomed)
		return -EPIPE;
	if ((rc = ibrd_client_queue(c, buf, len)) || ibrd_client_output(c) < 0) {
		client_drop(c); /* cannot keep up, or gone */
		return rc ? rc : -EPIPE;
	}
	return 0;
}

void ibrd_client_hold(struct ibrd_client *c)
{
	c->held = true; /* ibrd_client_output stops reading it */
}

void ibrd_client_resume(struct ibrd_client *c)
{
	c->held = false;
	ibrd_client_defer(c); /* the late answer too comes once the tables are published */
}

void ibrd_client_defer(struct ibrd_client *c)
{
	if (c->deferred || c->doomed)
		return;
	c->deferred = true;
	c->deferred_next = c->d->ctl->deferred;
	c->d->ctl->deferred = c;
}

void ibrd_client_flush_all(struct ibrd *d)
{
	while (d->ctl && d->ctl->deferred) {
		struct ibrd_client *c = d->ctl->deferred;

		d->ctl->deferred = c->deferred_next;
		c->deferred = false;
		/* outside any client's event: a client that cannot take it hangs up and is
		 * closed in its own event */
		if (!c->doomed && ibrd_client_output(c) < 0)
			client_drop(c);
	}
}

void ibrd_client_drop(struct ibrd_client *c)
{
	client_drop(c);
}

const struct ucred *ibrd_client_cred(const struct ibrd_client *c)
{
	return &c->cred;
}

int ibrd_client_take_fd(struct ibrd_client *c)
{
	int fd = c->fd_in;

	c->fd_in = -1;
	return fd;
}

void ibrd_client_set_ops(struct ibrd_client *c, const struct ibrd_client_ops *ops, void *arg)
{
	c->ops = ops;
	c->ops_arg = arg;
}
