/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_chan.h - the MAD channel of one router port (libsa): shared by the SMA
 * and the SA client, independent of the transport underneath.
 *
 * A channel owns one transport (struct mad_transport: ibsim's native socket
 * protocol in mad_ibsim.c, libibumad in mad_umad.c, or a test fake) and adds:
 *   - agents per management class (13.4.4) with a handler for unsolicited MADs;
 *     every request that needs an answer gets one (13.4.6.1): when no handler
 *     answers, the default responder replies with status 0x000C;
 *   - transaction IDs unique per channel (13.4.6.4): bits 63..32 carry the
 *     channel id, bits 31..0 a sequence number.  Transports may rewrite the top
 *     bits on the wire (ibsim stamps its client id in bits 63..48, the kernel
 *     its agent's hi_tid in bits 63..32), so responses are matched on the low
 *     32 bits and the management class;
 *   - timeouts with retries and exponential backoff, driven by the caller's
 *     clock through mad_chan_tick() and mad_chan_next_deadline();
 *   - a bound on outstanding requests, with a FIFO queue beyond it;
 *   - RMPP reassembly of multi-MAD responses (13.6, receiver side) when the
 *     transport does not do it (the kernel does; ibsim does not), and
 *     detection of tables that umad2sim cut after their first MAD.
 *
 * Not thread safe: one channel belongs to one event loop.  Callbacks may
 * send requests and responses on the channel but must not destroy it.
 */
#ifndef SA_MAD_CHAN_H
#define SA_MAD_CHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- transports ---- */

/*
 * The far end of a MAD.  On send: where to (lid = DLID, qpn = destination QP;
 * for a directed-route SMP lid is 0xFFFF, permissive).  On receive: where from
 * (lid = SLID, qpn = source QP), local_lid = the DLID it carried, local_qpn =
 * the QP it arrived on (0 for SMPs, 1 for GMPs).  status is a transport error
 * for a MAD the transport hands back (ibsim: 110 for a request it dropped;
 * umad: ETIMEDOUT for a send the kernel timed out), 0 otherwise.
 */
struct mad_addr {
	uint16_t lid;
	uint16_t local_lid;
	uint32_t qpn;
	uint32_t local_qpn;
	uint32_t qkey;
	uint16_t pkey_index;
	uint8_t sl;
	uint32_t status;
};

#define MAD_QP1_QKEY 0x80010000u /* the well-known GSI Q_Key (13.5.3.1) */

struct mad_transport;

/* Transport flags */
#define MAD_TP_RMPP 0x1 /* the transport reassembles RMPP itself (kernel umad) */

struct mad_transport_ops {
	const char *name;
	unsigned int flags;
	/* The file descriptor to poll for input (readable = call mad_chan_process()). */
	int (*get_fd)(struct mad_transport *tp);
	/*
	 * Register an agent for a class (13.4.4); `rmpp` asks the transport to do
	 * RMPP for it when it can.  0 or -errno.
	 */
	int (*register_class)(struct mad_transport *tp, uint8_t mgmt_class, uint8_t class_version,
			      bool rmpp);
	/*
	 * Send one MAD of `len` bytes to `to`.  `timeout_ms` is non-zero for a
	 * request that expects a response (the kernel needs it to route the
	 * response back).  0 or -errno (-EAGAIN: try later).
	 */
	int (*send)(struct mad_transport *tp, const uint8_t *mad, size_t len,
		    const struct mad_addr *to, uint32_t timeout_ms);
	/*
	 * Receive one MAD without blocking: its length with *mad pointing into a
	 * transport buffer valid until the next call, 0 when nothing is pending,
	 * or -errno.
	 */
	ssize_t (*recv)(struct mad_transport *tp, const uint8_t **mad, struct mad_addr *from);
	/* Set or clear the port's IsSM capability bit.  0 or -errno; NULL: never (umad). */
	int (*set_issm)(struct mad_transport *tp, bool on);
	void (*close)(struct mad_transport *tp);
};

/* Transports embed this first. */
struct mad_transport {
	const struct mad_transport_ops *ops;
};

/* ---- the channel ---- */

struct mad_chan;

struct mad_chan_config {
	const char *name;	      /* for logs, e.g. "port a" */
	uint32_t chan_id;	      /* high 32 bits of every TID */
	unsigned int max_outstanding; /* requests in flight (default 16) */
	unsigned int max_queued;      /* requests waiting beyond that (default 4096) */
	uint32_t timeout_ms;	      /* first attempt (default 200) */
	uint32_t max_timeout_ms;      /* backoff cap (default 5000) */
	unsigned int retries;	      /* after the first attempt (default 3) */
	size_t rmpp_max_len;	      /* largest reassembled message (default 16 MiB) */
	uint64_t (*clock)(void *arg); /* monotonic ns; default ibr_now_ns() */
	void *clock_arg;
};

/* What a request ended with, handed to its callback. */
struct mad_chan_result {
	/*
	 * 0: a response arrived (mad/len/from valid; len > 256 for a reassembled
	 * RMPP message).  -EMSGSIZE: the response is a table truncated after its
	 * first MAD by a transport without RMPP (umad2sim): mad holds that MAD,
	 * fall back to per-record Gets.  -ETIMEDOUT: no response after all
	 * retries.  -ECONNABORTED: the sender stopped or aborted its RMPP
	 * transfer, or we aborted it (protocol error).  -ECANCELED: cancelled
	 * or channel destroyed.
	 */
	int status;
	uint64_t tid;
	const uint8_t *mad;
	size_t len;
	const struct mad_addr *from;
	unsigned int attempts;
};

typedef void (*mad_chan_resp_fn)(struct mad_chan *c, const struct mad_chan_result *r, void *arg);

/* Per-request options; NULL or zero fields take the channel's defaults. */
struct mad_chan_req_opts {
	uint32_t timeout_ms;
	int retries; /* -1 default, 0 none */
};

/* An unsolicited MAD (a request to us), handed to the agent's handler. */
struct mad_chan_msg {
	const uint8_t *mad;
	size_t len;
	struct mad_addr from;
	bool responded; /* set by mad_chan_respond() */
};

/*
 * Handler of unsolicited MADs of one class.  It answers with
 * mad_chan_respond() (now, or later with a copy of msg) and returns true when
 * it took care of the MAD, false to let the default responder answer.
 */
typedef bool (*mad_chan_unsol_fn)(struct mad_chan *c, struct mad_chan_msg *msg, void *arg);

struct mad_chan_stats {
	uint64_t sent, recv, responses, retries, timeouts, queued, send_errors, unsolicited,
		default_replies, rmpp_segments, rmpp_acks, rmpp_aborts, truncated, dropped;
	uint64_t drop[16]; /* by enum mad_chan_drop */
};

#define MAD_CHAN_DROPS(X)                                            \
	X(SHORT, "shorter than the MAD common header")               \
	X(HEADER, "bad base version, class or length")               \
	X(UNMATCHED, "response with no outstanding request")         \
	X(BAD_SEGMENT, "RMPP segment not 256 bytes or malformed")    \
	X(RMPP_OUT_OF_WINDOW, "RMPP segment out of order or window") \
	X(NOT_ANSWERABLE, "request without a response method")       \
	X(TRANSPORT_STATUS, "request bounced by the transport")      \
	X(RESP_SEND, "response could not be sent")

enum mad_chan_drop {
#define X(n, s) MAD_CHAN_DROP_##n,
	MAD_CHAN_DROPS(X)
#undef X
		MAD_CHAN_DROP_MAX
};

const char *mad_chan_drop_name(enum mad_chan_drop d);

/*
 * A channel over `tp` (which it owns from now on, closing it on destroy).
 * Registers agents for classes 0x01, 0x81 and 0x03 at once, so that IsSM can
 * be set safely afterwards (LAB.md: register first).  NULL on error (tp is
 * closed then too).
 */
struct mad_chan *mad_chan_create(struct mad_transport *tp, const struct mad_chan_config *cfg);
/* Fails every pending request with -ECANCELED (callbacks run), clears IsSM, closes. */
void mad_chan_destroy(struct mad_chan *c);

int mad_chan_fd(const struct mad_chan *c);
const char *mad_chan_name(const struct mad_chan *c);
const struct mad_chan_stats *mad_chan_stats(const struct mad_chan *c);

/*
 * Handler for unsolicited MADs of `mgmt_class` (one per class; NULL removes
 * it).  Registers the class with the transport if needed.  0 or -errno.
 */
int mad_chan_set_handler(struct mad_chan *c, uint8_t mgmt_class, mad_chan_unsol_fn fn, void *arg);
/*
 * Replace the default responder (called for requests no handler took); NULL
 * restores the built-in one, which answers status 0x000C.
 */
void mad_chan_set_default_responder(struct mad_chan *c, mad_chan_unsol_fn fn, void *arg);
/* The built-in default responder, for a replacement to fall back on. */
bool mad_chan_default_respond(struct mad_chan *c, struct mad_chan_msg *msg, void *arg);

/*
 * Set or clear IsSM (ibsim forwards non-standard SMPs and Reports only to an
 * IsSM client).  -EINVAL until the SMP and SA classes are registered,
 * -EOPNOTSUPP on a transport that never sets it (umad).  Calling again
 * re-asserts it (a link flap clears IsSM in ibsim).
 */
int mad_chan_set_issm(struct mad_chan *c, bool on);

/*
 * Send the request `mad` (IBR_MAD_SIZE bytes; its TID is replaced by a fresh
 * one, returned in *tid when tid is not NULL) to `to`.  `cb` runs exactly once
 * with the outcome, never from inside this call.  Queued when max_outstanding
 * requests are in flight.  0, -ENOBUFS (queue full), -EINVAL (not a request,
 * or a method without a response), -ENOMEM.
 */
int mad_chan_send_request(struct mad_chan *c, const uint8_t *mad, const struct mad_addr *to,
			  const struct mad_chan_req_opts *opts, mad_chan_resp_fn cb, void *arg,
			  uint64_t *tid);
/* Cancel a request: its callback runs now with -ECANCELED.  0 or -ENOENT. */
int mad_chan_cancel(struct mad_chan *c, uint64_t tid);

/* Send a MAD that expects no response (a response, a Send).  0 or -errno. */
int mad_chan_send(struct mad_chan *c, const uint8_t *mad, size_t len, const struct mad_addr *to);
/*
 * Answer the unsolicited `msg` with `resp` (IBR_MAD_SIZE bytes, typically
 * built by ibr_mad_build_response()), back to where msg came from.  0 or -errno.
 */
int mad_chan_respond(struct mad_chan *c, struct mad_chan_msg *msg, const uint8_t *resp);

/* Read and dispatch what the transport has (at most `budget` MADs, 0 = 64); count or -errno. */
int mad_chan_process(struct mad_chan *c, unsigned int budget);
/* Handle one received MAD (the hostile-input path; mad_chan_process() calls it). */
void mad_chan_input(struct mad_chan *c, const uint8_t *mad, size_t len,
		    const struct mad_addr *from);

/* Run timers: retry or fail requests whose deadline is <= now_ns. */
void mad_chan_tick(struct mad_chan *c, uint64_t now_ns);
/* Earliest deadline (ns, the clock of the config), UINT64_MAX when none. */
uint64_t mad_chan_next_deadline(const struct mad_chan *c);
/* Milliseconds from now_ns to the next deadline for epoll_wait(): -1 none, 0 due. */
int mad_chan_timeout_ms(const struct mad_chan *c, uint64_t now_ns);

/*
 * Wait for the answers of the requests still pending (retrying on the usual
 * timeouts) until none is left or the config's clock reaches until_ns; the
 * handlers still run for what comes meanwhile.  For parting requests, before
 * mad_chan_destroy(): sent once and left, one that was lost (a full ibsim
 * queue refuses a datagram with EAGAIN; a busy SA) would leave its record at
 * the SA.  Returns how many are still pending.
 */
unsigned int mad_chan_drain(struct mad_chan *c, uint64_t until_ns);

unsigned int mad_chan_outstanding(const struct mad_chan *c);
unsigned int mad_chan_queued(const struct mad_chan *c);

#endif
