/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for daemon/learn/ibrd_mcast.c, the multicast bridging policy: over
 * a fake view of three subnets (ports a and b in one site, c in another),
 * which groups the router joins where, and when it leaves: scopes (IBA 8.3:
 * site scope stays in its site, link-local is never bridged), the config's
 * include/exclude lists, members other than the router, joins never seen
 * (sent again), and the groups it joined marked as fed in the RIB, but for
 * the config's own word on a group (receivers = false).
 */
#include "daemon/learn/ibrd_learn.h"
#include "sa/sa_client.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_sa.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPORTS	 3
#define MAX_GRPS 8
#define MAX_OPS	 64

static struct ibrd d;
static struct ibrd_mcast mcast_room;	      /* d.mcast */
static struct sa_group grp[NPORTS][MAX_GRPS]; /* what each subnet's SA lists */
static size_t ngrp[NPORTS];
static struct {
	char what; /* 'j' join, 'l' leave */
	uint32_t port;
	uint8_t mgid[16];
	uint32_t qkey; /* a join's template */
} ops[MAX_OPS];
static unsigned nops;

static size_t fake_groups(struct ibrd *dd, uint32_t port, const struct sa_group **v)
{
	(void)dd;
	*v = grp[port];
	return ngrp[port];
}

/* the join source's port away (a plugin's port unlinked): joins refused */
static bool join_refused;

static int fake_join(struct ibrd *dd, uint32_t port, const struct sa_group *tmpl,
		     uint8_t join_state)
{
	(void)dd;
	CU_ASSERT_EQUAL(join_state, IBR_SA_JOIN_FULL); /* the policy's: FullMember */
	if (join_refused)
		return -ENOENT;
	if (nops < MAX_OPS) {
		ops[nops].what = 'j';
		ops[nops].port = port;
		ops[nops].qkey = tmpl->qkey;
		memcpy(ops[nops++].mgid, tmpl->mgid, 16);
	}
	return 0;
}

static void fake_leave(struct ibrd *dd, uint32_t port, const uint8_t mgid[16], uint8_t join_state)
{
	(void)dd;
	(void)join_state; /* also from teardown's ibrd_mcast_stop(), outside a test */
	if (nops < MAX_OPS) {
		ops[nops].what = 'l';
		ops[nops].port = port;
		memcpy(ops[nops++].mgid, mgid, 16);
	}
}

static const struct ibrd_mcast_ops fake_ops = { fake_groups, fake_join, fake_leave };

static const char conf_text[] =
	"router { node-guid = 0x2 }\n"
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" }\n"
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n"
	"port \"c\" { data = none lid = 3 subnet-prefix = \"fec0:0:0:3::\"\n"
	"\tsite = \"far\" }\n"
	"multicast {\n"
	"\tscopes = { site, organisation, global }\n"
	"\texclude = { \"ff18::dead:0/112\" }\n"
	"}\n";

static void mgid_set(uint8_t *m, const char *s)
{
	union ibr_gid g;

	CU_ASSERT_EQUAL_FATAL(ibr_gid_parse(s, &g), 0);
	memcpy(m, g.raw, 16);
}

/* Subnet `port` lists group `s`, with other members or not. */
static void listed(uint32_t port, const char *s, bool members)
{
	struct sa_group *g = &grp[port][ngrp[port]++];

	memset(g, 0, sizeof(*g));
	mgid_set(g->mgid, s);
	g->mlid = (uint16_t)(0xC000 + port);
	g->qkey = 0xb;
	g->pkey = 0xffff;
	g->members = members ? 1 : 0;
	g->receivers = g->senders = members;
}

static void unlisted(uint32_t port, const char *s)
{
	uint8_t m[16];

	mgid_set(m, s);
	for (size_t i = 0; i < ngrp[port]; i++)
		if (!memcmp(grp[port][i].mgid, m, 16)) {
			grp[port][i] = grp[port][--ngrp[port]];
			return;
		}
}

/* How many joins ('j') or leaves ('l') of `s` on `port` the policy made. */
static unsigned made(char what, uint32_t port, const char *s)
{
	uint8_t m[16];
	unsigned n = 0;

	mgid_set(m, s);
	for (unsigned i = 0; i < nops; i++)
		n += ops[i].what == what && ops[i].port == port && !memcmp(ops[i].mgid, m, 16);
	return n;
}

