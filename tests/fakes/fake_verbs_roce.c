/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fake_verbs_roce.c - the fake provider's RoCE v2 mode (fake_verbs.h): the
 * GID table, which AHs and groups a RoCE port takes, which unicast packets
 * IP delivers to it, and the IP header a receive leaves in front of the
 * payload in place of the GRH (IBA annex A17.4.5.1).  The wire stays the
 * IB sim wire: packets are IB packets there, LRH to VCRC.
 */
#include "tests/fakes/fake_verbs_priv.h"

#include <errno.h>
#include <string.h>

static const uint8_t fv_v4_mapped[12] = { [10] = 0xFF, 0xFF };

bool fv_gid_entry(const struct fv_dev *d, uint32_t index, struct ibv_gid_entry *e)
{
	if (index >= (d->cfg.roce ? FAKE_VERBS_ROCE_NGIDS : 1u))
		return false;
	memset(e, 0, sizeof(*e));
	/* the lock's: a GID change on the control thread (fake_verbs_port_gid) */
	pthread_mutex_lock((pthread_mutex_t *)&d->gid_lock);
	memcpy(e->gid.raw, d->cfg.gid, 16);
	pthread_mutex_unlock((pthread_mutex_t *)&d->gid_lock);
	e->gid_index = index;
	e->port_num = 1;
	if (!d->cfg.roce) {
		e->gid_type = IBV_GID_TYPE_IB;
		return true;
	}
	/* the netdev's link-local address first, as the kernel fills the table */
	if (index == 0) {
		memset(e->gid.raw, 0, 8);
		e->gid.raw[0] = 0xFE;
		e->gid.raw[1] = 0x80;
	}
	e->gid_type = index == 2 ? IBV_GID_TYPE_ROCE_V1 : IBV_GID_TYPE_ROCE_V2;
	e->ndev_ifindex = FAKE_VERBS_ROCE_IFINDEX;
	return true;
}

bool fv_roce_gid_own(const struct fv_dev *d, const uint8_t gid[16])
{
	struct ibv_gid_entry e;

	for (uint32_t i = 0; fv_gid_entry(d, i, &e); i++)
		if (!memcmp(e.gid.raw, gid, 16))
			return true;
	return false;
}

int fv_roce_ah_check(const struct fv_dev *d, const struct ibv_ah_attr *a)
{
	struct ibv_gid_entry e;

	/* no LIDs to address by: a RoCE AH is global, from a RoCE v2 GID (UDP/IP) */
	if (!a->is_global || !fv_gid_entry(d, a->grh.sgid_index, &e) ||
	    e.gid_type != IBV_GID_TYPE_ROCE_V2)
		return EINVAL;
	return 0;
}

bool fv_roce_mgid_ok(const union ibv_gid *g)
{
	/* an IPv6 multicast address, or an IPv4-mapped one of 224.0.0.0/4 */
	return g->raw[0] == 0xFF ||
	       (!memcmp(g->raw, fv_v4_mapped, sizeof(fv_v4_mapped)) && (g->raw[12] >> 4) == 0xE);
}

/* The IPv4 header checksum (RFC 791): the ones' complement of the 16-bit word sum. */
static uint16_t fv_ip4_csum(const uint8_t *h)
{
	uint32_t sum = 0;

	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	return (uint16_t)~sum;
}

/*
 * From the packet's GRH: the IPv6 header (PayLen the UDP length, 8 + the
 * IB PayLen; NxtHdr 17; FlowLabel 0, as rxe sends), or for IPv4-mapped
 * GIDs 20 zero bytes (rxe's; IBA leaves them undefined) and the IPv4
 * header (TOS = TClass, TTL = HopLmt, DF, UDP, its checksum).
 */
void fv_roce_ip_hdr(uint8_t out[IBR_GRH_LEN], const struct ibr_grh *g)
{
	uint32_t udp = 8u + ibr_grh_get_paylen(g);
	uint8_t tclass = ibr_grh_get_tclass(g), *ip4 = out + 20;

	memset(out, 0, IBR_GRH_LEN);
	if (!memcmp(ibr_grh_sgid(g), fv_v4_mapped, 12) &&
	    !memcmp(ibr_grh_dgid(g), fv_v4_mapped, 12)) {
		ip4[0] = 0x45;
		ip4[1] = tclass;
		ip4[2] = (uint8_t)((20 + udp) >> 8);
		ip4[3] = (uint8_t)(20 + udp);
		ip4[6] = 0x40; /* DF */
		ip4[8] = ibr_grh_get_hoplmt(g);
		ip4[9] = 17;
		memcpy(ip4 + 12, ibr_grh_sgid(g) + 12, 4);
		memcpy(ip4 + 16, ibr_grh_dgid(g) + 12, 4);
		ip4[10] = (uint8_t)(fv_ip4_csum(ip4) >> 8);
		ip4[11] = (uint8_t)fv_ip4_csum(ip4);
		return;
	}
	out[0] = (uint8_t)(6 << 4 | tclass >> 4);
	out[1] = (uint8_t)(tclass << 4);
	out[4] = (uint8_t)(udp >> 8);
	out[5] = (uint8_t)udp;
	out[6] = 17;
	out[7] = ibr_grh_get_hoplmt(g);
	memcpy(out + 8, ibr_grh_sgid(g), 16);
	memcpy(out + 24, ibr_grh_dgid(g), 16);
}
