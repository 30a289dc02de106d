/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for tools/exporter_http.c: the exporter's routing of a request libmicrohttpd has read. */
#include "tools/exporter_http.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <string.h>

static int route(const char *method, const char *url)
{
	return exporter_http_route(method, url, NULL, NULL);
}

/* Prometheus's GET and HEAD of /metrics, the index page */
static void test_pages(void)
{
	CU_ASSERT_EQUAL(route("GET", "/metrics"), EXPORTER_HTTP_METRICS);
	CU_ASSERT_EQUAL(route("HEAD", "/metrics"), EXPORTER_HTTP_METRICS);
	CU_ASSERT_EQUAL(route("GET", "/"), EXPORTER_HTTP_INDEX);
	CU_ASSERT_EQUAL(route("HEAD", "/"), EXPORTER_HTTP_INDEX);
	/* a Content-Length of 0 is no body (blanks around it are OWS) */
	CU_ASSERT_EQUAL(exporter_http_route("GET", "/metrics", "0", NULL), EXPORTER_HTTP_METRICS);
	CU_ASSERT_EQUAL(exporter_http_route("GET", "/metrics", " 0\t", NULL),
			EXPORTER_HTTP_METRICS);
}

/* The absolute form (RFC 9112, 3.2.2): the path after scheme and authority */
static void test_absolute(void)
{
	CU_ASSERT_EQUAL(route("GET", "http://router:9731/metrics"), EXPORTER_HTTP_METRICS);
	CU_ASSERT_EQUAL(route("GET", "HTTP://router"), EXPORTER_HTTP_INDEX);
	CU_ASSERT_EQUAL(route("GET", "http://router/"), EXPORTER_HTTP_INDEX);
	CU_ASSERT_EQUAL(route("GET", "http://router/metrics/"), -404);
	CU_ASSERT_EQUAL(route("GET", "https://router/metrics"), -400);
	CU_ASSERT_EQUAL(route("GET", "http:/router/metrics"), -400);
}

/* Statuses, in the order of the checks: a bad request before a long path
 * before a method not allowed before a path not found */
static void test_refused(void)
{
	static const struct {
		const char *method, *url, *clen, *te;
		int rc;
	} bad[] = {
		{ "G(T", "/metrics", NULL, NULL, -400 },
		{ "", "/metrics", NULL, NULL, -400 },
		{ "GET ", "/metrics", NULL, NULL, -400 },
		{ "GET", "metrics", NULL, NULL, -400 },
		{ "GET", "", NULL, NULL, -400 },
		{ "GET", "/metrics", "5", NULL, -400 },
		{ "GET", "/metrics", "00", NULL, -400 },
		{ "GET", "/metrics", "0 0", NULL, -400 },
		{ "GET", "/metrics", "", NULL, -400 },
		{ "GET", "/metrics", NULL, "chunked", -400 },
		{ "GET", "/metrics", "0", "identity", -400 },
		{ "POST", "/nosuch", "5", NULL, -400 },
		{ "POST", "/metrics", "0", NULL, -405 },
		{ "DELETE", "/metrics", NULL, NULL, -405 },
		{ "get", "/metrics", NULL, NULL, -405 },
		{ "OPTIONS", "*", NULL, NULL, -405 },
		{ "GET", "*", NULL, NULL, -404 },
		{ "GET", "/nosuch", NULL, NULL, -404 },
		{ "GET", "/metrics/", NULL, NULL, -404 },
		{ "GET", "//metrics", NULL, NULL, -404 },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = exporter_http_route(bad[i].method, bad[i].url, bad[i].clen, bad[i].te);

		if (rc != bad[i].rc)
			fprintf(stderr, "\n  %zu: %d, not %d\n", i, rc, bad[i].rc);
		CU_ASSERT_EQUAL(rc, bad[i].rc);
	}
}

/* A path of EXPORTER_HTTP_PATH_MAX is routed, one more is 414, before 405 and 404 */
static void test_path_limit(void)
{
	char url[EXPORTER_HTTP_PATH_MAX + 32];

	snprintf(url, sizeof(url), "/%0*d", EXPORTER_HTTP_PATH_MAX - 1, 0);
	CU_ASSERT_EQUAL(route("GET", url), -404);
	snprintf(url, sizeof(url), "/%0*d", EXPORTER_HTTP_PATH_MAX, 0);
	CU_ASSERT_EQUAL(route("GET", url), -414);
	CU_ASSERT_EQUAL(route("POST", url), -414);
	/* the absolute form's limit is its path's */
	snprintf(url, sizeof(url), "http://h/%0*d", EXPORTER_HTTP_PATH_MAX - 1, 0);
	CU_ASSERT_EQUAL(route("GET", url), -404);
}

static CU_TestInfo tests[] = {
	{ "GET and HEAD of the pages", test_pages },
	{ "the absolute form", test_absolute },
	{ "refused requests and their status", test_refused },
	{ "the path's limit", test_path_limit },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("exporter_http", tests);
}
