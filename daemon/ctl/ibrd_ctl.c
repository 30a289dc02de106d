/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_ctl.c - the control socket (doc/ARCHITECTURE.md, "The daemon"):
 * AF_UNIX SOCK_SEQPACKET, one request per datagram, reply parts queued per client and sent without
 * blocking.  Whoever can connect cannot stall it (ibrouterd(8), CONTROL
 * SOCKET):
 *  - clients are admitted up to a limit that fits RLIMIT_NOFILE, the last
 *    slots kept for privileged peers; the others get EBUSY and are closed;
 *  - when accept() fails all the same (EMFILE), a spare descriptor is given
 *    up to accept and refuse the waiting client, the listener rests
 *    CTL_PAUSE_MS, and the log says so at most once a second;
 *  - a client's next request is read once its reply is out, and long
 *    tables are streams (ibrd_out_stream) made part by part as the socket
 *    drains: a client that does not read holds one part here (plus its
 *    socket's buffer), and one that closes costs nothing more;
 *  - beyond each client's first part, all clients together hold at most
 *    CTL_HELD_MAX (whole replies, snapshots), unless one alone holds it all;
 *    when that is short, clients that have not read for CTL_STALL_S are
 *    dropped, else the reply is ENOBUFS.
 * State-changing commands need root, the daemon's own uid, or membership of
 * the socket's group, primary or supplementary, as the kernel tells at
 * accept (SO_PEERCRED, SO_PEERGROUPS): the credentials of connect() time.
 * A request runs the command runner the core gave ibrd_ctl_open(); a client
 * taken over by a session (an OpenSM plugin after "plugin hello") has its
 * datagrams read by that session's ops instead.  The client object, its
 * output and its life are ibrd_client.c's.
 */
#include "daemon/ctl/ibrd_client.h"
#include "daemon/ibrd.h"
#include "daemon/ctl/ibrd_out.h"

#include "lib/ibr_ctl.h"
#include "lib/ibr_fdpass.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#define CTL_CLIENTS_MAX	 4096
#define CTL_FD_RESERVE	 128 /* descriptors left for ports, MAD channels, devices, files */
#define CTL_PRIV_SLOTS	 16  /* the last client slots: privileged peers only */
#define CTL_ACCEPT_BURST 32  /* connections taken per listener event */
#define CTL_PAUSE_MS	 100 /* the listener's rest when out of descriptors */

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
	rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ? errno : 0;
	close(fd);
	/*
	 * Only a socket nobody listens on is left over; a live daemon answers,
	 * and a socket of another kind (EPROTOTYPE) is another program's.
	 */
	if (rc == 0)
		return -EADDRINUSE;
	if (rc != ECONNREFUSED)
		return -EEXIST;
	return unlink(path) < 0 ? -errno : 0;
}

/* Clients that fit the descriptor limit, CTL_FD_RESERVE left for the rest. */
static unsigned ctl_max_clients(void)
{
	struct rlimit rl;
	rlim_t n = CTL_CLIENTS_MAX;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		rlim_t room = rl.rlim_cur > 2 * CTL_FD_RESERVE ? rl.rlim_cur - CTL_FD_RESERVE
							       : rl.rlim_cur / 2;

		if (room < n)
			n = room;
	}
	return n ? (unsigned)n : 1;
}

/* The slots only privileged peers may take: CTL_PRIV_SLOTS, or a quarter of a small limit. */
static unsigned ctl_priv_slots(const struct ibrd_ctl *x)
{
	return x->max_clients / 4 < CTL_PRIV_SLOTS ? x->max_clients / 4 : CTL_PRIV_SLOTS;
}

/* The ctl's own descriptors: the listener's pause timer and the spare for EMFILE. */
static int ctl_state_open(struct ibrd *d, ibrd_ctl_run_fn *run)
{
	struct ibrd_ctl *x = calloc(1, sizeof(*x));
	struct epoll_event ev = { .events = EPOLLIN };

	if (!x)
		return -ENOMEM;
	d->ctl = x;
	x->listen.fd = -1;
	x->run = run;
	x->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	x->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	x->ev_timer.kind = IBRD_EV_LISTEN;
	x->max_clients = ctl_max_clients();
	x->rl_accept = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(1, 3);
	x->rl_refuse = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(1, 3);
	x->rl_drop = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(1, 3);
	ev.data.ptr = &x->ev_timer;
	if (x->spare < 0 || x->timerfd < 0 ||
	    epoll_ctl(d->epfd, EPOLL_CTL_ADD, x->timerfd, &ev) < 0)
		return -errno;
	log_debug("control: up to %u clients, %u of them privileged only", x->max_clients,
		  ctl_priv_slots(x));
	return 0;
}

