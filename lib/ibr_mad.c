/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_mad.c - MAD header validation, builders and name tables (IBA vol. 1,
 * chapters 13.4 and 13.6 (MADs, RMPP), 14.2 (SMPs), 15.2 (SA)).  The field
 * accessors are inline in ibr_mad.h.
 */
#include "lib/ibr_mad.h"

#include <errno.h>
#include <string.h>

/* ---- classes (13.4.4) ---- */

struct mad_class_info {
	uint8_t lo, hi;	 /* class value range */
	uint8_t version; /* 0: any */
	bool rmpp;	 /* carries an RMPP header (13.6.1) */
	const char *name;
};

static const struct mad_class_info mad_classes[] = {
	{ 0x01, 0x01, IBR_SMP_CLASS_VERSION, false, "SubnMgmt" }, /* 14.2.1.1 */
	{ 0x03, 0x03, IBR_SA_CLASS_VERSION, true, "SubnAdm" },	  /* 15.2.1.1 */
	{ 0x04, 0x04, 1, false, "PerfMgt" },			  /* 16.1 */
	{ 0x05, 0x05, 1, false, "BM" },				  /* 16.2 */
	{ 0x06, 0x06, 1, false, "DevMgt" },			  /* 16.3 */
	{ 0x07, 0x07, 2, false, "ComMgt" },			  /* 12.6 (CM version 2) */
	{ 0x08, 0x08, 1, false, "SNMP" },			  /* 16.4 */
	{ 0x09, 0x0F, 0, false, "Vendor" },			  /* range 1 */
	{ 0x10, 0x20, 0, false, "Application" },
	{ 0x21, 0x21, 2, false, "CongestionMgt" }, /* Annex A10 */
	{ 0x22, 0x2F, 0, false, "Application" },
	{ 0x30, 0x4F, 0, true, "VendorOUI" },			    /* range 2, with RMPP */
	{ 0x81, 0x81, IBR_SMP_CLASS_VERSION, false, "SubnMgmtDR" }, /* 14.2.1.2 */
};

static const struct mad_class_info *mad_class_find(uint8_t mgmt_class)
{
	for (size_t i = 0; i < sizeof(mad_classes) / sizeof(mad_classes[0]); i++)
		if (mgmt_class >= mad_classes[i].lo && mgmt_class <= mad_classes[i].hi)
			return &mad_classes[i];
	return NULL;
}

unsigned int ibr_mad_class_default_version(uint8_t mgmt_class)
{
	const struct mad_class_info *c = mad_class_find(mgmt_class);

	return c ? c->version : 0;
}

bool ibr_mad_class_is_known(uint8_t mgmt_class)
{
	return mad_class_find(mgmt_class) != NULL;
}

bool ibr_mad_class_has_rmpp(uint8_t mgmt_class)
{
	const struct mad_class_info *c = mad_class_find(mgmt_class);

	return c && c->rmpp;
}

const char *ibr_mad_class_name(uint8_t mgmt_class)
{
	const struct mad_class_info *c = mad_class_find(mgmt_class);

	return c ? c->name : "reserved";
}

/* ---- methods (13.4.5) ---- */

const char *ibr_mad_method_name(uint8_t method)
{
	switch (method) {
	case IBR_MAD_METHOD_GET:
		return "Get";
	case IBR_MAD_METHOD_SET:
		return "Set";
	case IBR_MAD_METHOD_SEND:
		return "Send";
	case IBR_MAD_METHOD_TRAP:
		return "Trap";
	case IBR_MAD_METHOD_REPORT:
		return "Report";
	case IBR_MAD_METHOD_TRAP_REPRESS:
		return "TrapRepress";
	case IBR_MAD_METHOD_GET_TABLE:
		return "GetTable";
	case IBR_MAD_METHOD_GET_TRACE_TABLE:
		return "GetTraceTable";
	case IBR_MAD_METHOD_GET_MULTI:
		return "GetMulti";
	case IBR_MAD_METHOD_DELETE:
		return "Delete";
	case IBR_MAD_METHOD_GET_RESP:
		return "GetResp";
	case IBR_MAD_METHOD_REPORT_RESP:
		return "ReportResp";
	case IBR_MAD_METHOD_GET_TABLE_RESP:
		return "GetTableResp";
	case IBR_MAD_METHOD_GET_TRACE_TABLE_RESP:
		return "GetTraceTableResp";
	case IBR_MAD_METHOD_GET_MULTI_RESP:
		return "GetMultiResp";
	case IBR_MAD_METHOD_DELETE_RESP:
		return "DeleteResp";
	}
	return "unknown";
}

