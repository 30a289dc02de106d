/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host_smp.c - "ibrouter-host ... smp": the host speaks as a subnet manager
 * would to the router port at the other end of its wire: a directed-route
 * SMP with hop count 0 (IBA 14.2.2: the permissive LID, VL15, QP0), or with
 * `slid` a LID-routed one (class 0x01, 14.2.1.1) from that LID, carrying
 * `mkey` if given, and the reply decoded with libibmad's dumpers, as
 * smpquery(8) prints it.
 */
#include "tools/host_smp.h"

#include "lib/ibr_mad.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct smp_attr {
	const char *name;
	uint16_t id;
	ib_mad_dump_fn *dump;
	void (*print)(const uint8_t *data); /* a decoder of ours, where libibmad has none */
};

static uint64_t ld_be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* SMInfo (IBA 14.2.5.13), with libibmad's field table: it has no dumper for it */
static void print_sminfo(const uint8_t *d)
{
	void *p = (void *)d;

	printf("Guid: 0x%016llx\nSM_Key: 0x%016llx\nActCount: %u\nPriority: %u\nSMState: %u\n",
	       (unsigned long long)mad_get_field64(p, 0, IB_SMINFO_GUID_F),
	       (unsigned long long)mad_get_field64(p, 0, IB_SMINFO_KEY_F),
	       mad_get_field(p, 0, IB_SMINFO_ACT_F), mad_get_field(p, 0, IB_SMINFO_PRIO_F),
	       mad_get_field(p, 0, IB_SMINFO_STATE_F));
}

/*
 * The vendor router attributes as NVIDIA's OpenSM lays them out (its
 * ib_types.h: ib_router_info_t, rtr_next_hop_record_t,
 * rtr_adj_site_local_subn_record_t; sma/sma_vendor.h has the sources).
 */
static void print_routerinfo(const uint8_t *d)
{
	printf("CapabilityMask: 0x%08llx\nNextHopTableCap: %llu\nNextHopTableTop: %llu\n"
	       "TableChanges: 0x%04llx\nAdjacentSiteLocalSubnetsTableTop: %u\n"
	       "AdjacentSiteLocalSubnetsTableCap: %u\n",
	       (unsigned long long)ld_be(d, 4), (unsigned long long)ld_be(d + 4, 4),
	       (unsigned long long)ld_be(d + 8, 4), (unsigned long long)ld_be(d + 12, 2), d[14],
	       d[15]);
}

/* 4 records of 16 bytes; an all-zero record is an empty slot */
static void print_nexthops(const uint8_t *d)
{
	for (int i = 0; i < 4; i++, d += 16)
		if (ld_be(d, 8) || ld_be(d + 8, 8))
			printf("NextHop[%d]: prefix 0x%016llx weight %u pkey 0x%04llx\n", i,
			       (unsigned long long)ld_be(d, 8), d[8],
			       (unsigned long long)ld_be(d + 10, 2));
}

/* 8 records of 8 bytes */
static void print_adjsubnets(const uint8_t *d)
{
	for (int i = 0; i < 8; i++, d += 8)
		if (ld_be(d, 8))
			printf("Adjacent[%d]: subnet 0x%04llx pkey 0x%04llx smlid 0x%04llx\n", i,
			       (unsigned long long)ld_be(d + 2, 2), (unsigned long long)ld_be(d, 2),
			       (unsigned long long)ld_be(d + 6, 2));
}

static const struct smp_attr attrs[] = {
	{ "nodeinfo", IBR_SMP_ATTR_NODE_INFO, mad_dump_nodeinfo, NULL },
	{ "nodedesc", IBR_SMP_ATTR_NODE_DESC, mad_dump_nodedesc, NULL },
	{ "portinfo", IBR_SMP_ATTR_PORT_INFO, mad_dump_portinfo, NULL },
	{ "pkeys", IBR_SMP_ATTR_PKEY_TABLE, NULL, NULL },
	{ "sminfo", IBR_SMP_ATTR_SM_INFO, NULL, print_sminfo },
	{ "routerinfo", IBR_SMP_ATTR_ROUTER_INFO, NULL, print_routerinfo },
	{ "nexthops", IBR_SMP_ATTR_NEXT_HOP_TABLE, NULL, print_nexthops },
	{ "adjsubnets", IBR_SMP_ATTR_ADJ_SITE_LOCAL_SUBNETS, NULL, print_adjsubnets },
};

#define GSI_QKEY 0x80010000u /* QP1's well-known Q_Key (IBA 9.6.1.1) */

