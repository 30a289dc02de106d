/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_numa.h - a verbs port's memory on its HCA's NUMA node: the
 * buffer pool bound there (mbind), and what the provider allocates while
 * the port opens (its CQs and QPs) preferred there (set_mempolicy), so that
 * the HCA's DMA and the worker's reads stay on one node.  Without libnuma:
 * the two system calls.  A machine of one node, or an HCA whose node the
 * kernel does not know (-1), changes nothing.
 */
#ifndef IO_VERBS_NUMA_H
#define IO_VERBS_NUMA_H

#include <stddef.h>

/*
 * The NUMA node of verbs device `name` (sysfs: class/infiniband/NAME/
 * device/numa_node, under $IBR_SYSFS_ROOT for tests, else /sys), -1 when
 * not known.
 */
int io_verbs_numa_node(const char *name);
/* [mem, mem + len) on `node` (preferred: another node when it is full); 0 or -errno. */
int io_verbs_numa_bind(void *mem, size_t len, int node);
/* How many times io_verbs_numa_prefer() set a node (for tests). */
unsigned long io_verbs_numa_prefers(void);
/*
 * This thread's allocations on `node` from now on, its policy before kept;
 * -1: that policy back.  0 or -errno.
 */
int io_verbs_numa_prefer(int node);

#endif
