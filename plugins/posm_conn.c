/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_conn.c - the plugin's thread: one connection per ibrouterd (option
 * socket=, up to POSM_SOCK_MAX routers), all non-blocking under one poll().
 *
 *  - connect, send "plugin hello 1" (ibrouterctl's framing), read the
 *    daemon's JSON reply; an error reply (osm-plugin off, wrong uid) is
 *    logged as the daemon worded it and retried slowly;
 *  - once up: our HELLO, a full snapshot, then what report() queued, each
 *    message numbered for this connection; STATS every STATS_S seconds;
 *  - the daemon's ROUTES (a MORE chain is one set) replace that daemon's
 *    routes; all daemons' sets merge into the wanted prefix routes, with
 *    what the routers' ServiceRecords announce for router ports that no
 *    connected daemon names (posm_sr.c, read here every records= seconds)
 *    (posm_osm.c puts them into OpenSM);
 *  - the daemon's MCAST: its router port's joins and leaves, made in
 *    OpenSM (posm_mcast.c); the groups' state then goes to every daemon;
 *  - every watch_s seconds, the groups whose members changed without a
 *    trap (posm_watch.c) go to every daemon;
 *  - a daemon that goes away: its queue is dropped, reconnects back off
 *    from 1 s to 30 s, its routes stay hold_s seconds;
 *  - a daemon that stops reading: sends stop at EAGAIN, its queue fills,
 *    further batches are dropped and counted, and it gets a full snapshot
 *    once it drains;
 *  - a daemon that answers STATS with ALIVE (every daemon since ALIVE came)
 *    and then sends nothing for alive_s seconds is stuck (stopped, hung):
 *    it is taken as gone, as if it had closed, so that another router's
 *    routes take over; it is reconnected to as one that went away.
 * Nothing here ever waits on OpenSM but its lock, held as reader for the
 * copy of a snapshot: what a daemon sent meanwhile is read before the
 * timers look at its silence.
 */
#include "plugins/posm_osm.h"

#include "lib/ibr_ctl.h"
#include "lib/ibr_pkt.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define STATS_S	       2
#define BACKOFF_MIN_MS 1000
#define BACKOFF_MAX_MS 30000
#define REFUSED_MS     30000 /* after the daemon said no */
#define DROP_LOG_NS    (10 * 1000000000ull)
#define HELLO_NS       (10 * 1000000000ull) /* a daemon that accepts but never answers */
#define RECV_BURST     64

static const char *const conn_state_name[] = { "down", "hello", "up" };

/* ---- the wanted routes: every daemon's set, merged ---- */

static bool conn_routes_same(const struct posm_route *a, size_t na, const struct posm_route *b,
			     size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].prefix != b[i].prefix || a[i].guid != b[i].guid ||
		    a[i].metric != b[i].metric || a[i].any != b[i].any || a[i].held != b[i].held)
			return false;
	return true;
}

void posm_routes_merge(struct posm *p)
{
	struct posm_route *sock = NULL, *v;
	size_t n = 0;

	for (unsigned i = 0; i < p->nconn; i++)
		n += p->conn[i].nroutes;
	if (n && !(sock = malloc(n * sizeof(*sock)))) {
		posm_log(p, 0, "out of memory merging prefix routes: keeping the old ones");
		return;
	}
	n = 0;
	for (unsigned i = 0; i < p->nconn; i++) {
		if (!p->conn[i].nroutes)
			continue;
		memcpy(sock + n, p->conn[i].routes, p->conn[i].nroutes * sizeof(*sock));
		/* a daemon away: its routes only where no connected one has the prefix */
		for (size_t k = 0; k < p->conn[i].nroutes; k++)
			sock[n + k].held = p->conn[i].state != POSM_UP;
		n += p->conn[i].nroutes;
	}
	/* the routers' records (posm_sr.c) for the router ports no connected daemon names */
	n = posm_rec_merge(sock, n, p->recs.routes, p->recs.nroutes, &v);
	free(sock);
	if (n == SIZE_MAX) {
		posm_log(p, 0, "out of memory merging prefix routes: keeping the old ones");
		return;
	}
	pthread_mutex_lock(&p->route_lock);
	if (conn_routes_same(v, n, p->want, p->nwant)) {
		pthread_mutex_unlock(&p->route_lock);
		free(v); /* the same set again (a reconnect, a resend): nothing to do */
		return;
	}
	free(p->want);
	p->want = v;
	p->nwant = n;
	p->want_gen++;
	pthread_mutex_unlock(&p->route_lock);
	posm_osm_routes_changed(p);
}

