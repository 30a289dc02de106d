/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for plugins/posm_mcast_check.c: what the plugin refuses of a
 * daemon's MCAST record before it asks OpenSM (each refusal on its own),
 * and a name for every reason.
 */
#include "plugins/posm.h"
#include "tests/unit/ibr_test.h"

#include "lib/ibr_plug.h"

#include <string.h>

#define GUID 0x0002c90300000a01ull

/* A join ibrouterd's policy sends: ff15::1:7, full member, the default partition. */
static struct ibr_plug_mcast join(void)
{
	struct ibr_plug_mcast r = {
		.mgid = { 0xFF, 0x15, [13] = 0x01, [15] = 0x07 },
		.guid = GUID,
		.qkey = 0x80010000,
		.flowlabel = 0x12345,
		.pkey = 0xFFFF,
		.sl = 0,
		.tclass = 0,
		.mtu = 4,  /* 2048 */
		.rate = 3, /* 10 Gb/s */
		.join_state = 1,
	};
	return r;
}

static enum posm_mcast_why check(const struct ibr_plug_mcast *r)
{
	return posm_mcast_check(r, NULL, 0);
}

static void test_accepted(void)
{
	struct ibr_plug_mcast r = join();

	CU_ASSERT_EQUAL(check(&r), POSM_MC_OK);
	r.mtu = r.rate = 0; /* the SA chooses */
	CU_ASSERT_EQUAL(check(&r), POSM_MC_OK);
	r.pkey = 0x7FFF; /* a limited member's P_Key is valid */
	r.sl = 15;
	r.mtu = 5;
	r.rate = 22;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_OK);
	r.join_state = 0;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_OK);
}

static void test_not_mcast(void)
{
	struct ibr_plug_mcast r = join();

	r.mgid[0] = 0xFE;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_NOT_MCAST);
	r.join_state = 0; /* a leave too */
	CU_ASSERT_EQUAL(check(&r), POSM_MC_NOT_MCAST);
	memset(r.mgid, 0, 16); /* the SA would invent an MGID: never from the plugin */
	CU_ASSERT_EQUAL(check(&r), POSM_MC_NOT_MCAST);
}

static void test_join_state(void)
{
	static const uint8_t refused[] = { 2, 3, 5, 8, 9, 0x0F, 0x11, 0xFF };
	struct ibr_plug_mcast r = join();

	for (size_t i = 0; i < sizeof(refused); i++) {
		r.join_state = refused[i];
		CU_ASSERT_EQUAL(check(&r), POSM_MC_JOIN_STATE);
	}
	/* a feed's port the router only sends into: SendOnlyNonMember, checked as a join */
	r.join_state = 4;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_OK);
	r.pkey = 0x8000;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_PKEY);
}

static void test_pkey(void)
{
	struct ibr_plug_mcast r = join();

	r.pkey = 0;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_PKEY);
	r.pkey = 0x8000;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_PKEY);
	r.join_state = 0; /* a leave carries no P_Key */
	CU_ASSERT_EQUAL(check(&r), POSM_MC_OK);
}

static void test_sl(void)
{
	struct ibr_plug_mcast r = join();

	r.sl = 16;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_SL);
	r.sl = 0xFF;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_SL);
}

static void test_mtu_rate(void)
{
	struct ibr_plug_mcast r = join();

	r.mtu = 6;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_MTU);
	r.mtu = 0x45; /* a selector in the code's bits */
	CU_ASSERT_EQUAL(check(&r), POSM_MC_MTU);
	r = join();
	r.rate = 1;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_RATE);
	r.rate = 23;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_RATE);
	r.rate = 0x83;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_RATE);
	r.join_state = 0;
	CU_ASSERT_EQUAL(check(&r), POSM_MC_OK);
}

static void test_guid_served(void)
{
	const uint64_t serve[] = { 0x1111, GUID, 0x2222 };
	struct ibr_plug_mcast r = join();

	CU_ASSERT_EQUAL(posm_mcast_check(&r, serve, 3), POSM_MC_OK);
	CU_ASSERT_EQUAL(posm_mcast_check(&r, serve, 1), POSM_MC_NOT_SERVED);
	r.join_state = 0; /* a leave of a port not served is refused as well */
	CU_ASSERT_EQUAL(posm_mcast_check(&r, serve, 1), POSM_MC_NOT_SERVED);
	r.guid = 0;
	CU_ASSERT_EQUAL(posm_mcast_check(&r, NULL, 0), POSM_MC_GUID);
	CU_ASSERT_EQUAL(posm_mcast_check(&r, serve, 3), POSM_MC_GUID);
}

/* The record as it comes off the wire: each byte in its place (lib/ibr_plug.c). */
static void test_from_wire(void)
{
	struct ibr_plug_mcast r = join(), back;
	uint8_t w[IBR_PLUG_MCAST_LEN];

	ibr_plug_mcast_put(w, &r);
	ibr_plug_mcast_get(w, &back);
	CU_ASSERT_EQUAL(check(&back), POSM_MC_OK);
	w[38] = 2; /* join_state */
	ibr_plug_mcast_get(w, &back);
	CU_ASSERT_EQUAL(check(&back), POSM_MC_JOIN_STATE);
	w[38] = 1;
	w[34] = 16; /* sl */
	ibr_plug_mcast_get(w, &back);
	CU_ASSERT_EQUAL(check(&back), POSM_MC_SL);
}

static void test_names(void)
{
	for (int i = 0; i < POSM_MC_NREASONS; i++) {
		const char *n = posm_mcast_why_name((enum posm_mcast_why)i);

		CU_ASSERT_PTR_NOT_NULL_FATAL(n);
		CU_ASSERT_STRING_NOT_EQUAL(n, "unknown reason");
		for (int j = 0; j < i; j++)
			CU_ASSERT_STRING_NOT_EQUAL(n, posm_mcast_why_name((enum posm_mcast_why)j));
	}
	CU_ASSERT_STRING_EQUAL(posm_mcast_why_name(POSM_MC_NREASONS), "unknown reason");
	CU_ASSERT_STRING_EQUAL(posm_mcast_why_name((enum posm_mcast_why) - 1), "unknown reason");
}

static CU_TestInfo tests[] = {
	{ "a join and a leave accepted", test_accepted },
	{ "not a multicast GID", test_not_mcast },
	{ "join states other than 1 and 0", test_join_state },
	{ "invalid P_Keys", test_pkey },
	{ "SL above 15", test_sl },
	{ "MTU and rate codes", test_mtu_rate },
	{ "port GUID 0, ports not served", test_guid_served },
	{ "records from the wire", test_from_wire },
	{ "every reason has its own name", test_names },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("posm_mcast_check", tests);
}
