/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_mad.c - libFuzzer target for ibr_mad_parse(): arbitrary bytes as one
 * received MAD (the fuzzer's buffer has exactly the input's length, so ASan
 * sees any overread).  On an accepted MAD, reads every accessor valid for its
 * class and length, every name, the DR paths over and past their bounds, the
 * umad2sim check, builds the response, and writes every field of a copy with
 * the setters, which must read back.
 */
#include "lib/ibr_mad.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

static void read_common(const uint8_t *m)
{
	struct ibr_mad_hdr h;

	ibr_mad_hdr_decode(m, &h);
	sink += ibr_mad_base_version(m) + ibr_mad_mgmt_class(m) + ibr_mad_class_version(m) +
		ibr_mad_method(m) + ibr_mad_is_response(m) + ibr_mad_status(m) +
		ibr_mad_class_specific(m) + ibr_mad_tid(m) + ibr_mad_attr_id(m) +
		ibr_mad_attr_mod(m) + h.resv;
	sink += strlen(ibr_mad_class_name(h.mgmt_class)) + strlen(ibr_mad_method_name(h.method)) +
		strlen(ibr_mad_attr_name(h.mgmt_class, h.attr_id)) +
		strlen(ibr_mad_status_name(h.mgmt_class, h.status));
	sink += ibr_mad_response_method(h.method) + ibr_mad_class_default_version(h.mgmt_class);
}

static void read_smp(const uint8_t *m)
{
	uint8_t port;

	sink += ibr_smp_is_dr(m) + ibr_smp_mkey(m) + ibr_smp_dr_direction(m) +
		ibr_smp_dr_status(m) + ibr_smp_dr_hop_pointer(m) + ibr_smp_dr_hop_count(m) +
		ibr_smp_dr_slid(m) + ibr_smp_dr_dlid(m);
	for (unsigned int i = 0; i < IBR_SMP_PATH_SIZE + 8; i++) {
		int a = ibr_smp_dr_initial_path(m, i, &port);

		if ((a == 0) != (i < IBR_SMP_PATH_SIZE))
			abort();
		if (a == 0)
			sink += port;
		a = ibr_smp_dr_return_path(m, i, &port);
		if ((a == 0) != (i < IBR_SMP_PATH_SIZE))
			abort();
		if (a == 0)
			sink += port;
	}
	sink += m[IBR_SMP_DATA_OFFS] + m[IBR_SMP_DATA_OFFS + IBR_SMP_DATA_SIZE - 1];
}

static void read_rmpp_sa(const uint8_t *m, size_t len)
{
	sink += ibr_rmpp_version(m) + ibr_rmpp_type(m) + ibr_rmpp_resp_time(m) + ibr_rmpp_flags(m) +
		ibr_rmpp_status(m) + ibr_rmpp_seg_num(m) + ibr_rmpp_data2(m);
	if (ibr_mad_mgmt_class(m) == IBR_MGMT_CLASS_SUBN_ADM) {
		if (len < IBR_SA_DATA_OFFS)
			abort();
		sink += ibr_sa_sm_key(m) + ibr_sa_attr_offset(m) + ibr_sa_comp_mask(m);
		if (len > IBR_SA_DATA_OFFS)
			sink += m[len - 1];
	}
}

/* Write every field of a 256-byte copy and read it back. */
static void write_back(const uint8_t *m, size_t len)
{
	uint8_t c[IBR_MAD_SIZE] = { 0 };
	uint64_t v = len >= 32 ? ibr_mad_ld64(m + 24) : 0x0123456789ABCDEFull;
	uint8_t port;

	memcpy(c, m, len < sizeof(c) ? len : sizeof(c));
	ibr_mad_set_tid(c, v);
	ibr_mad_set_attr_id(c, (uint16_t)v);
	ibr_mad_set_attr_mod(c, (uint32_t)v);
	ibr_mad_set_status(c, (uint16_t)(v >> 16));
	if (ibr_mad_tid(c) != v || ibr_mad_attr_id(c) != (uint16_t)v ||
	    ibr_mad_attr_mod(c) != (uint32_t)v || ibr_mad_status(c) != (uint16_t)(v >> 16))
		abort();
	ibr_smp_dr_set_direction(c, v & 1);
	ibr_smp_dr_set_status(c, (uint16_t)v);
	if (ibr_smp_dr_direction(c) != (v & 1) || ibr_smp_dr_status(c) != (v & 0x7FFF))
		abort();
	ibr_smp_dr_set_hop_pointer(c, (uint8_t)v);
	ibr_smp_dr_set_hop_count(c, (uint8_t)(v >> 8));
	ibr_smp_dr_set_slid(c, (uint16_t)v);
	ibr_smp_dr_set_dlid(c, (uint16_t)(v >> 16));
	if (ibr_mad_class_specific(c) != (uint16_t)((v & 0xFF) << 8 | ((v >> 8) & 0xFF)) ||
	    ibr_smp_dr_slid(c) != (uint16_t)v || ibr_smp_dr_dlid(c) != (uint16_t)(v >> 16))
		abort();
	if (ibr_smp_dr_set_initial_path(c, (unsigned int)v & 63, 7) ||
	    ibr_smp_dr_initial_path(c, (unsigned int)v & 63, &port) || port != 7 ||
	    ibr_smp_dr_set_return_path(c, 64 + ((unsigned int)v & 63), 7) != -EINVAL)
		abort();
	ibr_rmpp_set_resp_time(c, (uint8_t)v);
	ibr_rmpp_set_flags(c, (uint8_t)(v >> 5));
	if (ibr_rmpp_resp_time(c) != (v & 0x1F) || ibr_rmpp_flags(c) != ((v >> 5) & 7))
		abort();
	ibr_sa_set_comp_mask(c, v);
	ibr_sa_set_attr_offset(c, (uint16_t)v);
	if (ibr_sa_comp_mask(c) != v || ibr_sa_attr_offset(c) != (uint16_t)v)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ibr_mad_hdr h;
	uint8_t resp[IBR_MAD_SIZE];
	enum ibr_mad_err err = ibr_mad_parse(data, size, &h);

	sink += strlen(ibr_mad_err_name(err)) + ibr_rmpp_is_umad2sim_truncated(data, size);
	if (err == IBR_MAD_ERR_SHORT) {
		if (size >= IBR_MAD_HDR_SIZE)
			abort();
		return 0;
	}
	read_common(data);
	if (err != IBR_MAD_OK)
		return 0;
	if (h.base_version != 1 || !ibr_mad_class_is_known(h.mgmt_class))
		abort();
	if (h.mgmt_class == IBR_MGMT_CLASS_SUBN_LID || h.mgmt_class == IBR_MGMT_CLASS_SUBN_DR) {
		if (size != IBR_MAD_SIZE)
			abort();
		read_smp(data);
	}
	if (ibr_mad_class_has_rmpp(h.mgmt_class))
		read_rmpp_sa(data, size);
	else if (size != IBR_MAD_SIZE)
		abort();
	if (ibr_mad_build_response(resp, data, size, IBR_MAD_STATUS_INVALID_FIELD) == 0) {
		if (ibr_mad_method(resp) != ibr_mad_response_method(h.method) ||
		    ibr_mad_tid(resp) != h.tid || ibr_mad_attr_id(resp) != h.attr_id ||
		    ibr_mad_attr_mod(resp) != h.attr_mod)
			abort();
		if (ibr_smp_is_dr(resp) && !ibr_smp_dr_direction(resp))
			abort();
	} else if (ibr_mad_response_method(h.method)) {
		abort();
	}
	write_back(data, size);
	return 0;
}
