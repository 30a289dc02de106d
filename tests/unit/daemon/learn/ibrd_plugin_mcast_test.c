/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/learn/ibrd_plugin_mcast.c: a plugin-fed port's groups
 * as the bridging policy reads them (the router's own membership told apart,
 * receivers and senders by join state), and the joins and leaves sent to
 * the plugin as MCAST messages (lib/ibr_plug.h) -- only to the port's
 * feeder, only to a plugin that says it makes them.
 */
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/learn/ibrd_plugin.h"
#include "sa/sa_client.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_sa.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ROUTER_GUID 0x300001ull

static struct ibrd d;
static struct ibrd_plugins plug_room; /* d.plug */
static struct ibrd_plugin pl;

/* What the daemon sent the plugin (ibrd_client.c's, replaced here: no socket). */
static uint8_t sent[4][IBR_PLUG_MSG_MAX];
static size_t sent_len[4];
static int nsent;

int ibrd_client_send(struct ibrd_client *c, const void *buf, size_t len)
{
	CU_ASSERT_PTR_EQUAL(c, pl.client);
	if (nsent == 4 || len > IBR_PLUG_MSG_MAX)
		return -ENOBUFS;
	memcpy(sent[nsent], buf, len);
	sent_len[nsent++] = len;
	return 0;
}

/* Group ff15::<id> in the plugin's live view, members (guid, join state). */
static void view_group(uint8_t id, const uint64_t *guid, const uint8_t *js, unsigned n)
{
	struct ibrd_pgroup g = { .mgid = { 0xff, 0x15, [15] = id } };

	memcpy(g.g.mgid, g.mgid, 16);
	g.g.mlid = (uint16_t)(0xc000 + id);
	g.g.qkey = 0x0b1b;
	g.g.pkey = 0xffff;
	g.g.sl = 2;
	g.g.tclass = 0x20;
	g.g.flowlabel = 0x1234;
	g.g.mtu = 4;
	g.g.rate = 3;
	g.g.scope = 5;
	g.nmem = g.capmem = n;
	g.mem = calloc(n ? n : 1, sizeof(*g.mem));
	for (unsigned i = 0; i < n; i++) {
		g.mem[i].guid = guid[i];
		g.mem[i].join_state = js[i];
	}
	CU_ASSERT_EQUAL_FATAL(router_tab_put(&pl.s.live.groups, &g), 1); /* added */
	pl.gview_valid = false; /* as ibrd_plugin.c does on every change */
}

static int setup(void)
{
	memset(&d, 0, sizeof(d));
	memset(&plug_room, 0, sizeof(plug_room));
	d.plug = &plug_room;
	memset(&pl, 0, sizeof(pl));
	router_rib_init(&d.rib);
	d.rib.nports = 2;
	d.rib.port[0].guid = ROUTER_GUID;
	strcpy(d.rib.port[0].name, "a");
	strcpy(d.rib.port[1].name, "b");
	ibrd_psess_init(&pl.s, NULL, NULL);
	pl.d = &d;
	pl.id = 7;
	pl.client = (struct ibrd_client *)&pl; /* never dereferenced: the fake above */
	pl.s.hello = true;
	pl.s.h.flags = IBR_PLUG_HELLO_MCAST;
	d.plug->list = &pl;
	d.plug->feeder[0] = 7; /* port a takes its plugin data from it; b from none */
	return 0;
}

static int teardown(void)
{
	ibrd_psess_free(&pl.s);
	free(pl.gview);
	router_rib_free(&d.rib);
	return 0;
}

static const struct sa_group *find(const struct sa_group *v, size_t n, uint8_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].mgid[0] == 0xff && v[i].mgid[15] == id)
			return &v[i];
	return NULL;
}

