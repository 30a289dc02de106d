/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_drop.h - why the forwarding core drops a packet: one X-macro table
 * gives the enum, the counter names (stable: they are in the control
 * protocol and the Prometheus output) and the rule each check enforces.
 * The order is the order of the checks in router_engine.c.
 */
#ifndef ROUTER_DROP_H
#define ROUTER_DROP_H

/* X(NAME, "counter", "rule", "description") */
#define ROUTER_DROPS(X)                                                                           \
	X(SHORT, "short", "IBA 7.7", "shorter than an LRH and a VCRC")                            \
	X(LVER, "lver", "IBA 7.7.2", "LRH LVer is not 0")                                         \
	X(PKTLEN, "pktlen", "IBA 7.7.8", "LRH PktLen does not match the received length")         \
	X(VCRC, "vcrc", "IBA 7.8.2", "VCRC of the received packet is wrong")                      \
	X(DLID, "dlid", "IBA 8.2.3", "DLID is neither one of the port's LIDs nor a known MLID")   \
	X(RAW, "raw", "IBA 8.1", "raw packet (LNH 0 or 1): routing raw packets is not specified") \
	X(TRUNCATED, "truncated", "IBA 7.7.8", "headers named by LNH/opcode do not fit")          \
	X(IPVER, "ipver", "C8-2", "GRH IPVer is not 6")                                           \
	X(NXTHDR, "nxthdr", "C8-7", "GRH NxtHdr is not 0x1B (IBA transport)")                     \
	X(PAYLEN, "paylen", "C8-14", "GRH PayLen disagrees with LRH PktLen")                      \
	X(PADCNT, "padcnt", "IBA 9.2.4", "BTH PadCnt larger than the payload")                    \
	X(HOPLMT, "hoplmt", "C8-16", "HopLmt is 0 or 1")                                          \
	X(SGID, "sgid", "IBA 4.1.1", "SGID is multicast, reserved or loopback")                   \
	X(DGID, "dgid", "IBA 4.1.1", "DGID is reserved or loopback")                              \
	X(LINK_LOCAL, "link_local", "IBA 4.1.1", "SGID or DGID is link-local (fe80::/10)")        \
	X(ICRC, "icrc", "IBA 7.8.1", "ICRC is wrong (optional check)")                            \
	X(SCOPE, "scope", "IBA 4.1.1", "multicast scope is link-local or unassigned")             \
	X(NO_GROUP, "no_group", "IBA 8.3", "no such multicast group")                             \
	X(NO_RECEIVERS, "no_receivers", "IBA 8.3",                                                \
	  "multicast group has no receiver beyond the router")                                    \
	X(NO_ROUTE, "no_route", "IBA 8.2", "no route to the DGID's prefix")                       \
	X(RPF, "rpf", "IBA 8.2", "no reverse route to the SGID's prefix (rpf check)")             \
	X(SAME_PORT, "same_port", "IBA 8.2", "route leads back out of the ingress port")          \
	X(SITE, "site", "IBA 4.1.1", "site-local GID would leave its site")                       \
	X(PORT_DOWN, "port_down", "IBA 8.2.3", "egress port is down or has no LID")               \
	X(NO_NEIGH, "no_neigh", "IBA 8.2.3", "no LID for the destination on the egress subnet")   \
	X(MTU, "mtu", "IBA 7.7.8", "payload larger than the egress port's MTU")                   \
	X(PKEY, "pkey", "IBA 10.9", "P_Key not in the egress port's P_Key table")

/* clang-format off */
enum router_drop {
#define ROUTER_DROP_ENUM(name, id, rule, desc) ROUTER_DROP_##name,
	ROUTER_DROPS(ROUTER_DROP_ENUM)
#undef ROUTER_DROP_ENUM
	ROUTER_DROP_MAX
};
/* clang-format on */

const char *router_drop_name(int reason); /* "no_route" */
const char *router_drop_rule(int reason); /* "IBA 8.2" */
const char *router_drop_desc(int reason);
int router_drop_parse(const char *name); /* -EINVAL when unknown */

#endif
