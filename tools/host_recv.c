/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host_recv.c - "ibrouter-host ... recv": what comes on the sim wire (or an
 * HCA's QP in verbs mode) parsed, its CRCs and the --expect-* values
 * checked, printed as text or JSON, and summed up at the end with the
 * sequence numbers that never came.
 */
#include "tools/host.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_json.h"

#include <endian.h>
#include <inttypes.h>
#include <poll.h>
#include <string.h>
#include <sys/uio.h>

/*
 * recv --expect-count: which of the sequence numbers 0..n-1 came, a byte
 * each (of the first 2^20), so that a shortfall names the missing ones.  In
 * BSS: only the pages a stream reaches are ever touched.
 */
static uint8_t host_seen[1u << 20];

static uint32_t host_seen_n(const struct host *h)
{
	if (h->expect_count <= 0)
		return 0;
	return h->expect_count < (long)sizeof(host_seen) ? (uint32_t)h->expect_count
							 : (uint32_t)sizeof(host_seen);
}

static bool gid_eq(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a, b, 16) == 0;
}

/* Each failed expectation is reported once per packet, on stderr. */
static bool host_check(struct host *h, const struct ibr_pkt *p)
{
	const struct ibr_pkt_ud_params *w = &h->want;
	uint32_t bad = 0;

	if ((h->expect & EX_SLID) && ibr_lrh_get_slid(p->lrh) != w->slid)
		bad |= EX_SLID;
	if ((h->expect & EX_DLID) && ibr_lrh_get_dlid(p->lrh) != w->dlid)
		bad |= EX_DLID;
	if ((h->expect & EX_SL) && ibr_lrh_get_sl(p->lrh) != w->sl)
		bad |= EX_SL;
	if ((h->expect & EX_VL) && ibr_lrh_get_vl(p->lrh) != w->vl)
		bad |= EX_VL;
	if (h->expect & (EX_HOPLMT | EX_SGID | EX_DGID | EX_TCLASS | EX_FLOWLABEL)) {
		if (!p->grh)
			bad |= h->expect &
			       (EX_HOPLMT | EX_SGID | EX_DGID | EX_TCLASS | EX_FLOWLABEL);
		else {
			if ((h->expect & EX_HOPLMT) && ibr_grh_get_hoplmt(p->grh) != w->hoplmt)
				bad |= EX_HOPLMT;
			if ((h->expect & EX_SGID) && !gid_eq(ibr_grh_sgid(p->grh), w->sgid))
				bad |= EX_SGID;
			if ((h->expect & EX_DGID) && !gid_eq(ibr_grh_dgid(p->grh), w->dgid))
				bad |= EX_DGID;
			if ((h->expect & EX_TCLASS) && ibr_grh_get_tclass(p->grh) != w->tclass)
				bad |= EX_TCLASS;
			if ((h->expect & EX_FLOWLABEL) &&
			    ibr_grh_get_flowlabel(p->grh) != w->flowlabel)
				bad |= EX_FLOWLABEL;
		}
	}
	if ((h->expect & EX_PKEY) && (!p->bth || ibr_bth_get_pkey(p->bth) != w->pkey))
		bad |= EX_PKEY;
	if ((h->expect & EX_QPN) && (!p->bth || ibr_bth_get_destqp(p->bth) != w->dest_qp))
		bad |= EX_QPN;
	if ((h->expect & EX_QKEY) && (!p->deth || ibr_deth_get_qkey(p->deth) != w->qkey))
		bad |= EX_QKEY;
	if ((h->expect & EX_SIZE) && p->payload_len != h->want_size)
		bad |= EX_SIZE;
	for (size_t i = 4; (h->expect & EX_PAYLOAD) && i < p->payload_len; i++)
		if (p->payload[i] != (uint8_t)i) {
			bad |= EX_PAYLOAD;
			break;
		}
	if (bad) {
		static const char *const names[] = { "slid", "dlid",   "sl",	 "hoplimit",
						     "sgid", "dgid",   "tclass", "flowlabel",
						     "pkey", "qpn",    "qkey",	 "size",
						     "vl",   "payload" };

		fprintf(stderr, "ibrouter-host: packet %" PRIu64 ": unexpected", h->received);
		for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (bad & (1u << i))
				fprintf(stderr, " %s", names[i]);
		fprintf(stderr, "\n");
	}
	return bad == 0;
}

static void host_print(struct host *h, const struct ibr_pkt *p, int perr, int crc)
{
	char line[512];

	if (h->quiet)
		return;
	if (h->json) {
		struct ibr_json j;
		char g[IBR_GID_STRLEN];
		union ibr_gid gid;

		ibr_json_init(&j, 0);
		ibr_json_obj_open(&j, NULL);
		ibr_json_u64(&j, "len", p->len);
		ibr_json_str(&j, "error", perr ? ibr_pkt_errname(perr) : crc ? "crc" : NULL);
		if (p->lrh) {
			ibr_json_u64(&j, "slid", ibr_lrh_get_slid(p->lrh));
			ibr_json_u64(&j, "dlid", ibr_lrh_get_dlid(p->lrh));
			ibr_json_u64(&j, "sl", ibr_lrh_get_sl(p->lrh));
			ibr_json_u64(&j, "vl", ibr_lrh_get_vl(p->lrh));
		}
		if (p->grh) {
			memcpy(gid.raw, ibr_grh_sgid(p->grh), 16);
			ibr_json_str(&j, "sgid", ibr_gid_ntop(&gid, g, sizeof(g)));
			memcpy(gid.raw, ibr_grh_dgid(p->grh), 16);
			ibr_json_str(&j, "dgid", ibr_gid_ntop(&gid, g, sizeof(g)));
			ibr_json_u64(&j, "hoplimit", ibr_grh_get_hoplmt(p->grh));
			ibr_json_u64(&j, "tclass", ibr_grh_get_tclass(p->grh));
			ibr_json_u64(&j, "flowlabel", ibr_grh_get_flowlabel(p->grh));
		}
		if (p->bth) {
			ibr_json_u64(&j, "pkey", ibr_bth_get_pkey(p->bth));
			ibr_json_u64(&j, "qpn", ibr_bth_get_destqp(p->bth));
			ibr_json_u64(&j, "psn", ibr_bth_get_psn(p->bth));
		}
		if (p->deth)
			ibr_json_u64(&j, "qkey", ibr_deth_get_qkey(p->deth));
		ibr_json_u64(&j, "payload", p->payload_len);
		ibr_json_close(&j);
		if (ibr_json_finish(&j) == 0)
			printf("%s\n", j.buf);
		ibr_json_free(&j);
		return;
	}
	ibr_pkt_format(p, line, sizeof(line));
	printf("%s%s%s\n", line, perr ? " [malformed]" : "", crc ? " [bad crc]" : "");
}

