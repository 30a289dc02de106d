/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fuzz_sa.c - libFuzzer target for lib/ibr_sa.c: arbitrary bytes (the
 * fuzzer's buffer has exactly the input's length, so ASan sees any overread)
 * as each record, as a PortInfo, and as an SA response walked with
 * ibr_sa_table_count()/ibr_sa_table_rec(), every record of it decoded, and
 * with ibr_sa_service_rec_table_decode().  A decoder must refuse exactly the
 * inputs shorter than its record (and the ServiceRecord decoder exactly those
 * whose ServiceName has no NUL), re-encode what it accepted to a fixed point,
 * and give a printable NodeDescription and a terminated ServiceName.
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

/*
 * ServiceRecord (15.2.5.14): refused when short or when the 64 name bytes at
 * 48 hold no NUL; otherwise every byte comes back on re-encoding except the
 * reserved two at 26 and the name's padding past its NUL, which become zero.
 */
#define SR_NAME_OFFS 48
#define SR_NAME_LEN  64
static void check_service(const uint8_t *rec, size_t len)
{
	struct ibr_sa_service_rec a, b;
	uint8_t w1[IBR_SA_SERVICE_REC_LEN], w2[IBR_SA_SERVICE_REC_LEN], m[IBR_MAD_SIZE];
	int rc = ibr_sa_service_rec_decode(rec, len, &a);
	size_t nl;

	if (len < IBR_SA_SERVICE_REC_LEN) {
		if (rc != -EMSGSIZE)
			abort();
		return;
	}
	if (rc != (memchr(rec + SR_NAME_OFFS, 0, SR_NAME_LEN) ? 0 : -EINVAL))
		abort();
	if (rc)
		return;
	nl = strnlen(a.name, sizeof(a.name));
	if (nl >= sizeof(a.name) || memcmp(a.name, rec + SR_NAME_OFFS, nl) != 0)
		abort();
	for (size_t i = nl; i < sizeof(a.name); i++)
		if (a.name[i])
			abort();
	ibr_sa_service_rec_encode(&a, w1);
	for (size_t i = 0; i < sizeof(w1); i++) {
		bool zeroed = i == 26 || i == 27 ||
			      (i >= SR_NAME_OFFS + nl && i < SR_NAME_OFFS + SR_NAME_LEN);

		if (w1[i] != (zeroed ? 0 : rec[i]))
			abort();
	}
	if (ibr_sa_service_rec_decode(w1, sizeof(w1), &b) != 0)
		abort();
	ibr_sa_service_rec_encode(&b, w2);
	if (memcmp(w1, w2, sizeof(w1)) != 0)
		abort();
	/* a request carries the same bytes */
	if (ibr_sa_service_rec_build(m, IBR_MAD_METHOD_SET, IBR_SA_SR_COMP_RID, &a, 0, 1) != 0 ||
	    memcmp(m + IBR_SA_DATA_OFFS, w1, sizeof(w1)) != 0 || ibr_sa_attr_offset(m) != 22)
		abort();
	sink += w1[0] + w1[sizeof(w1) - 1];
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
	check_service(rec, len);
}

#define DECODE_MAX 8 /* records of a table decoded in full */

static const size_t rec_lens[] = {
	IBR_SA_NODE_REC_LEN,	  IBR_SA_PORTINFO_REC_LEN, IBR_SA_MCM_REC_LEN,
	IBR_SA_GUIDINFO_REC_LEN,  IBR_SA_INFORMINFO_LEN,   IBR_SA_NOTICE_LEN,
	IBR_SA_CLASSPORTINFO_LEN, IBR_SA_SERVICE_REC_LEN,  0,
};

/* The ServiceRecord table decoder agrees with the table walk. */
static void check_service_table(const uint8_t *m, size_t len)
{
	struct ibr_sa_service_rec out[DECODE_MAX];
	unsigned int refused = 12345;
	int count = ibr_sa_table_count(m, len, IBR_SA_SERVICE_REC_LEN);
	int n = ibr_sa_service_rec_table_decode(m, len, out, DECODE_MAX, &refused);

	if (count < 0) {
		if (n != count || refused != 0)
			abort();
		return;
	}
	if (n < 0 || n > DECODE_MAX || n > count || (unsigned int)n + refused > (unsigned int)count)
		abort();
	if (n < DECODE_MAX && n + (int)refused != count &&
	    !(ibr_sa_attr_offset(m) == 0 && n == 0 && refused == 0))
		abort(); /* below max every record is looked at, save GetTableResp offset 0 */
	for (int i = 0; i < n; i++)
		if (strnlen(out[i].name, sizeof(out[i].name)) >= sizeof(out[i].name))
			abort();
}

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
			else if (min_len == IBR_SA_SERVICE_REC_LEN)
				check_service(rec, (size_t)(m + len - rec));
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
	check_service_table(data, size);
	return 0;
}
