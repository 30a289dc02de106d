/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for the SMA's vendor tables in daemon/port/ibrd_sma.c as an SM
 * reads them (NextHopTable and RouterInfo Gets through sma_process, after
 * ibrd_sma_tables_fresh as both SMP paths call it): from a RIB of 3000
 * routes -- through every port, several next hops, preferred sources,
 * aggregates, another site -- the records and the top are what a walk of
 * the whole RIB gives (the walk that built them before it stopped at the
 * cap); under a burst of changes they are rebuilt at their pace, the loop
 * told when (ibrd_sync_deadline), and before an SMP that reads them, never
 * before one that does not.
 */
#include "daemon/ibrd.h"
#include "daemon/port/ibrd_port.h"
#include "tests/unit/daemon/ibrd_fix.h"
#include "sma/sma.h"
#include "sma/sma_vendor.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_mad.h"

#include <infiniband/mad.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NH_CAP 1024 /* RouterInfo:NextHopTableCap, as ibrd_sma.c gives it */

static const char conf_text[] =
	"router { node-guid = 0x0002c90300000100 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\"\n"
	"\tpkeys = { 0xffff, 0x8001 } }\n"
	"port \"c\" { data = none lid = 3 subnet-prefix = \"2001:db8:0:3::\" site = \"elsewhere\" "
	"}\n";

static struct ibrd *d;
static unsigned long long seed = 0x5a5a1234ull;

struct nh_rec {
	uint64_t prefix;
	uint16_t pkey;
	uint8_t weight;
};

static int setup(void)
{
	return (d = ibrd_fix_new(conf_text, "sma.conf")) ? 0 : -1;
}

static int teardown(void)
{
	ibrd_fix_free(d);
	return 0;
}

/* A Get of `attr` (block `mod`) by directed route at port `port`, answered: the reply. */
static void smp_get(unsigned port, unsigned attr, uint32_t mod, uint8_t *rep)
{
	uint8_t req[IB_MAD_SIZE];
	struct sma_rx rx = { .port = (uint8_t)port, .slid = 0xFFFF, .now_ns = 1 };
	struct sma_tx tx;

	memset(req, 0, sizeof(req));
	mad_set_field(req, 0, IB_MAD_BASEVER_F, 1);
	mad_set_field(req, 0, IB_MAD_MGMTCLASS_F, IB_SMI_DIRECT_CLASS);
	mad_set_field(req, 0, IB_MAD_CLASSVER_F, 1);
	mad_set_field(req, 0, IB_MAD_METHOD_F, IB_MAD_METHOD_GET);
	mad_set_field64(req, 0, IB_MAD_TRID_F, 0x1234);
	mad_set_field(req, 0, IB_MAD_ATTRID_F, attr);
	mad_set_field(req, 0, IB_MAD_ATTRMOD_F, mod);
	mad_set_field(req, 0, IB_DRSMP_DRSLID_F, 0xFFFF);
	mad_set_field(req, 0, IB_DRSMP_DRDLID_F, 0xFFFF);
	ibrd_sma_tables_fresh(d, req); /* as the SMP paths do, first */
	CU_ASSERT_EQUAL_FATAL(sma_process(d->agents->sma, &rx, req, sizeof(req), rep, &tx, NULL),
			      SMA_REPLY);
	CU_ASSERT_EQUAL(mad_get_field(rep, 0, IB_DRSMP_STATUS_F), 0);
}

/* RouterInfo of port `port`: its NextHopTableTop and TableChanges. */
static void router_info(unsigned port, uint32_t *top, uint16_t *changes)
{
	uint8_t rep[IB_MAD_SIZE];

	smp_get(port, IBR_SMP_ATTR_ROUTER_INFO, 0, rep);
	*top = (uint32_t)sma_vfield_get(rep + IB_SMP_DATA_OFFS,
					&sma_vendor_ri_fields[SMA_RI_NEXT_HOP_TABLE_TOP]);
	*changes = (uint16_t)sma_vfield_get(rep + IB_SMP_DATA_OFFS,
					    &sma_vendor_ri_fields[SMA_RI_TABLE_CHANGES]);
}

