/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_mcast_check.c - what the plugin refuses of a daemon's MCAST record
 * before it asks OpenSM anything (lib/ibr_plug.h, IBR_PLUG_MCAST), and the
 * names of every reason a record is refused, here or inside OpenSM
 * (posm_mcast.c).  No OpenSM call: the unit tests run it as it is.
 *
 * The checks are the ones OpenSM's SA makes of a MCMemberRecord Set or
 * Delete before it looks at its database (IBA 15.2.5.17; OpenSM 3.3.23
 * opensm/osm_sa_mcmember_record.c), and the plugin's own: it joins only
 * the router's port, only as a FullMember, only for ports it serves.
 */
#include "plugins/posm.h"

#include <stddef.h>

#define CHECK_MTU_MAX  5  /* IBA MTU codes 1 (256) .. 5 (4096) */
#define CHECK_RATE_MIN 2  /* IBA rate codes 2 (2.5 Gb/s) .. */
#define CHECK_RATE_MAX 22 /* .. 22 (600 Gb/s), OpenSM's IB_MAX_RATE */

static const char *const check_why_name[POSM_MC_NREASONS] = {
	[POSM_MC_OK] = "accepted",
	[POSM_MC_NOT_MCAST] = "not a multicast GID (the first byte is not 0xFF)",
	[POSM_MC_JOIN_STATE] = "join state other than FullMember (1), SendOnlyNonMember (4) or "
			       "leave (0)",
	[POSM_MC_PKEY] = "invalid P_Key (its low 15 bits are 0, C10-116)",
	[POSM_MC_SL] = "SL above 15",
	[POSM_MC_MTU] = "not an MTU code (1-5)",
	[POSM_MC_RATE] = "not a rate code (2-22)",
	[POSM_MC_GUID] = "port GUID 0",
	[POSM_MC_NOT_SERVED] = "not a router port this plugin serves (option ports=)",
	[POSM_MC_NOT_MASTER] = "OpenSM is not the master SM or is in its first sweep",
	[POSM_MC_NO_PORT] = "a port OpenSM does not know",
	[POSM_MC_NOT_ROUTER] = "not a router port (a Router node's, or a CA port in routers= "
			       "or the daemon's prefix routes)",
	[POSM_MC_CREATE] = "OpenSM could not create the group (see its log)",
	[POSM_MC_NO_GROUP] = "no such group, and only a FullMember creates one (o15-0.1.9)",
	[POSM_MC_MISMATCH] = "Q_Key, P_Key, TClass, SL or FlowLabel differ from the group's",
	[POSM_MC_MTU_RATE] = "MTU or rate differ from the group's",
	[POSM_MC_PORT_CAPS] = "the port's MTU or rate is below the group's",
	[POSM_MC_PARTITION] = "the port is not in the group's partition",
	[POSM_MC_ADD] = "OpenSM could not add the port (out of memory)",
};

const char *posm_mcast_why_name(enum posm_mcast_why why)
{
	if ((unsigned)why >= POSM_MC_NREASONS || !check_why_name[why])
		return "unknown reason";
	return check_why_name[why];
}

enum posm_mcast_why posm_mcast_check(const struct ibr_plug_mcast *r, const uint64_t *serve,
				     unsigned nserve)
{
	bool served = nserve == 0;

	/* o15-0.1.5 / IBA 4.1.1: a multicast GID starts with 0xFF */
	if (r->mgid[0] != 0xFF)
		return POSM_MC_NOT_MCAST;
	/*
	 * The router port is a FullMember (ibrouterd's bridging policy, a feed
	 * it takes), a SendOnlyNonMember (a feed it only sends into), or leaves.
	 */
	if (r->join_state != 0 && r->join_state != 1 && r->join_state != 4)
		return POSM_MC_JOIN_STATE;
	/* a leave names the group and the port, nothing else */
	if (r->join_state) {
		/* C10-116; OpenSM's join refuses the same (ib_pkey_is_invalid) */
		if ((r->pkey & 0x7FFF) == 0)
			return POSM_MC_PKEY;
		if (r->sl > 15)
			return POSM_MC_SL;
		/* 0: the SA chooses; otherwise "exactly" this code, which must be one */
		if (r->mtu > CHECK_MTU_MAX)
			return POSM_MC_MTU;
		if (r->rate && (r->rate < CHECK_RATE_MIN || r->rate > CHECK_RATE_MAX))
			return POSM_MC_RATE;
	}
	if (!r->guid)
		return POSM_MC_GUID;
	for (unsigned i = 0; i < nserve && !served; i++)
		served = serve[i] == r->guid;
	return served ? POSM_MC_OK : POSM_MC_NOT_SERVED;
}
