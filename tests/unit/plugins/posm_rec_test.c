/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for plugins/posm_rec.c: the routers' ServiceRecords read out of a
 * list built as OpenSM's SA builds sa_sr_list (osm_svcr_t, as
 * osm_svcr_init() fills it and osm_sr_rcv_lease_cb() counts it down), the
 * trust rule, and what they become: prefix-route candidates (metrics, ties,
 * a set being replaced, a router dying, records deleted or their lease
 * ended), merged with the daemons' routes.
 */
#include "plugins/posm.h"
#include "tests/unit/ibr_test.h"

#include <complib/cl_types.h>
#include <complib/cl_byteswap.h>
#include <complib/cl_qlist.h>
#include <iba/ib_types.h>
#include <opensm/osm_prefix_route.h>
#include <opensm/osm_service.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEC    1000000000ull
#define SUBNET 0xfec0000000000001ull
#define B      0xfec0000000000002ull
#define C      0xfec0000000000003ull
#define R1     0x300001ull /* router ports */
#define R2     0x300005ull
#define HOST   0x100003ull /* a host's port */
#define NOW_S  1000000u	   /* OpenSM's clock (seconds) */
#define LEASE  30

static cl_qlist_t sa;	    /* OpenSM's sa_sr_list */
static struct posm_opts o;  /* routers=R1,R2 */
static struct posm_recs st; /* the plugin's */
static uint64_t now = 1000 * SEC;
static char said[4096];

static void say(void *ctx, int level, const char *msg)
{
	size_t n = strlen(said);

	(void)ctx;
	(void)level;
	snprintf(said + n, sizeof(said) - n, "%s\n", msg); /* what does not fit is cut */
}

struct ad {
	uint64_t prefix;
	uint8_t plen, metric;
};

/*
 * Record `idx` of port `guid`'s set of `n` prefixes `v` as sa/sa_announce.c
 * registers it (two prefixes a record), with its generation and refresh
 * count, registered now (modified_time now, lease_period its lease).
 */
static osm_svcr_t *reg(uint64_t prefix, uint64_t guid, unsigned idx, const struct ad *v, size_t n,
		       uint32_t gen, uint32_t beat)
{
	osm_svcr_t *s = calloc(1, sizeof(*s));
	ib_service_record_t *r = &s->service_record;
	unsigned total = (unsigned)((n + 1) / 2);

	r->service_id = cl_hton64(0x1000140549520000ull | idx);
	r->service_gid.unicast.prefix = cl_hton64(prefix);
	r->service_gid.unicast.interface_id = cl_hton64(guid);
	r->service_pkey = cl_hton16(0xFFFF);
	r->service_lease = cl_hton32(LEASE);
	strcpy((char *)r->service_name, "ibrouter.route-exchange.v1");
	r->service_data8[0] = 1;
	r->service_data16[0] = cl_hton16((uint16_t)idx);
	r->service_data16[1] = cl_hton16((uint16_t)total);
	r->service_data32[0] = cl_hton32(gen);
	r->service_data32[1] = cl_hton32(beat);
	for (unsigned i = 0; i < 2 && idx * 2 + i < n; i++) {
		const struct ad *a = &v[idx * 2 + i];

		r->service_data8[1]++;
		r->service_data8[2 + i] = a->plen;
		r->service_data8[4 + i] = a->metric;
		if (i == 0) {
			r->service_data64[0] = cl_hton64(a->prefix);
		} else {
			r->service_data32[2] = cl_hton32((uint32_t)(a->prefix >> 32));
			r->service_data32[3] = cl_hton32((uint32_t)a->prefix);
		}
	}
	s->modified_time = NOW_S + (uint32_t)(now / SEC - 1000); /* osm_svcr_init() */
	s->lease_period = LEASE;
	cl_qlist_insert_tail(&sa, &s->list_item);
	return s;
}

/* A port's whole set, as the announcer Sets it. */
static void reg_set(uint64_t guid, const struct ad *v, size_t n, uint32_t gen, uint32_t beat)
{
	for (unsigned i = 0; i < (n + 1) / 2; i++)
		reg(SUBNET, guid, i, v, n, gen, beat);
}

