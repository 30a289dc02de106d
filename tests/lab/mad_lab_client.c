/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_lab_client.c - drives the MAD channel (libsa) against a real ibsim,
 * for tests/lab/mad_ibsim_lab.sh and mad_opensm_lab.sh.  Prints one
 * "ok - ..." or "FAIL - ..." line per check; exit status = failures.
 *
 *   mad_lab_client ibsim SOCKNAME NODE [NODE2]
 *	attach at NODE (and NODE2 in the same process), control queries, a hop-0
 *	directed-route NodeInfo Get answered by ibsim's SMA, IsSM after the
 *	agents, a LID-routed Get to nowhere (bounced, retried, timed out),
 *	detach clears IsSM.
 *   mad_lab_client join SOCKNAME NODE MGID STATE [leave] [qkey QKEY]
 *	as the host at NODE, join (or leave) multicast group MGID with JoinState
 *	STATE (1 full, 2 non, 4 send-only) through the SA, creating it with
 *	Q_Key QKEY (default 0xb), P_Key 0xffff, SL 0 when it does not exist;
 *	prints the MLID.
 *   mad_lab_client smp SOCKNAME NODE PATH ATTR [MOD]
 *	from NODE, a directed-route SMP Get of ATTR (e.g. 0xffd1) along PATH
 *	(initial path ports, e.g. 1,3); prints the status and the 64 data bytes
 *	in hex; exit 0 on status 0.
 *   mad_lab_client report SOCKNAME NODE DLID TRAP GID|@FILE [N]
 *	from NODE, Reports (13.4.8.2) of generic trap TRAP (64..67) to QP1 at
 *	DLID: N for GID, or one for each GID of FILE (one a line), all sent
 *	before the first ReportResp is awaited (a burst); from the SM's node they
 *	come from the SM's LID, as OpenSM's do.  Exit 0 when every one was
 *	acknowledged.
 *   mad_lab_client alias SOCKNAME NODE LID GUID...
 *	as the host at NODE, an SA GUIDInfoRecord Set (15.2.5.18) of alias
 *	GUIDs 1, 2, ... of block 0 of the port at LID, as a host driver of
 *	virtual functions asks for its GIDs; OpenSM then Sets them in the
 *	port's GUIDInfo.  Prints the GUIDs the SA answered with; exit 0 when
 *	they are the ones asked for.
 *   mad_lab_client sa SOCKNAME NODE
 *	wait for OpenSM to give NODE a LID, then NodeRecord and PortInfoRecord
 *	GetTable to the SM LID (umad2sim truncates them: -EMSGSIZE expected),
 *	the per-record Get fallback, and the SMInfo Get OpenSM sends once IsSM
 *	is set, answered by the default responder.
 */
#include "mad/mad_chan.h"
#include "mad/mad_ibsim.h"
#include "tests/lab/lab_mad.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"
#include "tests/lab/lab_check.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct mad_chan *chan_open_n(const char *sock, const char *node, uint32_t id,
				    struct mad_transport **tp, unsigned outstanding)
{
	struct mad_chan_config cfg = {
		.name = node, .chan_id = id, .timeout_ms = 100, .max_outstanding = outstanding
	};

	*tp = mad_ibsim_open(sock, node, 2000);
	if (!*tp)
		return NULL;
	return mad_chan_create(*tp, &cfg);
}

static struct mad_chan *chan_open(const char *sock, const char *node, uint32_t id,
				  struct mad_transport **tp)
{
	return chan_open_n(sock, node, id, tp, 0);
}

