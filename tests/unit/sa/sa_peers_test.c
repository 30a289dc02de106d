/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_peers_test.c - the other routers' announcements (sa/sa_peers.c) against
 * the fake subnet of sa_fake.h: routers found by their records whatever
 * their NodeType (a GetTable of every set's record 0, whole through kernel
 * RMPP or RMPP on the wire, probes where tables are cut), records read by
 * RID, a refresh count that stops, traps 64 and 65 of router ports, hostile
 * records, reading turned off.
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

/* ---- the other routers' announcements (sa_peers.c) ---- */

#define GUID_R2 0x0002c90000000901ull /* another router's port */
#define GUID_R3 0x0002c90000000a01ull
#define GUID_R4 0x0002c90000000b01ull
#define GUID_R5 0x0002c90000000c01ull
#define LID_R2	12
#define LID_R3	14
#define LID_R4	16
#define LID_R5	18

static struct {
	unsigned int calls;
} PEERS_CB;

static void cb_peers(void *arg)
{
	(void)arg;
	PEERS_CB.calls++;
}

/*
 * Router `guid`'s announcement set as it registers it (the format of
 * sa_client.h, written out here from the text, not by sa_announce.c):
 * ceil(n / 2) records, generation gen, refresh count beat, lease lease_s.
 * Records past the set are deleted.
 */
static void peer_announce(uint64_t guid, const struct sa_route_ad *v, unsigned int n, uint32_t gen,
			  uint32_t beat, uint32_t lease_s)
{
	unsigned int total = (n + 1) / 2;

	for (unsigned int idx = 0; idx < 64; idx++) {
		struct ibr_sa_service_rec r = { .id = 0x1000140549520000ull | idx, .pkey = 0xFFFF };
		int i;

		ibr_mad_st64(r.gid, PREFIX);
		ibr_mad_st64(r.gid + 8, guid);
		i = fsr_find(&r);
		if (idx >= total) {
			if (i >= 0)
				F->sr_used[i] = false;
			continue;
		}
		r.lease = lease_s;
		strcpy(r.name, "ibrouter.route-exchange.v1");
		r.data8[0] = 1;
		r.data16[0] = (uint16_t)idx;
		r.data16[1] = (uint16_t)total;
		r.data32[0] = gen;
		r.data32[1] = beat;
		for (unsigned int k = 0; k < 2 && 2 * idx + k < n; k++) {
			const struct sa_route_ad *a = &v[2 * idx + k];

			r.data8[1]++;
			r.data8[2 + k] = a->plen;
			r.data8[4 + k] = a->metric;
			if (k == 0) {
				r.data64[0] = a->prefix;
			} else {
				r.data32[2] = (uint32_t)(a->prefix >> 32);
				r.data32[3] = (uint32_t)a->prefix;
			}
		}
		if (i < 0)
			for (i = 0; i < MAX_SR && F->sr_used[i]; i++)
				;
		CU_ASSERT_FATAL(i < MAX_SR);
		F->sr_used[i] = true;
		F->sr[i] = r;
	}
}

/* Record idx of router guid at the fake SA (to spoil it), or NULL. */
static struct ibr_sa_service_rec *peer_rec(uint64_t guid, unsigned int idx)
{
	struct ibr_sa_service_rec r = { .id = 0x1000140549520000ull | idx, .pkey = 0xFFFF };
	int i;

	ibr_mad_st64(r.gid, PREFIX);
	ibr_mad_st64(r.gid + 8, guid);
	i = fsr_find(&r);
	return i < 0 ? NULL : &F->sr[i];
}

static const struct sa_route_ad PADS[3] = {
	{ 0xfec0000000000003ull, 64, 1 },
	{ 0xfec0000000000400ull, 56, 2 },
	{ 0xfec0000000050000ull, 48, 20 }, /* past 16: read as 16, unreachable */
};

static const struct sa_client_ops PEERS_OPS = {
	.port = cb_port, .changed = cb_changed, .report = cb_report, .peers = cb_peers
};