/* ---- connection life ---- */

static void conn_down(struct posm *p, struct posm_conn *c, const char *why, int err)
{
	uint64_t now = posm_now_ns();
	bool was_up;

	if (c->state == POSM_UP)
		posm_log(p, 0,
			 "ibrouterd at %s went away (%s%s%s): reconnecting; its %zu routes "
			 "stay %u s",
			 c->path, why, err ? ": " : "", err ? strerror(err) : "", c->nroutes,
			 p->o.hold_s);
	else if (c->state == POSM_HELLO)
		posm_log(p, 1, "ibrouterd at %s: %s%s%s", c->path, why, err ? ": " : "",
			 err ? strerror(err) : "");
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->state == POSM_UP)
		c->down_ns = now ? now : 1;
	was_up = c->state == POSM_UP;
	c->state = POSM_DOWN;
	posm_queue_clear(&c->q);
	c->off = 0;
	free(c->staging);
	c->staging = NULL;
	c->nstaging = 0;
	c->retry_ns = now + (uint64_t)c->backoff_ms * 1000000u;
	c->backoff_ms = c->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : c->backoff_ms * 2;
	/* its routes now held: another daemon's for the same prefixes take over at once */
	if (was_up && c->nroutes)
		posm_routes_merge(p);
}

static void conn_try(struct posm *p, struct posm_conn *c)
{
	static const char hello[] = "plugin hello 1";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	c->retry_ns = posm_now_ns() + (uint64_t)c->backoff_ms * 1000000u;
	if (fd < 0)
		return;
	/* a small buffer: the bounded queue, not the kernel, holds what a slow daemon owes */
	if (p->o.sndbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &p->o.sndbuf, sizeof(p->o.sndbuf)) < 0)
		posm_log(p, 2, "sndbuf=%u: %s", p->o.sndbuf, strerror(errno));
	memcpy(sa.sun_path, c->path, strlen(c->path) + 1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    send(fd, hello, sizeof(hello) - 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		int e = errno;

		close(fd);
		if (c->backoff_ms == BACKOFF_MIN_MS)
			posm_log(p, 2, "ibrouterd at %s: not reachable (%s): retrying", c->path,
				 strerror(e));
		c->backoff_ms = c->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
								   : c->backoff_ms * 2;
		return;
	}
	c->fd = fd;
	c->state = POSM_HELLO;
	c->hello_ns = posm_now_ns();
}

/* A batch of this connection's own (HELLO, STATS), queued behind what waits. */
static void conn_push_own(struct posm *p, struct posm_conn *c, struct posm_bbuf *b)
{
	struct posm_batch *x = posm_bbuf_batch(b, false);

	if (x && posm_queue_push(&c->q, x))
		c->dropped += x->nmsgs;
	posm_batch_unref(x);
	(void)p;
}

