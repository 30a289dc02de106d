/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_pidfile.c - the PID file (ibrouterd.conf(5), pid-file): written at
 * start and when a reload moves it, removed at the end -- only while it
 * still holds our PID, so that a second daemon's file is never removed.
 */
#include "daemon/ibrd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int ibrd_pidfile_write(const char *path)
{
	char buf[32];
	int fd, n, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (write(fd, buf, (size_t)n) != n)
		rc = -EIO;
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		unlink(path);
	return rc;
}

void ibrd_pidfile_remove(const char *path)
{
	char buf[32];
	ssize_t n;
	int fd;

	if (!path[0] || (fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = '\0';
		if (strtol(buf, NULL, 10) == (long)getpid())
			unlink(path);
	}
}
