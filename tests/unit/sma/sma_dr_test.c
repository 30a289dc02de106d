/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_dr_test.c - directed-route rules of an end port (sma/sma_dr.c):
 * every branch of C14-9 and C14-13 on receive, every branch of the reply's
 * send rules, each as a table row; then whole DR SMPs through
 * sma_process() (D bit, HopPointer, ReturnPath, LRH addresses).
 */
#include "sma/sma_dr.h"
#include "tests/unit/sma/sma_test.h"

#define P  0xFFFF /* permissive */
#define OK SMA_DROP_MAX

struct dr_case {
	const char *name;
	int d;
	unsigned int hc, hp;
	uint16_t dlid, slid;
	unsigned int rp_idx, rp_val; /* ReturnPath entry set before (idx 0: none) */
	enum sma_drop expect;	     /* OK: handled */
	unsigned int hp_after;
	unsigned int rp_check; /* ReturnPath index that must then hold port 2 (0: none) */
};

static const struct dr_case recv_cases[] = {
	{ "C14-9:1 hop_ptr 0 with hops", 0, 2, 0, P, P, 0, 0, SMA_DROP_DR_HOP_PTR_ZERO, 0, 0 },
	{ "C14-9:2 first intermediate", 0, 3, 1, P, P, 0, 0, SMA_DROP_DR_FORWARD_OUT, 1, 0 },
	{ "C14-9:2 last intermediate", 0, 3, 2, P, P, 0, 0, SMA_DROP_DR_FORWARD_OUT, 2, 0 },
	{ "C14-9:3 zero hops", 0, 0, 0, P, P, 0, 0, OK, 1, 0 },
	{ "C14-9:3 end of path", 0, 2, 2, P, P, 0, 0, OK, 3, 2 },
	{ "C14-9:3 DrDLID not permissive", 0, 2, 2, 5, P, 0, 0, SMA_DROP_DR_DLID, 2, 0 },
	{ "C14-9:4 LID-routed last part", 0, 2, 3, 5, P, 0, 0, OK, 3, 0 },
	{ "C14-9:4 zero hops", 0, 0, 1, 5, P, 0, 0, OK, 1, 0 },
	{ "C14-9:5 hop_ptr past the end", 0, 2, 4, P, P, 0, 0, SMA_DROP_DR_HOP_PTR_OUT, 4, 0 },
	{ "C14-9:5 64 hops", 0, 64, 64, P, P, 0, 0, SMA_DROP_DR_HOP_PTR_OUT, 64, 0 },
	{ "C14-13:1 return path here", 1, 2, 3, P, P, 2, 2, OK, 2, 0 },
	{ "C14-13:1 return path elsewhere", 1, 2, 3, P, P, 2, 7, SMA_DROP_DR_RETURN_PORT, 2, 0 },
	{ "C14-13:2 intermediate (2)", 1, 3, 2, P, P, 0, 0, SMA_DROP_DR_FORWARD_RET, 2, 0 },
	{ "C14-13:2 intermediate (hop count)", 1, 3, 3, P, P, 0, 0, SMA_DROP_DR_FORWARD_RET, 3, 0 },
	{ "C14-13:3 DrSLID permissive", 1, 2, 1, P, P, 0, 0, OK, 0, 0 },
	{ "C14-13:3 DrSLID not permissive", 1, 2, 1, P, 9, 0, 0, SMA_DROP_DR_SLID, 1, 0 },
	{ "C14-13:4 arrived", 1, 2, 0, P, P, 0, 0, OK, 0, 0 },
	{ "C14-13:4 zero hops", 1, 0, 0, P, P, 0, 0, OK, 0, 0 },
	{ "C14-13:5 unreasonable", 1, 2, 5, P, P, 0, 0, SMA_DROP_DR_HOP_PTR_RET, 5, 0 },
	{ "C14-13:5 64 hops", 1, 64, 1, P, P, 0, 0, SMA_DROP_DR_HOP_PTR_RET, 1, 0 },
};

