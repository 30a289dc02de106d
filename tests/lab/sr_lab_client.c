/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sr_lab_client.c - a host of an ibsim subnet that registers (or deletes) a
 * route-exchange ServiceRecord in its SA, as any host can: the format of
 * sa/sa_client.h (version 1, one prefix, record 0 of a set of 1), for
 * tests/lab/lab_ca.sh's hostile records.
 *
 *   sr_lab_client SOCKNAME NODE set|delete GID|self PREFIX LEN METRIC
 *                 [lease SECONDS] [key HEX32] [index N]
 *	attached at NODE: a ServiceRecord Set (or Delete) to the SA of
 *	ServiceGID GID (self: NODE's own port GID), ServiceName
 *	ibrouter.route-exchange.v1, announcing PREFIX (a GID prefix:
 *	fec0:0:0:66::) of length LEN at METRIC, with a lease (default 60 s)
 *	and, when given, a ServiceKey; record N (default 0) of a set of N + 1.
 *	Prints the SA's status; exit 0 when it is 0.
 */
#include "mad/mad_chan.h"
#include "mad/mad_ibsim.h"
#include "tests/lab/lab_mad.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"

#include <infiniband/mad.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SR_ID	0x1000140549520000ull
#define SR_NAME "ibrouter.route-exchange.v1"

/* Our port GID: prefix from PortInfo, GUID from our port's own NodeInfo (hop 0). */
static int own_gid(struct mad_chan *c, struct mad_transport *tp, uint8_t gid[16], uint16_t *smlid)
{
	const struct mad_addr dr = { .lid = 0xFFFF };
	static struct lab_mad_result res;
	uint8_t pi[64], mad[IBR_MAD_SIZE];
	uint64_t prefix, guid;

	if (mad_ibsim_get_portinfo(tp, 0, pi))
		return -1;
	ibr_mad_build_dr_smp(mad, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, 0, 0, NULL, 0);
	if (mad_chan_send_request(c, mad, &dr, NULL, lab_mad_on_result, &res, NULL) == 0)
		lab_mad_run_until(c, &res.done, 2000);
	if (!res.done || res.status)
		return -1;
	*smlid = (uint16_t)mad_get_field(pi, 0, IB_PORT_SMLID_F);
	prefix = mad_get_field64(pi, 0, IB_PORT_GID_PREFIX_F);
	guid = mad_get_field64(res.mad + IBR_SMP_DATA_OFFS, 0, IB_NODE_PORT_GUID_F);
	for (int i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
	return 0;
}

static int hexkey(const char *s, uint8_t key[16])
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (strlen(s) != 32)
		return -1;
	for (int i = 0; i < 16; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		key[i] = (uint8_t)v;
	}
	return 0;
}

/* The record: sa/sa_announce.c's ad_record() for one prefix. */
static void sr_record(struct ibr_sa_service_rec *r, uint64_t prefix, unsigned len, unsigned metric,
		      uint32_t lease)
{
	uint32_t now = (uint32_t)time(NULL);

	memset(r, 0, sizeof(*r));
	r->id = SR_ID;
	r->pkey = 0xFFFF;
	r->lease = lease;
	strcpy(r->name, SR_NAME);
	r->data8[0] = 1;
	r->data8[1] = 1;
	r->data8[2] = (uint8_t)len;
	r->data8[4] = (uint8_t)metric;
	r->data16[0] = 0;
	r->data16[1] = 1;
	r->data32[0] = now;
	r->data32[1] = now;
	r->data64[0] = prefix;
}

int main(int argc, char **argv)
{
	struct mad_chan_config cfg = { .name = "sr", .chan_id = 11, .timeout_ms = 200 };
	struct mad_addr sa = { .qpn = 1, .qkey = MAD_QP1_QKEY };
	uint64_t mask = IBR_SA_SR_COMP_RID | IBR_SA_SR_COMP_LEASE | IBR_SA_SR_COMP_NAME |
			IBR_SA_SR_COMP_DATA8(0) | IBR_SA_SR_COMP_DATA8(1) |
			IBR_SA_SR_COMP_DATA8(2) | IBR_SA_SR_COMP_DATA8(4) |
			IBR_SA_SR_COMP_DATA16(0) | IBR_SA_SR_COMP_DATA16(1) |
			IBR_SA_SR_COMP_DATA32(0) | IBR_SA_SR_COMP_DATA32(1) |
			IBR_SA_SR_COMP_DATA64(0);
	struct ibr_sa_service_rec r;
	struct mad_transport *tp;
	struct mad_chan *c;
	static struct lab_mad_result res;
	union ibr_gid gid, pfx;
	uint8_t mad[IBR_MAD_SIZE], self[16];
	uint32_t lease = 60;
	bool set;
	int st;

	log_init("sr_lab_client", true, getenv("LAB_DEBUG") ? LOG_DEBUG : LOG_INFO);
	if (argc < 8 || (strcmp(argv[3], "set") && strcmp(argv[3], "delete")) ||
	    ibr_gid_parse(argv[5], &pfx)) {
		fprintf(stderr,
			"usage: %s SOCKNAME NODE set|delete GID|self PREFIX LEN METRIC "
			"[lease SECONDS] [key HEX32] [index N]\n",
			argv[0]);
		return 2;
	}
	set = !strcmp(argv[3], "set");
	sr_record(&r, ibr_mad_ld64(pfx.raw), (unsigned)strtoul(argv[6], NULL, 0),
		  (unsigned)strtoul(argv[7], NULL, 0), lease);
	for (int i = 8; i < argc; i += 2) {
		if (i + 1 == argc) {
			fprintf(stderr, "sr: %s needs a value\n", argv[i]);
			return 2;
		}
		if (!strcmp(argv[i], "lease")) {
			r.lease = (uint32_t)strtoul(argv[i + 1], NULL, 0);
		} else if (!strcmp(argv[i], "key") && !hexkey(argv[i + 1], r.key)) {
			mask |= IBR_SA_SR_COMP_KEY;
		} else if (!strcmp(argv[i], "index")) {
			r.data16[0] = (uint16_t)strtoul(argv[i + 1], NULL, 0);
			r.data16[1] = (uint16_t)(r.data16[0] + 1);
			r.id = SR_ID | r.data16[0];
		} else {
			fprintf(stderr, "sr: bad argument %s\n", argv[i]);
			return 2;
		}
	}
	if (!(tp = mad_ibsim_open(argv[1], argv[2], 2000)) || !(c = mad_chan_create(tp, &cfg)) ||
	    own_gid(c, tp, self, &sa.lid)) {
		fprintf(stderr, "sr: cannot attach at %s\n", argv[2]);
		return 2;
	}
	if (!strcmp(argv[4], "self"))
		memcpy(r.gid, self, 16);
	else if (!ibr_gid_parse(argv[4], &gid))
		memcpy(r.gid, gid.raw, 16);
	else
		return fprintf(stderr, "sr: bad GID %s\n", argv[4]), 2;
	if (ibr_sa_service_rec_build(mad, set ? IBR_MAD_METHOD_SET : IBR_MAD_METHOD_DELETE,
				     set ? mask : IBR_SA_SR_COMP_RID, &r, 0, 0) ||
	    mad_chan_send_request(c, mad, &sa, NULL, lab_mad_on_result, &res, NULL))
		return fprintf(stderr, "sr: cannot send\n"), 2;
	lab_mad_run_until(c, &res.done, 3000);
	st = res.done && res.status == 0 ? ibr_mad_status(res.mad) : 0xFFFF;
	printf("%s %s: status 0x%04x\n", argv[3], argv[4], st);
	mad_chan_destroy(c);
	return st ? 1 : 0;
}
