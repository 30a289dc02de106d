/*
 * ibrd_ctl.c - the control socket (DESIGN.md): AF_UNIX SOCK_SEQPACKET, one
 * request per datagram, reply parts queued per client and sent without
 * blocking.  A client that stops reading is dropped once its queue passes
 * CTL_QUEUE_MAX; it never stalls the daemon.  State-changing commands need
 * root, the daemon's own uid, or membership of the socket's group, primary
 * or supplementary, as the kernel tells at accept (SO_PEERCRED,
 * SO_PEERGROUPS).
 * A client that opens with "plugin hello" is an OpenSM plugin: from then on
 * its datagrams are binary plugin messages for ibrd_plugin.c, which also
 * sends to it through ibrd_ctl_client_send().
 */
#include "router/daemon/ibrd.h"
#include "router/daemon/ibrd_out.h"

#include "lib/ibr_ctl.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define CTL_CLIENTS_MAX 4096
#define CTL_QUEUE_MAX	(64u << 20)

struct ctl_part {
	struct ctl_part *next;
	size_t len;
	char buf[];
};

struct ibrd_client {
	struct ibrd_ev ev; /* first: epoll's data.ptr points here */
	int fd;
	bool privileged;
	bool doomed; /* close once the current event is handled */
	struct ucred cred;
	struct ibrd_plugin *plugin; /* an OpenSM plugin's session, else NULL */
	uint32_t events;
	struct ctl_part *head, *tail;
	size_t queued;
	struct ibrd_client *next;
	struct ibrd *d;
};

static int ctl_mkdir_parent(const char *path)
{
	char dir[IBRD_PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Refuse to start twice on one socket; remove a socket left by a dead daemon. */
static int ctl_claim(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
	if (rc == 0)
		return -EADDRINUSE; /* a live daemon answers there */
	return unlink(path) < 0 ? -errno : 0;
}

int ibrd_ctl_open(struct ibrd *d)
{
	const char *path = d->sock_path ? d->sock_path : d->conf->ctl_socket;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &d->ev_listen };
	struct group *g;
	int rc;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	if ((rc = ctl_mkdir_parent(path)) || (rc = ctl_claim(path)))
		return rc;
	strcpy(sa.sun_path, path);
	d->ctlfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (d->ctlfd < 0 || bind(d->ctlfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(d->ctlfd, 128) < 0)
		return -errno;
	d->ctl_gid = getegid();
	if (d->conf->ctl_group[0] && (g = getgrnam(d->conf->ctl_group)))
		d->ctl_gid = g->gr_gid;
	d->ev_listen.kind = IBRD_EV_LISTEN;
	if (chown(path, (uid_t)-1, d->ctl_gid) < 0 || chmod(path, d->conf->ctl_mode) < 0)
		log_warn("control: %s: cannot set owner or mode", path);
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->ctlfd, &ev) < 0)
		return -errno;
	return 0;
}

static void ctl_client_close(struct ibrd_client *c)
{
	struct ibrd *d = c->d;
	struct ibrd_client **pp;

	for (pp = &d->clients; *pp; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	if (c->plugin)
		ibrd_plugin_detach(d, c->plugin);
	if (d->ctl_cur == c)
		d->ctl_cur = NULL;
	while (c->head) {
		struct ctl_part *p = c->head;

		c->head = p->next;
		free(p);
	}
	close(c->fd);
	d->nclients--;
	free(c);
}

void ibrd_ctl_close(struct ibrd *d)
{
	const char *path = d->sock_path ? d->sock_path : d->conf ? d->conf->ctl_socket : NULL;

	while (d->clients)
		ctl_client_close(d->clients);
	if (d->ctlfd >= 0) {
		close(d->ctlfd);
		d->ctlfd = -1;
		if (path)
			unlink(path);
	}
}

/* Whether gid is among the peer's supplementary groups, as the kernel has them. */
static bool ctl_peer_in_group(int fd, gid_t gid)
{
#ifdef SO_PEERGROUPS
	gid_t small[64], *g = small;
	socklen_t len = sizeof(small);
	bool in = false;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len) < 0) {
		/* ERANGE: len now says how much the whole list needs (at most NGROUPS_MAX) */
		if (errno != ERANGE || !len || !(g = malloc(len)))
			return false;
		if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &len) < 0)
			len = 0;
	}
	for (size_t i = 0; i < len / sizeof(*g); i++)
		if (g[i] == gid)
			in = true;
	if (g != small)
		free(g);
	return in;
#else
	(void)fd, (void)gid;
	return false; /* no SO_PEERGROUPS: the primary group only */
#endif
}

/*
 * Root, our own uid, or a member of the socket's group (primary or
 * supplementary), as the kernel tells them for the socket: the peer's
 * credentials when it connected, never text read back from /proc.
 */
static bool ctl_privileged(struct ibrd *d, int fd, const struct ucred *cr)
{
	if (cr->uid == 0 || cr->uid == geteuid() || cr->gid == d->ctl_gid)
		return true;
	return ctl_peer_in_group(fd, d->ctl_gid);
}

