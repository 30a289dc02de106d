/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrouterctl - control ibrouterd through its control socket (ibrouterctl(8)).
 *
 *   ibrouterctl [-j] [-s SOCKET] [-o text|json|prometheus] COMMAND [ARGS...]
 *
 * The options may also follow the command's words ("--" ends them).
 * Prints the daemon's answer as aligned text (the default), as the raw JSON
 * parts (-j), or in another format the daemon renders (-o).  Exits 1 with
 * the daemon's message when it refuses, 2 on usage errors.
 *
 * "capture start PORT FILE ..." opens FILE here, as the user who runs this,
 * and passes the descriptor with the request (SCM_RIGHTS): the daemon never
 * opens a path a client names.  A file created for a capture the daemon
 * refuses is removed again.
 */
#include "lib/ibr_ctl.h"
#include "lib/ibr_ctl_client.h"
#include "lib/ibr_fdpass.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define CTL_DEFAULT_SOCK "/run/ibrouter/ibrouterd.sock"

static void usage_synopsis(FILE *f)
{
	fputs("usage: ibrouterctl [-j] [-s SOCKET] [-o text|json|prometheus] COMMAND [ARGS...]\n"
	      "       ibrouterctl -h | -V\n",
	      f);
}

/* The synopsis and every command the daemon knows, from the protocol's table (ibr_ctl_cmds). */
static void usage(FILE *f)
{
	usage_synopsis(f);
	fputs("options may also follow the command's words; -- ends them\n"
	      "commands (* changes state: root, the daemon's user or its socket's group):\n",
	      f);
	for (unsigned i = 0; i < ibr_ctl_ncmds; i++)
		if (ibr_ctl_cmds[i].usage)
			fprintf(f, "  %c %s\n", ibr_ctl_cmds[i].priv ? '*' : ' ',
				ibr_ctl_cmds[i].usage);
	fputs("see ibrouterctl(8)\n", f);
}

/* A usage error: what is wrong, the synopsis, where the rest is; exit status 2. */
static int usage_error(const char *fmt, const char *arg)
{
	fputs("ibrouterctl: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage_synopsis(stderr);
	fputs("(ibrouterctl -h lists the commands)\n", stderr);
	return 2;
}

/* What the options say, wherever they stand among the command's words. */
struct opts {
	const char *sock, *fmt;
	bool raw;
};

/*
 * argv[*i] as an option: 1 taken (with its value: *i moves past it), 0 not
 * an option (a word of the command: "-" alone, "-1", or anything after
 * "--"), or an exit status (0 after -h or -V, 2 after a usage error) + 16.
 */
#define OPT_EXIT(st) (16 + (st))
static int opt_take(int argc, char **argv, int *i, struct opts *op)
{
	const char *a = argv[*i];

	if (a[0] != '-' || !a[1] || (a[1] >= '0' && a[1] <= '9'))
		return 0;
	if (!strcmp(a, "-j")) {
		op->raw = true;
	} else if (!strcmp(a, "-s") || !strcmp(a, "-o")) {
		if (*i + 1 >= argc)
			return OPT_EXIT(usage_error(
				"option %s", a[1] == 's' ? "-s needs a value: the socket's path"
							 : "-o needs a value: text, json or "
							   "prometheus"));
		*(a[1] == 's' ? &op->sock : &op->fmt) = argv[++*i];
	} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		usage(stdout);
		return OPT_EXIT(0);
	} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
		printf("ibrouterctl %s\n", PACKAGE_VERSION);
		return OPT_EXIT(0);
	} else {
		return OPT_EXIT(usage_error("unknown option %s", a));
	}
	return 1;
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
	int fd = ibr_ctl_connect(path, 30);

	if (fd == -ENAMETOOLONG)
		fprintf(stderr, "ibrouterctl: %s: path too long\n", path);
	else if (fd < 0)
		fprintf(stderr, "ibrouterctl: %s: %s (is ibrouterd running?)\n", path,
			strerror(-fd));
	return fd < 0 ? -1 : fd;
}

/* The capture file as ibrouterctl opened it, to take back what it made if the daemon refuses. */
struct capture {
	const char *file;
	bool made; /* created by this open (O_EXCL): no one else's file */
	dev_t dev;
	ino_t ino;
};

