/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * host.h - what the files of ibrouter-host share: the host's state (struct
 * host, filled by the options, used by the commands) and the functions one
 * file calls in another.  See ibrouter-host(8).
 */
#ifndef HOST_H
#define HOST_H

#include "lib/ibr_pcap.h"
#include "lib/ibr_pkt.h"
#include "tools/host_verbs.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>

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

/* host_opts.c: the command line */

/*
 * Fill `h` from the options (its defaults first) and check that a command
 * follows them and exactly one of -s, -d was given; argv[optind] is then
 * the command.  -1 when the host goes on; otherwise the exit status (0
 * after --help or --version, 2 on a usage error, said on stderr).
 */
int host_opts_parse(struct host *h, int argc, char **argv);

/* host_wire.c: the sim socket, its capture, the stop on a signal, the clock */

/* Set by SIGINT or SIGTERM (host_signals_install()): every loop ends. */
extern volatile sig_atomic_t host_stop;

void host_signals_install(void);
/* Bind -s SOCKET, resolve -p PEER, open -w FILE.  0, or -1 (said why). */
int host_wire_open(struct host *h);
/* Write one packet to the capture, if -w opened one. */
void host_capture_write(struct host *h, const uint8_t *pkt, size_t len);
double host_clock_now(void);
/* Sleep `secs` or until a signal stops the host (the socket's POLLHUP). */
void host_clock_sleep(const struct host *h, double secs);

/* host_send.c: "send" on the sim wire; the exit status */
int host_send(struct host *h);

/* host_recv.c: "recv", on the sim wire or (host_recv_verbs) an HCA's QP; the exit status */
int host_recv(struct host *h);
int host_recv_verbs(struct host *h);

#endif