/* Every record of a port out of the list (a Delete, or osm_sr_rcv_lease_cb() at lease end). */
static void unreg(uint64_t guid)
{
	cl_list_item_t *i = cl_qlist_head(&sa);

	while (i != cl_qlist_end(&sa)) {
		cl_list_item_t *next = cl_qlist_next(i);
		osm_svcr_t *s = (osm_svcr_t *)i;

		if (cl_ntoh64(s->service_record.service_gid.unicast.interface_id) == guid) {
			cl_qlist_remove_item(&sa, i);
			free(s);
		}
		i = next;
	}
}

/* One read by the plugin at now (OpenSM's clock at NOW_S + the seconds since 1000 s). */
static bool read_at(uint64_t t)
{
	struct posm_rec *v;
	size_t n;
	bool more, changed;

	now = t;
	CU_ASSERT_EQUAL_FATAL(
		posm_rec_collect(&sa, NOW_S + (uint32_t)(t / SEC - 1000), &v, &n, &more), 0);
	CU_ASSERT_FALSE(more);
	changed = posm_rec_update(&st, &o, SUBNET, v, n, t, 2, say, NULL);

	free(v);
	return changed;
}

/* The candidates, "prefix/guid/metric" words, "*" for any, in the order they are kept. */
static const char *cands(void)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < st.nroutes; i++) {
		const struct posm_route *r = &st.routes[i];
		char p[24];

		if (r->any)
			strcpy(p, "*");
		else
			snprintf(p, sizeof(p), "%llx", (unsigned long long)r->prefix);
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s/%llx/%u", n ? " " : "", p,
				      (unsigned long long)r->guid, r->metric);
	}
	return buf;
}

/* The options of most tests: routers=R1,R2. */
static int opts_default(void)
{
	char err[128];

	return posm_opts_parse("routers=0x300001,0x300005", &o, err, sizeof(err), NULL, NULL);
}

static int setup(void)
{
	cl_qlist_init(&sa);
	return opts_default();
}

static int teardown(void)
{
	unreg(R1);
	unreg(R2);
	unreg(HOST);
	posm_rec_free(&st);
	return 0;
}

static void reset(void)
{
	teardown();
	said[0] = '\0';
	now = 1000 * SEC;
}

/* What OpenSM's prefix routes would be: posm_route_apply() over the candidates. */
static const char *installed(void)
{
	static char buf[1024];
	static const int owner;
	struct posm_route_stats rs = { 0 };
	cl_qlist_t l;
	size_t n = 0;

	cl_qlist_init(&l);
	posm_route_apply(&l, st.routes, st.nroutes, NULL, NULL, &owner, &rs);
	buf[0] = '\0';
	while (!cl_is_qlist_empty(&l)) {
		osm_prefix_route_t *r = (osm_prefix_route_t *)cl_qlist_remove_head(&l);
		uint64_t pf = cl_ntoh64(r->prefix);

		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%llx>%llx", n ? " " : "",
				      (unsigned long long)pf,
				      (unsigned long long)cl_ntoh64(r->guid));
		free(r);
	}
	return buf;
}

static void test_metrics_and_ties(void)
{
	static const struct ad r1[] = {
		{ B, 64, 1 },
		{ C, 64, 3 },
		{ 0xfec0000000000004ull, 64, 2 },
		{ SUBNET, 64, 1 },		   /* our own prefix: never a route */
		{ 0xfec0000000000000ull, 48, 1 },  /* OpenSM matches /64 and "*" only */
		{ 0xfec0000000000005ull, 64, 16 }, /* unreachable */
	};
	static const struct ad r2[] = {
		{ B, 64, 2 }, { C, 64, 1 }, { 0xfec0000000000004ull, 64, 2 }, { 0, 0, 4 }
	};
	osm_svcr_t *other;

	reset();
	reg_set(R1, r1, 6, 7, 100);
	reg_set(R2, r2, 4, 9, 200);
	/* another service's record beside ours is not read */
	other = reg(SUBNET, HOST, 0, r1, 1, 1, 1);
	strcpy((char *)other->service_record.service_name, "some.other.service");
	CU_ASSERT_TRUE(read_at(1000 * SEC));
	/* the announced metric counts the announcer: the daemons' count one less */
	CU_ASSERT_STRING_EQUAL(cands(), "fec0000000000002/300001/0 fec0000000000003/300001/2 "
					"fec0000000000004/300001/1 fec0000000000002/300005/1 "
					"fec0000000000003/300005/0 fec0000000000004/300005/1 "
					"*/300005/3");
	/* lowest metric; a tie to the lowest port GUID, the same at every read */
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001 fec0000000000003>300005 "
					    "fec0000000000004>300001 0>300005");
	CU_ASSERT(strstr(said, "router port 0x0000000000300001 announces 3 prefixes") != NULL);
	CU_ASSERT(strstr(said, "router port 0x0000000000300005 announces 4 prefixes") != NULL);
	/* the same records again: no change */
	CU_ASSERT_FALSE(read_at(1002 * SEC));
	CU_ASSERT_EQUAL(st.reads, 2);
	unreg(HOST);
}

