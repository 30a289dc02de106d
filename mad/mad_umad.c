/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_umad.c - MAD transport over libibumad.  See mad_umad.h.
 *
 * The kernel's MAD layer matches responses to sends by TID and agent: a
 * request must be sent with a timeout (we pass the channel's per-attempt
 * timeout and no kernel retries: the channel retries), and its TID's top 32
 * bits are replaced by the agent's hi_tid on the wire.  A send the kernel
 * timed out comes back from umad_recv() with status ETIMEDOUT; it is handed
 * up with mad_addr.status set and the channel ignores it (its own timer
 * decides).  RMPP for the SA class is done by the kernel (13.6).
 */
#include "mad/mad_umad.h"

#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <infiniband/umad.h>
#include <stdlib.h>
#include <string.h>

#define UMAD_MAX_AGENTS	 8
#define UMAD_RX_START	 (64 * 1024)
#define UMAD_RX_MAX	 (16 * 1024 * 1024)
#define UMAD_QP0_CLASSES 2

struct mad_umad {
	struct mad_transport base;
	int portid;
	struct {
		uint8_t mgmt_class;
		int agent;
	} agents[UMAD_MAX_AGENTS];
	unsigned int n_agents;
	void *rx;
	size_t rx_size; /* MAD bytes the rx buffer holds after the umad header */
	void *tx;
};

static const struct mad_transport_ops mad_umad_ops;

static struct mad_umad *to_umad(struct mad_transport *tp)
{
	return (struct mad_umad *)tp;
}

static bool class_is_smp(uint8_t mgmt_class)
{
	return mgmt_class == IBR_MGMT_CLASS_SUBN_LID || mgmt_class == IBR_MGMT_CLASS_SUBN_DR;
}

void mad_umad_method_mask(uint8_t mgmt_class, uint64_t mask[2])
{
	static const uint8_t smp[] = { IBR_MAD_METHOD_GET, IBR_MAD_METHOD_SET,
				       IBR_MAD_METHOD_TRAP_REPRESS };
	static const uint8_t sa[] = { IBR_MAD_METHOD_REPORT };
	const uint8_t *m = class_is_smp(mgmt_class) ? smp : sa;
	size_t n = class_is_smp(mgmt_class) ? sizeof(smp) : sizeof(sa);

	mask[0] = mask[1] = 0;
	for (size_t i = 0; i < n; i++)
		mask[m[i] / 64] |= 1ull << (m[i] % 64);
}

struct mad_transport *mad_umad_open(const char *ca, int port)
{
	struct mad_umad *u = calloc(1, sizeof(*u));
	int rc;

	if (!u)
		return NULL;
	u->base.ops = &mad_umad_ops;
	rc = umad_init();
	if (rc < 0) {
		rc = -EOPNOTSUPP; /* it returns -1: no ib_umad (its ABI version unreadable) */
		goto fail;
	}
	u->portid = umad_open_port(ca, port);
	if (u->portid < 0) {
		rc = u->portid;
		goto fail;
	}
	u->rx_size = UMAD_RX_START;
	u->rx = calloc(1, umad_size() + u->rx_size);
	u->tx = calloc(1, umad_size() + IBR_MAD_SIZE);
	if (!u->rx || !u->tx) {
		rc = -ENOMEM;
		umad_close_port(u->portid);
		goto fail;
	}
	return &u->base;
fail:
	free(u->rx);
	free(u->tx);
	free(u);
	/* the caller says it (a lost port is tried again: said once, not every try) */
	log_debug("mad: umad %s:%d: cannot open: %s", ca ? ca : "(default)", port,
		  strerror(rc < 0 ? -rc : ENODEV));
	errno = rc < 0 ? -rc : ENODEV;
	return NULL;
}

int mad_umad_probe(const char *ca, int port, struct mad_umad_probe *out)
{
	umad_port_t p;
	char issm[256], *slash;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	if ((rc = umad_get_port(ca, port, &p)) < 0) {
		out->port_err = rc < -1 ? rc : -ENODEV;
		return out->port_err;
	}
	out->state = p.state;
	out->phys_state = p.phys_state;
	out->lid = (uint16_t)p.base_lid;
	out->sm_lid = (uint16_t)p.sm_lid;
	out->lmc = (uint8_t)p.lmc;
	out->gid_prefix = be64toh(p.gid_prefix);
	out->ethernet = !strcmp(p.link_layer, "Ethernet");
	umad_release_port(&p);
	/*
	 * The umad device is the issm device's twin (ib_umad makes umadN and
	 * issmN for each port): its path from libibumad's, which needs ib_umad.
	 */
	if ((rc = umad_get_issm_path(ca, port, issm, sizeof(issm))) < 0 ||
	    !(slash = strrchr(issm, '/')) || strncmp(slash + 1, "issm", 4)) {
		out->path_err = rc < -1 ? rc : -EOPNOTSUPP;
		return out->path_err;
	}
	memcpy(slash + 1, "umad", 4);
	snprintf(out->umad_path, sizeof(out->umad_path), "%s", issm);
	return 0;
}

