/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrouter-exporter - serves ibrouterd's counters and state to Prometheus
 * over HTTP, at /metrics (ibrouter-exporter(8)):
 *   ibrouter-exporter [-hV] [-l ADDRESS:PORT] [-s SOCKET]
 * A process beside the daemon, as bird_exporter is beside BIRD: the HTTP
 * server, which reads whatever a TCP peer sends, stays out of the router's
 * address space and privileges; it needs only to connect to the control
 * socket.  Each scrape asks the daemon afresh (no cache).
 *
 * libmicrohttpd reads the requests and writes the answers; this file runs
 * it from its own loop (MHD_USE_EPOLL without MHD_USE_INTERNAL_POLLING_THREAD:
 * poll() on the listening socket, libmicrohttpd's epoll descriptor and the
 * sockets being drained), not on libmicrohttpd's thread, because:
 * - at its connection limit libmicrohttpd closes a new connection unanswered
 *   (a reset when its request is already in); accepting here, the one past
 *   EXP_CLIENTS is answered 503 and drained instead (MHD_add_connection for
 *   the others);
 * - libmicrohttpd shuts a connection's write side after its answer (or its
 *   own refusal: 400, 431, 505) and then closes it, unread input or not:
 *   the kernel sends a reset, which can cost a client still sending (or
 *   not yet reading) its answer (RFC 9112, 9.6); each closed socket is
 *   kept here (a duplicate) and drained for up to EXP_LINGER_MS first;
 * - its timeout is one of inactivity: a client sending a byte every few
 *   seconds would keep its slot; the deadline for a whole request is kept
 *   here;
 * - one thread, as before: the scrape's blocking reads and exp_body need no
 *   lock, and a scrape holds the other connections for its length only.
 */
#include "tools/exporter_http.h"
#include "tools/exporter_scrape.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#define EXP_LISTEN_DEFAULT "127.0.0.1:9731"
#define EXP_SOCK_DEFAULT   "/run/ibrouter/ibrouterd.sock"
#define EXP_CTYPE	   "text/plain; version=0.0.4; charset=utf-8"
#define EXP_CTL_TIMEOUT_S  3 /* each command's answer from the daemon */
#define EXP_CLIENTS	   16
/* for a whole request; then, as libmicrohttpd's idle timeout, for its answer */
#define EXP_DEADLINE_S 10
/* how long a closed connection's client may still send: drained, then closed */
#define EXP_LINGER_MS 2000
#define EXP_LINGERS   (2 * EXP_CLIENTS) /* sockets being drained; more: the oldest closes */
/* request line and headers, in a handful of fields; more: 431 */
#define EXP_HEAD_MAX 8192
/*
 * libmicrohttpd's memory per connection (MHD_OPTION_CONNECTION_MEMORY_LIMIT):
 * it reads the request line and headers into it, beside an index of 64
 * bytes a field, and writes the answer's header block there; what does not
 * fit is answered 431.  Measured with libmicrohttpd 0.9.75: a head of
 * EXP_HEAD_MAX bytes in up to 9 fields fits (Prometheus sends 5), one of
 * 9000 bytes in any number does not; sim_exporter.sh checks both.
 */
#define EXP_CONN_MEMORY (EXP_HEAD_MAX + 768)

/* the answer when every slot is taken, written before libmicrohttpd has the socket */
#define EXP_BUSY_BODY "503 Service Unavailable\n"
static const char exp_busy_msg[] = "HTTP/1.1 503 Service Unavailable\r\n"
				   "Content-Type: text/plain; charset=utf-8\r\n"
				   "Content-Length: 24\r\nConnection: close\r\n\r\n" EXP_BUSY_BODY;
_Static_assert(sizeof(EXP_BUSY_BODY) - 1 == 24, "the 503's Content-Length");

struct exp_conn {
	struct MHD_Connection *c; /* NULL: a free slot */
	int fd;			  /* libmicrohttpd's */
	int64_t deadline;	  /* its request whole by then (ms, monotonic); 0 once it is */
};

struct exp_linger {
	int fd; /* ours, write side shut; -1: a free entry */
	int64_t until;
};

