/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc16.h - internal to the CRC module: the CRC-16/0x100B engines behind the VCRC, the
 * CRC-32 engines behind the ICRC, and the helpers below them both.
 *
 * Conventions: a "register" is the reflected CRC state without init or xorout; bit i of it is
 * the coefficient of x^(15 - i) (x^(31 - i) for the CRC-32).  Feeding message M to register 0
 * leaves M(x) * x^16 mod P, the linear part of the CRC; the VCRC is that for init 0xFFFF,
 * xored with 0xFFFF.
 */
#ifndef IBR_CRC16_H
#define IBR_CRC16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/crc/ibr_crc.h"

#define IBR_CRC16_POLY	    0x100Bu	/* x^16 + x^12 + x^3 + x + 1, x^16 implied */
#define IBR_CRC16_POLY_REFL 0xD008u	/* the same, bit-reversed */
#define IBR_CRC32_POLY_REFL 0xEDB88320u /* the ICRC's CRC-32, 0x04C11DB7 bit-reversed */
#define IBR_CRC16_XPOW_N    8192	/* x^(8n) mod P tabulated for n < this */

/* ibr_crc16_tab[k][b]: register after byte b then k zero bytes, from register 0 (..._tab.c). */
extern uint16_t ibr_crc16_tab[16][256];
/* ibr_crc16_xpow[n] = x^(8n) mod P, as a register. */
extern uint16_t ibr_crc16_xpow[IBR_CRC16_XPOW_N];

struct ibr_crc16_ops {
	enum ibr_vcrc_impl impl;
	const char *name;
	/* whether this CPU runs it; NULL where the build has no such engine (a stand-in) */
	bool (*usable)(void);
	/* fills the engine's own tables, from ibr_crc16_init(), or NULL */
	void (*init)(void);
	/* register after feeding n bytes at p to register `reg` */
	uint16_t (*crc)(uint16_t reg, const uint8_t *p, size_t n);
	/* ibr_vcrc_update(): one indirect call, everything else inline */
	uint16_t (*update)(uint16_t vcrc, const uint8_t *old_hdr, const uint8_t *new_hdr,
			   size_t len);
	/* ibr_vcrc_update_n(), or NULL: ibr_crc.c loops over update() */
	void (*update_n)(const struct ibr_vcrc_job *job, unsigned n);
	/* ibr_vcrc_verify_n(), or NULL: ibr_crc.c loops over crc() */
	uint64_t (*verify_n)(const uint8_t *const pkt[], const uint32_t len[], unsigned n);
};

#define IBR_CRC16_OPS_DECL(impl, file) extern const struct ibr_crc16_ops ibr_crc16_##file##_ops;
IBR_VCRC_ENGINES(IBR_CRC16_OPS_DECL)
#undef IBR_CRC16_OPS_DECL
/* Every engine, by enum ibr_vcrc_impl (AUTO: NULL). */
extern const struct ibr_crc16_ops *const ibr_crc16_engines[IBR_VCRC_IMPL_COUNT];

/*
 * Byte patterns for the gfni engine to apply to the first IBR_CRC_PAT_LEN bytes of a message as
 * it loads them: byte j becomes (b | or[j]) ^ xor[j].  The ICRC's masking is the `or` part; an
 * initial register R is xor with R's bytes (least significant first) on the first w/8 bytes.
 */
#define IBR_CRC_PAT_LEN 64
struct ibr_crc_pat {
	uint8_t or_[IBR_CRC_PAT_LEN];
	uint8_t xor_[IBR_CRC_PAT_LEN];
};

/*
 * CRC-32 (reflected 0xEDB88320, the ICRC's) on the gfni engine (lib/crc/ibr_crc32_gfni.c): the
 * register after feeding the n bytes at p to register `reg` (no inversions: zlib's
 * crc32(s, p, n) is ~ of it for reg ~s); ibr_crc32_gfni_pat() starts from register 0, the
 * message patterned, and needs n >= 4 when the pattern holds an initial register.  Only where
 * ibr_crc16_usable(IBR_VCRC_IMPL_GFNI): the VCRC's gfni engine runs on the same instructions.
 * Its tables: ..._init(), once.
 */
