/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* io_sim.c - UNIX datagram sockets as IB links, for labs, tests and benchmarks. */
#include "router/io/io_sim.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static int sim_addr(struct sockaddr_un *sa, socklen_t *len, const char *path)
{
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, n);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
	return 0;
}

/*
 * Remove a socket file left by a dead process; refuse to remove anything
 * else, above all a socket that a live process is bound to (another
 * daemon's port on the same path): a datagram connect() to it succeeds,
 * to a dead one it is refused.
 */
static int sim_unlink_stale(const char *path)
{
	struct sockaddr_un sa;
	socklen_t len;
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	if ((rc = sim_addr(&sa, &len, path)))
		return rc;
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	rc = connect(fd, (struct sockaddr *)&sa, len) < 0 ? errno : 0;
	close(fd);
	if (rc == 0)
		return -EADDRINUSE;
	if (rc != ECONNREFUSED)
		return -EEXIST; /* a socket of another kind: not ours to remove */
	return unlink(path) < 0 ? -errno : 0;
}

static int sim_io_rx_burst(struct io_port *io, struct router_mbuf **out, unsigned n)
{
	return io_sim_rx_burst((struct io_sim_port *)io, out, n);
}

static unsigned sim_io_tx_burst(struct io_port *io, const struct router_tx *tx, unsigned n,
				struct io_tx_result *r)
{
	return io_sim_tx_burst((struct io_sim_port *)io, tx, n, r);
}

static int sim_io_fd(const struct io_port *io)
{
	return ((const struct io_sim_port *)io)->fd;
}

static void sim_io_close(struct io_port *io)
{
	io_sim_close((struct io_sim_port *)io);
}

_Static_assert(offsetof(struct io_sim_port, io) == 0, "io_port first");

/* The buffers are the port's own, reused by the next rx_burst: no rx_done. */
static const struct io_port_ops sim_io_ops = {
	.rx_burst = sim_io_rx_burst,
	.tx_burst = sim_io_tx_burst,
	.fd = sim_io_fd,
	.close = sim_io_close,
};

