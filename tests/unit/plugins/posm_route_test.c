/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for plugins/posm_route.c: the router's entries in OpenSM's prefix
 * routes list, next to an administrator's, across OpenSM's re-reads of
 * prefix_routes_file (which free every item and append the file's lines).
 */
#include "plugins/posm.h"
#include "tests/unit/ibr_test.h"

#include <complib/cl_types.h>
#include <complib/cl_byteswap.h>
#include <complib/cl_qlist.h>
#include <iba/ib_types.h>
#include <opensm/osm_prefix_route.h>

#include <stdlib.h>
#include <string.h>

static const int owner_tag = 1;
static const void *const owner = &owner_tag;

/* As opensm/osm_subnet.c append_prefix_route() does it. */
static void admin_line(cl_qlist_t *l, uint64_t prefix, uint64_t guid)
{
	osm_prefix_route_t *r = malloc(sizeof(*r));

	r->prefix = cl_hton64(prefix);
	r->guid = cl_hton64(guid);
	cl_qlist_insert_tail(l, &r->list_item);
}

/* As parse_prefix_routes_file() starts: every item freed, ours included. */
static void reread(cl_qlist_t *l)
{
	while (!cl_is_qlist_empty(l))
		free(cl_qlist_remove_head(l));
}

/* The list as "prefix/guid/o|a" words ("*" for prefix 0). */
static const char *dump(cl_qlist_t *l)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (cl_list_item_t *i = cl_qlist_head(l); i != cl_qlist_end(l); i = cl_qlist_next(i)) {
		const osm_prefix_route_t *r = (const osm_prefix_route_t *)i;
		uint64_t pf = cl_ntoh64(r->prefix);
		char p[24];

		if (pf)
			snprintf(p, sizeof(p), "%llx", (unsigned long long)pf);
		else
			strcpy(p, "*");
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s/%llx/%c", n ? " " : "", p,
				      (unsigned long long)cl_ntoh64(r->guid),
				      posm_route_is_ours(i, owner) ? 'o' : 'a');
	}
	return buf;
}

static bool present_not_b2(void *ctx, uint64_t guid)
{
	(void)ctx;
	return guid != 0xb2;
}

static void test_best_metric(void)
{
	cl_qlist_t l;
	struct posm_route want[] = {
		{ .prefix = 0xfec0000000000002, .guid = 0xa1, .metric = 5 },
		{ .prefix = 0xfec0000000000002, .guid = 0xb1, .metric = 1 },
		{ .prefix = 0xfec0000000000003, .guid = 0xb2, .metric = 1 },
		{ .prefix = 0xfec0000000000003, .guid = 0xa1, .metric = 1 },
		{ .guid = 0xa1, .metric = 9, .any = true },
	};
	struct posm_route_stats st = { 0 };

	cl_qlist_init(&l);
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 5, NULL, NULL, owner, &st), 1);
	/* lowest metric wins; equal metrics: lowest GUID; "*" last */
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000002/b1/o fec0000000000003/a1/o */a1/o");
	CU_ASSERT_EQUAL(st.installed, 3);
	CU_ASSERT_EQUAL(st.applies, 1);
	/* again: nothing to change */
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 5, NULL, NULL, owner, &st), 0);
	CU_ASSERT_EQUAL(st.applies, 1);
	/* a router port OpenSM does not know is skipped for the next best */
	want[1].guid = 0xb2;
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 5, present_not_b2, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000002/a1/o fec0000000000003/a1/o */a1/o");
	/* only unknown ports for a prefix: the prefix is left out */
	CU_ASSERT_EQUAL(posm_route_apply(&l, want + 1, 3, present_not_b2, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000003/a1/o");
	CU_ASSERT_EQUAL(st.absent, 1);
	/* withdrawn */
	CU_ASSERT_EQUAL(posm_route_apply(&l, NULL, 0, NULL, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l), "");
	CU_ASSERT_EQUAL(st.installed, 0);
}

static void test_admin_lines(void)
{
	cl_qlist_t l;
	struct posm_route want[] = {
		{ .prefix = 0xfec0000000000002, .guid = 0xa1 },
		{ .prefix = 0xfec0000000000009, .guid = 0xa1 },
		{ .guid = 0xa1, .any = true },
	};
	struct posm_route_stats st = { 0 };

	cl_qlist_init(&l);
	admin_line(&l, 0xfec0000000000009, 0x77);
	admin_line(&l, 0, 0x78);
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 3, NULL, NULL, owner, &st), 1);
	/* theirs stay as they are; their prefix and their "*" win; ours go before them */
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000002/a1/o fec0000000000009/77/a */78/a");
	CU_ASSERT_EQUAL(st.installed, 1);
	CU_ASSERT_EQUAL(st.shadowed, 2);
	/* OpenSM re-reads the file at a heavy sweep: ours are freed with the rest */
	reread(&l);
	admin_line(&l, 0xfec0000000000005, 0x79);
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000005/79/a");
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 3, NULL, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l),
			       "fec0000000000002/a1/o fec0000000000009/a1/o fec0000000000005/79/a "
			       "*/a1/o");
	/* withdrawing ours never touches theirs */
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 1, NULL, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000002/a1/o fec0000000000005/79/a");
	/* an administrator's line appended after ours (a re-read without ours) is seen */
	reread(&l);
	admin_line(&l, 0xfec0000000000002, 0x70);
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 1, NULL, NULL, owner, &st), 0);
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000002/70/a");
	CU_ASSERT_EQUAL(st.shadowed, 1);
	posm_route_remove(&l, owner);
	reread(&l);
}

