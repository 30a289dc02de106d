/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for lib/crc/ (the dispatchers ibr_crc.c, ibr_crc16.c and the engines ibr_crc16_*.c,
 * ibr_crc32_*.c): every VCRC and ICRC engine against a bit-by-bit reference at every length
 * (the ICRC's over a packet masked field by field), long messages, the masking itself, and
 * isa-l against zlib; the incremental VCRC update in ibr_crc_update_test.c.
 */
#include "lib/crc/ibr_crc.h"
#include "tests/unit/ibr_test.h"
#include "tests/unit/lib/crc/ibr_crc_fix.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#ifdef HAVE_ISAL
#include <isa-l/crc.h>
#endif

/* A header field as IBA tables give it: bit offset from the first LRH bit, width in bits. */
struct field {
	unsigned int bit, width;
};

/* LNH 3: all of the LRH, GRH TClass, FlowLabel, HopLmt, BTH resv8a (BTH at byte 48). */
static const struct field global_masks[] = {
	{ 0, 64 }, { 64 + 4, 8 }, { 64 + 12, 20 }, { 64 + 56, 8 }, { 48 * 8 + 32, 8 },
};
/* otherwise: LRH VL, BTH resv8a (BTH at byte 8). */
static const struct field local_masks[] = { { 0, 4 }, { 8 * 8 + 32, 8 } };

static void field_ones(uint8_t *p, size_t len, const struct field *f)
{
	for (unsigned int k = f->bit; k < f->bit + f->width; k++)
		if (k / 8 < len)
			p[k / 8] |= (uint8_t)(0x80 >> (k % 8)); /* network order: MSB first */
}

static uint32_t ref_icrc(const uint8_t *pkt, size_t len)
{
	uint8_t *m = malloc(len + 1);
	bool global = len >= 2 && (pkt[1] & 3) == 3;
	const struct field *f = global ? global_masks : local_masks;
	size_t nf = global ? 5 : 2;
	uint32_t crc;

	CU_ASSERT_FATAL(m != NULL);
	memcpy(m, pkt, len);
	for (size_t i = 0; i < nf; i++)
		field_ones(m, len, &f[i]);
	crc = ref_crc32(m, len);
	free(m);
	return crc;
}

static void test_check_values(void)
{
	static const uint8_t check[] = "123456789";
	enum ibr_vcrc_impl im[NVCRC];
	int n = impls(im);

	CU_ASSERT_EQUAL(ref_crc16(check, 9), 0x0A3D);
	CU_ASSERT_EQUAL(ref_crc32(check, 9), 0xCBF43926);
	for (int i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(ibr_vcrc_impl_set(im[i]), 0);
		CU_ASSERT_EQUAL(ibr_vcrc_impl_get(), im[i]);
		CU_ASSERT_EQUAL(ibr_vcrc(check, 9), 0x0A3D);
		CU_ASSERT_EQUAL(ibr_vcrc(check, 0), 0x0000); /* init ^ xorout */
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
}

static void test_impl_select(void)
{
	enum ibr_vcrc_impl im[NVCRC], best;
	int n = impls(im);

	best = im[n - 1]; /* listed worst to best */
	CU_ASSERT_EQUAL(im[0], IBR_VCRC_IMPL_SLICE16);
	CU_ASSERT_EQUAL(ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO), 0);
	CU_ASSERT_EQUAL(ibr_vcrc_impl_get(), best);
	CU_ASSERT_EQUAL(ibr_vcrc_impl_set((enum ibr_vcrc_impl)42), -EINVAL);
	CU_ASSERT_EQUAL(ibr_vcrc_impl_set((enum ibr_vcrc_impl) - 1), -EINVAL);
	CU_ASSERT_EQUAL(ibr_vcrc_impl_get(), best);
	CU_ASSERT_STRING_EQUAL(ibr_vcrc_impl_name(IBR_VCRC_IMPL_SLICE16), "slice16");
	CU_ASSERT_STRING_EQUAL(ibr_vcrc_impl_name(IBR_VCRC_IMPL_PCLMUL), "pclmul");
	CU_ASSERT_STRING_EQUAL(ibr_vcrc_impl_name(IBR_VCRC_IMPL_VPCLMUL), "avx512");
	CU_ASSERT_STRING_EQUAL(ibr_vcrc_impl_name(IBR_VCRC_IMPL_GFNI), "gfni");
}

/*
 * The engine table (IBR_VCRC_ENGINES): every implementation has an engine with a name of its
 * own, forcing one this CPU lacks is refused, and nothing past the table is an engine.
 */
static void test_impl_table(void)
{
	for (int i = IBR_VCRC_IMPL_SLICE16; i < IBR_VCRC_IMPL_COUNT; i++) {
		const char *name = ibr_vcrc_impl_name((enum ibr_vcrc_impl)i);
		int rc = ibr_vcrc_impl_set((enum ibr_vcrc_impl)i);

		CU_ASSERT_STRING_NOT_EQUAL(name, "unknown");
		CU_ASSERT_STRING_NOT_EQUAL(name, "auto");
		for (int j = IBR_VCRC_IMPL_SLICE16; j < i; j++)
			CU_ASSERT_STRING_NOT_EQUAL(name, ibr_vcrc_impl_name((enum ibr_vcrc_impl)j));
		CU_ASSERT(rc == 0 || rc == -ENOTSUP);
		if (rc == 0)
			CU_ASSERT_EQUAL(ibr_vcrc_impl_get(), i);
	}
	CU_ASSERT_EQUAL(ibr_vcrc_impl_set(IBR_VCRC_IMPL_COUNT), -EINVAL);
	CU_ASSERT_STRING_EQUAL(ibr_vcrc_impl_name(IBR_VCRC_IMPL_COUNT), "unknown");
	CU_ASSERT_STRING_EQUAL(ibr_vcrc_impl_name(IBR_VCRC_IMPL_AUTO), "auto");
	CU_ASSERT_EQUAL(ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO), 0);
}

