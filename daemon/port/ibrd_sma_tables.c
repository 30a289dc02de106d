/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_sma_tables.c - the SMA's vendor router tables (NextHopTable,
 * AdjacentSiteLocalSubnetsTable; RouterInfo's tops and table-change mask),
 * each port's, from the RIB.  An SM reads them by SMPs alone: built when
 * the RIB or a master SM's LID moved, at the pace of work that reads the
 * whole RIB (ibrd_pace in daemon/ibrd.h: the first change at once, a burst
 * of them in one go) and always before an SMP that reads them is answered
 * (ibrd_sma_tables_fresh, called by both SMP paths: ibrd_sma.c, ibrd_mad.c),
 * so that no SM reads them stale however fast the routes change.
 */
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_pkt.h"
#include "sa/sa_client.h"
#include "sma/sma.h"

#include <stdlib.h>

/*
 * The P_Keys a packet may carry out of port `p`: its P_Key table when it
 * checks one (IBA 10.9), else the default partition, which stands for any.
 */
static unsigned sma_port_pkeys(const struct router_port *p, const uint16_t **v)
{
	static const uint16_t def = IBR_PKEY_DEFAULT;

	if ((p->flags & ROUTER_PORT_PKEY_CHECK) && p->npkeys) {
		*v = p->pkeys;
		return p->npkeys;
	}
	*v = &def;
	return 1;
}

/*
 * A next hop's weight from its route's metric: NVIDIA's SM prefers the
 * router of the higher weight (its osm_router_policy.h), a metric is a cost
 * (lower preferred, as the OpenSM plugin keeps the lowest): metric 0 is
 * weight 255, metrics of 254 and more weight 1.
 */
static uint8_t sma_weight(uint32_t metric)
{
	return (uint8_t)(255 - (metric < 254 ? metric : 254));
}

/*
 * Each port's NextHopTable, built from the RIB when it moves (ibrd_sma_sync)
 * rather than at each SMP, so that neither a Get nor the SMA's comparison
 * walks a large RIB.  The first IBRD_SMA_NH_CAP records are kept, and the
 * table's size up to there: the SMA serves no record past the cap and
 * shows no top above it (RouterInfo), so the walk stops at the cap, and a
 * RIB of 10^6 routes whose first routes fill the table costs a few
 * thousand records, not 10^6.
 */
struct ibrd_sma_tabs {
	uint32_t top[ROUTER_MAX_PORTS], n[ROUTER_MAX_PORTS];
	struct sma_next_hop nh[ROUTER_MAX_PORTS][IBRD_SMA_NH_CAP];
};

struct ibrd_sma_tabs *ibrd_sma_tables_new(void)
{
	return calloc(1, sizeof(struct ibrd_sma_tabs));
}

void ibrd_sma_tables_free(struct ibrd_sma_tabs *t)
{
	free(t);
}

/*
 * NextHopTable of port index `idx`: the /64 prefixes its subnet reaches
 * through the router (the prefix routes its OpenSM could hold: not its own
 * prefix, not link-local, not site-local across sites; router/router_export.c),
 * by a port that forwards; one record per P_Key that may leave by that
 * port.  Aggregates and the default route have no 64-bit prefix: not listed.
 */
static void sma_nh_build(struct ibrd *d, uint32_t idx)
{
	struct ibrd_sma_tabs *t = d->agents->sma_tabs;
	const struct router_route *r;
	uint32_t pos = 0, n = 0;

	while (n < IBRD_SMA_NH_CAP && (r = router_tab_next(&d->rib.routes, &pos))) {
		const uint16_t *pk;
		unsigned npk;

		/* the cheap tests first (a line is a /64 not through this port), the RIB's last */
		if (r->key.plen != 64 || r->nh.port >= d->rib.nports || r->nh.port == idx ||
		    !ibrd_port_forwards(&d->rib.port[r->nh.port]) ||
		    router_export_kind(&d->rib, idx, r) != ROUTER_EXPORT_LINE)
			continue;
		npk = sma_port_pkeys(&d->rib.port[r->nh.port], &pk);
		for (unsigned k = 0; k < npk; k++, n++) {
			if (n >= IBRD_SMA_NH_CAP)
				continue;
			t->nh[idx][n].subnet_prefix = r->key.prefix;
			t->nh[idx][n].pkey = pk[k];
			t->nh[idx][n].weight = sma_weight(r->metric);
		}
	}
	t->top[idx] = n;
	t->n[idx] = n < IBRD_SMA_NH_CAP ? n : IBRD_SMA_NH_CAP;
}