uint8_t ibr_mad_response_method(uint8_t method)
{
	switch (method) {
	case IBR_MAD_METHOD_GET:
	case IBR_MAD_METHOD_SET:
		return IBR_MAD_METHOD_GET_RESP;
	case IBR_MAD_METHOD_TRAP:
		return IBR_MAD_METHOD_TRAP_REPRESS;
	case IBR_MAD_METHOD_REPORT:
	case IBR_MAD_METHOD_GET_TABLE:
	case IBR_MAD_METHOD_GET_TRACE_TABLE:
	case IBR_MAD_METHOD_GET_MULTI:
	case IBR_MAD_METHOD_DELETE:
		return method | IBR_MAD_METHOD_RESP;
	}
	return 0;
}

/* ---- attributes ---- */

struct mad_name {
	uint16_t id;
	const char *name;
};

/* 13.4.8: attributes shared by every class. */
static const struct mad_name mad_attrs_common[] = {
	{ IBR_ATTR_CLASS_PORT_INFO, "ClassPortInfo" },
	{ IBR_ATTR_NOTICE, "Notice" },
	{ IBR_ATTR_INFORM_INFO, "InformInfo" },
	{ 0, NULL },
};

/* 14.2.5, and the vendor attributes the router answers. */
static const struct mad_name mad_attrs_smp[] = {
	{ IBR_SMP_ATTR_NODE_DESC, "NodeDescription" },
	{ IBR_SMP_ATTR_NODE_INFO, "NodeInfo" },
	{ IBR_SMP_ATTR_SWITCH_INFO, "SwitchInfo" },
	{ IBR_SMP_ATTR_GUID_INFO, "GUIDInfo" },
	{ IBR_SMP_ATTR_PORT_INFO, "PortInfo" },
	{ IBR_SMP_ATTR_PKEY_TABLE, "P_KeyTable" },
	{ IBR_SMP_ATTR_SL2VL_TABLE, "SLtoVLMappingTable" },
	{ IBR_SMP_ATTR_VL_ARB, "VLArbitrationTable" },
	{ IBR_SMP_ATTR_LFT, "LinearForwardingTable" },
	{ IBR_SMP_ATTR_RFT, "RandomForwardingTable" },
	{ IBR_SMP_ATTR_MFT, "MulticastForwardingTable" },
	{ IBR_SMP_ATTR_SM_INFO, "SMInfo" },
	{ IBR_SMP_ATTR_VENDOR_DIAG, "VendorDiag" },
	{ IBR_SMP_ATTR_LED_INFO, "LedInfo" },
	{ IBR_SMP_ATTR_PORT_INFO_EXT, "PortInfoExtended" },
	{ IBR_SMP_ATTR_MLNX_EXT_PORT_INFO, "MlnxExtendedPortInfo" },
	{ IBR_SMP_ATTR_ROUTER_INFO, "RouterInfo" },
	{ IBR_SMP_ATTR_NEXT_HOP_TABLE, "NextHopTable" },
	{ IBR_SMP_ATTR_ADJ_SITE_LOCAL_SUBNETS, "AdjacentSiteLocalSubnetsTable" },
	{ 0, NULL },
};

/* 15.2.5 */
static const struct mad_name mad_attrs_sa[] = {
	{ IBR_SA_ATTR_NODE_RECORD, "NodeRecord" },
	{ IBR_SA_ATTR_PORT_INFO_RECORD, "PortInfoRecord" },
	{ IBR_SA_ATTR_SL2VL_RECORD, "SLtoVLMappingTableRecord" },
	{ IBR_SA_ATTR_SWITCH_INFO_RECORD, "SwitchInfoRecord" },
	{ IBR_SA_ATTR_LFT_RECORD, "LinearForwardingTableRecord" },
	{ IBR_SA_ATTR_RFT_RECORD, "RandomForwardingTableRecord" },
	{ IBR_SA_ATTR_MFT_RECORD, "MulticastForwardingTableRecord" },
	{ IBR_SA_ATTR_SM_INFO_RECORD, "SMInfoRecord" },
	{ IBR_SA_ATTR_LINK_RECORD, "LinkRecord" },
	{ IBR_SA_ATTR_GUID_INFO_RECORD, "GUIDInfoRecord" },
	{ IBR_SA_ATTR_SERVICE_RECORD, "ServiceRecord" },
	{ IBR_SA_ATTR_PKEY_TABLE_RECORD, "P_KeyTableRecord" },
	{ IBR_SA_ATTR_PATH_RECORD, "PathRecord" },
	{ IBR_SA_ATTR_VL_ARB_RECORD, "VLArbitrationTableRecord" },
	{ IBR_SA_ATTR_MCMEMBER_RECORD, "MCMemberRecord" },
	{ IBR_SA_ATTR_TRACE_RECORD, "TraceRecord" },
	{ IBR_SA_ATTR_MULTI_PATH_RECORD, "MultiPathRecord" },
	{ IBR_SA_ATTR_SERVICE_ASSOC_RECORD, "ServiceAssociationRecord" },
	{ IBR_SA_ATTR_INFORM_INFO_RECORD, "InformInfoRecord" },
	{ 0, NULL },
};

