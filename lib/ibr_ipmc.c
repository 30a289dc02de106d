/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/* ibr_ipmc.c - the IP multicast membership behind a RoCE v2 group (ibr_ipmc.h). */
#include "lib/ibr_ipmc.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const uint8_t v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF };

void ibr_ipmc_init(struct ibr_ipmc *m)
{
	m->fd4 = m->fd6 = -1;
}

bool ibr_ipmc_is_v4(const uint8_t mgid[16])
{
	return memcmp(mgid, v4_mapped, sizeof(v4_mapped)) == 0;
}

static int ipmc_sock(int *fd, int family)
{
	if (*fd < 0 && (*fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	return 0;
}

int ibr_ipmc_set(struct ibr_ipmc *m, unsigned ifindex, const uint8_t mgid[16], bool on)
{
	int rc;

	if (ibr_ipmc_is_v4(mgid)) {
		struct ip_mreqn r = { .imr_ifindex = (int)ifindex };

		if ((mgid[12] & 0xF0) != 0xE0) /* 224.0.0.0/4 */
			return -EINVAL;
		memcpy(&r.imr_multiaddr, mgid + 12, 4);
		if ((rc = ipmc_sock(&m->fd4, AF_INET)))
			return rc;
		if (setsockopt(m->fd4, IPPROTO_IP, on ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP, &r,
			       sizeof(r)))
			return -errno;
		return 0;
	}
	if (mgid[0] != 0xFF)
		return -EINVAL;
	struct ipv6_mreq r6 = { .ipv6mr_interface = ifindex };

	memcpy(&r6.ipv6mr_multiaddr, mgid, 16);
	if ((rc = ipmc_sock(&m->fd6, AF_INET6)))
		return rc;
	if (setsockopt(m->fd6, IPPROTO_IPV6, on ? IPV6_JOIN_GROUP : IPV6_LEAVE_GROUP, &r6,
		       sizeof(r6)))
		return -errno;
	return 0;
}

void ibr_ipmc_fini(struct ibr_ipmc *m)
{
	if (m->fd4 >= 0)
		close(m->fd4);
	if (m->fd6 >= 0)
		close(m->fd6);
	ibr_ipmc_init(m);
}
