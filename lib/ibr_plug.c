/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_plug.c - the plugin <-> daemon messages (ibr_plug.h): layouts, the
 * checks every received datagram passes before a field is read, record
 * accessors, and the packer that cuts a batch into datagrams.
 */
#include "lib/ibr_plug.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <string.h>

/* Fixed part and record size of each type (0: none). */
static const struct {
	uint8_t type;
	uint16_t fixed, recsz;
	const char *name;
} plug_layouts[] = {
	{ IBR_PLUG_HELLO, IBR_PLUG_HELLO_LEN, 8, "hello" },
	{ IBR_PLUG_SNAP_BEGIN, IBR_PLUG_SNAP_LEN, 0, "snap-begin" },
	{ IBR_PLUG_PORTS, 0, IBR_PLUG_PORT_LEN, "ports" },
	{ IBR_PLUG_PORTS_DEL, 0, 8, "ports-del" },
	{ IBR_PLUG_GROUP, IBR_PLUG_GROUP_LEN, IBR_PLUG_MEMBER_LEN, "group" },
	{ IBR_PLUG_GROUPS_DEL, 0, 16, "groups-del" },
	{ IBR_PLUG_SNAP_END, IBR_PLUG_SNAP_LEN, 0, "snap-end" },
	{ IBR_PLUG_STATS, IBR_PLUG_STATS_LEN, 0, "stats" },
	{ IBR_PLUG_ROUTES, IBR_PLUG_ROUTES_LEN, IBR_PLUG_ROUTE_LEN, "routes" },
	{ IBR_PLUG_MCAST, 0, IBR_PLUG_MCAST_LEN, "mcast" },
	{ IBR_PLUG_ALIVE, 0, 0, "alive" },
};

bool ibr_plug_layout(uint8_t type, size_t *fixed, size_t *recsz)
{
	for (size_t i = 0; i < sizeof(plug_layouts) / sizeof(plug_layouts[0]); i++)
		if (plug_layouts[i].type == type) {
			*fixed = plug_layouts[i].fixed;
			*recsz = plug_layouts[i].recsz;
			return true;
		}
	return false;
}

const char *ibr_plug_type_name(uint8_t type)
{
	for (size_t i = 0; i < sizeof(plug_layouts) / sizeof(plug_layouts[0]); i++)
		if (plug_layouts[i].type == type)
			return plug_layouts[i].name;
	return "unknown";
}

void ibr_plug_hdr_put(uint8_t *buf, uint8_t type, uint16_t flags, uint16_t count, uint32_t len,
		      uint32_t seq)
{
	ibr_be16_put(buf, IBR_PLUG_MAGIC);
	buf[2] = IBR_PLUG_VERSION;
	buf[3] = type;
	ibr_be16_put(buf + 4, flags);
	ibr_be16_put(buf + 6, count);
	ibr_be32_put(buf + 8, len);
	ibr_be32_put(buf + 12, seq);
}

/* Every check before any field past the header is read: one exit per reason. */
int ibr_plug_parse(const uint8_t *buf, size_t len, struct ibr_plug_msg *m)
{
	size_t fixed = 0, recsz = 0;

	memset(m, 0, sizeof(*m));
	if (len < IBR_PLUG_HDR_LEN || len > IBR_PLUG_MSG_MAX || ibr_be16_get(buf) != IBR_PLUG_MAGIC)
		return -EBADMSG;
	if (buf[2] != IBR_PLUG_VERSION)
		return -EPROTONOSUPPORT;
	m->type = buf[3];
	m->flags = ibr_be16_get(buf + 4);
	m->count = ibr_be16_get(buf + 6);
	m->len = ibr_be32_get(buf + 8);
	m->seq = ibr_be32_get(buf + 12);
	if (m->len != len)
		return -EBADMSG;
	m->known = ibr_plug_layout(m->type, &fixed, &recsz);
	if (!m->known)
		return 0; /* a newer peer's message: the caller skips it */
	/* count <= 65535 and recsz <= 40: no overflow in size_t */
	if (len != IBR_PLUG_HDR_LEN + fixed + (size_t)m->count * recsz ||
	    (recsz == 0 && m->count != 0))
		return -EBADMSG;
	m->fixed = buf + IBR_PLUG_HDR_LEN;
	m->recs = m->fixed + fixed;
	m->recsz = recsz;
	return 0;
}