static const char *mad_name_find(const struct mad_name *t, uint16_t id)
{
	for (; t->name; t++)
		if (t->id == id)
			return t->name;
	return NULL;
}

const char *ibr_mad_attr_name(uint8_t mgmt_class, uint16_t attr_id)
{
	const char *n = mad_name_find(mad_attrs_common, attr_id);

	if (n)
		return n;
	if (mgmt_class == IBR_MGMT_CLASS_SUBN_LID || mgmt_class == IBR_MGMT_CLASS_SUBN_DR)
		n = mad_name_find(mad_attrs_smp, attr_id);
	else if (mgmt_class == IBR_MGMT_CLASS_SUBN_ADM)
		n = mad_name_find(mad_attrs_sa, attr_id);
	return n ? n : "unknown";
}

/* ---- status (13.4.7; SA 15.2.1.1) ---- */

static const char *mad_sa_status_name(uint16_t status)
{
	switch (status & IBR_MAD_STATUS_CLASS_MASK) {
	case IBR_SA_STATUS_NO_RESOURCES:
		return "SA_NoResources";
	case IBR_SA_STATUS_REQ_INVALID:
		return "SA_RequestInvalid";
	case IBR_SA_STATUS_NO_RECORDS:
		return "SA_NoRecords";
	case IBR_SA_STATUS_TOO_MANY_RECORDS:
		return "SA_TooManyRecords";
	case IBR_SA_STATUS_REQ_INVALID_GID:
		return "SA_InvalidGID";
	case IBR_SA_STATUS_REQ_INSUFFICIENT_COMPONENTS:
		return "SA_InsufficientComponents";
	case IBR_SA_STATUS_REQ_DENIED:
		return "SA_RequestDenied";
	case IBR_SA_STATUS_PRIO_SUGGESTED:
		return "SA_PrioritySuggested";
	}
	return "SA_unknown";
}

const char *ibr_mad_status_name(uint8_t mgmt_class, uint16_t status)
{
	if (mgmt_class == IBR_MGMT_CLASS_SUBN_DR)
		status &= IBR_SMP_DR_STATUS_MASK;
	switch (status & IBR_MAD_STATUS_CODE_MASK) {
	case IBR_MAD_STATUS_BAD_VERSION:
		return "BadVersion";
	case IBR_MAD_STATUS_UNSUP_METHOD:
		return "UnsupportedMethod";
	case IBR_MAD_STATUS_UNSUP_METHOD_ATTR:
		return "UnsupportedMethodAttribute";
	case IBR_MAD_STATUS_INVALID_FIELD:
		return "InvalidField";
	case 0:
		break;
	default:
		return "ReservedCode";
	}
	if (mgmt_class == IBR_MGMT_CLASS_SUBN_ADM && (status & IBR_MAD_STATUS_CLASS_MASK))
		return mad_sa_status_name(status);
	if (status & IBR_MAD_STATUS_BUSY)
		return "Busy";
	if (status & IBR_MAD_STATUS_REDIRECT)
		return "Redirect";
	return status ? "unknown" : "OK";
}

/* ---- header codec and validation ---- */

void ibr_mad_hdr_decode(const void *buf, struct ibr_mad_hdr *h)
{
	const uint8_t *m = buf;

	h->base_version = ibr_mad_base_version(m);
	h->mgmt_class = ibr_mad_mgmt_class(m);
	h->class_version = ibr_mad_class_version(m);
	h->method = ibr_mad_method(m);
	h->status = ibr_mad_status(m);
	h->class_specific = ibr_mad_class_specific(m);
	h->tid = ibr_mad_tid(m);
	h->attr_id = ibr_mad_attr_id(m);
	h->resv = ibr_mad_ld16(m + 18);
	h->attr_mod = ibr_mad_attr_mod(m);
}

