/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_rmpp.h - receiver side of the Reliable Multi-Packet transaction
 * Protocol (IBA vol. 1, 13.6): reassembles the DATA segments of one response
 * (an SA GetTable response, 15.2.5) into one message, with ACKs opening the
 * sender's window (13.6.3.2, 13.6.4) and ABORTs for protocol errors
 * (13.6.2.1 RMPPStatus).  No I/O: the caller sends the ACK/ABORT this builds.
 *
 * The reassembled message has the layout of the Linux umad ABI (and of what
 * ibr_mad_parse() accepts): the class header of the first segment (56 bytes
 * for SA: common + RMPP + SA header; 40 for vendor range 2: + OUI), then the
 * data of every segment after its class header, in order.
 *
 * PayloadLength (13.6.2.3) counts the bytes after the RMPP header (220 per
 * full segment); the first segment's gives the whole transfer (0 = unknown),
 * the last segment's that segment alone.
 */
#ifndef SA_MAD_RMPP_H
#define SA_MAD_RMPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAD_RMPP_SEG_PAYLOAD 220 /* IBR_MAD_SIZE - 36 */
#define MAD_RMPP_WINDOW	     32	 /* segments we let the sender send per ACK */

struct mad_rmpp_rx {
	size_t hdr_len;	       /* class header size (56 SA, 40 vendor) */
	size_t max_len;	       /* bound on the reassembled length */
	uint32_t es;	       /* next expected segment number (13.6.3.2 ES) */
	uint32_t newwin;       /* NewWindowLast of our last ACK */
	uint32_t first_paylen; /* PayloadLength of segment 1 (0 = not given) */
	uint8_t *buf;
	size_t len, cap;
	bool done;
};

enum mad_rmpp_rc {
	MAD_RMPP_MORE,	  /* accepted (or a duplicate); more segments to come */
	MAD_RMPP_DONE,	  /* the message is complete: rx->buf, rx->len */
	MAD_RMPP_DROP,	  /* ignored: out of window or order (counted by the caller) */
	MAD_RMPP_ABORT,	  /* protocol error: send the ABORT in `reply`, fail the request */
	MAD_RMPP_STOPPED, /* the sender sent STOP or ABORT: fail the request */
};

/* Start an empty reassembly for a class with RMPP.  0 or -EINVAL (class without RMPP). */
int mad_rmpp_rx_init(struct mad_rmpp_rx *rx, uint8_t mgmt_class, size_t max_len);
void mad_rmpp_rx_free(struct mad_rmpp_rx *rx);

/*
 * Feed one received segment of `len` bytes (a full IBR_MAD_SIZE MAD whose
 * RMPP Active flag is set and RMPPVersion is 1; anything else is an error).
 * When *send_reply is set on return, `reply` (IBR_MAD_SIZE bytes) holds an
 * ACK or ABORT to send back to the segment's source.
 */
enum mad_rmpp_rc mad_rmpp_rx_input(struct mad_rmpp_rx *rx, const uint8_t *seg, size_t len,
				   uint8_t *reply, bool *send_reply);

/*
 * Build an RMPP ACK or ABORT/STOP answering the segment `seg` (13.6.2.1: the
 * common header of the DATA packet with the R bit flipped, so it travels back
 * to the sender's agent as the kernel's RMPP layer does it).
 */
void mad_rmpp_build_reply(uint8_t *reply, const uint8_t *seg, uint8_t type, uint8_t status,
			  uint32_t seg_num, uint32_t data2);

#endif