static volatile sig_atomic_t exp_stop;
static struct exp_conn exp_cl[EXP_CLIENTS];
static unsigned exp_nconn;
static struct exp_linger exp_lg[EXP_LINGERS];
static struct exporter_body exp_body;
static const char *exp_sock;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ibrouter-exporter [-hV] [-l ADDRESS:PORT] [-s SOCKET]\n"
		"  -l ADDRESS:PORT  listen there for Prometheus (default %s;\n"
		"                   [::1]:PORT for IPv6, PORT 0: any free port)\n"
		"  -s SOCKET        ibrouterd's control socket (default $IBROUTERD_SOCKET, "
		"else %s)\n"
		"  -h, --help       this text\n"
		"  -V, --version    the version\n",
		EXP_LISTEN_DEFAULT, EXP_SOCK_DEFAULT);
}

static void on_signal(int sig)
{
	(void)sig;
	exp_stop = 1;
}

/* A listening TCP socket at "HOST:PORT" or "[V6]:PORT"; -1 after saying why. */
static int exp_listen(const char *spec, char *bound, size_t blen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST },
			*ai;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char host[256], port[16], h[64], p[16];
	const char *colon = strrchr(spec, ':');
	size_t hl;
	int fd, one = 1, rc;

	hl = colon ? (size_t)(colon - spec) : 0;
	if (!colon || hl >= sizeof(host) || strlen(colon + 1) >= sizeof(port) || !colon[1]) {
		fprintf(stderr, "ibrouter-exporter: -l %s: not ADDRESS:PORT\n", spec);
		return -2;
	}
	memcpy(host, spec, hl);
	host[hl] = '\0';
	if (hl >= 2 && host[0] == '[' && host[hl - 1] == ']') {
		memmove(host, host + 1, hl - 2);
		host[hl - 2] = '\0';
	}
	strcpy(port, colon + 1);
	if ((rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai))) {
		fprintf(stderr, "ibrouter-exporter: -l %s: %s\n", spec, gai_strerror(rc));
		return -2;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
		fprintf(stderr, "ibrouter-exporter: %s: %s\n", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return -1;
	}
	freeaddrinfo(ai);
	if (!getsockname(fd, (struct sockaddr *)&ss, &sl) &&
	    !getnameinfo((struct sockaddr *)&ss, sl, h, sizeof(h), p, sizeof(p),
			 NI_NUMERICHOST | NI_NUMERICSERV))
		snprintf(bound, blen, strchr(h, ':') ? "[%s]:%s" : "%s:%s", h, p);
	else
		snprintf(bound, blen, "%s", spec);
	return fd;
}

static int64_t exp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Close fd once its client has stopped sending, or after EXP_LINGER_MS:
 * closing a socket with unread input sends a reset, which may destroy the
 * answer before the client has read it (RFC 9112, 9.6).
 */
static void exp_linger_add(int fd)
{
	struct exp_linger *l = &exp_lg[0];

	if (fd < 0)
		return;
	shutdown(fd, SHUT_WR);
	for (int i = 0; i < EXP_LINGERS; i++) {
		if (exp_lg[i].fd < 0) {
			l = &exp_lg[i];
			break;
		}
		if (exp_lg[i].until < l->until)
			l = &exp_lg[i];
	}
	if (l->fd >= 0) /* all draining: the one closest to its end goes first */
		close(l->fd);
	l->fd = fd;
	l->until = exp_now_ms() + EXP_LINGER_MS;
}

static void exp_linger_read(struct exp_linger *l)
{
	char buf[4096];

	/* a few reads a turn, so that a client that streams holds no other;
	 * what bounds it is EXP_LINGER_MS */
	for (int i = 0; i < 16; i++) {
		ssize_t n = recv(l->fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n > 0)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		close(l->fd); /* its end, or an error: nothing more to wait for */
		l->fd = -1;
		return;
	}
}

