/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_tables.c - the per-port tables: PKeyTable (14.2.5.7), SLtoVL
 * MappingTable (14.2.5.8), VLArbitrationTable (14.2.5.9) and GUIDInfo
 * (14.2.5.5).  Each Set that changes a table reports it as an event; the
 * daemon feeds the P_Keys to the egress P_Key check, the SL2VL to the
 * port's VL choice and the alias GUIDs to the neighbour table.
 *
 * AttributeModifier on a router (not a switch) port: the tables are those
 * of the port the SMP arrived on; the switch-only port bits (PKeyTable and
 * VLArbitration bits 16-31 / 0-15, SL2VL's input and output ports) are
 * reserved and ignored.
 */
#include "sma/sma_int.h"

#include <string.h>

#define VLARB_PER_BLOCK 32

void sma_tables_init(struct sma_port *p, const struct sma_port_cfg *cfg)
{
	p->partition_cap = cfg->partition_cap;
	p->guid_cap = cfg->guid_cap;
	memset(p->pkeys, 0, sizeof(p->pkeys));
	p->pkeys[0] = 0xFFFF; /* the default partition, full member (10.9.1.2) */
	memset(p->sl2vl, 0, sizeof(p->sl2vl));
	memset(p->vlarb_low, 0, sizeof(p->vlarb_low));
	memset(p->vlarb_high, 0, sizeof(p->vlarb_high));
	memset(p->guids, 0, sizeof(p->guids));
	p->guids[0] = cfg->guid; /* GUID 0 is the port GUID, read only */
}

static unsigned int blocks(unsigned int entries, unsigned int per_block)
{
	return (entries + per_block - 1) / per_block;
}

/* PKeyTable: AttributeModifier bits 0-15 = block of 32 P_Keys. */
uint16_t sma_attr_pkey_table(struct sma_req *r)
{
	struct sma_port *p = r->port;
	unsigned int block = r->attr_mod & 0xFFFF;
	unsigned int first = block * SMA_PKEYS_PER_BLOCK;
	const uint8_t *q = r->mad + IBR_SMP_DATA_OFFS;
	bool changed = false;

	if (block >= blocks(p->partition_cap, SMA_PKEYS_PER_BLOCK)) {
		memset(r->data, 0, IBR_SMP_DATA_SIZE);
		return IBR_MAD_STATUS_INVALID_FIELD;
	}
	for (unsigned int i = 0; i < SMA_PKEYS_PER_BLOCK; i++) {
		unsigned int idx = first + i;
		uint16_t v;

		if (idx >= p->partition_cap)
			break;
		v = ibr_mad_ld16(q + 2 * i);
		if (r->method == IBR_MAD_METHOD_SET && v != p->pkeys[idx]) {
			p->pkeys[idx] = v;
			changed = true;
		}
	}
	memset(r->data, 0, IBR_SMP_DATA_SIZE);
	for (unsigned int i = 0; i < SMA_PKEYS_PER_BLOCK && first + i < p->partition_cap; i++)
		ibr_mad_st16(r->data + 2 * i, p->pkeys[first + i]);
	if (changed) {
		struct sma_event ev = { .type = SMA_EV_PKEYS, .port = p->num };

		ev.pkeys = p->pkeys;
		ev.npkeys = p->partition_cap;
		sma_event_emit(r->s, &ev);
	}
	return IBR_MAD_STATUS_OK;
}

/* SLtoVLMappingTable: 16 4-bit VLs, SL0 in the high nibble of byte 0. */
uint16_t sma_attr_sl2vl(struct sma_req *r)
{
	struct sma_port *p = r->port;
	const uint8_t *q = r->mad + IBR_SMP_DATA_OFFS;
	uint64_t map = 0;

	if (r->method == IBR_MAD_METHOD_SET) {
		uint64_t in = sma_fget64(q, IB_SLTOVL_MAPPING_TABLE_F);
		bool changed = false;

		for (unsigned int sl = 0; sl < 16; sl++) {
			uint8_t vl = (uint8_t)((in >> (60 - 4 * sl)) & 0xF);

			changed |= vl != p->sl2vl[sl];
			p->sl2vl[sl] = vl;
		}
		if (changed) {
			struct sma_event ev = { .type = SMA_EV_SL2VL, .port = p->num };

			ev.sl2vl = p->sl2vl;
			sma_event_emit(r->s, &ev);
		}
	}
	for (unsigned int sl = 0; sl < 16; sl++)
		map |= (uint64_t)p->sl2vl[sl] << (60 - 4 * sl);
	memset(r->data, 0, IBR_SMP_DATA_SIZE);
	sma_fset64(r->data, IB_SLTOVL_MAPPING_TABLE_F, map);
	return IBR_MAD_STATUS_OK;
}

/*
 * VLArbitrationTable: AttributeModifier bits 16-31 = 1 low 0-31, 2 low
 * 32-63, 3 high 0-31, 4 high 32-63; 32 entries of (reserved:4, VL:4,
 * Weight:8).
 */
uint16_t sma_attr_vlarb(struct sma_req *r)
{
	struct sma_port *p = r->port;
	unsigned int block = r->attr_mod >> 16;
	const uint8_t *q = r->mad + IBR_SMP_DATA_OFFS;
	uint8_t(*tab)[2];
	bool changed = false;

	if (block < 1 || block > 4) {
		memset(r->data, 0, IBR_SMP_DATA_SIZE);
		return IBR_MAD_STATUS_INVALID_FIELD;
	}
	tab = block <= 2 ? p->vlarb_low : p->vlarb_high;
	tab += (block - 1) % 2 * VLARB_PER_BLOCK;
	for (unsigned int i = 0; r->method == IBR_MAD_METHOD_SET && i < VLARB_PER_BLOCK; i++) {
		uint8_t vl = q[2 * i] & 0x0F, w = q[2 * i + 1];

		changed |= tab[i][0] != vl || tab[i][1] != w;
		tab[i][0] = vl;
		tab[i][1] = w;
	}
	memset(r->data, 0, IBR_SMP_DATA_SIZE);
	for (unsigned int i = 0; i < VLARB_PER_BLOCK; i++) {
		r->data[2 * i] = tab[i][0];
		r->data[2 * i + 1] = tab[i][1];
	}
	if (changed) {
		struct sma_event ev = { .type = SMA_EV_VLARB, .port = p->num };

		sma_event_emit(r->s, &ev);
	}
	return IBR_MAD_STATUS_OK;
}

/* GUIDInfo: AttributeModifier = block of 8 GUIDs; GUID 0 (the port GUID) is read only. */
uint16_t sma_attr_guid_info(struct sma_req *r)
{
	struct sma_port *p = r->port;
	unsigned int block = r->attr_mod;
	const uint8_t *q = r->mad + IBR_SMP_DATA_OFFS;
	bool changed = false;

	if (r->attr_mod >= blocks(p->guid_cap, SMA_GUIDS_PER_BLOCK)) {
		memset(r->data, 0, IBR_SMP_DATA_SIZE);
		return IBR_MAD_STATUS_INVALID_FIELD;
	}
	for (unsigned int i = 0; i < SMA_GUIDS_PER_BLOCK; i++) {
		unsigned int idx = block * SMA_GUIDS_PER_BLOCK + i;
		uint64_t g = mad_get_field64((void *)q, (int)(8 * i), IB_GUID_GUID0_F);

		if (r->method != IBR_MAD_METHOD_SET || idx == 0 || idx >= p->guid_cap)
			continue;
		changed |= g != p->guids[idx];
		p->guids[idx] = g;
	}
	memset(r->data, 0, IBR_SMP_DATA_SIZE);
	for (unsigned int i = 0; i < SMA_GUIDS_PER_BLOCK; i++) {
		unsigned int idx = block * SMA_GUIDS_PER_BLOCK + i;

		if (idx < p->guid_cap)
			mad_set_field64(r->data, (int)(8 * i), IB_GUID_GUID0_F, p->guids[idx]);
	}
	if (changed) {
		struct sma_event ev = { .type = SMA_EV_ALIAS_GUIDS, .port = p->num };

		ev.guids = p->guids;
		ev.nguids = p->guid_cap;
		sma_event_emit(r->s, &ev);
	}
	return IBR_MAD_STATUS_OK;
}