int io_sim_open(struct io_sim_port *p, const char *path, const char *peer, uint8_t port)
{
	struct sockaddr_un sa;
	socklen_t salen;
	struct stat st;
	int rc, sz = 4 << 20;

	memset(p, 0, sizeof(*p));
	p->io.ops = &sim_io_ops;
	p->fd = -1;
	if ((rc = sim_addr(&sa, &salen, path)) || (rc = sim_addr(&p->peer, &p->peerlen, peer)))
		return rc;
	if ((rc = sim_unlink_stale(path)))
		return rc;
	p->bufs = malloc((size_t)ROUTER_BURST * IO_SIM_BUFSZ);
	if (!p->bufs)
		return -ENOMEM;
	p->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (p->fd < 0 || bind(p->fd, (struct sockaddr *)&sa, salen) < 0) {
		rc = -errno;
		io_sim_close(p);
		return rc;
	}
	/* deep queues absorb bursts; failure only means the defaults stay */
	setsockopt(p->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(p->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	strcpy(p->path, path);
	if (stat(path, &st) == 0) { /* the file this socket made: only that is removed at close */
		p->dev = st.st_dev;
		p->ino = st.st_ino;
	}
	p->hol_ms = IO_SIM_HOL_MS;
	for (unsigned i = 0; i < ROUTER_BURST; i++) {
		p->mbuf[i].data = p->bufs + (size_t)i * IO_SIM_BUFSZ;
		p->mbuf[i].port = port;
	}
	return 0;
}

int io_sim_set_peer(struct io_sim_port *p, const char *peer)
{
	struct sockaddr_un sa;
	socklen_t len;
	int rc;

	if ((rc = sim_addr(&sa, &len, peer)))
		return rc;
	p->peer = sa;
	p->peerlen = len;
	return 0;
}

void io_sim_close(struct io_sim_port *p)
{
	struct stat st;

	if (p->fd >= 0)
		close(p->fd);
	/* another process may have taken the path since: leave its file alone */
	if (p->path[0] && lstat(p->path, &st) == 0 && S_ISSOCK(st.st_mode) && st.st_dev == p->dev &&
	    st.st_ino == p->ino)
		unlink(p->path);
	free(p->bufs);
	p->bufs = NULL;
	p->fd = -1;
	p->path[0] = '\0';
}

int io_sim_rx_burst(struct io_sim_port *p, struct router_mbuf **out, unsigned n)
{
	struct mmsghdr msg[ROUTER_BURST];
	struct iovec iov[ROUTER_BURST];
	int got;

	if (n > ROUTER_BURST)
		n = ROUTER_BURST;
	memset(msg, 0, sizeof(msg[0]) * n);
	for (unsigned i = 0; i < n; i++) {
		iov[i].iov_base = p->mbuf[i].data;
		iov[i].iov_len = IO_SIM_BUFSZ;
		msg[i].msg_hdr.msg_iov = &iov[i];
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	got = recvmmsg(p->fd, msg, n, MSG_DONTWAIT, NULL);
	if (got < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	for (int i = 0; i < got; i++) {
		p->mbuf[i].len = msg[i].msg_len;
		if (msg[i].msg_hdr.msg_flags & MSG_TRUNC)
			p->mbuf[i].len = IO_SIM_BUFSZ;
		out[i] = &p->mbuf[i];
	}
	return got;
}

/*
 * Wait a little for the peer to make room, until `deadline` (ns).  The socket
 * is not connected (a connected datagram socket refuses packets from anyone
 * but its peer, and the peer may restart), so POLLOUT cannot tell when the
 * peer's queue drains: back off instead (io_sim_backoff_us).
 */
static bool sim_wait_room(struct io_sim_port *p, uint64_t *deadline, unsigned *backoff_us)
{
	uint64_t now = ibr_now_ns();

	if (!*deadline)
		*deadline = now + (uint64_t)p->hol_ms * 1000000u;
	if (now >= *deadline)
		return false;
	*backoff_us = io_sim_backoff_us(*backoff_us);
	usleep(*backoff_us);
	return true;
}

unsigned io_sim_tx_burst(struct io_sim_port *p, const struct router_tx *tx, unsigned n,
			 struct io_tx_result *res)
{
	struct mmsghdr msg[ROUTER_BURST];
	struct iovec iov[ROUTER_BURST][3];
	uint8_t vcrc[ROUTER_BURST][2], *feed = NULL;
	size_t feed_len = 0, feed_off = 0;
	uint64_t deadline = 0;
	unsigned sent = 0, backoff = 0;
	/* a peer that held a packet past its lifetime: discard until it takes one again */
	bool stalled = atomic_load_explicit(&p->stalled, memory_order_relaxed);

	*res = (struct io_tx_result){ 0 };
	if (n > ROUTER_BURST)
		n = ROUTER_BURST;
	memset(msg, 0, sizeof(msg[0]) * n);
	/* a feed's copies are rebuilt whole: memory of the burst's own (any worker
	 * sends on any port), as much as they take */
	for (unsigned i = 0; i < n; i++)
		feed_len += tx[i].dgid ? tx[i].m->len : 0;
	if (feed_len && !(feed = malloc(feed_len)))
		return 0; /* not sent: the worker counts them */
	for (unsigned i = 0; i < n; i++) {
		const struct router_mbuf *m = tx[i].m;

		msg[i].msg_hdr.msg_name = &p->peer;
		msg[i].msg_hdr.msg_namelen = p->peerlen;
		msg[i].msg_hdr.msg_iov = iov[i];
		if (tx[i].dgid) {
			iov[i][0] = (struct iovec){ feed + feed_off,
						    router_tx_build(&tx[i], feed + feed_off) };
			feed_off += m->len;
			msg[i].msg_hdr.msg_iovlen = 1;
			continue;
		}
		vcrc[i][0] = (uint8_t)tx[i].vcrc; /* stored least-significant byte first */
		vcrc[i][1] = (uint8_t)(tx[i].vcrc >> 8);
		iov[i][0] = (struct iovec){ (void *)tx[i].hdr, ROUTER_HDR_LEN };
		iov[i][1] = (struct iovec){ m->data + ROUTER_HDR_LEN, m->len - ROUTER_HDR_LEN - 2 };
		iov[i][2] = (struct iovec){ vcrc[i], 2 };
		msg[i].msg_hdr.msg_iovlen = 3;
	}
	while (sent < n) {
		int r = sendmmsg(p->fd, msg + sent, n - sent, MSG_DONTWAIT);

		if (r > 0) {
			for (int i = 0; i < r; i++)
				res->bytes += tx[sent + (unsigned)i].m->len;
			sent += (unsigned)r;
			if (stalled) /* it reads again */
				atomic_store_explicit(&p->stalled, (stalled = false),
						      memory_order_relaxed);
		} else if (errno == EAGAIN) {
			if (stalled)
				break; /* discarded at once, as a port past its HOQ lifetime does */
			if (!sim_wait_room(p, &deadline, &backoff)) {
				/* held past the head-of-queue lifetime: dropped, and the
				 * port discards from now on without waiting, so that one
				 * stuck peer does not hold the worker's other ports */
				atomic_store_explicit(&p->stalled, true, memory_order_relaxed);
				break;
			}
		} else if (errno == ENOENT || errno == ECONNREFUSED) {
			res->absent = n - sent; /* nothing bound at the peer path */
			break;
		} else if (errno != EINTR) {
			break; /* the link is down */
		}
	}
	free(feed);
	res->sent = sent;
	return sent;
}

int io_sim_send(struct io_sim_port *p, const void *pkt, size_t len)
{
	ssize_t r = sendto(p->fd, pkt, len, MSG_DONTWAIT, (struct sockaddr *)&p->peer, p->peerlen);

	if (r < 0)
		return -errno;
	return (size_t)r == len ? 0 : -EMSGSIZE;
}
