/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_sync.c - the queries of the SA client (15.2.5): a full sync
 * (ClassPortInfo, InformInfo subscription, NodeRecord, PortInfoRecord and
 * MCMemberRecord tables, or LID and MLID walks where tables come back cut),
 * and the query behind one trap.  A sync builds new tables beside the
 * current ones and swaps them in when its last answer is in; answers from
 * an older sync (another generation) are dropped.
 */
#include "sa/sa_int.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_MS   1000000ull
#define WALK_WINDOW 8 /* LIDs or MLIDs asked at once (the channel allows 16 in flight) */
#define MLID_FIRST  0xC000

static void sa_sync_fail(struct sa_client *c, const char *what, int err)
{
	if (!c->sync_err) {
		log_info("sa: %s: sync failed: %s: %s", c->name, what, strerror(-err));
		c->sync_err = err;
	}
}

/* An SA request of `attr` with `comp` and record `rec` (`len` bytes). */
static int sa_query(struct sa_client *c, uint8_t method, uint16_t attr, uint64_t comp,
		    const uint8_t *rec, size_t len, enum sa_req_kind kind,
		    const struct sa_req *tmpl)
{
	uint8_t mad[IBR_MAD_SIZE];
	int rc;

	ibr_mad_build_sa(mad, method, attr, comp, c->cfg.sm_key, 0);
	if (rec)
		memcpy(mad + IBR_SA_DATA_OFFS, rec, len);
	if (len)
		ibr_sa_set_attr_offset(mad, (uint16_t)((len + 7) / 8));
	rc = sa_send(c, mad, kind, tmpl);
	if (rc == 0)
		c->pending++;
	else
		sa_sync_fail(c, "send", rc);
	return rc;
}

/* ---- neighbours ---- */

static void sa_neigh_from_nr(struct sa_client *c, struct sa_neigh_vec *t,
			     const struct ibr_sa_node_rec *nr)
{
	struct sa_neigh n = {
		.guid = nr->port_guid,
		.lid = nr->lid,
		/*
		 * Until its PortInfoRecord says: OpenSM gives every CA and router
		 * port the subnet's one LMC, ours; a switch's port 0 has LMC 0
		 * unless OpenSM runs with lmc_esp0 (a trap 64 asks no
		 * PortInfoRecord).  A smaller LMC than the port's is safe: it
		 * names fewer of the port's LIDs, never another port's.
		 */
		.lmc = nr->node_type == 2 ? 0 : c->ps.lmc,
		.node_type = nr->node_type,
		.port_num = nr->local_port,
	};
	struct sa_neigh *old = sa_neigh_find(t, n.guid);

	if (!nr->lid || !nr->port_guid || nr->port_guid == c->ps.port_guid)
		return; /* an empty slot of a cut table, or ourselves */
	if (old && old->lid == n.lid)
		n.lmc = old->lmc;
	sa_neigh_put(t, &n);
}

static void sa_nr_records(struct sa_client *c, struct sa_neigh_vec *t, const uint8_t *mad,
			  size_t len)
{
	int n = ibr_sa_table_count(mad, len, IBR_SA_NODE_REC_LEN);
	struct ibr_sa_node_rec nr;

	for (int i = 0; i < n; i++)
		if (!ibr_sa_node_rec_decode(ibr_sa_table_rec(mad, len, (unsigned)i),
					    IBR_SA_NODE_REC_LEN, &nr))
			sa_neigh_from_nr(c, t, &nr);
}

/* PortInfoRecords: the LMC of the neighbours whose LID and port they name. */
static void sa_pir_records(struct sa_neigh_vec *t, const uint8_t *mad, size_t len)
{
	int n = ibr_sa_table_count(mad, len, IBR_SA_PORTINFO_REC_LEN);
	struct ibr_sa_portinfo_rec pr;

	for (int i = 0; i < n; i++) {
		if (ibr_sa_portinfo_rec_decode(ibr_sa_table_rec(mad, len, (unsigned)i),
					       IBR_SA_PORTINFO_REC_LEN, &pr) ||
		    !pr.lid)
			continue;
		/*
		 * A switch's LMC is its port 0's: port 0 is the switch's end port,
		 * and every port's record carries the switch's LID while LMC is
		 * reserved (0) on the external ports (14.2.5.6).  A CA's or
		 * router's record is its own port's.
		 */
		for (size_t j = 0; j < t->n; j++)
			if (t->v[j].lid == pr.lid &&
			    (t->v[j].node_type == 2 ? pr.port_num == 0
						    : t->v[j].port_num == pr.port_num))
				t->v[j].lmc = pr.lmc;
	}
}