static int setup(void)
{
	memset(&d, 0, sizeof(d));
	memset(&mcast_room, 0, sizeof(mcast_room));
	d.mcast = &mcast_room;
	d.conf = ibrd_conf_load_string(conf_text, "mcast.conf", stderr);
	if (!d.conf)
		return 1;
	router_rib_init(&d.rib);
	for (unsigned i = 0; i < d.conf->nports; i++)
		if (router_rib_port_add(&d.rib, &d.conf->port[i].rp) < 0)
			return 1;
	d.mcast->ops = &fake_ops;
	return d.rib.nports == NPORTS && d.rib.port[2].site != d.rib.port[0].site ? 0 : 1;
}

static int teardown(void)
{
	ibrd_mcast_stop(&d);
	router_rib_free(&d.rib);
	ibrd_conf_free(d.conf);
	return 0;
}

static void reset(void)
{
	ibrd_mcast_stop(&d); /* leaves what is joined */
	memset(ngrp, 0, sizeof(ngrp));
	nops = 0;
}

/*
 * A join refused (no SA client or plugin there now) is tried again at its
 * retry, a second later, then at twice the wait: the policy would not run
 * again otherwise while the groups stay as they are (lab_ca.sh: a CA port
 * unlinked and relinked was never joined again).
 */
static void test_join_retry(void)
{
	uint64_t at, wait1;

	reset();
	listed(0, "ff15::1:c", true);
	join_refused = true;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 0);
	CU_ASSERT_EQUAL(d.mcast->join_failures, 2); /* a and b */
	at = ibrd_mcast_deadline(&d);
	CU_ASSERT_FATAL(at != UINT64_MAX);
	wait1 = d.mcast->retry_wait_ns;
	CU_ASSERT_EQUAL(wait1, 1000000000ull);
	d.dirty = 0;
	ibrd_mcast_tick(&d, at - 1);
	CU_ASSERT_EQUAL(d.dirty, 0); /* not yet */
	ibrd_mcast_tick(&d, at);
	CU_ASSERT(d.dirty & IBRD_DIRTY_MCAST);
	CU_ASSERT_EQUAL(ibrd_mcast_deadline(&d), UINT64_MAX);
	/* still refused: the next wait is twice as long */
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(d.mcast->retry_wait_ns, 2 * wait1);
	ibrd_mcast_tick(&d, ibrd_mcast_deadline(&d));
	/* the port is back: joined at the retry, the wait starts again */
	join_refused = false;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 0, "ff15::1:c"), 1);
	CU_ASSERT_EQUAL(made('j', 1, "ff15::1:c"), 1);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
	CU_ASSERT_EQUAL(d.mcast->retry_wait_ns, 0);
	CU_ASSERT_EQUAL(ibrd_mcast_deadline(&d), UINT64_MAX);
}

/* Site scope: where the members are and in the other subnets of their site, not beyond. */
static void test_site_scope(void)
{
	reset();
	listed(0, "ff15::1:2", true);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 0, "ff15::1:2"), 1);
	CU_ASSERT_EQUAL(made('j', 1, "ff15::1:2"), 1);
	CU_ASSERT_EQUAL(made('j', 2, "ff15::1:2"), 0); /* another site */
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
	/* the same again: no second join while the first is in flight */
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 1, "ff15::1:2"), 1);
}

/*
 * A join into a subnet where the group exists gives that subnet's
 * parameters (an SA refuses a join whose components differ from the
 * group's, o15-0.2.4); into one where it does not, those of a subnet with
 * members.
 */
static void test_join_parameters(void)
{
	reset();
	listed(0, "ff15::1:a", true);
	grp[0][0].qkey = 0x1111;
	listed(1, "ff15::1:a", false); /* exists in b (no member): its own Q_Key */
	grp[1][0].qkey = 0x2222;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL_FATAL(nops, 2);
	for (unsigned i = 0; i < nops; i++)
		CU_ASSERT_EQUAL(ops[i].qkey, ops[i].port == 0 ? 0x1111 : 0x2222);
	reset();
	listed(1, "ff18::1:b", true); /* organisation scope: created in a and c alike */
	grp[1][0].qkey = 0x3333;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL_FATAL(nops, 3);
	for (unsigned i = 0; i < nops; i++)
		CU_ASSERT_EQUAL(ops[i].qkey, 0x3333);
}

/* Organisation scope reaches every subnet; link-local and excluded groups none. */
static void test_scopes_and_lists(void)
{
	reset();
	listed(0, "ff18::1:3", true);
	listed(0, "ff12::1:4", true);	 /* link-local: never bridged (8.3) */
	listed(0, "ff18::dead:7", true); /* excluded by the config */
	listed(0, "ff14::1:5", true);	 /* admin scope: not among the config's scopes */
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 0, "ff18::1:3") + made('j', 1, "ff18::1:3") +
				made('j', 2, "ff18::1:3"),
			3);
	CU_ASSERT_EQUAL(made('j', 1, "ff12::1:4") + made('j', 2, "ff12::1:4"), 0);
	CU_ASSERT_EQUAL(made('j', 1, "ff18::dead:7") + made('j', 2, "ff18::dead:7"), 0);
	CU_ASSERT_EQUAL(made('j', 1, "ff14::1:5") + made('j', 2, "ff14::1:5"), 0);
}

