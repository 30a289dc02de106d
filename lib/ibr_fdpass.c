/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_fdpass.c - a datagram and at most one descriptor (SCM_RIGHTS), both ways. */
#include "lib/ibr_fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Room for one descriptor; CMSG_SPACE rounds up, so the kernel may put two there. */
union fdpass_cmsg {
	struct cmsghdr h;
	char buf[CMSG_SPACE(sizeof(int))];
};

ssize_t ibr_fdpass_send(int sock, const void *buf, size_t len, int fd, int flags)
{
	struct iovec iov = { (void *)buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	union fdpass_cmsg c;
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *cm;

		memset(&c, 0, sizeof(c));
		mh.msg_control = c.buf;
		mh.msg_controllen = sizeof(c.buf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	n = sendmsg(sock, &mh, flags | MSG_NOSIGNAL);
	return n < 0 ? -errno : n;
}

ssize_t ibr_fdpass_recv(int sock, void *buf, size_t len, int flags, int *fd, bool *refused)
{
	struct iovec iov = { buf, len };
	union fdpass_cmsg c;
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = c.buf,
			     .msg_controllen = sizeof(c.buf) };
	unsigned got = 0;
	ssize_t n;

	*fd = -1;
	*refused = false;
	n = recvmsg(sock, &mh, flags | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	/* the kernel built these headers; walk them all so no descriptor is left open */
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm)) {
		size_t k;

		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS ||
		    cm->cmsg_len < CMSG_LEN(0))
			continue;
		k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int one;

			memcpy(&one, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
			if (got++ == 0)
				*fd = one;
			else
				close(one);
		}
	}
	if (got > 1 || (mh.msg_flags & MSG_CTRUNC)) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		*refused = true;
	}
	return n;
}
