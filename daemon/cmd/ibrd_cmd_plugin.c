/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_plugin.c - the OpenSM plugins' control commands (ibrouter-osm(8),
 * ibrouterctl(8)): "plugin hello", with which a plugin's connection becomes
 * its session, and "show plugins" (with -o prometheus as ibrouter_plugin_*
 * metrics).  The sessions themselves are daemon/learn/ibrd_plugin.c's.
 */
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_client.h"
#include "daemon/ctl/ibrd_prom.h"
#include "daemon/learn/ibrd_plugin.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/*
 * plugin hello VERSION: a client becomes an OpenSM plugin's session
 * (daemon/learn/ibrd_plugin.c).  Accepted only with `osm-plugin = true`
 * (ibrouterd.conf(5)) and from root or the daemon's own uid (SO_PEERCRED):
 * a plugin feeds the routing state, so the socket group that may run
 * state-changing commands is not enough.
 */
int ibrd_cmd_plugin_hello(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "version", "id", "name" };
	struct ibrd_client *c = ibrd_ctl_current(d);
	const struct ucred *cr;
	struct ibrd_plugin *p;
	char ver[20];
	int rc;

	if (argc != 3)
		return ibrd_out_usage(o, "usage: plugin hello VERSION");
	if (strcmp(argv[2], "1"))
		return ibrd_out_error(o, EINVAL,
				      "plugin protocol version %s is not spoken here (this "
				      "ibrouterd speaks %d)",
				      ibrd_out_escape(argv[2], ver, sizeof(ver)), IBR_PLUG_VERSION);
	if (!c)
		return ibrd_out_error(o, EINVAL, "plugin hello: only on the control socket");
	if (!d->conf->osm_plugin)
		return ibrd_out_error(
			o, ENOTSUP,
			"the OpenSM plugin is off here (learning { osm-plugin = true })");
	cr = ibrd_client_cred(c);
	if (cr->uid != 0 && cr->uid != geteuid())
		return ibrd_out_error(o, EPERM,
				      "plugin: uid %u may not feed this router (root or %u)",
				      (unsigned)cr->uid, (unsigned)geteuid());
	if (d->plug->n >= IBRD_PLUGINS_MAX)
		return ibrd_out_error(o, EBUSY, "plugin: %d plugins are connected already",
				      IBRD_PLUGINS_MAX);
	if (!(p = ibrd_plugin_new(d, c, cr)))
		return ibrd_out_error(o, ENOMEM, "out of memory");
	ibrd_out_object(o, cols, 3);
	ibrd_out_u64(o, IBR_PLUG_VERSION);
	ibrd_out_u64(o, p->id);
	ibrd_out_str(o, d->conf->name);
	if ((rc = ibrd_out_end(o))) {
		ibrd_plugin_discard(p);
		return rc;
	}
	ibrd_plugin_attach(d, p);
	return 0;
}

static const char *plugin_version_word(const char *v)
{
	const char *sp = strrchr(v, ' ');

	return sp && sp[1] ? sp + 1 : v;
}

/* The ports bound to p, as "a,b*": a star where another plugin feeds the port. */
static void plugin_ports_str(const struct ibrd *d, const struct ibrd_plugin *p, char *buf)
{
	buf[0] = '\0';
	for (uint32_t i = 0; i < d->rib.nports; i++)
		if (p->bound >> i & 1) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, d->rib.port[i].name);
			if (!ibrd_plugin_feeds(d, p, i))
				strcat(buf, "*"); /* bound, but another plugin feeds it */
		}
}

#define PLUGIN_PORTS_LEN (ROUTER_MAX_PORTS * (ROUTER_PORT_NAME + 1) + 1)