static void test_icrc_impl_select(void)
{
	enum ibr_icrc_impl im[NICRC], best;
	int n = icrc_impls(im);

	CU_ASSERT_FATAL(n >= 1);
	best = im[n - 1]; /* listed worst to best */
	CU_ASSERT_EQUAL(im[0], IBR_ICRC_IMPL_LIB);
	/* the gfni engine runs wherever the gfni VCRC engine does; armcrc on Arm (with pmull) */
	CU_ASSERT_EQUAL(best == IBR_ICRC_IMPL_GFNI, ibr_vcrc_impl_get() == IBR_VCRC_IMPL_GFNI);
#ifdef __aarch64__
	CU_ASSERT_EQUAL(best, IBR_ICRC_IMPL_ARMCRC); /* every ARMv8.1 core, and qemu's */
#endif
	CU_ASSERT_EQUAL(ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO), 0);
	CU_ASSERT_EQUAL(ibr_icrc_impl_get(), best);
	CU_ASSERT_EQUAL(ibr_icrc_impl_set(IBR_ICRC_IMPL_LIB), 0);
	CU_ASSERT_EQUAL(ibr_icrc_impl_get(), IBR_ICRC_IMPL_LIB);
	CU_ASSERT_EQUAL(ibr_icrc_impl_set((enum ibr_icrc_impl)42), -EINVAL);
	CU_ASSERT_EQUAL(ibr_icrc_impl_get(), IBR_ICRC_IMPL_LIB);
	CU_ASSERT_EQUAL(ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO), 0);
	CU_ASSERT_EQUAL(ibr_icrc_impl_get(), best);
	CU_ASSERT_STRING_EQUAL(ibr_icrc_impl_name(IBR_ICRC_IMPL_AUTO), "auto");
	CU_ASSERT_STRING_EQUAL(ibr_icrc_impl_name(IBR_ICRC_IMPL_GFNI), "gfni");
	CU_ASSERT_STRING_EQUAL(ibr_icrc_impl_name(IBR_ICRC_IMPL_ARMCRC), "armcrc");
	CU_ASSERT_STRING_EQUAL(ibr_icrc_impl_name(IBR_ICRC_IMPL_AVX2), "avx2");
#ifdef HAVE_ISAL
	CU_ASSERT_STRING_EQUAL(ibr_icrc_impl_name(IBR_ICRC_IMPL_LIB), "isa-l");
#else
	CU_ASSERT_STRING_EQUAL(ibr_icrc_impl_name(IBR_ICRC_IMPL_LIB), "zlib");
#endif
}