static void conn_up(struct posm *p, struct posm_conn *c, const struct ibr_ctl_reply *r)
{
	struct posm_bbuf b = { 0 };
	const char *n = r->data ? memmem(r->data, r->data_len, "\"name\":\"", 8) : NULL;
	size_t i = 0;

	c->router[0] = '\0';
	if (n)
		for (n += 8; i + 1 < sizeof(c->router) && n < r->data + r->data_len && *n != '"';
		     n++)
			c->router[i++] = *n >= 0x20 && *n < 0x7F ? *n : '?';
	c->router[i] = '\0';
	c->state = POSM_UP;
	c->backoff_ms = BACKOFF_MIN_MS;
	c->down_ns = 0;
	c->rx_ns = posm_now_ns();
	c->alive = false; /* until this daemon shows it answers */
	c->connects++;
	c->seq = 0;
	c->want_snap = true;
	if (posm_snap_hello(p, &b, NULL) == 0)
		conn_push_own(p, c, &b);
	posm_bbuf_free(&b);
	/* stats at once, not at the next tick: its ALIVE says now whether its silence counts */
	if (posm_snap_stats(p, c, &b, NULL) == 0)
		conn_push_own(p, c, &b);
	posm_bbuf_free(&b);
	posm_log(p, 1, "connected to ibrouterd \"%s\" at %s", c->router, c->path);
	if (c->nroutes) /* what it had, back from held until its next set */
		posm_routes_merge(p);
}

/* The daemon's answer to "plugin hello". */
static void conn_hello_reply(struct posm *p, struct posm_conn *c)
{
	static char buf[IBR_CTL_PART_MAX + 1];
	struct ibr_ctl_reply r;
	ssize_t n = recv(c->fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		conn_down(p, c, "closed before its answer", n < 0 ? errno : 0);
		return;
	}
	if (ibr_ctl_reply_parse(buf, (size_t)n, &r)) {
		conn_down(p, c, "unreadable answer to the hello", 0);
		return;
	}
	if (!r.ok) {
		posm_log(p, 0, "ibrouterd at %s refused the plugin: %s (%s); retrying in %d s",
			 c->path, r.msg ? r.msg : "no reason given", r.error, REFUSED_MS / 1000);
		ibr_ctl_reply_free(&r);
		c->state = POSM_DOWN; /* quietly: the line above said it */
		conn_down(p, c, "refused", 0);
		c->retry_ns = posm_now_ns() + REFUSED_MS * 1000000ull;
		return;
	}
	conn_up(p, c, &r);
	ibr_ctl_reply_free(&r);
}

/* ---- routes from the daemon ---- */

static void conn_routes(struct posm *p, struct posm_conn *c, const struct ibr_plug_msg *m)
{
	if (!c->staging_bad && c->nstaging + m->count <= POSM_ROUTES_MAX) {
		struct posm_route *v = realloc(c->staging,
					       (c->nstaging + m->count + 1) * sizeof(*v));

		if (!v) {
			c->staging_bad = true;
		} else {
			c->staging = v;
			for (unsigned i = 0; i < m->count; i++) {
				struct ibr_plug_route r;
				bool served = p->o.nserve == 0;

				ibr_plug_route_get(m->recs + m->recsz * i, &r);
				for (unsigned j = 0; j < p->o.nserve && !served; j++)
					served = p->o.serve[j] == r.guid;
				if (!served || !r.guid)
					continue;
				v[c->nstaging++] = (struct posm_route){
					.prefix = r.flags & IBR_PLUG_ROUTE_ANY ? 0 : r.prefix,
					.guid = r.guid,
					.metric = r.metric,
					.any = (r.flags & IBR_PLUG_ROUTE_ANY) != 0,
				};
			}
		}
	} else {
		c->staging_bad = true;
	}
	if (m->flags & IBR_PLUG_F_MORE)
		return;
	if (c->staging_bad) {
		posm_log(p, 0, "ibrouterd at %s: prefix route set too large: ignored", c->path);
	} else {
		free(c->routes);
		c->routes = c->staging;
		c->nroutes = c->nstaging;
		c->staging = NULL;
		posm_log(p, 2, "ibrouterd at %s: %zu prefix routes", c->path, c->nroutes);
		posm_routes_merge(p);
	}
	free(c->staging);
	c->staging = NULL;
	c->nstaging = 0;
	c->staging_bad = false;
}

/* ---- the router port's joins (posm_mcast.c) ---- */

/*
 * The groups' state after the joins goes to every daemon through the
 * inbox, behind the trap deltas that OpenSM reported to report() during
 * them (on this thread): each daemon gets the traps first, then the state.
 */
