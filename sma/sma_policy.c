/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_policy.c - who may Set: the port's master SM (ibrouterd's policy, on
 * top of IBA's M_Key; ibrouterd.conf(5) sma-set-policy and sma-mkey).
 *
 * IBA protects an SMA only by its M_Key (14.2.4): with M_Key 0, the value
 * OpenSM leaves by default, any node may Set anything, and one SubnSet
 * (PortInfo) from a host can renumber a router port or move its prefix
 * (issue 14).  So, with the default policy SMA_SET_MASTER_SM, every Set of
 * every attribute (PortInfo, PKeyTable, GUIDInfo, SLtoVL, VLArbitration:
 * addressing, partitions and the port state alike; no host has reason to
 * Set an SMA, 14.1) is accepted only from the port's master SM:
 *
 *   - the port's M_Key is not 0: IBA's check has passed, the Set carried
 *     it (a key configured with sma-mkey, or one the SM set);
 *   - no master SM yet: accepted, as IBA does; that is how an SM first
 *     configures a port (OpenSM's first Sets come by directed route, with
 *     M_Key 0, before the port has an SM LID).  The first PortInfo Set for
 *     the port that leaves MasterSMLID non-zero binds the port to its
 *     sender (sma_policy_bind);
 *   - then a LID-routed Set is accepted when its LRH SLID is MasterSMLID
 *     (an HCA sends only from its own LIDs), and a directed-route Set when
 *     it came the way the binding Set came: same DrSLID, HopCount,
 *     InitialPath[1..HopCount] and ReturnPath[1..HopCount].  The return
 *     path is written by the switches on the way (14.2.2.2) and leads back
 *     to the sender's port: a host elsewhere cannot send along the SM's.
 *     DrSLID alone proves nothing (no hardware checks it), so a Set with a
 *     LID-routed first part counts only by its path too.
 *
 * A PortInfo Set naming another router port than the arrival one is
 * refused too: each port's SM is in that port's subnet.  SLIDs are not
 * authenticated (an HCA lets a host use only its own LIDs, a sim peer any):
 * the M_Key remains the protection IBA defines; configure one where hosts
 * are not trusted, and where SMs fail over (a standby SM sends from
 * another LID and path).  The binding ends when the SM sets MasterSMLID 0,
 * when the link goes down, and on sma_port_release().
 *
 * A refused Set is handled as a failed M_Key check (14.2.4.1): no reply,
 * a trap 256 request, and counted (SMA_DROP_SET_POLICY and the port's
 * sets_refused), logged rate-limited.  Gets are never refused here.
 * SMA_SET_OPEN keeps IBA's rule alone.
 */
#include "sma/sma_int.h"

#include "lib/ibr_gid.h"

#include <string.h>

/* Where a directed-route SMP came from: DrSLID, HopCount and both paths. */
static void policy_dr_path(const uint8_t *smp, uint16_t *dr_slid, uint8_t *hops,
			   uint8_t path[2 * IBR_SMP_MAX_HOPS])
{
	uint8_t n = ibr_smp_dr_hop_count(smp);

	if (n > IBR_SMP_MAX_HOPS) /* sma_dr_recv() dropped those already */
		n = IBR_SMP_MAX_HOPS;
	*dr_slid = ibr_smp_dr_slid(smp);
	*hops = n;
	memset(path, 0, 2 * IBR_SMP_MAX_HOPS);
	/* entry 0 of each path is unused (14.2.1.2) */
	memcpy(path, smp + IBR_SMP_INITIAL_PATH_OFFS + 1, n);
	memcpy(path + IBR_SMP_MAX_HOPS, smp + IBR_SMP_RETURN_PATH_OFFS + 1, n);
}

static bool policy_from_sm(const struct sma_port *p, const uint8_t *smp, const struct sma_rx *rx)
{
	uint16_t sm_lid = (uint16_t)sma_fget(p->pi, IB_PORT_SMLID_F);
	uint8_t path[2 * IBR_SMP_MAX_HOPS], hops;
	uint16_t dr_slid;

	if (!ibr_smp_is_dr(smp))
		return rx->slid == sm_lid;
	policy_dr_path(smp, &dr_slid, &hops, path);
	return p->sm_dr && dr_slid == p->sm_dr_slid && hops == p->sm_hops &&
	       memcmp(path, p->sm_path, sizeof(path)) == 0;
}

/* A PortInfo Set's target: AttributeModifier 0 is the arrival port (sma_portinfo.c). */
static bool policy_other_port(const struct sma_port *p, const uint8_t *smp)
{
	uint32_t mod = ibr_mad_attr_mod(smp);

	return ibr_mad_attr_id(smp) == IBR_SMP_ATTR_PORT_INFO && mod && mod != p->num;
}

bool sma_policy_set_ok(struct sma *s, struct sma_port *p, const uint8_t *smp,
		       const struct sma_rx *rx)
{
	const struct sma_port_cfg *c = &s->cfg.ports[p->num - 1];

	if (c->set_policy == SMA_SET_OPEN)
		return true;
	if (policy_other_port(p, smp))
		return false;
	if (sma_fget64(p->pi, IB_PORT_MKEY_F) || !p->sm_bound)
		return true;
	return policy_from_sm(p, smp, rx);
}

void sma_policy_refused(struct sma *s, struct sma_port *p, const uint8_t *smp,
			const struct sma_rx *rx)
{
	p->sets_refused++;
	if (ibr_ratelimit_ok(&s->policy_rl, rx->now_ns))
		log_warnx("sma: port %u: Set of attribute 0x%04x refused: not from the port's "
			  "master SM (LID 0x%04x); %s, SLID 0x%04x",
			  p->num, ibr_mad_attr_id(smp), sma_fget(p->pi, IB_PORT_SMLID_F),
			  ibr_smp_is_dr(smp) ? "directed route" : "LID routed", rx->slid);
	sma_mkey_trap(s, p, smp, rx);
}

void sma_policy_bind(struct sma_port *p, const uint8_t *smp)
{
	uint16_t sm_lid = (uint16_t)sma_fget(p->pi, IB_PORT_SMLID_F);

	if (ibr_mad_attr_id(smp) != IBR_SMP_ATTR_PORT_INFO || policy_other_port(p, smp))
		return;
	if (!sm_lid) { /* the SM let go of the port */
		sma_policy_release(p);
		return;
	}
	if (p->sm_bound && sm_lid == p->sm_bound_lid)
		return;
	/* the first SM to name itself, or the master SM naming a new LID */
	p->sm_bound = true;
	p->sm_bound_lid = sm_lid;
	p->sm_dr = ibr_smp_is_dr(smp);
	if (p->sm_dr)
		policy_dr_path(smp, &p->sm_dr_slid, &p->sm_hops, p->sm_path);
}

void sma_policy_release(struct sma_port *p)
{
	p->sm_bound = false;
	p->sm_dr = false;
	p->sm_bound_lid = 0;
	p->sm_dr_slid = 0;
	p->sm_hops = 0;
	memset(p->sm_path, 0, sizeof(p->sm_path));
}