static int lab_ibsim_ctl(struct mad_transport *tp, uint64_t *guid)
{
	uint8_t ni[64] = { 0 }, pi[64] = { 0 }, gid[16] = { 0 };
	uint16_t lid = 0xFFFF;
	uint8_t state = 0;
	int rc;

	/* (arguments are evaluated in no fixed order: query first, then check) */
	rc = mad_ibsim_get_nodeinfo(tp, ni);
	lab_check(rc == 0 && mad_get_field(ni, 0, IB_NODE_TYPE_F) == 3,
		  "GET_NODEINFO: NodeType %u (Router)", mad_get_field(ni, 0, IB_NODE_TYPE_F));
	*guid = mad_get_field64(ni, 0, IB_NODE_GUID_F);
	lab_check(*guid == 0x300000, "GET_NODEINFO: NodeGUID 0x%llx (rtguid)",
		  (unsigned long long)*guid);
	rc = mad_ibsim_get_portinfo(tp, 0, pi);
	lab_check(rc == 0 && mad_get_field(pi, 0, IB_PORT_LOCAL_PORT_F) == 1,
		  "GET_PORTINFO: LocalPortNum %u, LID %u",
		  mad_get_field(pi, 0, IB_PORT_LOCAL_PORT_F), mad_get_field(pi, 0, IB_PORT_LID_F));
	rc = mad_ibsim_get_port(tp, &lid, &state);
	lab_check(rc == 0 && lid == mad_get_field(pi, 0, IB_PORT_LID_F),
		  "GET_PORT: LID %u state %u agrees with PortInfo", lid, state);
	rc = mad_ibsim_get_gid(tp, gid);
	lab_check(rc == 0 && ibr_mad_ld64(gid + 8) == *guid, "GET_GID: 0x%016llx:%016llx",
		  (unsigned long long)ibr_mad_ld64(gid), (unsigned long long)ibr_mad_ld64(gid + 8));
	return 0;
}

static bool port_issm(struct mad_transport *tp)
{
	uint8_t pi[64];

	if (mad_ibsim_get_portinfo(tp, 0, pi))
		return false;
	return (mad_get_field(pi, 0, IB_PORT_CAPMASK_F) & 0x2) != 0; /* IsSM, 14.2.5.6 */
}

