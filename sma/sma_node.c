/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_node.c - NodeDescription (14.2.5.2), NodeInfo (14.2.5.3) and SMInfo
 * (14.2.5.13) of the router node.  Layouts through libibmad's field table
 * (IB_NODE_*_F, IB_NODE_DESC_F, IB_SMINFO_*_F).
 */
#include "sma/sma_int.h"

#include <string.h>

/* NodeDescription: read only, AttributeModifier 0. */
uint16_t sma_attr_node_desc(struct sma_req *r)
{
	if (r->method != IBR_MAD_METHOD_GET)
		return IBR_MAD_STATUS_UNSUP_METHOD_ATTR;
	if (r->attr_mod)
		return IBR_MAD_STATUS_INVALID_FIELD;
	memset(r->data, 0, IBR_SMP_DATA_SIZE);
	/* 64 bytes of UTF-8, NUL padded (not necessarily terminated) */
	memcpy(r->data, r->s->cfg.node_desc, strnlen(r->s->cfg.node_desc, SMA_NODE_DESC_SIZE));
	return IBR_MAD_STATUS_OK;
}

/*
 * NodeInfo: read only, AttributeModifier 0.  NodeType 3 (Router), PortGUID
 * and LocalPortNum of the port the SMP arrived on, PartitionCap of that port.
 */
uint16_t sma_attr_node_info(struct sma_req *r)
{
	const struct sma_node_cfg *c = &r->s->cfg;
	uint8_t *d = r->data;

	if (r->method != IBR_MAD_METHOD_GET)
		return IBR_MAD_STATUS_UNSUP_METHOD_ATTR;
	if (r->attr_mod)
		return IBR_MAD_STATUS_INVALID_FIELD;
	memset(d, 0, IBR_SMP_DATA_SIZE);
	sma_fset(d, IB_NODE_BASE_VERS_F, IBR_MAD_BASE_VERSION);
	sma_fset(d, IB_NODE_CLASS_VERS_F, IBR_SMP_CLASS_VERSION);
	sma_fset(d, IB_NODE_TYPE_F, IB_NODE_ROUTER);
	sma_fset(d, IB_NODE_NPORTS_F, c->num_ports);
	sma_fset64(d, IB_NODE_SYSTEM_GUID_F, c->system_image_guid);
	sma_fset64(d, IB_NODE_GUID_F, c->node_guid);
	sma_fset64(d, IB_NODE_PORT_GUID_F, c->ports[r->port->num - 1].guid);
	sma_fset(d, IB_NODE_PARTITION_CAP_F, r->port->partition_cap);
	sma_fset(d, IB_NODE_DEVID_F, c->device_id);
	sma_fset(d, IB_NODE_REVISION_F, c->revision);
	sma_fset(d, IB_NODE_LOCAL_PORT_F, r->port->num);
	sma_fset(d, IB_NODE_VENDORID_F, c->vendor_id);
	return IBR_MAD_STATUS_OK;
}

/*
 * SMInfo (14.2.5.13) is an SM's attribute.  The router runs no SM, so a
 * port that does not advertise IsSM has no SMInfo: 0x000C, as a CA port
 * without an SM answers.  A port that does advertise it (ibsim's lab only,
 * where IsSM is what makes ibsim forward vendor SMPs and Reports to us:
 * ibrd_mad.c) answers a Get at once, so that an SM polling it does not wait
 * for a timeout: SMState NotActive (0), priority 0, the port's GUID, and the
 * subnet's SM_Key from the config, for OpenSM ignores and logs (ERR 2F18)
 * an SMInfo whose SM_Key is not its own unless its own is 0.  The key is
 * shown only to a request whose M_Key check passed (0 when M_KeyProtectBits
 * 1 hid the M_Key), as OpenSM answers SMInfo (IBA: the SM_Key only to an
 * authenticated requester).  A Set (an SM handing over mastership, 14.4.1)
 * is not supported.
 */
uint16_t sma_attr_sm_info(struct sma_req *r)
{
	const struct sma_port_cfg *pc = &r->s->cfg.ports[r->port->num - 1];
	uint8_t *d = r->data;

	memset(d, 0, IBR_SMP_DATA_SIZE);
	if (r->method != IBR_MAD_METHOD_GET || !(pc->capmask & SMA_CAP_IS_SM))
		return IBR_MAD_STATUS_UNSUP_METHOD_ATTR;
	sma_fset64(d, IB_SMINFO_GUID_F, pc->guid);
	sma_fset64(d, IB_SMINFO_KEY_F, r->mkey_ok ? pc->sm_key : 0);
	sma_fset(d, IB_SMINFO_ACT_F, 0);
	sma_fset(d, IB_SMINFO_PRIO_F, 0);
	sma_fset(d, IB_SMINFO_STATE_F, 0);
	return IBR_MAD_STATUS_OK;
}
