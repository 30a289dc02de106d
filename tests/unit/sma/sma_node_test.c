/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_node_test.c - NodeInfo, NodeDescription and SMInfo (sma/sma_node.c),
 * decoded with libibmad's field tables, and the statuses of the SMA's
 * dispatch: unsupported attribute 0x000C, Set of a read-only attribute
 * 0x000C, bad AttributeModifier 0x001C, bad class version 0x0004,
 * unsupported method 0x0008, each echoing TID, AttributeID, AttributeModifier.
 */
#include "tests/unit/sma/sma_test.h"

static void test_node_info(void)
{
	struct sma *s = t_sma(3);
	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE], *d = t_data(rep);

	t_smp(req, 1, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 77);
	CU_ASSERT_EQUAL(t_run_at(s, 2, req, rep, 0, NULL), SMA_REPLY);
	CU_ASSERT(t_is_getresp(rep, IB_ATTR_NODE_INFO, 0, 77));
	CU_ASSERT_EQUAL(t_status(rep), 0);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_BASE_VERS_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_CLASS_VERS_F), 1);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_TYPE_F), IB_NODE_ROUTER);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_NPORTS_F), 3);
	CU_ASSERT_EQUAL(mad_get_field64(d, 0, IB_NODE_SYSTEM_GUID_F), T_NODE_GUID);
	CU_ASSERT_EQUAL(mad_get_field64(d, 0, IB_NODE_GUID_F), T_NODE_GUID);
	CU_ASSERT_EQUAL(mad_get_field64(d, 0, IB_NODE_PORT_GUID_F), T_PORT_GUID(2));
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_PARTITION_CAP_F), 32);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_DEVID_F), SMA_DEVICE_ID_DEFAULT);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_LOCAL_PORT_F), 2);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_VENDORID_F), SMA_VENDOR_ID_DEFAULT);
	sma_free(s);
}

/* Configured identity: SystemImageGUID, DeviceID, Revision, VendorID, caps. */
static void test_node_info_cfg(void)
{
	struct sma_node_cfg c;
	struct sma *s;
	uint8_t rep[IB_MAD_SIZE], *d = t_data(rep);

	t_cfg(&c, 1);
	c.system_image_guid = 0x5555;
	c.device_id = 0x0100;
	c.revision = 0xA0B0C0D0;
	c.vendor_id = 0x123456;
	c.ports[0].partition_cap = 64;
	s = sma_new(&c, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_NODE_INFO, 0, rep), 0);
	CU_ASSERT_EQUAL(mad_get_field64(d, 0, IB_NODE_SYSTEM_GUID_F), 0x5555);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_DEVID_F), 0x0100);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_REVISION_F), 0xA0B0C0D0);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_VENDORID_F), 0x123456);
	CU_ASSERT_EQUAL(mad_get_field(d, 0, IB_NODE_PARTITION_CAP_F), 64);
	sma_free(s);
}

static void test_node_desc(void)
{
	struct sma *s = t_sma(1);
	uint8_t rep[IB_MAD_SIZE];
	char desc[IB_SMP_DATA_SIZE + 1] = { 0 };

	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_NODE_DESC, 0, rep), 0);
	mad_get_array(t_data(rep), 0, IB_NODE_DESC_F, desc);
	CU_ASSERT_STRING_EQUAL(desc, "ibrouterd testhost rtr0");
	CU_ASSERT_EQUAL(t_get(s, IB_ATTR_NODE_DESC, 1, rep), IB_MAD_STS_INV_ATTR_VALUE);
	sma_free(s);
}

/*
 * SMInfo is an SM's attribute: a port that does not advertise IsSM has none
 * (0x000C, no false SM).  One that does (the ibsim lab) answers as an SM
 * that is not active, with the subnet's SM_Key (OpenSM ignores and logs an
 * SMInfo with another key, ERR 2F18) -- but 0 to a request whose M_Key
 * check hid the M_Key, as OpenSM answers.
 */
