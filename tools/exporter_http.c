/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* exporter_http.c - the exporter's routing of a parsed request (RFC 9110, RFC 9112). */
#include "tools/exporter_http.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* tchar (RFC 9110, 5.6.2): what a method is made of */
static bool http_token(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      strchr("!#$%&'*+-.^_`|~", c)))
			return false;
	}
	return true;
}

/* A Content-Length of 0, blanks around it allowed (OWS, RFC 9110, 5.5) */
static bool http_clen_zero(const char *v)
{
	size_t n;

	v += strspn(v, " \t");
	n = strcspn(v, " \t");
	return n == 1 && v[0] == '0' && !v[n + strspn(v + n, " \t")];
}

int exporter_http_route(const char *method, const char *url, const char *clen, const char *te)
{
	const char *path = url;

	if (!http_token(method))
		return -400;
	/* absolute-form (RFC 9112, 3.2.2): the path after scheme and authority */
	if (!strncasecmp(url, "http://", 7)) {
		path = strchr(url + 7, '/');
		if (!path)
			path = "/";
	} else if (url[0] != '/' && strcmp(url, "*")) {
		return -400;
	}
	/* GET and HEAD carry no body, and this server reads none: one is refused */
	if (te || (clen && !http_clen_zero(clen)))
		return -400;
	if (strlen(path) > EXPORTER_HTTP_PATH_MAX)
		return -414;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return -405;
	if (!strcmp(path, "/metrics"))
		return EXPORTER_HTTP_METRICS;
	if (!strcmp(path, "/"))
		return EXPORTER_HTTP_INDEX;
	return -404;
}
