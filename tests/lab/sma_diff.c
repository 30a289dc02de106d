/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_diff.c - a differential test of our SMA (sma/) against ibsim's Rt node
 * after a real OpenSM configured it (tests/lab/lab_sma_diff.sh).
 *
 *   sma_diff SOCKNAME HOST PATH
 *
 * 1. Attached natively at HOST of the ibsim server SOCKNAME, read with
 *    directed-route SMP Gets along PATH (initial-path ports, e.g. "1,3":
 *    HcaA2 port 1 -> SwA port 3) the router node's NodeInfo,
 *    NodeDescription, PortInfo, PKeyTable block 0, GUIDInfo block 0, and
 *    SLtoVL and the first low-priority VLArbitration block when ibsim
 *    answers them: ibsim's SMA as OpenSM left it.
 * 2. Build our SMA in-process with the same NodeGUID, PortGUID and
 *    SystemImageGUID and the node's port count; link up (Down -> Init).
 * 3. Replay on it, as 256-byte hop-0 DR SMPs through sma_process(), the
 *    Sets OpenSM makes to a router port (IBA-NOTES.md): PKeyTable block 0;
 *    PortInfo carrying the Rt node's PortInfo as read with PortState NOP;
 *    then Armed; then Active.  Each must answer status 0 (and Active
 *    straight from Init must be refused first: IBA transition rules).
 * 4. Get the same attributes from ours.
 * 5. Compare them field by field with libibmad's decoders:
 *    (a) derived from the topology: must be equal;
 *    (b) set by OpenSM: must be equal;
 *    (c) implementation choices: printed as "# choice: FIELD ibsim=X ours=Y",
 *        never failing (with ours' value before the replay when that
 *        differs: the default the Sets overwrote).
 *    Also: every IB_NODE_*_F / IB_PORT_*_F field decodes from both, the
 *    reserved bits of our attributes are zero (14.2.5), and our reply
 *    headers are right (GetResp, Status, TID/AttrID/AttrMod echoed, D bit).
 *
 * What ibsim keeps of a PortInfo Set (ibsim/sim_mad.c do_portinfo): LID,
 * MasterSMLID, LMC, HOQLife, PortState, PortPhysicalState, OperationalVLs,
 * GidPrefix and the enabled width/speed; M_Key, M_KeyLeasePeriod,
 * SubnetTimeout, NeighborMTU, MasterSMSL, ... read back as its template.
 * So "as read" is what ibsim shows, which for those fields is not what
 * OpenSM sent; replaying what ibsim shows keeps the comparison symmetric.
 *
 * Prints one "ok - ..." / "FAIL - ..." line per check, then "client: N
 * passed, N failed"; the exit status is the failure count (at most 100).
 */
#include "mad/mad_chan.h"
#include "mad/mad_ibsim.h"
#include "tests/lab/lab_mad.h"
#include "sma/sma.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "tests/lab/lab_check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <infiniband/mad.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DATA IBR_SMP_DATA_SIZE /* attribute bytes in an SMP */

/* libibmad's getters take non-const buffers and never write through them. */
static uint32_t fget(const uint8_t *buf, enum MAD_FIELDS f)
{
	return mad_get_field((void *)buf, 0, f);
}

static uint64_t fget64(const uint8_t *buf, enum MAD_FIELDS f)
{
	return mad_get_field64((void *)buf, 0, f);
}

/* ---- ibsim: DR SMP Gets over the MAD channel ---- */

struct result {
	bool done;
	int status;
	uint8_t mad[IBR_MAD_SIZE];
};

static void on_result(struct mad_chan *c, const struct mad_chan_result *r, void *arg)
{
	struct result *res = arg;

	(void)c;
	res->done = true;
	res->status = r->status;
	if (r->mad && r->len >= IBR_MAD_SIZE)
		memcpy(res->mad, r->mad, IBR_MAD_SIZE);
}

struct drpath {
	uint8_t port[IBR_SMP_MAX_HOPS];
	unsigned int hops;
	const char *text;
};

/*
 * A DR Get of attr/mod from ibsim's SMA at the end of the path into data[].
 * 0, or -1 (a FAIL line, or for `optional` attributes a "#" note).
 */
