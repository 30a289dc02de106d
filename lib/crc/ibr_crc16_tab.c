/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16_tab.c - the tables every CRC-16/0x100B engine of the VCRC stands on, and the
 * arithmetic on them: the slicing-by-16 step (the tails of every engine), the powers x^(8n)
 * mod P behind the O(1) incremental update, the multiplication mod P in software.  A leaf:
 * the engines (ibr_crc16_<engine>.c) call it, it calls none of them, and the dispatcher
 * (ibr_crc16.c) fills it first, from ibr_crc16_init().
 */
#include "lib/crc/ibr_crc16.h"

uint16_t ibr_crc16_tab[16][256];
uint16_t ibr_crc16_xpow[IBR_CRC16_XPOW_N];
/* ibr_crc16_x2k[k] = x^(8 * 2^k) mod P, for lengths beyond the xpow table */
static uint16_t ibr_crc16_x2k[64];

/*
 * Byte at a time: one dependent load per byte, ~0.5 ns per byte measured (AMD EPYC VM).  Only
 * for tails of fewer than 8 bytes, inputs under 16 bytes and the incremental update's short case.
 */
uint16_t ibr_crc16_bytes(uint16_t reg, const uint8_t *p, size_t n)
{
	while (n--)
		reg = (uint16_t)((reg >> 8) ^ ibr_crc16_tab[0][(reg ^ *p++) & 0xff]);
	return reg;
}

/* a * b mod P (registers), software carry-less multiply. */
uint16_t ibr_crc16_mulmod_soft(uint16_t a, uint16_t b)
{
	uint32_t p = 0;

	for (int i = 0; i < 16; i++)
		p ^= ((uint32_t)b << i) & (0u - ((uint32_t)(a >> i) & 1));
	/* a, b: bit i ~ x^(15-i); product bit m ~ x^(30-m): shift into the 32-bit frame */
	return ibr_crc16_reduce32(p << 1);
}

uint16_t ibr_crc16_xpow8(size_t n)
{
	uint16_t r = 0x8000; /* 1 */

	if (n < IBR_CRC16_XPOW_N)
		return ibr_crc16_xpow[n];
	for (int k = 0; n; k++, n >>= 1)
		if (n & 1)
			r = ibr_crc16_mulmod_soft(r, ibr_crc16_x2k[k]);
	return r;
}

void ibr_crc16_tab_init(void)
{
	uint16_t(*t)[256] = ibr_crc16_tab;

	for (unsigned int b = 0; b < 256; b++) {
		uint16_t r = (uint16_t)b;

		for (int i = 0; i < 8; i++)
			r = (uint16_t)((r >> 1) ^ ((r & 1) ? IBR_CRC16_POLY_REFL : 0));
		t[0][b] = r;
	}
	for (int k = 1; k < 16; k++)
		for (int b = 0; b < 256; b++)
			t[k][b] = (uint16_t)((t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff]);
	/* multiplying a register by x^8 is feeding it a zero byte */
	ibr_crc16_xpow[0] = 0x8000;
	for (int n = 1; n < IBR_CRC16_XPOW_N; n++)
		ibr_crc16_xpow[n] = (uint16_t)((ibr_crc16_xpow[n - 1] >> 8) ^
					       t[0][ibr_crc16_xpow[n - 1] & 0xff]);
	ibr_crc16_x2k[0] = ibr_crc16_xpow[1];
	for (int k = 1; k < 64; k++)
		ibr_crc16_x2k[k] = ibr_crc16_mulmod_soft(ibr_crc16_x2k[k - 1],
							 ibr_crc16_x2k[k - 1]);
}
