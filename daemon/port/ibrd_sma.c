/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_sma.c - the SMA on the sim data path: SMPs (VL15, QP0) received by a
 * worker are queued to the control thread (the SMA is single-threaded),
 * answered with sma_process(), and the reply goes back out of the same port
 * as a whole packet (LRH on VL15, BTH, DETH, the MAD, ICRC, VCRC).  What
 * the SM sets (LID, LMC, GidPrefix) reaches the forwarding tables as RIB
 * changes: the next forwarded packet carries the new SLID; and at the end of
 * each turn the SMA's PortInfo is set from the RIB port, whoever changed it
 * (ibrd_sma_sync: one state).  The vendor router tables are each port's,
 * built from the RIB at their pace (ibrd_sma_tables.c).  Who may Set (sma-set-policy, sma-mkey) is the SMA's
 * (sma/sma_policy.c); what was lost around the SMA is counted by port and
 * reason (ibrd_sma_losses; show sma [drops] and sma release, its control
 * commands, are in daemon/cmd/ibrd_cmd_sma.c).
 */
#include "daemon/port/ibrd_port.h"

#include "lib/crc/ibr_crc.h"
#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "lib/ibr_mad.h"
#include "lib/ibr_pkt.h"
#include "sa/sa_client.h"
#include "sma/sma.h"
#include "sma/sma_pma.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define SMP_OFF	    (IBR_LRH_LEN + IBR_BTH_LEN + IBR_DETH_LEN) /* the MAD in a VL15 packet */
#define SMP_PKT_LEN (SMP_OFF + IBR_MAD_SIZE + IBR_ICRC_LEN + IBR_VCRC_LEN)
#define SMA_QUEUE   256

struct ibrd_smp {
	uint8_t port; /* router port index */
	uint32_t len;
	uint8_t pkt[SMP_PKT_LEN];
};

/* Worker side: copy the packet into the queue and wake the control thread. */
static void sma_hook(void *ctx, const struct router_mbuf *m, int reason)
{
	struct ibrd *d = ctx;
	uint64_t one = 1;

	(void)reason;
	if (m->port >= ROUTER_MAX_PORTS)
		return;
	pthread_mutex_lock(&d->agents->smp_lock);
	if (m->len > SMP_PKT_LEN) {
		d->agents->smp_lost[m->port][IBRD_SMP_NOT_SMP]++;
	} else if (d->agents->smp_n >= SMA_QUEUE) {
		d->agents->smp_lost[m->port][IBRD_SMP_QUEUE_FULL]++; /* the SM retries */
	} else {
		struct ibrd_smp *q =
			&d->agents->smp_q[(d->agents->smp_head + d->agents->smp_n++) % SMA_QUEUE];

		q->port = m->port;
		q->len = m->len;
		memcpy(q->pkt, m->data, m->len);
	}
	pthread_mutex_unlock(&d->agents->smp_lock);
	if (write(d->agents->smp_efd, &one, sizeof(one)) < 0) {
		/* the counter is saturated: the control thread is awake anyway */
	}
}

void ibrd_sma_hooks(struct ibrd *d, struct router_worker *w)
{
	if (d->agents->sma) {
		w->sma_hook = sma_hook;
		w->local_hook = sma_hook; /* GMPs for the PMA (ibrd_pma.c) ride the same queue */
	}
}

/*
 * An SMP of the SMA's (a reply, a trap) out of sim data port `idx` as a
 * whole packet: LRH on VL15 from tx->slid to tx->dlid, BTH, DETH, the MAD,
 * ICRC, VCRC.  The sim wire drops what its peer cannot take (MSG_DONTWAIT).
 * 0 or -errno (-EINVAL: no such sim port).
 */
static int sma_sim_send(struct ibrd *d, uint32_t idx, const struct sma_tx *tx, const uint8_t *mad)
{
	struct ibr_pkt_ud_params r = { .vl = IBR_VL15,
				       .slid = tx->slid,
				       .dlid = tx->dlid,
				       .pkey = IBR_PKEY_DEFAULT,
				       .payload = mad,
				       .payload_len = IBR_MAD_SIZE };
	uint8_t out[SMP_PKT_LEN + 8];
	int len;

	if (idx >= d->conf->nports || !d->data->sim_open[idx])
		return -EINVAL;
	len = ibr_pkt_build_ud(out, sizeof(out), &r);
	return len > 0 ? io_sim_send(&d->data->sim[idx], out, (size_t)len) : len;
}