static int ibsim_get(struct mad_chan *c, const struct drpath *path, const char *what, uint16_t attr,
		     uint32_t mod, bool optional, uint8_t *data)
{
	static struct result res;
	const struct mad_addr dr = { .lid = IBR_LID_PERMISSIVE };
	uint8_t m[IBR_MAD_SIZE];
	uint16_t st = 0xFFFF;
	bool ok;

	memset(&res, 0, sizeof(res));
	ibr_mad_build_dr_smp(m, IBR_MAD_METHOD_GET, attr, mod, 0, 0, path->port, path->hops);
	if (mad_chan_send_request(c, m, &dr, NULL, on_result, &res, NULL) == 0)
		lab_mad_run_until(c, &res.done, 3000);
	if (res.done && res.status == 0)
		st = ibr_smp_dr_status(res.mad);
	/* the channel matched the TID; AttrID, AttrMod and D are checked here */
	ok = st == 0 && ibr_mad_method(res.mad) == IBR_MAD_METHOD_GET_RESP &&
	     ibr_mad_attr_id(res.mad) == attr && ibr_mad_attr_mod(res.mad) == mod &&
	     ibr_smp_dr_direction(res.mad);
	if (!ok && optional) {
		printf("# ibsim does not answer %s (channel status %d, MAD status 0x%04x)\n", what,
		       res.status, st);
		return -1;
	}
	lab_check(ok, "ibsim: %s Get along DR path %s: GetResp, status 0x%04x", what, path->text,
		  st);
	if (!ok)
		return -1;
	memcpy(data, res.mad + IBR_SMP_DATA_OFFS, DATA);
	return 0;
}

/* ---- ours: hop-0 DR SMPs through sma_process() ---- */

struct ours {
	struct sma *sma;
	uint8_t port; /* the arrival port: the Rt node's LocalPortNum */
	uint64_t mkey;
	uint64_t tid;
};

/*
 * One hop-0 DR SMP (data[] as its attribute, if not NULL) through
 * sma_process(); checks the reply header and that the status is `want`.
 * The reply's attribute goes to out[] (if not NULL).  The status, or -1.
 */
static int ours_smp(struct ours *o, const char *what, uint8_t method, uint16_t attr, uint32_t mod,
		    const uint8_t *data, uint16_t want, uint8_t *out)
{
	uint8_t req[IBR_MAD_SIZE], rep[IBR_MAD_SIZE];
	struct sma_rx rx = { .port = o->port, .slid = IBR_LID_PERMISSIVE, .now_ns = ibr_now_ns() };
	struct sma_tx tx = { 0 };
	enum sma_drop why = SMA_DROP_MAX;
	uint64_t tid = o->tid++;
	uint16_t st;
	bool hdr;

	ibr_mad_build_dr_smp(req, method, attr, mod, tid, o->mkey, NULL, 0);
	if (data)
		memcpy(req + IBR_SMP_DATA_OFFS, data, DATA);
	if (sma_process(o->sma, &rx, req, sizeof(req), rep, &tx, &why) != SMA_REPLY) {
		lab_check(false, "ours: %s: no reply (dropped: %s)", what, sma_drop_text(why));
		return -1;
	}
	st = ibr_smp_dr_status(rep);
	hdr = ibr_mad_base_version(rep) == IBR_MAD_BASE_VERSION &&
	      ibr_mad_mgmt_class(rep) == IBR_MGMT_CLASS_SUBN_DR &&
	      ibr_mad_class_version(rep) == IBR_SMP_CLASS_VERSION &&
	      ibr_mad_method(rep) == IBR_MAD_METHOD_GET_RESP && ibr_smp_dr_direction(rep) &&
	      ibr_mad_tid(rep) == tid && ibr_mad_attr_id(rep) == attr &&
	      ibr_mad_attr_mod(rep) == mod && ibr_smp_dr_hop_count(rep) == 0 &&
	      ibr_smp_dr_slid(rep) == IBR_LID_PERMISSIVE &&
	      ibr_smp_dr_dlid(rep) == IBR_LID_PERMISSIVE && tx.port == o->port &&
	      tx.dlid == IBR_LID_PERMISSIVE && tx.slid == IBR_LID_PERMISSIVE;
	lab_check(hdr && st == want,
		  "ours: %s: GetResp with status 0x%04x (want 0x%04x), TID/AttrID/AttrMod echoed, "
		  "D bit set, reply to the permissive LID%s",
		  what, st, want, hdr ? "" : " [header wrong]");
	if (out)
		memcpy(out, rep + IBR_SMP_DATA_OFFS, DATA);
	return st;
}

