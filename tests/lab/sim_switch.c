/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sim_switch.c - the data path of a switch on the sim wire, for labs with
 * several router ports in one subnet (lab_multi.sh): ibsim carries only
 * MADs, and a sim port sends every packet to one peer path (ibrouterd(8),
 * data = sim), so the ports of one subnet point their sim-peer here and
 * this forwards each datagram, a whole IB packet from its LRH, to the
 * socket of the port its DLID names, as a switch's forwarding table would
 * (IBA 18.2.4: a unicast DLID within a port's LMC range goes to that port).
 * A multicast DLID (0xC000 and up) goes to every port but the one it came
 * from, as if each port were in every group's forwarding entry (18.2.4.3.2:
 * never back out of its ingress port); the sender is known by the path its
 * socket is bound to, which must be its PATH here.
 *
 *   sim_switch SOCKET LID[/LMC]=PATH ...
 *
 * Binds SOCKET (a UNIX datagram socket); a datagram shorter than an LRH,
 * or to a DLID no port has, is dropped and counted.  SIGTERM or SIGINT: it
 * prints "forwarded N dropped N" and exits 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_PORTS 16

struct sw_port {
	unsigned lid, span; /* LIDs lid .. lid + span - 1 */
	struct sockaddr_un to;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* "LID[/LMC]=PATH" into *p; 0 or -1. */
static int sw_port_parse(const char *s, struct sw_port *p)
{
	char *end;
	unsigned long lid, lmc = 0;
	const char *path;

	lid = strtoul(s, &end, 0);
	if (end == s || lid == 0 || lid >= 0xC000)
		return -1;
	if (*end == '/') {
		lmc = strtoul(end + 1, &end, 0);
		if (lmc > 7)
			return -1;
	}
	if (*end != '=' || !end[1] || strlen(end + 1) >= sizeof(p->to.sun_path))
		return -1;
	path = end + 1;
	memset(p, 0, sizeof(*p));
	p->lid = (unsigned)lid;
	p->span = 1u << lmc;
	p->to.sun_family = AF_UNIX;
	strcpy(p->to.sun_path, path);
	return 0;
}

/* A multicast packet to every port but its sender's (an unbound sender: to all). */
static void sw_flood(int fd, const struct sw_port *port, int n, const struct sockaddr_un *from,
		     const unsigned char *pkt, size_t len, unsigned long *fwd, unsigned long *drop)
{
	for (int i = 0; i < n; i++) {
		if (!strcmp(port[i].to.sun_path, from->sun_path))
			continue;
		if (sendto(fd, pkt, len, 0, (const struct sockaddr *)&port[i].to,
			   sizeof(port[i].to)) < 0)
			(*drop)++;
		else
			(*fwd)++;
	}
}

int main(int argc, char **argv)
{
	struct sw_port port[MAX_PORTS];
	struct sockaddr_un me = { .sun_family = AF_UNIX };
	unsigned long fwd = 0, drop = 0;
	unsigned char pkt[8192];
	int n = argc - 2, fd;

	if (argc < 3 || n > MAX_PORTS || strlen(argv[1]) >= sizeof(me.sun_path)) {
		fprintf(stderr, "usage: sim_switch SOCKET LID[/LMC]=PATH ... (at most %d)\n",
			MAX_PORTS);
		return 2;
	}
	for (int i = 0; i < n; i++)
		if (sw_port_parse(argv[i + 2], &port[i])) {
			fprintf(stderr, "sim_switch: %s: not LID[/LMC]=PATH\n", argv[i + 2]);
			return 2;
		}
	strcpy(me.sun_path, argv[1]);
	unlink(me.sun_path);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM, 0)) < 0 ||
	    bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		fprintf(stderr, "sim_switch: %s: %s\n", me.sun_path, strerror(errno));
		return 1;
	}
	/*
	 * Without SA_RESTART: glibc's signal() restarts the blocking recvfrom(),
	 * so the switch never saw `stop` and outlived its SIGTERM (killed 10 s
	 * later by the tests' cleanup).
	 */
	sigaction(SIGTERM, &(struct sigaction){ .sa_handler = on_signal }, NULL);
	sigaction(SIGINT, &(struct sigaction){ .sa_handler = on_signal }, NULL);
	while (!stop) {
		struct sockaddr_un from = { 0 };
		socklen_t flen = sizeof(from);
		ssize_t len = recvfrom(fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&from, &flen);
		unsigned dlid;
		int i;

		if (len < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "sim_switch: recv: %s\n", strerror(errno));
			break;
		}
		if (len < 8) { /* no whole LRH */
			drop++;
			continue;
		}
		dlid = (unsigned)pkt[2] << 8 | pkt[3]; /* LRH bytes 2-3 (IBA 7.7.4) */
		if (dlid >= 0xC000) {
			sw_flood(fd, port, n, &from, pkt, (size_t)len, &fwd, &drop);
			continue;
		}
		for (i = 0; i < n; i++)
			if (dlid >= port[i].lid && dlid < port[i].lid + port[i].span)
				break;
		if (i == n || sendto(fd, pkt, (size_t)len, 0, (struct sockaddr *)&port[i].to,
				     sizeof(port[i].to)) < 0)
			drop++;
		else
			fwd++;
	}
	printf("forwarded %lu dropped %lu\n", fwd, drop);
	unlink(me.sun_path);
	return 0;
}
