/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_cmd_sma.c - the SMA's control commands (ibrouterctl(8)): "show sma
 * [drops] [PORT]", each port's Set policy, master SM, what its SMPs came
 * to and the drops and lost replies by reason (with -o prometheus as
 * ibrouter_sma_* metrics), and "sma release PORT".  The SMA itself and the
 * counts of what was lost around it are daemon/port/ibrd_sma.c's.
 */
#include "daemon/cmd/ibrd_cmd.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "sma/sma.h"
#include "sma/sma_pma.h"

#include <errno.h>
#include <string.h>

static const struct {
	const char *name, *text;
} sma_losses[IBRD_SMP_LOSS_MAX] = {
#define SMA_LOSS_NAME(id, name, text) [IBRD_SMP_##id] = { name, text },
	IBRD_SMP_LOSSES(SMA_LOSS_NAME)
#undef SMA_LOSS_NAME
};

static bool sma_loss_is_reply(int r)
{
	return r == IBRD_SMP_REPLY_AGAIN || r == IBRD_SMP_REPLY_NO_PEER ||
	       r == IBRD_SMP_REPLY_ERROR;
}

/*
 * show sma -o prometheus: per port, the SMPs the SMA saw and answered, the
 * drops by reason (the SMA's and the daemon's) and the replies lost by reason.
 */
static int sma_prom(struct ibrd *d, struct ibrd_out *o, int port)
{
	const struct sma_counters *c = sma_counters_get(d->agents->sma);
	uint64_t lost[ROUTER_MAX_PORTS][IBRD_SMP_LOSS_MAX];
	uint32_t n = d->rib.nports < SMA_MAX_PORTS ? d->rib.nports : SMA_MAX_PORTS;

	for (uint32_t i = 0; i < n; i++)
		ibrd_sma_losses(d, i, lost[i]);
	ibrd_out_printf(o, "# HELP ibrouter_sma_smps_total SMPs handed to the SMA.\n"
			   "# TYPE ibrouter_sma_smps_total counter\n");
	for (uint32_t i = 0; i < n; i++)
		if (port < 0 || (uint32_t)port == i)
			ibrd_out_printf(o, "ibrouter_sma_smps_total{port=\"%s\"} %llu\n",
					d->rib.port[i].name, (unsigned long long)c->port[i].rx);
	ibrd_out_printf(o, "# HELP ibrouter_sma_replies_total SMPs the SMA answered.\n"
			   "# TYPE ibrouter_sma_replies_total counter\n");
	for (uint32_t i = 0; i < n; i++)
		if (port < 0 || (uint32_t)port == i)
			ibrd_out_printf(o, "ibrouter_sma_replies_total{port=\"%s\"} %llu\n",
					d->rib.port[i].name,
					(unsigned long long)c->port[i].replies);
	ibrd_out_printf(o, "# HELP ibrouter_sma_drops_total SMPs dropped, by port and reason.\n"
			   "# TYPE ibrouter_sma_drops_total counter\n");
	for (uint32_t i = 0; i < n; i++) {
		if (port >= 0 && (uint32_t)port != i)
			continue;
		for (int r = 0; r < SMA_DROP_MAX; r++)
			ibrd_out_printf(
				o, "ibrouter_sma_drops_total{port=\"%s\",reason=\"%s\"} %llu\n",
				d->rib.port[i].name, sma_drop_name(r),
				(unsigned long long)c->port[i].drops[r]);
		for (int r = 0; r < IBRD_SMP_LOSS_MAX; r++)
			if (!sma_loss_is_reply(r))
				ibrd_out_printf(
					o,
					"ibrouter_sma_drops_total{port=\"%s\",reason=\"%s\"} "
					"%llu\n",
					d->rib.port[i].name, sma_losses[r].name,
					(unsigned long long)lost[i][r]);
	}
	ibrd_out_printf(o,
			"# HELP ibrouter_sma_reply_errors_total SMA replies not sent, by port and "
			"reason.\n# TYPE ibrouter_sma_reply_errors_total counter\n");
	for (uint32_t i = 0; i < n; i++) {
		if (port >= 0 && (uint32_t)port != i)
			continue;
		for (int r = 0; r < IBRD_SMP_LOSS_MAX; r++)
			if (sma_loss_is_reply(r))
				ibrd_out_printf(
					o,
					"ibrouter_sma_reply_errors_total{port=\"%s\",reason="
					"\"%s\"} %llu\n",
					d->rib.port[i].name, sma_losses[r].name,
					(unsigned long long)lost[i][r]);
	}
	return ibrd_out_end(o);
}

/* show sma drops [PORT]: the non-zero drop and reply-loss counts, by port and reason. */
static int sma_show_drops(struct ibrd *d, struct ibrd_out *o, int port)
{
	static const char *const cols[] = { "port", "reason", "count", "description" };
	const struct sma_counters *c = sma_counters_get(d->agents->sma);

	ibrd_out_table(o, cols, 4);
	for (uint32_t i = 0; i < d->rib.nports && i < SMA_MAX_PORTS; i++) {
		uint64_t lost[IBRD_SMP_LOSS_MAX];

		if (port >= 0 && (uint32_t)port != i)
			continue;
		ibrd_sma_losses(d, i, lost);
		for (int r = 0; r < SMA_DROP_MAX; r++) {
			if (!c->port[i].drops[r])
				continue;
			ibrd_out_str(o, d->rib.port[i].name);
			ibrd_out_str(o, sma_drop_name(r));
			ibrd_out_u64(o, c->port[i].drops[r]);
			ibrd_out_str(o, sma_drop_text(r));
		}
		for (int r = 0; r < IBRD_SMP_LOSS_MAX; r++) {
			if (!lost[r])
				continue;
			ibrd_out_str(o, d->rib.port[i].name);
			ibrd_out_str(o, sma_losses[r].name);
			ibrd_out_u64(o, lost[r]);
			ibrd_out_str(o, sma_losses[r].text);
		}
	}
	return ibrd_out_end(o);
}

