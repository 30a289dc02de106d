/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibrd_out.c - control answers as JSON parts, aligned text or Prometheus text. */
#include "daemon/ctl/ibrd_out.h"

#include "lib/ibr_ctl.h"
#include "lib/ibr_gid.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PART_ROOM (IBR_CTL_PART_MAX - 512) /* the envelope and escaping need room too */

void ibrd_out_init(struct ibrd_out *o, enum ibrd_fmt fmt,
		   int (*emit)(void *ctx, const char *buf, size_t len), void *ctx)
{
	memset(o, 0, sizeof(*o));
	o->fmt = fmt;
	o->emit = emit;
	o->ctx = ctx;
	ibr_json_init(&o->row, PART_ROOM);
}

static void out_cells_free(struct ibrd_out *o)
{
	for (size_t i = 0; i < o->ncells; i++)
		free(o->cells[i]);
	o->ncells = 0;
}

void ibrd_out_free(struct ibrd_out *o)
{
	if (o->next && o->done)
		o->done(o->arg); /* abandoned: the client went away */
	out_cells_free(o);
	free(o->cells);
	free(o->body);
	ibr_json_free(&o->row);
	memset(o, 0, sizeof(*o));
}

static void out_append(struct ibrd_out *o, const char *s, size_t n)
{
	if (o->err)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *b;

		while (cap < o->len + n + 1)
			cap *= 2;
		if (!(b = realloc(o->body, cap))) {
			o->err = -ENOMEM;
			return;
		}
		o->body = b;
		o->cap = cap;
	}
	memcpy(o->body + o->len, s, n);
	o->len += n;
	o->body[o->len] = '\0';
}

/* Text lines at most this wide, as a terminal and infiniband-diags' output have them. */
#define OUT_TEXT_WIDTH 100

/* Rows of this part (the header first when `header`): column 0, then columns c0..c1-1. */
static void out_render_cols(struct ibrd_out *o, const size_t *w, size_t rows, bool header,
			    unsigned c0, unsigned c1)
{
	for (size_t r = header ? 0 : 1; r <= rows; r++) {
		for (unsigned c = 0; c < c1; c = c == 0 ? c0 : c + 1) {
			const char *v = r == 0 ? o->cols[c] : o->cells[(r - 1) * o->ncols + c];
			size_t pad = w[c] - strlen(v);

			out_append(o, v, strlen(v));
			for (size_t i = 0; c + 1 < c1 && i < pad + 2; i++)
				out_append(o, " ", 1);
		}
		out_append(o, "\n", 1);
	}
}

