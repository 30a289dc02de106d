/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/learn/ibrd_mcast_feed.c, the router's joins of a feed's
 * MGIDs by direction (IBA 15.2.5.17): FullMember where the router takes the
 * feed (senders), SendOnlyNonMember where it only sends it (receivers
 * only) and only while that subnet has members that receive, nothing on a
 * RoCE port or one with no SA client and no plugin; the bridging policy
 * never leaves them; a section that changes direction or goes is left.
 */
#include "daemon/learn/ibrd_learn.h"
#include "lib/ibr_sa.h"
#include "sa/sa_client.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <stdio.h>
#include <string.h>

#define NPORTS	5 /* a b c: IB with an SA client; r: RoCE; n: mad = none */
#define MAX_OPS 32
#define MGID	"ff12:4001:ffff::f01:101"

static struct ibrd d;
static struct ibrd_mcast mcast_room;
static struct sa_group grp[NPORTS]; /* each subnet lists MGID, or not */
static bool there[NPORTS];
static struct {
	char what; /* 'j' join, 'l' leave */
	uint32_t port;
	uint8_t join_state;
	uint32_t qkey;
	uint16_t pkey;
	uint8_t mtu;
} ops[MAX_OPS];
static unsigned nops;

static size_t t_groups(struct ibrd *dd, uint32_t port, const struct sa_group **v)
{
	(void)dd;
	*v = &grp[port];
	return there[port];
}

static void t_op(char what, uint32_t port, uint8_t join_state, const struct sa_group *tmpl)
{
	if (nops == MAX_OPS)
		return;
	memset(&ops[nops], 0, sizeof(ops[nops]));
	ops[nops].what = what;
	ops[nops].port = port;
	ops[nops].join_state = join_state;
	if (tmpl) {
		ops[nops].qkey = tmpl->qkey;
		ops[nops].pkey = tmpl->pkey;
		ops[nops].mtu = tmpl->mtu;
	}
	nops++;
}

static int t_join(struct ibrd *dd, uint32_t port, const struct sa_group *tmpl, uint8_t join_state)
{
	(void)dd;
	t_op('j', port, join_state, tmpl);
	return 0;
}

static void t_leave(struct ibrd *dd, uint32_t port, const uint8_t mgid[16], uint8_t join_state)
{
	(void)dd;
	(void)mgid;
	t_op('l', port, join_state, NULL);
}

static const struct ibrd_mcast_ops t_ops = { t_groups, t_join, t_leave };

#define PORTS                                                                   \
	"router { node-guid = 0x2 }\n"                                          \
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" }\n" \
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n" \
	"port \"c\" { data = none lid = 3 subnet-prefix = \"fec0:0:0:3::\" }\n" \
	"port \"r\" { data = none lid = 4 subnet-prefix = \"fd00:b::\" }\n"     \
	"port \"n\" { data = none mad = none lid = 5 subnet-prefix = \"fec0:0:0:5::\" }\n"

/* a: the feed comes in; b: it goes out; c: both; r: RoCE, out; n: no way to join, both */
static const char conf_text[] = PORTS
	"mcast \"" MGID "\" { port = \"a\" mlid = 0xc010 receivers = false feed = \"md\" }\n"
	"mcast \"" MGID "\" { port = \"b\" mlid = 0xc011 senders = false feed = \"md\" }\n"
	"mcast \"" MGID "\" { port = \"c\" mlid = 0xc012 pkey = 0x8001 feed = \"md\" }\n"
	"mcast \"::ffff:239.1.1.1\" { port = \"r\" mlid = 0xc013 senders = false\n"
	"\tfeed = \"md\" }\n"
	"mcast \"" MGID "\" { port = \"n\" mlid = 0xc014 feed = \"md\" }\n";

