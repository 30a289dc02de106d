/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_test.c - ibrouterd.conf(5): parsing, checks, defaults and the
 * normalised print (daemon/conf/ibrd_conf*.c).
 *
 * Golden files in tests/data/conf: each valid X.conf prints exactly as
 * X.conf.out, and that output parses again to an equal config that prints
 * the same; each bad-Y.conf fails with exactly the messages of
 * bad-Y.conf.err.  The files are read from $srcdir (automake sets it).
 * Then what is not a file to read (a directory, a FIFO, devices), secrets
 * left out of prints, time linear in the number of routes, and parses in
 * several threads at once.
 */
#include "daemon/conf/ibrd_conf.h"
#include "tests/unit/daemon/conf/ibrd_conf_fix.h"
#include "tests/unit/ibr_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CONF_DIR "tests/data/conf"
#define EXAMPLE	 "../../../etc/ibrouterd.conf" /* from CONF_DIR */

/* The whole file, NUL-terminated, or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int ch;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while (m && (ch = fgetc(f)) != EOF)
		fputc(ch, m);
	if (m)
		fclose(m);
	fclose(f);
	return buf;
}

/* The golden configs: valid ones, or the bad-* ones; sorted names (to free). */
static int conf_files(bool bad, char ***names)
{
	struct dirent **ents;
	int n = scandir(".", &ents, NULL, alphasort), k = 0;

	*names = calloc(n > 0 ? (size_t)n : 1, sizeof(**names));
	for (int i = 0; i < n; i++) {
		const char *f = ents[i]->d_name;
		size_t len = strlen(f);

		if (len > 5 && strcmp(f + len - 5, ".conf") == 0 &&
		    (strncmp(f, "bad-", 4) == 0) == bad)
			(*names)[k++] = strdup(f);
		free(ents[i]);
	}
	free(ents);
	return k;
}

