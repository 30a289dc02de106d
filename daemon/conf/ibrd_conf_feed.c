/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_feed.c - feeds (ibrouterd.conf(5), mcast's feed key): the mcast
 * sections of one feed name one IP group, each under its port's MGID for it
 * (lib/ibr_mgid.h: rdma_cm's, IPoIB's, the IP group as it is); their ids.
 */
#include "daemon/conf/ibrd_conf_int.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_mgid.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

unsigned ibrd_conf_feed_id(const struct ibrd_conf *c, const char *feed)
{
	if (!feed[0])
		return 0;
	for (unsigned i = 0; i < c->nmcasts; i++)
		if (!strcmp(c->mcasts[i].feed, feed))
			return i + 1;
	return 0;
}

/*
 * The group an MGID names, and how much of it: 16 bytes, or the last 10 of
 * an IPv6 group's IB form, which loses the first 6 (-ENODATA).
 */
static size_t feed_group(const uint8_t mgid[16], union ibr_gid *g)
{
	union ibr_gid m;
	int rc;

	memcpy(m.raw, mgid, 16);
	rc = ibr_mgid_decode(&m, NULL, g, NULL, NULL);
	return rc == 0 ? 16 : rc == -ENODATA ? 10 : 0;
}

/* Whether two MGIDs name one group: as much of it as both know. */
static bool feed_same_group(const uint8_t a[16], const uint8_t b[16])
{
	union ibr_gid ga, gb;
	size_t na = feed_group(a, &ga), nb = feed_group(b, &gb), n = na < nb ? na : nb;

	return n && !memcmp(ga.raw + 16 - n, gb.raw + 16 - n, n);
}

/*
 * Each feed: one group (every MGID names the first one's), at most one MGID
 * a port, two ports at least (one carries nothing).
 */
void ibrd_conf_check_feeds(struct ibrd_conf_ctx *ctx)
{
	const struct ibrd_conf *c = ctx->c;

	for (unsigned i = 0; i < c->nmcasts; i++) {
		const struct ibrd_conf_mcast *g = &c->mcasts[i];
		const struct ibrd_conf_meta *m = &ctx->list[IBRD_LIST_MCAST][i];
		unsigned first = ibrd_conf_feed_id(c, g->feed) - 1, ports = 0;
		char a[IBR_GID_STRLEN];
		union ibr_gid x;

		if (!g->feed[0] || m->failed || m->bad)
			continue;
		/* the RIB and the FIB carry a feed's id (its first section + 1) in 16 bits */
		if (first >= UINT16_MAX) {
			ibrd_conf_err(ctx, m->key_line[IBRD_MK_FEED], m->label, "feed",
				      "\"%s\" begins at mcast section %u: a feed must begin within "
				      "the first %u (put feeds' sections before the other groups')",
				      g->feed, first + 1, UINT16_MAX);
			continue;
		}
		memcpy(x.raw, c->mcasts[first].mgid, 16);
		if (!feed_same_group(g->mgid, c->mcasts[first].mgid)) {
			ibrd_conf_err(ctx, m->key_line[IBRD_MK_FEED], m->label, "feed",
				      "\"%s\": this MGID names another group than %s, the feed's",
				      g->feed, ibr_gid_ntop(&x, a, sizeof(a)));
			continue;
		}
		for (unsigned j = 0; j < c->nmcasts; j++) {
			if (j == i || strcmp(c->mcasts[j].feed, g->feed))
				continue;
			ports++;
			if (j < i && !strcmp(c->mcasts[j].port, g->port)) {
				ibrd_conf_err(ctx, m->key_line[IBRD_MK_FEED], m->label, "feed",
					      "\"%s\" has an MGID on port \"%s\" already", g->feed,
					      g->port);
				break;
			}
		}
		if (!ports)
			ibrd_conf_err(
				ctx, m->key_line[IBRD_MK_FEED], m->label, "feed",
				"\"%s\" is on one port only: it carries a group between ports",
				g->feed);
	}
}
