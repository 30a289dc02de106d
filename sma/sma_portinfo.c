/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_portinfo.c - PortInfo (IBA vol. 1 14.2.5.6, Table 146) Get and Set.
 *
 * The port keeps its PortInfo as the 64-byte wire image, read and written
 * through libibmad's IB_PORT_*_F field table.  A Set checks every writable
 * field of the request first and changes nothing when one is invalid
 * (status 0x001C, the reply then shows the attribute unchanged); otherwise
 * it commits them all, then reports what changed as events.  Read-only
 * components (CapabilityMask, DiagCode, LocalPortNum, the *Supported and
 * *Active link fields, MTUCap, VLCap, GUIDCap, ...) are ignored on Set.
 *
 * PortState (14.2.5.6, 7.2 link states): 0 NOP; Down always; Armed only
 * from Init (or Armed); Active only from Armed (or Active); Init and the
 * reserved values are invalid.  PortPhysicalState: 0 NOP, 2 Polling (a
 * disabled port polls again), 3 Disabled (the port goes Down); others
 * invalid.  A port set Down whose link is still up retrains to Init at
 * the next sma_tick().
 */
#include "sma/sma_int.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <string.h>

#define PI_WIDTH_SET_SUPPORTED 255 /* LinkWidthEnabled: set to LinkWidthSupported */
#define PI_SPEED_SET_SUPPORTED 15  /* LinkSpeedEnabled: set to LinkSpeedSupported */
#define PI_DEFAULT_PREFIX      0xFE80000000000000ull /* GidPrefix before an SM sets one, 4.1.1 */

void sma_portinfo_init(struct sma *s, struct sma_port *p, const struct sma_port_cfg *cfg)
{
	uint8_t *pi = p->pi;

	memset(pi, 0, sizeof(p->pi));
	sma_fset64(pi, IB_PORT_GID_PREFIX_F, PI_DEFAULT_PREFIX);
	sma_fset(pi, IB_PORT_CAPMASK_F, cfg->capmask);
	sma_fset(pi, IB_PORT_LOCAL_PORT_F, p->num);
	sma_fset(pi, IB_PORT_LINK_WIDTH_SUPPORTED_F, 0x3); /* 1x, 4x */
	sma_fset(pi, IB_PORT_LINK_WIDTH_ENABLED_F, 0x3);
	sma_fset(pi, IB_PORT_LINK_WIDTH_ACTIVE_F, 0x2);	   /* 4x */
	sma_fset(pi, IB_PORT_LINK_SPEED_SUPPORTED_F, 0x7); /* 2.5, 5, 10 Gb/s */
	sma_fset(pi, IB_PORT_LINK_SPEED_ENABLED_F, 0x7);
	sma_fset(pi, IB_PORT_LINK_SPEED_ACTIVE_F, 0x4);
	sma_fset(pi, IB_PORT_STATE_F, SMA_PORT_DOWN);
	sma_fset(pi, IB_PORT_PHYS_STATE_F, SMA_PHYS_POLLING);
	sma_fset(pi, IB_PORT_LINK_DOWN_DEF_F, 2); /* Polling */
	sma_fset(pi, IB_PORT_NEIGHBOR_MTU_F, cfg->mtu_cap);
	sma_fset(pi, IB_PORT_MTU_CAP_F, cfg->mtu_cap);
	sma_fset(pi, IB_PORT_VL_CAP_F, cfg->vl_cap);
	sma_fset(pi, IB_PORT_OPER_VLS_F, cfg->vl_cap);
	sma_fset(pi, IB_PORT_VL_ARBITRATION_HIGH_CAP_F, 8);
	sma_fset(pi, IB_PORT_VL_ARBITRATION_LOW_CAP_F, 8);
	sma_fset(pi, IB_PORT_GUID_CAP_F, cfg->guid_cap);
	sma_fset(pi, IB_PORT_RESP_TIME_VAL_F, 8); /* 4.096 us * 2^8: about 1 ms */
	if (cfg->mkey) {
		/* a configured M_Key (sma_policy.c), hidden from Gets without it */
		sma_fset64(pi, IB_PORT_MKEY_F, cfg->mkey);
		sma_fset(pi, IB_PORT_MKEY_PROT_BITS_F, 1);
	}
	(void)s;
}

