/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* Tests for lib/ibr_plug.c: the OpenSM plugin <-> ibrouterd messages. */
#include "lib/ibr_plug.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Collects what a packer emits. */
struct sink {
	uint8_t buf[8][IBR_PLUG_MSG_MAX];
	size_t len[8];
	int n;
};

static int sink_emit(void *ctx, const uint8_t *msg, size_t len)
{
	struct sink *s = ctx;

	if (s->n == 8)
		return -ENOBUFS;
	memcpy(s->buf[s->n], msg, len);
	s->len[s->n++] = len;
	return 0;
}

static struct sink sk;
static struct ibr_plug_pack pk;

/* Inputs are static: their padding is zero, so whole structs compare. */
static void test_records_roundtrip(void)
{
	static struct ibr_plug_hello h = { .osm_version = "OpenSM 3.3.23",
					   .plugin_version = "0.1.0",
					   .subnet_prefix = 0xfec0000000000001ull,
					   .sm_guid = 0x0002c90300000001ull,
					   .sm_lid = 0x1234,
					   .sm_state = 3,
					   .flags = IBR_PLUG_HELLO_MASTER,
					   .pid = 4242,
					   .queue_max = 256 };
	static struct ibr_plug_port p = { 0x10, 0x11, 0xbfff, 7, 3, 2, IBR_PLUG_PORT_ALIAS };
	static struct ibr_plug_group g = { .mgid = { 0xff, 0x15, 1, 2 },
					   .mlid = 0xc001,
					   .pkey = 0xffff,
					   .qkey = 0xb,
					   .flowlabel = 0xfffff,
					   .sl = 15,
					   .tclass = 0x20,
					   .mtu = 4,
					   .rate = 3,
					   .scope = 5,
					   .flags = IBR_PLUG_GROUP_WELL_KNOWN,
					   .nmembers = 65535 };
	static struct ibr_plug_member m = { .gid = { 0xfe, 0xc0, [15] = 3 },
					    .join_state = 5,
					    .proxy = 1 };
	static struct ibr_plug_stats st = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 3 };
	static struct ibr_plug_route r = { 0xfec0000000000002ull, 0x300001, 7, IBR_PLUG_ROUTE_ANY };
	static struct ibr_plug_snap sn = { 9, 8, 7, 0xfec0000000000001ull, 0x0001 };
	struct ibr_plug_hello h2;
	struct ibr_plug_port p2;
	struct ibr_plug_group g2;
	struct ibr_plug_member m2;
	struct ibr_plug_stats st2;
	struct ibr_plug_route r2;
	struct ibr_plug_snap sn2;
	uint8_t b[128];

	ibr_plug_hello_put(b, &h);
	ibr_plug_hello_get(b, &h2);
	CU_ASSERT_STRING_EQUAL(h2.osm_version, "OpenSM 3.3.23");
	CU_ASSERT_STRING_EQUAL(h2.plugin_version, "0.1.0");
	CU_ASSERT_EQUAL(h2.subnet_prefix, h.subnet_prefix);
	CU_ASSERT_EQUAL(h2.sm_guid, h.sm_guid);
	CU_ASSERT_EQUAL(h2.sm_lid, 0x1234);
	CU_ASSERT_EQUAL(h2.sm_state, 3);
	CU_ASSERT_EQUAL(h2.flags, IBR_PLUG_HELLO_MASTER);
	CU_ASSERT_EQUAL(h2.pid, 4242);
	CU_ASSERT_EQUAL(h2.queue_max, 256);
	CU_ASSERT_EQUAL(b[48], 0xfe); /* network byte order */
	ibr_plug_port_put(b, &p);
	ibr_plug_port_get(b, &p2);
	CU_ASSERT_EQUAL(memcmp(&p, &p2, sizeof(p)), 0);
	ibr_plug_group_put(b, &g);
	ibr_plug_group_get(b, &g2);
	CU_ASSERT_EQUAL(memcmp(&g, &g2, sizeof(g)), 0);
	ibr_plug_member_put(b, &m);
	ibr_plug_member_get(b, &m2);
	CU_ASSERT_EQUAL(memcmp(&m, &m2, sizeof(m)), 0);
	ibr_plug_stats_put(b, &st);
	ibr_plug_stats_get(b, &st2);
	CU_ASSERT_EQUAL(memcmp(&st, &st2, sizeof(st)), 0);
	ibr_plug_route_put(b, &r);
	memset(&r2, 0, sizeof(r2));
	ibr_plug_route_get(b, &r2);
	CU_ASSERT_EQUAL(memcmp(&r, &r2, sizeof(r)), 0);
	ibr_plug_snap_put(b, &sn);
	ibr_plug_snap_get(b, &sn2);
	CU_ASSERT_EQUAL(memcmp(&sn, &sn2, sizeof(sn)), 0);
	ibr_plug_guid_put(b, 0x0102030405060708ull);
	CU_ASSERT_EQUAL(b[0], 1);
	CU_ASSERT_EQUAL(ibr_plug_guid_get(b), 0x0102030405060708ull);
}

