/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_sma.c - libFuzzer target for the SMA (sma/sma_process()).  The input
 * is a sequence of records: one control byte (arrival port in bits 0-1,
 * "link up" in bit 2, "tick" in bit 3) and then up to 256 bytes of MAD
 * (a short last record is passed with its own length), all against one
 * fresh SMA with 2 ports whose route-table callbacks return a few records.
 * Checks: no crash (ASan/UBSan), every reply is the request's response
 * method (GetResp for Get and Set) echoing TID,
 * AttributeID and AttributeModifier with a status in {0, 0x4, 0x8, 0xC,
 * 0x1C}, a DR reply has D set, a reply fed back is dropped as a response,
 * counters add up, and trap events build a valid trap or fail cleanly.
 */
#include "lib/ibr_mad.h"
#include "sma/sma.h"
#include "sma/sma_dr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct fuzz_ctx {
	struct sma *s;
};

static struct fuzz_ctx ctx;

static uint32_t fz_nh(void *arg, uint8_t port, uint32_t first, struct sma_next_hop *out,
		      unsigned int max, unsigned int *filled)
{
	(void)port;
	*filled = 0;
	for (uint32_t i = first; i < 5 && *filled < max; i++, (*filled)++) {
		out[*filled].subnet_prefix = 0xFEC0000000000000ull + i;
		out[*filled].pkey = 0xFFFF;
		out[*filled].weight = 1;
	}
	return 5;
}

static uint32_t fz_adj(void *arg, uint8_t port, uint32_t first, struct sma_adj_subnet *out,
		       unsigned int max, unsigned int *filled)
{
	(void)port;
	*filled = 0;
	for (uint32_t i = first; i < 3 && *filled < max; i++, (*filled)++)
		out[*filled].subnet_prefix = (uint16_t)i;
	return 3;
}

static void fz_event(void *arg, const struct sma_event *ev)
{
	uint8_t trap[IBR_MAD_SIZE];
	struct sma_tx tx;
	int rc;

	if (ev->port < 1 || ev->port > 2)
		abort();
	if (ev->type == SMA_EV_PKEYS && (!ev->pkeys || ev->npkeys < 1))
		abort();
	if (ev->type != SMA_EV_TRAP_BAD_MKEY)
		return;
	rc = sma_trap_bad_mkey_build(ctx.s, ev, 1, trap, &tx);
	if (rc == 0) {
		if (ibr_mad_method(trap) != IBR_MAD_METHOD_TRAP || tx.port != ev->port ||
		    ibr_mad_attr_id(trap) != IBR_ATTR_NOTICE)
			abort();
	} else if (rc != -EAGAIN) {
		abort();
	}
}

static void check_reply(const uint8_t *req, size_t len, const uint8_t *rep)
{
	uint16_t st;

	/* GetResp for Get and Set; GetTable and the like get their R method and 0x0008 */
	if (len != IBR_MAD_SIZE || ibr_mad_method(rep) != ibr_mad_response_method(req[3]) ||
	    memcmp(rep + 8, req + 8, 16) != 0 || ibr_mad_mgmt_class(rep) != ibr_mad_mgmt_class(req))
		abort();
	st = ibr_smp_is_dr(rep) ? ibr_smp_dr_status(rep) : ibr_mad_status(rep);
	if (st != 0 && st != 0x4 && st != 0x8 && st != 0xC && st != 0x1C)
		abort();
	if (ibr_smp_is_dr(rep) && !ibr_smp_dr_direction(rep))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct sma_ops ops = {
		.event = fz_event,
		.next_hops = fz_nh,
		.adj_subnets = fz_adj,
	};
	struct sma_node_cfg cfg = { .node_guid = 0x100, .num_ports = 2 };
	const struct sma_counters *c;
	uint64_t now = 0, total = 0;

	cfg.ports[0].guid = 0x101;
	cfg.ports[1].guid = 0x102;
	cfg.ports[1].partition_cap = 64;
	cfg.ports[1].guid_cap = 16;
	ctx.s = sma_new(&cfg, &ops);
	if (!ctx.s)
		abort();
	while (size > 0) {
		uint8_t ctl = data[0], rep[IBR_MAD_SIZE], rep2[IBR_MAD_SIZE];
		size_t len = size - 1 < IBR_MAD_SIZE ? size - 1 : IBR_MAD_SIZE;
		struct sma_rx rx = { .port = ctl & 3, .slid = 0xFFFF, .now_ns = now };
		struct sma_tx tx;
		enum sma_drop why = SMA_DROP_MAX;
		uint8_t *req = malloc(len ? len : 1); /* exact length: ASan sees overreads */

		memcpy(req, data + 1, len);
		if (ctl & 4)
			sma_port_set_link(ctx.s, 1 + (ctl >> 7), !(ctl & 0x40), now);
		if (ctl & 8) {
			sma_tick(ctx.s, now);
			sma_tables_refresh(ctx.s);
		}
		if (sma_process(ctx.s, &rx, req, len, rep, &tx, &why) == SMA_REPLY) {
			check_reply(req, len, rep);
			if (tx.port != rx.port)
				abort();
			/* a reply is never answered */
			rx.now_ns = now;
			if (sma_process(ctx.s, &rx, rep, sizeof(rep), rep2, &tx, &why) !=
			    SMA_DISCARD)
				abort();
			total++;
		} else if ((unsigned int)why >= SMA_DROP_MAX) {
			abort();
		}
		total++;
		free(req);
		data += 1 + len;
		size -= 1 + len;
		now += 1000000000ull * (ctl >> 4);
	}
	c = sma_counters_get(ctx.s);
	{
		uint64_t drops = 0;

		for (int i = 0; i < SMA_DROP_MAX; i++)
			drops += c->drops[i];
		if (c->rx != total || c->replies + drops != c->rx)
			abort();
	}
	sma_free(ctx.s);
	ctx.s = NULL;
	return 0;
}
