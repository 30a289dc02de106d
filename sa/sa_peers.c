/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_peers.c - the other routers' route announcements, read from the SA
 * (the records: sa_client.h; the peers: struct sa_peer).  The routers of
 * the subnet are the end ports whose announcements the SA holds, whatever
 * their NodeType: on an HCA the firmware answers the SMPs and the SM sees
 * a router's port as a Channel Adapter (NodeType 1), in the simulator it
 * may be a Router node (3).  A scan finds them by their own records: one
 * GetTable of record 0 of every set (ServiceID SA_AD_SERVICE_ID | 0 and
 * ServiceName, 15.2.5.14; OpenSM compares both and answers with RMPP when
 * the answer is long), or, where tables come back cut after one MAD (no
 * RMPP behind umad2sim), a Get of record 0 by RID to each end port of the
 * neighbour table (a probe).  A router found stays a peer while its port is
 * in the neighbour table (its records withdrawn: it announces nothing); its
 * records are asked one at a time by their RID (ServiceID, ServiceGID,
 * ServiceP_Key: 15.2.5.14), so an SA whose GetTables come back cut answers
 * them all, and an SA with thousands of other services is not asked for
 * them.
 *
 * Every answer is hostile input: a record whose RID, name, version, counts
 * or prefixes do not hold is refused and the read dropped (the peer keeps
 * what was read before), counted in peer_refused.
 */
#include "sa/sa_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_MS 1000000ull
#define NS_PER_S  1000000000ull

/* Probes a scan sends where tables are cut: the next scan goes on from there. */
#define SA_PEERS_PROBE_MAX 256

static void peers_scan(struct sa_client *c);

static struct sa_peer *peer_find(struct sa_client *c, uint64_t guid)
{
	for (size_t i = 0; i < c->peers.n; i++)
		if (c->peers.v[i].guid == guid)
			return &c->peers.v[i];
	return NULL;
}

/* When p counts as dead if its refresh count does not move (sa_peers_tick). */
static uint64_t peer_dead_at(const struct sa_client *c, const struct sa_peer *p)
{
	return p->beat_ns + (uint64_t)p->lease_s * NS_PER_S * 2 / 3 +
	       (uint64_t)c->peers.interval_ms * NS_PER_MS;
}

static void peer_clear(struct sa_peer *p)
{
	free(p->ad);
	free(p->rd);
}

static void peers_notify(struct sa_client *c)
{
	if (c->ops.peers)
		c->ops.peers(c->arg);
}

/* A Get of record `idx` of the set of port `guid` (its RID), as request `kind`. */
static int rid_get(struct sa_client *c, uint64_t guid, unsigned int idx, enum sa_req_kind kind,
		   uint32_t seq)
{
	struct ibr_sa_service_rec r = { .id = SA_AD_SERVICE_ID | idx, .pkey = 0xFFFF };
	struct sa_req q = { .seq = seq, .lid = (uint16_t)idx };
	uint8_t mad[IBR_MAD_SIZE];
	int rc;

	ibr_mad_st64(r.gid, c->ps.prefix);
	ibr_mad_st64(r.gid + 8, guid);
	memcpy(q.gid, r.gid, 16);
	rc = ibr_sa_service_rec_build(mad, IBR_MAD_METHOD_GET, IBR_SA_SR_COMP_RID, &r,
				      c->cfg.sm_key, 0);
	if (!rc)
		rc = sa_send(c, mad, kind, &q);
	return rc;
}

/* Ask record `idx` of peer p. */
static int peer_get(struct sa_client *c, struct sa_peer *p, unsigned int idx)
{
	return rid_get(c, p->guid, idx, SA_REQ_PEER_GET, p->rd_seq);
}

/* Start a read of p's records; the next one an interval after this one. */
static void peer_read(struct sa_client *c, struct sa_peer *p)
{
	if (p->rd_busy || c->phase != SA_PHASE_READY || !c->peers.interval_ms)
		return;
	p->next_read_ns = sa_now(c) + (uint64_t)c->peers.interval_ms * NS_PER_MS;
	p->rd_busy = true;
	p->rd_seq = ++c->peers.seq;
	p->rd_n = 0;
	p->rd_total = 0;
	p->rd_next = 0;
	if (peer_get(c, p, 0)) {
		p->rd_busy = false;
		c->st.peer_read_failures++;
	}
}

