/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_policy_test.c - the Set policy (sma/sma_policy.c): before a master SM
 * is known any Set goes; the PortInfo Set naming a MasterSMLID binds the port
 * to its sender; then LID-routed Sets only from that SLID, directed-route
 * Sets only along the binding Set's path;
 * a configured M_Key admits any Set carrying it and nothing else; refused
 * Sets get no reply, change nothing and are counted; the binding ends with
 * MasterSMLID 0, link down and sma_port_release(); "open" is IBA's rule.
 */
#include "tests/unit/sma/sma_test.h"

#include <errno.h>

#define SM_LID	 1
#define HOST_LID 5
#define PFX_A	 0xFEC0000000000001ull
#define PFX_B	 0xFEC0000000000002ull
#define KEY	 0x0123456789ABCDEFull

/* Who sends an SMP, and how it reached port 1. */
struct sender {
	int dr;		  /* directed route (else LID routed) */
	uint16_t slid;	  /* LRH SLID */
	uint16_t dr_slid; /* DrSLID (DR; 0 means permissive) */
	uint8_t hops;	  /* HopCount (DR) */
	uint8_t ipath[4]; /* InitialPath[1..hops]: chosen by the sender */
	uint8_t rpath[4]; /* ReturnPath[1..hops-1]: written by the switches on the way */
	uint64_t mkey;
};

/* The SM two switch hops away (its own port 1, out of switch port 3, in on 7). */
static const struct sender sm_dr = {
	.dr = 1, .slid = 0xFFFF, .hops = 2, .ipath = { 1, 3 }, .rpath = { 7 }
};
/* A host on the same switch as the SM: the same initial path, in on port 9. */
static const struct sender host_dr = {
	.dr = 1, .slid = 0xFFFF, .hops = 2, .ipath = { 1, 3 }, .rpath = { 9 }
};
/* A host on the router port's link (hop 0), and LID-routed senders. */
static const struct sender host_dr0 = { .dr = 1, .slid = 0xFFFF };
static const struct sender sm_lid = { .slid = SM_LID };
static const struct sender host_lid = { .slid = HOST_LID };

/* One SMP from `x` on port 1; the status, or 0xFFFF when it got no reply. */
static unsigned int send_smp(struct sma *s, const struct sender *x, unsigned int method,
			     unsigned int attr, uint32_t mod, const uint8_t *data, uint8_t *rep)
{
	uint8_t req[IB_MAD_SIZE];
	struct sma_rx rx = { .port = 1, .slid = x->slid };
	struct sma_tx tx;

	t_smp(req, x->dr, method, attr, mod, 0x42);
	mad_set_field64(req, 0, IB_MAD_MKEY_F, x->mkey);
	if (data)
		memcpy(t_data(req), data, IB_SMP_DATA_SIZE);
	if (x->dr) {
		/* as it arrives at the end of its path (C14-9:3) */
		mad_set_field(req, 0, IB_DRSMP_HOPCNT_F, x->hops);
		mad_set_field(req, 0, IB_DRSMP_HOPPTR_F, x->hops);
		if (x->dr_slid)
			mad_set_field(req, 0, IB_DRSMP_DRSLID_F, x->dr_slid);
		for (unsigned int i = 0; i < x->hops; i++) {
			req[128 + 1 + i] = x->ipath[i];
			req[192 + 1 + i] = x->rpath[i];
		}
	}
	if (sma_process(s, &rx, req, IB_MAD_SIZE, rep, &tx, NULL) != SMA_REPLY)
		return 0xFFFF;
	return t_status(rep);
}

/* PortInfo of port 1 read by its SM, for a Set: states 0 (no change). */
static void pi_read(struct sma *s, uint8_t *pi)
{
	static const struct sender me = { .dr = 1, .slid = 0xFFFF, .mkey = KEY };
	uint8_t rep[IB_MAD_SIZE];

	CU_ASSERT_EQUAL(send_smp(s, &me, IB_MAD_METHOD_GET, IB_ATTR_PORT_INFO, 1, NULL, rep), 0);
	memcpy(pi, t_data(rep), IB_SMP_DATA_SIZE);
	mad_set_field(pi, 0, IB_PORT_STATE_F, 0);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 0);
}

