/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/ctl/ibrd_out.c: a table made as a stream, part by
 * part as a sink pumps it, is byte for byte the table made at once (JSON
 * and aligned text), each pump makes one part, and a stream's argument is
 * freed once, whether it ends or is abandoned.
 */
#include "daemon/ctl/ibrd_out.h"

#include "lib/ibr_ctl.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPARTS 256

struct sink {
	char *part[NPARTS];
	size_t len[NPARTS];
	unsigned n;
};

static int sink_emit(void *ctx, const char *buf, size_t len)
{
	struct sink *s = ctx;

	if (s->n == NPARTS)
		return -ENOBUFS;
	s->part[s->n] = malloc(len + 1); /* NUL-terminated for strstr */
	memcpy(s->part[s->n], buf, len);
	s->part[s->n][len] = '\0';
	s->len[s->n++] = len;
	return 0;
}

static void sink_free(struct sink *s)
{
	for (unsigned i = 0; i < s->n; i++)
		free(s->part[i]);
	memset(s, 0, sizeof(*s));
}

static const char *const cols[] = { "name", "value", "flag" };

/* Row i: cells of varying widths, so that text columns align differently per part. */
static void row(struct ibrd_out *o, unsigned i)
{
	char name[64];

	snprintf(name, sizeof(name), "row-%u%.*s", i, (int)(i % 37),
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	ibrd_out_str(o, name);
	ibrd_out_u64(o, (uint64_t)i * 7919);
	ibrd_out_bool(o, i & 1);
}

struct gen {
	unsigned i, n;
	int done_calls;
};

static int gen_next(struct ibrd_out *o, void *arg)
{
	struct gen *g = arg;

	if (g->i == g->n)
		return ibrd_out_end(o);
	row(o, g->i++);
	return 1;
}

static void gen_done(void *arg)
{
	((struct gen *)arg)->done_calls++;
}

static void whole(struct sink *s, enum ibrd_fmt fmt, unsigned n)
{
	struct ibrd_out o;

	ibrd_out_init(&o, fmt, sink_emit, s);
	ibrd_out_table(&o, cols, 3);
	for (unsigned i = 0; i < n; i++)
		row(&o, i);
	CU_ASSERT_EQUAL(ibrd_out_end(&o), 0);
	ibrd_out_free(&o);
}

static void streamed(struct sink *s, enum ibrd_fmt fmt, unsigned n)
{
	struct gen g = { .n = n };
	struct ibrd_out o;
	unsigned pumps = 0;
	int rc;

	ibrd_out_init(&o, fmt, sink_emit, s);
	o.defer = true;
	ibrd_out_table(&o, cols, 3);
	CU_ASSERT_EQUAL(ibrd_out_stream(&o, gen_next, gen_done, &g), 0);
	CU_ASSERT_EQUAL(s->n, 0); /* deferred: nothing made yet */
	while ((rc = ibrd_out_pump(&o)) > 0) {
		pumps++;
		CU_ASSERT_EQUAL(s->n, pumps); /* one part a pump */
	}
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(s->n, pumps + 1); /* the last part */
	CU_ASSERT_EQUAL(g.done_calls, 1);
	CU_ASSERT_PTR_NULL(o.next);
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL(g.done_calls, 1);
}

static void same(enum ibrd_fmt fmt, unsigned n)
{
	struct sink a = { 0 }, b = { 0 };

	whole(&a, fmt, n);
	streamed(&b, fmt, n);
	CU_ASSERT_EQUAL(a.n, b.n);
	for (unsigned i = 0; i < a.n && i < b.n; i++) {
		CU_ASSERT_EQUAL(a.len[i], b.len[i]);
		if (a.len[i] == b.len[i])
			CU_ASSERT_EQUAL(memcmp(a.part[i], b.part[i], a.len[i]), 0);
	}
	sink_free(&a);
	sink_free(&b);
}

static void test_stream_json(void)
{
	same(IBRD_FMT_JSON, 0);
	same(IBRD_FMT_JSON, 1);
	same(IBRD_FMT_JSON, 5000);
}

static void test_stream_text(void)
{
	struct sink a = { 0 };

	same(IBRD_FMT_TEXT, 0);
	same(IBRD_FMT_TEXT, 1);
	same(IBRD_FMT_TEXT, 5000);
	whole(&a, IBRD_FMT_TEXT, 5000);
	CU_ASSERT(a.n > 2); /* several parts, each aligned on its own */
	sink_free(&a);
}

static void test_stream_not_deferred(void)
{
	struct sink s = { 0 };
	struct gen g = { .n = 3000 };
	struct ibrd_out o;

	ibrd_out_init(&o, IBRD_FMT_JSON, sink_emit, &s);
	ibrd_out_table(&o, cols, 3);
	CU_ASSERT_EQUAL(ibrd_out_stream(&o, gen_next, gen_done, &g), 0);
	CU_ASSERT_EQUAL(g.i, 3000); /* ran to its end */
	CU_ASSERT_EQUAL(g.done_calls, 1);
	CU_ASSERT(s.n > 1);
	CU_ASSERT_PTR_NULL(strstr(s.part[s.n - 1], "\"more\""));
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL(g.done_calls, 1);
	sink_free(&s);
}

static void test_stream_abandoned(void)
{
	struct sink s = { 0 };
	struct gen g = { .n = 3000 };
	struct ibrd_out o;

	ibrd_out_init(&o, IBRD_FMT_JSON, sink_emit, &s);
	o.defer = true;
	ibrd_out_table(&o, cols, 3);
	ibrd_out_stream(&o, gen_next, gen_done, &g);
	CU_ASSERT_EQUAL(ibrd_out_pump(&o), 1);
	CU_ASSERT_EQUAL(g.done_calls, 0);
	ibrd_out_free(&o); /* the client went away */
	CU_ASSERT_EQUAL(g.done_calls, 1);
	sink_free(&s);
}

/* A sink that refuses ends the stream with its error, and frees the argument. */
static int sink_full(void *ctx, const char *buf, size_t len)
{
	(void)ctx, (void)buf, (void)len;
	return -ENOBUFS;
}

static void test_stream_sink_error(void)
{
	struct gen g = { .n = 3000 };
	struct ibrd_out o;

	ibrd_out_init(&o, IBRD_FMT_JSON, sink_full, NULL);
	o.defer = true;
	ibrd_out_table(&o, cols, 3);
	ibrd_out_stream(&o, gen_next, gen_done, &g);
	CU_ASSERT_EQUAL(ibrd_out_pump(&o), -ENOBUFS);
	CU_ASSERT_EQUAL(g.done_calls, 1);
	CU_ASSERT_PTR_NULL(o.next);
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL(g.done_calls, 1);
	CU_ASSERT_STRING_EQUAL(ibrd_errno_name(-ENOBUFS), "ENOBUFS");
}

/* What a reply repeats of a request: printable ASCII, the rest as \xNN. */
static void test_escape(void)
{
	char b[64], s[8];

	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("port-a_1", b, sizeof(b)), "port-a_1");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("\x1b[2J\n\r\x7f", b, sizeof(b)),
			       "\\x1b[2J\\x0a\\x0d\\x7f");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("\xc2\x9b"
					       "1m",
					       b, sizeof(b)),
			       "\\xc2\\x9b1m");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("a\\x1b", b, sizeof(b)), "a\\\\x1b");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("", b, sizeof(b)), "");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape(NULL, b, sizeof(b)), "");
	/* cut to fit, never inside an escape, "..." at the end */
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("abcdefg", s, sizeof(s)), "abcdefg");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("abcdefgh", s, sizeof(s)), "abcd...");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("a\x01"
					       "bcdefgh",
					       s, sizeof(s)),
			       "a...");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("\x01\x02", s, sizeof(s)), "\\x01...");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("abcdef", s, 4), "");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("abc", s, 4), "abc");
	CU_ASSERT_STRING_EQUAL(ibrd_out_escape("abc", s, 1), "");
}

