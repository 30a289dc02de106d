/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* lab_check.c - see lab_check.h. */
#include "tests/lab/lab_check.h"

#include <stdarg.h>
#include <stdio.h>

static int npass, nfail;

void lab_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s - ", ok ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		npass++;
	else
		nfail++;
}

int lab_check_report(void)
{
	printf("client: %d passed, %d failed\n", npass, nfail);
	return nfail;
}
