/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_reload.c - reload (SIGHUP, ibrouterctl reload): the file is parsed
 * into a new config, which is applied whole or not at all (ibrouterd.conf(5),
 * RELOAD).
 *
 * Everything that can fail happens first, beside what runs: the new RIB is
 * built (ibrd_state_build: the new file's entries, and what no file made
 * carried over from the old RIB), the sockets of new sim ports are bound,
 * a moved control socket listens and a moved PID file is written.  A
 * failure there changes nothing.  Then the switch: the workers stop only
 * when the data path changes (ports, their sockets or devices, the worker
 * count, the verbs proxies), the MAD channels restart only when ports or
 * learning change.  If the new data path or a new MAD channel cannot start,
 * the old config is put back and started again, so the daemon forwards as
 * before and the reload reports the error.
 *
 * What a reload keeps, by port name (a port's index may change):
 * - entries no file made: learned from the SA or an OpenSM plugin, or added
 *   with ibrouterctl; the old file's entries go and the new file's come;
 * - what the fabric taught a port (LID, LMC, prefix) unless the file sets it;
 * - its counters (a new port starts at zero, a removed port's are gone);
 * - its sim socket and the packets queued on it;
 * - what its SMs set in its SMA (sma_renew), unless its SMA settings changed.
 */
#include "daemon/ibrd.h"
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/ctl/ibrd_out.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"
#include "sma/sma.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct reload {
	struct ibrd_conf *nc, *oc;
	int from[ROUTER_MAX_PORTS]; /* new port index -> old one, -1: a new port */
	int to[ROUTER_MAX_PORTS];   /* old port index -> new one, -1: gone */
	bool data;		    /* the workers restart */
	bool mad;		    /* the MAD channels (and SA clients) restart */
	/* what the switch replaces, kept until the new config runs */
	struct router_rib rib;
	bool vdown[ROUTER_MAX_PORTS];
	struct ibrd_proxy proxy[IBRD_MAX_PROXIES];
	unsigned nproxies;
	struct router_counters retired, cleared;
	struct ibrd_sim_stage sims;
	struct sma *sma;	      /* the new SMA, its ports' state carried over */
	struct ibrd_ctl_listener ctl; /* a moved control socket, fd -1 when not */
	char pid_file[IBRD_PATH_MAX]; /* a moved PID file, written */
};

/* The same ports in the same order with the same data paths: the workers need not stop. */
static bool reload_same_data(const struct ibrd_conf *a, const struct ibrd_conf *b)
{
	if (a->nports != b->nports || a->workers != b->workers ||
	    a->worker_mode != b->worker_mode || a->worker_poll != b->worker_poll ||
	    a->nworker_cpus != b->nworker_cpus ||
	    memcmp(a->worker_cpus, b->worker_cpus, a->nworker_cpus * sizeof(a->worker_cpus[0])))
		return false;
	for (unsigned i = 0; i < a->nports; i++) {
		const struct ibrd_conf_port *p = &a->port[i], *q = &b->port[i];

		if (strcmp(p->name, q->name) || p->data != q->data ||
		    strcmp(p->sim_socket, q->sim_socket) || strcmp(p->sim_peer, q->sim_peer) ||
		    strcmp(p->device, q->device) || p->device_port != q->device_port ||
		    p->relay_qkey != q->relay_qkey || p->rq_depth != q->rq_depth ||
		    p->sq_depth != q->sq_depth)
			return false;
	}
	return true;
}

/* The same ports attached the same way, learning the same way: the MAD channels stay. */
static bool reload_same_mad(const struct ibrd_conf *a, const struct ibrd_conf *b)
{
	if (a->nports != b->nports || a->sa_client != b->sa_client || a->sm_key != b->sm_key ||
	    a->resync_interval != b->resync_interval)
		return false;
	for (unsigned i = 0; i < a->nports; i++) {
		const struct ibrd_conf_port *p = &a->port[i], *q = &b->port[i];

		if (strcmp(p->name, q->name) || p->mad != q->mad || p->sa_client != q->sa_client ||
		    strcmp(p->umad_ca, q->umad_ca) || p->umad_port != q->umad_port ||
		    strcmp(p->ibsim_socket, q->ibsim_socket) ||
		    strcmp(p->ibsim_node, q->ibsim_node) || p->ibsim_port != q->ibsim_port)
			return false;
	}
	return true;
}

/* Port positions old <-> new, by name. */
static void reload_map(struct reload *r)
{
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		r->from[i] = r->to[i] = -1;
	for (unsigned i = 0; i < r->nc->nports; i++) {
		r->from[i] = ibrd_conf_port_index(r->oc, r->nc->port[i].name);
		if (r->from[i] >= 0)
			r->to[r->from[i]] = (int)i;
	}
}

/* Per-port state indexed by position, moved to the new positions (`src`: new -> old). */
static void reload_move_vdown(bool *vdown, const int *src)
{
	bool old[ROUTER_MAX_PORTS];

	memcpy(old, vdown, sizeof(old));
	for (unsigned i = 0; i < ROUTER_MAX_PORTS; i++)
		vdown[i] = src[i] >= 0 && old[src[i]];
}

/* The proxies added with ibrouterctl follow their port; the file's are replaced. */
static void reload_proxies(struct ibrd *d, const struct reload *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < d->data->nproxies; i++) {
		struct ibrd_proxy x = d->data->proxy[i];

		if (x.conf || r->to[x.port] < 0)
			continue;
		x.port = (uint32_t)r->to[x.port];
		d->data->proxy[n++] = x;
	}
	d->data->nproxies = n;
	ibrd_proxy_load(d, r->nc);
}

