/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc.h - the two CRCs of an InfiniBand packet (IBA vol. 1, 7.8).
 *
 * A packet on the wire is LRH [GRH] BTH ... payload ICRC VCRC.
 *
 * - ICRC (Invariant CRC, 4 bytes): CRC-32 (zlib/Ethernet: reflected 0xEDB88320, init and xorout
 *   0xFFFFFFFF) from the first LRH byte through the end of the payload, with the fields that may
 *   change in flight ("variant" fields) replaced by all ones.  It is end to end: a router never
 *   recomputes it (IBA 8.2.2.2), which is why every field a router changes is masked.
 * - VCRC (Variant CRC, 2 bytes): CRC-16, polynomial 0x100B, reflected input and output, init and
 *   xorout 0xFFFF, from the first LRH byte through the ICRC.  It protects one link and is
 *   recomputed at every hop (IBA 8.2.2.2); the router updates it in O(1) from the bytes it
 *   changed (ibr_vcrc_update()), relying on the linearity of CRCs.
 *
 * Both are stored least-significant byte first.
 *
 * Lengths: every `len` below counts bytes from the first LRH byte.  For the CRC functions it is
 * the number of bytes the CRC covers (the CRC itself is at pkt + len); for the *_verify
 * functions it runs through the CRC being checked.  On a whole wire packet of `wire_len` bytes
 * (LRH through VCRC, LRH.PktLen * 4 + 2): ibr_vcrc_verify(pkt, wire_len) and
 * ibr_icrc_verify(pkt, wire_len - IBR_VCRC_LEN).
 *
 * All functions are thread-safe.  The implementations are chosen once, on first use: for the
 * VCRC, folding with AVX-512 VPCLMULQDQ and GFNI where the CPU has both, else carry-less
 * multiply folding (VPCLMULQDQ, else PCLMULQDQ), else slicing-by-16; for the ICRC, the same
 * VPCLMULQDQ + GFNI folding, else one call of isa-l's crc32_gzip_refl() (zlib's crc32()
 * without isa-l).  Either way the ICRC runs over the packet in place, without a copy: the gfni
 * engine sets the masked bits as it loads them, isa-l and zlib get the masking in the seed.
 */
#ifndef IBR_CRC_H
#define IBR_CRC_H

#include <stddef.h>
#include <stdint.h>

#define IBR_ICRC_LEN 4
#define IBR_VCRC_LEN 2

/*
 * The header window of the incremental VCRC update: a router rewrites only LRH bytes 0-7 and,
 * with a GRH, HopLmt (byte 15).
 */
#define IBR_VCRC_HDR_LEN 16

/*
 * ICRC of the `len` bytes at pkt (LRH through the end of the payload).  Masked to all ones:
 * LRH.LNH == 3 (GRH): all 8 LRH bytes, GRH TClass, FlowLabel and HopLmt, BTH byte 4 (resv8a);
 * otherwise: the LRH VL nibble and BTH byte 4.  Masks falling beyond `len` are ignored, so any
 * length is safe to pass.  Raw packets (LNH 0 and 1) carry no ICRC.
 */
uint32_t ibr_icrc(const void *pkt, size_t len);

/*
 * Checks the ICRC of a packet whose `len` bytes run from the LRH through the ICRC.  Returns 0,
 * -EBADMSG on a mismatch, or -EINVAL when the packet is raw (LNH 0 or 1) or too short to hold
 * its headers (LRH, [GRH], BTH) and an ICRC.
 */
int ibr_icrc_verify(const void *pkt, size_t len);

/* Computes the ICRC of the `len` bytes at pkt and stores it at pkt + len (4 bytes). */
void ibr_icrc_write(void *pkt, size_t len);

/* VCRC of the `len` bytes at pkt (LRH through the ICRC). */
uint16_t ibr_vcrc(const void *pkt, size_t len);

/*
 * Checks the VCRC of a packet whose `len` bytes run from the LRH through the VCRC (the whole
 * wire packet).  Returns 0, -EBADMSG on a mismatch, -EINVAL when len < 2.
 */
int ibr_vcrc_verify(const void *pkt, size_t len);

/*
 * ibr_vcrc_verify() over a burst: the VCRCs of n <= 64 whole wire packets, packet i of len[i]
 * bytes at pkt[i].  Returns a mask with bit i set when packet i fails (a mismatch, or
 * len[i] < 2).  One call per burst lets the packets' CRCs overlap in the CPU and pays the
 * engine dispatch once; the data path uses it.
 */
uint64_t ibr_vcrc_verify_n(const uint8_t *const pkt[], const uint32_t len[], unsigned n);

/* Computes the VCRC of the `len` bytes at pkt and stores it at pkt + len (2 bytes). */
void ibr_vcrc_write(void *pkt, size_t len);

/*
 * Incremental VCRC.  If the first 16 bytes of a `len`-byte message are XORed with `delta`
 * (only the first min(len, 16) bytes of it count), its VCRC changes by the returned value:
 * new_vcrc = old_vcrc ^ ibr_vcrc_delta(delta, len).  O(1) for len < 8198 (every legal packet:
 * LRH.PktLen is 11 bits of 4-byte words), O(log len) beyond.
 */
uint16_t ibr_vcrc_delta(const uint8_t delta[IBR_VCRC_HDR_LEN], size_t len);