static void test_tell_ours(void)
{
	cl_qlist_t l;
	struct posm_route want = { .prefix = 0xfec0000000000002, .guid = 0xa1 };
	struct posm_route_stats st = { 0 };
	static const int other_tag = 2;

	cl_qlist_init(&l);
	CU_ASSERT_EQUAL(posm_route_apply(&l, &want, 1, NULL, NULL, owner, &st), 1);
	/* another owner's entries are not ours: it sees an administrator's line */
	CU_ASSERT_FALSE(posm_route_is_ours(cl_qlist_head(&l), &other_tag));
	CU_ASSERT_EQUAL(posm_route_apply(&l, &want, 1, NULL, NULL, &other_tag, &st), 0);
	CU_ASSERT_EQUAL(st.shadowed, 1);
	/* OpenSM's 32-byte items never pass for ours, whatever lies past their end */
	for (int i = 0; i < 1000; i++) {
		osm_prefix_route_t *r = calloc(1, sizeof(*r));

		CU_ASSERT_FALSE(posm_route_is_ours(&r->list_item, owner));
		free(r);
	}
	/* unload: ours go, theirs stay */
	admin_line(&l, 0x1234, 0x55);
	posm_route_remove(&l, owner);
	CU_ASSERT_STRING_EQUAL(dump(&l), "1234/55/a");
	reread(&l);
}

static void test_order_is_checked(void)
{
	cl_qlist_t l;
	struct posm_route want[] = {
		{ .prefix = 0xfec0000000000002, .guid = 0xa1 },
		{ .prefix = 0xfec0000000000003, .guid = 0xa1 },
	};
	struct posm_route_stats st = { 0 };
	cl_list_item_t *first;

	cl_qlist_init(&l);
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 2, NULL, NULL, owner, &st), 1);
	/* someone moved an administrator's "*" in front of ours: rewritten */
	first = cl_qlist_remove_head(&l);
	admin_line(&l, 0, 0x99);
	cl_qlist_insert_tail(&l, first);
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000003/a1/o */99/a fec0000000000002/a1/o");
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 2, NULL, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l), "fec0000000000002/a1/o fec0000000000003/a1/o */99/a");
	posm_route_remove(&l, owner);
	reread(&l);
}

/*
 * A daemon that went away: its routes (held) are a fallback only: another
 * connected daemon's for the prefix take over at once, whatever their
 * metrics; where none has the prefix, the held one stays (a restart)
 */
static void test_held_fallback(void)
{
	cl_qlist_t l;
	struct posm_route want[] = {
		{ .prefix = 0xfec0000000000002, .guid = 0xa1, .metric = 0 },
		{ .prefix = 0xfec0000000000002, .guid = 0xb1, .metric = 0 },
		{ .prefix = 0xfec0000000000003, .guid = 0xa1, .metric = 1 },
		{ .prefix = 0xfec0000000000003, .guid = 0xb1, .metric = 7 },
		{ .prefix = 0xfec0000000000004, .guid = 0xa1, .metric = 1 },
	};
	struct posm_route_stats st = { 0 };

	cl_qlist_init(&l);
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 5, NULL, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l),
			       "fec0000000000002/a1/o fec0000000000003/a1/o fec0000000000004/a1/o");
	/* the daemon of port a1 goes */
	want[0].held = want[2].held = want[4].held = true;
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 5, NULL, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l),
			       "fec0000000000002/b1/o fec0000000000003/b1/o fec0000000000004/a1/o");
	/* back */
	want[0].held = want[2].held = want[4].held = false;
	CU_ASSERT_EQUAL(posm_route_apply(&l, want, 5, NULL, NULL, owner, &st), 1);
	CU_ASSERT_STRING_EQUAL(dump(&l),
			       "fec0000000000002/a1/o fec0000000000003/a1/o fec0000000000004/a1/o");
	posm_route_remove(&l, owner);
	reread(&l);
}

static CU_TestInfo tests[] = {
	{ "a held route is a fallback only", test_held_fallback },
	{ "best metric per prefix, known ports only", test_best_metric },
	{ "administrator's lines kept, across re-reads", test_admin_lines },
	{ "our items told from others", test_tell_ours },
	{ "the order of ours is checked", test_order_is_checked },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("posm_route", tests);
}
