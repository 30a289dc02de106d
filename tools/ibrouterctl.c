/*
 * ibrouterctl - control ibrouterd through its control socket (ibrouterctl(8)).
 *
 *   ibrouterctl [-j] [-s SOCKET] COMMAND [ARGS...] [-o text|json|prometheus]
 *
 * Prints the daemon's answer as aligned text (the default), as the raw JSON
 * parts (-j), or in another format the daemon renders (-o).  Exits 1 with
 * the daemon's message when it refuses, 2 on usage errors.
 */
#include "lib/ibr_ctl.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define CTL_DEFAULT_SOCK "/run/ibrouter/ibrouterd.sock"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ibrouterctl [-j] [-s SOCKET] COMMAND [ARGS...] [-o text|json|prometheus]\n"
		"commands: version, help, show ports|routes|neighbours|mcast|counters|drops|\n"
		"  config|osm-prefix-routes|sa|sma|plugins|proxies, route add|del,\n"
		"  neighbour add|del, mcast add|del, proxy add|del, sa resync, sma release,\n"
		"  clear counters, reload, log level, trace SGID DGID ..., capture start|stop;\n"
		"  see ibrouterctl(8) or `help`\n");
}

/* Append one word, quoted when it holds blanks or quotes. */
static int req_add(char *req, size_t cap, size_t *len, const char *w)
{
	bool quote = !*w || strpbrk(w, " \t\"\\") != NULL;
	size_t need = strlen(w) * 2 + 4;

	if (*len + need >= cap)
		return -E2BIG;
	if (*len)
		req[(*len)++] = ' ';
	if (quote)
		req[(*len)++] = '"';
	for (; *w; w++) {
		if (quote && (*w == '"' || *w == '\\'))
			req[(*len)++] = '\\';
		req[(*len)++] = *w;
	}
	if (quote)
		req[(*len)++] = '"';
	req[*len] = '\0';
	return 0;
}

static int ctl_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { 30, 0 };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "ibrouterctl: %s: path too long\n", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "ibrouterctl: %s: %s (is ibrouterd running?)\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* Read reply parts until the last; print them.  0 ok, 1 refused or broken. */
static int ctl_replies(int fd, bool raw)
{
	static char buf[IBR_CTL_PART_MAX + 1];

	for (;;) {
		struct ibr_ctl_reply r;
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);
		bool more;

		if (n <= 0) {
			fprintf(stderr, "ibrouterctl: %s\n",
				n == 0 ? "the daemon closed the connection" : strerror(errno));
			return 1;
		}
		if (ibr_ctl_reply_parse(buf, (size_t)n, &r)) {
			fprintf(stderr, "ibrouterctl: malformed reply from the daemon\n");
			return 1;
		}
		if (!r.ok) {
			fprintf(stderr, "ibrouterctl: %s (%s)\n", r.msg ? r.msg : "failed",
				r.error);
			ibr_ctl_reply_free(&r);
			return 1;
		}
		if (raw)
			printf("%.*s\n", (int)n, buf);
		else if (r.text)
			fputs(r.text, stdout);
		more = r.more;
		ibr_ctl_reply_free(&r);
		if (!more)
			return 0;
	}
}

int main(int argc, char **argv)
{
	const char *sock = getenv("IBROUTERD_SOCKET"), *fmt = NULL;
	char req[IBR_CTL_REQ_MAX + 1] = "";
	size_t len = 0;
	bool raw = false;
	int fd, rc, i;

	if (!sock)
		sock = CTL_DEFAULT_SOCK;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-j"))
			raw = true;
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			sock = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			fmt = argv[++i];
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return usage(stdout), 0;
		else
			return usage(stderr), 2;
	}
	if (i == argc)
		return usage(stderr), 2;
	/* "-o FORMAT" may also follow the command (show counters -o prometheus) */
	for (int k = i; k + 1 < argc; k++)
		if (!strcmp(argv[k], "-o"))
			fmt = argv[k + 1];
	if (!fmt)
		fmt = raw ? "json" : "text";
	if (req_add(req, sizeof(req), &len, "-o") || req_add(req, sizeof(req), &len, fmt))
		return 2;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			i++;
			continue;
		}
		if (req_add(req, sizeof(req), &len, argv[i])) {
			fprintf(stderr, "ibrouterctl: command longer than %d bytes\n",
				IBR_CTL_REQ_MAX);
			return 2;
		}
	}
	if ((fd = ctl_connect(sock)) < 0)
		return 1;
	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len) {
		fprintf(stderr, "ibrouterctl: send: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	rc = ctl_replies(fd, raw || !strcmp(fmt, "json"));
	close(fd);
	return rc;
}