void ibr_mad_hdr_encode(const struct ibr_mad_hdr *h, void *buf)
{
	uint8_t *m = buf;

	ibr_mad_set_base_version(m, h->base_version);
	ibr_mad_set_mgmt_class(m, h->mgmt_class);
	ibr_mad_set_class_version(m, h->class_version);
	ibr_mad_set_method(m, h->method);
	ibr_mad_set_status(m, h->status);
	ibr_mad_set_class_specific(m, h->class_specific);
	ibr_mad_set_tid(m, h->tid);
	ibr_mad_set_attr_id(m, h->attr_id);
	ibr_mad_st16(m + 18, h->resv);
	ibr_mad_set_attr_mod(m, h->attr_mod);
}

/* Length rule of ibr_mad_parse() for a known class. */
static bool mad_len_ok(const uint8_t *m, size_t len, const struct mad_class_info *c)
{
	size_t min;

	if (len == IBR_MAD_SIZE)
		return true;
	if (!c->rmpp)
		return false;
	/* A reassembled RMPP message: header of the class, then any payload. */
	min = ibr_mad_mgmt_class(m) == IBR_MGMT_CLASS_SUBN_ADM
		      ? IBR_SA_DATA_OFFS
		      : IBR_RMPP_HDR_OFFS + IBR_RMPP_HDR_SIZE;
	return len >= min && (ibr_rmpp_flags(m) & IBR_RMPP_FLAG_ACTIVE);
}

enum ibr_mad_err ibr_mad_parse(const void *buf, size_t len, struct ibr_mad_hdr *out)
{
	const struct mad_class_info *c;
	const uint8_t *m = buf;

	if (!buf || len < IBR_MAD_HDR_SIZE)
		return IBR_MAD_ERR_SHORT;
	ibr_mad_hdr_decode(m, out);
	if (out->base_version != IBR_MAD_BASE_VERSION)
		return IBR_MAD_ERR_BASE_VERSION;
	c = mad_class_find(out->mgmt_class);
	if (!c)
		return IBR_MAD_ERR_CLASS;
	if (c->version && out->class_version != c->version)
		return IBR_MAD_ERR_CLASS_VERSION;
	if (!mad_len_ok(m, len, c))
		return IBR_MAD_ERR_LENGTH;
	return IBR_MAD_OK;
}

const char *ibr_mad_err_name(enum ibr_mad_err err)
{
	switch (err) {
	case IBR_MAD_OK:
		return "ok";
	case IBR_MAD_ERR_SHORT:
		return "shorter than a MAD header";
	case IBR_MAD_ERR_LENGTH:
		return "bad length for the class";
	case IBR_MAD_ERR_BASE_VERSION:
		return "bad base version";
	case IBR_MAD_ERR_CLASS:
		return "reserved management class";
	case IBR_MAD_ERR_CLASS_VERSION:
		return "bad class version";
	}
	return "unknown";
}

/* ---- DR SMP paths (14.2.1.2) ---- */

static int smp_path_get(const uint8_t *m, size_t offs, unsigned int idx, uint8_t *port)
{
	if (idx >= IBR_SMP_PATH_SIZE)
		return -EINVAL;
	*port = m[offs + idx];
	return 0;
}

static int smp_path_set(uint8_t *m, size_t offs, unsigned int idx, uint8_t port)
{
	if (idx >= IBR_SMP_PATH_SIZE)
		return -EINVAL;
	m[offs + idx] = port;
	return 0;
}

int ibr_smp_dr_initial_path(const uint8_t *m, unsigned int idx, uint8_t *port)
{
	return smp_path_get(m, IBR_SMP_INITIAL_PATH_OFFS, idx, port);
}

int ibr_smp_dr_set_initial_path(uint8_t *m, unsigned int idx, uint8_t port)
{
	return smp_path_set(m, IBR_SMP_INITIAL_PATH_OFFS, idx, port);
}

int ibr_smp_dr_return_path(const uint8_t *m, unsigned int idx, uint8_t *port)
{
	return smp_path_get(m, IBR_SMP_RETURN_PATH_OFFS, idx, port);
}

int ibr_smp_dr_set_return_path(uint8_t *m, unsigned int idx, uint8_t port)
{
	return smp_path_set(m, IBR_SMP_RETURN_PATH_OFFS, idx, port);
}

/* ---- RMPP (13.6.2) ---- */