/* Writable fields copied as they come, each with its largest valid value. */
static const struct {
	enum MAD_FIELDS f;
	uint32_t max;
} pi_copy_fields[] = {
	{ IB_PORT_SMLID_F, 0xFFFF },	  { IB_PORT_MKEY_LEASE_F, 0xFFFF },
	{ IB_PORT_MKEY_PROT_BITS_F, 3 },  { IB_PORT_LMC_F, IBR_LMC_MAX },
	{ IB_PORT_SMSL_F, 15 },		  { IB_PORT_VL_HIGH_LIMIT_F, 255 },
	{ IB_PORT_PART_EN_INB_F, 1 },	  { IB_PORT_PART_EN_OUTB_F, 1 },
	{ IB_PORT_FILTER_RAW_INB_F, 1 },  { IB_PORT_FILTER_RAW_OUTB_F, 1 },
	{ IB_PORT_MKEY_VIOL_F, 0xFFFF },  { IB_PORT_PKEY_VIOL_F, 0xFFFF },
	{ IB_PORT_QKEY_VIOL_F, 0xFFFF },  { IB_PORT_SUBN_TIMEOUT_F, 31 },
	{ IB_PORT_LOCAL_PHYS_ERR_F, 15 }, { IB_PORT_OVERRUN_ERR_F, 15 },
	{ IB_PORT_HOQ_LIFE_F, 31 },	  { IB_PORT_VL_STALL_COUNT_F, 7 },
};

/* LinkWidthEnabled / LinkSpeedEnabled: 0 no change, `all` = supported, else a subset. */
static bool pi_set_enabled(uint8_t *n, const uint8_t *q, enum MAD_FIELDS en, enum MAD_FIELDS sup,
			   enum MAD_FIELDS act, uint32_t all)
{
	uint32_t v = sma_fget(q, en), supported = sma_fget(n, sup);

	if (v == 0)
		return true;
	if (v == all)
		v = supported;
	if (v & ~supported)
		return false;
	sma_fset(n, en, v);
	/* the link retrains within what is enabled: the active width or speed
	 * (one bit) becomes the highest enabled one when it no longer is */
	if (!(sma_fget(n, act) & v))
		sma_fset(n, act, 1u << (31 - __builtin_clz(v)));
	return true;
}

/* PortState and PortPhysicalState of a Set (see the file comment). */
static bool pi_set_state(uint8_t *n, const uint8_t *q)
{
	uint32_t cur = sma_fget(n, IB_PORT_STATE_F);
	uint32_t st = sma_fget(q, IB_PORT_STATE_F);
	uint32_t phys = sma_fget(q, IB_PORT_PHYS_STATE_F);

	switch (phys) {
	case 0:
		break;
	case SMA_PHYS_POLLING:
		if (sma_fget(n, IB_PORT_PHYS_STATE_F) == SMA_PHYS_DISABLED)
			sma_fset(n, IB_PORT_PHYS_STATE_F, SMA_PHYS_POLLING);
		break;
	case SMA_PHYS_DISABLED:
		sma_fset(n, IB_PORT_PHYS_STATE_F, SMA_PHYS_DISABLED);
		cur = SMA_PORT_DOWN;
		break;
	default:
		return false;
	}
	switch (st) {
	case SMA_PORT_NOP:
		break;
	case SMA_PORT_DOWN:
		cur = SMA_PORT_DOWN;
		break;
	case SMA_PORT_ARMED:
		if (cur != SMA_PORT_INIT && cur != SMA_PORT_ARMED)
			return false;
		cur = SMA_PORT_ARMED;
		break;
	case SMA_PORT_ACTIVE:
		if (cur != SMA_PORT_ARMED && cur != SMA_PORT_ACTIVE)
			return false;
		cur = SMA_PORT_ACTIVE;
		break;
	default:
		return false;
	}
	sma_fset(n, IB_PORT_STATE_F, cur);
	return true;
}

