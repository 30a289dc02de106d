/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_scan.c - the text of ibrouterd.conf(5) before libconfuse sees
 * it: reading the file, and a scan that follows libconfuse 3.3's lexer
 * (src/lexer.l) closely enough to know where comments, strings and words
 * are.
 *
 * Reading: libconfuse's flex scanner calls exit(2) when a read fails (a
 * directory), and blocks on a FIFO or reads /dev/zero for ever.  So the file
 * is read here, whole, only if stat() says it is a regular file no larger
 * than IBRD_CONF_MAX_BYTES, opened O_NONBLOCK (a FIFO swapped in between
 * cannot block the open, and fstat() refuses it); libconfuse gets the
 * bytes with cfg_parse_buf().
 *
 * The scan refuses what the lexer would take silently:
 *  - a NUL byte (cfg_parse_buf() would stop there) and a NUL written as an
 *    escape in a double-quoted string ("\0", "\x00": the value would end
 *    there);
 *  - a comment or a string that does not end (the lexer ends the file in
 *    it, and the rest of the file is gone);
 *  - ${VAR}: the lexer would replace it with the environment of whoever
 *    runs ibrouterd, and a config must mean the same for everyone;
 *  - a key given twice in one section with "=" (libconfuse keeps the last;
 *    "+=" after it appends, as documented).  The scan sees every statement
 *    with its line, even one that sets an empty list, which libconfuse's
 *    callbacks never see.
 * and blanks every comment (newlines kept): libconfuse 3.3 counts two lines
 * too many for each "#" or "//" comment and one for each block comment, so
 * every message after a comment named the wrong line.
 */
#include "daemon/conf/ibrd_conf.h"
#include "daemon/conf/ibrd_conf_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- reading ---- */

static const char *ibrd_conf_kind(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISSOCK(m) ? "a socket"
			     : "not a file";
}

/* True if st is not a file to read, with why. */
static bool ibrd_conf_unfit(const struct stat *st, char *why, size_t len)
{
	if (!S_ISREG(st->st_mode))
		snprintf(why, len, "not a regular file (%s)", ibrd_conf_kind(st->st_mode));
	else if (st->st_size > IBRD_CONF_MAX_BYTES)
		snprintf(why, len, "larger than %d MiB, the most a config may be",
			 IBRD_CONF_MAX_BYTES >> 20);
	return why[0] != '\0';
}

/* All of fd, NUL-terminated, in *out: its length or -errno (-EFBIG: too large). */
static ssize_t ibrd_conf_read_fd(int fd, size_t hint, char **out)
{
	size_t cap = hint + 1, n = 0;
	char *buf = malloc(cap + 1), *nb;
	ssize_t r;

	while (buf) {
		if (n == cap) { /* it grew since fstat() */
			cap = cap > IBRD_CONF_MAX_BYTES / 2 ? IBRD_CONF_MAX_BYTES + 1 : 2 * cap;
			if (!(nb = realloc(buf, cap + 1)))
				break;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0) {
			buf[n] = '\0';
			*out = buf;
			return (ssize_t)n;
		}
		if (r < 0 || n + (size_t)r > IBRD_CONF_MAX_BYTES) {
			r = r < 0 ? -errno : -EFBIG;
			free(buf);
			return r;
		}
		n += (size_t)r;
	}
	free(buf);
	return -ENOMEM;
}

