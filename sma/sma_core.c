/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_core.c - the SMA: construction, the one-exit receive chain of
 * sma_process() (length, versions, class, port, R bit, directed-route
 * rules, M_Key, method, attribute), the reply, events and counters.
 *
 * IBA vol. 1: 13.4 (MAD header, methods, status), 14.2.1 (SMP formats),
 * 14.2.2 (directed route), 14.2.4 (M_Key), 14.2.5 (attributes).
 */
#include "sma/sma_int.h"
#include "sma/sma_dr.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *text;
} drop_names[SMA_DROP_MAX] = {
#define SMA_DROP_NAME(id, name, text) [SMA_DROP_##id] = { name, text },
	SMA_DROP_REASONS(SMA_DROP_NAME)
#undef SMA_DROP_NAME
};

const char *sma_drop_name(enum sma_drop why)
{
	return (unsigned int)why < SMA_DROP_MAX ? drop_names[why].name : "unknown";
}

const char *sma_drop_text(enum sma_drop why)
{
	return (unsigned int)why < SMA_DROP_MAX ? drop_names[why].text : "unknown";
}

/* The attributes this SMA knows (14.2.5, and the vendor router attributes). */
static const struct {
	uint16_t id;
	sma_attr_fn fn;
} sma_attrs[] = {
	{ IBR_SMP_ATTR_NODE_DESC, sma_attr_node_desc },
	{ IBR_SMP_ATTR_NODE_INFO, sma_attr_node_info },
	{ IBR_SMP_ATTR_GUID_INFO, sma_attr_guid_info },
	{ IBR_SMP_ATTR_PORT_INFO, sma_attr_port_info },
	{ IBR_SMP_ATTR_PKEY_TABLE, sma_attr_pkey_table },
	{ IBR_SMP_ATTR_SL2VL_TABLE, sma_attr_sl2vl },
	{ IBR_SMP_ATTR_VL_ARB, sma_attr_vlarb },
	{ IBR_SMP_ATTR_SM_INFO, sma_attr_sm_info },
	{ IBR_SMP_ATTR_ROUTER_INFO, sma_attr_router_info },
	{ IBR_SMP_ATTR_NEXT_HOP_TABLE, sma_attr_next_hop },
	{ IBR_SMP_ATTR_ADJ_SITE_LOCAL_SUBNETS, sma_attr_adj_subnets },
};

static int sma_cfg_check(struct sma_node_cfg *c)
{
	if (!c->node_guid || c->num_ports < 1 || c->num_ports > SMA_MAX_PORTS)
		return -EINVAL;
	if (!c->system_image_guid)
		c->system_image_guid = c->node_guid;
	if (!c->device_id)
		c->device_id = SMA_DEVICE_ID_DEFAULT;
	if (!c->vendor_id)
		c->vendor_id = SMA_VENDOR_ID_DEFAULT;
	if (c->vendor_id > 0xFFFFFF)
		return -EINVAL;
	if (!c->next_hop_cap)
		c->next_hop_cap = 1024;
	if (!c->adj_cap)
		c->adj_cap = 64;
	c->node_desc[SMA_NODE_DESC_SIZE] = '\0';
	if (!c->node_desc[0])
		strcpy(c->node_desc, "ibrouterd");
	for (unsigned int i = 0; i < c->num_ports; i++) {
		struct sma_port_cfg *p = &c->ports[i];

		if (!p->guid || p->mtu_cap > 5 || p->vl_cap > 5 ||
		    p->partition_cap > SMA_MAX_PKEYS || p->guid_cap > SMA_MAX_GUIDS)
			return -EINVAL;
		for (unsigned int j = 0; j < i; j++)
			if (c->ports[j].guid == p->guid)
				return -EINVAL;
		if (!p->capmask)
			p->capmask = SMA_CAP_DEFAULT;
		if (!p->mtu_cap)
			p->mtu_cap = 4;
		if (!p->vl_cap)
			p->vl_cap = 1;
		if (!p->partition_cap)
			p->partition_cap = 32;
		if (!p->guid_cap)
			p->guid_cap = 8;
		if (p->set_policy > SMA_SET_OPEN)
			return -EINVAL;
	}
	return 0;
}

