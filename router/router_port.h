/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_port.h - what the forwarding core knows about one router port.
 * The daemon fills it from the config, the SMA (LID, LMC, prefix, P_Keys,
 * SL2VL set by OpenSM) and the SA client; the RIB compiles it into the FIB.
 */
#ifndef ROUTER_PORT_H
#define ROUTER_PORT_H

#include <stdint.h>

#define ROUTER_MAX_PORTS 16
#define ROUTER_MAX_PKEYS 128 /* PartitionCap the SMA advertises at most */
#define ROUTER_PORT_NAME 16

enum router_port_flag {
	ROUTER_PORT_UP = 1 << 0,	 /* the link is active: forward to and from it */
	ROUTER_PORT_VCRC_CHECK = 1 << 1, /* verify the VCRC of received packets (default) */
	ROUTER_PORT_ICRC_CHECK = 1 << 2, /* verify the ICRC too (off: the router is no end node) */
	ROUTER_PORT_PKEY_CHECK = 1 << 3, /* enforce the P_Key table on egress */
	/*
	 * The egress hardware builds the link headers and CRCs (the verbs UD
	 * model): no VCRC upkeep on the data path for this port.
	 */
	ROUTER_PORT_CRC_OFFLOAD = 1 << 4,
	/*
	 * RoCE (link layer Ethernet): the subnet has no LIDs.  The port is
	 * usable without one, its packets come in with DLID 0 (the backend's
	 * synthesis), and it reaches its subnet's hosts by GID alone
	 * (ROUTER_NH_GID); a group's MLID on it is only the router's name.
	 */
	ROUTER_PORT_ROCE = 1 << 5,
};

/*
 * Reverse-path check on the SGID (IBA 8.2: a path between two subnets must be
 * usable both ways).  strict: the SGID's prefix must route out of the port the
 * packet came in on; loose: it must route somewhere; off: no check (default;
 * the control plane installs routes in pairs, and the check costs a lookup).
 */
enum router_rpf {
	ROUTER_RPF_OFF = 0,
	ROUTER_RPF_LOOSE,
	ROUTER_RPF_STRICT,
};

#define ROUTER_SL_KEEP 0xFF /* TClass->SL entry: keep the packet's SL */

struct router_port {
	char name[ROUTER_PORT_NAME];
	uint64_t guid;		/* port GUID: the interface ID of the port's own GID */
	uint64_t prefix;	/* subnet prefix; 0 while unknown */
	uint16_t lid;		/* base LID; 0 while unassigned */
	uint8_t lmc;		/* the port owns LIDs lid .. lid + 2^lmc - 1 */
	uint8_t site;		/* site number: site-local GIDs never leave their site */
	uint16_t mtu;		/* largest payload in bytes (256, 512, 1024, 2048, 4096) */
	uint8_t flags;		/* enum router_port_flag */
	uint8_t rpf;		/* enum router_rpf */
	uint8_t tclass_sl[256]; /* egress SL by TClass, ROUTER_SL_KEEP to keep */
	uint8_t sl_vl[16];	/* egress VL by SL (default all VL0) */
	uint16_t npkeys;
	uint16_t pkeys[ROUTER_MAX_PKEYS]; /* with the membership bit (0x8000) */
};

/* Defaults: down, VCRC check on, MTU 2048, SL kept, every SL on VL0. */
void router_port_defaults(struct router_port *p, const char *name);
/*
 * Adds a P_Key, with its membership bit, to the port's table: -EINVAL for base 0 (reserved,
 * IBA 10.9.1.2), -EEXIST when its base is listed already (each partition once), -ENOSPC when
 * the table is full; 0 when added.  The config's pkeys and the SM's PKeyTable Sets.
 */
int router_port_pkey_add(struct router_port *p, uint16_t pkey);

#endif