/* A PortInfo Set of port 1's GidPrefix (and MasterSMLID if smlid >= 0) from `x`. */
static unsigned int set_prefix(struct sma *s, const struct sender *x, uint64_t prefix, int smlid)
{
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	pi_read(s, pi);
	mad_set_field64(pi, 0, IB_PORT_GID_PREFIX_F, prefix);
	if (smlid >= 0)
		mad_set_field(pi, 0, IB_PORT_SMLID_F, (uint32_t)smlid);
	return send_smp(s, x, IB_MAD_METHOD_SET, IB_ATTR_PORT_INFO, 1, pi, rep);
}

static uint64_t prefix_of(struct sma *s)
{
	struct sma_port_view v;

	sma_port_get(s, 1, &v);
	return v.gid_prefix;
}

static uint64_t refused(struct sma *s)
{
	struct sma_port_view v;

	sma_port_get(s, 1, &v);
	CU_ASSERT_EQUAL(v.sets_refused, sma_counters_get(s)->drops[SMA_DROP_SET_POLICY]);
	return v.sets_refused;
}

/* Before any SM: every Set goes (how an SM first configures a port); no binding. */
static void test_no_sm_yet(void)
{
	struct sma *s = t_sma(1);
	struct sma_port_view v;

	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_A, -1), 0);
	CU_ASSERT_EQUAL(set_prefix(s, &host_dr, PFX_B, -1), 0);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_B);
	sma_port_get(s, 1, &v);
	CU_ASSERT(!v.sm_bound && v.sets_refused == 0);
	sma_free(s);
}

/*
 * The issue: an SM configured the port by LID-routed Sets; a host in the
 * subnet sends a LID-routed SubnSet(PortInfo) of another GidPrefix.
 */
static void test_lid_routed(void)
{
	struct sma *s = t_sma(1);
	uint8_t rep[IB_MAD_SIZE];
	struct sma_port_view v;
	struct sma_event ev;

	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_B, SM_LID), 0);
	sma_port_get(s, 1, &v);
	CU_ASSERT(v.sm_bound && !v.sm_dr && v.sm_bound_lid == SM_LID);
	t_nev = 0;
	/* from another SLID: no reply, nothing changes, counted, trap 256 asked for */
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_A, -1), 0xFFFF);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_B);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_GID_PREFIX, NULL), 0);
	CU_ASSERT(t_ev_count(SMA_EV_TRAP_BAD_MKEY, &ev) == 1 && ev.trap.lid == HOST_LID &&
		  ev.trap.method == IB_MAD_METHOD_SET && ev.trap.attr_id == IB_ATTR_PORT_INFO);
	CU_ASSERT_EQUAL(refused(s), 1);
	/* nor by directed route, nor taking over MasterSMLID */
	CU_ASSERT_EQUAL(set_prefix(s, &host_dr0, PFX_A, -1), 0xFFFF);
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_A, HOST_LID), 0xFFFF);
	CU_ASSERT_EQUAL(refused(s), 3);
	/* Gets are answered */
	CU_ASSERT_EQUAL(send_smp(s, &host_lid, IB_MAD_METHOD_GET, IB_ATTR_PORT_INFO, 1, NULL, rep),
			0);
	/* the SM's own Sets are */
	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_A, -1), 0);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_A);
	CU_ASSERT_EQUAL(refused(s), 3);
	sma_free(s);
}