/* The control group's GID: the config's group, or the daemon's own ("": the default). */
static gid_t ctl_group_gid(const char *group)
{
	const struct group *g = group[0] ? getgrnam(group) : NULL;

	return g ? g->gr_gid : getegid();
}

/*
 * Listen at `path` with the file's mode and group (the group's members may
 * change state).  Not yet on the epoll loop.
 */
int ibrd_ctl_listener_open(struct ibrd_ctl_listener *l, const char *path, unsigned mode,
			   const char *group)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int rc;

	l->fd = -1;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	if ((rc = ctl_mkdir_parent(path)) || (rc = ctl_claim(path)))
		return rc;
	strcpy(sa.sun_path, path);
	l->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (l->fd < 0)
		return -errno;
	if (bind(l->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		close(l->fd);
		l->fd = -1;
		return rc;
	}
	strcpy(l->path, path);
	if (listen(l->fd, 128) < 0 || lstat(path, &st) < 0) {
		rc = -errno;
		ibrd_ctl_listener_close(l);
		return rc;
	}
	/* the file this socket made: only that is removed at the end */
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	l->gid = ctl_group_gid(group);
	/*
	 * A socket left with another group than the one whose members may change
	 * state would refuse them, or let others in: refused.  A daemon not run
	 * by root may give it only to a group of its own (chown(2)).
	 */
	if (chown(path, (uid_t)-1, l->gid) < 0 || chmod(path, mode) < 0) {
		rc = -errno;
		log_warn("control: %s: cannot give it group %s and mode %04o%s", path,
			 group[0] ? group : "(the daemon's)", mode,
			 geteuid() ? " (the daemon's user must be in that group)" : "");
		ibrd_ctl_listener_close(l);
		return rc;
	}
	return 0;
}

/* Close it and remove its socket file, if that file is still the one it bound. */
void ibrd_ctl_listener_close(struct ibrd_ctl_listener *l)
{
	struct stat st;

	if (l->fd < 0)
		return;
	close(l->fd);
	l->fd = -1;
	if (lstat(l->path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == l->dev &&
	    st.st_ino == l->ino)
		unlink(l->path);
}

int ibrd_ctl_open(struct ibrd *d, ibrd_ctl_run_fn *run)
{
	const char *path = d->sock_path ? d->sock_path : d->conf->ctl_socket;
	struct epoll_event ev = { .events = EPOLLIN };
	int rc;

	if ((rc = ctl_state_open(d, run)) ||
	    (rc = ibrd_ctl_listener_open(&d->ctl->listen, path, d->conf->ctl_mode,
					 d->conf->ctl_group)))
		return rc;
	d->ctl->ev_listen.kind = IBRD_EV_LISTEN;
	ev.data.ptr = &d->ctl->ev_listen;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->ctl->listen.fd, &ev) < 0)
		return -errno;
	return 0;
}

/*
 * A reload moved the socket: new clients connect at the new path from now
 * on; those connected stay.
 */
void ibrd_ctl_listener_swap(struct ibrd *d, struct ibrd_ctl_listener *l)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &d->ctl->ev_listen };

	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, l->fd, &ev) < 0) {
		log_warn("control: %s: cannot listen there; staying at %s", l->path,
			 d->ctl->listen.path);
		ibrd_ctl_listener_close(l);
		return;
	}
	epoll_ctl(d->epfd, EPOLL_CTL_DEL, d->ctl->listen.fd, NULL);
	ibrd_ctl_listener_close(&d->ctl->listen);
	log_info("control: now at %s", l->path);
	d->ctl->listen = *l;
	l->fd = -1;
}

/* A reload's mode and group for the socket where it is (new clients are judged by them). */
void ibrd_ctl_listener_chmod(struct ibrd *d, unsigned mode, const char *group)
{
	gid_t gid = ctl_group_gid(group);

	/* the group that may change state is the socket's: on failure both stay as they were */
	if (chown(d->ctl->listen.path, (uid_t)-1, gid) < 0 ||
	    chmod(d->ctl->listen.path, mode) < 0) {
		log_warn("control: %s: cannot give it group %s and mode %04o: they stay",
			 d->ctl->listen.path, group[0] ? group : "(the daemon's)", mode);
		return;
	}
	d->ctl->listen.gid = gid;
}

