/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_pkt_test.h - the test program of lib/ibr_pkt.c, one suite in groups of
 * one concern each: ibr_pkt_hdr_test.c (header accessors),
 * ibr_pkt_parse_test.c (the hand-written fixtures, the parser's errors,
 * truncation), ibr_pkt_build_test.c (the UD builder) and
 * ibr_pkt_format_test.c (other packets, the CRC filler, names and the
 * formatter), run in that order by ibr_pkt_test.c; what they share.
 */
#ifndef IBR_PKT_TEST_H
#define IBR_PKT_TEST_H

#include "lib/ibr_pkt.h"
#include "tests/unit/ibr_test.h"

#include <stddef.h>
#include <stdint.h>

extern CU_TestInfo ibr_pkt_hdr_tests[];
extern CU_TestInfo ibr_pkt_parse_tests[];
extern CU_TestInfo ibr_pkt_build_tests[];
extern CU_TestInfo ibr_pkt_format_tests[];

/*
 * The next number of the program's one seeded sequence: the groups draw
 * from it in the order they run, so that each random input repeats.
 */
uint32_t rnd(void);
/* Hex bytes separated by blanks, '#' to end of line a comment; -1 if bad. */
int load_hex(const char *name, uint8_t *out, size_t cap);
/* The GIDs of the fixture tests/data/pkt_ud_grh_imm.hex. */
extern const uint8_t sgid_a[16];
extern const uint8_t dgid_b[16];
/* The parameters that build tests/data/pkt_ud_grh_imm.hex. */
void fixture_grh_params(struct ibr_pkt_ud_params *up);
/* A minimal packet of `len` bytes: consistent LRH, GRH and BTH opcode. */
void mk(uint8_t *b, size_t len, uint8_t lnh, uint8_t op);

#endif
