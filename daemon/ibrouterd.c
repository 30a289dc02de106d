/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrouterd - the InfiniBand router daemon (ibrouterd(8)).
 *
 *   ibrouterd [-dnNV] [-v ...] [-f FILE] [-s SOCKET]
 *
 * One control thread runs an epoll loop (control socket, signals through a
 * signalfd); forwarding workers run the engine over the ports' backends.
 */
#include "daemon/ibrd.h"
#include "daemon/check/ibrd_check.h"
#include "daemon/cmd/ibrd_cmd.h"
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_cpu.h"
#include "lib/crc/ibr_crc.h"
#include "lib/ibr_log.h"
#include "lib/ibr_sa.h"
#include "sa/sa_client.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ibrouterd [-dhnNV] [-v ...] [-f FILE] [-s SOCKET]\n"
		"       ibrouterd --check [-j] [-f FILE]\n"
		"  -f FILE    config file (default %s)\n"
		"  -d         stay in the foreground and log to stderr\n"
		"  -v         one log level more than the config's (repeat for more)\n"
		"  -n         check the config, print it normalised (secrets redacted), exit\n"
		"  -N         the same, with the secrets\n"
		"  -s SOCKET  control socket (default: the config's, %s)\n"
		"  --check    what will work on this machine for the config, and why: a line\n"
		"             a check (OK, WARN, FAIL); exit 1 when something will not work\n"
		"  -j         with --check: JSON\n"
		"  -h, --help     print this and exit\n"
		"  -V, --version  print the version and exit\n",
		IBRD_CONF_DEFAULT, IBRD_SOCK_DEFAULT);
}

static int signals_open(struct ibrd *d)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &d->ev_signal };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	/* blocked in every thread (workers inherit the mask): read from the signalfd */
	if (pthread_sigmask(SIG_BLOCK, &set, NULL))
		return -EINVAL;
	signal(SIGPIPE, SIG_IGN);
	d->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	d->ev_signal.kind = IBRD_EV_SIGNAL;
	if (d->sigfd < 0 || epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->sigfd, &ev) < 0)
		return -errno;
	return 0;
}

static void signal_event(struct ibrd *d)
{
	struct signalfd_siginfo si;
	int rc;

	while (read(d->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			if ((rc = ibrd_reload_request(d, NULL, 0)))
				log_warnx("reload: %s", strerror(-rc));
		} else {
			log_info("signal %d: shutting down", (int)si.ssi_signo);
			d->quit = true;
		}
	}
}

/*
 * Milliseconds until the MAD channels, the SA clients, the peer routes or
 * the turn's paced tail have work (at most 1000).
 */
static int loop_timeout_ms(const struct ibrd *d, uint64_t now)
{
	uint64_t t = ibrd_mad_deadline(d), x;

	if ((x = ibrd_sa_deadline(d)) < t)
		t = x;
	if ((x = ibrd_peers_deadline(d)) < t)
		t = x;
	if ((x = ibrd_notify_deadline(d)) < t)
		t = x;
	if ((x = ibrd_mcast_deadline(d)) < t)
		t = x;
	if ((x = ibrd_sync_deadline(d)) < t)
		t = x;
	if (t == UINT64_MAX)
		return 1000;
	if (t <= now)
		return 0;
	t = (t - now + 999999) / 1000000;
	return t > 1000 ? 1000 : (int)t;
}

/*
 * The channels port/ found or lost this turn (ibrd.h, chan_new and
 * chan_dead): a dead one's SA client stops before the channel closes, a
 * new one's starts.
 */
static void loop_channels(struct ibrd *d)
{
	int rc;

	if (d->chan_dead) {
		ibrd_sa_stop_ports(d, d->chan_dead);
		ibrd_mad_reap(d);
	}
	if (d->chan_new) {
		d->chan_new = 0;
		if ((rc = ibrd_sa_start(d)))
			log_warnx("sa: a client on a channel that came did not start: %s",
				  strerror(-rc));
	}
}

static void loop(struct ibrd *d)
{
	struct epoll_event ev[64];

	while (!d->quit) {
		int n = epoll_wait(d->epfd, ev, 64, loop_timeout_ms(d, ibr_now_ns()));

		for (int i = 0; i < n; i++) {
			struct ibrd_ev *e = ev[i].data.ptr;

			if (e->kind == IBRD_EV_SIGNAL)
				signal_event(d);
			else if (e->kind == IBRD_EV_SMA)
				ibrd_sma_event(d);
			else if (e->kind == IBRD_EV_MAD)
				ibrd_mad_event(d, e);
			else if (e->kind == IBRD_EV_VERBS)
				ibrd_verbs_event(d, e);
			else if (e->kind == IBRD_EV_RELOAD)
				ibrd_reload_event(d);
			else
				ibrd_ctl_event(d, e, ev[i].events);
		}
		/* MAD retries and timeouts (and lost channels tried), the SA clients' polls */
		ibrd_mad_tick(d, ibr_now_ns());
		loop_channels(d);
		ibrd_sa_tick(d, ibr_now_ns());
		/* a refused multicast join tried again */
		ibrd_mcast_tick(d, ibr_now_ns());
		/* verbs devices gone (their removal waits for us) or back */
		ibrd_verbs_tick(d, ibr_now_ns());
		/* what this turn changed: compiled and published once, then told */
		ibrd_sync_run(d);
		ibrd_state_prefix_watch(d); /* a subnet at fe80::/64 cannot be routed to: said */
		/* free FIBs no worker can see any more */
		router_pub_reclaim(&d->pub);
		ibrd_capture_tick(d);
		/* systemd's watchdog: pinged only while every worker makes progress */
		ibrd_notify_tick(d, ibr_now_ns());
	}
}