static const struct dr_case reply_cases[] = {
	{ "C14-13:1 back onto the path", 1, 2, 3, P, P, 2, 2, OK, 2, 0 },
	{ "C14-13:1 path starts elsewhere", 1, 2, 3, P, P, 2, 7, SMA_DROP_DR_REPLY, 2, 0 },
	{ "C14-13:2 middle of a path", 1, 3, 2, P, P, 0, 0, SMA_DROP_DR_REPLY, 2, 0 },
	{ "C14-13:3 zero hops", 1, 0, 1, P, P, 0, 0, OK, 0, 0 },
	{ "C14-13:3 zero hops, DrSLID set", 1, 0, 1, P, 5, 0, 0, SMA_DROP_DR_REPLY, 0, 0 },
	{ "C14-13:4 hop_ptr 0", 1, 2, 0, P, P, 0, 0, OK, 0, 0 },
	{ "C14-13:5 unreasonable", 1, 2, 5, P, P, 0, 0, SMA_DROP_DR_REPLY, 5, 0 },
	{ "LID-routed first part (DrDLID)", 1, 2, 3, 5, P, 0, 0, OK, 3, 0 },
};

static void dr_build(uint8_t *m, const struct dr_case *c)
{
	t_smp(m, 1, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 1);
	mad_set_field(m, 0, IB_DRSMP_DIRECTION_F, (unsigned int)c->d);
	mad_set_field(m, 0, IB_DRSMP_HOPCNT_F, c->hc);
	mad_set_field(m, 0, IB_DRSMP_HOPPTR_F, c->hp);
	mad_set_field(m, 0, IB_DRSMP_DRDLID_F, c->dlid);
	mad_set_field(m, 0, IB_DRSMP_DRSLID_F, c->slid);
	if (c->rp_idx)
		m[IB_SMP_DATA_OFFS + 128 + c->rp_idx] = (uint8_t)c->rp_val; /* ReturnPath at 192 */
}

static void run_cases(const struct dr_case *cases, size_t n, bool reply)
{
	for (size_t i = 0; i < n; i++) {
		const struct dr_case *c = &cases[i];
		uint8_t m[IB_MAD_SIZE];
		enum sma_drop why = OK;
		bool ok;

		dr_build(m, c);
		ok = reply ? sma_dr_reply(m, 2, &why) : sma_dr_recv(m, 2, &why);
		if (ok != (c->expect == OK) || (!ok && why != c->expect) ||
		    mad_get_field(m, 0, IB_DRSMP_HOPPTR_F) != c->hp_after ||
		    (c->rp_check && m[192 + c->rp_check] != 2)) {
			fprintf(stderr, "case %s: ok %d why %s hop_ptr %u\n", c->name, ok,
				sma_drop_name(why), mad_get_field(m, 0, IB_DRSMP_HOPPTR_F));
			CU_FAIL("DR case");
		}
	}
}

static void test_recv_table(void)
{
	run_cases(recv_cases, sizeof(recv_cases) / sizeof(recv_cases[0]), false);
}

static void test_reply_table(void)
{
	run_cases(reply_cases, sizeof(reply_cases) / sizeof(reply_cases[0]), true);
}

/* Every receive branch seen through sma_process(): the drop reason is the rule's. */
static void test_process_drops(void)
{
	struct sma *s = t_sma(2);

	for (size_t i = 0; i < sizeof(recv_cases) / sizeof(recv_cases[0]); i++) {
		const struct dr_case *c = &recv_cases[i];
		uint8_t m[IB_MAD_SIZE], rep[IB_MAD_SIZE];
		enum sma_drop why = OK;
		enum sma_verdict v;

		dr_build(m, c);
		v = t_run_at(s, 2, m, rep, 0, &why);
		if (c->expect != OK) {
			CU_ASSERT(v == SMA_DISCARD && why == c->expect);
		} else if (c->d) {
			CU_ASSERT(v == SMA_DISCARD && why == SMA_DROP_DR_RETURNING);
		} else if (c->dlid == P) { /* C14-9:3 */
			CU_ASSERT(v == SMA_REPLY);
		}
	}
	sma_free(s);
}

/* Zero hops from the local SM: reply D=1, HopPointer 0, permissive LRH. */
static void test_zero_hop_reply(void)
{
	struct sma *s = t_sma(2);
	uint8_t m[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	struct sma_rx rx = { .port = 1, .slid = 0xFFFF };
	struct sma_tx tx;

	t_smp(m, 1, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 0xAABBCCDD00112233ull);
	CU_ASSERT_EQUAL(sma_process(s, &rx, m, sizeof(m), rep, &tx, NULL), SMA_REPLY);
	CU_ASSERT(t_is_getresp(rep, IB_ATTR_NODE_INFO, 0, 0xAABBCCDD00112233ull));
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_DRSMP_DIRECTION_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_DRSMP_HOPPTR_F), 0);
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_DRSMP_HOPCNT_F), 0);
	CU_ASSERT_EQUAL(t_status(rep), 0);
	CU_ASSERT(tx.port == 1 && tx.dlid == 0xFFFF && tx.slid == 0xFFFF);
	sma_free(s);
}