/*
 * GUIDInfoRecords: a port's alias GUIDs (its GUIDInfo entries past index 0,
 * 14.2.5.5) are neighbours too, with the port's LID: a DGID may carry any of
 * them.  Only alias GUIDs of ports already known are taken.
 */
static void sa_gir_records(struct sa_client *c, struct sa_neigh_vec *t, const uint8_t *mad,
			   size_t len)
{
	int n = ibr_sa_table_count(mad, len, IBR_SA_GUIDINFO_REC_LEN);
	struct ibr_sa_guidinfo_rec g;

	for (int i = 0; i < n; i++) {
		const struct sa_neigh *base = NULL;

		if (ibr_sa_guidinfo_rec_decode(ibr_sa_table_rec(mad, len, (unsigned)i),
					       IBR_SA_GUIDINFO_REC_LEN, &g) ||
		    !g.lid)
			continue;
		for (size_t j = 0; j < t->n && !base; j++)
			if (t->v[j].lid == g.lid && t->v[j].node_type != 2)
				base = &t->v[j];
		for (unsigned k = 0; base && k < 8; k++) {
			struct sa_neigh a = *base;

			if (!g.guid[k] || (g.block == 0 && k == 0) || g.guid[k] == c->ps.port_guid)
				continue;
			a.guid = g.guid[k];
			sa_neigh_put(t, &a);
			base = NULL; /* the put may have moved the table: find it again */
			for (size_t j = 0; j < t->n && !base; j++)
				if (t->v[j].lid == g.lid && t->v[j].node_type != 2 &&
				    t->v[j].guid != g.guid[k])
					base = &t->v[j];
		}
	}
}

/*
 * A port gone (trap 65): its entry and its alias GUIDs, which share its LID
 * (OpenSM reports the port GUID only and drops the aliases silently).
 */
static bool sa_neigh_del_port(struct sa_neigh_vec *t, uint64_t guid)
{
	const struct sa_neigh *e = sa_neigh_find(t, guid);
	uint16_t lid;

	if (!e)
		return false;
	lid = e->lid;
	for (size_t i = 0; i < t->n;)
		if (t->v[i].lid == lid && t->v[i].node_type != 2)
			t->v[i] = t->v[--t->n];
		else
			i++;
	return true;
}

/* ---- groups ---- */

void sa_groups_add_records(struct sa_client *c, struct sa_group_vec *t, const uint8_t *mad,
			   size_t len)
{
	int n = ibr_sa_table_count(mad, len, IBR_SA_MCM_REC_LEN);
	struct ibr_sa_mcm_rec r;
	uint8_t own[16];

	sa_own_gid(c, own);
	for (int i = 0; i < n; i++) {
		struct sa_group *g;

		if (ibr_sa_mcm_rec_decode(ibr_sa_table_rec(mad, len, (unsigned)i),
					  IBR_SA_MCM_REC_LEN, &r) ||
		    !ibr_gid_raw_is_mcast(r.mgid) || !r.mlid)
			continue; /* an empty slot of a cut table */
		g = sa_group_get(t, r.mgid);
		if (!g)
			return;
		g->mlid = r.mlid;
		g->qkey = r.qkey;
		g->pkey = r.pkey;
		g->sl = r.sl;
		g->tclass = r.tclass;
		g->mtu = r.mtu;
		g->rate = r.rate;
		g->scope = r.scope ? r.scope : (uint8_t)(r.mgid[1] & 0x0F);
		g->flowlabel = r.flowlabel;
		if (!memcmp(r.port_gid, own, 16)) {
			g->ours = true;
			continue;
		}
		/* a record without a member (SM_Key not OpenSM's sa_key) still says it exists */
		if (r.port_gid[0] == 0 && r.port_gid[8] == 0 && r.join_state == 0) {
			g->senders = true;
			continue;
		}
		g->members++;
		if (r.join_state & (IBR_SA_JOIN_FULL | IBR_SA_JOIN_NON))
			g->receivers = true;
		g->senders = true;
	}
}

