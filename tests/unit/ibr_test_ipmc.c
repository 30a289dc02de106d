/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_test_ipmc.c - IP multicast memberships as the kernel lists them (ibr_test_ipmc.h). */
#include "tests/unit/ibr_test_ipmc.h"

#include "lib/ibr_ipmc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * /proc/net/igmp: a line per interface ("1\tlo        :     2      V3")
 * followed by a line per group, indented by tabs ("\t\t\t\t010101EF     1
 * ..."): the group is the address as the kernel holds it, a big-endian
 * word, printed with %08X.
 */
static int ipmc_users4(FILE *f, unsigned ifindex, const uint8_t mgid[16])
{
	char line[256], want[9], group[16];
	unsigned idx = 0;
	uint32_t addr;
	int users;

	memcpy(&addr, mgid + 12, 4);
	snprintf(want, sizeof(want), "%08X", addr);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] >= '0' && line[0] <= '9')
			idx = (unsigned)strtoul(line, NULL, 10);
		else if (line[0] == '\t' && idx == ifindex &&
			 sscanf(line, "%15s %d", group, &users) == 2 && !strcmp(group, want))
			return users;
	}
	return 0;
}

/* /proc/net/igmp6: "1    lo    ff150000000000000000000000010008     1 00000004 0". */
static int ipmc_users6(FILE *f, unsigned ifindex, const uint8_t mgid[16])
{
	char line[256], want[33], group[40];
	unsigned idx;
	int users;

	for (int i = 0; i < 16; i++)
		snprintf(want + 2 * i, 3, "%02x", mgid[i]);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%u %*s %39s %d", &idx, group, &users) == 3 && idx == ifindex &&
		    !strcmp(group, want))
			return users;
	return 0;
}

int ibr_test_ipmc_users(unsigned ifindex, const uint8_t mgid[16])
{
	bool v4 = ibr_ipmc_is_v4(mgid);
	FILE *f = fopen(v4 ? "/proc/net/igmp" : "/proc/net/igmp6", "r");
	int n;

	if (!f)
		return -1;
	n = v4 ? ipmc_users4(f, ifindex, mgid) : ipmc_users6(f, ifindex, mgid);
	fclose(f);
	return n;
}