/* ---- fields through libibmad ---- */

/* A field's value, decoded by libibmad into a zeroed buffer (so memcmp compares values). */
static void fdecode(const uint8_t *attr, enum MAD_FIELDS f, uint8_t val[DATA])
{
	memset(val, 0, DATA);
	mad_decode_field((uint8_t *)attr, f, val);
}

/* libibmad's text for a value, on one line. */
static const char *fdump(enum MAD_FIELDS f, const uint8_t *val, char *buf, size_t sz)
{
	size_t j = 0;

	if (!mad_dump_val(f, buf, (int)sz, (void *)val))
		return "<no decoder>";
	for (size_t i = 0; buf[i]; i++) {
		char ch = buf[i] == '\n' || buf[i] == '\t' ? ' ' : buf[i];

		if (ch == ' ' && (j == 0 || buf[j - 1] == ' '))
			continue;
		buf[j++] = ch;
	}
	while (j && buf[j - 1] == ' ')
		j--;
	buf[j] = '\0';
	return buf;
}

static bool in_list(enum MAD_FIELDS f, const enum MAD_FIELDS *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (l[i] == f)
			return true;
	return false;
}

/*
 * Compare one field of attribute `attr` in class 'a' or 'b' (must be equal)
 * or 'c' (printed); pre is ours before the replay (or NULL).
 */
static void cmp_field(char cls, const char *attr, enum MAD_FIELDS f, const uint8_t *ib,
		      const uint8_t *ours, const uint8_t *pre)
{
	uint8_t vi[DATA], vo[DATA], vp[DATA];
	char si[512], so[512], sp[512];

	fdecode(ib, f, vi);
	fdecode(ours, f, vo);
	fdump(f, vi, si, sizeof(si));
	fdump(f, vo, so, sizeof(so));
	if (cls == 'c') {
		printf("# choice: %s.%s ibsim=%s ours=%s", attr, mad_field_name(f), si, so);
		if (pre) {
			fdecode(pre, f, vp);
			if (memcmp(vp, vo, DATA))
				printf(" (ours before OpenSM's Sets: %s)",
				       fdump(f, vp, sp, sizeof(sp)));
		}
		printf("\n");
		return;
	}
	lab_check(memcmp(vi, vo, DATA) == 0, "(%c) %s.%s: ibsim=%s ours=%s", cls, attr,
		  mad_field_name(f), si, so);
}

/*
 * The layout: every field decodes (libibmad knows a name and a printer for
 * it), and, for ours, the bits no field covers (reserved, 14.2.5) are zero;
 * ibsim's reserved bits are only reported.
 */
static void layout_check(const char *who, const char *attr, const uint8_t *data,
			 const enum MAD_FIELDS *fields, size_t n, bool strict)
{
	uint8_t cover[DATA] = { 0 }, ones[DATA], val[DATA];
	char buf[512];
	unsigned int bad = 0, resv = 0, first_resv = 0;

	memset(ones, 0xFF, sizeof(ones));
	for (size_t i = 0; i < n; i++) {
		const char *name = mad_field_name(fields[i]);

		fdecode(data, fields[i], val);
		if (!name || !*name || !mad_dump_val(fields[i], buf, sizeof(buf), val))
			bad++;
		mad_encode_field(cover, fields[i], ones);
	}
	for (unsigned int i = 0; i < DATA; i++)
		if (data[i] & ~cover[i]) {
			if (!resv++)
				first_resv = i;
		}
	if (!strict && resv)
		printf("# layout: %s %s has non-zero reserved bits (%u bytes, first at byte %u)\n",
		       who, attr, resv, first_resv);
	lab_check(bad == 0 && (!strict || resv == 0),
		  "layout: %s %s: all %zu libibmad fields decode (%u without a decoder)%s", who,
		  attr, n, bad,
		  strict ? (resv ? ", reserved bits NOT zero" : ", reserved bits zero") : "");
}

