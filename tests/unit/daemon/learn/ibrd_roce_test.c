/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/learn/ibrd_roce.c with the bridging policy
 * (ibrd_mcast.c): port a an IB subnet (a fake view of its SA), port b a RoCE
 * port (no SA: its groups are the RIB's).  A group with members in A is
 * created on b with A's parameters (source "bridge") and removed when its
 * members go; a group the config or `mcast add` put on b counts as members
 * there, so it is joined in A, and is never removed by a leave.
 */
#include "daemon/learn/ibrd_learn.h"
#include "sa/sa_client.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_sa.h"

#include <stdio.h>
#include <string.h>

static struct ibrd d;
static struct ibrd_mcast mcast_room; /* d.mcast */
static struct sa_group grp[4];	     /* what A's SA lists */
static size_t ngrp;
static unsigned joins_a, leaves_a;
static uint32_t join_qkey_a;
static unsigned join_mtu_a, join_v4_a;

static size_t t_groups(struct ibrd *dd, uint32_t port, const struct sa_group **v)
{
	if (port == 1)
		return ibrd_roce_groups(dd, port, v);
	*v = grp;
	return ngrp;
}

static int t_join(struct ibrd *dd, uint32_t port, const struct sa_group *tmpl, uint8_t join_state)
{
	CU_ASSERT_EQUAL(join_state, IBR_SA_JOIN_FULL);
	if (port == 1)
		return ibrd_roce_join(dd, port, tmpl);
	joins_a++;
	join_qkey_a = tmpl->qkey;
	join_mtu_a = tmpl->mtu;
	join_v4_a += ibr_gid_raw_is_v4mcast(tmpl->mgid);
	return 0;
}

static void t_leave(struct ibrd *dd, uint32_t port, const uint8_t mgid[16], uint8_t join_state)
{
	(void)join_state; /* also from teardown's ibrd_mcast_stop(), outside a test */
	if (port == 1)
		ibrd_roce_leave(dd, port, mgid);
	else
		leaves_a++;
}

static const struct ibrd_mcast_ops ops = { t_groups, t_join, t_leave };

static const char conf_text[] =
	"router { node-guid = 0x2 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" }\n"
	"port \"b\" { data = none subnet-prefix = \"fd00:b::\" }\n"
	"multicast { scopes = { site, organisation, global } }\n";

static uint8_t mg[16];

static void mgid_set(const char *s)
{
	union ibr_gid g;

	CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(s, &g), 0);
	memcpy(mg, g.raw, 16);
}

static const struct router_mcast *on_b(void)
{
	struct router_mcast_key k;

	memset(&k, 0, sizeof(k));
	memcpy(k.mgid, mg, 16);
	k.port = 1;
	return router_tab_find(&d.rib.mcasts, &k);
}

static int setup(void)
{
	struct router_port rp;

	memset(&d, 0, sizeof(d));
	memset(&mcast_room, 0, sizeof(mcast_room));
	d.mcast = &mcast_room;
	d.conf = ibrd_conf_load_string(conf_text, "roce.conf", stderr);
	if (!d.conf)
		return 1;
	router_rib_init(&d.rib);
	for (unsigned i = 0; i < d.conf->nports; i++)
		if (router_rib_port_add(&d.rib, &d.conf->port[i].rp) < 0)
			return 1;
	rp = d.rib.port[1];
	rp.flags |= ROUTER_PORT_ROCE; /* as ibrd_verbs.c sets it from the HCA port's link layer */
	router_rib_port_set(&d.rib, 1, &rp);
	d.mcast->ops = &ops;
	return 0;
}

static int teardown(void)
{
	ibrd_mcast_stop(&d);
	router_rib_free(&d.rib);
	ibrd_conf_free(d.conf);
	return 0;
}

