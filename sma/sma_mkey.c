/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_mkey.c - M_Key protection and its lease timer (IBA vol. 1 14.2.4),
 * and the bad-M_Key trap 256 (14.2.5.1 Notice, 14.2.4.3).
 *
 * Protection levels (PortInfo:M_KeyProtectBits, 14.2.4.1, Table 140), for
 * an SMP whose M_Key does not match a non-zero PortInfo:M_Key:
 *   0: Get answered (M_Key shown), Set and TrapRepress fail;
 *   1: Get answered with PortInfo:M_Key read as zero, Set/TrapRepress fail;
 *   2: Get, Set and TrapRepress fail;
 *   3: as 2.
 * A failed check drops the SMP, counts PortInfo:M_KeyViolations, starts the
 * lease timer if it is not running and M_KeyLeasePeriod is not zero, and
 * asks for trap 256.  A matching M_Key stops the lease timer; when the
 * timer expires, M_KeyProtectBits become 0 (14.2.4.2).  A lease period of
 * zero never expires.
 */
#include "sma/sma_int.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <string.h>

#define NS_PER_SEC 1000000000ull

void sma_mkey_lease_run(struct sma_port *p, uint64_t now_ns)
{
	if (p->lease_running && now_ns >= p->lease_deadline_ns) {
		p->lease_running = false;
		sma_fset(p->pi, IB_PORT_MKEY_PROT_BITS_F, 0);
	}
}

void sma_mkey_trap(struct sma *s, struct sma_port *p, const uint8_t *mad, const struct sma_rx *rx)
{
	struct sma_event ev = { .type = SMA_EV_TRAP_BAD_MKEY, .port = p->num };
	struct sma_trap_mkey *t = &ev.trap;

	t->lid = rx->slid;
	t->method = ibr_mad_method(mad);
	t->attr_id = ibr_mad_attr_id(mad);
	t->attr_mod = ibr_mad_attr_mod(mad);
	t->mkey = ibr_smp_mkey(mad);
	if (ibr_smp_is_dr(mad)) {
		unsigned int hops = ibr_smp_dr_hop_count(mad);

		t->dr = true;
		t->dr_slid = ibr_smp_dr_slid(mad);
		if (hops > IBR_SMP_MAX_HOPS)
			hops = IBR_SMP_MAX_HOPS;
		if (hops > SMA_TRAP_PATH_MAX) {
			t->truncated = true;
			hops = SMA_TRAP_PATH_MAX;
		}
		t->hop_cnt = (uint8_t)hops;
		/* ReturnPath[1..HopCount]: entry 0 is unused (14.2.2) */
		memcpy(t->return_path, mad + IBR_SMP_RETURN_PATH_OFFS + 1, hops);
	}
	sma_event_emit(s, &ev);
}

enum sma_mkey_result sma_mkey_check(struct sma *s, struct sma_port *p, const uint8_t *mad,
				    const struct sma_rx *rx)
{
	uint64_t key = sma_fget64(p->pi, IB_PORT_MKEY_F);
	unsigned int prot = sma_fget(p->pi, IB_PORT_MKEY_PROT_BITS_F);
	unsigned int lease, viol;

	if (!key)
		return SMA_MKEY_PASS;
	if (ibr_smp_mkey(mad) == key) {
		p->lease_running = false;
		return SMA_MKEY_PASS;
	}
	if (ibr_mad_method(mad) == IBR_MAD_METHOD_GET) {
		if (prot == 0)
			return SMA_MKEY_PASS;
		if (prot == 1)
			return SMA_MKEY_PASS_HIDE;
	}
	viol = sma_fget(p->pi, IB_PORT_MKEY_VIOL_F);
	if (viol < 0xFFFF)
		sma_fset(p->pi, IB_PORT_MKEY_VIOL_F, viol + 1);
	s->cnt.mkey_violations++;
	lease = sma_fget(p->pi, IB_PORT_MKEY_LEASE_F);
	if (!p->lease_running && lease) {
		p->lease_running = true;
		p->lease_deadline_ns = rx->now_ns + (uint64_t)lease * NS_PER_SEC;
	}
	sma_mkey_trap(s, p, mad, rx);
	return SMA_MKEY_FAIL;
}