/* ---- SMA events: what the daemon would learn from the replay ---- */

struct evlog {
	unsigned int n[SMA_EV_TRAP_REPRESS + 1];
	uint16_t lid, sm_lid;
	uint64_t prefix;
	char states[64];
};

static void on_event(void *arg, const struct sma_event *ev)
{
	struct evlog *l = arg;
	size_t len = strlen(l->states);

	if ((unsigned int)ev->type <= SMA_EV_TRAP_REPRESS)
		l->n[ev->type]++;
	switch (ev->type) {
	case SMA_EV_LID:
		l->lid = ev->lid;
		break;
	case SMA_EV_SM:
		l->sm_lid = ev->sm_lid;
		break;
	case SMA_EV_GID_PREFIX:
		l->prefix = ev->gid_prefix;
		break;
	case SMA_EV_PORT_STATE:
		if (len + 3 < sizeof(l->states))
			snprintf(l->states + len, sizeof(l->states) - len, "%s%u", len ? "," : "",
				 (unsigned int)ev->state);
		break;
	default:
		break;
	}
}

/* ---- the test ---- */

struct attrs {
	uint8_t ni[DATA], nd[DATA], pi[DATA], pkey[DATA], guid[DATA], sl2vl[DATA], vlarb[DATA];
	bool has_guid, has_sl2vl, has_vlarb;
};