/* Put back what reload_prepare changed in d. */
static void reload_unprepare(struct ibrd *d, struct reload *r)
{
	router_rib_free(&d->rib);
	d->rib = r->rib;
	d->dirty_ports = (1u << d->rib.nports) - 1; /* the old ports' connected routes again */
	memcpy(d->vdown, r->vdown, sizeof(d->vdown));
	memcpy(d->data->proxy, r->proxy, sizeof(d->data->proxy));
	d->data->nproxies = r->nproxies;
	ibrd_data_unstage(d, &r->sims);
	sma_free(r->sma);
	r->sma = NULL;
	ibrd_ctl_listener_close(&r->ctl);
	if (r->pid_file[0])
		ibrd_pidfile_remove(r->pid_file);
}

/*
 * Everything that can fail before the switch: the new RIB (the old one is
 * kept in r), the new sim sockets, a moved control socket and PID file.
 */
static int reload_prepare(struct ibrd *d, struct reload *r, char *err, size_t errlen)
{
	const char *sock = d->sock_path ? d->sock_path : r->nc->ctl_socket;
	int rc;

	r->ctl.fd = -1;
	if (r->nc->node_guid != r->oc->node_guid ||
	    r->nc->system_image_guid != r->oc->system_image_guid ||
	    strcmp(r->nc->node_desc, r->oc->node_desc)) {
		/* what the SMs know the node by (its SMA's NodeInfo): only at start */
		snprintf(err, errlen,
			 "the router's node-guid, system-image-guid or node-desc "
			 "changed: restart ibrouterd for that");
		return -EINVAL;
	}
	r->rib = d->rib;
	memcpy(r->vdown, d->vdown, sizeof(r->vdown));
	memcpy(r->proxy, d->data->proxy, sizeof(r->proxy));
	r->nproxies = d->data->nproxies;
	reload_move_vdown(d->vdown, r->from);
	reload_proxies(d, r);
	/* the proxies of a verbs port are opened with it: new ones restart the data path */
	r->data = !reload_same_data(r->oc, r->nc) || d->data->nproxies != r->nproxies ||
		  memcmp(d->data->proxy, r->proxy, sizeof(d->data->proxy[0]) * d->data->nproxies);
	rc = ibrd_state_build(d, r->nc, r->oc, &r->rib, r->from);
	d->dirty_ports = 0; /* every port's connected route is new (the indexes may have moved) */
	if (rc) {
		snprintf(err, errlen, "the new tables: %s", strerror(-rc));
		goto fail;
	}
	if (!(r->sma = ibrd_sma_renew(d, r->nc, r->from))) {
		rc = errno ? -errno : -ENOMEM;
		snprintf(err, errlen, "the SMA: %s", strerror(-rc));
		goto fail;
	}
	if (r->data && (rc = ibrd_data_stage(d, r->nc, &r->sims))) {
		snprintf(err, errlen, "a sim socket: %s", strerror(-rc));
		goto fail;
	}
	if (strcmp(sock, ibrd_ctl_listener_path(d)) &&
	    (rc = ibrd_ctl_listener_open(&r->ctl, sock, r->nc->ctl_mode, r->nc->ctl_group))) {
		snprintf(err, errlen, "control socket %s: %s", sock, strerror(-rc));
		goto fail;
	}
	if (strcmp(r->nc->pid_file, d->pid_file) && r->nc->pid_file[0]) {
		if ((rc = ibrd_pidfile_write(r->nc->pid_file))) {
			snprintf(err, errlen, "pid file %s: %s", r->nc->pid_file, strerror(-rc));
			goto fail;
		}
		snprintf(r->pid_file, sizeof(r->pid_file), "%s", r->nc->pid_file);
	}
	return rc;
fail:
	reload_unprepare(d, r);
	return rc;
}

