/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for sma/sma_pma.c, the PerfMgt agent: ClassPortInfo, PortCounters
 * and PortCountersExtended in IBA 16.1's layout (read back with libibmad's
 * field tables, as perfquery reads them), counts since the last clear, data
 * in 4-byte words, saturation, CounterSelect on a Set, AllPortSelect, the
 * error statuses, what is dropped, the requests counted by port, and clears
 * and counts that follow their port.
 */
#include "lib/ibr_mad.h"
#include "sma/sma_pma.h"
#include "tests/unit/ibr_test.h"

#include <infiniband/mad.h>
#include <string.h>

static struct sma_pma_counts tot[3]; /* the router's totals per port */

static void counts(void *arg, uint8_t port, struct sma_pma_counts *out)
{
	(void)arg;
	*out = tot[port - 1];
}

static const struct sma_pma_ops ops = { .counts = counts };

static void req(uint8_t *m, uint8_t method, uint16_t attr, uint8_t psel, uint16_t csel)
{
	ibr_mad_build(m, IBR_MGMT_CLASS_PERF, method, attr, 0, 0xABCD);
	m[SMA_PMA_DATA_OFFS + 1] = psel;
	ibr_mad_st16(m + SMA_PMA_DATA_OFFS + 2, csel);
}

/* A request answered: its reply, status checked. */
static uint8_t *ask(struct sma_pma *p, uint8_t method, uint16_t attr, uint8_t psel, uint16_t csel,
		    uint16_t status)
{
	static uint8_t r[IBR_MAD_SIZE];
	uint8_t m[IBR_MAD_SIZE];

	req(m, method, attr, psel, csel);
	CU_ASSERT_EQUAL_FATAL(sma_pma_process(p, 1, m, sizeof(m), r), SMA_PMA_REPLY);
	CU_ASSERT_EQUAL(ibr_mad_method(r), IBR_MAD_METHOD_GET_RESP);
	CU_ASSERT_EQUAL(ibr_mad_tid(r), 0xABCD);
	CU_ASSERT_EQUAL(ibr_mad_status(r), status);
	return r + SMA_PMA_DATA_OFFS;
}

static uint32_t f(uint8_t *d, enum MAD_FIELDS fld)
{
	return mad_get_field(d, 0, fld);
}

static uint64_t f64(uint8_t *d, enum MAD_FIELDS fld)
{
	return mad_get_field64(d, 0, fld);
}

static void test_class_port_info(void)
{
	struct sma_pma *p = sma_pma_new(2, &ops);
	uint8_t *d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_CLASS_PORT_INFO, 0, 0, 0);

	CU_ASSERT_EQUAL(f(d, IB_CPI_BASEVER_F), 1);
	CU_ASSERT_EQUAL(f(d, IB_CPI_CLASSVER_F), 1);
	/* AllPortSelect and IsExtendedWidthSupportedNoIETF, as perfquery tests them */
	CU_ASSERT_EQUAL(f(d, IB_CPI_CAPMASK_F), 0x0500);
	CU_ASSERT_EQUAL(f(d, IB_CPI_RESP_TIME_VALUE_F), 18);
	ask(p, IBR_MAD_METHOD_SET, SMA_PMA_ATTR_CLASS_PORT_INFO, 0, 0,
	    IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	sma_pma_free(p);
}

