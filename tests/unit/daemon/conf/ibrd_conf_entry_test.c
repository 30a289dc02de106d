/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_entry_test.c - one route, neighbour or group from words
 * (daemon/conf/ibrd_conf_entry.c): good words give the struct the file's
 * section gives, bad ones the file's message for the same mistake (each
 * bad case is also loaded as a file, and its message must be there, after
 * the file's line and section), for adding and for deleting.
 */
#include "daemon/conf/ibrd_conf_entry.h"
#include "tests/unit/ibr_test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 10

/* The router and ports every file of these tests starts with. */
#define FILE_HEAD                                                               \
	"router { node-guid = 0x0002c90300aabb00 }\n"                           \
	"port \"a\" { data = none lid = 1 subnet-prefix = \"fec0:0:0:1::\" }\n" \
	"port \"b\" { data = none lid = 2 subnet-prefix = \"fec0:0:0:2::\" }\n"

static const char *const sect[] = { "route", "neighbour", "mcast" };

/* words: key, value, key, value, ..., NULL */
static int parse(struct ibrd_conf_entry *e, enum ibrd_conf_entry_kind kind,
		 enum ibrd_conf_entry_use use, const char *title, const char *const *words)
{
	struct ibrd_conf_word w[MAX_WORDS];
	unsigned n = 0;

	for (; words && words[0] && n < MAX_WORDS; words += 2, n++)
		w[n] = (struct ibrd_conf_word){ words[0], words[1] };
	return ibrd_conf_entry_parse(e, kind, use, title, w, n);
}

/* Load FILE_HEAD and `section`: the config (or NULL) and its messages in *errs (to free). */
static struct ibrd_conf *load(const char *section, char **errs)
{
	char text[1024];
	size_t len = 0;
	FILE *m;
	struct ibrd_conf *c;

	snprintf(text, sizeof(text), "%s%s\n", FILE_HEAD, section);
	*errs = NULL;
	m = open_memstream(errs, &len);
	c = ibrd_conf_load_string(text, "t.conf", m);
	fclose(m);
	return c;
}

/* ---- good words: the file's struct ---- */

/* e's struct equals the one of the file's section `section` (one entry of kind). */
static void same_as_file(const struct ibrd_conf_entry *e, enum ibrd_conf_entry_kind kind,
			 const char *section)
{
	char *errs;
	struct ibrd_conf *c = load(section, &errs);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	if (kind == IBRD_ENTRY_ROUTE) {
		CU_ASSERT(c->nroutes == 1 && !memcmp(&e->route, c->routes, sizeof(e->route)));
	} else if (kind == IBRD_ENTRY_NEIGH) {
		CU_ASSERT(c->nneighs == 1 && !memcmp(&e->neigh, c->neighs, sizeof(e->neigh)));
	} else {
		CU_ASSERT(c->nmcasts == 1 && !memcmp(&e->mcast, c->mcasts, sizeof(e->mcast)));
	}
	ibrd_conf_free(c);
	free(errs);
}

