/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_check_sys.c - the preflight's checks of the machine (ibrd_check.h):
 * the user the daemon runs as, the kernel modules its ports need, and the
 * locked-memory limit against what its verbs ports register.
 */
#include "daemon/check/ibrd_check.h"
#include "router/io/io_verbs_probe.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/*
 * The user: the config's `user` when root starts it (ibrd_privs.c: what
 * needs root opens first, the rest runs as that user), else whoever runs it
 * (systemd's User=: run the check as that user).
 */
void ibrd_check_user(struct ibrd_check *k)
{
	const char *want = k->conf->user;
	uid_t me = geteuid();
	struct passwd *pw;
	char groups[256];
	size_t at = 0;

	k->uid = me;
	k->gid = getegid();
	k->ngroups = 0;
	if (want[0] && me == 0) {
		if (!(pw = getpwnam(want))) {
			ibrd_check_say(k, IBRD_CHECK_FAIL, "user",
				       "\"%s\" (the config's user): no such user: the daemon "
				       "will not start",
				       want);
			return;
		}
		k->switches = pw->pw_uid != 0;
	} else {
		pw = getpwuid(me);
	}
	if (pw) {
		int n = (int)(sizeof(k->groups) / sizeof(k->groups[0]));

		snprintf(k->user, sizeof(k->user), "%s", pw->pw_name);
		k->uid = pw->pw_uid;
		k->gid = pw->pw_gid;
		if (getgrouplist(pw->pw_name, pw->pw_gid, k->groups, &n) >= 0)
			k->ngroups = n;
	} else {
		snprintf(k->user, sizeof(k->user), "uid %u", (unsigned)me);
	}
	k->user_ok = true;
	groups[0] = '\0';
	for (int i = 0; i < k->ngroups && at < sizeof(groups); i++) {
		struct group *g = getgrgid(k->groups[i]);
		int w = snprintf(groups + at, sizeof(groups) - at, "%s%s", at ? "," : "",
				 g ? g->gr_name : "?");

		if (w > 0)
			at += (size_t)w;
	}
	ibrd_check_say(k, IBRD_CHECK_OK, "user", "the daemon runs as %s (uid %u, groups %s)%s%s",
		       k->user, (unsigned)k->uid, groups[0] ? groups : "-",
		       k->switches ? ": root opens the ports at start, what opens later (a "
				     "device back) opens as this user"
				   : "",
		       want[0] && me != 0 ? " (the config's user is taken only when root starts "
					    "it)"
					  : "");
}

/* The provider module of an HCA, guessed from its name (its device directory says better). */
static const char *provider_of(const char *dev)
{
	static const struct {
		const char *prefix, *module;
	} map[] = {
		{ "mlx5_", "mlx5_ib" }, { "mlx4_", "mlx4_ib" }, { "rxe", "rdma_rxe" },
		{ "siw", "siw" },	{ "irdma", "irdma" },	{ "bnxt_re", "bnxt_re" },
		{ "qedr", "qedr" },	{ "hfi1_", "hfi1" },	{ "efa_", "efa" },
		{ "erdma", "erdma" },	{ "mana_", "mana_ib" }, { "hns_", "hns_roce_hw_v2" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(dev, map[i].prefix, strlen(map[i].prefix)))
			return map[i].module;
	return NULL;
}

/* Devices of the config (verbs and umad) not seen before dev[0..n). */
static unsigned config_devices(const struct ibrd_conf *c, const char *dev[], unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < c->nports; i++) {
		const struct ibrd_conf_port *p = &c->port[i];
		const char *names[2] = { p->data == IBRD_DATA_VERBS ? p->device : NULL,
					 p->mad == IBRD_MAD_UMAD ? p->umad_ca : NULL };

		for (unsigned w = 0; w < 2; w++) {
			bool seen = !names[w] || !names[w][0];

			for (unsigned j = 0; j < n && !seen; j++)
				seen = !strcmp(dev[j], names[w]);
			if (!seen && n < max)
				dev[n++] = names[w];
		}
	}
	return n;
}

void ibrd_check_modules(struct ibrd_check *k)
{
	const struct ibrd_conf *c = k->conf;
	bool verbs = false, umad = false;
	const char *dev[2 * ROUTER_MAX_PORTS];
	unsigned ndev;

	for (unsigned i = 0; i < c->nports; i++) {
		verbs |= c->port[i].data == IBRD_DATA_VERBS;
		umad |= c->port[i].mad == IBRD_MAD_UMAD;
	}
	if (!verbs && !umad) {
		ibrd_check_say(k, IBRD_CHECK_OK, "modules",
			       "none needed (no verbs or umad port: sim and ibsim ports only)");
		return;
	}
	if (verbs) {
		if (ibrd_check_exists(k, "/sys/class/infiniband_verbs/abi_version") ||
		    ibrd_check_module(k, "ib_uverbs"))
			ibrd_check_say(k, IBRD_CHECK_OK, "module ib_uverbs",
				       "loaded (the verbs ports' devices)");
		else
			ibrd_check_say(k, IBRD_CHECK_FAIL, "module ib_uverbs",
				       "not loaded: no verbs port can open (modprobe ib_uverbs)");
	}
	if (umad) {
		if (ibrd_check_exists(k, "/sys/class/infiniband_mad/abi_version") ||
		    ibrd_check_module(k, "ib_umad"))
			ibrd_check_say(k, IBRD_CHECK_OK, "module ib_umad",
				       "loaded (the umad ports' MAD channels)");
		else
			ibrd_check_say(k, IBRD_CHECK_FAIL, "module ib_umad",
				       "not loaded: the umad ports' MAD channels are lost until it "
				       "is (modprobe ib_umad)");
	}
	ndev = config_devices(c, dev, sizeof(dev) / sizeof(dev[0]));
	for (unsigned i = 0; i < ndev; i++) {
		const char *mod = provider_of(dev[i]);
		char what[96], path[160];

		snprintf(what, sizeof(what), "device %s", dev[i]);
		snprintf(path, sizeof(path), "/sys/class/infiniband/%s", dev[i]);
		if (ibrd_check_exists(k, path))
			ibrd_check_say(k, IBRD_CHECK_OK, what, "present: its driver is loaded");
		else if (mod && !ibrd_check_module(k, mod))
			ibrd_check_say(k, IBRD_CHECK_FAIL, what,
				       "not present, and its provider %s (from its name) is not "
				       "loaded (modprobe %s)",
				       mod, mod);
		else
			ibrd_check_say(
				k, IBRD_CHECK_FAIL, what,
				"not present (%s%s%s; rdma link show lists the devices there "
				"are)",
				mod ? "its provider " : "its provider unknown", mod ? mod : "",
				mod ? " is loaded" : "");
	}
}

/*
 * Every verbs port registers its receive buffers with every verbs device of
 * the config (io_verbs.c: any port sends from any other's), and its queues
 * are pinned too: that much locked memory, which RLIMIT_MEMLOCK bounds for
 * all but root.
 */
void ibrd_check_memlock(struct ibrd_check *k)
{
	const struct ibrd_conf *c = k->conf;
	const char *devs[ROUTER_MAX_PORTS];
	unsigned ndevs = 0, nports = 0;
	unsigned long long need = 0, mib = 1ull << 20;
	struct rlimit rl;

	for (unsigned i = 0; i < c->nports; i++) {
		const struct ibrd_conf_port *p = &c->port[i];
		struct io_verbs_need vn;
		unsigned nproxy = 0;
		bool seen = false;

		if (p->data != IBRD_DATA_VERBS)
			continue;
		for (unsigned x = 0; x < c->nproxies; x++)
			nproxy += !strcmp(c->proxies[x].port, p->name);
		io_verbs_need(p->rq_depth, p->sq_depth, nproxy, &vn);
		need += vn.pinned + mib; /* a MiB of queues */
		nports++;
		for (unsigned j = 0; j < ndevs && !seen; j++)
			seen = !strcmp(devs[j], p->device);
		if (!seen)
			devs[ndevs++] = p->device;
	}
	if (!nports)
		return;
	need *= ndevs;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0) {
		ibrd_check_say(k, IBRD_CHECK_WARN, "locked memory", "its limit unread: %m");
		return;
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		ibrd_check_say(k, IBRD_CHECK_OK, "locked memory",
			       "unlimited; the verbs ports need %llu MiB (%u ports, %u devices)",
			       need / mib, nports, ndevs);
	else if (rl.rlim_cur >= need)
		ibrd_check_say(
			k, IBRD_CHECK_OK, "locked memory",
			"limit %llu MiB; the verbs ports need %llu MiB (%u ports, %u devices)",
			(unsigned long long)rl.rlim_cur / mib, need / mib, nports, ndevs);
	else if (geteuid() == 0 && !k->switches)
		ibrd_check_say(k, IBRD_CHECK_OK, "locked memory",
			       "limit %llu MiB, less than the %llu MiB the verbs ports need, but "
			       "root is not held to it (CAP_IPC_LOCK)",
			       (unsigned long long)rl.rlim_cur / mib, need / mib);
	else
		ibrd_check_say(k, k->switches ? IBRD_CHECK_WARN : IBRD_CHECK_FAIL, "locked memory",
			       "limit %llu MiB, the verbs ports need %llu MiB: registering their "
			       "buffers fails%s (raise it: LimitMEMLOCK=infinity in the unit, "
			       "memlock in limits.conf, ulimit -l)",
			       (unsigned long long)rl.rlim_cur / mib, need / mib,
			       k->switches ? " when a device comes back, as the user (at start "
					     "root opens them)"
					   : "");
}