struct sma *sma_new(const struct sma_node_cfg *cfg, const struct sma_ops *ops)
{
	struct sma *s;

	if (!cfg) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	if (sma_cfg_check(&s->cfg) < 0) {
		free(s);
		errno = EINVAL;
		return NULL;
	}
	if (ops)
		s->ops = *ops;
	s->log_rl = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(10, 20);
	s->policy_rl = (struct ibr_ratelimit)IBR_RATELIMIT_INIT(1, 10);
	for (unsigned int i = 0; i < s->cfg.num_ports; i++) {
		struct sma_port *p = &s->ports[i];

		p->num = (uint8_t)(i + 1);
		sma_portinfo_init(s, p, &s->cfg.ports[i]);
		sma_tables_init(p, &s->cfg.ports[i]);
	}
	return s;
}

struct sma *sma_renew(const struct sma *old, const struct sma_node_cfg *cfg, const int *from,
		      const struct sma_ops *ops)
{
	struct sma *s = sma_new(cfg, ops);

	if (!s)
		return NULL;
	for (unsigned int i = 0; i < s->cfg.num_ports; i++) {
		int o = from[i];
		struct sma_port_cfg a, b;

		/*
		 * a port configured otherwise (GUID, caps, Set policy, M_Key)
		 * starts anew; the SM_Key SMInfo shows is no state of the port's
		 */
		if (o < 0 || (unsigned int)o >= old->cfg.num_ports)
			continue;
		memcpy(&a, &s->cfg.ports[i], sizeof(a)); /* padding too, for memcmp */
		memcpy(&b, &old->cfg.ports[o], sizeof(b));
		a.sm_key = b.sm_key = 0;
		if (memcmp(&a, &b, sizeof(a)))
			continue;
		s->ports[i] = old->ports[o];
		s->ports[i].num = (uint8_t)(i + 1);
	}
	/* the counters carry on, each port's with its port */
	s->cnt = old->cnt;
	for (unsigned int i = 0; i < SMA_MAX_PORTS; i++) {
		int o = i < s->cfg.num_ports ? from[i] : -1;

		if (o < 0 || (unsigned int)o >= old->cfg.num_ports)
			memset(&s->cnt.port[i], 0, sizeof(s->cnt.port[i]));
		else
			s->cnt.port[i] = old->cnt.port[o];
	}
	return s;
}

void sma_free(struct sma *s)
{
	free(s);
}

struct sma_port *sma_port_lookup(struct sma *s, unsigned int port)
{
	if (port < 1 || port > s->cfg.num_ports)
		return NULL;
	return &s->ports[port - 1];
}

void sma_event_emit(struct sma *s, struct sma_event *ev)
{
	s->cnt.events++;
	if (ev->type == SMA_EV_TRAP_BAD_MKEY)
		s->cnt.traps++;
	if (s->ops.event)
		s->ops.event(s->ops.arg, ev);
}

void sma_port_state_set(struct sma *s, struct sma_port *p, enum sma_port_state st)
{
	enum sma_port_state old = sma_fget(p->pi, IB_PORT_STATE_F);
	struct sma_event ev = { .type = SMA_EV_PORT_STATE, .port = p->num };

	if (old == st)
		return;
	sma_fset(p->pi, IB_PORT_STATE_F, st);
	ev.state = st;
	ev.old_state = old;
	sma_event_emit(s, &ev);
}

int sma_port_set_link(struct sma *s, unsigned int port, bool up, uint64_t now_ns)
{
	struct sma_port *p = sma_port_lookup(s, port);

	if (!p)
		return -EINVAL;
	sma_mkey_lease_run(p, now_ns);
	if (up) {
		/* a trained link: PortState Down -> Init (14.2.5.6, 7.2) */
		if (sma_fget(p->pi, IB_PORT_PHYS_STATE_F) == SMA_PHYS_DISABLED)
			return -EPERM;
		sma_fset(p->pi, IB_PORT_PHYS_STATE_F, SMA_PHYS_LINKUP);
		if (sma_fget(p->pi, IB_PORT_STATE_F) == SMA_PORT_DOWN)
			sma_port_state_set(s, p, SMA_PORT_INIT);
	} else {
		if (sma_fget(p->pi, IB_PORT_PHYS_STATE_F) != SMA_PHYS_DISABLED)
			sma_fset(p->pi, IB_PORT_PHYS_STATE_F, SMA_PHYS_POLLING);
		sma_port_state_set(s, p, SMA_PORT_DOWN);
		/* the link may come back in another subnet, under another SM */
		sma_policy_release(p);
	}
	return 0;
}

