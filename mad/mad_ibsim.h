/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_ibsim.h - MAD transport: a native client of ibsim's socket protocol
 * (linux-rdma/ibsim, include/ibsim.h; see ../shared/lab/LAB.md).
 *
 * One attachment = one simulated port: a control socket and a data socket,
 * both abstract unix datagram sockets with real file descriptors, so one
 * process can attach several ports to several ibsim servers and poll them
 * all from one epoll loop.  Names (the trailing NUL is part of the name):
 *   server control  "\0<sock>:ctl\0"      client control  "\0<sock>:ctl<id>\0"
 *   server data     "\0<sock>:out<cid>\0" client data     "\0<sock>:in<id>\0"
 * where <id> is chosen here, unique on the machine (bit 30 set, so it never
 * collides with the pid umad2sim uses), and <cid> is the client id ibsim
 * returns to CONNECT.  Control messages are 80-byte `sim_ctl` records in
 * host byte order; data datagrams are 288-byte `sim_request` records.
 *
 * ibsim answers standard SMPs of every node itself and forwards requests to
 * a client only if it set IsSM; it routes a response to the client whose id
 * is in bits 63..48 of the TID (it stamps them on requests).  It never does
 * RMPP.
 */
#ifndef SA_MAD_IBSIM_H
#define SA_MAD_IBSIM_H

#include "mad/mad_chan.h"

#include <stdint.h>

#define MAD_IBSIM_CTL_SIZE	 80
#define MAD_IBSIM_REQ_SIZE	 288
#define MAD_IBSIM_STATUS_DROPPED 110 /* ibsim's status for a MAD it could not deliver */

/*
 * Attach to the ibsim server `sockname` (IBSIM_SOCKNAME; NULL = "sim") at the
 * node `nodeid` (its name in the topology, e.g. "RtrA"; NULL = ibsim's
 * default node).  `timeout_ms` bounds each control exchange (0 = 2000).
 * NULL with errno set on failure.
 */
struct mad_transport *mad_ibsim_open(const char *sockname, const char *nodeid,
				     unsigned int timeout_ms);

/* Control queries (synchronous, bounded by the open timeout).  0 or -errno. */
/* Port LID and state (SIM_CTL_GET_PORT). */
int mad_ibsim_get_port(struct mad_transport *tp, uint16_t *lid, uint8_t *state);
/* Port GID: prefix from PortInfo, then the node GUID (SIM_CTL_GET_GID), network order. */
int mad_ibsim_get_gid(struct mad_transport *tp, uint8_t gid[16]);
/* The node's NodeInfo attribute as on the wire (64 bytes, libibmad IB_NODE_*_F). */
int mad_ibsim_get_nodeinfo(struct mad_transport *tp, uint8_t out[64]);
/* PortInfo of port `port` (0 = the attached one) as on the wire (IB_PORT_*_F). */
int mad_ibsim_get_portinfo(struct mad_transport *tp, uint8_t port, uint8_t out[64]);

/* The client id ibsim gave us (for the console's `X <n>`), and our socket id. */
uint32_t mad_ibsim_client_id(const struct mad_transport *tp);
uint32_t mad_ibsim_sock_id(const struct mad_transport *tp);

/* Encode/decode a sim_request datagram (exposed for the unit tests and fuzzing). */
void mad_ibsim_req_encode(uint8_t *req, const uint8_t *mad, size_t len, const struct mad_addr *to);
/*
 * Decode a received datagram in place: the MAD's length (always 256: the
 * bytes beyond the sender's length are zeroed), or 0 if the datagram is
 * malformed; fills *from and *mad (pointing into req).
 */
size_t mad_ibsim_req_decode(uint8_t *req, size_t req_len, const uint8_t **mad,
			    struct mad_addr *from);

#endif
