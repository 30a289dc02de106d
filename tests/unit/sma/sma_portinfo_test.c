/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_portinfo_test.c - PortInfo Get and Set (sma/sma_portinfo.c): the
 * defaults, a round trip of every writable field (each set to a non-default
 * value with libibmad's encoder and read back with its decoder), each
 * invalid value (status 0x001C and nothing changed), read-only fields, the
 * PortState transitions, and the events a Set produces.
 */
#include "tests/unit/sma/sma_test.h"

/* Every writable field with a valid non-default value (14.2.5.6 Table 146). */
static const struct {
	enum MAD_FIELDS f;
	uint64_t v;
} rw_fields[] = {
	{ IB_PORT_MKEY_F, 0x1122334455667788ull },
	{ IB_PORT_GID_PREFIX_F, 0xFEC0000000000002ull },
	{ IB_PORT_LID_F, 0x0040 },
	{ IB_PORT_SMLID_F, 0x0001 },
	{ IB_PORT_MKEY_LEASE_F, 60 },
	{ IB_PORT_LINK_WIDTH_ENABLED_F, 0x2 },
	{ IB_PORT_LINK_DOWN_DEF_F, 1 },
	{ IB_PORT_MKEY_PROT_BITS_F, 1 },
	{ IB_PORT_LMC_F, 2 },
	{ IB_PORT_LINK_SPEED_ENABLED_F, 0x1 },
	{ IB_PORT_NEIGHBOR_MTU_F, 3 },
	{ IB_PORT_SMSL_F, 5 },
	{ IB_PORT_VL_HIGH_LIMIT_F, 7 },
	{ IB_PORT_VL_STALL_COUNT_F, 7 },
	{ IB_PORT_HOQ_LIFE_F, 19 },
	{ IB_PORT_PART_EN_INB_F, 1 },
	{ IB_PORT_PART_EN_OUTB_F, 1 },
	{ IB_PORT_FILTER_RAW_INB_F, 1 },
	{ IB_PORT_FILTER_RAW_OUTB_F, 1 },
	{ IB_PORT_MKEY_VIOL_F, 3 },
	{ IB_PORT_PKEY_VIOL_F, 4 },
	{ IB_PORT_QKEY_VIOL_F, 5 },
	{ IB_PORT_SUBN_TIMEOUT_F, 18 },
	{ IB_PORT_LOCAL_PHYS_ERR_F, 8 },
	{ IB_PORT_OVERRUN_ERR_F, 9 },
};

/* Read-only fields: a Set with another value leaves them. */
static const enum MAD_FIELDS ro_fields[] = {
	IB_PORT_CAPMASK_F,
	IB_PORT_DIAG_F,
	IB_PORT_LOCAL_PORT_F,
	IB_PORT_LINK_WIDTH_SUPPORTED_F,
	IB_PORT_LINK_WIDTH_ACTIVE_F,
	IB_PORT_LINK_SPEED_SUPPORTED_F,
	IB_PORT_LINK_SPEED_ACTIVE_F,
	IB_PORT_VL_CAP_F,
	IB_PORT_MTU_CAP_F,
	IB_PORT_GUID_CAP_F,
	IB_PORT_VL_ARBITRATION_HIGH_CAP_F,
	IB_PORT_RESP_TIME_VAL_F,
};

/* Invalid values: the whole Set is refused. */
static const struct {
	const char *name;
	enum MAD_FIELDS f;
	uint32_t v;
} bad_values[] = {
	{ "multicast LID", IB_PORT_LID_F, 0xC000 },
	{ "permissive LID", IB_PORT_LID_F, 0xFFFF },
	{ "LinkDownDefaultState 3", IB_PORT_LINK_DOWN_DEF_F, 3 },
	{ "NeighborMTU 0", IB_PORT_NEIGHBOR_MTU_F, 0 },
	{ "NeighborMTU above MTUCap", IB_PORT_NEIGHBOR_MTU_F, 5 },
	{ "OperationalVLs above VLCap", IB_PORT_OPER_VLS_F, 2 },
	{ "LinkWidthEnabled unsupported", IB_PORT_LINK_WIDTH_ENABLED_F, 0x8 },
	{ "LinkSpeedEnabled unsupported", IB_PORT_LINK_SPEED_ENABLED_F, 0x8 },
	{ "PortState Init", IB_PORT_STATE_F, 2 },
	{ "PortState 5", IB_PORT_STATE_F, 5 },
	{ "PortPhysicalState 4", IB_PORT_PHYS_STATE_F, 4 },
	{ "PortPhysicalState LinkUp", IB_PORT_PHYS_STATE_F, 5 },
	{ "PortState Armed from Down", IB_PORT_STATE_F, 3 },
};

static void test_defaults(void)
{
	struct sma *s = t_sma(2);
	uint8_t rep[IB_MAD_SIZE], *pi = t_data(rep);

	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PORT_INFO, 2, rep), 0);
	CU_ASSERT(t_is_getresp(rep, IB_ATTR_PORT_INFO, 2, 0x1234));
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_LOCAL_PORT_F), 2);
	CU_ASSERT_EQUAL(mad_get_field64(pi, 0, IB_PORT_GID_PREFIX_F), 0xFE80000000000000ull);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_STATE_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_PHYS_STATE_F), 2);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_CAPMASK_F), SMA_CAP_DEFAULT);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_MTU_CAP_F), 4);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_NEIGHBOR_MTU_F), 4);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_VL_CAP_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_OPER_VLS_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_GUID_CAP_F), 8);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_LINK_WIDTH_ACTIVE_F), 2);
	/* AttributeModifier 0 is the arrival port; past NumPorts is invalid */
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PORT_INFO, 0, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(pi, 0, IB_PORT_LOCAL_PORT_F), 1);
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_PORT_INFO, 3, rep), IB_MAD_STS_INV_ATTR_VALUE);
	CU_ASSERT(t_is_getresp(rep, IB_ATTR_PORT_INFO, 3, 0x1234));
	sma_free(s);
}

