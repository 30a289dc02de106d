/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_test.h - helpers shared by the SMA unit tests: an SMA with recorded
 * events, and requests encoded and replies decoded with libibmad's own
 * field codecs (mad_set_field() / mad_get_field() on a 256-byte MAD, as
 * smpquery does), so that the tests check the SMA against libibmad rather
 * than against lib/ibr_mad.h.
 */
#ifndef SMA_TEST_H
#define SMA_TEST_H

#include "sma/sma.h"
#include "tests/unit/ibr_test.h"

#include <infiniband/mad.h>
#include <string.h>

#define T_NODE_GUID    0x0002C90300AB0000ull
#define T_PORT_GUID(n) (0x0002C90300AB0000ull + (n))
#define T_MAX_EV       256

static struct sma_event t_ev[T_MAX_EV];
static unsigned int t_nev;

static inline void t_event(void *arg, const struct sma_event *ev)
{
	(void)arg;
	if (t_nev < T_MAX_EV) {
		t_ev[t_nev] = *ev;
		/* the pointers are valid during the callback only */
		t_ev[t_nev].pkeys = NULL;
		t_ev[t_nev].sl2vl = NULL;
		t_ev[t_nev].guids = NULL;
		t_nev++;
	}
}

/* How many recorded events of a type (and the last of them in *last). */
static inline unsigned int t_ev_count(enum sma_event_type type, struct sma_event *last)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < t_nev; i++)
		if (t_ev[i].type == type) {
			n++;
			if (last)
				*last = t_ev[i];
		}
	return n;
}

static inline void t_cfg(struct sma_node_cfg *c, unsigned int nports)
{
	memset(c, 0, sizeof(*c));
	c->node_guid = T_NODE_GUID;
	c->num_ports = nports;
	strcpy(c->node_desc, "ibrouterd testhost rtr0");
	for (unsigned int i = 0; i < nports && i < SMA_MAX_PORTS; i++)
		c->ports[i].guid = T_PORT_GUID(i + 1);
}

static inline struct sma *t_sma_ops(unsigned int nports, const struct sma_ops *ops)
{
	struct sma_node_cfg c;
	struct sma_ops o = { .event = t_event };

	t_cfg(&c, nports);
	t_nev = 0;
	return sma_new(&c, ops ? ops : &o);
}

static inline struct sma *t_sma(unsigned int nports)
{
	return t_sma_ops(nports, NULL);
}

/* A request with libibmad's encoders: class 0x81 (dr) or 0x01, zero hops. */
static inline void t_smp(uint8_t *m, int dr, unsigned int method, unsigned int attr, uint32_t mod,
			 uint64_t tid)
{
	memset(m, 0, IB_MAD_SIZE);
	mad_set_field(m, 0, IB_MAD_BASEVER_F, 1);
	mad_set_field(m, 0, IB_MAD_MGMTCLASS_F, dr ? IB_SMI_DIRECT_CLASS : IB_SMI_CLASS);
	mad_set_field(m, 0, IB_MAD_CLASSVER_F, 1);
	mad_set_field(m, 0, IB_MAD_METHOD_F, method & 0x7F);
	mad_set_field(m, 0, IB_MAD_RESPONSE_F, (method & 0x80) ? 1 : 0);
	mad_set_field64(m, 0, IB_MAD_TRID_F, tid);
	mad_set_field(m, 0, IB_MAD_ATTRID_F, attr);
	mad_set_field(m, 0, IB_MAD_ATTRMOD_F, mod);
	if (dr) {
		mad_set_field(m, 0, IB_DRSMP_DRSLID_F, 0xFFFF);
		mad_set_field(m, 0, IB_DRSMP_DRDLID_F, 0xFFFF);
	}
}

static inline uint8_t *t_data(uint8_t *m)
{
	return m + IB_SMP_DATA_OFFS;
}

static inline enum sma_verdict t_run_at(struct sma *s, unsigned int port, const uint8_t *req,
					uint8_t *rep, uint64_t now, enum sma_drop *why)
{
	struct sma_rx rx = { .port = (uint8_t)port, .slid = 0xFFFF, .now_ns = now };
	struct sma_tx tx;

	return sma_process(s, &rx, req, IB_MAD_SIZE, rep, &tx, why);
}