/* Three hops: arrives with HopPointer 3, reply leaves with 3 and ReturnPath[3] = port. */
static void test_three_hop_reply(void)
{
	struct sma *s = t_sma(2);
	uint8_t m[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	static const uint8_t path[3] = { 1, 4, 7 };

	t_smp(m, 1, IB_MAD_METHOD_GET, IB_ATTR_PORT_INFO, 2, 42);
	mad_set_field(m, 0, IB_DRSMP_HOPCNT_F, 3);
	mad_set_field(m, 0, IB_DRSMP_HOPPTR_F, 3);
	memcpy(m + 128 + 1, path, 3);
	m[192 + 1] = 3; /* written by the switches on the way */
	m[192 + 2] = 5;
	CU_ASSERT_EQUAL(t_run_at(s, 2, m, rep, 0, NULL), SMA_REPLY);
	CU_ASSERT(t_is_getresp(rep, IB_ATTR_PORT_INFO, 2, 42));
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_DRSMP_DIRECTION_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_DRSMP_HOPPTR_F), 3);
	CU_ASSERT(rep[192 + 1] == 3 && rep[192 + 2] == 5 && rep[192 + 3] == 2);
	CU_ASSERT(memcmp(rep + 129, path, 3) == 0);
	sma_free(s);
}

/* Zero hops with a LID-routed first part the reply cannot take back: dropped. */
static void test_zero_hop_drslid(void)
{
	struct sma *s = t_sma(1);
	uint8_t m[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	enum sma_drop why;

	t_smp(m, 1, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 1);
	mad_set_field(m, 0, IB_DRSMP_DRSLID_F, 5);
	CU_ASSERT_EQUAL(t_run_at(s, 1, m, rep, 0, &why), SMA_DISCARD);
	CU_ASSERT_EQUAL(why, SMA_DROP_DR_REPLY);
	CU_ASSERT_EQUAL(sma_counters_get(s)->drops[SMA_DROP_DR_REPLY], 1);
	sma_free(s);
}

/* C14-9:4: a LID-routed last part; the reply goes LID routed to the request's SLID. */
static void test_lid_routed_tail(void)
{
	struct sma *s = t_sma(1);
	uint8_t m[IB_MAD_SIZE], rep[IB_MAD_SIZE], pi[IB_SMP_DATA_SIZE];
	struct sma_rx rx = { .port = 1, .slid = 0x20 };
	struct sma_tx tx;

	sma_port_set_link(s, 1, true, 0);
	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_LID_F, 0x31);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	t_smp(m, 1, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 9);
	mad_set_field(m, 0, IB_DRSMP_HOPCNT_F, 2);
	mad_set_field(m, 0, IB_DRSMP_HOPPTR_F, 3);
	mad_set_field(m, 0, IB_DRSMP_DRDLID_F, 0x31);
	CU_ASSERT_EQUAL(sma_process(s, &rx, m, sizeof(m), rep, &tx, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_DRSMP_HOPPTR_F), 3);
	CU_ASSERT(tx.dlid == 0x20 && tx.slid == 0x31);
	sma_free(s);
}

/* LID-routed SMPs: the reply returns to the request's SLID from the port's LID. */
static void test_lid_routed_reply(void)
{
	struct sma *s = t_sma(1);
	uint8_t m[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	struct sma_rx rx = { .port = 1, .slid = 0x11 };
	struct sma_tx tx;

	t_smp(m, 0, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 9);
	CU_ASSERT_EQUAL(sma_process(s, &rx, m, sizeof(m), rep, &tx, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_MAD_MGMTCLASS_F), IB_SMI_CLASS);
	CU_ASSERT(tx.dlid == 0x11 && tx.slid == 0xFFFF); /* no LID yet */
	sma_free(s);
}

static CU_TestInfo tests[] = {
	{ "receive rules table (C14-9, C14-13)", test_recv_table },
	{ "reply send rules table", test_reply_table },
	{ "receive rules through sma_process", test_process_drops },
	{ "zero-hop reply", test_zero_hop_reply },
	{ "three-hop reply", test_three_hop_reply },
	{ "zero hops, DrSLID not permissive", test_zero_hop_drslid },
	{ "LID-routed last part", test_lid_routed_tail },
	{ "LID-routed SMP reply addresses", test_lid_routed_reply },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_dr", tests);
}
