/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_io.c - what the SA client's parts share of its port: the clock, our
 * port GID, a request sent (to the SM, or a hop-0 SMP to our own port's
 * SMA) and the change notice to the daemon.  The bottom of sa/ with
 * sa_tables.c: the dispatcher (sa_client.c) and its parts (sa_sync.c,
 * sa_announce.c, sa_peers.c) call it, and it names none of them: what it
 * must reach above -- the dispatcher of the answers, the peers' look at a
 * changed neighbour table -- sa_client_new() gives it in c->up.
 */
#include "sa/sa_int.h"

#include <errno.h>
#include <stdlib.h>

uint64_t sa_now(const struct sa_client *c)
{
	return c->cfg.clock(c->cfg.clock_arg);
}

void sa_own_gid(const struct sa_client *c, uint8_t gid[16])
{
	ibr_mad_st64(gid, c->ps.prefix);
	ibr_mad_st64(gid + 8, c->ps.port_guid);
}

/* ---- requests ---- */

static int sa_submit(struct sa_client *c, const uint8_t *mad, const struct mad_addr *to,
		     enum sa_req_kind kind, const struct sa_req *tmpl)
{
	struct sa_req *q = calloc(1, sizeof(*q));
	int rc;

	if (!q)
		return -ENOMEM;
	if (tmpl)
		*q = *tmpl;
	q->c = c;
	q->kind = kind;
	q->gen = c->gen;
	LIST_INSERT_HEAD(&c->reqs, q, link);
	rc = mad_chan_send_request(c->chan, mad, to, NULL, c->up.result, q, &q->tid);
	if (rc < 0) {
		LIST_REMOVE(q, link);
		free(q);
		return rc;
	}
	c->st.queries++;
	return 0;
}

int sa_send(struct sa_client *c, uint8_t *mad, enum sa_req_kind kind, const struct sa_req *tmpl)
{
	struct mad_addr to = {
		.lid = c->ps.sm_lid,
		.qpn = 1,
		.qkey = MAD_QP1_QKEY,
		.sl = c->ps.sm_sl,
	};

	return sa_submit(c, mad, &to, kind, tmpl);
}

/* A hop-0 directed-route Get: answered by our own port's SMA (14.2.2). */
int sa_send_smp(struct sa_client *c, uint16_t attr, enum sa_req_kind kind)
{
	uint8_t mad[IBR_MAD_SIZE];
	struct mad_addr to = { .lid = 0xFFFF, .qpn = 0 };

	ibr_mad_build_dr_smp(mad, IBR_MAD_METHOD_GET, attr, 0, 0, 0, NULL, 0);
	return sa_submit(c, mad, &to, kind, NULL);
}

/* ---- the change notice ---- */

void sa_changed(struct sa_client *c, bool neighs, bool groups)
{
	if (neighs)
		c->up.neighs(c);
	if (c->ops.changed)
		c->ops.changed(c->arg, neighs, groups);
}