static void test_counters_and_clear(void)
{
	struct sma_pma *p = sma_pma_new(2, &ops);
	uint8_t *d;

	memset(tot, 0, sizeof(tot));
	tot[1] = (struct sma_pma_counts){ .xmit_bytes = 33000,
					  .rcv_bytes = 4000,
					  .xmit_pkts = 100,
					  .rcv_pkts = 12,
					  .rcv_errors = 70000, /* past 16 bits: saturates */
					  .rcv_relay_errors = 3,
					  .rcv_constraint_errors = 300, /* past 8 bits */
					  .xmit_discards = 5,
					  .vl15_dropped = 2 };
	d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 2, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_PORT_SELECT_F), 2);
	CU_ASSERT_EQUAL(f(d, IB_PC_XMT_BYTES_F), 8250); /* 33000 octets / 4 */
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_BYTES_F), 1000);
	CU_ASSERT_EQUAL(f(d, IB_PC_XMT_PKTS_F), 100);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 12);
	CU_ASSERT_EQUAL(f(d, IB_PC_ERR_RCV_F), 0xFFFF);
	CU_ASSERT_EQUAL(f(d, IB_PC_ERR_SWITCH_REL_F), 3);
	CU_ASSERT_EQUAL(f(d, IB_PC_ERR_RCVCONSTR_F), 0xFF);
	CU_ASSERT_EQUAL(f(d, IB_PC_XMT_DISCARDS_F), 5);
	CU_ASSERT_EQUAL(f(d, IB_PC_VL15_DROPPED_F), 2);
	CU_ASSERT_EQUAL(f(d, IB_PC_ERR_SYM_F), 0);
	d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS_X, 2, 0, 0);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_XMT_BYTES_F), 8250);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_RCV_BYTES_F), 1000);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_XMT_PKTS_F), 100);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_RCV_PKTS_F), 12);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_XMT_UPKTS_F), 0); /* not kept (NoIETF) */
	/* a Set clears what CounterSelect names (PortXmitPkts, PortRcvErrors) and reports after */
	d = ask(p, IBR_MAD_METHOD_SET, SMA_PMA_ATTR_PORT_COUNTERS, 2, 0x4008, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_XMT_PKTS_F), 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_ERR_RCV_F), 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 12);
	tot[1].xmit_pkts += 7;
	tot[1].xmit_bytes += 400;
	d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 2, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_XMT_PKTS_F), 7);
	CU_ASSERT_EQUAL(f(d, IB_PC_XMT_BYTES_F), 8350);
	/* the extended Set clears the data counts (bit 0: PortXmitData) */
	d = ask(p, IBR_MAD_METHOD_SET, SMA_PMA_ATTR_PORT_COUNTERS_X, 2, 0x0001, 0);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_XMT_BYTES_F), 0);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_XMT_PKTS_F), 7);
	/* a total below its baseline (the daemon restarted its count) reads 0, not 2^64 - x */
	tot[1].rcv_pkts = 0;
	d = ask(p, IBR_MAD_METHOD_SET, SMA_PMA_ATTR_PORT_COUNTERS, 2, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 0);
	sma_pma_free(p);
}

/* 32-bit data saturates; AllPortSelect sums the ports and clears them all. */
static void test_saturation_and_all_ports(void)
{
	struct sma_pma *p = sma_pma_new(2, &ops);
	uint8_t *d;

	memset(tot, 0, sizeof(tot));
	tot[0].xmit_bytes = 4ull << 34; /* 2^34 words */
	tot[0].rcv_pkts = 10;
	tot[1].rcv_pkts = 5;
	d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 1, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_XMT_BYTES_F), 0xFFFFFFFFu);
	d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS_X, 1, 0, 0);
	CU_ASSERT_EQUAL(f64(d, IB_PC_EXT_XMT_BYTES_F), 1ull << 34);
	d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 0xFF, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_PORT_SELECT_F), 0xFF);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 15);
	d = ask(p, IBR_MAD_METHOD_SET, SMA_PMA_ATTR_PORT_COUNTERS, 0xFF, 0xFFFF, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 0);
	d = ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 2, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 0);
	sma_pma_free(p);
}

