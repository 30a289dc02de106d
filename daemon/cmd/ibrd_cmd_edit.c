/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_edit.c - route, neighbour and mcast add/del from the CLI.  These
 * are static entries (source "static"), what the config's route, neighbour
 * and mcast sections are: their words are parsed as those sections
 * (ibrd_conf_entry.h), with the config's key table, ranges, checks and
 * messages, so that the CLI and the file have one grammar.  Each change
 * recompiles and publishes the FIB, and is logged.
 */
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/conf/ibrd_conf_entry.h"

#include "lib/ibr_ctl.h"
#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * A CLI word and the config key it is.  A word without `value` takes the
 * next word as the key's value ("port b": port = b); a flag stands for its
 * key with `value` ("direct": via = direct).  `dir`: mcast's receivers,
 * senders and both (below).
 */
struct edit_word {
	const char *word, *key, *value;
	int dir;
};

/* route: lid L is via = L (a next router); direct and algorithmic are via's other values */
static const struct edit_word edit_route[] = {
	{ "port", "port", NULL, 0 },	  { "lid", "via", NULL, 0 },
	{ "direct", "via", "direct", 0 }, { "algorithmic", "via", "algorithmic", 0 },
	{ "lmc", "lmc", NULL, 0 },	  { "metric", "metric", NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};

/* neighbour: the config's keys by their own names */
static const struct edit_word edit_neigh[] = {
	{ "port", "port", NULL, 0 },
	{ "lid", "lid", NULL, 0 },
	{ "lmc", "lmc", NULL, 0 },
	{ NULL, NULL, NULL, 0 },
};

/*
 * mcast: the config's keys by their own names, but for the direction: one
 * word for the config's two booleans, receivers and senders, the last word
 * counting (receivers: receivers = true, senders = false; senders: the
 * other way; both: both true, as when none is given).
 */
enum { EDIT_RECEIVERS = 1, EDIT_SENDERS = 2 };
static const struct edit_word edit_mcast[] = {
	{ "port", "port", NULL, 0 },
	{ "mlid", "mlid", NULL, 0 },
	{ "sl", "sl", NULL, 0 },
	{ "qkey", "qkey", NULL, 0 },
	{ "pkey", "pkey", NULL, 0 },
	{ "receivers", NULL, NULL, EDIT_RECEIVERS },
	{ "senders", NULL, NULL, EDIT_SENDERS },
	{ "both", NULL, NULL, EDIT_RECEIVERS | EDIT_SENDERS },
	{ NULL, NULL, NULL, 0 },
};

/* A request has at most IBR_CTL_ARGS_MAX words, each at most one config word; the direction two. */
#define EDIT_WORDS_MAX (IBR_CTL_ARGS_MAX + 2)

/*
 * The CLI's words argv[0..argc) of one entry as the config's words, w[0..*n)
 * (room for EDIT_WORDS_MAX): 0, or a usage refusal that names the word: one
 * the command does not know, or a key without its value.
 */
static int edit_words(struct ibrd_out *o, const char *cmd, const struct edit_word *tab, int argc,
		      char **argv, struct ibrd_conf_word *w, unsigned *n)
{
	int dir = 0;
	char esc[64];

	*n = 0;
	for (int i = 0; i < argc; i++) {
		const struct edit_word *t = tab;

		while (t->word && strcmp(t->word, argv[i]) != 0)
			t++;
		if (!t->word)
			return ibrd_out_usage(o, "%s: unknown word \"%s\"", cmd,
					      ibrd_out_escape(argv[i], esc, sizeof(esc)));
		if (*n >= EDIT_WORDS_MAX - 2)
			return ibrd_out_usage(o, "%s: too many words", cmd);
		if (t->dir) {
			dir = t->dir;
			continue;
		}
		if (!t->value && ++i >= argc)
			return ibrd_out_usage(o, "%s: %s needs a value", cmd, t->word);
		w[(*n)++] = (struct ibrd_conf_word){ t->key, t->value ? t->value : argv[i] };
	}
	if (dir) {
		w[(*n)++] = (struct ibrd_conf_word){ "receivers",
						     dir & EDIT_RECEIVERS ? "true" : "false" };
		w[(*n)++] = (struct ibrd_conf_word){ "senders",
						     dir & EDIT_SENDERS ? "true" : "false" };
	}
	return 0;
}

/* Whether the config's words give key `key`. */
static bool edit_given(const struct ibrd_conf_word *w, unsigned n, const char *key)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(w[i].key, key))
			return true;
	return false;
}