/*
 * The VCRC of a `len`-byte message (LRH through ICRC) after its first 16 bytes changed from
 * old_hdr to new_hdr, given its VCRC `vcrc` before the change.  A wrong `vcrc` stays exactly
 * as wrong (the update never launders a corrupted packet), so checking it first is optional.
 */
uint16_t ibr_vcrc_update(uint16_t vcrc, const uint8_t old_hdr[IBR_VCRC_HDR_LEN],
			 const uint8_t new_hdr[IBR_VCRC_HDR_LEN], size_t len);

/* One ibr_vcrc_update() for ibr_vcrc_update_n(). */
struct ibr_vcrc_job {
	const uint8_t *old_hdr; /* the message's first 16 bytes before the change */
	const uint8_t *new_hdr; /* and after */
	uint16_t *vcrc;		/* in: the VCRC before; out: after */
	uint32_t len;		/* message bytes, LRH through ICRC */
};

/*
 * ibr_vcrc_update() over a burst: *job[i].vcrc = ibr_vcrc_update(*job[i].vcrc, ...) for each
 * job.  One call per burst lets the engine update several VCRCs in one vector register (the
 * forwarding engine's rewrite uses it).
 */
void ibr_vcrc_update_n(const struct ibr_vcrc_job *job, unsigned n);

/*
 * For the forwarding rewrite: `pkt` is a whole wire packet of `wire_len` bytes (LRH through
 * VCRC) whose first 16 bytes were rewritten in place; `old_hdr` is a copy of them taken before.
 * Updates the stored VCRC.  Returns 0, or -EINVAL when wire_len < 2 (nothing is written).
 */
int ibr_vcrc_rewrite(void *pkt, size_t wire_len, const uint8_t old_hdr[IBR_VCRC_HDR_LEN]);

/*
 * The VCRC engines, worst first: the best one is the last this CPU runs.  X(IMPL, file) gives
 * IBR_VCRC_IMPL_<IMPL> and, in lib/crc/ibr_crc16.c, the table of the engines' ops, each
 * ibr_crc16_<file>_ops in lib/crc/ibr_crc16_<file>.c.  Adding an engine is adding its file and its
 * line here (and the file in lib/crc/local.am); the unit tests and bench_crc run every engine.
 */
/* clang-format off */
#define IBR_VCRC_ENGINES(X)                                                                        \
	X(SLICE16, slice16) /* portable: slicing-by-16 tables */                                   \
	X(PCLMUL, pclmul)   /* x86-64: carry-less multiply folding, 128 bits (PCLMULQDQ) */        \
	X(AVX2, avx2)       /* x86-64: the same on 256-bit registers (AVX2 VPCLMULQDQ: Zen 3) */  \
	X(VPCLMUL, avx512)  /* x86-64: the same on 512-bit registers (AVX-512 VPCLMULQDQ) */       \
	X(GFNI, gfni)       /* x86-64: AVX-512 VPCLMULQDQ and GFNI folding side by side */         \
	X(PMULL, pmull)     /* aarch64: PMULL folding, 128 bits (the Crypto extension) */

/* VCRC implementations, for tests and benchmarks. */
enum ibr_vcrc_impl {
	IBR_VCRC_IMPL_AUTO, /* the best one this CPU runs */
#define IBR_VCRC_IMPL_ENUM(impl, file) IBR_VCRC_IMPL_##impl,
	IBR_VCRC_ENGINES(IBR_VCRC_IMPL_ENUM)
#undef IBR_VCRC_IMPL_ENUM
	IBR_VCRC_IMPL_COUNT /* not an implementation: AUTO and the engines */
};
/* clang-format on */

/* Forces an implementation; -ENOTSUP if the CPU or the build lacks it.  Not for the data path. */
int ibr_vcrc_impl_set(enum ibr_vcrc_impl impl);
/* The implementation in use (never AUTO) and its name. */
enum ibr_vcrc_impl ibr_vcrc_impl_get(void);
const char *ibr_vcrc_impl_name(enum ibr_vcrc_impl impl);
/* ICRC implementations, for tests and benchmarks. */
enum ibr_icrc_impl {
	IBR_ICRC_IMPL_AUTO,   /* the best one this CPU runs */
	IBR_ICRC_IMPL_LIB,    /* isa-l's crc32_gzip_refl() ("isa-l"), or zlib's crc32() ("zlib") */
	IBR_ICRC_IMPL_GFNI,   /* x86-64: AVX-512 VPCLMULQDQ and GFNI folding, as for the VCRC */
	IBR_ICRC_IMPL_ARMCRC, /* aarch64: the CRC32 instructions ("armcrc") */
	IBR_ICRC_IMPL_AVX2, /* x86-64: 256-bit VPCLMULQDQ folding (Zen 3), isa-l under 512 bytes */
};
#define IBR_ICRC_IMPL_LAST IBR_ICRC_IMPL_AVX2

/* Forces an implementation; -ENOTSUP if the CPU or the build lacks it.  Not for the data path. */
int ibr_icrc_impl_set(enum ibr_icrc_impl impl);
/* The implementation in use (never AUTO) and its name. */
enum ibr_icrc_impl ibr_icrc_impl_get(void);
const char *ibr_icrc_impl_name(enum ibr_icrc_impl impl);

#endif