/*
 * Trap 256 (bad M_Key, IBA 14.2.4.3) to the port's master SM: on its MAD
 * channel (ibsim, the lab) or, on a sim data port, as a VL15 packet out of
 * it.  Logged either way; one that cannot go (no SM LID yet) only logged.
 */
static void sma_trap_send(struct ibrd *d, uint32_t idx, const struct sma_event *ev)
{
	uint8_t mad[IBR_MAD_SIZE];
	struct sma_tx tx;
	int rc;

	if ((rc = sma_trap_bad_mkey_build(d->agents->sma, ev, ++d->agents->sma_trap_tid, mad,
					  &tx))) {
		log_warnx("sma: port %s: bad M_Key from LID 0x%04x: no trap (%s)",
			  d->rib.port[idx].name, ev->trap.lid, strerror(-rc));
		return;
	}
	if ((rc = ibrd_mad_send_smp(d, idx, mad, tx.dlid)) == -ENOENT && d->data->sim_open[idx])
		rc = sma_sim_send(d, idx, &tx, mad);
	log_warnx("sma: port %s: bad M_Key from LID 0x%04x (attribute 0x%04x): trap 256 to the "
		  "SM at LID 0x%04x%s%s",
		  d->rib.port[idx].name, ev->trap.lid, ev->trap.attr_id, tx.dlid,
		  rc ? ": not sent: " : "", rc ? strerror(-rc) : "");
}

/*
 * The non-empty P_Keys of a table (base 0 is an empty entry), "0xffff<sep>0x8001" into buf;
 * false when they did not all fit.
 */
bool ibrd_sma_pkeys_str(const uint16_t *pk, unsigned n, const char *sep, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		if (!(pk[i] & 0x7FFF))
			continue;
		if (len + strlen(sep) + 7 > size)
			return false;
		len += (size_t)snprintf(buf + len, size - len, "%s0x%04x", len ? sep : "", pk[i]);
	}
	return true;
}

/* The alias GUIDs of a GUIDInfo table (entries 1 and up that are set); *count of them. */
bool ibrd_sma_guids_str(const uint64_t *g, unsigned n, const char *sep, char *buf, size_t size,
			unsigned *count)
{
	size_t len = 0;
	bool all = true;

	buf[0] = '\0';
	*count = 0;
	for (unsigned i = 1; i < n; i++) {
		if (!g[i])
			continue;
		++*count;
		if (len + strlen(sep) + 19 > size)
			all = false;
		else
			len += (size_t)snprintf(buf + len, size - len, "%s0x%016llx",
						len ? sep : "", (unsigned long long)g[i]);
	}
	return all;
}

/*
 * The P_Key table the SM set (PKeyTable Set, 14.2.5.7) becomes the port's:
 * packets leave the port only with one of its P_Keys (10.9.3), as on an
 * end port, whose table only its SM writes.  Empty entries (base 0) and a
 * second entry of one base are not P_Keys to check.  A table the file gives
 * (pkeys) is the starting point; the SM's replaces it until a reload.
 */
static void sma_pkeys_apply(struct router_port *p, const struct sma_event *ev)
{
	char buf[256];
	bool all;

	p->npkeys = 0;
	for (unsigned i = 0; i < ev->npkeys; i++)
		router_port_pkey_add(p, ev->pkeys[i]); /* an empty or repeated entry: skipped */
	p->flags |= ROUTER_PORT_PKEY_CHECK;
	all = ibrd_sma_pkeys_str(p->pkeys, p->npkeys, " ", buf, sizeof(buf));
	log_info("sma: port %s: P_Key table from the SM (%u):%s%s%s", p->name, p->npkeys,
		 buf[0] ? " " : "", buf, all ? "" : " ...");
}

/* The alias GUIDs the SM set (GUIDInfo Set, 14.2.5.5), logged: show sma lists them. */
static void sma_guids_log(const struct router_port *p, const struct sma_event *ev)
{
	char buf[160];
	unsigned n;
	bool all = ibrd_sma_guids_str(ev->guids, ev->nguids, " ", buf, sizeof(buf), &n);

	log_info("sma: port %s: alias GUIDs from the SM (%u):%s%s%s", p->name, n, buf[0] ? " " : "",
		 buf, all ? "" : " ...");
}