/* Every length 0..MAXLEN at a random alignment, every engine, against the reference. */
static void test_vcrc_every_length(void)
{
	static uint8_t buf[MAXLEN + SLACK];
	unsigned long long seed = 1;
	enum ibr_vcrc_impl im[NVCRC];
	int n = impls(im), bad = 0;

	for (size_t len = 0; len <= MAXLEN; len++) {
		size_t off = ibr_test_rand(&seed) % SLACK;
		uint16_t want;

		fill_rand(buf + off, len, &seed);
		want = ref_crc16(buf + off, len);
		for (int i = 0; i < n; i++) {
			uint16_t got;

			ibr_vcrc_impl_set(im[i]);
			got = ibr_vcrc(buf + off, len);
			if (got != want && bad++ < 5)
				fprintf(stderr, "%s len %zu off %zu: %#x, want %#x\n",
					ibr_vcrc_impl_name(im[i]), len, off, got, want);
		}
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	CU_ASSERT_EQUAL(bad, 0);
}

/* Every length 0..MAXLEN, every LNH in turn, random alignment, every engine. */
static void test_icrc_reference(void)
{
	static uint8_t buf[MAXLEN + SLACK];
	unsigned long long seed = 2;
	enum ibr_icrc_impl im[NICRC];
	int n = icrc_impls(im), bad = 0;

	for (size_t len = 0; len <= MAXLEN; len++) {
		unsigned int lnh = (unsigned int)(len % 4);
		size_t off = ibr_test_rand(&seed) % SLACK;
		uint32_t want;

		make_pkt(buf + off, len, lnh, &seed);
		want = ref_icrc(buf + off, len);
		for (int i = 0; i < n; i++) {
			uint32_t got;

			ibr_icrc_impl_set(im[i]);
			got = ibr_icrc(buf + off, len);
			if (got != want && bad++ < 5)
				fprintf(stderr, "icrc %s lnh %u len %zu: %#x, want %#x\n",
					ibr_icrc_impl_name(im[i]), lnh, len, got, want);
		}
	}
	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
	CU_ASSERT_EQUAL(bad, 0);
}

/*
 * Beyond any packet: the engines' multiples of x^(8n) come from tables up to 64 KiB and are
 * computed past them.
 */
static void test_long_messages(void)
{
	static const size_t lens[] = { 8191, 8192, 65535, 65536, 65536 + 129, 200003 };
	uint8_t *buf = malloc(200003 + SLACK);
	unsigned long long seed = 10;
	enum ibr_vcrc_impl vim[NVCRC];
	enum ibr_icrc_impl iim[NICRC];
	int nv = impls(vim), ni = icrc_impls(iim), bad = 0;

	CU_ASSERT_FATAL(buf != NULL);
	for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
		size_t off = ibr_test_rand(&seed) % SLACK, len = lens[k];
		uint16_t v;
		uint32_t c;

		make_pkt(buf + off, len, (unsigned int)k % 4, &seed);
		v = ref_crc16(buf + off, len);
		c = ref_icrc(buf + off, len);
		for (int i = 0; i < nv; i++) {
			ibr_vcrc_impl_set(vim[i]);
			bad += ibr_vcrc(buf + off, len) != v;
		}
		for (int i = 0; i < ni; i++) {
			ibr_icrc_impl_set(iim[i]);
			bad += ibr_icrc(buf + off, len) != c;
		}
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
	free(buf);
	CU_ASSERT_EQUAL(bad, 0);
}

/* Is bit k (from the first LRH bit) inside one of the masks? */
static bool masked(const struct field *f, size_t nf, unsigned int k)
{
	for (size_t i = 0; i < nf; i++)
		if (k >= f[i].bit && k < f[i].bit + f[i].width)
			return true;
	return false;
}

/*
 * Flips every bit of a packet in turn: the ICRC must stay put exactly for masked bits.  The
 * two LNH bits are left alone: they choose the masking.
 */
static int flip_every_bit(uint8_t *p, size_t len, const struct field *f, size_t nf)
{
	uint32_t base = ibr_icrc(p, len);
	int bad = 0;

	for (unsigned int k = 0; k < len * 8; k++) {
		uint8_t bit = (uint8_t)(0x80 >> (k % 8));
		bool same;

		if (k == 14 || k == 15)
			continue;
		p[k / 8] ^= bit;
		same = ibr_icrc(p, len) == base;
		p[k / 8] ^= bit;
		if (same != masked(f, nf, k) && bad++ < 5)
			fprintf(stderr, "icrc: bit %u (byte %u) %s\n", k, k / 8,
				same ? "not covered" : "covered");
	}
	return bad;
}

static void test_icrc_masking(void)
{
	static const size_t lens[] = { 60, 64, 256, 300, 1024 + 60 };
	uint8_t pkt[2048];
	unsigned long long seed = 3;
	enum ibr_icrc_impl im[NICRC];
	int n = icrc_impls(im);

	for (int k = 0; k < n; k++) {
		ibr_icrc_impl_set(im[k]);
		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			make_pkt(pkt, lens[i], 3, &seed);
			CU_ASSERT_EQUAL(flip_every_bit(pkt, lens[i], global_masks, 5), 0);
			make_pkt(pkt, lens[i], 2, &seed);
			CU_ASSERT_EQUAL(flip_every_bit(pkt, lens[i], local_masks, 2), 0);
		}
	}
	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
}