/* the same, but b takes the feed too now, and c has gone */
static const char conf_b_both[] = PORTS
	"mcast \"" MGID "\" { port = \"a\" mlid = 0xc010 receivers = false feed = \"md\" }\n"
	"mcast \"" MGID "\" { port = \"b\" mlid = 0xc011 qkey = 0x77 feed = \"md\" }\n";

static struct ibrd_conf *conf_b, *conf_first;

static unsigned made(char what, uint32_t port, uint8_t state)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nops; i++)
		n += ops[i].what == what && ops[i].port == port && ops[i].join_state == state;
	return n;
}

/* Subnet `port` lists the group, with members that receive or none. */
static void listed(uint32_t port, bool receivers)
{
	union ibr_gid g;

	memset(&grp[port], 0, sizeof(grp[port]));
	CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(MGID, &g), 0);
	memcpy(grp[port].mgid, g.raw, 16);
	grp[port].mlid = 0xC100;
	grp[port].qkey = 0x0abc; /* the group's own, which the join must give */
	grp[port].pkey = 0xffff;
	grp[port].members = receivers ? 1 : 0;
	grp[port].receivers = receivers;
	there[port] = true;
}

/* as ibrd_sync_run() does */
static void run(void)
{
	ibrd_mcast_policy(&d);
	ibrd_mcast_feeds(&d);
}

static int setup(void)
{
	struct router_port rp;

	memset(&d, 0, sizeof(d));
	memset(&mcast_room, 0, sizeof(mcast_room));
	d.mcast = &mcast_room;
	conf_first = ibrd_conf_load_string(conf_text, "feed.conf", stderr);
	conf_b = ibrd_conf_load_string(conf_b_both, "feed2.conf", stderr);
	if (!conf_first || !conf_b)
		return 1;
	/* as with mad = umad or sim, which data = none does not allow: an SA client on a, b, c */
	for (unsigned i = 0; i < 3; i++)
		conf_first->port[i].sa_client = conf_b->port[i].sa_client = true;
	d.conf = conf_first;
	router_rib_init(&d.rib);
	for (unsigned i = 0; i < d.conf->nports; i++)
		if (router_rib_port_add(&d.rib, &d.conf->port[i].rp) < 0)
			return 1;
	rp = d.rib.port[3];
	rp.flags |= ROUTER_PORT_ROCE;
	router_rib_port_set(&d.rib, 3, &rp);
	d.mcast->ops = &t_ops;
	return d.rib.nports == NPORTS && !d.conf->port[4].sa_client && !d.conf->osm_plugin ? 0 : 1;
}

static int teardown(void)
{
	ibrd_mcast_stop(&d);
	router_rib_free(&d.rib);
	ibrd_conf_free(conf_first);
	ibrd_conf_free(conf_b);
	return 0;
}

static void reset(void)
{
	ibrd_mcast_stop(&d);
	d.conf = conf_first;
	memset(there, 0, sizeof(there));
	nops = 0;
}

/*
 * Where the feed comes in (a, c), FullMember at once, with the section's
 * parameters where the group does not exist (rdma_cm's Q_Key by default);
 * where it only goes out (b), nothing while b has no receivers; never on
 * the RoCE port nor on the port with nobody to join through.
 */
static void test_directions(void)
{
	reset();
	run();
	CU_ASSERT_EQUAL(made('j', 0, IBR_SA_JOIN_FULL), 1);
	CU_ASSERT_EQUAL(made('j', 2, IBR_SA_JOIN_FULL), 1);
	CU_ASSERT_EQUAL(nops, 2); /* not b, r, n */
	for (unsigned i = 0; i < nops; i++) {
		CU_ASSERT_EQUAL(ops[i].qkey, 0x01234567);
		CU_ASSERT_EQUAL(ops[i].pkey, ops[i].port == 2 ? 0x8001 : 0xffff);
		CU_ASSERT_EQUAL(ops[i].mtu, 4); /* 2048 bytes, as an SA codes it */
	}
	/* again: no second join, and the policy (no members anywhere) leaves nothing */
	run();
	CU_ASSERT_EQUAL(nops, 2);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
}

