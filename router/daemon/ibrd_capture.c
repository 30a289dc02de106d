/*
 * ibrd_capture.c - "capture start PORT FILE [drops|all] [count N]": a pcap
 * file (LINKTYPE_ERF, ERF type 21, which tshark decodes) of what one port
 * receives and sends (all: received packets on ERF interface 0, sent copies
 * as sent on interface 1) or of the packets dropped there (drops).  Workers
 * write under a mutex only while their port's bit is set; nothing is paid
 * on the data path otherwise.
 */
#include "router/daemon/ibrd.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <string.h>

static void cap_write(struct ibrd *d, const struct iovec *iov, int n, unsigned iface)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	pthread_mutex_lock(&d->cap_lock);
	if (d->cap_on && (!d->cap_limit || d->cap_count < d->cap_limit)) {
		if (ibr_pcap_writev(&d->cap, &ts, iov, n, iface) == 0)
			d->cap_count++;
		if (d->cap_limit && d->cap_count >= d->cap_limit)
			atomic_store(&d->cap_ports, 0); /* enough: the control loop closes it */
	}
	pthread_mutex_unlock(&d->cap_lock);
}

static void cap_rx(void *ctx, const struct router_mbuf *m, int reason)
{
	struct ibrd *d = ctx;
	struct iovec iov = { m->data, m->len };

	(void)reason;
	if (d->cap_all)
		cap_write(d, &iov, 1, 0);
}

static void cap_drop(void *ctx, const struct router_mbuf *m, int reason)
{
	struct ibrd *d = ctx;
	struct iovec iov = { m->data, m->len };

	(void)reason;
	if (!d->cap_all &&
	    (atomic_load_explicit(&d->cap_ports, memory_order_relaxed) & (1u << m->port)))
		cap_write(d, &iov, 1, 0);
}

static void cap_tx(void *ctx, uint32_t port, const struct router_tx *tx)
{
	struct ibrd *d = ctx;
	uint8_t vcrc[2] = { (uint8_t)tx->vcrc, (uint8_t)(tx->vcrc >> 8) };
	struct iovec iov[3] = {
		{ (void *)tx->hdr, ROUTER_HDR_LEN },
		{ tx->m->data + ROUTER_HDR_LEN, tx->m->len - ROUTER_HDR_LEN - 2 },
		{ vcrc, 2 },
	};

	(void)port;
	if (d->cap_all)
		cap_write(d, iov, 3, 1);
}

void ibrd_capture_hooks(struct ibrd *d, struct router_worker *w)
{
	w->cap_ports = &d->cap_ports;
	w->rx_hook = cap_rx;
	w->tx_hook = cap_tx;
	w->drop_hook = cap_drop;
}

int ibrd_capture_start(struct ibrd *d, int port, const char *file, bool all, uint64_t count)
{
	int rc;

	if (d->cap_on)
		return -EBUSY;
	if (file[0] != '/')
		return -EINVAL; /* the daemon's working directory is / : say where */
	if ((rc = ibr_pcap_open(&d->cap, file)))
		return rc;
	pthread_mutex_lock(&d->cap_lock);
	snprintf(d->cap_file, sizeof(d->cap_file), "%s", file);
	d->cap_all = all;
	d->cap_port = port;
	d->cap_limit = count;
	d->cap_count = 0;
	d->cap_on = true;
	pthread_mutex_unlock(&d->cap_lock);
	atomic_store(&d->cap_ports, 1u << port);
	log_info("capture: port %s to %s (%s%s)", d->rib.port[port].name, file,
		 all ? "all" : "drops", count ? ", limited" : "");
	return 0;
}

int64_t ibrd_capture_stop(struct ibrd *d)
{
	int64_t n;
	int rc;

	atomic_store(&d->cap_ports, 0);
	pthread_mutex_lock(&d->cap_lock);
	if (!d->cap_on) {
		pthread_mutex_unlock(&d->cap_lock);
		return -ENOENT;
	}
	d->cap_on = false;
	n = (int64_t)d->cap_count;
	rc = ibr_pcap_close(&d->cap);
	pthread_mutex_unlock(&d->cap_lock);
	if (rc)
		log_warnx("capture: %s: %s", d->cap_file, strerror(-rc));
	log_info("capture: %s closed, %lld packets", d->cap_file, (long long)n);
	return rc ? rc : n;
}

void ibrd_capture_tick(struct ibrd *d)
{
	if (d->cap_on && d->cap_limit && d->cap_count >= d->cap_limit)
		ibrd_capture_stop(d);
}
