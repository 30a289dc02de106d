/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibsim_tap - between the clients of one ibsim server (OpenSM and the
 * infiniband-diags under umad2sim, ibrouterd's native attachment) and that
 * server, so that the SMPs they send to the router node reach ibrouterd's
 * SMA instead of the simulator's own (ibsim answers every standard SMP of
 * every node itself: without this the fabric sees ibsim's router, never
 * ours).
 *
 *   ibsim_tap REAL FAKE NETFILE ROUTER
 *
 * It serves ibsim's socket protocol under the name FAKE (the clients run
 * with IBSIM_SOCKNAME=FAKE; ../shared/lab/LAB.md, mad/mad_ibsim.h) and
 * attaches each of its clients to the real server REAL as that client asked
 * (node, QP, IsSM), relaying control queries and MADs both ways unchanged,
 * except:
 *   - an SMP request (class 0x81 or 0x01) whose destination is the node
 *     ROUTER of the topology NETFILE goes to the client attached there
 *     (ibrouterd), as ibsim hands a client the SMPs it does not answer
 *     itself: the return path filled in, HopPointer 0, the requester's
 *     index in TID bits 63..48; the destination of a directed route is
 *     found by walking its initial path over NETFILE's links, a LID-routed
 *     one by the router port's LID (as its PortInfo replies say);
 *   - PerfMgt GMPs (class 0x04) to the router's LID go there too;
 *   - that client's response goes back to the requester as ibsim would
 *     deliver it (LIDs and QPs swapped);
 *   - every Set to the router is also sent to the real server (its answer
 *     dropped), so that ibsim's model of the router port follows what the
 *     SM set (LID, state): LID-routed traffic to the router (ibrouterd's SA
 *     client's answers, traps) still finds it.
 * One router port per server (ibsim models each router port as a node of
 * its own).  Test code (tests/lab), written against ibsim's documented
 * protocol; no line of ibsim's.
 */
#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAGIC	    0xdeadbeefu
#define MAX_CLIENTS 10 /* ibsim's IBSIM_MAX_CLIENTS */
#define CTL_SIZE    80
#define REQ_SIZE    288
#define MAD_OFF	    32
#define MAX_NODES   64
#define MAX_PORTS   37

enum { CTL_ERROR, CTL_CONNECT, CTL_DISCONNECT };

struct sim_ctl {
	uint32_t magic, clientid, type, len;
	uint8_t data[64];
};
_Static_assert(sizeof(struct sim_ctl) == CTL_SIZE, "sim_ctl");

struct client_info {
	uint32_t id, qp, issm;
	char nodeid[32];
};

struct node {
	char name[64];
	int sw; /* a switch: port 0 is the node itself */
	int nports;
	int peer[MAX_PORTS], peer_port[MAX_PORTS]; /* link of each port, -1: none */
};

struct client {
	int used, router;
	uint32_t sock_id;	/* the client's own id (its socket names) */
	struct sockaddr_un ctl; /* where its control requests come from */
	socklen_t ctl_len;
	int out;	 /* FAKE:out<i>, connected to its FAKE:in<id> */
	int rctl, rdata; /* our attachment to REAL */
	uint32_t rcid;	 /* REAL's client id for it */
	char node[64];
};

/* A request handed to the router client, waiting for its response. */
struct pending {
	uint64_t tid; /* as handed over */
	int from;     /* the requester */
	uint8_t hdr[MAD_OFF];
	uint8_t method; /* of the request */
	int used;
};

static const char *real_name, *fake_name, *router_name;
static struct node nodes[MAX_NODES];
static int nnodes;
static struct client cl[MAX_CLIENTS];
static struct pending pend[1024]; /* by the TID's low 10 bits */
static uint64_t mirror_tid[64];	  /* Sets copied to REAL: their answers are dropped */
static unsigned nmirror;
static uint16_t rtr_lid;
static uint8_t rtr_sim_port = 1; /* the port of ibsim's router node the SMPs arrive at */
static uint8_t rtr_lmc;
static int ctl_fd;
static volatile sig_atomic_t quit;
static unsigned long n_to_router, n_from_router, n_relayed, n_mirrored;

static socklen_t abstract(struct sockaddr_un *a, const char *fmt, const char *s, uint32_t n,
			  int with_n)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (with_n)
		snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, fmt, s, n);
	else
		snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, fmt, s);
	/* the leading NUL, the name and its trailing NUL, as ibsim counts them */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 2 + strlen(a->sun_path + 1));
}