uint32_t ibr_crc32_gfni(uint32_t reg, const uint8_t *p, size_t n);
uint32_t ibr_crc32_gfni_pat(const struct ibr_crc_pat *pat, const uint8_t *p, size_t n);
void ibr_crc32_gfni_init(void);

/*
 * The same CRC-32 bit by bit, patterned when pat is not NULL (then from register 0): the
 * stand-ins of the x86 CRC-32 engines where the build has none (never called, but correct).
 */
static inline uint32_t ibr_crc32_bits(uint32_t reg, const struct ibr_crc_pat *pat, const uint8_t *p,
				      size_t n)
{
	for (size_t j = 0; j < n; j++) {
		reg ^= pat && j < IBR_CRC_PAT_LEN ? (p[j] | pat->or_[j]) ^ pat->xor_[j] : p[j];
		for (int i = 0; i < 8; i++)
			reg = (reg >> 1) ^ ((reg & 1) ? IBR_CRC32_POLY_REFL : 0);
	}
	return reg;
}

/*
 * CRC-32 (the ICRC's) on the avx2 engine (lib/crc/ibr_crc32_avx2.c): as ibr_crc32_gfni_pat(), for
 * n >= IBR_CRC32_AVX2_MIN; only where ibr_crc32_avx2_usable().  Its tables: ..._init(), once.
 */
#define IBR_CRC32_AVX2_MIN 512
uint32_t ibr_crc32_avx2_pat(const struct ibr_crc_pat *pat, const uint8_t *p, size_t n);
bool ibr_crc32_avx2_usable(void);
void ibr_crc32_avx2_init(void);

/*
 * CRC-32 (the ICRC's) with ARMv8's CRC32 instructions, zlib's convention (crc 0 starts, a
 * result continues); only where ibr_crc32_arm_usable() (lib/crc/ibr_crc32_arm.c).
 */
uint32_t ibr_crc32_arm(uint32_t crc, const uint8_t *p, size_t n);
bool ibr_crc32_arm_usable(void);

/*
 * The dispatch (lib/crc/ibr_crc16.c), for lib/crc/ibr_crc.c only: no engine calls it.
 * ibr_crc16_init() fills the tables, the helpers' first; call once (the module does, under
 * pthread_once) before any engine.
 */
void ibr_crc16_init(void);
/* Whether this CPU and build run an engine (slice16: always; AUTO and others: never). */
bool ibr_crc16_usable(enum ibr_vcrc_impl impl);

/* The tables and the arithmetic on them (lib/crc/ibr_crc16_tab.c), below every engine. */
void ibr_crc16_tab_init(void);
/* x^(8n) mod P for n >= IBR_CRC16_XPOW_N (below, read ibr_crc16_xpow[n]). */
uint16_t ibr_crc16_xpow8(size_t n);
/* Byte-at-a-time: the tail of the fast engines (fewer than 16 bytes) and small inputs. */
uint16_t ibr_crc16_bytes(uint16_t reg, const uint8_t *p, size_t n);
/* a * b mod P (registers), in software. */
uint16_t ibr_crc16_mulmod_soft(uint16_t a, uint16_t b);
/*
 * The portable engine's CRC and update (ibr_crc16_slice16.c), also what the other engines'
 * stand-ins compute where the build has no such engine.
 */
uint16_t ibr_crc16_slice16(uint16_t reg, const uint8_t *p, size_t n);
uint16_t ibr_crc16_update_soft(uint16_t vcrc, const uint8_t *o, const uint8_t *nw, size_t len);

static inline __attribute__((always_inline)) uint64_t ibr_crc16_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v)); /* little-endian host: configure refuses others */
	return v;
}

