/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_pma.c - the router ports' PerfMgt agent (sma_pma.h).  Attribute
 * layouts of IBA 16.1.3.5 (PortCounters) and 16.1.4.11
 * (PortCountersExtended), ClassPortInfo of 13.4.8.1.
 */
#include "sma/sma_pma.h"

#include "lib/ibr_mad.h"

#include <stdlib.h>
#include <string.h>

/* The counters a PMA clears one by one, in the order of struct sma_pma_counts. */
enum pma_ctr {
	PMA_XMIT_DATA,
	PMA_RCV_DATA,
	PMA_XMIT_PKTS,
	PMA_RCV_PKTS,
	PMA_RCV_ERRORS,
	PMA_RCV_RELAY,
	PMA_RCV_CONSTRAINT,
	PMA_XMIT_DISCARDS,
	PMA_VL15_DROPPED,
	PMA_NCTR
};
_Static_assert(sizeof(struct sma_pma_counts) == PMA_NCTR * sizeof(uint64_t), "one per counter");

struct pma_port {
	uint64_t base[PMA_NCTR]; /* the totals at its last clear */
	uint64_t gmps;		 /* the requests it answered (sma_pma_gmps) */
};

struct sma_pma {
	unsigned nports;
	struct sma_pma_ops ops;
	struct pma_port port[];
};

struct sma_pma *sma_pma_new(unsigned nports, const struct sma_pma_ops *ops)
{
	struct sma_pma *p = calloc(1, sizeof(*p) + nports * sizeof(p->port[0]));

	if (!p)
		return NULL;
	p->nports = nports;
	p->ops = *ops;
	return p;
}

struct sma_pma *sma_pma_renew(const struct sma_pma *old, unsigned nports, const int *from,
			      const struct sma_pma_ops *ops)
{
	struct sma_pma *p = sma_pma_new(nports, ops);

	for (unsigned i = 0; p && old && i < nports; i++)
		if (from[i] >= 0 && (unsigned)from[i] < old->nports)
			p->port[i] = old->port[from[i]];
	return p;
}

void sma_pma_free(struct sma_pma *p)
{
	free(p);
}

/* Port i's (0-based) totals now, when PortSelect `sel` names it (0xFF: every port). */
static bool pma_totals(struct sma_pma *p, uint8_t sel, unsigned i, uint64_t t[PMA_NCTR])
{
	struct sma_pma_counts c;

	if (sel != 0xFF && i + 1u != sel)
		return false;
	memset(&c, 0, sizeof(c));
	p->ops.counts(p->ops.arg, (uint8_t)(i + 1), &c);
	memcpy(t, &c, sizeof(c));
	return true;
}

/* The counts since the last clear of the ports `sel` names, summed. */
static void pma_read(struct sma_pma *p, uint8_t sel, uint64_t v[PMA_NCTR])
{
	uint64_t t[PMA_NCTR];

	memset(v, 0, PMA_NCTR * sizeof(v[0]));
	for (unsigned i = 0; i < p->nports; i++) {
		if (!pma_totals(p, sel, i, t))
			continue;
		for (unsigned k = 0; k < PMA_NCTR; k++)
			v[k] += t[k] >= p->port[i].base[k] ? t[k] - p->port[i].base[k] : 0;
	}
}

/* Clear the counters whose bit is set in `mask` (bit k: enum pma_ctr k). */
static void pma_clear(struct sma_pma *p, uint8_t sel, uint32_t mask)
{
	uint64_t t[PMA_NCTR];

	for (unsigned i = 0; i < p->nports; i++)
		if (pma_totals(p, sel, i, t))
			for (unsigned k = 0; k < PMA_NCTR; k++)
				if (mask & (1u << k))
					p->port[i].base[k] = t[k];
}

/* A counter saturates at its field's largest value (16.1.3.5), never wraps. */
static uint64_t sat(uint64_t v, unsigned bits)
{
	uint64_t max = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;

	return v > max ? max : v;
}

/*
 * PortCounters:CounterSelect bits (16.1.3.5) -> our counters.  Bits of
 * counters the router has no source for (symbol errors, link recovery and
 * downed, remote physical errors, transmit constraint errors, link
 * integrity, buffer overruns) select nothing: they read 0.
 */
static uint32_t pc_mask(uint16_t sel)
{
	static const struct {
		uint16_t bit;
		uint8_t ctr;
	} map[] = {
		{ 0x0008, PMA_RCV_ERRORS },    { 0x0020, PMA_RCV_RELAY },
		{ 0x0040, PMA_XMIT_DISCARDS }, { 0x0100, PMA_RCV_CONSTRAINT },
		{ 0x0800, PMA_VL15_DROPPED },  { 0x1000, PMA_XMIT_DATA },
		{ 0x2000, PMA_RCV_DATA },      { 0x4000, PMA_XMIT_PKTS },
		{ 0x8000, PMA_RCV_PKTS },
	};
	uint32_t m = 0;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (sel & map[i].bit)
			m |= 1u << map[i].ctr;
	return m;
}

/* PortCountersExtended:CounterSelect: the four data and packet counts (16.1.4.11). */
static uint32_t pcx_mask(uint16_t sel)
{
	return (sel & 0x0001 ? 1u << PMA_XMIT_DATA : 0) | (sel & 0x0002 ? 1u << PMA_RCV_DATA : 0) |
	       (sel & 0x0004 ? 1u << PMA_XMIT_PKTS : 0) | (sel & 0x0008 ? 1u << PMA_RCV_PKTS : 0);
}