/* MCAST: each field at its offset (ibr_plug.h), network order; flowlabel 20 bits. */
static void test_mcast_layout(void)
{
	struct ibr_plug_mcast r = { .mgid = { 0xff, 0x15, [15] = 7 },
				    .guid = 0x0102030405060708ull,
				    .qkey = 0x0b1b0c0d,
				    .flowlabel = 0xfff12345,
				    .pkey = 0xffff,
				    .sl = 3,
				    .tclass = 0x40,
				    .mtu = 4,
				    .rate = 6,
				    .join_state = 1 },
			      r2;
	uint8_t b[IBR_PLUG_MCAST_LEN];
	size_t fixed, recsz;

	memset(b, 0xAA, sizeof(b));
	ibr_plug_mcast_put(b, &r);
	CU_ASSERT_EQUAL(b[0], 0xff);
	CU_ASSERT_EQUAL(b[15], 7);
	CU_ASSERT_EQUAL(b[16], 0x01);
	CU_ASSERT_EQUAL(b[23], 0x08);
	CU_ASSERT_EQUAL(b[24], 0x0b);
	CU_ASSERT_EQUAL(b[27], 0x0d);
	CU_ASSERT_EQUAL(b[28], 0x00);
	CU_ASSERT_EQUAL(b[29], 0x01); /* 0x12345: the bits past 20 are dropped */
	CU_ASSERT_EQUAL(b[31], 0x45);
	CU_ASSERT_EQUAL(b[32], 0xff);
	CU_ASSERT_EQUAL(b[34], 3);
	CU_ASSERT_EQUAL(b[35], 0x40);
	CU_ASSERT_EQUAL(b[36], 4);
	CU_ASSERT_EQUAL(b[37], 6);
	CU_ASSERT_EQUAL(b[38], 1);
	CU_ASSERT_EQUAL(b[39], 0); /* reserved */
	ibr_plug_mcast_get(b, &r2);
	CU_ASSERT_EQUAL(memcmp(r2.mgid, r.mgid, 16), 0);
	CU_ASSERT_EQUAL(r2.guid, r.guid);
	CU_ASSERT_EQUAL(r2.qkey, r.qkey);
	CU_ASSERT_EQUAL(r2.flowlabel, 0x12345);
	CU_ASSERT_EQUAL(r2.pkey, r.pkey);
	CU_ASSERT_EQUAL(r2.sl, r.sl);
	CU_ASSERT_EQUAL(r2.tclass, r.tclass);
	CU_ASSERT_EQUAL(r2.mtu, r.mtu);
	CU_ASSERT_EQUAL(r2.rate, r.rate);
	CU_ASSERT_EQUAL(r2.join_state, r.join_state);
	CU_ASSERT_TRUE(ibr_plug_layout(IBR_PLUG_MCAST, &fixed, &recsz));
	CU_ASSERT_EQUAL(fixed, 0);
	CU_ASSERT_EQUAL(recsz, IBR_PLUG_MCAST_LEN);
	CU_ASSERT_STRING_EQUAL(ibr_plug_type_name(IBR_PLUG_MCAST), "mcast");
}