int ibrd_reload_data(struct ibrd *d)
{
	int rc;

	if (d->data->running)
		ibrd_data_stop(d);
	if ((rc = ibrd_verbs_open(d)))
		return rc;
	return ibrd_data_start(d);
}

/* The data path and MAD channels of d->conf, once the old ones stopped. */
static int reload_start(struct ibrd *d, const struct reload *r)
{
	int rc = 0;

	if (r->data && (rc = ibrd_reload_data(d)))
		return rc;
	if (r->mad && ((rc = ibrd_mad_start(d)) || (rc = ibrd_sa_start(d)))) {
		ibrd_sa_stop(d);
		ibrd_mad_stop(d); /* the channels that did attach */
		if (r->data)
			ibrd_data_stop(d);
	}
	return rc;
}

static void reload_stop(struct ibrd *d, const struct reload *r)
{
	if (r->mad) {
		ibrd_mcast_stop(d); /* leaves the groups the router joined */
		ibrd_sa_stop(d);
		ibrd_mad_stop(d);
	}
	if (r->data)
		ibrd_data_stop(d);
}

/* The switch failed: the old config, its RIB, sockets and channels again. */
static void reload_rollback(struct ibrd *d, struct reload *r)
{
	if (r->data)
		ibrd_counters_move(d, r->to);
	d->conf = r->oc;
	reload_unprepare(d, r);
	if (reload_start(d, r))
		log_warnx("reload: the old config's data path or MAD channels did not start "
			  "again: restart ibrouterd");
}

/* Everything is in: let go of what the old config held. */
static void reload_commit(struct ibrd *d, struct reload *r)
{
	const struct ibrd_conf *nc = d->conf;

	router_rib_free(&r->rib);
	/*
	 * Verbs ports kept open (the same ports in the same places): what their
	 * HCA ports say into the new RIB, as when they open; else a RoCE port
	 * would be an InfiniBand one until its next event (its connected route
	 * by LID, its groups not the bridging policy's).  Reopened ones did so.
	 */
	if (!r->data)
		ibrd_verbs_sync(d);
	ibrd_data_commit(&r->sims);
	ibrd_sma_swap(d, r->sma); /* SMPs are answered on this thread: none is in flight */
	r->sma = NULL;
	if (r->ctl.fd >= 0)
		ibrd_ctl_listener_swap(d, &r->ctl);
	else
		ibrd_ctl_listener_chmod(d, nc->ctl_mode, nc->ctl_group);
	if (r->pid_file[0]) {
		ibrd_pidfile_remove(d->pid_file);
		snprintf(d->pid_file, sizeof(d->pid_file), "%s", r->pid_file);
	}
	if (!d->verbose && nc->log_level != r->oc->log_level)
		log_setlevel(nc->log_level);
	/* the new tables published at the turn's end; the bridging policy may have changed */
	ibrd_mcast_feeds_conf(d);
	ibrd_groups_changed(d);
}

int ibrd_reload_apply(struct ibrd *d, struct ibrd_conf *nc, char *err, size_t errlen)
{
	struct reload *r = calloc(1, sizeof(*r));
	int rc;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		ibrd_conf_free(nc);
		return -ENOMEM;
	}
	r->nc = nc;
	r->oc = d->conf;
	reload_map(r);
	r->mad = !reload_same_mad(r->oc, nc);
	if ((rc = reload_prepare(d, r, err, errlen)))
		goto fail;
	reload_stop(d, r);
	if (r->data) {
		ibrd_data_install(d, nc, &r->sims);
		ibrd_counters_move(d, r->from);
	}
	d->conf = nc;
	if ((rc = reload_start(d, r))) {
		snprintf(err, errlen, "%s", strerror(-rc));
		reload_rollback(d, r);
		goto fail;
	}
	reload_commit(d, r);
	ibrd_conf_free(r->oc);
	free(r);
	return 0;