static void conn_mcast(struct posm *p, struct posm_conn *c, const struct ibr_plug_msg *m)
{
	struct posm_bbuf b = { 0 };
	int rc = posm_mcast_apply(p, c, m, &b);

	posm_inbox_put(p, &b, false, rc);
	posm_bbuf_free(&b);
}

/*
 * What changed in the groups without a trap (posm_watch.c) goes through
 * the inbox too, behind the trap deltas reported before the pass: each
 * daemon gets the traps' deltas and the watch's in the order they were
 * taken.
 */
static void conn_watch(struct posm *p, uint64_t now)
{
	struct posm_bbuf b = { 0 };

	if (posm_watch_pass(p, now, &b))
		for (unsigned i = 0; i < p->nconn; i++)
			p->conn[i].want_snap = true;
	else
		posm_inbox_put(p, &b, false, 0);
	posm_bbuf_free(&b);
}

static void conn_recv(struct posm *p, struct posm_conn *c)
{
	static uint8_t buf[IBR_PLUG_MSG_MAX + 1];

	for (int i = 0; i < RECV_BURST && c->state == POSM_UP; i++) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);
		struct ibr_plug_msg m;
		int rc;

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			conn_down(p, c, "connection closed", n < 0 ? errno : 0);
			return;
		}
		rc = (size_t)n > IBR_PLUG_MSG_MAX ? -EMSGSIZE : ibr_plug_parse(buf, (size_t)n, &m);
		if (rc) {
			conn_down(p, c, "bad message", -rc);
			return;
		}
		c->rx_ns = posm_now_ns();
		if (m.known && m.type == IBR_PLUG_ALIVE) {
			if (!c->alive)
				posm_log(p, 2, "ibrouterd at %s answers the heartbeat", c->path);
			c->alive = true;
		} else if (m.known && m.type == IBR_PLUG_ROUTES)
			conn_routes(p, c, &m);
		else if (m.known && m.type == IBR_PLUG_MCAST)
			conn_mcast(p, c, &m);
	}
}

/* ---- sending ---- */