/*
 * The entry's refusal in the config's text, after the CLI word of the key
 * it is about ("route add: lid 7 is not aligned to lmc 1 (a multiple of
 * 2)", where the file says "via: 7 is ...") or after the title, as the file
 * puts the title before it ("route add: fec0::1/64: bits set past the
 * prefix length").  The text may repeat the client's words: escaped.
 */
static int edit_refused(struct ibrd_out *o, const char *cmd, const struct edit_word *tab,
			const char *title, const struct ibrd_conf_entry *e, int rc)
{
	const char *word;
	char t[64], why[256];

	if (rc != -EINVAL)
		return ibrd_out_error(o, -rc, "%s: %s", cmd, strerror(-rc));
	ibrd_out_escape(e->why, why, sizeof(why));
	if (!e->key)
		return ibrd_out_usage(o, "%s: %s: %s", cmd, ibrd_out_escape(title, t, sizeof(t)),
				      why);
	/* the word that takes the key's value: "lid" for via */
	for (word = e->key; tab->word; tab++) {
		if (tab->key && !tab->value && !strcmp(tab->key, e->key)) {
			word = tab->word;
			break;
		}
	}
	return ibrd_out_usage(o, "%s: %s %s", cmd, word, why);
}

/*
 * The answer of an edit: what was done, `done` ("added static route
 * fec0:0:0:9::/64 via port b LID 0x0021"), logged and answered; or for
 * ENOENT what was not there, `what` ("no static route fec0:0:0:9::/64").
 */
static int edit_done(struct ibrd *d, struct ibrd_out *o, int rc, const char *cmd, const char *what,
		     const char *done)
{
	if (rc == -ENOENT)
		return ibrd_out_error(o, ENOENT, "%s: %s", cmd, what);
	/* the words were checked before: what is left is the tables' (EEXIST, ENOMEM) */
	if (rc)
		return ibrd_out_error(o, -rc, "%s: %s", cmd, strerror(-rc));
	ibrd_rib_changed(d); /* published before the answer goes out (ibrd_sync.c) */
	log_info("control: %s", done);
	return ibrd_cmd_done(o, "%s", done);
}

/* "fec0:0:0:9::/64" */
static const char *edit_prefix(uint64_t prefix, uint8_t plen, char *buf, size_t len)
{
	struct ibr_gid_prefix pf = { .addr = ibr_gid_make(prefix, 0), .len = plen };

	return ibr_gid_prefix_ntop(&pf, buf, len);
}

/* The next hops as the answer says them: "port b LID 0x0021, port b LID 0x0023". */
static void edit_nhs(const struct ibrd *d, const struct router_nh *nhs, unsigned n, char *buf,
		     size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && at < len; i++) {
		const char *port = d->rib.port[nhs[i].port].name, *sep = i ? ", " : "";

		if (nhs[i].kind == ROUTER_NH_DIRECT)
			at += (size_t)snprintf(buf + at, len - at,
					       "%sport %s direct (the LID from the neighbours)",
					       sep, port);
		else if (nhs[i].kind == ROUTER_NH_ALGO)
			at += (size_t)snprintf(
				buf + at, len - at,
				"%sport %s algorithmic (DLID the DGID's low 16 bits)", sep, port);
		else if (nhs[i].lmc)
			at += (size_t)snprintf(buf + at, len - at, "%sport %s LID 0x%04x LMC %u",
					       sep, port, nhs[i].lid, nhs[i].lmc);
		else
			at += (size_t)snprintf(buf + at, len - at, "%sport %s LID 0x%04x", sep,
					       port, nhs[i].lid);
	}
}

/*
 * The end of the next hop whose words start at argv[at]: before the second
 * "port" key (a value is never a key: "port port" names a port "port").
 */
static int next_hop_end(int argc, char **argv, int at)
{
	bool port = false;

	for (int i = at; i < argc; i++) {
		const struct edit_word *t = edit_route;

		while (t->word && strcmp(t->word, argv[i]) != 0)
			t++;
		if (!strcmp(argv[i], "port") && port)
			return i;
		port |= !strcmp(argv[i], "port");
		i += t->word && !t->value; /* its value */
	}
	return argc;
}

/*
 * The next hops of one "port" word into nhs (n so far), each a route
 * section of its own (port, via, lmc): its next routers, or itself when
 * direct or algorithmic.  0, or the refusal sent.
 */
