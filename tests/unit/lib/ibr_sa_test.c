/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa_test.c - SA record, Notice, InformInfo and ClassPortInfo codecs
 * (lib/ibr_sa.c) against the layouts of ibr_sa_layout.h, written out by hand
 * from the IBA: every field is checked on its own (all ones, with the rest
 * zero, and the reverse), random records go round trip both ways, records
 * cut short are refused.  ibr_sa_golden_test.c and ibr_sa_service_test.c
 * compare golden records byte by byte, ibr_sa_table_test.c reads tables.
 */
#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/lib/ibr_sa_layout.h"

#include <errno.h>
#include <infiniband/mad.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 500

/* ---- bit helpers (IBA numbering: bit 0 is the MSB of byte 0) ---- */

static bool bit_get(const uint8_t *b, unsigned int i)
{
	return (b[i / 8] >> (7 - i % 8)) & 1;
}

static void bit_set(uint8_t *b, unsigned int i, bool on)
{
	uint8_t m = (uint8_t)(0x80 >> (i % 8));

	b[i / 8] = (uint8_t)(on ? b[i / 8] | m : b[i / 8] & ~m);
}

/* Fields up to 64 bits as an integer. */
static uint64_t bits_value(const uint8_t *b, unsigned int offs, unsigned int bits)
{
	uint64_t v = 0;

	for (unsigned int k = 0; k < bits; k++)
		v = v << 1 | bit_get(b, offs + k);
	return v;
}

