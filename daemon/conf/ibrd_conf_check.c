/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_check.c - the checks of ibrouterd.conf(5).  Of one section, once
 * its keys converted, which one entry read from words (ibrd_conf_entry.c)
 * shares: keys given where they mean nothing or missing, LIDs aligned to
 * their LMC.  After the last line: the defaults that depend on other
 * sections (the host name, port GUIDs from the node GUID, each port's SA
 * client from the learning section, site numbers), then the checks across
 * sections: what no two ports may share, ports that routes, neighbours,
 * groups and proxies name, entries given twice, proxies only where a verbs
 * port can hold them.
 */
#include "daemon/conf/ibrd_conf.h"
#include "daemon/conf/ibrd_conf_int.h"

#include "lib/ibr_gid.h"
#include "router/io/io_verbs.h"

#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- one section's checks, the file's and one entry's from words ---- */

void ibrd_conf_check_when(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id, const void *obj,
			  const struct ibrd_conf_meta *m, unsigned req)
{
	const struct ibrd_conf_keys *t = &ibrd_conf_keys[id];
	/* a second "router { }" need not repeat what the first has */
	bool need = !m->bad || t->titled;

	for (unsigned i = 0; i < t->n; i++) {
		const struct ibrd_conf_key *k = &t->keys[i];
		bool relevant = !k->when || k->when(obj);

		if (m->key_line[i] && !relevant)
			ibrd_conf_err(ctx, m->key_line[i], m->label, k->name, "only with %s",
				      k->when_text);
		else if (!m->key_line[i] && relevant && need && (k->flags & req))
			ibrd_conf_err(ctx, m->line, m->label, k->name, "missing (required%s%s)",
				      k->when_text ? " with " : "",
				      k->when_text ? k->when_text : "");
	}
}

void ibrd_conf_check_lids(struct ibrd_conf_ctx *ctx, const struct ibrd_conf_meta *m, int line,
			  const char *key, uint16_t lid, unsigned lmc)
{
	/* lid is unicast: then only alignment can fail (0xc000 is a multiple of 2^7) */
	if (!ibr_lid_range_valid(lid, lmc))
		ibrd_conf_err(ctx, line, m->label, key,
			      "%u is not aligned to lmc %u (a multiple of %u)", lid, lmc,
			      1u << lmc);
}

/* ---- after the last line ---- */

static void ibrd_conf_finish_router(struct ibrd_conf_ctx *ctx)
{
	struct ibrd_conf *c = ctx->c;
	const int *kl = ctx->single[IBRD_SECT_ROUTER].key_line;
	char host[256] = "";

	/* no router section: name the end of the file, where one was expected */
	if (!ctx->single[IBRD_SECT_ROUTER].line)
		ibrd_conf_err(ctx, ctx->end_line, "router", "node-guid",
			      "missing (required; there is no router section)");
	if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
		strcpy(host, "localhost");
	if (!kl[IBRD_RK_NAME] && snprintf(c->name, sizeof(c->name), "%s", host) < 0)
		c->name[0] = '\0';
	if (!kl[IBRD_RK_SYSIMG])
		c->system_image_guid = c->node_guid;
	if (!kl[IBRD_RK_DESC] &&
	    snprintf(c->node_desc, sizeof(c->node_desc), "ibrouterd %s %s", host, c->name) < 0)
		c->node_desc[0] = '\0';
}

/* Site index of a port (sites numbered in order of appearance). */
static int ibrd_conf_site(struct ibrd_conf *c, const char *site)
{
	unsigned i;

	for (i = 0; i < c->nsites; i++)
		if (strcmp(c->sites[i], site) == 0)
			return (int)i;
	if (c->nsites == IBRD_MAX_SITES)
		return -ENOSPC;
	memcpy(c->sites[c->nsites], site, sizeof(c->sites[0]));
	return (int)c->nsites++;
}