static void test_route(void)
{
	struct ibrd_conf_entry e;
	static const char *const one[] = {
		"port", "b", "via", "5", "lmc", "0", "metric", "3", NULL
	};
	static const char *const two[] = { "port", "b", "via", "0x20", "via", "0x22", NULL };
	static const char *const algo[] = { "port", "a", "via", "algorithmic", NULL };
	static const char *const dflt[] = { "port", "a", NULL };

	CU_ASSERT_EQUAL_FATAL(parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_ADD, "fec0:0:0:9::/64", one),
			      0);
	CU_ASSERT_EQUAL(e.route.prefix, 0xfec0000000000009ull);
	CU_ASSERT_EQUAL(e.route.plen, 64);
	CU_ASSERT_STRING_EQUAL(e.route.port, "b");
	CU_ASSERT_EQUAL(e.route.kind, ROUTER_NH_ROUTER);
	CU_ASSERT(e.route.nlid == 1 && e.route.lid[0] == 5);
	CU_ASSERT_EQUAL(e.route.metric, 3);
	CU_ASSERT_PTR_NULL(e.key);
	same_as_file(&e, IBRD_ENTRY_ROUTE,
		     "route \"fec0:0:0:9::/64\" { port = \"b\" via = 5 lmc = 0 metric = 3 }");
	/* a list key in several words: its values in order */
	CU_ASSERT_EQUAL_FATAL(parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_ADD, "fec0:0:0:3::/64", two),
			      0);
	CU_ASSERT(e.route.nlid == 2 && e.route.lid[0] == 0x20 && e.route.lid[1] == 0x22);
	same_as_file(&e, IBRD_ENTRY_ROUTE,
		     "route \"fec0:0:0:3::/64\" { port = \"b\" via = {0x20, 0x22} }");
	CU_ASSERT_EQUAL_FATAL(parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_ADD, "fec0::/16", algo), 0);
	CU_ASSERT(e.route.kind == ROUTER_NH_ALGO && e.route.plen == 16);
	/* via's default, as in the file: direct */
	CU_ASSERT_EQUAL_FATAL(parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_ADD, "::/0", dflt), 0);
	CU_ASSERT(e.route.kind == ROUTER_NH_DIRECT && e.route.plen == 0);
	same_as_file(&e, IBRD_ENTRY_ROUTE, "route \"::/0\" { port = \"a\" }");
	/* deleting: the prefix alone */
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_DEL, "0xfec0000000000007", NULL), 0);
	CU_ASSERT(e.route.prefix == 0xfec0000000000007ull && e.route.plen == 64);
	/* which ports exist is the caller's to know */
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_ADD, "fec0::/16",
			      (const char *const[]){ "port", "nosuch", "via", "direct", NULL }),
			0);
}

static void test_neigh(void)
{
	struct ibrd_conf_entry e;
	static const char *const add[] = { "port", "a", "lid", "0x10", "lmc", "4", NULL };
	static const char *const del[] = { "port", "a", NULL };

	CU_ASSERT_EQUAL_FATAL(
		parse(&e, IBRD_ENTRY_NEIGH, IBRD_ENTRY_ADD, "0x0002c90300001234", add), 0);
	CU_ASSERT_EQUAL(e.neigh.guid, 0x0002c90300001234ull);
	CU_ASSERT_STRING_EQUAL(e.neigh.port, "a");
	CU_ASSERT(e.neigh.lid == 0x10 && e.neigh.lmc == 4);
	same_as_file(&e, IBRD_ENTRY_NEIGH,
		     "neighbour \"0x0002c90300001234\" { port = \"a\" lid = 0x10 lmc = 4 }");
	/* deleting: the port names it too, the LID is not needed */
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_NEIGH, IBRD_ENTRY_DEL, "0x1234", del), 0);
	CU_ASSERT(e.neigh.guid == 0x1234 && !strcmp(e.neigh.port, "a"));
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_NEIGH, IBRD_ENTRY_ADD, "0x1234", del), -EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "lid") && !strcmp(e.why, "missing (required)"));
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_NEIGH, IBRD_ENTRY_DEL, "0x1234", NULL), -EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "port") && !strcmp(e.why, "missing (required)"));
}

