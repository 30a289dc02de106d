/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for plugins/posm_watch.c: the membership watch's passes over a
 * fake OpenSM (its multicast group table built as osm_subnet.c and
 * osm_multicast.c build it), the messages they leave for the daemons
 * (posm_snap.c builds them), and the cost of one pass.
 */
#include "plugins/posm_osm.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_pkt.h"

#include <opensm/osm_mcm_port.h>
#include <opensm/osm_multicast.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEC	1000000000ull
#define PREFIX	0xfec0000000000001ull
#define ROUTER	0x300001ull /* the router port's GUID */
#define HOST(n) (0x100000ull + (n))

static osm_opensm_t *osm;
static struct posm *p;
static uint64_t now;
static unsigned logged_off, logged_on;

/* posm_log.c calls into OpenSM's log: here the lines are only counted */
void posm_log(struct posm *x, int level, const char *fmt, ...)
{
	(void)x;
	(void)level;
	logged_off += strstr(fmt, "watch off") != NULL;
	logged_on += strstr(fmt, "watch on again") != NULL;
}

uint64_t posm_now_ns(void)
{
	return now;
}

/* as osm_subnet.c compar_mgids() orders the table */
static int mgid_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(ib_gid_t));
}

static int setup(void)
{
	osm = calloc(1, sizeof(*osm));
	p = calloc(1, sizeof(*p));
	if (!osm || !p)
		return -1;
	cl_fmap_init(&osm->subn.mgrp_mgid_tbl, mgid_cmp);
	cl_plock_init(&osm->lock);
	p->osm = osm;
	p->o.watch_s = 1;
	p->o.refresh_s = 30;
	p->nconn = 1;
	p->conn[0].state = POSM_UP;
	posm_watch_table_init(&p->watch, POSM_WATCH_MAX);
	return 0;
}

static osm_mgrp_t *group_add(uint32_t n)
{
	osm_mgrp_t *g = calloc(1, sizeof(*g));

	/* ff15::<n>: site scope */
	g->mcmember_rec.mgid.unicast.prefix = cl_hton64(0xff15000000000000ull);
	g->mcmember_rec.mgid.unicast.interface_id = cl_hton64(n);
	g->mlid = cl_hton16((uint16_t)(0xC000 + (n & 0x3FFF)));
	g->mcmember_rec.qkey = cl_hton32(0x80010000);
	g->mcmember_rec.pkey = cl_hton16(0xFFFF);
	cl_qmap_init(&g->mcm_port_tbl);
	cl_qmap_init(&g->mcm_alias_port_tbl);
	cl_fmap_insert(&osm->subn.mgrp_mgid_tbl, &g->mcmember_rec.mgid, &g->map_item);
	return g;
}

static osm_mcm_alias_guid_t *member_add(osm_mgrp_t *g, uint64_t guid, uint8_t join)
{
	osm_mcm_alias_guid_t *m = calloc(1, sizeof(*m));

	m->alias_guid = cl_hton64(guid);
	m->port_gid.unicast.prefix = cl_hton64(PREFIX);
	m->port_gid.unicast.interface_id = cl_hton64(guid);
	m->scope_state = (uint8_t)(0x50 | join);
	cl_qmap_insert(&g->mcm_alias_port_tbl, m->alias_guid, &m->map_item);
	return m;
}

static void member_del(osm_mgrp_t *g, uint64_t guid)
{
	cl_map_item_t *i = cl_qmap_remove(&g->mcm_alias_port_tbl, cl_hton64(guid));

	if (i != cl_qmap_end(&g->mcm_alias_port_tbl))
		free(i);
}

static void group_del(osm_mgrp_t *g)
{
	cl_fmap_remove_item(&osm->subn.mgrp_mgid_tbl, &g->map_item);
	while (cl_qmap_count(&g->mcm_alias_port_tbl)) {
		cl_map_item_t *m = cl_qmap_head(&g->mcm_alias_port_tbl);

		cl_qmap_remove_item(&g->mcm_alias_port_tbl, m);
		free(m);
	}
	free(g);
}

