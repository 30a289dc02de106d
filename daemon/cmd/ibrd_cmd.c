/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd.c - the control commands (ibrouterctl(8)): one request in, an
 * answer through an ibrd_out sink.  Requests are words (lib/ibr_ctl.h),
 * optionally starting with "-o json|text|prometheus".
 */
#include "daemon/ibrd.h"
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_out.h"

#include "lib/ibr_ctl.h"
#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_version(struct ibrd *d, struct ibrd_out *o, int argc, char **argv);
static int cmd_clear(struct ibrd *d, struct ibrd_out *o, int argc, char **argv);
static int cmd_reload(struct ibrd *d, struct ibrd_out *o, int argc, char **argv);
static int cmd_log(struct ibrd *d, struct ibrd_out *o, int argc, char **argv);
static int cmd_capture(struct ibrd *d, struct ibrd_out *o, int argc, char **argv);
static int cmd_help(struct ibrd *d, struct ibrd_out *o, int argc, char **argv);

/*
 * The handler of each command of the protocol's table (ibr_ctl_cmds, whose
 * words, privilege and usage ibrouterctl shares), by its words; every entry
 * there has one here and every one here an entry there (ibrd_cmd_test.c).
 */
static const struct {
	const char *word, *sub;
	ibrd_cmd_fn *fn;
} handlers[] = {
	{ "version", NULL, cmd_version },
	{ "show", "ports", ibrd_cmd_show_ports },
	{ "show", "routes", ibrd_cmd_show_routes },
	{ "show", "neighbours", ibrd_cmd_show_neighs },
	{ "show", "neighbors", ibrd_cmd_show_neighs },
	{ "show", "mcast", ibrd_cmd_show_mcast },
	{ "show", "counters", ibrd_cmd_show_counters },
	{ "show", "drops", ibrd_cmd_show_drops },
	{ "show", "config", ibrd_cmd_show_config },
	{ "show", "osm-prefix-routes", ibrd_cmd_show_osm_routes },
	{ "show", "sa", ibrd_cmd_show_sa },
	{ "show", "peers", ibrd_cmd_show_peers },
	{ "show", "proxies", ibrd_cmd_show_proxies },
	{ "show", "qps", ibrd_cmd_show_qps },
	{ "show", "verbs", ibrd_cmd_show_verbs },
	{ "show", "workers", ibrd_cmd_show_workers },
	{ "show", "latency", ibrd_cmd_show_latency },
	{ "sa", "resync", ibrd_cmd_sa_resync },
	{ "show", "sma", ibrd_cmd_show_sma },
	{ "sma", "release", ibrd_cmd_sma_release },
	{ "show", "plugins", ibrd_cmd_show_plugins },
	/* the OpenSM plugin's opening request; checks its own credentials (ibrd_plugin.c) */
	{ "plugin", "hello", ibrd_cmd_plugin_hello },
	{ "route", "add", ibrd_cmd_route },
	{ "route", "del", ibrd_cmd_route },
	{ "neighbour", "add", ibrd_cmd_neigh },
	{ "neighbour", "del", ibrd_cmd_neigh },
	{ "mcast", "add", ibrd_cmd_mcast },
	{ "mcast", "del", ibrd_cmd_mcast },
	{ "proxy", "add", ibrd_cmd_proxy },
	{ "proxy", "del", ibrd_cmd_proxy },
	{ "clear", "counters", cmd_clear },
	{ "reload", NULL, cmd_reload },
	{ "log", "level", cmd_log },
	{ "trace", NULL, ibrd_cmd_trace },
	{ "capture", "start", cmd_capture },
	{ "capture", "stop", cmd_capture },
	{ "help", NULL, cmd_help },
};

ibrd_cmd_fn *ibrd_cmd_handler(const char *word, const char *sub)
{
	for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
		if (!strcmp(handlers[i].word, word) &&
		    (handlers[i].sub && sub ? !strcmp(handlers[i].sub, sub)
					    : !handlers[i].sub && !sub))
			return handlers[i].fn;
	return NULL;
}