static int route_hop(struct ibrd *d, struct ibrd_out *o, const char *cmd,
		     const struct ibrd_conf_route *cr, bool last, struct router_nh *nhs,
		     unsigned *n)
{
	unsigned k = cr->kind == ROUTER_NH_ROUTER ? cr->nlid : 1;
	int port;

	/* one of several (before it, or after it): a next router */
	if ((*n || !last) && cr->kind != ROUTER_NH_ROUTER)
		return ibrd_out_usage(o, "%s: several next hops must all be next routers (lid L)",
				      cmd);
	if ((port = ibrd_cmd_port(d, o, cr->port)) < 0)
		return -ENOENT;
	if (*n + k > ROUTER_ECMP_MAX)
		return ibrd_out_usage(o, "%s: at most %u next hops", cmd, ROUTER_ECMP_MAX);
	for (unsigned j = 0; j < k; j++) {
		uint16_t lid = cr->kind == ROUTER_NH_ROUTER ? cr->lid[j] : 0;

		for (unsigned i = 0; i < *n; i++)
			if (nhs[i].port == port && nhs[i].lid == lid)
				return ibrd_out_usage(o, "%s: port %s lid %u twice", cmd, cr->port,
						      lid);
		nhs[(*n)++] = (struct router_nh){
			.port = (uint8_t)port, .kind = cr->kind, .lid = lid, .lmc = cr->lmc
		};
	}
	return 0;
}

int ibrd_cmd_route(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	const char *cmd = argc > 1 && !strcmp(argv[1], "del") ? "route del" : "route add";
	struct ibrd_conf_word w[EDIT_WORDS_MAX];
	struct router_nh nhs[ROUTER_ECMP_MAX];
	struct ibrd_conf_entry e;
	struct router_route r;
	char ps[IBR_GID_PREFIX_STRLEN], what[96], done[512], hops[400], metric[24] = "";
	unsigned n = 0, nw;
	bool had;
	int rc;

	if (argc < 3)
		return ibrd_out_usage(o, "usage: route add|del PREFIX ... (prefix length 0..64)");
	/* the prefix first, alone: what a route del takes */
	if ((rc = ibrd_conf_entry_parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_DEL, argv[2], NULL, 0)))
		return edit_refused(o, cmd, edit_route, argv[2], &e, rc);
	memset(&r, 0, sizeof(r));
	r.key.prefix = e.route.prefix;
	r.key.plen = e.route.plen;
	r.key.source = ROUTER_SRC_STATIC;
	edit_prefix(r.key.prefix, r.key.plen, ps, sizeof(ps));
	if (!strcmp(argv[1], "del")) {
		if (argc != 3)
			return ibrd_out_usage(o, "usage: route del PREFIX");
		snprintf(what, sizeof(what), "no static route %s", ps);
		snprintf(done, sizeof(done), "removed static route %s", ps);
		return edit_done(
			d, o,
			router_rib_route_del(&d->rib, r.key.prefix, r.key.plen, ROUTER_SRC_STATIC),
			cmd, what, done);
	}
	/*
	 * One next hop a "port" word: "port b lid 5 port c lid 7" is a route
	 * through two next routers of equal cost (each flow keeps one); within
	 * one, "lid 5 lid 7" is the file's via = {5, 7}.  No words at all, or a
	 * next hop without lid, direct or algorithmic: usage.
	 */
	for (int at = 3, end = 3; at == 3 || at < argc; at = end) {
		end = next_hop_end(argc, argv, at);
		if ((rc = edit_words(o, cmd, edit_route, end - at, argv + at, w, &nw)))
			return rc;
		if (!edit_given(w, nw, "via"))
			return ibrd_out_usage(o, "usage: route add PREFIX port P lid L [lmc M] "
						 "[port P lid L ...] | port P direct | port P "
						 "algorithmic [metric N]");
		if ((rc = ibrd_conf_entry_parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_ADD, argv[2], w,
						nw)))
			return edit_refused(o, cmd, edit_route, argv[2], &e, rc);
		if ((rc = route_hop(d, o, cmd, &e.route, end == argc, nhs, &n)))
			return rc;
		if (edit_given(w, nw, "metric")) { /* the last one given */
			r.metric = e.route.metric;
			snprintf(metric, sizeof(metric), ", metric %u", r.metric);
		}
	}
	had = router_tab_find(&d->rib.routes, &r.key) != NULL;
	edit_nhs(d, nhs, n, hops, sizeof(hops));
	snprintf(done, sizeof(done), "%s static route %s via %s%s", had ? "replaced" : "added", ps,
		 hops, metric);
	return edit_done(d, o, router_rib_route_add_nhs(&d->rib, &r, nhs, n), cmd, "", done);
}

