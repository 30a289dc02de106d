/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_vendor.c - the vendor router attributes RouterInfo (0xFFD0),
 * NextHopTable (0xFFD1) and AdjacentSiteLocalSubnetsTable (0xFFD2), filled
 * from the router's live tables through sma_ops; layouts and their sources
 * in sma_vendor.h.  Read only from the fabric.
 */
#include "sma/sma_int.h"
#include "sma/sma_vendor.h"

#include <string.h>

const struct sma_vfield sma_vendor_ri_fields[SMA_RI_MAX] = {
	[SMA_RI_CAPABILITY_MASK] = { "CapabilityMask", 0, 32 },
	[SMA_RI_NEXT_HOP_TABLE_CAP] = { "NextHopTableCap", 32, 32 },
	[SMA_RI_NEXT_HOP_TABLE_TOP] = { "NextHopTableTop", 64, 32 },
	[SMA_RI_TABLE_CHANGES] = { "TableChanges", 96, 16 },
	[SMA_RI_ADJ_TABLE_TOP] = { "AdjacentSiteLocalSubnetsTableTop", 112, 8 },
	[SMA_RI_ADJ_TABLE_CAP] = { "AdjacentSiteLocalSubnetsTableCap", 120, 8 },
};

const struct sma_vfield sma_vendor_nh_fields[SMA_NH_MAX] = {
	[SMA_NH_SUBNET_PREFIX] = { "SubnetPrefix", 0, 64 },
	[SMA_NH_WEIGHT] = { "Weight", 64, 8 },
	[SMA_NH_PKEY] = { "Pkey", 80, 16 },
};

const struct sma_vfield sma_vendor_adj_fields[SMA_ADJ_MAX] = {
	[SMA_ADJ_PKEY] = { "Pkey", 0, 16 },
	[SMA_ADJ_SUBNET_PREFIX] = { "SubnetPrefix", 16, 16 },
	[SMA_ADJ_MASTER_SM_LID] = { "MasterSMLID", 48, 16 },
};

uint64_t sma_vfield_get(const uint8_t *buf, const struct sma_vfield *f)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < f->bits; i++) {
		unsigned int b = f->bitoffs + i;

		v = v << 1 | ((buf[b / 8] >> (7 - b % 8)) & 1);
	}
	return v;
}

void sma_vfield_set(uint8_t *buf, const struct sma_vfield *f, uint64_t v)
{
	for (unsigned int i = 0; i < f->bits; i++) {
		unsigned int b = f->bitoffs + i;
		unsigned int bit = (unsigned int)(v >> (f->bits - 1 - i)) & 1;

		buf[b / 8] = (uint8_t)((buf[b / 8] & ~(1u << (7 - b % 8))) | bit << (7 - b % 8));
	}
}

static uint32_t nh_top(struct sma *s, uint8_t port)
{
	unsigned int filled = 0;

	return s->ops.next_hops ? s->ops.next_hops(s->ops.arg, port, 0, NULL, 0, &filled) : 0;
}

static uint32_t adj_top(struct sma *s, uint8_t port)
{
	unsigned int filled = 0;

	return s->ops.adj_subnets ? s->ops.adj_subnets(s->ops.arg, port, 0, NULL, 0, &filled) : 0;
}

/* A vendor attribute is Get only; the tables' AttributeModifier is a block number. */
static uint16_t vendor_check(struct sma_req *r, uint32_t nblocks)
{
	memset(r->data, 0, IBR_SMP_DATA_SIZE);
	if (r->method != IBR_MAD_METHOD_GET)
		return IBR_MAD_STATUS_UNSUP_METHOD_ATTR;
	if (r->attr_mod >= nblocks)
		return IBR_MAD_STATUS_INVALID_FIELD;
	return IBR_MAD_STATUS_OK;
}

/*
 * RouterInfo of the arrival port: its tables' caps and tops (a top never
 * beyond its cap: records past the cap are not served), and what changed
 * since the port's tables were last read.
 */
uint16_t sma_attr_router_info(struct sma_req *r)
{
	const struct sma_vfield *f = sma_vendor_ri_fields;
	uint16_t st = vendor_check(r, 1);
	uint32_t top;

	if (st)
		return st;
	sma_vfield_set(r->data, &f[SMA_RI_CAPABILITY_MASK], 0);
	sma_vfield_set(r->data, &f[SMA_RI_NEXT_HOP_TABLE_CAP], r->s->cfg.next_hop_cap);
	top = nh_top(r->s, r->port->num);
	if (top > r->s->cfg.next_hop_cap)
		top = r->s->cfg.next_hop_cap;
	sma_vfield_set(r->data, &f[SMA_RI_NEXT_HOP_TABLE_TOP], top);
	sma_vfield_set(r->data, &f[SMA_RI_TABLE_CHANGES], r->port->table_changes);
	sma_vfield_set(r->data, &f[SMA_RI_ADJ_TABLE_CAP], r->s->cfg.adj_cap);
	top = adj_top(r->s, r->port->num);
	if (top > r->s->cfg.adj_cap)
		top = r->s->cfg.adj_cap;
	sma_vfield_set(r->data, &f[SMA_RI_ADJ_TABLE_TOP], top);
	return IBR_MAD_STATUS_OK;
}

