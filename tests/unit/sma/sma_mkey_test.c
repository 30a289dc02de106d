/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_mkey_test.c - M_Key protection (sma/sma_mkey.c, IBA 14.2.4): a walk
 * over every protection level x Get/Set/TrapRepress x right/wrong/no key,
 * the lease timer (expiry clears the protection, a good key stops it, a
 * zero period never expires), the violation counter, the trap 256 event
 * and the trap MAD decoded with libibmad's Notice fields.
 */
#include "tests/unit/sma/sma_test.h"

#define KEY 0x0123456789ABCDEFull
#define SEC 1000000000ull

/* Port 1 with M_Key KEY, protection `prot`, lease `lease` s, LID 5, SM LID 1. */
static struct sma *mkey_sma(unsigned int prot, unsigned int lease)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	t_pi_rmw(s, pi);
	mad_set_field64(pi, 0, IB_PORT_MKEY_F, KEY);
	mad_set_field(pi, 0, IB_PORT_MKEY_PROT_BITS_F, prot);
	mad_set_field(pi, 0, IB_PORT_MKEY_LEASE_F, lease);
	mad_set_field(pi, 0, IB_PORT_LID_F, 5);
	mad_set_field(pi, 0, IB_PORT_SMLID_F, 1);
	t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep);
	t_nev = 0;
	return s;
}

/* One SMP with M_Key `key` at time now: reply? and the PortInfo M_Key shown. */
static enum sma_verdict mkey_try(struct sma *s, unsigned int method, uint64_t key, uint64_t now,
				 uint64_t *shown)
{
	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	enum sma_verdict v;

	if (method == IB_MAD_METHOD_SET) {
		/* the data: the current PortInfo, read with the right key (no violation) */
		t_smp(req, 1, IB_MAD_METHOD_GET, IB_ATTR_PORT_INFO, 1, 2);
		mad_set_field64(req, 0, IB_MAD_MKEY_F, KEY);
		CU_ASSERT_EQUAL_FATAL(t_run_at(s, 1, req, rep, now, NULL), SMA_REPLY);
	}
	t_smp(req, 1, method, IB_ATTR_PORT_INFO, 1, 3);
	mad_set_field64(req, 0, IB_MAD_MKEY_F, key);
	if (method == IB_MAD_METHOD_SET) {
		memcpy(t_data(req), t_data(rep), IB_SMP_DATA_SIZE);
		mad_set_field(t_data(req), 0, IB_PORT_STATE_F, 0);
		mad_set_field(t_data(req), 0, IB_PORT_PHYS_STATE_F, 0);
	}
	v = t_run_at(s, 1, req, rep, now, NULL);
	if (v == SMA_REPLY && shown)
		*shown = mad_get_field64(t_data(rep), 0, IB_PORT_MKEY_F);
	return v;
}

static void test_level_walk(void)
{
	/* per level: wrong-key Get answered?, M_Key shown on it? */
	static const struct {
		bool get_ok, shown;
	} lv[4] = { { true, true }, { true, false }, { false, false }, { false, false } };

	for (unsigned int prot = 0; prot < 4; prot++) {
		struct sma *s = mkey_sma(prot, 0);
		uint64_t shown = 1;
		unsigned int viol = 0;

		/* the right key: everything works, M_Key shown */
		CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_GET, KEY, 0, &shown), SMA_REPLY);
		CU_ASSERT_EQUAL(shown, KEY);
		CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_SET, KEY, 0, &shown), SMA_REPLY);
		/* a wrong key (and no key) */
		for (uint64_t bad = 0; bad <= 1; bad++) {
			shown = 1;
			CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_GET, bad, 0, &shown),
					lv[prot].get_ok ? SMA_REPLY : SMA_DISCARD);
			if (lv[prot].get_ok) {
				CU_ASSERT_EQUAL(shown, lv[prot].shown ? KEY : 0);
			} else {
				viol++;
			}
			CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_SET, bad, 0, NULL), SMA_DISCARD);
			viol++;
			CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_TRAP_REPRESS, bad, 0, NULL),
					SMA_DISCARD);
			viol++;
		}
		CU_ASSERT_EQUAL(sma_counters_get(s)->mkey_violations, viol);
		CU_ASSERT_EQUAL(sma_counters_get(s)->drops[SMA_DROP_MKEY], viol);
		CU_ASSERT_EQUAL(t_ev_count(SMA_EV_TRAP_BAD_MKEY, NULL), viol);
		CU_ASSERT_EQUAL(sma_counters_get(s)->traps, viol);
		{
			struct sma_port_view v;

			sma_port_get(s, 1, &v);
			CU_ASSERT_EQUAL(v.mkey_violations, viol);
		}
		sma_free(s);
	}
}

