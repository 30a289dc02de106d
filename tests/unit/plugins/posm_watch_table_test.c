/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for plugins/posm_watch_table.c: what the membership watch
 * remembers of each group between two passes, and what a pass finds: new,
 * changed, gone, the same; the first pass only learns; the bound; groups
 * out of MGID order.
 */
#include "plugins/posm.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ff15::1:<n>, n spread over the last four bytes */
static const uint8_t *mgid(uint32_t n)
{
	static uint8_t g[16];

	memset(g, 0, sizeof(g));
	g[0] = 0xFF;
	g[1] = 0x15;
	g[12] = (uint8_t)(n >> 24);
	g[13] = (uint8_t)(n >> 16);
	g[14] = (uint8_t)(n >> 8);
	g[15] = (uint8_t)n;
	return g;
}

static uint32_t mgid_n(const uint8_t g[16])
{
	return (uint32_t)g[12] << 24 | (uint32_t)g[13] << 16 | (uint32_t)g[14] << 8 | g[15];
}

/* The groups gone in a pass, by number. */
static uint32_t gone_v[1 << 16];
static unsigned gone_n;

static void gone(void *ctx, const uint8_t g[16])
{
	(void)ctx;
	if (gone_n < sizeof(gone_v) / sizeof(gone_v[0]))
		gone_v[gone_n] = mgid_n(g);
	gone_n++;
}

static unsigned end_pass(struct posm_watch_table *t)
{
	gone_n = 0;
	return posm_watch_table_end(t, gone, NULL);
}

/*
 * One pass, as a script: "N:D" words, group N with digest D, in the order
 * given; "#C" first: the count the pass begins with (else the words').
 * The result, one word a group: "N=" the same, "N*" changed, "N+" new,
 * "N!" the pass called off; then "-N" each group gone; "off" when the pass
 * did not begin.
 */
static const char *run(struct posm_watch_table *t, const char *script)
{
	static const char sym[] = { '=', '+', '*', '!' };
	static char out[512];
	char buf[512], *w[64];
	size_t n = 0, len = 0, count;

	snprintf(buf, sizeof(buf), "%s", script);
	for (char *x = strtok(buf, " "); x && n < 64; x = strtok(NULL, " "))
		w[n++] = x;
	count = n && w[0][0] == '#' ? strtoul(w[0] + 1, NULL, 10) : n;
	out[0] = '\0';
	if (!posm_watch_table_begin(t, count))
		return "off";
	for (size_t i = n && w[0][0] == '#' ? 1 : 0; i < n; i++) {
		char *colon;
		uint32_t g = (uint32_t)strtoul(w[i], &colon, 10);
		enum posm_watch_diff d = posm_watch_table_see(t, mgid(g),
							      strtoull(colon + 1, NULL, 10));

		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s%u%c", len ? " " : "", g,
					sym[d]);
	}
	end_pass(t);
	for (unsigned k = 0; k < gone_n; k++)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "%s-%u", len ? " " : "",
					gone_v[k]);
	return out;
}

/* The table's state: "n=<groups held>", then "seeded" and "off" when they are. */
static const char *state(const struct posm_watch_table *t)
{
	static char out[64];

	snprintf(out, sizeof(out), "n=%u%s%s", t->nlast, t->seeded ? " seeded" : "",
		 t->off ? " off" : "");
	return out;
}

/*
 * One step of a scenario: a pass's script and what it finds (run()), or,
 * with script NULL, a reset; then the table's state when `state` is given.
 */
struct step {
	const char *script, *want, *state;
};

static void steps(uint32_t max, const struct step *v, size_t n)
{
	struct posm_watch_table t;

	posm_watch_table_init(&t, max);
	for (size_t i = 0; i < n; i++) {
		if (v[i].script) {
			CU_ASSERT_STRING_EQUAL(run(&t, v[i].script), v[i].want);
		} else {
			posm_watch_table_reset(&t);
		}
		if (v[i].state) {
			CU_ASSERT_STRING_EQUAL(state(&t), v[i].state);
		}
	}
	posm_watch_table_free(&t);
}

#define STEPS(max, v) steps(max, v, sizeof(v) / sizeof(v[0]))

static void test_diff(void)
{
	static const struct step v[] = {
		/* the first pass only learns: the daemons got these in their snapshot */
		{ "1:10 2:20 3:30", "1= 2= 3=", "n=3 seeded" },
		/* unchanged, changed, new, gone */
		{ "1:10 2:21 4:40", "1= 2* 4+ -3", NULL },
		/* the change is remembered: the same digest again is no change */
		{ "1:10 2:21 4:40", "1= 2= 4=", NULL },
		/* the first and the last gone, one in between new */
		{ "2:21 3:30", "2= 3+ -1 -4", NULL },
		/* every group gone; then one back: emptied by passes, not reset, it is told */
		{ "", "-2 -3", "n=0 seeded" },
		{ "2:21", "2+", NULL },
	};

	STEPS(16, v);
}