/* The read of p ended: its result (a complete set: swapped in) or nothing. */
static void peer_read_done(struct sa_client *c, struct sa_peer *p, bool complete)
{
	uint64_t now = sa_now(c);
	bool changed;

	p->rd_busy = false;
	if (!complete) {
		c->st.peer_read_failures++;
		return;
	}
	p->read_ns = now;
	/*
	 * A dead router stays expired while its count stands still: its
	 * records still at the SA, or gone at the end of their lease (a read
	 * of none keeps the count), so `show peers` still tells a router that
	 * died from one that withdrew.  A new count brings it back.
	 */
	if (p->read && p->expired && p->rd_beat == p->beat)
		return;
	/* what the daemon sees: the prefixes (an expired peer has none) */
	changed = p->n != p->rd_n;
	for (size_t i = 0; !changed && i < p->n; i++)
		changed = p->ad[i].prefix != p->rd[i].prefix || p->ad[i].plen != p->rd[i].plen ||
			  p->ad[i].metric != p->rd[i].metric; /* fields: the padding is not set */
	if (!p->read || p->beat != p->rd_beat || p->expired)
		p->beat_ns = now;
	p->read = true;
	p->expired = false;
	p->gen = p->rd_gen;
	p->beat = p->rd_beat;
	p->lease_s = p->rd_lease;
	if (changed) {
		free(p->ad);
		p->ad = p->rd;
		p->n = p->rd_n;
		p->rd = NULL;
		p->rd_n = p->rd_cap = 0;
		log_info("sa: %s: router 0x%016llx (lid %u) announces %zu prefixes", c->name,
			 (unsigned long long)p->guid, p->lid, p->n);
		peers_notify(c);
	}
}

/* Record `idx` of p's set, checked; its prefixes appended to the read.  0 or -EINVAL. */
static int peer_take(struct sa_client *c, struct sa_peer *p, unsigned int idx,
		     const struct ibr_sa_service_rec *r)
{
	uint8_t gid[16];
	unsigned int k = r->data8[1];

	ibr_mad_st64(gid, c->ps.prefix);
	ibr_mad_st64(gid + 8, p->guid);
	if (r->id != (SA_AD_SERVICE_ID | idx) || memcmp(r->gid, gid, 16) ||
	    strcmp(r->name, SA_AD_SERVICE_NAME) || r->data8[0] != SA_AD_VERSION ||
	    r->data16[0] != idx || !r->data16[1] || r->data16[1] > SA_AD_MAX_RECS ||
	    k > SA_AD_PER_REC || !r->lease)
		return -EINVAL;
	if (idx == 0) {
		p->rd_total = r->data16[1];
		p->rd_gen = r->data32[0];
		p->rd_beat = r->data32[1];
		p->rd_lease = r->lease;
	} else if (r->data16[1] != p->rd_total || r->data32[0] != p->rd_gen) {
		return -EINVAL; /* the set changed while we read it */
	}
	/* every record but the last is full: a set of n prefixes has ceil(n / 2) records */
	if (k == 0 ? p->rd_total != 1 : (idx + 1 < p->rd_total && k != SA_AD_PER_REC))
		return -EINVAL;
	for (unsigned int i = 0; i < k; i++) {
		struct sa_route_ad a = {
			.prefix = i == 0 ? r->data64[0]
					 : (uint64_t)r->data32[2] << 32 | r->data32[3],
			.plen = r->data8[2 + i],
			.metric = r->data8[4 + i],
		};

		if (a.plen > 64 || (a.plen < 64 && (a.prefix << a.plen)) || !a.metric)
			return -EINVAL; /* bits past the length, or a metric of 0 */
		if (a.metric > 16)
			a.metric = 16;
		if (p->rd_n == p->rd_cap) {
			size_t nc = p->rd_cap ? p->rd_cap * 2 : 8;
			struct sa_route_ad *nv = realloc(p->rd, nc * sizeof(*nv));

			if (!nv)
				return -ENOMEM;
			p->rd = nv;
			p->rd_cap = nc;
		}
		p->rd[p->rd_n++] = a;
	}
	return 0;
}

static void peer_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r)
{
	struct sa_peer *p = peer_find(c, ibr_mad_ld64(q->gid + 8));
	uint16_t st = r->status == 0 || r->status == -EMSGSIZE ? ibr_mad_status(r->mad) : 0;
	struct ibr_sa_service_rec rec;
	unsigned int idx = q->lid;

	if (!p || !p->rd_busy || p->rd_seq != q->seq)
		return; /* a read of a router gone, or one dropped */
	if (r->status && r->status != -EMSGSIZE) {
		peer_read_done(c, p, false);
		return;
	}
	if (st == IBR_SA_STATUS_NO_RECORDS && idx == 0) {
		/* none: the router announces nothing (or its lease ended at the SA) */
		p->rd_n = 0;
		p->rd_gen = p->gen;
		p->rd_beat = p->beat;
		p->rd_lease = p->lease_s;
		peer_read_done(c, p, true);
		return;
	}
	if (st || ibr_sa_service_rec_table_decode(r->mad, r->len, &rec, 1, NULL) != 1 ||
	    peer_take(c, p, idx, &rec)) {
		if (!st)
			c->st.peer_refused++;
		peer_read_done(c, p, false);
		return;
	}
	c->st.peer_records++;
	if (idx + 1 < p->rd_total) {
		if (peer_get(c, p, idx + 1))
			peer_read_done(c, p, false);
		return;
	}
	peer_read_done(c, p, true);
}