/* Every attribute's Sets, not only PortInfo's: a host may not edit the P_Keys either. */
static void test_other_attributes(void)
{
	static const unsigned int attrs[] = { IB_ATTR_PKEY_TBL, IB_ATTR_GUID_INFO,
					      IB_ATTR_SLVL_TABLE };
	struct sma *s = t_sma(1);
	uint8_t data[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_B, SM_LID), 0);
	memset(data, 0x11, sizeof(data));
	t_nev = 0;
	for (unsigned int i = 0; i < 3; i++) {
		CU_ASSERT_EQUAL(send_smp(s, &host_lid, IB_MAD_METHOD_SET, attrs[i], 0, data, rep),
				0xFFFF);
		CU_ASSERT_EQUAL(send_smp(s, &sm_lid, IB_MAD_METHOD_SET, attrs[i], 0, data, rep), 0);
	}
	CU_ASSERT_EQUAL(refused(s), 3);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_PKEYS, NULL), 1);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_ALIAS_GUIDS, NULL), 1);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_SL2VL, NULL), 1);
	sma_free(s);
}

/* OpenSM's way: directed route; later Sets must come along the same path. */
static void test_directed_route(void)
{
	struct sma *s = t_sma(1);
	struct sender x = sm_dr;
	struct sma_port_view v;

	CU_ASSERT_EQUAL(set_prefix(s, &sm_dr, PFX_B, SM_LID), 0);
	sma_port_get(s, 1, &v);
	CU_ASSERT(v.sm_bound && v.sm_dr && v.sm_hops == 2 && v.sm_bound_lid == SM_LID);
	CU_ASSERT_EQUAL(set_prefix(s, &sm_dr, PFX_B, -1), 0);
	/* a host next to the SM: same initial path, another return path */
	CU_ASSERT_EQUAL(set_prefix(s, &host_dr, PFX_A, -1), 0xFFFF);
	/* a host on the router's link, and one with a longer path */
	CU_ASSERT_EQUAL(set_prefix(s, &host_dr0, PFX_A, -1), 0xFFFF);
	x.hops = 3;
	x.ipath[2] = 2;
	x.rpath[1] = 4;
	CU_ASSERT_EQUAL(set_prefix(s, &x, PFX_A, -1), 0xFFFF);
	/* the initial path counts too */
	x = sm_dr;
	x.ipath[1] = 4;
	CU_ASSERT_EQUAL(set_prefix(s, &x, PFX_A, -1), 0xFFFF);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_B);
	CU_ASSERT_EQUAL(refused(s), 4);
	/* DrSLID = the SM's LID proves nothing (no switch checks it): the path counts */
	x = host_dr;
	x.dr_slid = SM_LID;
	CU_ASSERT_EQUAL(set_prefix(s, &x, PFX_A, -1), 0xFFFF);
	x = sm_dr;
	x.dr_slid = SM_LID;
	CU_ASSERT_EQUAL(set_prefix(s, &x, PFX_A, -1), 0xFFFF);
	/* LID routed from the SM's LID */
	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_B, -1), 0);
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_A, -1), 0xFFFF);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_B);
	CU_ASSERT_EQUAL(refused(s), 7);
	sma_free(s);
}

/* What OpenSM sends a router port (IBA-NOTES.md), by hop-0 directed route as sma_diff. */
static void test_opensm_sequence(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], pk[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];
	static const struct sender osm = { .dr = 1, .slid = 0xFFFF };

	sma_port_set_link(s, 1, true, 0);
	memset(pk, 0xFF, 2);
	CU_ASSERT_EQUAL(send_smp(s, &osm, IB_MAD_METHOD_SET, IB_ATTR_PKEY_TBL, 0, pk, rep), 0);
	pi_read(s, pi);
	mad_set_field(pi, 0, IB_PORT_LID_F, 7);
	mad_set_field(pi, 0, IB_PORT_SMLID_F, SM_LID);
	mad_set_field64(pi, 0, IB_PORT_GID_PREFIX_F, PFX_A);
	CU_ASSERT_EQUAL(send_smp(s, &osm, IB_MAD_METHOD_SET, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	for (unsigned int st = 3; st <= 4; st++) {
		mad_set_field(pi, 0, IB_PORT_STATE_F, st);
		CU_ASSERT_EQUAL(send_smp(s, &osm, IB_MAD_METHOD_SET, IB_ATTR_PORT_INFO, 1, pi, rep),
				0);
	}
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), SMA_PORT_ACTIVE);
	CU_ASSERT_EQUAL(refused(s), 0);
	sma_free(s);
}

