/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* fuzz_exporter_http.c - ibrouter-exporter's routing of a request (tools/exporter_http.c):
 * what libmicrohttpd hands over of whatever a TCP peer sends.  The input is
 * up to four lines: method, target, Content-Length, Transfer-Encoding (a line
 * not there: no such header), any byte in them but LF. */
#include "tools/exporter_http.c"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *field[4] = { NULL }, *p = copy;
	int n = 0, rc;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	/* a string ends at its first NUL, as libmicrohttpd's do */
	while (n < 4 && p) {
		field[n++] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	if (n < 2) {
		free(copy);
		return 0;
	}
	rc = exporter_http_route(field[0], field[1], field[2], field[3]);
	if (rc >= 0) {
		/* a page: GET or HEAD, no body, a path within the limit */
		if (rc != EXPORTER_HTTP_METRICS && rc != EXPORTER_HTTP_INDEX)
			abort();
		if (strcmp(field[0], "GET") && strcmp(field[0], "HEAD"))
			abort();
		if (field[3] || (field[2] && strspn(field[2], " \t0") != strlen(field[2])))
			abort();
	} else if (rc != -400 && rc != -404 && rc != -405 && rc != -414) {
		abort();
	} else if (rc == -405 && (!strcmp(field[0], "GET") || !strcmp(field[0], "HEAD"))) {
		abort();
	}
	free(copy);
	return 0;
}