static int parse_path(const char *s, struct drpath *p)
{
	p->hops = 0;
	p->text = s;
	while (*s) {
		char *end;
		unsigned long v = strtoul(s, &end, 0);

		if (end == s || v > 255 || p->hops >= IBR_SMP_MAX_HOPS)
			return -1;
		p->port[p->hops++] = (uint8_t)v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return 0;
}

static int read_ibsim(const char *sock, const char *host, const struct drpath *path,
		      struct attrs *ib)
{
	struct mad_chan_config cfg = { .name = host, .chan_id = 0x5d1f, .timeout_ms = 200 };
	struct mad_transport *tp = mad_ibsim_open(sock, host, 2000);
	struct mad_chan *c = tp ? mad_chan_create(tp, &cfg) : NULL;
	uint32_t port;
	int rc = 0;

	lab_check(c != NULL, "attached natively to ibsim \"%s\" at \"%s\"", sock, host);
	if (!c)
		return -1;
	rc |= ibsim_get(c, path, "NodeInfo", IBR_SMP_ATTR_NODE_INFO, 0, false, ib->ni);
	port = rc ? 1 : fget(ib->ni, IB_NODE_LOCAL_PORT_F);
	rc |= ibsim_get(c, path, "NodeDescription", IBR_SMP_ATTR_NODE_DESC, 0, false, ib->nd);
	rc |= ibsim_get(c, path, "PortInfo", IBR_SMP_ATTR_PORT_INFO, port, false, ib->pi);
	rc |= ibsim_get(c, path, "PKeyTable block 0", IBR_SMP_ATTR_PKEY_TABLE, 0, false, ib->pkey);
	ib->has_guid = ibsim_get(c, path, "GUIDInfo block 0", IBR_SMP_ATTR_GUID_INFO, 0, true,
				 ib->guid) == 0;
	ib->has_sl2vl = ibsim_get(c, path, "SLtoVLMappingTable", IBR_SMP_ATTR_SL2VL_TABLE, 0, true,
				  ib->sl2vl) == 0;
	ib->has_vlarb = ibsim_get(c, path, "VLArbitrationTable low 0-31", IBR_SMP_ATTR_VL_ARB,
				  1u << 16, true, ib->vlarb) == 0;
	mad_chan_destroy(c);
	return rc ? -1 : 0;
}

static int get_ours(struct ours *o, struct attrs *a)
{
	int rc = 0;

	rc |= ours_smp(o, "NodeInfo Get", IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_INFO, 0, NULL, 0,
		       a->ni);
	rc |= ours_smp(o, "NodeDescription Get", IBR_MAD_METHOD_GET, IBR_SMP_ATTR_NODE_DESC, 0,
		       NULL, 0, a->nd);
	rc |= ours_smp(o, "PortInfo Get", IBR_MAD_METHOD_GET, IBR_SMP_ATTR_PORT_INFO, o->port, NULL,
		       0, a->pi);
	rc |= ours_smp(o, "PKeyTable block 0 Get", IBR_MAD_METHOD_GET, IBR_SMP_ATTR_PKEY_TABLE, 0,
		       NULL, 0, a->pkey);
	rc |= ours_smp(o, "GUIDInfo block 0 Get", IBR_MAD_METHOD_GET, IBR_SMP_ATTR_GUID_INFO, 0,
		       NULL, 0, a->guid);
	rc |= ours_smp(o, "SLtoVLMappingTable Get", IBR_MAD_METHOD_GET, IBR_SMP_ATTR_SL2VL_TABLE, 0,
		       NULL, 0, a->sl2vl);
	rc |= ours_smp(o, "VLArbitrationTable low 0-31 Get", IBR_MAD_METHOD_GET,
		       IBR_SMP_ATTR_VL_ARB, 1u << 16, NULL, 0, a->vlarb);
	return rc ? -1 : 0;
}

/*
 * Replay OpenSM's Sets to a router port (IBA-NOTES.md: PKeyTable, then
 * PortInfo with the LID, prefix, SM LID, M_Key, ... and PortState NOP, then
 * the link manager's Armed and Active passes).
 */
static void replay(struct ours *o, const struct attrs *ib)
{
	uint8_t pi[DATA], out[DATA];

	ours_smp(o, "PKeyTable block 0 Set (OpenSM's P_Keys)", IBR_MAD_METHOD_SET,
		 IBR_SMP_ATTR_PKEY_TABLE, 0, ib->pkey, 0, NULL);
	memcpy(pi, ib->pi, DATA);
	/*
	 * OpenSM sends its PortInfo Sets with PortState and PortPhysicalState
	 * 0 (no change) except in the link manager's state passes; ibsim
	 * shows PhysState LinkUp (5), a value no Set may carry (14.2.5.6:
	 * only 0, 2 Polling and 3 Disabled are writable).
	 */
	mad_set_field(pi, 0, IB_PORT_STATE_F, SMA_PORT_NOP);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 0);
	ours_smp(o, "PortInfo Set (LID, prefix, SM LID, M_Key, ..., PortState NOP)",
		 IBR_MAD_METHOD_SET, IBR_SMP_ATTR_PORT_INFO, o->port, pi, 0, out);
	/* the M_Key is now the one OpenSM set: it sends it from here on (14.2.4) */
	o->mkey = fget64(ib->pi, IB_PORT_MKEY_F);
	lab_check(fget(out, IB_PORT_STATE_F) == SMA_PORT_INIT,
		  "ours: after the NOP Set the port is still Init (%u)",
		  fget(out, IB_PORT_STATE_F));
	/* 14.2.5.6: Active only from Armed: a Set of Active from Init is invalid */
	mad_set_field(pi, 0, IB_PORT_STATE_F, SMA_PORT_ACTIVE);
	ours_smp(o, "PortInfo Set Active straight from Init refused (0x001C)", IBR_MAD_METHOD_SET,
		 IBR_SMP_ATTR_PORT_INFO, o->port, pi, IBR_MAD_STATUS_INVALID_FIELD, out);
	lab_check(fget(out, IB_PORT_STATE_F) == SMA_PORT_INIT,
		  "ours: the refused Set changed nothing: PortState Init (%u)",
		  fget(out, IB_PORT_STATE_F));
	mad_set_field(pi, 0, IB_PORT_STATE_F, SMA_PORT_ARMED);
	ours_smp(o, "PortInfo Set PortState Armed (from Init)", IBR_MAD_METHOD_SET,
		 IBR_SMP_ATTR_PORT_INFO, o->port, pi, 0, out);
	lab_check(fget(out, IB_PORT_STATE_F) == SMA_PORT_ARMED, "ours: now Armed (%u)",
		  fget(out, IB_PORT_STATE_F));
	mad_set_field(pi, 0, IB_PORT_STATE_F, SMA_PORT_ACTIVE);
	ours_smp(o, "PortInfo Set PortState Active (from Armed)", IBR_MAD_METHOD_SET,
		 IBR_SMP_ATTR_PORT_INFO, o->port, pi, 0, out);
	lab_check(fget(out, IB_PORT_STATE_F) == SMA_PORT_ACTIVE, "ours: now Active (%u)",
		  fget(out, IB_PORT_STATE_F));
}