/*
 * The default subnet with router ports R2 (LID 12, announcing PADS) and R3
 * (LID 14, none), of NodeType `type` (3 a Router node, 1 a CA port: an HCA's
 * firmware answers its SMPs); the fake in mode `cut` (umad2sim).
 */
static void peers_start_as(uint32_t interval_ms, uint8_t type, bool cut)
{
	struct sa_client_config cfg = default_cfg();

	memset(&PEERS_CB, 0, sizeof(PEERS_CB));
	fake_new(cut, 0, true);
	fport_add(GUID_R2, GUID_R2 - 1, LID_R2, 0, type, 1, 1);
	fport_add(GUID_R3, GUID_R3 - 1, LID_R3, 0, type, 1, 1);
	peer_announce(GUID_R2, PADS, 3, 7, 1, 60);
	SC = sa_client_new(CH, &cfg, &PEERS_OPS, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(SC);
	sa_client_peer_interval(SC, interval_ms);
	run_ms(1);
}

static void peers_start(uint32_t interval_ms)
{
	peers_start_as(interval_ms, 3, false);
}

static const struct sa_peer *peer_of(uint64_t guid)
{
	const struct sa_peer *v;
	size_t n = sa_client_peers(SC, &v);

	for (size_t i = 0; i < n; i++)
		if (v[i].guid == guid)
			return &v[i];
	return NULL;
}

/*
 * The routers of the subnet found by their records (one GetTable of every
 * set's record 0), ours aside; each one's records read whole, by RID; a
 * router port that announces nothing is none of them until it does
 */
static void test_peers_read(void)
{
	const struct sa_peer *p;
	const struct sa_peer *v;

	peers_start(5000);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 1); /* R2; not R3 (no records), not us */
	CU_ASSERT_PTR_NULL(peer_of(GUID_US));
	CU_ASSERT_PTR_NULL(peer_of(GUID_R3));
	p = peer_of(GUID_R2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT(p->read);
	CU_ASSERT(!p->expired);
	CU_ASSERT_EQUAL(p->lid, LID_R2);
	CU_ASSERT_EQUAL(p->lease_s, 60);
	CU_ASSERT_EQUAL(p->gen, 7);
	CU_ASSERT_EQUAL_FATAL(p->n, 3);
	CU_ASSERT_EQUAL(p->ad[0].prefix, PADS[0].prefix);
	CU_ASSERT_EQUAL(p->ad[0].plen, 64);
	CU_ASSERT_EQUAL(p->ad[0].metric, 1);
	CU_ASSERT_EQUAL(p->ad[1].prefix, PADS[1].prefix);
	CU_ASSERT_EQUAL(p->ad[1].plen, 56);
	CU_ASSERT_EQUAL(p->ad[1].metric, 2);
	CU_ASSERT_EQUAL(p->ad[2].prefix, PADS[2].prefix);
	CU_ASSERT_EQUAL(p->ad[2].metric, 16);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_records, 2);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_refused, 0);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_scans, 1);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_probes, 0);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1); /* R2's prefixes */
	/* one GetTable found it; each Get asks one RID: R2's two records */
	CU_ASSERT_EQUAL(F->sr_tables, 1);
	CU_ASSERT_EQUAL(F->sr_gets, 2);
	/* the same set at the next read: no callback */
	run_ms(5000);
	CU_ASSERT_EQUAL(F->sr_gets, 4);
	CU_ASSERT_EQUAL(F->sr_tables, 2);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1);
	/* a new generation: read anew, the callback */
	peer_announce(GUID_R2, PADS, 1, 8, 2, 60);
	run_ms(5000);
	p = peer_of(GUID_R2);
	CU_ASSERT_EQUAL(p->n, 1);
	CU_ASSERT_EQUAL(p->gen, 8);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	/* R3 begins to announce: found at the next scan */
	peer_announce(GUID_R3, PADS + 1, 1, 3, 1, 60);
	run_ms(5000);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 2);
	p = peer_of(GUID_R3);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->lid, LID_R3);
	CU_ASSERT_EQUAL(p->n, 1);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 3);
	stop();
}

