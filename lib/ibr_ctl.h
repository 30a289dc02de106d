/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_ctl.h - helpers for ibrouterd's control protocol (doc/ARCHITECTURE.md,
 * "The daemon", control socket): AF_UNIX SOCK_SEQPACKET, one text request per
 * datagram, one or more JSON reply datagrams:
 *   {"ok":true,"more":true,"data":...}   all but the last part
 *   {"ok":true,"data":...}               the last part
 *   {"ok":false,"error":"EINVAL","msg":"..."}
 * A request may start with "-o FORMAT" (json, text, prometheus); for text
 * formats the parts carry "text":"..." instead of "data".
 */
#ifndef IBR_CTL_H
#define IBR_CTL_H

#include <stdbool.h>
#include <stddef.h>

#define IBR_CTL_REQ_MAX	 4096  /* longest request */
#define IBR_CTL_PART_MAX 65536 /* longest reply datagram */
#define IBR_CTL_ARGS_MAX 32

/*
 * Split a request into words, in place: blanks separate words, double quotes
 * group them ("a b"), a backslash escapes the next character inside quotes.
 * Returns the word count, or -EINVAL (unterminated quote, control
 * characters or DEL anywhere, escaped or not) or -E2BIG (more than `max`
 * words).
 */
int ibr_ctl_split(char *line, char **argv, int max);

/* The envelope of one reply datagram, as ibrouterctl needs it. */
struct ibr_ctl_reply {
	bool ok;
	bool more;
	bool usage;	  /* a refusal for the request's form: its msg is a usage text */
	char error[32];	  /* "EINVAL" */
	char *msg;	  /* decoded, malloc'd; NULL when absent */
	char *text;	  /* decoded "text" member, malloc'd; NULL when absent */
	const char *data; /* the raw JSON of "data" inside the datagram, or NULL */
	size_t data_len;
};

/*
 * Read the top-level members of one reply datagram (`len` bytes, not
 * necessarily NUL-terminated): ok, more, usage, error, msg, text, data.  Other
 * members are skipped.  0, or -EBADMSG when the datagram is not one JSON
 * object, -ENOMEM.  Free with ibr_ctl_reply_free().
 */
int ibr_ctl_reply_parse(const char *buf, size_t len, struct ibr_ctl_reply *r);
void ibr_ctl_reply_free(struct ibr_ctl_reply *r);

/*
 * The commands the daemon answers (ibr_ctl_cmds.c), in the order `help` and
 * ibrouterctl's usage list them: one table for the daemon, which finds each
 * one's handler by its words, and for ibrouterctl, which makes its usage
 * text of it, so that neither lists a command the other does not know.
 */
struct ibr_ctl_cmd {
	const char *word, *sub; /* sub NULL: a command of one word */
	bool priv;		/* changes state: root, the daemon's user or the socket's group */
	const char *usage;	/* NULL: not listed (an alias; a request not meant to be typed) */
};
extern const struct ibr_ctl_cmd ibr_ctl_cmds[];
extern const unsigned ibr_ctl_ncmds;
/* The command the words argv[0..argc) start with, or NULL. */
const struct ibr_ctl_cmd *ibr_ctl_cmd_find(int argc, char *const *argv);

#endif
