/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_out.h - how a control command writes its answer, independent of the
 * format the client asked for: JSON rows (the protocol's "data"), aligned
 * text tables, or Prometheus text.  Long answers are cut into parts of at
 * most IBR_CTL_PART_MAX bytes, each a complete datagram handed to `emit`.
 * A long table can be a stream (ibrd_out_stream): its rows are made part by
 * part as the client reads, from a snapshot the command took.
 */
#ifndef IBRD_OUT_H
#define IBRD_OUT_H

#include "lib/ibr_json.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ibrd_fmt { IBRD_FMT_JSON, IBRD_FMT_TEXT, IBRD_FMT_PROM };

#define IBRD_OUT_COLS 32 /* the widest table: show verbs, 26; wider ones are refused */

struct ibrd_out;
/*
 * A stream's producer: writes some of the answer (a row, say) and returns 1
 * while more is to come, or ends the answer (ibrd_out_end) and returns 0,
 * or returns -errno.
 */
typedef int ibrd_out_next_fn(struct ibrd_out *o, void *arg);

struct ibrd_out {
	enum ibrd_fmt fmt;
	int (*emit)(void *ctx, const char *buf, size_t len); /* 0 or -errno */
	void *ctx;
	/* the client may change state and see secrets (set by ibrd_cmd_run) */
	bool privileged;
	int err;       /* first error: no more output after it */
	bool sent_any; /* a part went out: errors must now be parts too */
	bool object;   /* the answer is one object, not a list */
	unsigned ncols;
	const char *cols[IBRD_OUT_COLS];
	unsigned col;	     /* next cell of the current row */
	struct ibr_json row; /* JSON: the row being built */
	char *body;	     /* JSON rows joined / text lines of this part */
	size_t len, cap;
	unsigned nrows; /* rows in this part */
	char **cells;	/* text: cells of this part, row-major */
	size_t ncells, capcells;
	uint64_t parts; /* parts handed to emit so far */
	/* the sink pumps streams (ibrd_out_pump) rather than running them whole */
	bool defer;
	ibrd_out_next_fn *next; /* the stream in progress, else NULL */
	void (*done)(void *arg);
	void *arg;
};

void ibrd_out_init(struct ibrd_out *o, enum ibrd_fmt fmt,
		   int (*emit)(void *ctx, const char *buf, size_t len), void *ctx);
void ibrd_out_free(struct ibrd_out *o);

/* Start the answer: a list of rows, or one object, with these columns. */
void ibrd_out_table(struct ibrd_out *o, const char *const *cols, unsigned ncols);
void ibrd_out_object(struct ibrd_out *o, const char *const *cols, unsigned ncols);
/* Cells, in column order; a row ends when every column has its cell. */
void ibrd_out_str(struct ibrd_out *o, const char *v);
void ibrd_out_u64(struct ibrd_out *o, uint64_t v);
void ibrd_out_hex64(struct ibrd_out *o, uint64_t v);
void ibrd_out_bool(struct ibrd_out *o, bool v);
/*
 * One number format in every answer, as infiniband-diags print them: a LID in hex ("0x0010"),
 * a subnet prefix as a GID ("fec0:0:0:1::", absent when 0), a wall-clock time in ISO 8601, UTC,
 * to the millisecond ("2026-12-02T06:41:07.123Z", absent when 0: never).
 */
void ibrd_out_lid(struct ibrd_out *o, uint16_t lid);
void ibrd_out_prefix(struct ibrd_out *o, uint64_t prefix);
void ibrd_out_time_ms(struct ibrd_out *o, uint64_t epoch_ms);
/* Free text (Prometheus exposition, or a message in text mode). */
void ibrd_out_printf(struct ibrd_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The last part ({"ok":true,...}); returns the first error of the answer. */
int ibrd_out_end(struct ibrd_out *o);
/* An error answer: {"ok":false,"error":<errno name of err>,"msg":...}. */
int ibrd_out_error(struct ibrd_out *o, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A refusal for the request's form (EINVAL, "usage":true): its message is a usage text, and
 * ibrouterctl exits 2 on it, as on its own usage errors.
 */
int ibrd_out_usage(struct ibrd_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The rest of the answer comes from `next` (see ibrd_out_next_fn); `done`
 * frees `arg` once the stream ends or is abandoned.  Unless the sink defers
 * streams, it runs to its end here.  Returns the answer's error so far.
 */
int ibrd_out_stream(struct ibrd_out *o, ibrd_out_next_fn *next, void (*done)(void *arg), void *arg);
/* The sink's side: run the stream until one more part is out: 1, or 0 at its end, or -errno. */
int ibrd_out_pump(struct ibrd_out *o);

/*
 * Request text that a reply or a log line repeats (a word, a port name):
 * printable ASCII as it is, a backslash doubled, every other byte (control
 * characters, newlines, DEL, bytes from 0x80 up) as \xNN, and "..." at the
 * end when it does not fit `size`.  Returns buf.
 */
const char *ibrd_out_escape(const char *s, char *buf, size_t size);

/* "EINVAL" for -EINVAL / EINVAL. */
const char *ibrd_errno_name(int err);

#endif