static size_t field_range(enum MAD_FIELDS *out, size_t max, enum MAD_FIELDS first,
			  enum MAD_FIELDS end)
{
	size_t n = 0;

	for (int f = first; f < (int)end && n < max; f++)
		out[n++] = (enum MAD_FIELDS)f;
	return n;
}

/* (a) NodeInfo fields the topology fixes; the others are choices. */
static const enum MAD_FIELDS node_a[] = {
	IB_NODE_BASE_VERS_F,   IB_NODE_CLASS_VERS_F, IB_NODE_TYPE_F,	  IB_NODE_NPORTS_F,
	IB_NODE_SYSTEM_GUID_F, IB_NODE_GUID_F,	     IB_NODE_PORT_GUID_F, IB_NODE_LOCAL_PORT_F,
};

static const enum MAD_FIELDS port_a[] = { IB_PORT_LOCAL_PORT_F };

/*
 * (b) PortInfo fields OpenSM sets on a router port (osm_lid_mgr.c and
 * osm_link_mgr.c: M_Key and its protection, GidPrefix, LID, LMC,
 * MasterSMLID and SMSL, SubnetTimeout, NeighborMTU, OperationalVLs, the
 * state) and the physical state it leaves LinkUp.  M_Key is compared as
 * each SMA reports it: our Gets carry the M_Key OpenSM set, so no protect
 * level hides it (14.2.4.1); ibsim never hides it.  Of these ibsim keeps
 * only the LID, LMC, GidPrefix, SM LID, OperVLs and the states: for
 * M_Key, its protection, SMSL, SubnetTimeout, NeighborMTU and
 * ClientReregister the comparison is a round trip of ibsim's template
 * values through our Set and Get (see the file comment).
 */
static const enum MAD_FIELDS port_b[] = {
	IB_PORT_MKEY_F,		IB_PORT_MKEY_PROT_BITS_F,
	IB_PORT_GID_PREFIX_F,	IB_PORT_LID_F,
	IB_PORT_LMC_F,		IB_PORT_SMLID_F,
	IB_PORT_SMSL_F,		IB_PORT_STATE_F,
	IB_PORT_PHYS_STATE_F,	IB_PORT_SUBN_TIMEOUT_F,
	IB_PORT_NEIGHBOR_MTU_F, IB_PORT_OPER_VLS_F,
	IB_PORT_CLIENT_REREG_F,
};

