/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_sa_client.c - libFuzzer target for the SA client (sa/sa_client.c,
 * sa/sa_sync.c) on a real MAD channel (mad/mad_chan.c) over a fake transport
 * and a fake clock.
 *
 * The first input byte picks the mode: bit 0 set, umad2sim-like (the
 * transport has no RMPP and every GetTable answer comes back cut after its
 * first MAD, LAB.md); clear, kernel RMPP (a GetTable answer is one
 * reassembled message of any length).  The client is created and its port
 * poll answered (LID 8, SM LID 2, Active), so that its first sync is in
 * flight.  The rest is a script of records [op][len:2][len bytes]:
 *   op&7 = 0  answer in-flight request number op>>3 (modulo their count)
 *             with a well-formed response (TID, class, attribute echoed;
 *             a GetTable answer cut or reassembled as the mode says) whose
 *             status is bytes[0..1] and whose data (SA records, SMP data)
 *             are the other bytes
 *          1  the bytes as a raw MAD of len bytes, TID patched to that
 *             request's
 *          2  an SA Report(Notice) with the bytes as its Notice
 *          3  the bytes as a raw unsolicited MAD
 *          4  advance the clock by len ms and run the timers (no bytes)
 *          5  sa_client_resync() (no bytes)
 *          6  sa_client_join() (op bit 3 clear) or leave() of the MGID in
 *             the bytes, JoinState op>>4
 *          7  the SMA answers the port polls in flight with a sane port
 *             (no bytes)
 * The client reads the other routers' route announcements every second
 * (sa_peers.c): their ServiceRecord Gets are answered as any request.
 * Checks: the tables hold no entry of ours or without a GUID/LID (after each
 * step and in every changed callback), no peer is ours or announces a
 * prefix with bits past its length, a length past 64 or a metric outside
 * 1..16 (after each step and in every peers callback), only traps 64-67 reach the report
 * callback, the channel bounds hold, and after sa_client_free() and mad_chan_destroy() every request
 * context is freed (LeakSanitizer).
 *
 * run.sh compiles only lib/, router/ and sma/: the sa/ sources are included.
 */
#include "mad/mad_chan.c"
#include "mad/mad_rmpp.c"
#include "sa/sa_client.c"
#include "sa/sa_sync.c"
#include "sa/sa_announce.c"
#include "sa/sa_peers.c"
#include "sa/sa_io.c"
#include "sa/sa_tables.c"

#define FZ_TP_MIN_SEND IBR_MAD_SIZE /* the client and the channel send whole MADs only */
#include "tests/fuzz/fuzz_mad_tp.h"

#define FZ_GUID	   0x0002c90000000401ull
#define FZ_PREFIX  0xfec0000000000001ull
#define FZ_MAX_OUT 16

static uint64_t fz_report_tid;
static bool fz_cut;

static const struct mad_transport_ops fz_ops_rmpp = FZ_TP_OPS("fuzz-rmpp", MAD_TP_RMPP);
static const struct mad_transport_ops fz_ops_cut = FZ_TP_OPS("fuzz-cut", 0);

static void fz_log(int pri, const char *msg)
{
}

/* In-flight request number `sel` (modulo their count), or NULL. */
static struct chan_req *fz_req(struct mad_chan *ch, unsigned int sel)
{
	struct chan_req *r;
	unsigned int i = 0;

	if (!ch->n_flight)
		return NULL;
	sel %= ch->n_flight;
	TAILQ_FOREACH(r, &ch->flight, link)
	if (i++ == sel)
		return r;
	return NULL;
}

static void fz_input(struct mad_chan *ch, const uint8_t *m, size_t len, bool sa)
{
	const struct mad_addr from = {
		.lid = sa ? 2 : 0xFFFF, .local_lid = 8, .qpn = sa ? 1 : 0, .local_qpn = sa ? 1 : 0
	};

	mad_chan_input(ch, m, len, &from);
}

/* The record size of an SA attribute's GetTable answers, in 8-byte words. */
static uint16_t fz_stride(uint16_t attr)
{
	switch (attr) {
	case IBR_SA_ATTR_NODE_RECORD:
		return (IBR_SA_NODE_REC_LEN + 7) / 8;
	case IBR_SA_ATTR_PORT_INFO_RECORD:
		return IBR_SA_PORTINFO_REC_LEN / 8;
	case IBR_SA_ATTR_MCMEMBER_RECORD:
		return (IBR_SA_MCM_REC_LEN + 7) / 8;
	case IBR_ATTR_INFORM_INFO:
		return (IBR_SA_INFORMINFO_LEN + 7) / 8;
	case IBR_SA_ATTR_SERVICE_RECORD:
		return IBR_SA_SERVICE_REC_LEN / 8;
	default:
		return IBR_SA_CLASSPORTINFO_LEN / 8;
	}
}