/* ---- finding the routers: their records 0 ---- */

static const char *node_type_name(uint8_t t)
{
	return t == 1 ? "a CA port" : t == 3 ? "a Router node" : "an end port";
}

/* End port nb of the neighbour table a peer, read at once. */
static void peer_add(struct sa_client *c, const struct sa_neigh *nb)
{
	struct sa_peer *p;

	if (c->peers.n == c->peers.cap) {
		size_t nc = c->peers.cap ? c->peers.cap * 2 : 4;
		struct sa_peer *nv = realloc(c->peers.v, nc * sizeof(*nv));

		if (!nv)
			return; /* found again at the next scan */
		c->peers.v = nv;
		c->peers.cap = nc;
	}
	p = &c->peers.v[c->peers.n++];
	*p = (struct sa_peer){
		.guid = nb->guid, .lid = nb->lid, .lmc = nb->lmc, .since_ns = sa_now(c)
	};
	log_info("sa: %s: router 0x%016llx (lid %u, %s) found by its records", c->name,
		 (unsigned long long)nb->guid, nb->lid, node_type_name(nb->node_type));
	peer_read(c, p);
}

/*
 * Record r came back from a scan: its port a peer if it is record 0 of a
 * set of our subnet, of an end port of the neighbour table, not ours.
 */
static void peer_found(struct sa_client *c, const struct ibr_sa_service_rec *r)
{
	uint64_t guid = ibr_mad_ld64(r->gid + 8);
	const struct sa_neigh *nb;

	if (r->id != SA_AD_SERVICE_ID || strcmp(r->name, SA_AD_SERVICE_NAME)) {
		c->st.peer_refused++; /* not what was asked for */
		return;
	}
	/* another prefix's GID: a record of the SM before, or none of this subnet */
	if (ibr_mad_ld64(r->gid) != c->ps.prefix || guid == c->ps.port_guid || peer_find(c, guid))
		return;
	nb = sa_neigh_find(&c->cur_n, guid);
	if (!nb || nb->node_type == 2)
		return; /* not an end port of the subnet: it left (its lease runs), or not yet */
	peer_add(c, nb);
}

/* The scan is over: the next one waits for its interval, or for a change that came meanwhile. */
static void peers_scan_end(struct sa_client *c)
{
	c->peers.scan_busy = false;
	c->peers.probes = 0;
	if (c->peers.scan_again)
		peers_scan(c);
}

/* A failed scan: counted, and said once until one works again. */
static void peers_scan_failed(struct sa_client *c, const char *why)
{
	c->st.peer_read_failures++;
	if (!c->peers.scan_failing)
		log_warnx("sa: %s: the routers' records cannot be read (%s): counted in "
			  "peer_read_failures, tried every peer-interval",
			  c->name, why);
	c->peers.scan_failing = true;
}

static void peers_scan_ok(struct sa_client *c)
{
	if (c->peers.scan_failing)
		log_info("sa: %s: the routers' records are read again", c->name);
	c->peers.scan_failing = false;
}

/*
 * Probes: record 0 of each end port not yet a peer, SA_PEERS_PROBE_MAX of
 * them at most (the next scan goes on where this one stopped).
 */
static void peers_probe(struct sa_client *c)
{
	size_t n = c->cur_n.n, k;
	unsigned int sent = 0;

	if (c->peers.probe_at >= n)
		c->peers.probe_at = 0;
	for (k = 0; k < n && sent < SA_PEERS_PROBE_MAX; k++) {
		const struct sa_neigh *nb = &c->cur_n.v[(c->peers.probe_at + k) % n];

		if (nb->node_type == 2 || nb->guid == c->ps.port_guid || peer_find(c, nb->guid))
			continue;
		if (rid_get(c, nb->guid, 0, SA_REQ_PEER_PROBE, c->peers.scan_seq)) {
			peers_scan_failed(c, "a probe not sent");
			break;
		}
		sent++;
	}
	c->peers.probe_at = n ? (c->peers.probe_at + k) % n : 0;
	c->st.peer_probes += sent;
	c->peers.probes = sent;
	c->peers.scan_busy = sent > 0;
	if (!sent)
		peers_scan_end(c);
}

