/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_crc.c - ICRC and VCRC of InfiniBand packets (IBA vol. 1, 7.8; router rules 8.2.2.2).
 *
 * Why two CRCs and what a router does with them: the ICRC covers what must not change between
 * the two end nodes and is never recomputed by a router (IBA 8.2.2.2), so every field a router
 * or switch may change is masked to ones before computing it.  The VCRC covers the whole packet
 * on one link and is recomputed at every hop.  The forwarding rewrite (LRH and HopLmt) therefore
 * leaves the ICRC valid and updates the VCRC incrementally (ibr_vcrc_update()).
 *
 * ICRC masking, as the project's IBA notes ("CRCs") state it (IBA 7.8.1; Linux rxe's RoCE
 * pseudo-header agrees for the GRH case: it starts from the CRC of eight 0xFF bytes standing
 * for the LRH, and masks TClass, FlowLabel, HopLimit and BTH resv8a):
 *   LNH 3 (GRH): LRH bytes 0-7; GRH TClass (low nibble of byte 8, high nibble of byte 9),
 *                FlowLabel (low nibble of byte 9, bytes 10-11), HopLmt (byte 15); BTH byte 4
 *                (resv8a, packet byte 52).  IPVer, PayLen, NxtHdr, SGID, DGID stay covered.
 *   otherwise:   the LRH VL nibble (high nibble of byte 0) and BTH byte 4 (packet byte 12);
 *                the rest of the LRH stays covered: a packet without a GRH never leaves its
 *                subnet, and switches change only its VL.
 *
 * The masking costs no copy and no second pass.  The gfni engine (lib/crc/ibr_crc32_gfni.c,
 * where the CPU has AVX-512 VPCLMULQDQ and GFNI) sets the masked bits, and xors in the initial
 * register, as it loads the packet's first bytes (icrc_pat).  With isa-l or zlib it is folded
 * into the seed of one CRC-32 call over the packet in place (see icrc_seed()).  Measured with
 * isa-l on 2 KiB: one call 38 ns; the obvious alternative, the 53-byte masked prefix from a
 * stack copy, then the rest in place seeded with its CRC, 103 ns: two dependent calls, and
 * isa-l's paths for short buffers and for remainders under 256 bytes are slow.
 */
#include "lib/crc/ibr_crc.h"
#include "lib/crc/ibr_crc16.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#else
#include <zlib.h>
#endif

#if defined(HAVE_ISAL) && defined(__x86_64__)
#include <immintrin.h>
#define CRC_ISAL_ZEROUPPER 1
static bool crc_avx; /* set once by crc_init() */

__attribute__((target("avx"))) static void crc_zeroupper(void)
{
	_mm256_zeroupper();
}
#endif

#define CRC_LRH_LEN    8
#define CRC_GRH_LEN    40
#define CRC_BTH_LEN    12
#define CRC_LNH_LOCAL  2
#define CRC_LNH_GLOBAL 3

static inline unsigned int crc_lnh(const uint8_t *p)
{
	return p[1] & 3;
}

/*
 * CRC-32 continuation, zlib convention: crc 0 starts a CRC, a previous result continues it.
 * isa-l's crc32_gzip_refl() inverts its seed on entry and its result on exit, exactly like
 * zlib's crc32(), so both take and return the finished CRC (the unit test checks they agree).
 */
static inline uint32_t crc32_run(uint32_t crc, const uint8_t *p, size_t n)
{
#ifdef HAVE_ISAL
	crc = crc32_gzip_refl(crc, p, n);
#ifdef CRC_ISAL_ZEROUPPER
	/*
	 * isa-l's AVX-512 path returns with dirty upper register halves: every legacy-SSE
	 * instruction after it then pays a merge (measured: the incremental VCRC update went from
	 * 4.2 to 11.6 ns after one crc32_gzip_refl() of 4 KiB).  Clean up for the caller.
	 */
	if (crc_avx)
		crc_zeroupper();
#endif
	return crc;
#else
	return (uint32_t)crc32_z(crc, p, n);
#endif
}

/* An ICRC engine: the ICRC of the len bytes at p. */
typedef uint32_t (*icrc_fn)(const uint8_t *p, size_t len);

