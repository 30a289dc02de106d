/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_capture.c - "capture start PORT FILE [drops|all] [count N]": a pcap
 * file (LINKTYPE_ERF, ERF type 21, which tshark decodes) of what one port
 * receives and sends (all: received packets on ERF interface 0, sent copies
 * as sent on interface 1) or of the packets dropped there (drops).
 *
 * The daemon never opens FILE: ibrouterctl opens it with the rights of the
 * user who runs it and passes the descriptor with the request (SCM_RIGHTS,
 * ibrd_ctl.c), so the daemon writes only where that user could, and FILE is
 * a label for the logs and the stop reply.  It writes only to a regular file
 * on storage that FILE names itself, not through a symbolic link
 * (cap_check_fd): never to a FIFO, a socket or a device, which
 * could block the control loop or the workers, nor to a kernel interface
 * (/proc, /sys: a write there is a command), nor to FUSE, whose server can
 * stall any write.
 *
 * The workers and the control thread share a capture this way, race-free by
 * construction:
 * - d->cap->ports is the one word a worker reads without the lock: the
 *   captured port's bit (bits 0-15, which router_worker.c tests once a
 *   burst), CAP_ALL for "all", and a generation (bits 16-30).  It is 0
 *   while no capture runs, so that nothing is paid then beyond that
 *   per-burst load and one load a dropped packet (cap_drop).  It is written
 *   only under cap_lock.
 * - Every other field is written under cap_lock, and the workers read them
 *   only under it; the control thread, their only writer, also reads
 *   cap_on and cap_file without it.
 * A hook reads the word once a packet and writes the packet only if, under
 * the lock, that word is still the running capture's: a packet seen for
 * one capture never lands in another's file, whatever start and stop did
 * in between.
 */
#include "daemon/ctl/ibrd_ctl.h"
#include "daemon/port/ibrd_port.h"

#include "lib/ibr_log.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdlib.h>
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

#define CAP_ALL	      (1u << 31)
#define CAP_GEN_SHIFT 16
#define CAP_GEN_MASK  0x7fffu
_Static_assert(ROUTER_MAX_PORTS <= CAP_GEN_SHIFT, "the port bits sit below the generation");

static uint32_t cap_word(const struct ibrd *d)
{
	/* relaxed: what the packet goes to is decided again under the lock */
	return atomic_load_explicit(&d->cap->ports, memory_order_relaxed);
}

static void cap_write(struct ibrd *d, uint32_t word, const struct iovec *iov, int n, unsigned iface)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	pthread_mutex_lock(&d->cap->lock);
	/*
	 * A write(2) to a regular file copies into the page cache; when the
	 * disk cannot keep up, the kernel throttles the writer (dirty page
	 * limits), and this worker, and any other waiting for the lock,
	 * forwards nothing until it returns.  The buffer (IBR_PCAP_BUF) makes
	 * that one write(2) per 32 KiB of capture, not one a packet.
	 */
	if (d->cap->on && d->cap->word == word && d->cap->count < d->cap->limit) {
		if (ibr_pcap_writev(&d->cap->pcap, &ts, iov, n, iface) == 0)
			d->cap->count++;
		if (d->cap->pcap.err || d->cap->count >= d->cap->limit) {
			/* done, or the file failed: no more packets; the control loop closes it */
			ibr_pcap_flush(&d->cap->pcap);
			atomic_store_explicit(&d->cap->ports, 0, memory_order_relaxed);
		}
	}
	pthread_mutex_unlock(&d->cap->lock);
}

static void cap_rx(void *ctx, const struct router_mbuf *m, int reason)
{
	struct ibrd *d = ctx;
	struct iovec iov = { m->data, m->len };
	uint32_t w = cap_word(d);

	(void)reason;
	if ((w & CAP_ALL) && (w & (1u << m->port)))
		cap_write(d, w, &iov, 1, 0);
}

static void cap_drop(void *ctx, const struct router_mbuf *m, int reason)
{
	struct ibrd *d = ctx;
	struct iovec iov = { m->data, m->len };
	uint32_t w = cap_word(d);

	(void)reason;
	if (!(w & CAP_ALL) && (w & (1u << m->port)))
		cap_write(d, w, &iov, 1, 0);
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
	uint32_t w = cap_word(d);
	uint8_t feed[IBR_PKT_MAX_LEN]; /* a packet is at most that (the engine checked) */

	if (!(w & CAP_ALL) || !(w & (1u << port)))
		return;
	if (!tx->dgid) {
		cap_write(d, w, iov, 3, 1);
		return;
	}
	/* a feed's copy: its DGID and CRCs as it leaves (a slow path, feeds only) */
	iov[0] = (struct iovec){ feed, router_tx_build(tx, feed) };
	cap_write(d, w, iov, 1, 1);
}