static void test_rw_round_trip(void)
{
	for (size_t i = 0; i < sizeof(rw_fields) / sizeof(rw_fields[0]); i++) {
		struct sma *s = t_sma(1);
		uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

		t_pi_rmw(s, pi);
		t_fset(pi, rw_fields[i].f, rw_fields[i].v);
		CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
		CU_ASSERT_EQUAL(t_fget(t_data(rep), rw_fields[i].f), rw_fields[i].v);
		t_get(s, IB_ATTR_PORT_INFO, 1, rep);
		if (t_fget(t_data(rep), rw_fields[i].f) != rw_fields[i].v) {
			fprintf(stderr, "field %s\n", mad_field_name(rw_fields[i].f));
			CU_FAIL("round trip");
		}
		sma_free(s);
	}
}

static void test_all_at_once(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	t_pi_rmw(s, pi);
	for (size_t i = 0; i < sizeof(rw_fields) / sizeof(rw_fields[0]); i++)
		t_fset(pi, rw_fields[i].f, rw_fields[i].v);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	for (size_t i = 0; i < sizeof(rw_fields) / sizeof(rw_fields[0]); i++)
		CU_ASSERT_EQUAL(t_fget(t_data(rep), rw_fields[i].f), rw_fields[i].v);
	sma_free(s);
}

static void test_read_only(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], before[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	t_pi_rmw(s, pi);
	memcpy(before, pi, sizeof(before));
	for (size_t i = 0; i < sizeof(ro_fields) / sizeof(ro_fields[0]); i++)
		mad_set_field(pi, 0, ro_fields[i], mad_get_field(pi, 0, ro_fields[i]) ^ 1);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	for (size_t i = 0; i < sizeof(ro_fields) / sizeof(ro_fields[0]); i++)
		CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, ro_fields[i]),
				mad_get_field(before, 0, ro_fields[i]));
	sma_free(s);
}

static void test_bad_values(void)
{
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		struct sma *s = t_sma(1);
		uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE], before[IB_SMP_DATA_SIZE];

		t_get(s, IB_ATTR_PORT_INFO, 1, rep);
		memcpy(before, t_data(rep), sizeof(before));
		t_pi_rmw(s, pi);
		mad_set_field(pi, 0, IB_PORT_LID_F, 0x55); /* a valid change beside the bad one */
		mad_set_field(pi, 0, bad_values[i].f, bad_values[i].v);
		if (t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep) != IB_MAD_STS_INV_ATTR_VALUE ||
		    memcmp(t_data(rep), before, sizeof(before)) != 0) {
			fprintf(stderr, "bad value case %s\n", bad_values[i].name);
			CU_FAIL("invalid value accepted");
		}
		sma_free(s);
	}
}

