/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * lab_mad.h - what the lab's MAD clients share (mad_lab_client.c,
 * sma_diff.c, sr_lab_client.c): a request's answer, and the daemon's loop
 * in miniature to wait for it.
 */
#ifndef LAB_MAD_H
#define LAB_MAD_H

#include "mad/mad_chan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The answer to one request: its status and the MAD (an RMPP one whole, up to 4 KiB). */
struct lab_mad_result {
	bool done;
	int status;
	size_t len;
	uint8_t mad[4096];
};

/* A mad_chan result callback: into the struct lab_mad_result `arg`. */
void lab_mad_on_result(struct mad_chan *c, const struct mad_chan_result *r, void *arg);
/* Poll the channel with its timeout until *done (NULL: never) or max_ms passed. */
void lab_mad_run_until(struct mad_chan *c, const bool *done, unsigned int max_ms);

#endif
