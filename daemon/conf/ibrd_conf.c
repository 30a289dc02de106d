/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf.c - read ibrouterd.conf(5) with libconfuse into a struct
 * ibrd_conf, and check it.
 *
 * Every message names its file and line, but libconfuse keeps no line
 * numbers for values.  So:
 *  - every key is a string option whose parse callback notes the line each
 *    value was read on and hands the text on unchanged;
 *  - every section has a hidden list option with a default value, which
 *    libconfuse parses through that option's callback the moment it creates
 *    the section, with the section's line set: that marks where it starts;
 *  - the section's validate callback, run when its closing brace is read,
 *    converts it from libconfuse's final values (so "=" and "+=" mean what
 *    libconfuse says; a key set twice is refused by the scan) with the key
 *    tables of ibrd_conf_keys.c.  Converting at the closing brace also
 *    keeps sections with a title given before: a port or route given twice
 *    is reported, and a group may be given once per port.
 * Once converted, a section is removed from libconfuse's tree: it looks a
 * new titled section's title up among those it keeps, one by one, which
 * made 10^5 routes take minutes; the list checks (ibrd_conf_check.c) find
 * a title given twice by sorting.
 *
 * libconfuse never sees the file: ibrd_conf_scan.c reads it, refuses what
 * the lexer would misread and blanks the comments, and the text goes to
 * cfg_parse_buf().  Errors of values are collected, one line each, sorted
 * by line; a syntax error stops libconfuse, and then the cross-checks are
 * skipped.
 *
 * libconfuse's lexer keeps global state, so parsing is not reentrant; the
 * parse in progress is a static pointer for the callbacks for that reason,
 * and a mutex keeps parses in several threads apart.
 */
#include "daemon/conf/ibrd_conf.h"
#include "daemon/conf/ibrd_conf_int.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "router/io/io_verbs.h"

#include <confuse.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define IBRD_MARK     "|mark" /* the hidden option: cfg_getopt() cannot find it by name */
#define IBRD_PID_FILE IBRD_RUNDIR "/ibrouterd.pid"

static struct ibrd_conf_ctx *ibrd_conf_active;
static pthread_mutex_t ibrd_conf_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- messages and memory ---- */