/* ---- walks (tables cut by a transport without RMPP) ---- */

static void sa_walk_start(struct sa_walk *w, uint32_t first, uint32_t max)
{
	*w = (struct sa_walk){
		.active = true, .next = first, .last_found = first - 1, .first = first, .max = max
	};
}

/* Ask the next ids of a walk while the window and the gap allow. */
static void sa_walk_pump(struct sa_client *c, struct sa_walk *w, bool mlids)
{
	while (w->active && !c->sync_err && w->inflight < WALK_WINDOW && w->next <= w->max &&
	       w->next <= w->last_found + c->cfg.walk_gap) {
		struct sa_req q = { .lid = (uint16_t)w->next };

		if (mlids) {
			struct ibr_sa_mcm_rec r = { .mlid = (uint16_t)w->next };
			uint8_t rec[IBR_SA_MCM_REC_LEN];

			ibr_sa_mcm_rec_encode(&r, rec);
			if (sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
				     IBR_SA_MCM_COMP_MLID, rec, sizeof(rec), SA_REQ_MCM_MLID, &q))
				return;
		} else {
			struct ibr_sa_node_rec nr = { .lid = (uint16_t)w->next };
			uint8_t rec[IBR_SA_NODE_REC_LEN];

			ibr_sa_node_rec_encode(&nr, rec);
			if (sa_query(c, IBR_MAD_METHOD_GET, IBR_SA_ATTR_NODE_RECORD,
				     IBR_SA_NR_COMP_LID, rec, sizeof(rec), SA_REQ_NR_LID, &q))
				return;
		}
		w->next++;
		w->inflight++;
	}
	if (w->inflight == 0)
		w->active = false;
}

static void sa_walk_answer(struct sa_client *c, struct sa_walk *w, uint16_t id, bool found)
{
	w->inflight--;
	if (found && id > w->last_found)
		w->last_found = id;
	sa_walk_pump(c, w, w == &c->mlids);
}

static void sa_pir_get(struct sa_client *c, uint16_t lid, uint8_t port)
{
	struct ibr_sa_portinfo_rec pr = { .lid = lid, .port_num = port };
	uint8_t rec[IBR_SA_PORTINFO_REC_LEN];
	struct sa_req q = { .lid = lid, .port = port };

	ibr_sa_portinfo_rec_encode(&pr, rec);
	sa_query(c, IBR_MAD_METHOD_GET, IBR_SA_ATTR_PORT_INFO_RECORD,
		 IBR_SA_PIR_COMP_LID | IBR_SA_PIR_COMP_PORT, rec, sizeof(rec), SA_REQ_PIR_LID, &q);
}

static void sa_gir_get(struct sa_client *c, uint16_t lid)
{
	struct ibr_sa_guidinfo_rec g = { .lid = lid };
	uint8_t rec[IBR_SA_GUIDINFO_REC_LEN];
	struct sa_req q = { .lid = lid };

	ibr_sa_guidinfo_rec_encode(&g, rec);
	sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD, IBR_SA_GIR_COMP_LID,
		 rec, sizeof(rec), SA_REQ_GIR_LID, &q);
}

/* ---- a full sync ---- */

void sa_sync_start(struct sa_client *c, const char *why)
{
	struct ibr_sa_informinfo ii = {
		.lid_begin = 0xFFFF, /* every LID, every generic trap: filtered on arrival */
		.is_generic = true,
		.subscribe = true,
		.type = 0xFFFF,
		.trap_num = 0xFFFF,
		.qpn = 1,
		.producer = 0xFFFFFF,
	};
	uint8_t rec[IBR_SA_INFORMINFO_LEN];

	if (c->phase == SA_PHASE_SYNC && c->pending) {
		c->sync_again = true; /* after this one: it may have read stale records */
		return;
	}
	log_info("sa: %s: sync (%s)", c->name, why);
	c->gen++;
	c->phase = SA_PHASE_SYNC;
	c->sync_start = sa_now(c);
	c->sync_err = 0;
	c->sync_again = false;
	c->pending = 0;
	c->new_n.n = 0;
	c->new_g.n = 0;
	c->lids = (struct sa_walk){ .active = false };
	c->mlids = (struct sa_walk){ .active = false };
	sa_query(c, IBR_MAD_METHOD_GET, IBR_ATTR_CLASS_PORT_INFO, 0, NULL, 0, SA_REQ_CPI, NULL);
	ibr_sa_informinfo_encode(&ii, rec);
	sa_query(c, IBR_MAD_METHOD_SET, IBR_ATTR_INFORM_INFO, 0, rec, sizeof(rec), SA_REQ_SUB,
		 NULL);
	if (c->st.table_mode) {
		/* the PortInfoRecord table follows the NodeRecords (sa_sync_result) */
		sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 0, NULL,
			 IBR_SA_NODE_REC_LEN, SA_REQ_NR_TABLE, NULL);
		sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD, 0, NULL,
			 IBR_SA_MCM_REC_LEN, SA_REQ_MCM_TABLE, NULL);
	} else {
		sa_walk_start(&c->lids, 1, c->cfg.walk_max_lid);
		sa_walk_pump(c, &c->lids, false);
		sa_walk_start(&c->mlids, MLID_FIRST, MLID_FIRST + c->cfg.walk_max_mlids - 1u);
		sa_walk_pump(c, &c->mlids, true);
	}
	if (c->pending == 0)
		sa_sync_done_one(c);
}