static int lab_ibsim(const char *sock, const char *node, const char *node2)
{
	struct mad_transport *tp, *tp2 = NULL, *tp3;
	struct mad_chan *c, *c2 = NULL, *c3;
	static struct lab_mad_result res, res2;
	const struct mad_addr dr = { .lid = 0xFFFF };
	const struct mad_addr nowhere = { .lid = 999, .qpn = 0 };
	struct mad_chan_req_opts quick = { .timeout_ms = 30, .retries = 1 };
	uint8_t m[IBR_MAD_SIZE];
	uint64_t guid = 0;

	c = chan_open(sock, node, 1, &tp);
	lab_check(c != NULL, "attach at \"%s\" (client %u)", node, c ? mad_ibsim_client_id(tp) : 0);
	if (!c)
		return 1;
	lab_ibsim_ctl(tp, &guid);
	if (node2) {
		c2 = chan_open(sock, node2, 2, &tp2);
		lab_check(c2 != NULL && mad_ibsim_client_id(tp2) != mad_ibsim_client_id(tp) &&
				  mad_chan_fd(c2) != mad_chan_fd(c),
			  "second attachment at \"%s\" in the same process (client %u)", node2,
			  c2 ? mad_ibsim_client_id(tp2) : 0);
	}
	/* hop-0 DR NodeInfo Get: ibsim's SMA of our own node answers (14.2.2) */
	ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, 0, 0, NULL, 0);
	lab_check(mad_chan_send_request(c, m, &dr, NULL, lab_mad_on_result, &res, NULL) == 0,
		  "DR NodeInfo Get sent");
	if (c2) {
		ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, 0, 0, NULL,
				     0);
		mad_chan_send_request(c2, m, &dr, NULL, lab_mad_on_result, &res2, NULL);
	}
	lab_mad_run_until(c, &res.done, 2000);
	lab_check(res.done && res.status == 0 &&
			  ibr_mad_method(res.mad) == IBR_MAD_METHOD_GET_RESP &&
			  ibr_smp_dr_status(res.mad) == 0,
		  "DR NodeInfo GetResp (status %d, MAD status 0x%x)", res.status,
		  ibr_smp_dr_status(res.mad));
	lab_check(mad_get_field(res.mad + IBR_SMP_DATA_OFFS, 0, IB_NODE_TYPE_F) == 3 &&
			  mad_get_field64(res.mad + IBR_SMP_DATA_OFFS, 0, IB_NODE_GUID_F) == guid,
		  "NodeInfo over the wire: NodeType %u, NodeGUID 0x%llx",
		  mad_get_field(res.mad + IBR_SMP_DATA_OFFS, 0, IB_NODE_TYPE_F),
		  (unsigned long long)mad_get_field64(res.mad + IBR_SMP_DATA_OFFS, 0,
						      IB_NODE_GUID_F));
	if (c2) {
		lab_mad_run_until(c2, &res2.done, 2000);
		lab_check(res2.done && res2.status == 0 &&
				  mad_get_field(res2.mad + IBR_SMP_DATA_OFFS, 0, IB_NODE_TYPE_F) ==
					  1,
			  "the second port's NodeInfo: NodeType %u (CA), on its own fd",
			  mad_get_field(res2.mad + IBR_SMP_DATA_OFFS, 0, IB_NODE_TYPE_F));
	}
	lab_check(!port_issm(tp) && mad_chan_set_issm(c, true) == 0 && port_issm(tp),
		  "IsSM set after the agents (PortInfo CapabilityMask)");
	/* a LID-routed SMP to a LID that does not exist: bounced, retried, timed out */
	memset(&res, 0, sizeof(res));
	ibr_mad_build_get(m, IBR_MGMT_CLASS_SUBN_LID, IBR_SMP_ATTR_NODE_INFO, 0, 0);
	mad_chan_send_request(c, m, &nowhere, &quick, lab_mad_on_result, &res, NULL);
	lab_mad_run_until(c, &res.done, 2000);
	lab_check(res.done && res.status == -ETIMEDOUT &&
			  mad_chan_stats(c)->drop[MAD_CHAN_DROP_TRANSPORT_STATUS] >= 1,
		  "Get to an unknown LID: bounced by ibsim (%llu), then -ETIMEDOUT",
		  (unsigned long long)mad_chan_stats(c)->drop[MAD_CHAN_DROP_TRANSPORT_STATUS]);
	mad_chan_destroy(c);
	mad_chan_destroy(c2);
	/* detaching cleared IsSM (LAB.md: it would outlive us otherwise) */
	c3 = chan_open(sock, node, 3, &tp3);
	lab_check(c3 && !port_issm(tp3), "after detach, IsSM is clear again");
	mad_chan_destroy(c3);
	return 0;
}

/* A GetTable to the SA; returns the channel's status, fills *res. */
static int sa_table(struct mad_chan *c, uint16_t sm_lid, uint16_t attr, struct lab_mad_result *res)
{
	const struct mad_addr sa = { .lid = sm_lid, .qpn = 1, .qkey = MAD_QP1_QKEY };
	uint8_t m[IBR_MAD_SIZE];

	memset(res, 0, sizeof(*res));
	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET_TABLE, attr, 0, 0, 0);
	if (mad_chan_send_request(c, m, &sa, NULL, lab_mad_on_result, res, NULL))
		return -EIO;
	lab_mad_run_until(c, &res->done, 3000);
	return res->done ? res->status : -EINPROGRESS;
}

