/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrouter-host - a host on a sim wire: sends well-formed UD packets, receives
 * and prints or checks them, and writes captures tshark decodes.
 *
 *   ibrouter-host -s SOCKET -p PEER send [packet options] [-c COUNT] [-r RATE]
 *   ibrouter-host -s SOCKET recv [-c COUNT] [-t MS] [--expect-* ...] [-w FILE]
 *   ibrouter-host -d DEVICE[:PORT] send|recv [--join MGID] ...   (verbs mode)
 *
 * Here main() and the dispatch to the commands: the options are parsed in
 * host_opts.c, the sim socket opened in host_wire.c, send and recv run in
 * host_send.c and host_recv.c, smp and perf in host_smp.c and host_perf.c,
 * verbs mode in host_verbs.c.  See ibrouter-host(8).
 */
#include "tools/host.h"
#include "tools/host_perf.h"
#include "tools/host_smp.h"
#include "tools/host_verbs.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	host_signals_install();
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
	int rc;

	rc = host_opts_parse(&h, argc, argv);
	if (rc >= 0)
		return rc;
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
	host_signals_install();
	if (host_wire_open(&h))
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