static void sa_sync_finish(struct sa_client *c)
{
	struct sa_neigh_vec tn = c->cur_n;
	struct sa_group_vec tg = c->cur_g;
	uint64_t now = sa_now(c);

	if (c->sync_err) {
		c->st.sync_failures++;
		c->phase = SA_PHASE_BACKOFF;
		c->next_retry = now + (uint64_t)c->cfg.backoff_ms * NS_PER_MS;
		return;
	}
	c->cur_n = c->new_n;
	c->new_n = tn;
	c->cur_g = c->new_g;
	c->new_g = tg;
	c->st.syncs++;
	c->st.last_sync_ns = now - c->sync_start;
	c->st.last_sync_done_ns = now;
	c->phase = SA_PHASE_READY;
	c->next_resync = now + (uint64_t)c->cfg.resync_ms * NS_PER_MS;
	log_info("sa: %s: synced: %zu end ports, %zu groups in %.1f ms%s", c->name, c->cur_n.n,
		 c->cur_g.n, (double)c->st.last_sync_ns / 1e6,
		 c->st.table_mode ? "" : " (per-LID: tables come back cut)");
	sa_changed(c, true, true);
	if (c->sync_again)
		sa_sync_start(c, "changed during the last sync");
}

void sa_sync_done_one(struct sa_client *c)
{
	if (c->pending)
		c->pending--;
	if (c->pending == 0 && c->phase == SA_PHASE_SYNC)
		sa_sync_finish(c);
}

/* A cut table: from now on this channel walks (a transport never gains RMPP). */
static void sa_table_cut(struct sa_client *c, enum sa_req_kind kind)
{
	if (c->st.table_mode)
		log_info("sa: %s: tables come back cut after one MAD (no RMPP): walking LIDs",
			 c->name);
	c->st.table_mode = false;
	c->st.truncated_tables++;
	if (kind == SA_REQ_NR_TABLE && !c->lids.active) {
		sa_walk_start(&c->lids, 1, c->cfg.walk_max_lid);
		sa_walk_pump(c, &c->lids, false);
	} else if (kind == SA_REQ_MCM_TABLE && !c->mlids.active) {
		sa_walk_start(&c->mlids, MLID_FIRST, MLID_FIRST + c->cfg.walk_max_mlids - 1u);
		sa_walk_pump(c, &c->mlids, true);
	}
}

