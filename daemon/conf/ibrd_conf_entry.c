/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_entry.c - the entries of ibrouterd.conf(5): routes, neighbours
 * and multicast groups.  Their defaults, titles and the checks across their
 * keys serve the file's sections (ibrd_conf.c) and one entry read from
 * words (ibrd_conf_entry_parse(), for the control commands) alike.  Words
 * are converted by the key table's parse functions as the file's values
 * are, and every refusal is the message the file's reader would write,
 * through ibrd_conf_err(), which keeps an entry's first one for it.
 */
#include "daemon/conf/ibrd_conf_entry.h"
#include "daemon/conf/ibrd_conf_int.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- defaults, titles and checks, for the file and for words ---- */

/* A prefix of 0..64 bits (routers route on the subnet prefix), no host bits. */
const char *ibrd_conf_route_init(struct ibrd_conf_route *r, const char *title)
{
	struct ibr_gid_prefix p;

	r->kind = ROUTER_NH_DIRECT;
	if (ibr_gid_prefix_parse(title, &p) < 0)
		return ibrd_conf_host_bits(title) ? "bits set past the prefix length"
						  : "not a GID prefix (fec0:0:0:2::/64 or "
						    "0xfec0000000000002)";
	if (p.len > 64)
		return "prefix longer than 64 bits (routes use the subnet prefix)";
	if (p.len >= 8 && ibr_gid_is_mcast(&p.addr))
		return "a multicast prefix";
	if (p.len >= 10 && ibr_gid_is_link_local(&p.addr))
		return "link-local GIDs are never routed";
	r->prefix = ibr_gid_prefix(&p.addr);
	r->plen = p.len;
	return NULL;
}

const char *ibrd_conf_neigh_init(struct ibrd_conf_neigh *n, const char *title)
{
	if (ibr_guid_parse(title, &n->guid) < 0 || !n->guid)
		return "not a port GUID (0x and 1 to 16 hex digits, not zero)";
	return NULL;
}

/* A group that may be routed: neither interface- nor link-local, nor of a reserved scope. */
const char *ibrd_conf_mcast_init(struct ibrd_conf_mcast *g, const char *title)
{
	union ibr_gid mgid;

	g->pkey = 0xFFFF;
	g->mtu = 2048;
	g->receivers = g->senders = true;
	g->hop_limit = 1;
	if (ibr_gid_parse(title, &mgid) < 0 || !ibr_gid_is_mcast(&mgid))
		return "not a multicast GID (ff00::/8, or an IPv4 group ::ffff:224.0.0.0/100)";
	if (ibr_gid_mcast_scope(&mgid) == 0 || ibr_gid_mcast_scope(&mgid) == 0xF)
		return "reserved multicast scope";
	memcpy(g->mgid, mgid.raw, sizeof(g->mgid));
	return NULL;
}

const char *ibrd_conf_mcast_scope_why(const struct ibrd_conf_mcast *g)
{
	/* IBA 8.3: never routed; a feed (an application-level bridge) may carry one */
	if (ibr_gid_raw_mcast_scope(g->mgid) <= IBR_MCAST_SCOPE_LINK && !g->feed[0])
		return "interface- and link-local groups are never routed (but in a feed)";
	return NULL;
}

void ibrd_conf_mcast_close(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m)
{
	const char *why;

	if (!m->bad && (why = ibrd_conf_mcast_scope_why(obj)))
		ibrd_conf_err(ctx, m->line, m->label, NULL, "%s", why);
}

void ibrd_conf_route_close(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m)
{
	struct ibrd_conf_route *r = obj;

	if (r->kind != ROUTER_NH_ROUTER && r->lmc)
		ibrd_conf_err(ctx, m->key_line[IBRD_TK_LMC], m->label, "lmc",
			      "only with via = <LID of the next router>");
	else if (r->kind == ROUTER_NH_ROUTER)
		for (unsigned i = 0; i < r->nlid; i++)
			ibrd_conf_check_lids(ctx, m, m->key_line[IBRD_TK_VIA], "via", r->lid[i],
					     r->lmc);
}

void ibrd_conf_neigh_close(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m)
{
	struct ibrd_conf_neigh *n = obj;

	ibrd_conf_check_lids(ctx, m, m->key_line[IBRD_NK_LID], "lid", n->lid, n->lmc);
}

/* ---- one entry from words ---- */

static int ibrd_conf_entry_key(const struct ibrd_conf_keys *t, const char *key)
{
	for (unsigned i = 0; i < t->n; i++)
		if (strcmp(t->keys[i].name, key) == 0)
			return (int)i;
	return -1;
}

/*
 * Key k's values from words[at] on into obj, as the file's reader converts
 * a key (ibrd_conf_convert_key()): a list key gets all of its words at once,
 * its length first.
 */
static void ibrd_conf_entry_convert(struct ibrd_conf_ctx *ctx, const struct ibrd_conf_key *k,
				    void *obj, const struct ibrd_conf_word *words, unsigned at,
				    unsigned n)
{
	struct ibrd_conf_val v = { .k = k, .obj = obj, .n = 1 };

	if (k->flags & IBRD_KEY_LIST) {
		v.n = 0;
		for (unsigned i = at; i < n; i++)
			v.n += strcmp(words[i].key, k->name) == 0;
		if (k->parse(&v) < 0) {
			ibrd_conf_err(ctx, 0, NULL, k->name, "%s", v.why);
			return;
		}
	}
	for (unsigned i = at; i < n && v.idx < v.n; i++) {
		if (strcmp(words[i].key, k->name) != 0)
			continue;
		v.text = words[i].value;
		if (ibrd_conf_value_parse(&v) < 0) {
			ibrd_conf_err(ctx, 0, NULL, k->name, "%s", v.why);
			return;
		}
		v.idx++;
	}
}