/* Whole masked fields rewritten at once, as a router does: the ICRC does not move. */
static void test_icrc_router_rewrite(void)
{
	uint8_t pkt[512];
	unsigned long long seed = 4;
	enum ibr_icrc_impl im[NICRC];
	int n = icrc_impls(im);

	for (int i = 0; i < 1000 * n; i++) {
		size_t len = 60 + 4 * (ibr_test_rand(&seed) % 100);
		uint32_t before;

		ibr_icrc_impl_set(im[i % n]);
		make_pkt(pkt, len, 3, &seed);
		before = ibr_icrc(pkt, len);
		fill_rand(pkt, 8, &seed); /* new LRH, still global */
		pkt[1] |= 3;
		pkt[8] = (uint8_t)((pkt[8] & 0xf0) | (ibr_test_rand(&seed) & 0x0f)); /* TClass */
		fill_rand(pkt + 9, 3, &seed);		 /* TClass, FlowLabel */
		pkt[15] = (uint8_t)ibr_test_rand(&seed); /* HopLmt */
		pkt[52] = (uint8_t)ibr_test_rand(&seed); /* resv8a */
		CU_ASSERT_EQUAL(ibr_icrc(pkt, len), before);
	}
	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
}

static void test_icrc_verify_write(void)
{
	uint8_t pkt[300];
	unsigned long long seed = 5;

	make_pkt(pkt, 256, 3, &seed);
	ibr_icrc_write(pkt, 256);
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 260), 0);
	CU_ASSERT_EQUAL(pkt[256] | pkt[257] << 8 | pkt[258] << 16 | (uint32_t)pkt[259] << 24,
			ref_icrc(pkt, 256)); /* least-significant byte first */
	pkt[15] ^= 0x55;		     /* HopLmt: masked */
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 260), 0);
	pkt[100] ^= 1; /* payload */
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 260), -EBADMSG);
	pkt[100] ^= 1;
	pkt[259] ^= 0x80; /* the ICRC itself */
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 260), -EBADMSG);

	make_pkt(pkt, 20, 2, &seed); /* LRH + BTH, no payload: the shortest */
	ibr_icrc_write(pkt, 20);
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 24), 0);
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 23), -EINVAL);
	pkt[1] |= 3; /* now claims a GRH it cannot hold */
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 24), -EINVAL);
	pkt[1] &= (uint8_t)~3u; /* raw */
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 24), -EINVAL);
	CU_ASSERT_EQUAL(ibr_icrc_verify(pkt, 0), -EINVAL);
	CU_ASSERT_EQUAL(ibr_icrc(pkt, 0), 0);
}

static void test_vcrc_verify_write(void)
{
	uint8_t pkt[300];
	unsigned long long seed = 6;

	make_pkt(pkt, 260, 3, &seed);
	ibr_vcrc_write(pkt, 260);
	CU_ASSERT_EQUAL(pkt[260] | pkt[261] << 8, ref_crc16(pkt, 260));
	CU_ASSERT_EQUAL(ibr_vcrc_verify(pkt, 262), 0);
	pkt[15] ^= 1; /* the VCRC covers everything */
	CU_ASSERT_EQUAL(ibr_vcrc_verify(pkt, 262), -EBADMSG);
	CU_ASSERT_EQUAL(ibr_vcrc_verify(pkt, 1), -EINVAL);
	ibr_vcrc_write(pkt, 0);
	CU_ASSERT_EQUAL(ibr_vcrc_verify(pkt, 2), 0);
}