static void groups_clear(void)
{
	while (cl_fmap_count(&osm->subn.mgrp_mgid_tbl))
		group_del((osm_mgrp_t *)cl_fmap_head(&osm->subn.mgrp_mgid_tbl));
	posm_watch_table_reset(&p->watch);
}

/* What one pass left: "G<n>:<members>" per GROUP, "D<n>" per GROUPS_DEL record, sorted. */
static char out[4096];

static int word_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void out_sort(void)
{
	char *w[256], buf[sizeof(out)];
	size_t n = 0, len = 0;

	memcpy(buf, out, sizeof(out));
	for (char *t = strtok(buf, " "); t && n < 256; t = strtok(NULL, " "))
		w[n++] = t;
	qsort(w, n, sizeof(w[0]), word_cmp);
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%s", i ? " " : "", w[i]);
}

static int pass_at(uint64_t t)
{
	struct posm_bbuf b = { 0 };
	size_t n = 0;
	int rc = posm_watch_pass(p, t, &b);

	out[0] = '\0';
	for (size_t off = 0; off + IBR_PLUG_HDR_LEN <= b.len;) {
		struct ibr_plug_msg m;
		struct ibr_plug_group g;

		CU_ASSERT_EQUAL_FATAL(
			ibr_plug_parse(b.buf + off, ibr_be32_get(b.buf + off + 8), &m), 0);
		if (m.type == IBR_PLUG_GROUP) {
			ibr_plug_group_get(m.fixed, &g);
			n += (size_t)snprintf(out + n, sizeof(out) - n, "%sG%u:%u", n ? " " : "",
					      g.mgid[15], m.count);
		} else if (m.type == IBR_PLUG_GROUPS_DEL) {
			for (unsigned i = 0; i < m.count; i++)
				n += (size_t)snprintf(out + n, sizeof(out) - n, "%sD%u",
						      n ? " " : "", m.recs[16 * i + 15]);
		} else {
			CU_FAIL("a message of another type");
		}
		off += m.len;
	}
	posm_bbuf_free(&b);
	out_sort();
	return rc;
}

/* A pass watch_s after the last one. */
static int pass(void)
{
	now += p->o.watch_s * SEC;
	return pass_at(now);
}

static void test_seed_then_changes(void)
{
	osm_mgrp_t *g1 = group_add(1), *g2 = group_add(2), *g3;

	member_add(g1, HOST(2), 1);
	member_add(g1, ROUTER, 1);
	member_add(g2, HOST(3), 1);
	/* the first pass learns, tells nothing, and owes the daemons a snapshot */
	CU_ASSERT_EQUAL(pass(), 1);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	/* a host's leave that left the group alive (the router is in it): no trap, told */
	member_del(g1, HOST(2));
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "G1:1");
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	/* a host's join to a group that exists; another's join state */
	member_add(g1, HOST(4), 2);
	((osm_mcm_alias_guid_t *)cl_qmap_head(&g2->mcm_alias_port_tbl))->scope_state = 0x52;
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "G1:2 G2:1");
	/* the proxy flag and the MLID count too */
	((osm_mcm_alias_guid_t *)cl_qmap_head(&g2->mcm_alias_port_tbl))->proxy_join = TRUE;
	g1->mlid = cl_hton16(0xC123);
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "G1:2 G2:1");
	/* a group without members is no group: gone; one deleted: gone; a new one: told */
	member_del(g2, HOST(3));
	group_del(g1);
	g3 = group_add(3);
	member_add(g3, HOST(5), 1);
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "D1 D2 G3:1");
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(p->watch_told, 8);
	groups_clear();
}