void sa_sync_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r)
{
	uint16_t st = r->status == 0 || r->status == -EMSGSIZE ? ibr_mad_status(r->mad) : 0;
	bool none = st == IBR_SA_STATUS_NO_RECORDS, ok = r->status == 0 && st == 0;
	struct ibr_sa_node_rec nr;

	if (q->gen != c->gen)
		return; /* an older sync's answer */
	if (r->status < 0 && r->status != -EMSGSIZE)
		sa_sync_fail(c, "query", r->status);
	/*
	 * An SA error status (Busy, 13.4.7; NO_RESOURCES, REQ_INVALID, ...,
	 * 15.2.1.1) on a table or walk query fails the sync: that part of the
	 * new tables would be empty, and swapping them in would flush the
	 * daemon's neighbours or groups.  NO_RECORDS is an empty answer.
	 * ClassPortInfo and the subscription hold no table, and alias GUIDs
	 * are optional: an SA without GUIDInfoRecords still syncs.
	 */
	if (st && !none && q->kind != SA_REQ_CPI && q->kind != SA_REQ_SUB &&
	    q->kind != SA_REQ_GIR_TABLE && q->kind != SA_REQ_GIR_LID)
		sa_sync_fail(c, ibr_mad_status_name(IBR_MGMT_CLASS_SUBN_ADM, st), -EIO);
	switch (q->kind) {
	case SA_REQ_CPI:
		break;
	case SA_REQ_SUB:
		c->st.subscribed = ok;
		if (r->status == 0 && st)
			log_info("sa: %s: InformInfo subscription refused: status 0x%04x", c->name,
				 st);
		break;
	case SA_REQ_NR_TABLE:
		if (r->status == -EMSGSIZE)
			sa_table_cut(c, q->kind);
		else if (ok) {
			sa_nr_records(c, &c->new_n, r->mad, r->len);
			/* alias GUIDs next: they attach to the ports just read */
			sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_GUID_INFO_RECORD, 0, NULL,
				 IBR_SA_GUIDINFO_REC_LEN, SA_REQ_GIR_TABLE, NULL);
			/*
			 * Asked only now: the LMCs it gives go to the neighbours
			 * these NodeRecords made, and the SA answers in any order
			 * (a PortInfoRecord read first finds no neighbour to go to).
			 */
			sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_PORT_INFO_RECORD, 0, NULL,
				 IBR_SA_PORTINFO_REC_LEN, SA_REQ_PIR_TABLE, NULL);
		}
		break;
	case SA_REQ_PIR_TABLE:
		if (ok)
			sa_pir_records(&c->new_n, r->mad, r->len);
		break;
	case SA_REQ_MCM_TABLE:
		if (r->status == -EMSGSIZE)
			sa_table_cut(c, q->kind);
		else if (ok)
			sa_groups_add_records(c, &c->new_g, r->mad, r->len);
		break;
	case SA_REQ_NR_LID:
		/* the record as long as the answer is: a short one is refused, not read past */
		ok = ok && r->len > IBR_SA_DATA_OFFS &&
		     !ibr_sa_node_rec_decode(r->mad + IBR_SA_DATA_OFFS, r->len - IBR_SA_DATA_OFFS,
					     &nr) &&
		     nr.lid;
		if (ok) {
			sa_neigh_from_nr(c, &c->new_n, &nr);
			if (nr.port_guid != c->ps.port_guid)
				sa_pir_get(c, nr.lid, nr.node_type == 2 ? 0 : nr.local_port);
			if (nr.port_guid != c->ps.port_guid && nr.node_type != 2)
				sa_gir_get(c, nr.lid);
		}
		sa_walk_answer(c, &c->lids, q->lid, ok || (r->status == 0 && !none && st));
		break;
	case SA_REQ_PIR_LID:
		if (ok)
			sa_pir_records(&c->new_n, r->mad, r->len);
		break;
	case SA_REQ_GIR_TABLE:
		if (ok)
			sa_gir_records(c, &c->new_n, r->mad, r->len);
		break;
	case SA_REQ_GIR_LID:
		if (r->status == 0 || r->status == -EMSGSIZE)
			sa_gir_records(c, &c->new_n, r->mad, r->len);
		break;
	case SA_REQ_MCM_MLID: {
		size_t before = c->new_g.n;

		if (r->status == 0 || r->status == -EMSGSIZE)
			sa_groups_add_records(c, &c->new_g, r->mad, r->len);
		sa_walk_answer(c, &c->mlids, q->lid, c->new_g.n > before);
		break;
	}
	default:
		break;
	}
	sa_sync_done_one(c);
}

/* ---- traps ---- */

