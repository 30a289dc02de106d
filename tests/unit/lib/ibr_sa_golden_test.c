/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa_golden_test.c - the codecs of lib/ibr_sa.c on golden records laid
 * out by hand from the IBA tables (NodeRecord, MCMemberRecord, InformInfo,
 * Notice, PortInfoRecord, GUIDInfoRecord, ClassPortInfo), compared byte by
 * byte and field by field (ibr_sa_layout.h); a NodeRecord's NodeDescription
 * text; the GID a Notice is about.
 */
#include "lib/ibr_sa.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/lib/ibr_sa_layout.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

/* ---- golden records, laid out by hand from the IBA tables ---- */

static const uint8_t mgid_a[16] = { 0xFF, 0x12, 0x40, 0x1B, 0xFF, 0xFF, 0,    0,
				    0,	  0,	0,    0,    0xFF, 0xFF, 0xFF, 0xFF };

static void test_golden_node_rec(void)
{
	static const uint8_t golden[IBR_SA_NODE_REC_LEN] = {
		[0] = 0x00,  0x2A,	       /* LID 0x2A, then 2 reserved */
		[4] = 0x01,  0x01, 0x03, 0x02, /* Base 1, Class 1, router, 2 ports */
		[8] = 0x00,  0x02, 0xC9, 0x03, 0x00, 0x11, 0x22, 0x33, /* SystemImageGUID */
		[16] = 0x00, 0x02, 0xC9, 0x03, 0x00, 0x11, 0x22, 0x34, /* NodeGUID */
		[24] = 0x00, 0x02, 0xC9, 0x03, 0x00, 0x11, 0x22, 0x35, /* PortGUID */
		[32] = 0x00, 0x40,				       /* PartitionCap 64 */
		[34] = 0xCF, 0x09,				       /* DeviceID */
		[36] = 0x00, 0x00, 0x00, 0xA0,			       /* Revision */
		[40] = 0x01,					       /* LocalPortNum */
		[41] = 0x00, 0x02, 0xC9,			       /* VendorID */
		[44] = 'i',  'b',  'r',	 'o',  'u',  't',  'e',	 'r',  ' ', 'r', '1',
	};
	struct ibr_sa_node_rec want = {
		.lid = 0x2A,
		.base_version = 1,
		.class_version = 1,
		.node_type = 3,
		.nports = 2,
		.system_guid = 0x0002C90300112233ull,
		.node_guid = 0x0002C90300112234ull,
		.port_guid = 0x0002C90300112235ull,
		.partition_cap = 64,
		.device_id = 0xCF09,
		.revision = 0xA0,
		.local_port = 1,
		.vendor_id = 0x0002C9,
		.desc = "ibrouter r1",
	};
	struct ibr_sa_node_rec got;
	uint8_t enc[IBR_SA_NODE_REC_LEN];

	ibr_sa_node_rec_encode(&want, enc);
	check_bytes("NodeRecord golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(node_fields) / sizeof(node_fields[0]); j++)
		CU_ASSERT_EQUAL(node_fields[j].get(&got), node_fields[j].get(&want));
	CU_ASSERT_STRING_EQUAL(got.desc, "ibrouter r1");
}

static void test_golden_mcm_rec(void)
{
	uint8_t golden[IBR_SA_MCM_REC_LEN] = {
		[32] = 0x00, 0x00, 0x00, 0x0B, /* Q_Key */
		[36] = 0xC0, 0x01,	       /* MLID */
		[38] = 0x84,		       /* MTUSelector 2 (exactly), MTU 4 (2048) */
		[39] = 0x00,		       /* TClass */
		[40] = 0xFF, 0xFF,	       /* P_Key */
		[42] = 0x83,		       /* RateSelector 2, Rate 3 (10 Gb/s) */
		[43] = 0x52,		       /* PacketLifeTimeSelector 1, PacketLifeTime 0x12 */
		[44] = 0x31, 0x23, 0x45,       /* SL 3, FlowLabel 0x12345 */
		[47] = 0x40,		       /* HopLimit 64 */
		[48] = 0x21,		       /* Scope 2 (link-local), JoinState full member */
		[49] = 0x80,		       /* ProxyJoin */
	};
	struct ibr_sa_mcm_rec want = {
		.qkey = 0x0B,
		.mlid = 0xC001,
		.mtu_sel = 2,
		.mtu = 4,
		.tclass = 0,
		.pkey = 0xFFFF,
		.rate_sel = 2,
		.rate = 3,
		.life_sel = 1,
		.life = 0x12,
		.sl = 3,
		.flowlabel = 0x12345,
		.hoplimit = 64,
		.scope = 2,
		.join_state = IBR_SA_JOIN_FULL,
		.proxy_join = true,
	};
	struct ibr_sa_mcm_rec got;
	uint8_t enc[IBR_SA_MCM_REC_LEN];

	memcpy(golden + 0, mgid_a, 16);
	memcpy(golden + 16, gid_a, 16);
	memcpy(want.mgid, mgid_a, 16);
	memcpy(want.port_gid, gid_a, 16);
	ibr_sa_mcm_rec_encode(&want, enc);
	check_bytes("MCMemberRecord golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_mcm_rec_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(mcm_fields) / sizeof(mcm_fields[0]); j++)
		CU_ASSERT_EQUAL(mcm_fields[j].get(&got), mcm_fields[j].get(&want));
	CU_ASSERT(memcmp(got.mgid, mgid_a, 16) == 0);
	CU_ASSERT(memcmp(got.port_gid, gid_a, 16) == 0);
}

static void test_golden_informinfo(void)
{
	uint8_t golden[IBR_SA_INFORMINFO_LEN] = {
		[16] = 0xFF, 0xFF,	       /* LIDRangeBegin: all */
		[18] = 0x00, 0x00,	       /* LIDRangeEnd */
		[22] = 0x01,		       /* IsGeneric */
		[23] = 0x01,		       /* Subscribe */
		[24] = 0xFF, 0xFF,	       /* Type: all */
		[26] = 0x00, 0x42,	       /* TrapNumber 66 */
		[28] = 0x00, 0x00, 0x01,       /* QPN 1 */
		[31] = 0x13,		       /* 3 reserved bits, RespTimeValue 19 */
		[32] = 0x00, 0x00, 0x00, 0x04, /* reserved, ProducerType 4 (class manager) */
	};
	struct ibr_sa_informinfo want = {
		.lid_begin = 0xFFFF,
		.lid_end = 0,
		.is_generic = true,
		.subscribe = true,
		.type = 0xFFFF,
		.trap_num = IBR_TRAP_MCG_CREATED,
		.qpn = 1,
		.resp_time = 19,
		.producer = 4,
	};
	struct ibr_sa_informinfo got;
	uint8_t enc[IBR_SA_INFORMINFO_LEN];

	memcpy(golden, gid_a, 16);
	memcpy(want.gid, gid_a, 16);
	ibr_sa_informinfo_encode(&want, enc);
	check_bytes("InformInfo golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_informinfo_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(ii_fields) / sizeof(ii_fields[0]); j++)
		CU_ASSERT_EQUAL(ii_fields[j].get(&got), ii_fields[j].get(&want));
	CU_ASSERT(memcmp(got.gid, gid_a, 16) == 0);

	/* IsGeneric and Subscribe are bytes: any non-zero value is true */
	golden[22] = 0x80;
	golden[23] = 0x00;
	CU_ASSERT_EQUAL_FATAL(ibr_sa_informinfo_decode(golden, sizeof(golden), &got), 0);
	CU_ASSERT_TRUE(got.is_generic);
	CU_ASSERT_FALSE(got.subscribe);
	/* QPN's and RespTimeValue's neighbours: reserved bits set do not leak in */
	golden[31] = 0xFF;
	golden[32] = 0xFF;
	CU_ASSERT_EQUAL_FATAL(ibr_sa_informinfo_decode(golden, sizeof(golden), &got), 0);
	CU_ASSERT_EQUAL(got.resp_time, 0x1F);
	CU_ASSERT_EQUAL(got.qpn, 1);
	CU_ASSERT_EQUAL(got.producer, 4);
}

static void test_golden_notice(void)
{
	uint8_t golden[IBR_SA_NOTICE_LEN] = {
		[0] = 0x81,			 /* IsGeneric, Type 1 (urgent) */
		[1] = 0x00, 0x00, 0x04,		 /* ProducerType 4: class manager */
		[4] = 0x00, 0x40,		 /* TrapNumber 64: GID in service */
		[6] = 0x00, 0x01,		 /* IssuerLID 1 */
		[8] = 0x80, 0x05,		 /* NoticeToggle, NoticeCount 5 */
		[10] = 0,   0,	  0,	0, 0, 0, /* DataDetails: 6 reserved bytes, GIDADDR at 16 */
	};
	struct ibr_sa_notice want = {
		.is_generic = true,
		.type = 1,
		.producer = 4,
		.trap_num = IBR_TRAP_GID_IN_SERVICE,
		.issuer_lid = 1,
		.toggle = true,
		.count = 5,
	};
	struct ibr_sa_notice got;
	uint8_t enc[IBR_SA_NOTICE_LEN];

	memcpy(golden + 16, gid_a, 16);
	golden[63] = 0xEE;		 /* last byte of DataDetails */
	memcpy(golden + 64, mgid_a, 16); /* IssuerGID (any GID will do) */
	memcpy(want.details + 6, gid_a, 16);
	want.details[53] = 0xEE;
	memcpy(want.issuer_gid, mgid_a, 16);
	ibr_sa_notice_encode(&want, enc);
	check_bytes("Notice golden", enc, golden, sizeof(golden));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_notice_decode(golden, sizeof(golden), &got), 0);
	for (size_t j = 0; j < sizeof(notice_fields) / sizeof(notice_fields[0]); j++)
		CU_ASSERT_EQUAL(notice_fields[j].get(&got), notice_fields[j].get(&want));
	CU_ASSERT(memcmp(got.details, want.details, sizeof(got.details)) == 0);
	CU_ASSERT(memcmp(got.issuer_gid, mgid_a, 16) == 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ibr_sa_notice_gid(&got));
	CU_ASSERT(ibr_sa_notice_gid(&got) == got.details + 6);
	CU_ASSERT(memcmp(ibr_sa_notice_gid(&got), gid_a, 16) == 0);
}

static void test_golden_portinfo_rec(void)
{
	/* PortInfoRecord: EndportLID 0x10, port 1, Options, then PortInfo at byte 4 */
	uint8_t pir[IBR_SA_PORTINFO_REC_LEN] = {
		[0] = 0x00,	 0x10, 0x01, 0x00, /* EndportLID, PortNum, Options */
		[4 + 8] = 0xFE,	 0x80,		   /* GidPrefix fe80:: */
		[4 + 16] = 0x00, 0x10,		   /* LID */
		[4 + 18] = 0x00, 0x01,		   /* MasterSMLID */
		[4 + 20] = 0x02, 0x51, 0x08, 0x48, /* CapabilityMask */
		[4 + 31] = 0x02,		   /* LinkWidthActive 4x */
		[4 + 32] = 0x24,		   /* LinkSpeedSupported 2, PortState 4 active */
		[4 + 33] = 0x52,		   /* PortPhysicalState 5, LinkDownDefault 2 */
		[4 + 34] = 0x02,		   /* M_KeyProtectBits 0, LMC 2 */
		[4 + 35] = 0x11,		   /* LinkSpeedActive 1, LinkSpeedEnabled 1 */
		[4 + 36] = 0x50,		   /* NeighborMTU 5 (4096), MasterSMSL 0 */
		[4 + 41] = 0x04,		   /* InitTypeReply 0, MTUCap 4 */
	};
	struct ibr_sa_portinfo_rec p, q;

	CU_ASSERT_EQUAL_FATAL(ibr_sa_portinfo_rec_decode(pir, sizeof(pir), &p), 0);
	CU_ASSERT_EQUAL(p.lid, 0x10);
	CU_ASSERT_EQUAL(p.port_num, 1);
	CU_ASSERT_EQUAL(p.gid_prefix, 0xFE80000000000000ull);
	CU_ASSERT_EQUAL(p.base_lid, 0x10);
	CU_ASSERT_EQUAL(p.sm_lid, 1);
	CU_ASSERT_EQUAL(p.cap_mask, 0x02510848);
	CU_ASSERT_EQUAL(p.link_width_active, 2);
	CU_ASSERT_EQUAL(p.state, 4);
	CU_ASSERT_EQUAL(p.phys_state, 5);
	CU_ASSERT_EQUAL(p.lmc, 2);
	CU_ASSERT_EQUAL(p.link_speed_active, 1);
	CU_ASSERT_EQUAL(p.neighbor_mtu, 5);
	CU_ASSERT_EQUAL(p.mtu_cap, 4);
	/* the PortInfo alone decodes the same, without the record's key */
	CU_ASSERT_EQUAL_FATAL(ibr_sa_portinfo_decode(pir + 4, 64, &q), 0);
	CU_ASSERT_EQUAL(q.lid, 0);
	CU_ASSERT_EQUAL(q.port_num, 0);
	q.lid = p.lid;
	q.port_num = p.port_num;
	for (size_t j = 0; j < sizeof(pir_fields) / sizeof(pir_fields[0]); j++)
		CU_ASSERT_EQUAL(pir_fields[j].get(&q), pir_fields[j].get(&p));
}

static void test_golden_guidinfo_cpi(void)
{
	uint8_t gir[IBR_SA_GUIDINFO_REC_LEN] = { [0] = 0x00, 0x07, 0x02 }; /* LID 7, block 2 */
	struct ibr_sa_guidinfo_rec g;
	uint8_t cpi[IBR_SA_CLASSPORTINFO_LEN] = {
		[0] = 0x01,  0x02, 0x26, 0x02, /* versions, CapabilityMask */
		[4] = 0x00,  0x00, 0x00, 0x33, /* CapabilityMask2 1, RespTimeValue 19 */
		[28] = 0x00, 0x05, 0xFF, 0xFF, /* RedirectLID, RedirectP_Key */
		[32] = 0x00, 0x00, 0x00, 0x01, /* reserved, RedirectQP 1 */
		[36] = 0x80, 0x01, 0x00, 0x00, /* RedirectQ_Key */
		[60] = 0x00, 0x09,	       /* TrapLID */
	};
	struct ibr_sa_classportinfo c;

	gir[8 + 7] = 0x01;				    /* GUID0 = 1 */
	memset(gir + IBR_SA_GUIDINFO_REC_LEN - 8, 0xAB, 8); /* GUID7 */
	CU_ASSERT_EQUAL_FATAL(ibr_sa_guidinfo_rec_decode(gir, sizeof(gir), &g), 0);
	CU_ASSERT_EQUAL(g.lid, 7);
	CU_ASSERT_EQUAL(g.block, 2);
	CU_ASSERT_EQUAL(g.guid[0], 1);
	CU_ASSERT_EQUAL(g.guid[1], 0);
	CU_ASSERT_EQUAL(g.guid[7], 0xABABABABABABABABull);

	memcpy(cpi + 8, gid_a, 16);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_classportinfo_decode(cpi, sizeof(cpi), &c), 0);
	CU_ASSERT_EQUAL(c.base_version, 1);
	CU_ASSERT_EQUAL(c.class_version, 2);
	CU_ASSERT_EQUAL(c.cap_mask, 0x2602);
	CU_ASSERT_EQUAL(c.cap_mask2, 1);
	CU_ASSERT_EQUAL(c.resp_time, 19);
	CU_ASSERT(memcmp(c.redirect_gid, gid_a, 16) == 0);
	CU_ASSERT_EQUAL(c.redirect_lid, 5);
	CU_ASSERT_EQUAL(c.redirect_pkey, 0xFFFF);
	CU_ASSERT_EQUAL(c.redirect_qp, 1);
	CU_ASSERT_EQUAL(c.redirect_qkey, 0x80010000);
	CU_ASSERT_EQUAL(c.trap_lid, 9);
}

/* ---- NodeDescription text ---- */

static void test_node_desc(void)
{
	uint8_t rec[IBR_SA_NODE_REC_LEN] = { 0 };
	uint8_t *d = rec + NODE_DESC_OFFS;
	struct ibr_sa_node_rec n;
	char full[65];

	/* 64 bytes without a NUL: all kept, terminated */
	for (int i = 0; i < 64; i++)
		full[i] = (char)('A' + i % 26);
	full[64] = '\0';
	memcpy(d, full, 64);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, sizeof(rec), &n), 0);
	CU_ASSERT_EQUAL(strlen(n.desc), 64);
	CU_ASSERT_STRING_EQUAL(n.desc, full);
	/* non-printable bytes become '?'; the text ends at the first NUL */
	memset(d, 0, 64);
	static const uint8_t odd[] = { 's', 'w', 0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, ' ',
				       'x', 0,	 'h',  'i',  'd',  'd',	 'e',  'n' };

	memcpy(d, odd, sizeof(odd));
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, sizeof(rec), &n), 0);
	CU_ASSERT_STRING_EQUAL(n.desc, "sw?????? x");
	for (size_t i = strlen(n.desc); i < sizeof(n.desc); i++)
		CU_ASSERT_EQUAL(n.desc[i], 0);
	/* empty */
	memset(d, 0, 64);
	CU_ASSERT_EQUAL_FATAL(ibr_sa_node_rec_decode(rec, sizeof(rec), &n), 0);
	CU_ASSERT_STRING_EQUAL(n.desc, "");
	/* encode: NUL-padded to 64 bytes; a full 64-character text has no NUL */
	memset(&n, 0, sizeof(n));
	strcpy(n.desc, "r1");
	memset(rec, 0xEE, sizeof(rec));
	ibr_sa_node_rec_encode(&n, rec);
	CU_ASSERT(memcmp(d, "r1\0\0", 4) == 0);
	for (int i = 2; i < 64; i++)
		CU_ASSERT_EQUAL(d[i], 0);
	memcpy(n.desc, full, sizeof(full));
	ibr_sa_node_rec_encode(&n, rec);
	CU_ASSERT(memcmp(d, full, 64) == 0);
	/* a desc missing its terminator is cut at 64 bytes */
	memset(n.desc, 'z', sizeof(n.desc));
	ibr_sa_node_rec_encode(&n, rec);
	for (int i = 0; i < 64; i++)
		CU_ASSERT_EQUAL(d[i], 'z');
}

/* ---- Notice GID ---- */

static void test_notice_gid(void)
{
	struct ibr_sa_notice n = { .is_generic = true };

	for (unsigned int t = 0; t < 200; t++) {
		n.trap_num = (uint16_t)t;
		const uint8_t *want = t >= 64 && t <= 67 ? n.details + 6 : NULL;

		CU_ASSERT(ibr_sa_notice_gid(&n) == want);
	}
	n.trap_num = 64;
	n.is_generic = false; /* vendor notice: DeviceID 64 */
	CU_ASSERT_PTR_NULL(ibr_sa_notice_gid(&n));
}

static CU_TestInfo tests[] = {
	{ "golden NodeRecord", test_golden_node_rec },
	{ "golden MCMemberRecord", test_golden_mcm_rec },
	{ "golden InformInfo", test_golden_informinfo },
	{ "golden Notice", test_golden_notice },
	{ "golden PortInfoRecord", test_golden_portinfo_rec },
	{ "golden GUIDInfoRecord, ClassPortInfo", test_golden_guidinfo_cpi },
	{ "NodeDescription text", test_node_desc },
	{ "Notice GID", test_notice_gid },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_sa_golden", tests);
}
