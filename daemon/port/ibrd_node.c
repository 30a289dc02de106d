/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_node.c - what each router port is to its subnet's SM, and what
 * follows from it, told at start, in `show ports` and when it changes:
 *   - a Channel Adapter (NodeType 1): every port on an HCA (mad = umad,
 *     data = verbs), whose firmware answers the SMPs, and an ibsim port at
 *     an Hca node.  Peers find it by its ServiceRecords; PathRecords from
 *     other subnets to it need the OpenSM plugin in that subnet's OpenSM
 *     (OpenSM's find_router() looks for routers in rtr_guid_tbl, which
 *     holds Router nodes and what the plugin adds); on an HCA the SMA's
 *     router attributes (RouterInfo, NextHopTable, ...) are never asked of
 *     the router, and its SMA settings do nothing;
 *   - a Router node (NodeType 3): a sim port, whose SMPs the SMA answers on
 *     the wire, and an ibsim port at an Rt node;
 * as the port's SA client read it (its hop-0 NodeInfo), else as its
 * transports say.  And a subnet whose SM kept the default prefix fe80::/64
 * (OpenSM's subnet_prefix 0xfe80000000000000): its GIDs are link-local,
 * which no router forwards (IBA 8.4), so it cannot be routed to.
 */
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"
#include "sa/sa_client.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum ibrd_node_kind ibrd_port_node(const struct ibrd *d, uint32_t i)
{
	const struct ibrd_conf_port *cp = &d->conf->port[i];
	const struct sa_port_state *ps = d->sa[i] ? sa_client_port(d->sa[i]) : NULL;

	if (ps && ps->node_type == 1)
		return IBRD_NODE_CA;
	if (ps && ps->node_type == 3)
		return IBRD_NODE_ROUTER;
	if (cp->mad == IBRD_MAD_IBSIM)
		return IBRD_NODE_UNKNOWN; /* the topology's node: Rt or Hca */
	if (cp->mad == IBRD_MAD_UMAD || cp->data == IBRD_DATA_VERBS)
		return IBRD_NODE_CA; /* an HCA: its firmware answers the SMPs */
	if (cp->data == IBRD_DATA_SIM)
		return IBRD_NODE_ROUTER; /* the SMA answers them on the wire */
	return IBRD_NODE_UNKNOWN;
}

const char *ibrd_node_kind_name(enum ibrd_node_kind k)
{
	return k == IBRD_NODE_CA ? "ca" : k == IBRD_NODE_ROUTER ? "router" : "-";
}

/* The SMA never sees the port's SMPs: an HCA's firmware answers them. */
static bool port_smps_are_hca(const struct ibrd_conf_port *cp)
{
	return cp->mad == IBRD_MAD_UMAD ||
	       (cp->mad == IBRD_MAD_NONE && cp->data == IBRD_DATA_VERBS);
}

/* The prefix of port i's subnet as its SM has it (its SA client's), else the RIB's. */
static uint64_t port_sm_prefix(const struct ibrd *d, uint32_t i)
{
	uint64_t p = d->sa[i] ? sa_client_port(d->sa[i])->prefix : 0;

	return p ? p : d->rib.port[i].prefix;
}

static void notes_add(char *buf, size_t n, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*at >= n)
		return;
	if (*at && (w = snprintf(buf + *at, n - *at, "; ")) > 0)
		*at += (size_t)w;
	if (*at >= n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *at, n - *at, fmt, ap);
	va_end(ap);
	if (w > 0)
		*at += (size_t)w;
}

const char *ibrd_port_notes(const struct ibrd *d, uint32_t i, char *buf, size_t n)
{
	const struct ibrd_conf_port *cp = &d->conf->port[i];
	struct ibrd_mad_info mi;
	size_t at = 0;

	buf[0] = '\0';
	ibrd_mad_info(d, i, &mi);
	if (mi.lost)
		notes_add(buf, n, &at, "MAD channel lost (%s), tried %llu times", strerror(-mi.err),
			  (unsigned long long)mi.tries);
	if (d->rib.port[i].prefix == IBRD_PREFIX_DEFAULT ||
	    port_sm_prefix(d, i) == IBRD_PREFIX_DEFAULT)
		notes_add(buf, n, &at,
			  "prefix fe80::/64, the SM's default: link-local, never routed "
			  "(give the SM a subnet_prefix of its own)");
	if (ibrd_port_node(d, i) == IBRD_NODE_CA) {
		notes_add(buf, n, &at,
			  "a CA to its SM: PathRecords from other subnets need the OpenSM plugin "
			  "there");
		if (port_smps_are_hca(cp))
			notes_add(buf, n, &at,
				  "the HCA answers its SMPs: no router attributes (RouterInfo, "
				  "NextHopTable)");
	}
	return buf;
}

void ibrd_port_roles_log(struct ibrd *d)
{
	for (uint32_t i = 0; i < d->conf->nports; i++) {
		const struct ibrd_conf_port *cp = &d->conf->port[i];
		enum ibrd_node_kind k = ibrd_port_node(d, i);

		if (k == IBRD_NODE_CA && port_smps_are_hca(cp))
			log_info("port %s: a Channel Adapter to its SM (the HCA's firmware answers "
				 "its SMPs): peers find it by its ServiceRecords; PathRecords from "
				 "other subnets need the OpenSM plugin (ibrouter-osm) in that "
				 "subnet's OpenSM; the SMA's router attributes are not served "
				 "there (sim and ibsim ports only)",
				 cp->name);
		else if (k == IBRD_NODE_ROUTER)
			log_info("port %s: a Router node to its SM (the SMA answers its SMPs)",
				 cp->name);
		if (port_smps_are_hca(cp) &&
		    (cp->sma_mkey || cp->sma_set_policy != IBRD_SMA_MASTER_SM))
			log_warnx("port %s: sma-mkey and sma-set-policy do nothing here: the HCA's "
				  "firmware answers this port's SMPs, not the SMA",
				  cp->name);
	}
}