void sa_sync_trap(struct sa_client *c, uint16_t trap, const uint8_t gid[16])
{
	struct sa_req q = { .lid = 0 };
	bool changed = false;

	if (c->phase == SA_PHASE_SYNC)
		c->sync_again = true; /* the sync may have read the records before the change */
	memcpy(q.gid, gid, 16);
	switch (trap) {
	case IBR_TRAP_GID_IN_SERVICE: {
		struct ibr_sa_node_rec nr = { .port_guid = ibr_mad_ld64(gid + 8) };
		uint8_t rec[IBR_SA_NODE_REC_LEN];

		if (nr.port_guid == c->ps.port_guid)
			return; /* our own port is never a neighbour */
		ibr_sa_node_rec_encode(&nr, rec);
		sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_NODE_RECORD, 1ull << 8, rec,
			 sizeof(rec), SA_REQ_NR_GUID, &q);
		return;
	}
	case IBR_TRAP_GID_OUT_OF_SERVICE:
		changed = sa_neigh_del_port(&c->cur_n, ibr_mad_ld64(gid + 8));
		sa_neigh_del_port(&c->new_n, ibr_mad_ld64(gid + 8));
		break;
	case IBR_TRAP_MCG_CREATED: {
		struct ibr_sa_mcm_rec r = { .mlid = 0 };
		uint8_t rec[IBR_SA_MCM_REC_LEN];

		memcpy(r.mgid, gid, 16);
		ibr_sa_mcm_rec_encode(&r, rec);
		sa_query(c, IBR_MAD_METHOD_GET_TABLE, IBR_SA_ATTR_MCMEMBER_RECORD,
			 IBR_SA_MCM_COMP_MGID, rec, sizeof(rec), SA_REQ_MCM_MGID, &q);
		return;
	}
	case IBR_TRAP_MCG_DELETED:
		changed = sa_group_del(&c->cur_g, gid);
		sa_group_del(&c->new_g, gid);
		if (changed)
			sa_changed(c, false, true);
		return;
	default:
		return;
	}
	if (changed)
		sa_changed(c, true, false);
}

void sa_trap_result(struct sa_client *c, struct sa_req *q, const struct mad_chan_result *r)
{
	uint16_t st = r->status == 0 || r->status == -EMSGSIZE ? ibr_mad_status(r->mad) : 0;
	bool got = (r->status == 0 || r->status == -EMSGSIZE) && st == 0;

	if (c->pending && q->gen == c->gen && q->kind != SA_REQ_JOIN && q->kind != SA_REQ_LEAVE)
		c->pending--; /* sa_query() counted it */
	/*
	 * A sync in progress may have read the groups before this join or
	 * leave, and its tables, swapped in at its end, would not hold it:
	 * another sync follows.
	 */
	if (got && (q->kind == SA_REQ_JOIN || q->kind == SA_REQ_LEAVE) && c->phase == SA_PHASE_SYNC)
		c->sync_again = true;
	if (q->kind == SA_REQ_NR_GUID && got) {
		sa_nr_records(c, &c->cur_n, r->mad, r->len);
		sa_changed(c, true, false);
	} else if ((q->kind == SA_REQ_MCM_MGID || q->kind == SA_REQ_JOIN) && got) {
		struct sa_group *g = sa_group_find(&c->cur_g, q->gid);
		struct sa_group_vec one = { .n = 0 };

		/* rebuild the group from this answer alone: members may have left */
		sa_groups_add_records(c, &one, r->mad, r->len);
		if (q->kind == SA_REQ_JOIN && one.n) /* the answer is our own record */
			one.v[0].ours = true;
		if (one.n && g && q->kind == SA_REQ_JOIN) {
			g->ours = true;
			g->mlid = one.v[0].mlid;
		} else if (one.n && g) {
			*g = one.v[0];
		} else if (one.n && (g = sa_group_get(&c->cur_g, q->gid))) {
			*g = one.v[0];
		}
		free(one.v);
		sa_changed(c, false, true);
	} else if (q->kind == SA_REQ_LEAVE && got) {
		struct sa_group *g = sa_group_find(&c->cur_g, q->gid);

		if (g)
			g->ours = false;
		/* the daemon feeds a group of ours as one with receivers: it must hear we left */
		if (g)
			sa_changed(c, false, true);
	} else if (!got && (q->kind == SA_REQ_JOIN || q->kind == SA_REQ_LEAVE)) {
		log_info("sa: %s: %s refused: %s status 0x%04x", c->name,
			 q->kind == SA_REQ_JOIN ? "join" : "leave",
			 r->status < 0 ? strerror(-r->status) : "SA", st);
	}
	if (c->pending == 0 && c->phase == SA_PHASE_SYNC && q->gen == c->gen &&
	    (q->kind == SA_REQ_NR_GUID || q->kind == SA_REQ_MCM_MGID))
		sa_sync_finish(c);
}
