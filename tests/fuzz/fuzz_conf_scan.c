/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_conf_scan.c - libFuzzer target for the scan of ibrouterd.conf(5)
 * text before libconfuse sees it (daemon/conf/ibrd_conf_scan.c): any
 * bytes, NULs included.  The scan must stay inside the text and change it
 * only by blanking comments: every byte is the one it was or a blank, and
 * every newline stays where it was (libconfuse's line numbers depend on it).
 * The rest of the config code (and libconfuse) is not linked: the three
 * helpers the scan calls are stand-ins here.
 */
#include "daemon/conf/ibrd_conf_scan.c"

#include <stdarg.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int ibrd_conf_grow(void *pp, size_t size, size_t n, size_t *cap)
{
	size_t ncap = *cap ? 2 * *cap : 16;
	void *p, *q;

	if (n < *cap)
		return 0;
	memcpy(&p, pp, sizeof(p));
	q = realloc(p, ncap * size);
	if (!q)
		return -ENOMEM;
	memcpy(pp, &q, sizeof(q));
	*cap = ncap;
	return 0;
}

void ibrd_conf_err(struct ibrd_conf_ctx *ctx, int line, const char *label, const char *key,
		   const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	if (line < 1 || (label && strlen(label) >= IBRD_LABEL_MAX))
		abort();
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	(void)key;
	if (ibrd_conf_grow(&ctx->msg, sizeof(*ctx->msg), ctx->nmsg, &ctx->msg_cap) < 0) {
		ctx->nomem = true;
		return;
	}
	ctx->msg[ctx->nmsg].line = line;
	ctx->msg[ctx->nmsg].scan = false;
	ctx->msg[ctx->nmsg++].text = NULL;
}

void ibrd_conf_label(char *buf, const char *name, const char *title)
{
	if (!name)
		buf[0] = '\0';
	else if (!title)
		snprintf(buf, IBRD_LABEL_MAX, "%s", name);
	else
		snprintf(buf, IBRD_LABEL_MAX, "%s \"%s\"", name, title);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibrd_conf_ctx ctx = { .file = "fuzz.conf" };
	char *text = malloc(size + 1);
	bool ok;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	ok = ibrd_conf_scan(&ctx, text, size);
	for (size_t i = 0; i < size; i++) {
		if (data[i] == '\n' ? text[i] != '\n' : text[i] != (char)data[i] && text[i] != ' ')
			abort();
	}
	if (text[size] != '\0' || (ok && memchr(data, '\0', size)) || (!ok && !ctx.nmsg))
		abort();
	free(ctx.msg);
	free(text);
	return 0;
}