/* M_Key 0: no protection whatever the bits say. */
static void test_zero_key(void)
{
	struct sma *s = t_sma(1);
	uint8_t pi[IB_SMP_DATA_SIZE], rep[IB_MAD_SIZE];

	t_pi_rmw(s, pi);
	mad_set_field(pi, 0, IB_PORT_MKEY_PROT_BITS_F, 3);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_PORT_INFO, 1, pi, rep), 0);
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_SET, 77, 0, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(sma_counters_get(s)->mkey_violations, 0);
	sma_free(s);
}

static void test_lease(void)
{
	struct sma *s = mkey_sma(2, 10);
	struct sma_port_view v;

	/* a violation (a Get at level 2) at t=1 s starts the 10 s lease */
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_GET, 9, 1 * SEC, NULL), SMA_DISCARD);
	/* a later violation does not restart it */
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_GET, 9, 8 * SEC, NULL), SMA_DISCARD);
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_GET, 9, 11 * SEC - 1, NULL), SMA_DISCARD);
	/* expired at 11 s: protection bits 0, a wrong-key Get is answered */
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_GET, 9, 11 * SEC, NULL), SMA_REPLY);
	sma_port_get(s, 1, &v);
	CU_ASSERT_EQUAL(v.mkey_protect, 0);
	CU_ASSERT_EQUAL(v.mkey, KEY);
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_SET, 9, 12 * SEC, NULL), SMA_DISCARD);
	sma_free(s);

	/* a good key stops the timer */
	s = mkey_sma(2, 10);
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_SET, 9, 1 * SEC, NULL), SMA_DISCARD);
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_GET, KEY, 5 * SEC, NULL), SMA_REPLY);
	sma_tick(s, 100 * SEC);
	sma_port_get(s, 1, &v);
	CU_ASSERT_EQUAL(v.mkey_protect, 2);
	sma_free(s);

	/* lease period 0: never expires */
	s = mkey_sma(2, 0);
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_SET, 9, 1 * SEC, NULL), SMA_DISCARD);
	sma_tick(s, 100000 * SEC);
	sma_port_get(s, 1, &v);
	CU_ASSERT_EQUAL(v.mkey_protect, 2);
	sma_free(s);

	/* sma_tick() alone expires it */
	s = mkey_sma(3, 2);
	CU_ASSERT_EQUAL(mkey_try(s, IB_MAD_METHOD_SET, 9, 0, NULL), SMA_DISCARD);
	sma_tick(s, 2 * SEC);
	sma_port_get(s, 1, &v);
	CU_ASSERT_EQUAL(v.mkey_protect, 0);
	sma_free(s);
}

