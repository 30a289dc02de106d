/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_sa.c - libFuzzer target for lib/ibr_sa.c: arbitrary bytes (the
 * fuzzer's buffer has exactly the input's length, so ASan sees any overread)
 * as each record, as a PortInfo, and as an SA response walked with
 * ibr_sa_table_count()/ibr_sa_table_rec(), every record of it decoded.  A
 * decoder must refuse exactly the inputs shorter than its record, re-encode
 * what it accepted to a fixed point, and give a printable NodeDescription.
 */
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static volatile uint64_t sink;

/* Decode, and if accepted re-encode, decode and re-encode again: a fixed point. */
#define CHECK_CODEC(type, dec, enc, LEN, rec, len)             \
	do {                                                   \
		struct type a, b;                              \
		uint8_t w1[LEN], w2[LEN];                      \
		int rc = dec(rec, len, &a);                    \
                                                               \
		if ((len) < (LEN) ? rc != -EMSGSIZE : rc != 0) \
			abort();                               \
		if (rc == 0) {                                 \
			enc(&a, w1);                           \
			if (dec(w1, sizeof(w1), &b) != 0)      \
				abort();                       \
			enc(&b, w2);                           \
			if (memcmp(w1, w2, sizeof(w1)) != 0)   \
				abort();                       \
			sink += w1[0] + w1[sizeof(w1) - 1];    \
		}                                              \
	} while (0)

static void check_node(const uint8_t *rec, size_t len)
{
	struct ibr_sa_node_rec n;
	size_t dl;

	CHECK_CODEC(ibr_sa_node_rec, ibr_sa_node_rec_decode, ibr_sa_node_rec_encode,
		    IBR_SA_NODE_REC_LEN, rec, len);
	if (ibr_sa_node_rec_decode(rec, len, &n) != 0)
		return;
	dl = strnlen(n.desc, sizeof(n.desc));
	if (dl >= sizeof(n.desc))
		abort();
	for (size_t i = 0; i < dl; i++)
		if (n.desc[i] < 0x20 || n.desc[i] > 0x7E)
			abort();
}

static void check_notice(const uint8_t *rec, size_t len)
{
	struct ibr_sa_notice n;
	const uint8_t *gid;

	CHECK_CODEC(ibr_sa_notice, ibr_sa_notice_decode, ibr_sa_notice_encode, IBR_SA_NOTICE_LEN,
		    rec, len);
	if (ibr_sa_notice_decode(rec, len, &n) != 0)
		return;
	gid = ibr_sa_notice_gid(&n);
	if (gid && (gid != n.details + 6 || !n.is_generic || n.trap_num < 64 || n.trap_num > 67))
		abort();
	if (gid)
		sink += gid[0] + gid[15];
}

static void check_portinfo(const uint8_t *pi, size_t len)
{
	struct ibr_sa_portinfo_rec p;
	int rc = ibr_sa_portinfo_decode(pi, len, &p);

	if (len < 64 ? rc != -EMSGSIZE : rc != 0)
		abort();
	if (rc == 0 && (p.state > 15 || p.lmc > 7 || p.lid || p.port_num))
		abort();
}

/* Every decoder on the same bytes. */
static void check_records(const uint8_t *rec, size_t len)
{
	check_node(rec, len);
	CHECK_CODEC(ibr_sa_portinfo_rec, ibr_sa_portinfo_rec_decode, ibr_sa_portinfo_rec_encode,
		    IBR_SA_PORTINFO_REC_LEN, rec, len);
	CHECK_CODEC(ibr_sa_mcm_rec, ibr_sa_mcm_rec_decode, ibr_sa_mcm_rec_encode,
		    IBR_SA_MCM_REC_LEN, rec, len);
	CHECK_CODEC(ibr_sa_guidinfo_rec, ibr_sa_guidinfo_rec_decode, ibr_sa_guidinfo_rec_encode,
		    IBR_SA_GUIDINFO_REC_LEN, rec, len);
	CHECK_CODEC(ibr_sa_informinfo, ibr_sa_informinfo_decode, ibr_sa_informinfo_encode,
		    IBR_SA_INFORMINFO_LEN, rec, len);
	check_notice(rec, len);
	CHECK_CODEC(ibr_sa_classportinfo, ibr_sa_classportinfo_decode, ibr_sa_classportinfo_encode,
		    IBR_SA_CLASSPORTINFO_LEN, rec, len);
	check_portinfo(rec, len);
}

#define DECODE_MAX 8 /* records of a table decoded in full */

static const size_t rec_lens[] = {
	IBR_SA_NODE_REC_LEN,	  IBR_SA_PORTINFO_REC_LEN,
	IBR_SA_MCM_REC_LEN,	  IBR_SA_GUIDINFO_REC_LEN,
	IBR_SA_INFORMINFO_LEN,	  IBR_SA_NOTICE_LEN,
	IBR_SA_CLASSPORTINFO_LEN, 0,
};

/* The bytes as an SA response: walk the table for each record size, decode every record. */
static void check_table(const uint8_t *m, size_t len)
{
	for (size_t k = 0; k < sizeof(rec_lens) / sizeof(rec_lens[0]); k++) {
		size_t min_len = rec_lens[k];
		int n = ibr_sa_table_count(m, len, min_len);
		const uint8_t *rec;

		if (n < 0) {
			if (n != -EMSGSIZE && n != -EINVAL)
				abort();
			if ((n == -EMSGSIZE) != (len < IBR_SA_DATA_OFFS))
				abort();
			continue;
		}
		for (int i = 0; i < n; i++) {
			rec = ibr_sa_table_rec(m, len, (unsigned int)i);
			if (!rec || rec < m + IBR_SA_DATA_OFFS || rec + min_len > m + len)
				abort();
			if (i >= DECODE_MAX)
				continue; /* bounds only: the decoders saw such bytes already */
			if (min_len == IBR_SA_NODE_REC_LEN)
				check_node(rec, (size_t)(m + len - rec));
			else if (min_len == IBR_SA_MCM_REC_LEN || min_len == 0)
				check_records(rec, (size_t)(m + len - rec));
		}
		/* past the last: none, except a Get response's record too small for min_len */
		rec = ibr_sa_table_rec(m, len, (unsigned int)n);
		if (rec && !(n == 0 && ibr_sa_attr_offset(m) == 0))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_records(data, size);
	check_table(data, size);
	return 0;
}
