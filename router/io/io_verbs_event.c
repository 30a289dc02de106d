/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * io_verbs_event.c - the verbs ports' state and the HCA's async events
 * (io_verbs.h): ibv_query_port/gid/pkey, and ibv_get_async_event read by
 * the owning worker or, once the daemon takes them (io_verbs_async_owner),
 * by the control thread, which turns them into daemon events.
 */
#include "router/io/io_verbs_int.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "lib/ibr_roce.h"

#include <errno.h>
#include <string.h>

/*
 * The GIDs a RoCE port sends from and answers to, one of each family: the
 * first RoCE v2 GID that is not link-local (a link-local one never leaves
 * its link, IBA 4.1.1, and the router forwards between links), else the
 * first RoCE v2 GID; RoCE v1 GIDs are not routable.  The port's GID is a
 * routable IPv6 one when there is one, else the IPv4 one (::ffff:a.b.c.d),
 * else a link-local IPv6 one; the IPv4 one also sends to IPv4 groups
 * (io_verbs.h).  -ENOENT when there is none.
 */
static int verbs_roce_gid(struct io_verbs_port *p, int tbl_len)
{
	int pick[2] = { -1, -1 }, rank[2] = { IBR_ROCE_GID_UNUSABLE, IBR_ROCE_GID_UNUSABLE };
	struct ibv_gid_entry e, best[2];
	int f;

	for (int i = 0; i < tbl_len && i < 256; i++) {
		int r;

		if (ibv_query_gid_ex(p->dev->ctx, p->cfg.port_num, (uint32_t)i, &e, 0))
			continue;
		f = ibr_gid_raw_is_v4mapped(e.gid.raw); /* 0: IPv6, 1: IPv4 */
		if ((r = ibr_roce_gid_rank(e.gid.raw, e.gid_type == IBV_GID_TYPE_ROCE_V2)) >
		    rank[f]) {
			pick[f] = i;
			best[f] = e;
			rank[f] = r;
		}
	}
	p->has_gid4 = pick[1] >= 0;
	if (p->has_gid4) {
		memcpy(p->gid4, best[1].gid.raw, 16);
		p->sgid4_index = (uint8_t)pick[1];
	}
	f = rank[0] >= rank[1] && pick[0] >= 0 ? 0 : 1;
	if (pick[f] < 0)
		return -ENOENT;
	memcpy(p->gid, best[f].gid.raw, 16);
	p->sgid_index = (uint8_t)pick[f];
	p->ifindex = best[f].ndev_ifindex;
	return 0;
}

/* Port state, link layer, LID, GID and the P_Key table (ibv_query_port/gid/pkey). */
static int verbs_port_query(struct io_verbs_port *p)
{
	struct ibv_port_attr a;
	union ibv_gid gid;
	bool roce;

	if (ibv_query_port(p->dev->ctx, p->cfg.port_num, &a))
		return -EIO;
	roce = a.link_layer == IBV_LINK_LAYER_ETHERNET;
	p->roce = roce;
	p->mtu = (uint16_t)(128u << (a.active_mtu >= IBV_MTU_256 && a.active_mtu <= IBV_MTU_4096
					     ? a.active_mtu
					     : IBV_MTU_2048));
	__atomic_store_n(&p->lid, roce ? 0 : a.lid, __ATOMIC_RELAXED);
	__atomic_store_n(&p->lmc, roce ? 0 : a.lmc, __ATOMIC_RELAXED);
	if (roce) {
		/* no usable GID (no address on the netdev yet): down until one comes */
		bool gid_ok = verbs_roce_gid(p, a.gid_tbl_len) == 0;

		__atomic_store_n(&p->up, a.state == IBV_PORT_ACTIVE && gid_ok, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&p->up, a.state == IBV_PORT_ACTIVE, __ATOMIC_RELAXED);
		if (ibv_query_gid(p->dev->ctx, p->cfg.port_num, 0, &gid))
			return -EIO;
		memcpy(p->gid, gid.raw, 16);
		p->sgid_index = 0;
	}
	for (int i = 0; i < 16 && i < a.pkey_tbl_len; i++) {
		__be16 k;

		if (ibv_query_pkey(p->dev->ctx, p->cfg.port_num, i, &k))
			break;
		p->pkey[i] = be16toh(k);
	}
	return 0;
}