int host_mad_call(int fd, const struct sockaddr_un *peer, socklen_t peerlen, int timeout_ms,
		  const struct smp_addr *a, const uint8_t *mad, uint8_t *resp,
		  struct smp_addr *from)
{
	bool smp = !a->gmp; /* an SMP: VL15, QP0; a GMP: VL0, QP1 to QP1 */
	struct ibr_pkt_ud_params p = { .vl = smp ? IBR_VL15 : 0,
				       .slid = a->slid,
				       .dlid = a->dlid,
				       .pkey = IBR_PKEY_DEFAULT,
				       .dest_qp = smp ? 0 : 1,
				       .src_qp = smp ? 0 : 1,
				       .qkey = smp ? 0 : GSI_QKEY,
				       .payload = mad,
				       .payload_len = IBR_MAD_SIZE };
	uint8_t pkt[512], in[IBR_PKT_MAX_LEN + 2];
	int len = ibr_pkt_build_ud(pkt, sizeof(pkt), &p);

	if (len < 0 || sendto(fd, pkt, (size_t)len, 0, (const struct sockaddr *)peer, peerlen) < 0)
		return -errno;
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		struct ibr_pkt rp;
		ssize_t n;

		int r = poll(&pfd, 1, timeout_ms);

		if (r < 0 && errno == EINTR)
			continue; /* SIGINT, SIGTERM: the socket is shut down, POLLHUP next */
		if (r <= 0)
			return -ETIMEDOUT;
		if (pfd.revents & POLLHUP)
			return -EINTR; /* shut down by the signal handler (host_wire.c) */
		n = recv(fd, in, sizeof(in), 0);
		if (n <= 0 || ibr_pkt_parse(in, (size_t)n, &rp) ||
		    (ibr_lrh_get_vl(rp.lrh) == IBR_VL15) != smp || rp.payload_len != IBR_MAD_SIZE ||
		    ibr_pkt_crc_check(&rp))
			continue; /* not a reply of its kind: data traffic or garbage */
		if (ibr_mad_tid(rp.payload) != ibr_mad_tid(mad) || !ibr_mad_is_response(rp.payload))
			continue;
		memcpy(resp, rp.payload, IBR_MAD_SIZE);
		from->slid = ibr_lrh_get_slid(rp.lrh);
		from->dlid = ibr_lrh_get_dlid(rp.lrh);
		return 0;
	}
}

static void smp_print(const struct smp_attr *a, const uint8_t *resp, const struct smp_addr *from)
{
	char buf[4096];
	const uint8_t *data = resp + IBR_SMP_DATA_OFFS;

	printf("# %s: status 0x%04x\n", a->name, ibr_mad_status(resp) & 0x7FFF);
	printf("# lrh: slid 0x%04x dlid 0x%04x\n", from->slid, from->dlid);
	if (a->print) {
		a->print(data);
		return;
	}
	if (a->dump) {
		a->dump(buf, sizeof(buf), (void *)data, 64);
		printf("%s", buf);
		return;
	}
	for (int i = 0; i < 64; i += 16) { /* no dumper in libibmad: hex */
		for (int j = 0; j < 16; j++)
			printf("%02x%s", data[i + j], j == 15 ? "\n" : " ");
	}
}

/* PortInfo Set from a Get: only the fields asked for change (state and
 * physical state as 0 = no change, as ibportstate does, 14.2.5.6). */
static void smp_portinfo_edit(uint8_t *data, int argc, char **argv)
{
	mad_set_field(data, 0, IB_PORT_STATE_F, 0);
	mad_set_field(data, 0, IB_PORT_PHYS_STATE_F, 0);
	for (int i = 0; i + 1 < argc; i += 2) {
		unsigned long long v = strtoull(argv[i + 1], NULL, 0);

		if (!strcmp(argv[i], "set-lid"))
			mad_set_field(data, 0, IB_PORT_LID_F, (uint32_t)v);
		else if (!strcmp(argv[i], "set-lmc"))
			mad_set_field(data, 0, IB_PORT_LMC_F, (uint32_t)v);
		else if (!strcmp(argv[i], "set-prefix"))
			mad_set_field64(data, 0, IB_PORT_GID_PREFIX_F, v);
		else if (!strcmp(argv[i], "set-smlid"))
			mad_set_field(data, 0, IB_PORT_SMLID_F, (uint32_t)v);
	}
}

