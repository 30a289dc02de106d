/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_osm.c - "show osm-prefix-routes PORT": the prefix routes file that
 * the OpenSM of PORT's subnet needs so that its SA answers PathRecords to
 * remote subnets with this router port (ibrouterctl(8)).
 *
 * What OpenSM does with the file (read in its source, linux-rdma/opensm
 * 3.3.23 to master; the code is the same):
 *  - opensm/osm_subnet.c parse_prefix_routes_file() reads it line by line
 *    (fgets into 1024 bytes).  Tokens are separated by blanks; a line whose
 *    first token starts with '#' is a comment; blank lines are skipped.
 *    Otherwise the first token is the prefix and the second the GUID, both
 *    strtoull(.., 16): "0x" is optional, and the prefix token must hold
 *    nothing but hex digits.  "*" for either means "any".  A third token
 *    starting with '#' is taken as a trailing comment (no log line).
 *  - The GUID is a router *port* GUID: osm_sa_path_record.c find_router()
 *    looks it up in subn->rtr_guid_tbl, which osm_node_info_rcv.c fills
 *    keyed by NodeInfo.PortGUID.  The SA answers with that port's LID.
 *  - find_router() takes the first line whose prefix equals the DGID's
 *    whole 64-bit subnet prefix, or is "*": there are no prefix lengths.
 *    A /64 is one line; ::/0 is "*" (last, as first match wins); any other
 *    aggregate cannot be expressed, so it is listed as a comment and only
 *    the /64 routes the RIB holds become lines.
 *  - The file is read by osm_subn_rescan_conf_files(), at start and at every
 *    heavy sweep (SIGHUP forces one), and only when OpenSM's config file
 *    exists.  Its path (option prefix_routes_file) is not updatable: a new
 *    path needs a restart, new contents only a heavy sweep.
 */
#include "daemon/cmd/ibrd_cmd.h"

#include "lib/ibr_ctl.h"
#include "lib/ibr_gid.h"
#include "lib/ibr_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OSM_PART_ROOM (IBR_CTL_PART_MAX / 2) /* JSON bytes of data per reply part */

struct osm_entry {
	uint64_t prefix;
	uint8_t plen;
	uint8_t via;  /* egress port of the best route */
	uint8_t kind; /* enum router_export_kind */
};

/* Lines first (ascending prefix), then "*", then the comments. */
static int osm_entry_cmp(const void *a, const void *b)
{
	const struct osm_entry *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return x->plen < y->plen ? -1 : x->plen > y->plen;
}

/*
 * The best route of every prefix that leaves through a port other than
 * `port`; NULL with *n == 0 when there is none, NULL with *n == SIZE_MAX when
 * out of memory.
 */
static struct osm_entry *osm_collect(const struct ibrd *d, uint32_t port, size_t *n)
{
	const struct router_route *r;
	struct osm_entry *e;
	uint32_t pos = 0;

	*n = 0;
	if (!d->rib.routes.count)
		return NULL;
	if (!(e = calloc(d->rib.routes.count, sizeof(*e)))) {
		*n = SIZE_MAX;
		return NULL;
	}
	while ((r = router_tab_next(&d->rib.routes, &pos))) {
		enum router_export_kind k = router_export_kind(&d->rib, port, r);

		if (k == ROUTER_EXPORT_NONE)
			continue;
		e[*n] = (struct osm_entry){
			.prefix = r->key.prefix, .plen = r->key.plen, .via = r->nh.port, .kind = k
		};
		(*n)++;
	}
	qsort(e, *n, sizeof(*e), osm_entry_cmp);
	return e;
}

