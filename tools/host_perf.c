/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host_perf.c - "ibrouter-host ... perf": the host speaks as perfquery(8)
 * would to the PerfMgt agent of the router port at the other end of its
 * wire (class 0x04, IBA 16.1): ClassPortInfo, PortCounters or
 * PortCountersExtended, Get or (reset) Set, LID-routed to QP1, and the
 * reply decoded with libibmad's field tables: the layout the router writes
 * is the one infiniband-diags reads.
 */
#include "tools/host_perf.h"
#include "tools/host_smp.h"

#include "lib/ibr_mad.h"

#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PERF_DATA_OFFS 64 /* PerfMgt: after the header and 40 reserved bytes */

static const struct {
	const char *name;
	uint16_t id;
	ib_mad_dump_fn *dump;
} attrs[] = {
	{ "classportinfo", 0x0001, mad_dump_classportinfo },
	{ "counters", 0x0012, mad_dump_perfcounters },
	{ "extended", 0x001D, mad_dump_perfcounters_ext },
};

int host_perf(int fd, const struct sockaddr_un *peer, socklen_t peerlen, int timeout_ms, int argc,
	      char **argv)
{
	struct smp_addr ad = { 1, 0, true }, from;
	uint8_t mad[IBR_MAD_SIZE], resp[IBR_MAD_SIZE];
	unsigned long port = 1, mask = 0;
	bool reset = false;
	char buf[4096];
	int a = 1, rc;

	for (int i = 0; i < argc; i++) {
		int k = -1;

		for (int j = 0; j < 3; j++)
			if (!strcmp(argv[i], attrs[j].name))
				k = j;
		if (k >= 0) {
			a = k;
		} else if (!strcmp(argv[i], "reset")) {
			reset = true;
			mask = i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9'
				       ? strtoul(argv[++i], NULL, 0)
				       : 0xFFFF;
		} else if (i + 1 < argc && !strcmp(argv[i], "port")) {
			port = strtoul(argv[++i], NULL, 0);
		} else if (i + 1 < argc && !strcmp(argv[i], "slid")) {
			ad.slid = (uint16_t)strtoul(argv[++i], NULL, 0);
		} else if (i + 1 < argc && !strcmp(argv[i], "dlid")) {
			ad.dlid = (uint16_t)strtoul(argv[++i], NULL, 0);
		} else {
			fprintf(stderr, "ibrouter-host: perf [classportinfo|counters|extended] "
					"[port N] [slid L] dlid L [reset [MASK]]\n");
			return 2;
		}
	}
	if (!ad.dlid || port > 255) {
		fprintf(stderr, "ibrouter-host: perf: dlid (the router port's LID) is required\n");
		return 2;
	}
	if (timeout_ms <= 0)
		timeout_ms = 1000;
	ibr_mad_build(mad, IBR_MGMT_CLASS_PERF, reset ? IBR_MAD_METHOD_SET : IBR_MAD_METHOD_GET,
		      attrs[a].id, 0, (uint64_t)time(NULL) << 16 | 1);
	mad[PERF_DATA_OFFS + 1] = (uint8_t)port; /* PortSelect */
	ibr_mad_st16(mad + PERF_DATA_OFFS + 2, (uint16_t)mask);
	if ((rc = host_mad_call(fd, peer, peerlen, timeout_ms, &ad, mad, resp, &from)))
		return fprintf(stderr, "ibrouter-host: perf: %s\n", strerror(-rc)), 1;
	printf("# %s: status 0x%04x\n", attrs[a].name, ibr_mad_status(resp) & 0x7FFF);
	printf("# lrh: slid 0x%04x dlid 0x%04x\n", from.slid, from.dlid);
	if (a == 0)
		printf("CapabilityMask:..................0x%04x\n",
		       mad_get_field(resp + PERF_DATA_OFFS, 0, IB_CPI_CAPMASK_F));
	attrs[a].dump(buf, sizeof(buf), resp + PERF_DATA_OFFS, IBR_MAD_SIZE - PERF_DATA_OFFS);
	printf("%s", buf);
	return (ibr_mad_status(resp) & 0x7FFF) ? 1 : 0;
}