/*
 * The engine in use, once the tables below are filled (on first use, with the VCRC's).
 */
static icrc_fn icrc_get(void);

/*
 * The masking as a seed.  Xoring d into packet byte j changes the final CRC-32 register by
 * d(x) * x^(8 (len - 1 - j) + 32) mod P; starting from register s ^ 0xFFFFFFFF instead of
 * 0xFFFFFFFF changes it by s(x) * x^(8 len).  Hence the masked packet's CRC is the unmasked
 * packet's CRC seeded with s = sum of d_j(x) * x^(24 - 8j) mod P over the masked bytes j, where
 * d_j = ~p[j] & mask_j are the bits masking sets.  x is invertible mod P (P(0) = 1), so the
 * negative powers exist, and s does not depend on len.  icrc_tab[k][d] holds d(x) x^(24-8j)
 * for the k-th maskable byte j; the zlib/isa-l seed is exactly s (both invert it on entry).
 */
#define ICRC_NPOS 15
static const uint8_t icrc_pos[ICRC_NPOS] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15, 52 };
static const uint8_t icrc_mask_global[ICRC_NPOS] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* LRH */
	0x0f, 0xff, 0xff, 0xff,				/* TClass, FlowLabel */
	0x00, 0xff, 0xff,				/* -, HopLmt, BTH resv8a */
};
static const uint8_t icrc_mask_local[ICRC_NPOS] = {
	0xf0, 0, 0, 0, 0,    0, 0, 0, /* LRH VL */
	0,    0, 0, 0, 0xff, 0, 0,    /* BTH resv8a */
};
static uint32_t icrc_tab[ICRC_NPOS][256];
/*
 * The masking for the gfni engine, which sets the masked bits itself as it loads the packet:
 * [0] without a GRH, [1] with one; the xor part is the initial register 0xFFFFFFFF.
 */
static struct ibr_crc_pat icrc_pat[2];

static void icrc_init(void)
{
	for (uint32_t b = 0; b < 256; b++) {
		uint32_t r = b;

		for (int i = 0; i < 8; i++) /* b(x) * x^32 mod P */
			r = (r >> 1) ^ ((r & 1) ? IBR_CRC32_POLY_REFL : 0);
		for (unsigned int k = 0, j = 0; k < ICRC_NPOS; k++) {
			for (; j <= icrc_pos[k]; j++)
				for (int i = 0; i < 8; i++) /* times x^-1: undo one shift */
					r = (r & 0x80000000u) ? ((r ^ IBR_CRC32_POLY_REFL) << 1) | 1
							      : r << 1;
			icrc_tab[k][b] = r;
		}
	}
	for (unsigned int k = 0; k < ICRC_NPOS; k++) {
		icrc_pat[0].or_[icrc_pos[k]] = icrc_mask_local[k];
		icrc_pat[1].or_[icrc_pos[k]] = icrc_mask_global[k];
	}
	memset(icrc_pat[0].xor_, 0xff, 4);
	memset(icrc_pat[1].xor_, 0xff, 4);
}

/* Any length: masks of bytes past len do not apply (those bytes do not exist). */
static uint32_t icrc_seed_short(const uint8_t *p, size_t len)
{
	const uint8_t *mask = icrc_mask_local;
	uint32_t s = 0;

	if (len >= 2 && crc_lnh(p) == CRC_LNH_GLOBAL)
		mask = icrc_mask_global;
	for (unsigned int k = 0; k < ICRC_NPOS && icrc_pos[k] < len; k++)
		s ^= icrc_tab[k][~p[icrc_pos[k]] & mask[k]];
	return s;
}