static int lab_sa(const char *sock, const char *node)
{
	struct mad_transport *tp;
	struct mad_chan *c = chan_open(sock, node, 7, &tp);
	static struct lab_mad_result res;
	uint8_t pi[64], m[IBR_MAD_SIZE];
	uint16_t lid = 0, sm_lid = 0;
	uint8_t state = 0;
	int rc;

	lab_check(c != NULL, "attach at \"%s\"", node);
	if (!c)
		return 1;
	for (int i = 0; i < 200 && (lid == 0 || state < 4); i++) {
		mad_ibsim_get_port(tp, &lid, &state);
		usleep(50000);
	}
	mad_ibsim_get_portinfo(tp, 0, pi);
	sm_lid = (uint16_t)mad_get_field(pi, 0, IB_PORT_SMLID_F);
	lab_check(lid != 0 && sm_lid != 0, "OpenSM gave the port LID %u (state %u), SM LID %u", lid,
		  state, sm_lid);
	rc = sa_table(c, sm_lid, IBR_SA_ATTR_NODE_RECORD, &res);
	lab_check(rc == -EMSGSIZE && res.len == IBR_MAD_SIZE && ibr_sa_attr_offset(res.mad) == 14,
		  "NodeRecord GetTable: truncated by umad2sim detected (status %d, %zu bytes, "
		  "AttributeOffset %u)",
		  rc, res.len, ibr_sa_attr_offset(res.mad));
	rc = sa_table(c, sm_lid, IBR_SA_ATTR_PORT_INFO_RECORD, &res);
	lab_check(rc == -EMSGSIZE && ibr_sa_attr_offset(res.mad) == 9,
		  "PortInfoRecord GetTable: truncated detected (status %d, AttributeOffset %u)", rc,
		  ibr_sa_attr_offset(res.mad));
	/* the fallback: one NodeRecord by LID with a plain Get (15.2.5.2) */
	memset(&res, 0, sizeof(res));
	ibr_mad_build_sa(m, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD, 1 /* LID */, 0, 0);
	mad_set_field(m + IBR_SA_DATA_OFFS, 0, IB_SA_NR_LID_F, lid);
	mad_chan_send_request(c, m, &(struct mad_addr){ .lid = sm_lid, .qpn = 1 }, NULL,
			      lab_mad_on_result, &res, NULL);
	lab_mad_run_until(c, &res.done, 3000);
	lab_check(res.done && res.status == 0 && ibr_mad_status(res.mad) == 0 &&
			  mad_get_field(res.mad + IBR_SA_DATA_OFFS, 0, IB_SA_NR_TYPE_F) == 3 &&
			  mad_get_field(res.mad + IBR_SA_DATA_OFFS, 0, IB_SA_NR_LID_F) == lid,
		  "per-record fallback: NodeRecord Get for LID %u: NodeType %u (status %d, MAD "
		  "status 0x%x, RMPP flags %u)",
		  lid, mad_get_field(res.mad + IBR_SA_DATA_OFFS, 0, IB_SA_NR_TYPE_F), res.status,
		  ibr_mad_status(res.mad), ibr_rmpp_flags(res.mad));
	/* IsSM: OpenSM discovers an SM here and sends SMInfo; the default responder answers */
	lab_check(mad_chan_set_issm(c, true) == 0, "IsSM set after the agents");
	for (int i = 0; i < 150 && mad_chan_stats(c)->default_replies == 0; i++)
		lab_mad_run_until(c, NULL, 100);
	lab_check(mad_chan_stats(c)->default_replies >= 1,
		  "%llu unsolicited MADs from OpenSM answered by the default responder",
		  (unsigned long long)mad_chan_stats(c)->default_replies);
	mad_chan_destroy(c);
	return 0;
}