char *ibrd_conf_read(const char *path, size_t *len, FILE *err)
{
	char why[96] = "";
	struct stat st;
	char *buf = NULL;
	ssize_t n = 0;
	int fd = -1;

	/* stat first: opening a device can have effects (a tape rewinds) */
	if (stat(path, &st) < 0)
		n = -errno;
	else if (!ibrd_conf_unfit(&st, why, sizeof(why)) &&
		 (fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0)
		n = -errno;
	else if (fd >= 0 && fstat(fd, &st) < 0)
		n = -errno;
	else if (fd >= 0 && !ibrd_conf_unfit(&st, why, sizeof(why)))
		n = ibrd_conf_read_fd(fd, (size_t)st.st_size, &buf);
	if (fd >= 0)
		close(fd);
	if (n == -EFBIG)
		snprintf(why, sizeof(why), "larger than %d MiB, the most a config may be",
			 IBRD_CONF_MAX_BYTES >> 20);
	if (!why[0] && n >= 0) {
		*len = (size_t)n;
		return buf;
	}
	if (err)
		fprintf(err, "%s: %s\n", path, why[0] ? why : strerror((int)-n));
	return NULL;
}

/* ---- the scan ---- */

enum ibrd_scan_tok { TOK_STR, TOK_OPEN, TOK_CLOSE, TOK_SET, TOK_APPEND, TOK_OTHER };

/* Where the statement tracker is: libconfuse's parser states, in short. */
enum ibrd_scan_state { AT_START, AT_NAME, AT_TITLE, AT_VALUE, IN_LIST };

#define IBRD_SCAN_DEPTH 8 /* sections within sections tracked (ours never nest) */

struct ibrd_scan_word {
	const char *p;
	size_t n;
	int line;
};

/* An open section: its label and the keys given in it so far. */
struct ibrd_scan_frame {
	char label[IBRD_LABEL_MAX];
	struct ibrd_scan_word *keys;
	size_t n, cap;
};

struct ibrd_scan {
	struct ibrd_conf_ctx *ctx;
	char *s; /* the text, NUL at len */
	size_t len, i;
	int line;
	bool bad; /* refused: libconfuse will not see the text */
	enum ibrd_scan_state state;
	struct ibrd_scan_word name, title;
	unsigned depth;
	struct ibrd_scan_frame frame[IBRD_SCAN_DEPTH];
};

/* A word of the text as a C string, control characters as '?'. */
static void ibrd_scan_cstr(char *buf, size_t size, const struct ibrd_scan_word *w)
{
	size_t n = w->n < size - 1 ? w->n : size - 1;

	if (n)
		memcpy(buf, w->p, n);
	buf[n] = '\0';
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

static void ibrd_scan_push(struct ibrd_scan *sc, bool titled)
{
	char name[IBRD_LABEL_MAX], title[IBRD_LABEL_MAX];
	struct ibrd_scan_frame *f;

	if (++sc->depth >= IBRD_SCAN_DEPTH)
		return;
	f = &sc->frame[sc->depth];
	f->n = 0;
	ibrd_scan_cstr(name, sizeof(name), &sc->name);
	ibrd_scan_cstr(title, sizeof(title), &sc->title);
	ibrd_conf_label(f->label, name, titled ? title : NULL);
}

/* A key set ("=") or appended to ("+="): given twice is an error. */
static void ibrd_scan_key(struct ibrd_scan *sc, bool set)
{
	struct ibrd_scan_frame *f;
	char key[IBRD_LABEL_MAX];

	if (sc->depth >= IBRD_SCAN_DEPTH)
		return;
	f = &sc->frame[sc->depth];
	for (size_t k = 0; k < f->n; k++) {
		if (f->keys[k].n != sc->name.n || memcmp(f->keys[k].p, sc->name.p, sc->name.n))
			continue;
		if (set) {
			size_t nmsg = sc->ctx->nmsg;

			ibrd_scan_cstr(key, sizeof(key), &sc->name);
			ibrd_conf_err(sc->ctx, sc->name.line, f->label, key,
				      "given twice (first at line %d)", f->keys[k].line);
			if (sc->ctx->nmsg > nmsg) /* valid only up to a syntax error */
				sc->ctx->msg[nmsg].scan = true;
		}
		return;
	}
	if (ibrd_conf_grow(&f->keys, sizeof(*f->keys), f->n, &f->cap) < 0) {
		sc->ctx->nomem = true;
		return;
	}
	f->keys[f->n++] = sc->name;
}

/* One token, for the tracker of sections and keys. */
static void ibrd_scan_tok(struct ibrd_scan *sc, enum ibrd_scan_tok t, const char *p, size_t n,
			  int line)
{
	const struct ibrd_scan_word w = { p, n, line };

	if (sc->bad) /* what follows a refused token may not be what it looks like */
		return;
	switch (sc->state) {
	case AT_START:
		if (t == TOK_STR) {
			sc->name = w;
			sc->state = AT_NAME;
		} else if (t == TOK_CLOSE && sc->depth > 0) {
			sc->depth--;
		}
		break;
	case AT_NAME:
		sc->state = AT_START;
		if (t == TOK_SET || t == TOK_APPEND) {
			ibrd_scan_key(sc, t == TOK_SET);
			sc->state = AT_VALUE;
		} else if (t == TOK_STR) {
			sc->title = w;
			sc->state = AT_TITLE;
		} else if (t == TOK_OPEN) {
			ibrd_scan_push(sc, false);
		}
		break;
	case AT_TITLE:
		if (t == TOK_OPEN)
			ibrd_scan_push(sc, true);
		sc->state = AT_START;
		break;
	case AT_VALUE:
		sc->state = t == TOK_OPEN ? IN_LIST : AT_START;
		break;
	case IN_LIST:
		if (t == TOK_CLOSE)
			sc->state = AT_START;
		break;
	}
}

static void ibrd_scan_refuse(struct ibrd_scan *sc, int line, const char *why)
{
	ibrd_conf_err(sc->ctx, line, NULL, NULL, "%s", why);
	sc->bad = true;
}

/* From i to the end of the line, or the end of the comment: blanks. */
static void ibrd_scan_blank(struct ibrd_scan *sc, size_t end)
{
	for (; sc->i < end; sc->i++) {
		if (sc->s[sc->i] == '\n')
			sc->line++;
		else
			sc->s[sc->i] = ' ';
	}
}

static void ibrd_scan_comment(struct ibrd_scan *sc)
{
	const char *end;

	if (sc->s[sc->i] != '/' || sc->s[sc->i + 1] != '*') { /* # or // */
		end = memchr(sc->s + sc->i, '\n', sc->len - sc->i);
		ibrd_scan_blank(sc, end ? (size_t)(end - sc->s) : sc->len);
		return;
	}
	end = memmem(sc->s + sc->i + 2, sc->len - sc->i - 2, "*/", 2);
	if (!end) {
		ibrd_scan_refuse(sc, sc->line,
				 "unterminated comment: no */ after this /* (the rest of the "
				 "file would be ignored)");
		sc->i = sc->len;
		return;
	}
	ibrd_scan_blank(sc, (size_t)(end - sc->s) + 2);
}

static unsigned ibrd_scan_digit(char c, unsigned base)
{
	unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
		     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
		     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
					    : 99;

	return d < base ? d : 99;
}

/*
 * The escape at s[j] (a backslash) in a double-quoted string: its length.
 * The lexer reads \ and 1 to 3 octal digits (unless more digits follow),
 * \x and 1 or 2 hex digits, and \ before any other character as that
 * character.
 */
static size_t ibrd_scan_escape(struct ibrd_scan *sc, size_t j)
{
	const char *e = sc->s + j + 1;
	unsigned v = 0;
	size_t nd = 0, no = 0;

	if (*e == 'x' && ibrd_scan_digit(e[1], 16) < 16) {
		for (nd = 1; nd <= 2 && ibrd_scan_digit(e[nd], 16) < 16; nd++)
			v = v * 16 + ibrd_scan_digit(e[nd], 16);
		if (!v)
			ibrd_scan_refuse(sc, sc->line,
					 "a NUL character (\\x0) in a string would end it there");
		return 1 + nd;
	}
	while (ibrd_scan_digit(e[nd], 10) < 10)
		nd++;
	while (no < nd && ibrd_scan_digit(e[no], 8) < 8)
		v = v * 8 + ibrd_scan_digit(e[no++], 8);
	if (nd && nd == no && nd <= 3 && !v)
		ibrd_scan_refuse(sc, sc->line,
				 "a NUL character (\\0) in a string would end it there");
	if (*e == '\n')
		sc->line++;
	return 1 + (nd ? nd : *e ? 1 : 0);
}

static void ibrd_scan_env(struct ibrd_scan *sc)
{
	ibrd_scan_refuse(sc, sc->line,
			 "${ is not expanded: a config does not read the environment (for the "
			 "characters, write \"\\${\" or '${')");
}

/* The string that starts at i (a quote): a TOK_STR of what is between the quotes. */
static void ibrd_scan_string(struct ibrd_scan *sc)
{
	char q = sc->s[sc->i];
	size_t j = sc->i + 1;
	int line = sc->line;

	while (j < sc->len && sc->s[j] != q) {
		if (sc->s[j] == '\n') {
			sc->line++;
			j++;
		} else if (sc->s[j] == '\\' && j + 1 < sc->len) {
			if (q == '"') {
				j += ibrd_scan_escape(sc, j);
				continue;
			}
			sc->line += sc->s[j + 1] == '\n';
			j += 2;
		} else if (q == '"' && sc->s[j] == '$' && sc->s[j + 1] == '{') {
			ibrd_scan_env(sc);
			j += 2;
		} else {
			j++;
		}
	}
	if (j >= sc->len) {
		ibrd_scan_refuse(sc, line,
				 q == '"' ? "unterminated string: no \" after this one (the rest "
					    "of the file would be ignored)"
					  : "unterminated string: no ' after this one (the rest "
					    "of the file would be ignored)");
		sc->i = sc->len;
		return;
	}
	ibrd_scan_tok(sc, TOK_STR, sc->s + sc->i + 1, j - sc->i - 1, line);
	sc->i = j + 1;
}

/* What ends a word (the lexer's unquoted string); NUL cannot occur. */
static bool ibrd_scan_stop(char c)
{
	return strchr(" #\"'\t\n\r={}()+,*", c) != NULL;
}

/* One token or blank at i. */
static void ibrd_scan_step(struct ibrd_scan *sc)
{
	const char *s = sc->s + sc->i;
	size_t n = 1;

	switch (*s) {
	case '\n':
		sc->line++;
		break;
	case ' ':
	case '\t':
	case '\r':
	case '*': /* the lexer drops a '*' or '+' that starts no token */
		break;
	case '#':
		ibrd_scan_comment(sc);
		return;
	case '"':
	case '\'':
		ibrd_scan_string(sc);
		return;
	case '{':
		ibrd_scan_tok(sc, TOK_OPEN, s, 1, sc->line);
		break;
	case '}':
		ibrd_scan_tok(sc, TOK_CLOSE, s, 1, sc->line);
		break;
	case '=':
		ibrd_scan_tok(sc, TOK_SET, s, 1, sc->line);
		break;
	case '+':
		if (s[1] == '=') {
			ibrd_scan_tok(sc, TOK_APPEND, s, 2, sc->line);
			n = 2;
		}
		break;
	case '(':
	case ')':
	case ',':
		ibrd_scan_tok(sc, TOK_OTHER, s, 1, sc->line);
		break;
	default:
		/* a word; at its start "//" and "/ *" open comments, "${" the environment */
		if (s[0] == '/' && (s[1] == '/' || s[1] == '*')) {
			ibrd_scan_comment(sc);
			return;
		}
		if (s[0] == '$' && s[1] == '{')
			ibrd_scan_env(sc);
		while (sc->i + n < sc->len && !ibrd_scan_stop(s[n]))
			n++;
		ibrd_scan_tok(sc, TOK_STR, s, n, sc->line);
	}
	sc->i += n;
}

bool ibrd_conf_scan(struct ibrd_conf_ctx *ctx, char *text, size_t len)
{
	struct ibrd_scan sc = { .ctx = ctx, .s = text, .len = len, .line = 1 };
	const char *nul = memchr(text, '\0', len);

	if (nul) {
		sc.len = (size_t)(nul - text);
		while (sc.i < sc.len)
			sc.line += text[sc.i++] == '\n';
		ibrd_scan_refuse(&sc, sc.line, "a NUL byte (a config file is text)");
		return false;
	}
	while (sc.i < sc.len)
		ibrd_scan_step(&sc);
	/* the last line, for what is missing at the end */
	ctx->end_line = sc.line - (len && text[len - 1] == '\n' && sc.line > 1);
	for (unsigned d = 0; d < IBRD_SCAN_DEPTH; d++)
		free(sc.frame[d].keys);
	return !sc.bad;
}
