/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* fuzz_exporter_http.c - ibrouter-exporter's HTTP request parser: what any
 * TCP peer of the exporter's address sends (tools/exporter_http.c). */
#include "tools/exporter_http.c"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exporter_http_req r;
	int rc = exporter_http_parse((const char *)data, size, &r);

	if (rc > 0) {
		size_t n = strnlen(r.path, sizeof(r.path));

		/* a whole request within what was read and the header limit (+ the blank lines skipped) */
		if ((size_t)rc > size || rc > EXPORTER_HTTP_HEAD_MAX + 4)
			abort();
		if (n > EXPORTER_HTTP_PATH_MAX || (r.path[0] != '/' && r.path[0] != '*'))
			abort();
		if (r.minor != 0 && r.minor != 1)
			abort();
	} else if (rc != 0 && rc != -400 && rc != -414 && rc != -431 && rc != -505) {
		abort();
	}
	return 0;
}