/* PortState transitions: (from, requested) -> status, resulting state. */
static void test_transitions(void)
{
	static const struct {
		unsigned int from, req, status, to;
	} t[] = {
		{ 2, 0, 0, 2 },	   { 2, 1, 0, 1 },    { 2, 3, 0, 3 }, { 2, 4, 0x1C, 2 },
		{ 3, 0, 0, 3 },	   { 3, 3, 0, 3 },    { 3, 4, 0, 4 }, { 3, 1, 0, 1 },
		{ 4, 4, 0, 4 },	   { 4, 3, 0x1C, 4 }, { 4, 1, 0, 1 }, { 4, 0, 0, 4 },
		{ 1, 3, 0x1C, 1 }, { 1, 4, 0x1C, 1 }, { 1, 1, 0, 1 }, { 2, 2, 0x1C, 2 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct sma *s = t_sma(1);
		uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

		sma_port_set_link(s, 1, true, 0);
		if (t[i].from == 1) {
			t_pi_rmw(s, pi);
			mad_set_field(pi, 0, IB_PORT_STATE_F, 1);
			t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep);
		}
		for (unsigned int st = 3; st <= t[i].from; st++) {
			t_pi_rmw(s, pi);
			mad_set_field(pi, 0, IB_PORT_STATE_F, st);
			CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
		}
		t_get(s, IB_ATTR_PORT_INFO, 1, rep);
		CU_ASSERT_EQUAL_FATAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), t[i].from);
		t_pi_rmw(s, pi);
		mad_set_field(pi, 0, IB_PORT_STATE_F, t[i].req);
		if (t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep) != t[i].status ||
		    mad_get_field(t_data(rep), 0, IB_PORT_STATE_F) != t[i].to) {
			fprintf(stderr, "transition %u -> %u\n", t[i].from, t[i].req);
			CU_FAIL("transition");
		}
		sma_free(s);
	}
}

/* OpenSM's sequence: link up, Set LID/prefix/SM LID, then NOP, Armed, Active. */
/* A PortInfo Set of port 1 as OpenSM sends it: by directed route (hop 0 here). */
static unsigned int t_set_dr(struct sma *s, const uint8_t *pi, uint8_t *rep)
{
	return t_set_at(s, 1, 0xFFFF, IB_ATTR_PORT_INFO, 1, pi, rep);
}

static void test_opensm_sequence_events(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];
	struct sma_event ev;
	struct sma_port_view v;

	CU_ASSERT_EQUAL(sma_port_set_link(s, 1, true, 0), 0);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_PORT_STATE, &ev), 1);
	CU_ASSERT(ev.state == SMA_PORT_INIT && ev.old_state == SMA_PORT_DOWN);
	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_LID_F, 7);
	mad_set_field(pi, 0, IB_PORT_LMC_F, 1);
	mad_set_field64(pi, 0, IB_PORT_GID_PREFIX_F, 0xFEC0000000000001ull);
	mad_set_field(pi, 0, IB_PORT_SMLID_F, 1);
	mad_set_field(pi, 0, IB_PORT_SUBN_TIMEOUT_F, 18);
	mad_set_field(pi, 0, IB_PORT_CLIENT_REREG_F, 1);
	CU_ASSERT_EQUAL(t_set_dr(s, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_CLIENT_REREG_F), 0);
	CU_ASSERT(t_ev_count(SMA_EV_LID, &ev) == 1 && ev.lid == 7 && ev.lmc == 1 && ev.port == 1);
	CU_ASSERT(t_ev_count(SMA_EV_GID_PREFIX, &ev) == 1 &&
		  ev.gid_prefix == 0xFEC0000000000001ull);
	CU_ASSERT(t_ev_count(SMA_EV_SM, &ev) == 1 && ev.sm_lid == 1);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_CLIENT_REREG, NULL), 1);
	/* the same Set again changes nothing: no new events but rereg */
	mad_set_field(pi, 0, IB_PORT_CLIENT_REREG_F, 0);
	CU_ASSERT_EQUAL(t_set_dr(s, pi, rep), 0);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_LID, NULL), 1);
	for (unsigned int st = 0; st <= 4; st += (st ? 1 : 3)) {
		mad_set_field(pi, 0, IB_PORT_STATE_F, st);
		CU_ASSERT_EQUAL(t_set_dr(s, pi, rep), 0);
	}
	CU_ASSERT(t_ev_count(SMA_EV_PORT_STATE, &ev) == 3 && ev.state == SMA_PORT_ACTIVE);
	CU_ASSERT_EQUAL(sma_port_get(s, 1, &v), 0);
	CU_ASSERT(v.lid == 7 && v.lmc == 1 && v.sm_lid == 1 && v.state == SMA_PORT_ACTIVE &&
		  v.gid_prefix == 0xFEC0000000000001ull && v.subnet_timeout == 18 &&
		  v.guid == T_PORT_GUID(1));
	/* NeighborMTU and OperationalVLs */
	mad_set_field(pi, 0, IB_PORT_STATE_F, 0);
	mad_set_field(pi, 0, IB_PORT_NEIGHBOR_MTU_F, 2);
	CU_ASSERT_EQUAL(t_set_dr(s, pi, rep), 0);
	CU_ASSERT(t_ev_count(SMA_EV_MTU_VLS, &ev) == 1 && ev.neighbor_mtu == 2 && ev.oper_vls == 1);
	sma_free(s);
}

