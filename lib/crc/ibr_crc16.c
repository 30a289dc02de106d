/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16.c - the dispatch of the CRC-16/0x100B engines of the VCRC: the table of the
 * engines (lib/crc/ibr_crc.h, IBR_VCRC_ENGINES), whether this CPU runs one, and the set-up of
 * them all.  The engines themselves, one per instruction set, each saying whether this CPU
 * runs it: ibr_crc16_slice16.c (portable), ibr_crc16_pclmul.c (PCLMULQDQ folding on 128-bit
 * lanes, x86-64), ibr_crc16_avx2.c (the same on 256-bit registers), ibr_crc16_avx512.c
 * (VPCLMULQDQ folding on 512-bit registers, AVX-512), ibr_crc16_gfni.c (VPCLMULQDQ and GFNI
 * folding side by side, AVX-512) and ibr_crc16_pmull.c (aarch64).  Below them, filled here
 * first: the tables and the software arithmetic mod P (ibr_crc16_tab.c) and the folding
 * constants (ibr_crc16_fold.c).  The engines never call back up here: ibr_crc.c and this file
 * pick them, they call only the helpers (and, x86's, the narrower engines' short paths:
 * lib/crc/ibr_crc16_x86.h), as DPDK's per-ISA CRC leaves do.
 *
 * No library computes this CRC, so all engines are written here and tested against a
 * bit-by-bit reference (tests/unit/lib/crc/ibr_crc_test.c).
 */
#include "lib/crc/ibr_crc16.h"
#include "lib/crc/ibr_crc16_fold.h"

/* clang-format off */
const struct ibr_crc16_ops *const ibr_crc16_engines[IBR_VCRC_IMPL_COUNT] = {
#define IBR_CRC16_OPS_PTR(impl, file) [IBR_VCRC_IMPL_##impl] = &ibr_crc16_##file##_ops,
	IBR_VCRC_ENGINES(IBR_CRC16_OPS_PTR)
#undef IBR_CRC16_OPS_PTR
};
/* clang-format on */

bool ibr_crc16_usable(enum ibr_vcrc_impl impl)
{
	const struct ibr_crc16_ops *o;

	if ((unsigned int)impl >= IBR_VCRC_IMPL_COUNT || !(o = ibr_crc16_engines[impl]))
		return false;
	return o->usable && o->usable();
}

void ibr_crc16_init(void)
{
	ibr_crc16_tab_init();
	ibr_crc16_fold_init();
	for (int i = 0; i < IBR_VCRC_IMPL_COUNT; i++)
		if (ibr_crc16_engines[i] && ibr_crc16_engines[i]->init)
			ibr_crc16_engines[i]->init();
}
