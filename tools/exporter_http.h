/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * exporter_http.h - what ibrouter-exporter decides about a request once
 * libmicrohttpd has read it (RFC 9110, RFC 9112): the page its method and
 * target ask for, or the status that refuses it.  The request line and the
 * header block are libmicrohttpd's to parse; what it hands over still comes
 * from any TCP peer: any byte may be in it, every length is checked.
 */
#ifndef EXPORTER_HTTP_H
#define EXPORTER_HTTP_H

#define EXPORTER_HTTP_PATH_MAX 256 /* request target's path; longer: 414 */

enum exporter_http_page { EXPORTER_HTTP_METRICS, EXPORTER_HTTP_INDEX };

/*
 * Route a request: method and url as libmicrohttpd gives them (url: the
 * target, percent-decoded, its query taken off), clen and te the values of
 * its Content-Length and Transfer-Encoding headers (NULL when absent).  The
 * page (>= 0; HEAD asks for the page GET does), or the negated status to
 * answer with, checked in this order: -400 a method that is not a token, a
 * target that is neither origin-form, absolute-form (http://) nor "*", a
 * body (Transfer-Encoding, Content-Length other than 0: GET and HEAD have
 * none and this server reads none); -414 a path past EXPORTER_HTTP_PATH_MAX;
 * -405 a method other than GET and HEAD; -404 a path other than /metrics
 * and /.
 */
int exporter_http_route(const char *method, const char *url, const char *clen, const char *te);

#endif