static inline uint32_t icrc_seed(const uint8_t *p, size_t len)
{
	const uint32_t(*t)[256] = icrc_tab;

	/* the headers are all there: straight-line lookups (~3 ns with a GRH) */
	if (len >= CRC_LRH_LEN + CRC_GRH_LEN + CRC_BTH_LEN && crc_lnh(p) == CRC_LNH_GLOBAL)
		return t[0][p[0] ^ 0xff] ^ t[1][p[1] ^ 0xff] ^ t[2][p[2] ^ 0xff] ^
		       t[3][p[3] ^ 0xff] ^ t[4][p[4] ^ 0xff] ^ t[5][p[5] ^ 0xff] ^
		       t[6][p[6] ^ 0xff] ^ t[7][p[7] ^ 0xff] ^ t[8][~p[8] & 0x0f] ^
		       t[9][p[9] ^ 0xff] ^ t[10][p[10] ^ 0xff] ^ t[11][p[11] ^ 0xff] ^
		       t[13][p[15] ^ 0xff] ^ t[14][p[52] ^ 0xff];
	if (len >= CRC_LRH_LEN + CRC_BTH_LEN && crc_lnh(p) != CRC_LNH_GLOBAL)
		return t[0][~p[0] & 0xf0] ^ t[12][p[12] ^ 0xff];
	return icrc_seed_short(p, len);
}

/* isa-l or zlib, the masking in the seed */
static uint32_t icrc_lib(const uint8_t *p, size_t len)
{
	/*
	 * Measured with isa-l on 2 KiB with a GRH: ~44 ns, isa-l alone ~38 ns; the rest is the
	 * seed (~3 ns, its latency delays isa-l's first fold) and vzeroupper (~1.5 ns).
	 */
	return crc32_run(icrc_seed(p, len), p, len);
}

/* The gfni engine (lib/crc/ibr_crc32_gfni.c), masking and initial register applied as it loads */
static uint32_t icrc_gfni(const uint8_t *p, size_t len)
{
	/*
	 * Measured on 2 KiB with a GRH: ~30 ns (bench_crc), the engine alone ~28 ns: masking
	 * this way costs a few masked loads and vpternlogs, where the seed's 14 dependent table
	 * lookups cost ~3 ns.  Under 4 bytes the register does not fit in the packet: seed it.
	 */
	if (len < IBR_ICRC_LEN)
		return ~ibr_crc32_gfni(~icrc_seed(p, len), p, len);
	return ~ibr_crc32_gfni_pat(&icrc_pat[len >= 2 && crc_lnh(p) == CRC_LNH_GLOBAL], p, len);
}

/*
 * The avx2 engine (lib/crc/ibr_crc32_avx2.c), the masking and the initial register applied on
 * its copy of the first bytes as the gfni engine does; under 512 bytes the library's (isa-l
 * folds 128 bits at a time, as fast there as the 256-bit windows' set-up).
 */
static uint32_t icrc_avx2(const uint8_t *p, size_t len)
{
	if (len < IBR_CRC32_AVX2_MIN)
		return icrc_lib(p, len);
	return ~ibr_crc32_avx2_pat(&icrc_pat[crc_lnh(p) == CRC_LNH_GLOBAL], p, len);
}

/* ARMv8's CRC32 instructions (lib/crc/ibr_crc32_arm.c), the masking in the seed as icrc_lib() */
static uint32_t icrc_armcrc(const uint8_t *p, size_t len)
{
	return ibr_crc32_arm(icrc_seed(p, len), p, len);
}

uint32_t ibr_icrc(const void *pkt, size_t len)
{
	return icrc_get()(pkt, len);
}

static inline uint32_t crc_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int ibr_icrc_verify(const void *pkt, size_t len)
{
	const uint8_t *p = pkt;
	size_t hdrs;

	if (len < CRC_LRH_LEN)
		return -EINVAL;
	switch (crc_lnh(p)) {
	case CRC_LNH_GLOBAL:
		hdrs = CRC_LRH_LEN + CRC_GRH_LEN + CRC_BTH_LEN;
		break;
	case CRC_LNH_LOCAL:
		hdrs = CRC_LRH_LEN + CRC_BTH_LEN;
		break;
	default:
		return -EINVAL; /* raw packets have no ICRC */
	}
	if (len < hdrs + IBR_ICRC_LEN)
		return -EINVAL;
	len -= IBR_ICRC_LEN;
	return ibr_icrc(p, len) == crc_get_le32(p + len) ? 0 : -EBADMSG;
}

void ibr_icrc_write(void *pkt, size_t len)
{
	uint8_t *p = pkt;
	uint32_t crc = ibr_icrc(p, len);

	p[len] = (uint8_t)crc;
	p[len + 1] = (uint8_t)(crc >> 8);
	p[len + 2] = (uint8_t)(crc >> 16);
	p[len + 3] = (uint8_t)(crc >> 24);
}

