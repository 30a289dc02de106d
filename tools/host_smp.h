/* host_smp.h - ibrouter-host's "smp" command: one SMP to the router port on the wire. */
#ifndef HOST_SMP_H
#define HOST_SMP_H

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

#endif