/* Scan the subnet for routers: a GetTable of every set's record 0, else probes. */
static void peers_scan(struct sa_client *c)
{
	struct ibr_sa_service_rec r = { .id = SA_AD_SERVICE_ID };
	struct sa_req q = { .lid = 0 };
	uint8_t mad[IBR_MAD_SIZE];

	if (!c->peers.interval_ms || c->phase != SA_PHASE_READY)
		return;
	if (c->peers.scan_busy) {
		c->peers.scan_again = true; /* after this one, which may have missed the change */
		return;
	}
	c->peers.scan_again = false;
	c->peers.scan_next_ns = sa_now(c) + (uint64_t)c->peers.interval_ms * NS_PER_MS;
	q.seq = ++c->peers.scan_seq;
	c->st.peer_scans++;
	if (!c->st.table_mode || c->peers.cut) {
		peers_probe(c);
		return;
	}
	strcpy(r.name, SA_AD_SERVICE_NAME);
	if (ibr_sa_service_rec_build(mad, IBR_MAD_METHOD_GET_TABLE,
				     IBR_SA_SR_COMP_ID | IBR_SA_SR_COMP_NAME, &r, c->cfg.sm_key,
				     0) ||
	    sa_send(c, mad, SA_REQ_PEER_SCAN, &q)) {
		peers_scan_failed(c, "not sent");
		return;
	}
	c->peers.scan_busy = true;
}

static void peers_scan_result(struct sa_client *c, struct sa_req *q,
			      const struct mad_chan_result *r)
{
	uint16_t st = r->status == 0 || r->status == -EMSGSIZE ? ibr_mad_status(r->mad) : 0;
	int n;

	if (!c->peers.scan_busy || q->seq != c->peers.scan_seq)
		return; /* a scan dropped */
	if ((r->status && r->status != -EMSGSIZE) || (st && st != IBR_SA_STATUS_NO_RECORDS)) {
		char why[48];

		if (r->status)
			snprintf(why, sizeof(why), "%s", strerror(-r->status));
		else
			snprintf(why, sizeof(why), "SA status 0x%04x", st);
		peers_scan_failed(c, why);
		peers_scan_end(c);
		return;
	}
	peers_scan_ok(c);
	n = st ? 0 : ibr_sa_table_count(r->mad, r->len, IBR_SA_SERVICE_REC_LEN);
	/* OpenSM answers a GetTable that matches nothing with AttributeOffset 0 */
	if (n < 0 || (ibr_sa_attr_offset(r->mad) == 0 &&
		      ibr_mad_method(r->mad) == IBR_MAD_METHOD_GET_TABLE_RESP))
		n = n < 0 ? (c->st.peer_refused++, 0) : 0;
	for (int i = 0; i < n; i++) {
		const uint8_t *rec = ibr_sa_table_rec(r->mad, r->len, (unsigned int)i);
		struct ibr_sa_service_rec sr;

		if (!rec || ibr_sa_service_rec_decode(rec, (size_t)(r->mad + r->len - rec), &sr))
			c->st.peer_refused++;
		else
			peer_found(c, &sr);
	}
	if (r->status == -EMSGSIZE) {
		/* the first router's record only: the others one end port at a time */
		if (!c->peers.cut)
			log_info("sa: %s: the routers' records come back cut after one MAD (no "
				 "RMPP): each end port is asked for its record 0 instead",
				 c->name);
		c->peers.cut = true;
		peers_probe(c);
		return;
	}
	peers_scan_end(c);
}

static void peers_probe_result(struct sa_client *c, struct sa_req *q,
			       const struct mad_chan_result *r)
{
	uint16_t st = r->status == 0 ? ibr_mad_status(r->mad) : 0;
	struct ibr_sa_service_rec rec;

	if (!c->peers.scan_busy || q->seq != c->peers.scan_seq || !c->peers.probes)
		return;
	if (r->status == 0 && st == 0) {
		if (ibr_sa_service_rec_table_decode(r->mad, r->len, &rec, 1, NULL) == 1 &&
		    !memcmp(rec.gid, q->gid, 16))
			peer_found(c, &rec);
		else
			c->st.peer_refused++; /* not the record asked for */
	} else if (r->status || st != IBR_SA_STATUS_NO_RECORDS) {
		c->st.peer_read_failures++;
	}
	if (--c->peers.probes == 0)
		peers_scan_end(c);
}