/* A well-formed answer to request r, with fuzz status and data. */
static void fz_answer(struct mad_chan *ch, struct chan_req *r, const uint8_t *p, size_t n)
{
	bool sa = ibr_mad_mgmt_class(r->mad) == IBR_MGMT_CLASS_SUBN_ADM;
	bool table = sa && ibr_mad_method(r->mad) == IBR_MAD_METHOD_GET_TABLE;
	size_t offs = sa ? IBR_SA_DATA_OFFS : IBR_SMP_DATA_OFFS, len = IBR_MAD_SIZE, alloc;
	uint16_t status = n >= 2 ? ibr_mad_ld16(p) : 0;
	uint8_t *m;

	p += n >= 2 ? 2 : n;
	n -= n >= 2 ? 2 : n;
	if (table && !fz_cut)
		len = offs + n;
	if (!table && n > IBR_MAD_SIZE - offs)
		n = IBR_MAD_SIZE - offs;
	alloc = len > IBR_MAD_SIZE ? len : IBR_MAD_SIZE;
	m = calloc(1, alloc);
	if (!m || ibr_mad_build_response(m, r->mad, IBR_MAD_SIZE, status))
		abort();
	memset(m + offs, 0, alloc - offs);
	memcpy(m + offs, p, n < alloc - offs ? n : alloc - offs);
	if (sa) {
		ibr_sa_set_attr_offset(m, fz_stride(ibr_mad_attr_id(m)));
		if (table && fz_cut) {
			ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE); /* version 0 */
		} else if (table) {
			ibr_rmpp_set_version(m, IBR_RMPP_VERSION);
			ibr_rmpp_set_type(m, IBR_RMPP_TYPE_DATA);
			ibr_rmpp_set_flags(m, IBR_RMPP_FLAG_ACTIVE | IBR_RMPP_FLAG_FIRST |
						      IBR_RMPP_FLAG_LAST);
		}
	}
	fz_input(ch, m, len, sa);
	free(m);
}

/* The bytes as a MAD of exactly n bytes (ASan sees overreads), TID patched when r. */
static void fz_raw(struct mad_chan *ch, const struct chan_req *r, const uint8_t *p, size_t n)
{
	uint8_t *m = malloc(n ? n : 1);

	if (!m)
		abort();
	memcpy(m, p, n);
	if (r && n >= 16)
		ibr_mad_set_tid(m, ibr_mad_tid(r->mad));
	fz_input(ch, m, n, !r || ibr_mad_mgmt_class(r->mad) != IBR_MGMT_CLASS_SUBN_DR);
	free(m);
}

static void fz_report(struct mad_chan *ch, const uint8_t *p, size_t n)
{
	uint8_t m[IBR_MAD_SIZE];

	ibr_mad_build_report(m, IBR_MGMT_CLASS_SUBN_ADM, IBR_ATTR_NOTICE, ++fz_report_tid);
	memcpy(m + IBR_SA_DATA_OFFS, p, n < IBR_SA_DATA_SIZE ? n : IBR_SA_DATA_SIZE);
	fz_input(ch, m, IBR_MAD_SIZE, true);
}

/* Our SMA: NodeInfo and a usable PortInfo for the port polls in flight. */
static void fz_sma(struct mad_chan *ch)
{
	struct chan_req *r, *next;
	int guard = 0;

	for (r = TAILQ_FIRST(&ch->flight); r && guard++ < 8; r = next) {
		uint8_t m[IBR_MAD_SIZE], *d = m + IBR_SMP_DATA_OFFS;
		struct ibr_sa_portinfo_rec pi = { .gid_prefix = FZ_PREFIX,
						  .base_lid = 8,
						  .sm_lid = 2,
						  .state = 4,
						  .phys_state = 5 };
		uint8_t rec[IBR_SA_PORTINFO_REC_LEN];

		next = TAILQ_NEXT(r, link);
		if (ibr_mad_mgmt_class(r->mad) != IBR_MGMT_CLASS_SUBN_DR)
			continue;
		ibr_mad_build_response(m, r->mad, IBR_MAD_SIZE, 0);
		memset(d, 0, IBR_SMP_DATA_SIZE);
		if (ibr_mad_attr_id(m) == IBR_SMP_ATTR_NODE_INFO) {
			mad_set_field(d, 0, IB_NODE_TYPE_F, 3);
			mad_set_field64(d, 0, IB_NODE_PORT_GUID_F, FZ_GUID);
		} else {
			ibr_sa_portinfo_rec_encode(&pi, rec);
			memcpy(d, rec + 4, IBR_SMP_DATA_SIZE); /* PortInfo follows the 4-byte key */
		}
		fz_input(ch, m, IBR_MAD_SIZE, false);
		next = TAILQ_FIRST(&ch->flight); /* the answer may have changed the list */
	}
}

static void fz_member(struct sa_client *c, uint8_t op, const uint8_t *p, size_t n)
{
	struct sa_group tmpl = { .qkey = 0x0B1B, .pkey = 0xFFFF, .mtu = 4, .rate = 3 };
	uint8_t mgid[16] = { 0xFF, 0x15 };

	memcpy(mgid + 2, p, n < 14 ? n : 14);
	if (op & 8)
		sa_client_leave(c, mgid, (uint8_t)(op >> 4));
	else
		sa_client_join(c, mgid, (uint8_t)(op >> 4), op & 0x80 ? NULL : &tmpl);
}