/* What the socket takes of the queue; false when the connection failed. */
static bool conn_flush(struct posm *p, struct posm_conn *c)
{
	static uint8_t msg[IBR_PLUG_MSG_MAX];
	struct posm_batch *b;

	while ((b = posm_queue_peek(&c->q))) {
		size_t len = posm_batch_msg_len(b, c->off);

		if (!len) { /* the end of this batch */
			posm_queue_pop(&c->q);
			c->off = 0;
			continue;
		}
		memcpy(msg, b->data + c->off, len);
		ibr_be32_put(msg + 12, c->seq); /* batches are shared: numbered per connection */
		if (send(c->fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return true;
			conn_down(p, c, "send", errno);
			return false;
		}
		c->seq++;
		c->sent++;
		c->off += len;
	}
	return true;
}

/* Queue a batch for one connection, or count it dropped. */
static void conn_offer(struct posm *p, struct posm_conn *c, struct posm_batch *b)
{
	uint64_t now;

	if (c->state != POSM_UP) {
		c->dropped += b->nmsgs; /* no daemon: it gets a snapshot when it comes */
		return;
	}
	if (c->want_snap && !b->snapshot)
		return; /* a fresh snapshot is owed anyway and will hold this change */
	if (posm_queue_push(&c->q, b) == 0) {
		c->enqueued += b->nmsgs;
		if (b->snapshot) {
			c->want_snap = false;
			c->snapshots++;
		}
		return;
	}
	c->dropped += b->nmsgs;
	c->seq += b->nmsgs; /* the daemon sees the gap */
	c->want_snap = true;
	now = posm_now_ns();
	if (!c->drop_log_ns || now - c->drop_log_ns >= DROP_LOG_NS) {
		posm_log(p, 0,
			 "ibrouterd at %s does not keep up: its queue is full (%u batches), %llu "
			 "messages dropped so far; it gets a full snapshot once it drains",
			 c->path, c->q.cap, (unsigned long long)c->dropped);
		c->drop_log_ns = now;
	}
}

/* ---- the loop ---- */

static void conn_drain_inbox(struct posm *p)
{
	struct posm_batch *b;
	uint64_t v;

	if (read(p->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		posm_log(p, 3, "eventfd read: %s", strerror(errno));
	for (;;) {
		pthread_mutex_lock(&p->qlock);
		b = posm_queue_peek(&p->inbox);
		if (b)
			posm_batch_ref(b), posm_queue_pop(&p->inbox);
		pthread_mutex_unlock(&p->qlock);
		if (!b)
			break;
		for (unsigned i = 0; i < p->nconn; i++)
			conn_offer(p, &p->conn[i], b);
		posm_batch_unref(b);
	}
	if (atomic_exchange(&p->snap_wanted, false))
		for (unsigned i = 0; i < p->nconn; i++)
			p->conn[i].want_snap = true;
}

/* A snapshot for every connection that is owed one and has room for it. */
static void conn_snapshots(struct posm *p)
{
	struct posm_bbuf b = { 0 };
	struct posm_batch *x;
	bool need = false;
	int rc;

	for (unsigned i = 0; i < p->nconn; i++) {
		struct posm_conn *c = &p->conn[i];

		need |= c->state == POSM_UP && c->want_snap && c->q.n < c->q.cap;
	}
	if (!need)
		return;
	cl_plock_acquire(&p->osm->lock);
	rc = posm_snap_take(p, &b);
	cl_plock_release(&p->osm->lock);
	x = rc ? NULL : posm_bbuf_batch(&b, true);
	posm_bbuf_free(&b);
	if (!x) {
		posm_log(p, 0, "cannot take a snapshot: out of memory");
		return;
	}
	for (unsigned i = 0; i < p->nconn; i++) {
		struct posm_conn *c = &p->conn[i];

		if (c->state == POSM_UP && c->want_snap && c->q.n < c->q.cap)
			conn_offer(p, c, x);
	}
	posm_batch_unref(x);
}

static void conn_timers(struct posm *p, uint64_t now)
{
	bool held = false;

	if (now >= p->next_stats_ns) {
		p->next_stats_ns = now + STATS_S * 1000000000ull;
		for (unsigned i = 0; i < p->nconn; i++) {
			struct posm_conn *c = &p->conn[i];
			struct posm_bbuf b = { 0 };

			if (c->state == POSM_UP && c->q.n < c->q.cap &&
			    posm_snap_stats(p, c, &b, NULL) == 0)
				conn_push_own(p, c, &b);
			posm_bbuf_free(&b);
		}
	}
	if (p->o.refresh_s && now >= p->next_refresh_ns) {
		p->next_refresh_ns = now + p->o.refresh_s * 1000000000ull;
		for (unsigned i = 0; i < p->nconn; i++)
			p->conn[i].want_snap = true;
	}
	for (unsigned i = 0; i < p->nconn; i++) {
		struct posm_conn *c = &p->conn[i];

		if (c->state == POSM_DOWN && now >= c->retry_ns)
			conn_try(p, c);
		else if (c->state == POSM_HELLO && now - c->hello_ns >= HELLO_NS)
			conn_down(p, c, "no answer to the hello", ETIMEDOUT);
		else if (c->state == POSM_UP && c->alive && p->o.alive_s &&
			 now - c->rx_ns >= p->o.alive_s * 1000000000ull) {
			char why[64];

			snprintf(why, sizeof(why), "nothing heard for %u s: stopped or stuck",
				 p->o.alive_s);
			conn_down(p, c, why, 0);
		}
		if (c->state != POSM_UP && c->down_ns && c->nroutes &&
		    now - c->down_ns >= p->o.hold_s * 1000000000ull) {
			posm_log(p, 1, "ibrouterd at %s: away for %u s: its %zu routes withdrawn",
				 c->path, p->o.hold_s, c->nroutes);
			free(c->routes);
			c->routes = NULL;
			c->nroutes = 0;
			held = true;
		}
	}
	if (held)
		posm_routes_merge(p);
	posm_osm_tick(p, now);
	posm_sr_tick(p, now);
	/* after the connections: one that came up gets the watch's seed before its snapshot */
	conn_watch(p, now);
}

static void *conn_main(void *arg)
{
	struct posm *p = arg;

	while (!atomic_load(&p->stop)) {
		struct pollfd pf[POSM_SOCK_MAX + 1] = { { .fd = p->efd, .events = POLLIN } };
		struct posm_conn *map[POSM_SOCK_MAX + 1] = { NULL };
		nfds_t n = 1;

		for (unsigned i = 0; i < p->nconn; i++) {
			struct posm_conn *c = &p->conn[i];

			if (c->fd < 0)
				continue;
			pf[n].fd = c->fd;
			pf[n].events = POLLIN | (c->q.n ? POLLOUT : 0);
			map[n++] = c;
		}
		if (poll(pf, n, 200) < 0 && errno != EINTR)
			posm_log(p, 0, "poll: %s", strerror(errno));
		if (atomic_load(&p->stop))
			break;
		if (pf[0].revents)
			conn_drain_inbox(p);
		for (nfds_t i = 1; i < n; i++) {
			struct posm_conn *c = map[i];

			if (!pf[i].revents || c->fd < 0)
				continue;
			if (c->state == POSM_HELLO)
				conn_hello_reply(p, c);
			else if (pf[i].revents & (POLLIN | POLLHUP | POLLERR))
				conn_recv(p, c);
		}
		conn_timers(p, posm_now_ns());
		conn_snapshots(p);
		for (unsigned i = 0; i < p->nconn; i++)
			if (p->conn[i].state == POSM_UP)
				conn_flush(p, &p->conn[i]);
	}
	return NULL;
}

void posm_wake(struct posm *p)
{
	uint64_t one = 1;

	if (write(p->efd, &one, sizeof(one)) < 0) {
		/* EAGAIN: the counter is full, the thread is awake anyway */
	}
}

void posm_inbox_put(struct posm *p, struct posm_bbuf *b, bool snapshot, int rc)
{
	struct posm_batch *x;

	if (!rc && !b->len)
		return;
	if (!rc) {
		rc = -ENOMEM;
		if ((x = posm_bbuf_batch(b, snapshot))) {
			pthread_mutex_lock(&p->qlock);
			rc = posm_queue_push(&p->inbox, x);
			pthread_mutex_unlock(&p->qlock);
			posm_batch_unref(x);
		}
	}
	if (rc) { /* the daemons miss a state: a snapshot tells them all */
		atomic_fetch_add(&p->inbox_drops, 1);
		atomic_store(&p->snap_wanted, true);
	}
	posm_wake(p);
}

int posm_conn_start(struct posm *p)
{
	sigset_t all, old;
	int rc;

	p->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->efd < 0)
		return -errno;
	p->nconn = p->o.nsock;
	for (unsigned i = 0; i < p->nconn; i++) {
		struct posm_conn *c = &p->conn[i];

		snprintf(c->path, sizeof(c->path), "%s", p->o.sock[i]);
		c->fd = -1;
		c->backoff_ms = BACKOFF_MIN_MS;
		if ((rc = posm_queue_init(&c->q, p->o.queue)))
			return rc;
	}
	/* OpenSM's signals (HUP, TERM, ...) go to its own threads, not this one */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&p->thread, NULL, conn_main, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc)
		return -rc;
	p->started = true;
	return 0;
}

void posm_conn_stop(struct posm *p)
{
	if (p->started) {
		atomic_store(&p->stop, true);
		posm_wake(p);
		pthread_join(p->thread, NULL);
		p->started = false;
	}
	for (unsigned i = 0; i < p->nconn; i++) {
		struct posm_conn *c = &p->conn[i];

		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		posm_queue_free(&c->q);
		free(c->routes);
		free(c->staging);
		c->routes = c->staging = NULL;
		posm_log(p, 2, "ibrouterd at %s: %s, %llu messages sent, %llu dropped", c->path,
			 conn_state_name[c->state], (unsigned long long)c->sent,
			 (unsigned long long)c->dropped);
	}
	if (p->efd >= 0)
		close(p->efd);
	p->efd = -1;
}
