/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_fdpass.h - one datagram with at most one descriptor (SCM_RIGHTS) on an
 * AF_UNIX socket: how ibrouterctl hands ibrouterd a file it opened with the
 * user's own rights (capture start, ibrouterctl(8)).
 */
#ifndef IBR_FDPASS_H
#define IBR_FDPASS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Send `len` bytes as one datagram, with descriptor `fd` attached when
 * fd >= 0 (the sender keeps its own copy).  `flags` as send(2); MSG_NOSIGNAL
 * is added.  Returns the bytes sent or -errno.
 */
ssize_t ibr_fdpass_send(int sock, const void *buf, size_t len, int fd, int flags);

/*
 * Receive one datagram like recv(2) with `flags` (MSG_CMSG_CLOEXEC is
 * added); returns its length (with MSG_TRUNC: the whole datagram's) or
 * -errno.  *fd is the one descriptor that came with it, now the caller's, or
 * -1.  When more than one came, or the kernel cut the control data short
 * (MSG_CTRUNC: its extra descriptors are lost), every descriptor that arrived
 * is closed here, *fd is -1 and *refused is true: the caller refuses the
 * request rather than guess which one was meant.
 */
ssize_t ibr_fdpass_recv(int sock, void *buf, size_t len, int flags, int *fd, bool *refused);

#endif