/*
 * Engine selection, once, thread-safe: the tables are filled under pthread_once, then the
 * chosen VCRC ops are published with a release store; readers pair it with an acquire load.
 */
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;
static const struct ibr_crc16_ops *_Atomic vcrc_ops;
static _Atomic(icrc_fn) icrc_cur;

/* The last engine of the table (worst first) this CPU runs; slice16 runs on all. */
static const struct ibr_crc16_ops *vcrc_best(void)
{
	for (int i = IBR_VCRC_IMPL_COUNT - 1; i > IBR_VCRC_IMPL_SLICE16; i--)
		if (ibr_crc16_usable((enum ibr_vcrc_impl)i))
			return ibr_crc16_engines[i];
	return &ibr_crc16_slice16_ops;
}

static bool icrc_lib_usable(void)
{
	return true;
}

static bool icrc_gfni_usable(void)
{
	return ibr_crc16_usable(IBR_VCRC_IMPL_GFNI);
}

#ifdef HAVE_ISAL
#define ICRC_LIB_NAME "isa-l"
#else
#define ICRC_LIB_NAME "zlib"
#endif

/* The ICRC engines by enum ibr_icrc_impl (AUTO has none), each saying whether this CPU runs it. */
static const struct icrc_engine {
	const char *name;
	icrc_fn fn;
	bool (*usable)(void);
} icrc_engines[] = {
	[IBR_ICRC_IMPL_LIB] = { ICRC_LIB_NAME, icrc_lib, icrc_lib_usable },
	[IBR_ICRC_IMPL_GFNI] = { "gfni", icrc_gfni, icrc_gfni_usable },
	[IBR_ICRC_IMPL_ARMCRC] = { "armcrc", icrc_armcrc, ibr_crc32_arm_usable },
	[IBR_ICRC_IMPL_AVX2] = { "avx2", icrc_avx2, ibr_crc32_avx2_usable },
};
#define ICRC_NENGINES (sizeof(icrc_engines) / sizeof(icrc_engines[0]))

/* The engine of `impl` when this CPU runs it, else NULL. */
static icrc_fn icrc_engine(enum ibr_icrc_impl impl)
{
	const struct icrc_engine *e = (unsigned)impl < ICRC_NENGINES ? &icrc_engines[impl] : NULL;

	return e && e->fn && e->usable() ? e->fn : NULL;
}

/* The best ICRC engine but gfni (which goes with the gfni VCRC engine). */
static icrc_fn icrc_plain(void)
{
	icrc_fn f = icrc_engine(IBR_ICRC_IMPL_AVX2);

	if (!f)
		f = icrc_engine(IBR_ICRC_IMPL_ARMCRC);
	return f ? f : icrc_lib;
}

static icrc_fn icrc_best(void)
{
	icrc_fn f = icrc_engine(IBR_ICRC_IMPL_GFNI);

	return f ? f : icrc_plain();
}

/*
 * IBR_CRC_IMPL=VCRC[,ICRC] in the environment forces the engines (tests, A/B runs): a VCRC
 * engine's name (slice16, pclmul, avx2, avx512, gfni, pmull) and optionally the ICRC's (lib,
 * the name of the library's too, gfni, avx2 or armcrc; by default gfni with the gfni VCRC
 * engine, else avx2 or armcrc where the CPU has it, else lib).
 * One this CPU or build cannot run is refused on stderr, and the best one is used.
 */