const char *ibrd_ctl_listener_path(const struct ibrd *d)
{
	return d->ctl ? d->ctl->listen.path : "";
}

struct ibrd_client *ibrd_ctl_current(const struct ibrd *d)
{
	return d->ctl ? d->ctl->req : NULL;
}

void ibrd_ctl_close(struct ibrd *d)
{
	if (!d->ctl)
		return;
	while (d->ctl->clients)
		ibrd_client_close(d->ctl->clients);
	ibrd_ctl_listener_close(&d->ctl->listen);
	if (d->ctl->timerfd >= 0)
		close(d->ctl->timerfd);
	if (d->ctl->spare >= 0)
		close(d->ctl->spare);
	free(d->ctl);
	d->ctl = NULL;
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

/* Root, our own uid, or a member of the socket's group (primary or supplementary). */
static bool ctl_privileged(struct ibrd *d, int fd, const struct ucred *cr)
{
	if (cr->uid == 0 || cr->uid == geteuid() || cr->gid == d->ctl->listen.gid)
		return true;
	return ctl_peer_in_group(fd, d->ctl->listen.gid);
}

static int ctl_send_now(void *ctx, const char *buf, size_t len)
{
	return send(*(int *)ctx, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 ? -errno : 0;
}

/* Tell a client it is not served ({"ok":false,...}), then close it. */
static void ctl_refuse(int fd, int err, const char *msg)
{
	struct ibrd_out o;
	char req[64];

	/*
	 * Read the request it sent first: a socket closed on data it has not
	 * read resets the connection, and the client's read gets ECONNRESET
	 * rather than the answer.
	 */
	for (int i = 0; i < 4 && recv(fd, req, sizeof(req), MSG_DONTWAIT | MSG_TRUNC) > 0; i++)
		;
	ibrd_out_init(&o, IBRD_FMT_JSON, ctl_send_now, &fd);
	ibrd_out_error(&o, err, "%s", msg);
	ibrd_out_free(&o);
	close(fd);
}

static void ctl_admit(struct ibrd *d, int fd)
{
	struct ibrd_ctl *x = d->ctl;
	struct ucred cr;
	socklen_t crlen = sizeof(cr);
	unsigned long long held;
	bool priv;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) < 0) {
		close(fd);
		return;
	}
	priv = ctl_privileged(d, fd, &cr);
	if (d->ctl->nclients >= x->max_clients ||
	    (!priv && d->ctl->nclients + ctl_priv_slots(x) >= x->max_clients)) {
		if (ibrd_ctl_log_ok(&x->rl_refuse, &held))
			log_warnx("control: refusing a client of uid %u: %u clients, the limit is "
				  "%u (%llu more refusals not logged)",
				  (unsigned)cr.uid, d->ctl->nclients, x->max_clients, held);
		ctl_refuse(fd, EBUSY, "too many clients; try again later");
		return;
	}
	if (!ibrd_client_new(d, fd, &cr, priv))
		ctl_refuse(fd, ENOMEM, "out of memory");
}

/* The listener rests CTL_PAUSE_MS: no event spins on a backlog that cannot be taken. */
static void ctl_pause(struct ibrd *d)
{
	struct itimerspec t = { .it_value = { .tv_nsec = CTL_PAUSE_MS * 1000000L } };
	struct epoll_event ev = { .events = 0, .data.ptr = &d->ctl->ev_listen };

	if (d->ctl->paused)
		return;
	if (timerfd_settime(d->ctl->timerfd, 0, &t, NULL) < 0 ||
	    epoll_ctl(d->epfd, EPOLL_CTL_MOD, d->ctl->listen.fd, &ev) < 0)
		return; /* then no rest: the spare descriptor still keeps the backlog moving */
	d->ctl->paused = true;
}

static void ctl_resume(struct ibrd *d)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &d->ctl->ev_listen };
	uint64_t n;

	if (read(d->ctl->timerfd, &n, sizeof(n)) < 0 && errno == EAGAIN)
		return;
	if (d->ctl->paused && epoll_ctl(d->epfd, EPOLL_CTL_MOD, d->ctl->listen.fd, &ev) == 0)
		d->ctl->paused = false;
}

