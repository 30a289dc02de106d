/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_json.c - JSON emitter (RFC 8259) for control-socket replies. */
#include "lib/ibr_json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ibr_json_init(struct ibr_json *j, size_t limit)
{
	memset(j, 0, sizeof(*j));
	j->limit = limit;
	j->first[0] = true;
}

void ibr_json_free(struct ibr_json *j)
{
	free(j->buf);
	ibr_json_init(j, j->limit);
}

void ibr_json_reset(struct ibr_json *j)
{
	char *buf = j->buf;
	size_t cap = j->cap, limit = j->limit;

	ibr_json_init(j, limit);
	j->buf = buf;
	j->cap = cap;
}

static void json_fail(struct ibr_json *j, int err)
{
	if (!j->err)
		j->err = err;
}

/* Room for n more bytes plus the terminating NUL. */
static bool json_reserve(struct ibr_json *j, size_t n)
{
	size_t need, cap;
	char *p;

	if (j->err)
		return false;
	if (n > SIZE_MAX / 2 - j->len) {
		json_fail(j, -EMSGSIZE);
		return false;
	}
	need = j->len + n + 1;
	if (j->limit && need > j->limit + 1) {
		json_fail(j, -EMSGSIZE);
		return false;
	}
	if (need <= j->cap)
		return true;
	cap = j->cap ? j->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(j->buf, cap);
	if (!p) {
		json_fail(j, -ENOMEM);
		return false;
	}
	j->buf = p;
	j->cap = cap;
	return true;
}

static void json_put(struct ibr_json *j, const char *s, size_t n)
{
	if (!json_reserve(j, n))
		return;
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void json_putc(struct ibr_json *j, char c)
{
	json_put(j, &c, 1);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t json_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	/* overlong forms, UTF-16 surrogates and code points past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

static void json_quoted(struct ibr_json *j, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	json_putc(j, '"');
	while (i < n && !j->err) {
		unsigned char c = s[i];
		size_t l;
		char esc[8];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			json_put(j, esc, 2);
			i++;
		} else if (c < 0x20 || c == 0x7F) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			json_put(j, esc, 6);
			i++;
		} else if ((l = json_utf8_len(s + i, n - i)) == 0) {
			json_put(j, "\xEF\xBF\xBD", 3); /* U+FFFD */
			i++;
		} else {
			json_put(j, str + i, l);
			i += l;
		}
	}
	json_putc(j, '"');
}

/* Separator and key before a value; false on misuse. */
static bool json_member(struct ibr_json *j, const char *key)
{
	bool in_obj = j->depth > 0 && j->is_obj[j->depth];

	if (j->err)
		return false;
	if (in_obj != (key != NULL) || (j->depth == 0 && !j->first[0])) {
		json_fail(j, -EINVAL);
		return false;
	}
	if (!j->first[j->depth])
		json_putc(j, ',');
	j->first[j->depth] = false;
	if (key) {
		json_quoted(j, key, strlen(key));
		json_putc(j, ':');
	}
	return !j->err;
}

static void json_open(struct ibr_json *j, const char *key, bool obj)
{
	if (!json_member(j, key))
		return;
	if (j->depth + 1 >= IBR_JSON_MAX_DEPTH) {
		json_fail(j, -EINVAL);
		return;
	}
	j->depth++;
	j->first[j->depth] = true;
	j->is_obj[j->depth] = obj;
	json_putc(j, obj ? '{' : '[');
}

void ibr_json_obj_open(struct ibr_json *j, const char *key)
{
	json_open(j, key, true);
}

void ibr_json_arr_open(struct ibr_json *j, const char *key)
{
	json_open(j, key, false);
}

void ibr_json_close(struct ibr_json *j)
{
	if (j->err)
		return;
	if (j->depth == 0) {
		json_fail(j, -EINVAL);
		return;
	}
	json_putc(j, j->is_obj[j->depth] ? '}' : ']');
	j->depth--;
}

void ibr_json_strn(struct ibr_json *j, const char *key, const char *val, size_t n)
{
	if (json_member(j, key))
		json_quoted(j, val, n);
}

void ibr_json_str(struct ibr_json *j, const char *key, const char *val)
{
	if (!val)
		ibr_json_null(j, key);
	else
		ibr_json_strn(j, key, val, strlen(val));
}

static void json_raw(struct ibr_json *j, const char *key, const char *text)
{
	if (json_member(j, key))
		json_put(j, text, strlen(text));
}

void ibr_json_u64(struct ibr_json *j, const char *key, uint64_t val)
{
	char t[24];

	snprintf(t, sizeof(t), "%" PRIu64, val);
	json_raw(j, key, t);
}

void ibr_json_i64(struct ibr_json *j, const char *key, int64_t val)
{
	char t[24];

	snprintf(t, sizeof(t), "%" PRId64, val);
	json_raw(j, key, t);
}

void ibr_json_dbl(struct ibr_json *j, const char *key, double val)
{
	char t[32];

	if (!isfinite(val)) {
		json_raw(j, key, "null");
		return;
	}
	snprintf(t, sizeof(t), "%.17g", val);
	json_raw(j, key, t);
}

void ibr_json_bool(struct ibr_json *j, const char *key, bool val)
{
	json_raw(j, key, val ? "true" : "false");
}

void ibr_json_null(struct ibr_json *j, const char *key)
{
	json_raw(j, key, "null");
}

void ibr_json_hex64(struct ibr_json *j, const char *key, uint64_t val)
{
	char t[24];

	snprintf(t, sizeof(t), "0x%016" PRIx64, val);
	if (json_member(j, key))
		json_quoted(j, t, strlen(t));
}

int ibr_json_finish(struct ibr_json *j)
{
	if (j->err)
		return j->err;
	if (j->depth != 0 || j->first[0])
		return -EINVAL;
	return 0;
}