/* The NextHopTable of port `port` as an SM reads it, block by block up to `top`. */
static unsigned next_hops(unsigned port, uint32_t top, struct nh_rec *out)
{
	uint8_t rep[IB_MAD_SIZE];
	unsigned n = 0;

	for (uint32_t b = 0; b * SMA_NH_PER_BLOCK < top; b++) {
		smp_get(port, IBR_SMP_ATTR_NEXT_HOP_TABLE, b, rep);
		for (unsigned i = 0; i < SMA_NH_PER_BLOCK && n < top; i++, n++) {
			const uint8_t *r = rep + IB_SMP_DATA_OFFS + i * SMA_NH_RECORD_SIZE;

			out[n].prefix = sma_vfield_get(r,
						       &sma_vendor_nh_fields[SMA_NH_SUBNET_PREFIX]);
			out[n].pkey = (uint16_t)sma_vfield_get(r,
							       &sma_vendor_nh_fields[SMA_NH_PKEY]);
			out[n].weight = (uint8_t)sma_vfield_get(
				r, &sma_vendor_nh_fields[SMA_NH_WEIGHT]);
		}
	}
	return n;
}

/*
 * The reference: every route of the RIB in its order, as the SM of port
 * index `idx` holds it (router_export_kind), by a port that forwards, a
 * record per P_Key that may leave there, the first NH_CAP kept; the count
 * of them all.
 */
static uint32_t reference(uint32_t idx, struct nh_rec *out)
{
	const struct router_route *r;
	uint32_t pos = 0, n = 0;

	while ((r = router_tab_next(&d->rib.routes, &pos))) {
		const struct router_port *via;
		static const uint16_t def = 0xFFFF;
		const uint16_t *pk = &def;
		unsigned npk = 1;
		uint8_t weight;

		if (r->nh.port >= d->rib.nports ||
		    router_export_kind(&d->rib, idx, r) != ROUTER_EXPORT_LINE)
			continue;
		via = &d->rib.port[r->nh.port];
		if (!(via->flags & ROUTER_PORT_UP) || !via->lid)
			continue;
		if ((via->flags & ROUTER_PORT_PKEY_CHECK) && via->npkeys)
			pk = via->pkeys, npk = via->npkeys;
		/* a metric is a cost, a weight the SM's preference: metric 0 is weight 255 */
		weight = (uint8_t)(255 - (r->metric < 254 ? r->metric : 254));
		for (unsigned k = 0; k < npk; k++, n++)
			if (n < NH_CAP)
				out[n] = (struct nh_rec){ .prefix = r->key.prefix,
							  .pkey = pk[k],
							  .weight = weight };
	}
	return n;
}

static void tables_as_walked(void)
{
	static struct nh_rec got[NH_CAP], want[NH_CAP];

	for (uint32_t idx = 0; idx < d->rib.nports; idx++) {
		uint32_t total = reference(idx, want), top, n;
		uint16_t changes;

		router_info(idx + 1, &top, &changes);
		CU_ASSERT_EQUAL(top, total < NH_CAP ? total : NH_CAP);
		n = next_hops(idx + 1, top, got);
		CU_ASSERT_EQUAL_FATAL(n, top);
		for (uint32_t i = 0; i < n; i++)
			CU_ASSERT(got[i].prefix == want[i].prefix && got[i].pkey == want[i].pkey &&
				  got[i].weight == want[i].weight);
	}
}

/* Route `prefix`/`plen` of `src` through next routers on `ports` (a port index a nibble). */
static void route(uint64_t prefix, uint8_t plen, uint8_t src, unsigned nnh, unsigned ports,
		  uint32_t metric)
{
	struct router_nh nhs[ROUTER_ECMP_MAX];
	struct router_route r;

	memset(&r, 0, sizeof(r));
	r.key.prefix = plen ? prefix & ~0ull << (64 - plen) : 0;
	r.key.plen = plen;
	r.key.source = src;
	r.metric = metric;
	for (unsigned i = 0; i < nnh; i++)
		nhs[i] = (struct router_nh){ .port = (uint8_t)(ports >> (4 * i) & 0xF),
					     .kind = ROUTER_NH_ROUTER,
					     .lid = (uint16_t)(0x40 + i) };
	CU_ASSERT_EQUAL(router_rib_route_add_nhs(&d->rib, &r, nhs, nnh), 0);
}