uint32_t ibrd_sma_next_hops(void *arg, uint8_t port, uint32_t first, struct sma_next_hop *out,
			    unsigned max, unsigned *filled)
{
	struct ibrd *d = arg;
	const struct ibrd_sma_tabs *t = d->agents->sma_tabs;
	uint32_t idx = port - 1u;

	*filled = 0;
	if (!t || idx >= d->rib.nports)
		return 0;
	for (uint32_t i = first; i < t->n[idx] && *filled < max; i++)
		out[(*filled)++] = t->nh[idx][i];
	return t->top[idx];
}

/* The LID of port `idx`'s master SM: as its SM set it in the SMA, else as its SA client knows it. */
static uint16_t sma_master_sm(struct ibrd *d, uint32_t idx)
{
	struct sma_port_view v;

	if (d->agents->sma && sma_port_get(d->agents->sma, idx + 1, &v) == 0 && v.sm_lid)
		return v.sm_lid;
	return d->sa[idx] ? sa_client_port(d->sa[idx])->sm_lid : 0;
}

/* A site-local subnet prefix of the form fec0:0:0:<subnet ID> (IBA 4.1.1). */
static bool sma_site_subnet(uint64_t prefix)
{
	return prefix >> 16 == 0xFEC000000000ull;
}

/*
 * AdjacentSiteLocalSubnetsTable of port `port`: the site-local subnets on
 * the router's other ports of its site that forward, one record per P_Key
 * that may leave by that port, with their master SM's LID.  The port's own
 * subnet is not listed (its SM knows it), nor other sites' (their
 * site-local traffic never crosses: IBA 4.1.1).
 */
uint32_t ibrd_sma_adj_subnets(void *arg, uint8_t port, uint32_t first, struct sma_adj_subnet *out,
			      unsigned max, unsigned *filled)
{
	struct ibrd *d = arg;
	uint32_t idx = port - 1u, n = 0;

	*filled = 0;
	if (idx >= d->rib.nports)
		return 0;
	for (uint32_t j = 0; j < d->rib.nports; j++) {
		const struct router_port *a = &d->rib.port[j];
		const uint16_t *pk;
		unsigned npk;
		uint16_t sm;

		if (j == idx || a->site != d->rib.port[idx].site || !sma_site_subnet(a->prefix) ||
		    !ibrd_port_forwards(a))
			continue;
		sm = sma_master_sm(d, j);
		npk = sma_port_pkeys(a, &pk);
		for (unsigned k = 0; k < npk; k++, n++) {
			if (n < first || *filled >= max)
				continue;
			out[*filled].subnet_prefix = (uint16_t)a->prefix;
			out[*filled].pkey = pk[k];
			out[*filled].master_sm_lid = sm;
			(*filled)++;
		}
	}
	return n;
}

/* What the vendor tables are built from: the RIB's generation and the master SMs' LIDs. */
static uint64_t sma_tables_key(struct ibrd *d)
{
	uint64_t key = d->rib.generation;

	for (uint32_t j = 0; j < d->rib.nports; j++)
		key = key * 0x10001u + sma_master_sm(d, j);
	return key;
}

void ibrd_sma_tables_sync(struct ibrd *d, bool paced)
{
	uint64_t key, t0 = ibr_now_ns();

	d->agents->sma_tables_wait = false;
	if (!d->agents->sma || !d->agents->sma_tabs ||
	    (key = sma_tables_key(d)) == d->agents->sma_tables_key)
		return;
	if (paced && !ibrd_pace_due(&d->agents->sma_pace, t0)) {
		d->agents->sma_tables_wait = true; /* ibrd_sma_deadline */
		return;
	}
	for (uint32_t i = 0; i < d->rib.nports; i++)
		sma_nh_build(d, i);
	sma_tables_refresh(d->agents->sma);
	d->agents->sma_tables_key = key;
	ibrd_pace_done(&d->agents->sma_pace, t0, ibr_now_ns());
}

void ibrd_sma_tables_fresh(struct ibrd *d, const uint8_t *mad)
{
	uint16_t attr = ibr_mad_attr_id(mad);

	if (attr >= IBR_SMP_ATTR_ROUTER_INFO && attr <= IBR_SMP_ATTR_ADJ_SITE_LOCAL_SUBNETS)
		ibrd_sma_tables_sync(d, false);
}

uint64_t ibrd_sma_deadline(const struct ibrd *d)
{
	return d->agents && d->agents->sma_tables_wait ? d->agents->sma_pace.next_ns : UINT64_MAX;
}
