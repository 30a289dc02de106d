/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* io_verbs_numa.c - a verbs port's memory on its HCA's NUMA node (io_verbs_numa.h). */
#include "router/io/io_verbs_numa.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* <numaif.h>'s, which comes with libnuma's development package */
#define NUMA_MPOL_DEFAULT   0
#define NUMA_MPOL_PREFERRED 1
#define NUMA_MAX_NODES	    1024

int io_verbs_numa_node(const char *name)
{
	const char *root = getenv("IBR_SYSFS_ROOT");
	char path[PATH_MAX], text[16] = "", *end;
	long node;
	FILE *f;

	/* a device name is a file name: nothing that climbs out of the directory */
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -1;
	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/numa_node",
		 root && root[0] ? root : "/sys", name);
	if (!(f = fopen(path, "r")))
		return -1;
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	errno = 0;
	node = strtol(text, &end, 10);
	if (end == text || (*end && *end != '\n') || errno || node < 0 || node >= NUMA_MAX_NODES)
		return -1;
	return (int)node;
}

int io_verbs_numa_bind(void *mem, size_t len, int node)
{
	unsigned long mask[NUMA_MAX_NODES / (8 * sizeof(unsigned long))] = { 0 };

	if (node < 0 || node >= NUMA_MAX_NODES)
		return -EINVAL;
	mask[node / (8 * sizeof(unsigned long))] = 1ul << (node % (8 * sizeof(unsigned long)));
	return syscall(SYS_mbind, mem, len, NUMA_MPOL_PREFERRED, mask, NUMA_MAX_NODES + 1, 0)
		       ? -errno
		       : 0;
}

static _Atomic unsigned long numa_nprefers;

unsigned long io_verbs_numa_prefers(void)
{
	return numa_nprefers;
}

/* The thread's policy before io_verbs_numa_prefer(node), given back by (-1). */
static __thread int numa_saved_mode = -1;
static __thread unsigned long numa_saved_mask[NUMA_MAX_NODES / (8 * sizeof(unsigned long))];

int io_verbs_numa_prefer(int node)
{
	unsigned long mask[NUMA_MAX_NODES / (8 * sizeof(unsigned long))] = { 0 };
	int rc;

	if (node >= NUMA_MAX_NODES)
		return -EINVAL;
	if (node < 0) {
		if (numa_saved_mode < 0)
			return 0;
		rc = syscall(SYS_set_mempolicy, numa_saved_mode,
			     numa_saved_mode == NUMA_MPOL_DEFAULT ? NULL : numa_saved_mask,
			     NUMA_MAX_NODES + 1)
			     ? -errno
			     : 0;
		numa_saved_mode = -1;
		return rc;
	}
	if (syscall(SYS_get_mempolicy, &numa_saved_mode, numa_saved_mask, NUMA_MAX_NODES + 1, NULL,
		    0)) {
		numa_saved_mode = -1;
		return -errno;
	}
	mask[node / (8 * sizeof(unsigned long))] = 1ul << (node % (8 * sizeof(unsigned long)));
	if (syscall(SYS_set_mempolicy, NUMA_MPOL_PREFERRED, mask, NUMA_MAX_NODES + 1)) {
		numa_saved_mode = -1;
		return -errno;
	}
	numa_nprefers++;
	return 0;
}