/* The router's name for a comment line: printable ASCII only, bounded. */
static const char *osm_safe(const char *s, char *buf, size_t size)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < size; i++)
		buf[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

static const char *osm_prefix_str(const struct osm_entry *x, char *buf, size_t size)
{
	struct ibr_gid_prefix pf = { .addr = ibr_gid_make(x->prefix, 0), .len = x->plen };

	return ibr_gid_prefix_ntop(&pf, buf, size);
}

/* Text: the file itself, ready for OpenSM's prefix_routes_file. */
static int osm_text(struct ibrd *d, struct ibrd_out *o, uint32_t port, const struct osm_entry *e,
		    size_t n)
{
	const struct router_port *me = &d->rib.port[port];
	struct ibr_gid_prefix own = ibr_gid_prefix_from_subnet(me->prefix);
	char ps[IBR_GID_PREFIX_STRLEN], name[65];
	size_t lines = 0;

	ibrd_out_printf(o, "# OpenSM prefix_routes_file for port %s of ibrouterd \"%s\"\n",
			me->name, osm_safe(d->conf->name, name, sizeof(name)));
	ibrd_out_printf(o, "# router port GUID 0x%016" PRIx64 ", subnet prefix %s\n", me->guid,
			me->prefix ? ibr_gid_prefix_ntop(&own, ps, sizeof(ps)) : "unknown");
	for (size_t i = 0; i < n; i++) {
		const struct osm_entry *x = &e[i];
		const char *via = d->rib.port[x->via].name;

		osm_prefix_str(x, ps, sizeof(ps));
		if (x->kind == ROUTER_EXPORT_LINE || x->kind == ROUTER_EXPORT_ANY) {
			char pre[24];

			if (x->kind == ROUTER_EXPORT_LINE)
				snprintf(pre, sizeof(pre), "0x%016" PRIx64, x->prefix);
			else
				snprintf(pre, sizeof(pre), "*");
			ibrd_out_printf(o, "%s 0x%016" PRIx64 " # %s via %s\n", pre, me->guid, ps,
					via);
			lines++;
		} else if (x->kind == ROUTER_EXPORT_AGGREGATE) {
			ibrd_out_printf(o,
					"# %s via %s: not expressible (OpenSM matches whole "
					"64-bit prefixes only)\n",
					ps, via);
		} else {
			ibrd_out_printf(o,
					"# %s via %s: not listed, site-local GIDs do not leave "
					"site %s (IBA 4.1.1)\n",
					ps, via, d->conf->sites[me->site]);
		}
	}
	if (!lines)
		ibrd_out_printf(o, "# no remote prefix is reachable through port %s\n", me->name);
	return ibrd_out_end(o);
}

/*
 * JSON: {"port":..,"guid":..,"routes":[..],"skipped":[..]}.  ibrd_out has
 * flat rows and objects only, so this answer builds its own parts, each a
 * whole object with a slice of the two lists (like the slices of a long
 * table), and hands them to the sink's emit.
 */
struct osm_json {
	struct ibrd_out *o;
	struct ibr_json j;
	const char *port;
	uint64_t guid;
	int list; /* the list open in this part: -1 none, 0 routes, 1 skipped */
};

static void osm_json_open(struct osm_json *s)
{
	ibr_json_reset(&s->j);
	ibr_json_obj_open(&s->j, NULL);
	ibr_json_str(&s->j, "port", s->port);
	ibr_json_hex64(&s->j, "guid", s->guid);
	s->list = -1;
}

/* Move on to list `list` (0 routes, 1 skipped), opening the empty ones between. */
static void osm_json_list(struct osm_json *s, int list)
{
	static const char *const names[] = { "routes", "skipped" };

	while (s->list < list) {
		if (s->list >= 0)
			ibr_json_close(&s->j);
		s->list++;
		ibr_json_arr_open(&s->j, names[s->list]);
	}
}

static void osm_json_flush(struct osm_json *s, bool last)
{
	struct ibrd_out *o = s->o;
	char *p;
	size_t n;

	osm_json_list(s, 1);
	ibr_json_close(&s->j); /* skipped */
	ibr_json_close(&s->j); /* the data object */
	if (o->err)
		return;
	if (ibr_json_finish(&s->j)) {
		o->err = -EMSGSIZE;
		return;
	}
	n = s->j.len + 64; /* the envelope */
	if (!(p = malloc(n))) {
		o->err = -ENOMEM;
		return;
	}
	n = (size_t)snprintf(p, n, "{\"ok\":true,%s\"data\":%s}", last ? "" : "\"more\":true,",
			     s->j.buf);
	o->err = o->emit(o->ctx, p, n);
	o->sent_any = true;
	free(p);
	if (!last)
		osm_json_open(s);
}

static int osm_json(struct ibrd *d, struct ibrd_out *o, uint32_t port, const struct osm_entry *e,
		    size_t n)
{
	struct osm_json s = { .o = o,
			      .port = d->rib.port[port].name,
			      .guid = d->rib.port[port].guid };

	ibr_json_init(&s.j, OSM_PART_ROOM + 4096);
	osm_json_open(&s);
	for (size_t i = 0; i < n && !o->err; i++) {
		const struct osm_entry *x = &e[i];
		char ps[IBR_GID_PREFIX_STRLEN], os[24];

		if (s.j.len > OSM_PART_ROOM)
			osm_json_flush(&s, false);
		osm_prefix_str(x, ps, sizeof(ps));
		osm_json_list(
			&s, x->kind == ROUTER_EXPORT_LINE || x->kind == ROUTER_EXPORT_ANY ? 0 : 1);
		ibr_json_obj_open(&s.j, NULL);
		ibr_json_str(&s.j, "prefix", ps);
		if (s.list == 0) {
			if (x->kind == ROUTER_EXPORT_LINE)
				snprintf(os, sizeof(os), "0x%016" PRIx64, x->prefix);
			else
				snprintf(os, sizeof(os), "*");
			ibr_json_str(&s.j, "osm_prefix", os);
			ibr_json_hex64(&s.j, "guid", s.guid);
		}
		ibr_json_str(&s.j, "via", d->rib.port[x->via].name);
		if (s.list == 1)
			ibr_json_str(&s.j, "reason",
				     x->kind == ROUTER_EXPORT_AGGREGATE ? "aggregate" : "site");
		ibr_json_close(&s.j);
	}
	osm_json_flush(&s, true);
	ibr_json_free(&s.j);
	return o->err;
}

int ibrd_cmd_show_osm_routes(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	struct osm_entry *e;
	size_t n;
	int port, rc;

	if (argc != 3)
		return ibrd_out_usage(o, "usage: show osm-prefix-routes PORT");
	if ((port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	e = osm_collect(d, (uint32_t)port, &n);
	if (n == SIZE_MAX)
		return ibrd_out_error(o, ENOMEM, "out of memory");
	if (o->fmt == IBRD_FMT_JSON)
		rc = osm_json(d, o, (uint32_t)port, e, n);
	else
		rc = osm_text(d, o, (uint32_t)port, e, n);
	free(e);
	return rc;
}