/*
 * What real hardware shows: the router ports are Channel Adapters to their
 * SM (NodeType 1, never 3), and several routers answer one GetTable; our
 * own records, a host without records, a record of another prefix's GID
 * and one of a port not (yet) in the subnet make no peer
 */
static void test_peers_ca(void)
{
	static const struct sa_route_ad ours = { 0xfec0000000000009ull, 64, 1 };
	const struct sa_peer *v;
	struct ibr_sa_service_rec stale = { .id = 0x1000140549520000ull, .pkey = 0xFFFF };

	peers_start_as(5000, 1, false);
	CU_ASSERT_EQUAL_FATAL(sa_client_announce(SC, &ours, 1, 60), 0);
	fport_add(GUID_R4, GUID_R4 - 1, LID_R4, 0, 3, 1, 1); /* a Router node beside them */
	peer_announce(GUID_R3, PADS, 2, 1, 1, 60);
	peer_announce(GUID_R4, PADS + 2, 1, 1, 1, 60);
	peer_announce(GUID_R5, PADS, 1, 1, 1, 60); /* not in the subnet yet */
	/* a record left by another prefix's SM: the GID is not of this subnet */
	strcpy(stale.name, "ibrouter.route-exchange.v1");
	stale.lease = 60;
	ibr_mad_st64(stale.gid, PREFIX_B);
	ibr_mad_st64(stale.gid + 8, GUID_C);
	F->sr[MAX_SR - 1] = stale;
	F->sr_used[MAX_SR - 1] = true;
	inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_R4, NULL, true);
	pump();
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 3);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->lid, LID_R2);
	CU_ASSERT_EQUAL(peer_of(GUID_R3)->n, 2);
	CU_ASSERT_EQUAL(peer_of(GUID_R4)->n, 1);
	CU_ASSERT_EQUAL(peer_of(GUID_R4)->lid, LID_R4);
	CU_ASSERT_PTR_NULL(peer_of(GUID_US));
	CU_ASSERT_PTR_NULL(peer_of(GUID_C));
	CU_ASSERT_PTR_NULL(peer_of(GUID_R5));
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_refused, 0);
	/* R5's port comes (trap 64): found at once, long before the interval */
	fport_add(GUID_R5, GUID_R5 - 1, LID_R5, 0, 1, 1, 1);
	inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_R5, NULL, true);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(peer_of(GUID_R5));
	CU_ASSERT_EQUAL(peer_of(GUID_R5)->lid, LID_R5);
	CU_ASSERT_EQUAL(peer_of(GUID_R5)->n, 1);
	/* R3 withdraws (its records deleted): still a router of the subnet, announcing none */
	peer_announce(GUID_R3, PADS, 0, 1, 1, 60);
	run_ms(5000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(peer_of(GUID_R3));
	CU_ASSERT_EQUAL(peer_of(GUID_R3)->n, 0);
	CU_ASSERT(!peer_of(GUID_R3)->expired);
	stop();
}