static void test_mcast(void)
{
	struct ibrd_conf_entry e;
	static const char *const add[] = { "port", "a", "mlid", "0xc001", NULL };
	static const char *const more[] = { "port",	 "b",	  "mlid", "0xc002", "sl",
					    "3",	 "qkey",  "0xb",  "pkey",   "0x8001",
					    "receivers", "false", NULL };

	CU_ASSERT_EQUAL_FATAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_ADD, "ff15::1:7", add), 0);
	CU_ASSERT(e.mcast.mgid[0] == 0xff && e.mcast.mgid[1] == 0x15 && e.mcast.mgid[15] == 7);
	CU_ASSERT_EQUAL(e.mcast.mlid, 0xc001);
	/* the file's defaults */
	CU_ASSERT(e.mcast.pkey == 0xffff && e.mcast.mtu == 2048);
	CU_ASSERT(e.mcast.receivers && e.mcast.senders);
	same_as_file(&e, IBRD_ENTRY_MCAST, "mcast \"ff15::1:7\" { port = \"a\" mlid = 0xc001 }");
	CU_ASSERT_EQUAL_FATAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_ADD, "ff15::2", more), 0);
	CU_ASSERT(e.mcast.sl == 3 && e.mcast.qkey == 0xb && e.mcast.pkey == 0x8001);
	CU_ASSERT(!e.mcast.receivers && e.mcast.senders);
	same_as_file(&e, IBRD_ENTRY_MCAST,
		     "mcast \"ff15::2\" { port = \"b\" mlid = 0xc002 sl = 3 qkey = 0xb "
		     "pkey = 0x8001 receivers = false }");
	/* deleting: MGID and port, no MLID */
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_DEL, "ff15::1:7",
			      (const char *const[]){ "port", "a", NULL }),
			0);
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_ADD, "ff15::1:7",
			      (const char *const[]){ "port", "a", NULL }),
			-EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "mlid") && !strcmp(e.why, "missing (required)"));
}

/* ---- bad words: the file's message ---- */

struct bad {
	enum ibrd_conf_entry_kind kind;
	const char *title;
	const char *words[2 * MAX_WORDS + 1];
	const char *body; /* the same in the file's section */
	const char *key;  /* NULL: the title */
	const char *why;
};

/* kind, title, the words' body in the file, key (NULL: the title), why; the words */
#define BAD(kind, title, body, key, why, ...)                \
	{                                                    \
		kind, title, { __VA_ARGS__ }, body, key, why \
	}