void sa_peers_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r)
{
	if (q->kind == SA_REQ_PEER_SCAN)
		peers_scan_result(c, q, r);
	else if (q->kind == SA_REQ_PEER_PROBE)
		peers_probe_result(c, q, r);
	else
		peer_result(c, q, r);
}

void sa_peers_routers(struct sa_client *c)
{
	bool changed = false;
	size_t j = 0;

	if (!c->peers.interval_ms)
		return;
	/* gone: no longer an end port of the subnet (trap 65, a sync without it) */
	for (size_t i = 0; i < c->peers.n; i++) {
		struct sa_peer *p = &c->peers.v[i];
		const struct sa_neigh *nb = sa_neigh_find(&c->cur_n, p->guid);

		if (!nb || nb->node_type == 2) {
			changed |= p->n > 0;
			log_info("sa: %s: router 0x%016llx left the subnet", c->name,
				 (unsigned long long)p->guid);
			peer_clear(p);
			continue;
		}
		if (nb->lid != p->lid || nb->lmc != p->lmc) {
			changed |= p->n > 0;
			p->lid = nb->lid;
			p->lmc = nb->lmc;
		}
		c->peers.v[j++] = *p;
	}
	c->peers.n = j;
	if (changed)
		peers_notify(c);
	/* new ones (a sync, a trap 64): looked for at once */
	peers_scan(c);
}

void sa_peers_tick(struct sa_client *c, uint64_t now)
{
	bool changed = false;

	if (!c->peers.interval_ms)
		return;
	for (size_t i = 0; i < c->peers.n; i++) {
		struct sa_peer *p = &c->peers.v[i];
		uint64_t dead = peer_dead_at(c, p);

		/*
		 * An announcer Sets its records every third of their lease: a
		 * count that has not moved for two of those and one more read
		 * (one refresh lost is no death) is a router that stopped
		 * (killed, its port cut off from its SM), whatever the SA still
		 * holds for it until the lease ends.
		 */
		if (p->read && !p->expired && p->n && now > dead) {
			log_info("sa: %s: router 0x%016llx (lid %u): its announcements were not "
				 "refreshed for %u s: expired",
				 c->name, (unsigned long long)p->guid, p->lid,
				 (unsigned)((now - p->beat_ns) / NS_PER_S));
			p->expired = true;
			p->n = 0;
			c->st.peer_expired++;
			changed = true;
		}
	}
	if (changed)
		peers_notify(c);
	if (!c->peers.scan_busy && now >= c->peers.scan_next_ns)
		peers_scan(c);
	for (size_t i = 0; i < c->peers.n; i++)
		if (now >= c->peers.v[i].next_read_ns)
			peer_read(c, &c->peers.v[i]);
}

uint64_t sa_peers_deadline(const struct sa_client *c)
{
	uint64_t t;

	if (!c->peers.interval_ms || c->phase != SA_PHASE_READY)
		return UINT64_MAX;
	t = c->peers.scan_busy ? UINT64_MAX : c->peers.scan_next_ns;
	for (size_t i = 0; i < c->peers.n; i++) {
		const struct sa_peer *p = &c->peers.v[i];
		uint64_t dead = peer_dead_at(c, p) + 1;

		if (!p->rd_busy && p->next_read_ns < t)
			t = p->next_read_ns;
		if (p->read && !p->expired && p->n && dead < t)
			t = dead;
	}
	return t;
}

size_t sa_client_peers(const struct sa_client *c, const struct sa_peer **v)
{
	*v = c->peers.v;
	return c->peers.n;
}

void sa_client_peer_interval(struct sa_client *c, uint32_t interval_ms)
{
	bool had = false;

	for (size_t i = 0; i < c->peers.n; i++)
		had |= c->peers.v[i].n > 0;
	if (interval_ms == c->peers.interval_ms)
		return;
	c->peers.interval_ms = interval_ms;
	if (!interval_ms) {
		sa_peers_free(c);
		if (had)
			peers_notify(c);
		return;
	}
	for (size_t i = 0; i < c->peers.n; i++)
		c->peers.v[i].next_read_ns = 0; /* at the next tick, at the new pace after */
	sa_peers_routers(c);			/* the routers of the subnet looked for at once */
}

void sa_peers_free(struct sa_client *c)
{
	for (size_t i = 0; i < c->peers.n; i++)
		peer_clear(&c->peers.v[i]);
	free(c->peers.v);
	c->peers.v = NULL;
	c->peers.n = c->peers.cap = 0;
	/* a scan in flight is dropped (its answers no longer match) */
	c->peers.scan_seq++;
	c->peers.scan_busy = c->peers.scan_again = false;
	c->peers.probes = 0;
	c->peers.scan_next_ns = 0;
}
