/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_announce_test.c - the router's route announcements (sa/sa_announce.c)
 * against the fake subnet of sa_fake.h, whose SA keeps ServiceRecords as
 * OpenSM does (one per RID): the records, their timing and refreshes, a
 * refused Set, deletion when the client goes, new numbers for a new client.
 */
#include "tests/unit/sa/sa_fake.h"

#include "lib/ibr_log.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- route announcements (sa_announce.c) ---- */

static const struct sa_route_ad ADS[3] = {
	{ 0xfec0000000000002ull, 64, 1 },
	{ 0xfec0000000000300ull, 56, 2 },
	{ 0xfec0000000040000ull, 48, 3 },
};

/* The fake's record of index idx of our announcement set, or NULL. */
static const struct ibr_sa_service_rec *ad_rec(unsigned int idx)
{
	struct ibr_sa_service_rec rid = { .id = SA_AD_SERVICE_ID | idx, .pkey = 0xFFFF };
	int i;

	memcpy(rid.gid, (uint8_t[8]){ 0xfe, 0xc0, 0, 0, 0, 0, 0, 1 }, 8);
	for (int k = 0; k < 8; k++)
		rid.gid[8 + k] = (uint8_t)(GUID_US >> (56 - 8 * k));
	i = fsr_find(&rid);
	return i < 0 ? NULL : &F->sr[i];
}

/* The records as the format says (sa_client.h), registered as our port GID */
static void test_announce_records(void)
{
	const struct ibr_sa_service_rec *r0, *r1;

	start(false);
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 3, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 2);
	CU_ASSERT_EQUAL(sa_client_announced(SC), 2);
	r0 = ad_rec(0), r1 = ad_rec(1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r1);
	CU_ASSERT_STRING_EQUAL(r0->name, "ibrouter.route-exchange.v1");
	CU_ASSERT_EQUAL(r0->lease, 60);
	CU_ASSERT_EQUAL(r0->data8[0], 1);  /* version */
	CU_ASSERT_EQUAL(r0->data8[1], 2);  /* prefixes in it */
	CU_ASSERT_EQUAL(r0->data8[2], 64); /* lengths */
	CU_ASSERT_EQUAL(r0->data8[3], 56);
	CU_ASSERT_EQUAL(r0->data8[4], 1); /* metrics */
	CU_ASSERT_EQUAL(r0->data8[5], 2);
	CU_ASSERT_EQUAL(r0->data64[0], 0xfec0000000000002ull);
	CU_ASSERT_EQUAL(r0->data32[2], 0xfec00000u); /* prefix 1, hi and lo */
	CU_ASSERT_EQUAL(r0->data32[3], 0x00000300u);
	CU_ASSERT_EQUAL(r0->data64[1], 0);
	CU_ASSERT_EQUAL(r0->data16[0], 0);
	CU_ASSERT_EQUAL(r0->data16[1], 2);
	CU_ASSERT_EQUAL(r1->data8[1], 1);
	CU_ASSERT_EQUAL(r1->data8[2], 48);
	CU_ASSERT_EQUAL(r1->data8[4], 3);
	CU_ASSERT_EQUAL(r1->data64[0], 0xfec0000000040000ull);
	CU_ASSERT_EQUAL(r1->data32[2], 0);
	CU_ASSERT_EQUAL(r1->data32[3], 0);
	CU_ASSERT_EQUAL(r1->data16[0], 1);
	CU_ASSERT_EQUAL(r1->data32[0], r0->data32[0]); /* one generation */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, 2);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_failures, 0);
	/* a shorter set: record 1 deleted, record 0 replaced, a new generation */
	{
		uint32_t gen = r0->data32[0];

		CU_ASSERT_EQUAL(sa_client_announce(SC, ADS + 2, 1, 60), 0);
		pump();
		CU_ASSERT_EQUAL(fsr_count(), 1);
		CU_ASSERT_PTR_NULL(ad_rec(1));
		CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
		CU_ASSERT_EQUAL(ad_rec(0)->data8[1], 1);
		CU_ASSERT_EQUAL(ad_rec(0)->data64[0], 0xfec0000000040000ull);
		CU_ASSERT_EQUAL(ad_rec(0)->data16[1], 1);
		CU_ASSERT(ad_rec(0)->data32[0] > gen);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_deletes, 1);
	}
	/* none: all withdrawn */
	CU_ASSERT_EQUAL(sa_client_announce(SC, NULL, 0, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 0);
	CU_ASSERT_EQUAL(sa_client_announced(SC), 0);
	stop();
}