int sma_port_release(struct sma *s, unsigned int port)
{
	struct sma_port *p = sma_port_lookup(s, port);

	if (!p)
		return -EINVAL;
	sma_policy_release(p);
	return 0;
}

/*
 * The lease timers; and a port set Down by the SM whose link is still up
 * retrains to Init (7.2: Down is left when the link trains again).
 */
void sma_tick(struct sma *s, uint64_t now_ns)
{
	for (unsigned int i = 0; i < s->cfg.num_ports; i++) {
		struct sma_port *p = &s->ports[i];

		sma_mkey_lease_run(p, now_ns);
		if (sma_fget(p->pi, IB_PORT_STATE_F) == SMA_PORT_DOWN &&
		    sma_fget(p->pi, IB_PORT_PHYS_STATE_F) == SMA_PHYS_LINKUP)
			sma_port_state_set(s, p, SMA_PORT_INIT);
	}
}

int sma_port_get(const struct sma *s, unsigned int port, struct sma_port_view *v)
{
	const struct sma_port *p;

	if (port < 1 || port > s->cfg.num_ports)
		return -EINVAL;
	p = &s->ports[port - 1];
	memset(v, 0, sizeof(*v));
	v->guid = s->cfg.ports[port - 1].guid;
	v->mkey = sma_fget64(p->pi, IB_PORT_MKEY_F);
	v->gid_prefix = sma_fget64(p->pi, IB_PORT_GID_PREFIX_F);
	v->lid = (uint16_t)sma_fget(p->pi, IB_PORT_LID_F);
	v->sm_lid = (uint16_t)sma_fget(p->pi, IB_PORT_SMLID_F);
	v->mkey_lease_period = (uint16_t)sma_fget(p->pi, IB_PORT_MKEY_LEASE_F);
	v->mkey_violations = (uint16_t)sma_fget(p->pi, IB_PORT_MKEY_VIOL_F);
	v->lmc = (uint8_t)sma_fget(p->pi, IB_PORT_LMC_F);
	v->sm_sl = (uint8_t)sma_fget(p->pi, IB_PORT_SMSL_F);
	v->mkey_protect = (uint8_t)sma_fget(p->pi, IB_PORT_MKEY_PROT_BITS_F);
	v->neighbor_mtu = (uint8_t)sma_fget(p->pi, IB_PORT_NEIGHBOR_MTU_F);
	v->oper_vls = (uint8_t)sma_fget(p->pi, IB_PORT_OPER_VLS_F);
	v->subnet_timeout = (uint8_t)sma_fget(p->pi, IB_PORT_SUBN_TIMEOUT_F);
	v->state = sma_fget(p->pi, IB_PORT_STATE_F);
	v->phys_state = (uint8_t)sma_fget(p->pi, IB_PORT_PHYS_STATE_F);
	v->npkeys = p->partition_cap;
	memcpy(v->pkeys, p->pkeys, sizeof(v->pkeys));
	memcpy(v->sl2vl, p->sl2vl, sizeof(v->sl2vl));
	v->nguids = p->guid_cap;
	memcpy(v->guids, p->guids, sizeof(v->guids));
	v->set_policy = s->cfg.ports[port - 1].set_policy;
	v->sm_bound = p->sm_bound;
	v->sm_dr = p->sm_dr;
	v->sm_bound_lid = p->sm_bound_lid;
	v->sm_hops = p->sm_hops;
	v->sets_refused = p->sets_refused;
	return 0;
}

const struct sma_counters *sma_counters_get(const struct sma *s)
{
	return &s->cnt;
}