static void umad_tp_close(struct mad_transport *tp)
{
	struct mad_umad *u = to_umad(tp);

	for (unsigned int i = 0; i < u->n_agents; i++)
		umad_unregister(u->portid, u->agents[i].agent);
	umad_close_port(u->portid);
	free(u->rx);
	free(u->tx);
	free(u);
}

static int umad_tp_get_fd(struct mad_transport *tp)
{
	return umad_get_fd(to_umad(tp)->portid);
}

static int umad_tp_register(struct mad_transport *tp, uint8_t mgmt_class, uint8_t class_version,
			    bool rmpp)
{
	struct mad_umad *u = to_umad(tp);
	uint64_t mask[2];
	long lmask[16 / sizeof(long)];
	int agent;

	if (u->n_agents >= UMAD_MAX_AGENTS)
		return -ENOSPC;
	mad_umad_method_mask(mgmt_class, mask);
	memcpy(lmask, mask, sizeof(lmask));
	agent = umad_register(u->portid, mgmt_class, class_version ? class_version : 1,
			      rmpp ? IBR_RMPP_VERSION : 0, lmask);
	if (agent < 0)
		return agent;
	u->agents[u->n_agents].mgmt_class = mgmt_class;
	u->agents[u->n_agents].agent = agent;
	u->n_agents++;
	return 0;
}

static int umad_agent_of(const struct mad_umad *u, uint8_t mgmt_class)
{
	for (unsigned int i = 0; i < u->n_agents; i++)
		if (u->agents[i].mgmt_class == mgmt_class)
			return u->agents[i].agent;
	return -1;
}

static int umad_tp_send(struct mad_transport *tp, const uint8_t *mad, size_t len,
			const struct mad_addr *to, uint32_t timeout_ms)
{
	struct mad_umad *u = to_umad(tp);
	int agent = umad_agent_of(u, ibr_mad_mgmt_class(mad));
	int rc;

	if (agent < 0)
		return -ENOENT;
	if (len < IBR_MAD_HDR_SIZE || len > IBR_MAD_SIZE)
		return -EMSGSIZE;
	memset(u->tx, 0, umad_size() + IBR_MAD_SIZE);
	memcpy(umad_get_mad(u->tx), mad, len);
	umad_set_addr(u->tx, to->lid, (int)to->qpn, to->sl,
		      (int)(to->qkey ? to->qkey : (to->qpn ? MAD_QP1_QKEY : 0)));
	umad_set_pkey(u->tx, to->pkey_index);
	rc = umad_send(u->portid, agent, u->tx, (int)IBR_MAD_SIZE, (int)timeout_ms, 0);
	return rc < 0 ? rc : 0;
}

/* Grow the receive buffer to hold `need` MAD bytes (a long RMPP message). */
static int umad_rx_grow(struct mad_umad *u, size_t need)
{
	void *b;

	if (need > UMAD_RX_MAX)
		return -EMSGSIZE;
	b = realloc(u->rx, umad_size() + need);
	if (!b)
		return -ENOMEM;
	u->rx = b;
	u->rx_size = need;
	return 0;
}

static ssize_t umad_tp_recv(struct mad_transport *tp, const uint8_t **mad, struct mad_addr *from)
{
	struct mad_umad *u = to_umad(tp);
	ib_mad_addr_t *a;
	int len, rc;

	for (;;) {
		len = (int)u->rx_size;
		rc = umad_recv(u->portid, u->rx, &len, 0);
		if (rc == -ENOSPC && len > (int)u->rx_size) {
			/* the kernel keeps the message; come back with room for it */
			rc = umad_rx_grow(u, (size_t)len);
			if (rc)
				return rc;
			continue;
		}
		if (rc == -EAGAIN || rc == -ETIMEDOUT || rc == -EWOULDBLOCK)
			return 0;
		if (rc < 0)
			return rc;
		break;
	}
	a = umad_get_mad_addr(u->rx);
	*from = (struct mad_addr){ .lid = ntohs(a->lid),
				   .qpn = ntohl(a->qpn),
				   .qkey = ntohl(a->qkey),
				   .sl = a->sl,
				   .pkey_index = (uint16_t)umad_get_pkey(u->rx),
				   .status = (uint32_t)umad_status(u->rx) };
	*mad = umad_get_mad(u->rx);
	from->local_qpn = len >= 2 && class_is_smp(ibr_mad_mgmt_class(*mad)) ? 0 : 1;
	return len < 0 ? 0 : (ssize_t)len;
}

static const struct mad_transport_ops mad_umad_ops = {
	.name = "umad",
	.flags = MAD_TP_RMPP,
	.get_fd = umad_tp_get_fd,
	.register_class = umad_tp_register,
	.send = umad_tp_send,
	.recv = umad_tp_recv,
	/*
	 * No set_issm: the kernel sets PortInfo:CapabilityMask.IsSM for as long
	 * as the port's issm device is open, and on an HCA that tells every SM
	 * of the subnet that an SM lives on the port (OpenSM then polls its
	 * SMInfo and lists it: saquery -s).  The router runs no SM; its SMA
	 * needs no IsSM on an HCA (the kernel hands QP0 SMPs to any agent).
	 */
	.close = umad_tp_close,
};
