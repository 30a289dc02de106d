/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* host_smp.h - ibrouter-host's "smp" command: one SMP to the router port on the wire. */
#ifndef HOST_SMP_H
#define HOST_SMP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

/*
 * smp ATTR [mod N] [slid L [dlid L]] [mkey K] [set-lid L] [set-lmc M]
 * [set-prefix P] [set-smlid L]: send a hop-0 directed-route Get (LID-routed
 * from `slid` when given; or, with set-*, a PortInfo Get then Set) to the
 * port at `peer`, wait up to timeout_ms for the GetResp and print it as
 * smpquery does.  Returns the exit status (0: a reply with status 0).
 */
int host_smp(int fd, const struct sockaddr_un *peer, socklen_t peerlen, int timeout_ms, int argc,
	     char **argv);

/* How a MAD is addressed: LRH SLID and DLID (permissive for a directed route). */
struct smp_addr {
	uint16_t slid, dlid;
	bool gmp; /* a GMP to QP1 (VL0, Q_Key 0x80010000), else an SMP to QP0 on VL15 */
};

/*
 * Send one MAD and wait up to timeout_ms for the response with its TID;
 * the reply MAD into `resp` (256 bytes), its LRH addresses into *from.
 * 0 or -errno (-ETIMEDOUT).
 */
int host_mad_call(int fd, const struct sockaddr_un *peer, socklen_t peerlen, int timeout_ms,
		  const struct smp_addr *a, const uint8_t *mad, uint8_t *resp,
		  struct smp_addr *from);

#endif
