/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_fold.h - internal to the folding engines of the VCRC (x86's in lib/crc/ibr_crc16_x86.h,
 * Arm's pmull in lib/crc/ibr_crc16_pmull.c): the constants of carry-less folding and of the
 * incremental update's Barrett reduction, computed once at set-up (lib/crc/ibr_crc16_fold.c) in
 * any instruction set.  How a fold uses them: lib/crc/ibr_crc16_x86.h.
 */
#ifndef IBR_CRC16_FOLD_H
#define IBR_CRC16_FOLD_H

#include <stdint.h>

/* Set-up, from ibr_crc16_init(), before the engines' own: the folding constants. */
void ibr_crc16_fold_init(void);

/* [j]: fold pair for D = 128 * (j + 1) bits: 128-bit folds and the 256-byte zmm loop (j = 15) */
extern uint64_t ibr_crc16_fold_k[16][2] __attribute__((aligned(16)));
/* [g]: pair moving 128-bit lane g of a 256-byte window to the window's end, D = 128 (15 - g) */
extern uint64_t ibr_crc16_end_k[16][2] __attribute__((aligned(64)));
/* Barrett constant mu' of the incremental update, bit-reversed: bit i ~ x^(63 - i) */
extern uint64_t ibr_crc16_barrett_mu;

/* Reverses the 64 bits of c: the normal domain's bit d becomes bit 63 - d. */
uint64_t ibr_crc16_refl64_full(uint64_t c);
/*
 * x^n mod P, n >= -1, as a fold constant (bit d at bit 63 - d): P of degree `width` (at most
 * 32) given with its x^width bit, the CRC-16's or the CRC-32's (lib/crc/ibr_crc32_avx2.c).
 */
uint64_t ibr_crc_fold_const(uint64_t poly, int width, int n);

#endif