fail:
	ibrd_conf_free(nc);
	free(r);
	return rc;
}

/* ---- the parse, off the control thread ---- */

/*
 * The file is parsed on a thread of its own, so that the daemon keeps
 * answering its clients, its SMPs and its signals while a large file is
 * read; the new config is applied on the control thread when the parse is
 * done (the eventfd on the loop).  Requests that come while a parse runs
 * get the answer of a parse that starts after theirs: they may have changed
 * the file since.  libconfuse's lexer is not reentrant: there is never more
 * than one parse at a time in the daemon.
 */
struct reload_waiter {
	struct ibrd_client *c; /* NULL: a SIGHUP */
	enum ibrd_fmt fmt;
	uint64_t gen; /* the request's number */
};

struct ibrd_reload_job {
	struct ibrd_ev ev; /* IBRD_EV_RELOAD; first */
	int efd;
	pthread_t thread;
	bool running;
	uint64_t asked, parsing; /* the last request's number, and the parse's */
	uint64_t start_ns;	 /* when the parse started */
	const char *path;
	struct ibrd_conf *nc; /* the parse's result, or NULL and err */
	char err[2048];
	struct reload_waiter *w;
	unsigned nw, capw;
};

static void *reload_parse(void *arg)
{
	struct ibrd_reload_job *j = arg;
	FILE *ef = fmemopen(j->err, sizeof(j->err), "w");
	uint64_t one = 1;

	j->err[0] = '\0';
	j->nc = ef ? ibrd_conf_load(j->path, ef) : NULL;
	if (ef)
		fclose(ef);
	else
		snprintf(j->err, sizeof(j->err), "%s: out of memory", j->path);
	if (write(j->efd, &one, sizeof(one)) < 0) {
		/* an eventfd write fails only when its counter is full: it is readable */
	}
	return NULL;
}