/* The SMA's changes, applied to the router port and published. */
static void sma_event(void *arg, const struct sma_event *ev)
{
	struct ibrd *d = arg;
	uint32_t idx = ev->port - 1u;
	struct router_port p;

	if (idx >= d->rib.nports)
		return;
	p = d->rib.port[idx];
	switch (ev->type) {
	case SMA_EV_LID:
		log_info("sma: port %s: LID 0x%04x LMC %u", p.name, ev->lid, ev->lmc);
		p.lid = ev->lid;
		p.lmc = ev->lmc;
		break;
	case SMA_EV_GID_PREFIX:
		log_info("sma: port %s: subnet prefix 0x%016llx", p.name,
			 (unsigned long long)ev->gid_prefix);
		p.prefix = ev->gid_prefix;
		break;
	case SMA_EV_PORT_STATE:
		log_info("sma: port %s: state %d -> %d", p.name, ev->old_state, ev->state);
		return;
	case SMA_EV_PKEYS:
		sma_pkeys_apply(&p, ev);
		break;
	case SMA_EV_ALIAS_GUIDS:
		sma_guids_log(&p, ev);
		return;
	case SMA_EV_TRAP_BAD_MKEY:
		sma_trap_send(d, idx, ev);
		return;
	case SMA_EV_CLIENT_REREG:
		/* the SM lost its subscriptions and groups: register them again (IBA 14.4.11) */
		log_info("sma: port %s: ClientReregister%s", p.name,
			 d->sa[idx] ? ": the SA client resyncs" : " (no SA client)");
		if (d->sa[idx])
			sa_client_resync(d->sa[idx], "ClientReregister");
		return;
	default:
		log_debug("sma: port %s: event %d", p.name, ev->type);
		return;
	}
	router_rib_port_set(&d->rib, idx, &p);
	ibrd_port_changed(d, idx);
}

/*
 * After each turn (ibrd_sync.c), once the RIB is what the workers forward
 * with: the SMA's PortInfo shows each RIB port (its LID, LMC, prefix, and
 * Active while it forwards: one state, whoever set it; ibrouterd.conf(5),
 * "The SMA and the port"), and the vendor tables are compared with what
 * they were when the RIB or a master SM LID last moved (the table-change
 * mask of RouterInfo).  The tables are read by an SM's SMPs alone: under a
 * burst of changes they are rebuilt at their pace (ibrd_pace), and before
 * an SMP that reads them is answered (ibrd_sma_tables_fresh), so that no
 * SM ever reads them stale.
 */
void ibrd_sma_sync(struct ibrd *d)
{
	if (!d->agents->sma)
		return;
	for (uint32_t i = 0; i < d->rib.nports; i++) {
		const struct router_port *p = &d->rib.port[i];
		struct sma_port_fwd f = { .lid = p->lid,
					  .lmc = p->lmc,
					  .gid_prefix = p->prefix,
					  .forwarding = ibrd_port_forwards(p) };

		sma_port_sync(d->agents->sma, i + 1, &f);
	}
	ibrd_sma_tables_sync(d, true);
}

/* The SMA's view of config `c`: the node, its ports' GUIDs and Set policies. */
static void sma_node_cfg_of(const struct ibrd_conf *c, struct sma_node_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->node_guid = c->node_guid;
	cfg->system_image_guid = c->system_image_guid;
	snprintf(cfg->node_desc, sizeof(cfg->node_desc), "%s", c->node_desc);
	cfg->num_ports = c->nports;
	cfg->next_hop_cap = IBRD_SMA_NH_CAP;
	for (unsigned i = 0; i < c->nports; i++) {
		const struct ibrd_conf_port *cp = &c->port[i];

		cfg->ports[i].guid = cp->rp.guid;
		cfg->ports[i].set_policy = cp->sma_set_policy == IBRD_SMA_OPEN ? SMA_SET_OPEN
									       : SMA_SET_MASTER_SM;
		cfg->ports[i].mkey = cp->sma_mkey;
		/* IsSM on ibsim ports only (ibrd_mad.c): there SMInfo carries the SM_Key */
		if (cp->mad == IBRD_MAD_IBSIM) {
			cfg->ports[i].capmask = SMA_CAP_DEFAULT | SMA_CAP_IS_SM;
			cfg->ports[i].sm_key = c->sm_key;
		}
	}
}

