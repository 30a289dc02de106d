/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc32_arm.c - the armcrc engine of the ICRC: ARMv8's CRC32 instructions (CRC32X, W, H,
 * B), whose polynomial is the ICRC's, 0x04C11DB7 reflected (the Ethernet and gzip CRC-32; the
 * CRC32C ones are another).  Every ARMv8.1 core has them (Grace's Neoverse V2, BlueField's
 * A72/A78); zlib uses them only when built for them, and Debian builds it for plain ARMv8-A.
 * The ICRC's masking is the seed, as for the library engine (lib/crc/ibr_crc.c, icrc_seed()).
 *
 * One dependent chain of CRC32X, 8 bytes each: not measured here (qemu-user in the CI shows
 * only that it is right).  Public figures, not ours: Linux's arm64 CRC-32 with 4 chains merged
 * by PMULL is 2-2.8 times faster than this one chain on 1-8 KiB (on an Apple M2), and
 * PostgreSQL found PMULL folding about twice as fast; that is the next step, for a machine
 * that can measure it.
 */
#include "lib/crc/ibr_crc16.h"

#if defined(__aarch64__)
#include <arm_acle.h>
#include <sys/auxv.h>

__attribute__((target("+crc"))) uint32_t ibr_crc32_arm(uint32_t crc, const uint8_t *p, size_t n)
{
	uint32_t r = ~crc;
	uint64_t v;
	uint32_t w;
	uint16_t h;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&v, p, 8); /* little-endian, as the instruction takes it */
		r = __crc32d(r, v);
	}
	if (n >= 4) {
		memcpy(&w, p, 4);
		r = __crc32w(r, w);
		p += 4;
		n -= 4;
	}
	if (n >= 2) {
		memcpy(&h, p, 2);
		r = __crc32h(r, h);
		p += 2;
		n -= 2;
	}
	if (n)
		r = __crc32b(r, *p);
	return ~r;
}

bool ibr_crc32_arm_usable(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_CRC32) != 0;
}
#else
/* Not in this build: never usable, never called. */
uint32_t ibr_crc32_arm(uint32_t crc, const uint8_t *p, size_t n)
{
	(void)p, (void)n;
	return crc;
}

bool ibr_crc32_arm_usable(void)
{
	return false;
}
#endif