/* libmicrohttpd's news of a connection: a slot taken, or freed and its socket drained */
static void exp_notify(void *cls, struct MHD_Connection *c, void **ctx,
		       enum MHD_ConnectionNotificationCode toe)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
		c, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct exp_conn *slot = *ctx;

	if (!ci)
		return;
	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		for (int i = 0; i < EXP_CLIENTS; i++)
			if (!exp_cl[i].c) {
				exp_cl[i] = (struct exp_conn){
					c, ci->connect_fd, exp_now_ms() + EXP_DEADLINE_S * 1000
				};
				*ctx = &exp_cl[i];
				exp_nconn++;
				return;
			}
		return; /* not reached: libmicrohttpd's limit is EXP_CLIENTS too */
	}
	if (slot) {
		slot->c = NULL;
		exp_nconn--;
		*ctx = NULL;
	}
	/* libmicrohttpd closes its descriptor on return: a duplicate keeps the socket */
	exp_linger_add(fcntl(ci->connect_fd, F_DUPFD_CLOEXEC, 0));
}

static enum MHD_Result exp_answer(struct MHD_Connection *c, unsigned status, const char *ctype,
				  const char *body, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)body,
								 MHD_RESPMEM_MUST_COPY);
	enum MHD_Result rc;

	if (!r)
		return MHD_NO;
	/* one request a connection: its slot is free at once, and the deadline
	 * of a request never spans an idle keep-alive */
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, ctype) != MHD_YES ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close") != MHD_YES ||
	    (status == 405 &&
	     MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES)) {
		MHD_destroy_response(r);
		return MHD_NO;
	}
	rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

static enum MHD_Result exp_error(struct MHD_Connection *c, unsigned status)
{
	char msg[96];
	int n = snprintf(msg, sizeof(msg), "%u %s\n", status, MHD_get_reason_phrase_for(status));

	return exp_answer(c, status, "text/plain; charset=utf-8", msg, (size_t)n);
}

/* A request whose line and headers libmicrohttpd has read: answered at once */
static enum MHD_Result exp_request(void *cls, struct MHD_Connection *c, const char *url,
				   const char *method, const char *version, const char *upload,
				   size_t *upload_size, void **req)
{
	static const char landing[] =
		"<html><head><title>ibrouter exporter</title></head><body>\n"
		"<h1>ibrouter exporter</h1>\n<p><a href=\"/metrics\">Metrics</a></p>\n"
		"</body></html>\n";
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
		c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	struct exp_conn *slot = ci ? ci->socket_context : NULL;
	int page;

	if (*req) { /* answered on the first call: a body that follows is refused with it */
		*upload_size = 0;
		return MHD_YES;
	}
	*req = c;
	if (slot) /* whole in time: the idle timeout bounds the writes of its answer */
		slot->deadline = 0;
	page = exporter_http_route(
		method, url,
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH),
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING));
	if (page < 0)
		return exp_error(c, (unsigned)-page);
	if (page == EXPORTER_HTTP_INDEX) /* HEAD: libmicrohttpd leaves the body out */
		return exp_answer(c, 200, "text/html; charset=utf-8", landing, sizeof(landing) - 1);
	if (exporter_scrape_run(exp_sock, EXP_CTL_TIMEOUT_S, &exp_body))
		return exp_error(c, 503);
	return exp_answer(c, 200, EXP_CTYPE, exp_body.buf, exp_body.len);
}

/* Take the waiting connections: to libmicrohttpd, or, every slot taken, a 503 */
static void exp_accept(int lfd, struct MHD_Daemon *d)
{
	for (int i = 0; i < 64; i++) { /* a bounded batch: the loop turns to its clients */
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd < 0)
			return;
		if (exp_nconn >= EXP_CLIENTS) {
			/* say so at once rather than queue; a fresh socket's buffer holds
			 * it (a client gone already hears nothing, and needs nothing) */
			send(fd, exp_busy_msg, sizeof(exp_busy_msg) - 1,
			     MSG_DONTWAIT | MSG_NOSIGNAL);
			exp_linger_add(fd);
			continue;
		}
		MHD_add_connection(d, fd, (struct sockaddr *)&ss, sl); /* it closes fd on failure */
	}
}

/*
 * The deadlines at now: a request not whole in EXP_DEADLINE_S has its socket
 * shut, so that libmicrohttpd's next read ends it (unanswered, as its own
 * timeout does); a drain past its time is closed.  The earliest deadline
 * still ahead, or `next`.
 */
