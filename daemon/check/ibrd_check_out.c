/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_check_out.c - the bottom of the preflight (ibrd_check.h): a check's
 * line (text: "OK    what: why", or a JSON object), and what the checks
 * read of the machine: files under the environment's root, whether the
 * daemon's user may read and write them, the kernel's modules.
 */
#include "daemon/check/ibrd_check.h"

#include "lib/ibr_json.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const status_name[] = { "OK", "WARN", "FAIL" };

void ibrd_check_say(struct ibrd_check *k, enum ibrd_check_status st, const char *what,
		    const char *fmt, ...)
{
	char why[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	k->n[st]++;
	if (k->json) {
		ibr_json_obj_open(k->j, NULL);
		ibr_json_str(k->j, "status", status_name[st]);
		ibr_json_str(k->j, "what", what);
		ibr_json_str(k->j, "why", why);
		ibr_json_close(k->j);
		return;
	}
	fprintf(k->out, "%-5s %s: %s\n", status_name[st], what, why);
}

const char *ibrd_check_path(const struct ibrd_check *k, const char *path, char *buf, size_t n)
{
	const char *root = k->env && k->env->root ? k->env->root : "";

	snprintf(buf, n, "%s%s", root, path);
	return buf;
}

bool ibrd_check_exists(const struct ibrd_check *k, const char *path)
{
	char p[512];

	return access(ibrd_check_path(k, path, p, sizeof(p)), F_OK) == 0;
}

static bool in_groups(const struct ibrd_check *k, gid_t g)
{
	if (g == k->gid)
		return true;
	for (int i = 0; i < k->ngroups; i++)
		if (k->groups[i] == g)
			return true;
	return false;
}

int ibrd_check_rw(const struct ibrd_check *k, const char *path, bool rooted, bool dir, char *why,
		  size_t n)
{
	char p[512], own[64], grp[64];
	struct passwd *pw;
	struct group *gr;
	struct stat st;
	mode_t need, m;

	why[0] = '\0';
	if (stat(rooted ? ibrd_check_path(k, path, p, sizeof(p)) : path, &st) < 0)
		return -errno;
	/* a directory takes write and search, a device read and write */
	need = dir ? 03 : 06;
	if (k->uid == 0)
		return 0; /* root: DAC_OVERRIDE */
	if (st.st_uid == k->uid)
		m = (st.st_mode >> 6) & 07;
	else if (in_groups(k, st.st_gid))
		m = (st.st_mode >> 3) & 07;
	else
		m = st.st_mode & 07;
	if ((m & need) == need)
		return 0;
	pw = getpwuid(st.st_uid);
	gr = getgrgid(st.st_gid);
	snprintf(own, sizeof(own), "%s", pw ? pw->pw_name : "?");
	snprintf(grp, sizeof(grp), "%s", gr ? gr->gr_name : "?");
	snprintf(why, n, "%s:%s mode %04o", own, grp, (unsigned)(st.st_mode & 07777));
	return -EACCES;
}

bool ibrd_check_module(const struct ibrd_check *k, const char *name)
{
	char p[512], line[256];
	size_t len = strlen(name);
	bool found = false;
	FILE *f;

	/* a module with parameters, or built in with them, has a directory */
	snprintf(line, sizeof(line), "/sys/module/%s", name);
	if (ibrd_check_exists(k, line))
		return true;
	if (!(f = fopen(ibrd_check_path(k, "/proc/modules", p, sizeof(p)), "re")))
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, len) && line[len] == ' ';
	fclose(f);
	return found;
}
