/*
 * ibrd_capture.c - "capture start PORT FILE [drops|all] [count N]": a pcap
 * file (LINKTYPE_ERF, ERF type 21, which tshark decodes) of what one port
 * receives and sends (all: received packets on ERF interface 0, sent copies
 * as sent on interface 1) or of the packets dropped there (drops).  Workers
 * write under a mutex only while their port's bit is set; nothing is paid
 * on the data path otherwise.
 *
 * The daemon never opens FILE: ibrouterctl opens it with the rights of the
 * user who runs it and passes the descriptor with the request (SCM_RIGHTS,
 * ibrd_ctl.c), so the daemon writes only where that user could, and FILE is
 * a label for the logs and the stop reply.  It writes only to a regular file
 * on storage (cap_check_fd): never to a FIFO, a socket or a device, which
 * could block the control loop or the workers, nor to a kernel interface
 * (/proc, /sys: a write there is a command), nor to FUSE, whose server can
 * stall any write.
 */
#include "router/daemon/ibrd.h"

#include "lib/ibr_log.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif
#ifndef FUSECTL_SUPER_MAGIC
#define FUSECTL_SUPER_MAGIC 0x65735543
#endif

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

/* Filesystems whose "files" are not storage, or whose writes another process serves. */
static const struct {
	long magic;
	const char *name, *why;
} cap_refused_fs[] = {
	{ PROC_SUPER_MAGIC, "proc", "a kernel interface, not storage" },
	{ SYSFS_MAGIC, "sysfs", "a kernel interface, not storage" },
	{ DEBUGFS_MAGIC, "debugfs", "a kernel interface, not storage" },
	{ TRACEFS_MAGIC, "tracefs", "a kernel interface, not storage" },
	{ SECURITYFS_MAGIC, "securityfs", "a kernel interface, not storage" },
	{ SELINUX_MAGIC, "selinuxfs", "a kernel interface, not storage" },
	{ SMACK_MAGIC, "smackfs", "a kernel interface, not storage" },
	{ CGROUP_SUPER_MAGIC, "cgroup", "a kernel interface, not storage" },
	{ CGROUP2_SUPER_MAGIC, "cgroup2", "a kernel interface, not storage" },
	{ BPF_FS_MAGIC, "bpf", "a kernel interface, not storage" },
	{ CONFIGFS_MAGIC, "configfs", "a kernel interface, not storage" },
	{ PSTOREFS_MAGIC, "pstore", "a kernel interface, not storage" },
	{ EFIVARFS_MAGIC, "efivarfs", "a kernel interface, not storage" },
	{ FUSECTL_SUPER_MAGIC, "fusectl", "a kernel interface, not storage" },
	{ FUSE_SUPER_MAGIC, "FUSE", "whose server could stall the daemon's writes" },
};

static const char *cap_kind(mode_t m)
{
	return S_ISFIFO(m)   ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISDIR(m)  ? "a directory"
	       : S_ISLNK(m)  ? "a symbolic link"
			     : "not a file";
}

/*
 * A descriptor the daemon may write a capture to: a regular file, open for
 * writing (O_APPEND too), on storage.  Emptied here if it is not (the daemon
 * truncates, not ibrouterctl, so that a refused request leaves a file alone).
 */
static int cap_check_fd(int fd, const char *label, char *err, size_t errlen)
{
	struct statfs sf;
	struct stat st;
	int fl;

	if (fstat(fd, &st) < 0 || fstatfs(fd, &sf) < 0 || (fl = fcntl(fd, F_GETFL)) < 0) {
		snprintf(err, errlen, "%s: %s", label, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is %s, not a regular file", label, cap_kind(st.st_mode));
		return -EINVAL;
	}
	if ((fl & O_PATH) || (fl & O_ACCMODE) == O_RDONLY) {
		snprintf(err, errlen, "%s is not open for writing", label);
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(cap_refused_fs) / sizeof(cap_refused_fs[0]); i++)
		if ((long)sf.f_type == cap_refused_fs[i].magic) {
			snprintf(err, errlen, "%s is on %s (%s)", label, cap_refused_fs[i].name,
				 cap_refused_fs[i].why);
			return -EINVAL;
		}
	if (st.st_size > 0 && (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)) {
		snprintf(err, errlen, "cannot empty %s: %s", label, strerror(errno));
		return -errno;
	}
	return 0;
}

/* FILE as the logs and replies show it: printable ASCII, the rest as '?'. */
static void cap_label(char *dst, size_t len, const char *file)
{
	size_t i;

	for (i = 0; file[i] && i + 1 < len; i++)
		dst[i] = file[i] >= 0x20 && file[i] < 0x7f ? file[i] : '?';
	dst[i] = '\0';
}

int ibrd_capture_start(struct ibrd *d, int port, const char *file, bool all, uint64_t count, int fd,
		       char *err, size_t errlen)
{
	const struct ucred *cr = d->ctl_cur ? ibrd_ctl_client_cred(d->ctl_cur) : NULL;
	char label[IBRD_PATH_MAX];
	struct ibr_pcap pc;
	int rc;

	cap_label(label, sizeof(label), file);
	if (d->cap_on) {
		close(fd);
		snprintf(err, errlen, "a capture is already running");
		return -EBUSY;
	}
	if ((rc = cap_check_fd(fd, label, err, errlen))) {
		close(fd);
		return rc;
	}
	/* the header now, so that a file that cannot be written fails here (fd is pc's) */
	if ((rc = ibr_pcap_fdopen(&pc, fd))) {
		snprintf(err, errlen, "cannot write to %s: %s", label, strerror(-rc));
		return rc;
	}
	pthread_mutex_lock(&d->cap_lock);
	d->cap = pc;
	snprintf(d->cap_file, sizeof(d->cap_file), "%s", label);
	d->cap_all = all;
	d->cap_port = port;
	d->cap_limit = count;
	d->cap_count = 0;
	d->cap_on = true;
	pthread_mutex_unlock(&d->cap_lock);
	atomic_store(&d->cap_ports, 1u << port);
	log_info("capture: port %s to %s (%s%s), for uid %ld", d->rib.port[port].name, label,
		 all ? "all" : "drops", count ? ", limited" : "", cr ? (long)cr->uid : -1L);
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
