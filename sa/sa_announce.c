/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_announce.c - route announcements as SA ServiceRecords (sa_client.h has
 * the record format): registered as our port with a lease, refreshed before
 * it ends, registered again after a full sync (an SM that took over has none
 * of them: OpenSM keeps records in memory only), deleted when no longer
 * used and when the client goes.
 *
 * OpenSM (osm_sa_service_record.c) identifies a record by its ServiceID,
 * ServiceGID and ServiceP_Key and replaces it whole on a Set with the same
 * three; a record's lease counts in seconds from its last Set, and the
 * record goes when it ends, whether or not its port is still there.
 */
#include "sa/sa_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned int ad_records(size_t n)
{
	return (unsigned int)((n + SA_AD_PER_REC - 1) / SA_AD_PER_REC);
}

/* Record `idx` of the set (idx past the set: the RID alone, for a Delete). */
static void ad_record(const struct sa_client *c, unsigned int idx, struct ibr_sa_service_rec *r)
{
	unsigned int total = ad_records(c->ad.n);

	memset(r, 0, sizeof(*r));
	r->id = SA_AD_SERVICE_ID | idx;
	sa_own_gid(c, r->gid);
	r->pkey = 0xFFFF;
	r->lease = c->ad.lease_s;
	strcpy(r->name, SA_AD_SERVICE_NAME);
	if (idx >= total)
		return;
	memcpy(r->key, c->cfg.ad_key, sizeof(r->key));
	r->data8[0] = SA_AD_VERSION;
	r->data16[0] = (uint16_t)idx;
	r->data16[1] = (uint16_t)total;
	r->data32[0] = c->ad.gen;
	r->data32[1] = c->ad.beat;
	for (unsigned int i = 0; i < SA_AD_PER_REC; i++) {
		size_t k = (size_t)idx * SA_AD_PER_REC + i;

		if (k >= c->ad.n)
			break;
		r->data8[1]++;
		r->data8[2 + i] = c->ad.v[k].plen;
		r->data8[4 + i] = c->ad.v[k].metric;
		/* prefix 1 in ServiceData32[2..3], not ServiceData64[1]: see sa_client.h */
		if (i == 0) {
			r->data64[0] = c->ad.v[k].prefix;
		} else {
			r->data32[2] = (uint32_t)(c->ad.v[k].prefix >> 32);
			r->data32[3] = (uint32_t)c->ad.v[k].prefix;
		}
	}
}

/* What a Set gives: the whole record, the lease with it (else OpenSM makes it indefinite). */
#define AD_SET_MASK                                                                       \
	(IBR_SA_SR_COMP_RID | IBR_SA_SR_COMP_LEASE | IBR_SA_SR_COMP_NAME |                \
	 IBR_SA_SR_COMP_DATA8(0) | IBR_SA_SR_COMP_DATA8(1) | IBR_SA_SR_COMP_DATA8(2) |    \
	 IBR_SA_SR_COMP_DATA8(3) | IBR_SA_SR_COMP_DATA8(4) | IBR_SA_SR_COMP_DATA8(5) |    \
	 IBR_SA_SR_COMP_DATA16(0) | IBR_SA_SR_COMP_DATA16(1) | IBR_SA_SR_COMP_DATA32(0) | \
	 IBR_SA_SR_COMP_DATA32(1) | IBR_SA_SR_COMP_DATA32(2) | IBR_SA_SR_COMP_DATA32(3) | \
	 IBR_SA_SR_COMP_DATA64(0))

static bool ad_keyed(const struct sa_client *c)
{
	uint8_t any = 0;

	for (unsigned int i = 0; i < sizeof(c->cfg.ad_key); i++)
		any |= c->cfg.ad_key[i];
	return any != 0;
}

static int ad_send(struct sa_client *c, unsigned int idx, bool set)
{
	struct ibr_sa_service_rec r;
	uint8_t mad[IBR_MAD_SIZE];
	int rc;

	ad_record(c, idx, &r);
	/* with a key, the Set carries it (else OpenSM keeps the record's key as zero) */
	rc = ibr_sa_service_rec_build(mad, set ? IBR_MAD_METHOD_SET : IBR_MAD_METHOD_DELETE,
				      set ? AD_SET_MASK | (ad_keyed(c) ? IBR_SA_SR_COMP_KEY : 0)
					  : IBR_SA_SR_COMP_RID,
				      &r, c->cfg.sm_key, 0);
	if (!rc)
		rc = sa_send(c, mad, set ? SA_REQ_AD_SET : SA_REQ_AD_DEL, NULL);
	if (rc)
		c->st.ad_failures++;
	else if (set)
		c->st.ad_sets++;
	else
		c->st.ad_deletes++;
	return rc;
}