static int sock_bound(const char *fmt, const char *s, uint32_t n, int with_n)
{
	struct sockaddr_un a;
	socklen_t l = abstract(&a, fmt, s, n, with_n);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, l) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static int sock_connect(int fd, const char *fmt, const char *s, uint32_t n, int with_n)
{
	struct sockaddr_un a;
	socklen_t l = abstract(&a, fmt, s, n, with_n);

	return connect(fd, (struct sockaddr *)&a, l);
}

/* ---- the topology ---- */

static int node_find(const char *name)
{
	for (int i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i].name, name))
			return i;
	return -1;
}

static int node_get(const char *name)
{
	int i = node_find(name);

	if (i >= 0 || nnodes == MAX_NODES)
		return i;
	snprintf(nodes[nnodes].name, sizeof(nodes[nnodes].name), "%s", name);
	for (int p = 0; p < MAX_PORTS; p++)
		nodes[nnodes].peer[p] = nodes[nnodes].peer_port[p] = -1;
	return nnodes++;
}

/* Switch/Hca/Ca/Rt headers and their "[p] "peer"[q]" lines (ibsim's net-file syntax). */
static int net_load(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512], name[64];
	int cur = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char kind[16];
		int np, p, q = 1;

		if (sscanf(line, "%15s %d \"%63[^\"]\"", kind, &np, name) == 3 &&
		    (!strcmp(kind, "Switch") || !strcmp(kind, "Hca") || !strcmp(kind, "Ca") ||
		     !strcmp(kind, "Rt"))) {
			if ((cur = node_get(name)) < 0)
				break;
			nodes[cur].sw = !strcmp(kind, "Switch");
			nodes[cur].nports = np;
		} else if (cur >= 0 && sscanf(line, " [%d] \"%63[^\"]\"[%d]", &p, name, &q) >= 2 &&
			   p >= 0 && p < MAX_PORTS) {
			int o = node_get(name);

			if (o < 0)
				break;
			nodes[cur].peer[p] = o;
			nodes[cur].peer_port[p] = q;
		} else if (line[0] != '[' && line[0] != ' ' && line[0] != '\t') {
			cur = -1;
		}
	}
	fclose(f);
	return nnodes ? 0 : -1;
}

/*
 * Where a directed route from node `from` ends: its initial path walked as
 * ibsim walks it (the requester's port 1, then path[1..cnt] as the ports
 * it leaves by); rp[] gets the return path ibsim computes (rp[0] the
 * requester's port, rp[i] the port the SMP entered hop i by).  -1: nowhere.
 */
static int dr_walk(int from, const uint8_t *path, int cnt, uint8_t *rp)
{
	int n = from, port = nodes[from].sw ? 0 : 1;

	for (int i = 0; i < cnt; i++) {
		int out = path[i + 1];

		rp[i] = (uint8_t)port;
		if (!nodes[n].sw && out == 0)
			out = 1;
		if (out >= MAX_PORTS || nodes[n].peer[out] < 0)
			return -1;
		port = nodes[n].peer_port[out];
		n = nodes[n].peer[out];
		if (i + 1 < cnt && !nodes[n].sw)
			return -1; /* ibsim drops a path through an end node */
	}
	rp[cnt] = (uint8_t)port;
	return n;
}

/* ---- control ---- */

static int ctl_call(int fd, struct sim_ctl *c)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (send(fd, c, sizeof(*c), 0) != (ssize_t)sizeof(*c) || poll(&p, 1, 3000) != 1 ||
	    recv(fd, c, sizeof(*c), 0) != (ssize_t)sizeof(*c))
		return -1;
	return c->type == CTL_ERROR ? -1 : 0;
}

static void client_drop(int i)
{
	struct client *c = &cl[i];

	if (c->rctl >= 0) {
		struct sim_ctl m = { .magic = MAGIC, .clientid = c->rcid, .type = CTL_DISCONNECT };

		ctl_call(c->rctl, &m);
		close(c->rctl);
	}
	if (c->rdata >= 0)
		close(c->rdata);
	c->used = 0;
	c->rctl = c->rdata = -1;
}