/* ALIVE: a header alone (the daemon's answer to each STATS); nothing may follow it */
static void test_alive(void)
{
	uint8_t b[IBR_PLUG_HDR_LEN + 8] = { 0 };
	struct ibr_plug_msg m;
	size_t fixed = 1, recsz = 1;

	ibr_plug_hdr_put(b, IBR_PLUG_ALIVE, 0, 0, IBR_PLUG_HDR_LEN, 7);
	CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN, &m), 0);
	CU_ASSERT_TRUE(m.known);
	CU_ASSERT_EQUAL(m.type, IBR_PLUG_ALIVE);
	CU_ASSERT_EQUAL(m.seq, 7);
	CU_ASSERT_TRUE(ibr_plug_layout(IBR_PLUG_ALIVE, &fixed, &recsz));
	CU_ASSERT_EQUAL(fixed, 0);
	CU_ASSERT_EQUAL(recsz, 0);
	CU_ASSERT_STRING_EQUAL(ibr_plug_type_name(IBR_PLUG_ALIVE), "alive");
	ibr_plug_hdr_put(b, IBR_PLUG_ALIVE, 0, 0, sizeof(b), 7);
	CU_ASSERT_EQUAL(ibr_plug_parse(b, sizeof(b), &m), -EBADMSG); /* bytes past the header */
	ibr_plug_hdr_put(b, IBR_PLUG_ALIVE, 0, 1, IBR_PLUG_HDR_LEN, 7);
	CU_ASSERT_EQUAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN, &m), -EBADMSG); /* a record count */
}

static void test_strings_sanitised(void)
{
	struct ibr_plug_hello h;
	uint8_t b[IBR_PLUG_HELLO_LEN];

	memset(b, 'A', sizeof(b));
	b[3] = 0x1b; /* an escape: never reaches a log as it is */
	ibr_plug_hello_get(b, &h);
	CU_ASSERT_EQUAL(strlen(h.osm_version), IBR_PLUG_OSMVER_LEN); /* full, no NUL: bounded */
	CU_ASSERT_EQUAL(h.osm_version[3], '?');
	CU_ASSERT_EQUAL(strlen(h.plugin_version), IBR_PLUG_PLUGVER_LEN);
}

static void test_parse(void)
{
	uint8_t b[IBR_PLUG_HDR_LEN + IBR_PLUG_GROUP_LEN + 2 * IBR_PLUG_MEMBER_LEN + 1];
	size_t len = IBR_PLUG_HDR_LEN + IBR_PLUG_GROUP_LEN + 2 * IBR_PLUG_MEMBER_LEN;
	struct ibr_plug_msg m;

	memset(b, 0, sizeof(b));
	ibr_plug_hdr_put(b, IBR_PLUG_GROUP, IBR_PLUG_F_MORE, 2, (uint32_t)len, 77);
	CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(b, len, &m), 0);
	CU_ASSERT_TRUE(m.known);
	CU_ASSERT_EQUAL(m.type, IBR_PLUG_GROUP);
	CU_ASSERT_EQUAL(m.flags, IBR_PLUG_F_MORE);
	CU_ASSERT_EQUAL(m.count, 2);
	CU_ASSERT_EQUAL(m.seq, 77);
	CU_ASSERT_PTR_EQUAL(m.fixed, b + IBR_PLUG_HDR_LEN);
	CU_ASSERT_PTR_EQUAL(m.recs, b + IBR_PLUG_HDR_LEN + IBR_PLUG_GROUP_LEN);
	CU_ASSERT_EQUAL(m.recsz, IBR_PLUG_MEMBER_LEN);
	/* the datagram's length must be the header's */
	CU_ASSERT_EQUAL(ibr_plug_parse(b, len + 1, &m), -EBADMSG);
	CU_ASSERT_EQUAL(ibr_plug_parse(b, len - 1, &m), -EBADMSG);
	/* and the layout's: a count that does not fit */
	ibr_plug_hdr_put(b, IBR_PLUG_GROUP, 0, 3, (uint32_t)len, 0);
	CU_ASSERT_EQUAL(ibr_plug_parse(b, len, &m), -EBADMSG);
	/* records on a type without them */
	ibr_plug_hdr_put(b, IBR_PLUG_STATS, 0, 1, IBR_PLUG_HDR_LEN + IBR_PLUG_STATS_LEN, 0);
	CU_ASSERT_EQUAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN + IBR_PLUG_STATS_LEN, &m), -EBADMSG);
	/* short, bad magic, another version */
	CU_ASSERT_EQUAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN - 1, &m), -EBADMSG);
	ibr_plug_hdr_put(b, IBR_PLUG_SNAP_END, 0, 0, IBR_PLUG_HDR_LEN + IBR_PLUG_SNAP_LEN, 0);
	CU_ASSERT_EQUAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN + IBR_PLUG_SNAP_LEN, &m), 0);
	b[2] = 2;
	CU_ASSERT_EQUAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN + IBR_PLUG_SNAP_LEN, &m),
			-EPROTONOSUPPORT);
	b[2] = IBR_PLUG_VERSION;
	b[0] ^= 1;
	CU_ASSERT_EQUAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN + IBR_PLUG_SNAP_LEN, &m), -EBADMSG);
	/* a type from a newer peer: well-formed, skipped by the caller */
	ibr_plug_hdr_put(b, 200, 0, 5, IBR_PLUG_HDR_LEN + 3, 0);
	CU_ASSERT_EQUAL(ibr_plug_parse(b, IBR_PLUG_HDR_LEN + 3, &m), 0);
	CU_ASSERT_FALSE(m.known);
	CU_ASSERT_STRING_EQUAL(ibr_plug_type_name(200), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_plug_type_name(IBR_PLUG_ROUTES), "routes");
}