static void test_groups(void)
{
	static const uint64_t host_and_us[] = { 0x11, ROUTER_GUID }, us[] = { ROUTER_GUID },
			      sender[] = { 0x12 }, two[] = { 0x13, 0x14 };
	static const uint8_t full2[] = { IBR_SA_JOIN_FULL, IBR_SA_JOIN_FULL },
			     full1[] = { IBR_SA_JOIN_FULL }, sendonly[] = { IBR_SA_JOIN_SEND_ONLY },
			     non_send[] = { IBR_SA_JOIN_NON, IBR_SA_JOIN_SEND_FULL };
	const struct sa_group *v, *g;
	size_t n;

	CU_ASSERT_EQUAL(ibrd_plugin_groups(&d, 0, &v), 0); /* an empty view */
	view_group(1, host_and_us, full2, 2);
	view_group(2, us, full1, 1);
	view_group(3, sender, sendonly, 1);
	view_group(4, two, non_send, 2);
	n = ibrd_plugin_groups(&d, 0, &v);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	g = find(v, n, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->members, 1); /* the host; the router is not a member here */
	CU_ASSERT_TRUE(g->ours);
	CU_ASSERT_TRUE(g->receivers);
	CU_ASSERT_TRUE(g->senders);
	CU_ASSERT_EQUAL(g->mlid, 0xc001);
	CU_ASSERT_EQUAL(g->qkey, 0x0b1b);
	CU_ASSERT_EQUAL(g->pkey, 0xffff);
	CU_ASSERT_EQUAL(g->sl, 2);
	CU_ASSERT_EQUAL(g->tclass, 0x20);
	CU_ASSERT_EQUAL(g->flowlabel, 0x1234);
	CU_ASSERT_EQUAL(g->mtu, 4);
	CU_ASSERT_EQUAL(g->rate, 3);
	CU_ASSERT_EQUAL(g->scope, 5);
	g = find(v, n, 2); /* only the router: nothing keeps it bridged */
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->members, 0);
	CU_ASSERT_TRUE(g->ours);
	CU_ASSERT_FALSE(g->receivers || g->senders);
	g = find(v, n, 3); /* a SendOnly member sends, receives nothing */
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->members, 1);
	CU_ASSERT_FALSE(g->receivers);
	CU_ASSERT_TRUE(g->senders);
	CU_ASSERT_FALSE(g->ours);
	g = find(v, n, 4); /* a NonMember receives (IBA 15.2.5.17.2) */
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->members, 2);
	CU_ASSERT_TRUE(g->receivers);
	/* the view is kept until the plugin's tables change */
	CU_ASSERT_PTR_EQUAL(v, pl.gview);
	CU_ASSERT_EQUAL(ibrd_plugin_groups(&d, 0, &v), 4);
	CU_ASSERT_PTR_EQUAL(v, pl.gview);
	/* a port no plugin feeds has no groups from one */
	CU_ASSERT_EQUAL(ibrd_plugin_groups(&d, 1, &v), 0);
	CU_ASSERT_PTR_NULL(v);
	/* another port fed by it: "ours" is that port's GUID, so it is rebuilt */
	d.plug->feeder[1] = 7;
	n = ibrd_plugin_groups(&d, 1, &v);
	CU_ASSERT_EQUAL(n, 4);
	g = find(v, n, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	CU_ASSERT_EQUAL(g->members, 1); /* port b has no GUID: 0x300001 is a member to it */
	CU_ASSERT_FALSE(g->ours);
	d.plug->feeder[1] = 0;
}