/* Build the new image n from the current one and the request q; false if invalid. */
static bool pi_set_build(uint8_t *n, const uint8_t *q)
{
	uint32_t v;

	sma_fset64(n, IB_PORT_MKEY_F, sma_fget64(q, IB_PORT_MKEY_F));
	sma_fset64(n, IB_PORT_GID_PREFIX_F, sma_fget64(q, IB_PORT_GID_PREFIX_F));
	v = sma_fget(q, IB_PORT_LID_F);
	if (ibr_lid_class((uint16_t)v) == IBR_LID_CLASS_MULTICAST ||
	    ibr_lid_class((uint16_t)v) == IBR_LID_CLASS_PERMISSIVE)
		return false;
	sma_fset(n, IB_PORT_LID_F, v);
	for (size_t i = 0; i < sizeof(pi_copy_fields) / sizeof(pi_copy_fields[0]); i++) {
		v = sma_fget(q, pi_copy_fields[i].f);
		if (v > pi_copy_fields[i].max)
			return false;
		sma_fset(n, pi_copy_fields[i].f, v);
	}
	v = sma_fget(q, IB_PORT_LINK_DOWN_DEF_F); /* 0 NOP, 1 Sleep, 2 Polling */
	if (v > 2)
		return false;
	if (v)
		sma_fset(n, IB_PORT_LINK_DOWN_DEF_F, v);
	v = sma_fget(q, IB_PORT_NEIGHBOR_MTU_F); /* 1..MTUCap */
	if (v < 1 || v > sma_fget(n, IB_PORT_MTU_CAP_F))
		return false;
	sma_fset(n, IB_PORT_NEIGHBOR_MTU_F, v);
	v = sma_fget(q, IB_PORT_OPER_VLS_F); /* 0 NOP, 1..VLCap */
	if (v > sma_fget(n, IB_PORT_VL_CAP_F))
		return false;
	if (v)
		sma_fset(n, IB_PORT_OPER_VLS_F, v);
	if (!pi_set_enabled(n, q, IB_PORT_LINK_WIDTH_ENABLED_F, IB_PORT_LINK_WIDTH_SUPPORTED_F,
			    IB_PORT_LINK_WIDTH_ACTIVE_F, PI_WIDTH_SET_SUPPORTED) ||
	    !pi_set_enabled(n, q, IB_PORT_LINK_SPEED_ENABLED_F, IB_PORT_LINK_SPEED_SUPPORTED_F,
			    IB_PORT_LINK_SPEED_ACTIVE_F, PI_SPEED_SET_SUPPORTED))
		return false;
	return pi_set_state(n, q);
}

/* A field of at most 32 bits changed (mad_get_field64() is for 64-bit fields only). */
static bool pi_changed(const uint8_t *a, const uint8_t *b, enum MAD_FIELDS f)
{
	return sma_fget(a, f) != sma_fget(b, f);
}

/* Events for what a committed Set changed (old image o, new image n). */
static void pi_set_events(struct sma *s, struct sma_port *p, const uint8_t *o, const uint8_t *n,
			  bool rereg)
{
	struct sma_event ev = { .port = p->num };

	if (pi_changed(o, n, IB_PORT_LID_F) || pi_changed(o, n, IB_PORT_LMC_F)) {
		ev.type = SMA_EV_LID;
		ev.lid = (uint16_t)sma_fget(n, IB_PORT_LID_F);
		ev.lmc = (uint8_t)sma_fget(n, IB_PORT_LMC_F);
		sma_event_emit(s, &ev);
	}
	if (sma_fget64(o, IB_PORT_GID_PREFIX_F) != sma_fget64(n, IB_PORT_GID_PREFIX_F)) {
		ev.type = SMA_EV_GID_PREFIX;
		ev.gid_prefix = sma_fget64(n, IB_PORT_GID_PREFIX_F);
		sma_event_emit(s, &ev);
	}
	if (pi_changed(o, n, IB_PORT_SMLID_F) || pi_changed(o, n, IB_PORT_SMSL_F)) {
		ev.type = SMA_EV_SM;
		ev.sm_lid = (uint16_t)sma_fget(n, IB_PORT_SMLID_F);
		ev.sm_sl = (uint8_t)sma_fget(n, IB_PORT_SMSL_F);
		sma_event_emit(s, &ev);
	}
	if (pi_changed(o, n, IB_PORT_NEIGHBOR_MTU_F) || pi_changed(o, n, IB_PORT_OPER_VLS_F)) {
		ev.type = SMA_EV_MTU_VLS;
		ev.neighbor_mtu = (uint8_t)sma_fget(n, IB_PORT_NEIGHBOR_MTU_F);
		ev.oper_vls = (uint8_t)sma_fget(n, IB_PORT_OPER_VLS_F);
		sma_event_emit(s, &ev);
	}
	if (rereg) {
		ev.type = SMA_EV_CLIENT_REREG;
		sma_event_emit(s, &ev);
	}
}

