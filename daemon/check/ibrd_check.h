/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_check.h - the preflight, `ibrouterd --check` (ibrouterd(8)): for the
 * config at hand, what will work on this machine and what will not, and
 * why, one line a check (OK, WARN, FAIL), before the daemon runs:
 *   the user the daemon runs as, the kernel modules the ports need, the
 *   locked-memory limit against what the verbs ports register
 *   (ibrd_check_sys.c);
 *   each port: its verbs device and port (link layer, state, LID, GID,
 *   P_Keys, MTU, the device's limits), its umad port, the uverbs and umad
 *   device nodes and their permissions for that user, a sim port's sockets
 *   (ibrd_check_port.c);
 *   each port with a MAD channel: its own NodeInfo and PortInfo (what it is
 *   to its SM), its SA reachable within a short timeout, its subnet prefix
 *   (ibrd_check_sa.c).
 * Exit status as infiniband-diags: 0 nothing failed (warnings are what
 * works with a caveat), 1 something will not work; the caller gives 2 for
 * a usage error.
 *
 * A room of the daemon at the level of cmd/ (daemon/LAYERS): it calls the
 * libraries and conf/, no other room; every ibv_* and umad_* call is the
 * libraries' (router/io/io_verbs_probe.c, mad/mad_umad.c), which the tests
 * run over the fake providers (tests/fakes/).  Its files, from the top:
 * ibrd_check.c (the run), ibrd_check_sys.c, ibrd_check_port.c and
 * ibrd_check_sa.c (the checks), ibrd_check_out.c (the lines, the files).
 */
#ifndef IBRD_CHECK_H
#define IBRD_CHECK_H

#include "daemon/conf/ibrd_conf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct mad_chan;
struct mad_transport;

enum ibrd_check_status { IBRD_CHECK_OK, IBRD_CHECK_WARN, IBRD_CHECK_FAIL };

/* Where the preflight looks, and how it waits: this machine's, unless a test says. */
struct ibrd_check_env {
	const char *root;	/* NULL or "": "/"; else a directory standing for it */
	uint32_t sa_timeout_ms; /* one MAD's answer (0: 500) */
	/* port cp's MAD transport (NULL: the real one: umad, ibsim) */
	struct mad_transport *(*transport)(void *arg, const struct ibrd_conf_port *cp);
	/* monotonic ns (NULL: ibr_now_ns) */
	uint64_t (*clock)(void *arg);
	/* wait for the channel's input or timers until until_ns (NULL: poll its fd) */
	void (*wait)(void *arg, struct mad_chan *ch, uint64_t until_ns);
	void *arg;
};

/* One run. */
struct ibrd_check {
	const struct ibrd_conf *conf;
	const struct ibrd_check_env *env;
	FILE *out;
	bool json;
	struct ibr_json *j; /* with json: the document being written */
	unsigned n[3];	    /* checks by status */
	/* the user the daemon runs as (ibrd_check_sys.c) */
	char user[64];
	bool user_ok;
	uid_t uid;
	gid_t gid;
	gid_t groups[64];
	int ngroups;
	bool switches; /* started by root, it becomes `user` once started */
};

/*
 * Check config `c` (read from `path`) on this machine, print a line a
 * check to `out` (a JSON document with `json`).  Returns 0 when nothing
 * failed, 1 otherwise.
 */
int ibrd_check_run(const struct ibrd_conf *c, const char *path, const struct ibrd_check_env *env,
		   FILE *out, bool json);

/* ---- the parts (called by ibrd_check_run) ---- */

/* ibrd_check_sys.c: the user, the modules, the locked-memory limit */
void ibrd_check_user(struct ibrd_check *k);
void ibrd_check_modules(struct ibrd_check *k);
void ibrd_check_memlock(struct ibrd_check *k);
/* ibrd_check_port.c: the control socket; port i's data path and MAD device */
void ibrd_check_ctl(struct ibrd_check *k);
void ibrd_check_port(struct ibrd_check *k, unsigned i);
/* ibrd_check_sa.c: port i's MAD channel, its SMA's answers, its SA */
void ibrd_check_sa(struct ibrd_check *k, unsigned i);

/* ---- the bottom: ibrd_check_out.c ---- */

/* One check: its status, what it is about ("port a: verbs mlx5_0:1"), why. */
void ibrd_check_say(struct ibrd_check *k, enum ibrd_check_status st, const char *what,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* `path` (an absolute path of this machine) under env->root, into buf. */
const char *ibrd_check_path(const struct ibrd_check *k, const char *path, char *buf, size_t n);
/* The file exists (under env->root). */
bool ibrd_check_exists(const struct ibrd_check *k, const char *path);
/*
 * What the daemon's user may do with `path` (under env->root when `rooted`;
 * a path libibumad gave is the machine's): 0 when it may read and write it
 * (a directory: write in it), -ENOENT, or -EACCES with the file's owner,
 * group and mode in why.
 */
int ibrd_check_rw(const struct ibrd_check *k, const char *path, bool rooted, bool dir, char *why,
		  size_t n);
/* Is a kernel module `name` loaded (or built in)? */
bool ibrd_check_module(const struct ibrd_check *k, const char *name);

#endif