/* A group of A with members: created on b with A's parameters, once; gone with its members. */
static void test_bridged_from_ib(void)
{
	const struct router_mcast *m;

	mgid_set("ff15::1:20");
	memset(grp, 0, sizeof(grp));
	memcpy(grp[0].mgid, mg, 16);
	grp[0].mlid = 0xC123;
	grp[0].qkey = 0x1111;
	grp[0].pkey = 0x8001;
	grp[0].sl = 4;
	grp[0].tclass = 0x20;
	grp[0].flowlabel = 0x54321;
	grp[0].members = 2;
	grp[0].receivers = grp[0].senders = true;
	ngrp = 1;
	d.dirty = 0;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(joins_a, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m = on_b());
	CU_ASSERT_EQUAL(m->source, ROUTER_SRC_BRIDGE);
	CU_ASSERT_EQUAL(m->mlid, 0xC123); /* A's MLID: the router's name for it on b */
	CU_ASSERT_EQUAL(m->qkey, 0x1111);
	CU_ASSERT_EQUAL(m->pkey, 0x8001);
	CU_ASSERT_EQUAL(m->sl, 4);
	CU_ASSERT_EQUAL(m->tclass, 0x20);
	CU_ASSERT_EQUAL(m->flowlabel, 0x54321);
	CU_ASSERT_EQUAL(m->flags, ROUTER_MCAST_RECEIVERS | ROUTER_MCAST_SENDERS);
	CU_ASSERT(d.dirty & IBRD_DIRTY_FIB); /* compiled in this turn */
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
	/* again, and past the 5 s a join has to show: b lists it as ours, nothing new */
	for (unsigned i = 0; i < d.mcast->nmjoins; i++)
		d.mcast->mjoins[i].sent_ns -= 6000000000ull;
	d.dirty = 0;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
	CU_ASSERT_EQUAL(d.dirty, 0);
	CU_ASSERT_PTR_NOT_NULL(on_b());
	/* A's members leave (the router's own membership is left there) */
	grp[0].members = 0;
	grp[0].receivers = grp[0].senders = false;
	grp[0].ours = true;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(leaves_a, 1);
	CU_ASSERT_PTR_NULL(on_b());
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 0);
	CU_ASSERT(d.dirty & IBRD_DIRTY_FIB);
}

/* The config's group on b: members there, joined in A with its Q_Key; a leave keeps it. */
static void test_config_group_on_roce(void)
{
	struct router_mcast m = { .mlid = 0xC001,
				  .qkey = 0x77,
				  .pkey = 0xFFFF,
				  .flags = ROUTER_MCAST_SENDERS,
				  .mtu = 2048, /* bytes, as the config gives it */
				  .source = ROUTER_SRC_STATIC };

	mgid_set("ff15::1:21");
	ngrp = 0;
	joins_a = leaves_a = 0;
	memcpy(m.key.mgid, mg, 16);
	m.key.port = 1;
	CU_ASSERT_EQUAL_FATAL(router_rib_mcast_add(&d.rib, &m), 0);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(joins_a, 1);
	CU_ASSERT_EQUAL(join_qkey_a, 0x77);
	CU_ASSERT_EQUAL(join_mtu_a, 4);			    /* 2048 as an SA codes it; 0 before */
	CU_ASSERT_EQUAL(on_b()->source, ROUTER_SRC_STATIC); /* the config's stays as it was */
	ibrd_roce_leave(&d, 1, mg);
	CU_ASSERT_PTR_NOT_NULL(on_b());
	/* `mcast del` of it: no member left anywhere, the router leaves A */
	CU_ASSERT_EQUAL(router_rib_mcast_del(&d.rib, mg, 1), 0);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(leaves_a, 1);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 0);
}

/* An IPv4 group on RoCE is never joined in IB by ::ffff:a.b.c.d (an SA takes MGIDs only) */
static void test_v4_group_stays_on_roce(void)
{
	struct router_mcast m = { .mlid = 0xC002,
				  .qkey = 0x01234567,
				  .pkey = 0xFFFF,
				  .flags = ROUTER_MCAST_SENDERS | ROUTER_MCAST_RECEIVERS,
				  .mtu = 1024,
				  .source = ROUTER_SRC_STATIC };

	mgid_set("::ffff:239.1.1.1");
	ngrp = 0;
	joins_a = leaves_a = join_v4_a = 0;
	memcpy(m.key.mgid, mg, 16);
	m.key.port = 1;
	CU_ASSERT_EQUAL_FATAL(router_rib_mcast_add(&d.rib, &m), 0);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(joins_a, 0);
	CU_ASSERT_EQUAL(join_v4_a, 0);
	CU_ASSERT_EQUAL(router_rib_mcast_del(&d.rib, mg, 1), 0);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 0);
}

/* Link-local scope is never bridged onto RoCE either (IBA 8.3). */
static void test_link_local_stays(void)
{
	mgid_set("ff12::1:22");
	memset(grp, 0, sizeof(grp));
	memcpy(grp[0].mgid, mg, 16);
	grp[0].mlid = 0xC124;
	grp[0].members = 1;
	grp[0].receivers = grp[0].senders = true;
	ngrp = 1;
	ibrd_mcast_policy(&d);
	CU_ASSERT_PTR_NULL(on_b());
	ngrp = 0;
}

static CU_TestInfo tests[] = {
	{ "a group of an IB subnet bridged onto RoCE", test_bridged_from_ib },
	{ "a config group on RoCE joined in IB, kept", test_config_group_on_roce },
	{ "link-local scope stays", test_link_local_stays },
	{ "an IPv4 group stays on RoCE", test_v4_group_stays_on_roce },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_roce", tests, setup, teardown);
}