/* A client's CONNECT: our own attachment to REAL as it asked, then its index here. */
static int client_connect(struct sim_ctl *m, const struct sockaddr_un *from, socklen_t flen)
{
	struct client_info ci;
	struct sim_ctl r;
	uint32_t rid;
	int i = 0;

	while (i < MAX_CLIENTS && cl[i].used)
		i++;
	if (i == MAX_CLIENTS)
		return -1;
	memcpy(&ci, m->data, sizeof(ci));
	rid = (uint32_t)getpid() << 4 | (uint32_t)i | 1u << 29; /* unique: our pid, the slot */
	cl[i].sock_id = ci.id;
	if ((cl[i].rctl = sock_bound("%s:ctl%u", real_name, rid, 1)) < 0 ||
	    sock_connect(cl[i].rctl, "%s:ctl", real_name, 0, 0) < 0 ||
	    (cl[i].rdata = sock_bound("%s:in%u", real_name, rid, 1)) < 0)
		goto fail;
	r = *m;
	ci.id = rid;
	memcpy(r.data, &ci, sizeof(ci));
	if (ctl_call(cl[i].rctl, &r))
		goto fail;
	memcpy(&ci, r.data, sizeof(ci));
	cl[i].rcid = ci.id;
	if (sock_connect(cl[i].rdata, "%s:out%u", real_name, cl[i].rcid, 1) < 0 ||
	    sock_connect(cl[i].out, "%s:in%u", fake_name, cl[i].sock_id, 1) < 0)
		goto fail;
	snprintf(cl[i].node, sizeof(cl[i].node), "%.*s", (int)sizeof(ci.nodeid), ci.nodeid);
	cl[i].router = !strcmp(cl[i].node, router_name);
	cl[i].ctl = *from;
	cl[i].ctl_len = flen;
	cl[i].used = 1;
	ci.id = (uint32_t)i;
	memcpy(m->data, &ci, sizeof(ci));
	fprintf(stderr, "ibsim_tap: client %d at %s%s (ibsim client %u)\n", i, cl[i].node,
		cl[i].router ? " (the router)" : "", cl[i].rcid);
	return 0;
fail:
	fprintf(stderr, "ibsim_tap: cannot attach a client at %s: %s\n", ci.nodeid,
		strerror(errno));
	client_drop(i);
	return -1;
}

static void on_ctl(void)
{
	struct sockaddr_un from;
	socklen_t flen = sizeof(from);
	struct sim_ctl m;
	ssize_t n = recvfrom(ctl_fd, &m, sizeof(m), 0, (struct sockaddr *)&from, &flen);
	uint32_t id;

	if (n != (ssize_t)sizeof(m) || m.magic != MAGIC)
		return;
	id = m.clientid;
	if (m.type == CTL_CONNECT) {
		if (client_connect(&m, &from, flen))
			m.type = CTL_ERROR;
	} else if (id >= MAX_CLIENTS || !cl[id].used) {
		return; /* as ibsim: no answer */
	} else if (m.type == CTL_DISCONNECT) {
		client_drop((int)id);
	} else {
		m.clientid = cl[id].rcid;
		if (ctl_call(cl[id].rctl, &m))
			m.type = CTL_ERROR;
		m.clientid = id;
	}
	sendto(ctl_fd, &m, sizeof(m), 0, (struct sockaddr *)&from, flen);
}

/* ---- MADs ---- */

static uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

/* A MAD's AttributeID, AttributeModifier and Status (its D bit left out), for the logs. */
static unsigned mad_attr(const uint8_t *m)
{
	return (unsigned)(m[16] << 8 | m[17]);
}

static unsigned mad_mod(const uint8_t *m)
{
	return (unsigned)m[20] << 24 | (unsigned)m[21] << 16 | (unsigned)m[22] << 8 | m[23];
}

static unsigned mad_status(const uint8_t *m)
{
	return (unsigned)((m[4] & 0x7F) << 8 | m[5]);
}