/*
 * Notice (14.2.5.1) for trap 256 in the first 64 bytes of SMP data; the
 * DataDetails layout is OpenSM's (ib_types.h, ntc_256), the decoder of the
 * SM this trap goes to: LIDADDR at 12, DrSLID 14, Method 16, AttributeID
 * 18, AttributeModifier 20, M_Key 24, DrNotice/DrPathTruncated/DrHopCount
 * at 33, DrNoticeReturnPath from 34 (30 entries).
 */
#define NTC256_LID	 12
#define NTC256_DR_SLID	 14
#define NTC256_METHOD	 16
#define NTC256_ATTR_ID	 18
#define NTC256_ATTR_MOD	 20
#define NTC256_MKEY	 24
#define NTC256_DR_HOPS	 33
#define NTC256_DR_PATH	 34
#define NOTICE_TYPE_SEC	 2 /* Security */
#define NOTICE_PROD_RTR	 3 /* ProducerType: the node type, Router */
#define NTC_DR_NOTICE	 0x80
#define NTC_DR_TRUNCATED 0x40

int sma_trap_bad_mkey_build(const struct sma *s, const struct sma_event *ev, uint64_t tid,
			    uint8_t *mad, struct sma_tx *tx)
{
	const struct sma_port *p;
	const struct sma_trap_mkey *t;
	uint16_t lid, sm_lid;
	uint8_t *d;

	if (!ev || ev->type != SMA_EV_TRAP_BAD_MKEY || ev->port < 1 ||
	    ev->port > s->cfg.num_ports || ev->trap.hop_cnt > SMA_TRAP_PATH_MAX)
		return -EINVAL;
	p = &s->ports[ev->port - 1];
	t = &ev->trap;
	lid = (uint16_t)sma_fget(p->pi, IB_PORT_LID_F);
	sm_lid = (uint16_t)sma_fget(p->pi, IB_PORT_SMLID_F);
	if (!lid || !ibr_lid_is_unicast(sm_lid))
		return -EAGAIN;
	ibr_mad_build(mad, IBR_MGMT_CLASS_SUBN_LID, IBR_MAD_METHOD_TRAP, IBR_ATTR_NOTICE, 0, tid);
	ibr_smp_set_mkey(mad, sma_fget64(p->pi, IB_PORT_MKEY_F));
	d = mad + IBR_SMP_DATA_OFFS;
	sma_fset(d, IB_NOTICE_IS_GENERIC_F, 1);
	sma_fset(d, IB_NOTICE_TYPE_F, NOTICE_TYPE_SEC);
	sma_fset(d, IB_NOTICE_PRODUCER_F, NOTICE_PROD_RTR);
	sma_fset(d, IB_NOTICE_TRAP_NUMBER_F, 256);
	sma_fset(d, IB_NOTICE_ISSUER_LID_F, lid);
	ibr_mad_st16(d + NTC256_LID, t->lid);
	ibr_mad_st16(d + NTC256_DR_SLID, t->dr_slid);
	d[NTC256_METHOD] = t->method;
	ibr_mad_st16(d + NTC256_ATTR_ID, t->attr_id);
	ibr_mad_st32(d + NTC256_ATTR_MOD, t->attr_mod);
	ibr_mad_st64(d + NTC256_MKEY, t->mkey);
	if (t->dr) {
		d[NTC256_DR_HOPS] = (uint8_t)(NTC_DR_NOTICE |
					      (t->truncated ? NTC_DR_TRUNCATED : 0) |
					      (t->hop_cnt & 0x3F));
		memcpy(d + NTC256_DR_PATH, t->return_path, t->hop_cnt);
	}
	tx->port = p->num;
	tx->dlid = sm_lid;
	tx->slid = lid;
	return 0;
}
