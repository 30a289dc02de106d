/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_feed_test.c - feeds in ibrouterd.conf(5) (mcast's feed and
 * hop-limit keys, daemon/conf/ibrd_conf_feed.c): one group a feed, a name a
 * port, two ports at least, hop-limit only in a feed, and a feed's id
 * within the RIB's 16 bits.
 */
#include "tests/unit/daemon/conf/ibrd_conf_fix.h"
#include "tests/unit/ibr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Feeds: one IP group under each port's MGID for it -- rdma_cm's on an IB
 * port (link-local: allowed in a feed only), the IPv4 group on RoCE; their
 * ids; another group, a port twice and a single port are refused.
 */
static void test_feeds(void)
{
	static const char ports[] = TWO_PORTS;
	char text[2048], *errs;
	struct ibrd_conf *c;

	snprintf(text, sizeof(text),
		 "%smcast \"ff12:4001:ffff::f01:101\" { port = ib mlid = 0xc001 feed = md }\n"
		 "mcast \"::ffff:239.1.1.1\" { port = r mlid = 0xc002 feed = md senders = false\n"
		 "\thop-limit = 8 }\n"
		 "mcast \"ff15::1\" { port = ib mlid = 0xc003 }\n",
		 ports);
	c = load_ok(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(c->mcasts[0].feed, "md");
	/* a feed's copies leave with HopLmt 1 unless the section says more */
	CU_ASSERT_EQUAL(c->mcasts[0].hop_limit, 1);
	CU_ASSERT_EQUAL(c->mcasts[1].hop_limit, 8);
	CU_ASSERT_EQUAL(ibrd_conf_feed_id(c, "md"), 1);
	CU_ASSERT_EQUAL(ibrd_conf_feed_id(c, c->mcasts[1].feed), 1);
	CU_ASSERT_EQUAL(ibrd_conf_feed_id(c, c->mcasts[2].feed), 0);
	CU_ASSERT(round_trip(c, "feeds"));
	ibrd_conf_free(c);
	snprintf(text, sizeof(text),
		 "%smcast \"ff12:4001:ffff::f01:101\" { port = ib mlid = 0xc001 }\n"
		 "mcast \"ff12:4001:ffff::f01:102\" { port = ib mlid = 0xc002 feed = md }\n"
		 "mcast \"::ffff:239.1.1.1\" { port = r mlid = 0xc002 feed = md }\n"
		 "mcast \"ff12:401b:ffff::f01:102\" { port = ib mlid = 0xc003 feed = md }\n"
		 "mcast \"ff15::7\" { port = r mlid = 0xc004 feed = solo }\n"
		 "mcast \"ff15::8\" { port = r mlid = 0xc005 hop-limit = 2 }\n",
		 ports);
	c = load_text(text, &errs);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_STRING_EQUAL(
		errs,
		"t.conf:4: mcast \"ff12:4001:ffff::f01:101\": interface- and link-local groups "
		"are never routed (but in a feed)\n"
		"t.conf:6: mcast \"::ffff:239.1.1.1\": feed: \"md\": this MGID names another "
		"group than ff12:4001:ffff::f01:102, the feed's\n"
		"t.conf:7: mcast \"ff12:401b:ffff::f01:102\": feed: \"md\" has an MGID on port "
		"\"ib\" already\n"
		"t.conf:8: mcast \"ff15::7\": feed: \"solo\" is on one port only: it carries a "
		"group between ports\n"
		"t.conf:9: mcast \"ff15::8\": hop-limit: only with a feed\n");
	free(errs);
}

/* `n` plain groups on port ib, then the feed "md" on ib and r: the config's text (to free). */
static char *feed_after(unsigned n)
{
	static const char head[] = TWO_PORTS;
	static const char feed[] =
		"mcast \"ff12:4001:ffff::f01:101\" { port = ib mlid = 0xc001 feed = md }\n"
		"mcast \"::ffff:239.1.1.1\" { port = r mlid = 0xc002 feed = md }\n";
	size_t cap = sizeof(head) + sizeof(feed) + (size_t)n * 48, at;
	char *text = malloc(cap);

	if (!text)
		return NULL;
	at = (size_t)snprintf(text, cap, "%s", head);
	for (unsigned i = 0; i < n; i++)
		at += (size_t)snprintf(text + at, cap - at,
				       "mcast \"ff15::%x:%x\" { port = ib mlid = 0xc001 }\n",
				       i >> 8, i & 0xFF);
	snprintf(text + at, cap - at, "%s", feed);
	return text;
}

/*
 * A feed's id is its first section's number, which the RIB and the FIB
 * carry in 16 bits: a feed beginning after 65535 mcast sections is refused
 * (it was cut to another feed's id, silently).
 */
static void test_feed_id_range(void)
{
	char *text = feed_after(65535), *errs = NULL;
	struct ibrd_conf *c;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	c = load_text(text, &errs);
	CU_ASSERT_PTR_NULL(c);
	CU_ASSERT_PTR_NOT_NULL(errs && strstr(errs, "mcast \"ff12:4001:ffff::f01:101\": feed: "
						    "\"md\" begins at mcast section 65536: a feed "
						    "must begin within the first 65535"));
	free(errs);
	ibrd_conf_free(c);
	free(text);
	/* one section fewer before it: its id is 65535, the last that fits */
	text = feed_after(65534);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	c = load_text(text, &errs);
	CU_ASSERT_PTR_NOT_NULL(c);
	if (c)
		CU_ASSERT_EQUAL(ibrd_conf_feed_id(c, "md"), 65535);
	free(errs);
	ibrd_conf_free(c);
	free(text);
}

static CU_TestInfo tests[] = {
	{ "feeds: one group, a name a port", test_feeds },
	{ "a feed's id fits the RIB's 16 bits", test_feed_id_range },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run("ibrd_conf_feed", tests);
}
