/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrouter-host - a host on a sim wire: sends well-formed UD packets, receives
 * and prints or checks them, and writes captures tshark decodes.
 *
 *   ibrouter-host -s SOCKET -p PEER send [packet options] [-c COUNT] [-r RATE]
 *   ibrouter-host -s SOCKET recv [-c COUNT] [-t MS] [--expect-* ...] [-w FILE]
 *   ibrouter-host -d DEVICE[:PORT] send|recv [--join MGID] ...   (verbs mode)
 *
 * See ibrouter-host(8).
 */
#include "lib/crc/ibr_crc.h"
#include "lib/ibr_gid.h"
#include "lib/ibr_json.h"
#include "lib/ibr_pcap.h"
#include "lib/ibr_pkt.h"
#include "tools/host_perf.h"
#include "tools/host_smp.h"
#include "tools/host_verbs.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define HOST_BURST 32

/* What `recv` checks on every packet; a field is checked when its bit is set. */
enum expect_bit {
	EX_SLID = 1 << 0,
	EX_DLID = 1 << 1,
	EX_SL = 1 << 2,
	EX_HOPLMT = 1 << 3,
	EX_SGID = 1 << 4,
	EX_DGID = 1 << 5,
	EX_TCLASS = 1 << 6,
	EX_FLOWLABEL = 1 << 7,
	EX_PKEY = 1 << 8,
	EX_QPN = 1 << 9,
	EX_QKEY = 1 << 10,
	EX_SIZE = 1 << 11,
	EX_VL = 1 << 12,
	EX_PAYLOAD = 1 << 13, /* byte i = i & 0xFF from byte 4 on (what the senders write) */
};

struct host {
	const char *sock_path, *peer_path, *capture;
	int fd;
	struct sockaddr_un peer;
	socklen_t peerlen;
	struct ibr_pcap pcap;
	bool pcap_open, json, quiet, crc_check;
	/* send */
	struct ibr_pkt_ud_params p;
	bool bad_vcrc; /* flip the VCRC of what is sent: a link error for the far end */
	uint64_t count;
	double rate;
	/* recv */
	int timeout_ms;
	long expect_count;
	uint32_t expect;
	struct ibr_pkt_ud_params want; /* expected field values */
	size_t want_size;
	uint64_t received, matched, bad;
	/* verbs mode (-d): a UD QP on an HCA port instead of the sim socket */
	struct host_verbs_cfg vcfg;
	struct host_verbs *verbs;
	bool sgid_set;
};

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

static volatile sig_atomic_t host_stop;
static volatile sig_atomic_t host_fd = -1; /* the socket, for host_signal() */

/*
 * SIGINT, SIGTERM: stop, in whatever wait.  Besides the flag, the socket is
 * shut down (shutdown() is async-signal-safe), which ends every wait on it
 * for good: a send to a full peer fails with EPIPE and poll() returns POLLHUP,
 * also when the call starts just after the flag was tested (a flag alone
 * would leave that one asleep until the peer reads or the timeout).  Without
 * SA_RESTART a send blocked when the signal comes returns EINTR or its count.
 */
static void host_signal(int sig)
{
	int saved = errno;

	(void)sig;
	host_stop = 1;
	if (host_fd >= 0)
		shutdown(host_fd, SHUT_RDWR);
	errno = saved;
}

