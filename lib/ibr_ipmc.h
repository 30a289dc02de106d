/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_ipmc.h - the IP multicast membership behind a RoCE v2 group.
 *
 * RoCE v2 carries a packet for MGID G in UDP (port 4791) to the IP address
 * G: an IPv4-mapped MGID (::ffff:a.b.c.d) is the IPv4 group a.b.c.d, any
 * other MGID (ff0e::..., ff12:401b::...) the IPv6 group G itself (the RoCE
 * annex A17.4.5.2).  The NIC only receives it when the netdev is a member
 * of that group at the IP layer: rdma_cm's join sends the IGMP or MLD report
 * for it, ibv_attach_mcast() alone does not, and the kernel drops a group's
 * packets before rxe sees them (found in the VM lab, tests/vm/).  Whoever
 * attaches a QP by verbs on a RoCE port joins here too, on the port's netdev.
 * Memberships belong to the sockets: closing them leaves every group.
 */
#ifndef IBR_IPMC_H
#define IBR_IPMC_H

#include <stdbool.h>
#include <stdint.h>

struct ibr_ipmc {
	int fd4, fd6; /* -1 until needed */
};

void ibr_ipmc_init(struct ibr_ipmc *m);
/* True when the MGID is an IPv4-mapped address (::ffff:0:0/96). */
bool ibr_ipmc_is_v4(const uint8_t mgid[16]);
/*
 * Join (`on`) or leave the IP group of `mgid` on interface `ifindex`.
 * 0 or -errno (-EINVAL: not a multicast address of either family).
 */
int ibr_ipmc_set(struct ibr_ipmc *m, unsigned ifindex, const uint8_t mgid[16], bool on);
void ibr_ipmc_fini(struct ibr_ipmc *m);

#endif