static void test_reset_seeds_again(void)
{
	static const struct step v[] = {
		{ "1:1", "1=", NULL },
		{ NULL, NULL, "n=0" },
		/* group 1 with another digest, group 2 new: a seed tells neither */
		{ "1:2 2:2", "1= 2=", NULL },
		{ "1:2 2:3", "1= 2*", NULL },
	};

	STEPS(16, v);
}

/* A pass called off: past the bound (max 4 here), or MGIDs out of order. */
static void test_off(void)
{
	static const struct step v[] = {
		{ "1:1 2:2", "1= 2=", NULL },
		/* more groups in OpenSM's table than the bound: off, the table forgotten */
		{ "#5", "off", "n=0 off" },
		/* the count said 4 but a fifth shows (the caller's count was wrong): off, the rest too */
		{ "#4 1:1 2:2 3:3 4:4 5:5 6:6", "1= 2= 3= 4= 5! 6!", "n=0 off" },
		/* at the bound: it fits, and it is a seed */
		{ "1:1 2:2 3:3 4:4", "1= 2= 3= 4=", "n=4 seeded" },
		{ "1:1 2:2 3:3 4:5", "1= 2= 3= 4*", NULL },
		/* not ascending (another OpenSM's order?): the merge would lie, so the pass is off */
		{ "2:2 1:1", "2= 1!", "n=0 off" },
		/* the same MGID twice is out of order too; then a seed, in order */
		{ "1:1 1:1", "1= 1!", NULL },
		{ "1:1 2:2", "1= 2=", NULL },
		{ "2:2", "2= -1", "n=1 seeded" },
	};

	STEPS(4, v);
}

static void test_digest(void)
{
	uint64_t a = posm_watch_digest(posm_watch_digest(0, 1), 2);
	uint64_t b = posm_watch_digest(posm_watch_digest(0, 2), 1);

	CU_ASSERT_NOT_EQUAL(a, b); /* the order counts: the member maps are ordered */
	CU_ASSERT_NOT_EQUAL(posm_watch_digest(0, 0), 0);
	CU_ASSERT_NOT_EQUAL(posm_watch_digest(posm_watch_digest(0, 0), 0), posm_watch_digest(0, 0));
	CU_ASSERT_EQUAL(a, posm_watch_digest(posm_watch_digest(0, 1), 2));
}

/*
 * Many groups coming and going at random, against a plain array of what
 * is there: every pass's news, changes and losses exactly (the merges
 * never lose or invent a group, whatever runs of groups come and go).
 */
#define RAND_N 4096

static void test_random_against_model(void)
{
	static uint64_t have[RAND_N]; /* 0: absent, else the digest */
	static uint64_t was[RAND_N];
	unsigned long long seed = 0x1234567;
	struct posm_watch_table t;

	posm_watch_table_init(&t, RAND_N);
	memset(was, 0, sizeof(was));
	for (int pass = 0; pass < 60; pass++) {
		unsigned n = 0, wrong = 0, exp_gone = 0;

		for (uint32_t i = 0; i < RAND_N; i++) {
			unsigned long long r = ibr_test_rand(&seed) % 100;

			have[i] = was[i];
			if (r < 10)
				have[i] = 0;
			else if (r < 25 || (pass == 0 && r < 60)) /* few digests: repeats */
				have[i] = (ibr_test_rand(&seed) | 1) & 0xFF;
			n += have[i] != 0;
			exp_gone += pass && was[i] && !have[i];
		}
		CU_ASSERT_TRUE_FATAL(posm_watch_table_begin(&t, n));
		for (uint32_t i = 0; i < RAND_N; i++) {
			enum posm_watch_diff d, want = POSM_WATCH_SAME;

			if (!have[i])
				continue;
			if (pass && !was[i])
				want = POSM_WATCH_NEW;
			else if (pass && was[i] != have[i])
				want = POSM_WATCH_CHANGED;
			d = posm_watch_table_see(&t, mgid(i * 7 + 3), have[i]);
			wrong += d != want;
		}
		CU_ASSERT_EQUAL(wrong, 0);
		CU_ASSERT_EQUAL(end_pass(&t), exp_gone);
		CU_ASSERT_EQUAL(t.nlast, n);
		for (unsigned k = 0; k < gone_n; k++) {
			uint32_t i = (gone_v[k] - 3) / 7;

			CU_ASSERT_FATAL(i < RAND_N);
			CU_ASSERT(was[i] && !have[i]);
		}
		memcpy(was, have, sizeof(was));
	}
	posm_watch_table_free(&t);
}

static CU_TestInfo tests[] = {
	{ "new, changed, gone, unchanged", test_diff },
	{ "a reset seeds again", test_reset_seeds_again },
	{ "a pass called off: the bound, MGIDs out of order", test_off },
	{ "digest", test_digest },
	{ "random groups against a model", test_random_against_model },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("posm_watch_table", tests);
}
