/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_main.c - libibrouter-osm.so's entry points: the osm_event_plugin
 * symbol OpenSM looks up (opensm/osm_event_plugin.c osm_epi_construct()),
 * create(), delete() and report().
 *
 * OpenSM loads "lib<event_plugin_name>.so" with dlopen() (the library path:
 * LD_LIBRARY_PATH, ld.so.conf, the system directories) and compares our
 * osm_version with its own before it calls anything: a plugin built for
 * another OpenSM is refused with OpenSM's own log line ("OpenSM version
 * mismatch - plugin was built against ..."), because it would read
 * OpenSM's structures at the wrong offsets.  create() checks the same once
 * more, in case an OpenSM without that check loads it.
 *
 * report() never blocks and never does I/O: a trap's delta or the
 * SUBNET_UP snapshot is copied into a batch and queued (bounded; dropped
 * and counted when full), and the plugin's thread is woken.
 */
#include "plugins/posm_osm.h"

#include <opensm/osm_event_plugin.h>
#include <opensm/osm_version.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void main_warn(void *ctx, const char *word)
{
	posm_log(ctx, 1, "option \"%s\" is not this plugin's: ignored", word);
}

static bool main_inbox_full(struct posm *p)
{
	bool full;

	pthread_mutex_lock(&p->qlock);
	full = p->inbox.n == p->inbox.cap;
	pthread_mutex_unlock(&p->qlock);
	return full;
}

/* SUBNET_UP (sweeper thread, OpenSM's lock free): routes again, then a snapshot. */
static void main_subnet_up(struct posm *p)
{
	struct posm_bbuf b = { 0 };
	int rc;

	posm_osm_on_sweep(p);
	posm_sr_sweep(p);
	if (main_inbox_full(p)) {
		atomic_store(&p->snap_wanted, true); /* the thread takes one when it can */
		posm_wake(p);
		return;
	}
	cl_plock_acquire(&p->osm->lock);
	rc = posm_snap_take(p, &b);
	cl_plock_release(&p->osm->lock);
	posm_inbox_put(p, &b, true, rc);
	posm_bbuf_free(&b);
}

/* TRAP (OpenSM holds its lock, as reader or writer: read, do not take it). */
static void main_trap(struct posm *p, const ib_mad_notice_attr_t *n)
{
	struct posm_bbuf b = { 0 };
	int rc;

	if (!n)
		return;
	rc = posm_snap_trap(p, n, &b);
	posm_inbox_put(p, &b, false, rc);
	posm_bbuf_free(&b);
}

static void main_report(void *data, osm_epi_event_id_t id, void *event_data)
{
	struct posm *p = data;

	atomic_fetch_add(&p->events, 1);
	switch (id) {
	case OSM_EVENT_ID_TRAP:
		main_trap(p, event_data);
		break;
	case OSM_EVENT_ID_SUBNET_UP:
		main_subnet_up(p);
		break;
	case OSM_EVENT_ID_HEAVY_SWEEP_START:
		/* a sweep forced by SIGHUP or a trap re-read prefix_routes_file just before */
	case OSM_EVENT_ID_HEAVY_SWEEP_DONE:
		/* every re-read of this sweep is behind us */
		posm_osm_on_sweep(p);
		if (id == OSM_EVENT_ID_HEAVY_SWEEP_DONE)
			posm_sr_sweep(p);
		break;
	default:
		break; /* UCAST_ROUTING_DONE carries a flag, not a pointer: never read it */
	}
}

static void main_free(struct posm *p)
{
	posm_queue_free(&p->inbox);
	posm_watch_table_free(&p->watch);
	posm_rec_free(&p->recs);
	pthread_mutex_destroy(&p->qlock);
	pthread_mutex_destroy(&p->route_lock);
	free(p->want);
	free(p);
}

/* What the plugin takes of the routers' ServiceRecords (posm_sr.c), said once at load. */
static void main_log_records(struct posm *p)
{
	if (!p->o.nrouters && !p->o.routers_any) {
		posm_log(p, 1, "routers' ServiceRecords: not read (no routers= option)");
		return;
	}
	if (!p->o.records_s) {
		posm_log(p, 1, "routers' ServiceRecords: not read (records=0)");
		return;
	}
	posm_log(p, p->o.routers_any && !p->o.srkey_set ? 0 : 1,
		 "routers' ServiceRecords: read every %u s, trusted from %s%s%s", p->o.records_s,
		 p->o.routers_any ? "any port" : "the ports of routers=",
		 p->o.srkey_set ? " with the ServiceKey of srkey=" : "",
		 p->o.routers_any && !p->o.srkey_set
			 ? " (routers=any without srkey=: any host that can register a "
			   "ServiceRecord here can be made a router)"
			 : "");
}

