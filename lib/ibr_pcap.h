/*
 * ibr_pcap.h - packet captures that tshark/Wireshark decode without options:
 * pcap files of LINKTYPE_ERF (197) whose records are ERF type 21
 * (InfiniBand), each holding one packet from the LRH through the VCRC.
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

struct ibr_pcap {
	FILE *f;
	uint64_t records;
	int err; /* first write error, -errno; later writes are skipped */
};

/* Create (truncate) `path` and write the pcap header.  0 or -errno. */
int ibr_pcap_open(struct ibr_pcap *pc, const char *path);
/*
 * Append one packet given as `iovcnt` pieces (a rewritten header, the body,
 * a new VCRC: how the router sends a copy).  `iface` (0-3) is the ERF
 * interface, the router port for captures of several ports.  0 or -errno.
 */
int ibr_pcap_writev(struct ibr_pcap *pc, const struct timespec *ts, const struct iovec *iov,
		    int iovcnt, unsigned iface);
int ibr_pcap_write(struct ibr_pcap *pc, const struct timespec *ts, const void *pkt, size_t len,
		   unsigned iface);
/* Flush and close; returns the first error seen, if any. */
int ibr_pcap_close(struct ibr_pcap *pc);

/* The 16-byte ERF record header for a `len`-byte packet (exposed for tests). */
void ibr_erf_header(uint8_t hdr[IBR_ERF_HDR_LEN], const struct timespec *ts, size_t len,
		    unsigned iface);

#endif