/* The numeric and yes/no columns of show plugins, in its order. */
enum plugin_prom_id {
	PLUGIN_PROM_SM_LID,
	PLUGIN_PROM_MASTER,
	PLUGIN_PROM_END_PORTS,
	PLUGIN_PROM_GROUPS,
	PLUGIN_PROM_MESSAGES,
	PLUGIN_PROM_SNAPSHOTS,
	PLUGIN_PROM_DELTAS,
	PLUGIN_PROM_GAPS,
	PLUGIN_PROM_DROPPED,
	PLUGIN_PROM_QUEUE_LEN,
	PLUGIN_PROM_QUEUE_MAX,
	PLUGIN_PROM_ROUTES_SENT,
	PLUGIN_PROM_OSM_ROUTES,
	PLUGIN_PROM_SHADOWED,
	PLUGIN_PROM_SWEEPS,
	PLUGIN_PROM_JOINS,
	PLUGIN_PROM_CONNECTED,
	PLUGIN_PROM_LAST,
	PLUGIN_PROM_MAX
};

static const struct ibrd_prom_metric plugin_prom_metrics[PLUGIN_PROM_MAX] = {
	[PLUGIN_PROM_SM_LID] = { "ibrouter_plugin_sm_lid", "gauge",
				 "The LID of the plugin's OpenSM.", 1 },
	[PLUGIN_PROM_MASTER] = { "ibrouter_plugin_master", "gauge",
				 "1 while the plugin's OpenSM is the master SM.", 1 },
	[PLUGIN_PROM_END_PORTS] = { "ibrouter_plugin_end_ports", "gauge",
				    "End ports in the plugin's view of its subnet.", 1 },
	[PLUGIN_PROM_GROUPS] = { "ibrouter_plugin_groups", "gauge",
				 "Multicast groups in the plugin's view of its subnet.", 1 },
	[PLUGIN_PROM_MESSAGES] = { "ibrouter_plugin_messages_total", "counter",
				   "Messages received from the plugin.", 1 },
	[PLUGIN_PROM_SNAPSHOTS] = { "ibrouter_plugin_snapshots_total", "counter",
				    "Complete snapshots received from the plugin.", 1 },
	[PLUGIN_PROM_DELTAS] = { "ibrouter_plugin_deltas_total", "counter",
				 "Deltas (traps 64 to 67) received from the plugin.", 1 },
	[PLUGIN_PROM_GAPS] = { "ibrouter_plugin_gaps_total", "counter",
			       "Gaps in the plugin's message numbers.", 1 },
	[PLUGIN_PROM_DROPPED] = { "ibrouter_plugin_dropped_messages_total", "counter",
				  "Messages the plugin dropped for this daemon (its count).", 1 },
	[PLUGIN_PROM_QUEUE_LEN] = { "ibrouter_plugin_queue_length", "gauge",
				    "Messages in the plugin's queue for this daemon.", 1 },
	[PLUGIN_PROM_QUEUE_MAX] = { "ibrouter_plugin_queue_limit", "gauge",
				    "The most messages the plugin's queue for this daemon holds.",
				    1 },
	[PLUGIN_PROM_ROUTES_SENT] = { "ibrouter_plugin_routes_sent", "gauge",
				      "Prefix routes in the last set sent to the plugin.", 1 },
	[PLUGIN_PROM_OSM_ROUTES] = { "ibrouter_plugin_osm_routes", "gauge",
				     "Prefix routes the plugin has in OpenSM.", 1 },
	[PLUGIN_PROM_SHADOWED] = { "ibrouter_plugin_shadowed_routes", "gauge",
				   "Routes left out: an administrator's line names the prefix.",
				   1 },
	[PLUGIN_PROM_SWEEPS] = { "ibrouter_plugin_sweeps_total", "counter",
				 "Heavy sweeps the plugin asked OpenSM for.", 1 },
	[PLUGIN_PROM_JOINS] = { "ibrouter_plugin_joins_sent_total", "counter",
				"Multicast joins and leaves sent to the plugin.", 1 },
	[PLUGIN_PROM_CONNECTED] = { "ibrouter_plugin_connected_timestamp_seconds", "gauge",
				    "When the plugin connected (Unix time).", 1000000000u },
	[PLUGIN_PROM_LAST] = { "ibrouter_plugin_last_message_timestamp_seconds", "gauge",
			       "When the last message came from the plugin (Unix time).",
			       1000000000u },
};

