/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host_wire.c - ibrouter-host's end of a sim wire: the datagram socket it
 * binds and sends to the peer from, the capture of what crosses it (-w),
 * the stop on SIGINT or SIGTERM that ends every wait on the socket, and
 * the clock send paces by (host.h).
 */
#include "tools/host.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t host_stop;
static volatile sig_atomic_t host_fd = -1; /* the socket, for host_signal() */

/*
 * SIGINT, SIGTERM: stop, in whatever wait.  Besides the flag, the socket is
 * shut down (shutdown() is async-signal-safe), which ends every wait on it
 * for good: a send to a full peer fails with EPIPE and poll() returns POLLHUP,
 * also when the call starts just after the flag was tested (a flag alone
 * would leave that one asleep until the peer reads or the timeout).  Without
 * SA_RESTART a send blocked when the signal comes returns EINTR or its count.
 */
static void host_signal(int sig)
{
	int saved = errno;

	(void)sig;
	host_stop = 1;
	if (host_fd >= 0)
		shutdown(host_fd, SHUT_RDWR);
	errno = saved;
}

void host_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = host_signal; /* no SA_RESTART: blocking calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int addr_of(struct sockaddr_un *sa, socklen_t *len, const char *path)
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

int host_wire_open(struct host *h)
{
	struct sockaddr_un sa;
	socklen_t len;
	struct stat st;
	int sz = 4 << 20;

	if (addr_of(&sa, &len, h->sock_path))
		return fprintf(stderr, "ibrouter-host: socket path too long\n"), -1;
	if (lstat(h->sock_path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(h->sock_path);
	h->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	host_fd = h->fd;
	if (host_stop && h->fd >= 0)
		shutdown(h->fd, SHUT_RDWR); /* a signal came before host_fd was set */
	if (h->fd < 0 || bind(h->fd, (struct sockaddr *)&sa, len) < 0) {
		fprintf(stderr, "ibrouter-host: bind %s: %s\n", h->sock_path, strerror(errno));
		return -1;
	}
	setsockopt(h->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(h->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (h->peer_path && addr_of(&h->peer, &h->peerlen, h->peer_path))
		return fprintf(stderr, "ibrouter-host: peer path too long\n"), -1;
	if (h->capture) {
		int rc = ibr_pcap_open(&h->pcap, h->capture);

		if (rc)
			return fprintf(stderr, "ibrouter-host: %s: %s\n", h->capture,
				       strerror(-rc)),
			       -1;
		h->pcap_open = true;
	}
	return 0;
}

void host_capture_write(struct host *h, const uint8_t *pkt, size_t len)
{
	struct timespec ts;

	if (!h->pcap_open)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	ibr_pcap_write(&h->pcap, &ts, pkt, len, 0);
}

double host_clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void host_clock_sleep(const struct host *h, double secs)
{
	struct pollfd pfd = { .fd = h->fd, .events = 0 };
	struct timespec ts = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };

	if (!host_stop)
		ppoll(&pfd, 1, &ts, NULL);
}
