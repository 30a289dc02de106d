/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_slice16.c - the portable engine of the VCRC (lib/crc/ibr_crc16.h): slicing-by-16, and
 * the incremental update with the multiplication mod P in software (lib/crc/ibr_crc16_tab.c).
 * Also what the other engines' stand-ins compute where the build has no such engine: it calls
 * only the tables' file, so they can stand on it.
 */
#include "lib/crc/ibr_crc16.h"

uint16_t ibr_crc16_slice16(uint16_t reg, const uint8_t *p, size_t n)
{
	/*
	 * Hot loop of the portable engine: 16 independent table loads per 16 bytes.  Measured
	 * ~2.5 GB/s (~6.5 ns per 16 bytes) on 2 KiB (bench_crc, AMD EPYC VM, forced slice16).
	 */
	while (n >= 16) {
		reg = ibr_crc16_block16(reg, p);
		p += 16;
		n -= 16;
	}
	return ibr_crc16_tail(reg, p, n);
}

/*
 * The incremental update (see ibr_vcrc_update()): L(delta) over 16 bytes (9 or 16 table
 * loads), times x^(8(len-16)) in software.  Measured ~17 ns per update (bench_crc, forced
 * slice16); the pclmul engine's (ibr_crc16_pclmul.c) takes ~4.4 ns.
 */
uint16_t ibr_crc16_update_soft(uint16_t vcrc, const uint8_t *o, const uint8_t *nw, size_t len)
{
	uint64_t a = ibr_crc16_le64(o) ^ ibr_crc16_le64(nw);
	uint64_t b = ibr_crc16_le64(o + 8) ^ ibr_crc16_le64(nw + 8);

	if (__builtin_expect(len < 16, 0))
		return vcrc ^ ibr_crc16_delta_short(a, b, len);
	return vcrc ^ ibr_crc16_mulmod_soft(ibr_crc16_delta16(a, b), ibr_crc16_xpow_get(len - 16));
}

/* Every CPU. */
static bool crc16_slice16_usable(void)
{
	return true;
}

const struct ibr_crc16_ops ibr_crc16_slice16_ops = {
	.impl = IBR_VCRC_IMPL_SLICE16,
	.name = "slice16",
	.usable = crc16_slice16_usable,
	.crc = ibr_crc16_slice16,
	.update = ibr_crc16_update_soft,
};
