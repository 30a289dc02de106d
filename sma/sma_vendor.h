/*
 * sma_vendor.h - wire layouts of the vendor router SMP attributes that
 * NVIDIA routers expose (attribute IDs in lib/ibr_mad.h): RouterInfo
 * (0xFFD0), NextHopTable (0xFFD1), AdjacentSiteLocalSubnetsTable (0xFFD2).
 * libibmad has no field table for them, so they are described here in the
 * same style: one row per field, bit offset in network (big-endian) bit
 * order from the start of the attribute or record, width in bits.
 *
 * Source: NVIDIA's ibis packet layouts (packets_layouts.h, generated from
 * adb/packets.adb; read via the public trex-core copy of the MLNX_OFED
 * ibis headers, versions of 2018 and 2025), whose "0xN.lo - 0xN.hi" bit
 * positions count from the least significant bit of the big-endian dword
 * at byte N (cross-checked on SMP_SLToVLMappingTable, where SL0ToVL is
 * "0x0.28 - 0x0.31", the high nibble of byte 0 as IBA 14.2.5.8 says).
 *  - SMP_RouterInfo: CapabilityMask 0x0.0-31, NextHopTableCap 0x4.0-31,
 *    NextHopTableTop 0x8.0-31, AdjacentSiteLocalSubnetsTableCap 0xc.0-7,
 *    ...Top 0xc.8-15; 2018: IsGlbSA 0xc.29, NHChange 0xc.30, AdjChange
 *    0xc.31, MaxMulticastTTL 0x10.0-7; 2025: table_changes_bitmask
 *    0xc.16-31 (the three bits above fall inside it) and, from 0x10,
 *    AR-group and FLID range fields.  Dword 4 on differs between the two
 *    versions: this SMA leaves bytes 16-63 zero.
 *  - AdjSiteLocalSubnetRecord (8 bytes, 8 per SMP): Pkey 0x0.16-31,
 *    SubnetPrefix 0x0.0-15 (16 bits: the subnet ID of a site-local
 *    fec0:0:0:<id>::/64 prefix), MasterSMLID 0x4.0-15.
 *  - NextHopRecord: NOT CONFIRMED (the record struct lies past what the
 *    search index holds of the file).  OpenSM's router table keeps, per
 *    next-hop entry, a 64-bit subnet prefix and a P_Key (osm_router.h,
 *    osm_router_tbl_data_t); this SMA uses 16-byte records, 4 per SMP:
 *    SubnetPrefix bytes 0-7, Pkey bytes 8-9, Weight byte 11, the rest
 *    reserved.  Change sma_vendor_nh_fields[] if the real layout differs.
 * AttributeModifier: 0 for RouterInfo; the block number for the tables.
 * All three are read only from the fabric (Set: status 0x000C).
 */
#ifndef SMA_VENDOR_H
#define SMA_VENDOR_H

#include <stddef.h>
#include <stdint.h>

struct sma_vfield {
	const char *name;
	uint16_t bitoffs; /* from the most significant bit of byte 0 */
	uint8_t bits;	  /* 1..64 */
};

enum sma_ri_field {
	SMA_RI_CAPABILITY_MASK,
	SMA_RI_NEXT_HOP_TABLE_CAP,
	SMA_RI_NEXT_HOP_TABLE_TOP,
	SMA_RI_ADJ_CHANGE,
	SMA_RI_NH_CHANGE,
	SMA_RI_IS_GLB_SA,
	SMA_RI_ADJ_TABLE_TOP,
	SMA_RI_ADJ_TABLE_CAP,
	SMA_RI_MAX
};

enum sma_nh_field { SMA_NH_SUBNET_PREFIX, SMA_NH_PKEY, SMA_NH_WEIGHT, SMA_NH_MAX };

enum sma_adj_field { SMA_ADJ_PKEY, SMA_ADJ_SUBNET_PREFIX, SMA_ADJ_MASTER_SM_LID, SMA_ADJ_MAX };

#define SMA_NH_RECORD_SIZE  16
#define SMA_ADJ_RECORD_SIZE 8

extern const struct sma_vfield sma_vendor_ri_fields[SMA_RI_MAX];
extern const struct sma_vfield sma_vendor_nh_fields[SMA_NH_MAX];
extern const struct sma_vfield sma_vendor_adj_fields[SMA_ADJ_MAX];

/* Read or write field f of the record at buf (no length: buf holds the record). */
uint64_t sma_vfield_get(const uint8_t *buf, const struct sma_vfield *f);
void sma_vfield_set(uint8_t *buf, const struct sma_vfield *f, uint64_t v);

#endif
