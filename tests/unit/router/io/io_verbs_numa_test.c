/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for router/io/io_verbs_numa.c: an HCA's NUMA node as sysfs says it
 * (a directory of our own under IBR_SYSFS_ROOT), nothing for what is not a
 * node or not a device name, the pool bound to a node and the thread's
 * policy given back; and a port opened over the fake provider knows its
 * HCA's node (show verbs' numa column).
 */
#include "router/io/io_verbs.h"
#include "router/io/io_verbs_numa.h"
#include "tests/fakes/fake_verbs.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/router/io/io_verbs_fix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static char root[64];

/* sysfs says device `dev` is on node text (NULL: no such file). */
static void node_file(const char *dev, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/class", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s", root, dev);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device", root, dev);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/numa_node", root, dev);
	if (!text) {
		unlink(path);
		return;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
}

static void test_node(void)
{
	node_file("mlx5_0", "0\n");
	CU_ASSERT_EQUAL(io_verbs_numa_node("mlx5_0"), 0);
	node_file("mlx5_0", "3\n");
	CU_ASSERT_EQUAL(io_verbs_numa_node("mlx5_0"), 3);
	node_file("mlx5_0", "-1\n"); /* the kernel does not know it */
	CU_ASSERT_EQUAL(io_verbs_numa_node("mlx5_0"), -1);
	node_file("mlx5_0", "one\n");
	CU_ASSERT_EQUAL(io_verbs_numa_node("mlx5_0"), -1);
	node_file("mlx5_0", "2x\n");
	CU_ASSERT_EQUAL(io_verbs_numa_node("mlx5_0"), -1);
	node_file("mlx5_0", "");
	CU_ASSERT_EQUAL(io_verbs_numa_node("mlx5_0"), -1);
	node_file("mlx5_0", NULL);
	CU_ASSERT_EQUAL(io_verbs_numa_node("mlx5_0"), -1);
	CU_ASSERT_EQUAL(io_verbs_numa_node("no_such_dev"), -1);
	/* a name that would climb out of class/infiniband */
	CU_ASSERT_EQUAL(io_verbs_numa_node("../../etc"), -1);
	CU_ASSERT_EQUAL(io_verbs_numa_node(".."), -1);
	CU_ASSERT_EQUAL(io_verbs_numa_node(""), -1);
}

/* Node 0 exists on every Linux machine; node 1000 on none here. */
static void test_bind_and_prefer(void)
{
	size_t len = 1 << 20;
	void *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int mode = -1, rc;

	CU_ASSERT_FATAL(mem != MAP_FAILED);
	rc = io_verbs_numa_bind(mem, len, 0);
	/* qemu-user passes no memory policy on: skipped and counted there, a failure natively */
	if (ibr_test_emulator_skip(rc == -ENOSYS || rc == -EPERM,
				   "mbind refused by the emulator")) {
		munmap(mem, len);
		return;
	}
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(io_verbs_numa_bind(mem, len, 1000) < 0);
	CU_ASSERT_EQUAL(io_verbs_numa_bind(mem, len, -1), -EINVAL);
	memset(mem, 1, len);
	munmap(mem, len);
	CU_ASSERT_EQUAL(io_verbs_numa_prefer(0), 0);
	CU_ASSERT_EQUAL(syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0), 0);
	CU_ASSERT_EQUAL(mode, 1); /* MPOL_PREFERRED */
	CU_ASSERT_EQUAL(io_verbs_numa_prefer(-1), 0);
	CU_ASSERT_EQUAL(syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0), 0);
	CU_ASSERT_EQUAL(mode, 0);		      /* MPOL_DEFAULT, as before */
	CU_ASSERT_EQUAL(io_verbs_numa_prefer(-1), 0); /* nothing to give back */
}

/* A port over the fake provider: its HCA's node as sysfs says it, -1 where it says none. */
static void test_port_node(void)
{
	struct vfix fx;

	node_file(vfix_dev[0], "0\n");
	node_file(vfix_dev[1], NULL);
	CU_ASSERT_EQUAL_FATAL(vfix_prepare(&fx, "numa", 2, 1, 64, 64), 0);
	CU_ASSERT_EQUAL_FATAL(vfix_open(&fx), 0);
	CU_ASSERT_EQUAL(io_verbs_port(fx.v, 0)->numa, 0);
	CU_ASSERT_EQUAL(io_verbs_port(fx.v, 1)->numa, -1);
	vfix_close(&fx);
}

/*
 * The CQs and QPs made again when a lost device is back are on its node
 * too: the reopen prefers it as the first open did (it did not before).
 */
static void test_reopen_node(void)
{
	struct vfix fx;
	unsigned long n0;

	node_file(vfix_dev[0], NULL);
	node_file(vfix_dev[1], "0\n");
	CU_ASSERT_EQUAL_FATAL(vfix_prepare(&fx, "numa2", 2, 1, 64, 64), 0);
	n0 = io_verbs_numa_prefers();
	CU_ASSERT_EQUAL_FATAL(vfix_open(&fx), 0);
	if (ibr_test_emulator_skip(io_verbs_numa_prefers() == n0,
				   "set_mempolicy refused by the emulator")) {
		vfix_close(&fx);
		return;
	}
	CU_ASSERT_EQUAL(io_verbs_numa_prefers(), n0 + 1); /* port 1's, not port 0's */
	CU_ASSERT_EQUAL(fake_verbs_remove(vfix_dev[1], false), 0);
	io_verbs_dev_lose(fx.v, 1);
	CU_ASSERT_TRUE(io_verbs_port(fx.v, 1)->lost);
	CU_ASSERT_EQUAL(fake_verbs_restore(vfix_dev[1]), 0);
	CU_ASSERT_EQUAL(io_verbs_dev_reopen(fx.v, 1), 0);
	CU_ASSERT_FALSE(io_verbs_port(fx.v, 1)->lost);
	CU_ASSERT_EQUAL(io_verbs_numa_prefers(), n0 + 2);
	vfix_close(&fx);
}

static int setup(void)
{
	snprintf(root, sizeof(root), "/tmp/ibr-numa.%d", (int)getpid());
	if (mkdir(root, 0700))
		return 1;
	return setenv("IBR_SYSFS_ROOT", root, 1);
}

static int teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? 1 : 0;
}

static CU_TestInfo tests[] = {
	{ "an HCA's node from sysfs, nothing for the rest", test_node },
	{ "the pool bound to a node, the thread's policy given back", test_bind_and_prefer },
	{ "a port knows its HCA's node", test_port_node },
	{ "a device back from lost: its node preferred again", test_reopen_node },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("io_verbs_numa", tests, setup, teardown);
}