/* A usage refusal says so ("usage":true), a plain one does not; the client reads both. */
static void test_usage_error(void)
{
	struct sink s = { 0 };
	struct ibrd_out o;
	struct ibr_ctl_reply r;

	ibrd_out_init(&o, IBRD_FMT_JSON, sink_emit, &s);
	CU_ASSERT_EQUAL(ibrd_out_usage(&o, "usage: log level %s", "LEVEL"), -EINVAL);
	ibrd_out_free(&o);
	ibrd_out_init(&o, IBRD_FMT_JSON, sink_emit, &s);
	CU_ASSERT_EQUAL(ibrd_out_error(&o, ENOENT, "no port %s", "x"), -ENOENT);
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL_FATAL(s.n, 2);
	CU_ASSERT_EQUAL_FATAL(ibr_ctl_reply_parse(s.part[0], s.len[0], &r), 0);
	CU_ASSERT_FALSE(r.ok);
	CU_ASSERT_TRUE(r.usage);
	CU_ASSERT_STRING_EQUAL(r.error, "EINVAL");
	CU_ASSERT_STRING_EQUAL(r.msg, "usage: log level LEVEL");
	ibr_ctl_reply_free(&r);
	CU_ASSERT_EQUAL_FATAL(ibr_ctl_reply_parse(s.part[1], s.len[1], &r), 0);
	CU_ASSERT_FALSE(r.ok);
	CU_ASSERT_FALSE(r.usage);
	CU_ASSERT_STRING_EQUAL(r.error, "ENOENT");
	ibr_ctl_reply_free(&r);
	sink_free(&s);
}

/*
 * A text table wider than 100 columns (show sa: 18 of them) wraps: groups of
 * columns that fit, each a table after the first column again, with its
 * header; every cell once; a table that fits is one block as before.
 */