static int64_t exp_expire(int64_t now, int64_t next)
{
	for (int i = 0; i < EXP_CLIENTS; i++) {
		struct exp_conn *c = &exp_cl[i];

		if (!c->c || !c->deadline)
			continue;
		if (now >= c->deadline) {
			shutdown(c->fd, SHUT_RDWR);
			c->deadline = 0;
		} else if (c->deadline < next) {
			next = c->deadline;
		}
	}
	for (int i = 0; i < EXP_LINGERS; i++) {
		struct exp_linger *l = &exp_lg[i];

		if (l->fd < 0)
			continue;
		if (now >= l->until) {
			close(l->fd);
			l->fd = -1;
		} else if (l->until < next) {
			next = l->until;
		}
	}
	return next;
}

static int exp_loop(int lfd, struct MHD_Daemon *d)
{
	const union MHD_DaemonInfo *di = MHD_get_daemon_info(d, MHD_DAEMON_INFO_EPOLL_FD);
	struct pollfd pf[2 + EXP_LINGERS];
	int map[2 + EXP_LINGERS];

	if (!di) {
		fprintf(stderr, "ibrouter-exporter: libmicrohttpd has no epoll descriptor\n");
		return 1;
	}
	while (!exp_stop) {
		int64_t now = exp_now_ms(), next = exp_expire(now, now + 1000);
		MHD_UNSIGNED_LONG_LONG mt;
		int n = 2;

		if (MHD_get_timeout(d, &mt) == MHD_YES && (int64_t)mt < next - now)
			next = now + (int64_t)mt;
		pf[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		pf[1] = (struct pollfd){ .fd = di->epoll_fd, .events = POLLIN };
		for (int i = 0; i < EXP_LINGERS; i++)
			if (exp_lg[i].fd >= 0) {
				map[n] = i;
				pf[n++] = (struct pollfd){ .fd = exp_lg[i].fd, .events = POLLIN };
			}
		if (poll(pf, (nfds_t)n, (int)(next - now)) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ibrouter-exporter: poll: %s\n", strerror(errno));
			return 1;
		}
		for (int k = 2; k < n; k++)
			if (pf[k].revents)
				exp_linger_read(&exp_lg[map[k]]);
		/* every turn: its sockets' events, its timeouts, its closed connections */
		MHD_run(d);
		if (pf[0].revents & POLLIN)
			exp_accept(lfd, d);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *listen_at = EXP_LISTEN_DEFAULT;
	struct sigaction sa = { .sa_handler = on_signal };
	struct MHD_Daemon *d;
	char bound[128];
	int i, lfd, rc;

	exp_sock = getenv("IBROUTERD_SOCKET");
	if (!exp_sock)
		exp_sock = EXP_SOCK_DEFAULT;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l") && i + 1 < argc)
			listen_at = argv[++i];
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			exp_sock = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return usage(stdout), 0;
		else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
			return printf("ibrouter-exporter %s\n", PACKAGE_VERSION), 0;
		else
			return usage(stderr), 2;
	}
	for (i = 0; i < EXP_LINGERS; i++)
		exp_lg[i].fd = -1;
	if ((lfd = exp_listen(listen_at, bound, sizeof(bound))) < 0)
		return lfd == -2 ? 2 : 1;
	/*
	 * Strictness 1: an HTTP/1.1 request without Host is refused (400, as
	 * RFC 9112, 3.2 has it); a target with a space in it is closed
	 * unanswered.  No limit by address: Prometheus scrapes from one.
	 */
	d = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL, exp_request,
			     NULL, MHD_OPTION_CONNECTION_LIMIT, (unsigned)EXP_CLIENTS,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)EXP_DEADLINE_S,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)EXP_CONN_MEMORY,
			     MHD_OPTION_NOTIFY_CONNECTION, exp_notify, NULL,
			     MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "ibrouter-exporter: libmicrohttpd did not start (%s)\n",
			MHD_get_version());
		close(lfd);
		return 1;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "ibrouter-exporter: listening on %s for /metrics, control socket %s\n",
		bound, exp_sock);
	rc = exp_loop(lfd, d);
	MHD_stop_daemon(d); /* its connections closed: their sockets drained no longer */
	for (i = 0; i < EXP_LINGERS; i++)
		if (exp_lg[i].fd >= 0)
			close(exp_lg[i].fd);
	close(lfd);
	exporter_body_free(&exp_body);
	fprintf(stderr, "ibrouter-exporter: stopped\n");
	return rc;
}