/* The counters of the arrival port, or NULL when it is out of range. */
static struct sma_port_counters *sma_port_cnt(struct sma *s, const struct sma_rx *rx)
{
	return rx->port >= 1 && rx->port <= s->cfg.num_ports ? &s->cnt.port[rx->port - 1] : NULL;
}

static enum sma_verdict sma_discard(struct sma *s, const struct sma_rx *rx, enum sma_drop reason,
				    enum sma_drop *why)
{
	struct sma_port_counters *pc = sma_port_cnt(s, rx);

	s->cnt.drops[reason]++;
	if (pc)
		pc->drops[reason]++;
	if (why)
		*why = reason;
	if (reason != SMA_DROP_TRAP_REPRESS && ibr_ratelimit_ok(&s->log_rl, rx->now_ns))
		log_debug("sma: port %u: SMP dropped: %s", rx->port, sma_drop_text(reason));
	return SMA_DISCARD;
}

/* The attribute's handler; 0x000C for attributes this SMA does not have. */
static uint16_t sma_dispatch(struct sma_req *r, uint16_t attr_id)
{
	for (size_t i = 0; i < sizeof(sma_attrs) / sizeof(sma_attrs[0]); i++)
		if (sma_attrs[i].id == attr_id)
			return sma_attrs[i].fn(r);
	return IBR_MAD_STATUS_UNSUP_METHOD_ATTR;
}

/* The status of a Get/Set that passed the checks (13.4.7). */
static uint16_t sma_execute(struct sma *s, struct sma_port *p, const uint8_t *req, uint8_t *reply,
			    bool mkey_ok, uint64_t now_ns)
{
	struct sma_req r = {
		.s = s,
		.port = p,
		.mad = req,
		.data = reply + IBR_SMP_DATA_OFFS,
		.method = ibr_mad_method(req),
		.attr_mod = ibr_mad_attr_mod(req),
		.mkey_ok = mkey_ok,
		.now_ns = now_ns,
	};
	uint16_t st;

	if (ibr_mad_class_version(req) != IBR_SMP_CLASS_VERSION)
		st = IBR_MAD_STATUS_BAD_VERSION;
	else if (r.method != IBR_MAD_METHOD_GET && r.method != IBR_MAD_METHOD_SET)
		st = IBR_MAD_STATUS_UNSUP_METHOD;
	else
		return sma_dispatch(&r, ibr_mad_attr_id(req));
	memset(r.data, 0, IBR_SMP_DATA_SIZE);
	return st;
}

/*
 * The LRH DLID is the port's: one of its 2^LMC LIDs from its base LID, or
 * the permissive LID; a port without a LID takes only the permissive LID.
 * An end port's link layer drops every other packet (IBA vol. 1 chapter 7,
 * the DLID check of packet reception): a LID-routed SMP (14.2.1.1) is
 * addressed by its DLID as any packet is, a directed-route SMP by the
 * permissive LID on its directed part and by the port's LID on a LID-routed
 * last part (C14-9:4).  0: the transport has checked it.
 */
static bool sma_dlid_ok(const struct sma_port *p, uint16_t dlid)
{
	uint16_t lid = (uint16_t)sma_fget(p->pi, IB_PORT_LID_F);
	unsigned int lmc = sma_fget(p->pi, IB_PORT_LMC_F);

	if (!dlid || dlid == IBR_LID_PERMISSIVE)
		return true;
	return lid && (uint32_t)dlid - lid < (1u << lmc);
}

/* LRH addresses of the reply: see struct sma_tx. */
static void sma_tx_fill(const struct sma_port *p, const struct sma_rx *rx, bool dr,
			struct sma_tx *tx)
{
	uint16_t lid = (uint16_t)sma_fget(p->pi, IB_PORT_LID_F);

	tx->port = p->num;
	tx->dlid = rx->slid;
	if ((dr && rx->slid == IBR_LID_PERMISSIVE) || !lid)
		tx->slid = IBR_LID_PERMISSIVE;
	else
		tx->slid = lid;
}