static void *main_create(struct osm_opensm *osm)
{
	const char *opts = osm->subn.opt.event_plugin_options;
	struct posm *p;
	char err[256] = "";
	int rc;

	if (strcmp(osm->osm_version, OSM_VERSION)) {
		osm_log(&osm->log, OSM_LOG_ERROR,
			POSM_NAME ": built for %s, loaded by %s: not starting (rebuild it)\n",
			OSM_VERSION, osm->osm_version);
		return NULL;
	}
	if (!(p = calloc(1, sizeof(*p))))
		return NULL;
	p->osm = osm;
	p->efd = -1;
	p->o.verbose = 1;
	pthread_mutex_init(&p->qlock, NULL);
	pthread_mutex_init(&p->route_lock, NULL);
	posm_watch_table_init(&p->watch, POSM_WATCH_MAX);
	for (unsigned i = 0; i < POSM_SOCK_MAX; i++)
		p->conn[i].fd = -1;
	if (posm_opts_parse(opts, &p->o, err, sizeof(err), main_warn, p)) {
		osm_log(&osm->log, OSM_LOG_ERROR,
			POSM_NAME ": event_plugin_options: %s: not starting\n", err);
		main_free(p);
		return NULL;
	}
	/* OpenSM re-reads prefix_routes_file only with a config file (osm_subn_rescan_conf_files) */
	p->conf_file = osm->subn.opt.config_file != NULL;
	if ((rc = posm_queue_init(&p->inbox, p->o.queue)) || (rc = posm_conn_start(p))) {
		osm_log(&osm->log, OSM_LOG_ERROR, POSM_NAME ": cannot start: %s\n", strerror(-rc));
		posm_conn_stop(p);
		main_free(p);
		return NULL;
	}
	posm_log(p, 1,
		 "loaded (%s, protocol %d): %u router(s), first at %s; %s router ports; queue "
		 "%u, refresh %u s, watch %u s, hold %u s, alive %u s; routes applied %s",
		 OSM_VERSION, IBR_PLUG_VERSION, p->o.nsock, p->o.sock[0],
		 p->o.nserve ? "serving the listed" : "serving all", p->o.queue, p->o.refresh_s,
		 p->o.watch_s, p->o.hold_s, p->o.alive_s,
		 p->conf_file ? "at heavy sweeps (OpenSM has a config file)"
			      : "at once (OpenSM has no config file)");
	main_log_records(p);
	return p;
}

static void main_delete(void *data)
{
	struct posm *p = data;
	unsigned rtr;

	if (!p)
		return;
	posm_conn_stop(p);
	/* OpenSM's SM and SA are shut down by now (osm_opensm_destroy): leave its list as we found it */
	cl_plock_excl_acquire(&p->osm->lock);
	posm_route_remove(&p->osm->subn.prefix_routes_list, p);
	/* OpenSM destroys plugins before its subnet, and frees no entry of this table */
	rtr = posm_rtr_remove(&p->osm->subn, p);
	cl_plock_release(&p->osm->lock);
	posm_log(p, 1,
		 "unloaded: %llu events, %llu dropped at the inbox; router port joins %llu, "
		 "leaves %llu, refused %llu; watch: %llu passes, %llu groups told",
		 (unsigned long long)atomic_load(&p->events),
		 (unsigned long long)atomic_load(&p->inbox_drops), (unsigned long long)p->mc_joins,
		 (unsigned long long)p->mc_leaves, (unsigned long long)p->mc_refused,
		 (unsigned long long)p->watch_passes, (unsigned long long)p->watch_told);
	posm_log(p, 1,
		 "unloaded: CA router ports in OpenSM's table of routers: %llu added, %llu "
		 "removed, %u taken out now; unknown router ports logged %llu; routers' "
		 "ServiceRecords: %llu reads, %u ports refused, %u times a router taken as dead",
		 (unsigned long long)p->rtr.added, (unsigned long long)p->rtr.removed, rtr,
		 (unsigned long long)p->unknown_logs, (unsigned long long)p->recs.reads,
		 p->recs.refused_ports, p->recs.expired);
	main_free(p);
}

/* The symbol OpenSM looks for (OSM_EVENT_PLUGIN_IMPL_NAME). */
osm_event_plugin_t osm_event_plugin = {
	.osm_version = OSM_VERSION,
	.create = main_create,
	.delete = main_delete,
	.report = main_report,
};
