/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * fake_verbs.c - the fake libibverbs of fake_verbs.h: devices, PDs, MRs,
 * CQs with completion channels, UD QPs, AHs, multicast attachment and async
 * events, on sim wire sockets.  For tests only: single-threaded use per
 * device (the router's workers own their ports).
 */
#include "tests/fakes/fake_verbs_priv.h"

#include "lib/ibr_pkt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static struct fv_dev *fv_devs[FAKE_VERBS_MAX_DEVS];
static unsigned fv_ndevs;

static struct fv_dev *fv_find(const char *name)
{
	for (unsigned i = 0; i < fv_ndevs; i++)
		if (!strcmp(fv_devs[i]->dev.name, name))
			return fv_devs[i];
	return NULL;
}

int fake_verbs_dev_add(const char *name, const struct fake_verbs_port_cfg *cfg)
{
	struct fv_dev *d;

	if (fv_ndevs == FAKE_VERBS_MAX_DEVS || strlen(name) >= sizeof(d->dev.name) ||
	    strlen(cfg->sock) >= sizeof(d->sock) || strlen(cfg->peer) >= sizeof(d->peer.sun_path))
		return -EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	strcpy(d->dev.name, name);
	strcpy(d->dev.dev_name, name);
	strcpy(d->dev.dev_path, "/dev/null"); /* a path that is there: the uverbs device's */
	d->dev.node_type = IBV_NODE_CA;
	d->dev.transport_type = IBV_TRANSPORT_IB;
	d->cfg = *cfg;
	strcpy(d->sock, cfg->sock);
	d->cfg.sock = d->sock;
	d->peer.sun_family = AF_UNIX;
	strcpy(d->peer.sun_path, cfg->peer);
	d->cfg.peer = d->peer.sun_path;
	if (!d->cfg.pkey)
		d->cfg.pkey = 0xFFFF;
	if (!d->cfg.mtu)
		d->cfg.mtu = cfg->roce ? IBV_MTU_1024 : IBV_MTU_4096;
	if (cfg->roce) /* no LIDs, no SM on Ethernet */
		d->cfg.lid = d->cfg.lmc = d->cfg.sm_lid = 0;
	d->state = cfg->down ? IBV_PORT_DOWN : IBV_PORT_ACTIVE;
	pthread_mutex_init(&d->gid_lock, NULL);
	d->fd = d->evpipe[0] = d->evpipe[1] = d->ctl_fd = d->async_ep = -1;
	d->next_qpn = FV_QPN_FIRST;
	fv_devs[fv_ndevs++] = d;
	return 0;
}

static void fv_async_close(struct fv_dev *d, bool keep_ctl);

void fake_verbs_reset(void)
{
	for (unsigned i = 0; i < fv_ndevs; i++) {
		fv_async_close(fv_devs[i], false); /* a removed device's control socket */
		free(fv_devs[i]);
	}
	fv_ndevs = 0;
}

void fake_verbs_fault_rq_exhausted(const char *name, unsigned n)
{
	struct fv_dev *d = fv_find(name);

	if (d)
		d->fault_rq = n;
}

void fake_verbs_fault_send_error(const char *name, unsigned nth)
{
	struct fv_dev *d = fv_find(name);

	if (d)
		d->fault_send = nth;
}

static int fv_event_push(struct fv_dev *d, enum ibv_event_type type)
{
	struct ibv_async_event *e;

	if (!d->ctx || d->nev == FV_MAX_EVENTS)
		return -ENOBUFS;
	e = &d->ev[d->nev++];
	memset(e, 0, sizeof(*e));
	e->event_type = type;
	e->element.port_num = 1;
	return write(d->evpipe[1], "e", 1) == 1 ? 0 : -errno;
}

int fake_verbs_port_set(const char *name, bool up)
{
	struct fv_dev *d = fv_find(name);

	if (!d)
		return -ENOENT;
	d->state = up ? IBV_PORT_ACTIVE : IBV_PORT_DOWN;
	return fv_event_push(d, up ? IBV_EVENT_PORT_ACTIVE : IBV_EVENT_PORT_ERR);
}

int fake_verbs_event(const char *name, enum ibv_event_type type)
{
	struct fv_dev *d = fv_find(name);

	return d ? fv_event_push(d, type) : -ENOENT;
}

int fake_verbs_port_lid(const char *name, uint16_t lid)
{
	struct fv_dev *d = fv_find(name);

	if (!d)
		return -ENOENT;
	if (d->cfg.roce)
		return -EINVAL; /* no LIDs on Ethernet */
	__atomic_store_n(&d->cfg.lid, lid, __ATOMIC_RELAXED);
	return fv_event_push(d, IBV_EVENT_LID_CHANGE);
}

int fake_verbs_port_gid(const char *name, const uint8_t gid[16])
{
	struct fv_dev *d = fv_find(name);

	if (!d)
		return -ENOENT;
	pthread_mutex_lock(&d->gid_lock);
	memcpy(d->cfg.gid, gid, 16);
	pthread_mutex_unlock(&d->gid_lock);
	return fv_event_push(d, IBV_EVENT_GID_CHANGE);
}

int fake_verbs_remove(const char *name, bool fatal)
{
	struct fv_dev *d = fv_find(name);

	if (!d)
		return -ENOENT;
	d->removed = true;
	d->dev.dev_path[0] = '\0';
	return fatal && d->ctx ? fv_event_push(d, IBV_EVENT_DEVICE_FATAL) : 0;
}

int fake_verbs_restore(const char *name)
{
	struct fv_dev *d = fv_find(name);

	if (!d)
		return -ENOENT;
	d->removed = false;
	strcpy(d->dev.dev_path, "/dev/null");
	return 0;
}

int fake_verbs_ctl(const char *name, const char *cmd)
{
	uint8_t gid[16];
	unsigned long lid;
	char *end;

	if (!fv_find(name))
		return -ENOENT;
	if (!strcmp(cmd, "down") || !strcmp(cmd, "up"))
		return fake_verbs_port_set(name, cmd[0] == 'u');
	if (!strcmp(cmd, "sm"))
		return fake_verbs_event(name, IBV_EVENT_SM_CHANGE);
	if (!strcmp(cmd, "remove") || !strcmp(cmd, "remove fatal"))
		return fake_verbs_remove(name, cmd[6] != '\0');
	if (!strcmp(cmd, "add"))
		return fake_verbs_restore(name);
	if (!strncmp(cmd, "lid ", 4)) {
		errno = 0;
		lid = strtoul(cmd + 4, &end, 0);
		if (errno || *end || end == cmd + 4 || lid == 0 || lid >= 0xC000)
			return -EINVAL;
		return fake_verbs_port_lid(name, (uint16_t)lid);
	}
	if (!strncmp(cmd, "gid ", 4) && inet_pton(AF_INET6, cmd + 4, gid) == 1)
		return fake_verbs_port_gid(name, gid);
	return -EINVAL;
}

/* Commands waiting on the device's control socket (another process sent them). */
static void fv_ctl_drain(struct fv_dev *d)
{
	char buf[128];
	ssize_t n;

	while (d->ctl_fd >= 0 && (n = recv(d->ctl_fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) >= 0) {
		buf[n] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fake_verbs_ctl(d->dev.name, buf); /* hostile or wrong: ignored */
	}
}

/*
 * The control socket, and the async fd: an epoll set of the event pipe and
 * that socket, so that a command wakes the reader of async events.
 */
static int fv_async_open(struct fv_dev *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct epoll_event ev = { .events = EPOLLIN };

	if (pipe2(d->evpipe, O_NONBLOCK | O_CLOEXEC) < 0 ||
	    (d->async_ep = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    epoll_ctl(d->async_ep, EPOLL_CTL_ADD, d->evpipe[0], &ev) < 0)
		return -errno;
	if (d->ctl_fd >= 0) /* kept while the device was removed */
		return epoll_ctl(d->async_ep, EPOLL_CTL_ADD, d->ctl_fd, &ev) < 0 ? -errno : 0;
	if (strlen(d->sock) + strlen(FAKE_VERBS_CTL_SUFFIX) >= sizeof(sa.sun_path))
		return 0; /* no room for the name: no control socket */
	snprintf(d->ctl, sizeof(d->ctl), "%s%s", d->sock, FAKE_VERBS_CTL_SUFFIX);
	strcpy(sa.sun_path, d->ctl);
	unlink(d->ctl);
	d->ctl_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (d->ctl_fd < 0 || bind(d->ctl_fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    epoll_ctl(d->async_ep, EPOLL_CTL_ADD, d->ctl_fd, &ev) < 0)
		return -errno;
	return 0;
}

static void fv_async_close(struct fv_dev *d, bool keep_ctl)
{
	int *fds[] = { &d->evpipe[0], &d->evpipe[1], &d->async_ep, &d->ctl_fd };

	for (unsigned i = 0; i < (keep_ctl ? 3u : 4u); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
	if (keep_ctl)
		return;
	if (d->ctl[0])
		unlink(d->ctl);
	d->ctl[0] = '\0';
}

void fake_verbs_pump(const char *name)
{
	struct fv_dev *d = fv_find(name);

	if (d && d->ctx)
		fv_wire_pump(d);
}

int fake_verbs_stats_get(const char *name, struct fake_verbs_stats *s)
{
	struct fv_dev *d = fv_find(name);

	if (!d)
		return -ENOENT;
	*s = d->st;
	return 0;
}

/* ---- devices and contexts ---- */

/* One "name,sock,peer,lid,gid[,lmc|,roce]" entry of FAKE_VERBS_DEVICES (its text is cut up). */
static int fv_env_dev(char *e)
{
	char *f[7], *save = NULL;
	struct fake_verbs_port_cfg c = { 0 };
	unsigned long lid, lmc = 0;
	int n = 0;

	for (char *t = strtok_r(e, ",", &save); t && n < 7; t = strtok_r(NULL, ",", &save))
		f[n++] = t;
	if (n != 5 && n != 6)
		return -EINVAL;
	lid = strtoul(f[3], NULL, 0);
	c.roce = n == 6 && !strcmp(f[5], "roce");
	if (n == 6 && !c.roce)
		lmc = strtoul(f[5], NULL, 0);
	/* the SM assigns a base LID aligned to 2^LMC (IBA 7.11.1); RoCE has none */
	if (c.roce ? lid != 0
		   : lid == 0 || lmc > 7 || lid + (1ul << lmc) > 0xC000 ||
			     (lid & ((1ul << lmc) - 1)))
		return -EINVAL;
	if (inet_pton(AF_INET6, f[4], c.gid) != 1)
		return -EINVAL;
	c.sock = f[1];
	c.peer = f[2];
	c.lid = (uint16_t)lid;
	c.lmc = (uint8_t)lmc;
	return fake_verbs_dev_add(f[0], &c);
}

static void fv_env_load(void)
{
	const char *env = getenv(FAKE_VERBS_ENV);
	char *copy, *save = NULL;

	if (!env || !(copy = strdup(env)))
		return;
	for (char *e = strtok_r(copy, ";", &save); e; e = strtok_r(NULL, ";", &save))
		if (fv_env_dev(e))
			break; /* the test sees no such device */
	free(copy);
}

#undef ibv_get_device_list
struct ibv_device **ibv_get_device_list(int *num)
{
	struct ibv_device **l;
	unsigned k = 0;

	if (!fv_ndevs)
		fv_env_load();
	l = calloc(fv_ndevs + 1, sizeof(*l));

	if (!l) {
		errno = ENOMEM;
		return NULL;
	}
	for (unsigned i = 0; i < fv_ndevs; i++) {
		struct fv_dev *d = fv_devs[i];

		if (!d->ctx)
			fv_ctl_drain(d); /* a removed device's `add` */
		if (!d->removed)
			l[k++] = &d->dev;
	}
	if (num)
		*num = (int)k;
	return l;
}

void ibv_free_device_list(struct ibv_device **list)
{
	free(list);
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return device->name;
}

static int fv_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
static int fv_req_notify_cq(struct ibv_cq *cq, int solicited_only);

static int fv_sock_open(struct fv_dev *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sz = 4 << 20;

	strcpy(sa.sun_path, d->sock);
	unlink(d->sock);
	d->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (d->fd < 0 || bind(d->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	setsockopt(d->fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	setsockopt(d->fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	return 0;
}

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	struct fv_dev *d = (struct fv_dev *)device;
	struct ibv_context *c;
	int rc;

	if (d->ctx || d->removed) {
		errno = d->ctx ? EBUSY : ENODEV;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->device = device;
	c->ops.poll_cq = fv_poll_cq;
	c->ops.req_notify_cq = fv_req_notify_cq;
	c->ops.post_send = fv_post_send;
	c->ops.post_recv = fv_post_recv;
	c->cmd_fd = -1;
	c->num_comp_vectors = 1;
	if ((rc = fv_sock_open(d)) || (rc = fv_async_open(d))) {
		if (d->fd >= 0)
			close(d->fd);
		d->fd = -1;
		fv_async_close(d, false);
		free(c);
		errno = -rc;
		return NULL;
	}
	c->async_fd = d->async_ep;
	d->ctx = c;
	d->nev = 0;
	d->next_qpn = FV_QPN_FIRST; /* a fresh "HCA": QPNs from the start (tests read them) */
	return c;
}

int ibv_close_device(struct ibv_context *c)
{
	struct fv_dev *d = fv_of(c);
	unsigned live = 0;

	for (unsigned i = 0; i < FV_MAX_QPS; i++)
		live += d->qps[i] != NULL;
	for (unsigned i = 0; i < 16; i++)
		live += d->mrs[i] != NULL;
	d->st.closes++;
	d->st.close_live += live + d->st.ah_live;
	close(d->fd);
	unlink(d->sock);
	fv_async_close(d, d->removed);
	d->fd = -1;
	d->ctx = NULL;
	free(c);
	return 0;
}

#undef ibv_query_port
int ibv_query_port(struct ibv_context *c, uint8_t port, struct _compat_ibv_port_attr *out)
{
	struct fv_dev *d = fv_of(c);
	struct ibv_port_attr *a = (struct ibv_port_attr *)out;

	if (port != 1)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	a->state = d->state;
	a->max_mtu = IBV_MTU_4096;
	a->active_mtu = d->cfg.mtu;
	a->gid_tbl_len = d->cfg.roce ? FAKE_VERBS_ROCE_NGIDS : 1;
	a->pkey_tbl_len = 1;
	a->lid = fv_lid(d);
	a->lmc = d->cfg.lmc;
	a->sm_lid = d->cfg.sm_lid;
	a->max_msg_sz = 1u << 31;
	a->link_layer = d->cfg.roce ? IBV_LINK_LAYER_ETHERNET : IBV_LINK_LAYER_INFINIBAND;
	return 0;
}

/* The limits of a small HCA: one port, what FV_MAX_QPS and the fake's tables hold. */
int ibv_query_device(struct ibv_context *c, struct ibv_device_attr *a)
{
	(void)c;
	memset(a, 0, sizeof(*a));
	snprintf(a->fw_ver, sizeof(a->fw_ver), "fake-1.0");
	a->phys_port_cnt = 1;
	a->max_qp = FV_MAX_QPS;
	a->max_qp_wr = 16384;
	a->max_cq = 64;
	a->max_cqe = 65536;
	a->max_mr = 16;
	a->max_ah = 65536;
	a->max_mr_size = 1ull << 40;
	a->max_pd = 16;
	return 0;
}

int ibv_query_gid(struct ibv_context *c, uint8_t port, int index, union ibv_gid *gid)
{
	struct ibv_gid_entry e;

	if (port != 1 || index < 0 || !fv_gid_entry(fv_of(c), (uint32_t)index, &e))
		return -1;
	*gid = e.gid;
	return 0;
}

/* The port's GID table (fv_gid_entry): one GID of type IB, or a RoCE port's three. */
int _ibv_query_gid_ex(struct ibv_context *c, uint32_t port, uint32_t index, struct ibv_gid_entry *e,
		      uint32_t flags, size_t size)
{
	if (port != 1 || flags || size < sizeof(*e) || !fv_gid_entry(fv_of(c), index, e))
		return EINVAL;
	return 0;
}

int ibv_query_pkey(struct ibv_context *c, uint8_t port, int index, __be16 *pkey)
{
	if (port != 1 || index != 0)
		return -1;
	*pkey = htobe16(fv_of(c)->cfg.pkey);
	return 0;
}

int ibv_get_async_event(struct ibv_context *c, struct ibv_async_event *ev)
{
	struct fv_dev *d = fv_of(c);
	char b;

	fv_ctl_drain(d);
	if (read(d->evpipe[0], &b, 1) != 1 || !d->nev) {
		errno = EAGAIN;
		return -1;
	}
	*ev = d->ev[0];
	memmove(d->ev, d->ev + 1, --d->nev * sizeof(d->ev[0]));
	return 0;
}

void ibv_ack_async_event(struct ibv_async_event *ev)
{
	(void)ev;
}

/* ---- PD, MR, AH ---- */

struct ibv_pd *ibv_alloc_pd(struct ibv_context *c)
{
	struct ibv_pd *pd = calloc(1, sizeof(*pd));

	if (pd)
		pd->context = c;
	return pd;
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	free(pd);
	return 0;
}

#undef ibv_reg_mr
struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t len, int access)
{
	struct fv_dev *d = fv_of(pd->context);
	struct ibv_mr *mr;
	unsigned i;

	(void)access;
	for (i = 0; i < 16 && d->mrs[i]; i++)
		;
	if (i == 16 || !(mr = calloc(1, sizeof(*mr)))) {
		errno = ENOMEM;
		return NULL;
	}
	mr->context = pd->context;
	mr->pd = pd;
	mr->addr = addr;
	mr->length = len;
	mr->lkey = mr->rkey = 0x1000 + i;
	d->mrs[i] = mr;
	return mr;
}

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				unsigned int access)
{
	(void)iova;
	return ibv_reg_mr(pd, addr, len, (int)access);
}

int ibv_dereg_mr(struct ibv_mr *mr)
{
	struct fv_dev *d = fv_of(mr->context);

	for (unsigned i = 0; i < 16; i++)
		if (d->mrs[i] == mr)
			d->mrs[i] = NULL;
	free(mr);
	return 0;
}

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct fv_dev *d = fv_of(pd->context);
	struct fv_ah *a;

	if (d->cfg.roce && (errno = fv_roce_ah_check(d, attr)))
		return NULL;
	if (!(a = calloc(1, sizeof(*a))))
		return NULL;
	a->ah.context = pd->context;
	a->ah.pd = pd;
	a->attr = *attr;
	d->st.ah_created++;
	d->st.ah_live++;
	return &a->ah;
}

int ibv_destroy_ah(struct ibv_ah *ah)
{
	struct fv_ah *a = (struct fv_ah *)ah;

	fv_of(ah->context)->st.ah_live--;
	if (a->refs) {
		/* an HCA would send the held WQEs with a freed AH: count it, keep it */
		fv_of(ah->context)->st.ah_busy_destroy++;
		a->dead = true;
		return 0;
	}
	free(a);
	return 0;
}

void fv_sq_retire(struct fv_qp *q, unsigned n)
{
	for (; n && q->sq_out; n--, q->sq_out--) {
		struct fv_ah *a = q->sq_ah[q->sq_first];

		q->sq_ah[q->sq_first] = NULL;
		q->sq_first = (q->sq_first + 1) % q->sq_size;
		if (a && !--a->refs && a->dead)
			free(a);
	}
}

/* ---- CQs and completion channels ---- */

/*
 * The channel's fd is an epoll set holding the device's socket: readable
 * when the wire has packets for the "HCA", which ibv_poll_cq then delivers.
 */
struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *c)
{
	struct ibv_comp_channel *ch = calloc(1, sizeof(*ch));
	struct epoll_event ev = { .events = EPOLLIN };

	if (!ch)
		return NULL;
	ch->context = c;
	ch->fd = epoll_create1(EPOLL_CLOEXEC);
	if (ch->fd < 0 || epoll_ctl(ch->fd, EPOLL_CTL_ADD, fv_of(c)->fd, &ev) < 0) {
		if (ch->fd >= 0)
			close(ch->fd);
		free(ch);
		return NULL;
	}
	return ch;
}

int ibv_destroy_comp_channel(struct ibv_comp_channel *ch)
{
	close(ch->fd);
	free(ch);
	return 0;
}

struct ibv_cq *ibv_create_cq(struct ibv_context *c, int cqe, void *cq_context,
			     struct ibv_comp_channel *ch, int comp_vector)
{
	struct fv_cq *q = calloc(1, sizeof(*q));

	(void)comp_vector;
	if (!q || cqe <= 0 || !(q->ring = calloc((size_t)cqe, sizeof(*q->ring)))) {
		free(q);
		errno = EINVAL;
		return NULL;
	}
	q->size = (unsigned)cqe;
	q->cq.context = c;
	q->cq.channel = ch;
	q->cq.cq_context = cq_context;
	q->cq.cqe = cqe;
	return &q->cq;
}

int ibv_destroy_cq(struct ibv_cq *cq)
{
	struct fv_cq *q = (struct fv_cq *)cq;

	free(q->ring);
	free(q);
	return 0;
}

static int fv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	(void)solicited_only;
	((struct fv_cq *)cq)->armed = true;
	fv_of(cq->context)->st.cq_arms++;
	return 0;
}

/* An event for the first armed CQ of the channel with work: completions, or the wire. */
int ibv_get_cq_event(struct ibv_comp_channel *ch, struct ibv_cq **cq, void **cq_context)
{
	struct fv_dev *d = fv_of(ch->context);
	struct pollfd pfd = { .fd = d->fd, .events = POLLIN };
	bool wire = poll(&pfd, 1, 0) == 1;

	for (unsigned i = 0; i < FV_MAX_QPS; i++) {
		struct fv_cq *q = d->qps[i] ? (struct fv_cq *)d->qps[i]->qp.recv_cq : NULL;

		if (q && q->cq.channel == ch && q->armed && (wire || q->count)) {
			q->armed = false;
			*cq = &q->cq;
			*cq_context = q->cq.cq_context;
			return 0;
		}
	}
	errno = EAGAIN;
	return -1;
}

void ibv_ack_cq_events(struct ibv_cq *cq, unsigned int nevents)
{
	(void)cq;
	(void)nevents;
}

bool fv_cq_push(struct fv_dev *d, struct fv_cq *q, const struct fv_cqe *e)
{
	if (q->count == q->size) {
		d->st.cq_overrun++;
		return false;
	}
	q->ring[(q->head + q->count++) % q->size] = *e;
	return true;
}

static int fv_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc)
{
	struct fv_cq *q = (struct fv_cq *)cq;
	int got = 0;

	fv_wire_pump(fv_of(cq->context));
	while (got < n && q->count) {
		struct fv_cqe *e = &q->ring[q->head];

		wc[got++] = e->wc;
		if (e->qp)
			fv_sq_retire(e->qp, e->retire); /* polled: the WQEs are free again */
		q->head = (q->head + 1) % q->size;
		q->count--;
	}
	return got;
}
