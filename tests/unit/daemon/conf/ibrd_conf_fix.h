/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_fix.h - what the config's tests share (ibrd_conf_test.c,
 * ibrd_conf_feed_test.c): a config loaded from a text with its messages,
 * its normalised print, and the round trip through that print.
 */
#ifndef IBRD_CONF_FIX_H
#define IBRD_CONF_FIX_H

#include "daemon/conf/ibrd_conf.h"

#include <stdbool.h>

/* A router with two sim ports, ib and r. */
#define TWO_PORTS                                                       \
	"router { node-guid = 0x1 }\n"                                  \
	"port \"ib\" { data = sim sim-socket = x sim-peer = y lid = 1"  \
	" subnet-prefix = \"fec0:0:0:1::\" }\n"                         \
	"port \"r\" { data = sim sim-socket = x2 sim-peer = y2 lid = 1" \
	" subnet-prefix = \"fec0:0:0:2::\" }\n"

/* ibrd_conf_print() of c with its secrets, a string to free. */
char *print_conf(const struct ibrd_conf *c);
/* Load `text` (file name t.conf), the messages in *errs (to free). */
struct ibrd_conf *load_text(const char *text, char **errs);
/* The same, with any message printed: NULL when it has one. */
struct ibrd_conf *load_ok(const char *text);
/* Print c, parse that: an equal config that prints the same. */
bool round_trip(const struct ibrd_conf *c, const char *what);

#endif