static void pc_fill(uint8_t *d, const uint64_t v[PMA_NCTR])
{
	ibr_mad_st16(d + 8, (uint16_t)sat(v[PMA_RCV_ERRORS], 16));
	ibr_mad_st16(d + 12, (uint16_t)sat(v[PMA_RCV_RELAY], 16));
	ibr_mad_st16(d + 14, (uint16_t)sat(v[PMA_XMIT_DISCARDS], 16));
	d[17] = (uint8_t)sat(v[PMA_RCV_CONSTRAINT], 8);
	ibr_mad_st16(d + 22, (uint16_t)sat(v[PMA_VL15_DROPPED], 16));
	/* data in 4-byte words (16.1.3.5: "octets divided by 4") */
	ibr_mad_st32(d + 24, (uint32_t)sat(v[PMA_XMIT_DATA] / 4, 32));
	ibr_mad_st32(d + 28, (uint32_t)sat(v[PMA_RCV_DATA] / 4, 32));
	ibr_mad_st32(d + 32, (uint32_t)sat(v[PMA_XMIT_PKTS], 32));
	ibr_mad_st32(d + 36, (uint32_t)sat(v[PMA_RCV_PKTS], 32));
}

static void pcx_fill(uint8_t *d, const uint64_t v[PMA_NCTR])
{
	ibr_mad_st64(d + 8, v[PMA_XMIT_DATA] / 4);
	ibr_mad_st64(d + 16, v[PMA_RCV_DATA] / 4);
	ibr_mad_st64(d + 24, v[PMA_XMIT_PKTS]);
	ibr_mad_st64(d + 32, v[PMA_RCV_PKTS]);
	/* 40..71: unicast and multicast counts, not kept (ClassPortInfo says so): 0 */
}

static void cpi_fill(uint8_t *d)
{
	d[0] = IBR_MAD_BASE_VERSION;
	d[1] = 1; /* PerfMgt class version */
	ibr_mad_st16(d + 2, SMA_PMA_CAP_ALL_PORT_SELECT | SMA_PMA_CAP_EXT_WIDTH_NOIETF);
	/* CapabilityMask2 0; RespTimeValue 18: 4.096 us * 2^18, about 1 s */
	ibr_mad_st32(d + 4, 18);
}

/* The status of a request the agent cannot serve, or OK. */
static uint16_t pma_check(const struct sma_pma *p, const uint8_t *mad, uint8_t *psel)
{
	uint16_t attr = ibr_mad_attr_id(mad);
	uint8_t method = ibr_mad_method(mad);
	const uint8_t *d = mad + SMA_PMA_DATA_OFFS;

	if (ibr_mad_class_version(mad) != 1)
		return IBR_MAD_STATUS_BAD_VERSION;
	if (method != IBR_MAD_METHOD_GET && method != IBR_MAD_METHOD_SET)
		return IBR_MAD_STATUS_UNSUP_METHOD;
	if (attr == SMA_PMA_ATTR_CLASS_PORT_INFO)
		return method == IBR_MAD_METHOD_GET ? IBR_MAD_STATUS_OK
						    : IBR_MAD_STATUS_UNSUP_METHOD_ATTR;
	if (attr != SMA_PMA_ATTR_PORT_COUNTERS && attr != SMA_PMA_ATTR_PORT_COUNTERS_X)
		return IBR_MAD_STATUS_UNSUP_METHOD_ATTR;
	*psel = d[1];
	if (*psel != 0xFF && (*psel == 0 || *psel > p->nports))
		return IBR_MAD_STATUS_INVALID_FIELD;
	return IBR_MAD_STATUS_OK;
}

enum sma_pma_result sma_pma_process(struct sma_pma *p, uint8_t port, const uint8_t *mad, size_t len,
				    uint8_t reply[256])
{
	uint8_t *d = reply + SMA_PMA_DATA_OFFS, sel = port;
	uint64_t v[PMA_NCTR];
	uint16_t status, attr, cs;

	if (len < IBR_MAD_SIZE || ibr_mad_base_version(mad) != IBR_MAD_BASE_VERSION ||
	    ibr_mad_mgmt_class(mad) != IBR_MGMT_CLASS_PERF || ibr_mad_is_response(mad))
		return SMA_PMA_DROP;
	if (port >= 1 && port <= p->nports)
		p->port[port - 1].gmps++;
	memcpy(reply, mad, IBR_MAD_SIZE);
	ibr_mad_set_method(reply, IBR_MAD_METHOD_GET_RESP);
	status = pma_check(p, mad, &sel);
	ibr_mad_set_status(reply, status);
	if (status)
		return SMA_PMA_REPLY; /* the request's data back, with the status */
	attr = ibr_mad_attr_id(mad);
	memset(d, 0, IBR_MAD_SIZE - SMA_PMA_DATA_OFFS);
	if (attr == SMA_PMA_ATTR_CLASS_PORT_INFO) {
		cpi_fill(d);
		return SMA_PMA_REPLY;
	}
	cs = ibr_mad_ld16(mad + SMA_PMA_DATA_OFFS + 2);
	if (ibr_mad_method(mad) == IBR_MAD_METHOD_SET)
		pma_clear(p, sel, attr == SMA_PMA_ATTR_PORT_COUNTERS ? pc_mask(cs) : pcx_mask(cs));
	d[1] = sel;
	ibr_mad_st16(d + 2, cs);
	pma_read(p, sel, v);
	if (attr == SMA_PMA_ATTR_PORT_COUNTERS)
		pc_fill(d, v);
	else
		pcx_fill(d, v);
	return SMA_PMA_REPLY;
}

uint64_t sma_pma_gmps(const struct sma_pma *p, uint8_t port)
{
	return p && port >= 1 && port <= p->nports ? p->port[port - 1].gmps : 0;
}
