/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibrd_conf_fix.c - what the config's tests share: see ibrd_conf_fix.h. */
#include "tests/unit/daemon/conf/ibrd_conf_fix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *print_conf(const struct ibrd_conf *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ibrd_conf_print(c, m, IBRD_CONF_SECRETS);
	fclose(m);
	return buf;
}

/* Load `text`, returning the config and the messages in *errs (to free). */
struct ibrd_conf *load_text(const char *text, char **errs)
{
	size_t len = 0;
	FILE *m;
	struct ibrd_conf *c;

	*errs = NULL;
	m = open_memstream(errs, &len);
	c = ibrd_conf_load_string(text, "t.conf", m);
	fclose(m);
	return c;
}

struct ibrd_conf *load_ok(const char *text)
{
	char *errs;
	struct ibrd_conf *c = load_text(text, &errs);

	if (!c)
		fprintf(stderr, "\nunexpected errors:\n%s", errs);
	free(errs);
	return c;
}

/* Equal but for the file name and where the lists live. */
static bool conf_equal(const struct ibrd_conf *a, const struct ibrd_conf *b)
{
	struct ibrd_conf x = *a, y = *b;

	if (a->nroutes != b->nroutes || a->nneighs != b->nneighs || a->nmcasts != b->nmcasts ||
	    a->nproxies != b->nproxies || a->ninclude != b->ninclude || a->nexclude != b->nexclude)
		return false;
	if ((a->nroutes && memcmp(a->routes, b->routes, a->nroutes * sizeof(*a->routes))) ||
	    (a->nneighs && memcmp(a->neighs, b->neighs, a->nneighs * sizeof(*a->neighs))) ||
	    (a->nmcasts && memcmp(a->mcasts, b->mcasts, a->nmcasts * sizeof(*a->mcasts))) ||
	    (a->nproxies && memcmp(a->proxies, b->proxies, a->nproxies * sizeof(*a->proxies))) ||
	    (a->ninclude && memcmp(a->include, b->include, a->ninclude * sizeof(*a->include))) ||
	    (a->nexclude && memcmp(a->exclude, b->exclude, a->nexclude * sizeof(*a->exclude))))
		return false;
	memset(x.file, 0, sizeof(x.file));
	memset(y.file, 0, sizeof(y.file));
	x.routes = y.routes = NULL;
	x.neighs = y.neighs = NULL;
	x.mcasts = y.mcasts = NULL;
	x.proxies = y.proxies = NULL;
	x.include = y.include = NULL;
	x.exclude = y.exclude = NULL;
	return memcmp(&x, &y, sizeof(x)) == 0;
}

/* Print c, parse that, and check the result is equal and prints the same. */
bool round_trip(const struct ibrd_conf *c, const char *what)
{
	char *out = print_conf(c), *again = NULL, *errs;
	struct ibrd_conf *c2 = load_text(out, &errs);
	bool ok = c2 && conf_equal(c, c2);

	if (c2)
		again = print_conf(c2);
	ok = ok && strcmp(out, again) == 0;
	if (!ok)
		fprintf(stderr, "\n%s: round trip differs:\n%s\n--- reparsed:\n%s%s\n", what, out,
			again ? again : "", errs);
	free(out);
	free(again);
	free(errs);
	ibrd_conf_free(c2);
	return ok;
}