/* b's receivers come: SendOnlyNonMember with b's group parameters; they go: left. */
static void test_out_follows_receivers(void)
{
	reset();
	run();
	listed(1, true);
	run();
	CU_ASSERT_EQUAL_FATAL(made('j', 1, IBR_SA_JOIN_SEND_ONLY), 1);
	CU_ASSERT_EQUAL(ops[nops - 1].qkey, 0x0abc);
	run();
	CU_ASSERT_EQUAL(made('j', 1, IBR_SA_JOIN_SEND_ONLY), 1);
	/* the group stays (the router's own join), its receivers left */
	listed(1, false);
	run();
	CU_ASSERT_EQUAL(made('l', 1, IBR_SA_JOIN_SEND_ONLY), 1);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
	CU_ASSERT_EQUAL(made('l', 0, IBR_SA_JOIN_FULL) + made('l', 2, IBR_SA_JOIN_FULL), 0);
}

/* An SM that lost the group (restarted): joined again in the same run. */
static void test_rejoin(void)
{
	reset();
	listed(0, false);
	run();
	run(); /* seen */
	there[0] = false;
	run();
	CU_ASSERT_EQUAL(made('j', 0, IBR_SA_JOIN_FULL), 2);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
}

/* A reload: b takes the feed now (FullMember instead), c's section went (left). */
static void test_reload(void)
{
	reset();
	listed(1, true);
	run();
	CU_ASSERT_EQUAL(made('j', 1, IBR_SA_JOIN_SEND_ONLY), 1);
	d.conf = conf_b;
	nops = 0;
	run();
	CU_ASSERT_EQUAL(made('l', 1, IBR_SA_JOIN_SEND_ONLY), 1);
	CU_ASSERT_EQUAL(made('j', 1, IBR_SA_JOIN_FULL), 1);
	CU_ASSERT_EQUAL(made('l', 2, IBR_SA_JOIN_FULL), 1);
	CU_ASSERT_EQUAL(made('j', 0, IBR_SA_JOIN_FULL) + made('l', 0, IBR_SA_JOIN_FULL), 0);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
	/* stopping leaves each with its own JoinState */
	nops = 0;
	ibrd_mcast_stop(&d);
	CU_ASSERT_EQUAL(made('l', 0, IBR_SA_JOIN_FULL), 1);
	CU_ASSERT_EQUAL(made('l', 1, IBR_SA_JOIN_FULL), 1);
}

static unsigned cannot_said; /* warnings that port n has nobody to join through */

static void count_sink(int pri, const char *msg)
{
	(void)pri;
	cannot_said += strstr(msg, "port n has no SA client") != NULL;
}

/*
 * Port n (no SA client, no plugin) joins nothing, and says so once a
 * config: not at every run of the policy, and again after a reload (even
 * when the new config lands where the old one was in memory).
 */
static void test_cannot_join_said(void)
{
	reset();
	ibrd_mcast_feeds_conf(&d);
	log_set_sink(count_sink);
	cannot_said = 0;
	run();
	run();
	CU_ASSERT_EQUAL(cannot_said, 1);
	ibrd_mcast_feeds_conf(&d); /* a reload, the same config at the same address */
	run();
	CU_ASSERT_EQUAL(cannot_said, 2);
	log_set_sink(NULL);
}

static CU_TestInfo tests[] = {
	{ "in: FullMember; out: not without receivers; RoCE, no SA: never", test_directions },
	{ "out: SendOnlyNonMember while the subnet has receivers", test_out_follows_receivers },
	{ "a group the SM lost is joined again", test_rejoin },
	{ "a reload that changes a direction or drops a section", test_reload },
	{ "a port with nobody to join through: said once a config", test_cannot_join_said },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_mcast_feed", tests, setup, teardown);
}
