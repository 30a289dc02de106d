/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_fold.h - internal to the folding engines of the VCRC (x86's in lib/crc/ibr_crc16_x86.h,
 * Arm's pmull in lib/crc/ibr_crc16_pmull.c) and of the ICRC (lib/crc/ibr_crc32_*.c): the
 * constants of carry-less folding and of the incremental update's Barrett reduction, computed
 * once at set-up (lib/crc/ibr_crc16_fold.c) in any instruction set.  How a fold uses them:
 * lib/crc/ibr_crc16_x86.h; the gfni engines' (struct ibr_crc_vk): lib/crc/ibr_crc_gfni.h.
 */
#ifndef IBR_CRC16_FOLD_H
#define IBR_CRC16_FOLD_H

#include <stddef.h>
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

#define VF_WIN	 256 /* a window of the gfni engines: four 64-byte slots */
#define VF_GROUP 16  /* windows per fold of the GFNI slots, at most */
#define VF_XLO	 128 /* the x^(8n) tables: n = 128 j + i */
#define VF_XHI	 512 /* beyond n = 64 KiB, computed */

/*
 * The constants of the gfni engines (lib/crc/ibr_crc_gfni.h says how they fold) for one CRC
 * of w <= 32 bits: the VCRC's (lib/crc/ibr_crc16_gfni.c) or the ICRC's (lib/crc/ibr_crc32_gfni.c).
 */
struct ibr_crc_vk {
	uint64_t end[4][8];		  /* slot t, lane g: the pair to the end, and w bits on */
	uint64_t end2[4][8];		  /* the same from a window further back */
	uint64_t fold[2];		  /* the pair for one window, D = 2048 bits */
	uint64_t unfold[2];		  /* the pair for D = -2048 bits */
	uint64_t gfs[VF_GROUP + 1][4][4]; /* gfs[j][d][c]: G(256 j + d, c), j windows on */
	uint64_t mu, pp;		  /* Barrett: x^(64+w) div P - x^64, P - x^w; reversed */
	uint64_t xlo[VF_XLO];		  /* x^(8i - 2) mod P, bit-reversed */
	uint64_t xhi[VF_XHI];		  /* x^(1024 j) mod P, bit-reversed */
	uint64_t poly;			  /* P with its x^w term, normal domain */
	int w;
};

/* Fills *k for P = poly (with its x^w term) of degree w; once, at set-up. */
void ibr_crc_vk_init(struct ibr_crc_vk *k, uint64_t poly, int w);
/* x^(1024 j) mod P, bit-reversed, for j beyond k->xhi[] (messages of 64 KiB and more). */
uint64_t ibr_crc_vk_xhi(const struct ibr_crc_vk *k, size_t j);

#endif
