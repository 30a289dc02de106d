/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ctl_stress SOCKET N - N clients connect to ibrouterd's control socket at
 * once, each sends "show routes", and every one must get a complete answer
 * (parts until one without "more"), while one more client that asked for the
 * same and never reads stays connected the whole time.  Exit 0 when all N
 * were answered.
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
#include <unistd.h>

static int dial(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("ctl_stress: connect");
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	static char buf[IBR_CTL_PART_MAX + 1];
	const char *req = argc > 3 ? argv[3] : "show routes";
	struct rlimit rl = { 8192, 8192 };
	int n = argc > 2 ? atoi(argv[2]) : 1000, done = 0, lazy, *fd;
	struct pollfd *pfd;

	if (argc < 3 || n <= 0) {
		fprintf(stderr, "usage: ctl_stress SOCKET N [REQUEST]\n");
		return 2;
	}
	setrlimit(RLIMIT_NOFILE, &rl);
	fd = calloc((size_t)n, sizeof(*fd));
	pfd = calloc((size_t)n, sizeof(*pfd));
	lazy = dial(argv[1]); /* asks, never reads */
	send(lazy, req, strlen(req), 0);
	for (int i = 0; i < n; i++)
		fd[i] = dial(argv[1]);
	for (int i = 0; i < n; i++)
		if (send(fd[i], req, strlen(req), 0) < 0)
			return perror("ctl_stress: send"), 1;
	for (int i = 0; i < n; i++)
		pfd[i] = (struct pollfd){ .fd = fd[i], .events = POLLIN };
	while (done < n) {
		int r = poll(pfd, (nfds_t)n, 10000);

		if (r <= 0) {
			fprintf(stderr, "ctl_stress: %d of %d answered, then nothing for 10 s\n",
				done, n);
			return 1;
		}
		for (int i = 0; i < n; i++) {
			struct ibr_ctl_reply rep;
			ssize_t len;

			if (pfd[i].fd < 0 || !(pfd[i].revents & POLLIN))
				continue;
			len = recv(fd[i], buf, sizeof(buf) - 1, 0);
			if (len <= 0 || ibr_ctl_reply_parse(buf, (size_t)len, &rep) || !rep.ok) {
				fprintf(stderr, "ctl_stress: client %d: bad or no answer\n", i);
				return 1;
			}
			if (!rep.more) {
				close(fd[i]);
				pfd[i].fd = -1;
				done++;
			}
			ibr_ctl_reply_free(&rep);
		}
	}
	printf("ctl_stress: %d of %d clients answered\n", done, n);
	close(lazy);
	free(fd);
	free(pfd);
	return 0;
}