static void test_tables(void)
{
	for (unsigned i = 0; i < 3000; i++) {
		unsigned long long x = ibr_test_rand(&seed);
		uint64_t prefix = x % 4 ? 0x2001000000000000ull | (x >> 20)	  /* global */
					: 0xfec0000000000000ull | (x >> 40) << 8; /* site-local */
		uint8_t plen = x % 13 ? 64 : x % 2 ? 48 : 0;
		unsigned nnh = x % 11 ? 1 : 2, ports = (unsigned)(x >> 8) % 3;

		if (nnh == 2)
			ports |= ((ports + 1 + (unsigned)(x >> 12) % 2) % 3) << 4;
		route(prefix, plen, ROUTER_SRC_SA, nnh, ports, (uint32_t)(x >> 16) % 300);
		if (x % 7 == 0) /* a preferred source through another port */
			route(prefix, plen, ROUTER_SRC_STATIC, 1, (ports + 1) % 3, 3);
		if (x % 17 == 0) /* and a worse one, never listed */
			route(prefix, plen, ROUTER_SRC_PEER, 1, (ports + 2) % 3, 5);
	}
	ibrd_rib_changed(d);
	ibrd_sync_run(d);
	CU_ASSERT_EQUAL_FATAL(ibrd_sma_start(d), 0);
	tables_as_walked();
}

/*
 * A burst of changes: the tables wait for their pace, the loop is told
 * when; an SMP that does not read them leaves them waiting, RouterInfo
 * has them rebuilt first (and sees that they changed).
 */
static void test_pace(void)
{
	static struct nh_rec want[NH_CAP];
	const uint64_t later = UINT64_MAX - 1;
	struct ibrd_pace p = { 0 };
	uint8_t rep[IB_MAD_SIZE];
	uint16_t changes;
	uint32_t top, i;

	ibrd_sync_run(d);
	CU_ASSERT_FALSE(d->agents->sma_tables_wait);
	CU_ASSERT_EQUAL(ibrd_sync_deadline(d), UINT64_MAX);
	router_info(1, &top, &changes);	     /* read: the mask clear */
	d->agents->sma_pace.next_ns = later; /* the last rebuild just ran */
	/* the route of a's first record (not a connected one), static through b, metric 100 */
	reference(0, want);
	for (i = 0;
	     want[i].prefix == d->rib.port[1].prefix || want[i].prefix == d->rib.port[2].prefix;
	     i++)
		;
	route(want[i].prefix, 64, ROUTER_SRC_STATIC, 1, 1, 100);
	ibrd_rib_changed(d);
	ibrd_sync_run(d);
	CU_ASSERT_TRUE(d->agents->sma_tables_wait);
	CU_ASSERT_EQUAL(ibrd_sma_deadline(d), later);
	CU_ASSERT_EQUAL(ibrd_sync_deadline(d), later);
	smp_get(1, IB_ATTR_PORT_INFO, 0, rep);
	CU_ASSERT_TRUE(d->agents->sma_tables_wait);
	router_info(1, &top, &changes);
	CU_ASSERT_FALSE(d->agents->sma_tables_wait);
	CU_ASSERT_EQUAL(changes, SMA_RI_CHANGE_NH);
	CU_ASSERT_EQUAL(ibrd_sync_deadline(d), UINT64_MAX);
	tables_as_walked();
	/* the gap after a run: ten times what it took, at least 100 ms */
	ibrd_pace_done(&p, 1000, 1000 + 5000000);
	CU_ASSERT_EQUAL(p.next_ns, 1000 + 5000000 + IBRD_PACE_MIN_NS);
	CU_ASSERT_FALSE(ibrd_pace_due(&p, p.next_ns - 1));
	CU_ASSERT_TRUE(ibrd_pace_due(&p, p.next_ns));
	ibrd_pace_done(&p, 0, 30000000);
	CU_ASSERT_EQUAL(p.next_ns, 30000000 + 300000000);
}

int main(void)
{
	CU_TestInfo tests[] = {
		{ "NextHopTable: what the whole RIB's walk gives, to the cap", test_tables },
		{ "the tables' pace, and fresh for the SMPs that read them", test_pace },
		CU_TEST_INFO_NULL,
	};

	return ibr_test_run_fixture("ibrd_sma", tests, setup, teardown);
}