/* The entry's section, its struct in e, its title. */
static enum ibrd_conf_sect_id ibrd_conf_entry_open(struct ibrd_conf_ctx *ctx,
						   struct ibrd_conf_entry *e,
						   enum ibrd_conf_entry_kind kind,
						   const char *title, void **obj)
{
	const char *why;

	if (kind == IBRD_ENTRY_ROUTE) {
		*obj = &e->route;
		why = ibrd_conf_route_init(&e->route, title);
	} else if (kind == IBRD_ENTRY_NEIGH) {
		*obj = &e->neigh;
		why = ibrd_conf_neigh_init(&e->neigh, title);
	} else {
		*obj = &e->mcast;
		if (!(why = ibrd_conf_mcast_init(&e->mcast, title)))
			why = ibrd_conf_mcast_scope_why(&e->mcast); /* no feed from the CLI */
	}
	if (why)
		ibrd_conf_err(ctx, 0, NULL, NULL, "%s", why);
	return kind == IBRD_ENTRY_ROUTE	  ? IBRD_SECT_ROUTE
	       : kind == IBRD_ENTRY_NEIGH ? IBRD_SECT_NEIGH
					  : IBRD_SECT_MCAST;
}

int ibrd_conf_entry_parse(struct ibrd_conf_entry *e, enum ibrd_conf_entry_kind kind,
			  enum ibrd_conf_entry_use use, const char *title,
			  const struct ibrd_conf_word *words, unsigned n)
{
	/* a parse's state, as the file's reader keeps it (large: not on the stack) */
	struct ibrd_conf_ctx *ctx = calloc(1, sizeof(*ctx));
	struct ibrd_conf_meta m = { .line = 0 };
	const struct ibrd_conf_keys *t;
	enum ibrd_conf_sect_id id;
	void *obj;
	int rc;

	memset(e, 0, sizeof(*e));
	if (!ctx) {
		snprintf(e->why, sizeof(e->why), "out of memory");
		return -ENOMEM;
	}
	ctx->entry = e;
	ctx->file = "";
	id = ibrd_conf_entry_open(ctx, e, kind, title, &obj);
	t = &ibrd_conf_keys[id];
	for (unsigned i = 0; i < n && !ctx->nmsg; i++) {
		int k = ibrd_conf_entry_key(t, words[i].key);

		if (k < 0)
			ibrd_conf_err(ctx, 0, NULL, words[i].key, "no such key in a %s section",
				      t->name);
		else if (m.key_line[k] && !(t->keys[k].flags & IBRD_KEY_LIST))
			ibrd_conf_err(ctx, 0, NULL, t->keys[k].name, "given twice");
		else if (!m.key_line[k]) {
			/* given: words have no line, the checks only ask whether */
			m.key_line[k] = 1;
			ibrd_conf_entry_convert(ctx, &t->keys[k], obj, words, i, n);
		}
	}
	if (!ctx->nmsg)
		ibrd_conf_check_when(ctx, id, obj, &m,
				     use == IBRD_ENTRY_ADD ? IBRD_KEY_REQ : IBRD_KEY_ID);
	/* a feed is several sections of the file together: not one CLI entry */
	if (!ctx->nmsg && kind == IBRD_ENTRY_MCAST && e->mcast.feed[0])
		ibrd_conf_err(ctx, 0, NULL, "feed", "feeds are given in the configuration file");
	if (!ctx->nmsg && use == IBRD_ENTRY_ADD && kind == IBRD_ENTRY_ROUTE)
		ibrd_conf_route_close(ctx, obj, &m);
	else if (!ctx->nmsg && use == IBRD_ENTRY_ADD && kind == IBRD_ENTRY_NEIGH)
		ibrd_conf_neigh_close(ctx, obj, &m);
	rc = ctx->nmsg ? -EINVAL : 0;
	free(ctx);
	return rc;
}

/* ---- an entry in the RIB ---- */

void ibrd_conf_neigh_rib(const struct ibrd_conf_neigh *cn, uint8_t port, struct router_neigh *n)
{
	memset(n, 0, sizeof(*n));
	n->key.guid = cn->guid;
	n->key.port = port;
	n->key.source = ROUTER_SRC_STATIC;
	n->lid = cn->lid;
	n->lmc = cn->lmc;
}

void ibrd_conf_mcast_rib(const struct ibrd_conf_mcast *cm, uint8_t port, struct router_mcast *m)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->key.mgid, cm->mgid, 16);
	m->key.port = port;
	m->mlid = cm->mlid;
	m->sl = cm->sl;
	m->tclass = cm->tclass;
	m->flowlabel = cm->flowlabel;
	m->pkey = cm->pkey;
	m->qkey = cm->qkey;
	m->mtu = cm->mtu;
	m->source = ROUTER_SRC_STATIC;
	m->feed_hops = cm->feed[0] ? cm->hop_limit : 0;
	/* receivers = false stays so: the operator said the subnet has none (ibrd_mcast.c) */
	m->flags = (uint8_t)((cm->receivers ? ROUTER_MCAST_RECEIVERS : 0) |
			     (cm->senders ? ROUTER_MCAST_SENDERS : 0));
}
