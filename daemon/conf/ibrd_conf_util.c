/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_util.c - what the config's readers share (ibrd_conf.c, the
 * scanner ibrd_conf_scan.c, the cross-checks ibrd_conf_check.c, one entry
 * from words ibrd_conf_entry.c): messages that name file, line, section and
 * key, growing arrays, section labels;
 * and a port's index by name, which the daemon asks of any config.
 */
#include "daemon/conf/ibrd_conf.h"
#include "daemon/conf/ibrd_conf_entry.h"
#include "daemon/conf/ibrd_conf_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The pointer goes through memcpy so that any T ** can be passed. */
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
	size_t n;
	va_list ap;

	if (ctx->entry) {
		/* the first message is the entry's refusal; the caller says where */
		if (!ctx->nmsg++) {
			ctx->entry->key = key;
			va_start(ap, fmt);
			vsnprintf(ctx->entry->why, sizeof(ctx->entry->why), fmt, ap);
			va_end(ap);
		}
		return;
	}
	if (line > 0)
		snprintf(text, sizeof(text), "%s:%d: ", ctx->file, line);
	else
		snprintf(text, sizeof(text), "%s: ", ctx->file);
	n = strlen(text);
	if (label && *label)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s: ", label);
	if (key && n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s: ", key);
	va_start(ap, fmt);
	if (n < sizeof(text))
		vsnprintf(text + n, sizeof(text) - n, fmt, ap);
	va_end(ap);
	if (ibrd_conf_grow(&ctx->msg, sizeof(*ctx->msg), ctx->nmsg, &ctx->msg_cap) < 0 ||
	    !(ctx->msg[ctx->nmsg].text = strdup(text))) {
		ctx->nomem = true;
		return;
	}
	ctx->msg[ctx->nmsg].line = line;
	ctx->msg[ctx->nmsg].seq = (unsigned)ctx->nmsg;
	ctx->msg[ctx->nmsg].scan = false;
	ctx->nmsg++;
}

/* Control characters in titles become '?'. */
void ibrd_conf_label(char *buf, const char *name, const char *title)
{
	if (!name)
		buf[0] = '\0';
	else if (!title)
		snprintf(buf, IBRD_LABEL_MAX, "%s", name);
	else
		snprintf(buf, IBRD_LABEL_MAX, "%s \"%s\"", name, title);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

int ibrd_conf_port_index(const struct ibrd_conf *c, const char *name)
{
	for (unsigned i = 0; i < c->nports; i++)
		if (strcmp(c->port[i].name, name) == 0)
			return (int)i;
	return -1;
}