static void ibrd_conf_finish_ports(struct ibrd_conf_ctx *ctx)
{
	struct ibrd_conf *c = ctx->c;

	if (!c->nports)
		ibrd_conf_err(ctx, ctx->end_line, NULL, NULL,
			      "no port section (at least one is required)");
	for (unsigned i = 0; i < c->nports; i++) {
		struct ibrd_conf_port *p = &c->port[i];
		const struct ibrd_conf_meta *m = &ctx->port[i];
		const int *kl = m->key_line;
		int site = ibrd_conf_site(c, p->site);

		if (!m->key_line[IBRD_PK_PORT_GUID])
			p->rp.guid = c->node_guid + i + 1;
		if (!m->key_line[IBRD_PK_SA_CLIENT])
			p->sa_client = c->sa_client;
		if (p->mad == IBRD_MAD_NONE)
			p->sa_client = false;
		/* with mad = none no SM sets LID and prefix through us: the config
		 * must, unless the OpenSM plugin tells them */
		if (m->no_ids && !c->osm_plugin && !p->rp.lid)
			ibrd_conf_err(ctx, m->line, m->label, "lid",
				      "missing (required with mad = none: no SM assigns one, "
				      "and osm-plugin is off)");
		if (m->no_ids && !c->osm_plugin && !p->rp.prefix)
			ibrd_conf_err(ctx, m->line, m->label, "subnet-prefix",
				      "missing (required with mad = none: no SM sets one, "
				      "and osm-plugin is off)");
		if (site < 0) /* the default site has no line of its own */
			ibrd_conf_err(ctx, kl[IBRD_PK_SITE] ? kl[IBRD_PK_SITE] : m->line, m->label,
				      "site", "more than %d sites", IBRD_MAX_SITES);
		p->rp.site = (uint8_t)(site < 0 ? 0 : site);
	}
}

/* Something of a port that no other port may share (a socket, a device port, a GUID). */
struct ibrd_conf_res {
	char kind; /* s: sim path, v: verbs, u: umad, i: ibsim, g: GUID, p: prefix */
	unsigned port, key;
	char text[IBRD_PATH_MAX + 2 * IBRD_NAME_MAX + 24];
};

static void ibrd_conf_res_add(struct ibrd_conf_res *r, unsigned *n, char kind, unsigned port,
			      unsigned key, const char *fmt, ...) IBR_PRINTF(6, 7);

static void ibrd_conf_res_add(struct ibrd_conf_res *r, unsigned *n, char kind, unsigned port,
			      unsigned key, const char *fmt, ...)
{
	va_list ap;

	r += (*n)++;
	r->kind = kind;
	r->port = port;
	r->key = key;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
}

#define IBRD_RES_PER_PORT 6

static void ibrd_conf_port_res(const struct ibrd_conf_port *p, unsigned i, struct ibrd_conf_res *r,
			       unsigned *n)
{
	char buf[IBR_GID_STRLEN];
	union ibr_gid g = ibr_gid_make(p->rp.prefix, 0);

	if (p->data == IBRD_DATA_SIM) {
		ibrd_conf_res_add(r, n, 's', i, IBRD_PK_SIM_SOCKET, "\"%s\"", p->sim_socket);
		ibrd_conf_res_add(r, n, 's', i, IBRD_PK_SIM_PEER, "\"%s\"", p->sim_peer);
	} else if (p->data == IBRD_DATA_VERBS) {
		ibrd_conf_res_add(r, n, 'v', i, IBRD_PK_DEVICE, "%s port %u", p->device,
				  p->device_port);
	}
	if (p->mad == IBRD_MAD_UMAD)
		ibrd_conf_res_add(r, n, 'u', i, IBRD_PK_UMAD_CA, "%s port %u", p->umad_ca,
				  p->umad_port);
	else if (p->mad == IBRD_MAD_IBSIM)
		ibrd_conf_res_add(r, n, 'i', i, IBRD_PK_IBSIM_NODE, "%s node %s port %u",
				  p->ibsim_socket, p->ibsim_node, p->ibsim_port);
	ibrd_conf_res_add(r, n, 'g', i, IBRD_PK_PORT_GUID, "0x%016" PRIx64, p->rp.guid);
	if (p->rp.prefix)
		ibrd_conf_res_add(r, n, 'p', i, IBRD_PK_PREFIX, "%s",
				  ibr_gid_ntop(&g, buf, sizeof(buf)));
}