int ibrd_cmd_handlers(const char **word, const char **sub, unsigned max)
{
	unsigned n = 0;

	for (; n < max && n < sizeof(handlers) / sizeof(handlers[0]); n++) {
		word[n] = handlers[n].word;
		sub[n] = handlers[n].sub;
	}
	return (int)n;
}

static int cmd_help(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "command", "privileged" };

	(void)d, (void)argc, (void)argv;
	ibrd_out_table(o, cols, 2);
	for (unsigned i = 0; i < ibr_ctl_ncmds; i++) {
		if (!ibr_ctl_cmds[i].usage)
			continue;
		ibrd_out_str(o, ibr_ctl_cmds[i].usage);
		ibrd_out_bool(o, ibr_ctl_cmds[i].priv);
	}
	return ibrd_out_end(o);
}

/*
 * What a capture start did, said so that the default surprises no one used
 * to tcpdump: drops only, unless `all` ("capturing drops only on port a to
 * FILE (add `all` for every packet)").
 */
static int capture_started(struct ibrd *d, struct ibrd_out *o, int port, bool all,
			   unsigned long long count)
{
	static const char *const cols[] = { "done", "message", "port", "file", "mode" };
	const char *name = d->rib.port[port].name;
	char msg[IBRD_PATH_MAX + 160], lim[48] = "";

	if (count)
		snprintf(lim, sizeof(lim), ", until %llu packets", count);
	if (all)
		snprintf(msg, sizeof(msg), "capturing every packet on port %s to %s%s", name,
			 d->cap->file, lim);
	else
		snprintf(msg, sizeof(msg),
			 "capturing drops only on port %s to %s%s (add `all` for every packet)",
			 name, d->cap->file, lim);
	ibrd_cmd_done_begin(o, cols, 5, msg);
	ibrd_out_str(o, name);
	ibrd_out_str(o, d->cap->file);
	ibrd_out_str(o, all ? "all" : "drops");
	return ibrd_out_end(o);
}

static int cmd_capture(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "done", "message", "file", "packets" };
	unsigned long long count = 0;
	char err[IBRD_PATH_MAX + 128];
	bool all = false;
	int64_t n;
	int port, fd, rc;

	if (!strcmp(argv[1], "stop")) {
		char msg[IBRD_PATH_MAX + 64];

		if (argc != 2)
			return ibrd_out_usage(o, "usage: capture stop");
		if ((n = ibrd_capture_stop(d)) < 0)
			return ibrd_out_error(o, (int)n, "%s",
					      n == -ENOENT ? "no capture is running"
							   : strerror((int)-n));
		snprintf(msg, sizeof(msg), "capture stopped: %lld packet%s in %s", (long long)n,
			 n == 1 ? "" : "s", d->cap->file);
		ibrd_cmd_done_begin(o, cols, 4, msg);
		ibrd_out_str(o, d->cap->file);
		ibrd_out_u64(o, (uint64_t)n);
		return ibrd_out_end(o);
	}
	if (argc < 4)
		goto usage;
	for (int i = 4; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "all") || !strcmp(argv[i], "drops")) {
			all = !strcmp(argv[i], "all");
		} else if (!strcmp(argv[i], "count") && i + 1 < argc) {
			count = strtoull(argv[++i], &end, 0);
			if (*end || !count)
				goto usage;
		} else {
			goto usage;
		}
	}
	if ((port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	/* the daemon never opens FILE itself (ibrd_capture.c) */
	if ((fd = ibrd_ctl_current(d) ? ibrd_client_take_fd(ibrd_ctl_current(d)) : -1) < 0)
		return ibrd_out_error(o, EINVAL,
				      "capture start: no descriptor came with the request: run it "
				      "with ibrouterctl, which opens FILE as you and passes it");
	if ((rc = ibrd_capture_start(d, port, argv[3], all, count, fd, err, sizeof(err))))
		return ibrd_out_error(o, rc, "capture start: %s", err);
	return capture_started(d, o, port, all, count);
usage:
	return ibrd_out_usage(o, "usage: capture start PORT FILE [drops|all] [count N]");
}

static int cmd_version(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "version", "name",	  "uptime_s",
					    "ports",   "workers", "fib_publications" };

	(void)argv;
	if (argc != 1)
		return ibrd_out_usage(o, "usage: version");
	ibrd_out_object(o, cols, 6);
	ibrd_out_str(o, IBRD_VERSION);
	ibrd_out_str(o, d->conf->name);
	ibrd_out_u64(o, (ibr_now_ns() - d->start_ns) / 1000000000u);
	ibrd_out_u64(o, d->conf->nports);
	ibrd_out_u64(o, d->data->nworkers);
	ibrd_out_u64(o, d->fib_publishes);
	return ibrd_out_end(o);
}