/* Every record of the set, then Deletes of those a shorter set no longer uses. */
static void ad_send_all(struct sa_client *c, uint64_t now)
{
	unsigned int total = ad_records(c->ad.n);

	c->ad.beat++; /* every Set of the set: the readers' sign that we live */
	for (unsigned int i = 0; i < total; i++)
		ad_send(c, i, true);
	for (unsigned int i = total; i < c->ad.regd; i++)
		ad_send(c, i, false);
	c->ad.regd = total;
	c->ad.dirty = false;
	c->ad.seen_syncs = c->st.syncs;
	/* a third of the lease: two refreshes may be lost before the records go */
	c->ad.next = total ? now + (uint64_t)c->ad.lease_s * 1000000000ull / 3 : 0;
}

int sa_client_announce(struct sa_client *c, const struct sa_route_ad *v, size_t n, uint32_t lease_s)
{
	struct sa_route_ad *copy = NULL;

	if (!lease_s || lease_s == IBR_SA_SERVICE_LEASE_INDEFINITE ||
	    ad_records(n) > SA_AD_MAX_RECS)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (v[i].plen > 64)
			return -EINVAL;
	if (n && !(copy = malloc(n * sizeof(*copy))))
		return -ENOMEM;
	if (n)
		memcpy(copy, v, n * sizeof(*copy));
	if (!c->ad.gen) {
		/*
		 * The first set of this client: generation and refresh count
		 * start from the wall clock (ms), so that a router that comes
		 * back does not repeat the numbers its dead self left at the
		 * SA (a reader would take it for the dead one: sa_peers.c).
		 */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->ad.gen = c->ad.beat = (uint32_t)((uint64_t)ts.tv_sec * 1000 +
						    ts.tv_nsec / 1000000);
	}
	free(c->ad.v);
	c->ad.v = copy;
	c->ad.n = n;
	c->ad.lease_s = lease_s;
	c->ad.gen++;
	c->ad.dirty = true;
	if (c->phase == SA_PHASE_READY)
		ad_send_all(c, sa_now(c));
	return 0;
}

unsigned int sa_client_announced(const struct sa_client *c)
{
	return c->ad.regd;
}

void sa_ad_tick(struct sa_client *c, uint64_t now)
{
	if (c->phase != SA_PHASE_READY || (!c->ad.n && !c->ad.regd))
		return;
	if (c->ad.dirty || c->ad.seen_syncs != c->st.syncs || (c->ad.next && now >= c->ad.next))
		ad_send_all(c, now);
}

void sa_ad_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r)
{
	uint16_t st = r->status == 0 ? ibr_mad_status(r->mad) : 0;

	/* a Delete of a record the SA no longer has (its lease ended) is no failure */
	if (r->status || (st && !(q->kind == SA_REQ_AD_DEL && st == IBR_SA_STATUS_NO_RECORDS))) {
		uint64_t retry = sa_now(c) + (uint64_t)c->cfg.backoff_ms * 1000000ull;

		c->st.ad_failures++;
		/* lost or refused: the whole set again after the client's backoff, not at once */
		if (q->kind == SA_REQ_AD_SET && (!c->ad.next || retry < c->ad.next))
			c->ad.next = retry;
	}
}

uint64_t sa_ad_deadline(const struct sa_client *c)
{
	if (c->phase != SA_PHASE_READY || (!c->ad.n && !c->ad.regd))
		return UINT64_MAX;
	if (c->ad.dirty || c->ad.seen_syncs != c->st.syncs)
		return 0;
	return c->ad.next ? c->ad.next : UINT64_MAX;
}

void sa_ad_free(struct sa_client *c)
{
	/*
	 * Withdrawn at once rather than left for the lease: no wait for the
	 * answers.  In any phase that knows the SM (a resync in flight, a
	 * backoff): the records are at the SA whatever the client is doing.
	 */
	if (c->phase != SA_PHASE_DOWN)
		for (unsigned int i = 0; i < c->ad.regd; i++)
			ad_send(c, i, false);
	free(c->ad.v);
	c->ad.v = NULL;
	c->ad.n = c->ad.regd = 0;
}
