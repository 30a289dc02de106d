/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_proxy.c - the UD unicast proxies of the verbs ports (ibrouterd.conf(5)
 * proxy sections, ibrouterctl(8) proxy add/del): one list, d->data->proxy, that
 * the data path opens the proxy QPs from (ibrd_data.c).  A proxy of the
 * config is marked so: a reload replaces those and keeps the ones added
 * with ibrouterctl, as it does with static entries.
 */
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"

#include <string.h>

int ibrd_proxy_find(const struct ibrd *d, uint32_t port, const uint8_t *gid, uint32_t qpn)
{
	for (unsigned i = 0; i < d->data->nproxies; i++)
		if (d->data->proxy[i].port == port && d->data->proxy[i].qpn == qpn &&
		    !memcmp(d->data->proxy[i].gid, gid, 16))
			return (int)i;
	return -1;
}

unsigned ibrd_proxy_count(const struct ibrd *d, uint32_t port)
{
	unsigned n = 0;

	for (unsigned i = 0; i < d->data->nproxies; i++)
		n += d->data->proxy[i].port == port;
	return n;
}

bool ibrd_proxy_load(struct ibrd *d, const struct ibrd_conf *c)
{
	struct ibrd_proxy old[IBRD_MAX_PROXIES];
	unsigned nold = d->data->nproxies, n = 0;

	memcpy(old, d->data->proxy, sizeof(old));
	/* keep those of ibrouterctl whose port still is a verbs port */
	for (unsigned i = 0; i < nold; i++)
		if (!old[i].conf && old[i].port < c->nports &&
		    c->port[old[i].port].data == IBRD_DATA_VERBS)
			d->data->proxy[n++] = old[i];
	d->data->nproxies = n;
	for (unsigned i = 0; i < c->nproxies; i++) {
		const struct ibrd_conf_proxy *cx = &c->proxies[i];
		int port = ibrd_conf_port_index(c, cx->port), at;
		struct ibrd_proxy x = { .qpn = cx->qpn, .qkey = cx->qkey, .conf = true };

		if (port < 0) /* the config check rules it out */
			continue;
		x.port = (uint32_t)port;
		memcpy(x.gid, cx->gid, 16);
		if ((at = ibrd_proxy_find(d, x.port, x.gid, x.qpn)) >= 0)
			d->data->proxy[at] = x; /* added by hand before: the config's now */
		else if (d->data->nproxies < IBRD_MAX_PROXIES)
			d->data->proxy[d->data->nproxies++] = x;
		else
			log_warnx("router: port %s: more than %d proxies", cx->port,
				  IBRD_MAX_PROXIES);
	}
	return d->data->nproxies != nold || memcmp(old, d->data->proxy, nold * sizeof(old[0])) != 0;
}