/* LinkWidthEnabled 255 and LinkSpeedEnabled 15 mean "set to supported". */
static void test_enabled_to_supported(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_LINK_WIDTH_ENABLED_F, 1);
	mad_set_field(pi, 0, IB_PORT_LINK_SPEED_ENABLED_F, 1);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	/* the link retrains to what is enabled: 1x, 2.5 Gb/s (it was 4x, 10) */
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LINK_WIDTH_ACTIVE_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LINK_SPEED_ACTIVE_F), 1);
	mad_set_field(pi, 0, IB_PORT_LINK_WIDTH_ENABLED_F, 255);
	mad_set_field(pi, 0, IB_PORT_LINK_SPEED_ENABLED_F, 15);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LINK_WIDTH_ENABLED_F), 3);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LINK_SPEED_ENABLED_F), 7);
	/* still within what is enabled: no retraining */
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LINK_SPEED_ACTIVE_F), 1);
	mad_set_field(pi, 0, IB_PORT_LINK_WIDTH_ENABLED_F, 0); /* no change */
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LINK_WIDTH_ENABLED_F), 3);
	sma_free(s);
}

/* PortPhysicalState Disabled takes the port Down; Polling re-enables it. */
static void test_phys_disable(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	sma_port_set_link(s, 1, true, 0);
	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 3);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_PHYS_STATE_F), 3);
	CU_ASSERT_EQUAL(sma_port_set_link(s, 1, true, 0), -EPERM);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 2);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_PHYS_STATE_F), 2);
	CU_ASSERT_EQUAL(sma_port_set_link(s, 1, true, 0), 0);
	t_get(s, IB_ATTR_PORT_INFO, 1, rep);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 2);
	sma_free(s);
}

/* Set Down with the link up: Down now, Init again at the next tick (retrain). */
static void test_down_retrains(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	sma_port_set_link(s, 1, true, 0);
	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_STATE_F, 1);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 1);
	sma_tick(s, 1);
	t_get(s, IB_ATTR_PORT_INFO, 1, rep);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 2);
	sma_free(s);
}

/*
 * Set of another port's PortInfo (AttributeModifier 2) through port 1:
 * refused by the default Set policy (port 2's SM is in port 2's subnet,
 * sma_policy.c), done with sma-set-policy open.
 */
static void test_other_port(void)
{
	struct sma_node_cfg c;
	struct sma_ops o = { .event = t_event };
	struct sma *s = t_sma(2);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];
	struct sma_event ev;

	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_LID_F, 9);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 2, pi, rep), 0xFFFF);
	CU_ASSERT_EQUAL(sma_counters_get(s)->drops[SMA_DROP_SET_POLICY], 1);
	CU_ASSERT_EQUAL(t_ev_count(SMA_EV_LID, NULL), 0);
	sma_free(s);

	t_cfg(&c, 2);
	c.ports[0].set_policy = SMA_SET_OPEN;
	t_nev = 0;
	s = sma_new(&c, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 2, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LOCAL_PORT_F), 2);
	CU_ASSERT(t_ev_count(SMA_EV_LID, &ev) == 1 && ev.port == 2 && ev.lid == 9);
	t_get(s, IB_ATTR_PORT_INFO, 1, rep);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LID_F), 0);
	sma_free(s);
}

/*
 * The port's forwarding state (sma_port_sync): PortInfo shows the LID, LMC
 * and prefix the router forwards with, Active while it forwards, without
 * events; a LID-routed reply leaves from that LID; a port that stops
 * forwarding falls back to Init; an SM's Disable lasts while the router
 * does not say again that the port forwards; an SM's Set still works (and
 * its event tells the router).
 */