/* The links of config `c`'s sim ports are up (a verbs port's is its HCA's). */
static void sma_links_up(struct sma *s, const struct ibrd_conf *c)
{
	struct sma_port_view v;

	for (unsigned i = 0; i < c->nports; i++)
		if (c->port[i].data == IBRD_DATA_SIM && sma_port_get(s, i + 1, &v) == 0 &&
		    v.phys_state != 5 /* LinkUp */)
			sma_port_set_link(s, i + 1, true, ibr_now_ns());
}

struct ibrd_agents *ibrd_agents_new(void)
{
	struct ibrd_agents *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	pthread_mutex_init(&x->smp_lock, NULL);
	x->smp_efd = -1;
	return x;
}

void ibrd_agents_free(struct ibrd_agents *x)
{
	if (!x)
		return;
	pthread_mutex_destroy(&x->smp_lock);
	free(x);
}

int ibrd_sma_start(struct ibrd *d)
{
	struct sma_node_cfg cfg;
	struct sma_ops ops = { .arg = d,
			       .event = sma_event,
			       .next_hops = ibrd_sma_next_hops,
			       .adj_subnets = ibrd_sma_adj_subnets };
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &d->agents->ev_sma };

	sma_node_cfg_of(d->conf, &cfg);
	if (!(d->agents->sma_tabs = ibrd_sma_tables_new()))
		return -ENOMEM;
	if (!(d->agents->sma = sma_new(&cfg, &ops)))
		return -errno;
	if (ibrd_pma_start(d))
		return -ENOMEM;
	sma_links_up(d->agents->sma, d->conf);
	d->agents->sma_tables_key = 0;
	ibrd_sma_sync(d);
	d->agents->smp_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	d->agents->ev_sma.kind = IBRD_EV_SMA;
	d->agents->smp_q = calloc(SMA_QUEUE, sizeof(*d->agents->smp_q));
	if (!d->agents->smp_q || d->agents->smp_efd < 0 ||
	    epoll_ctl(d->epfd, EPOLL_CTL_ADD, d->agents->smp_efd, &ev) < 0)
		return -ENOMEM;
	return 0;
}

struct sma *ibrd_sma_renew(struct ibrd *d, const struct ibrd_conf *nc, const int *from)
{
	struct sma_node_cfg cfg;
	struct sma_ops ops = { .arg = d,
			       .event = sma_event,
			       .next_hops = ibrd_sma_next_hops,
			       .adj_subnets = ibrd_sma_adj_subnets };
	struct sma *s;

	sma_node_cfg_of(nc, &cfg);
	if (!(s = sma_renew(d->agents->sma, &cfg, from, &ops)))
		return NULL;
	sma_links_up(s, nc);
	return s;
}

void ibrd_sma_swap(struct ibrd *d, struct sma *s)
{
	uint64_t lost[ROUTER_MAX_PORTS][IBRD_SMP_LOSS_MAX];
	struct sma_port_view nv, ov;
	int from[ROUTER_MAX_PORTS];
	unsigned n = 0;

	/* the daemon's loss counts and the PMA's clears follow their port (by its GUID),
	 * as the SMA's own counts do */
	memset(lost, 0, sizeof(lost));
	for (unsigned i = 0; i < ROUTER_MAX_PORTS && sma_port_get(s, i + 1, &nv) == 0; i++, n++) {
		from[i] = -1;
		for (unsigned j = 0;
		     j < ROUTER_MAX_PORTS && sma_port_get(d->agents->sma, j + 1, &ov) == 0; j++)
			if (nv.guid == ov.guid) {
				memcpy(lost[i], d->agents->smp_lost[j], sizeof(lost[i]));
				from[i] = (int)j;
			}
	}
	pthread_mutex_lock(&d->agents->smp_lock);
	memcpy(d->agents->smp_lost, lost, sizeof(lost));
	pthread_mutex_unlock(&d->agents->smp_lock);
	ibrd_pma_renew(d, n, from);
	sma_free(d->agents->sma);
	d->agents->sma = s;
	d->agents->sma_tables_key = 0; /* its tables are seen again at the turn's end */
	d->agents->sma_pace.next_ns = 0;
}