static void test_pack_split(void)
{
	uint8_t fixed[IBR_PLUG_ROUTES_LEN] = { 0, 0, 0, 5 };
	uint32_t seq = 10;
	size_t per = (IBR_PLUG_MSG_MAX - IBR_PLUG_HDR_LEN - IBR_PLUG_ROUTES_LEN) /
		     IBR_PLUG_ROUTE_LEN;
	size_t total = 0;

	memset(&sk, 0, sizeof(sk));
	CU_ASSERT_EQUAL(ibr_plug_pack_start(&pk, IBR_PLUG_ROUTES, fixed, sink_emit, &sk, &seq), 0);
	for (size_t i = 0; i < per + 3; i++) {
		struct ibr_plug_route r = { .prefix = i, .guid = 1 };

		ibr_plug_route_put(ibr_plug_pack_rec(&pk), &r);
	}
	CU_ASSERT_EQUAL(ibr_plug_pack_end(&pk), 0);
	CU_ASSERT_EQUAL_FATAL(sk.n, 2);
	CU_ASSERT_EQUAL(seq, 12);
	for (int i = 0; i < 2; i++) {
		struct ibr_plug_msg m;

		CU_ASSERT_EQUAL_FATAL(ibr_plug_parse(sk.buf[i], sk.len[i], &m), 0);
		CU_ASSERT_EQUAL(m.flags, i == 0 ? IBR_PLUG_F_MORE : 0);
		CU_ASSERT_EQUAL(m.seq, 10u + (unsigned)i);
		CU_ASSERT_EQUAL(m.fixed[3], 5); /* the fixed part in every message */
		CU_ASSERT(sk.len[i] <= IBR_PLUG_MSG_MAX);
		for (unsigned k = 0; k < m.count; k++) {
			struct ibr_plug_route r;

			ibr_plug_route_get(m.recs + k * m.recsz, &r);
			CU_ASSERT_EQUAL(r.prefix, total + k);
		}
		total += m.count;
	}
	CU_ASSERT_EQUAL(total, per + 3);
	/* an empty batch is one message */
	memset(&sk, 0, sizeof(sk));
	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS_DEL, NULL, sink_emit, &sk, NULL);
	CU_ASSERT_EQUAL(ibr_plug_pack_end(&pk), 0);
	CU_ASSERT_EQUAL(sk.n, 1);
	CU_ASSERT_EQUAL(sk.len[0], IBR_PLUG_HDR_LEN);
	/* a type without records has no room for one; an unknown type no packer */
	ibr_plug_pack_start(&pk, IBR_PLUG_SNAP_BEGIN, NULL, sink_emit, &sk, NULL);
	CU_ASSERT_PTR_NULL(ibr_plug_pack_rec(&pk));
	ibr_plug_pack_end(&pk);
	CU_ASSERT_EQUAL(ibr_plug_pack_start(&pk, 99, NULL, sink_emit, &sk, NULL), -EINVAL);
}

static void test_pack_error(void)
{
	memset(&sk, 0, sizeof(sk));
	sk.n = 8; /* full: emit fails */
	ibr_plug_pack_start(&pk, IBR_PLUG_PORTS, NULL, sink_emit, &sk, NULL);
	ibr_plug_pack_rec(&pk);
	CU_ASSERT_EQUAL(ibr_plug_pack_end(&pk), -ENOBUFS);
}

static CU_TestInfo tests[] = {
	{ "every record reads back", test_records_roundtrip },
	{ "mcast record layout", test_mcast_layout },
	{ "alive: a header alone", test_alive },
	{ "strings bounded and printable", test_strings_sanitised },
	{ "parse checks lengths, layout, version", test_parse },
	{ "packer splits batches with MORE", test_pack_split },
	{ "packer reports emit errors", test_pack_error },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_plug", tests);
}
