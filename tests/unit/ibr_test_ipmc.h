/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_test_ipmc.h - what the kernel says of an interface's IP multicast
 * memberships, for the tests of whatever joins groups behind RoCE MGIDs
 * (lib/ibr_ipmc.h): the tables /proc/net/igmp and /proc/net/igmp6.
 */
#ifndef IBR_TEST_IPMC_H
#define IBR_TEST_IPMC_H

#include <stdint.h>

/*
 * The sockets that are members of the IP group of `mgid` (IPv4-mapped: its
 * IPv4 group; else the IPv6 group) on interface `ifindex`: the table's
 * Users column, 0 when the group is not listed there, -1 when the table
 * cannot be read (no IPv6, no /proc).
 */
int ibr_test_ipmc_users(unsigned ifindex, const uint8_t mgid[16]);

#endif