int ibrd_cmd_neigh(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	bool del = argc > 1 && !strcmp(argv[1], "del");
	const char *cmd = del ? "neighbour del" : "neighbour add";
	struct ibrd_conf_word w[EDIT_WORDS_MAX];
	struct ibrd_conf_entry e;
	struct router_neigh n;
	char gs[IBR_GUID_STRLEN], what[96], done[160];
	unsigned nw;
	int port, rc;

	if (argc < 5)
		return ibrd_out_usage(o,
				      "usage: neighbour add GUID port P lid L [lmc M] | neighbour "
				      "del GUID port P");
	if ((rc = edit_words(o, cmd, edit_neigh, argc - 3, argv + 3, w, &nw)))
		return rc;
	if ((rc = ibrd_conf_entry_parse(&e, IBRD_ENTRY_NEIGH, del ? IBRD_ENTRY_DEL : IBRD_ENTRY_ADD,
					argv[2], w, nw)))
		return edit_refused(o, cmd, edit_neigh, argv[2], &e, rc);
	if ((port = ibrd_cmd_port(d, o, e.neigh.port)) < 0)
		return -ENOENT;
	ibr_guid_ntop(e.neigh.guid, gs, sizeof(gs));
	if (del) {
		snprintf(what, sizeof(what), "no static neighbour %s on port %s", gs, e.neigh.port);
		snprintf(done, sizeof(done), "removed static neighbour %s from port %s", gs,
			 e.neigh.port);
		return edit_done(d, o,
				 router_rib_neigh_del(&d->rib, (uint8_t)port, e.neigh.guid,
						      ROUTER_SRC_STATIC),
				 cmd, what, done);
	}
	ibrd_conf_neigh_rib(&e.neigh, (uint8_t)port, &n);
	snprintf(done, sizeof(done), "%s static neighbour %s on port %s: LID 0x%04x LMC %u",
		 router_tab_find(&d->rib.neighs, &n.key) ? "replaced" : "added", gs, e.neigh.port,
		 n.lid, n.lmc);
	return edit_done(d, o, router_rib_neigh_add(&d->rib, &n), cmd, "", done);
}

/* A group edited: on a RoCE port it is what the bridging policy sees there (ibrd_roce.c). */
static int mcast_edited(struct ibrd *d, int rc)
{
	if (!rc)
		ibrd_groups_changed(d);
	return rc;
}

int ibrd_cmd_mcast(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	bool del = argc > 1 && !strcmp(argv[1], "del");
	const char *cmd = del ? "mcast del" : "mcast add";
	struct ibrd_conf_word w[EDIT_WORDS_MAX];
	const struct ibrd_conf_mcast *g;
	struct ibrd_conf_entry e;
	struct router_mcast m;
	union ibr_gid mg;
	char ms[IBR_GID_STRLEN], what[96], done[200];
	unsigned nw;
	int port, rc;

	if (argc < 5)
		return ibrd_out_usage(o,
				      "usage: mcast add MGID port P mlid L [sl S] [qkey Q] [pkey "
				      "K] [receivers|senders|both] | mcast del MGID port P");
	if ((rc = edit_words(o, cmd, edit_mcast, argc - 3, argv + 3, w, &nw)))
		return rc;
	if ((rc = ibrd_conf_entry_parse(&e, IBRD_ENTRY_MCAST, del ? IBRD_ENTRY_DEL : IBRD_ENTRY_ADD,
					argv[2], w, nw)))
		return edit_refused(o, cmd, edit_mcast, argv[2], &e, rc);
	g = &e.mcast;
	if ((port = ibrd_cmd_port(d, o, g->port)) < 0)
		return -ENOENT;
	memcpy(mg.raw, g->mgid, 16);
	ibr_gid_ntop(&mg, ms, sizeof(ms));
	if (del) {
		snprintf(what, sizeof(what), "no group %s on port %s", ms, g->port);
		snprintf(done, sizeof(done), "removed group %s from port %s", ms, g->port);
		return edit_done(
			d, o,
			mcast_edited(d, router_rib_mcast_del(&d->rib, g->mgid, (uint8_t)port)), cmd,
			what, done);
	}
	/* as a config's group goes into the RIB (ibrd_state.c) */
	ibrd_conf_mcast_rib(g, (uint8_t)port, &m);
	snprintf(done, sizeof(done),
		 "%s group %s on port %s: MLID 0x%04x, Q_Key 0x%08x, P_Key 0x%04x, %s",
		 router_tab_find(&d->rib.mcasts, &m.key) ? "replaced" : "added", ms, g->port,
		 m.mlid, m.qkey, m.pkey,
		 g->receivers && g->senders ? "receivers and senders (forwarded there)"
		 : g->receivers		    ? "receivers (forwarded there)"
		 : g->senders		    ? "senders only (not forwarded there)"
					    : "no receivers nor senders (not forwarded there)");
	return edit_done(d, o, mcast_edited(d, router_rib_mcast_add(&d->rib, &m)), cmd, "", done);
}