/*
 * The burst check on every engine: 64 packets of random lengths 0..600 (0 and 1 are too
 * short, 2 and 3 are the shortest the pattern path refuses), about a third with one bit
 * flipped somewhere in them; its mask must equal ibr_vcrc_verify() packet by packet.
 */
static void test_vcrc_verify_n(void)
{
	static uint8_t buf[64][608];
	const uint8_t *pkt[64];
	uint32_t len[64];
	unsigned long long seed = 9;
	enum ibr_vcrc_impl im[NVCRC];
	int n = impls(im), bad = 0;

	for (int round = 0; round < 200; round++) {
		uint64_t want = 0;

		for (unsigned i = 0; i < 64; i++) {
			len[i] = round == 0 && i < 4 ? i : (uint32_t)(ibr_test_rand(&seed) % 601);
			fill_rand(buf[i], len[i], &seed);
			if (len[i] >= 2)
				ibr_vcrc_write(buf[i], len[i] - 2);
			if (len[i] && ibr_test_rand(&seed) % 3 == 0)
				buf[i][ibr_test_rand(&seed) % len[i]] ^=
					(uint8_t)(1u << ibr_test_rand(&seed) % 8);
			pkt[i] = buf[i];
			if (ibr_vcrc_verify(buf[i], len[i]))
				want |= 1ull << i;
		}
		for (int e = 0; e < n; e++) {
			unsigned cut = (unsigned)(ibr_test_rand(&seed) % 65);

			ibr_vcrc_impl_set(im[e]);
			if (ibr_vcrc_verify_n(pkt, len, 64) != want && bad++ < 5)
				fprintf(stderr, "%s round %d: %#llx, want %#llx\n",
					ibr_vcrc_impl_name(im[e]), round,
					(unsigned long long)ibr_vcrc_verify_n(pkt, len, 64),
					(unsigned long long)want);
			/* a shorter burst looks at its own packets only */
			if (ibr_vcrc_verify_n(pkt, len, cut) !=
			    (cut == 64 ? want : want & ((1ull << cut) - 1)))
				bad++;
		}
	}
	ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
	CU_ASSERT_EQUAL(bad, 0);
}

/* isa-l and zlib must agree, seeds and chaining included: the ICRC may use either. */
static void test_isal_vs_zlib(void)
{
#ifdef HAVE_ISAL
	static uint8_t buf[5000];
	unsigned long long seed = 9;
	int bad = 0;

	for (size_t len = 0; len < sizeof(buf); len += 1 + ibr_test_rand(&seed) % 13) {
		size_t cut = len ? ibr_test_rand(&seed) % len : 0;
		uint32_t z, i;

		fill_rand(buf, len, &seed);
		z = (uint32_t)crc32(0, buf, (uInt)len);
		i = crc32_gzip_refl(0, buf, len);
		bad += z != i;
		i = crc32_gzip_refl(crc32_gzip_refl(0, buf, cut), buf + cut, len - cut);
		bad += z != i;
		/* any seed: the ICRC passes its masking in the seed */
		z = (uint32_t)ibr_test_rand(&seed);
		bad += crc32_gzip_refl(z, buf, len) != (uint32_t)crc32(z, buf, (uInt)len);
		z = (uint32_t)crc32(0, buf, (uInt)len);
		bad += ref_crc32(buf, len) != z;
	}
	CU_ASSERT_EQUAL(bad, 0);
#else
	fprintf(stderr, "(built without isa-l: zlib only)\n");
	CU_ASSERT_EQUAL(ibr_icrc((const uint8_t *)"123456789", 0), (uint32_t)crc32(0, NULL, 0));
#endif
}

/*
 * IBR_CRC_IMPL in the environment of a process forces its engines (lib/crc/ibr_crc.c): this test
 * runs itself with it set and reads what the child chose.
 */
static const char *self;

static int child_engines(const char *env, char *out, size_t n)
{
	/* IBR_TEST_WRAPPER: what runs a program of this build (qemu-aarch64-static, scripts/run) */
	const char *wrap = getenv("IBR_TEST_WRAPPER");
	char cmd[512];
	FILE *f;
	int ok;

	snprintf(cmd, sizeof(cmd), "IBR_CRC_IMPL='%s' %s '%s' --engines 2>/dev/null", env,
		 wrap ? wrap : "", self);
	if (!(f = popen(cmd, "r")))
		return -1;
	ok = fgets(out, (int)n, f) != NULL;
	pclose(f);
	out[strcspn(out, "\n")] = '\0';
	return ok ? 0 : -1;
}