static void st64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static uint16_t req_lid(const uint8_t *req, int off)
{
	return (uint16_t)(req[off] << 8 | req[off + 1]);
}

static int router_client(void)
{
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (cl[i].used && cl[i].router)
			return i;
	return -1;
}

/* Whether a request of client `i` is for the router; a DR one gets its return path. */
static int for_router(int i, uint8_t *req)
{
	uint8_t *mad = req + MAD_OFF, rp[64];
	uint8_t cls = mad[1];
	uint16_t dlid = req_lid(req, 0);
	int from, to;

	if (cl[i].router || (mad[3] & 0x80))
		return 0; /* the router's own, or a response */
	if (cls == 0x81 && dlid == 0xFFFF) {
		int cnt = mad[7];

		if (!cnt || cnt > 63 || (from = node_find(cl[i].node)) < 0)
			return 0;
		memset(rp, 0, sizeof(rp));
		if ((to = dr_walk(from, mad + 128, cnt, rp)) < 0 ||
		    strcmp(nodes[to].name, router_name))
			return 0;
		memcpy(mad + 192, rp, sizeof(rp));
		rtr_sim_port = rp[cnt];
		return 1;
	}
	if ((cls == 0x01 || cls == 0x04) && rtr_lid && dlid >= rtr_lid &&
	    dlid < rtr_lid + (1u << rtr_lmc))
		return 1;
	return 0;
}

/* The router port's LID and LMC, from a PortInfo (0x0015) GetResp of its SMA. */
static void learn_lid(const uint8_t *mad)
{
	const uint8_t *pi = mad + 64;
	uint16_t lid;

	if ((mad[1] != 0x81 && mad[1] != 0x01) || mad[3] != 0x81 || mad_attr(mad) != 0x0015 ||
	    mad_status(mad))
		return;
	lid = (uint16_t)(pi[16] << 8 | pi[17]);
	if (lid && lid < 0xC000 && (lid != rtr_lid || (pi[34] & 7) != rtr_lmc)) {
		rtr_lid = lid;
		rtr_lmc = pi[34] & 7;
		fprintf(stderr, "ibsim_tap: the router port's LID is 0x%04x, LMC %u\n", rtr_lid,
			rtr_lmc);
	}
}

static void from_client(int i)
{
	uint8_t req[REQ_SIZE], copy[REQ_SIZE];
	ssize_t n = recv(cl[i].out, req, sizeof(req), 0);
	int r = router_client();
	uint8_t *mad = req + MAD_OFF;

	if (n != REQ_SIZE)
		return;
	if (r >= 0 && i != r && for_router(i, req)) {
		unsigned k = (unsigned)(ld64(mad + 8) & 0x3FF);
		struct pending *p = &pend[k];

		memcpy(copy, req, sizeof(copy));
		/* the requester's index in bits 63..48, as ibsim stamps them */
		st64(mad + 8, (ld64(mad + 8) & 0xFFFFFFFFFFFFull) | (uint64_t)i << 48);
		p->tid = ld64(mad + 8);
		p->from = i;
		p->method = mad[3];
		p->used = 1;
		memcpy(p->hdr, req, MAD_OFF);
		if (req_lid(req, 4) == 0 && req_lid(req, 0) != 0xFFFF) {
			/* LID-routed with SLID 0: ibsim fills in the sender's LID */
			struct sim_ctl m = { .magic = MAGIC, .clientid = cl[i].rcid, .type = 3 };

			if (!ctl_call(cl[i].rctl, &m)) {
				req[4] = m.data[1]; /* struct sim_port { u16 lid (host order); } */
				req[5] = m.data[0];
			}
		}
		send(cl[r].out, req, sizeof(req), 0);
		n_to_router++;
		if (getenv("IBSIM_TAP_TRACE"))
			fprintf(stderr,
				"ibsim_tap: trace: client %d -> router: class 0x%02x method 0x%02x "
				"attr 0x%04x mod 0x%08x\n",
				i, mad[1], mad[3], mad_attr(mad), mad_mod(mad));
		if ((mad[3] & 0x7F) == 0x02) /* what the SM sets, for the lab's checks */
			fprintf(stderr,
				"ibsim_tap: Set of attribute 0x%04x mod 0x%08x to the router\n",
				mad_attr(mad), mad_mod(mad));
		/* a Set: ibsim's model of the port follows it (the answer is dropped) */
		if ((mad[3] & 0x7F) == 0x02 && (mad[1] == 0x81 || mad[1] == 0x01)) {
			uint8_t *cm = copy + MAD_OFF;

			/*
			 * PortInfo names the port: ours may be the router's port 2, while
			 * ibsim models each router port as a node of one port
			 */
			if (mad_attr(cm) == 0x0015) {
				memset(cm + 20, 0, 4);
				cm[23] = rtr_sim_port;
				/*
				 * and the link's width and speeds stay ibsim's (0: no
				 * change): OpenSM's values come from our SMA's, and
				 * ibsim, seeing them change, sends trap 144 to the SM,
				 * which SwA cannot relay before its LFT is set (a
				 * PortRcvSwitchRelayErrors OpenSM's perfmgr reports)
				 */
				cm[64 + 29] = 0;     /* LinkWidthEnabled */
				cm[64 + 35] &= 0xF0; /* LinkSpeedEnabled */
				cm[64 + 63] &= 0xE0; /* LinkSpeedExtEnabled */
			}
			mirror_tid[nmirror++ % 64] = ld64(copy + MAD_OFF + 8) & 0xFFFFFFFFFFFFull;
			send(cl[i].rdata, copy, sizeof(copy), 0);
			n_mirrored++;
		}
		return;
	}
	send(cl[i].rdata, req, sizeof(req), 0);
	n_relayed++;
}

