/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_ibsim.c - MAD transport over ibsim's native socket protocol.  See
 * mad_ibsim.h for the names and the record layouts; written from the
 * protocol's description (LAB.md) and ibsim's header, no code taken.
 */
#include "mad/mad_ibsim.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define SIM_MAGIC     0xdeadbeefu
#define SIM_DATA_SIZE 64

/* sim_ctl types (ibsim.h, enum SIM_CTL_TYPES) */
enum sim_ctl_type {
	SIM_CTL_ERROR = 0,
	SIM_CTL_CONNECT = 1,
	SIM_CTL_DISCONNECT = 2,
	SIM_CTL_GET_PORT = 3,
	SIM_CTL_GET_GID = 5,
	SIM_CTL_GET_NODEINFO = 7,
	SIM_CTL_GET_PORTINFO = 8,
	SIM_CTL_SET_ISSM = 9,
};

/* The control record: host byte order. */
struct sim_ctl_msg {
	uint32_t magic;
	uint32_t clientid;
	uint32_t type;
	uint32_t len;
	uint8_t data[SIM_DATA_SIZE];
};
_Static_assert(sizeof(struct sim_ctl_msg) == MAD_IBSIM_CTL_SIZE, "sim_ctl is 80 bytes");

/* CONNECT's payload: our socket id in, the client id out; the node's name. */
struct sim_conn_info {
	uint32_t id;
	uint32_t qp;
	uint32_t issm;
	char nodeid[32];
};
_Static_assert(sizeof(struct sim_conn_info) <= SIM_DATA_SIZE, "sim_client_info fits");

/* sim_request offsets: dlid, slid, dqp, sqp, status (32 bits each), pad, length (64), mad */
#define REQ_DLID   0
#define REQ_SLID   4
#define REQ_DQP	   8
#define REQ_SQP	   12
#define REQ_STATUS 16
#define REQ_LENGTH 24
#define REQ_MAD	   32
_Static_assert(REQ_MAD + IBR_MAD_SIZE == MAD_IBSIM_REQ_SIZE, "sim_request is 288 bytes");

struct mad_ibsim {
	struct mad_transport base;
	int ctl_fd, data_fd;
	uint32_t id, clientid;
	unsigned int timeout_ms;
	bool issm;
	char sock[64];
	char node[32];
	uint8_t rx[MAD_IBSIM_REQ_SIZE + 1];
	uint64_t bad_datagrams;
};

static const struct mad_transport_ops mad_ibsim_ops;

static struct mad_ibsim *to_sim(struct mad_transport *tp)
{
	return (struct mad_ibsim *)tp;
}

/* An abstract unix address "\0<sock>:<what>\0"; its length, or 0 if too long. */
static socklen_t sim_addr(struct sockaddr_un *sa, const char *sock, const char *fmt, uint32_t n)
{
	char tail[24];
	int len;

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	snprintf(tail, sizeof(tail), fmt, n);
	len = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1, "%s:%s", sock, tail);
	if (len < 0 || (size_t)len + 2 > sizeof(sa->sun_path))
		return 0;
	/* ibsim's names count the terminating NUL */
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len + 1);
}

/* ---- control exchange ---- */

/* Send one control record and wait for its answer.  0 or -errno (-EPROTO: ibsim said no). */
static int sim_ctl(struct mad_ibsim *s, uint32_t type, void *data, size_t len)
{
	struct sim_ctl_msg m = { .magic = SIM_MAGIC, .clientid = s->clientid, .type = type };
	struct pollfd pfd = { .fd = s->ctl_fd, .events = POLLIN };
	uint64_t deadline = ibr_now_ns() + (uint64_t)s->timeout_ms * 1000000u;
	uint8_t stale[MAD_IBSIM_CTL_SIZE];
	ssize_t n;

	m.len = (uint32_t)len;
	memcpy(m.data, data, len);
	/* a late answer to an exchange that timed out earlier must not be taken for this one */
	while (recv(s->ctl_fd, stale, sizeof(stale), MSG_DONTWAIT) >= 0)
		;
	if (send(s->ctl_fd, &m, sizeof(m), 0) != (ssize_t)sizeof(m))
		return errno ? -errno : -EIO;
	for (;;) {
		uint64_t now = ibr_now_ns();
		int rc;

		if (now >= deadline)
			return -ETIMEDOUT;
		rc = poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1);
		if (rc < 0 && errno != EINTR)
			return -errno;
		if (rc <= 0)
			continue;
		n = recv(s->ctl_fd, &m, sizeof(m), MSG_DONTWAIT);
		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		if (n == (ssize_t)sizeof(m) && m.magic == SIM_MAGIC)
			break;
	}
	if (m.type != type)
		return -EPROTO;
	memcpy(data, m.data, len);
	return 0;
}