static void test_golden_valid(void)
{
	char **names, path[256];
	int n = conf_files(false, &names);

	CU_ASSERT(n >= 6);
	for (int i = 0; i < n; i++) {
		struct ibrd_conf *c = ibrd_conf_load(names[i], stderr);
		char *want, *got;

		snprintf(path, sizeof(path), "%s.out", names[i]);
		want = slurp(path);
		CU_ASSERT_PTR_NOT_NULL(want);
		CU_ASSERT_PTR_NOT_NULL(c);
		if (!c || !want) {
			fprintf(stderr, "\n%s: no config or no %s\n", names[i], path);
			free(want);
			continue;
		}
		got = print_conf(c);
		CU_ASSERT_STRING_EQUAL(got, want);
		if (strcmp(got, want) != 0)
			fprintf(stderr, "\n%s prints:\n%s--- want (%s):\n%s", names[i], got, path,
				want);
		CU_ASSERT(round_trip(c, names[i]));
		free(got);
		free(want);
		ibrd_conf_free(c);
	}
	printf("(%d valid golden configs) ", n);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void test_golden_bad(void)
{
	char **names, path[256];
	int n = conf_files(true, &names);

	CU_ASSERT(n >= 10);
	for (int i = 0; i < n; i++) {
		char *errs = NULL, *want;
		size_t len = 0;
		FILE *m = open_memstream(&errs, &len);
		struct ibrd_conf *c = ibrd_conf_load(names[i], m);

		fclose(m);
		snprintf(path, sizeof(path), "%s.err", names[i]);
		want = slurp(path);
		CU_ASSERT_PTR_NULL(c);
		CU_ASSERT_PTR_NOT_NULL(want);
		if (want && strcmp(errs, want) != 0) {
			CU_FAIL("messages differ");
			fprintf(stderr, "\n%s says:\n%s--- want (%s):\n%s", names[i], errs, path,
				want);
		}
		ibrd_conf_free(c);
		free(errs);
		free(want);
	}
	printf("(%d bad golden configs) ", n);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void test_example(void)
{
	struct ibrd_conf *c = ibrd_conf_load(EXAMPLE, stderr);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->nports, 2);
	CU_ASSERT_EQUAL(c->port[0].data, IBRD_DATA_SIM);
	CU_ASSERT_EQUAL(c->port[1].rp.lid, 0x10);
	CU_ASSERT(c->nneighs == 2 && c->nroutes == 1 && c->nmcasts == 2);
	CU_ASSERT_STRING_EQUAL(c->file, EXAMPLE);
	CU_ASSERT(round_trip(c, EXAMPLE));
	ibrd_conf_free(c);
}

static const char two_ports[] = "router {\n"
				"  name = \"r\"\n"
				"  node-guid = 0x0002c90300aabb00\n"
				"}\n"
				"port \"a\" {\n"
				"  data = sim\n"
				"  sim-socket = \"/s/a\"\n"
				"  sim-peer = \"/s/a.peer\"\n"
				"  mad = ibsim\n"
				"  ibsim-socket = labA\n"
				"  ibsim-node = RtrA\n"
				"  site = \"west\"\n"
				"  lid = 0x20\n"
				"  lmc = 3\n"
				"  subnet-prefix = \"fec0:0:0:1::\"\n"
				"  mtu = 4096\n"
				"  pkeys = {0xffff, 0x8001}\n"
				"  tclass-sl = {\"0x20=3\", \"46=5\"}\n"
				"  sl-vl = {0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,0}\n"
				"  icrc-check = true\n"
				"  vcrc-check = false\n"
				"  rpf = loose\n"
				"}\n"
				"port \"b\" {\n"
				"  data = verbs\n"
				"  device = mlx5_1\n"
				"  device-port = 2\n"
				"  mad = umad\n"
				"  up = false\n"
				"}\n"
				"port \"c\" {\n"
				"  data = none\n"
				"  mad = umad\n"
				"  umad-ca = mlx5_0\n"
				"  sa-client = false\n"
				"  site = west\n"
				"}\n"
				"learning { sa-client = true }\n";

static void test_ports(void)
{
	struct ibrd_conf *c = load_ok(two_ports);
	const struct router_port *a, *b;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->nports, 3);
	a = &c->port[0].rp;
	b = &c->port[1].rp;
	CU_ASSERT_STRING_EQUAL(a->name, "a");
	CU_ASSERT_EQUAL(a->guid, 0x0002c90300aabb01ull);
	CU_ASSERT_EQUAL(b->guid, 0x0002c90300aabb02ull);
	CU_ASSERT_EQUAL(c->port[2].rp.guid, 0x0002c90300aabb03ull);
	CU_ASSERT_EQUAL(a->prefix, 0xfec0000000000001ull);
	CU_ASSERT(a->lid == 0x20 && a->lmc == 3 && a->mtu == 4096 && a->rpf == ROUTER_RPF_LOOSE);
	CU_ASSERT_EQUAL(a->flags, ROUTER_PORT_UP | ROUTER_PORT_ICRC_CHECK | ROUTER_PORT_PKEY_CHECK);
	CU_ASSERT(a->npkeys == 2 && a->pkeys[0] == 0xffff && a->pkeys[1] == 0x8001);
	CU_ASSERT(a->tclass_sl[0x20] == 3 && a->tclass_sl[46] == 5);
	CU_ASSERT(a->tclass_sl[0] == ROUTER_SL_KEEP && a->tclass_sl[255] == ROUTER_SL_KEEP);
	CU_ASSERT(a->sl_vl[0] == 0 && a->sl_vl[14] == 14 && a->sl_vl[15] == 0);
	/* verbs: link headers and CRCs by the HCA; umad defaults to the data device */
	CU_ASSERT_EQUAL(b->flags, ROUTER_PORT_VCRC_CHECK | ROUTER_PORT_CRC_OFFLOAD);
	CU_ASSERT(b->prefix == 0 && b->lid == 0 && b->npkeys == 0 && b->mtu == 2048);
	CU_ASSERT_STRING_EQUAL(c->port[1].umad_ca, "mlx5_1");
	CU_ASSERT_EQUAL(c->port[1].umad_port, 2);
	CU_ASSERT_EQUAL(c->port[0].ibsim_port, 1);
	/* sites by first appearance */
	CU_ASSERT_EQUAL(c->nsites, 2);
	CU_ASSERT(a->site == 0 && b->site == 1 && c->port[2].rp.site == 0);
	CU_ASSERT_STRING_EQUAL(c->sites[1], "default");
	/* sa-client: the learning setting unless given, never without MADs */
	CU_ASSERT(c->port[0].sa_client && c->port[1].sa_client && !c->port[2].sa_client);
	CU_ASSERT_EQUAL(ibrd_conf_port_index(c, "c"), 2);
	CU_ASSERT_EQUAL(ibrd_conf_port_index(c, "d"), -1);
	CU_ASSERT(round_trip(c, "two_ports"));
	ibrd_conf_free(c);
}

