/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * exporter_http.h - the HTTP/1.x requests ibrouter-exporter reads (RFC 9112):
 * the request line and the header block, nothing after it (a GET or HEAD
 * has no body; a request with one is refused).  Input from a TCP peer:
 * every length is checked, any byte may come.
 */
#ifndef EXPORTER_HTTP_H
#define EXPORTER_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define EXPORTER_HTTP_HEAD_MAX 8192 /* request line and headers; more: 431 */
#define EXPORTER_HTTP_PATH_MAX 256  /* request target; longer: 414 */

enum exporter_http_method { EXPORTER_HTTP_GET, EXPORTER_HTTP_HEAD, EXPORTER_HTTP_OTHER };

struct exporter_http_req {
	enum exporter_http_method method;
	char path[EXPORTER_HTTP_PATH_MAX + 1]; /* the target's path, without its query */
	int minor;			       /* HTTP/1.minor */
};

/*
 * Parse the request in buf[0..len): the number of bytes of its request line
 * and headers once the empty line that ends them is there, 0 while it is
 * not (read more), or the negated HTTP status to answer with: -400 a
 * malformed line, a bare CR, a control byte, a header without a colon, a
 * body (Content-Length other than 0, Transfer-Encoding); -414 a target past
 * EXPORTER_HTTP_PATH_MAX; -431 no end within EXPORTER_HTTP_HEAD_MAX bytes;
 * -505 a version other than HTTP/1.0 and HTTP/1.1.  A method other than GET
 * and HEAD parses (the server answers 405).  Lines may end in CRLF or LF
 * (RFC 9112, 2.2).
 */
int exporter_http_parse(const char *buf, size_t len, struct exporter_http_req *r);

/* The reason phrase of a status this server sends ("Not Found"). */
const char *exporter_http_reason(int status);

#endif