/* One slicing-by-16 step over 16 bytes given as two little-endian words. */
static inline __attribute__((always_inline)) uint16_t
ibr_crc16_block16_words(uint16_t reg, uint64_t a, uint64_t b)
{
	const uint16_t(*t)[256] = ibr_crc16_tab;

	a ^= reg;
	return t[15][a & 0xff] ^ t[14][(a >> 8) & 0xff] ^ t[13][(a >> 16) & 0xff] ^
	       t[12][(a >> 24) & 0xff] ^ t[11][(a >> 32) & 0xff] ^ t[10][(a >> 40) & 0xff] ^
	       t[9][(a >> 48) & 0xff] ^ t[8][a >> 56] ^ t[7][b & 0xff] ^ t[6][(b >> 8) & 0xff] ^
	       t[5][(b >> 16) & 0xff] ^ t[4][(b >> 24) & 0xff] ^ t[3][(b >> 32) & 0xff] ^
	       t[2][(b >> 40) & 0xff] ^ t[1][(b >> 48) & 0xff] ^ t[0][b >> 56];
}

/* One slicing-by-16 step: register after the 16 bytes at p. */
static inline __attribute__((always_inline)) uint16_t ibr_crc16_block16(uint16_t reg,
									const uint8_t *p)
{
	return ibr_crc16_block16_words(reg, ibr_crc16_le64(p), ibr_crc16_le64(p + 8));
}

/* Fewer than 16 bytes: one slicing-by-8 step if it fits, then bytes. */
static inline __attribute__((always_inline)) uint16_t ibr_crc16_tail(uint16_t reg, const uint8_t *p,
								     size_t n)
{
	const uint16_t(*t)[256] = ibr_crc16_tab;

	if (n >= 8) {
		uint64_t a = ibr_crc16_le64(p) ^ reg;

		reg = t[7][a & 0xff] ^ t[6][(a >> 8) & 0xff] ^ t[5][(a >> 16) & 0xff] ^
		      t[4][(a >> 24) & 0xff] ^ t[3][(a >> 32) & 0xff] ^ t[2][(a >> 40) & 0xff] ^
		      t[1][(a >> 48) & 0xff] ^ t[0][a >> 56];
		p += 8;
		n -= 8;
	}
	return ibr_crc16_bytes(reg, p, n);
}

/*
 * L(delta) of a 16-byte delta, for the table-driven update.  The router's rewrite (LRH, HopLmt)
 * leaves bytes 8-14 alone: then 9 lookups do instead of 16.
 */
static inline __attribute__((always_inline)) uint16_t ibr_crc16_delta16(uint64_t a, uint64_t b)
{
	const uint16_t(*t)[256] = ibr_crc16_tab;

	if ((b & 0x00ffffffffffffffull) != 0)
		return ibr_crc16_block16_words(0, a, b);
	return t[15][a & 0xff] ^ t[14][(a >> 8) & 0xff] ^ t[13][(a >> 16) & 0xff] ^
	       t[12][(a >> 24) & 0xff] ^ t[11][(a >> 32) & 0xff] ^ t[10][(a >> 40) & 0xff] ^
	       t[9][(a >> 48) & 0xff] ^ t[8][a >> 56] ^ t[0][b >> 56];
}

static inline __attribute__((always_inline)) uint16_t ibr_crc16_xpow_get(size_t n)
{
	return n < IBR_CRC16_XPOW_N ? ibr_crc16_xpow[n] : ibr_crc16_xpow8(n);
}

/* L of the first len < 16 bytes of the delta a (bytes 0-7), b (bytes 8-15). */
static inline uint16_t ibr_crc16_delta_short(uint64_t a, uint64_t b, size_t len)
{
	uint8_t d[16];

	memcpy(d, &a, 8);
	memcpy(d + 8, &b, 8);
	return ibr_crc16_bytes(0, d, len);
}

/*
 * Reduces a 32-bit reflected product (bit k the coefficient of x^(31 - k)) mod P: the high half
 * is already reduced, the low half Q stands for Q * x^16, i.e. register Q fed two zero bytes.
 */
static inline __attribute__((always_inline)) uint16_t ibr_crc16_reduce32(uint32_t q)
{
	return (uint16_t)((q >> 16) ^ ibr_crc16_tab[1][q & 0xff] ^
			  ibr_crc16_tab[0][(q >> 8) & 0xff]);
}

#endif