static void test_defaults(void)
{
	struct ibrd_conf *c = load_ok("router { node-guid = 0x10 }\n"
				      "port \"a\" { data = none }\n");
	char host[256] = "", desc[512];

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	gethostname(host, sizeof(host) - 1);
	snprintf(desc, sizeof(desc), "ibrouterd %s %s", host, c->name);
	desc[IBRD_NAME_MAX - 1] = '\0'; /* as much as fits */
	CU_ASSERT_NSTRING_EQUAL(c->name, host, sizeof(c->name) - 1);
	CU_ASSERT_STRING_EQUAL(c->node_desc, desc);
	CU_ASSERT_EQUAL(c->system_image_guid, 0x10);
	CU_ASSERT_EQUAL(c->port[0].rp.guid, 0x11);
	CU_ASSERT_EQUAL(c->port[0].rp.flags, ROUTER_PORT_UP | ROUTER_PORT_VCRC_CHECK);
	CU_ASSERT(c->port[0].mad == IBRD_MAD_NONE && !c->port[0].sa_client);
	CU_ASSERT(c->sa_client && !c->osm_plugin && c->resync_interval == 60 && c->sm_key == 1);
	CU_ASSERT_EQUAL(c->mcast_scopes, 1 << 5 | 1 << 8 | 1 << 0xE);
	CU_ASSERT(c->ninclude == 0 && c->nexclude == 0 && !c->include && !c->exclude);
	CU_ASSERT_STRING_EQUAL(c->ctl_socket, IBRD_SOCK_DEFAULT);
	/* "": the daemon's own group; no user: it stays as started */
	CU_ASSERT(c->ctl_mode == 0660 && c->ctl_group[0] == '\0' && c->user[0] == '\0');
	CU_ASSERT(c->workers == 1 && c->log_level == 6);
	/* event workers, unpinned; a hybrid one would poll 100 µs */
	CU_ASSERT(c->worker_mode == 0 && c->worker_poll == 100 && c->nworker_cpus == 0);
	CU_ASSERT_STRING_EQUAL(c->pid_file, "/run/ibrouter/ibrouterd.pid");
	CU_ASSERT_STRING_EQUAL(c->file, "t.conf");
	CU_ASSERT(c->nroutes == 0 && c->nneighs == 0 && c->nmcasts == 0);
	CU_ASSERT(round_trip(c, "defaults"));
	ibrd_conf_free(c);
}