/* Text mode: render the cells of this part as an aligned table. */
static void out_render_text(struct ibrd_out *o)
{
	size_t w[IBRD_OUT_COLS] = { 0 }, rows = o->ncols ? o->ncells / o->ncols : 0, total;
	bool header = !o->sent_any;

	if (!o->ncols)
		return; /* free text only */
	for (unsigned c = 0; c < o->ncols; c++) {
		w[c] = o->object ? strlen(o->cols[c]) + 1 : strlen(o->cols[c]);
		for (size_t r = 0; !o->object && r < rows; r++)
			if (strlen(o->cells[r * o->ncols + c]) > w[c])
				w[c] = strlen(o->cells[r * o->ncols + c]);
	}
	if (o->object) { /* "key: value" lines */
		for (unsigned c = 0; c < o->ncols && rows; c++) {
			char line[512];
			int n = snprintf(line, sizeof(line), "%-*s %s\n", (int)w[0] + 8, o->cols[c],
					 o->cells[c]);
			out_append(o, line,
				   (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
		}
		return;
	}
	total = w[0];
	for (unsigned c = 1; c < o->ncols; c++)
		total += 2 + w[c];
	if (total <= OUT_TEXT_WIDTH || o->ncols < 3) {
		out_render_cols(o, w, rows, header, 1, o->ncols);
		return;
	}
	/*
	 * Wider than a terminal (show sa: 18 columns): the columns in groups
	 * that fit, each after the first column again (the row's name), each
	 * group a table of its own with its header, a blank line between.
	 */
	for (unsigned c0 = 1, c1; c0 < o->ncols; c0 = c1) {
		size_t gw = w[0] + 2 + w[c0];

		for (c1 = c0 + 1; c1 < o->ncols && gw + 2 + w[c1] <= OUT_TEXT_WIDTH; c1++)
			gw += 2 + w[c1];
		if (c0 > 1)
			out_append(o, "\n", 1);
		out_render_cols(o, w, rows, true, c0, c1);
	}
}

/* Wrap this part's body in its envelope and hand it to emit. */
static void out_flush(struct ibrd_out *o, bool last)
{
	const char *head = last ? "{\"ok\":true," : "{\"ok\":true,\"more\":true,";
	struct ibr_json j;
	char *p;
	size_t n;

	if (o->err)
		return;
	if (o->fmt != IBRD_FMT_JSON) { /* text and Prometheus: one string member */
		if (o->fmt == IBRD_FMT_TEXT)
			out_render_text(o);
		ibr_json_init(&j, IBR_CTL_PART_MAX);
		ibr_json_obj_open(&j, NULL);
		ibr_json_bool(&j, "ok", true);
		if (!last)
			ibr_json_bool(&j, "more", true);
		ibr_json_strn(&j, "text", o->body ? o->body : "", o->len);
		ibr_json_close(&j);
		o->err = ibr_json_finish(&j) ? -EMSGSIZE : o->emit(o->ctx, j.buf, j.len);
		ibr_json_free(&j);
	} else { /* the rows are JSON already: only the envelope is added */
		n = strlen(head) + 8 + o->len + 4;
		if (!(p = malloc(n))) {
			o->err = -ENOMEM;
			return;
		}
		n = (size_t)snprintf(p, n, "%s\"data\":%s%s%s}", head, o->object ? "" : "[",
				     o->len	 ? o->body
				     : o->object ? "{}"
						 : "",
				     o->object ? "" : "]");
		o->err = o->emit(o->ctx, p, n);
		free(p);
	}
	o->sent_any = true;
	o->parts++;
	o->len = 0;
	o->nrows = 0;
	out_cells_free(o);
}

static void out_begin(struct ibrd_out *o, const char *const *cols, unsigned ncols, bool object)
{
	o->object = object;
	if (ncols > IBRD_OUT_COLS) {
		/* cut, every row would shift into the wrong columns: an error instead */
		ibrd_out_error(o, E2BIG, "a table of %u columns, at most %u", ncols, IBRD_OUT_COLS);
		o->ncols = 0;
		return;
	}
	o->ncols = ncols;
	for (unsigned i = 0; i < o->ncols; i++)
		o->cols[i] = cols[i];
	o->col = 0;
}

void ibrd_out_table(struct ibrd_out *o, const char *const *cols, unsigned ncols)
{
	out_begin(o, cols, ncols, false);
}

void ibrd_out_object(struct ibrd_out *o, const char *const *cols, unsigned ncols)
{
	out_begin(o, cols, ncols, true);
}

/* A cell: its JSON form (`json` emits it into the row) and its text form. */
static void out_cell(struct ibrd_out *o, const char *text,
		     void (*json)(struct ibrd_out *, const void *), const void *arg)
{
	if (o->err || !o->ncols)
		return;
	if (o->fmt == IBRD_FMT_JSON) {
		if (o->col == 0)
			ibr_json_obj_open(&o->row, NULL);
		json(o, arg);
	} else if (o->fmt == IBRD_FMT_TEXT) {
		char *c = strdup(text);

		if (!c || (o->ncells == o->capcells &&
			   !(o->cells = realloc(o->cells, (o->capcells = o->capcells * 2 + 64) *
								  sizeof(*o->cells))))) {
			free(c);
			o->err = -ENOMEM;
			return;
		}
		o->cells[o->ncells++] = c;
	}
	if (++o->col < o->ncols)
		return;
	o->col = 0; /* the row is complete */
	if (o->fmt == IBRD_FMT_JSON) {
		ibr_json_close(&o->row);
		if (ibr_json_finish(&o->row)) {
			o->err = -EMSGSIZE;
			return;
		}
		if (o->nrows)
			out_append(o, ",", 1);
		out_append(o, o->row.buf, o->row.len);
		ibr_json_reset(&o->row);
	}
	o->nrows++;
	if (!o->object && (o->len > PART_ROOM / 2 || o->ncells * 24 > PART_ROOM / 2))
		out_flush(o, false);
}

static void js_str(struct ibrd_out *o, const void *v)
{
	ibr_json_str(&o->row, o->cols[o->col], v);
}

static void js_u64(struct ibrd_out *o, const void *v)
{
	ibr_json_u64(&o->row, o->cols[o->col], *(const uint64_t *)v);
}

static void js_hex64(struct ibrd_out *o, const void *v)
{
	ibr_json_hex64(&o->row, o->cols[o->col], *(const uint64_t *)v);
}

static void js_bool(struct ibrd_out *o, const void *v)
{
	ibr_json_bool(&o->row, o->cols[o->col], *(const bool *)v);
}

void ibrd_out_str(struct ibrd_out *o, const char *v)
{
	out_cell(o, v ? v : "-", js_str, v);
}

void ibrd_out_u64(struct ibrd_out *o, uint64_t v)
{
	char t[24];

	snprintf(t, sizeof(t), "%" PRIu64, v);
	out_cell(o, t, js_u64, &v);
}

void ibrd_out_hex64(struct ibrd_out *o, uint64_t v)
{
	char t[24];

	snprintf(t, sizeof(t), "0x%016" PRIx64, v);
	out_cell(o, t, js_hex64, &v);
}

void ibrd_out_lid(struct ibrd_out *o, uint16_t lid)
{
	char t[8];

	snprintf(t, sizeof(t), "0x%04x", lid);
	ibrd_out_str(o, t);
}

void ibrd_out_prefix(struct ibrd_out *o, uint64_t prefix)
{
	union ibr_gid g = ibr_gid_make(prefix, 0);
	char t[IBR_GID_STRLEN];

	ibrd_out_str(o, prefix ? ibr_gid_ntop(&g, t, sizeof(t)) : NULL);
}

void ibrd_out_time_ms(struct ibrd_out *o, uint64_t ms)
{
	time_t s = (time_t)(ms / 1000);
	char t[40];
	struct tm tm;
	size_t n;

	if (!ms || !gmtime_r(&s, &tm) || !(n = strftime(t, sizeof(t), "%Y-%m-%dT%H:%M:%S", &tm))) {
		ibrd_out_str(o, NULL);
		return;
	}
	snprintf(t + n, sizeof(t) - n, ".%03uZ", (unsigned)(ms % 1000));
	ibrd_out_str(o, t);
}

void ibrd_out_bool(struct ibrd_out *o, bool v)
{
	out_cell(o, v ? "yes" : "no", js_bool, &v);
}

void ibrd_out_printf(struct ibrd_out *o, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	out_append(o, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	if (o->len > PART_ROOM / 2)
		out_flush(o, false);
}

int ibrd_out_end(struct ibrd_out *o)
{
	out_flush(o, true);
	return o->err;
}

static int out_error(struct ibrd_out *o, int err, bool usage, const char *msg)
{
	struct ibr_json j;
	int rc;

	ibr_json_init(&j, IBR_CTL_PART_MAX);
	ibr_json_obj_open(&j, NULL);
	ibr_json_bool(&j, "ok", false);
	ibr_json_str(&j, "error", ibrd_errno_name(err));
	if (usage)
		ibr_json_bool(&j, "usage", true);
	ibr_json_str(&j, "msg", msg);
	ibr_json_close(&j);
	rc = ibr_json_finish(&j) ? -EMSGSIZE : o->emit(o->ctx, j.buf, j.len);
	ibr_json_free(&j);
	o->sent_any = true;
	o->parts++;
	o->err = rc ? rc : (err > 0 ? -err : err);
	return o->err;
}

static int vout_error(struct ibrd_out *o, int err, bool usage, const char *fmt, va_list ap)
{
	char msg[512];
	size_t n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* the client prints "MSG (ERRNO)": no line break before the errno */
	for (n = strlen(msg); n && (msg[n - 1] == '\n' || msg[n - 1] == ' '); n--)
		msg[n - 1] = '\0';
	return out_error(o, err, usage, msg);
}

int ibrd_out_error(struct ibrd_out *o, int err, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vout_error(o, err, false, fmt, ap);
	va_end(ap);
	return rc;
}

int ibrd_out_usage(struct ibrd_out *o, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vout_error(o, EINVAL, true, fmt, ap);
	va_end(ap);
	return rc;
}

static int out_stream_end(struct ibrd_out *o, int rc)
{
	void (*done)(void *) = o->done;
	void *arg = o->arg;

	o->next = NULL;
	o->done = NULL;
	o->arg = NULL;
	if (done)
		done(arg);
	return rc < 0 ? rc : o->err;
}

int ibrd_out_stream(struct ibrd_out *o, ibrd_out_next_fn *next, void (*done)(void *arg), void *arg)
{
	int rc;

	o->next = next;
	o->done = done;
	o->arg = arg;
	if (o->defer)
		return o->err;
	while ((rc = next(o, arg)) > 0 && !o->err)
		;
	return out_stream_end(o, rc);
}

int ibrd_out_pump(struct ibrd_out *o)
{
	uint64_t parts = o->parts;
	int rc = 0;

	while (o->next && o->parts == parts) {
		if ((rc = o->next(o, o->arg)) <= 0 || o->err)
			return out_stream_end(o, rc);
	}
	return o->next ? 1 : 0;
}

static size_t out_escaped_len(unsigned char c)
{
	return c == '\\' ? 2 : c >= 0x20 && c < 0x7f ? 1 : 4;
}

const char *ibrd_out_escape(const char *s, char *buf, size_t size)
{
	size_t n = 0, all = 0, room;

	if (!size)
		return buf;
	for (const char *p = s; p && *p; p++)
		all += out_escaped_len((unsigned char)*p);
	/* all of it, or what fits with "..." after it */
	room = all < size ? size : size > 4 ? size - 3 : 1;
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t k = out_escaped_len(c);

		if (n + k + 1 > room)
			break;
		if (k == 1)
			buf[n] = (char)c;
		else if (k == 2)
			memcpy(buf + n, "\\\\", 2);
		else
			snprintf(buf + n, 5, "\\x%02x", c);
		n += k;
	}
	snprintf(buf + n, size - n, "%s", all < size || size <= 4 ? "" : "...");
	return buf;
}

const char *ibrd_errno_name(int err)
{
	static const struct {
		int e;
		const char *n;
	} names[] = {
		{ EINVAL, "EINVAL" }, { EPERM, "EPERM" },     { ENOENT, "ENOENT" },
		{ EEXIST, "EEXIST" }, { ENOMEM, "ENOMEM" },   { EMSGSIZE, "EMSGSIZE" },
		{ E2BIG, "E2BIG" },   { ENOSPC, "ENOSPC" },   { EBUSY, "EBUSY" },
		{ EIO, "EIO" },	      { ENOTSUP, "ENOTSUP" }, { EACCES, "EACCES" },
		{ ENODEV, "ENODEV" }, { EAGAIN, "EAGAIN" },   { ENOBUFS, "ENOBUFS" },
	};

	if (err < 0)
		err = -err;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == err)
			return names[i].n;
	return "EIO";
}
