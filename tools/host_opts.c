/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host_opts.c - ibrouter-host's command line: the options, their parsers and
 * ranges (a send option and its --expect-* twin share one), the defaults,
 * and the usage text (host.h).
 */
#include "tools/host.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

int host_opts_parse(struct host *h, int argc, char **argv)
{
	int c;

	host_defaults(h);
	while ((c = getopt_long(argc, argv, "s:p:d:w:jqc:r:t:hV", host_opts, NULL)) != -1) {
		const char *o = c >= 256 ? host_opts[0].name : "";

		for (const struct option *op = host_opts; op->name; op++)
			if (op->val == c)
				o = op->name;
		switch (c) {
		case 's':
			h->sock_path = optarg;
			break;
		case 'p':
			h->peer_path = optarg;
			break;
		case 'd':
			h->vcfg.device = optarg;
			break;
		case O_JOIN:
			if (h->vcfg.njoin == HOST_VERBS_MAX_JOIN) {
				fprintf(stderr, "ibrouter-host: at most %d --join\n",
					HOST_VERBS_MAX_JOIN);
				return 2;
			}
			gid(o, optarg, h->vcfg.join[h->vcfg.njoin++]);
			break;
		case O_JOIN_MLID:
			h->vcfg.join_mlid = (uint16_t)num(o, optarg, 0xFFFF);
			break;
		case O_NO_IP_JOIN:
			h->vcfg.no_ip_join = true;
			break;
		case O_EX_PAYLOAD:
			h->expect |= EX_PAYLOAD;
			break;
		case 'w':
			h->capture = optarg;
			break;
		case 'j':
			h->json = true;
			break;
		case 'q':
			h->quiet = true;
			break;
		case 'c':
			h->count = num("count", optarg, UINT64_MAX);
			break;
		case 'r':
			h->rate = (double)num("rate", optarg, 100000000);
			break;
		case 't':
			h->timeout_ms = (int)num("timeout", optarg, 86400000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("ibrouter-host %s\n", PACKAGE_VERSION);
			return 0;
		case O_NOGRH:
			h->p.grh = false;
			break;
		case O_BADVCRC:
			h->bad_vcrc = true;
			break;
		case O_NOCRC:
			h->crc_check = false;
			break;
		case O_EXCOUNT:
			h->expect_count = (long)num(o, optarg, 1000000000);
			break;
		default:
			if (c >= O_SLID && c <= O_SIZE) {
				field(&h->p, &h->p.payload_len, c, o, optarg);
				h->sgid_set |= c == O_SGID;
			} else if (c >= O_EX_SLID && c <= O_EX_SIZE) {
				field(&h->want, &h->want_size, expect_field[c - O_EX_SLID], o,
				      optarg);
				h->expect |= expect_bits[c - O_EX_SLID];
			} else {
				usage(stderr);
				return 2;
			}
		}
	}
	if (optind >= argc || !h->sock_path == !h->vcfg.device) {
		usage(stderr);
		return 2;
	}
	return -1;
}
