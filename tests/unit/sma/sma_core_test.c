/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_core_test.c - construction and configuration checks, link up/down
 * and the state events, the counters, drop names, and random SMPs through
 * sma_process(): every reply is a GetResp with a defined status.
 */
#include "tests/unit/sma/sma_test.h"

#include <errno.h>

static void test_config(void)
{
	struct sma_node_cfg c;
	struct sma *s;

	CU_ASSERT_PTR_NULL(sma_new(NULL, NULL));
	t_cfg(&c, 0);
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
	t_cfg(&c, SMA_MAX_PORTS + 1);
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
	t_cfg(&c, 2);
	c.node_guid = 0;
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
	t_cfg(&c, 2);
	c.ports[1].guid = c.ports[0].guid; /* duplicate */
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
	CU_ASSERT_EQUAL(errno, EINVAL);
	t_cfg(&c, 2);
	c.ports[0].partition_cap = SMA_MAX_PKEYS + 1;
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
	t_cfg(&c, 2);
	c.ports[0].mtu_cap = 6;
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
	t_cfg(&c, 2);
	c.vendor_id = 0x1000000;
	CU_ASSERT_PTR_NULL(sma_new(&c, NULL));
	t_cfg(&c, SMA_MAX_PORTS);
	c.node_desc[0] = '\0';
	s = sma_new(&c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	sma_free(s);
}

static void test_link(void)
{
	struct sma *s = t_sma(2);
	struct sma_port_view v;
	struct sma_event ev;

	CU_ASSERT_EQUAL(sma_port_set_link(s, 3, true, 0), -EINVAL);
	CU_ASSERT_EQUAL(sma_port_get(s, 3, &v), -EINVAL);
	CU_ASSERT_EQUAL(sma_port_set_link(s, 2, true, 0), 0);
	CU_ASSERT(t_ev_count(SMA_EV_PORT_STATE, &ev) == 1 && ev.port == 2 &&
		  ev.state == SMA_PORT_INIT);
	sma_port_get(s, 2, &v);
	CU_ASSERT(v.state == SMA_PORT_INIT && v.phys_state == 5);
	sma_port_get(s, 1, &v);
	CU_ASSERT(v.state == SMA_PORT_DOWN && v.phys_state == 2);
	CU_ASSERT_EQUAL(sma_port_set_link(s, 2, false, 0), 0);
	CU_ASSERT(t_ev_count(SMA_EV_PORT_STATE, &ev) == 2 && ev.state == SMA_PORT_DOWN &&
		  ev.old_state == SMA_PORT_INIT);
	sma_free(s);
}

/* A reload's SMA: ports keep their state by position map, new and changed ones start anew. */
static void test_renew(void)
{
	struct sma *s = t_sma(2), *n;
	struct sma_node_cfg c;
	struct sma_port_view v;
	const int from[3] = { 1, -1, 0 };
	const int one[1] = { 1 };
	uint64_t events;

	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE];

	CU_ASSERT_EQUAL(sma_port_set_link(s, 2, true, 0), 0); /* port 2: Init */
	t_smp(req, 1, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 1);
	CU_ASSERT_EQUAL(t_run_at(s, 2, req, rep, 0, NULL), SMA_REPLY); /* counted on port 2 */
	events = sma_counters_get(s)->events;
	t_cfg(&c, 3);
	c.ports[0].guid = T_PORT_GUID(2); /* old port 2 is first now */
	c.ports[1].guid = T_PORT_GUID(9); /* a new port */
	c.ports[2].guid = T_PORT_GUID(1);
	n = sma_renew(s, &c, from, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT(sma_port_get(n, 1, &v) == 0 && v.guid == T_PORT_GUID(2) &&
		  v.state == SMA_PORT_INIT && v.phys_state == 5);
	CU_ASSERT(sma_port_get(n, 2, &v) == 0 && v.guid == T_PORT_GUID(9) &&
		  v.state == SMA_PORT_DOWN);
	CU_ASSERT(sma_port_get(n, 3, &v) == 0 && v.guid == T_PORT_GUID(1) &&
		  v.state == SMA_PORT_DOWN);
	CU_ASSERT_EQUAL(sma_counters_get(n)->events, events);
	/* each port's counters moved with it */
	CU_ASSERT(sma_counters_get(n)->port[0].rx == 1 &&
		  sma_counters_get(n)->port[0].replies == 1);
	CU_ASSERT(sma_counters_get(n)->port[1].rx == 0 && sma_counters_get(n)->port[2].rx == 0);
	/* the old SMA is untouched */
	CU_ASSERT(sma_port_get(s, 2, &v) == 0 && v.state == SMA_PORT_INIT);
	sma_free(n);
	/* another SM_Key for SMInfo only: the port keeps its state */
	t_cfg(&c, 1);
	c.ports[0].guid = T_PORT_GUID(2);
	c.ports[0].sm_key = 0x99;
	n = sma_renew(s, &c, one, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT(sma_port_get(n, 1, &v) == 0 && v.state == SMA_PORT_INIT);
	sma_free(n);
	/* old port 2 configured otherwise (its Set policy): it starts anew */
	t_cfg(&c, 1);
	c.ports[0].guid = T_PORT_GUID(2);
	c.ports[0].set_policy = SMA_SET_OPEN;
	n = sma_renew(s, &c, one, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(n);
	CU_ASSERT(sma_port_get(n, 1, &v) == 0 && v.state == SMA_PORT_DOWN &&
		  v.set_policy == SMA_SET_OPEN);
	sma_free(n);
	sma_free(s);
}

static void test_names(void)
{
	for (int i = 0; i < SMA_DROP_MAX; i++) {
		CU_ASSERT_PTR_NOT_NULL(sma_drop_name(i));
		CU_ASSERT(strcmp(sma_drop_name(i), "unknown") != 0);
		CU_ASSERT(strlen(sma_drop_text(i)) > 0);
	}
	CU_ASSERT_STRING_EQUAL(sma_drop_name(SMA_DROP_MAX), "unknown");
	CU_ASSERT_STRING_EQUAL(sma_drop_name(SMA_DROP_DR_DLID), "dr-c14-9-3");
}

/* Random SMPs: a reply is always a GetResp with status 0/4/8/0xC/0x1C; totals add up. */
static void test_random(void)
{
	struct sma *s = t_sma(2);
	unsigned long long seed = 0x5EED;
	const struct sma_counters *c = sma_counters_get(s);
	uint64_t drops = 0;

	sma_port_set_link(s, 1, true, 0);
	for (int n = 0; n < 20000; n++) {
		uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE];
		enum sma_drop why;

		for (size_t i = 0; i < sizeof(req); i++)
			req[i] = (uint8_t)(ibr_test_rand(&seed) >> 24);
		/* make most of them plausible SMPs */
		req[0] = 1;
		req[1] = (n & 1) ? 0x81 : 0x01;
		if (n % 4 < 3) {
			req[2] = 1;
			req[3] = (uint8_t)(1 + n % 2);
			req[6] = req[7] = 0;
			req[16] = (n % 8 < 4) ? 0x00 : 0xFF;
		}
		if (t_run_at(s, 1 + n % 3, req, rep, (uint64_t)n * 1000000, &why) == SMA_REPLY) {
			unsigned int st = t_status(rep);

			CU_ASSERT(st == 0 || st == 4 || st == 8 || st == 0xC || st == 0x1C);
			CU_ASSERT(mad_get_field(rep, 0, IB_MAD_RESPONSE_F) == 1);
			CU_ASSERT(memcmp(rep + 8, req + 8, 16) == 0); /* TID, attr ID, mod */
		}
	}
	for (int i = 0; i < SMA_DROP_MAX; i++)
		drops += c->drops[i];
	CU_ASSERT_EQUAL(c->rx, 20000);
	CU_ASSERT_EQUAL(c->replies + drops, c->rx);
	/* by port: ports 1 and 2 add up; port 3 does not exist (drop "port", totals only) */
	{
		uint64_t rx = 0;

		for (unsigned int p = 0; p < 2; p++) {
			uint64_t d = 0;

			for (int i = 0; i < SMA_DROP_MAX; i++)
				d += c->port[p].drops[i];
			CU_ASSERT_EQUAL(c->port[p].replies + d, c->port[p].rx);
			CU_ASSERT_EQUAL(c->port[p].drops[SMA_DROP_PORT], 0);
			rx += c->port[p].rx;
		}
		CU_ASSERT_EQUAL(rx + c->drops[SMA_DROP_PORT], c->rx);
	}
	CU_ASSERT(c->replies > 1000);
	sma_free(s);
}

/* Get NodeInfo on port 1 with LRH DLID `dlid`, class 0x01 or (dr) 0x81: the verdict. */
static enum sma_verdict get_dlid(struct sma *s, int dr, uint16_t dlid, enum sma_drop *why)
{
	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	struct sma_rx rx = { .port = 1, .slid = 5, .dlid = dlid };
	struct sma_tx tx;

	t_smp(req, dr, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 9);
	*why = SMA_DROP_MAX;
	return sma_process(s, &rx, req, IB_MAD_SIZE, rep, &tx, why);
}

/*
 * The LRH DLID: a LID-routed (or directed-route) SMP is answered only when
 * it is for one of the port's 2^LMC LIDs or the permissive LID; a port
 * without a LID takes only the permissive LID; the others are counted.
 */
static void test_dlid(void)
{
	struct sma *s = t_sma(1);
	struct sma_port_fwd f = { .lid = 0x10, .lmc = 2, .forwarding = true };
	enum sma_drop why;

	CU_ASSERT_EQUAL(get_dlid(s, 0, 0x10, &why), SMA_DISCARD); /* no LID yet */
	CU_ASSERT_EQUAL(why, SMA_DROP_DLID);
	CU_ASSERT_EQUAL(get_dlid(s, 0, 0xFFFF, &why), SMA_REPLY);
	sma_port_sync(s, 1, &f);
	for (uint16_t l = 0x10; l < 0x14; l++)
		CU_ASSERT_EQUAL(get_dlid(s, 0, l, &why), SMA_REPLY);
	CU_ASSERT_EQUAL(get_dlid(s, 0, 0x14, &why), SMA_DISCARD);
	CU_ASSERT_EQUAL(why, SMA_DROP_DLID);
	CU_ASSERT_EQUAL(get_dlid(s, 0, 0x0F, &why), SMA_DISCARD);
	CU_ASSERT_EQUAL(get_dlid(s, 0, 0xC001, &why), SMA_DISCARD);
	CU_ASSERT_EQUAL(get_dlid(s, 1, 0x20, &why), SMA_DISCARD); /* directed route too */
	CU_ASSERT_EQUAL(why, SMA_DROP_DLID);
	CU_ASSERT_EQUAL(get_dlid(s, 1, 0xFFFF, &why), SMA_REPLY);
	CU_ASSERT_EQUAL(get_dlid(s, 0, 0, &why), SMA_REPLY); /* checked by the transport */
	CU_ASSERT_EQUAL(sma_counters_get(s)->drops[SMA_DROP_DLID], 5);
	CU_ASSERT_EQUAL(sma_counters_get(s)->port[0].drops[SMA_DROP_DLID], 5);
	CU_ASSERT_STRING_EQUAL(sma_drop_name(SMA_DROP_DLID), "dlid");
	sma_free(s);
}

static CU_TestInfo tests[] = {
	{ "configuration checks", test_config },
	{ "link up and down", test_link },
	{ "a reload's SMA keeps its ports' state", test_renew },
	{ "drop names", test_names },
	{ "random SMPs", test_random },
	{ "the LRH DLID is the port's", test_dlid },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_core", tests);
}