struct ibrd_capture *ibrd_capture_new(void)
{
	struct ibrd_capture *x = calloc(1, sizeof(*x));

	if (x)
		pthread_mutex_init(&x->lock, NULL);
	return x;
}

void ibrd_capture_free(struct ibrd_capture *x)
{
	if (!x)
		return;
	pthread_mutex_destroy(&x->lock);
	free(x);
}

void ibrd_capture_hooks(struct ibrd *d, struct router_worker *w)
{
	w->cap_ports = &d->cap->ports;
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
 * Whether FILE, as the client named it, is a symbolic link to the very file
 * of the descriptor: a client that opened it through the link (an older
 * ibrouterctl, a hand-written one) would have the daemon empty the link's
 * target, which whoever planted the link need not own (a link in /tmp,
 * where fs.protected_symlinks is 0).  ibrouterctl refuses links itself
 * (O_NOFOLLOW); this refuses them whoever the client is.  Only looked at,
 * never opened; a name that this daemon does not see (another mount
 * namespace) or that is another file says nothing: the descriptor is what
 * is written.
 */
static bool cap_via_link(const char *label, const struct stat *st)
{
	struct stat ls, ts;

	return label[0] == '/' && lstat(label, &ls) == 0 && S_ISLNK(ls.st_mode) &&
	       stat(label, &ts) == 0 && ts.st_dev == st->st_dev && ts.st_ino == st->st_ino;
}

/*
 * A descriptor the daemon may write a capture to: a regular file, open for
 * writing (O_APPEND too), on storage, not reached through a symbolic link.
 * Emptied here if it is not (the daemon truncates, not ibrouterctl, so that
 * a refused request leaves a file alone).
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
	if (cap_via_link(label, &st)) {
		snprintf(err, errlen,
			 "%s is a symbolic link: refused (a capture never follows one: name the "
			 "file itself)",
			 label);
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
	const struct ucred *cr = ibrd_ctl_current(d) ? ibrd_client_cred(ibrd_ctl_current(d)) : NULL;
	char label[IBRD_PATH_MAX];
	struct ibr_pcap pc;
	int rc;

	cap_label(label, sizeof(label), file);
	if (d->cap->on) {
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
	d->cap->gen = (d->cap->gen + 1) & CAP_GEN_MASK;
	pthread_mutex_lock(&d->cap->lock);
	d->cap->pcap = pc;
	snprintf(d->cap->file, sizeof(d->cap->file), "%s", label);
	d->cap->limit = count ? count : UINT64_MAX;
	d->cap->count = 0;
	d->cap->word = 1u << port | (all ? CAP_ALL : 0) | d->cap->gen << CAP_GEN_SHIFT;
	d->cap->on = true;
	atomic_store_explicit(&d->cap->ports, d->cap->word, memory_order_relaxed);
	pthread_mutex_unlock(&d->cap->lock);
	log_info("capture: port %s to %s (%s%s), for uid %ld", d->rib.port[port].name, label,
		 all ? "all" : "drops", count ? ", limited" : "", cr ? (long)cr->uid : -1L);
	return 0;
}

int64_t ibrd_capture_stop(struct ibrd *d)
{
	struct ibr_pcap pc;
	int64_t n;
	int rc;

	pthread_mutex_lock(&d->cap->lock);
	atomic_store_explicit(&d->cap->ports, 0, memory_order_relaxed);
	if (!d->cap->on) {
		pthread_mutex_unlock(&d->cap->lock);
		return -ENOENT;
	}
	d->cap->on = false;
	n = (int64_t)d->cap->count;
	pc = d->cap->pcap;
	memset(&d->cap->pcap, 0, sizeof(d->cap->pcap));
	pthread_mutex_unlock(&d->cap->lock);
	/* off the lock: the buffer's tail (IBR_PCAP_BUF at most) goes to the file here */
	if ((rc = ibr_pcap_close(&pc)))
		log_warnx("capture: %s: %s", d->cap->file, strerror(-rc));
	log_info("capture: %s closed, %lld packets", d->cap->file, (long long)n);
	return rc ? rc : n;
}

void ibrd_capture_tick(struct ibrd *d)
{
	/* a worker clears the word once the count is reached or a write failed */
	if (d->cap->on && !cap_word(d))
		ibrd_capture_stop(d);
}
