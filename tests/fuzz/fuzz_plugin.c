/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_plugin.c - libFuzzer target for the daemon's decoder of the OpenSM
 * plugin's messages (daemon/learn/ibrd_plugin_input.c): input from another
 * process.  The input is a run of datagrams, each a 2-byte little-endian
 * length and its bytes; a first byte with bit 0 set puts a valid hello in
 * front, so that the fuzzer reaches past the first check as often as it
 * likes.  Datagrams go to one session until it refuses one (the daemon then
 * closes it); after each, the session's own counts and its alias index must
 * agree with its tables.
 */
#include "daemon/learn/ibrd_plugin_input.c"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void fz_port(void *ctx, const struct ibrd_pport *p)
{
	(void)ctx;
	sink += p->guid + p->lid;
}

static void fz_group(void *ctx, const struct ibrd_pgroup *g)
{
	(void)ctx;
	if (!g)
		abort();
	for (uint32_t i = 0; i < g->nmem; i++)
		sink += g->mem[i].guid;
}

static void fz_group_del(void *ctx, const uint8_t mgid[16])
{
	(void)ctx;
	sink += mgid[15];
}

/* The counters kept alongside the tables match them. */
static void fz_check(const struct ibrd_pview *v)
{
	const struct ibrd_pport *p;
	const struct ibrd_pgroup *g;
	uint64_t members = 0;
	uint32_t aliases = 0, pos = 0;

	while ((p = router_tab_next(&v->ports, &pos)))
		aliases += (p->flags & IBR_PLUG_PORT_ALIAS) != 0;
	pos = 0;
	while ((g = router_tab_next(&v->groups, &pos))) {
		if (g->g.mgid[0] != 0xFF || memcmp(g->mgid, g->g.mgid, 16))
			abort();
		members += g->nmem;
	}
	if (aliases != v->aliases || members != v->members ||
	    v->ports.count > IBRD_PSESS_PORTS_MAX || v->groups.count > IBRD_PSESS_GROUPS_MAX)
		abort();
	if (!ibrd_pview_index_ok(v))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ibrd_psess_ops ops = { fz_port, fz_port, fz_group, fz_group_del };
	struct ibrd_psess s;
	size_t off = 1;

	if (size < 1)
		return 0;
	ibrd_psess_init(&s, &ops, NULL);
	if (data[0] & 1) {
		uint8_t hello[IBR_PLUG_HDR_LEN + IBR_PLUG_HELLO_LEN] = { 0 };

		ibr_plug_hdr_put(hello, IBR_PLUG_HELLO, 0, 0, sizeof(hello), 0);
		if (ibrd_psess_input(&s, hello, sizeof(hello)) != IBRD_PSESS_HELLO)
			abort();
	}
	while (off + 2 <= size) {
		size_t len = (size_t)data[off] | (size_t)data[off + 1] << 8;
		uint8_t *msg;
		int rc;

		off += 2;
		if (len > size - off)
			len = size - off;
		/* a buffer of exactly the datagram's length: ASan sees any overread */
		if (!(msg = malloc(len ? len : 1)))
			break;
		memcpy(msg, data + off, len);
		off += len;
		rc = ibrd_psess_input(&s, msg, len);
		free(msg);
		fz_check(&s.live);
		fz_check(&s.staged);
		if (rc < 0)
			break;
	}
	ibrd_psess_free(&s);
	return 0;
}
