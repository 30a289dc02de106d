/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_pcap.c - pcap writer, LINKTYPE_ERF with ERF type 21 (InfiniBand) records. */
#include "lib/ibr_pcap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

int ibr_pcap_flush(struct ibr_pcap *pc)
{
	size_t off = 0;

	while (!pc->err && off < pc->used) {
		ssize_t n = write(pc->fd, pc->buf + off, pc->used - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			pc->err = -errno;
		else if (n == 0)
			pc->err = -EIO; /* nothing written: retrying would spin (stdio does) */
		else
			off += (size_t)n;
	}
	pc->used = 0;
	return pc->err;
}

static int pcap_put(struct ibr_pcap *pc, const void *p, size_t n)
{
	const uint8_t *s = p;

	while (!pc->err && n) {
		size_t k = IBR_PCAP_BUF - pc->used < n ? IBR_PCAP_BUF - pc->used : n;

		memcpy(pc->buf + pc->used, s, k);
		pc->used += k;
		s += k;
		n -= k;
		if (pc->used == IBR_PCAP_BUF)
			ibr_pcap_flush(pc);
	}
	return pc->err;
}

int ibr_pcap_fdopen(struct ibr_pcap *pc, int fd)
{
	uint8_t h[24];

	memset(pc, 0, sizeof(*pc));
	pc->fd = fd;
	if (!(pc->buf = malloc(IBR_PCAP_BUF))) {
		close(fd);
		return -ENOMEM;
	}
	/* classic pcap header, microsecond timestamps, host (little-endian) order */
	put_le32(h, 0xa1b2c3d4);
	h[4] = 2, h[5] = 0, h[6] = 4, h[7] = 0; /* version 2.4 */
	put_le32(h + 8, 0);			/* thiszone */
	put_le32(h + 12, 0);			/* sigfigs */
	put_le32(h + 16, IBR_PCAP_SNAPLEN);
	put_le32(h + 20, IBR_PCAP_LINKTYPE_ERF);
	if (pcap_put(pc, h, sizeof(h)) || ibr_pcap_flush(pc))
		return ibr_pcap_close(pc);
	return 0;
}

int ibr_pcap_open(struct ibr_pcap *pc, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0600);

	if (fd < 0) {
		memset(pc, 0, sizeof(*pc));
		return -errno;
	}
	return ibr_pcap_fdopen(pc, fd);
}

void ibr_erf_header(uint8_t hdr[IBR_ERF_HDR_LEN], const struct timespec *ts, size_t len,
		    unsigned iface)
{
	/* ERF timestamp: 32.32 fixed-point seconds, little-endian */
	uint64_t frac = ((uint64_t)ts->tv_nsec << 32) / 1000000000u;
	uint64_t t = (uint64_t)ts->tv_sec << 32 | frac;

	for (int i = 0; i < 8; i++)
		hdr[i] = (uint8_t)(t >> (8 * i));
	hdr[8] = IBR_ERF_TYPE_INFINIBAND;
	hdr[9] = (uint8_t)(0x04 | (iface & 3)); /* varying-length record, interface */
	put_be16(hdr + 10, (uint16_t)(IBR_ERF_HDR_LEN + len)); /* rlen */
	put_be16(hdr + 12, 0);				       /* loss counter */
	put_be16(hdr + 14, (uint16_t)len);		       /* wlen */
}

int ibr_pcap_writev(struct ibr_pcap *pc, const struct timespec *ts, const struct iovec *iov,
		    int iovcnt, unsigned iface)
{
	uint8_t rec[16], erf[IBR_ERF_HDR_LEN];
	size_t len = 0;

	for (int i = 0; i < iovcnt; i++)
		len += iov[i].iov_len;
	if (len + IBR_ERF_HDR_LEN > IBR_PCAP_SNAPLEN)
		return -EMSGSIZE;
	put_le32(rec, (uint32_t)ts->tv_sec);
	put_le32(rec + 4, (uint32_t)(ts->tv_nsec / 1000));
	put_le32(rec + 8, (uint32_t)(len + IBR_ERF_HDR_LEN));
	put_le32(rec + 12, (uint32_t)(len + IBR_ERF_HDR_LEN));
	ibr_erf_header(erf, ts, len, iface);
	pcap_put(pc, rec, sizeof(rec));
	pcap_put(pc, erf, sizeof(erf));
	for (int i = 0; i < iovcnt; i++)
		pcap_put(pc, iov[i].iov_base, iov[i].iov_len);
	if (!pc->err)
		pc->records++;
	return pc->err;
}

int ibr_pcap_write(struct ibr_pcap *pc, const struct timespec *ts, const void *pkt, size_t len,
		   unsigned iface)
{
	struct iovec iov = { (void *)pkt, len };

	return ibr_pcap_writev(pc, ts, &iov, 1, iface);
}

int ibr_pcap_close(struct ibr_pcap *pc)
{
	int err;

	if (!pc->buf)
		return pc->err;
	err = ibr_pcap_flush(pc);
	if (close(pc->fd) != 0 && !err && errno != EINTR)
		err = -errno; /* a delayed write error (NFS) shows at close */
	free(pc->buf);
	pc->buf = NULL;
	pc->fd = -1;
	return err;
}