static int reload_job_new(struct ibrd *d)
{
	struct ibrd_reload_job *j = calloc(1, sizeof(*j));
	struct epoll_event ev = { .events = EPOLLIN };

	if (!j)
		return -ENOMEM;
	j->ev.kind = IBRD_EV_RELOAD;
	j->path = d->conf_path;
	ev.data.ptr = &j->ev;
	if ((j->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0 ||
	    epoll_ctl(d->epfd, EPOLL_CTL_ADD, j->efd, &ev) < 0) {
		int rc = -errno;

		if (j->efd >= 0)
			close(j->efd);
		free(j);
		return rc;
	}
	d->reload = j;
	return 0;
}

static int reload_parse_start(struct ibrd_reload_job *j)
{
	int rc;

	j->parsing = j->asked;
	j->nc = NULL;
	j->start_ns = ibr_now_ns();
	if ((rc = -pthread_create(&j->thread, NULL, reload_parse, j)))
		return rc;
	j->running = true;
	return 0;
}

/*
 * What a reload that worked did, for its answer: "reloaded FILE: 2 ports,
 * 3 routes, 1 neighbour, 0 groups, 0 proxies" (the static entries the file
 * has; those added by command stay beside them).
 */
static void reload_said(const struct ibrd *d, char *buf, size_t len)
{
	const struct ibrd_conf *c = d->conf;

	snprintf(buf, len,
		 "reloaded %s: %u port%s, %u static route%s, %u neighbour%s, %u group%s, %u "
		 "prox%s",
		 d->conf_path, c->nports, c->nports == 1 ? "" : "s", c->nroutes,
		 c->nroutes == 1 ? "" : "s", c->nneighs, c->nneighs == 1 ? "" : "s", c->nmcasts,
		 c->nmcasts == 1 ? "" : "s", c->nproxies, c->nproxies == 1 ? "y" : "ies");
}

/* Answer the requests up to number `gen`, in the order they came. */
static void reload_answer(struct ibrd *d, uint64_t gen, int rc, const char *err)
{
	struct ibrd_reload_job *j = d->reload;
	unsigned keep = 0;

	for (unsigned i = 0; i < j->nw; i++) {
		struct reload_waiter *w = &j->w[i];
		struct ibrd_out o;

		if (w->gen > gen) {
			j->w[keep++] = *w;
			continue;
		}
		if (!w->c)
			continue;
		ibrd_out_init(&o, w->fmt, ibrd_client_queue, w->c);
		if (rc)
			ibrd_out_error(&o, rc, "%s", err);
		else
			ibrd_cmd_done(&o, "%s", err); /* what was reloaded */
		ibrd_out_free(&o);
		ibrd_client_set_ops(w->c, NULL, NULL);
		ibrd_client_resume(w->c);
	}
	j->nw = keep;
}

/* A client that waits for a reload is gone: the parse goes on, nobody hears of it. */
static void reload_client_closed(void *arg, struct ibrd_client *c)
{
	struct ibrd *d = arg;
	struct ibrd_reload_job *j = d->reload;

	for (unsigned i = 0; j && i < j->nw; i++)
		if (j->w[i].c == c)
			j->w[i].c = NULL;
}

static const struct ibrd_client_ops reload_client_ops = { .closed = reload_client_closed };

int ibrd_reload_request(struct ibrd *d, struct ibrd_client *c, int fmt)
{
	struct ibrd_reload_job *j;
	int rc;

	if (!d->reload && (rc = reload_job_new(d)))
		return rc;
	j = d->reload;
	if (j->nw == j->capw) {
		unsigned cap = j->capw ? 2 * j->capw : 8;
		struct reload_waiter *w = realloc(j->w, cap * sizeof(*w));

		if (!w)
			return -ENOMEM;
		j->w = w;
		j->capw = cap;
	}
	/* a parse that runs already may have read the file before this request */
	j->w[j->nw++] =
		(struct reload_waiter){ .c = c, .fmt = (enum ibrd_fmt)fmt, .gen = ++j->asked };
	if (!j->running) {
		if ((rc = reload_parse_start(j))) {
			j->nw--;
			return rc;
		}
		ibrd_notify_reloading(d); /* systemd: reloading until READY=1 */
	}
	if (c) {
		ibrd_client_set_ops(c, &reload_client_ops, d);
		ibrd_client_hold(c);
	}
	return 0;
}

void ibrd_reload_event(struct ibrd *d)
{
	struct ibrd_reload_job *j = d->reload;
	char why[1536] = "", err[2048];
	uint64_t v, gen, read_ns;
	int rc;

	if (!j || read(j->efd, &v, sizeof(v)) != sizeof(v) || !j->running)
		return;
	pthread_join(j->thread, NULL);
	j->running = false;
	read_ns = ibr_now_ns();
	gen = j->parsing; /* it answers the requests made before it started */
	if (!j->nc) {
		size_t n = strlen(j->err);

		while (n && (j->err[n - 1] == '\n' || j->err[n - 1] == ' '))
			j->err[--n] = '\0'; /* a line a message; the reply ends the last */
		snprintf(err, sizeof(err), "%s", j->err);
		rc = -EINVAL;
	} else if ((rc = ibrd_reload_apply(d, j->nc, why, sizeof(why)))) {
		snprintf(err, sizeof(err), "reload: cannot apply %s: %s", d->conf_path, why);
	}
	j->nc = NULL;
	if (rc) {
		log_warnx("reload failed, the old config stays: %s", err);
	} else {
		log_info("reloaded %s (read in %llu ms, applied in %llu ms)", d->conf_path,
			 (unsigned long long)(read_ns - j->start_ns) / 1000000u,
			 (unsigned long long)(ibr_now_ns() - read_ns) / 1000000u);
		reload_said(d, err, sizeof(err));
	}
	reload_answer(d, gen, rc, err);
	if (j->nw) { /* asked again meanwhile: still reloading */
		int again = reload_parse_start(j);

		if (!again)
			return;
		snprintf(err, sizeof(err), "reload: %s", strerror(-again));
		reload_answer(d, j->asked, again, err);
	}
	ibrd_notify_reloaded(d, rc == 0);
}

void ibrd_reload_fini(struct ibrd *d)
{
	struct ibrd_reload_job *j = d->reload;

	if (!j)
		return;
	if (j->running) /* a parse ends on its own: the file is read with a bound */
		pthread_join(j->thread, NULL);
	ibrd_conf_free(j->nc);
	if (d->epfd >= 0)
		epoll_ctl(d->epfd, EPOLL_CTL_DEL, j->efd, NULL);
	close(j->efd);
	free(j->w);
	free(j);
	d->reload = NULL;
}