static void test_wide_text(void)
{
	static const char *const wide[] = { "port", "c1",  "c2",  "c3",	 "c4",	"c5",
					    "c6",   "c7",  "c8",  "c9",	 "c10", "c11",
					    "c12",  "c13", "c14", "c15", "c16", "c17" };
	struct sink s = { 0 };
	struct ibrd_out o;
	struct ibr_ctl_reply r;
	unsigned heads = 0, seen[3][18] = { { 0 } };
	char *text, *line, *save;

	ibrd_out_init(&o, IBRD_FMT_TEXT, sink_emit, &s);
	ibrd_out_table(&o, wide, 18);
	for (unsigned i = 0; i < 3; i++)
		for (unsigned c = 0; c < 18; c++) {
			char v[32];

			snprintf(v, sizeof(v), c ? "v%u.%u-xxxxxx" : "port%u", i, c);
			ibrd_out_str(&o, v);
		}
	CU_ASSERT_EQUAL(ibrd_out_end(&o), 0);
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL_FATAL(ibr_ctl_reply_parse(s.part[0], s.len[0], &r), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.text);
	text = strdup(r.text);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned i, c;

		CU_ASSERT(strlen(line) <= 100);
		if (!strncmp(line, "port ", 5)) {
			heads++;
			continue;
		}
		CU_ASSERT_EQUAL_FATAL(sscanf(line, "port%u", &i), 1);
		for (char *p = strstr(line, " v"); p; p = strstr(p + 1, " v"))
			if (sscanf(p, " v%u.%u-", &i, &c) == 2 && i < 3 && c < 18)
				seen[i][c]++;
	}
	CU_ASSERT(heads >= 2);
	for (unsigned i = 0; i < 3; i++)
		for (unsigned c = 1; c < 18; c++)
			CU_ASSERT_EQUAL(seen[i][c], 1);
	free(text);
	ibr_ctl_reply_free(&r);
	sink_free(&s);
	/* three columns that fit: one header, one block */
	ibrd_out_init(&o, IBRD_FMT_TEXT, sink_emit, &s);
	ibrd_out_table(&o, cols, 3);
	row(&o, 1);
	CU_ASSERT_EQUAL(ibrd_out_end(&o), 0);
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL_FATAL(ibr_ctl_reply_parse(s.part[0], s.len[0], &r), 0);
	CU_ASSERT_STRING_EQUAL(r.text, "name    value  flag\nrow-1x  7919   yes\n");
	ibr_ctl_reply_free(&r);
	sink_free(&s);
}

/*
 * A table wider than IBRD_OUT_COLS is refused with an error answer: it was
 * cut to 24 columns, so every row after the first went into the wrong
 * columns (show verbs, 26).
 */
static void test_too_wide(void)
{
	static const char *const first[] = { "c0", "c1", "c2" };
	const char *names[IBRD_OUT_COLS + 1];
	struct sink s = { 0 };
	struct ibrd_out o;
	struct ibr_ctl_reply r;

	for (unsigned i = 0; i <= IBRD_OUT_COLS; i++)
		names[i] = i < 3 ? first[i] : "cx";
	/* the widest allowed: every cell in its column */
	ibrd_out_init(&o, IBRD_FMT_JSON, sink_emit, &s);
	ibrd_out_table(&o, names, IBRD_OUT_COLS);
	for (unsigned row = 0; row < 2; row++)
		for (unsigned i = 0; i < IBRD_OUT_COLS; i++)
			ibrd_out_u64(&o, i);
	CU_ASSERT_EQUAL(ibrd_out_end(&o), 0);
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(s.part[0], "\"c2\":2,\"cx\":3,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(s.part[0], "},{\"c0\":0,\"c1\":1,"));
	sink_free(&s);
	/* one more: an error, no rows */
	ibrd_out_init(&o, IBRD_FMT_JSON, sink_emit, &s);
	ibrd_out_table(&o, names, IBRD_OUT_COLS + 1);
	for (unsigned i = 0; i <= IBRD_OUT_COLS; i++)
		ibrd_out_u64(&o, i);
	CU_ASSERT_NOT_EQUAL(ibrd_out_end(&o), 0);
	ibrd_out_free(&o);
	CU_ASSERT_EQUAL_FATAL(s.n, 1);
	CU_ASSERT_EQUAL_FATAL(ibr_ctl_reply_parse(s.part[0], s.len[0], &r), 0);
	CU_ASSERT_FALSE(r.ok);
	CU_ASSERT_STRING_EQUAL(r.error, "E2BIG");
	ibr_ctl_reply_free(&r);
	sink_free(&s);
}

static CU_TestInfo tests[] = {
	{ "a table wider than IBRD_OUT_COLS is an error", test_too_wide },
	{ "a usage refusal says usage", test_usage_error },
	{ "a text table wider than 100 columns wraps", test_wide_text },
	{ "a JSON stream is the table made at once", test_stream_json },
	{ "a text stream is the table made at once", test_stream_text },
	{ "a stream the sink does not defer runs at once", test_stream_not_deferred },
	{ "an abandoned stream frees its argument", test_stream_abandoned },
	{ "a sink's error ends the stream", test_stream_sink_error },
	{ "request text is repeated escaped", test_escape },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_out", tests);
}