static inline enum sma_verdict t_run(struct sma *s, const uint8_t *req, uint8_t *rep)
{
	return t_run_at(s, 1, req, rep, 0, NULL);
}

/* The reply's status as libibmad decodes it (15 bits for a DR SMP). */
static inline unsigned int t_status(uint8_t *rep)
{
	if (mad_get_field(rep, 0, IB_MAD_MGMTCLASS_F) == IB_SMI_DIRECT_CLASS)
		return mad_get_field(rep, 0, IB_DRSMP_STATUS_F);
	return mad_get_field(rep, 0, IB_MAD_STATUS_F);
}

/* A GetResp echoing TID, AttributeID, AttributeModifier (13.4.6.2). */
static inline int t_is_getresp(uint8_t *rep, unsigned int attr, uint32_t mod, uint64_t tid)
{
	return mad_get_field(rep, 0, IB_MAD_METHOD_F) == IB_MAD_METHOD_GET &&
	       mad_get_field(rep, 0, IB_MAD_RESPONSE_F) == 1 &&
	       mad_get_field64(rep, 0, IB_MAD_TRID_F) == tid &&
	       mad_get_field(rep, 0, IB_MAD_ATTRID_F) == attr &&
	       mad_get_field(rep, 0, IB_MAD_ATTRMOD_F) == mod;
}

/* Get `attr` (LID routed, port 1) into rep; the status. */
static inline unsigned int t_get(struct sma *s, unsigned int attr, uint32_t mod, uint8_t *rep)
{
	uint8_t req[IB_MAD_SIZE];

	t_smp(req, 0, IB_MAD_METHOD_GET, attr, mod, 0x1234);
	if (t_run(s, req, rep) != SMA_REPLY)
		return 0xFFFF;
	return t_status(rep);
}

/*
 * Set `attr` with 64 bytes of data on port 1, LID routed from `slid` or (dr)
 * a hop-0 directed route; the status (0xFFFF if no reply).
 */
static inline unsigned int t_set_at(struct sma *s, int dr, uint16_t slid, unsigned int attr,
				    uint32_t mod, const uint8_t *data, uint8_t *rep)
{
	uint8_t req[IB_MAD_SIZE];
	struct sma_rx rx = { .port = 1, .slid = slid };
	struct sma_tx tx;

	t_smp(req, dr, IB_MAD_METHOD_SET, attr, mod, 0x5678);
	memcpy(t_data(req), data, IB_SMP_DATA_SIZE);
	if (sma_process(s, &rx, req, IB_MAD_SIZE, rep, &tx, NULL) != SMA_REPLY)
		return 0xFFFF;
	return t_status(rep);
}

/* Set `attr` (LID routed from the permissive LID, port 1). */
static inline unsigned int t_set(struct sma *s, unsigned int attr, uint32_t mod,
				 const uint8_t *data, uint8_t *rep)
{
	return t_set_at(s, 0, 0xFFFF, attr, mod, data, rep);
}

/* Any field: mad_get_field64() only for the 64-bit ones (M_Key, GidPrefix, GUIDs). */
static inline uint64_t t_fget(uint8_t *buf, enum MAD_FIELDS f)
{
	if (f == IB_PORT_MKEY_F || f == IB_PORT_GID_PREFIX_F)
		return mad_get_field64(buf, 0, f);
	return mad_get_field(buf, 0, f);
}

static inline void t_fset(uint8_t *buf, enum MAD_FIELDS f, uint64_t v)
{
	if (f == IB_PORT_MKEY_F || f == IB_PORT_GID_PREFIX_F)
		mad_set_field64(buf, 0, f, v);
	else
		mad_set_field(buf, 0, f, (uint32_t)v);
}

/*
 * PortInfo of port 1 ready for a read-modify-write Set, as ibportstate
 * does: PortState and PortPhysicalState set to 0 (no change).
 */
static inline void t_pi_rmw(struct sma *s, uint8_t *pi)
{
	uint8_t rep[IB_MAD_SIZE];

	t_get(s, IB_ATTR_PORT_INFO, 1, rep);
	memcpy(pi, t_data(rep), IB_SMP_DATA_SIZE);
	mad_set_field(pi, 0, IB_PORT_STATE_F, 0);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 0);
}

#endif