static void plugin_prom_values(const struct ibrd_plugin *p, uint64_t v[PLUGIN_PROM_MAX])
{
	const struct ibr_plug_stats *st = &p->s.remote;

	v[PLUGIN_PROM_SM_LID] = p->s.h.sm_lid;
	v[PLUGIN_PROM_MASTER] = p->s.sm_state == 3;
	v[PLUGIN_PROM_END_PORTS] = p->s.live.ports.count;
	v[PLUGIN_PROM_GROUPS] = p->s.live.groups.count;
	v[PLUGIN_PROM_MESSAGES] = p->s.msgs;
	v[PLUGIN_PROM_SNAPSHOTS] = p->s.snapshots;
	v[PLUGIN_PROM_DELTAS] = p->s.deltas;
	v[PLUGIN_PROM_GAPS] = p->s.gaps;
	v[PLUGIN_PROM_DROPPED] = st->dropped;
	v[PLUGIN_PROM_QUEUE_LEN] = st->queue_len;
	v[PLUGIN_PROM_QUEUE_MAX] = st->queue_max;
	v[PLUGIN_PROM_ROUTES_SENT] = p->nsent;
	v[PLUGIN_PROM_OSM_ROUTES] = st->routes;
	v[PLUGIN_PROM_SHADOWED] = st->shadowed;
	v[PLUGIN_PROM_SWEEPS] = st->sweeps;
	v[PLUGIN_PROM_JOINS] = p->mjoins_sent;
	/* the text form's ages, as the times they count from (Prometheus' advice) */
	v[PLUGIN_PROM_CONNECTED] = ibrd_prom_wall_ns(p->connected_ns);
	v[PLUGIN_PROM_LAST] = ibrd_prom_wall_ns(p->last_ns);
}

/*
 * Who each plugin is (ibrouter_plugin_info: the text form's pid, opensm,
 * prefix and ports, as labels) and which ports it is bound to
 * (ibrouter_plugin_feeds: 1 where it feeds the port, 0 where another does).
 */
static void plugin_prom_who(struct ibrd *d, struct ibrd_out *o)
{
	ibrd_out_printf(o, "# HELP ibrouter_plugin_info Who the plugin is (labels); always 1.\n"
			   "# TYPE ibrouter_plugin_info gauge\n");
	for (const struct ibrd_plugin *p = d->plug->list; p; p = p->next) {
		char ports[PLUGIN_PORTS_LEN], eports[2 * PLUGIN_PORTS_LEN], ever[2 * 40];
		union ibr_gid g = ibr_gid_make(p->s.h.subnet_prefix, 0);
		char gs[IBR_GID_STRLEN];

		plugin_ports_str(d, p, ports);
		ibrd_prom_escape(plugin_version_word(p->s.h.osm_version), ever, sizeof(ever));
		ibrd_prom_escape(ports, eports, sizeof(eports));
		ibrd_out_printf(o,
				"ibrouter_plugin_info{plugin=\"%u\",pid=\"%u\",opensm=\"%s\","
				"prefix=\"%s\",ports=\"%s\"} 1\n",
				p->id, (unsigned)p->s.h.pid, ever,
				p->s.h.subnet_prefix ? ibr_gid_ntop(&g, gs, sizeof(gs)) : "",
				eports);
	}
	ibrd_out_printf(o, "# HELP ibrouter_plugin_feeds Per port bound to the plugin: 1 if the "
			   "plugin feeds it, 0 if another plugin does.\n"
			   "# TYPE ibrouter_plugin_feeds gauge\n");
	for (const struct ibrd_plugin *p = d->plug->list; p; p = p->next)
		for (uint32_t i = 0; i < d->rib.nports; i++) {
			char name[2 * ROUTER_PORT_NAME + 1];

			if (p->bound >> i & 1)
				ibrd_out_printf(
					o, "ibrouter_plugin_feeds{plugin=\"%u\",port=\"%s\"} %d\n",
					p->id,
					ibrd_prom_escape(d->rib.port[i].name, name, sizeof(name)),
					ibrd_plugin_feeds(d, p, i));
		}
}