/* Nothing before the port is synced; then the set; refreshed each third of the lease */
static void test_announce_timing(void)
{
	struct sa_client_config cfg = default_cfg();
	uint64_t sets;

	fake_new(false, 0, true);
	client_new(&cfg);
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 3, 30), 0);
	CU_ASSERT_EQUAL(count_sent(0, IBR_MGMT_CLASS_SUBN_ADM, IBR_MAD_METHOD_SET,
				   IBR_SA_ATTR_SERVICE_RECORD),
			0);
	run_ms(1); /* the first sync, then the next tick */
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(fsr_count(), 2);
	sets = sa_client_stats(SC)->ad_sets;
	CU_ASSERT_EQUAL(sets, 2);
	run_ms(9000); /* before a third of 30 s */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets);
	run_ms(1500);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets + 2);
	/* an SM that took over has none: the sync after it registers them again */
	memset(F->sr_used, 0, sizeof(F->sr_used));
	sa_client_resync(SC, "test");
	run_ms(1);
	CU_ASSERT_EQUAL(fsr_count(), 2);
	stop();
}

/* A refused Set: counted, the set again after the backoff, not at once */
static void test_announce_refused(void)
{
	uint64_t sets;

	start(false);
	F->sr_refuse = true;
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 1, 60), 0);
	run_ms(1);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_failures, 1);
	CU_ASSERT_EQUAL(fsr_count(), 0);
	sets = sa_client_stats(SC)->ad_sets;
	run_ms(1500); /* backoff 2000 ms */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets);
	F->sr_refuse = false;
	run_ms(600);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->ad_sets, sets + 1);
	CU_ASSERT_EQUAL(fsr_count(), 1);
	stop();
}

/*
 * Freeing the client deletes its records: the Deletes are not cancelled with
 * its other requests, even those the channel still queues (one outstanding
 * request at a time here, three records)
 */
static void test_announce_free(void)
{
	struct sa_client_config cfg = default_cfg();
	struct sa_route_ad five[5];

	for (int i = 0; i < 5; i++)
		five[i] = (struct sa_route_ad){ 0xfec0000000000100ull + (uint64_t)i * 0x100, 56,
						1 };
	fake_new(false, 1, true);
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL_FATAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_announce(SC, five, 5, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 3);
	sa_client_free(SC);
	SC = NULL;
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 0);
	stop();
}

/*
 * A router that comes back (a new client) does not repeat the generation
 * and refresh count its dead self left at the SA: readers would take it
 * for the dead one (sa_peers.c)
 */
static void test_announce_new_numbers(void)
{
	uint32_t gen, beat;

	start(false);
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 1, 60), 0);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
	gen = ad_rec(0)->data32[0];
	beat = ad_rec(0)->data32[1];
	/* killed: its records stay at the SA */
	sa_client_free(SC);
	SC = NULL;
	CU_ASSERT_PTR_NULL(ad_rec(0)); /* a clean free deletes them: put them back */
	usleep(2000);
	{
		struct sa_client_config cfg = default_cfg();

		client_new(&cfg);
	}
	pump();
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 1, 60), 0);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
	CU_ASSERT_NOT_EQUAL(ad_rec(0)->data32[0], gen);
	CU_ASSERT_NOT_EQUAL(ad_rec(0)->data32[1], beat);
	stop();
}

