/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrouter-exporter - serves ibrouterd's counters and state to Prometheus
 * over HTTP, at /metrics (ibrouter-exporter(8)):
 *   ibrouter-exporter [-hV] [-l ADDRESS:PORT] [-s SOCKET]
 * A process beside the daemon, as bird_exporter is beside BIRD: the HTTP
 * parser, which reads whatever a TCP peer sends, stays out of the router's
 * address space and privileges; it needs only to connect to the control
 * socket.  Each scrape asks the daemon afresh (no cache, no thread): one
 * poll() loop, up to EXP_CLIENTS connections each with a deadline, so a
 * client that sends nothing holds no other.
 */
#include "tools/exporter_http.h"
#include "tools/exporter_scrape.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define EXP_LISTEN_DEFAULT "127.0.0.1:9731"
#define EXP_SOCK_DEFAULT   "/run/ibrouter/ibrouterd.sock"
#define EXP_CLIENTS	   16
#define EXP_DEADLINE_S	   10 /* for a whole request, and for writing its answer */
#define EXP_CTL_TIMEOUT_S  3  /* each command's answer from the daemon */
#define EXP_CTYPE	   "text/plain; version=0.0.4; charset=utf-8"

struct exp_client {
	int fd; /* -1: a free slot */
	size_t len;
	time_t deadline;
	char buf[EXPORTER_HTTP_HEAD_MAX];
};

static volatile sig_atomic_t exp_stop;
static struct exp_client exp_cl[EXP_CLIENTS];
static struct exporter_body exp_body;

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

/* Write all of buf; the socket's SO_SNDTIMEO bounds a peer that reads nothing. */
static int exp_write(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n, len -= (size_t)n;
	}
	return 0;
}

static void exp_answer(int fd, int status, const char *ctype, const char *body, size_t len,
		       int head)
{
	char hdr[512];
	int n;

	n = snprintf(hdr, sizeof(hdr),
		     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
		     "Connection: close\r\n\r\n",
		     status, exporter_http_reason(status), ctype, len,
		     status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (exp_write(fd, hdr, (size_t)n) == 0 && !head)
		exp_write(fd, body, len);
}

static void exp_error(int fd, int status)
{
	char msg[96];
	int n = snprintf(msg, sizeof(msg), "%d %s\n", status, exporter_http_reason(status));

	exp_answer(fd, status, "text/plain; charset=utf-8", msg, (size_t)n, 0);
}

static void exp_serve(int fd, const struct exporter_http_req *r, const char *sock)
{
	static const char landing[] =
		"<html><head><title>ibrouter exporter</title></head><body>\n"
		"<h1>ibrouter exporter</h1>\n<p><a href=\"/metrics\">Metrics</a></p>\n"
		"</body></html>\n";
	int head = r->method == EXPORTER_HTTP_HEAD;

	if (r->method == EXPORTER_HTTP_OTHER)
		exp_error(fd, 405);
	else if (strcmp(r->path, "/metrics") == 0 &&
		 exporter_scrape_run(sock, EXP_CTL_TIMEOUT_S, &exp_body))
		exp_error(fd, 503);
	else if (strcmp(r->path, "/metrics") == 0)
		exp_answer(fd, 200, EXP_CTYPE, exp_body.buf, exp_body.len, head);
	else if (strcmp(r->path, "/") == 0)
		exp_answer(fd, 200, "text/html; charset=utf-8", landing, sizeof(landing) - 1, head);
	else
		exp_error(fd, 404);
}

static void exp_close(struct exp_client *c)
{
	close(c->fd);
	c->fd = -1;
}

/* Read what the client sent; answer once its request is whole or wrong. */
static void exp_read(struct exp_client *c, const char *sock)
{
	struct exporter_http_req r;
	ssize_t n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, MSG_DONTWAIT);
	int rc;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		exp_close(c);
		return;
	}
	c->len += (size_t)n;
	rc = exporter_http_parse(c->buf, c->len, &r);
	if (rc == 0 && c->len < sizeof(c->buf))
		return;
	if (rc > 0)
		exp_serve(c->fd, &r, sock);
	else
		exp_error(c->fd, rc ? -rc : 431);
	exp_close(c);
}

static void exp_accept(int lfd)
{
	struct timeval tv = { EXP_DEADLINE_S, 0 };
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	for (int i = 0; i < EXP_CLIENTS; i++)
		if (exp_cl[i].fd < 0) {
			exp_cl[i].fd = fd;
			exp_cl[i].len = 0;
			exp_cl[i].deadline = time(NULL) + EXP_DEADLINE_S;
			return;
		}
	exp_error(fd, 503); /* every slot taken: say so at once rather than queue */
	close(fd);
}

static int exp_loop(int lfd, const char *sock)
{
	struct pollfd pf[EXP_CLIENTS + 1];
	int map[EXP_CLIENTS + 1];

	while (!exp_stop) {
		time_t now = time(NULL);
		int n = 1;

		pf[0] = (struct pollfd){ .fd = lfd, .events = POLLIN };
		for (int i = 0; i < EXP_CLIENTS; i++) {
			if (exp_cl[i].fd < 0)
				continue;
			if (now >= exp_cl[i].deadline) { /* a request not whole in time */
				exp_error(exp_cl[i].fd, 408);
				exp_close(&exp_cl[i]);
				continue;
			}
			map[n] = i;
			pf[n++] = (struct pollfd){ .fd = exp_cl[i].fd, .events = POLLIN };
		}
		if (poll(pf, (nfds_t)n, 1000) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "ibrouter-exporter: poll: %s\n", strerror(errno));
			return 1;
		}
		for (int k = 1; k < n; k++)
			if (pf[k].revents)
				exp_read(&exp_cl[map[k]], sock);
		if (pf[0].revents & POLLIN)
			exp_accept(lfd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *listen_at = EXP_LISTEN_DEFAULT, *sock = getenv("IBROUTERD_SOCKET");
	struct sigaction sa = { .sa_handler = on_signal };
	char bound[128];
	int i, lfd, rc;

	if (!sock)
		sock = EXP_SOCK_DEFAULT;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l") && i + 1 < argc)
			listen_at = argv[++i];
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			sock = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return usage(stdout), 0;
		else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
			return printf("ibrouter-exporter %s\n", PACKAGE_VERSION), 0;
		else
			return usage(stderr), 2;
	}
	for (i = 0; i < EXP_CLIENTS; i++)
		exp_cl[i].fd = -1;
	if ((lfd = exp_listen(listen_at, bound, sizeof(bound))) < 0)
		return lfd == -2 ? 2 : 1;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	fprintf(stderr, "ibrouter-exporter: listening on %s for /metrics, control socket %s\n",
		bound, sock);
	rc = exp_loop(lfd, sock);
	for (i = 0; i < EXP_CLIENTS; i++)
		if (exp_cl[i].fd >= 0)
			close(exp_cl[i].fd);
	close(lfd);
	exporter_body_free(&exp_body);
	fprintf(stderr, "ibrouter-exporter: stopped\n");
	return rc;
}