uint16_t sma_attr_next_hop(struct sma_req *r)
{
	struct sma_next_hop nh[SMA_NH_PER_BLOCK];
	const struct sma_vfield *f = sma_vendor_nh_fields;
	uint32_t cap = r->s->cfg.next_hop_cap;
	uint16_t st = vendor_check(r, (cap + SMA_NH_PER_BLOCK - 1) / SMA_NH_PER_BLOCK);
	unsigned int filled = 0;

	if (st)
		return st;
	r->port->table_changes &= (uint16_t)~SMA_RI_CHANGE_NH; /* read: the SM has seen it */
	if (!r->s->ops.next_hops)
		return st;
	memset(nh, 0, sizeof(nh));
	r->s->ops.next_hops(r->s->ops.arg, r->port->num, r->attr_mod * SMA_NH_PER_BLOCK, nh,
			    SMA_NH_PER_BLOCK, &filled);
	for (unsigned int i = 0; i < filled && i < SMA_NH_PER_BLOCK; i++) {
		uint8_t *rec = r->data + i * SMA_NH_RECORD_SIZE;

		if (r->attr_mod * SMA_NH_PER_BLOCK + i >= cap)
			break;
		sma_vfield_set(rec, &f[SMA_NH_SUBNET_PREFIX], nh[i].subnet_prefix);
		sma_vfield_set(rec, &f[SMA_NH_WEIGHT], nh[i].weight);
		sma_vfield_set(rec, &f[SMA_NH_PKEY], nh[i].pkey);
	}
	return IBR_MAD_STATUS_OK;
}

uint16_t sma_attr_adj_subnets(struct sma_req *r)
{
	struct sma_adj_subnet adj[SMA_ADJ_PER_BLOCK];
	const struct sma_vfield *f = sma_vendor_adj_fields;
	uint32_t cap = r->s->cfg.adj_cap;
	uint16_t st = vendor_check(r, (cap + SMA_ADJ_PER_BLOCK - 1) / SMA_ADJ_PER_BLOCK);
	unsigned int filled = 0;

	if (st)
		return st;
	r->port->table_changes &= (uint16_t)~SMA_RI_CHANGE_ADJ;
	if (!r->s->ops.adj_subnets)
		return st;
	memset(adj, 0, sizeof(adj));
	r->s->ops.adj_subnets(r->s->ops.arg, r->port->num, r->attr_mod * SMA_ADJ_PER_BLOCK, adj,
			      SMA_ADJ_PER_BLOCK, &filled);
	for (unsigned int i = 0; i < filled && i < SMA_ADJ_PER_BLOCK; i++) {
		uint8_t *rec = r->data + i * SMA_ADJ_RECORD_SIZE;

		if (r->attr_mod * SMA_ADJ_PER_BLOCK + i >= cap)
			break;
		sma_vfield_set(rec, &f[SMA_ADJ_PKEY], adj[i].pkey);
		sma_vfield_set(rec, &f[SMA_ADJ_SUBNET_PREFIX], adj[i].subnet_prefix);
		sma_vfield_set(rec, &f[SMA_ADJ_MASTER_SM_LID], adj[i].master_sm_lid);
	}
	return IBR_MAD_STATUS_OK;
}

/* FNV-1a, 64 bits, over `len` bytes: a table's fingerprint. */
static uint64_t sum_add(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001B3ull;
	return h;
}

#define SUM_INIT  0xCBF29CE484222325ull
#define SUM_CHUNK 64

/* The fingerprint of port `port`'s NextHopTable as served (up to the cap). */
static uint64_t nh_sum(struct sma *s, uint8_t port)
{
	struct sma_next_hop v[SUM_CHUNK];
	uint64_t h = SUM_INIT;
	uint32_t cap = s->cfg.next_hop_cap, top;
	unsigned int filled;

	if (!s->ops.next_hops)
		return h;
	for (uint32_t first = 0; first < cap; first += filled) {
		filled = 0;
		memset(v, 0, sizeof(v));
		top = s->ops.next_hops(s->ops.arg, port, first, v, SUM_CHUNK, &filled);
		if (filled > SUM_CHUNK)
			filled = SUM_CHUNK;
		for (unsigned int i = 0; i < filled && first + i < cap; i++) {
			h = sum_add(h, &v[i].subnet_prefix, sizeof(v[i].subnet_prefix));
			h = sum_add(h, &v[i].pkey, sizeof(v[i].pkey));
			h = sum_add(h, &v[i].weight, sizeof(v[i].weight));
		}
		if (!filled || first + filled >= top)
			break;
	}
	return h;
}

static uint64_t adj_sum(struct sma *s, uint8_t port)
{
	struct sma_adj_subnet v[SUM_CHUNK];
	uint64_t h = SUM_INIT;
	uint32_t cap = s->cfg.adj_cap, top;
	unsigned int filled;

	if (!s->ops.adj_subnets)
		return h;
	for (uint32_t first = 0; first < cap; first += filled) {
		filled = 0;
		memset(v, 0, sizeof(v));
		top = s->ops.adj_subnets(s->ops.arg, port, first, v, SUM_CHUNK, &filled);
		if (filled > SUM_CHUNK)
			filled = SUM_CHUNK;
		for (unsigned int i = 0; i < filled && first + i < cap; i++) {
			h = sum_add(h, &v[i].subnet_prefix, sizeof(v[i].subnet_prefix));
			h = sum_add(h, &v[i].pkey, sizeof(v[i].pkey));
			h = sum_add(h, &v[i].master_sm_lid, sizeof(v[i].master_sm_lid));
		}
		if (!filled || first + filled >= top)
			break;
	}
	return h;
}

void sma_tables_refresh(struct sma *s)
{
	for (unsigned int i = 0; i < s->cfg.num_ports; i++) {
		struct sma_port *p = &s->ports[i];
		uint64_t nh = nh_sum(s, p->num), adj = adj_sum(s, p->num);

		if (p->tables_seen && nh != p->nh_sum)
			p->table_changes |= SMA_RI_CHANGE_NH;
		if (p->tables_seen && adj != p->adj_sum)
			p->table_changes |= SMA_RI_CHANGE_ADJ;
		p->nh_sum = nh;
		p->adj_sum = adj;
		p->tables_seen = true;
	}
}