static void test_env_forced(void)
{
	char got[64], want[64];

	/* a VCRC engine alone: the ICRC's best but gfni (avx2, armcrc, else the library) */
	bool avx2 = ibr_icrc_impl_set(IBR_ICRC_IMPL_AVX2) == 0;
	bool arm = ibr_icrc_impl_set(IBR_ICRC_IMPL_ARMCRC) == 0;

	ibr_icrc_impl_set(IBR_ICRC_IMPL_AUTO);
	CU_ASSERT_EQUAL_FATAL(child_engines("slice16", got, sizeof(got)), 0);
	snprintf(want, sizeof(want), "slice16 %s",
		 ibr_icrc_impl_name(avx2  ? IBR_ICRC_IMPL_AVX2
				    : arm ? IBR_ICRC_IMPL_ARMCRC
					  : IBR_ICRC_IMPL_LIB));
	CU_ASSERT_STRING_EQUAL(got, want);
	if (avx2) {
		CU_ASSERT_EQUAL_FATAL(child_engines("slice16,avx2", got, sizeof(got)), 0);
		CU_ASSERT_STRING_EQUAL(got, "slice16 avx2");
	}
	if (arm) {
		CU_ASSERT_EQUAL_FATAL(child_engines("slice16,armcrc", got, sizeof(got)), 0);
		CU_ASSERT_STRING_EQUAL(got, "slice16 armcrc");
	}
	/* an unknown name: the best engines, as without the variable */
	CU_ASSERT_EQUAL_FATAL(child_engines("no-such-engine", got, sizeof(got)), 0);
	snprintf(want, sizeof(want), "%s %s", ibr_vcrc_impl_name(ibr_vcrc_impl_get()),
		 ibr_icrc_impl_name(ibr_icrc_impl_get()));
	CU_ASSERT_STRING_EQUAL(got, want);
	for (int i = IBR_VCRC_IMPL_PCLMUL; i < IBR_VCRC_IMPL_COUNT; i++) {
		const char *name = ibr_vcrc_impl_name((enum ibr_vcrc_impl)i);
		bool runs = ibr_vcrc_impl_set((enum ibr_vcrc_impl)i) == 0;
		char env[64];

		ibr_vcrc_impl_set(IBR_VCRC_IMPL_AUTO);
		snprintf(env, sizeof(env), "%s,lib", name);
		CU_ASSERT_EQUAL_FATAL(child_engines(env, got, sizeof(got)), 0);
		if (runs) {
			snprintf(want, sizeof(want), "%s %s", name,
				 ibr_icrc_impl_name(IBR_ICRC_IMPL_LIB));
			CU_ASSERT_STRING_EQUAL(got, want);
		} else {
			CU_ASSERT(strncmp(got, name, strlen(name)) != 0); /* refused */
			skipped_no_cpu++;
		}
	}
}

static CU_TestInfo tests[] = {
	{ "check values", test_check_values },
	{ "implementation selection", test_impl_select },
	{ "the engine table", test_impl_table },
	{ "icrc: implementation selection", test_icrc_impl_select },
	{ "vcrc: every length, every engine", test_vcrc_every_length },
	{ "icrc: every length, every LNH, every engine", test_icrc_reference },
	{ "long messages, every engine", test_long_messages },
	{ "icrc: masked bits exactly", test_icrc_masking },
	{ "icrc: router rewrite keeps it", test_icrc_router_rewrite },
	{ "icrc: verify and write", test_icrc_verify_write },
	{ "vcrc: verify and write", test_vcrc_verify_write },
	{ "vcrc: burst verify, every engine", test_vcrc_verify_n },
	{ "isa-l vs zlib", test_isal_vs_zlib },
	{ "IBR_CRC_IMPL forces the engines", test_env_forced },
	CU_TEST_INFO_NULL,
};

int main(int argc, char **argv)
{
	int rc;

	if (argc == 2 && !strcmp(argv[1], "--engines")) { /* test_env_forced's child */
		printf("%s %s\n", ibr_vcrc_impl_name(ibr_vcrc_impl_get()),
		       ibr_icrc_impl_name(ibr_icrc_impl_get()));
		return 0;
	}
	self = argv[0];
	rc = ibr_test_run("ibr_crc", tests);
	if (skipped_no_cpu)
		printf("%u skipped (no CPU)\n", skipped_no_cpu);
	return rc;
}