/*
 * With a key (learning { announce-key }), every record carries it as its
 * ServiceKey and the Set says so in its ComponentMask, so that the OpenSM
 * plugin's srkey= takes them; without one, the key is zero and not in the mask.
 */
static void test_announce_key(void)
{
	static const uint8_t key[16] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
					 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10 };
	struct sa_client_config cfg = default_cfg();
	static const uint8_t zero[16];

	start(false);
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 3, 60), 0);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
	CU_ASSERT(memcmp(ad_rec(0)->key, zero, 16) == 0);
	CU_ASSERT_EQUAL(F->sr_set_mask & IBR_SA_SR_COMP_KEY, 0);
	stop();

	memcpy(cfg.ad_key, key, sizeof(key));
	fake_new(false, 0, true);
	client_new(&cfg);
	pump();
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 3, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(0));
	CU_ASSERT_PTR_NOT_NULL_FATAL(ad_rec(1));
	CU_ASSERT(memcmp(ad_rec(0)->key, key, 16) == 0);
	CU_ASSERT(memcmp(ad_rec(1)->key, key, 16) == 0);
	CU_ASSERT_EQUAL(F->sr_set_mask & IBR_SA_SR_COMP_KEY, IBR_SA_SR_COMP_KEY);
	/* the Deletes name the record by its RID alone: they still find it */
	CU_ASSERT_EQUAL(sa_client_announce(SC, NULL, 0, 60), 0);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 0);
	stop();
}

/* Freed in the middle of a resync (or in a backoff): the records are deleted all the same */
static void test_announce_free_mid_sync(void)
{
	for (int backoff = 0; backoff <= 1; backoff++) {
		start(false);
		CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, ADS, 3, 60), 0);
		pump();
		CU_ASSERT_EQUAL(fsr_count(), 2);
		if (backoff) {
			F->busy_attr = IBR_SA_ATTR_NODE_RECORD;
			F->busy_status = IBR_SA_STATUS_NO_RESOURCES;
		} else {
			F->defer_attr = IBR_SA_ATTR_NODE_RECORD; /* the resync stays in flight */
		}
		sa_client_resync(SC, "test");
		pump();
		CU_ASSERT_EQUAL(sa_client_phase(SC), backoff ? SA_PHASE_BACKOFF : SA_PHASE_SYNC);
		F->busy_attr = 0;
		sa_client_free(SC);
		SC = NULL;
		pump();
		CU_ASSERT_EQUAL(fsr_count(), 0);
		fake_release();
		stop();
	}
}

static void test_announce_args(void)
{
	static struct sa_route_ad many[2 * SA_AD_MAX_RECS + 1];
	struct sa_route_ad bad = { 0xfec0000000000000ull, 65, 1 };

	start(false);
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 3, 0), -EINVAL);
	CU_ASSERT_EQUAL(sa_client_announce(SC, ADS, 3, IBR_SA_SERVICE_LEASE_INDEFINITE), -EINVAL);
	CU_ASSERT_EQUAL(sa_client_announce(SC, &bad, 1, 60), -EINVAL);
	CU_ASSERT_EQUAL(sa_client_announce(SC, many, 2 * SA_AD_MAX_RECS + 1, 60), -EINVAL);
	pump();
	CU_ASSERT_EQUAL(fsr_count(), 0);
	stop();
}

static CU_TestInfo tests[] = {
	{ "announcements: the records, a shorter set, none", test_announce_records },
	{ "announcements: after the sync, refreshed, again after an SM change",
	  test_announce_timing },
	{ "announcements: a refused Set retried after the backoff", test_announce_refused },
	{ "announcements: deleted when the client goes", test_announce_free },
	{ "announcements: bad arguments refused", test_announce_args },
	{ "announcements: the ServiceKey, with a key and without", test_announce_key },
	{ "announcements: a new client, new numbers", test_announce_new_numbers },
	{ "announcements: deleted when freed mid-sync or in a backoff",
	  test_announce_free_mid_sync },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_announce", tests);
}