bool ibr_rmpp_is_umad2sim_truncated(const void *mad, size_t len)
{
	const uint8_t *m = mad;
	uint8_t flags;

	if (!m || len < IBR_RMPP_HDR_OFFS + IBR_RMPP_HDR_SIZE ||
	    !ibr_mad_class_has_rmpp(ibr_mad_mgmt_class(m)))
		return false;
	flags = ibr_rmpp_flags(m);
	return (flags & IBR_RMPP_FLAG_ACTIVE) && ibr_rmpp_version(m) == 0 &&
	       !(flags & (IBR_RMPP_FLAG_FIRST | IBR_RMPP_FLAG_LAST));
}

/* ---- builders ---- */

int ibr_mad_build(uint8_t *m, uint8_t mgmt_class, uint8_t method, uint16_t attr_id,
		  uint32_t attr_mod, uint64_t tid)
{
	const struct mad_class_info *c = mad_class_find(mgmt_class);

	if (!c)
		return -EINVAL;
	memset(m, 0, IBR_MAD_SIZE);
	ibr_mad_set_base_version(m, IBR_MAD_BASE_VERSION);
	ibr_mad_set_mgmt_class(m, mgmt_class);
	ibr_mad_set_class_version(m, c->version ? c->version : 1);
	ibr_mad_set_method(m, method);
	ibr_mad_set_tid(m, tid);
	ibr_mad_set_attr_id(m, attr_id);
	ibr_mad_set_attr_mod(m, attr_mod);
	return 0;
}

int ibr_mad_build_get(uint8_t *m, uint8_t mgmt_class, uint16_t attr_id, uint32_t attr_mod,
		      uint64_t tid)
{
	return ibr_mad_build(m, mgmt_class, IBR_MAD_METHOD_GET, attr_id, attr_mod, tid);
}

int ibr_mad_build_set(uint8_t *m, uint8_t mgmt_class, uint16_t attr_id, uint32_t attr_mod,
		      uint64_t tid)
{
	return ibr_mad_build(m, mgmt_class, IBR_MAD_METHOD_SET, attr_id, attr_mod, tid);
}

int ibr_mad_build_report(uint8_t *m, uint8_t mgmt_class, uint16_t attr_id, uint64_t tid)
{
	return ibr_mad_build(m, mgmt_class, IBR_MAD_METHOD_REPORT, attr_id, 0, tid);
}

int ibr_mad_build_response(uint8_t *resp, const uint8_t *req, size_t req_len, uint16_t status)
{
	uint8_t method;

	if (req_len < IBR_MAD_HDR_SIZE)
		return -EINVAL;
	method = ibr_mad_response_method(ibr_mad_method(req));
	if (!method)
		return -EINVAL;
	if (req_len > IBR_MAD_SIZE)
		req_len = IBR_MAD_SIZE;
	if (resp != req)
		memmove(resp, req, req_len);
	memset(resp + req_len, 0, IBR_MAD_SIZE - req_len);
	ibr_mad_set_method(resp, method);
	if (ibr_smp_is_dr(resp)) {
		ibr_smp_dr_set_status(resp, status);
		ibr_smp_dr_set_direction(resp, true);
	} else {
		ibr_mad_set_status(resp, status);
	}
	if (ibr_mad_class_has_rmpp(ibr_mad_mgmt_class(resp)))
		memset(resp + IBR_RMPP_HDR_OFFS, 0, IBR_RMPP_HDR_SIZE);
	return 0;
}

int ibr_mad_build_dr_smp(uint8_t *m, uint8_t method, uint16_t attr_id, uint32_t attr_mod,
			 uint64_t tid, uint64_t mkey, const uint8_t *path, unsigned int hops)
{
	if (hops > IBR_SMP_MAX_HOPS || (hops && !path))
		return -EINVAL;
	ibr_mad_build(m, IBR_MGMT_CLASS_SUBN_DR, method, attr_id, attr_mod, tid);
	ibr_smp_set_mkey(m, mkey);
	ibr_smp_dr_set_slid(m, 0xFFFF);
	ibr_smp_dr_set_dlid(m, 0xFFFF);
	ibr_smp_dr_set_hop_pointer(m, 0);
	ibr_smp_dr_set_hop_count(m, (uint8_t)hops);
	if (hops)
		memcpy(m + IBR_SMP_INITIAL_PATH_OFFS + 1, path, hops);
	return 0;
}

int ibr_mad_build_sa(uint8_t *m, uint8_t method, uint16_t attr_id, uint64_t comp_mask,
		     uint64_t sm_key, uint64_t tid)
{
	ibr_mad_build(m, IBR_MGMT_CLASS_SUBN_ADM, method, attr_id, 0, tid);
	ibr_sa_set_sm_key(m, sm_key);
	ibr_sa_set_comp_mask(m, comp_mask);
	return 0;
}