/*
 * show sma [PORT]: each port's Set policy, its master SM, the Sets refused,
 * what its SMPs came to (answered, dropped, replies lost), and the P_Keys
 * and alias GUIDs its SM set;
 * show sma drops [PORT]: those drops and losses by reason.
 */
int ibrd_cmd_show_sma(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	static const char *const cols[] = { "port",	    "policy",	       "mkey_set",
					    "sm_lid",	    "master_sm",       "sm_hops",
					    "sets_refused", "mkey_violations", "gid_prefix",
					    "smps",	    "replies",	       "drops",
					    "reply_errors", "pma_gmps",	       "pkeys",
					    "alias_guids" };
	const struct sma_counters *c;
	bool drops = argc >= 3 && !strcmp(argv[2], "drops");
	int port = -1, a = drops ? 3 : 2;

	if (argc > a + 1)
		return ibrd_out_usage(o, "usage: show sma [drops] [PORT]");
	if (argc == a + 1 && (port = ibrd_cmd_port(d, o, argv[a])) < 0)
		return -ENOENT;
	if (!d->agents->sma)
		return ibrd_out_error(o, ENOENT, "no SMA");
	if (o->fmt == IBRD_FMT_PROM)
		return sma_prom(d, o, port);
	if (drops)
		return sma_show_drops(d, o, port);
	c = sma_counters_get(d->agents->sma);
	ibrd_out_table(o, cols, 16);
	for (uint32_t i = 0; i < d->rib.nports && i < SMA_MAX_PORTS; i++) {
		char pks[SMA_MAX_PKEYS * 7 + 1], gds[SMA_MAX_GUIDS * 19 + 1];
		unsigned nguids;
		struct sma_port_view v;
		union ibr_gid g;
		char gs[IBR_GID_STRLEN];
		uint64_t lost[IBRD_SMP_LOSS_MAX], dropped = 0, reply_errors = 0;

		if ((port >= 0 && (uint32_t)port != i) || sma_port_get(d->agents->sma, i + 1, &v))
			continue;
		ibrd_sma_losses(d, i, lost);
		for (int r = 0; r < SMA_DROP_MAX; r++)
			dropped += c->port[i].drops[r];
		for (int r = 0; r < IBRD_SMP_LOSS_MAX; r++)
			*(sma_loss_is_reply(r) ? &reply_errors : &dropped) += lost[r];
		g = ibr_gid_make(v.gid_prefix, 0);
		ibrd_out_str(o, d->rib.port[i].name);
		ibrd_out_str(o, v.set_policy == SMA_SET_OPEN ? "open" : "master-sm");
		ibrd_out_bool(o, v.mkey != 0); /* never the key itself */
		ibrd_out_lid(o, v.sm_lid);
		ibrd_out_str(o, !v.sm_bound ? "none" : v.sm_dr ? "directed-route" : "lid-routed");
		ibrd_out_u64(o, v.sm_dr ? v.sm_hops : 0);
		ibrd_out_u64(o, v.sets_refused);
		ibrd_out_u64(o, v.mkey_violations);
		ibrd_out_str(o, ibr_gid_ntop(&g, gs, sizeof(gs)));
		ibrd_out_u64(o, c->port[i].rx);
		ibrd_out_u64(o, c->port[i].replies);
		ibrd_out_u64(o, dropped);
		ibrd_out_u64(o, reply_errors);
		ibrd_out_u64(o, sma_pma_gmps(d->agents->pma, (uint8_t)(i + 1)));
		ibrd_sma_pkeys_str(v.pkeys, v.npkeys, ",", pks, sizeof(pks));
		ibrd_sma_guids_str(v.guids, v.nguids, ",", gds, sizeof(gds), &nguids);
		ibrd_out_str(o, pks[0] ? pks : NULL);
		ibrd_out_str(o, gds[0] ? gds : NULL);
	}
	return ibrd_out_end(o);
}

/* sma release PORT: forget the port's master SM (one that moved, sma_policy.c). */
int ibrd_cmd_sma_release(struct ibrd *d, struct ibrd_out *o, int argc, char **argv)
{
	int port;

	if (argc != 3)
		return ibrd_out_usage(o, "usage: sma release PORT");
	if ((port = ibrd_cmd_port(d, o, argv[2])) < 0)
		return -ENOENT;
	if (!d->agents->sma || sma_port_release(d->agents->sma, (unsigned)port + 1))
		return ibrd_out_error(o, ENOENT, "port %s has no SMA", argv[2]);
	log_info("sma: port %s: master SM released by a control command", argv[2]);
	return ibrd_cmd_done(o,
			     "released port %s's master SM: the next PortInfo Set that names a "
			     "MasterSMLID binds the port to its sender",
			     d->rib.port[port].name);
}
