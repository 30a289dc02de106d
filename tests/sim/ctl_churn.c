/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ctl_churn SOCKET N PORT - route churn through ibrouterd's control socket,
 * as an operator's script would make it, on one connection: "route add
 * fec1:0:0:X::/64 port PORT lid L" for X = 0 .. N-1, then "route del" of
 * every even X, each sent once the one before was answered ("done" comes
 * once the change is published).  Exit 0 when every one was answered ok;
 * prints how many changes a second it took.
 */
#include "lib/ibr_ctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Send `req`, read its answer to the end: 0 when ok. */
static int ask(int fd, const char *req)
{
	static char buf[IBR_CTL_PART_MAX + 1];

	if (send(fd, req, strlen(req), 0) < 0)
		return -1;
	for (;;) {
		struct ibr_ctl_reply rep;
		ssize_t len = recv(fd, buf, sizeof(buf) - 1, 0);
		int ok, more;

		if (len <= 0 || ibr_ctl_reply_parse(buf, (size_t)len, &rep))
			return -1;
		ok = rep.ok;
		more = rep.more;
		ibr_ctl_reply_free(&rep);
		if (!ok)
			return -1;
		if (!more)
			return 0;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int n = argc > 2 ? atoi(argv[2]) : 0, fd, changes = 0;
	char req[128];
	double t0;

	if (argc < 4 || n <= 0) {
		fprintf(stderr, "usage: ctl_churn SOCKET N PORT\n");
		return 2;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", argv[1]);
	fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("ctl_churn: connect");
		return 1;
	}
	t0 = now_s();
	for (int i = 0; i < 2 * n; i++) {
		int x = i < n ? i : 2 * (i - n);

		if (x >= n)
			break;
		if (i < n)
			snprintf(req, sizeof(req), "route add fec1:0:0:%x::/64 port %s lid %d", x,
				 argv[3], 0x100 + x % 0x100);
		else
			snprintf(req, sizeof(req), "route del fec1:0:0:%x::/64", x);
		if (ask(fd, req)) {
			fprintf(stderr, "ctl_churn: \"%s\": no ok answer\n", req);
			return 1;
		}
		changes++;
	}
	printf("ctl_churn: %d changes in %.2f s, %.0f a second\n", changes, now_s() - t0,
	       changes / (now_s() - t0));
	close(fd);
	return 0;
}