/* One received packet: capture, parse, CRCs, expectations, print. */
static void host_recv_one(struct host *h, const uint8_t *buf, size_t len)
{
	struct ibr_pkt p;
	enum ibr_pkt_err perr;
	int crc = 0;

	h->received++;
	host_capture_write(h, buf, len);
	perr = ibr_pkt_parse(buf, len, &p);
	if (perr == IBR_PKT_ERR_OK && p.payload_len >= 4) {
		uint32_t seq;

		memcpy(&seq, p.payload, 4);
		seq = be32toh(seq);
		if (seq < host_seen_n(h))
			host_seen[seq] = 1;
	}
	if (perr == IBR_PKT_ERR_OK && h->crc_check)
		crc = ibr_pkt_crc_check(&p) != IBR_PKT_ERR_OK;
	if (perr == IBR_PKT_ERR_OK && !crc && host_check(h, &p))
		h->matched++;
	else
		h->bad++;
	if (perr)
		fprintf(stderr, "ibrouter-host: packet %" PRIu64 ": %s\n", h->received,
			ibr_pkt_strerror(perr));
	else if (crc)
		fprintf(stderr, "ibrouter-host: packet %" PRIu64 ": bad ICRC or VCRC\n",
			h->received);
	host_print(h, &p, perr, crc);
}

/*
 * "missing: 0-6 12 (8 of 20)" on standard error: the sequence numbers below
 * --expect-count that never came, as ranges (the first 32 ranges).
 */
static void host_recv_missing(const struct host *h)
{
	uint32_t n = host_seen_n(h), lost = 0, ranges = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = i;

		if (host_seen[i])
			continue;
		while (j + 1 < n && !host_seen[j + 1])
			j++;
		if (!ranges)
			fprintf(stderr, "ibrouter-host: missing:");
		if (ranges++ < 32) {
			if (j > i)
				fprintf(stderr, " %" PRIu32 "-%" PRIu32, i, j);
			else
				fprintf(stderr, " %" PRIu32, i);
		}
		lost += j - i + 1;
		i = j;
	}
	if (ranges)
		fprintf(stderr, "%s (%" PRIu32 " of %" PRIu32 ")\n", ranges > 32 ? " ..." : "",
			lost, n);
}

static int host_recv_summary(struct host *h)
{
	if (!h->quiet || h->expect_count >= 0)
		fprintf(h->quiet ? stderr : stdout,
			"received %" PRIu64 " packets, %" PRIu64 " as expected, %" PRIu64 " not\n",
			h->received, h->matched, h->bad);
	host_recv_missing(h);
	if (h->bad)
		return 1;
	if (h->expect_count >= 0 && h->received != (uint64_t)h->expect_count)
		return 1;
	return 0;
}

int host_recv(struct host *h)
{
	static uint8_t buf[HOST_BURST][IBR_PKT_MAX_LEN + 2];
	struct mmsghdr msg[HOST_BURST];
	struct iovec iov[HOST_BURST];
	double deadline = h->timeout_ms > 0 ? host_clock_now() + h->timeout_ms / 1000.0 : 0;
	uint64_t limit = h->count ? h->count : UINT64_MAX;

	while (h->received < limit && !host_stop) {
		struct pollfd pfd = { .fd = h->fd, .events = POLLIN };
		double left = deadline ? deadline - host_clock_now() : 1.0;
		int n;

		if (deadline && left <= 0)
			break;
		if (poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
			continue;
		memset(msg, 0, sizeof(msg));
		for (int i = 0; i < HOST_BURST; i++) {
			iov[i] = (struct iovec){ buf[i], sizeof(buf[i]) };
			msg[i].msg_hdr.msg_iov = &iov[i];
			msg[i].msg_hdr.msg_iovlen = 1;
		}
		n = recvmmsg(h->fd, msg,
			     (unsigned)(limit - h->received < HOST_BURST ? limit - h->received
									 : HOST_BURST),
			     MSG_DONTWAIT, NULL);
		for (int i = 0; i < n; i++)
			host_recv_one(h, buf[i], msg[i].msg_len);
	}
	return host_recv_summary(h);
}

static void host_recv_cb(void *ctx, const uint8_t *pkt, size_t len)
{
	host_recv_one(ctx, pkt, len);
}

/* recv in verbs mode: what the QP receives, rebuilt into packets, checked the same way */
int host_recv_verbs(struct host *h)
{
	long n = host_verbs_recv(h->verbs, h->count ? h->count : UINT64_MAX, h->timeout_ms,
				 &host_stop, host_recv_cb, h);

	if (n < 0)
		fprintf(stderr, "ibrouter-host: polling the receive queue failed\n");
	return n < 0 ? 1 : host_recv_summary(h);
}