/* ---- fixed parts and records ---- */

static void plug_str_put(uint8_t *p, const char *s, size_t n)
{
	size_t l = strnlen(s, n);

	memset(p, 0, n);
	memcpy(p, s, l);
}

/* A NUL-padded field into a C string; bytes outside printable ASCII become '?'. */
static void plug_str_get(const uint8_t *p, size_t n, char *s)
{
	size_t i;

	for (i = 0; i < n && p[i]; i++)
		s[i] = p[i] >= 0x20 && p[i] < 0x7F ? (char)p[i] : '?';
	s[i] = '\0';
}

static void plug_be64_put(uint8_t *p, uint64_t v)
{
	ibr_be32_put(p, (uint32_t)(v >> 32));
	ibr_be32_put(p + 4, (uint32_t)v);
}

void ibr_plug_guid_put(uint8_t *p, uint64_t guid)
{
	plug_be64_put(p, guid);
}

uint64_t ibr_plug_guid_get(const uint8_t *p)
{
	return ibr_be64_get(p);
}

/* hello: osm_version[32] plugin_version[16] prefix sm_guid sm_lid sm_state flags pid queue_max rsv[4] */
void ibr_plug_hello_put(uint8_t *p, const struct ibr_plug_hello *h)
{
	memset(p, 0, IBR_PLUG_HELLO_LEN);
	plug_str_put(p, h->osm_version, IBR_PLUG_OSMVER_LEN);
	plug_str_put(p + 32, h->plugin_version, IBR_PLUG_PLUGVER_LEN);
	plug_be64_put(p + 48, h->subnet_prefix);
	plug_be64_put(p + 56, h->sm_guid);
	ibr_be16_put(p + 64, h->sm_lid);
	p[66] = h->sm_state;
	p[67] = h->flags;
	ibr_be32_put(p + 68, h->pid);
	ibr_be32_put(p + 72, h->queue_max);
}

void ibr_plug_hello_get(const uint8_t *p, struct ibr_plug_hello *h)
{
	memset(h, 0, sizeof(*h));
	plug_str_get(p, IBR_PLUG_OSMVER_LEN, h->osm_version);
	plug_str_get(p + 32, IBR_PLUG_PLUGVER_LEN, h->plugin_version);
	h->subnet_prefix = ibr_be64_get(p + 48);
	h->sm_guid = ibr_be64_get(p + 56);
	h->sm_lid = ibr_be16_get(p + 64);
	h->sm_state = p[66];
	h->flags = p[67];
	h->pid = ibr_be32_get(p + 68);
	h->queue_max = ibr_be32_get(p + 72);
}

/* snap: gen nports ngroups sm_lid rsv[2] prefix */
void ibr_plug_snap_put(uint8_t *p, const struct ibr_plug_snap *s)
{
	memset(p, 0, IBR_PLUG_SNAP_LEN);
	ibr_be32_put(p, s->gen);
	ibr_be32_put(p + 4, s->nports);
	ibr_be32_put(p + 8, s->ngroups);
	ibr_be16_put(p + 12, s->sm_lid);
	plug_be64_put(p + 16, s->subnet_prefix);
}

void ibr_plug_snap_get(const uint8_t *p, struct ibr_plug_snap *s)
{
	memset(s, 0, sizeof(*s));
	s->gen = ibr_be32_get(p);
	s->nports = ibr_be32_get(p + 4);
	s->ngroups = ibr_be32_get(p + 8);
	s->sm_lid = ibr_be16_get(p + 12);
	s->subnet_prefix = ibr_be64_get(p + 16);
}

