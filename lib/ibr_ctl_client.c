/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_ctl_client.c - connect to ibrouterd's control socket; a whole text answer. */
#include "lib/ibr_ctl_client.h"
#include "lib/ibr_ctl.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

int ibr_ctl_connect(const char *path, int timeout_s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { timeout_s, 0 };
	int fd, e;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* before connect: a daemon that reads nothing fills its backlog, and a
	 * UNIX connect() then waits as long as a send may (SO_SNDTIMEO) */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

/* Append a part's text to the answer: 0, -E2BIG past max, -ENOMEM. */
static int ctl_text_add(char **buf, size_t *len, size_t *cap, const char *t, size_t max)
{
	size_t n = strlen(t);

	if (n > max - *len)
		return -E2BIG;
	if (*len + n + 1 > *cap) {
		size_t c = *cap ? *cap : 4096;
		char *b;

		while (c < *len + n + 1)
			c *= 2;
		if (!(b = realloc(*buf, c)))
			return -ENOMEM;
		*buf = b, *cap = c;
	}
	memcpy(*buf + *len, t, n + 1);
	*len += n;
	return 0;
}

int ibr_ctl_call_text(int fd, const char *req, size_t max, char **text, size_t *len, char *err,
		      size_t errlen)
{
	static char part[IBR_CTL_PART_MAX + 1];
	size_t cap = 0, rlen = strlen(req);
	char *buf = NULL;
	int rc = 0;

	*text = NULL, *len = 0;
	if (errlen)
		err[0] = '\0';
	if (rlen > IBR_CTL_REQ_MAX)
		return -E2BIG;
	/* MSG_NOSIGNAL: a daemon gone between connect and send is -EPIPE, not a signal */
	if (send(fd, req, rlen, MSG_NOSIGNAL) != (ssize_t)rlen)
		return errno ? -errno : -EIO;
	for (bool more = true; more && !rc;) {
		struct ibr_ctl_reply r;
		ssize_t n = recv(fd, part, sizeof(part) - 1, 0);

		if (n <= 0) {
			rc = n == 0 ? -EPIPE : -errno;
			break;
		}
		if (ibr_ctl_reply_parse(part, (size_t)n, &r)) {
			rc = -EBADMSG;
			break;
		}
		if (!r.ok) {
			if (errlen)
				snprintf(err, errlen, "%s (%s)", r.msg ? r.msg : "refused",
					 r.error);
			rc = -EPROTO;
		} else if (!r.text) {
			rc = -EBADMSG;
		} else {
			rc = ctl_text_add(&buf, len, &cap, r.text, max);
		}
		more = r.more;
		ibr_ctl_reply_free(&r);
	}
	if (!rc && !buf)
		rc = ctl_text_add(&buf, len, &cap, "", max);
	if (rc) {
		free(buf);
		*len = 0;
		return rc;
	}
	*text = buf;
	return 0;
}