/*
 * What the multicast bridging policy reads of each subnet and asks of it:
 * the port's SA client where it has one, on a RoCE port (no SA) the RIB's
 * groups there (ibrd_roce.c), else the OpenSM plugin feeding it
 * (ibrd_plugin_mcast.c), so that the policy works the same whatever source
 * told the router of a group.
 */
static bool mcast_src_roce(const struct ibrd *d, uint32_t port)
{
	return !d->sa[port] && (d->rib.port[port].flags & ROUTER_PORT_ROCE);
}

static size_t mcast_src_groups(struct ibrd *d, uint32_t port, const struct sa_group **v)
{
	if (d->sa[port])
		return sa_client_groups(d->sa[port], v);
	if (mcast_src_roce(d, port))
		return ibrd_roce_groups(d, port, v);
	return ibrd_plugin_groups(d, port, v);
}

/* A RoCE port has no JoinState: its worker joins the IP group of each of its groups. */
static int mcast_src_join(struct ibrd *d, uint32_t port, const struct sa_group *tmpl,
			  uint8_t join_state)
{
	if (d->sa[port])
		return sa_client_join(d->sa[port], tmpl->mgid, join_state, tmpl) < 0 ? -EIO : 0;
	if (mcast_src_roce(d, port))
		return ibrd_roce_join(d, port, tmpl);
	return ibrd_plugin_mjoin(d, port, tmpl->mgid, tmpl, join_state);
}

static void mcast_src_leave(struct ibrd *d, uint32_t port, const uint8_t mgid[16],
			    uint8_t join_state)
{
	if (d->sa[port])
		sa_client_leave(d->sa[port], mgid, join_state);
	else if (mcast_src_roce(d, port))
		ibrd_roce_leave(d, port, mgid);
	else
		ibrd_plugin_mjoin(d, port, mgid, NULL, 0);
}

static const struct ibrd_mcast_ops mcast_src_ops = {
	.groups = mcast_src_groups,
	.join = mcast_src_join,
	.leave = mcast_src_leave,
};

/* Each worker's hooks: SMPs to the SMA, packets to a running capture. */
static void worker_setup(struct ibrd *d, struct router_worker *w)
{
	ibrd_capture_hooks(d, w);
	ibrd_sma_hooks(d, w);
}

/* What the rooms may ask of the core (struct ibrd_hooks). */
static const struct ibrd_hooks core_hooks = {
	.reload = ibrd_reload_request,
	.reload_data = ibrd_reload_data,
};

static int start(struct ibrd *d)
{
	char cpu[512];
	int rc;

	d->hooks = &core_hooks;
	if ((rc = ibrd_rooms_new(d)))
		return rc;
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d->epfd < 0)
		return -errno;
	if ((rc = signals_open(d)))
		return rc;
	d->mcast->ops = &mcast_src_ops;
	if ((rc = ibrd_ctl_open(d, ibrd_cmd_run))) {
		log_warnx("control socket %s: %s",
			  d->sock_path ? d->sock_path : d->conf->ctl_socket,
			  rc == -EADDRINUSE ? "another ibrouterd is running there" : strerror(-rc));
		return rc;
	}
	if ((rc = router_pub_init(&d->pub, d->conf->workers ? d->conf->workers : 1)) ||
	    (rc = ibrd_state_build(d, d->conf, NULL, NULL, NULL)))
		return rc;
	ibrd_rib_changed(d);
	if ((rc = ibrd_sync_run(d))) /* a FIB before the workers start */
		return rc;
	ibrd_proxy_load(d, d->conf);
	if ((rc = ibrd_sma_start(d))) {
		log_warnx("sma: cannot start: %s", strerror(-rc));
		return rc;
	}
	d->data->worker_setup = worker_setup;
	if ((rc = ibrd_data_open(d)) || (rc = ibrd_verbs_open(d)) || (rc = ibrd_data_start(d)))
		return rc;
	if ((rc = ibrd_mad_start(d)) || (rc = ibrd_sa_start(d)))
		return rc;
	if (d->conf->pid_file[0]) {
		if ((rc = ibrd_pidfile_write(d->conf->pid_file)))
			log_warnx("pid file %s: %s", d->conf->pid_file, strerror(-rc));
		else
			snprintf(d->pid_file, sizeof(d->pid_file), "%s", d->conf->pid_file);
	}
	/* what needs root is open: the user from now on (ibrd_privs.c) */
	if ((rc = ibrd_privs_drop(d, ibrd_ctl_listener_path(d))))
		return rc;
	ibrd_sync_run(d); /* what the ports' backends said (the HCA ports' state) */
	ibrd_port_roles_log(d);
	ibrd_state_prefix_watch(d);
	log_info("ibrouterd %s started: %u ports, %u workers, control socket %s", IBRD_VERSION,
		 d->conf->nports, d->data->nworkers,
		 d->sock_path ? d->sock_path : d->conf->ctl_socket);
	/* what its CRC figures depend on (IBR_CRC_IMPL forces the engines: ibrouterd(8)) */
	log_info("crc: vcrc engine %s, icrc engine %s, cpu %s",
		 ibr_vcrc_impl_name(ibr_vcrc_impl_get()), ibr_icrc_impl_name(ibr_icrc_impl_get()),
		 ibr_cpu_describe(cpu, sizeof(cpu)));
	return ibrd_notify_start(d); /* READY=1: configured, the ports open */
}