static uint16_t pi_set(struct sma_req *r, struct sma_port *p)
{
	const uint8_t *q = r->mad + IBR_SMP_DATA_OFFS;
	uint8_t o[IBR_SMP_DATA_SIZE], n[IBR_SMP_DATA_SIZE];
	enum sma_port_state st;
	bool rereg;

	memcpy(o, p->pi, sizeof(o));
	memcpy(n, p->pi, sizeof(n));
	if (!pi_set_build(n, q))
		return IBR_MAD_STATUS_INVALID_FIELD;
	/* ClientReregister: a one-shot request, honoured when advertised (14.4.11) */
	rereg = sma_fget(q, IB_PORT_CLIENT_REREG_F) &&
		(sma_fget(n, IB_PORT_CAPMASK_F) & SMA_CAP_IS_CLIENT_REREG);
	/* the state goes through sma_port_state_set() for its event */
	st = sma_fget(n, IB_PORT_STATE_F);
	sma_fset(n, IB_PORT_STATE_F, sma_fget(o, IB_PORT_STATE_F));
	memcpy(p->pi, n, sizeof(n));
	pi_set_events(r->s, p, o, n, rereg);
	sma_port_state_set(r->s, p, st);
	p->sm_managed = true;
	return IBR_MAD_STATUS_OK;
}

/*
 * PortInfo: AttributeModifier = port number (0: the port the SMP arrived
 * on, as CAs answer); other ports than 1..NumPorts: 0x001C.
 */
uint16_t sma_attr_port_info(struct sma_req *r)
{
	struct sma_port *p = r->port;
	uint16_t st = IBR_MAD_STATUS_OK;

	if (r->attr_mod) {
		p = sma_port_lookup(r->s, r->attr_mod);
	}
	if (!p) {
		memset(r->data, 0, IBR_SMP_DATA_SIZE);
		return IBR_MAD_STATUS_INVALID_FIELD;
	}
	if (r->method == IBR_MAD_METHOD_SET)
		st = pi_set(r, p);
	memcpy(r->data, p->pi, IBR_SMP_DATA_SIZE);
	if (!r->mkey_ok)
		sma_fset64(r->data, IB_PORT_MKEY_F, 0);
	return st;
}

int sma_port_sync(struct sma *s, unsigned int port, const struct sma_port_fwd *f)
{
	struct sma_port *p = sma_port_lookup(s, port);
	uint32_t st;

	if (!p || !f || ibr_lid_class(f->lid) == IBR_LID_CLASS_MULTICAST ||
	    ibr_lid_class(f->lid) == IBR_LID_CLASS_PERMISSIVE || f->lmc > IBR_LMC_MAX)
		return -EINVAL;
	sma_fset(p->pi, IB_PORT_LID_F, f->lid);
	sma_fset(p->pi, IB_PORT_LMC_F, f->lmc);
	sma_fset64(p->pi, IB_PORT_GID_PREFIX_F, f->gid_prefix ? f->gid_prefix : PI_DEFAULT_PREFIX);
	st = sma_fget(p->pi, IB_PORT_STATE_F);
	if (f->forwarding) {
		sma_fset(p->pi, IB_PORT_PHYS_STATE_F, SMA_PHYS_LINKUP);
		/*
		 * A port no SM has set up shows Active as it forwards; one an SM
		 * manages moves as its SM says (IBA 14.2.5.6: Init, Armed by a
		 * Set, then Active), so that the SM walks it through the states
		 * and its neighbour's with it, as OpenSM does.
		 */
		if (!p->sm_managed)
			sma_fset(p->pi, IB_PORT_STATE_F, SMA_PORT_ACTIVE);
		else if (st == SMA_PORT_DOWN)
			sma_fset(p->pi, IB_PORT_STATE_F, SMA_PORT_INIT); /* its link is up */
	} else if (st == SMA_PORT_ACTIVE) {
		sma_fset(p->pi, IB_PORT_STATE_F, SMA_PORT_INIT);
	}
	return 0;
}