static int ibrd_conf_msg_cmp(const void *a, const void *b)
{
	const struct ibrd_conf_msg *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Write the messages in line order; true if there were none. */
static bool ibrd_conf_report(struct ibrd_conf_ctx *ctx, FILE *err)
{
	bool ok = !ctx->nmsg && !ctx->nomem;

	if (ctx->nmsg)
		qsort(ctx->msg, ctx->nmsg, sizeof(*ctx->msg), ibrd_conf_msg_cmp);
	for (size_t i = 0; i < ctx->nmsg; i++) {
		/* past a syntax error the scan may have misread the sections */
		bool late = ctx->msg[i].scan && ctx->syntax && ctx->msg[i].line > ctx->syntax_line;

		if (err && !late)
			fprintf(err, "%s\n", ctx->msg[i].text);
		free(ctx->msg[i].text);
	}
	if (ctx->nomem && err)
		fprintf(err, "%s: out of memory\n", ctx->file);
	return ok;
}

/* ---- converting a section with its key table ---- */

/* libconfuse has no ';' between keys: say so when one sticks to a value or stands alone. */
static const char *ibrd_conf_hint(const char *text)
{
	size_t n = text ? strlen(text) : 0;

	return n && text[n - 1] == ';' ? " (keys are separated by blanks or new lines, not ';')"
				       : "";
}

static int ibrd_conf_line(const struct ibrd_conf_recs *r, const cfg_opt_t *opt, unsigned idx,
			  int dflt)
{
	for (size_t i = r->n; i-- > 0;)
		if (r->v[i].opt == opt && r->v[i].idx == idx)
			return r->v[i].line;
	return dflt;
}

static void ibrd_conf_convert_key(struct ibrd_conf_ctx *ctx, unsigned ki,
				  const struct ibrd_conf_key *k, cfg_opt_t *opt,
				  const struct ibrd_conf_recs *recs, void *obj,
				  struct ibrd_conf_meta *m)
{
	struct ibrd_conf_val v = { .k = k, .obj = obj, .n = cfg_opt_size(opt) };
	int line = ibrd_conf_line(recs, opt, 0, m->line), rc;

	m->key_line[ki] = line;
	if (k->flags & IBRD_KEY_LIST) {
		rc = k->parse(&v);
		if (rc < 0)
			ibrd_conf_err(ctx, line, m->label, k->name, "%s", v.why);
		if (rc == -E2BIG)
			return;
	}
	for (v.idx = 0; v.idx < v.n; v.idx++) {
		v.text = cfg_opt_getnstr(opt, v.idx);
		rc = ibrd_conf_value_parse(&v);
		if (rc < 0)
			ibrd_conf_err(ctx, ibrd_conf_line(recs, opt, v.idx, line), m->label,
				      k->name, "%s%s", v.why, ibrd_conf_hint(v.text));
		if (rc == -E2BIG)
			break;
	}
}

/* Convert the keys of section `sec`; true if all were good. */
static bool ibrd_conf_convert(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id, cfg_t *sec,
			      const struct ibrd_conf_recs *recs, void *obj,
			      struct ibrd_conf_meta *m)
{
	const struct ibrd_conf_keys *t = &ibrd_conf_keys[id];
	size_t nerr = ctx->nmsg;

	for (unsigned i = 0; i < t->n; i++) {
		cfg_opt_t *opt = cfg_getnopt(sec, i);

		if (opt && (opt->flags & CFGF_MODIFIED))
			ibrd_conf_convert_key(ctx, i, &t->keys[i], opt, recs, obj, m);
	}
	/* after a bad value, "only with data = sim" and the like would mislead */
	if (ctx->nmsg != nerr)
		return false;
	ibrd_conf_check_when(ctx, id, obj, m, IBRD_KEY_REQ);
	return ctx->nmsg == nerr;
}

/* ---- sections: where each goes, its title, its own checks ---- */

struct ibrd_conf_sect {
	/* The struct a new section fills (defaults set) and its meta; NULL: no memory. */
	void *(*open)(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id, const char *title,
		      const struct ibrd_conf_meta *at, struct ibrd_conf_meta **m);
	/* Checks across the section's keys, once they all converted. */
	void (*close)(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m);
};

static void *ibrd_conf_open_single(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id,
				   const char *title, const struct ibrd_conf_meta *at,
				   struct ibrd_conf_meta **m)
{
	*m = &ctx->single[id];
	if ((*m)->line)
		ibrd_conf_err(ctx, at->line, at->label, NULL, "given twice (first at line %d)",
			      (*m)->line);
	return ctx->c;
}

static void ibrd_conf_port_defaults(struct ibrd_conf_port *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	if (ibrd_conf_name_ok(name, ROUTER_PORT_NAME - 1))
		strcpy(p->name, name);
	router_port_defaults(&p->rp, p->name);
	p->rp.flags |= ROUTER_PORT_UP;
	p->device_port = p->umad_port = p->ibsim_port = 1;
	p->relay_qkey = IO_VERBS_QKEY;
	p->rq_depth = IO_VERBS_RQ_DEPTH;
	p->sq_depth = IO_VERBS_SQ_DEPTH;
	strcpy(p->site, "default");
}

static void *ibrd_conf_open_port(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id,
				 const char *title, const struct ibrd_conf_meta *at,
				 struct ibrd_conf_meta **m)
{
	struct ibrd_conf *c = ctx->c;
	struct ibrd_conf_port *p = &ctx->spare;

	*m = &ctx->port[ROUTER_MAX_PORTS];
	if (c->nports < ROUTER_MAX_PORTS) {
		*m = &ctx->port[c->nports];
		p = &c->port[c->nports++];
	} else {
		ibrd_conf_err(ctx, at->line, at->label, NULL, "more than %d ports",
			      ROUTER_MAX_PORTS);
	}
	if (!ibrd_conf_name_ok(title, ROUTER_PORT_NAME - 1))
		ibrd_conf_err(ctx, at->line, at->label, NULL,
			      "not a port name (1 to %d of a-z, 0-9, _ and -)",
			      ROUTER_PORT_NAME - 1);
	ibrd_conf_port_defaults(p, title);
	return p;
}

/* Room for entry n of routes, neighbours or groups, and for its meta. */
static int ibrd_conf_list_room(struct ibrd_conf_ctx *ctx, unsigned list, void *arr, size_t size,
			       unsigned n)
{
	if (ibrd_conf_grow(arr, size, n, &ctx->cap[list]) < 0 ||
	    ibrd_conf_grow(&ctx->list[list], sizeof(struct ibrd_conf_meta), n, &ctx->mcap[list]) <
		    0)
		return -ENOMEM;
	return 0;
}

/* Entry *n of a list (then *n + 1), zeroed, and its meta in *m; NULL: no memory. */
static void *ibrd_conf_list_new(struct ibrd_conf_ctx *ctx, unsigned list, void *arr, size_t size,
				unsigned *n, struct ibrd_conf_meta **m)
{
	char *base;

	if (ibrd_conf_list_room(ctx, list, arr, size, *n) < 0)
		return NULL;
	*m = &ctx->list[list][*n];
	memcpy(&base, arr, sizeof(base));
	return memset(base + (size_t)(*n)++ * size, 0, size);
}

static void *ibrd_conf_open_route(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id,
				  const char *title, const struct ibrd_conf_meta *at,
				  struct ibrd_conf_meta **m)
{
	struct ibrd_conf *c = ctx->c;
	struct ibrd_conf_route *r;
	const char *why;

	if (!(r = ibrd_conf_list_new(ctx, IBRD_LIST_ROUTE, &c->routes, sizeof(*r), &c->nroutes, m)))
		return NULL;
	if ((why = ibrd_conf_route_init(r, title)))
		ibrd_conf_err(ctx, at->line, at->label, NULL, "%s", why);
	return r;
}

static void *ibrd_conf_open_neigh(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id,
				  const char *title, const struct ibrd_conf_meta *at,
				  struct ibrd_conf_meta **m)
{
	struct ibrd_conf *c = ctx->c;
	struct ibrd_conf_neigh *n;
	const char *why;

	if (!(n = ibrd_conf_list_new(ctx, IBRD_LIST_NEIGH, &c->neighs, sizeof(*n), &c->nneighs, m)))
		return NULL;
	if ((why = ibrd_conf_neigh_init(n, title)))
		ibrd_conf_err(ctx, at->line, at->label, NULL, "%s", why);
	return n;
}

static void *ibrd_conf_open_mcast(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id,
				  const char *title, const struct ibrd_conf_meta *at,
				  struct ibrd_conf_meta **m)
{
	struct ibrd_conf *c = ctx->c;
	struct ibrd_conf_mcast *g;
	const char *why;

	if (!(g = ibrd_conf_list_new(ctx, IBRD_LIST_MCAST, &c->mcasts, sizeof(*g), &c->nmcasts, m)))
		return NULL;
	if ((why = ibrd_conf_mcast_init(g, title)))
		ibrd_conf_err(ctx, at->line, at->label, NULL, "%s", why);
	return g;
}

/* proxy "GID": the remote, a unicast GID that routes (neither link-local nor zero). */
int ibrd_conf_proxy_gid(const char *text, union ibr_gid *g, const char **why)
{
	*why = NULL;
	/* a zero prefix is no subnet's, but for RoCE v2's GID of an IPv4 address (::ffff:a.b.c.d) */
	if (ibr_gid_parse(text, g) < 0 || ibr_gid_is_mcast(g) ||
	    (!ibr_gid_prefix(g) && !ibr_gid_is_v4mapped(g)))
		*why = "not the unicast GID of the remote QP's port (fec0::2:0:0:11:1, or "
		       "::ffff:192.0.2.1 for an IPv4 address on RoCE v2)";
	else if (ibr_gid_is_link_local(g))
		*why = "link-local GIDs are never routed";
	return *why ? -EINVAL : 0;
}

static void *ibrd_conf_open_proxy(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id,
				  const char *title, const struct ibrd_conf_meta *at,
				  struct ibrd_conf_meta **m)
{
	struct ibrd_conf *c = ctx->c;
	struct ibrd_conf_proxy *x;
	union ibr_gid g;
	const char *why = NULL;

	x = ibrd_conf_list_new(ctx, IBRD_LIST_PROXY, &c->proxies, sizeof(*x), &c->nproxies, m);
	if (!x)
		return NULL;
	x->qkey = IO_VERBS_QKEY;
	if (ibrd_conf_proxy_gid(title, &g, &why) < 0)
		ibrd_conf_err(ctx, at->line, at->label, NULL, "%s", why);
	else
		memcpy(x->gid, g.raw, sizeof(x->gid));
	return x;
}

/*
 * device = "mlx5_0:1", as rdma-core's tools write an HCA port: the device
 * and its port, which device-port, when given too, must agree with.
 */
static void ibrd_conf_device_split(struct ibrd_conf_ctx *ctx, struct ibrd_conf_port *p,
				   const struct ibrd_conf_meta *m)
{
	char *colon = strrchr(p->device, ':'), *end;
	unsigned long n;
	int line = m->key_line[IBRD_PK_DEVICE];

	if (!colon)
		return;
	errno = 0;
	n = strtoul(colon + 1, &end, 10);
	if (colon == p->device || colon[1] < '0' || colon[1] > '9' || *end || errno || n < 1 ||
	    n > 254) {
		ibrd_conf_err(ctx, line, m->label, "device",
			      "\"%s\" is not NAME or NAME:PORT (a port 1..254)", p->device);
		return;
	}
	if (m->key_line[IBRD_PK_DEVICE_PORT] && n != p->device_port) {
		ibrd_conf_err(ctx, line, m->label, "device",
			      "\"%s\" names port %lu, device-port says %u", p->device, n,
			      p->device_port);
		return;
	}
	/* the name alone, zero-padded like any other (configs compare whole) */
	memset(colon, 0, sizeof(p->device) - (size_t)(colon - p->device));
	p->device_port = (uint8_t)n;
}

static void ibrd_conf_close_port(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m)
{
	struct ibrd_conf_port *p = obj;
	const int *kl = m->key_line;

	if (p->data == IBRD_DATA_VERBS)
		ibrd_conf_device_split(ctx, p, m);
	if (p->mad == IBRD_MAD_UMAD && p->data == IBRD_DATA_VERBS) {
		if (!kl[IBRD_PK_UMAD_CA])
			memcpy(p->umad_ca, p->device, sizeof(p->umad_ca));
		if (!kl[IBRD_PK_UMAD_PORT])
			p->umad_port = p->device_port;
	} else if (p->mad == IBRD_MAD_UMAD && !kl[IBRD_PK_UMAD_CA]) {
		ibrd_conf_err(ctx, m->line, m->label, "umad-ca",
			      "missing (required with mad = umad, unless data = verbs)");
	}
	if (p->data == IBRD_DATA_VERBS)
		p->rp.flags |= ROUTER_PORT_CRC_OFFLOAD;
	if (p->rp.lid)
		ibrd_conf_check_lids(ctx, m, kl[IBRD_PK_LID], "lid", p->rp.lid, p->rp.lmc);
	else if (p->rp.lmc)
		ibrd_conf_err(ctx, kl[IBRD_PK_LMC], m->label, "lmc",
			      "only with a static lid (the SM sets the LMC of a learned one)");
	if (p->mad == IBRD_MAD_NONE && p->data != IBRD_DATA_NONE && p->sa_client)
		ibrd_conf_err(ctx, kl[IBRD_PK_SA_CLIENT], m->label, "sa-client",
			      "true needs a MAD transport (mad is none)");
	/* no SM to set them, but a verbs port learns both from its HCA port, and
	 * the OpenSM plugin may tell them: ibrd_conf_finish_ports() decides,
	 * once the learning section is known */
	m->no_ids = p->mad == IBRD_MAD_NONE && p->data == IBRD_DATA_SIM &&
		    (!p->rp.lid || !p->rp.prefix);
}

static const struct ibrd_conf_sect ibrd_conf_sects[IBRD_SECT_MAX] = {
	[IBRD_SECT_ROUTER] = { ibrd_conf_open_single, NULL },
	[IBRD_SECT_PORT] = { ibrd_conf_open_port, ibrd_conf_close_port },
	[IBRD_SECT_ROUTE] = { ibrd_conf_open_route, ibrd_conf_route_close },
	[IBRD_SECT_NEIGH] = { ibrd_conf_open_neigh, ibrd_conf_neigh_close },
	[IBRD_SECT_MCAST] = { ibrd_conf_open_mcast, ibrd_conf_mcast_close },
	[IBRD_SECT_PROXY] = { ibrd_conf_open_proxy, NULL },
	[IBRD_SECT_LEARNING] = { ibrd_conf_open_single, NULL },
	[IBRD_SECT_MULTICAST] = { ibrd_conf_open_single, NULL },
	[IBRD_SECT_CONTROL] = { ibrd_conf_open_single, NULL },
};

static void ibrd_conf_section(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id, cfg_t *sec)
{
	const char *title = cfg_title(sec);
	struct ibrd_conf_meta at = { .line = ctx->cur_line }, *m;
	size_t nerr = ctx->nmsg;
	void *obj;

	ibrd_conf_label(at.label, ibrd_conf_keys[id].name, title);
	obj = ibrd_conf_sects[id].open(ctx, id, title ? title : "", &at, &m);
	if (!obj) {
		ctx->nomem = true;
		return;
	}
	*m = at;
	m->bad = ctx->nmsg != nerr;
	if (ibrd_conf_convert(ctx, id, sec, &ctx->cur_recs, obj, m) && ibrd_conf_sects[id].close)
		ibrd_conf_sects[id].close(ctx, obj, m);
	m->failed = ctx->nmsg != nerr;
}

/* ---- libconfuse callbacks ---- */

/* Every value: note its line, keep its text. */
static int ibrd_conf_cb_value(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	struct ibrd_conf_ctx *ctx = ibrd_conf_active;
	struct ibrd_conf_recs *r = cfg == ctx->root ? &ctx->top_recs : &ctx->cur_recs;

	*(const char **)result = value;
	if (ibrd_conf_grow(&r->v, sizeof(*r->v), r->n, &r->cap) < 0) {
		ctx->nomem = true;
		return 0;
	}
	r->v[r->n].opt = opt;
	r->v[r->n].idx = opt->nvalues - 1; /* cfg_setopt() added the value before calling */
	r->v[r->n++].line = cfg->line;
	return 0;
}

/* The hidden option's default, parsed when a section is created. */
static int ibrd_conf_cb_mark(cfg_t *cfg, cfg_opt_t *opt, const char *value, void *result)
{
	struct ibrd_conf_ctx *ctx = ibrd_conf_active;

	*(const char **)result = value;
	if (cfg == ctx->cur) { /* spelt out in the file */
		cfg_error(cfg, "no such option '%s'", opt->name);
		return -1;
	}
	ctx->cur = cfg;
	ctx->cur_line = cfg->line;
	ctx->cur_recs.n = 0;
	return 0;
}

/* A section's closing brace. */
static int ibrd_conf_cb_section(cfg_t *parent, cfg_opt_t *opt)
{
	struct ibrd_conf_ctx *ctx = ibrd_conf_active;
	cfg_t *sec = ctx->cur;

	ctx->cur = NULL;
	for (int id = 0; sec && id < IBRD_SECT_TOP; id++)
		if (strcmp(opt->name, ibrd_conf_keys[id].name) == 0)
			ibrd_conf_section(ctx, id, sec);
	ctx->cur_recs.n = 0;
	/* converted: drop it, so that libconfuse's title lookup stays short
	 * (the parser no longer uses it after this callback) */
	for (unsigned i = cfg_opt_size(opt); sec && i-- > 0;) {
		if (cfg_opt_getnsec(opt, i) == sec) {
			cfg_opt_rmnsec(opt, i);
			break;
		}
	}
	return 0;
}

/* libconfuse's own errors: syntax, unknown keys.  It stops after one. */
static void ibrd_conf_cb_error(cfg_t *cfg, const char *fmt, va_list ap)
{
	struct ibrd_conf_ctx *ctx = ibrd_conf_active;
	char msg[256], label[IBRD_LABEL_MAX] = "";

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (cfg && cfg != ctx->root)
		ibrd_conf_label(label, cfg->name, cfg->title);
	ibrd_conf_err(ctx, cfg ? cfg->line : 0, label, NULL, "%s%s", msg,
		      ibrd_conf_hint(strcmp(msg, "no such option ';'") == 0 ? ";" : NULL));
	if (!ctx->syntax)
		ctx->syntax_line = cfg ? cfg->line : 0;
	ctx->syntax = true;
}

/* ---- the schema ---- */

/* String options for the keys of table id, `extra` free slots, the end. */
static cfg_opt_t *ibrd_conf_opts(enum ibrd_conf_sect_id id, unsigned extra)
{
	const struct ibrd_conf_keys *t = &ibrd_conf_keys[id];
	cfg_opt_t *o = calloc(t->n + extra + 1, sizeof(*o)); /* zeroed: CFG_END() */
	cfg_opt_t str = CFG_STR_CB(NULL, NULL, CFGF_NONE, ibrd_conf_cb_value);
	cfg_opt_t list = CFG_STR_LIST_CB(NULL, NULL, CFGF_NONE, ibrd_conf_cb_value);

	for (unsigned i = 0; o && i < t->n; i++) {
		o[i] = t->keys[i].flags & IBRD_KEY_LIST ? list : str;
		o[i].name = t->keys[i].name;
	}
	return o;
}

static void ibrd_conf_schema_free(cfg_opt_t *root)
{
	for (cfg_opt_t *o = root; o && o->name; o++)
		if (o->type == CFGT_SEC)
			free(o->subopts);
	free(root);
}

/* The top-level keys, then a multi section per table (each with the mark). */
static cfg_opt_t *ibrd_conf_schema(void)
{
	unsigned ntop = ibrd_conf_keys[IBRD_SECT_TOP].n;
	cfg_opt_t *root = ibrd_conf_opts(IBRD_SECT_TOP, IBRD_SECT_TOP);
	cfg_opt_t mark = CFG_STR_LIST_CB(IBRD_MARK, "{0}", CFGF_NONE, ibrd_conf_cb_mark);

	for (unsigned id = 0; root && id < IBRD_SECT_TOP; id++) {
		cfg_opt_t sec = CFG_SEC(NULL, NULL, CFGF_MULTI);

		sec.name = ibrd_conf_keys[id].name;
		sec.flags |= ibrd_conf_keys[id].titled ? CFGF_TITLE : 0;
		sec.validcb = ibrd_conf_cb_section;
		sec.subopts = ibrd_conf_opts(id, 1);
		if (!sec.subopts) {
			ibrd_conf_schema_free(root);
			return NULL;
		}
		sec.subopts[ibrd_conf_keys[id].n] = mark;
		root[ntop + id] = sec;
	}
	return root;
}

/* ---- the entry points ---- */

static void ibrd_conf_defaults(struct ibrd_conf *c, const char *file)
{
	snprintf(c->file, sizeof(c->file), "%s", file);
	c->sa_client = true;
	c->resync_interval = 60;
	c->announce_lease = 60;
	c->peer_interval = 5;
	c->peer_holddown = 15;
	c->peer_ecmp = ROUTER_ECMP_MAX;
	c->sm_key = 1; /* OpenSM's default sa_key: member lists need it (IBA 15.4.1) */
	c->mcast_scopes = 1u << IBR_MCAST_SCOPE_SITE | 1u << IBR_MCAST_SCOPE_ORG |
			  1u << IBR_MCAST_SCOPE_GLOBAL;
	strcpy(c->ctl_socket, IBRD_SOCK_DEFAULT);
	c->ctl_mode = 0660;
	c->ctl_group[0] = '\0'; /* the daemon's own group */
	c->workers = 1;
	c->worker_poll = 100;
	c->log_level = LOG_INFO;
	strcpy(c->pid_file, IBRD_PID_FILE);
}

/* Parse text with libconfuse; false if it gave up. */
static bool ibrd_conf_run(struct ibrd_conf_ctx *ctx, const char *text)
{
	cfg_opt_t *schema = ibrd_conf_schema();
	int rc;

	if (!schema)
		return false;
	ctx->root = cfg_init(schema, CFGF_NONE);
	ibrd_conf_schema_free(schema);
	if (!ctx->root)
		return false;
	cfg_set_error_function(ctx->root, ibrd_conf_cb_error);
	rc = cfg_parse_buf(ctx->root, text);
	/* without a word from libconfuse: an empty key (""), or no memory */
	if (rc != CFG_SUCCESS && !ctx->syntax)
		ibrd_conf_err(ctx, ctx->cur ? ctx->cur->line : ctx->root->line, NULL, NULL,
			      "cannot parse (an empty key name, or out of memory)");
	return rc == CFG_SUCCESS && !ctx->syntax;
}

/* Parse text (NUL at len, to free; NULL: no memory) as the contents of `file`. */
static struct ibrd_conf *ibrd_conf_parse(const char *file, char *text, size_t len, FILE *err)
{
	struct ibrd_conf_ctx *ctx = calloc(1, sizeof(*ctx));
	struct ibrd_conf *c = calloc(1, sizeof(*c));
	struct ibrd_conf_meta *top;
	bool ok;

	if (!ctx || !c || !text) {
		free(ctx);
		free(c);
		free(text);
		if (err)
			fprintf(err, "%s: out of memory\n", file);
		return NULL;
	}
	ctx->c = c;
	ctx->file = file;
	ibrd_conf_defaults(c, file);
	if (ibrd_conf_scan(ctx, text, len)) {
		pthread_mutex_lock(&ibrd_conf_lock);
		ibrd_conf_active = ctx;
		if (ibrd_conf_run(ctx, text)) {
			top = &ctx->single[IBRD_SECT_TOP];
			ibrd_conf_convert(ctx, IBRD_SECT_TOP, ctx->root, &ctx->top_recs, c, top);
			ibrd_conf_check(ctx);
		} else if (!ctx->root) {
			ctx->nomem = true;
		}
		if (ctx->root)
			cfg_free(ctx->root);
		ibrd_conf_active = NULL;
		pthread_mutex_unlock(&ibrd_conf_lock);
	}
	free(text);
	ok = ibrd_conf_report(ctx, err);
	free(ctx->msg);
	free(ctx->top_recs.v);
	free(ctx->cur_recs.v);
	for (unsigned i = 0; i < IBRD_LIST_MAX; i++)
		free(ctx->list[i]);
	free(ctx);
	if (ok)
		return c;
	ibrd_conf_free(c);
	return NULL;
}

struct ibrd_conf *ibrd_conf_load(const char *path, FILE *err)
{
	size_t len = 0;
	char *text = ibrd_conf_read(path, &len, err);

	return text ? ibrd_conf_parse(path, text, len, err) : NULL;
}

struct ibrd_conf *ibrd_conf_load_string(const char *text, const char *name, FILE *err)
{
	text = text ? text : "";
	return ibrd_conf_parse(name ? name : "(string)", strdup(text), strlen(text), err);
}

void ibrd_conf_free(struct ibrd_conf *c)
{
	if (!c)
		return;
	free(c->routes);
	free(c->neighs);
	free(c->mcasts);
	free(c->proxies);
	free(c->include);
	free(c->exclude);
	free(c);
}