/* A long answer as RMPP segments on the wire (ibsim's transport has no RMPP): reassembled */
static void test_peers_wire_rmpp(void)
{
	struct sa_client_config cfg = default_cfg();
	const struct sa_peer *v;

	memset(&PEERS_CB, 0, sizeof(PEERS_CB));
	fake_new(false, 0, true);
	fake_wire_rmpp();
	fport_add(GUID_R2, GUID_R2 - 1, LID_R2, 0, 1, 1, 1);
	fport_add(GUID_R3, GUID_R3 - 1, LID_R3, 0, 1, 1, 1);
	fport_add(GUID_R4, GUID_R4 - 1, LID_R4, 0, 3, 1, 1);
	fport_add(GUID_R5, GUID_R5 - 1, LID_R5, 0, 1, 1, 1);
	peer_announce(GUID_R2, PADS, 3, 1, 1, 60);
	peer_announce(GUID_R3, PADS, 1, 1, 1, 60);
	peer_announce(GUID_R4, PADS, 2, 1, 1, 60);
	peer_announce(GUID_R5, PADS + 1, 2, 1, 1, 60);
	SC = sa_client_new(CH, &cfg, &PEERS_OPS, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(SC);
	sa_client_peer_interval(SC, 5000);
	run_ms(1);
	CU_ASSERT_EQUAL(sa_client_phase(SC), SA_PHASE_READY);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 4);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	CU_ASSERT_EQUAL(peer_of(GUID_R3)->n, 1);
	CU_ASSERT_EQUAL(peer_of(GUID_R4)->n, 2);
	CU_ASSERT_EQUAL(peer_of(GUID_R5)->n, 2);
	/* four record 0s (704 bytes): four segments, the last ACKed */
	CU_ASSERT(F->rmpp_segments >= 4);
	CU_ASSERT(F->rmpp_done >= 1);
	CU_ASSERT(mad_chan_stats(CH)->rmpp_segments >= 4);
	CU_ASSERT_EQUAL(mad_chan_stats(CH)->rmpp_aborts, 0);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_probes, 0);
	stop();
}

/*
 * Tables cut after one MAD (umad2sim): each end port is asked for its
 * record 0 (a probe), switches and ours not, the known routers not again;
 * a GetTable cut on the way turns the scans into probes too
 */
static void test_peers_cut(void)
{
	const struct sa_peer *v;
	uint64_t probes;

	peers_start_as(5000, 1, true);
	CU_ASSERT_FALSE(sa_client_stats(SC)->table_mode);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 1);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	CU_ASSERT_EQUAL(F->sr_tables, 0); /* the sync saw cut tables: no GetTable */
	/* end ports A, B1, B2, C, R2 and R3: six probes (not the switch, not us) */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_probes, 6);
	probes = sa_client_stats(SC)->peer_probes;
	peer_announce(GUID_R3, PADS, 1, 1, 1, 60);
	run_ms(5000);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 2);
	CU_ASSERT_EQUAL(peer_of(GUID_R3)->n, 1);
	/* R2 is known: five probes this time */
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_probes, probes + 5);
	stop();

	/* kernel RMPP at the sync, then an SA whose ServiceRecord tables come back cut */
	peers_start_as(5000, 1, false);
	peer_announce(GUID_R3, PADS, 1, 1, 1, 60);
	F->cut = true;
	run_ms(5000);
	CU_ASSERT(sa_client_stats(SC)->table_mode);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 2);
	CU_ASSERT_EQUAL(peer_of(GUID_R3)->n, 1);
	CU_ASSERT(sa_client_stats(SC)->peer_probes > 0);
	probes = sa_client_stats(SC)->peer_probes;
	run_ms(5000); /* from now on probes alone */
	CU_ASSERT_EQUAL(F->sr_tables, 2);
	CU_ASSERT(sa_client_stats(SC)->peer_probes > probes);
	stop();
}

/* A scan that fails is counted (and said once); an SA that answers what was not asked: refused */
static void test_peers_scan_fails(void)
{
	uint64_t fails;

	peers_start(5000);
	F->sr_table_busy = IBR_SA_STATUS_NO_RESOURCES;
	run_ms(5000);
	fails = sa_client_stats(SC)->peer_read_failures;
	CU_ASSERT(fails > 0);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3); /* what was read stands */
	F->sr_table_busy = 0;
	F->sr_table_all = true; /* every record, whatever the query asked */
	run_ms(5000);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_read_failures, fails);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_refused, 1); /* R2's record 1 */
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	stop();
}

/*
 * A router whose refresh count stops (killed: its records outlive it at the
 * SA): expired after 2/3 of its lease and one interval, its prefixes
 * dropped; back when the count moves again
 */