static const struct bad bads[] = {
	/* routes */
	BAD(IBRD_ENTRY_ROUTE, "fec0::1/64", "port = \"a\" via = 5", NULL,
	    "bits set past the prefix length", "port", "a", "via", "5"),
	BAD(IBRD_ENTRY_ROUTE, "ff00::/8", "port = \"a\"", NULL, "a multicast prefix", "port", "a"),
	BAD(IBRD_ENTRY_ROUTE, "fec0::/96", "port = \"a\"", NULL,
	    "prefix longer than 64 bits (routes use the subnet prefix)", "port", "a"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" via = next", "via",
	    "\"next\" is not direct, algorithmic or a unicast LID", "port", "a", "via", "next"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" via = 0xc000", "via",
	    "\"0xc000\" is not direct, algorithmic or a unicast LID", "port", "a", "via", "0xc000"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" via = 7 lmc = 1", "via",
	    "7 is not aligned to lmc 1 (a multiple of 2)", "port", "a", "via", "7", "lmc", "1"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" via = direct lmc = 1", "lmc",
	    "only with via = <LID of the next router>", "port", "a", "via", "direct", "lmc", "1"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" metric = 4294967296", "metric",
	    "4294967296 is out of range 0..4294967295", "port", "a", "metric", "4294967296"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" metric = -1", "metric",
	    "\"-1\" is not a number", "port", "a", "metric", "-1"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"A\"", "port",
	    "\"A\" has characters other than a-z, 0-9, _ and -", "port", "A"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" via = {4, direct}", "via",
	    "\"direct\" only alone, not among next routers", "port", "a", "via", "4", "via",
	    "direct"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" via = {4, 4}", "via", "LID 4 twice",
	    "port", "a", "via", "4", "via", "4"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "port = \"a\" via = {1, 2, 3, 4, 5, 6, 7, 8, 9}",
	    "via", "9 next routers: at most 8", "port", "a", "via", "1", "via", "2", "via", "3",
	    "via", "4", "via", "5", "via", "6", "via", "7", "via", "8", "via", "9"),
	BAD(IBRD_ENTRY_ROUTE, "fec0:0:0:4::/64", "via = 5", "port", "missing (required)", "via",
	    "5"),
	/* neighbours */
	BAD(IBRD_ENTRY_NEIGH, "g1", "port = \"a\" lid = 4", NULL,
	    "not a port GUID (0x and 1 to 16 hex digits, not zero)", "port", "a", "lid", "4"),
	BAD(IBRD_ENTRY_NEIGH, "0x0", "port = \"a\" lid = 4", NULL,
	    "not a port GUID (0x and 1 to 16 hex digits, not zero)", "port", "a", "lid", "4"),
	BAD(IBRD_ENTRY_NEIGH, "0x14", "port = \"a\" lid = 0", "lid",
	    "0 is not a unicast LID (1..0xbfff)", "port", "a", "lid", "0"),
	BAD(IBRD_ENTRY_NEIGH, "0x14", "port = \"a\" lid = learned", "lid",
	    "\"learned\" is not a LID", "port", "a", "lid", "learned"),
	BAD(IBRD_ENTRY_NEIGH, "0x14", "port = \"a\" lid = 0x11 lmc = 1", "lid",
	    "17 is not aligned to lmc 1 (a multiple of 2)", "port", "a", "lid", "0x11", "lmc", "1"),
	BAD(IBRD_ENTRY_NEIGH, "0x14", "port = \"a\" lid = 4 lmc = 8", "lmc",
	    "8 is out of range 0..7", "port", "a", "lid", "4", "lmc", "8"),
	BAD(IBRD_ENTRY_NEIGH, "0x14", "lid = 4", "port", "missing (required)", "lid", "4"),
	/* groups */
	BAD(IBRD_ENTRY_MCAST, "fec0::1", "port = \"a\" mlid = 0xc001", NULL,
	    "not a multicast GID (ff00::/8, or an IPv4 group ::ffff:224.0.0.0/100)", "port", "a",
	    "mlid", "0xc001"),
	BAD(IBRD_ENTRY_MCAST, "ff12::1", "port = \"a\" mlid = 0xc001", NULL,
	    "interface- and link-local groups are never routed (but in a feed)", "port", "a",
	    "mlid", "0xc001"),
	BAD(IBRD_ENTRY_MCAST, "ff1f::1", "port = \"a\" mlid = 0xc001", NULL,
	    "reserved multicast scope", "port", "a", "mlid", "0xc001"),
	BAD(IBRD_ENTRY_MCAST, "ff15::5", "port = \"a\" mlid = 0xbfff", "mlid",
	    "0xbfff is out of range 0xc000..0xfffe", "port", "a", "mlid", "0xbfff"),
	BAD(IBRD_ENTRY_MCAST, "ff15::5", "port = \"a\" mlid = 0xc001 sl = 16", "sl",
	    "16 is out of range 0..15", "port", "a", "mlid", "0xc001", "sl", "16"),
	BAD(IBRD_ENTRY_MCAST, "ff15::5", "port = \"a\" mlid = 0xc001 pkey = 0x8000", "pkey",
	    "0x8000 is not a valid P_Key (base 0 is reserved)", "port", "a", "mlid", "0xc001",
	    "pkey", "0x8000"),
	BAD(IBRD_ENTRY_MCAST, "ff15::5", "port = \"a\" mlid = 0xc001 qkey = 0x100000000", "qkey",
	    "0x100000000 is out of range 0x0..0xffffffff", "port", "a", "mlid", "0xc001", "qkey",
	    "0x100000000"),
	BAD(IBRD_ENTRY_MCAST, "ff15::5", "port = \"a\" mlid = 0xc001 receivers = all", "receivers",
	    "\"all\" is not a boolean (true or false)", "port", "a", "mlid", "0xc001", "receivers",
	    "all"),
	BAD(IBRD_ENTRY_MCAST, "ff15::5", "port = \"a\"", "mlid", "missing (required)", "port", "a"),
};