static void compare(const struct attrs *ib, const struct attrs *ours, const struct attrs *pre)
{
	enum MAD_FIELDS nf[32], pf[96];
	size_t nn = field_range(nf, 32, IB_NODE_FIRST_F, IB_NODE_LAST_F);
	size_t np = field_range(pf, 96, IB_PORT_FIRST_F, IB_PORT_LAST_F);
	unsigned int pk_same = 0;
	char si[128], so[128];

	np += field_range(pf + np, 96 - np, IB_PORT_CAPMASK2_F, IB_PORT_LINK_SPEED_EXT_LAST_F);

	layout_check("ibsim", "NodeInfo", ib->ni, nf, nn, false);
	layout_check("ours", "NodeInfo", ours->ni, nf, nn, true);
	layout_check("ibsim", "PortInfo", ib->pi, pf, np, false);
	layout_check("ours", "PortInfo", ours->pi, pf, np, true);

	for (size_t i = 0; i < nn; i++)
		cmp_field(in_list(nf[i], node_a, sizeof(node_a) / sizeof(node_a[0])) ? 'a' : 'c',
			  "NodeInfo", nf[i], ib->ni, ours->ni, pre->ni);
	for (size_t i = 0; i < np; i++) {
		char cls = 'c';

		if (in_list(pf[i], port_a, sizeof(port_a) / sizeof(port_a[0])))
			cls = 'a';
		else if (in_list(pf[i], port_b, sizeof(port_b) / sizeof(port_b[0])))
			cls = 'b';
		cmp_field(cls, "PortInfo", pf[i], ib->pi, ours->pi, pre->pi);
	}
	lab_check(fget(ours->pi, IB_PORT_STATE_F) == SMA_PORT_ACTIVE &&
			  fget(ib->pi, IB_PORT_STATE_F) == SMA_PORT_ACTIVE,
		  "(b) PortInfo.LinkState is Active on both");

	/*
	 * PKeyTable block 0 (14.2.5.7): 32 big-endian 16-bit P_Keys.  libibmad
	 * has no field for them; smpquery (infiniband-diags) reads them with
	 * ntohs, and so does this test.  OpenSM set the block from its
	 * partition config (default: 0xFFFF at index 0).
	 */
	for (unsigned int i = 0; i < 32; i++) {
		uint16_t a, b;

		memcpy(&a, ib->pkey + 2 * i, 2);
		memcpy(&b, ours->pkey + 2 * i, 2);
		a = ntohs(a);
		b = ntohs(b);
		if (a == b && a == 0) {
			pk_same++;
			continue;
		}
		lab_check(a == b, "(b) PKeyTable[0].P_Key[%u]: ibsim=0x%04x ours=0x%04x", i, a, b);
	}
	lab_check(true, "(b) PKeyTable[0]: the other %u P_Keys are 0 on both", pk_same);

	/* GUIDInfo block 0 (14.2.5.5): GUID 0 is the port GUID (a); the rest are alias GUIDs */
	if (ib->has_guid) {
		for (int i = 0; i < 8; i++) {
			uint64_t a = mad_get_field64((void *)ib->guid, 8 * i, IB_GUID_GUID0_F);
			uint64_t b = mad_get_field64((void *)ours->guid, 8 * i, IB_GUID_GUID0_F);

			if (i == 0)
				lab_check(a == b && a == fget64(ib->ni, IB_NODE_PORT_GUID_F),
					  "(a) GUIDInfo[0].GUID0 (the PortGUID): ibsim=0x%016llx "
					  "ours=0x%016llx",
					  (unsigned long long)a, (unsigned long long)b);
			else
				printf("# choice: GUIDInfo[0].GUID%d ibsim=0x%016llx "
				       "ours=0x%016llx\n",
				       i, (unsigned long long)a, (unsigned long long)b);
		}
	}
	/* NodeDescription, SL2VL and VLArbitration: not set by OpenSM without qos */
	printf("# choice: NodeDescription ibsim=\"%.64s\" ours=\"%.64s\"\n", (const char *)ib->nd,
	       (const char *)ours->nd);
	if (ib->has_sl2vl)
		cmp_field('c', "SLtoVL", IB_SLTOVL_MAPPING_TABLE_F, ib->sl2vl, ours->sl2vl, NULL);
	if (ib->has_vlarb) {
		for (int i = 0; i < 8; i++) {
			snprintf(si + 6 * i, sizeof(si) - 6 * i, "%x:%-3u ", ib->vlarb[2 * i] & 0xF,
				 ib->vlarb[2 * i + 1]);
			snprintf(so + 6 * i, sizeof(so) - 6 * i, "%x:%-3u ",
				 ours->vlarb[2 * i] & 0xF, ours->vlarb[2 * i + 1]);
		}
		printf("# choice: VLArbitration low[0..7] (VL:weight) ibsim=%s ours=%s\n", si, so);
	}
}

/* Our SMA, configured as the Rt node ibsim shows (see the caps note). */
static struct sma *ours_new(const struct attrs *ib, struct evlog *ev, uint8_t *port)
{
	struct sma_node_cfg cfg = { 0 };
	struct sma_ops ops = { .arg = ev, .event = on_event };
	unsigned int lp = fget(ib->ni, IB_NODE_LOCAL_PORT_F);
	struct sma *s;