static void test_timer_and_off(void)
{
	struct posm_bbuf b = { 0 };
	osm_mgrp_t *g = group_add(1);

	member_add(g, HOST(2), 1);
	CU_ASSERT_EQUAL(pass(), 1);
	member_add(g, HOST(3), 1);
	/* not due yet: nothing, even with a change */
	CU_ASSERT_EQUAL(posm_watch_pass(p, now + SEC / 2, &b), 0);
	CU_ASSERT_EQUAL(b.len, 0);
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "G1:2");
	/* watch=0: never */
	p->o.watch_s = 0;
	member_add(g, HOST(4), 1);
	CU_ASSERT_EQUAL(posm_watch_pass(p, now + 10 * SEC, &b), 0);
	CU_ASSERT_EQUAL(b.len, 0);
	p->o.watch_s = 1;
	posm_bbuf_free(&b);
	groups_clear();
}

static void test_no_daemon(void)
{
	osm_mgrp_t *g = group_add(1);

	member_add(g, HOST(2), 1);
	CU_ASSERT_EQUAL(pass(), 1);
	/* nobody up: no pass, and the table forgotten */
	p->conn[0].state = POSM_HELLO;
	member_add(g, HOST(3), 1);
	CU_ASSERT_EQUAL(pass_at(now + SEC / 10), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(p->watch.nlast, 0);
	/* up again: seeded at once, before its snapshot, not a watch_s later; nothing told */
	p->conn[0].state = POSM_UP;
	CU_ASSERT_EQUAL(pass_at(now + SEC / 5), 1);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(p->watch.nlast, 1);
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	groups_clear();
}

static void test_bound(void)
{
	osm_mgrp_t *g[6];

	p->watch.max = 4;
	for (uint32_t i = 0; i < 5; i++)
		member_add(g[i] = group_add(i + 1), HOST(i), 1);
	logged_off = logged_on = 0;
	CU_ASSERT_EQUAL(pass(), 0); /* off: nothing owed, the refresh tells */
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "");
	CU_ASSERT_EQUAL(logged_off, 1); /* said once */
	CU_ASSERT_TRUE(p->watch.off);
	group_del(g[4]);
	CU_ASSERT_EQUAL(pass(), 1); /* on again: a seed, and a snapshot owed */
	CU_ASSERT_EQUAL(logged_on, 1);
	member_add(g[0], HOST(9), 1);
	CU_ASSERT_EQUAL(pass(), 0);
	CU_ASSERT_STRING_EQUAL(out, "G1:2");
	p->watch.max = POSM_WATCH_MAX;
	groups_clear();
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

/* 11 passes that find nothing, over n groups of 4 members: the steady cost (the fastest, the median). */
static void measure(uint32_t n)
{
	double t[11];

	for (uint32_t i = 0; i < n; i++) {
		osm_mgrp_t *g = group_add(i + 1);

		member_add(g, ROUTER, 1);
		for (uint64_t k = 0; k < 3; k++)
			member_add(g, HOST(i * 3 + k), 1);
	}
	CU_ASSERT_EQUAL(pass(), 1);
	for (int r = 0; r < 11; r++) {
		double t0 = mono_us();

		CU_ASSERT_EQUAL(pass(), 0);
		t[r] = mono_us() - t0;
	}
	CU_ASSERT_STRING_EQUAL(out, "");
	qsort(t, 11, sizeof(t[0]), dbl_cmp);
	printf("\nposm_watch: one pass over %u groups (4 members each): %.0f us (fastest of 11), "
	       "%.0f us (median)\n",
	       n, t[0], t[5]);
	groups_clear();
}

static void test_cost(void)
{
	measure(10000);
	measure(POSM_WATCH_MAX);
}

static CU_TestInfo tests[] = {
	{ "seed, then changes without a trap", test_seed_then_changes },
	{ "the timer; watch=0", test_timer_and_off },
	{ "no daemon up", test_no_daemon },
	{ "the bound", test_bound },
	{ "the cost of a pass", test_cost },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("posm_watch", tests, setup, NULL);
}
