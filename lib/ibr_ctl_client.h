/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_ctl_client.h - a client of ibrouterd's control socket (ibr_ctl.h has
 * the protocol): connect, and one request whose text answer is wanted whole
 * (the exporter's scrapes).  ibrouterctl streams its answers itself.
 */
#ifndef IBR_CTL_CLIENT_H
#define IBR_CTL_CLIENT_H

#include <stddef.h>

/*
 * A connected SOCK_SEQPACKET descriptor to the daemon at `path`, its reads
 * timing out after `timeout_s` seconds; or -errno (-ENAMETOOLONG for a path
 * that does not fit sun_path, connect()'s error otherwise).
 */
int ibr_ctl_connect(const char *path, int timeout_s);

/*
 * Send `req` (a text-format request: "-o prometheus show counters") on `fd`
 * and read its answer to the last part.  0 with *text the parts' texts
 * joined, malloc'd and NUL-terminated (*len bytes); -EPROTO when the daemon
 * refused it, its message in err (up to errlen bytes); -EBADMSG for a reply
 * that is no envelope or a part without text; -E2BIG past `max` bytes of
 * text; -errno of send or recv (-EPIPE: the daemon closed), -ENOMEM.
 */
int ibr_ctl_call_text(int fd, const char *req, size_t max, char **text, size_t *len, char *err,
		      size_t errlen);

#endif