/* Statuses of what the agent cannot serve; what it does not answer at all. */
static void test_errors_and_drops(void)
{
	struct sma_pma *p = sma_pma_new(2, &ops);
	uint8_t m[IBR_MAD_SIZE], r[IBR_MAD_SIZE];

	ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 3, 0, IBR_MAD_STATUS_INVALID_FIELD);
	ask(p, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 0, 0, IBR_MAD_STATUS_INVALID_FIELD);
	ask(p, IBR_MAD_METHOD_GET, 0x0010 /* PortSamplesControl */, 1, 0,
	    IBR_MAD_STATUS_UNSUP_METHOD_ATTR);
	ask(p, 0x06 /* Trap */, SMA_PMA_ATTR_PORT_COUNTERS, 1, 0, IBR_MAD_STATUS_UNSUP_METHOD);
	req(m, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 1, 0);
	ibr_mad_set_class_version(m, 2);
	CU_ASSERT_EQUAL(sma_pma_process(p, 1, m, sizeof(m), r), SMA_PMA_REPLY);
	CU_ASSERT_EQUAL(ibr_mad_status(r), IBR_MAD_STATUS_BAD_VERSION);
	/* dropped: a response, another class, another base version, a short MAD */
	CU_ASSERT_EQUAL(sma_pma_process(p, 1, r, sizeof(r), m), SMA_PMA_DROP);
	req(m, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 1, 0);
	ibr_mad_set_mgmt_class(m, IBR_MGMT_CLASS_SUBN_ADM);
	CU_ASSERT_EQUAL(sma_pma_process(p, 1, m, sizeof(m), r), SMA_PMA_DROP);
	req(m, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 1, 0);
	ibr_mad_set_base_version(m, 2);
	CU_ASSERT_EQUAL(sma_pma_process(p, 1, m, sizeof(m), r), SMA_PMA_DROP);
	req(m, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 1, 0);
	CU_ASSERT_EQUAL(sma_pma_process(p, 1, m, 100, r), SMA_PMA_DROP);
	/* the requests answered, by arrival port: the five above, not the drops */
	CU_ASSERT_EQUAL(sma_pma_gmps(p, 1), 5);
	CU_ASSERT_EQUAL(sma_pma_gmps(p, 2), 0);
	CU_ASSERT_EQUAL(sma_pma_gmps(p, 3), 0);
	CU_ASSERT_EQUAL(sma_pma_gmps(NULL, 1), 0);
	sma_pma_free(p);
}

/* After a reload the clears follow their ports; a new port starts from its totals. */
static void test_renew(void)
{
	struct sma_pma *p = sma_pma_new(2, &ops), *q;
	const int from[3] = { 1, -1, 0 }; /* new 0 was old 1 (b), new 2 was old 0 (a) */
	uint8_t *d;

	memset(tot, 0, sizeof(tot));
	tot[0].rcv_pkts = 10;
	tot[1].rcv_pkts = 20;
	ask(p, IBR_MAD_METHOD_SET, SMA_PMA_ATTR_PORT_COUNTERS, 0xFF, 0xFFFF, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(q = sma_pma_renew(p, 3, from, &ops));
	sma_pma_free(p);
	CU_ASSERT_EQUAL(sma_pma_gmps(q, 3), 1); /* a's Set, with a */
	CU_ASSERT_EQUAL(sma_pma_gmps(q, 1), 0);
	tot[0].rcv_pkts = 21; /* b's, now port 1: cleared at 20 */
	tot[1].rcv_pkts = 4;  /* new */
	tot[2].rcv_pkts = 13; /* a's, now port 3: cleared at 10 */
	d = ask(q, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 1, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 1);
	d = ask(q, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 2, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 4);
	d = ask(q, IBR_MAD_METHOD_GET, SMA_PMA_ATTR_PORT_COUNTERS, 3, 0, 0);
	CU_ASSERT_EQUAL(f(d, IB_PC_RCV_PKTS_F), 3);
	sma_pma_free(q);
}

static CU_TestInfo tests[] = {
	{ "ClassPortInfo", test_class_port_info },
	{ "counters, units, clears", test_counters_and_clear },
	{ "saturation, AllPortSelect", test_saturation_and_all_ports },
	{ "error statuses and drops", test_errors_and_drops },
	{ "clears follow their ports", test_renew },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_pma", tests);
}