static void test_port_sync(void)
{
	struct sma *s = t_sma(2);
	struct sma_port_fwd f = {
		.lid = 0x10, .lmc = 1, .gid_prefix = 0xFEC0000000000002ull, .forwarding = true
	};
	uint8_t pi[IB_SMP_DATA_SIZE], req[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	struct sma_rx rx = { .port = 1, .slid = 5 };
	struct sma_tx tx;
	struct sma_event ev;

	sma_port_set_link(s, 1, true, 0);
	t_nev = 0;
	CU_ASSERT_EQUAL(sma_port_sync(s, 1, &f), 0);
	CU_ASSERT_EQUAL(t_nev, 0);
	t_get(s, IB_ATTR_PORT_INFO, 1, rep);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LID_F), 0x10);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LMC_F), 1);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_PORT_GID_PREFIX_F),
			0xFEC0000000000002ull);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 4);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_PHYS_STATE_F), 5);
	/* LID routed from LID 5 to LID 0x11 (base 0x10, LMC 1): the reply from 0x10 to 5 */
	t_smp(req, 0, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 7);
	rx.dlid = 0x11;
	CU_ASSERT_EQUAL(sma_process(s, &rx, req, IB_MAD_SIZE, rep, &tx, NULL), SMA_REPLY);
	CU_ASSERT(tx.slid == 0x10 && tx.dlid == 5 && tx.port == 1);
	/* port 2 was told nothing: no LID, the default prefix, not Active */
	t_get(s, IB_ATTR_PORT_INFO, 2, rep);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LID_F), 0);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_PORT_GID_PREFIX_F),
			0xFE80000000000000ull);
	CU_ASSERT_NOT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 4);
	/* an SM's Set of the LID: done, told as an event */
	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_LID_F, 0x40);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT(t_ev_count(SMA_EV_LID, &ev) == 1 && ev.lid == 0x40);
	/* the router no longer forwards on it, prefix unknown: Init, fe80:: */
	f.forwarding = false;
	f.gid_prefix = 0;
	CU_ASSERT_EQUAL(sma_port_sync(s, 1, &f), 0);
	t_get(s, IB_ATTR_PORT_INFO, 1, rep);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 2);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_LID_F), 0x10);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_PORT_GID_PREFIX_F),
			0xFE80000000000000ull);
	/*
	 * disabled by the SM while the router forwards on it: the link comes back
	 * up, but a port an SM manages is the SM's to move: Init, until the SM
	 * arms and activates it (IBA 14.2.5.6), as OpenSM walks a port through
	 * the states; Active then stays while the router forwards
	 */
	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 3);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 1);
	f.forwarding = true;
	CU_ASSERT_EQUAL(sma_port_sync(s, 1, &f), 0);
	t_get(s, IB_ATTR_PORT_INFO, 1, rep);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), 2);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_PHYS_STATE_F), 5);
	for (unsigned want = 3; want <= 4; want++) { /* Armed, then Active */
		t_pi_rmw(s, pi);
		mad_set_field(pi, 0, IB_PORT_STATE_F, want);
		CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
		CU_ASSERT_EQUAL(sma_port_sync(s, 1, &f), 0);
		t_get(s, IB_ATTR_PORT_INFO, 1, rep);
		CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_PORT_STATE_F), want);
	}
	/* bad arguments */
	f.lid = 0xC000;
	CU_ASSERT_EQUAL(sma_port_sync(s, 1, &f), -EINVAL);
	f.lid = 1;
	CU_ASSERT_EQUAL(sma_port_sync(s, 3, &f), -EINVAL);
	sma_free(s);
}

static CU_TestInfo tests[] = {
	{ "defaults and AttributeModifier", test_defaults },
	{ "round trip of each writable field", test_rw_round_trip },
	{ "all writable fields in one Set", test_all_at_once },
	{ "read-only fields", test_read_only },
	{ "invalid values: 0x001C, unchanged", test_bad_values },
	{ "PortState transitions", test_transitions },
	{ "OpenSM sequence and events", test_opensm_sequence_events },
	{ "enabled = supported", test_enabled_to_supported },
	{ "PortPhysicalState Disabled/Polling", test_phys_disable },
	{ "Down retrains to Init", test_down_retrains },
	{ "another port's PortInfo", test_other_port },
	{ "the router's forwarding state", test_port_sync },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_portinfo", tests);
}