/*
 * The capture file, opened as this user: never through a symbolic link
 * (O_NOFOLLOW): a link planted under FILE's name in a directory others may
 * write, such as /tmp, would turn the capture into an overwrite of the
 * link's target, whoever owns it, wherever fs.protected_symlinks is 0.
 * Created 0600 (an existing file keeps its mode), with O_EXCL first so that
 * cap->made says whether this open created it; not truncated (the daemon
 * empties it once it accepts the capture, so that a refused request, such
 * as a second capture into the running one's file, leaves it alone).
 * Never a FIFO or a device: the daemon would refuse it, and O_NONBLOCK
 * keeps even their open from blocking.  The descriptor, or -1 after saying
 * why.
 */
static int capture_open(struct capture *cap)
{
	const int fl = O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW;
	const char *file = cap->file;
	struct stat st;
	int fd = -1;

	/* what is there, not what it points to: a link, a FIFO or a device is not even opened */
	if (lstat(file, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		goto notreg;
	/* made here, or there before (a file removed between the two opens: again) */
	for (int tries = 0; fd < 0 && tries < 3; tries++) {
		fd = open(file, fl | O_CREAT | O_EXCL, 0600);
		cap->made = fd >= 0;
		if (fd < 0 && errno == EEXIST)
			fd = open(file, fl);
		if (fd >= 0 || errno != ENOENT)
			break;
	}
	if (fd < 0) {
		int e = errno;

		/* a link put there since the lstat: ELOOP, said as what it is */
		if (e == ELOOP && lstat(file, &st) == 0 && S_ISLNK(st.st_mode))
			goto notreg;
		fprintf(stderr, "ibrouterctl: %s: %s\n", file, strerror(e));
		return -1;
	}
	if (fstat(fd, &st) < 0)
		st.st_mode = 0;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		goto notreg;
	}
	cap->dev = st.st_dev;
	cap->ino = st.st_ino;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
notreg:
	if (S_ISLNK(st.st_mode))
		fprintf(stderr,
			"ibrouterctl: %s: a symbolic link: refused (a capture never follows one: "
			"name the file itself)\n",
			file);
	else
		fprintf(stderr, "ibrouterctl: %s: not a regular file\n", file);
	return -1;
}

/*
 * The daemon refused the capture (or never had the request): the file this
 * open created goes again, so that a refused request leaves nothing behind.
 * Only the file made here, and only while FILE still names it (not one put
 * there since, under the same name); a file that was there before is left
 * as it was.
 */
static void capture_unmake(const struct capture *cap)
{
	struct stat st;

	if (!cap->made || lstat(cap->file, &st) < 0 || st.st_dev != cap->dev ||
	    st.st_ino != cap->ino)
		return;
	if (unlink(cap->file) < 0)
		fprintf(stderr, "ibrouterctl: %s: left behind: %s\n", cap->file, strerror(errno));
}

/* FILE as the daemon logs it: relative to this working directory. */
static const char *capture_name(const char *file, char *buf, size_t len)
{
	char cwd[PATH_MAX];

	if (file[0] == '/' || !getcwd(cwd, sizeof(cwd)) ||
	    snprintf(buf, len, "%s/%s", cwd, file) >= (int)len)
		return file;
	return buf;
}

/*
 * -j (or -o json) over an answer of several parts: one JSON document, not one a part, so that
 * any JSON reader takes it whole.  The parts' "data" arrays are joined into one, as
 * {"data":[rows...],"ok":true}: "ok" comes last, as only the last part can say it.
 */
struct joined {
	bool open;  /* "{"data":[" printed */
	bool comma; /* a row printed: the next one needs a comma */
};

static void join_part(struct joined *jd, const struct ibr_ctl_reply *r)
{
	const char *d = r->data;
	size_t n = r->data_len;

	if (!jd->open) {
		fputs("{\"data\":[", stdout);
		jd->open = true;
	}
	if (!d || !n)
		return;
	if (d[0] == '[' && d[n - 1] == ']') { /* its rows, without the brackets */
		d++;
		n -= 2;
	}
	while (n && (d[0] == ' ' || d[0] == '\n'))
		d++, n--;
	if (!n)
		return;
	printf("%s%.*s", jd->comma ? "," : "", (int)n, d);
	jd->comma = true;
}

/*
 * Read reply parts until the last; print them.  0 ok, 1 refused or broken, 2 a usage error;
 * *refused: the daemon said no (not: the connection broke).
 */
static int ctl_replies(int fd, bool raw, bool *refused)
{
	static char buf[IBR_CTL_PART_MAX + 1];
	struct joined jd = { false, false };

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
			/* a usage text is a usage error, as ours are: 2 (ibrouterctl(8)) */
			int st = r.usage ? 2 : 1;

			*refused = true;
			if (jd.open)
				puts("],\"ok\":false}");
			fprintf(stderr, "ibrouterctl: %s (%s)\n", r.msg ? r.msg : "failed",
				r.error);
			ibr_ctl_reply_free(&r);
			return st;
		}
		if (raw && (r.more || jd.open))
			join_part(&jd, &r);
		else if (raw)
			printf("%.*s\n", (int)n, buf);
		else if (r.text)
			fputs(r.text, stdout);
		more = r.more;
		ibr_ctl_reply_free(&r);
		if (!more) {
			if (jd.open)
				puts("],\"ok\":true}");
			return 0;
		}
	}
}

