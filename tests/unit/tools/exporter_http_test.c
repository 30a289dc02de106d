/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for tools/exporter_http.c: the exporter's HTTP request parser. */
#include "tools/exporter_http.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <string.h>

static int parse(const char *s, struct exporter_http_req *r)
{
	return exporter_http_parse(s, strlen(s), r);
}

/* Prometheus's own request, as its scraper sends it: whole, its length */
static void test_prometheus_get(void)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9731\r\n"
				  "User-Agent: Prometheus/2.45.0\r\nAccept-Encoding: gzip\r\n"
				  "X-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n";
	struct exporter_http_req r;

	CU_ASSERT_EQUAL(parse(req, &r), (int)strlen(req));
	CU_ASSERT_EQUAL(r.method, EXPORTER_HTTP_GET);
	CU_ASSERT_STRING_EQUAL(r.path, "/metrics");
	CU_ASSERT_EQUAL(r.minor, 1);
}

/* Each prefix of a request is "read more"; the bytes after its end are not its own */
static void test_incomplete(void)
{
	static const char req[] = "HEAD /metrics HTTP/1.0\r\nHost: x\r\n\r\nGARBAGE";
	size_t whole = strlen(req) - strlen("GARBAGE");
	struct exporter_http_req r;

	for (size_t n = 0; n < whole; n++)
		CU_ASSERT_EQUAL(exporter_http_parse(req, n, &r), 0);
	CU_ASSERT_EQUAL(exporter_http_parse(req, strlen(req), &r), (int)whole);
	CU_ASSERT_EQUAL(r.method, EXPORTER_HTTP_HEAD);
	CU_ASSERT_EQUAL(r.minor, 0);
}

/* LF-only lines, leading blank lines, a query, the absolute form, other methods */
static void test_forms(void)
{
	struct exporter_http_req r;

	CU_ASSERT_EQUAL(parse("GET /metrics?name[]=up HTTP/1.1\n\n", &r), 33);
	CU_ASSERT_STRING_EQUAL(r.path, "/metrics");
	CU_ASSERT_TRUE(parse("\r\nGET / HTTP/1.1\r\n\r\n", &r) > 0);
	CU_ASSERT_STRING_EQUAL(r.path, "/");
	CU_ASSERT_TRUE(parse("GET http://router:9731/metrics HTTP/1.1\r\n\r\n", &r) > 0);
	CU_ASSERT_STRING_EQUAL(r.path, "/metrics");
	CU_ASSERT_TRUE(parse("GET HTTP://router HTTP/1.1\r\n\r\n", &r) > 0);
	CU_ASSERT_STRING_EQUAL(r.path, "/");
	CU_ASSERT_TRUE(parse("DELETE /metrics HTTP/1.1\r\n\r\n", &r) > 0);
	CU_ASSERT_EQUAL(r.method, EXPORTER_HTTP_OTHER);
	CU_ASSERT_TRUE(parse("OPTIONS * HTTP/1.1\r\n\r\n", &r) > 0);
	CU_ASSERT_STRING_EQUAL(r.path, "*");
	CU_ASSERT_TRUE(parse("GET /metrics HTTP/1.1\r\nContent-Length:  0 \r\nX:\r\n\r\n", &r) > 0);
}

static void test_refused(void)
{
	static const struct {
		const char *req;
		int rc;
	} bad[] = {
		{ "hello\r\n\r\n", -400 },
		{ "GET\r\n\r\n", -400 },
		{ " GET / HTTP/1.1\r\n\r\n", -400 },
		{ "GET  / HTTP/1.1\r\n\r\n", -400 },
		{ "GET / HTTP/1.1 \r\n\r\n", -400 },
		{ "GET metrics HTTP/1.1\r\n\r\n", -400 },
		{ "G(T / HTTP/1.1\r\n\r\n", -400 },
		{ "GET / HTTP/1.x\r\n\r\n", -400 },
		{ "GET / HTTP/11\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\rX: y\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nX: a\x01"
		  "b\r\n\r\n",
		  -400 },
		{ "GET / HTTP/1.1\r\nX: a\x7f\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost x\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nHost : x\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\n: x\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", -400 },
		{ "GET / HTTP/1.1\r\ncontent-length: 00\r\n\r\n", -400 },
		{ "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", -400 },
		{ "GET / HTTP/2.0\r\n\r\n", -505 },
		{ "GET / HTTP/1.2\r\n\r\n", -505 },
		{ "GET / HTTP/0.9\r\n\r\n", -505 },
	};
	struct exporter_http_req r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = parse(bad[i].req, &r);

		if (rc != bad[i].rc)
			fprintf(stderr, "\n  %zu: %d, not %d\n", i, rc, bad[i].rc);
		CU_ASSERT_EQUAL(rc, bad[i].rc);
	}
	/* a NUL is a control byte too, wherever it is */
	CU_ASSERT_EQUAL(exporter_http_parse("GET /\0 HTTP/1.1\r\n\r\n", 20, &r), -400);
}

/* The limits: a path of EXPORTER_HTTP_PATH_MAX parses, one more is 414; a header
 * block that has not ended by EXPORTER_HTTP_HEAD_MAX bytes is 431 */
static void test_limits(void)
{
	static char req[EXPORTER_HTTP_HEAD_MAX + 64];
	struct exporter_http_req r;
	int n;

	n = snprintf(req, sizeof(req), "GET /%0*d HTTP/1.1\r\n\r\n", EXPORTER_HTTP_PATH_MAX - 1, 0);
	CU_ASSERT_EQUAL(parse(req, &r), n);
	CU_ASSERT_EQUAL(strlen(r.path), EXPORTER_HTTP_PATH_MAX);
	snprintf(req, sizeof(req), "GET /%0*d HTTP/1.1\r\n\r\n", EXPORTER_HTTP_PATH_MAX, 0);
	CU_ASSERT_EQUAL(parse(req, &r), -414);
	memset(req, 'a', sizeof(req));
	memcpy(req, "GET / HTTP/1.1\r\nX: ", 19);
	CU_ASSERT_EQUAL(exporter_http_parse(req, EXPORTER_HTTP_HEAD_MAX - 1, &r), 0);
	CU_ASSERT_EQUAL(exporter_http_parse(req, EXPORTER_HTTP_HEAD_MAX, &r), -431);
	CU_ASSERT_EQUAL(exporter_http_parse(req, sizeof(req), &r), -431);
	/* ending exactly at the limit is whole */
	memcpy(req + EXPORTER_HTTP_HEAD_MAX - 4, "\r\n\r\n", 4);
	CU_ASSERT_EQUAL(exporter_http_parse(req, sizeof(req), &r), EXPORTER_HTTP_HEAD_MAX);
}

static void test_reasons(void)
{
	CU_ASSERT_STRING_EQUAL(exporter_http_reason(431), "Request Header Fields Too Large");
	CU_ASSERT_STRING_EQUAL(exporter_http_reason(405), "Method Not Allowed");
	CU_ASSERT_STRING_EQUAL(exporter_http_reason(599), "Internal Server Error");
}

static CU_TestInfo tests[] = {
	{ "Prometheus's GET", test_prometheus_get },
	{ "incomplete requests wait, the rest is not theirs", test_incomplete },
	{ "the forms RFC 9112 allows", test_forms },
	{ "malformed requests and their status", test_refused },
	{ "path and header limits", test_limits },
	{ "reason phrases", test_reasons },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("exporter_http", tests);
}