/* ---- open / close ---- */

/* Bind a fresh client socket "<sock>:<prefix><id>", trying ids until one is free. */
static int sim_bind_pair(struct mad_ibsim *s)
{
	static uint32_t counter;
	struct sockaddr_un sa;
	socklen_t sl;

	for (int tries = 0; tries < 256; tries++) {
		s->id = 0x40000000u | ((uint32_t)getpid() & 0x3FFFFF) << 7 | (counter++ & 0x7F);
		sl = sim_addr(&sa, s->sock, "ctl%u", s->id);
		if (!sl)
			return -ENAMETOOLONG;
		if (bind(s->ctl_fd, (struct sockaddr *)&sa, sl) < 0) {
			if (errno == EADDRINUSE)
				continue;
			return -errno;
		}
		/* the data socket must exist before CONNECT: ibsim connects to it then */
		sl = sim_addr(&sa, s->sock, "in%u", s->id);
		if (bind(s->data_fd, (struct sockaddr *)&sa, sl) < 0)
			return -errno; /* the ctl name was free, so this one is too */
		return 0;
	}
	return -EADDRINUSE;
}

/* CONNECT at the node, then connect the data socket to the server's "out<cid>". */
static int sim_attach(struct mad_ibsim *s)
{
	struct sim_conn_info ci = { .id = s->id };
	uint8_t data[SIM_DATA_SIZE] = { 0 };
	struct sockaddr_un sa;
	socklen_t sl = sim_addr(&sa, s->sock, "ctl", 0);
	int rc;

	if (connect(s->ctl_fd, (struct sockaddr *)&sa, sl) < 0)
		return -errno;
	snprintf(ci.nodeid, sizeof(ci.nodeid), "%s", s->node);
	memcpy(data, &ci, sizeof(ci));
	s->clientid = 0;
	rc = sim_ctl(s, SIM_CTL_CONNECT, data, sizeof(data));
	if (rc)
		return rc == -EPROTO ? -ENODEV : rc;
	memcpy(&ci, data, sizeof(ci));
	s->clientid = ci.id;
	sl = sim_addr(&sa, s->sock, "out%u", s->clientid);
	if (connect(s->data_fd, (struct sockaddr *)&sa, sl) < 0) {
		rc = -errno;
		sim_ctl(s, SIM_CTL_DISCONNECT, data, 0);
		return rc;
	}
	return 0;
}

struct mad_transport *mad_ibsim_open(const char *sockname, const char *nodeid,
				     unsigned int timeout_ms)
{
	struct mad_ibsim *s = calloc(1, sizeof(*s));
	int rcvbuf = 1 << 20, rc;

	if (!s)
		return NULL;
	s->base.ops = &mad_ibsim_ops;
	s->timeout_ms = timeout_ms ? timeout_ms : 2000;
	snprintf(s->sock, sizeof(s->sock), "%s", sockname && *sockname ? sockname : "sim");
	snprintf(s->node, sizeof(s->node), "%s", nodeid ? nodeid : "");
	s->ctl_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	s->data_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->ctl_fd < 0 || s->data_fd < 0) {
		rc = -errno;
		goto fail;
	}
	/* ibsim spins on a full client socket: leave it room */
	setsockopt(s->data_fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	rc = sim_bind_pair(s);
	if (rc == 0)
		rc = sim_attach(s);
	if (rc)
		goto fail;
	log_info("sa: ibsim %s: attached at \"%s\" as client %u (socket id %u)", s->sock,
		 s->node[0] ? s->node : "(default)", s->clientid, s->id);
	return &s->base;
fail:
	errno = -rc;
	log_warn("sa: ibsim %s: cannot attach at \"%s\"", s->sock, s->node);
	if (s->ctl_fd >= 0)
		close(s->ctl_fd);
	if (s->data_fd >= 0)
		close(s->data_fd);
	free(s);
	errno = -rc;
	return NULL;
}