void ibrd_sma_stop(struct ibrd *d)
{
	ibrd_pma_stop(d);
	sma_free(d->agents->sma);
	d->agents->sma = NULL;
	ibrd_sma_tables_free(d->agents->sma_tabs);
	d->agents->sma_tabs = NULL;
	free(d->agents->smp_q);
	d->agents->smp_q = NULL;
	if (d->agents->smp_efd >= 0)
		close(d->agents->smp_efd);
	d->agents->smp_efd = -1;
}

/*
 * One queued packet: a VL15 UD packet to QP0 with a 256-byte MAD (IBA 14.2:
 * SMPs travel on VL15, LNH 2, no GRH); its ICRC is checked here, the SMA
 * being its end node.  The reply leaves on VL15 from QP0 to QP0.
 */
static void sma_one(struct ibrd *d, const struct ibrd_smp *q)
{
	struct ibr_pkt p;
	struct sma_rx rx = { .port = (uint8_t)(q->port + 1), .now_ns = ibr_now_ns() };
	struct sma_tx tx;
	enum sma_drop why;
	uint8_t reply[IBR_MAD_SIZE];
	int rc;

	if (q->len >= IBR_LRH_LEN && ibr_lrh_get_vl((const struct ibr_lrh *)q->pkt) != IBR_VL15) {
		ibrd_pma_one(d, q->port, q->pkt, q->len); /* the router's own: a GMP or nothing */
		return;
	}
	if (ibr_pkt_parse(q->pkt, q->len, &p) || p.lnh != IBR_LNH_IBA_LOCAL || !p.deth ||
	    ibr_bth_get_destqp(p.bth) != IBR_QP0 || p.payload_len != IBR_MAD_SIZE) {
		ibrd_smp_lost(d, q->port, IBRD_SMP_NOT_SMP);
		return;
	}
	if (ibr_pkt_crc_check(&p)) {
		ibrd_smp_lost(d, q->port, IBRD_SMP_CRC);
		return;
	}
	rx.slid = ibr_lrh_get_slid(p.lrh);
	rx.dlid = ibr_lrh_get_dlid(p.lrh); /* checked by the SMA: a sim port has no link layer */
	ibrd_sma_tables_fresh(d, p.payload);
	if (sma_process(d->agents->sma, &rx, p.payload, p.payload_len, reply, &tx, &why) !=
	    SMA_REPLY)
		return; /* counted by the SMA under its reason */
	/* a reply the wire did not take is counted: the SM retries */
	rc = tx.port >= 1 ? sma_sim_send(d, tx.port - 1u, &tx, reply) : -EINVAL;
	if (rc)
		ibrd_smp_lost(d, q->port, ibrd_smp_reply_loss(rc));
}

/* Control thread: answer every queued SMP (what they changed is published at the turn's end). */
void ibrd_sma_event(struct ibrd *d)
{
	uint64_t v;

	if (read(d->agents->smp_efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return;
	for (;;) {
		struct ibrd_smp q;

		pthread_mutex_lock(&d->agents->smp_lock);
		if (!d->agents->smp_n) {
			pthread_mutex_unlock(&d->agents->smp_lock);
			break;
		}
		q = d->agents->smp_q[d->agents->smp_head];
		d->agents->smp_head = (d->agents->smp_head + 1) % SMA_QUEUE;
		d->agents->smp_n--;
		pthread_mutex_unlock(&d->agents->smp_lock);
		sma_one(d, &q);
	}
}

/* SMPs of port i the SMA or the daemon dropped, and the replies lost (copies taken under smp_lock). */
void ibrd_sma_losses(struct ibrd *d, uint32_t i, uint64_t lost[IBRD_SMP_LOSS_MAX])
{
	pthread_mutex_lock(&d->agents->smp_lock);
	memcpy(lost, d->agents->smp_lost[i], sizeof(d->agents->smp_lost[i]));
	pthread_mutex_unlock(&d->agents->smp_lock);
}
