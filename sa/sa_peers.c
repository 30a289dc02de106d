/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_peers.c - the other routers' route announcements, read from the SA
 * (the records: sa_client.h; the peers: struct sa_peer).  The routers of
 * the subnet are the router ports of the neighbour table (NodeRecord
 * NodeType 3, IBA 15.2.5.2); each one's records are asked one at a time by
 * their RID (ServiceID, ServiceGID, ServiceP_Key: 15.2.5.14), so an SA
 * whose GetTables come back cut (no RMPP behind umad2sim) answers them all,
 * and an SA with thousands of other services is not asked for them.
 *
 * Every answer is hostile input: a record whose RID, name, version, counts
 * or prefixes do not hold is refused and the read dropped (the peer keeps
 * what was read before), counted in peer_refused.
 */
#include "sa/sa_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_MS 1000000ull
#define NS_PER_S  1000000000ull

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

/* Ask record `idx` of peer p. */
static int peer_get(struct sa_client *c, struct sa_peer *p, unsigned int idx)
{
	struct ibr_sa_service_rec r = { .id = SA_AD_SERVICE_ID | idx, .pkey = 0xFFFF };
	struct sa_req q = { .seq = p->rd_seq };
	uint8_t mad[IBR_MAD_SIZE];
	int rc;

	ibr_mad_st64(r.gid, c->ps.prefix);
	ibr_mad_st64(r.gid + 8, p->guid);
	memcpy(q.gid, r.gid, 16);
	q.lid = (uint16_t)idx;
	rc = ibr_sa_service_rec_build(mad, IBR_MAD_METHOD_GET, IBR_SA_SR_COMP_RID, &r,
				      c->cfg.sm_key, 0);
	if (!rc)
		rc = sa_send(c, mad, SA_REQ_PEER_GET, &q);
	return rc;
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

void sa_peers_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r)
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

void sa_peers_routers(struct sa_client *c)
{
	bool changed = false;
	size_t j = 0;

	if (!c->peers.interval_ms)
		return;
	/* gone: no longer a router port of the subnet (trap 65, a sync without it) */
	for (size_t i = 0; i < c->peers.n; i++) {
		struct sa_peer *p = &c->peers.v[i];
		const struct sa_neigh *nb = sa_neigh_find(&c->cur_n, p->guid);

		if (!nb || nb->node_type != 3) {
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
	/* new: read at once */
	for (size_t i = 0; i < c->cur_n.n; i++) {
		const struct sa_neigh *nb = &c->cur_n.v[i];
		struct sa_peer *p;

		if (nb->node_type != 3 || nb->guid == c->ps.port_guid || peer_find(c, nb->guid))
			continue;
		if (c->peers.n == c->peers.cap) {
			size_t nc = c->peers.cap ? c->peers.cap * 2 : 4;
			struct sa_peer *nv = realloc(c->peers.v, nc * sizeof(*nv));

			if (!nv)
				break; /* found again at the next change */
			c->peers.v = nv;
			c->peers.cap = nc;
		}
		p = &c->peers.v[c->peers.n++];
		*p = (struct sa_peer){
			.guid = nb->guid, .lid = nb->lid, .lmc = nb->lmc, .since_ns = sa_now(c)
		};
		peer_read(c, p);
	}
	if (changed)
		peers_notify(c);
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
	for (size_t i = 0; i < c->peers.n; i++)
		if (now >= c->peers.v[i].next_read_ns)
			peer_read(c, &c->peers.v[i]);
}

uint64_t sa_peers_deadline(const struct sa_client *c)
{
	uint64_t t;

	if (!c->peers.interval_ms || c->phase != SA_PHASE_READY)
		return UINT64_MAX;
	t = UINT64_MAX;
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
	sa_peers_routers(c);			/* the routers of the current table, read at once */
}

void sa_peers_free(struct sa_client *c)
{
	for (size_t i = 0; i < c->peers.n; i++)
		peer_clear(&c->peers.v[i]);
	free(c->peers.v);
	c->peers.v = NULL;
	c->peers.n = c->peers.cap = 0;
}
