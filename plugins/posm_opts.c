/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_opts.c - the plugin's options, from OpenSM's event_plugin_options
 * line (ibrouter-osm(8)).  OpenSM hands every loaded plugin the same string
 * (opensm/osm_subnet.c keeps the rest of the line, '#' and after cut off),
 * so a word this plugin does not know is reported, not refused; a known key
 * with a bad value is refused, so that a typo never runs silently with a
 * default.
 */
#include "plugins/posm.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPTS_WORD_MAX 512

static int opts_uint(const char *v, unsigned long max, unsigned *out)
{
	char *end;
	unsigned long x;

	if (!*v || *v == '-')
		return -EINVAL;
	errno = 0;
	x = strtoul(v, &end, 0);
	if (errno || *end || x > max)
		return -EINVAL;
	*out = (unsigned)x;
	return 0;
}

/* A list of GUIDs: GUID[,GUID...], hex, none 0, at most max (ports=, routers=). */
static int opts_guids(const char *v, uint64_t *out, unsigned max, unsigned *n)
{
	const char *p = v;

	*n = 0;
	while (*p) {
		char *end;
		unsigned long long g;

		if (*n == max || *p == '-')
			return -EINVAL;
		errno = 0;
		g = strtoull(p, &end, 16);
		if (errno || end == p || !g || (*end && *end != ','))
			return -EINVAL;
		out[(*n)++] = g;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -EINVAL; /* a trailing comma */
	}
	return *n ? 0 : -EINVAL;
}

/* routers=GUID[,GUID...] or routers=any */
static int opts_routers(const char *v, struct posm_opts *o)
{
	o->routers_any = !strcmp(v, "any");
	if (o->routers_any) {
		o->nrouters = 0;
		return 0;
	}
	return opts_guids(v, o->routers, POSM_ROUTERS_MAX, &o->nrouters);
}

/* srkey=HEX: the 16 bytes of a ServiceKey, 32 hex digits (0x first or not), not all zero */
static int opts_srkey(const char *v, struct posm_opts *o)
{
	bool zero = true;

	if (ibr_hex_key_parse(v, o->srkey, sizeof(o->srkey)))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(o->srkey); i++)
		zero &= !o->srkey[i];
	/* the key of every record that sets none: it would tell nobody apart */
	if (zero)
		return -EINVAL;
	o->srkey_set = true;
	return 0;
}

static int opts_word(char *w, struct posm_opts *o, bool *had_sock,
		     void (*warn)(void *ctx, const char *word), void *ctx)
{
	char *v = strchr(w, '=');

	if (!v) {
		if (warn)
			warn(ctx, w);
		return 0;
	}
	*v++ = '\0';
	if (!strcmp(w, "socket")) {
		if (!*v || *v != '/' || strlen(v) >= POSM_SOCK_PATH)
			return -EINVAL;
		if (!*had_sock)
			o->nsock = 0; /* the first socket= replaces the default */
		*had_sock = true;
		if (o->nsock == POSM_SOCK_MAX)
			return -E2BIG;
		snprintf(o->sock[o->nsock++], POSM_SOCK_PATH, "%s", v);
		return 0;
	}
	if (!strcmp(w, "ports"))
		return opts_guids(v, o->serve, POSM_SERVE_MAX, &o->nserve);
	if (!strcmp(w, "routers"))
		return opts_routers(v, o);
	if (!strcmp(w, "srkey"))
		return opts_srkey(v, o);
	if (!strcmp(w, "records"))
		return opts_uint(v, 3600, &o->records_s);
	if (!strcmp(w, "verbose")) {
		unsigned x;

		if (opts_uint(v, 3, &x))
			return -EINVAL;
		o->verbose = (int)x;
		return 0;
	}
	if (!strcmp(w, "queue"))
		return opts_uint(v, 65536, &o->queue) || o->queue < 2 ? -EINVAL : 0;
	if (!strcmp(w, "refresh"))
		return opts_uint(v, 86400, &o->refresh_s);
	if (!strcmp(w, "watch"))
		return opts_uint(v, 3600, &o->watch_s);
	if (!strcmp(w, "hold"))
		return opts_uint(v, 86400, &o->hold_s);
	if (!strcmp(w, "resweep"))
		return opts_uint(v, 3600, &o->resweep_s);
	if (!strcmp(w, "alive")) { /* 0, or past two heartbeats (STATS every 2 s) */
		if (opts_uint(v, 3600, &o->alive_s) || (o->alive_s && o->alive_s < 5))
			return -EINVAL;
		return 0;
	}
	if (!strcmp(w, "sndbuf"))
		return opts_uint(v, 16u << 20, &o->sndbuf);
	v[-1] = '=';
	if (warn)
		warn(ctx, w);
	return 0;
}

int posm_opts_parse(const char *s, struct posm_opts *o, char *err, size_t errlen,
		    void (*warn)(void *ctx, const char *word), void *ctx)
{
	bool had_sock = false;

	memset(o, 0, sizeof(*o));
	snprintf(o->sock[0], POSM_SOCK_PATH, "%s", POSM_SOCK_DEFAULT);
	o->nsock = 1;
	o->verbose = 1;
	o->queue = 256;
	o->refresh_s = 30;
	o->watch_s = 1;
	o->hold_s = 60;
	o->resweep_s = 2;
	o->alive_s = 10;
	o->records_s = 2;
	while (s && *s) {
		char w[OPTS_WORD_MAX], orig[OPTS_WORD_MAX];
		size_t n;
		int rc;

		s += strspn(s, " \t\n;");
		n = strcspn(s, " \t\n;");
		if (!n)
			break;
		if (n >= sizeof(w)) {
			snprintf(err, errlen, "option word too long (%zu bytes)", n);
			return -EINVAL;
		}
		memcpy(w, s, n);
		w[n] = '\0';
		memcpy(orig, w, n + 1);
		s += n;
		if ((rc = opts_word(w, o, &had_sock, warn, ctx))) {
			/* the key is a secret: not in OpenSM's log */
			if (!strncmp(orig, "srkey=", 6))
				snprintf(orig + 6, sizeof(orig) - 6, "...");
			snprintf(err, errlen, "bad option \"%s\"%s", orig,
				 rc == -E2BIG ? ": too many sockets" : "");
			return -EINVAL;
		}
	}
	return 0;
}