static void test_peers_expire(void)
{
	const struct sa_peer *p;
	uint64_t t0 = now_ns;

	peers_start(5000);
	/* refreshed every 20 s (a third of 60): alive for two minutes */
	for (uint32_t beat = 2; beat < 8; beat++) {
		run_ms(20000);
		peer_announce(GUID_R2, PADS, 3, 7, beat, 60);
	}
	p = peer_of(GUID_R2);
	CU_ASSERT(!p->expired);
	CU_ASSERT_EQUAL(p->n, 3);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1);
	/* it stops: expired between 40 s + 5 s and 40 s + 5 s + one read after its last refresh */
	t0 = now_ns;
	run_ms(40000);
	CU_ASSERT(!peer_of(GUID_R2)->expired);
	run_ms(10000);
	p = peer_of(GUID_R2);
	CU_ASSERT(p->expired);
	CU_ASSERT_EQUAL(p->n, 0);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_expired, 1);
	(void)t0;
	/* its records are still at the SA: reading them does not bring it back */
	run_ms(20000);
	CU_ASSERT(peer_of(GUID_R2)->expired);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	/* nor does their lease ending at the SA: it died, it did not withdraw */
	peer_announce(GUID_R2, PADS, 0, 7, 7, 60);
	run_ms(5000);
	CU_ASSERT(peer_of(GUID_R2)->expired);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 0);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	/* it comes back (a new count): its prefixes again */
	peer_announce(GUID_R2, PADS, 3, 1, 1, 60);
	run_ms(5000);
	p = peer_of(GUID_R2);
	CU_ASSERT(!p->expired);
	CU_ASSERT_EQUAL(p->n, 3);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 3);
	/* its lease ends at the SA (records gone): nothing announced */
	peer_announce(GUID_R2, PADS, 0, 1, 1, 60);
	run_ms(5000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 0);
	CU_ASSERT(!peer_of(GUID_R2)->expired);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 4);
	stop();
}

/* A router port that leaves (trap 65) takes its prefixes; one that comes (trap 64) is read at once */
static void test_peers_traps(void)
{
	size_t mark;

	peers_start(60000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	fport_del(GUID_R2);
	inject_report(IBR_TRAP_GID_OUT_OF_SERVICE, PREFIX, GUID_R2, NULL, true);
	pump();
	CU_ASSERT_PTR_NULL(peer_of(GUID_R2));
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	/* back, long before the next read of the interval */
	fport_add(GUID_R2, GUID_R2 - 1, 16, 0, 3, 1, 1);
	mark = F->sr_gets;
	inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_R2, NULL, true);
	pump();
	CU_ASSERT_PTR_NOT_NULL_FATAL(peer_of(GUID_R2));
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->lid, 16); /* its new LID */
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	CU_ASSERT_EQUAL(F->sr_gets, mark + 2);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 3);
	/* a host (no records) coming is no peer */
	fport_add(GUID_D, GUID_D - 1, 20, 0, 1, 1, 1);
	inject_report(IBR_TRAP_GID_IN_SERVICE, PREFIX, GUID_D, NULL, true);
	pump();
	CU_ASSERT_PTR_NULL(peer_of(GUID_D));
	stop();
}