enum sma_verdict sma_process(struct sma *s, const struct sma_rx *rx, const void *req, size_t len,
			     uint8_t *reply, struct sma_tx *tx, enum sma_drop *why)
{
	const uint8_t *m = req;
	struct sma_port *p;
	enum sma_drop dr_why = SMA_DROP_DR_REPLY;
	enum sma_mkey_result mk = SMA_MKEY_PASS;
	bool dr;
	uint8_t method;
	uint16_t st;

	s->cnt.rx++;
	if (sma_port_cnt(s, rx))
		sma_port_cnt(s, rx)->rx++;
	if (len != IBR_MAD_SIZE)
		return sma_discard(s, rx, SMA_DROP_LENGTH, why);
	if (ibr_mad_base_version(m) != IBR_MAD_BASE_VERSION)
		return sma_discard(s, rx, SMA_DROP_BASE_VERSION, why);
	if (ibr_mad_mgmt_class(m) != IBR_MGMT_CLASS_SUBN_LID &&
	    ibr_mad_mgmt_class(m) != IBR_MGMT_CLASS_SUBN_DR)
		return sma_discard(s, rx, SMA_DROP_CLASS, why);
	p = sma_port_lookup(s, rx->port);
	if (!p)
		return sma_discard(s, rx, SMA_DROP_PORT, why);
	if (!sma_dlid_ok(p, rx->dlid))
		return sma_discard(s, rx, SMA_DROP_DLID, why);
	if (ibr_mad_is_response(m))
		return sma_discard(s, rx, SMA_DROP_RESPONSE, why);
	dr = ibr_smp_is_dr(m);
	/* the DR rules update HopPointer and ReturnPath: work on the reply copy */
	memcpy(reply, m, IBR_MAD_SIZE);
	if (dr && !sma_dr_recv(reply, p->num, &dr_why))
		return sma_discard(s, rx, dr_why, why);
	if (dr && ibr_smp_dr_direction(reply))
		return sma_discard(s, rx, SMA_DROP_DR_RETURNING, why);
	sma_mkey_lease_run(p, rx->now_ns);
	method = ibr_mad_method(m);
	if (method == IBR_MAD_METHOD_GET || method == IBR_MAD_METHOD_SET ||
	    method == IBR_MAD_METHOD_TRAP_REPRESS) {
		mk = sma_mkey_check(s, p, reply, rx);
		if (mk == SMA_MKEY_FAIL)
			return sma_discard(s, rx, SMA_DROP_MKEY, why);
	}
	if (method == IBR_MAD_METHOD_TRAP_REPRESS) {
		struct sma_event ev = { .type = SMA_EV_TRAP_REPRESS, .port = p->num };

		/* 14.2.5.1: Notice TrapNumber (bytes 4-5 of the data) */
		ev.trap_number = ibr_mad_ld16(m + IBR_SMP_DATA_OFFS + 4);
		sma_event_emit(s, &ev);
		return sma_discard(s, rx, SMA_DROP_TRAP_REPRESS, why);
	}
	/* Send has no response; a Trap is for an SM (its TrapRepress is an SM's to send) */
	if (!ibr_mad_response_method(method) || method == IBR_MAD_METHOD_TRAP)
		return sma_discard(s, rx, SMA_DROP_NO_RESPONSE_METHOD, why);
	if (method == IBR_MAD_METHOD_SET && !sma_policy_set_ok(s, p, reply, rx)) {
		sma_policy_refused(s, p, reply, rx);
		return sma_discard(s, rx, SMA_DROP_SET_POLICY, why);
	}
	st = sma_execute(s, p, m, reply, mk == SMA_MKEY_PASS, rx->now_ns);
	if (method == IBR_MAD_METHOD_SET && st == IBR_MAD_STATUS_OK)
		sma_policy_bind(p, reply);
	/* TID, AttributeID, AttributeModifier and the DR fields are the request's */
	ibr_mad_build_response(reply, reply, IBR_MAD_SIZE, st);
	if (dr && !sma_dr_reply(reply, p->num, &dr_why))
		return sma_discard(s, rx, dr_why, why);
	sma_tx_fill(p, rx, dr, tx);
	s->cnt.replies++;
	s->cnt.port[p->num - 1].replies++;
	if (st)
		s->cnt.replies_error++;
	return SMA_REPLY;
}
