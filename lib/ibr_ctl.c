/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_ctl.c - control-protocol request splitting and reply envelope reading. */
#include "lib/ibr_ctl.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool ctl_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int ibr_ctl_split(char *line, char **argv, int max)
{
	char *r = line, *w = line; /* words are rewritten in place: w never passes r */
	int n = 0;

	for (;;) {
		while (ctl_blank(*r))
			r++;
		if (!*r)
			return n;
		if (n == max)
			return -E2BIG;
		argv[n++] = w;
		while (*r && !ctl_blank(*r)) {
			if ((unsigned char)*r < 0x20 || *r == 0x7F)
				return -EINVAL;
			if (*r != '"') {
				*w++ = *r++;
				continue;
			}
			for (r++; *r != '"'; r++) {
				if (*r == '\\' && r[1])
					r++;
				/* a backslash does not let a control character in either */
				if (!*r || (unsigned char)*r < 0x20 || *r == 0x7F)
					return -EINVAL;
				*w++ = *r;
			}
			r++;
		}
		if (*r)
			r++; /* the blank that ended the word; w may write over it */
		*w++ = '\0';
	}
}

struct scan {
	const char *p, *end;
};

static void sc_ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' || *s->p == '\t' || *s->p == '\r'))
		s->p++;
}

static int sc_hex4(const char *p, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];

		*v <<= 4;
		if (c >= '0' && c <= '9')
			*v |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*v |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*v |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static size_t sc_utf8(char *o, uint32_t cp)
{
	if (cp < 0x80)
		return o[0] = (char)cp, 1;
	if (cp < 0x800)
		return o[0] = (char)(0xC0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3F)), 2;
	o[0] = (char)(0xE0 | cp >> 12);
	o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
	o[2] = (char)(0x80 | (cp & 0x3F));
	return 3;
}

/* A string at s->p (on its opening quote); decoded into *out when out != NULL. */
static int sc_string(struct scan *s, char **out)
{
	const char *p = ++s->p;
	char *o = NULL;
	size_t n = 0;

	if (out && !(o = malloc((size_t)(s->end - p) + 1)))
		return -ENOMEM;
	for (; p < s->end && *p != '"'; p++) {
		char c = *p;
		uint32_t cp;

		if ((unsigned char)c < 0x20)
			goto bad;
		if (c == '\\') {
			if (++p >= s->end)
				goto bad;
			switch (*p) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'r':
				c = '\r';
				break;
			case 'b':
				c = '\b';
				break;
			case 'f':
				c = '\f';
				break;
			case '"':
			case '\\':
			case '/':
				c = *p;
				break;
			case 'u':
				/* surrogate pairs are kept as two 3-byte sequences: we only print */
				if (s->end - p < 5 || sc_hex4(p + 1, &cp))
					goto bad;
				p += 4;
				if (o)
					n += sc_utf8(o + n, cp);
				continue;
			default:
				goto bad;
			}
		}
		if (o)
			o[n++] = c;
	}
	if (p >= s->end)
		goto bad;
	s->p = p + 1;
	if (o) {
		o[n] = '\0';
		*out = o;
	}
	return 0;
bad:
	free(o);
	return -EBADMSG;
}

/* Skip any JSON value (depth-limited, no recursion). */
static int sc_skip(struct scan *s)
{
	int depth = 0;

	do {
		sc_ws(s);
		if (s->p >= s->end)
			return -EBADMSG;
		if (*s->p == '"') {
			if (sc_string(s, NULL))
				return -EBADMSG;
		} else if (*s->p == '{' || *s->p == '[') {
			if (++depth > 64)
				return -EBADMSG;
			s->p++;
		} else if (*s->p == '}' || *s->p == ']') {
			if (--depth < 0)
				return -EBADMSG;
			s->p++;
		} else if (*s->p == ',' || *s->p == ':') {
			if (depth == 0)
				return -EBADMSG;
			s->p++;
		} else {
			const char *q = s->p;

			while (s->p < s->end && strchr("{}[],: \t\r\n\"", *s->p) == NULL)
				s->p++;
			if (q == s->p)
				return -EBADMSG;
		}
	} while (depth > 0);
	return 0;
}

static bool sc_lit(struct scan *s, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
		return false;
	s->p += n;
	return true;
}

/* One member value of interest, or skip it. */
static int reply_member(struct scan *s, const char *key, size_t klen, struct ibr_ctl_reply *r)
{
	const char *v = s->p;
	char *str = NULL;
	int rc;

	if ((klen == 2 && !memcmp(key, "ok", 2)) || (klen == 4 && !memcmp(key, "more", 4)) ||
	    (klen == 5 && !memcmp(key, "usage", 5))) {
		bool *b = klen == 2 ? &r->ok : klen == 4 ? &r->more : &r->usage;

		if (sc_lit(s, "true"))
			*b = true;
		else if (sc_lit(s, "false"))
			*b = false;
		else
			return -EBADMSG;
		return 0;
	}
	if (klen == 4 && !memcmp(key, "data", 4)) {
		if ((rc = sc_skip(s)))
			return rc;
		r->data = v;
		r->data_len = (size_t)(s->p - v);
		return 0;
	}
	if (*s->p != '"')
		return sc_skip(s);
	if ((rc = sc_string(s, &str)))
		return rc;
	if (klen == 5 && !memcmp(key, "error", 5)) {
		strncpy(r->error, str, sizeof(r->error) - 1);
		free(str);
	} else if (klen == 3 && !memcmp(key, "msg", 3) && !r->msg) {
		r->msg = str;
	} else if (klen == 4 && !memcmp(key, "text", 4) && !r->text) {
		r->text = str;
	} else {
		free(str);
	}
	return 0;
}

int ibr_ctl_reply_parse(const char *buf, size_t len, struct ibr_ctl_reply *r)
{
	struct scan s = { buf, buf + len };
	int rc = -EBADMSG, members = 0;

	memset(r, 0, sizeof(*r));
	sc_ws(&s);
	if (s.p >= s.end || *s.p++ != '{')
		return -EBADMSG;
	for (;;) {
		const char *key;
		size_t klen;

		sc_ws(&s);
		if (s.p < s.end && *s.p == '}' && members == 0)
			break; /* {} */
		if (s.p >= s.end || *s.p != '"')
			goto bad;
		key = s.p + 1;
		if (sc_string(&s, NULL))
			goto bad;
		klen = (size_t)(s.p - 1 - key);
		sc_ws(&s);
		if (s.p >= s.end || *s.p++ != ':')
			goto bad;
		sc_ws(&s);
		if (s.p >= s.end || (rc = reply_member(&s, key, klen, r)))
			goto bad;
		members++;
		sc_ws(&s);
		if (s.p < s.end && *s.p == ',') {
			s.p++;
			continue;
		}
		if (s.p < s.end && *s.p == '}')
			break;
		rc = -EBADMSG;
		goto bad;
	}
	s.p++;
	sc_ws(&s);
	if (s.p == s.end)
		return 0;
	rc = -EBADMSG;
bad:
	ibr_ctl_reply_free(r);
	return rc ? rc : -EBADMSG;
}

void ibr_ctl_reply_free(struct ibr_ctl_reply *r)
{
	free(r->msg);
	free(r->text);
	memset(r, 0, sizeof(*r));
}