static void host_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = host_signal; /* no SA_RESTART: blocking calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Sleep `secs` or until a signal stops the host (the socket's POLLHUP). */
static void host_sleep(const struct host *h, double secs)
{
	struct pollfd pfd = { .fd = h->fd, .events = 0 };
	struct timespec ts = { (time_t)secs, (long)((secs - (double)(time_t)secs) * 1e9) };

	if (!host_stop)
		ppoll(&pfd, 1, &ts, NULL);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ibrouter-host -s SOCKET [-p PEER] [-w FILE] [-j] [-q] send|recv [options]\n"
		"  send: --slid --dlid --sl --vl --sgid --dgid --tclass --flowlabel --hoplimit\n"
		"        --pkey --qpn --src-qp --qkey --psn --size --no-grh --bad-vcrc -c COUNT\n"
		"        -r RATE\n"
		"  recv: -c COUNT -t TIMEOUT_MS --expect-count N --expect-{slid,dlid,sl,vl,\n"
		"        hoplimit,sgid,dgid,tclass,flowlabel,pkey,qpn,qkey,size} VALUE\n"
		"        --no-crc-check --expect-payload\n"
		"  smp ATTR [mod N] [slid L [dlid L]] [mkey K] [set-...]: an SMP to the port\n"
		"  perf [classportinfo|counters|extended] [port N] [slid L] dlid L [reset [MASK]]\n"
		"verbs mode: ibrouter-host -d DEVICE[:PORT] send|recv [--join MGID]\n"
		"        [--join-mlid MLID] [--no-ip-join] [--sgid GID: the port's GID to use]\n"
		"see ibrouter-host(8)\n");
}

static int addr_of(struct sockaddr_un *sa, socklen_t *len, const char *path)
{
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, n);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + 1);
	return 0;
}