/* Records that do not hold are refused, the read dropped, what was read before kept */
static void test_peers_hostile(void)
{
	static const struct {
		const char *what;
		unsigned int idx;
		int field;
	} bad[] = {
		{ "a name not ours", 0, 0 },
		{ "version 2", 0, 1 },
		{ "three prefixes", 0, 2 },
		{ "a length past 64", 1, 3 },
		{ "bits past the length", 1, 4 },
		{ "metric 0", 0, 5 },
		{ "index not the RID's", 1, 6 },
		{ "another generation", 1, 7 },
		{ "no lease", 0, 8 },
		{ "a short middle record", 0, 9 },
		{ "no records counted", 0, 10 },
	};
	uint64_t refused = 0;

	peers_start(5000);
	/* a lease of an hour: the reads refused below do not expire it */
	peer_announce(GUID_R2, PADS, 3, 7, 1, 3600);
	run_ms(5000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->lease_s, 3600);
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		struct ibr_sa_service_rec *r;
		const struct sa_peer *p;

		peer_announce(GUID_R2, PADS, 3, 9 + (uint32_t)b, 1, 60);
		r = peer_rec(GUID_R2, bad[b].idx);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		switch (bad[b].field) {
		case 0:
			strcpy(r->name, "ibrouter.route-exchange.v0");
			break;
		case 1:
			r->data8[0] = 2;
			break;
		case 2:
			r->data8[1] = 3;
			break;
		case 3:
			r->data8[2] = 65;
			break;
		case 4:
			r->data8[2] = 40;
			break; /* 0xfec0000000050000 has bits past /40 */
		case 5:
			r->data8[4] = 0;
			break;
		case 6:
			r->data16[0] = 0;
			break;
		case 7:
			r->data32[0] = 1;
			break;
		case 8:
			r->lease = 0;
			break;
		case 9:
			r->data8[1] = 1;
			break; /* record 0 of 2 with one prefix */
		case 10:
			r->data16[1] = 0;
			break;
		}
		run_ms(5000);
		p = peer_of(GUID_R2);
		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		/* what the first read gave stands */
		CU_ASSERT_EQUAL(p->gen, 7);
		CU_ASSERT_EQUAL(p->n, 3);
		if (sa_client_stats(SC)->peer_refused != refused + 1)
			fprintf(stderr, "not refused: %s\n", bad[b].what);
		CU_ASSERT_EQUAL(sa_client_stats(SC)->peer_refused, refused + 1);
		refused = sa_client_stats(SC)->peer_refused;
	}
	CU_ASSERT_EQUAL(PEERS_CB.calls, 1);
	/* an SA that answers a Get with an error: the read fails, nothing changes */
	F->sr_get_busy = IBR_SA_STATUS_NO_RESOURCES;
	run_ms(5000);
	CU_ASSERT(sa_client_stats(SC)->peer_read_failures > 0);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	F->sr_get_busy = 0;
	/* a good set again: taken */
	peer_announce(GUID_R2, PADS, 2, 30, 2, 60);
	run_ms(5000);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 2);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	stop();
}

/* Interval 0: no Gets, the peers forgotten (the callback when some announced) */
static void test_peers_off(void)
{
	const struct sa_peer *v;

	peers_start(5000);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 1);
	sa_client_peer_interval(SC, 0);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 0);
	CU_ASSERT_EQUAL(PEERS_CB.calls, 2);
	F->sr_gets = F->sr_tables = 0;
	run_ms(30000);
	CU_ASSERT_EQUAL(F->sr_gets, 0);
	CU_ASSERT_EQUAL(F->sr_tables, 0);
	/* on again: read at the next tick */
	sa_client_peer_interval(SC, 5000);
	run_ms(1);
	CU_ASSERT_EQUAL(sa_client_peers(SC, &v), 1);
	CU_ASSERT_EQUAL(peer_of(GUID_R2)->n, 3);
	stop();
}

static CU_TestInfo tests[] = {
	{ "peers: the routers found by their records, read by RID, ours not", test_peers_read },
	{ "peers: CA router ports (real HCAs) found, several in one GetTable", test_peers_ca },
	{ "peers: a long GetTable answer as RMPP segments on the wire", test_peers_wire_rmpp },
	{ "peers: tables cut (umad2sim): each end port probed", test_peers_cut },
	{ "peers: scans that fail counted, answers not asked for refused", test_peers_scan_fails },
	{ "peers: a refresh count that stops expires the router", test_peers_expire },
	{ "peers: trap 65 forgets a router, trap 64 reads it at once", test_peers_traps },
	{ "peers: hostile records refused, what was read kept", test_peers_hostile },
	{ "peers: interval 0 forgets them", test_peers_off },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sa_peers", tests);
}