static void crc_forced(const struct ibr_crc16_ops **vo, icrc_fn *ic)
{
	const char *env = getenv("IBR_CRC_IMPL"), *comma;
	char v[32];
	size_t n;

	if (!env || !*env)
		return;
	comma = strchr(env, ',');
	n = comma ? (size_t)(comma - env) : strlen(env);
	snprintf(v, sizeof(v), "%.*s", (int)(n < sizeof(v) ? n : sizeof(v) - 1), env);
	for (int i = IBR_VCRC_IMPL_SLICE16; i < IBR_VCRC_IMPL_COUNT; i++)
		if (ibr_crc16_engines[i] && !strcmp(ibr_crc16_engines[i]->name, v)) {
			if (!ibr_crc16_usable((enum ibr_vcrc_impl)i))
				break;
			*vo = ibr_crc16_engines[i];
			*ic = *vo == &ibr_crc16_gfni_ops ? icrc_gfni : icrc_plain();
			v[0] = '\0';
			break;
		}
	if (v[0])
		fprintf(stderr, "IBR_CRC_IMPL: VCRC engine \"%s\" not run here: %s\n", v,
			(*vo)->name);
	if (!comma)
		return;
	for (unsigned i = 0; i < ICRC_NENGINES; i++) {
		icrc_fn f = icrc_engine((enum ibr_icrc_impl)i);

		/* "lib" names the library's engine too, whichever library it is */
		if (f && (!strcmp(comma + 1, icrc_engines[i].name) ||
			  (i == IBR_ICRC_IMPL_LIB && !strcmp(comma + 1, "lib")))) {
			*ic = f;
			return;
		}
	}
	fprintf(stderr, "IBR_CRC_IMPL: ICRC engine \"%s\" not run here\n", comma + 1);
}

static void crc_init(void)
{
	const struct ibr_crc16_ops *vo;
	icrc_fn ic;

	/* the engines' tables, each file's own: none of them reaches back up here for them */
	ibr_crc16_init();
	ibr_crc32_gfni_init();
	ibr_crc32_avx2_init();
	icrc_init();
#ifdef CRC_ISAL_ZEROUPPER
	__builtin_cpu_init();
	crc_avx = __builtin_cpu_supports("avx");
#endif
	vo = vcrc_best();
	ic = icrc_best();
	crc_forced(&vo, &ic);
	atomic_store_explicit(&icrc_cur, ic, memory_order_relaxed);
	atomic_store_explicit(&vcrc_ops, vo, memory_order_release);
}

static inline const struct ibr_crc16_ops *vcrc_get(void)
{
	const struct ibr_crc16_ops *o = atomic_load_explicit(&vcrc_ops, memory_order_acquire);

	if (__builtin_expect(o == NULL, 0)) {
		pthread_once(&crc_once, crc_init);
		o = atomic_load_explicit(&vcrc_ops, memory_order_acquire);
	}
	return o;
}

static void crc_ready(void)
{
	vcrc_get();
}

static icrc_fn icrc_get(void)
{
	crc_ready(); /* its acquire load orders ours after crc_init()'s stores */
	return atomic_load_explicit(&icrc_cur, memory_order_acquire);
}

int ibr_icrc_impl_set(enum ibr_icrc_impl impl)
{
	icrc_fn f;

	crc_ready();
	if (impl == IBR_ICRC_IMPL_AUTO)
		f = icrc_best();
	else if ((unsigned)impl >= ICRC_NENGINES || !icrc_engines[impl].fn)
		return -EINVAL;
	else if (!(f = icrc_engine(impl)))
		return -ENOTSUP;
	atomic_store_explicit(&icrc_cur, f, memory_order_release);
	return 0;
}

enum ibr_icrc_impl ibr_icrc_impl_get(void)
{
	icrc_fn f = icrc_get();

	for (unsigned i = 0; i < ICRC_NENGINES; i++)
		if (icrc_engines[i].fn == f)
			return (enum ibr_icrc_impl)i;
	return IBR_ICRC_IMPL_LIB;
}

const char *ibr_icrc_impl_name(enum ibr_icrc_impl impl)
{
	if (impl == IBR_ICRC_IMPL_AUTO)
		return "auto";
	if ((unsigned)impl < ICRC_NENGINES && icrc_engines[impl].name)
		return icrc_engines[impl].name;
	return "unknown";
}

int ibr_vcrc_impl_set(enum ibr_vcrc_impl impl)
{
	const struct ibr_crc16_ops *o;

	crc_ready();
	if (impl == IBR_VCRC_IMPL_AUTO)
		o = vcrc_best();
	else if ((unsigned int)impl < IBR_VCRC_IMPL_COUNT && ibr_crc16_engines[impl])
		o = ibr_crc16_engines[impl];
	else
		return -EINVAL;
	if (!ibr_crc16_usable(o->impl))
		return -ENOTSUP;
	atomic_store_explicit(&vcrc_ops, o, memory_order_release);
	return 0;
}

