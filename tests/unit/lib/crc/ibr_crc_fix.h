/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_crc_fix.h - what the CRC tests share (ibr_crc_fix.c). */
#ifndef IBR_CRC_FIX_H
#define IBR_CRC_FIX_H

#include "lib/crc/ibr_crc.h"

#include <stddef.h>
#include <stdint.h>

#define MAXLEN 4200
#define SLACK  64			 /* room for alignment offsets */
#define NVCRC  (IBR_VCRC_IMPL_COUNT - 1) /* VCRC implementations: every engine of the table */
#define NICRC  4			 /* ICRC implementations */

/* CRC-16 (VCRC) and CRC-32 (ICRC) one bit at a time, straight from the definitions. */
uint16_t ref_crc16(const uint8_t *p, size_t n);
uint32_t ref_crc32(const uint8_t *p, size_t n);
void fill_rand(uint8_t *p, size_t n, unsigned long long *seed);
/* A random packet: LNH as given, the rest random. */
void make_pkt(uint8_t *p, size_t len, unsigned int lnh, unsigned long long *seed);
/*
 * An engine this CPU cannot run is a skip of each test that would have run it, counted
 * here and printed at the end as "N skipped (no CPU)" (scripts/run counts those lines).
 */
extern unsigned skipped_no_cpu;
/* The VCRC and ICRC engines this CPU runs, worst first; each one it cannot is a skip. */
int impls(enum ibr_vcrc_impl out[NVCRC]);
int icrc_impls(enum ibr_icrc_impl out[NICRC]);

#endif
