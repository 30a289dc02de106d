/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_fix.h - a daemon without its loop, for the tests and benchmarks that
 * drive the tail of a turn or the SMA over the daemon's own functions
 * (ibrd_sync_test.c, port/ibrd_sma_test.c, tests/bench/bench_churn.c).
 */
#ifndef IBRD_FIX_H
#define IBRD_FIX_H

#include "daemon/ibrd.h"

/*
 * Config text `conf` (`name` in its messages) loaded, the rooms made, an
 * epoll set, a publisher for one worker, the config's state in the RIB;
 * NULL when any of it fails.
 */
struct ibrd *ibrd_fix_new(const char *conf, const char *name);
/* All of it, and the SMA if one was started. */
void ibrd_fix_free(struct ibrd *d);

#endif