/* Sim sockets and peers, device ports, MAD attachments, GUIDs and prefixes: one port each. */
static void ibrd_conf_check_shared(struct ibrd_conf_ctx *ctx)
{
	const struct ibrd_conf_key *keys = ibrd_conf_keys[IBRD_SECT_PORT].keys;
	struct ibrd_conf *c = ctx->c;
	struct ibrd_conf_res *r = calloc(c->nports * IBRD_RES_PER_PORT + 1, sizeof(*r));
	unsigned n = 0;

	if (!r) {
		ctx->nomem = true;
		return;
	}
	for (unsigned i = 0; i < c->nports; i++)
		if (!ctx->port[i].failed) /* its values may be half set */
			ibrd_conf_port_res(&c->port[i], i, r, &n);
	for (unsigned b = 1; b < n; b++) {
		for (unsigned a = 0; a < b; a++) {
			const struct ibrd_conf_meta *m = &ctx->port[r[b].port];
			int line = m->key_line[r[b].key] ? m->key_line[r[b].key] : m->line;

			if (r[a].kind != r[b].kind || strcmp(r[a].text, r[b].text) != 0)
				continue;
			ibrd_conf_err(ctx, line, m->label, keys[r[b].key].name,
				      "%s is also used by port \"%s\" (%s)", r[b].text,
				      c->port[r[a].port].name, keys[r[a].key].name);
			break;
		}
	}
	free(r);
}

/* An entry of a list that must not repeat: its key and where it is. */
struct ibrd_conf_dup {
	uint8_t key[32];
	const struct ibrd_conf_meta *m;
};

static int ibrd_conf_dup_cmp(const void *a, const void *b)
{
	const struct ibrd_conf_dup *x = a, *y = b;
	int d = memcmp(x->key, y->key, sizeof(x->key));

	if (d)
		return d;
	return x->m->line < y->m->line ? -1 : x->m->line > y->m->line;
}

static void ibrd_conf_dups(struct ibrd_conf_ctx *ctx, struct ibrd_conf_dup *d, unsigned n)
{
	unsigned first = 0;

	qsort(d, n, sizeof(*d), ibrd_conf_dup_cmp);
	for (unsigned i = 1; i < n; i++) {
		if (memcmp(d[i].key, d[first].key, sizeof(d[i].key)) != 0) {
			first = i;
			continue;
		}
		ibrd_conf_err(ctx, d[i].m->line, d[i].m->label, NULL,
			      "given twice (first at line %d)", d[first].m->line);
	}
}

/* Key of entry i of list `which` (0 ports, 1 routes, 2 neighbours, 3 groups, 4 proxies). */
static void ibrd_conf_dup_key(const struct ibrd_conf *c, unsigned which, unsigned i, uint8_t *k)
{
	if (which == 0) {
		memcpy(k, c->port[i].name, sizeof(c->port[i].name));
	} else if (which == 1) {
		ibr_gid_st64(k, c->routes[i].prefix);
		k[8] = c->routes[i].plen;
	} else if (which == 2) {
		ibr_gid_st64(k, c->neighs[i].guid);
	} else if (which == 3) {
		memcpy(k, c->mcasts[i].mgid, 16);
		memcpy(k + 16, c->mcasts[i].port, sizeof(c->mcasts[i].port));
	} else {
		memcpy(k, c->proxies[i].gid, 16);
		memcpy(k + 16, &c->proxies[i].qpn, sizeof(c->proxies[i].qpn));
		k[20] = (uint8_t)ibrd_conf_port_index(c, c->proxies[i].port);
	}
}

/*
 * Ports by name, routes by prefix, neighbours by GUID, groups by MGID and
 * port, proxies by remote GID, QPN and port.
 */
static void ibrd_conf_check_dups(struct ibrd_conf_ctx *ctx)
{
	struct ibrd_conf *c = ctx->c;
	const unsigned count[] = { c->nports, c->nroutes, c->nneighs, c->nmcasts, c->nproxies };
	const struct ibrd_conf_meta *meta[] = { ctx->port, ctx->list[IBRD_LIST_ROUTE],
						ctx->list[IBRD_LIST_NEIGH],
						ctx->list[IBRD_LIST_MCAST],
						ctx->list[IBRD_LIST_PROXY] };

	for (unsigned which = 0; which < 5; which++) {
		struct ibrd_conf_dup *d = calloc(count[which] + 1, sizeof(*d));

		if (!d) {
			ctx->nomem = true;
			return;
		}
		unsigned n = 0;

		for (unsigned i = 0; i < count[which]; i++) {
			if (meta[which][i].bad)
				continue;
			ibrd_conf_dup_key(c, which, i, d[n].key);
			d[n++].m = &meta[which][i];
		}
		ibrd_conf_dups(ctx, d, n);
		free(d);
	}
}