static void fz_check_peers(const struct sa_client *c)
{
	const struct sa_peer *pv;
	size_t np = sa_client_peers(c, &pv);

	for (size_t i = 0; i < np; i++) {
		if (pv[i].guid == c->ps.port_guid || (pv[i].n && !pv[i].ad))
			abort();
		for (size_t k = 0; k < pv[i].n; k++) {
			const struct sa_route_ad *a = &pv[i].ad[k];

			if (a->plen > 64 || (a->plen < 64 && (a->prefix << a->plen)) ||
			    !a->metric || a->metric > 16)
				abort();
		}
	}
}

static void fz_check(const struct sa_client *c, const struct mad_chan *ch)
{
	const struct sa_neigh *nv;
	const struct sa_group *gv;
	size_t nn = sa_client_neighs(c, &nv), ng = sa_client_groups(c, &gv);

	for (size_t i = 0; i < nn; i++)
		if (!nv[i].guid || !nv[i].lid || nv[i].guid == c->ps.port_guid)
			abort();
	for (size_t i = 0; i < ng; i++)
		if (gv[i].mgid[0] != 0xFF)
			abort();
	if ((unsigned)sa_client_phase(c) > SA_PHASE_BACKOFF)
		abort();
	fz_check_peers(c);
	if (mad_chan_outstanding(ch) > FZ_MAX_OUT)
		abort();
}

static struct sa_client *fz_client;
static struct mad_chan *fz_chan;

static void fz_changed(void *arg, bool neighs, bool groups)
{
	if (fz_client)
		fz_check(fz_client, fz_chan);
}

static void fz_reported(void *arg, uint16_t trap, const uint8_t gid[16])
{
	if (trap < IBR_TRAP_GID_IN_SERVICE || trap > IBR_TRAP_MCG_DELETED || !gid)
		abort();
}

static void fz_peers(void *arg)
{
	if (fz_client)
		fz_check_peers(fz_client);
}

static const struct sa_client_ops fz_cb = { .changed = fz_changed,
					    .report = fz_reported,
					    .peers = fz_peers };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_tp tp = { .base.ops = &fz_ops_rmpp };
	struct mad_chan_config cc = { .name = "fz",
				      .chan_id = 7,
				      .max_outstanding = FZ_MAX_OUT,
				      .max_queued = 256,
				      .rmpp_max_len = 64 * 1024,
				      .clock = fz_clock };
	struct sa_client_config sc = { .name = "fz",
				       .sm_key = 1,
				       .poll_ms = 1000,
				       .resync_ms = 5000,
				       .backoff_ms = 1000,
				       .walk_gap = 4,
				       .walk_max_lid = 48,
				       .walk_max_mlids = 16,
				       .clock = fz_clock };
	struct mad_chan *ch;
	struct sa_client *c;

	if (size < 1)
		return 0;
	log_set_sink(fz_log);
	fz_now = 1000000000ull;
	fz_report_tid = 0;
	fz_cut = data[0] & 1;
	tp.base.ops = fz_cut ? &fz_ops_cut : &fz_ops_rmpp;
	data++;
	size--;
	ch = mad_chan_create(&tp.base, &cc);
	if (!ch)
		return 0;
	fz_client = NULL;
	fz_chan = ch;
	c = sa_client_new(ch, &sc, &fz_cb, NULL);
	if (!c) {
		mad_chan_destroy(ch);
		return 0;
	}
	fz_client = c;
	sa_client_peer_interval(c, 1000);
	fz_sma(ch); /* the first sync is in flight */
	while (size >= 3) {
		uint8_t op = data[0];
		uint16_t arg = (uint16_t)(data[1] << 8 | data[2]);
		size_t len = arg;

		data += 3;
		size -= 3;
		if ((op & 7) == 4 || (op & 7) == 5 || (op & 7) == 7)
			len = 0;
		if (len > size)
			len = size;
		switch (op & 7) {
		case 0: {
			struct chan_req *r = fz_req(ch, op >> 3);

			if (r)
				fz_answer(ch, r, data, len);
			break;
		}
		case 1:
			fz_raw(ch, fz_req(ch, op >> 3), data, len);
			break;
		case 2:
			fz_report(ch, data, len);
			break;
		case 3:
			fz_raw(ch, NULL, data, len);
			break;
		case 4:
			fz_now += (uint64_t)arg * 1000000u;
			mad_chan_tick(ch, fz_now);
			sa_client_tick(c, fz_now);
			break;
		case 5:
			sa_client_resync(c, "fuzz");
			break;
		case 6:
			fz_member(c, op, data, len);
			break;
		case 7:
			fz_sma(ch);
			break;
		}
		data += len;
		size -= len;
		fz_check(c, ch);
	}
	fz_client = NULL;
	sa_client_free(c);
	mad_chan_destroy(ch);
	return 0;
}
