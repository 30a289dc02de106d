/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_json.h - a small JSON emitter for the control protocol (emit only; the
 * project never parses JSON).  Output is always valid UTF-8 JSON: strings from
 * the fabric (node descriptions) may hold any bytes, and invalid UTF-8 is
 * replaced by U+FFFD.  Errors (allocation, nesting, a value where a key is
 * needed) are sticky: ibr_json_finish() reports the first one.
 */
#ifndef IBR_JSON_H
#define IBR_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IBR_JSON_MAX_DEPTH 32

struct ibr_json {
	char *buf;
	size_t len;
	size_t cap;
	size_t limit; /* hard cap on output size; 0 = none */
	int err;      /* first error, -errno */
	int depth;
	bool first[IBR_JSON_MAX_DEPTH]; /* no member written yet at this depth */
	bool is_obj[IBR_JSON_MAX_DEPTH];
};

/* `limit` bounds the output (0: unbounded); exceeding it sets -EMSGSIZE. */
void ibr_json_init(struct ibr_json *j, size_t limit);
void ibr_json_free(struct ibr_json *j);
/* Forget the output but keep the buffer, for the next document. */
void ibr_json_reset(struct ibr_json *j);

/*
 * In an object every call names its member with `key`; in an array (or at
 * the top level) `key` must be NULL.
 */
void ibr_json_obj_open(struct ibr_json *j, const char *key);
void ibr_json_arr_open(struct ibr_json *j, const char *key);
void ibr_json_close(struct ibr_json *j);
void ibr_json_str(struct ibr_json *j, const char *key, const char *val);
void ibr_json_strn(struct ibr_json *j, const char *key, const char *val, size_t n);
void ibr_json_u64(struct ibr_json *j, const char *key, uint64_t val);
void ibr_json_i64(struct ibr_json *j, const char *key, int64_t val);
void ibr_json_dbl(struct ibr_json *j, const char *key, double val); /* NaN/inf -> null */
void ibr_json_bool(struct ibr_json *j, const char *key, bool val);
void ibr_json_null(struct ibr_json *j, const char *key);
/* A 64-bit value as "0x%016llx", the form operators read GUIDs in. */
void ibr_json_hex64(struct ibr_json *j, const char *key, uint64_t val);

/*
 * Ends the document: 0 and a NUL-terminated j->buf of j->len bytes, or the
 * first error (-EINVAL for misuse or unclosed containers, -ENOMEM, -EMSGSIZE).
 */
int ibr_json_finish(struct ibr_json *j);

#endif