static void test_tables(void)
{
	struct ibrd_conf *c = load_ok(
		"router { name = r node-guid = 0x1 }\n"
		"port \"a\" { data = none }\n"
		"port \"b\" { data = none }\n"
		"route \"::/0\" { port = a }\n"
		"route \"0xfec0000000000002\" { port = b via = 0x1c lmc = 2"
		" metric = 4000000000 }\n"
		"route \"fec0::/16\" { port = b via = algorithmic }\n"
		"neighbour \"0x2C90300001234\" { port = b lid = 8 lmc = 3 }\n"
		"mcast \"FF15::1\" { port = a mlid = 0xc00f sl = 3 tclass = 7"
		" flowlabel = 0xfffff pkey = 0x8001 qkey = 0x80010000"
		" mtu = 256 receivers = no senders = off }\n"
		"multicast { scopes = {global, admin} include = {\"ff15::/16\"}"
		" exclude = {\"ff15::1/128\", \"ff1e::/16\"} }\n");
	const struct ibrd_conf_route *r;
	const struct ibrd_conf_mcast *m;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL_FATAL(c->nroutes, 3);
	r = c->routes;
	CU_ASSERT(r[0].prefix == 0 && r[0].plen == 0 && r[0].kind == ROUTER_NH_DIRECT);
	CU_ASSERT(r[1].prefix == 0xfec0000000000002ull && r[1].plen == 64);
	CU_ASSERT(r[1].kind == ROUTER_NH_ROUTER && r[1].nlid == 1 && r[1].lid[0] == 0x1c &&
		  r[1].lmc == 2);
	CU_ASSERT(r[1].metric == 4000000000u && strcmp(r[1].port, "b") == 0);
	CU_ASSERT(r[2].prefix == 0xfec0000000000000ull && r[2].plen == 16);
	CU_ASSERT(r[2].kind == ROUTER_NH_ALGO && r[2].nlid == 0);
	CU_ASSERT_EQUAL_FATAL(c->nneighs, 1);
	CU_ASSERT(c->neighs[0].guid == 0x2c90300001234ull && c->neighs[0].lid == 8);
	CU_ASSERT(c->neighs[0].lmc == 3 && strcmp(c->neighs[0].port, "b") == 0);
	CU_ASSERT_EQUAL_FATAL(c->nmcasts, 1);
	m = c->mcasts;
	CU_ASSERT(m->mgid[0] == 0xff && m->mgid[1] == 0x15 && m->mgid[15] == 1);
	CU_ASSERT(m->mlid == 0xc00f && m->sl == 3 && m->tclass == 7 && m->flowlabel == 0xfffff);
	CU_ASSERT(m->pkey == 0x8001 && m->qkey == 0x80010000u && m->mtu == 256);
	CU_ASSERT(!m->receivers && !m->senders);
	CU_ASSERT_EQUAL(c->mcast_scopes, 1 << 4 | 1 << 0xE);
	CU_ASSERT(c->ninclude == 1 && c->include[0].plen == 16 && c->include[0].mgid[1] == 0x15);
	CU_ASSERT(c->nexclude == 2 && c->exclude[0].plen == 128 && c->exclude[1].mgid[1] == 0x1e);
	CU_ASSERT(round_trip(c, "tables"));
	ibrd_conf_free(c);
}