int main(int argc, char **argv)
{
	struct opts op = { getenv("IBROUTERD_SOCKET"), NULL, false };
	const char *word[2] = { "", "" }, *fmt, *sock;
	struct capture cap = { NULL, false, 0, 0 };
	char req[IBR_CTL_REQ_MAX + 1] = "", name[PATH_MAX], **w;
	size_t len = 0;
	bool raw, refused = false, words_only = false;
	int fd, rc, nw = 0, pass = -1;
	ssize_t sent;

	/*
	 * The options wherever they stand, before the command or after its words
	 * (show routes -j), as operators type them; the rest, in order, is the
	 * command.  "--" ends the options: a word after it is the command's
	 * however it starts (a capture FILE "-x.pcap").
	 */
	w = argv + 1; /* the words, in place: never past the argument read */
	for (int i = 1; i < argc; i++) {
		if (!words_only && !strcmp(argv[i], "--")) {
			words_only = true;
			continue;
		}
		rc = words_only ? 0 : opt_take(argc, argv, &i, &op);
		if (rc > 1)
			return rc - OPT_EXIT(0);
		if (!rc)
			w[nw++] = argv[i];
	}
	if (!nw) {
		usage(stderr);
		return 2;
	}
	sock = op.sock ? op.sock : CTL_DEFAULT_SOCK;
	raw = op.raw;
	fmt = op.fmt ? op.fmt : raw ? "json" : "text";
	if (req_add(req, sizeof(req), &len, "-o") || req_add(req, sizeof(req), &len, fmt))
		return 2;
	for (int k = 0; k < nw; k++) {
		const char *a = w[k];

		if (k < 2)
			word[k] = a;
		if (k == 3 && !strcmp(word[0], "capture") && !strcmp(word[1], "start")) {
			cap.file = a;
			a = capture_name(a, name, sizeof(name));
		}
		if (req_add(req, sizeof(req), &len, a)) {
			fprintf(stderr, "ibrouterctl: command longer than %d bytes\n",
				IBR_CTL_REQ_MAX);
			return 2;
		}
	}
	if ((fd = ctl_connect(sock)) < 0)
		return 1;
	if (cap.file && (pass = capture_open(&cap)) < 0) {
		close(fd);
		return 1;
	}
	sent = ibr_fdpass_send(fd, req, len, pass, 0);
	if (pass >= 0)
		close(pass);
	if (sent != (ssize_t)len && sent != -EPIPE) {
		fprintf(stderr, "ibrouterctl: send: %s\n", strerror(sent < 0 ? (int)-sent : EIO));
		close(fd);
		if (cap.file)
			capture_unmake(&cap);
		return 1;
	}
	/*
	 * EPIPE: the daemon answered and closed before the request went out (it
	 * refuses a client beyond its limit at once): its answer is there to read.
	 */
	rc = ctl_replies(fd, raw || !strcmp(fmt, "json"), &refused);
	close(fd);
	/* a broken connection says nothing of the capture: its file stays */
	if (cap.file && refused)
		capture_unmake(&cap);
	return rc;
}
