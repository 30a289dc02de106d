/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* host_perf.h - ibrouter-host's "perf" command: one PerfMgt GMP to the router port on the wire. */
#ifndef HOST_PERF_H
#define HOST_PERF_H

#include <sys/socket.h>
#include <sys/un.h>

/*
 * perf [classportinfo | counters | extended] [port N] [slid L] [dlid L]
 * [reset [MASK]]: a LID-routed PerfMgt Get (with reset, a Set of
 * CounterSelect MASK, every counter by default) from LID `slid` to the
 * router port's LID `dlid` (QP1 to QP1), the GetResp printed with
 * libibmad's dumpers as perfquery(8) prints it.  Returns the exit status
 * (0: a reply with status 0).
 */
int host_perf(int fd, const struct sockaddr_un *peer, socklen_t peerlen, int timeout_ms, int argc,
	      char **argv);

#endif