static int cmd_clear(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	struct router_counters sum;

	(void)argc, (void)argv;
	memset(&d->data->cleared, 0, sizeof(d->data->cleared));
	ibrd_counters_sum(d, &sum);
	d->data->cleared = sum;
	log_info("control: counters cleared");
	return ibrd_cmd_done(o, "cleared the counters of every port: packets, bytes, errors and "
				"drops count from zero");
}

/* Answered once the file is parsed and applied (ibrd_reload.c): no reply here. */
static int cmd_reload(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	int rc;

	(void)argv;
	if (argc != 1)
		return ibrd_out_usage(o, "usage: reload");
	if ((rc = d->hooks->reload(d, ibrd_ctl_current(d), o->fmt)))
		return ibrd_out_error(o, rc, "reload: %s", strerror(-rc));
	log_info("control: reloading %s", d->conf_path);
	return 0;
}

static int cmd_log(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	int level, was = log_getlevel();

	(void)d;
	if (argc != 3 || (level = log_level_parse(argv[2])) < 0)
		return ibrd_out_usage(o, "usage: log level err|warning|notice|info|debug");
	log_setlevel(level);
	log_info("control: log level %s (was %s)", log_level_name(level), log_level_name(was));
	return ibrd_cmd_done(o, "log level %s (was %s)", log_level_name(level),
			     log_level_name(was));
}

static int cmd_format(int *argc, char ***argv, enum ibrd_fmt *fmt)
{
	if (*argc < 2 || strcmp((*argv)[0], "-o"))
		return 0;
	if (!strcmp((*argv)[1], "json"))
		*fmt = IBRD_FMT_JSON;
	else if (!strcmp((*argv)[1], "text"))
		*fmt = IBRD_FMT_TEXT;
	else if (!strcmp((*argv)[1], "prometheus"))
		*fmt = IBRD_FMT_PROM;
	else
		return -EINVAL;
	*argc -= 2;
	*argv += 2;
	return 0;
}

int ibrd_cmd_run(struct ibrd *d, struct ibrd_out *o, char *req, bool privileged)
{
	char *args[IBR_CTL_ARGS_MAX], **argv = args, w0[64], w1[64];
	int argc = ibr_ctl_split(req, args, IBR_CTL_ARGS_MAX);
	const struct ibr_ctl_cmd *c;
	ibrd_cmd_fn *fn;

	o->privileged = privileged;
	if (argc < 0)
		return ibrd_out_error(o, argc, "malformed request: %s",
				      argc == -E2BIG ? "too many words"
						     : "bad quoting or characters");
	if (cmd_format(&argc, &argv, &o->fmt))
		return ibrd_out_usage(o, "usage: -o json|text|prometheus");
	if (argc == 0)
		return ibrd_out_error(o, EINVAL, "empty request");
	if ((c = ibr_ctl_cmd_find(argc, argv)) && (fn = ibrd_cmd_handler(c->word, c->sub))) {
		if (c->priv && !privileged)
			return ibrd_out_error(o, EPERM, "%s%s%s: not allowed for this user",
					      c->word, c->sub ? " " : "", c->sub ? c->sub : "");
		return fn(d, o, argc, argv);
	}
	/* the words as the request has them, escaped: they may hold any byte */
	return ibrd_out_usage(o, "unknown command '%s%s%s'",
			      ibrd_out_escape(argv[0], w0, sizeof(w0)), argc > 1 ? " " : "",
			      argc > 1 ? ibrd_out_escape(argv[1], w1, sizeof(w1)) : "");
}