static uint64_t mask_of(unsigned int bits)
{
	return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* The value a field holds once decoded from wire bits v, and its largest value. */
static uint64_t field_canon(const struct fcase *fc, uint64_t v)
{
	return fc->wide_bool ? v != 0 : v & mask_of(fc->bits);
}

static uint64_t field_max(const struct fcase *fc)
{
	return fc->wide_bool ? 1 : mask_of(fc->bits);
}

#define MAX_REC 256

/* Room for any of the structs, aligned for them. */
union host {
	struct ibr_sa_node_rec node;
	struct ibr_sa_portinfo_rec pir;
	struct ibr_sa_mcm_rec mcm;
	struct ibr_sa_guidinfo_rec gir;
	struct ibr_sa_informinfo ii;
	struct ibr_sa_notice notice;
	struct ibr_sa_classportinfo cpi;
	struct ibr_sa_service_rec sr;
	uint8_t bytes[1];
};

/* The record's text in the host struct. */
static char *host_text(const struct rcase *rc, union host *h)
{
	return (char *)h + rc->text_host;
}

/* ---- each field on its own ---- */

/* Field all ones (from an over-wide value), the rest zero: exactly its bits, and back. */
static void check_field_alone(const struct rcase *rc, const struct fcase *fc)
{
	union host host, back;
	uint8_t got[MAX_REC], want[MAX_REC] = { 0 };
	char what[96];

	memset(&host, 0, sizeof(host));
	snprintf(what, sizeof(what), "%s.%s all ones", rc->name, fc->name);
	fc->set(&host, ~0ull);
	rc->enc(&host, got);
	for (unsigned int k = 0; k < fc->bits; k++)
		bit_set(want, fc->offs + k, !fc->wide_bool || k == fc->bits - 1);
	check_bytes(what, got, want, rc->len);
	CU_ASSERT_EQUAL_FATAL(rc->dec(want, rc->len, &back), 0);
	CU_ASSERT_EQUAL(fc->get(&back), field_max(fc));
	for (size_t j = 0; j < rc->nf; j++)
		if (&rc->f[j] != fc && rc->f[j].get(&back) != 0) {
			fprintf(stderr, "%s: %s reads %s's bits\n", rc->name, rc->f[j].name,
				fc->name);
			CU_FAIL("a field reads its neighbour's bits");
		}

	/* the complement: every other bit set, the field reads 0 */
	memset(want, 0xFF, sizeof(want));
	for (unsigned int k = 0; k < fc->bits; k++)
		bit_set(want, fc->offs + k, false);
	if (rc->text_nul) /* a ServiceName of 63 0xFF bytes */
		want[rc->text_offs + rc->text_len - 1] = 0;
	CU_ASSERT_EQUAL_FATAL(rc->dec(want, rc->len, &back), 0);
	if (fc->get(&back) != 0)
		fprintf(stderr, "%s.%s: reads its neighbours' bits\n", rc->name, fc->name);
	CU_ASSERT_EQUAL(fc->get(&back), 0);
}

static void test_fields_alone(void)
{
	for (size_t i = 0; i < NRECORDS; i++)
		for (size_t j = 0; j < records[i].nf; j++)
			check_field_alone(&records[i], &records[i].f[j]);
}

/* The fields do not overlap and stay inside the record. */
static void test_field_tables(void)
{
	for (size_t i = 0; i < NRECORDS; i++) {
		const struct rcase *rc = &records[i];
		uint8_t used[MAX_REC] = { 0 };

		CU_ASSERT_FATAL(rc->len <= MAX_REC && rc->size <= sizeof(union host));
		for (size_t j = 0; j < rc->nf; j++) {
			const struct fcase *fc = &rc->f[j];

			CU_ASSERT_FATAL(fc->offs + fc->bits <= 8 * rc->len);
			for (unsigned int k = 0; k < fc->bits; k++) {
				CU_ASSERT_FATAL(!bit_get(used, fc->offs + k));
				bit_set(used, fc->offs + k, true);
			}
		}
		CU_ASSERT_FATAL(rc->text_offs + rc->text_len <= rc->len);
		for (size_t k = 8 * rc->text_offs; k < 8 * (rc->text_offs + rc->text_len); k++)
			CU_ASSERT_FATAL(!bit_get(used, (unsigned int)k));
	}
}

/* ---- round trips ---- */

/* host -> wire -> host with random values of every field */
static void check_host_round_trip(const struct rcase *rc, unsigned long long *seed)
{
	union host a, b;
	uint8_t wire[MAX_REC], again[MAX_REC];

	memset(&a, 0, sizeof(a));
	for (size_t j = 0; j < rc->nf; j++)
		rc->f[j].set(&a, ibr_test_rand(seed) & field_max(&rc->f[j]));
	if (rc->text_len) {
		/* a NodeDescription may fill its 64 bytes, a ServiceName 63 and its NUL */
		size_t nchars = rc->text_nul ? rc->text_len - 1 : rc->text_len;
		char *d = host_text(rc, &a);

		for (size_t k = 0; k < nchars; k++)
			d[k] = (char)(' ' + ibr_test_rand(seed) % 95);
		d[ibr_test_rand(seed) % (nchars + 1)] = '\0';
	}
	rc->enc(&a, wire);
	CU_ASSERT_EQUAL_FATAL(rc->dec(wire, rc->len, &b), 0);
	for (size_t j = 0; j < rc->nf; j++)
		if (rc->f[j].get(&a) != rc->f[j].get(&b)) {
			fprintf(stderr, "%s.%s: %#llx came back as %#llx\n", rc->name,
				rc->f[j].name, (unsigned long long)rc->f[j].get(&a),
				(unsigned long long)rc->f[j].get(&b));
			CU_FAIL("host round trip");
		}
	if (rc->text_len)
		CU_ASSERT_STRING_EQUAL(host_text(rc, &a), host_text(rc, &b));
	rc->enc(&b, again);
	CU_ASSERT(memcmp(wire, again, rc->len) == 0);
}

/*
 * wire -> host -> wire with random bytes: every field's bits come back, reserved
 * bits come back zero, and each field decodes to the value of its bits.
 */
static void check_wire_round_trip(const struct rcase *rc, unsigned long long *seed)
{
	uint8_t r[MAX_REC], got[MAX_REC], want[MAX_REC] = { 0 };
	union host host;

	ibr_test_rand_fill(r, rc->len, seed);
	for (size_t k = 0; k < rc->text_len; k++) /* printable text, maybe NUL-terminated early */
		r[rc->text_offs + k] = (uint8_t)(' ' + ibr_test_rand(seed) % 95);
	if (rc->text_len && (rc->text_nul || ibr_test_rand(seed) % 2)) {
		size_t end = ibr_test_rand(seed) % rc->text_len;

		memset(r + rc->text_offs + end, 0, rc->text_len - end);
	}
	memcpy(want + rc->text_offs, r + rc->text_offs, rc->text_len);
	CU_ASSERT_EQUAL_FATAL(rc->dec(r, rc->len, &host), 0);
	for (size_t j = 0; j < rc->nf; j++) {
		const struct fcase *fc = &rc->f[j];

		if (fc->wide_bool) {
			bit_set(want, fc->offs + fc->bits - 1, bits_value(r, fc->offs, fc->bits));
		} else {
			for (unsigned int k = 0; k < fc->bits; k++)
				bit_set(want, fc->offs + k, bit_get(r, fc->offs + k));
		}
		if (fc->bits <= 64 &&
		    fc->get(&host) != field_canon(fc, bits_value(r, fc->offs, fc->bits))) {
			fprintf(stderr, "%s.%s: decoded %#llx, bits say %#llx\n", rc->name,
				fc->name, (unsigned long long)fc->get(&host),
				(unsigned long long)bits_value(r, fc->offs, fc->bits));
			CU_FAIL("decoded value");
		}
	}
	rc->enc(&host, got);
	check_bytes(rc->name, got, want, rc->len);
}

static void test_round_trips(void)
{
	unsigned long long seed = 0x5A5A0001;

	for (int n = 0; n < ROUNDS; n++)
		for (size_t i = 0; i < NRECORDS; i++) {
			check_host_round_trip(&records[i], &seed);
			check_wire_round_trip(&records[i], &seed);
		}
}

/* ---- lengths ---- */

/* Shorter than the layout: -EMSGSIZE, output untouched; exactly the layout in a
 * buffer of exactly that size (ASan sees an overread in the sanitizer build). */
static void test_short_lengths(void)
{
	for (size_t i = 0; i < NRECORDS; i++) {
		const struct rcase *rc = &records[i];
		uint8_t *buf = malloc(rc->len);
		union host out, sentinel;

		CU_ASSERT_FATAL(buf != NULL);
		memset(buf, 0x5C, rc->len);
		if (rc->text_nul)
			buf[rc->text_offs + rc->text_len - 1] = 0;
		memset(&out, 0xA5, sizeof(out));
		memcpy(&sentinel, &out, sizeof(out));
		for (size_t len = 0; len < rc->len; len++) {
			CU_ASSERT_EQUAL(rc->dec(buf + rc->len - len, len, &out), -EMSGSIZE);
			CU_ASSERT(memcmp(&out, &sentinel, sizeof(out)) == 0);
		}
		CU_ASSERT_EQUAL(rc->dec(NULL, 0, &out), -EMSGSIZE);
		CU_ASSERT_EQUAL(rc->dec(NULL, rc->len - 1, &out), -EMSGSIZE);
		CU_ASSERT_EQUAL(rc->dec(buf, rc->len, &out), 0);
		/* longer is fine (a record in a table) */
		free(buf);
		buf = calloc(1, rc->len + 40);
		CU_ASSERT_FATAL(buf != NULL);
		CU_ASSERT_EQUAL(rc->dec(buf, rc->len + 40, &out), 0);
		free(buf);
	}
	/* the PortInfo alone: 64 bytes */
	uint8_t *pi = calloc(1, 64);
	struct ibr_sa_portinfo_rec p;

	CU_ASSERT_FATAL(pi != NULL);
	CU_ASSERT_EQUAL(ibr_sa_portinfo_decode(pi, 63, &p), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_portinfo_decode(NULL, 0, &p), -EMSGSIZE);
	CU_ASSERT_EQUAL(ibr_sa_portinfo_decode(pi, 64, &p), 0);
	free(pi);
}

static void test_sizes_vs_libibmad(void)
{
	CU_ASSERT_EQUAL(IBR_SA_NODE_REC_LEN, IB_SA_NR_RECSZ);
	CU_ASSERT_EQUAL(IBR_SA_GUIDINFO_REC_LEN, IB_SA_GIR_RECSZ);
	/* libibmad says 53 for the MCMemberRecord; the IBA's layout ends at byte 52. */
	CU_ASSERT_EQUAL(IBR_SA_MCM_REC_LEN, 52);
	CU_ASSERT_EQUAL(IBR_SA_PORTINFO_REC_LEN, 8 + 64);
	CU_ASSERT_EQUAL(IBR_SA_INFORMINFO_LEN, 36);
	CU_ASSERT_EQUAL(IBR_SA_NOTICE_LEN, 80);
	CU_ASSERT_EQUAL(IBR_SA_CLASSPORTINFO_LEN, 72);
	/* 15.2.5.14; sizeof(ib_service_record_t) in OpenSM; AttributeOffset 22 */
	CU_ASSERT_EQUAL(IBR_SA_SERVICE_REC_LEN, 176);
}

/* MTU codes (IBA 15.2.5.17, PathRecord MTU): bytes to a code, a code as it is */
static void test_mtu_code(void)
{
	static const uint16_t bytes[] = { 256, 512, 1024, 2048, 4096, 1500, 9000 };
	static const uint8_t code[] = { 1, 2, 3, 4, 5, 3, 5 };

	for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++)
		CU_ASSERT_EQUAL(ibr_sa_mtu_code(bytes[i]), code[i]);
	for (uint16_t c = 0; c <= 5; c++)
		CU_ASSERT_EQUAL(ibr_sa_mtu_code(c), c);
}

static CU_TestInfo tests[] = {
	{ "MTU in bytes to an MCMemberRecord's code", test_mtu_code },
	{ "field tables are disjoint", test_field_tables },
	{ "each field alone", test_fields_alone },
	{ "round trips (host and wire)", test_round_trips },
	{ "short lengths", test_short_lengths },
	{ "sizes vs libibmad", test_sizes_vs_libibmad },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibr_sa", tests);
}
