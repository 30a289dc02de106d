/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for lib/ibr_pkt.c: header accessors (placement checked against the
 * IBA field tables, bit by bit), the parser and each of its error codes,
 * truncation at every length, the UD builder against hand-written fixtures
 * (tests/data/pkt_*.hex), the CRC helpers and the formatter: one suite whose
 * groups (ibr_pkt_test.h) run in order, and what they share.
 */
#include "tests/unit/lib/ibr_pkt_test.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long seed = 0x1b5eedULL;

uint32_t rnd(void)
{
	return (uint32_t)(ibr_test_rand(&seed) >> 32);
}

/* ---- fixtures ---- */

/* Hex bytes separated by blanks, '#' to end of line a comment; -1 if bad. */
int load_hex(const char *name, uint8_t *out, size_t cap)
{
	const char *dir = getenv("srcdir");
	char path[512], line[512];
	size_t n = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/data/%s", dir ? dir : ".", name);
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *tok, *save = NULL;

		line[strcspn(line, "#")] = '\0';
		for (tok = strtok_r(line, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save)) {
			char *end;
			unsigned long v = strtoul(tok, &end, 16);

			if (strlen(tok) != 2 || *end || n == cap) {
				fclose(fp);
				return -1;
			}
			out[n++] = (uint8_t)v;
		}
	}
	fclose(fp);
	return (int)n;
}

const uint8_t sgid_a[16] = { 0xfe, 0xc0, 0, 0, 0, 0, 0, 1, 0, 2, 0xc9, 3, 0, 0, 0x12, 0x34 };
const uint8_t dgid_b[16] = { 0xfe, 0xc0, 0, 0, 0, 0, 0, 2, 0, 2, 0xc9, 3, 0, 0, 0x56, 0x78 };

void fixture_grh_params(struct ibr_pkt_ud_params *up)
{
	static const uint8_t data[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };

	memset(up, 0, sizeof(*up));
	up->slid = 0x22;
	up->dlid = 0x10;
	up->sl = 5;
	up->vl = 2;
	up->grh = true;
	memcpy(up->sgid, sgid_a, 16);
	memcpy(up->dgid, dgid_b, 16);
	up->tclass = 0xa5;
	up->flowlabel = 0x12345;
	up->hoplmt = 64;
	up->opcode = IBR_BTH_OP_UD_SEND_ONLY_IMM;
	up->se = true;
	up->pkey = 0x8001;
	up->dest_qp = 0xabc;
	up->psn = 0xfedcba;
	up->qkey = 0x11223344;
	up->src_qp = 0x123;
	up->immdt = 0xdeadbeef;
	up->payload = data;
	up->payload_len = sizeof(data);
}

/* A minimal packet of `len` bytes: consistent LRH, GRH and BTH opcode. */
void mk(uint8_t *b, size_t len, uint8_t lnh, uint8_t op)
{
	memset(b, 0, len);
	ibr_lrh_set_lnh((struct ibr_lrh *)b, lnh);
	ibr_lrh_set_pktlen((struct ibr_lrh *)b, (uint16_t)((len - 2) / 4));
	if (lnh == IBR_LNH_IBA_GLOBAL && len >= 48) {
		struct ibr_grh *g = (struct ibr_grh *)(b + 8);

		ibr_grh_set_ipver(g, 6);
		ibr_grh_set_nxthdr(g, 0x1b);
		ibr_grh_set_paylen(g, (uint16_t)(len - 2 - 48));
	}
	if (lnh >= IBR_LNH_IBA_LOCAL && len >= (lnh == 3 ? 60u : 20u))
		b[lnh == 3 ? 48 : 8] = op;
}

int main(void)
{
	static CU_TestInfo *const groups[] = { ibr_pkt_hdr_tests, ibr_pkt_parse_tests,
					       ibr_pkt_build_tests, ibr_pkt_format_tests };
	CU_TestInfo tests[32];
	size_t n = 0;

	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		for (const CU_TestInfo *t = groups[g]; t->pName; t++) {
			if (n + 1 == sizeof(tests) / sizeof(tests[0]))
				return 99;
			tests[n++] = *t;
		}
	tests[n] = (CU_TestInfo)CU_TEST_INFO_NULL;
	return ibr_test_run("ibr_pkt", tests);
}
