/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ctl_fdsend SOCKET STEP... - talk to ibrouterd's control socket as a
 * hand-written (or hostile) client may: descriptors (SCM_RIGHTS) attached to
 * any request, several at once, binary datagrams.  The steps run in order on
 * one connection:
 *   -f FD     attach this process's descriptor FD to the next datagram
 *             (repeat it to attach several)
 *   -x HEX    send a binary datagram; read nothing
 *   -e        wait (5 s at most) until the daemon closes the connection
 *   REQUEST   send a text request and print its reply parts, one a line
 * Exit 0; 1 on a socket error or a timeout; 2 on usage errors.  A request
 * the daemon refuses is printed, not an error.
 */
#include "lib/ibr_ctl.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define FDS_MAX 8

static int dial(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("ctl_fdsend: connect");
		exit(1);
	}
	return fd;
}

static void put(int sock, const void *buf, size_t len, const int *fds, int nfds)
{
	char cbuf[CMSG_SPACE(sizeof(int) * FDS_MAX)];
	struct iovec iov = { (void *)buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds) {
		struct cmsghdr *cm;

		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != (ssize_t)len) {
		perror("ctl_fdsend: send");
		exit(1);
	}
}

/* 0: got a datagram of n bytes; 1: the daemon closed; exits on a timeout. */
static int get(int sock, char *buf, size_t cap, ssize_t *n)
{
	struct pollfd p = { .fd = sock, .events = POLLIN };

	if (poll(&p, 1, 5000) <= 0) {
		fprintf(stderr, "ctl_fdsend: no answer within 5 s\n");
		exit(1);
	}
	*n = recv(sock, buf, cap, 0);
	if (*n < 0 && errno != ECONNRESET) {
		perror("ctl_fdsend: recv");
		exit(1);
	}
	return *n <= 0;
}

static void replies(int sock)
{
	static char buf[IBR_CTL_PART_MAX + 1];

	for (;;) {
		struct ibr_ctl_reply r;
		ssize_t n;
		bool more;

		if (get(sock, buf, sizeof(buf), &n)) {
			fprintf(stderr, "ctl_fdsend: the daemon closed the connection\n");
			exit(1);
		}
		printf("%.*s\n", (int)n, buf);
		if (ibr_ctl_reply_parse(buf, (size_t)n, &r))
			return;
		more = r.more;
		ibr_ctl_reply_free(&r);
		if (!more)
			return;
	}
}

static size_t unhex(const char *s, unsigned char *out, size_t cap)
{
	size_t n = 0;

	for (; s[0] && s[1] && n < cap; s += 2) {
		unsigned v;

		if (sscanf(s, "%2x", &v) != 1)
			break;
		out[n++] = (unsigned char)v;
	}
	return n;
}

int main(int argc, char **argv)
{
	static unsigned char bin[65536];
	int fds[FDS_MAX], nfds = 0, sock;

	if (argc < 3) {
		fprintf(stderr, "usage: ctl_fdsend SOCKET [-f FD]... REQUEST|-x HEX|-e ...\n");
		return 2;
	}
	sock = dial(argv[1]);
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-f") && i + 1 < argc && nfds < FDS_MAX) {
			fds[nfds++] = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "-x") && i + 1 < argc) {
			put(sock, bin, unhex(argv[++i], bin, sizeof(bin)), fds, nfds);
			nfds = 0;
		} else if (!strcmp(argv[i], "-e")) {
			char buf[256];
			ssize_t n;

			while (!get(sock, buf, sizeof(buf), &n))
				;
		} else {
			put(sock, argv[i], strlen(argv[i]), fds, nfds);
			nfds = 0;
			replies(sock);
		}
	}
	close(sock);
	return 0;
}