/* A configured M_Key (sma-mkey): every Set must carry it, from the start. */
static void test_configured_mkey(void)
{
	struct sma_node_cfg c;
	struct sma_ops o = { .event = t_event };
	struct sma *s;
	struct sender x = host_lid;
	uint8_t rep[IB_MAD_SIZE];

	t_cfg(&c, 1);
	c.ports[0].mkey = KEY;
	s = sma_new(&c, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* no SM yet, yet a Set without the key fails IBA's check (14.2.4) */
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_A, -1), 0xFFFF);
	CU_ASSERT_EQUAL(sma_counters_get(s)->drops[SMA_DROP_MKEY], 1);
	/* Gets are answered with the M_Key hidden (protection level 1) */
	CU_ASSERT_EQUAL(send_smp(s, &host_lid, IB_MAD_METHOD_GET, IB_ATTR_PORT_INFO, 1, NULL, rep),
			0);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_PORT_MKEY_F), 0);
	/* with the key: from any sender, bound or not */
	x.mkey = KEY;
	CU_ASSERT_EQUAL(set_prefix(s, &x, PFX_B, SM_LID), 0);
	CU_ASSERT_EQUAL(set_prefix(s, &x, PFX_A, -1), 0);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_A);
	CU_ASSERT_EQUAL(refused(s), 0);
	sma_free(s);
}

/* The binding ends: MasterSMLID 0, link down, sma_port_release(). */
static void test_release(void)
{
	struct sma *s = t_sma(2);
	struct sma_port_view v;

	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_B, SM_LID), 0);
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_A, -1), 0xFFFF);
	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_B, 0), 0);
	sma_port_get(s, 1, &v);
	CU_ASSERT(!v.sm_bound);
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_B, -1), 0);

	/* the next SM to name itself binds: here the host's LID */
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_B, HOST_LID), 0);
	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_A, -1), 0xFFFF);
	CU_ASSERT_EQUAL(sma_port_release(s, 1), 0);
	CU_ASSERT_EQUAL(sma_port_release(s, 3), -EINVAL);
	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_A, SM_LID), 0);
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_B, -1), 0xFFFF);
	/* a link that goes down may come back in another subnet */
	sma_port_set_link(s, 1, true, 0);
	sma_port_set_link(s, 1, false, 0);
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_B, -1), 0);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_B);
	sma_free(s);
}

/* sma-set-policy open: IBA's rule alone (M_Key 0: anyone). */
static void test_open(void)
{
	struct sma_node_cfg c;
	struct sma *s;

	t_cfg(&c, 1);
	c.ports[0].set_policy = SMA_SET_OPEN;
	s = sma_new(&c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(set_prefix(s, &sm_lid, PFX_B, SM_LID), 0);
	CU_ASSERT_EQUAL(set_prefix(s, &host_lid, PFX_A, -1), 0);
	CU_ASSERT_EQUAL(prefix_of(s), PFX_A);
	CU_ASSERT_EQUAL(refused(s), 0);
	sma_free(s);
	c.ports[0].set_policy = 2;
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
}

static CU_TestInfo tests[] = {
	{ "before an SM is known: accepted", test_no_sm_yet },
	{ "LID routed: the SM's SLID only", test_lid_routed },
	{ "every attribute's Sets", test_other_attributes },
	{ "directed route: the SM's path only", test_directed_route },
	{ "OpenSM's Sets by directed route", test_opensm_sequence },
	{ "a configured M_Key", test_configured_mkey },
	{ "the binding ends", test_release },
	{ "open: IBA's rule alone", test_open },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_policy", tests);
}