static void stop(struct ibrd *d)
{
	ibrd_notify_stopping(d);
	ibrd_ctl_close(d);
	ibrd_reload_fini(d);
	if (d->data) { /* the rooms were made */
		if (d->data->running)
			ibrd_data_stop(d);
		ibrd_capture_stop(d);
		ibrd_mcast_stop(d);
		ibrd_sa_stop(d);  /* every port's parting requests out at once, */
		ibrd_mad_stop(d); /* then their answers awaited */
		ibrd_sma_stop(d);
		ibrd_data_close(d);
	}
	router_pub_destroy(&d->pub);
	router_rib_free(&d->rib);
	ibrd_pidfile_remove(d->pid_file);
	if (d->sigfd >= 0)
		close(d->sigfd);
	if (d->epfd >= 0)
		close(d->epfd);
	ibrd_rooms_free(d);
	ibrd_conf_free(d->conf);
	d->conf = NULL;
}

int main(int argc, char **argv)
{
	struct ibrd d = { .conf_path = IBRD_CONF_DEFAULT, .epfd = -1, .sigfd = -1 };
	static char conf_abs[PATH_MAX];
	bool check = false, secrets = false, preflight = false, json = false;
	int c, rc;

	static const struct option longopts[] = { { "help", no_argument, NULL, 'h' },
						  { "version", no_argument, NULL, 'V' },
						  { "check", no_argument, NULL, 'C' },
						  { NULL, 0, NULL, 0 } };

	while ((c = getopt_long(argc, argv, "df:hjnNs:vV", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			preflight = true;
			break;
		case 'j':
			json = true;
			break;
		case 'd':
			d.foreground = true;
			break;
		case 'f':
			d.conf_path = optarg;
			break;
		case 'N':
			secrets = true;
			/* fall through */
		case 'n':
			check = true;
			break;
		case 's':
			d.sock_path = optarg;
			break;
		case 'v':
			d.verbose++;
			break;
		case 'V':
			printf("ibrouterd %s\n", IBRD_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default: /* a usage error: 2, as infiniband-diags' tools */
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || (json && !preflight) || (preflight && check)) {
		usage(stderr);
		return 2;
	}
	d.conf = ibrd_conf_load(d.conf_path, stderr);
	if (!d.conf) {
		if (preflight)
			printf("FAIL  config: %s: not valid (above): the daemon will not start\n",
			       d.conf_path);
		return 1;
	}
	if (preflight) {
		/* where it looks: a directory standing for / (ibrouterd(8), ENVIRONMENT) */
		struct ibrd_check_env env = { .root = getenv("IBROUTERD_CHECK_ROOT") };

		/* the SMPs and queries it sends say nothing worth a line: only its own */
		log_init("ibrouterd", true, LOG_ERR);
		rc = ibrd_check_run(d.conf, d.conf_path, &env, stdout, json);
		ibrd_conf_free(d.conf);
		return rc;
	}
	/* a reload reads it again after daemon() has changed to "/": the path it was given */
	if (realpath(d.conf_path, conf_abs))
		d.conf_path = conf_abs;
	if (check) {
		/* -n goes to the journal (the unit's ExecStartPre): no secrets there */
		ibrd_conf_print(d.conf, stdout, secrets ? IBRD_CONF_SECRETS : IBRD_CONF_REDACT);
		ibrd_conf_free(d.conf);
		return 0;
	}
	/* each -v one level beyond the config's: at log-level = info, -v is debug */
	log_init("ibrouterd", d.foreground,
		 d.conf->log_level + d.verbose < LOG_DEBUG ? d.conf->log_level + d.verbose
							   : LOG_DEBUG);
	if (!d.foreground && daemon(0, 0) < 0)
		fatal("daemon");
	d.start_ns = ibr_now_ns();
	rc = start(&d);
	if (!rc)
		loop(&d);
	stop(&d);
	/* one that never started stopped nothing (another ibrouterd may run on) */
	log_info(rc ? "ibrouterd not started" : "ibrouterd stopped");
	return rc ? 1 : 0;
}