static void test_bad(void)
{
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		const struct bad *b = &bads[i];
		struct ibrd_conf_entry e;
		char section[512], want[512], *errs;
		struct ibrd_conf *c;
		bool same;

		CU_ASSERT_EQUAL(parse(&e, b->kind, IBRD_ENTRY_ADD, b->title, b->words), -EINVAL);
		same = (b->key ? e.key && !strcmp(e.key, b->key) : !e.key) &&
		       !strcmp(e.why, b->why);
		if (!same)
			fprintf(stderr, "\n%s \"%s\": got %s: %s\n", sect[b->kind], b->title,
				e.key ? e.key : "(title)", e.why);
		CU_ASSERT(same);
		/* the file says the same, after its line and the section */
		snprintf(section, sizeof(section), "%s \"%s\" { %s }", sect[b->kind], b->title,
			 b->body);
		snprintf(want, sizeof(want), ": %s \"%s\": %s%s%s\n", sect[b->kind], b->title,
			 b->key ? b->key : "", b->key ? ": " : "", b->why);
		c = load(section, &errs);
		CU_ASSERT_PTR_NULL(c);
		if (!strstr(errs, want))
			fprintf(stderr, "\nthe file does not say%s  but:\n%s", want, errs);
		CU_ASSERT_PTR_NOT_NULL(strstr(errs, want));
		ibrd_conf_free(c);
		free(errs);
	}
}

/* A key once but a list key, and only the section's keys. */
static void test_words(void)
{
	struct ibrd_conf_entry e;

	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_NEIGH, IBRD_ENTRY_ADD, "0x14",
			      (const char *const[]){ "port", "a", "lid", "4", "lid", "5", NULL }),
			-EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "lid") && !strcmp(e.why, "given twice"));
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_ROUTE, IBRD_ENTRY_ADD, "fec0::/16",
			      (const char *const[]){ "port", "a", "speed", "fast", NULL }),
			-EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "speed") &&
		  !strcmp(e.why, "no such key in a route section"));
	/* the first problem: the title before the keys, then the keys in their order */
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_ADD, "fec0::1",
			      (const char *const[]){ "port", "a", "sl", "16", NULL }),
			-EINVAL);
	CU_ASSERT(!e.key &&
		  !strcmp(e.why,
			  "not a multicast GID (ff00::/8, or an IPv4 group ::ffff:224.0.0.0/100)"));
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_ADD, "ff15::1",
			      (const char *const[]){ "sl", "16", "mlid", "1", NULL }),
			-EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "sl"));
	/* deleting checks the words it is given all the same */
	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_DEL, "ff15::1",
			      (const char *const[]){ "port", "a", "mlid", "1", NULL }),
			-EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "mlid") &&
		  !strcmp(e.why, "1 is out of range 0xc000..0xfffe"));
}

/*
 * A feed is sections of the file together: `mcast add ... feed NAME` is
 * refused (the word would otherwise be dropped without a word), and
 * rdma_cm's link-local MGID stays refused from the CLI.
 */
static void test_feed_refused(void)
{
	static const char *const w[] = { "port", "a", "mlid", "0xc001", "feed", "md", NULL };
	static const char *const plain[] = { "port", "a", "mlid", "0xc001", NULL };
	struct ibrd_conf_entry e;

	CU_ASSERT_EQUAL(parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_ADD, "::ffff:239.1.1.1", w),
			-EINVAL);
	CU_ASSERT(e.key && !strcmp(e.key, "feed"));
	CU_ASSERT_STRING_EQUAL(e.why, "feeds are given in the configuration file");
	CU_ASSERT_EQUAL(
		parse(&e, IBRD_ENTRY_MCAST, IBRD_ENTRY_ADD, "ff12:4001:ffff::f01:101", plain),
		-EINVAL);
	CU_ASSERT_STRING_EQUAL(e.why,
			       "interface- and link-local groups are never routed (but in a feed)");
}

static CU_TestInfo tests[] = {
	{ "a feed from the CLI is refused", test_feed_refused },
	{ "a route: the file's struct, for add and del", test_route },
	{ "a neighbour: the file's struct; del needs its port", test_neigh },
	{ "a group: the file's struct and defaults; del needs its port", test_mcast },
	{ "bad words: the file's message for the same mistake", test_bad },
	{ "keys once (lists in several words), the first problem", test_words },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_conf_entry", tests);
}