/* port: guid base_guid lid lmc node_type port_num flags rsv[2] */
void ibr_plug_port_put(uint8_t *p, const struct ibr_plug_port *r)
{
	memset(p, 0, IBR_PLUG_PORT_LEN);
	plug_be64_put(p, r->guid);
	plug_be64_put(p + 8, r->base_guid);
	ibr_be16_put(p + 16, r->lid);
	p[18] = r->lmc;
	p[19] = r->node_type;
	p[20] = r->port_num;
	p[21] = r->flags;
}

void ibr_plug_port_get(const uint8_t *p, struct ibr_plug_port *r)
{
	memset(r, 0, sizeof(*r));
	r->guid = ibr_be64_get(p);
	r->base_guid = ibr_be64_get(p + 8);
	r->lid = ibr_be16_get(p + 16);
	r->lmc = p[18];
	r->node_type = p[19];
	r->port_num = p[20];
	r->flags = p[21];
}

/* group: mgid[16] mlid pkey qkey flowlabel sl tclass mtu rate scope flags nmembers rsv[4] */
void ibr_plug_group_put(uint8_t *p, const struct ibr_plug_group *g)
{
	memset(p, 0, IBR_PLUG_GROUP_LEN);
	memcpy(p, g->mgid, 16);
	ibr_be16_put(p + 16, g->mlid);
	ibr_be16_put(p + 18, g->pkey);
	ibr_be32_put(p + 20, g->qkey);
	ibr_be32_put(p + 24, g->flowlabel);
	p[28] = g->sl;
	p[29] = g->tclass;
	p[30] = g->mtu;
	p[31] = g->rate;
	p[32] = g->scope;
	p[33] = g->flags;
	ibr_be16_put(p + 34, g->nmembers);
}

void ibr_plug_group_get(const uint8_t *p, struct ibr_plug_group *g)
{
	memset(g, 0, sizeof(*g));
	memcpy(g->mgid, p, 16);
	g->mlid = ibr_be16_get(p + 16);
	g->pkey = ibr_be16_get(p + 18);
	g->qkey = ibr_be32_get(p + 20);
	g->flowlabel = ibr_be32_get(p + 24);
	g->sl = p[28];
	g->tclass = p[29];
	g->mtu = p[30];
	g->rate = p[31];
	g->scope = p[32];
	g->flags = p[33];
	g->nmembers = ibr_be16_get(p + 34);
}

/* member: gid[16] join_state proxy rsv[2] */
void ibr_plug_member_put(uint8_t *p, const struct ibr_plug_member *m)
{
	memset(p, 0, IBR_PLUG_MEMBER_LEN);
	memcpy(p, m->gid, 16);
	p[16] = m->join_state;
	p[17] = m->proxy;
}

void ibr_plug_member_get(const uint8_t *p, struct ibr_plug_member *m)
{
	memset(m, 0, sizeof(*m));
	memcpy(m->gid, p, 16);
	m->join_state = p[16];
	m->proxy = p[17];
}

/* stats: events enqueued dropped (u64), eight u32, sm_state, rsv[7] */
void ibr_plug_stats_put(uint8_t *p, const struct ibr_plug_stats *s)
{
	const uint32_t v[] = { s->snapshots, s->connects, s->queue_len, s->queue_max,
			       s->routes,    s->shadowed, s->sweeps,	s->applies };

	memset(p, 0, IBR_PLUG_STATS_LEN);
	plug_be64_put(p, s->events);
	plug_be64_put(p + 8, s->enqueued);
	plug_be64_put(p + 16, s->dropped);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		ibr_be32_put(p + 24 + 4 * i, v[i]);
	p[56] = s->sm_state;
}

void ibr_plug_stats_get(const uint8_t *p, struct ibr_plug_stats *s)
{
	uint32_t *const v[] = { &s->snapshots, &s->connects, &s->queue_len, &s->queue_max,
				&s->routes,    &s->shadowed, &s->sweeps,    &s->applies };

	memset(s, 0, sizeof(*s));
	s->events = ibr_be64_get(p);
	s->enqueued = ibr_be64_get(p + 8);
	s->dropped = ibr_be64_get(p + 16);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		*v[i] = ibr_be32_get(p + 24 + 4 * i);
	s->sm_state = p[56];
}