/* A port's set registered again (the announcer's refresh: a new count) at now. */
static void refresh(uint64_t guid, const struct ad *v, size_t n, uint32_t gen, uint32_t beat)
{
	unreg(guid);
	reg_set(guid, v, n, gen, beat);
}

/* A read at t, R2 refreshing its one prefix (B, metric 2) just before. */
static bool step(uint64_t t)
{
	static const struct ad r2[] = { { B, 64, 2 } };
	static uint32_t beat = 20;

	now = t;
	refresh(R2, r2, 1, 1, beat++);
	return read_at(t);
}

/* A router whose records go (deleted, lease ended, or no longer refreshed): the other takes over. */
static void test_failover(void)
{
	static const struct ad r1[] = { { B, 64, 1 } };

	reset();
	reg_set(R1, r1, 1, 1, 10);
	CU_ASSERT_TRUE(step(1000 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001");
	/* R1's records deleted (its daemon stopped): R2 at once */
	unreg(R1);
	CU_ASSERT_TRUE(step(1002 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300005");
	CU_ASSERT(strstr(said, "0x0000000000300001: its records are gone") != NULL);
	/* back */
	now = 1004 * SEC;
	reg_set(R1, r1, 1, 2, 11);
	CU_ASSERT_TRUE(step(1004 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001");
	/*
	 * R1 killed: its records stay at the SA, their refresh count stands
	 * still; two thirds of the lease and a read on (20 + 2 + 1 s), it is
	 * dead, while R2, refreshed, lives
	 */
	said[0] = '\0';
	CU_ASSERT_FALSE(step(1026 * SEC));
	CU_ASSERT_TRUE(step(1027 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300005");
	CU_ASSERT(strstr(said, "0x0000000000300001: its records were not refreshed for 23 s") !=
		  NULL);
	CU_ASSERT(strstr(said, "0x0000000000300005") == NULL);
	CU_ASSERT_EQUAL(st.expired, 1);
	/* refreshed again (a Set: a new count) before its lease ended: back */
	now = 1028 * SEC;
	refresh(R1, r1, 1, 2, 12);
	CU_ASSERT_TRUE(step(1028 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001");
	CU_ASSERT(strstr(said, "0x0000000000300001: its records are refreshed again") != NULL);
	/* never again: dead by its count at 1028 + 23, its records gone at 1028 + 30 */
	CU_ASSERT_FALSE(step(1050 * SEC));
	CU_ASSERT_TRUE(step(1051 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300005");
	CU_ASSERT_FALSE(step(1057 * SEC));
	CU_ASSERT_EQUAL(st.n, 2); /* R1's records are still in their lease */
	CU_ASSERT_FALSE(step(1058 * SEC));
	CU_ASSERT_EQUAL(st.n, 1); /* OpenSM's copy is out of its lease: skipped */
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300005");
}

/* OpenSM's lease timer counts a record down (osm_sr_rcv_lease_cb): its end stays where it was. */
static void test_lease_count_down(void)
{
	static const struct ad r1[] = { { B, 64, 1 } };
	osm_svcr_t *s;

	reset();
	reg_set(R1, r1, 1, 1, 10);
	s = (osm_svcr_t *)cl_qlist_head(&sa);
	s->modified_time += 12; /* the timer ran at 12 s */
	s->lease_period -= 12;
	CU_ASSERT_TRUE(read_at(1012 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001");
	CU_ASSERT_TRUE(read_at(1030 * SEC)); /* 1000 + 30: the end */
	CU_ASSERT_STRING_EQUAL(installed(), "");
	/* an indefinite lease is refused: the format always has one, or no failover */
	unreg(R1);
	s = reg(SUBNET, R1, 0, r1, 1, 1, 1);
	s->service_record.service_lease = 0xFFFFFFFF;
	said[0] = '\0';
	CU_ASSERT_FALSE(read_at(1032 * SEC));
	CU_ASSERT(strstr(said, "not records of version 1 with a lease") != NULL);
}

/*
 * A host registers a record of ours under its own GID (OpenSM takes a Set
 * from anyone), naming another subnet's prefix at a better metric: refused,
 * logged once, counted; the router's route stands.
 */
static void test_hostile(void)
{
	static const struct ad r1[] = { { B, 64, 3 } };
	static const struct ad evil[] = { { B, 64, 1 }, { C, 64, 1 } };
	char err[128];

	reset();
	reg_set(R1, r1, 1, 1, 10);
	reg_set(HOST, evil, 2, 1, 1);
	CU_ASSERT_TRUE(read_at(1000 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001");
	CU_ASSERT(strstr(said, "registered under port 0x0000000000100003 refused: not a router "
			       "port of option routers=") != NULL);
	CU_ASSERT_EQUAL(st.refused_ports, 1);
	CU_ASSERT_EQUAL(st.refused_now, 1);
	/* logged once: the next reads say nothing more of it */
	said[0] = '\0';
	CU_ASSERT_FALSE(read_at(1002 * SEC));
	CU_ASSERT_STRING_EQUAL(said, "");
	CU_ASSERT_EQUAL(st.refused_ports, 1);
	CU_ASSERT_EQUAL(st.refused_now, 1);
	/* under a listed port's GUID with another subnet's prefix: refused too */
	reg(0xfec0000000000009ull, R2, 0, evil, 2, 1, 1);
	CU_ASSERT_FALSE(read_at(1004 * SEC));
	CU_ASSERT(
		strstr(said, "0x0000000000300005 refused: its ServiceGID is not of this subnet") !=
		NULL);
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001");
	/* no routers= at all: nobody is trusted, nothing is said */
	said[0] = '\0';
	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("", &o, err, sizeof(err), NULL, NULL), 0);
	CU_ASSERT_TRUE(read_at(1006 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "");
	CU_ASSERT(strstr(said, "refused") == NULL);
	/* routers=any: the host would be a router -- what srkey= is for */
	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("routers=any", &o, err, sizeof(err), NULL, NULL), 0);
	CU_ASSERT_TRUE(read_at(1008 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>100003 fec0000000000003>100003");
	CU_ASSERT_EQUAL_FATAL(opts_default(), 0);
}

/* srkey=: only records with the ServiceKey count, even under a listed port's GUID. */
static void test_service_key(void)
{
	static const struct ad r1[] = { { B, 64, 1 } };
	static const struct ad evil[] = { { B, 64, 1 }, { C, 64, 1 } };
	static const uint8_t key[16] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	char err[128];
	osm_svcr_t *s;

	reset();
	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("routers=any srkey=deadbeef0102030405060708090a0b00",
					      &o, err, sizeof(err), NULL, NULL),
			      0);
	s = reg(SUBNET, R1, 0, r1, 1, 1, 10);
	memcpy(s->service_record.service_key, key, 16);
	/* forged under R1's GID (another P_Key: another record), without the key */
	s = reg(SUBNET, R1, 0, evil, 2, 1, 10);
	s->service_record.service_pkey = cl_hton16(0x8001);
	reg_set(HOST, evil, 2, 1, 1);
	CU_ASSERT_TRUE(read_at(1000 * SEC));
	CU_ASSERT_STRING_EQUAL(installed(), "fec0000000000002>300001");
	CU_ASSERT(strstr(said,
			 "0x0000000000300001 refused: its ServiceKey is not the one of option "
			 "srkey=") != NULL);
	CU_ASSERT(strstr(said, "0x0000000000100003 refused: its ServiceKey") != NULL);
	CU_ASSERT_EQUAL(st.refused_now, 2);
	CU_ASSERT_EQUAL_FATAL(opts_default(), 0);
}

/* The announcer replaces its set one record at a time: the last whole one stands between. */
static void test_set_replaced(void)
{
	static const struct ad g1[] = { { B, 64, 1 },
					{ C, 64, 1 },
					{ 0xfec0000000000004ull, 64, 1 } };
	static const struct ad g2[] = { { B, 64, 1 },
					{ C, 64, 2 },
					{ 0xfec0000000000004ull, 64, 1 },
					{ 0xfec0000000000005ull, 64, 1 } };
	static const struct ad g3[] = { { 0xfec0000000000006ull, 64, 1 } };
	cl_list_item_t *i;

	reset();
	reg_set(R1, g1, 3, 1, 1);
	CU_ASSERT_TRUE(read_at(1000 * SEC));
	CU_ASSERT_STRING_EQUAL(cands(), "fec0000000000002/300001/0 fec0000000000003/300001/0 "
					"fec0000000000004/300001/0");
	/* record 0 of generation 2 replaced (OpenSM replaces a record in place), record 1 not yet */
	i = cl_qlist_head(&sa);
	cl_qlist_remove_item(&sa, i);
	free(i);
	reg(SUBNET, R1, 0, g2, 4, 2, 2);
	CU_ASSERT_FALSE(read_at(1001 * SEC));
	CU_ASSERT_STRING_EQUAL(cands(), "fec0000000000002/300001/0 fec0000000000003/300001/0 "
					"fec0000000000004/300001/0");
	/* record 1 too: the new set */
	refresh(R1, g2, 4, 2, 2);
	CU_ASSERT_TRUE(read_at(1002 * SEC));
	CU_ASSERT_STRING_EQUAL(cands(), "fec0000000000002/300001/0 fec0000000000003/300001/1 "
					"fec0000000000004/300001/0 fec0000000000005/300001/0");
	/* a shorter set: its record 0 says one record; the old record 1, not yet deleted, is past it */
	i = cl_qlist_head(&sa);
	cl_qlist_remove_item(&sa, i);
	free(i);
	reg(SUBNET, R1, 0, g3, 1, 3, 3);
	CU_ASSERT_TRUE(read_at(1003 * SEC));
	CU_ASSERT_STRING_EQUAL(cands(), "fec0000000000006/300001/0");
	/* a record of the set twice (under another P_Key): the set does not hold together */
	said[0] = '\0';
	reg(SUBNET, R1, 0, g1, 3, 3, 3)->service_record.service_pkey = cl_hton16(0x8001);
	CU_ASSERT_TRUE(read_at(1004 * SEC));
	CU_ASSERT_STRING_EQUAL(cands(), "");
	CU_ASSERT(strstr(said, "refused: not records of version 1") != NULL);
}

/* The daemons' routes win for their ports; the records fill in for routers not connected. */
static void test_merge(void)
{
	static const struct posm_route sock[] = {
		{ .prefix = B, .guid = R1, .metric = 3 },
		{ .prefix = 0xfec0000000000007ull, .guid = 0x300009, .metric = 0, .held = true },
	};
	static const struct posm_route rec[] = {
		{ .prefix = B, .guid = R1, .metric = 0 }, /* R1's records: its daemon's past */
		{ .prefix = C, .guid = R1, .metric = 0 },
		{ .prefix = B, .guid = R2, .metric = 1 }, /* R2: not connected */
		{ .prefix = 0xfec0000000000007ull, .guid = 0x300009, .metric = 2, .held = true },
	};
	struct posm_route *out;
	size_t n = posm_rec_merge(sock, 2, rec, 4, &out);

	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(out[0].guid, R1);
	CU_ASSERT_EQUAL(out[0].metric, 3);
	CU_ASSERT_TRUE(out[1].held);
	CU_ASSERT_EQUAL(out[2].guid, R2);
	/* a held daemon's port: its records count, as a connected router's (not held) */
	CU_ASSERT_EQUAL(out[3].guid, 0x300009);
	CU_ASSERT_FALSE(out[3].held);
	free(out);
	CU_ASSERT_EQUAL(posm_rec_merge(NULL, 0, NULL, 0, &out), 0);
	CU_ASSERT_PTR_NULL(out);
	CU_ASSERT_EQUAL(posm_rec_merge(NULL, 0, rec, 1, &out), 1);
	free(out);
}

/* Which CA ports the plugin's joins take for router ports. */
static void test_trust_port(void)
{
	static const struct posm_route own[] = { { .prefix = B, .guid = 0x300009 } };
	struct posm_rec r = { .prefix = SUBNET, .guid = R1 };
	struct posm_opts x;
	char err[128];

	CU_ASSERT_TRUE(posm_rec_trust_port(&o, R1, NULL, 0));	   /* routers= */
	CU_ASSERT_TRUE(posm_rec_trust_port(&o, 0x300009, own, 1)); /* the daemon's own routes */
	CU_ASSERT_FALSE(posm_rec_trust_port(&o, HOST, own, 1));
	CU_ASSERT_FALSE(posm_rec_trust_port(&o, 0, own, 1));
	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("", &x, err, sizeof(err), NULL, NULL), 0);
	CU_ASSERT_FALSE(posm_rec_trust_port(&x, R1, NULL, 0));
	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("routers=any", &x, err, sizeof(err), NULL, NULL), 0);
	CU_ASSERT_TRUE(posm_rec_trust_port(&x, HOST, NULL, 0));
	/* and the records' rule */
	CU_ASSERT_EQUAL(posm_rec_trust(&o, SUBNET, &r), POSM_REC_OK);
	CU_ASSERT_EQUAL_FATAL(
		posm_opts_parse("routers=300001 ports=300005", &x, err, sizeof(err), NULL, NULL),
		0);
	CU_ASSERT_EQUAL(posm_rec_trust(&x, SUBNET, &r), POSM_REC_NOT_SERVED);
	CU_ASSERT_STRING_EQUAL(posm_rec_why_name(POSM_REC_NOT_SERVED),
			       "not a router port this plugin serves (option ports=)");
	CU_ASSERT_STRING_EQUAL(posm_rec_why_name((enum posm_rec_why)99), "unknown reason");
}

static double mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The cost of a read: the copy under OpenSM's lock (taken as reader), then
 * the update outside it, for 256 routers announcing 8 prefixes each (4
 * records) among 10000 other services' records; 11 reads that find nothing
 * new: the fastest and the median.
 */
static void test_cost(void)
{
	struct ad v[8] = { { 0 } };
	double tc[11], tu[11];
	char err[128];

	reset();
	for (unsigned i = 0; i < 10000; i++)
		strcpy((char *)reg(SUBNET, HOST + i, 0, v, 0, 1, 1)->service_record.service_name,
		       "some.other.service");
	CU_ASSERT_EQUAL_FATAL(posm_opts_parse("routers=any", &o, err, sizeof(err), NULL, NULL), 0);
	for (unsigned r = 0; r < 256; r++) {
		for (unsigned k = 0; k < 8; k++)
			v[k] = (struct ad){ 0xfec1000000000000ull + r * 8 + k, 64,
					    1 + (uint8_t)(k % 3) };
		reg_set(0x400000 + r, v, 8, 1, 1);
	}
	CU_ASSERT_TRUE(read_at(1000 * SEC));
	CU_ASSERT_EQUAL(st.nroutes, 256 * 8);
	for (int i = 0; i < 11; i++) {
		struct posm_rec *recs;
		size_t n;
		bool more;
		double t0 = mono_us(), t1;

		CU_ASSERT_EQUAL(posm_rec_collect(&sa, NOW_S, &recs, &n, &more), 0);
		t1 = mono_us();
		CU_ASSERT_EQUAL(n, 256 * 4);
		CU_ASSERT_FALSE(
			posm_rec_update(&st, &o, SUBNET, recs, n, 1000 * SEC, 2, NULL, NULL));
		tu[i] = mono_us() - t1;
		tc[i] = t1 - t0;
		free(recs);
	}
	qsort(tc, 11, sizeof(tc[0]), dbl_cmp);
	qsort(tu, 11, sizeof(tu[0]), dbl_cmp);
	printf("\nposm_rec: one read of 1024 records (256 routers) among 11024: copy under the "
	       "lock %.0f us (fastest of 11), %.0f us (median); update %.0f us, %.0f us\n",
	       tc[0], tc[5], tu[0], tu[5]);
	while (!cl_is_qlist_empty(&sa))
		free(cl_qlist_remove_head(&sa));
	CU_ASSERT_EQUAL_FATAL(opts_default(), 0);
}

static CU_TestInfo tests[] = {
	{ "metrics and ties", test_metrics_and_ties },
	{ "failover: deleted, dead, lease ended", test_failover },
	{ "OpenSM's lease count-down", test_lease_count_down },
	{ "a hostile record refused", test_hostile },
	{ "the ServiceKey", test_service_key },
	{ "a set replaced", test_set_replaced },
	{ "the daemons' routes first", test_merge },
	{ "the trust rule for ports", test_trust_port },
	{ "the cost of a read", test_cost },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("posm_rec", tests, setup, teardown);
}
