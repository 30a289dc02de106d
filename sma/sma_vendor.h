/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_vendor.h - wire layouts of the vendor router SMP attributes that
 * NVIDIA routers expose (attribute IDs in lib/ibr_mad.h): RouterInfo
 * (0xFFD0), NextHopTable (0xFFD1), AdjacentSiteLocalSubnetsTable (0xFFD2).
 * libibmad has no field table for them, so they are described here in the
 * same style: one row per field, bit offset in network (big-endian) bit
 * order from the start of the attribute or record, width in bits.
 *
 * Sources: NVIDIA's OpenSM, include/iba/ib_types.h (ib_router_info_t,
 * rtr_next_hop_record_t, rtr_adj_site_local_subn_record_t and the
 * IB_ROUTER_ATC / IB_ROUTER_NHTC masks), and NVIDIA's ibis packet layouts,
 * ibis/packets/packets_layouts.h (SMP_RouterInfo, NextHopRecord,
 * AdjSiteLocalSubnetRecord), both as MLNX_OFED publishes them; read in the
 * public copy of those headers in the repository
 * cisco-system-traffic-generator/trex-core, under
 * external_libs/ibverbs/x86_64/include/infiniband/ (iba/ib_types.h and
 * ibis/packets/packets_layouts.h, versions of 2025).  The two agree byte
 * for byte.  ibis numbers bits "0xN.lo - 0xN.hi" from the least
 * significant bit of the big-endian dword at byte N (SMP_SLToVLMappingTable
 * has SL0ToVL at "0x0.28 - 0x0.31", the high nibble of byte 0, as IBA
 * 14.2.5.8 says); the tables below count from the most significant bit of
 * byte 0.
 *  - RouterInfo (64 bytes): CapabilityMask bytes 0-3, NextHopTableCap 4-7,
 *    NextHopTableTop 8-11, a 16-bit table-change mask at bytes 12-13
 *    (0x8000 AdjacentSiteLocalSubnetsTable changed, 0x4000 NextHopTable
 *    changed; the other bits name tables this SMA does not have),
 *    AdjacentSiteLocalSubnetsTableTop byte 14, ...Cap byte 15.  From byte
 *    16 on: AR-group and router-LID (FLID) fields, which this SMA leaves
 *    zero (it has no FLIDs).  An older ibis layout had single bits there
 *    (AdjChange 0xc.31, NHChange 0xc.30, IsGlbSA 0xc.29): the first two are
 *    the mask's 0x8000 and 0x4000, IsGlbSA is gone.
 *  - NextHopRecord (16 bytes, 4 per SMP): SubnetPrefix bytes 0-7, Weight
 *    byte 8, reserved byte 9, P_Key bytes 10-11, reserved bytes 12-15.
 *  - AdjSiteLocalSubnetRecord (8 bytes, 8 per SMP): P_Key bytes 0-1,
 *    SubnetPrefix bytes 2-3 (16 bits: the subnet ID of a site-local
 *    fec0:0:0:<id>::/64 prefix), AR-group fields bytes 4-5 (zero here),
 *    MasterSMLID bytes 6-7.
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
	SMA_RI_TABLE_CHANGES,
	SMA_RI_ADJ_TABLE_TOP,
	SMA_RI_ADJ_TABLE_CAP,
	SMA_RI_MAX
};

enum sma_nh_field { SMA_NH_SUBNET_PREFIX, SMA_NH_WEIGHT, SMA_NH_PKEY, SMA_NH_MAX };

enum sma_adj_field { SMA_ADJ_PKEY, SMA_ADJ_SUBNET_PREFIX, SMA_ADJ_MASTER_SM_LID, SMA_ADJ_MAX };

/* RouterInfo's table-change mask (NVIDIA's IB_ROUTER_ATC and IB_ROUTER_NHTC) */
#define SMA_RI_CHANGE_ADJ 0x8000
#define SMA_RI_CHANGE_NH  0x4000

#define SMA_NH_RECORD_SIZE  16
#define SMA_ADJ_RECORD_SIZE 8

extern const struct sma_vfield sma_vendor_ri_fields[SMA_RI_MAX];
extern const struct sma_vfield sma_vendor_nh_fields[SMA_NH_MAX];
extern const struct sma_vfield sma_vendor_adj_fields[SMA_ADJ_MAX];

/* Read or write field f of the record at buf (no length: buf holds the record). */
uint64_t sma_vfield_get(const uint8_t *buf, const struct sma_vfield *f);
void sma_vfield_set(uint8_t *buf, const struct sma_vfield *f, uint64_t v);

#endif