int io_verbs_port_refresh(struct io_verbs_port *p)
{
	__atomic_store_n(&p->refresh, false, __ATOMIC_RELEASE);
	if (p->lost || __atomic_load_n(&p->dev->fatal, __ATOMIC_ACQUIRE))
		return -ENODEV; /* nothing to ask (or to believe) until its device is back */
	return verbs_port_query(p);
}

/* Read the port's state again if an event flagged it (in the thread that owns it). */
static void verbs_port_flagged(struct io_verbs_port *p)
{
	if (__atomic_load_n(&p->refresh, __ATOMIC_ACQUIRE) && io_verbs_port_refresh(p))
		log_warnx("verbs: %s:%u: port query failed", p->cfg.device, p->cfg.port_num);
}

int io_verbs_async_fd(const struct io_verbs_port *p)
{
	return p->dev->ctx ? p->dev->ctx->async_fd : -1;
}

void io_verbs_async_owner(struct io_verbs *v, bool control)
{
	__atomic_store_n(&v->async_ctl, control, __ATOMIC_RELEASE);
}

enum io_verbs_event io_verbs_event_kind(int ibv_event_type)
{
	switch (ibv_event_type) {
	case IBV_EVENT_PORT_ACTIVE:
		return IO_VERBS_EV_UP;
	case IBV_EVENT_PORT_ERR:
		return IO_VERBS_EV_DOWN;
	case IBV_EVENT_LID_CHANGE:
		return IO_VERBS_EV_LID;
	case IBV_EVENT_GID_CHANGE:
		return IO_VERBS_EV_GID;
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER: /* the SM asks for joins again (IBA 14.4.11) */
		return IO_VERBS_EV_SM;
	case IBV_EVENT_DEVICE_FATAL:
		return IO_VERBS_EV_FATAL;
	default:
		return IO_VERBS_EV_OTHER;
	}
}

/* The port of `p`'s device an event names (port events), else `p`. */
static struct io_verbs_port *verbs_event_port(struct io_verbs_port *p, uint8_t port_num)
{
	for (unsigned i = 0; i < p->v->nports; i++)
		if (p->v->port[i].dev == p->dev && p->v->port[i].cfg.port_num == port_num)
			return &p->v->port[i];
	return p;
}

unsigned io_verbs_async_poll(struct io_verbs_port *p,
			     void (*fn)(void *ctx, struct io_verbs_port *p, enum io_verbs_event),
			     void *ctx)
{
	struct ibv_async_event e;
	unsigned n = 0;

	while (p->dev->ctx && !p->dev->fatal && !ibv_get_async_event(p->dev->ctx, &e)) {
		enum io_verbs_event ev = io_verbs_event_kind(e.event_type);
		struct io_verbs_port *t = ev == IO_VERBS_EV_OTHER || ev == IO_VERBS_EV_FATAL
						  ? p
						  : verbs_event_port(p,
								     (uint8_t)e.element.port_num);

		if (e.event_type == IBV_EVENT_CQ_ERR)
			IO_VERBS_ST_ADD(&p->st.cq_err, 1); /* an overrun: the CQ lost completions */
		ibv_ack_async_event(&e);
		/* a port going down stops its sends now; its owner reads the rest */
		if (ev == IO_VERBS_EV_DOWN)
			__atomic_store_n(&t->up, false, __ATOMIC_RELAXED);
		if (ev == IO_VERBS_EV_FATAL) {
			/* every verb fails from now on: the device's ports stop, the
			 * daemon lets it go (io_verbs_dev_lose) and waits for it */
			for (unsigned i = 0; i < p->v->nports; i++)
				if (p->v->port[i].dev == p->dev)
					__atomic_store_n(&p->v->port[i].up, false,
							 __ATOMIC_RELAXED);
			__atomic_store_n(&p->dev->fatal, true, __ATOMIC_RELEASE);
		}
		__atomic_store_n(&t->refresh, true, __ATOMIC_RELEASE);
		IO_VERBS_ST_ADD(&p->st.events, 1);
		n++;
		if (fn)
			fn(ctx, t, ev);
	}
	if (!p->lost)
		verbs_port_flagged(p);
	return n;
}

void io_verbs_event_idle(struct io_verbs_port *p)
{
	if (!__atomic_load_n(&p->v->async_ctl, __ATOMIC_ACQUIRE))
		io_verbs_async_poll(p, NULL, NULL);
	else
		verbs_port_flagged(p);
}