/* The trap event of a DR Set with a wrong key, and the trap MAD. */
static void test_trap(void)
{
	struct sma *s = mkey_sma(1, 0);
	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE], trap[IB_MAD_SIZE], *d = t_data(trap);
	struct sma_rx rx = { .port = 1, .slid = 0xFFFF };
	struct sma_tx tx;
	struct sma_event ev;

	t_smp(req, 1, IB_MAD_METHOD_SET, IB_ATTR_PKEY_TBL, 0, 3);
	mad_set_field64(req, 0, IB_MAD_MKEY_F, 0xBAD);
	mad_set_field(req, 0, IB_DRSMP_HOPCNT_F, 2);
	mad_set_field(req, 0, IB_DRSMP_HOPPTR_F, 2);
	req[192 + 1] = 6;
	CU_ASSERT_EQUAL(sma_process(s, &rx, req, sizeof(req), rep, &tx, NULL), SMA_DISCARD);
	CU_ASSERT_EQUAL_FATAL(t_ev_count(SMA_EV_TRAP_BAD_MKEY, &ev), 1);
	CU_ASSERT(ev.port == 1 && ev.trap.lid == 0xFFFF && ev.trap.mkey == 0xBAD &&
		  ev.trap.method == IB_MAD_METHOD_SET && ev.trap.attr_id == IB_ATTR_PKEY_TBL &&
		  ev.trap.dr && ev.trap.hop_cnt == 2 && ev.trap.dr_slid == 0xFFFF &&
		  ev.trap.return_path[0] == 6 && ev.trap.return_path[1] == 1);
	CU_ASSERT_EQUAL(sma_trap_bad_mkey_build(s, &ev, 0x77, trap, &tx), 0);
	CU_ASSERT_EQUAL(mad_get_field(trap, 0, IB_MAD_MGMTCLASS_F), IB_SMI_CLASS);
	CU_ASSERT_EQUAL(mad_get_field(trap, 0, IB_MAD_METHOD_F), IB_MAD_METHOD_TRAP);
	CU_ASSERT_EQUAL(mad_get_field(trap, 0, IB_MAD_ATTRID_F), 0x0002);
	CU_ASSERT_EQUAL(mad_get_field64(trap, 0, IB_MAD_TRID_F), 0x77);
	CU_ASSERT_EQUAL(mad_get_field64(trap, 0, IB_MAD_MKEY_F), KEY);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NOTICE_IS_GENERIC_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NOTICE_TYPE_F), 2);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NOTICE_PRODUCER_F), 3);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NOTICE_TRAP_NUMBER_F), 256);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NOTICE_ISSUER_LID_F), 5);
	/* DataDetails as OpenSM's ntc_256 */
	CU_ASSERT(d[12] == 0xFF && d[13] == 0xFF && d[16] == IB_MAD_METHOD_SET);
	CU_ASSERT(d[18] == 0x00 && d[19] == IB_ATTR_PKEY_TBL);
	CU_ASSERT(d[31] == 0xAD && d[30] == 0x0B && d[33] == (0x80 | 2) && d[34] == 6 &&
		  d[35] == 1);
	CU_ASSERT(tx.port == 1 && tx.dlid == 1 && tx.slid == 5);
	sma_free(s);
}

/* No SM LID yet: the trap cannot be sent. */
static void test_trap_no_sm(void)
{
	struct sma *s = t_sma(1);
	struct sma_event ev = { .type = SMA_EV_TRAP_BAD_MKEY, .port = 1 };
	uint8_t trap[IB_MAD_SIZE];
	struct sma_tx tx;

	CU_ASSERT_EQUAL(sma_trap_bad_mkey_build(s, &ev, 1, trap, &tx), -EAGAIN);
	ev.port = 2;
	CU_ASSERT_EQUAL(sma_trap_bad_mkey_build(s, &ev, 1, trap, &tx), -EINVAL);
	ev.port = 1;
	ev.type = SMA_EV_LID;
	CU_ASSERT_EQUAL(sma_trap_bad_mkey_build(s, &ev, 1, trap, &tx), -EINVAL);
	sma_free(s);
}

/* TrapRepress with the right key: consumed, reported, no reply. */
static void test_trap_repress(void)
{
	struct sma *s = mkey_sma(1, 0);
	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	enum sma_drop why;
	struct sma_event ev;

	t_smp(req, 0, IB_MAD_METHOD_TRAP_REPRESS, 0x0002, 0, 3);
	mad_set_field64(req, 0, IB_MAD_MKEY_F, KEY);
	mad_set_field(t_data(req), 0, IB_NOTICE_TRAP_NUMBER_F, 256);
	CU_ASSERT_EQUAL(t_run_at(s, 1, req, rep, 0, &why), SMA_DISCARD);
	CU_ASSERT_EQUAL(why, SMA_DROP_TRAP_REPRESS);
	CU_ASSERT(t_ev_count(SMA_EV_TRAP_REPRESS, &ev) == 1 && ev.trap_number == 256);
	sma_free(s);
}

static CU_TestInfo tests[] = {
	{ "protection level walk", test_level_walk },
	{ "M_Key 0: no protection", test_zero_key },
	{ "lease timer", test_lease },
	{ "trap 256 event and MAD", test_trap },
	{ "trap without SM LID", test_trap_no_sm },
	{ "TrapRepress", test_trap_repress },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_mkey", tests);
}
