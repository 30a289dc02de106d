/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_pma.h - the Performance Management Agent of the router's ports
 * (PerfMgt, class 0x04, IBA 16.1): ClassPortInfo, PortCounters and
 * PortCountersExtended, Get and Set (a Set clears the selected counters).
 * The counts are the router's own (what it received and sent on a port,
 * its drops), given as totals by the daemon; the PMA keeps, per port, the
 * totals at the last clear and answers the difference, in IBA's units and
 * widths: PortXmitData and PortRcvData in 4-byte words, each counter
 * saturating at its field's largest value rather than wrapping (16.1.3.5).
 * PortSelect 0xFF is every port (AllPortSelect).  The unicast and multicast
 * packet counts of PortCountersExtended are not kept: ClassPortInfo says so
 * with IsExtendedWidthSupportedNoIETF (CapabilityMask bit 10), as
 * perfquery(8) reads it.
 */
#ifndef SMA_PMA_H
#define SMA_PMA_H

#include <stddef.h>
#include <stdint.h>

#define SMA_PMA_ATTR_CLASS_PORT_INFO 0x0001
#define SMA_PMA_ATTR_PORT_COUNTERS   0x0012
#define SMA_PMA_ATTR_PORT_COUNTERS_X 0x001D
#define SMA_PMA_DATA_OFFS	     64 /* after the MAD header and 40 reserved bytes */

/* ClassPortInfo:CapabilityMask (IBA 16.1.2) */
#define SMA_PMA_CAP_ALL_PORT_SELECT  0x0100
#define SMA_PMA_CAP_EXT_WIDTH_NOIETF 0x0400

/* One port's totals since the daemon started, as the router counts them. */
struct sma_pma_counts {
	uint64_t xmit_bytes, rcv_bytes, xmit_pkts, rcv_pkts;
	uint64_t rcv_errors;		/* malformed: headers, lengths, CRCs */
	uint64_t rcv_relay_errors;	/* not forwarded: no route, hop limit, scope, ... */
	uint64_t rcv_constraint_errors; /* P_Key not allowed out */
	uint64_t xmit_discards;		/* copies the link did not take */
	uint64_t vl15_dropped;		/* SMPs dropped before the SMA */
};

struct sma_pma_ops {
	void *arg;
	/* The totals of port `port` (1-based). */
	void (*counts)(void *arg, uint8_t port, struct sma_pma_counts *out);
};

struct sma_pma;

struct sma_pma *sma_pma_new(unsigned nports, const struct sma_pma_ops *ops);
/*
 * The PMA of another set of ports, the clear baselines following their
 * ports: from[i] is the old index (0-based) of new port i, or -1.
 */
struct sma_pma *sma_pma_renew(const struct sma_pma *old, unsigned nports, const int *from,
			      const struct sma_pma_ops *ops);
void sma_pma_free(struct sma_pma *p);

enum sma_pma_result {
	SMA_PMA_REPLY, /* `reply` holds the GetResp (with an error status when it is one) */
	SMA_PMA_DROP,  /* not a PerfMgt request of base version 1: nothing to answer */
};

/* A MAD received on port `port` (1-based); the 256-byte reply. */
enum sma_pma_result sma_pma_process(struct sma_pma *p, uint8_t port, const uint8_t *mad, size_t len,
				    uint8_t reply[256]);

/* The requests port `port` (1-based) answered, OpenSM's perfmgr's and perfquery's. */
uint64_t sma_pma_gmps(const struct sma_pma *p, uint8_t port);

#endif