/* accept() failed with `err` (out of descriptors, or memory): refuse one client, rest. */
static void ctl_accept_failed(struct ibrd *d, int err)
{
	struct ibrd_ctl *x = d->ctl;
	unsigned long long held;
	int fd;

	if ((err == EMFILE || err == ENFILE) && x->spare >= 0) {
		close(x->spare);
		fd = accept4(d->ctl->listen.fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			ctl_refuse(fd, EBUSY,
				   "the daemon is out of file descriptors; try again later");
		x->spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	if (ibrd_ctl_log_ok(&x->rl_accept, &held))
		log_warnx("control: accept: %s: the listener rests %d ms (%llu more not logged)",
			  strerror(err), CTL_PAUSE_MS, held);
	ctl_pause(d);
}

static void ctl_accept(struct ibrd *d)
{
	for (int i = 0; i < CTL_ACCEPT_BURST; i++) {
		int fd = accept4(d->ctl->listen.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0) {
			ctl_admit(d, fd);
		} else {
			if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)
				ctl_accept_failed(d, errno);
			return;
		}
	}
}

/*
 * One request datagram into req (size bytes): its length, longer than
 * size when it was cut (MSG_TRUNC); 0 when the client has gone; -errno.
 * A descriptor that comes with it is c->fd_in; *refused: more than one
 * came (all closed).
 */
static ssize_t ctl_recv(struct ibrd_client *c, char *req, size_t size, bool *refused)
{
	return ibr_fdpass_recv(c->fd, req, size, MSG_TRUNC | MSG_DONTWAIT, &c->fd_in, refused);
}

/* Close a descriptor that came with the request and that no command took. */
static void ctl_fd_in_close(struct ibrd_client *c)
{
	if (c->fd_in >= 0)
		close(c->fd_in);
	c->fd_in = -1;
}

static void ctl_request(struct ibrd_client *c)
{
	char req[IBR_CTL_REQ_MAX + 1];
	struct ibrd_out *o = &c->out;
	bool refused = false;
	ssize_t n;

	if (ibrd_client_is_session(c)) {
		/* its own datagrams (an OpenSM plugin's): recv(2) there takes no
		 * control data, and the kernel closes descriptors sent */
		if (c->ops->input(c->ops_arg, c->fd) < 0)
			ibrd_client_close(c);
		return;
	}
	n = ctl_recv(c, req, sizeof(req), &refused);
	if (n == -EAGAIN || n == -EINTR)
		return;
	if (n <= 0) {
		ctl_fd_in_close(c); /* an empty datagram may carry one */
		ibrd_client_close(c);
		return;
	}
	ibrd_out_init(o, IBRD_FMT_JSON, ibrd_client_queue, c);
	o->defer = true; /* streams are pumped by ibrd_client_output as the socket drains */
	if ((size_t)n > IBR_CTL_REQ_MAX) {
		ibrd_out_error(o, EMSGSIZE, "request longer than %d bytes", IBR_CTL_REQ_MAX);
	} else if (refused) {
		ibrd_out_error(o, EINVAL, "at most one descriptor may come with a request");
	} else {
		req[n] = '\0';
		c->d->ctl->req = c;
		c->d->ctl->run(c->d, o, req, c->privileged);
		c->d->ctl->req = NULL;
	}
	ctl_fd_in_close(c);
	if (o->err == -ENOBUFS && !o->next && !ibrd_client_is_session(c) && !c->doomed) {
		/* a whole reply the bound refused: nothing of it is sent, an error instead */
		ibrd_client_parts_free(c);
		ibrd_out_free(o);
		ibrd_out_init(o, IBRD_FMT_JSON, ibrd_client_queue, c);
		ibrd_out_error(o, ENOBUFS,
			       "the daemon holds too many answers that clients do not read; try "
			       "again later");
	}
	if (!o->next)
		ibrd_out_free(o);
	ibrd_client_defer(c); /* out at the turn's end, once the tables are published */
}

static void ctl_client_event(struct ibrd_client *c, uint32_t events)
{
	if (c->doomed || (events & (EPOLLERR | EPOLLHUP))) {
		ibrd_client_close(c);
		return;
	}
	if (events & EPOLLOUT) {
		if (ibrd_client_output(c) < 0)
			ibrd_client_close(c);
		return;
	}
	if (events & EPOLLIN)
		ctl_request(c);
}

void ibrd_ctl_event(struct ibrd *d, struct ibrd_ev *ev, uint32_t events)
{
	struct ibrd_ctl *x = d->ctl;

	if (ev == &x->ev_timer) {
		ctl_resume(d);
	} else if (ev->kind == IBRD_EV_LISTEN) {
		ctl_accept(d);
	} else {
		x->cur = (struct ibrd_client *)ev;
		ctl_client_event(x->cur, events);
	}
	if (x->cur && x->cur->doomed)
		ibrd_client_close(x->cur);
	x->cur = NULL;
}