/* PKeyTable Set: the block (mod) becomes the listed P_Keys, "0xffff,0x8001", the rest empty. */
static int smp_pkeys_edit(uint8_t *data, const char *list)
{
	const char *q = list;

	memset(data, 0, 64);
	for (unsigned i = 0; *q; i++) {
		char *end;
		unsigned long v = strtoul(q, &end, 0);

		if (end == q || v > 0xFFFF || i >= 32 || (*end && *end != ','))
			return -EINVAL;
		data[2 * i] = (uint8_t)(v >> 8);
		data[2 * i + 1] = (uint8_t)v;
		q = *end ? end + 1 : end;
	}
	return 0;
}

int host_smp(int fd, const struct sockaddr_un *peer, socklen_t peerlen, int timeout_ms, int argc,
	     char **argv)
{
	const struct smp_attr *a = NULL;
	struct smp_addr ad = { IBR_LID_PERMISSIVE, IBR_LID_PERMISSIVE, false }, from;
	uint8_t mad[IBR_MAD_SIZE], resp[IBR_MAD_SIZE];
	uint64_t tid = (uint64_t)time(NULL) << 16, mkey = 0;
	uint32_t mod = 0;
	bool set = false, lid_routed = false;
	uint8_t pkeys[64]; /* the block set-pkeys lists, parsed once */
	bool set_pkeys = false;
	int rc;

	for (size_t i = 0; argc > 0 && i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (!strcmp(argv[0], attrs[i].name))
			a = &attrs[i];
	if (!a) {
		fprintf(stderr, "ibrouter-host: smp nodeinfo|nodedesc|portinfo|pkeys|sminfo|"
				"routerinfo|nexthops|adjsubnets "
				"[mod N] [slid L [dlid L]] [mkey K] [set-lid L] [set-lmc M] "
				"[set-prefix P] [set-smlid L] [set-pkeys P,...]\n");
		return 2;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		unsigned long long v = strtoull(argv[i + 1], NULL, 0);

		if (!strcmp(argv[i], "mod")) {
			mod = (uint32_t)v;
		} else if (!strcmp(argv[i], "slid") && v && v < IBR_LID_PERMISSIVE) {
			ad.slid = (uint16_t)v;
			lid_routed = true;
		} else if (!strcmp(argv[i], "dlid") && v && v < IBR_LID_PERMISSIVE) {
			ad.dlid = (uint16_t)v;
		} else if (!strcmp(argv[i], "mkey")) {
			mkey = v;
		} else if (!strncmp(argv[i], "set-", 4) && a->id == IBR_SMP_ATTR_PORT_INFO) {
			set = true;
		} else if (!strcmp(argv[i], "set-pkeys") && a->id == IBR_SMP_ATTR_PKEY_TABLE) {
			if (smp_pkeys_edit(pkeys, argv[i + 1])) {
				fprintf(stderr, "ibrouter-host: smp: bad P_Key list '%s'\n",
					argv[i + 1]);
				return 2;
			}
			set_pkeys = true;
			set = true;
		} else {
			fprintf(stderr, "ibrouter-host: smp: unexpected '%s'\n", argv[i]);
			return 2;
		}
	}
	if (timeout_ms <= 0)
		timeout_ms = 1000;
	if (lid_routed) /* to the router port's LID, or the permissive LID (14.2.1.1) */
		ibr_mad_build(mad, IBR_MGMT_CLASS_SUBN_LID, IBR_MAD_METHOD_GET, a->id, mod, ++tid);
	else
		ibr_mad_build_dr_smp(mad, IBR_MAD_METHOD_GET, a->id, mod, ++tid, 0, NULL, 0);
	ibr_smp_set_mkey(mad, mkey);
	if ((rc = host_mad_call(fd, peer, peerlen, timeout_ms, &ad, mad, resp, &from)))
		return fprintf(stderr, "ibrouter-host: smp: %s\n", strerror(-rc)), 1;
	if (set) {
		memcpy(mad + IBR_SMP_DATA_OFFS, resp + IBR_SMP_DATA_OFFS, 64);
		if (set_pkeys)
			memcpy(mad + IBR_SMP_DATA_OFFS, pkeys, sizeof(pkeys));
		else
			smp_portinfo_edit(mad + IBR_SMP_DATA_OFFS, argc - 1, argv + 1);
		ibr_mad_set_method(mad, IBR_MAD_METHOD_SET);
		ibr_mad_set_tid(mad, ++tid);
		if ((rc = host_mad_call(fd, peer, peerlen, timeout_ms, &ad, mad, resp, &from)))
			return fprintf(stderr, "ibrouter-host: smp set: %s\n", strerror(-rc)), 1;
	}
	smp_print(a, resp, &from);
	return (ibr_mad_status(resp) & 0x7FFF) ? 1 : 0;
}
