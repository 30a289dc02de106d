/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_privs.c - started by root with `user` set (ibrouterd.conf(5)), the
 * daemon runs as that user once what needs root is open: the control socket
 * and the PID file under /run, the MAD channels (/dev/infiniband/umad*,
 * root's only unless a udev rule gives them to a group: etc/udev/), the
 * sockets of ibsim and of sim ports in directories only root may write.
 * The verbs devices need no root (/dev/infiniband/uverbs* are 0666), nor
 * does anything after the start: a reload that opens a MAD channel again
 * needs the umad device to be the user's (its groups: initgroups(3)), and
 * new sockets directories the user may write.  The run directory of the
 * default socket and PID file is given to the user, so that it can remove
 * them at the end.  Under systemd the unit's User= does all this instead
 * (etc/ibrouterd.service.in), and the daemon never is root.
 */
#include "daemon/ibrd.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The file `path` and, when it is the run directory, its directory become the user's. */
static void privs_give(const char *path, uid_t uid, gid_t gid, bool keep_group)
{
	struct stat st;
	size_t n = strlen(IBRD_RUNDIR);

	if (!path[0] || lstat(path, &st) < 0)
		return;
	if (lchown(path, uid, keep_group ? st.st_gid : gid) < 0)
		log_warn("privileges: %s: cannot give it to uid %u", path, (unsigned)uid);
	if (!strncmp(path, IBRD_RUNDIR "/", n + 1) && !strchr(path + n + 1, '/') &&
	    chown(IBRD_RUNDIR, uid, gid) < 0)
		log_warn("privileges: %s: cannot give it to uid %u", IBRD_RUNDIR, (unsigned)uid);
}

int ibrd_privs_drop(struct ibrd *d, const char *sock_path)
{
	const char *user = d->conf->user;
	struct passwd *pw;
	uid_t uid;
	gid_t gid;

	if (!user[0])
		return 0;
	if (geteuid() != 0) {
		log_info("privileges: started as uid %u, not root: user \"%s\" not taken",
			 (unsigned)geteuid(), user);
		return 0;
	}
	if (!(pw = getpwnam(user))) { /* checked with the config: gone since */
		log_warnx("privileges: user \"%s\": no such user", user);
		return -ENOENT;
	}
	uid = pw->pw_uid;
	gid = pw->pw_gid;
	if (uid == 0)
		return 0;
	privs_give(sock_path, uid, gid, true); /* its group is the control group */
	privs_give(d->pid_file, uid, gid, false);
	/* its groups too (rdma for the umad devices, the control group) */
	if (initgroups(user, gid) < 0 || setgid(gid) < 0 || setuid(uid) < 0) {
		log_warn("privileges: cannot become user \"%s\"", user);
		return -EPERM;
	}
	/* and never back: setuid(0) must fail (a saved set-user-ID of 0 would not) */
	if (setuid(0) == 0 || geteuid() == 0) {
		log_warnx("privileges: still root after becoming \"%s\"", user);
		return -EPERM;
	}
	/* the user's core dumps and /proc files are its own, not root's leftovers */
	prctl(PR_SET_DUMPABLE, 1);
	log_info("privileges: running as user \"%s\" (uid %u, gid %u)", user, (unsigned)uid,
		 (unsigned)gid);
	return 0;
}