/* No member beyond the router left anywhere: it leaves everywhere it joined. */
static void test_leave(void)
{
	reset();
	listed(0, "ff15::1:6", true);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 2);
	/* the groups now exist in a and b, with the router as their only member */
	grp[0][0].members = 0;
	grp[0][0].receivers = grp[0][0].senders = false;
	grp[0][0].ours = true;
	listed(1, "ff15::1:6", false);
	grp[1][0].ours = true;
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('l', 0, "ff15::1:6"), 1);
	CU_ASSERT_EQUAL(made('l', 1, "ff15::1:6"), 1);
	CU_ASSERT_EQUAL(d.mcast->nmjoins, 0);
}

/* A join that never shows in its subnet (within 5 s) is sent again; one seen, then gone, too. */
static void test_rejoin(void)
{
	reset();
	listed(0, "ff15::1:7", true);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 1, "ff15::1:7"), 1);
	for (unsigned i = 0; i < d.mcast->nmjoins; i++)
		d.mcast->mjoins[i].sent_ns = 0; /* sent long ago */
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 1, "ff15::1:7"), 2); /* b never listed it: again */
	CU_ASSERT_EQUAL(made('j', 0, "ff15::1:7"), 1); /* a lists it: seen, kept */
	/* b lists it (seen), then loses it (its SM restarted): joined again */
	listed(1, "ff15::1:7", false);
	ibrd_mcast_policy(&d);
	unlisted(1, "ff15::1:7");
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 1, "ff15::1:7"), 3);
}

/* The groups the router joined are fed in the RIB, whoever listed them there. */
static void test_mark_joined(void)
{
	struct router_mcast m = { .mlid = 0xC001, .source = ROUTER_SRC_PLUGIN };
	const struct router_mcast *got;

	reset();
	listed(0, "ff15::1:8", true);
	ibrd_mcast_policy(&d);
	mgid_set(m.key.mgid, "ff15::1:8");
	m.key.port = 1; /* in b, where no member receives */
	CU_ASSERT_EQUAL_FATAL(router_rib_mcast_add(&d.rib, &m), 0);
	ibrd_mcast_mark_joined(&d);
	got = router_tab_find(&d.rib.mcasts, &m.key);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT(got->flags & ROUTER_MCAST_RECEIVERS);
	router_rib_mcast_del(&d.rib, m.key.mgid, 1);
}

/*
 * A group the config or `mcast add` put on a port says itself where it is
 * fed: receivers = false there stays so, joined or not (on a RoCE port the
 * policy's join finds the config's group and keeps it).
 */
static void test_mark_joined_static(void)
{
	struct router_mcast m = { .mlid = 0xC001,
				  .source = ROUTER_SRC_STATIC,
				  .flags = ROUTER_MCAST_SENDERS };
	const struct router_mcast *got;

	reset();
	listed(0, "ff15::1:9", true);
	ibrd_mcast_policy(&d);
	CU_ASSERT_EQUAL(made('j', 1, "ff15::1:9"), 1);
	mgid_set(m.key.mgid, "ff15::1:9");
	m.key.port = 1; /* joined in b, where the config says no member receives */
	CU_ASSERT_EQUAL_FATAL(router_rib_mcast_add(&d.rib, &m), 0);
	ibrd_mcast_mark_joined(&d);
	got = router_tab_find(&d.rib.mcasts, &m.key);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_FALSE(got->flags & ROUTER_MCAST_RECEIVERS);
	CU_ASSERT(got->flags & ROUTER_MCAST_SENDERS);
	router_rib_mcast_del(&d.rib, m.key.mgid, 1);
}

static CU_TestInfo tests[] = {
	{ "join parameters: the subnet's own where the group exists", test_join_parameters },
	{ "site scope: its site's subnets", test_site_scope },
	{ "scopes and the include/exclude lists", test_scopes_and_lists },
	{ "no member left: leave", test_leave },
	{ "a join never seen is sent again", test_rejoin },
	{ "a refused join is tried again, backing off", test_join_retry },
	{ "joined groups are fed", test_mark_joined },
	{ "... but not a static group with receivers = false", test_mark_joined_static },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("ibrd_mcast", tests, setup, teardown);
}