/* rdma-core device names, relay Q_Keys, proxies; a verbs port learns LID and prefix. */
static void test_verbs(void)
{
	struct ibrd_conf *c = load_ok(
		"router { node-guid = 0x1 }\n"
		"port \"a\" { data = verbs device = \"mlx5_0:2\" }\n"
		"port \"b\" { data = verbs device = mlx5_1 relay-qkey = 0x1b1b rq-depth = 4096 }\n"
		"port \"c\" { data = verbs device = \"mlx5_1:3\" device-port = 3 }\n"
		"proxy \"fec0::2:0:0:11:1\" { port = a qpn = 0x42 qkey = 7 }\n"
		"proxy \"fec0::1:0:0:10:1\" { port = b qpn = 0x42 }\n");
	char *errs;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(c->port[0].device, "mlx5_0");
	CU_ASSERT_EQUAL(c->port[0].device_port, 2);
	CU_ASSERT(c->port[0].rp.lid == 0 && c->port[0].rp.prefix == 0); /* from the HCA */
	CU_ASSERT_EQUAL(c->port[0].relay_qkey, 0x0B1B);
	CU_ASSERT(strcmp(c->port[1].device, "mlx5_1") == 0 && c->port[1].device_port == 1);
	CU_ASSERT_EQUAL(c->port[1].relay_qkey, 0x1b1b);
	CU_ASSERT_EQUAL(c->port[0].rq_depth, 1024); /* the default */
	CU_ASSERT_EQUAL(c->port[1].rq_depth, 4096);
	CU_ASSERT(strcmp(c->port[2].device, "mlx5_1") == 0 && c->port[2].device_port == 3);
	CU_ASSERT_EQUAL_FATAL(c->nproxies, 2);
	CU_ASSERT(c->proxies[0].gid[0] == 0xfe && c->proxies[0].gid[7] == 2);
	CU_ASSERT(c->proxies[0].gid[13] == 0x11 && c->proxies[0].gid[15] == 1);
	CU_ASSERT(strcmp(c->proxies[0].port, "a") == 0 && c->proxies[0].qpn == 0x42);
	CU_ASSERT_EQUAL(c->proxies[0].qkey, 7);
	CU_ASSERT_EQUAL(c->proxies[1].qkey, 0x0B1B); /* the default, as proxy add's */
	CU_ASSERT(round_trip(c, "verbs"));
	ibrd_conf_free(c);
	/* the port in the name and device-port disagree; a sim port holds no proxy */
	c = load_text("router { node-guid = 0x1 }\n"
		      "port \"a\" { data = verbs device = \"mlx5_0:2\" device-port = 1 }\n"
		      "port \"s\" { data = sim sim-socket = x sim-peer = y lid = 1"
		      " subnet-prefix = \"fec0:0:0:1::\" }\n"
		      "proxy \"fec0::2:0:0:11:1\" { port = s qpn = 0x42 }\n",
		      &errs);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_STRING_EQUAL(errs, "t.conf:2: port \"a\": device: \"mlx5_0:2\" names port 2, "
				     "device-port says 1\n"
				     "t.conf:4: proxy \"fec0::2:0:0:11:1\": port: port \"s\" has "
				     "data = sim (proxies need data = verbs)\n");
	free(errs);
	/* rq-depth: 64..16384, and a verbs port's only */
	c = load_text("router { node-guid = 0x1 }\n"
		      "port \"a\" { data = verbs device = mlx5_0 rq-depth = 32 }\n"
		      "port \"b\" { data = verbs device = mlx5_1 rq-depth = 16385 }\n"
		      "port \"s\" { data = sim sim-socket = x sim-peer = y lid = 1"
		      " subnet-prefix = \"fec0:0:0:1::\" rq-depth = 128 }\n",
		      &errs);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_STRING_EQUAL(errs,
			       "t.conf:2: port \"a\": rq-depth: 32 is out of range 64..16384\n"
			       "t.conf:3: port \"b\": rq-depth: 16385 is out of range 64..16384\n"
			       "t.conf:4: port \"s\": rq-depth: only with data = verbs\n");
	free(errs);
}

/* worker-mode, worker-poll, worker-cpus: parsed, printed back, refused when wrong. */
static void test_worker_keys(void)
{
	static const char ports[] = TWO_PORTS;
	char text[1024], *errs;
	struct ibrd_conf *c;

	snprintf(text, sizeof(text),
		 "%sworkers = 2\nworker-mode = hybrid\nworker-poll = 250\n"
		 "worker-cpus = { 3, 1 }\n",
		 ports);
	c = load_ok(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->worker_mode, 2);
	CU_ASSERT_EQUAL(c->worker_poll, 250);
	CU_ASSERT_EQUAL_FATAL(c->nworker_cpus, 2);
	CU_ASSERT(c->worker_cpus[0] == 3 && c->worker_cpus[1] == 1);
	CU_ASSERT(round_trip(c, "worker keys"));
	ibrd_conf_free(c);
	snprintf(text, sizeof(text),
		 "%sworker-mode = spin\nworker-poll = 0\nworker-cpus = { 1, x, 1, -2, 5000 }\n",
		 ports);
	c = load_text(text, &errs);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_PTR_NOT_NULL(
		strstr(errs, "worker-mode: \"spin\" is not one of event, busy, hybrid"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "worker-poll"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "\"x\" is not a CPU number"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "CPU 1 is already listed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "\"-2\" is not a CPU number"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "\"5000\" is not a CPU number"));
	free(errs);
}