enum ibr_vcrc_impl ibr_vcrc_impl_get(void)
{
	return vcrc_get()->impl;
}

const char *ibr_vcrc_impl_name(enum ibr_vcrc_impl impl)
{
	if (impl == IBR_VCRC_IMPL_AUTO)
		return "auto";
	if ((unsigned int)impl < IBR_VCRC_IMPL_COUNT && ibr_crc16_engines[impl])
		return ibr_crc16_engines[impl]->name;
	return "unknown";
}

uint16_t ibr_vcrc(const void *pkt, size_t len)
{
	return (uint16_t)(vcrc_get()->crc(0xffff, pkt, len) ^ 0xffff);
}

int ibr_vcrc_verify(const void *pkt, size_t len)
{
	const uint8_t *p = pkt;

	if (len < IBR_VCRC_LEN)
		return -EINVAL;
	len -= IBR_VCRC_LEN;
	return ibr_vcrc(p, len) == (uint16_t)(p[len] | p[len + 1] << 8) ? 0 : -EBADMSG;
}

uint64_t ibr_vcrc_verify_n(const uint8_t *const pkt[], const uint32_t len[], unsigned n)
{
	const struct ibr_crc16_ops *o = vcrc_get();
	uint64_t bad = 0;

	if (o->verify_n)
		return o->verify_n(pkt, len, n);
	for (unsigned i = 0; i < n && i < 64; i++)
		if (ibr_vcrc_verify(pkt[i], len[i]))
			bad |= 1ull << i;
	return bad;
}

void ibr_vcrc_write(void *pkt, size_t len)
{
	uint8_t *p = pkt;
	uint16_t crc = ibr_vcrc(p, len);

	p[len] = (uint8_t)crc;
	p[len + 1] = (uint8_t)(crc >> 8);
}

/*
 * CRC linearity: with L the CRC without init and xorout, crc(A ^ D) = crc(A) ^ L(D) for
 * messages of one length.  D is the 16-byte delta followed by len - 16 zero bytes, so
 * L(D) = L(delta) * x^(8 (len - 16)) mod P: 9 or 16 table loads, one load of x^(8n) from a
 * table, one carry-less multiply and its reduction (two loads).
 */
uint16_t ibr_vcrc_delta(const uint8_t delta[IBR_VCRC_HDR_LEN], size_t len)
{
	static const uint8_t zero[IBR_VCRC_HDR_LEN];

	return vcrc_get()->update(0, zero, delta, len);
}

uint16_t ibr_vcrc_update(uint16_t vcrc, const uint8_t old_hdr[IBR_VCRC_HDR_LEN],
			 const uint8_t new_hdr[IBR_VCRC_HDR_LEN], size_t len)
{
	/* measured ~7 ns per update with PCLMULQDQ, ~17 ns without (bench_crc vcrc_update) */
	return vcrc_get()->update(vcrc, old_hdr, new_hdr, len);
}

void ibr_vcrc_update_n(const struct ibr_vcrc_job *job, unsigned n)
{
	const struct ibr_crc16_ops *o = vcrc_get();

	if (o->update_n) {
		o->update_n(job, n);
		return;
	}
	for (unsigned i = 0; i < n; i++)
		*job[i].vcrc = o->update(*job[i].vcrc, job[i].old_hdr, job[i].new_hdr, job[i].len);
}

int ibr_vcrc_rewrite(void *pkt, size_t wire_len, const uint8_t old_hdr[IBR_VCRC_HDR_LEN])
{
	uint8_t *p = pkt, cur[IBR_VCRC_HDR_LEN] = { 0 };
	size_t len;
	uint16_t crc;

	if (wire_len < IBR_VCRC_LEN)
		return -EINVAL;
	len = wire_len - IBR_VCRC_LEN;
	/* never read past the packet: only min(len, 16) header bytes count */
	memcpy(cur, p, len < IBR_VCRC_HDR_LEN ? len : IBR_VCRC_HDR_LEN);
	crc = (uint16_t)(p[len] | p[len + 1] << 8);
	crc = ibr_vcrc_update(crc, old_hdr, cur, len);
	p[len] = (uint8_t)crc;
	p[len + 1] = (uint8_t)(crc >> 8);
	return 0;
}