/* The port of each route, neighbour, group and proxy exists. */
static void ibrd_conf_check_refs(struct ibrd_conf_ctx *ctx)
{
	struct ibrd_conf *c = ctx->c;
	const unsigned count[] = { c->nroutes, c->nneighs, c->nmcasts, c->nproxies };

	for (unsigned list = 0; list < IBRD_LIST_MAX; list++) {
		for (unsigned i = 0; i < count[list]; i++) {
			const struct ibrd_conf_meta *m = &ctx->list[list][i];
			const char *port = list == IBRD_LIST_ROUTE   ? c->routes[i].port
					   : list == IBRD_LIST_NEIGH ? c->neighs[i].port
					   : list == IBRD_LIST_MCAST ? c->mcasts[i].port
								     : c->proxies[i].port;

			/* the port key is the first of all four tables */
			if (port[0] && ibrd_conf_port_index(c, port) < 0)
				ibrd_conf_err(ctx, m->key_line[0], m->label, "port",
					      "no port \"%s\"", port);
		}
	}
}

/*
 * A proxy is a QP on a verbs port's HCA (sim ports carry whole packets, no
 * QPs), and a port has room for IO_VERBS_MAX_PROXY of them.
 */
static void ibrd_conf_check_proxies(struct ibrd_conf_ctx *ctx)
{
	const char *const *data = ibrd_conf_keys[IBRD_SECT_PORT].keys[IBRD_PK_DATA].words;
	struct ibrd_conf *c = ctx->c;
	unsigned n[ROUTER_MAX_PORTS] = { 0 };

	for (unsigned i = 0; i < c->nproxies; i++) {
		const struct ibrd_conf_meta *m = &ctx->list[IBRD_LIST_PROXY][i];
		int p = ibrd_conf_port_index(c, c->proxies[i].port);

		if (p < 0 || m->failed)
			continue;
		if (c->port[p].data != IBRD_DATA_VERBS)
			ibrd_conf_err(ctx, m->key_line[IBRD_YK_PORT], m->label, "port",
				      "port \"%s\" has data = %s (proxies need data = verbs)",
				      c->proxies[i].port, data[c->port[p].data]);
		else if (++n[p] == IO_VERBS_MAX_PROXY + 1)
			ibrd_conf_err(ctx, m->line, m->label, NULL,
				      "more than %d proxies on port \"%s\"", IO_VERBS_MAX_PROXY,
				      c->proxies[i].port);
	}
}

/*
 * The user and the control socket's group must exist: a name the system does
 * not know would leave the daemon as root, or its socket root's, silently.
 */
static void ibrd_conf_check_ids(struct ibrd_conf_ctx *ctx)
{
	const struct ibrd_conf *c = ctx->c;
	const struct ibrd_conf_meta *top = &ctx->single[IBRD_SECT_TOP];
	const struct ibrd_conf_meta *ctl = &ctx->single[IBRD_SECT_CONTROL];

	if (c->user[0] && !getpwnam(c->user))
		ibrd_conf_err(ctx, top->key_line[IBRD_GK_USER], NULL, "user",
			      "\"%s\": no such user", c->user);
	if (c->ctl_group[0] && !getgrnam(c->ctl_group))
		ibrd_conf_err(ctx, ctl->key_line[IBRD_CK_GROUP], "control", "group",
			      "\"%s\": no such group", c->ctl_group);
}

void ibrd_conf_check(struct ibrd_conf_ctx *ctx)
{
	ibrd_conf_check_ids(ctx);
	ibrd_conf_finish_router(ctx);
	ibrd_conf_finish_ports(ctx);
	ibrd_conf_check_shared(ctx);
	ibrd_conf_check_refs(ctx);
	ibrd_conf_check_dups(ctx);
	ibrd_conf_check_proxies(ctx);
	ibrd_conf_check_feeds(ctx);
}
