/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* exporter_http.c - HTTP/1.x request line and headers (RFC 9110, RFC 9112). */
#include "tools/exporter_http.h"

#include <string.h>
#include <strings.h>

/* tchar (RFC 9110, 5.6.2): what a method and a field name are made of */
static bool http_tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/*
 * The end of the header block: the offset past its empty line, 0 when it is
 * not in buf yet, -400 for a byte no request line or field may hold (a
 * control byte other than HTAB, a CR not before LF: RFC 9112, 2.2 and 5.5).
 */
static long http_head_end(const char *buf, size_t len)
{
	size_t line = 0; /* where the current line starts */

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\r') {
			if (i + 1 == len)
				return 0;
			if (buf[i + 1] != '\n')
				return -400;
			continue;
		}
		if (c == '\n') {
			size_t n = i - line; /* the line's length, its CR included */

			if (line > 0 && (n == 0 || (n == 1 && buf[line] == '\r')))
				return (long)(i + 1);
			line = i + 1;
			continue;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7F)
			return -400;
	}
	return 0;
}

/* The line at *p up to its LF (its CR dropped): its length; *p moves past it. */
static size_t http_line(const char **p, const char **line)
{
	const char *nl = strchr(*p, '\n');
	size_t n = (size_t)(nl - *p);

	*line = *p;
	*p = nl + 1;
	if (n && (*line)[n - 1] == '\r')
		n--;
	return n;
}

static int http_request_line(const char *l, size_t n, struct exporter_http_req *r)
{
	const char *sp1 = memchr(l, ' ', n), *sp2, *t, *q;
	size_t tn;

	if (!sp1 || sp1 == l)
		return -400;
	for (const char *c = l; c < sp1; c++)
		if (!http_tchar((unsigned char)*c))
			return -400;
	if ((size_t)(sp1 - l) == 3 && !memcmp(l, "GET", 3))
		r->method = EXPORTER_HTTP_GET;
	else if ((size_t)(sp1 - l) == 4 && !memcmp(l, "HEAD", 4))
		r->method = EXPORTER_HTTP_HEAD;
	else
		r->method = EXPORTER_HTTP_OTHER;
	t = sp1 + 1;
	sp2 = memchr(t, ' ', n - (size_t)(t - l));
	if (!sp2 || sp2 == t)
		return -400;
	/* HTTP-version = "HTTP/" DIGIT "." DIGIT, exactly (RFC 9112, 2.3) */
	if ((size_t)(l + n - (sp2 + 1)) != 8 || memcmp(sp2 + 1, "HTTP/", 5) || sp2[6] < '0' ||
	    sp2[6] > '9' || sp2[7] != '.' || sp2[8] < '0' || sp2[8] > '9')
		return -400;
	if (sp2[6] != '1' || sp2[8] > '1')
		return -505;
	r->minor = sp2[8] - '0';
	tn = (size_t)(sp2 - t);
	/* absolute-form (RFC 9112, 3.2.2): the path after scheme and authority */
	if (tn > 7 && !strncasecmp(t, "http://", 7)) {
		const char *s = memchr(t + 7, '/', tn - 7);

		tn = s ? (size_t)(sp2 - s) : 1;
		t = s ? s : "/";
	} else if (t[0] != '/' && !(tn == 1 && t[0] == '*')) {
		return -400;
	}
	q = memchr(t, '?', tn);
	if (q)
		tn = (size_t)(q - t);
	if (tn > EXPORTER_HTTP_PATH_MAX)
		return -414;
	memcpy(r->path, t, tn);
	r->path[tn] = '\0';
	return 0;
}

/* One field line (RFC 9112, 5): name ":" OWS value OWS; a body refused. */
static int http_field(const char *l, size_t n)
{
	const char *colon = memchr(l, ':', n), *v, *e = l + n;

	/* no name, a blank before the colon, or obs-fold: 400 (RFC 9112, 5.1 and 5.2) */
	if (!colon || colon == l)
		return -400;
	for (const char *c = l; c < colon; c++)
		if (!http_tchar((unsigned char)*c))
			return -400;
	for (v = colon + 1; v < e && (*v == ' ' || *v == '\t'); v++)
		;
	while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	/* GET and HEAD carry no body, and this server reads none: one is refused */
	if ((size_t)(colon - l) == 17 && !strncasecmp(l, "transfer-encoding", 17))
		return -400;
	if ((size_t)(colon - l) == 14 && !strncasecmp(l, "content-length", 14) &&
	    !(e - v == 1 && *v == '0'))
		return -400;
	return 0;
}

int exporter_http_parse(const char *buf, size_t len, struct exporter_http_req *r)
{
	char head[EXPORTER_HTTP_HEAD_MAX + 1];
	const char *p = head, *l;
	size_t skip = 0, n;
	long end;
	int rc;

	/* an empty line or two before the request line are ignored (RFC 9112, 2.2) */
	while (skip < len && skip < 4 && (buf[skip] == '\r' || buf[skip] == '\n'))
		skip++;
	end = http_head_end(buf + skip, len - skip > EXPORTER_HTTP_HEAD_MAX ? EXPORTER_HTTP_HEAD_MAX
									    : len - skip);
	if (end < 0)
		return (int)end;
	if (end == 0)
		return len - skip >= EXPORTER_HTTP_HEAD_MAX ? -431 : 0;
	memcpy(head, buf + skip, (size_t)end);
	head[end] = '\0';
	n = http_line(&p, &l);
	if ((rc = http_request_line(l, n, r)))
		return rc;
	while ((n = http_line(&p, &l)) > 0)
		if ((rc = http_field(l, n)))
			return rc;
	return (int)(skip + (size_t)end);
}

const char *exporter_http_reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 408:
		return "Request Timeout";
	case 414:
		return "URI Too Long";
	case 431:
		return "Request Header Fields Too Large";
	case 503:
		return "Service Unavailable";
	case 505:
		return "HTTP Version Not Supported";
	default:
		return "Internal Server Error";
	}
}