/* route: prefix guid metric flags */
void ibr_plug_route_put(uint8_t *p, const struct ibr_plug_route *r)
{
	plug_be64_put(p, r->prefix);
	plug_be64_put(p + 8, r->guid);
	ibr_be32_put(p + 16, r->metric);
	ibr_be32_put(p + 20, r->flags);
}

void ibr_plug_route_get(const uint8_t *p, struct ibr_plug_route *r)
{
	r->prefix = ibr_be64_get(p);
	r->guid = ibr_be64_get(p + 8);
	r->metric = ibr_be32_get(p + 16);
	r->flags = ibr_be32_get(p + 20);
}

/* mcast: mgid[16] guid qkey flowlabel pkey sl tclass mtu rate join_state rsv */
void ibr_plug_mcast_put(uint8_t *p, const struct ibr_plug_mcast *r)
{
	memset(p, 0, IBR_PLUG_MCAST_LEN);
	memcpy(p, r->mgid, 16);
	plug_be64_put(p + 16, r->guid);
	ibr_be32_put(p + 24, r->qkey);
	ibr_be32_put(p + 28, r->flowlabel & 0xFFFFF);
	ibr_be16_put(p + 32, r->pkey);
	p[34] = r->sl;
	p[35] = r->tclass;
	p[36] = r->mtu;
	p[37] = r->rate;
	p[38] = r->join_state;
}

void ibr_plug_mcast_get(const uint8_t *p, struct ibr_plug_mcast *r)
{
	memcpy(r->mgid, p, 16);
	r->guid = ibr_be64_get(p + 16);
	r->qkey = ibr_be32_get(p + 24);
	r->flowlabel = ibr_be32_get(p + 28) & 0xFFFFF;
	r->pkey = ibr_be16_get(p + 32);
	r->sl = p[34];
	r->tclass = p[35];
	r->mtu = p[36];
	r->rate = p[37];
	r->join_state = p[38];
}

/* ---- the packer ---- */

int ibr_plug_pack_start(struct ibr_plug_pack *k, uint8_t type, const uint8_t *fixed,
			int (*emit)(void *ctx, const uint8_t *msg, size_t len), void *ctx,
			uint32_t *seq)
{
	if (!ibr_plug_layout(type, &k->fixed, &k->recsz))
		return -EINVAL;
	k->type = type;
	k->emit = emit;
	k->ctx = ctx;
	k->seq = seq;
	k->count = 0;
	k->err = 0;
	k->started = true;
	k->max_recs = k->recsz ? (IBR_PLUG_MSG_MAX - IBR_PLUG_HDR_LEN - k->fixed) / k->recsz : 0;
	if (k->max_recs > UINT16_MAX)
		k->max_recs = UINT16_MAX;
	memset(k->buf, 0, IBR_PLUG_HDR_LEN + k->fixed);
	if (fixed)
		memcpy(k->buf + IBR_PLUG_HDR_LEN, fixed, k->fixed);
	return 0;
}

static void plug_pack_flush(struct ibr_plug_pack *k, uint16_t flags)
{
	size_t len = IBR_PLUG_HDR_LEN + k->fixed + (size_t)k->count * k->recsz;
	int rc;

	ibr_plug_hdr_put(k->buf, k->type, flags, k->count, (uint32_t)len, k->seq ? (*k->seq)++ : 0);
	if (!k->err && (rc = k->emit(k->ctx, k->buf, len)))
		k->err = rc;
	k->count = 0;
}

uint8_t *ibr_plug_pack_rec(struct ibr_plug_pack *k)
{
	uint8_t *r;

	if (!k->recsz)
		return NULL;
	if (k->count == k->max_recs)
		plug_pack_flush(k, IBR_PLUG_F_MORE);
	r = k->buf + IBR_PLUG_HDR_LEN + k->fixed + (size_t)k->count * k->recsz;
	memset(r, 0, k->recsz);
	k->count++;
	return r;
}

int ibr_plug_pack_end(struct ibr_plug_pack *k)
{
	if (k->started)
		plug_pack_flush(k, 0);
	k->started = false;
	return k->err;
}
