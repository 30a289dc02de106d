/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ctl_flood - clients that try to stall ibrouterd's control socket, and a
 * probe that times one answer (tests/sim/sim_ctl_flood.sh):
 *
 *   ctl_flood hold SOCKET N MS [REQUEST]
 *	N clients connect (each retried for up to 5 s while the backlog is
 *	full) and send REQUEST, if any, and never read.  Each waits (up to
 *	5 s) until its answer has begun before the next asks, so that the
 *	daemon meets the requests one at a time whatever the machine's load:
 *	many in one turn would be held whole before any reaches its socket,
 *	and how many the bound admits would depend on the scheduler.  "ready
 *	connected=C answered=A refused=R" is printed (R: answers that are an
 *	ENOBUFS error, peeked at), then they are held MS milliseconds and
 *	closed.
 *   ctl_flood close SOCKET N REQUEST
 *	N clients, one after the other, send REQUEST, read the first part of
 *	the answer and close.  Exit 0 when each got a first part.
 *   ctl_flood probe SOCKET MS REQUEST
 *	One client sends REQUEST and reads the whole answer; prints "ms=T
 *	ok=0|1 error=E" (E the error of an {"ok":false} answer) and then
 *	"msg=M", its message as it came.  Exit 0 when an answer came within MS
 *	milliseconds.
 */
#include "lib/ibr_ctl.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static char buf[IBR_CTL_PART_MAX + 1];

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A connected client, or -1 once `deadline` (ms) has passed with the backlog full. */
static int dial(const char *path, long long deadline)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK, 0);
		if (fd < 0) {
			perror("ctl_flood: socket");
			exit(2);
		}
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		close(fd);
		if (errno != EAGAIN || now_ms() >= deadline)
			return -1;
		usleep(2000);
	}
}

/* The next datagram within `ms`: its length, or -1. */
static ssize_t recv_within(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) <= 0)
		return -1;
	return recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
}

static int flood_hold(const char *path, int n, int ms, const char *req)
{
	long long deadline = now_ms() + 5000;
	int *fd = calloc((size_t)n, sizeof(*fd)), connected = 0, answered = 0, refused = 0;

	for (int i = 0; i < n && fd; i++) {
		struct pollfd p;
		ssize_t got;

		if ((fd[i] = dial(path, deadline)) < 0)
			continue;
		connected++;
		if (!req || send(fd[i], req, strlen(req), MSG_NOSIGNAL) < 0)
			continue;
		p = (struct pollfd){ .fd = fd[i], .events = POLLIN };
		if (poll(&p, 1, 5000) <= 0)
			continue;
		answered++;
		/* its answer's first part, left unread: a refusal is one part */
		got = recv(fd[i], buf, sizeof(buf) - 1, MSG_PEEK | MSG_DONTWAIT);
		buf[got > 0 ? got : 0] = '\0';
		if (strstr(buf, "\"ok\":false") && strstr(buf, "ENOBUFS"))
			refused++;
	}
	printf("ready connected=%d answered=%d refused=%d\n", connected, answered, refused);
	fflush(stdout);
	usleep((useconds_t)ms * 1000);
	for (int i = 0; i < n && fd; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	free(fd);
	return 0;
}

static int flood_close(const char *path, int n, const char *req)
{
	int got = 0;

	for (int i = 0; i < n; i++) {
		int fd = dial(path, now_ms() + 5000);

		if (fd < 0)
			continue;
		if (send(fd, req, strlen(req), MSG_NOSIGNAL) > 0 && recv_within(fd, 5000) > 0)
			got++;
		close(fd);
	}
	printf("first_parts=%d of %d\n", got, n);
	return got == n ? 0 : 1;
}

static int probe(const char *path, int ms, const char *req)
{
	long long t0 = now_ms(), left;
	int fd = dial(path, t0 + ms);
	struct ibr_ctl_reply r;
	ssize_t len;

	if (fd < 0) {
		printf("ms=%lld ok=0 error=connect\n", now_ms() - t0);
		return 1;
	}
	/* a daemon that refuses has sent why and closed: EPIPE, and the answer to read */
	if (send(fd, req, strlen(req), MSG_NOSIGNAL) < 0 && errno != EPIPE) {
		printf("ms=%lld ok=0 error=send\n", now_ms() - t0);
		return 1;
	}
	for (;;) {
		left = t0 + ms - now_ms();
		if (left <= 0 || (len = recv_within(fd, (int)left)) <= 0 ||
		    ibr_ctl_reply_parse(buf, (size_t)len, &r)) {
			printf("ms=%lld ok=0 error=none\n", now_ms() - t0);
			return 1;
		}
		if (!r.ok || !r.more)
			break;
		ibr_ctl_reply_free(&r);
	}
	printf("ms=%lld ok=%d error=%s\n", now_ms() - t0, r.ok, r.ok ? "-" : r.error);
	if (!r.ok && r.msg)
		printf("msg=%s\n", r.msg); /* as it came: the test looks for raw bytes */
	ibr_ctl_reply_free(&r);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct rlimit rl;

	/* the clients need more descriptors than the daemon has */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (argc >= 5 && !strcmp(argv[1], "hold"))
		return flood_hold(argv[2], atoi(argv[3]), atoi(argv[4]), argc > 5 ? argv[5] : NULL);
	if (argc == 5 && !strcmp(argv[1], "close"))
		return flood_close(argv[2], atoi(argv[3]), argv[4]);
	if (argc == 5 && !strcmp(argv[1], "probe"))
		return probe(argv[2], atoi(argv[3]), argv[4]);
	fprintf(stderr, "usage: ctl_flood hold SOCKET N MS [REQUEST] | close SOCKET N REQUEST | "
			"probe SOCKET MS REQUEST\n");
	return 2;
}