/*
 * show plugins -o prometheus: every family's HELP and TYPE, then a sample
 * per plugin, labelled plugin="ID" (the id of show plugins and of the log's
 * "plugin ID:" lines); no plugin, no sample, still a valid exposition.
 */
static int plugin_prom(struct ibrd *d, struct ibrd_out *o)
{
	uint64_t v[IBRD_PLUGINS_MAX][PLUGIN_PROM_MAX];
	unsigned id[IBRD_PLUGINS_MAX], n = 0;

	for (const struct ibrd_plugin *p = d->plug->list; p && n < IBRD_PLUGINS_MAX; p = p->next) {
		id[n] = p->id;
		plugin_prom_values(p, v[n++]);
	}
	plugin_prom_who(d, o);
	for (int m = 0; m < PLUGIN_PROM_MAX; m++) {
		ibrd_prom_family(o, &plugin_prom_metrics[m]);
		for (unsigned i = 0; i < n; i++) {
			char labels[24];

			snprintf(labels, sizeof(labels), "plugin=\"%u\"", id[i]);
			ibrd_prom_sample(o, &plugin_prom_metrics[m], labels, v[i][m]);
		}
	}
	return ibrd_out_end(o);
}

int ibrd_cmd_show_plugins(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = {
		"id",	  "pid",       "opensm",      "prefix",	     "sm_lid",	   "master",
		"ports",  "end_ports", "groups",      "messages",    "snapshots",  "deltas",
		"gaps",	  "dropped",   "queue",	      "routes_sent", "osm_routes", "shadowed",
		"sweeps", "joins",     "connected_s", "idle_s",
	};
	uint64_t now = ibr_now_ns();

	(void)argv;
	if (argc != 2)
		return ibrd_out_usage(o, "usage: show plugins");
	if (o->fmt == IBRD_FMT_PROM)
		return plugin_prom(d, o);
	ibrd_out_table(o, cols, sizeof(cols) / sizeof(cols[0]));
	for (struct ibrd_plugin *p = d->plug->list; p; p = p->next) {
		const struct ibr_plug_stats *st = &p->s.remote;
		char ports[PLUGIN_PORTS_LEN], buf[32];

		plugin_ports_str(d, p, ports);
		ibrd_out_u64(o, p->id);
		ibrd_out_u64(o, (uint64_t)p->s.h.pid);
		/* "OpenSM 3.3.23" -> "3.3.23": one word, as text tables need */
		ibrd_out_str(o, p->s.h.osm_version[0] ? plugin_version_word(p->s.h.osm_version)
						      : NULL);
		ibrd_out_prefix(o, p->s.h.subnet_prefix);
		ibrd_out_lid(o, p->s.h.sm_lid);
		ibrd_out_bool(o, p->s.sm_state == 3);
		ibrd_out_str(o, ports[0] ? ports : NULL);
		ibrd_out_u64(o, p->s.live.ports.count);
		ibrd_out_u64(o, p->s.live.groups.count);
		ibrd_out_u64(o, p->s.msgs);
		ibrd_out_u64(o, p->s.snapshots);
		ibrd_out_u64(o, p->s.deltas);
		ibrd_out_u64(o, p->s.gaps);
		ibrd_out_u64(o, st->dropped);
		snprintf(buf, sizeof(buf), "%u/%u", st->queue_len, st->queue_max);
		ibrd_out_str(o, buf);
		ibrd_out_u64(o, p->nsent);
		ibrd_out_u64(o, st->routes);
		ibrd_out_u64(o, st->shadowed);
		ibrd_out_u64(o, st->sweeps);
		ibrd_out_u64(o, p->mjoins_sent);
		ibrd_out_u64(o, (now - p->connected_ns) / 1000000000u);
		ibrd_out_u64(o, (now - p->last_ns) / 1000000000u);
	}
	return ibrd_out_end(o);
}