static void from_real(int i)
{
	uint8_t req[REQ_SIZE];
	ssize_t n = recv(cl[i].rdata, req, sizeof(req), 0);
	uint64_t tid;

	if (n != REQ_SIZE)
		return;
	tid = ld64(req + MAD_OFF + 8) & 0xFFFFFFFFFFFFull;
	if (!cl[i].router && (req[MAD_OFF + 3] & 0x80))
		for (unsigned k = 0; k < 64 && k < nmirror; k++)
			if (mirror_tid[k] == tid) {
				mirror_tid[k] = ~0ull; /* a mirrored Set's answer: ours, dropped */
				if (getenv("IBSIM_TAP_DEBUG"))
					fprintf(stderr,
						"ibsim_tap: mirrored Set of 0x%04x: ibsim says "
						"0x%04x"
						" (state %u)\n",
						mad_attr(req + MAD_OFF), mad_status(req + MAD_OFF),
						req[MAD_OFF + 64 + 32] & 0x0F);
				return;
			}
	if (getenv("IBSIM_TAP_DEBUG") && (req[MAD_OFF + 3] & 0x80) && mad_status(req + MAD_OFF))
		fprintf(stderr,
			"ibsim_tap: ibsim answered client %d attribute 0x%04x mod 0x%08x "
			"with status 0x%04x (hops %u, path %u,%u,%u)\n",
			i, mad_attr(req + MAD_OFF), mad_mod(req + MAD_OFF),
			mad_status(req + MAD_OFF), req[MAD_OFF + 7], req[MAD_OFF + 129],
			req[MAD_OFF + 130], req[MAD_OFF + 131]);
	send(cl[i].out, req, sizeof(req), 0);
}

