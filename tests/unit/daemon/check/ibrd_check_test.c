/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/check/ (ibrouterd --check) over the fake providers: the
 * fake libibverbs (tests/fakes/libfakeverbs.a), the fake libibumad
 * (tests/fakes/fake_umad.c) and the SA client's fake subnet
 * (tests/unit/sa/sa_fake.h) as the port's SMA and SA, under a directory
 * standing for / (its sys, proc and dev): every check's OK, WARN and FAIL,
 * and the exit status.
 */
#include "daemon/check/ibrd_check.h"
#include "lib/ibr_log.h"
#include "tests/fakes/fake_umad.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/sa/sa_fake.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/ibr-check.XXXXXX";
static char *out_buf;
static size_t out_len;

/* A file under the root (its directories made), with `mode`. */
static void put(const char *path, mode_t mode)
{
	char p[512];
	int fd;

	snprintf(p, sizeof(p), "%s%s", root, path);
	for (char *s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	fd = open(p, O_CREAT | O_WRONLY | O_CLOEXEC, mode);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	chmod(p, mode);
}

static void unput(const char *path)
{
	char p[512];

	snprintf(p, sizeof(p), "%s%s", root, path);
	unlink(p);
}

/* A fresh stream into out_buf (the last one's text freed). */
static FILE *mem_open(void)
{
	FILE *f;

	free(out_buf);
	out_buf = NULL;
	f = open_memstream(&out_buf, &out_len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	return f;
}

static struct ibrd_conf *conf(const char *text)
{
	struct ibrd_conf *c = ibrd_conf_load_string(text, "t.conf", stderr);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	return c;
}

/* A run of one part over config `c`: its lines in out_buf; the FAILs counted. */
static unsigned run_part(const struct ibrd_conf *c, const struct ibrd_check_env *env,
			 void (*part)(struct ibrd_check *, unsigned), unsigned i, unsigned *warn)
{
	struct ibrd_check k = { .conf = c, .env = env, .uid = 0, .user_ok = true };
	FILE *f = mem_open();

	k.out = f;
	snprintf(k.user, sizeof(k.user), "root");
	part(&k, i);
	fclose(f);
	if (getenv("IBRD_TEST_VERBOSE"))
		fprintf(stderr, "%s", out_buf);
	if (warn)
		*warn = k.n[IBRD_CHECK_WARN];
	return k.n[IBRD_CHECK_FAIL];
}

static bool said(const char *status, const char *text)
{
	char line[64];

	snprintf(line, sizeof(line), "%s ", status);
	for (const char *p = out_buf; p && (p = strstr(p, text)); p++) {
		const char *bol = p;

		while (bol > out_buf && bol[-1] != '\n')
			bol--;
		if (!strncmp(bol, line, strlen(line)))
			return true;
	}
	return false;
}

/* ---- verbs ports over the fake provider ---- */

static const char verbs_text[] =
	"router { node-guid = 0x2 }\n"
	"port \"a\" { data = verbs device = \"mlx5_0\" pkeys = { 0xffff, 0x8001 } mtu = 4096 }\n";

static void fake_hca(const char *name, uint16_t lid, const char *gid, bool down, uint16_t pkey)
{
	struct fake_verbs_port_cfg c = {
		.lid = lid, .sm_lid = lid ? 1 : 0, .down = down, .pkey = pkey, .mtu = IBV_MTU_2048
	};
	char sock[256], peer[256];

	snprintf(sock, sizeof(sock), "%s/%s.sock", root, name);
	snprintf(peer, sizeof(peer), "%s/%s.peer", root, name);
	c.sock = sock;
	c.peer = peer;
	inet_pton(AF_INET6, gid, c.gid);
	CU_ASSERT_EQUAL_FATAL(fake_verbs_dev_add(name, &c), 0);
}

static void test_verbs_port(void)
{
	struct ibrd_check_env env = { .root = root };
	struct ibrd_conf *c = conf(verbs_text);
	unsigned warn;

	/* not there: FAIL, and nothing else said of it */
	fake_verbs_reset();
	CU_ASSERT_EQUAL(run_part(c, &env, ibrd_check_port, 0, NULL), 1);
	CU_ASSERT(said("FAIL", "port a: verbs mlx5_0:1: no such device (0 listed"));
	/* an HCA port, Active, its node there: the checks pass but the P_Key and MTU */
	fake_verbs_reset();
	fake_hca("mlx5_0", 5, "fec0::1:0:0:0:1", false, 0);
	put("/dev/infiniband/mlx5_0", 0666);
	CU_ASSERT_EQUAL(run_part(c, &env, ibrd_check_port, 0, &warn), 0);
	CU_ASSERT(said("OK", "port a: verbs mlx5_0:1: link layer InfiniBand, Active"));
	CU_ASSERT(said("OK", "port a: LID: 0x0005 (LMC 0), its SM at LID 0x0001"));
	CU_ASSERT(said("OK", "port a: GID 0: fec0:0:0:1::1"));
	CU_ASSERT(said("OK", "port a: device limits: 9 QPs (max 32), 2 CQs of 9216 entries"));
	CU_ASSERT(said("OK", "port a: /dev/infiniband/mlx5_0: root may read and write it"));
	/* the config's 0x8001 is not in the HCA port's table; its mtu is above the port's */
	CU_ASSERT(said("WARN",
		       "port a: P_Keys: the HCA port's table (0xffff) lacks the config's 0x8001"));
	CU_ASSERT(said("WARN",
		       "port a: MTU: the config's mtu 4096 is above the port's active MTU 2048"));
	CU_ASSERT_EQUAL(warn, 2);
	/* down, no LID, the SM's default prefix, no default partition, the node missing */
	fake_verbs_reset();
	fake_hca("mlx5_0", 0, "fe80::1", true, 0x8001);
	unput("/dev/infiniband/mlx5_0");
	CU_ASSERT_EQUAL(run_part(c, &env, ibrd_check_port, 0, &warn), 1);
	CU_ASSERT(said("WARN",
		       "port a: verbs mlx5_0:1: link layer InfiniBand, Down: it forwards once"));
	CU_ASSERT(said("WARN", "port a: LID: none: no SM has set the port up yet"));
	CU_ASSERT(said("WARN", "port a: GID 0: fe80::1: its subnet's prefix is link-local"));
	CU_ASSERT(said("WARN",
		       "port a: P_Keys: the HCA port's table (0x8001) lacks the config's 0xffff"));
	CU_ASSERT(said("FAIL", "port a: /dev/infiniband/mlx5_0: No such file or directory"));
	ibrd_conf_free(c);
	/* the config names no P_Key: the table has no default partition */
	c = conf("router { node-guid = 0x2 }\nport \"a\" { data = verbs device = \"mlx5_0\" }\n");
	run_part(c, &env, ibrd_check_port, 0, NULL);
	CU_ASSERT(said("WARN", "port a: P_Keys: 0x8001: no default partition"));
	fake_verbs_reset();
	ibrd_conf_free(c);
}

/* The daemon's user may not open the node: FAIL, or WARN when root opens it at start. */
static void test_node_perms(void)
{
	struct ibrd_check_env env = { .root = root };
	struct ibrd_conf *c = conf(verbs_text);
	struct ibrd_check k = { .conf = c, .env = &env, .uid = 65534, .gid = 65534 };
	char why[128];

	put("/dev/infiniband/uverbs9", 0600);
	CU_ASSERT_EQUAL(ibrd_check_rw(&k, "/dev/infiniband/uverbs9", true, false, why, sizeof(why)),
			-EACCES);
	CU_ASSERT(strstr(why, "mode 0600") != NULL);
	put("/dev/infiniband/uverbs8", 0666);
	CU_ASSERT_EQUAL(ibrd_check_rw(&k, "/dev/infiniband/uverbs8", true, false, why, sizeof(why)),
			0);
	/* by its group: rdma's 0660, the user a member */
	put("/dev/infiniband/umad7", 0660);
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/dev/infiniband/umad7", root);
		CU_ASSERT_EQUAL(chown(p, 0, 4242), 0);
	}
	CU_ASSERT_EQUAL(ibrd_check_rw(&k, "/dev/infiniband/umad7", true, false, why, sizeof(why)),
			-EACCES);
	k.groups[0] = 4242;
	k.ngroups = 1;
	CU_ASSERT_EQUAL(ibrd_check_rw(&k, "/dev/infiniband/umad7", true, false, why, sizeof(why)),
			0);
	k.uid = 0; /* root: every file */
	CU_ASSERT_EQUAL(ibrd_check_rw(&k, "/dev/infiniband/uverbs9", true, false, why, sizeof(why)),
			0);
	ibrd_conf_free(c);
}

/* ---- modules and the locked-memory limit ---- */

static void modules_part(struct ibrd_check *k, unsigned i)
{
	(void)i;
	ibrd_check_modules(k);
}

static void test_modules(void)
{
	struct ibrd_check_env env = { .root = root };
	struct ibrd_conf *c = conf("router { node-guid = 0x2 }\n"
				   "port \"a\" { data = verbs device = \"mlx5_0\" mad = umad }\n"
				   "port \"b\" { data = verbs device = \"rxe3\" }\n");
	unsigned fails;

	fails = run_part(c, &env, modules_part, 0, NULL);
	CU_ASSERT(said("FAIL", "module ib_uverbs: not loaded"));
	CU_ASSERT(said("FAIL", "module ib_umad: not loaded"));
	CU_ASSERT(said("FAIL", "device mlx5_0: not present, and its provider mlx5_ib (from its "
			       "name) is not loaded"));
	CU_ASSERT(said("FAIL", "device rxe3: not present, and its provider rdma_rxe"));
	CU_ASSERT_EQUAL(fails, 4);
	put("/sys/class/infiniband_verbs/abi_version", 0444);
	put("/sys/module/ib_umad/parameters", 0444);
	put("/sys/class/infiniband/mlx5_0/node_type", 0444);
	{
		char p[512];
		FILE *f;

		snprintf(p, sizeof(p), "%s/proc/modules", root);
		put("/proc/modules", 0644);
		f = fopen(p, "w");
		fputs("rdma_rxe_x 1 0 - Live 0x0\nrdma_rxe 139264 0 - Live 0x0\n", f);
		fclose(f);
	}
	fails = run_part(c, &env, modules_part, 0, NULL);
	CU_ASSERT(said("OK", "module ib_uverbs: loaded"));
	CU_ASSERT(said("OK", "module ib_umad: loaded"));
	CU_ASSERT(said("OK", "device mlx5_0: present"));
	CU_ASSERT(said("FAIL", "device rxe3: not present (its provider rdma_rxe is loaded"));
	CU_ASSERT_EQUAL(fails, 1);
	ibrd_conf_free(c);
}

static void test_memlock(void)
{
	struct ibrd_check_env env = { .root = root };
	struct ibrd_conf *c = conf(verbs_text);
	struct ibrd_check k = { .conf = c, .env = &env, .uid = 0 };
	struct rlimit old, low = { .rlim_cur = 1u << 20, .rlim_max = 0 };
	FILE *f;

	getrlimit(RLIMIT_MEMLOCK, &old);
	low.rlim_max = old.rlim_max;
	CU_ASSERT_EQUAL_FATAL(setrlimit(RLIMIT_MEMLOCK, &low), 0);
	f = mem_open();
	k.out = f;
	k.switches = true; /* root starts it, then it runs as a user */
	ibrd_check_memlock(&k);
	fflush(f);
	CU_ASSERT(said("WARN", "locked memory: limit 1 MiB, the verbs ports need 41 MiB"));
	fclose(f);
	if (geteuid() != 0) {
		/* not root: the limit holds at start too */
		f = mem_open();
		k.out = f;
		k.switches = false;
		ibrd_check_memlock(&k);
		fflush(f);
		CU_ASSERT(said("FAIL", "locked memory: limit 1 MiB"));
		fclose(f);
	}
	setrlimit(RLIMIT_MEMLOCK, &old);
	ibrd_conf_free(c);
}

/* ---- umad ports over the fake libibumad ---- */

static void test_umad_port(void)
{
	struct ibrd_check_env env = { .root = root };
	struct ibrd_conf *c = conf("router { node-guid = 0x2 }\n"
				   "port \"a\" { data = none mad = umad umad-ca = \"" FAKE_UMAD_CA
				   "\" }\n");
	char dir[512], umad[600];

	snprintf(dir, sizeof(dir), "%s/umad", root);
	mkdir(dir, 0755);
	CU_ASSERT_EQUAL_FATAL(fake_umad_reset(dir), 0);
	snprintf(umad, sizeof(umad), "%s/umad0", dir);
	CU_ASSERT_EQUAL(run_part(c, &env, ibrd_check_port, 0, NULL), 1);
	CU_ASSERT(said("OK", "port a: umad " FAKE_UMAD_CA ":1: Active, LID 0x0008, SM LID 0x0002"));
	CU_ASSERT(said("FAIL", "port a: "));
	CU_ASSERT(strstr(out_buf, "umad0: No such file or directory") != NULL);
	close(open(umad, O_CREAT | O_WRONLY | O_CLOEXEC, 0600));
	CU_ASSERT_EQUAL(run_part(c, &env, ibrd_check_port, 0, NULL), 0);
	CU_ASSERT(strstr(out_buf, "umad0: root may read and write it") != NULL);
	fake_umad.port.state = 2;
	run_part(c, &env, ibrd_check_port, 0, NULL);
	CU_ASSERT(said("WARN", "port a: umad " FAKE_UMAD_CA ":1: Init"));
	fake_umad.open_rc = -ENODEV;
	CU_ASSERT_EQUAL(run_part(c, &env, ibrd_check_port, 0, NULL), 1);
	CU_ASSERT(said("FAIL", "no such CA or port"));
	unlink(umad);
	fake_umad_fini();
	ibrd_conf_free(c);
}

/* ---- a port's MAD channel: its SMA and its SA (the fake subnet) ---- */

static uint64_t t_clock(void *arg)
{
	(void)arg;
	return now_ns;
}

/* Deliver what the fake has, else move the clock to the channel's next deadline. */
static void t_wait(void *arg, struct mad_chan *ch, uint64_t until)
{
	uint64_t d;

	(void)arg;
	if (F->rx.head < F->rx.n) {
		mad_chan_process(ch, 0);
		return;
	}
	d = mad_chan_next_deadline(ch);
	now_ns = d < until ? d : until;
	mad_chan_tick(ch, now_ns);
}

static struct mad_transport *t_transport(void *arg, const struct ibrd_conf_port *cp)
{
	(void)arg, (void)cp;
	F->closed = false;
	return &F->base;
}

static const struct ibrd_check_env sa_env = {
	.sa_timeout_ms = 100, .transport = t_transport, .clock = t_clock, .wait = t_wait
};

static unsigned sa_run(unsigned *warn)
{
	struct ibrd_conf *c = conf("router { node-guid = 0x2 }\n"
				   "port \"a\" { data = none mad = umad umad-ca = \"x\" }\n");
	unsigned fails = run_part(c, &sa_env, ibrd_check_sa, 0, warn);

	ibrd_conf_free(c);
	return fails;
}

static void sa_fake_new(void)
{
	fake_new(false, 0, true);
	mad_chan_destroy(CH); /* the check makes its own channel on the fake */
	CH = NULL;
}

static void sa_fake_free(void)
{
	free(F->cur);
	fake_rmpp_free();
	free(F->rx.v);
	free(F->held.v);
	free(F->sent);
	free(F);
	F = NULL;
}

static void test_sa(void)
{
	unsigned warn;

	/* a Router node, an SM, its SA: all good */
	sa_fake_new();
	CU_ASSERT_EQUAL(sa_run(&warn), 0);
	CU_ASSERT_EQUAL(warn, 0);
	CU_ASSERT(said(
		"OK",
		"port a: MAD channel: open; the port's SMA answers (GUID 0x0002c90000000401)"));
	CU_ASSERT(said("OK", "port a: node: a Router node to its SM"));
	CU_ASSERT(said("OK", "port a: subnet: prefix fec0:0:0:1::/64, LID 0x0008, SM LID 0x0002"));
	CU_ASSERT(said("OK", "port a: SA: at LID 0x0002 answers"));
	sa_fake_free();
	/* a CA (an HCA's port) in a subnet at the SM's default prefix */
	sa_fake_new();
	fport_find(GUID_US)->type = 1;
	F->prefix = 0xfe80000000000000ull;
	CU_ASSERT_EQUAL(sa_run(&warn), 0);
	CU_ASSERT_EQUAL(warn, 2);
	CU_ASSERT(said("WARN",
		       "port a: node: a Channel Adapter to its SM (an HCA's firmware answers "
		       "its SMPs): PathRecords from other subnets need the OpenSM plugin"));
	CU_ASSERT(said("WARN", "port a: subnet: prefix fe80::/64, the SM's default: link-local "
			       "GIDs are never routed"));
	sa_fake_free();
	/* the SA does not answer */
	sa_fake_new();
	F->sa_down = true;
	CU_ASSERT_EQUAL(sa_run(&warn), 1);
	CU_ASSERT(said("FAIL", "port a: SA: at LID 0x0002: no answer"));
	sa_fake_free();
	/* the port not Active yet: the SA is not asked */
	sa_fake_new();
	F->state = 2;
	CU_ASSERT_EQUAL(sa_run(&warn), 0);
	CU_ASSERT(said("WARN", "port a: subnet: port not Active"));
	CU_ASSERT(strstr(out_buf, "port a: SA") == NULL);
	sa_fake_free();
	/* the port's SMA silent: the channel is no use */
	sa_fake_new();
	F->sma_down = true;
	CU_ASSERT_EQUAL(sa_run(&warn), 1);
	CU_ASSERT(said("FAIL", "port a: MAD channel: the port's own NodeInfo: no answer"));
	sa_fake_free();
}

/* ---- the run: its lines, its JSON, its exit status ---- */

static void test_run(void)
{
	struct ibrd_check_env env = { .root = root };
	struct ibrd_conf *c;
	char text[1024];
	FILE *f;
	int rc;

	snprintf(text, sizeof(text),
		 "router { node-guid = 0x2 }\n"
		 "port \"a\" { data = sim sim-socket = \"%s/a.sock\" sim-peer = \"%s/a.peer\" "
		 "lid = 1 subnet-prefix = \"fe80::\" }\n"
		 "control { socket = \"%s/ctl.sock\" }\n",
		 root, root, root);
	c = conf(text);
	f = mem_open();
	rc = ibrd_check_run(c, "t.conf", &env, f, false);
	fclose(f);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(said("OK", "config: t.conf: 1 ports"));
	CU_ASSERT(said("OK", "modules: none needed"));
	CU_ASSERT(said("OK", "port a: sim socket"));
	CU_ASSERT(said("WARN", "port a: sim peer"));
	CU_ASSERT(said("WARN", "port a: subnet-prefix: fe80:: is link-local"));
	CU_ASSERT(strstr(out_buf, "OK, 2 WARN, 0 FAIL: nothing will fail") != NULL);
	/* JSON: the same checks */
	f = mem_open();
	rc = ibrd_check_run(c, "t.conf", &env, f, true);
	fclose(f);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(strstr(out_buf, "{\"config\":\"t.conf\",\"checks\":[{\"status\":\"OK\",\"what\":"
				  "\"config\"") == out_buf);
	CU_ASSERT(strstr(out_buf, "\"warn\":2,\"fail\":0}") != NULL);
	ibrd_conf_free(c);
	/* a socket directory that is not there: FAIL, exit 1 */
	snprintf(text, sizeof(text),
		 "router { node-guid = 0x2 }\n"
		 "port \"a\" { data = sim sim-socket = \"%s/no/such/a.sock\" sim-peer = "
		 "\"%s/a.peer\" "
		 "lid = 1 subnet-prefix = \"fec0::\" }\n"
		 "control { socket = \"%s/ctl.sock\" }\n",
		 root, root, root);
	c = conf(text);
	f = mem_open();
	rc = ibrd_check_run(c, "t.conf", &env, f, false);
	fclose(f);
	CU_ASSERT_EQUAL(rc, 1);
	CU_ASSERT(said("FAIL", "port a: sim socket"));
	ibrd_conf_free(c);
}

static int suite_init(void)
{
	log_set_sink(NULL);
	return mkdtemp(root) ? 0 : -1;
}

static int suite_fini(void)
{
	char cmd[600];

	free(out_buf);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static CU_TestInfo tests[] = {
	{ "verbs ports: the device, its port, P_Keys, MTU, limits, node", test_verbs_port },
	{ "device nodes: the user's read and write, by owner, group, other", test_node_perms },
	{ "modules: ib_uverbs, ib_umad, the providers", test_modules },
	{ "locked memory against what the verbs ports register", test_memlock },
	{ "umad ports: the CA's port, its umad device", test_umad_port },
	{ "MAD channel: the port's SMA, what it is to its SM, its SA", test_sa },
	{ "the run: lines, JSON, exit status", test_run },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_check", tests, suite_init, suite_fini);
}