static void test_joins_sent(void)
{
	struct sa_group t = { .mgid = { 0xff, 0x15, [15] = 9 },
			      .qkey = 0x11223344,
			      .pkey = 0x8001,
			      .sl = 5,
			      .tclass = 7,
			      .mtu = 5,
			      .rate = 6,
			      .flowlabel = 0xabcde };
	struct ibr_plug_mcast r;
	struct ibr_plug_msg m;

	nsent = 0;
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 0, t.mgid, &t, IBR_SA_JOIN_FULL), 0);
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 0, t.mgid, NULL, 0), 0);
	CU_ASSERT_EQUAL_FATAL(nsent, 2);
	CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(sent[0], sent_len[0], &m), 0);
	CU_ASSERT_TRUE(m.known);
	CU_ASSERT_EQUAL(m.type, IBR_PLUG_MCAST);
	CU_ASSERT_EQUAL_FATAL(m.count, 1);
	ibr_plug_mcast_get(m.recs, &r);
	CU_ASSERT_EQUAL(memcmp(r.mgid, t.mgid, 16), 0);
	CU_ASSERT_EQUAL(r.guid, ROUTER_GUID);
	CU_ASSERT_EQUAL(r.join_state, IBR_SA_JOIN_FULL);
	CU_ASSERT_EQUAL(r.qkey, 0x11223344);
	CU_ASSERT_EQUAL(r.pkey, 0x8001);
	CU_ASSERT_EQUAL(r.sl, 5);
	CU_ASSERT_EQUAL(r.tclass, 7);
	CU_ASSERT_EQUAL(r.mtu, 5);
	CU_ASSERT_EQUAL(r.rate, 6);
	CU_ASSERT_EQUAL(r.flowlabel, 0xabcde);
	CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(sent[1], sent_len[1], &m), 0);
	ibr_plug_mcast_get(m.recs, &r);
	CU_ASSERT_EQUAL(r.join_state, 0); /* a leave */
	CU_ASSERT_EQUAL(r.guid, ROUTER_GUID);
	CU_ASSERT_EQUAL(pl.mjoins_sent, 2);
	/* no feeder: nothing sent */
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 1, t.mgid, &t, IBR_SA_JOIN_FULL), -ENOENT);
	/* a plugin that makes no joins (an older one): said once, nothing sent */
	pl.s.h.flags = 0;
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 0, t.mgid, &t, IBR_SA_JOIN_FULL), -ENOTSUP);
	CU_ASSERT_TRUE(pl.mjoin_warned);
	pl.s.h.flags = IBR_PLUG_HELLO_MCAST | IBR_PLUG_HELLO_MCAST_SENDONLY;
	/* a feed's port the router only sends into: SendOnlyNonMember */
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 0, t.mgid, &t, IBR_SA_JOIN_SEND_ONLY), 0);
	CU_ASSERT_EQUAL_FATAL(nsent, 3);
	CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(sent[2], sent_len[2], &m), 0);
	ibr_plug_mcast_get(m.recs, &r);
	CU_ASSERT_EQUAL(r.join_state, IBR_SA_JOIN_SEND_ONLY);
	/* ... which an older plugin refuses: a FullMember there, said once */
	pl.s.h.flags = IBR_PLUG_HELLO_MCAST;
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 0, t.mgid, &t, IBR_SA_JOIN_SEND_ONLY), 0);
	CU_ASSERT_EQUAL_FATAL(nsent, 4);
	CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(sent[3], sent_len[3], &m), 0);
	ibr_plug_mcast_get(m.recs, &r);
	CU_ASSERT_EQUAL(r.join_state, IBR_SA_JOIN_FULL);
	CU_ASSERT_TRUE(pl.sendonly_warned);
	nsent = 2;
	/* a port without a GUID cannot be named to OpenSM */
	d.rib.port[0].guid = 0;
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 0, t.mgid, &t, IBR_SA_JOIN_FULL), -EINVAL);
	d.rib.port[0].guid = ROUTER_GUID;
	CU_ASSERT_EQUAL(nsent, 2);
}

/*
 * A router port the plugin's snapshot lists as a CA port (on an HCA the
 * firmware answers the SMPs: OpenSM sees NodeType 1) is bound to it, and
 * its joins go to the plugin in its name; port b, not in the view and with
 * no prefix, is not bound
 */
static void test_bound_ca(void)
{
	struct ibrd_pport rp = { .guid = ROUTER_GUID,
				 .base_guid = ROUTER_GUID,
				 .lid = 9,
				 .node_type = 1,
				 .port_num = 1 };
	struct sa_group t = { .mgid = { 0xff, 0x15, [15] = 10 }, .qkey = 0xb, .pkey = 0xffff };
	struct ibr_plug_mcast r;
	struct ibr_plug_msg m;

	CU_ASSERT_FALSE(ibrd_psess_binds(&pl.s, d.rib.port[0].guid, d.rib.port[0].prefix));
	CU_ASSERT_EQUAL_FATAL(router_tab_put(&pl.s.live.ports, &rp), 1);
	CU_ASSERT_TRUE(ibrd_psess_binds(&pl.s, d.rib.port[0].guid, d.rib.port[0].prefix));
	CU_ASSERT_FALSE(ibrd_psess_binds(&pl.s, d.rib.port[1].guid, d.rib.port[1].prefix));
	nsent = 0;
	CU_ASSERT_EQUAL(ibrd_plugin_mjoin(&d, 0, t.mgid, &t, IBR_SA_JOIN_FULL), 0);
	CU_ASSERT_EQUAL_FATAL(nsent, 1);
	CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(sent[0], sent_len[0], &m), 0);
	ibr_plug_mcast_get(m.recs, &r);
	CU_ASSERT_EQUAL(r.guid, ROUTER_GUID);
	CU_ASSERT_EQUAL(router_tab_del(&pl.s.live.ports, &rp.guid), 0);
}

static CU_TestInfo tests[] = {
	{ "a plugin's groups as the policy reads them", test_groups },
	{ "joins and leaves sent to the feeder", test_joins_sent },
	{ "a router port listed as a CA port is bound", test_bound_ca },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_plugin_mcast", tests, setup, teardown);
}