/* From the router client: its SMA's responses to the requesters, the rest to REAL. */
static void from_router(int r)
{
	uint8_t req[REQ_SIZE];
	ssize_t n = recv(cl[r].out, req, sizeof(req), 0);
	uint8_t *mad = req + MAD_OFF;
	struct pending *p;

	if (n != REQ_SIZE)
		return;
	p = &pend[ld64(mad + 8) & 0x3FF];
	if ((mad[3] & 0x80) && p->used && p->tid == ld64(mad + 8) && cl[p->from].used) {
		uint8_t out[REQ_SIZE];

		learn_lid(mad);
		if (getenv("IBSIM_TAP_TRACE"))
			fprintf(stderr,
				"ibsim_tap: trace: router -> client %d: attr 0x%04x status 0x%04x"
				" pi lid %u state %u\n",
				p->from, mad_attr(mad), mad_status(mad),
				mad[64 + 16] << 8 | mad[64 + 17], mad[64 + 32] & 0x0F);
		if (mad_status(mad)) /* an error status: which attribute, for the lab's log */
			fprintf(stderr,
				"ibsim_tap: the router answered class 0x%02x attribute 0x%04x "
				"mod 0x%08x method 0x%02x with status 0x%04x\n",
				mad[1], mad_attr(mad), mad_mod(mad), p->method, mad_status(mad));
		/* as ibsim delivers an answer: the request's LIDs and QPs swapped, status 0 */
		memcpy(out, p->hdr, MAD_OFF);
		memcpy(out, p->hdr + 4, 4);
		memcpy(out + 4, p->hdr, 4);
		memcpy(out + 8, p->hdr + 12, 4);
		memcpy(out + 12, p->hdr + 8, 4);
		memset(out + 16, 0, 4);
		memcpy(out + MAD_OFF, mad, 256);
		/* the requester's REAL client id in bits 63..48, as ibsim leaves them */
		st64(out + MAD_OFF + 8,
		     (p->tid & 0xFFFFFFFFFFFFull) | (uint64_t)cl[p->from].rcid << 48);
		send(cl[p->from].out, out, sizeof(out), 0);
		p->used = 0;
		n_from_router++;
		return;
	}
	if (getenv("IBSIM_TAP_TRACE"))
		fprintf(stderr,
			"ibsim_tap: trace: router -> ibsim: class 0x%02x method 0x%02x attr 0x%04x "
			"dlid 0x%04x\n",
			mad[1], mad[3], mad_attr(mad), req_lid(req, 0));
	send(cl[r].rdata, req, sizeof(req), 0);
	n_relayed++;
}

static void on_signal(int s)
{
	(void)s;
	quit = 1;
}

int main(int argc, char **argv)
{
	struct pollfd pf[1 + 2 * MAX_CLIENTS];

	if (argc != 5) {
		fprintf(stderr,
			"usage: ibsim_tap REAL_SOCKNAME FAKE_SOCKNAME NETFILE ROUTER_NODE\n");
		return 2;
	}
	real_name = argv[1];
	fake_name = argv[2];
	router_name = argv[4];
	if (net_load(argv[3]) || node_find(router_name) < 0) {
		fprintf(stderr, "ibsim_tap: %s: no topology with node %s\n", argv[3], router_name);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if ((ctl_fd = sock_bound("%s:ctl", fake_name, 0, 0)) < 0) {
		perror("ibsim_tap: bind");
		return 1;
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		cl[i].rctl = cl[i].rdata = -1;
		if ((cl[i].out = sock_bound("%s:out%u", fake_name, (uint32_t)i, 1)) < 0) {
			perror("ibsim_tap: bind");
			return 1;
		}
	}
	fprintf(stderr, "ibsim_tap: listening as %s for %s, router node %s\n", fake_name, real_name,
		router_name);
	while (!quit) {
		int n = 0, idx[1 + 2 * MAX_CLIENTS];

		pf[n] = (struct pollfd){ .fd = ctl_fd, .events = POLLIN };
		idx[n++] = -1;
		for (int i = 0; i < MAX_CLIENTS; i++) {
			if (!cl[i].used)
				continue;
			pf[n] = (struct pollfd){ .fd = cl[i].out, .events = POLLIN };
			idx[n++] = i;
			pf[n] = (struct pollfd){ .fd = cl[i].rdata, .events = POLLIN };
			idx[n++] = 100 + i;
		}
		if (poll(pf, (nfds_t)n, 100) < 0 && errno != EINTR)
			break;
		for (int k = 0; k < n; k++) {
			if (!(pf[k].revents & POLLIN))
				continue;
			if (idx[k] < 0)
				on_ctl();
			else if (idx[k] >= 100)
				from_real(idx[k] - 100);
			else if (cl[idx[k]].router)
				from_router(idx[k]);
			else
				from_client(idx[k]);
		}
	}
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (cl[i].used)
			client_drop(i);
	fprintf(stderr,
		"ibsim_tap: %lu SMPs to the router, %lu answers, %lu Sets mirrored, %lu relayed\n",
		n_to_router, n_from_router, n_mirrored, n_relayed);
	return 0;
}