static void sim_close(struct mad_transport *tp)
{
	struct mad_ibsim *s = to_sim(tp);
	uint8_t data[SIM_DATA_SIZE] = { 0 };

	/* IsSM outlives a client in ibsim (LAB.md): clear it before leaving */
	if (s->issm)
		sim_ctl(s, SIM_CTL_SET_ISSM, data, sizeof(int));
	sim_ctl(s, SIM_CTL_DISCONNECT, data, 0);
	close(s->ctl_fd);
	close(s->data_fd);
	free(s);
}

/* ---- control queries ---- */

int mad_ibsim_get_port(struct mad_transport *tp, uint16_t *lid, uint8_t *state)
{
	uint8_t d[SIM_DATA_SIZE] = { 0 };
	uint16_t l;
	int rc = sim_ctl(to_sim(tp), SIM_CTL_GET_PORT, d, sizeof(d));

	if (rc)
		return rc;
	/* struct sim_port { uint16_t lid; uint8_t state; } in host order */
	memcpy(&l, d, sizeof(l));
	*lid = l;
	*state = d[2];
	return 0;
}

int mad_ibsim_get_gid(struct mad_transport *tp, uint8_t gid[16])
{
	uint8_t d[SIM_DATA_SIZE] = { 0 };
	uint64_t guid;
	int rc = sim_ctl(to_sim(tp), SIM_CTL_GET_GID, d, sizeof(d));

	if (rc)
		return rc;
	memcpy(gid, d, 8);
	/* ibsim copies the node GUID in host order after the wire-order prefix */
	memcpy(&guid, d + 8, sizeof(guid));
	ibr_mad_st64(gid + 8, guid);
	return 0;
}

int mad_ibsim_get_nodeinfo(struct mad_transport *tp, uint8_t out[64])
{
	memset(out, 0, SIM_DATA_SIZE);
	return sim_ctl(to_sim(tp), SIM_CTL_GET_NODEINFO, out, SIM_DATA_SIZE);
}

int mad_ibsim_get_portinfo(struct mad_transport *tp, uint8_t port, uint8_t out[64])
{
	memset(out, 0, SIM_DATA_SIZE);
	out[0] = port;
	return sim_ctl(to_sim(tp), SIM_CTL_GET_PORTINFO, out, SIM_DATA_SIZE);
}

uint32_t mad_ibsim_client_id(const struct mad_transport *tp)
{
	return ((const struct mad_ibsim *)tp)->clientid;
}

uint32_t mad_ibsim_sock_id(const struct mad_transport *tp)
{
	return ((const struct mad_ibsim *)tp)->id;
}

/* ---- data ---- */

static bool class_is_smp(uint8_t mgmt_class)
{
	return mgmt_class == IBR_MGMT_CLASS_SUBN_LID || mgmt_class == IBR_MGMT_CLASS_SUBN_DR;
}

void mad_ibsim_req_encode(uint8_t *req, const uint8_t *mad, size_t len, const struct mad_addr *to)
{
	uint8_t cls = ibr_mad_mgmt_class(mad);
	uint16_t slid = to->local_lid;

	memset(req, 0, MAD_IBSIM_REQ_SIZE);
	/* a DR SMP travels by its path: both LIDs permissive; SLID 0 = "mine" for ibsim */
	if (cls == IBR_MGMT_CLASS_SUBN_DR && to->lid == 0xFFFF)
		slid = 0xFFFF;
	ibr_mad_st16(req + REQ_DLID, to->lid);
	ibr_mad_st16(req + REQ_SLID, slid);
	ibr_mad_st32(req + REQ_DQP, to->qpn);
	ibr_mad_st32(req + REQ_SQP, class_is_smp(cls) ? 0 : 1);
	ibr_mad_st64(req + REQ_LENGTH, len);
	memcpy(req + REQ_MAD, mad, len);
}