/*
 * A feed's id is its first section's number, which the RIB and the FIB
 * carry in 16 bits: a feed beginning after 65535 mcast sections is refused
 * (it was cut to another feed's id, silently).
 */
/* ibrd_conf_load(path) fails with exactly `want`. */
static void load_fails(const char *path, const char *want)
{
	char *errs = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&errs, &len);
	struct ibrd_conf *c = ibrd_conf_load(path, m);

	fclose(m);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_STRING_EQUAL(errs, want);
	if (strcmp(errs, want) != 0)
		fprintf(stderr, "\n%s says: %s--- want: %s", path, errs, want);
	ibrd_conf_free(c);
	free(errs);
}

static void test_load_errors(void)
{
	load_fails("no-such.conf", "no-such.conf: No such file or directory\n");
	CU_ASSERT_PTR_NULL(ibrd_conf_load_string("", "empty", NULL));
	ibrd_conf_free(NULL);
}

/*
 * What is not a regular file is refused before anything reads it: the
 * flex scanner exit()ed on a directory, and blocked on a FIFO or on
 * /dev/zero for ever (a FIFO with no writer, here: the test hangs without
 * the check).
 */
static void test_not_a_file(void)
{
	char dir[] = "/tmp/ibrd_conf_test.XXXXXX", path[256], want[512];
	int fd;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(want, sizeof(want), "%s: not a regular file (a directory)\n", dir);
	load_fails(dir, want);
	snprintf(path, sizeof(path), "%s/fifo.conf", dir);
	CU_ASSERT_EQUAL(mkfifo(path, 0600), 0);
	snprintf(want, sizeof(want), "%s: not a regular file (a FIFO)\n", path);
	load_fails(path, want);
	unlink(path);
	load_fails("/dev/zero", "/dev/zero: not a regular file (a character device)\n");
	load_fails("/dev/null", "/dev/null: not a regular file (a character device)\n");
	snprintf(path, sizeof(path), "%s/zero.conf", dir);
	CU_ASSERT_EQUAL(symlink("/dev/zero", path), 0);
	snprintf(want, sizeof(want), "%s: not a regular file (a character device)\n", path);
	load_fails(path, want);
	unlink(path);
	/* one byte over the limit (sparse: nothing is written) */
	snprintf(path, sizeof(path), "%s/big.conf", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CU_ASSERT(fd >= 0 && ftruncate(fd, IBRD_CONF_MAX_BYTES + 1) == 0);
	if (fd >= 0)
		close(fd);
	snprintf(want, sizeof(want), "%s: larger than 64 MiB, the most a config may be\n", path);
	load_fails(path, want);
	unlink(path);
	rmdir(dir);
}

static const char secret_conf[] = "router { node-guid = 0x1 }\n"
				  "port \"a\" { data = none lid = 1 subnet-prefix = \"fec0::\" }\n"
				  "learning { sm-key = 0x5ec2e7c0ffee4b1d }\n";

/* The secret goes only where it is asked for; the rest prints the same. */
static void test_secrets(void)
{
	struct ibrd_conf *c = load_ok(secret_conf), *c2;
	char *full = NULL, *red = NULL, *errs, *p, *q;
	size_t len = 0;
	FILE *m;

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	m = open_memstream(&red, &len);
	ibrd_conf_print(c, m, IBRD_CONF_REDACT);
	fclose(m);
	full = print_conf(c);
	CU_ASSERT_PTR_NOT_NULL(strstr(full, "\tsm-key = 0x5ec2e7c0ffee4b1d\n"));
	CU_ASSERT_PTR_NULL(strstr(red, "5ec2e7c0ffee4b1d"));
	CU_ASSERT_PTR_NULL(strstr(red, "4b1d"));
	CU_ASSERT_PTR_NOT_NULL(strstr(red, "\tsm-key = redacted\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(red, "\tsma-mkey = redacted\n")); /* even at its default */
	/* line by line the same, but for the secrets' values */
	for (p = red, q = full; *p && *q;) {
		size_t lp = strcspn(p, "\n"), lq = strcspn(q, "\n");

		if (lp != lq || memcmp(p, q, lp)) {
			CU_ASSERT(!strncmp(p, "\tsm-key = redacted", lp) ||
				  !strncmp(p, "\tsma-mkey = redacted", lp) ||
				  !strncmp(p, "\tannounce-key = redacted", lp));
			CU_ASSERT(!strncmp(q, "\tsm-key = ", 10) ||
				  !strncmp(q, "\tsma-mkey = ", 12) ||
				  !strncmp(q, "\tannounce-key = ", 16));
		}
		p += lp + (p[lp] == '\n');
		q += lq + (q[lq] == '\n');
	}
	CU_ASSERT(!*p && !*q);
	/* the redacted print does not parse: the key must come back by hand */
	c2 = load_text(red, &errs);
	CU_ASSERT_PTR_NULL(c2);
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "learning: sm-key: \"redacted\" is what"));
	ibrd_conf_free(c2);
	free(errs);
	/* nor is a wrong secret echoed in a message */
	c2 = load_text("router { node-guid = 0x1 }\n"
		       "learning { sm-key = 0x5ec2e7c0ffee4b1dz }\n",
		       &errs);
	CU_ASSERT_PTR_NULL(c2);
	CU_ASSERT_PTR_NULL(strstr(errs, "4b1d"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "t.conf:2: learning: sm-key: not a number"));
	free(errs);
	/* the announcements' key: 16 bytes, not echoed either */
	c2 = load_text("router { node-guid = 0x1 }\n"
		       "learning { announce-key = 0x5ec2e7c0ffee4b1d5ec2e7c0ffee4b1 }\n",
		       &errs);
	CU_ASSERT_PTR_NULL(c2);
	CU_ASSERT_PTR_NULL(strstr(errs, "4b1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(errs, "t.conf:2: learning: announce-key: not 32 hex digits"));
	free(errs);
	c2 = load_ok("router { node-guid = 0x1 }\n"
		     "port \"a\" { data = none lid = 1 subnet-prefix = \"fec0::\" }\n"
		     "learning { announce-key = 0x5EC2E7C0FFEE4B1D5EC2E7C0FFEE4B1D }\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c2);
	CU_ASSERT(c2->announce_key[0] == 0x5e && c2->announce_key[15] == 0x1d);
	ibrd_conf_free(c2);
	free(full);
	free(red);
	ibrd_conf_free(c);
}

/* A config of n routes in file `path`; 0 or -1. */
static int write_routes(const char *path, unsigned n)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "router { node-guid = 0x1 }\n"
		   "port \"a\" { data = none lid = 1 subnet-prefix = \"fec0::\" }\n");
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "route \"fec1:%x:%x::/64\" {\n\tport = a\n\tmetric = %u\n}\n", i >> 16,
			i & 0xffff, i);
	return fclose(f) ? -1 : 0;
}

/* CPU seconds of ibrd_conf_load(path): the best of `runs`; -1 if it failed. */
static double load_seconds(const char *path, unsigned n, int runs)
{
	double best = -1;

	for (int r = 0; r < runs; r++) {
		struct timespec t0, t1;
		struct ibrd_conf *c;
		double t;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		c = ibrd_conf_load(path, stderr);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		if (!c || c->nroutes != n) {
			ibrd_conf_free(c);
			return -1;
		}
		ibrd_conf_free(c);
		t = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

/*
 * Load time is linear in the routes: 4x the routes cost about 4x the CPU
 * time, never 8x (it was 16x: libconfuse looked each new title up among
 * all the sections before it; 16k routes took 1.6 s, 50k 68 s).  CPU time
 * and the best of two runs keep a busy machine out of it, and both sizes
 * are beyond the caches.  The limits are ten times what this takes on a
 * quiet machine without sanitizers: 2.5 s for 25k routes (else the 10^5
 * would take minutes), 10 s for 10^5.
 */
static void test_linear(void)
{
	char path[] = "/tmp/ibrd_conf_routes.XXXXXX";
	int fd = mkstemp(path);
	double t25, t100 = -1;

	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	CU_ASSERT_FATAL(write_routes(path, 25000) == 0);
	t25 = load_seconds(path, 25000, 2);
	CU_ASSERT(t25 > 0 && t25 < 2.5);
	if (t25 > 0 && t25 < 2.5) {
		CU_ASSERT_FATAL(write_routes(path, 100000) == 0);
		t100 = load_seconds(path, 100000, 1);
		if (t100 > 0 && t100 < 10) /* the best of two, unless one is enough to fail */
			t100 = fmin(t100, load_seconds(path, 100000, 1));
		CU_ASSERT(t100 > 0 && t100 < 10);
		CU_ASSERT(t100 < 8 * t25);
	}
	printf("(25k routes %.3f s, 10^5 %.3f s) ", t25, t100);
	unlink(path);
}

static void *parse_many(void *arg)
{
	const char *want = arg;
	long bad = 0;

	for (int i = 0; i < 50; i++) {
		struct ibrd_conf *c = ibrd_conf_load_string(two_ports, "t.conf", NULL);
		char *got = c ? print_conf(c) : NULL;

		bad += !got || strcmp(got, want) != 0;
		free(got);
		ibrd_conf_free(c);
	}
	return (void *)bad;
}

/* Parses in several threads at once (a reload parsed off the control thread). */
static void test_threads(void)
{
	struct ibrd_conf *c = load_ok(two_ports);
	char *want = c ? print_conf(c) : NULL;
	pthread_t t[4];
	void *bad;

	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	for (int i = 0; i < 4; i++)
		CU_ASSERT_EQUAL(pthread_create(&t[i], NULL, parse_many, want), 0);
	for (int i = 0; i < 4; i++) {
		CU_ASSERT_EQUAL(pthread_join(t[i], &bad), 0);
		CU_ASSERT_PTR_NULL(bad);
	}
	free(want);
	ibrd_conf_free(c);
}

/* Every message is one line that starts with the file name. */
static void test_message_shape(void)
{
	char *errs, *line, *save = NULL;
	struct ibrd_conf *c = load_text("router { node-guid = 0x1 }\n"
					"port \"a\" { data = sim lmc = 9 mtu = 3 }\n"
					"port \"a\" { data = none }\n"
					"route \"x\" { port = q }\n",
					&errs);
	int n = 0;

	CU_ASSERT_PTR_NULL(c);
	for (line = strtok_r(errs, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++)
		CU_ASSERT(strncmp(line, "t.conf:", 7) == 0);
	CU_ASSERT_EQUAL(n, 5);
	free(errs);
}

static int init(void)
{
	const char *srcdir = getenv("srcdir");
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/%s", srcdir ? srcdir : ".", CONF_DIR);
	if (chdir(dir) < 0) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}

static CU_TestInfo tests[] = {
	{ "golden configs print as their .out and round-trip", test_golden_valid },
	{ "bad golden configs fail with their .err", test_golden_bad },
	{ "etc/ibrouterd.conf parses", test_example },
	{ "ports fill router_port", test_ports },
	{ "defaults", test_defaults },
	{ "routes, neighbours, groups, multicast policy", test_tables },
	{ "verbs ports and proxies", test_verbs },
	{ "worker-mode, worker-poll, worker-cpus", test_worker_keys },
	{ "missing file, empty text, free(NULL)", test_load_errors },
	{ "directories, FIFOs, devices, a file too large are refused", test_not_a_file },
	{ "secrets are printed only when asked for, never echoed", test_secrets },
	{ "load time is linear in the number of routes", test_linear },
	{ "parses in several threads", test_threads },
	{ "one line per message, named by file", test_message_shape },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_conf", tests, init, NULL);
}
