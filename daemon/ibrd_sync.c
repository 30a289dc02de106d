/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_sync.c - the tail of each turn of the event loop: what the turn's
 * events changed reaches the workers and the OpenSM plugins, once, in a
 * fixed order.  The adapters (MAD and SA clients, the SMA, the HCA events,
 * the plugins, the commands, a reload) only change the RIB and say what is
 * dirty (ibrd_rib_changed, ibrd_port_changed, ibrd_groups_changed in
 * ibrd.h); so a burst of traps answered in one turn compiles the FIB once,
 * as BIRD's core prunes and announces in an event of its own.
 *
 *  1. the plugins' feeders (a reload may have moved ports; a plugin came
 *     or went): entries of the ports whose feeder changed, anew;
 *  2. the connected route of each port whose prefix or link changed;
 *  3. the multicast bridging policy, when groups changed: the router's
 *     joins and leaves, and the groups it joined marked as fed;
 *  3a. the peer routes, when the other routers' announcements changed or
 *     a hold-down ended (ibrd_peers.c);
 *  4. the FIB published, when the RIB changed: the only place that
 *     publishes; the one published before with what changed in its delta
 *     (router_rib_update), or, once the changes stopped, its delta merged
 *     into a base of its own (ibrd_state_merge);
 *  5. the SMA's view: what the ports forward with, and the vendor tables
 *     compared with what they were (RouterInfo's table-change mask);
 *  6. the plugins' prefix routes, when the published tables moved, and the
 *     announcements;
 *  7. the replies of the turn's requests go out: a command's "done" comes
 *     once what it changed is published.
 * Step 4 costs what the turn changed (router_rib_update); steps 5 and 6
 * read the whole RIB, so under a burst of changes they run at their pace
 * (ibrd_pace in ibrd.h), the loop woken for them by ibrd_sync_deadline().
 */
#include "daemon/ibrd.h"
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/learn/ibrd_learn.h"
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"

#include <string.h>

int ibrd_sync_run(struct ibrd *d)
{
	int rc = 0;

	ibrd_plugin_feeders(d);
	for (uint32_t ports = d->dirty_ports; ports; ports &= ports - 1)
		ibrd_state_connected(d, (uint32_t)__builtin_ctz(ports));
	d->dirty_ports = 0;
	if (d->dirty & IBRD_DIRTY_MCAST) {
		d->dirty &= ~IBRD_DIRTY_MCAST;
		ibrd_mcast_policy(d);
		/* after: a feed's join that the policy forgot (its group gone) is made again */
		ibrd_mcast_feeds(d);
		ibrd_mcast_mark_joined(d);
	}
	ibrd_peers_sync(d);
	if (d->dirty & IBRD_DIRTY_FIB) {
		d->dirty &= ~IBRD_DIRTY_FIB;
		if ((rc = ibrd_state_publish(d)))
			log_warnx("router: cannot publish the new tables: %s", strerror(-rc));
		else
			d->fib_publishes++;
	} else {
		ibrd_state_merge(d);
	}
	ibrd_sma_sync(d);
	ibrd_plugin_routes_sync(d);
	ibrd_announce_sync(d);
	ibrd_client_flush_all(d);
	return rc;
}

uint64_t ibrd_sync_deadline(const struct ibrd *d)
{
	uint64_t t = ibrd_sma_deadline(d), x;

	if ((x = ibrd_plugin_deadline(d)) < t)
		t = x;
	if ((x = ibrd_announce_deadline(d)) < t)
		t = x;
	if (d->fib_delta) { /* the merge once the changes stopped (ibrd_state_merge) */
		x = d->fib_changed_ns + IBRD_MERGE_IDLE_NS;
		if (d->merge_pace.next_ns > x)
			x = d->merge_pace.next_ns;
		if (x < t)
			t = x;
	}
	return t;
}
