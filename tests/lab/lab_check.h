/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * lab_check.h - the check reporting of the lab's C programs (mad_lab_client,
 * sma_diff): one "ok - ..." or "FAIL - ..." line per check, as the lab's
 * shell scripts print them, and the counts at the end.
 */
#ifndef LAB_CHECK_H
#define LAB_CHECK_H

#include "lib/ibr_log.h" /* IBR_PRINTF */

#include <stdbool.h>

/* Prints the check's line (flushed at once: the lab interleaves outputs) and counts it. */
void lab_check(bool ok, const char *fmt, ...) IBR_PRINTF(2, 3);
/* Prints "client: N passed, N failed"; returns the failures. */
int lab_check_report(void);

#endif