	cfg.node_guid = fget64(ib->ni, IB_NODE_GUID_F);
	cfg.system_image_guid = fget64(ib->ni, IB_NODE_SYSTEM_GUID_F);
	cfg.num_ports = fget(ib->ni, IB_NODE_NPORTS_F);
	if (cfg.num_ports < 1 || cfg.num_ports > SMA_MAX_PORTS || lp < 1 || lp > cfg.num_ports)
		return NULL;
	for (unsigned int i = 0; i < cfg.num_ports; i++) {
		/* ibsim's convention for the other ports: NodeGUID + port number */
		cfg.ports[i].guid = cfg.node_guid + i + 1;
		/*
		 * MTUCap and VLCap as ibsim's port has them: OpenSM chose
		 * NeighborMTU and OperationalVLs from them (the lower of both
		 * ends), so replaying its Sets on a port with other caps would
		 * not be a replay (and with our default VLCap 1, OperVLs VL0-7
		 * is refused).  They are still listed below as choices.
		 */
		cfg.ports[i].mtu_cap = (uint8_t)fget(ib->pi, IB_PORT_MTU_CAP_F);
		cfg.ports[i].vl_cap = (uint8_t)fget(ib->pi, IB_PORT_VL_CAP_F);
	}
	cfg.ports[lp - 1].guid = fget64(ib->ni, IB_NODE_PORT_GUID_F);
	s = sma_new(&cfg, &ops);
	*port = (uint8_t)lp;
	return s;
}

static int run(const char *sock, const char *host, const char *path_s)
{
	static struct attrs ib, ours, pre;
	struct drpath path;
	struct evlog ev;
	struct ours o = { .tid = 0x5d1f000000000001ull };
	uint64_t t0 = ibr_now_ns();

	memset(&ev, 0, sizeof(ev));
	if (parse_path(path_s, &path)) {
		fprintf(stderr, "sma_diff: bad path \"%s\"\n", path_s);
		return -1;
	}
	if (read_ibsim(sock, host, &path, &ib))
		return -1;
	lab_check(fget(ib.ni, IB_NODE_TYPE_F) == IB_NODE_ROUTER &&
			  fget(ib.pi, IB_PORT_STATE_F) == SMA_PORT_ACTIVE &&
			  fget(ib.pi, IB_PORT_LID_F) != 0,
		  "ibsim: the node is a Router, its port Active with LID %u: OpenSM configured it",
		  fget(ib.pi, IB_PORT_LID_F));

	o.sma = ours_new(&ib, &ev, &o.port);
	lab_check(o.sma != NULL, "ours: sma_new() with NodeGUID 0x%llx, PortGUID 0x%llx, port %u",
		  (unsigned long long)fget64(ib.ni, IB_NODE_GUID_F),
		  (unsigned long long)fget64(ib.ni, IB_NODE_PORT_GUID_F), o.port);
	if (!o.sma)
		return -1;
	lab_check(sma_port_set_link(o.sma, o.port, true, ibr_now_ns()) == 0, "ours: link up");
	printf("# ours before OpenSM's Sets:\n");
	get_ours(&o, &pre);
	lab_check(fget(pre.pi, IB_PORT_STATE_F) == SMA_PORT_INIT,
		  "ours: the port is Init after link up (%u)", fget(pre.pi, IB_PORT_STATE_F));

	printf("# OpenSM's Sets, replayed:\n");
	replay(&o, &ib);
	lab_check(
		ev.lid == fget(ib.pi, IB_PORT_LID_F) &&
			ev.prefix == fget64(ib.pi, IB_PORT_GID_PREFIX_F) &&
			ev.sm_lid == fget(ib.pi, IB_PORT_SMLID_F) &&
			strcmp(ev.states, "2,3,4") == 0,
		"ours: events for the daemon: LID %u, GidPrefix 0x%016llx, SM LID %u, PortState %s",
		ev.lid, (unsigned long long)ev.prefix, ev.sm_lid, ev.states);

	printf("# ours after OpenSM's Sets:\n");
	get_ours(&o, &ours);
	printf("# compare: (a) topology, (b) set by OpenSM, (c) choices\n");
	compare(&ib, &ours, &pre);
	sma_free(o.sma);
	printf("# sma_diff took %.3f s\n", (double)(ibr_now_ns() - t0) / 1e9);
	return 0;
}

int main(int argc, char **argv)
{
	int failed;

	log_init("sma_diff", true, getenv("LAB_DEBUG") ? LOG_DEBUG : LOG_WARNING);
	if (argc != 4) {
		fprintf(stderr, "usage: %s SOCKNAME HOST PATH (e.g. ibsim HcaA2 1,3)\n", argv[0]);
		return 2;
	}
	if (run(argv[1], argv[2], argv[3]))
		lab_check(false, "the comparison could not run");
	failed = lab_check_report();
	return failed > 100 ? 100 : failed;
}