static int lab_join(const char *sock, const char *node, const char *mgid_s, unsigned state,
		    bool leave, uint32_t qkey)
{
	struct mad_transport *tp;
	struct mad_chan *c = chan_open(sock, node, 7, &tp);
	uint8_t ni[64], pi[64], mad[IBR_MAD_SIZE];
	struct ibr_sa_mcm_rec r = { .qkey = qkey, .pkey = 0xffff, .join_state = (uint8_t)state };
	struct ibr_sa_mcm_rec got;
	union ibr_gid mgid;
	struct mad_addr sa = { .qpn = 1, .qkey = MAD_QP1_QKEY };
	static struct lab_mad_result res;
	uint64_t prefix, guid;
	int rc;

	const struct mad_addr dr = { .lid = 0xFFFF };
	static struct lab_mad_result nres;

	if (!c || ibr_gid_parse(mgid_s, &mgid) || mad_ibsim_get_portinfo(tp, 0, pi)) {
		fprintf(stderr, "join: cannot attach at %s, or bad MGID %s\n", node, mgid_s);
		return 2;
	}
	/* the port GUID from our port's SMA (ibsim's control NodeInfo is not the port's) */
	ibr_mad_build_dr_smp(mad, IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, 0, 0, NULL, 0);
	if (mad_chan_send_request(c, mad, &dr, NULL, lab_mad_on_result, &nres, NULL) == 0)
		lab_mad_run_until(c, &nres.done, 2000);
	if (!nres.done || nres.status) {
		fprintf(stderr, "join: no NodeInfo from our port\n");
		return 2;
	}
	memcpy(ni, nres.mad + IBR_SMP_DATA_OFFS, sizeof(ni));
	sa.lid = (uint16_t)mad_get_field(pi, 0, IB_PORT_SMLID_F);
	prefix = mad_get_field64(pi, 0, IB_PORT_GID_PREFIX_F);
	guid = mad_get_field64(ni, 0, IB_NODE_PORT_GUID_F);
	memcpy(r.mgid, mgid.raw, 16);
	for (int i = 0; i < 8; i++) {
		r.port_gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
		r.port_gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
	ibr_mad_build_sa(mad, leave ? IBR_MAD_METHOD_DELETE : IBR_MAD_METHOD_SET,
			 IBR_SA_ATTR_MCMEMBER_RECORD,
			 IBR_SA_MCM_COMP_MGID | IBR_SA_MCM_COMP_PORTGID |
				 IBR_SA_MCM_COMP_JOINSTATE | IBR_SA_MCM_COMP_QKEY |
				 IBR_SA_MCM_COMP_PKEY | IBR_SA_MCM_COMP_SL |
				 IBR_SA_MCM_COMP_TCLASS | IBR_SA_MCM_COMP_FLOW,
			 1, 0);
	ibr_sa_mcm_rec_encode(&r, mad + IBR_SA_DATA_OFFS);
	rc = mad_chan_send_request(c, mad, &sa, NULL, lab_mad_on_result, &res, NULL);
	if (rc == 0)
		lab_mad_run_until(c, &res.done, 3000);
	rc = res.done && res.status == 0 ? ibr_mad_status(res.mad) : 0xFFFF;
	if (rc == 0 && !ibr_sa_mcm_rec_decode(res.mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &got))
		printf("%s %s: MLID 0x%04x\n", leave ? "left" : "joined", mgid_s, got.mlid);
	else
		printf("%s %s: failed, status 0x%04x\n", leave ? "leave" : "join", mgid_s, rc);
	mad_chan_destroy(c);
	return rc ? 1 : 0;
}

static int lab_smp(const char *sock, const char *node, const char *path_s, uint16_t attr,
		   uint32_t mod)
{
	struct mad_transport *tp;
	struct mad_chan *c = chan_open(sock, node, 8, &tp);
	const struct mad_addr dr = { .lid = 0xFFFF };
	uint8_t mad[IBR_MAD_SIZE], path[64];
	static struct lab_mad_result res;
	unsigned int hops = 0;
	int st;

	for (const char *p = path_s; *p && hops < sizeof(path); p += *p == ',') {
		char *end;

		path[hops++] = (uint8_t)strtoul(p, &end, 0);
		if (end == p)
			return 2;
		p = end;
	}
	if (!c)
		return 2;
	ibr_mad_build_dr_smp(mad, IBR_MAD_METHOD_GET, attr, mod, 0, 0, path, hops);
	if (mad_chan_send_request(c, mad, &dr, NULL, lab_mad_on_result, &res, NULL) == 0)
		lab_mad_run_until(c, &res.done, 3000);
	st = res.done && res.status == 0 ? ibr_smp_dr_status(res.mad) : 0xFFFF;
	printf("smp 0x%04x mod %u via %s: status 0x%04x data ", attr, mod, path_s, st);
	for (int i = 0; i < IBR_SMP_DATA_SIZE && st == 0; i++)
		printf("%02x", res.mad[IBR_SMP_DATA_OFFS + i]);
	printf("\n");
	mad_chan_destroy(c);
	return st ? 1 : 0;
}

static int lab_alias(const char *sock, const char *node, uint16_t lid, int n, char **guids)
{
	struct mad_transport *tp;
	struct mad_chan *c = chan_open(sock, node, 10, &tp);
	struct mad_addr sa = { .qpn = 1, .qkey = MAD_QP1_QKEY };
	struct ibr_sa_guidinfo_rec r = { .lid = lid }, got;
	uint8_t pi[64], mad[IBR_MAD_SIZE];
	uint64_t comp = IBR_SA_GIR_COMP_LID | IBR_SA_GIR_COMP_BLOCK;
	static struct lab_mad_result res;
	int rc = 1;

	if (!c || n < 1 || n > 7 || mad_ibsim_get_portinfo(tp, 0, pi)) {
		fprintf(stderr, "alias: cannot attach at %s, or not 1..7 GUIDs\n", node);
		return 2;
	}
	sa.lid = (uint16_t)mad_get_field(pi, 0, IB_PORT_SMLID_F);
	for (int i = 0; i < n; i++) {
		r.guid[i + 1] = strtoull(guids[i], NULL, 0);
		comp |= 1ull << (5 + i); /* GID1.. (GID0, the port GUID, is read only) */
	}
	ibr_mad_build_sa(mad, IBR_MAD_METHOD_SET, IBR_SA_ATTR_GUID_INFO_RECORD, comp, 1, 0);
	ibr_sa_guidinfo_rec_encode(&r, mad + IBR_SA_DATA_OFFS);
	if (mad_chan_send_request(c, mad, &sa, NULL, lab_mad_on_result, &res, NULL) == 0)
		lab_mad_run_until(c, &res.done, 3000);
	if (res.done && res.status == 0 && ibr_mad_status(res.mad) == 0 &&
	    !ibr_sa_guidinfo_rec_decode(res.mad + IBR_SA_DATA_OFFS, IBR_SA_DATA_SIZE, &got)) {
		rc = 0;
		printf("alias GUIDs of LID %u:", got.lid);
		for (int i = 1; i < 8; i++) {
			printf(" 0x%016llx", (unsigned long long)got.guid[i]);
			rc |= i <= n && got.guid[i] != r.guid[i];
		}
		printf("\n");
	} else
		printf("alias: failed, status 0x%04x\n",
		       res.done ? ibr_mad_status(res.mad) : 0xFFFF);
	mad_chan_destroy(c);
	return rc;
}

/* join SOCKNAME NODE MGID STATE [leave] [qkey QKEY] */
static int lab_join_args(int argc, char **argv)
{
	uint32_t qkey = 0xb; /* the lab's groups, unless a test needs the Q_Key of its QPs */
	bool leave = false;

	for (int i = 6; i < argc; i++) {
		if (strcmp(argv[i], "leave") == 0)
			leave = true;
		else if (strcmp(argv[i], "qkey") == 0 && i + 1 < argc)
			qkey = (uint32_t)strtoul(argv[++i], NULL, 0);
		else
			return fprintf(stderr, "join: unknown argument %s\n", argv[i]), 2;
	}
	return lab_join(argv[2], argv[3], argv[4], (unsigned)strtoul(argv[5], NULL, 0), leave,
			qkey);
}

#define REPORTS_MAX 1000

/* The GIDs to report: N times one, or those of @FILE. */
static unsigned report_gids(const char *arg, unsigned n, union ibr_gid *g)
{
	char line[128];
	unsigned k = 0;
	FILE *f;

	if (arg[0] != '@') {
		if (ibr_gid_parse(arg, &g[0]))
			return 0;
		for (k = 1; k < n && k < REPORTS_MAX; k++)
			g[k] = g[0];
		return k;
	}
	if (!(f = fopen(arg + 1, "r")))
		return 0;
	while (k < REPORTS_MAX && fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\r\n")] = '\0';
		if (line[0] && !ibr_gid_parse(line, &g[k]))
			k++;
	}
	fclose(f);
	return k;
}

static int lab_report(const char *sock, const char *node, uint16_t dlid, uint16_t trap,
		      const char *what, unsigned n)
{
	struct mad_transport *tp;
	/* every Report in flight at once: the burst is the point */
	struct mad_chan *c = chan_open_n(sock, node, 9, &tp, REPORTS_MAX);
	const struct mad_addr to = { .lid = dlid, .qpn = 1, .qkey = MAD_QP1_QKEY };
	static union ibr_gid gids[REPORTS_MAX];
	static struct lab_mad_result res[REPORTS_MAX];
	uint8_t mad[IBR_MAD_SIZE];
	unsigned k = report_gids(what, n, gids), sent = 0, acked = 0;

	if (!c || !k) {
		fprintf(stderr, "report: cannot attach at %s, or no GID in %s\n", node, what);
		return 2;
	}
	for (; sent < k; sent++) {
		/* traps 64-67: the GID in the data details, bytes 6..21 */
		struct ibr_sa_notice nt = { .is_generic = true, .type = 4, .trap_num = trap };

		memcpy(nt.details + 6, gids[sent].raw, 16);
		ibr_mad_build_sa(mad, IBR_MAD_METHOD_REPORT, IBR_ATTR_NOTICE, 0, 0, 0);
		ibr_sa_notice_encode(&nt, mad + IBR_SA_DATA_OFFS);
		if (mad_chan_send_request(c, mad, &to, NULL, lab_mad_on_result, &res[sent], NULL))
			break;
	}
	for (unsigned i = 0; i < sent; i++) {
		lab_mad_run_until(c, &res[i].done, 5000);
		acked += res[i].done && res[i].status == 0;
	}
	printf("reports: %u sent, %u acknowledged\n", sent, acked);
	mad_chan_destroy(c);
	return acked == k ? 0 : 1;
}

int main(int argc, char **argv)
{
	log_init("mad_lab_client", true, getenv("LAB_DEBUG") ? LOG_DEBUG : LOG_INFO);
	if (argc >= 4 && strcmp(argv[1], "ibsim") == 0)
		lab_ibsim(argv[2], argv[3], argc > 4 ? argv[4] : NULL);
	else if (argc >= 4 && strcmp(argv[1], "sa") == 0)
		lab_sa(argv[2], argv[3]);
	else if (argc >= 6 && strcmp(argv[1], "smp") == 0)
		return lab_smp(argv[2], argv[3], argv[4], (uint16_t)strtoul(argv[5], NULL, 0),
			       argc > 6 ? (uint32_t)strtoul(argv[6], NULL, 0) : 0);
	else if (argc >= 6 && strcmp(argv[1], "alias") == 0)
		return lab_alias(argv[2], argv[3], (uint16_t)strtoul(argv[4], NULL, 0), argc - 5,
				 argv + 5);
	else if (argc >= 6 && strcmp(argv[1], "join") == 0)
		return lab_join_args(argc, argv);
	else if (argc >= 7 && strcmp(argv[1], "report") == 0)
		return lab_report(argv[2], argv[3], (uint16_t)strtoul(argv[4], NULL, 0),
				  (uint16_t)strtoul(argv[5], NULL, 0), argv[6],
				  argc > 7 ? (unsigned)strtoul(argv[7], NULL, 0) : 1);
	else {
		fprintf(stderr,
			"usage: %s ibsim|sa SOCKNAME NODE [NODE2]\n"
			"       %s join SOCKNAME NODE MGID STATE [leave] [qkey QKEY]\n"
			"       %s alias SOCKNAME NODE LID GUID...\n"
			"       %s smp SOCKNAME NODE PATH ATTR [MOD]\n"
			"       %s report SOCKNAME NODE DLID TRAP GID|@FILE [N]\n",
			argv[0], argv[0], argv[0], argv[0], argv[0]);
		return 2;
	}
	return lab_check_report() ? 1 : 0;
}
