/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_util.c - what the control commands share, wherever they live
 * (ibrd_cmd*.c, and the adapters' own show commands): the port argument and
 * the answer of a change, which says what was done.
 */
#include "daemon/ibrd.h"
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_out.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int ibrd_cmd_port(struct ibrd *d, struct ibrd_out *o, const char *name)
{
	int p = router_rib_port_find(&d->rib, name);
	char esc[64];

	if (p < 0)
		ibrd_out_error(o, ENOENT, "no port '%s'", ibrd_out_escape(name, esc, sizeof(esc)));
	return p;
}

void ibrd_cmd_done_begin(struct ibrd_out *o, const char *const *cols, unsigned ncols,
			 const char *msg)
{
	if (o->fmt != IBRD_FMT_JSON) {
		/* the sentence alone; the caller's cells go nowhere (no columns) */
		ibrd_out_printf(o, "%s\n", msg);
		return;
	}
	ibrd_out_object(o, cols, ncols);
	ibrd_out_bool(o, true);
	ibrd_out_str(o, msg);
}

int ibrd_cmd_done(struct ibrd_out *o, const char *fmt, ...)
{
	static const char *const cols[] = { "done", "message" };
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ibrd_cmd_done_begin(o, cols, 2, msg);
	return ibrd_out_end(o);
}
