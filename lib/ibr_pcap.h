/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_pcap.h - packet captures that tshark/Wireshark decode without options:
 * pcap files of LINKTYPE_ERF (197) whose records are ERF type 21
 * (InfiniBand), each holding one packet from the LRH through the VCRC.
 *
 * The writer owns a descriptor and a buffer, and writes with write(2): a
 * write that fails or writes nothing (a /proc/PID/mem whose process is gone
 * answers 0) is an error that sticks, never a retry loop.
 */
#ifndef IBR_PCAP_H
#define IBR_PCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/uio.h>
#include <time.h>

#define IBR_PCAP_LINKTYPE_ERF	197
#define IBR_ERF_TYPE_INFINIBAND 21
#define IBR_ERF_HDR_LEN		16
#define IBR_PCAP_SNAPLEN	65535
#define IBR_PCAP_BUF		32768 /* bytes held before a write(2) */

struct ibr_pcap {
	int fd;
	uint8_t *buf; /* NULL when not open */
	size_t used;
	uint64_t records;
	int err; /* first write error, -errno; later writes are skipped */
};

/* Create (truncate) `path`, mode 0600, with the caller's rights; then as ibr_pcap_fdopen. */
int ibr_pcap_open(struct ibr_pcap *pc, const char *path);
/*
 * Write to `fd` from its current offset, which the writer owns from now on
 * (closed by ibr_pcap_close, or here on failure).  The pcap header is written
 * at once, so a descriptor that cannot be written fails here.  0 or -errno.
 */
int ibr_pcap_fdopen(struct ibr_pcap *pc, int fd);
/*
 * Append one packet given as `iovcnt` pieces (a rewritten header, the body,
 * a new VCRC: how the router sends a copy).  `iface` (0-3) is the ERF
 * interface, the router port for captures of several ports.  0 or -errno;
 * -EMSGSIZE (a packet longer than the snap length) does not stick.
 */
int ibr_pcap_writev(struct ibr_pcap *pc, const struct timespec *ts, const struct iovec *iov,
		    int iovcnt, unsigned iface);
int ibr_pcap_write(struct ibr_pcap *pc, const struct timespec *ts, const void *pkt, size_t len,
		   unsigned iface);
/* Write what the buffer holds.  0 or the first error seen. */
int ibr_pcap_flush(struct ibr_pcap *pc);
/* Flush and close; returns the first error seen, if any. */
int ibr_pcap_close(struct ibr_pcap *pc);

/* The 16-byte ERF record header for a `len`-byte packet (exposed for tests). */
void ibr_erf_header(uint8_t hdr[IBR_ERF_HDR_LEN], const struct timespec *ts, size_t len,
		    unsigned iface);

#endif