static void test_sm_info(void)
{
	struct sma *s = t_sma(2);
	struct sma_node_cfg c;
	struct sma_ops o = { .event = t_event };
	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE], zero[IB_SMP_DATA_SIZE] = { 0 };
	uint8_t pi[IB_SMP_DATA_SIZE];

	t_smp(req, 0, IB_MAD_METHOD_GET, IB_ATTR_SMINFO, 0, 5);
	CU_ASSERT_EQUAL(t_run_at(s, 2, req, rep, 0, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(t_status(rep), IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_SMINFO_GUID_F), 0);
	t_get(s, IB_ATTR_PORT_INFO, 2, rep);
	CU_ASSERT_FALSE(mad_get_field(t_data(rep), 0, IB_PORT_CAPMASK_F) & (1u << 1)); /* IsSM */
	sma_free(s);

	t_cfg(&c, 2);
	c.ports[1].capmask = SMA_CAP_DEFAULT | SMA_CAP_IS_SM;
	c.ports[1].sm_key = 0x1234567890ABCDEFull;
	t_nev = 0;
	s = sma_new(&c, &o);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(t_run_at(s, 2, req, rep, 0, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(t_status(rep), 0);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_SMINFO_GUID_F), T_PORT_GUID(2));
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_SMINFO_KEY_F), 0x1234567890ABCDEFull);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_SMINFO_STATE_F), 0);
	CU_ASSERT_EQUAL(mad_get_field(t_data(rep), 0, IB_SMINFO_PRIO_F), 0);
	CU_ASSERT_EQUAL(t_set(s, IB_ATTR_SMINFO, 0, zero, rep),
			IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
	/* port 1 has no IsSM: no SMInfo there */
	CU_ASSERT_EQUAL(t_run_at(s, 1, req, rep, 0, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(t_status(rep), IB_MAD_STS_METHOD_ATTR_NOT_SUPPORTED);
	/* port 2 gets an M_Key with protection 1: a Get without it sees SM_Key 0 */
	t_get(s, IB_ATTR_PORT_INFO, 2, rep);
	memcpy(pi, t_data(rep), sizeof(pi));
	mad_set_field(pi, 0, IB_PORT_STATE_F, 0);
	mad_set_field(pi, 0, IB_PORT_PHYS_STATE_F, 0);
	mad_set_field64(pi, 0, IB_PORT_MKEY_F, 0x77);
	mad_set_field(pi, 0, IB_PORT_MKEY_PROT_BITS_F, 1);
	{
		uint8_t set[IB_MAD_SIZE];

		t_smp(set, 1, IB_MAD_METHOD_SET, IB_ATTR_PORT_INFO, 2, 6); /* on port 2 itself */
		memcpy(t_data(set), pi, sizeof(pi));
		CU_ASSERT_EQUAL(t_run_at(s, 2, set, rep, 0, NULL), SMA_REPLY);
		CU_ASSERT_EQUAL(t_status(rep), 0);
	}
	CU_ASSERT_EQUAL(t_run_at(s, 2, req, rep, 0, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(t_status(rep), 0);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_SMINFO_KEY_F), 0);
	mad_set_field64(req, 0, IB_MAD_MKEY_F, 0x77);
	CU_ASSERT_EQUAL(t_run_at(s, 2, req, rep, 0, NULL), SMA_REPLY);
	CU_ASSERT_EQUAL(mad_get_field64(t_data(rep), 0, IB_SMINFO_KEY_F), 0x1234567890ABCDEFull);
	sma_free(s);
}

/* Statuses of the dispatch, each with the request's TID/AttributeID/Modifier. */
static void test_statuses(void)
{
	static const struct {
		const char *name;
		unsigned int method, attr, classver;
		uint32_t mod;
		unsigned int status;
	} t[] = {
		{ "unknown attribute", IB_MAD_METHOD_GET, 0x0099, 1, 0, 0x000C },
		{ "SwitchInfo (not a switch)", IB_MAD_METHOD_GET, 0x0012, 1, 0, 0x000C },
		{ "LinearForwardingTable", IB_MAD_METHOD_GET, 0x0019, 1, 0, 0x000C },
		{ "Mellanox ExtendedPortInfo", IB_MAD_METHOD_GET, 0xFF90, 1, 1, 0x000C },
		{ "NodeInfo Set", IB_MAD_METHOD_SET, IB_ATTR_NODE_INFO, 1, 0, 0x000C },
		{ "NodeDescription Set", IB_MAD_METHOD_SET, IB_ATTR_NODE_DESC, 1, 0, 0x000C },
		{ "NodeInfo bad AttributeModifier", IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 1, 5,
		  0x001C },
		{ "class version 2", IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 2, 0, 0x0004 },
		{ "GetTable", 0x12, IB_ATTR_NODE_INFO, 1, 0, 0x0008 },
		{ "Delete", 0x15, IB_ATTR_NODE_INFO, 1, 0, 0x0008 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		for (int dr = 0; dr <= 1; dr++) {
			struct sma *s = t_sma(1);
			uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE];
			/* Get and Set are answered by GetResp (13.4.5) */
			unsigned int rm = t[i].method == IB_MAD_METHOD_SET ? 0x81
									   : t[i].method | 0x80;

			t_smp(req, dr, t[i].method, t[i].attr, t[i].mod, 0x1000 + i);
			mad_set_field(req, 0, IB_MAD_CLASSVER_F, t[i].classver);
			if (t_run(s, req, rep) != SMA_REPLY || t_status(rep) != t[i].status ||
			    mad_get_field(rep, 0, IB_MAD_METHOD_F) != (rm & 0x7F) ||
			    mad_get_field(rep, 0, IB_MAD_RESPONSE_F) != 1 ||
			    mad_get_field64(rep, 0, IB_MAD_TRID_F) != 0x1000 + i ||
			    mad_get_field(rep, 0, IB_MAD_ATTRID_F) != t[i].attr ||
			    mad_get_field(rep, 0, IB_MAD_ATTRMOD_F) != t[i].mod) {
				fprintf(stderr, "status case %s dr %d: status %#x\n", t[i].name, dr,
					t_status(rep));
				CU_FAIL("status");
			}
			CU_ASSERT_EQUAL(sma_counters_get(s)->replies_error, 1);
			sma_free(s);
		}
	}
}

/* Requests that get no reply, each with its counted reason. */
static void test_drops(void)
{
	struct sma *s = t_sma(1);
	uint8_t req[IB_MAD_SIZE], rep[IB_MAD_SIZE];
	struct sma_rx rx = { .port = 1, .slid = 0xFFFF };
	struct sma_tx tx;
	enum sma_drop why;

	t_smp(req, 0, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 1);
	CU_ASSERT(sma_process(s, &rx, req, 255, rep, &tx, &why) == SMA_DISCARD &&
		  why == SMA_DROP_LENGTH);
	mad_set_field(req, 0, IB_MAD_BASEVER_F, 2);
	CU_ASSERT(t_run_at(s, 1, req, rep, 0, &why) == SMA_DISCARD && why == SMA_DROP_BASE_VERSION);
	t_smp(req, 0, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 1);
	mad_set_field(req, 0, IB_MAD_MGMTCLASS_F, 0x03);
	CU_ASSERT(t_run_at(s, 1, req, rep, 0, &why) == SMA_DISCARD && why == SMA_DROP_CLASS);
	t_smp(req, 0, IB_MAD_METHOD_GET, IB_ATTR_NODE_INFO, 0, 1);
	CU_ASSERT(t_run_at(s, 2, req, rep, 0, &why) == SMA_DISCARD && why == SMA_DROP_PORT);
	CU_ASSERT(t_run_at(s, 0, req, rep, 0, &why) == SMA_DISCARD && why == SMA_DROP_PORT);
	t_smp(req, 0, IB_MAD_METHOD_GET_RESPONSE, IB_ATTR_NODE_INFO, 0, 1);
	CU_ASSERT(t_run_at(s, 1, req, rep, 0, &why) == SMA_DISCARD && why == SMA_DROP_RESPONSE);
	t_smp(req, 0, IB_MAD_METHOD_SEND, IB_ATTR_NODE_INFO, 0, 1);
	CU_ASSERT(t_run_at(s, 1, req, rep, 0, &why) == SMA_DISCARD &&
		  why == SMA_DROP_NO_RESPONSE_METHOD);
	t_smp(req, 0, IB_MAD_METHOD_TRAP, 0x0002, 0, 1);
	CU_ASSERT(t_run_at(s, 1, req, rep, 0, &why) == SMA_DISCARD &&
		  why == SMA_DROP_NO_RESPONSE_METHOD);
	CU_ASSERT_EQUAL(sma_counters_get(s)->rx, 8);
	CU_ASSERT_EQUAL(sma_counters_get(s)->replies, 0);
	CU_ASSERT_EQUAL(sma_counters_get(s)->drops[SMA_DROP_PORT], 2);
	CU_ASSERT_EQUAL(sma_counters_get(s)->drops[SMA_DROP_NO_RESPONSE_METHOD], 2);
	sma_free(s);
}

static CU_TestInfo tests[] = {
	{ "NodeInfo", test_node_info },
	{ "NodeInfo from the config", test_node_info_cfg },
	{ "NodeDescription", test_node_desc },
	{ "SMInfo", test_sm_info },
	{ "statuses 0x04/0x08/0x0C/0x1C", test_statuses },
	{ "drops", test_drops },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("sma_node", tests);
}
