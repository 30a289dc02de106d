/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_sim.h - the sim data-path backend (doc/ARCHITECTURE.md, "Data path",
 * model 1: raw packets): each port owns a UNIX datagram socket bound at a
 * configured path and sends to one configured peer path.  One datagram is
 * one IB packet exactly as on the wire, from the first LRH byte through the
 * VCRC.  Batched with recvmmsg/sendmmsg.
 */
#ifndef IO_SIM_H
#define IO_SIM_H

#include "router/io/io_port.h"
#include "router/router_engine.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#define IO_SIM_BUFSZ 8192 /* > the largest packet: PktLen 0x7FF words + VCRC = 8190 */

struct io_sim_port {
	struct io_port io; /* first: the worker drives the port through it */
	int fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t dev; /* the socket file it bound (removed at close only while it is still that) */
	ino_t ino;
	struct sockaddr_un peer;
	socklen_t peerlen;
	unsigned hol_ms; /* how long a full peer may hold a packet before it is dropped */
	/* the peer held a packet past hol_ms and has taken none since: sends to it are
	 * discarded at once (any worker sends on any port: atomic) */
	atomic_bool stalled;
	uint8_t *bufs; /* ROUTER_BURST receive buffers of IO_SIM_BUFSZ */
	struct router_mbuf mbuf[ROUTER_BURST];
};

/*
 * Bind `path` (a socket file left by a dead process is replaced; one that a
 * live process is bound to is -EADDRINUSE, any other file -EEXIST) and
 * remember `peer`.  The socket is non-blocking.  `port` is the
 * ingress port index stamped on received packets.  0 or -errno.
 */
int io_sim_open(struct io_sim_port *p, const char *path, const char *peer, uint8_t port);
/* Send to `peer` from now on (the socket stays bound where it is).  0 or -errno. */
int io_sim_set_peer(struct io_sim_port *p, const char *peer);
/* Close and unlink the socket file (also io_port_close()). */
void io_sim_close(struct io_sim_port *p);

/*
 * Receive up to `n` (<= ROUTER_BURST) packets; `out[i]` point into the port's
 * own buffers, valid until the next call.  Returns the count (0 when none is
 * waiting) or -errno.  A datagram longer than IO_SIM_BUFSZ is returned with
 * len IO_SIM_BUFSZ, which no PktLen can match: the engine drops it as pktlen.
 */
int io_sim_rx_burst(struct io_sim_port *p, struct router_mbuf **out, unsigned n);

#define IO_SIM_HOL_MS 50 /* default head-of-queue lifetime */

/*
 * Send `n` copies to the peer: each is the received packet with its first
 * 16 bytes and its VCRC replaced (three iovecs: no payload copy).  Returns
 * how many were sent; `*r` says how many and their size, and how many found
 * nobody at the peer path (absent).
 *
 * An IB link is lossless: credits hold a packet back until the receiver has
 * room, and a switch port drops it only when it waited past its head-of-queue
 * lifetime (IBA 18.2.5.4, HOQLife).  The sim link does the same: when the
 * peer's queue is full the send waits for room up to `hol_ms`, then the
 * copies left are dropped; and as a switch port whose HOQ timer expired
 * discards until credits come back, the port then discards at once, without
 * waiting, until the peer takes a packet again -- one stuck peer holds the
 * worker, and its other ports, for one lifetime, not for one a burst.
 * Copies for a peer that is absent are dropped as such.  The caller counts
 * what was not sent.
 */
unsigned io_sim_tx_burst(struct io_sim_port *p, const struct router_tx *tx, unsigned n,
			 struct io_tx_result *r);

/*
 * How long io_sim_tx_burst sleeps before it tries a full peer again, in
 * microseconds, after sleeping `us` (0: the first time): 20 us, doubling up
 * to 1 ms.  The benchmarks' plain relay waits the same way.
 */
static inline unsigned io_sim_backoff_us(unsigned us)
{
	return us ? (us * 2 > 1000 ? 1000 : us * 2) : 20;
}

/* Send one whole packet (SMA replies, tools).  0 or -errno. */
int io_sim_send(struct io_sim_port *p, const void *pkt, size_t len);

#endif
