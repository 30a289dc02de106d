/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * exporter_scrape.h - one scrape: the daemon's Prometheus answers to the
 * commands that have that form, joined into one exposition, with
 * ibrouter_up and the scrape's own figures after them.
 */
#ifndef EXPORTER_SCRAPE_H
#define EXPORTER_SCRAPE_H

#include <stddef.h>

struct exporter_body {
	char *buf; /* malloc'd, NUL-terminated */
	size_t len, cap;
};

/*
 * Scrape ibrouterd at control socket `sock` into b (emptied first), each
 * command's reads timing out after timeout_s.  0, or -ENOMEM (b is then
 * empty).  A daemon that is not there or does not answer is no error: the
 * exposition says ibrouter_up 0.
 */
int exporter_scrape_run(const char *sock, int timeout_s, struct exporter_body *b);
void exporter_body_free(struct exporter_body *b);

#endif