size_t mad_ibsim_req_decode(uint8_t *req, size_t req_len, const uint8_t **mad,
			    struct mad_addr *from)
{
	uint64_t len;

	if (req_len != MAD_IBSIM_REQ_SIZE)
		return 0;
	*from = (struct mad_addr){ .lid = ibr_mad_ld16(req + REQ_SLID),
				   .local_lid = ibr_mad_ld16(req + REQ_DLID),
				   .qpn = ibr_mad_ld32(req + REQ_SQP),
				   .local_qpn = ibr_mad_ld32(req + REQ_DQP),
				   .status = ibr_mad_ld32(req + REQ_STATUS) };
	from->qkey = from->local_qpn ? MAD_QP1_QKEY : 0;
	*mad = req + REQ_MAD;
	/*
	 * A MAD on the wire is always 256 bytes (13.4.1).  umad2sim writes the
	 * sender's length (OpenSM sizes an SA response to its records, e.g. 168
	 * bytes) and leaves the rest of the 256 unset: zero it, deliver 256.
	 */
	len = ibr_mad_ld64(req + REQ_LENGTH);
	if (len < IBR_MAD_SIZE)
		memset(req + REQ_MAD + len, 0, IBR_MAD_SIZE - len);
	return IBR_MAD_SIZE;
}

static int sim_get_fd(struct mad_transport *tp)
{
	return to_sim(tp)->data_fd;
}

static int sim_register(struct mad_transport *tp, uint8_t mgmt_class, uint8_t class_version,
			bool rmpp)
{
	return 0; /* ibsim has no agents: it hands a client everything for its port */
}

static int sim_send(struct mad_transport *tp, const uint8_t *mad, size_t len,
		    const struct mad_addr *to, uint32_t timeout_ms)
{
	struct mad_ibsim *s = to_sim(tp);
	uint8_t req[MAD_IBSIM_REQ_SIZE];

	if (len < IBR_MAD_HDR_SIZE || len > IBR_MAD_SIZE)
		return -EMSGSIZE;
	mad_ibsim_req_encode(req, mad, len, to);
	if (send(s->data_fd, req, sizeof(req), MSG_DONTWAIT) != (ssize_t)sizeof(req))
		return errno ? -errno : -EIO;
	return 0;
}

static ssize_t sim_recv(struct mad_transport *tp, const uint8_t **mad, struct mad_addr *from)
{
	struct mad_ibsim *s = to_sim(tp);

	for (;;) {
		ssize_t n = recv(s->data_fd, s->rx, sizeof(s->rx), MSG_DONTWAIT);
		size_t len;

		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
		len = mad_ibsim_req_decode(s->rx, (size_t)n, mad, from);
		if (len)
			return (ssize_t)len;
		s->bad_datagrams++;
		log_debug("sa: ibsim %s: dropped a %zd-byte datagram", s->sock, n);
	}
}

static int sim_set_issm(struct mad_transport *tp, bool on)
{
	struct mad_ibsim *s = to_sim(tp);
	uint8_t d[SIM_DATA_SIZE] = { 0 };
	int v = on;
	int rc;

	memcpy(d, &v, sizeof(v));
	rc = sim_ctl(s, SIM_CTL_SET_ISSM, d, sizeof(v));
	if (rc == 0)
		s->issm = on;
	return rc;
}

static const struct mad_transport_ops mad_ibsim_ops = {
	.name = "ibsim",
	.flags = 0,
	.get_fd = sim_get_fd,
	.register_class = sim_register,
	.send = sim_send,
	.recv = sim_recv,
	.set_issm = sim_set_issm,
	.close = sim_close,
};