static int host_open(struct host *h)
{
	struct sockaddr_un sa;
	socklen_t len;
	struct stat st;
	int sz = 4 << 20;

	if (addr_of(&sa, &len, h->sock_path))
		return fprintf(stderr, "ibrouter-host: socket path too long\n"), -1;
	if (lstat(h->sock_path, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(h->sock_path);
	h->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	host_fd = h->fd;
	if (host_stop && h->fd >= 0)
		shutdown(h->fd, SHUT_RDWR); /* a signal came before host_fd was set */
	if (h->fd < 0 || bind(h->fd, (struct sockaddr *)&sa, len) < 0) {
		fprintf(stderr, "ibrouter-host: bind %s: %s\n", h->sock_path, strerror(errno));
		return -1;
	}
	setsockopt(h->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(h->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	if (h->peer_path && addr_of(&h->peer, &h->peerlen, h->peer_path))
		return fprintf(stderr, "ibrouter-host: peer path too long\n"), -1;
	if (h->capture) {
		int rc = ibr_pcap_open(&h->pcap, h->capture);

		if (rc)
			return fprintf(stderr, "ibrouter-host: %s: %s\n", h->capture,
				       strerror(-rc)),
			       -1;
		h->pcap_open = true;
	}
	return 0;
}

static void host_capture(struct host *h, const uint8_t *pkt, size_t len)
{
	struct timespec ts;

	if (!h->pcap_open)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	ibr_pcap_write(&h->pcap, &ts, pkt, len, 0);
}

static double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int host_send(struct host *h)
{
	static uint8_t buf[HOST_BURST][IBR_PKT_MAX_LEN + 2];
	static uint8_t payload[IBR_PKT_MAX_LEN];
	struct mmsghdr msg[HOST_BURST];
	struct iovec iov[HOST_BURST];
	uint64_t sent = 0;
	double t0 = host_now();

	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)i;
	if (!h->p.payload)
		h->p.payload = payload;
	while (sent < h->count && !host_stop) {
		unsigned n = h->count - sent < HOST_BURST ? (unsigned)(h->count - sent)
							  : HOST_BURST;
		int r;

		if (h->rate > 0) /* pace: one packet per 1/rate s, in bursts of at most n */
			n = 1;
		memset(msg, 0, sizeof(msg));
		for (unsigned i = 0; i < n; i++) {
			int len;

			h->p.psn = (uint32_t)(sent + i) &
				   IBR_PSN_MASK; /* lets receivers see loss */
			/* the sequence number in the first 4 payload bytes too, as
			 * verbs mode sends it (an HCA sets the PSN itself): what the
			 * receiver reads whichever kind of port the packet crossed */
			if (h->p.payload == payload && h->p.payload_len >= 4) {
				uint32_t seq = htobe32((uint32_t)(sent + i));

				memcpy(payload, &seq, 4);
			}
			len = ibr_pkt_build_ud(buf[i], sizeof(buf[i]), &h->p);
			if (len < 0) {
				fprintf(stderr, "ibrouter-host: cannot build the packet: %s\n",
					strerror(-len));
				return 2;
			}
			if (h->bad_vcrc)
				buf[i][len - 1] ^= 0xFF;
			host_capture(h, buf[i], (size_t)len);
			iov[i] = (struct iovec){ buf[i], (size_t)len };
			msg[i].msg_hdr.msg_name = &h->peer;
			msg[i].msg_hdr.msg_namelen = h->peerlen;
			msg[i].msg_hdr.msg_iov = &iov[i];
			msg[i].msg_hdr.msg_iovlen = 1;
		}
		/* blocks while the peer's queue is full (host_signal() ends the wait) */
		r = sendmmsg(h->fd, msg, n, MSG_NOSIGNAL);
		if (r < 0) {
			if (errno == EINTR || host_stop)
				continue;
			fprintf(stderr, "ibrouter-host: send to %s: %s\n", h->peer_path,
				strerror(errno));
			return 1;
		}
		sent += (unsigned)r;
		if (h->rate > 0) {
			double due = t0 + (double)sent / h->rate, now = host_now();

			if (due > now)
				host_sleep(h, due - now);
		}
	}
	if (!h->quiet)
		printf("sent %" PRIu64 " packets\n", sent);
	return sent == h->count ? 0 : 1;
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
	host_capture(h, buf, len);
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

static int host_recv_summary(struct host *h);

static int host_recv(struct host *h)
{
	static uint8_t buf[HOST_BURST][IBR_PKT_MAX_LEN + 2];
	struct mmsghdr msg[HOST_BURST];
	struct iovec iov[HOST_BURST];
	double deadline = h->timeout_ms > 0 ? host_now() + h->timeout_ms / 1000.0 : 0;
	uint64_t limit = h->count ? h->count : UINT64_MAX;

	while (h->received < limit && !host_stop) {
		struct pollfd pfd = { .fd = h->fd, .events = POLLIN };
		double left = deadline ? deadline - host_now() : 1.0;
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
static int host_recv_verbs(struct host *h)
{
	long n = host_verbs_recv(h->verbs, h->count ? h->count : UINT64_MAX, h->timeout_ms,
				 &host_stop, host_recv_cb, h);

	if (n < 0)
		fprintf(stderr, "ibrouter-host: polling the receive queue failed\n");
	return n < 0 ? 1 : host_recv_summary(h);
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

enum opt_id {
	O_SLID = 256,
	O_DLID,
	O_SL,
	O_VL,
	O_SGID,
	O_DGID,
	O_TCLASS,
	O_FLOWLABEL,
	O_HOPLMT,
	O_PKEY,
	O_QPN,
	O_SRCQP,
	O_QKEY,
	O_PSN,
	O_SIZE,
	O_NOGRH,
	O_BADVCRC,
	O_NOCRC,
	O_EXCOUNT,
	O_EX_SLID,
	O_EX_DLID,
	O_EX_SL,
	O_EX_VL,
	O_EX_HOPLMT,
	O_EX_SGID,
	O_EX_DGID,
	O_EX_TCLASS,
	O_EX_FLOWLABEL,
	O_EX_PKEY,
	O_EX_QPN,
	O_EX_QKEY,
	O_EX_SIZE,
	O_EX_PAYLOAD,
	O_JOIN,
	O_JOIN_MLID,
	O_NO_IP_JOIN,
};

static const struct option host_opts[] = {
	{ "socket", required_argument, NULL, 's' },
	{ "peer", required_argument, NULL, 'p' },
	{ "write", required_argument, NULL, 'w' },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "count", required_argument, NULL, 'c' },
	{ "rate", required_argument, NULL, 'r' },
	{ "timeout", required_argument, NULL, 't' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "slid", required_argument, NULL, O_SLID },
	{ "dlid", required_argument, NULL, O_DLID },
	{ "sl", required_argument, NULL, O_SL },
	{ "vl", required_argument, NULL, O_VL },
	{ "sgid", required_argument, NULL, O_SGID },
	{ "dgid", required_argument, NULL, O_DGID },
	{ "tclass", required_argument, NULL, O_TCLASS },
	{ "flowlabel", required_argument, NULL, O_FLOWLABEL },
	{ "hoplimit", required_argument, NULL, O_HOPLMT },
	{ "pkey", required_argument, NULL, O_PKEY },
	{ "qpn", required_argument, NULL, O_QPN },
	{ "src-qp", required_argument, NULL, O_SRCQP },
	{ "qkey", required_argument, NULL, O_QKEY },
	{ "psn", required_argument, NULL, O_PSN },
	{ "size", required_argument, NULL, O_SIZE },
	{ "no-grh", no_argument, NULL, O_NOGRH },
	{ "bad-vcrc", no_argument, NULL, O_BADVCRC },
	{ "no-crc-check", no_argument, NULL, O_NOCRC },
	{ "expect-count", required_argument, NULL, O_EXCOUNT },
	{ "expect-slid", required_argument, NULL, O_EX_SLID },
	{ "expect-dlid", required_argument, NULL, O_EX_DLID },
	{ "expect-sl", required_argument, NULL, O_EX_SL },
	{ "expect-vl", required_argument, NULL, O_EX_VL },
	{ "expect-hoplimit", required_argument, NULL, O_EX_HOPLMT },
	{ "expect-sgid", required_argument, NULL, O_EX_SGID },
	{ "expect-dgid", required_argument, NULL, O_EX_DGID },
	{ "expect-tclass", required_argument, NULL, O_EX_TCLASS },
	{ "expect-flowlabel", required_argument, NULL, O_EX_FLOWLABEL },
	{ "expect-pkey", required_argument, NULL, O_EX_PKEY },
	{ "expect-qpn", required_argument, NULL, O_EX_QPN },
	{ "expect-qkey", required_argument, NULL, O_EX_QKEY },
	{ "expect-size", required_argument, NULL, O_EX_SIZE },
	{ "expect-payload", no_argument, NULL, O_EX_PAYLOAD },
	{ "device", required_argument, NULL, 'd' },
	{ "join", required_argument, NULL, O_JOIN },
	{ "join-mlid", required_argument, NULL, O_JOIN_MLID },
	{ "no-ip-join", no_argument, NULL, O_NO_IP_JOIN },
	{ NULL, 0, NULL, 0 },
};

/* An unsigned number (decimal or 0x hex) no larger than `max`, or exit 2. */
static uint64_t num(const char *opt, const char *s, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-' || v > max) {
		fprintf(stderr, "ibrouter-host: --%s: '%s' is not a number from 0 to %" PRIu64 "\n",
			opt, s, max);
		exit(2);
	}
	return v;
}

static void gid(const char *opt, const char *s, uint8_t *out)
{
	union ibr_gid g;

	if (ibr_gid_parse(s, &g)) {
		fprintf(stderr, "ibrouter-host: --%s: '%s' is not a GID\n", opt, s);
		exit(2);
	}
	memcpy(out, g.raw, 16);
}

/* Packet fields, shared by the send options and their --expect-* twins. */
static void field(struct ibr_pkt_ud_params *p, size_t *size, int id, const char *o, const char *a)
{
	switch (id) {
	case O_SLID:
		p->slid = (uint16_t)num(o, a, 0xFFFF);
		break;
	case O_DLID:
		p->dlid = (uint16_t)num(o, a, 0xFFFF);
		break;
	case O_SL:
		p->sl = (uint8_t)num(o, a, 15);
		break;
	case O_VL:
		p->vl = (uint8_t)num(o, a, 15);
		break;
	case O_SGID:
		gid(o, a, p->sgid);
		break;
	case O_DGID:
		gid(o, a, p->dgid);
		break;
	case O_TCLASS:
		p->tclass = (uint8_t)num(o, a, 255);
		break;
	case O_FLOWLABEL:
		p->flowlabel = (uint32_t)num(o, a, 0xFFFFF);
		break;
	case O_HOPLMT:
		p->hoplmt = (uint8_t)num(o, a, 255);
		break;
	case O_PKEY:
		p->pkey = (uint16_t)num(o, a, 0xFFFF);
		break;
	case O_QPN:
		p->dest_qp = (uint32_t)num(o, a, 0xFFFFFF);
		break;
	case O_SRCQP:
		p->src_qp = (uint32_t)num(o, a, 0xFFFFFF);
		break;
	case O_QKEY:
		p->qkey = (uint32_t)num(o, a, 0xFFFFFFFF);
		break;
	case O_PSN:
		p->psn = (uint32_t)num(o, a, 0xFFFFFF);
		break;
	case O_SIZE:
		*size = (size_t)num(o, a, 4096);
		break;
	}
}

static const uint32_t expect_bits[] = {
	[O_EX_SLID - O_EX_SLID] = EX_SLID,
	[O_EX_DLID - O_EX_SLID] = EX_DLID,
	[O_EX_SL - O_EX_SLID] = EX_SL,
	[O_EX_VL - O_EX_SLID] = EX_VL,
	[O_EX_HOPLMT - O_EX_SLID] = EX_HOPLMT,
	[O_EX_SGID - O_EX_SLID] = EX_SGID,
	[O_EX_DGID - O_EX_SLID] = EX_DGID,
	[O_EX_TCLASS - O_EX_SLID] = EX_TCLASS,
	[O_EX_FLOWLABEL - O_EX_SLID] = EX_FLOWLABEL,
	[O_EX_PKEY - O_EX_SLID] = EX_PKEY,
	[O_EX_QPN - O_EX_SLID] = EX_QPN,
	[O_EX_QKEY - O_EX_SLID] = EX_QKEY,
	[O_EX_SIZE - O_EX_SLID] = EX_SIZE,
};
/* --expect-X maps to the send option X: same parser, same range */
static const int expect_field[] = {
	O_SLID,	  O_DLID,      O_SL,   O_VL,  O_HOPLMT, O_SGID, O_DGID,
	O_TCLASS, O_FLOWLABEL, O_PKEY, O_QPN, O_QKEY,	O_SIZE,
};

static void host_defaults(struct host *h)
{
	memset(h, 0, sizeof(*h));
	h->fd = -1;
	h->count = 0; /* send: 1 unless -c; recv: until the timeout unless -c */
	h->expect_count = -1;
	h->crc_check = true;
	h->p.grh = true;
	h->p.hoplmt = 64;
	h->p.pkey = 0xFFFF;
	h->p.dest_qp = 1;
	h->p.src_qp = 1;
	h->p.qkey = 0x11111111;
	h->p.payload_len = 64;
}

/* send or recv on an HCA port (-d): no socket, no capture of what the HCA hides */
static int host_main_verbs(struct host *h, const char *cmd)
{
	int rc;

	if (strcmp(cmd, "send") && strcmp(cmd, "recv")) {
		fprintf(stderr, "ibrouter-host: %s: send or recv with -d\n", cmd);
		return 2;
	}
	h->vcfg.qkey = (h->expect & EX_QKEY) ? h->want.qkey : h->p.qkey;
	h->vcfg.sgid = h->sgid_set ? h->p.sgid : NULL;
	host_signals();
	if (h->capture && (rc = ibr_pcap_open(&h->pcap, h->capture)) == 0)
		h->pcap_open = true;
	if (!(h->verbs = host_verbs_open(&h->vcfg)))
		return 1;
	if (!strcmp(cmd, "send"))
		rc = host_verbs_send(h->verbs, &h->p, h->count ? h->count : 1, h->rate, &host_stop);
	else
		rc = host_recv_verbs(h);
	host_verbs_close(h->verbs);
	if (h->pcap_open && ibr_pcap_close(&h->pcap))
		rc = rc ? rc : 1;
	return rc;
}

int main(int argc, char **argv)
{
	struct host h;
	const char *cmd;
	int c, rc;

	host_defaults(&h);
	while ((c = getopt_long(argc, argv, "s:p:d:w:jqc:r:t:hV", host_opts, NULL)) != -1) {
		const char *o = c >= 256 ? host_opts[0].name : "";

		for (const struct option *op = host_opts; op->name; op++)
			if (op->val == c)
				o = op->name;
		switch (c) {
		case 's':
			h.sock_path = optarg;
			break;
		case 'p':
			h.peer_path = optarg;
			break;
		case 'd':
			h.vcfg.device = optarg;
			break;
		case O_JOIN:
			if (h.vcfg.njoin == HOST_VERBS_MAX_JOIN) {
				fprintf(stderr, "ibrouter-host: at most %d --join\n",
					HOST_VERBS_MAX_JOIN);
				return 2;
			}
			gid(o, optarg, h.vcfg.join[h.vcfg.njoin++]);
			break;
		case O_JOIN_MLID:
			h.vcfg.join_mlid = (uint16_t)num(o, optarg, 0xFFFF);
			break;
		case O_NO_IP_JOIN:
			h.vcfg.no_ip_join = true;
			break;
		case O_EX_PAYLOAD:
			h.expect |= EX_PAYLOAD;
			break;
		case 'w':
			h.capture = optarg;
			break;
		case 'j':
			h.json = true;
			break;
		case 'q':
			h.quiet = true;
			break;
		case 'c':
			h.count = num("count", optarg, UINT64_MAX);
			break;
		case 'r':
			h.rate = (double)num("rate", optarg, 100000000);
			break;
		case 't':
			h.timeout_ms = (int)num("timeout", optarg, 86400000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("ibrouter-host %s\n", PACKAGE_VERSION);
			return 0;
		case O_NOGRH:
			h.p.grh = false;
			break;
		case O_BADVCRC:
			h.bad_vcrc = true;
			break;
		case O_NOCRC:
			h.crc_check = false;
			break;
		case O_EXCOUNT:
			h.expect_count = (long)num(o, optarg, 1000000000);
			break;
		default:
			if (c >= O_SLID && c <= O_SIZE) {
				field(&h.p, &h.p.payload_len, c, o, optarg);
				h.sgid_set |= c == O_SGID;
			} else if (c >= O_EX_SLID && c <= O_EX_SIZE) {
				field(&h.want, &h.want_size, expect_field[c - O_EX_SLID], o,
				      optarg);
				h.expect |= expect_bits[c - O_EX_SLID];
			} else {
				usage(stderr);
				return 2;
			}
		}
	}
	if (optind >= argc || !h.sock_path == !h.vcfg.device) {
		usage(stderr);
		return 2;
	}
	cmd = argv[optind];
	if (h.vcfg.device)
		return host_main_verbs(&h, cmd);
	if (strcmp(cmd, "send") && strcmp(cmd, "recv") && strcmp(cmd, "smp") &&
	    strcmp(cmd, "perf")) {
		fprintf(stderr, "ibrouter-host: unknown command '%s'\n", cmd);
		return 2;
	}
	if (strcmp(cmd, "recv") && !h.peer_path) {
		fprintf(stderr, "ibrouter-host: %s needs -p PEER\n", cmd);
		return 2;
	}
	host_signals();
	if (host_open(&h))
		return 1;
	if (!strcmp(cmd, "smp")) {
		rc = host_smp(h.fd, &h.peer, h.peerlen, h.timeout_ms, argc - optind - 1,
			      argv + optind + 1);
	} else if (!strcmp(cmd, "perf")) {
		rc = host_perf(h.fd, &h.peer, h.peerlen, h.timeout_ms, argc - optind - 1,
			       argv + optind + 1);
	} else if (!strcmp(cmd, "send")) {
		if (!h.count)
			h.count = 1;
		rc = host_send(&h);
	} else {
		rc = host_recv(&h);
	}
	if (h.pcap_open && ibr_pcap_close(&h.pcap))
		rc = rc ? rc : 1;
	close(h.fd);
	unlink(h.sock_path);
	return rc;
}