static void ctl_accept(struct ibrd *d)
{
	for (;;) {
		struct epoll_event ev = { .events = EPOLLIN };
		struct ucred cr;
		socklen_t crlen = sizeof(cr);
		struct ibrd_client *c;
		int fd = accept4(d->ctlfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno != EAGAIN && errno != EINTR)
				log_warn("control: accept");
			return;
		}
		if (d->nclients >= CTL_CLIENTS_MAX ||
		    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) < 0 ||
		    !(c = calloc(1, sizeof(*c)))) {
			close(fd); /* too many clients, or no memory: this one waits for none */
			continue;
		}
		c->ev.kind = IBRD_EV_CLIENT;
		c->fd = fd;
		c->d = d;
		c->events = EPOLLIN;
		c->privileged = ctl_privileged(d, fd, &cr);
		c->cred = cr;
		ev.data.ptr = c;
		if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
			close(fd);
			free(c);
			continue;
		}
		c->next = d->clients;
		d->clients = c;
		d->nclients++;
	}
}

/* The output sink of a command: queue one part for the client. */
static int ctl_queue(void *ctx, const char *buf, size_t len)
{
	struct ibrd_client *c = ctx;
	struct ctl_part *p;

	if (c->queued + len > CTL_QUEUE_MAX)
		return -ENOBUFS;
	if (!(p = malloc(sizeof(*p) + len)))
		return -ENOMEM;
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

/* Send what the socket takes now; wait for EPOLLOUT for the rest.  -1: drop. */
static int ctl_flush(struct ibrd_client *c)
{
	uint32_t want;

	while (c->head) {
		struct ctl_part *p = c->head;
		ssize_t n = send(c->fd, p->buf, p->len, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n < 0)
			return -1;
		c->head = p->next;
		if (!c->head)
			c->tail = NULL;
		c->queued -= p->len;
		free(p);
	}
	want = c->head ? EPOLLOUT : EPOLLIN;
	if (want != c->events) {
		struct epoll_event ev = { .events = want, .data.ptr = c };

		if (epoll_ctl(c->d->epfd, EPOLL_CTL_MOD, c->fd, &ev) < 0)
			return -1;
		c->events = want;
	}
	return 0;
}

static void ctl_request(struct ibrd_client *c)
{
	char req[IBR_CTL_REQ_MAX + 1];
	struct ibrd_out o;
	ssize_t n;

	if (c->plugin) {
		if (ibrd_plugin_event(c->d, c->plugin, c->fd) < 0)
			ctl_client_close(c);
		return;
	}
	n = recv(c->fd, req, sizeof(req), MSG_TRUNC | MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		ctl_client_close(c);
		return;
	}
	ibrd_out_init(&o, IBRD_FMT_JSON, ctl_queue, c);
	if ((size_t)n > IBR_CTL_REQ_MAX) {
		ibrd_out_error(&o, EMSGSIZE, "request longer than %d bytes", IBR_CTL_REQ_MAX);
	} else {
		req[n] = '\0';
		c->d->ctl_cur = c;
		ibrd_cmd_run(c->d, &o, req, c->privileged);
		c->d->ctl_cur = NULL;
	}
	ibrd_out_free(&o);
	if (c->queued > CTL_QUEUE_MAX / 2 && c->events == EPOLLOUT) {
		log_info("control: dropping a client that does not read its replies");
		ctl_client_close(c);
		return;
	}
	if (ctl_flush(c) < 0)
		ctl_client_close(c);
}

static void ctl_client_event(struct ibrd_client *c, uint32_t events)
{
	if (events & (EPOLLERR | EPOLLHUP)) {
		ctl_client_close(c);
		return;
	}
	if (events & EPOLLOUT) {
		if (ctl_flush(c) < 0)
			ctl_client_close(c);
		return;
	}
	if (events & EPOLLIN)
		ctl_request(c);
}

void ibrd_ctl_event(struct ibrd *d, struct ibrd_ev *ev, uint32_t events)
{
	struct ibrd_client **pp;

	if (ev->kind == IBRD_EV_LISTEN)
		ctl_accept(d);
	else
		ctl_client_event((struct ibrd_client *)ev, events);
	/* a command or a plugin message may have changed what plugins must hear */
	ibrd_plugin_sync(d);
	for (pp = &d->clients; *pp;) {
		struct ibrd_client *c = *pp;

		if (c->doomed)
			ctl_client_close(c); /* unlinks c: *pp is the next one */
		else
			pp = &c->next;
	}
}

int ibrd_ctl_client_send(struct ibrd_client *c, const void *buf, size_t len)
{
	int rc;

	if (c->doomed)
		return -EPIPE;
	if ((rc = ctl_queue(c, buf, len)) || ctl_flush(c) < 0) {
		c->doomed = true; /* cannot keep up, or gone: closed after this event */
		return rc ? rc : -EPIPE;
	}
	return 0;
}

void ibrd_ctl_client_drop(struct ibrd_client *c)
{
	c->doomed = true;
}

const struct ucred *ibrd_ctl_client_cred(const struct ibrd_client *c)
{
	return &c->cred;
}

void ibrd_ctl_client_set_plugin(struct ibrd_client *c, struct ibrd_plugin *p)
{
	c->plugin = p;
}
