/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_int.h - private to ibrd_conf*.c.
 *
 * The key tables of ibrouterd.conf(5): one per section, it drives
 * everything: the libconfuse schema (ibrd_conf.c), the conversion of each
 * value into the section's struct (parse, ibrd_conf_keys.c), and
 * ibrd_conf_print() (print, ibrd_conf_print.c).  Then the state of a parse
 * in progress, which the checks after the last line (ibrd_conf_check.c)
 * share with the reader (ibrd_conf.c).
 */
#ifndef IBRD_CONF_INT_H
#define IBRD_CONF_INT_H

#include "daemon/conf/ibrd_conf.h"

#include "lib/ibr_log.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ibrd_conf_key_flag {
	IBRD_KEY_LIST = 1 << 0,	 /* a list: parse() is first called with text NULL */
	IBRD_KEY_REQ = 1 << 1,	 /* required (when relevant) */
	IBRD_KEY_NAME = 1 << 2,	 /* strings: a-z 0-9 _ - only */
	IBRD_KEY_EMPTY = 1 << 3, /* strings: "" allowed */
	/* numbers: a secret, printed as IBRD_CONF_REDACTED unless asked for,
	 * never echoed in a message (a wrong value may be close to the right one) */
	IBRD_KEY_SECRET = 1 << 4,
	/* routes, neighbours, groups: names the entry with its title, so that
	 * deleting one needs it too (ibrd_conf_entry.h, IBRD_ENTRY_DEL) */
	IBRD_KEY_ID = 1 << 5,
};

/* What a secret prints as when it is left out (it does not parse back). */
#define IBRD_CONF_REDACTED "redacted"

struct ibrd_conf_key;

/* One value on its way into a section's struct. */
struct ibrd_conf_val {
	const struct ibrd_conf_key *k;
	void *obj;	  /* the section's struct */
	const char *text; /* the value; NULL: a list of n values starts */
	unsigned idx, n;  /* position in the list, list length */
	char why[192];	  /* what is wrong, when parse() fails */
};

struct ibrd_conf_key {
	const char *name;
	/* 0; -EINVAL (v->why says why); -E2BIG (skip the rest of the list) */
	int (*parse)(struct ibrd_conf_val *v);
	void (*print)(const struct ibrd_conf_key *k, const void *obj, FILE *out);
	size_t off, size;	       /* the field in the section's struct */
	uint64_t min, max;	       /* numbers: range; flag bits: max is the bit */
	const char *const *words;      /* enums: names by value, NULL-terminated */
	unsigned flags;		       /* enum ibrd_conf_key_flag */
	bool (*when)(const void *obj); /* relevant only when this is true (NULL: always) */
	const char *when_text;	       /* ... which reads "data = sim" */
};

enum ibrd_conf_sect_id {
	IBRD_SECT_ROUTER,
	IBRD_SECT_PORT,
	IBRD_SECT_ROUTE,
	IBRD_SECT_NEIGH,
	IBRD_SECT_MCAST,
	IBRD_SECT_PROXY,
	IBRD_SECT_LEARNING,
	IBRD_SECT_MULTICAST,
	IBRD_SECT_CONTROL,
	IBRD_SECT_TOP, /* the keys outside any section */
	IBRD_SECT_MAX
};

struct ibrd_conf_keys {
	const char *name; /* "port"; NULL for IBRD_SECT_TOP */
	bool titled;	  /* port "a" { } */
	const struct ibrd_conf_key *keys;
	unsigned n;
};

/* Indexed by enum ibrd_conf_sect_id; the order in which they print. */
extern const struct ibrd_conf_keys ibrd_conf_keys[IBRD_SECT_MAX];

#define IBRD_KEYS_MAX 32

/* Keys the code refers to by position (the tables use these as indexes). */
enum { IBRD_RK_NAME, IBRD_RK_NODE_GUID, IBRD_RK_SYSIMG, IBRD_RK_DESC, IBRD_RK_MAX };
enum {
	IBRD_PK_DATA,
	IBRD_PK_SIM_SOCKET,
	IBRD_PK_SIM_PEER,
	IBRD_PK_DEVICE,
	IBRD_PK_DEVICE_PORT,
	IBRD_PK_RELAY_QKEY,
	IBRD_PK_RQ_DEPTH,
	IBRD_PK_SQ_DEPTH,
	IBRD_PK_MAD,
	IBRD_PK_UMAD_CA,
	IBRD_PK_UMAD_PORT,
	IBRD_PK_IBSIM_SOCKET,
	IBRD_PK_IBSIM_NODE,
	IBRD_PK_IBSIM_PORT,
	IBRD_PK_PORT_GUID,
	IBRD_PK_SITE,
	IBRD_PK_LID,
	IBRD_PK_LMC,
	IBRD_PK_PREFIX,
	IBRD_PK_MTU,
	IBRD_PK_PKEYS,
	IBRD_PK_TCLASS_SL,
	IBRD_PK_SL_VL,
	IBRD_PK_VCRC,
	IBRD_PK_ICRC,
	IBRD_PK_RPF,
	IBRD_PK_SA_CLIENT,
	IBRD_PK_UP,
	IBRD_PK_SMA_SET_POLICY,
	IBRD_PK_SMA_MKEY,
	IBRD_PK_MAX
};
enum { IBRD_TK_PORT, IBRD_TK_VIA, IBRD_TK_LMC, IBRD_TK_METRIC, IBRD_TK_MAX };
enum { IBRD_NK_PORT, IBRD_NK_LID, IBRD_NK_LMC, IBRD_NK_MAX };
enum {
	IBRD_MK_PORT,
	IBRD_MK_MLID,
	IBRD_MK_SL,
	IBRD_MK_TCLASS,
	IBRD_MK_FLOWLABEL,
	IBRD_MK_PKEY,
	IBRD_MK_QKEY,
	IBRD_MK_MTU,
	IBRD_MK_RECEIVERS,
	IBRD_MK_SENDERS,
	IBRD_MK_FEED,
	IBRD_MK_HOP_LIMIT,
	IBRD_MK_MAX
};
enum { IBRD_YK_PORT, IBRD_YK_QPN, IBRD_YK_QKEY, IBRD_YK_MAX };
enum {
	IBRD_LK_SA_CLIENT,
	IBRD_LK_OSM_PLUGIN,
	IBRD_LK_RESYNC,
	IBRD_LK_ANNOUNCE,
	IBRD_LK_ANNOUNCE_LEASE,
	IBRD_LK_PEER_ROUTES,
	IBRD_LK_PEER_INTERVAL,
	IBRD_LK_PEER_HOLDDOWN,
	IBRD_LK_PEER_ECMP,
	IBRD_LK_SM_KEY,
	IBRD_LK_ANNOUNCE_KEY,
	IBRD_LK_MAX
};
enum { IBRD_XK_SCOPES, IBRD_XK_INCLUDE, IBRD_XK_EXCLUDE, IBRD_XK_MAX };
enum { IBRD_CK_SOCKET, IBRD_CK_MODE, IBRD_CK_GROUP, IBRD_CK_MAX };
enum {
	IBRD_GK_WORKERS,
	IBRD_GK_WORKER_MODE,
	IBRD_GK_WORKER_POLL,
	IBRD_GK_WORKER_CPUS,
	IBRD_GK_LOG_LEVEL,
	IBRD_GK_PID_FILE,
	IBRD_GK_USER,
	IBRD_GK_MAX
};

/* Port names: 1..ROUTER_PORT_NAME - 1 of a-z 0-9 _ - (also used for sites). */
bool ibrd_conf_name_ok(const char *s, size_t max);

/* True if s is "<gid>/<len>" but for bits set past len. */
bool ibrd_conf_host_bits(const char *s);

/* s in double quotes, with the escapes libconfuse reads back. */
void ibrd_conf_print_string(const char *s, FILE *out);

/* Multicast scopes by name, the other spelling of "organisation" last. */
#define IBRD_CONF_NSCOPES 5
struct ibrd_conf_scope {
	const char *name;
	unsigned scope;
};
extern const struct ibrd_conf_scope ibrd_conf_scopes[IBRD_CONF_NSCOPES];

/* The printers the tables name (ibrd_conf_print.c). */
#define IBRD_CONF_PRINTER(kind) \
	void ibrd_conf_pr_##kind(const struct ibrd_conf_key *k, const void *obj, FILE *out)
IBRD_CONF_PRINTER(uint);
IBRD_CONF_PRINTER(hex);
IBRD_CONF_PRINTER(boolean);
IBRD_CONF_PRINTER(flag);
IBRD_CONF_PRINTER(enum);
IBRD_CONF_PRINTER(str);
IBRD_CONF_PRINTER(guid);
IBRD_CONF_PRINTER(lid);
IBRD_CONF_PRINTER(mode);
IBRD_CONF_PRINTER(loglevel);
IBRD_CONF_PRINTER(key128);
IBRD_CONF_PRINTER(prefix);
IBRD_CONF_PRINTER(pkeys);
IBRD_CONF_PRINTER(tclass_sl);
IBRD_CONF_PRINTER(sl_vl);
IBRD_CONF_PRINTER(via);
IBRD_CONF_PRINTER(scopes);
IBRD_CONF_PRINTER(mprefix);
IBRD_CONF_PRINTER(cpus);

/* ---- a parse in progress ---- */

struct cfg_t;
struct cfg_opt_t;

#define IBRD_LABEL_MAX 96

struct ibrd_conf_rec {
	const struct cfg_opt_t *opt;
	unsigned idx; /* which value of opt */
	int line;
};

struct ibrd_conf_recs {
	struct ibrd_conf_rec *v;
	size_t n, cap;
};

/* Where a section and its keys are, for messages. */
struct ibrd_conf_meta {
	int line;		     /* of the opening brace; 0: not given */
	bool bad;		     /* the title is wrong, or the section is given twice */
	bool failed;		     /* something in the section is wrong */
	bool no_ids;		     /* port, mad = none: closed without lid or subnet-prefix */
	char label[IBRD_LABEL_MAX];  /* "port \"a\"", "router", "" at the top */
	int key_line[IBRD_KEYS_MAX]; /* of each key's first value; 0: not given */
};

struct ibrd_conf_msg {
	int line;
	unsigned seq;
	bool scan; /* a key given twice, found by the scan: dropped past a syntax error */
	char *text;
};

enum { IBRD_LIST_ROUTE, IBRD_LIST_NEIGH, IBRD_LIST_MCAST, IBRD_LIST_PROXY, IBRD_LIST_MAX };

struct ibrd_conf_entry;

struct ibrd_conf_ctx {
	/* one entry from words (ibrd_conf_entry_parse()): the first message
	 * goes there, without file, line and label, and msg stays empty */
	struct ibrd_conf_entry *entry;
	struct ibrd_conf *c;
	const char *file;
	struct cfg_t *root;
	struct cfg_t *cur; /* the section being read */
	int cur_line;
	bool syntax; /* libconfuse gave up */
	int syntax_line;
	int end_line; /* the file's last line */
	bool nomem;
	struct ibrd_conf_recs top_recs, cur_recs;
	struct ibrd_conf_msg *msg;
	size_t nmsg, msg_cap;
	struct ibrd_conf_meta single[IBRD_SECT_MAX];	  /* sections given once, and the top */
	struct ibrd_conf_meta port[ROUTER_MAX_PORTS + 1]; /* the last: ports past the limit */
	struct ibrd_conf_port spare;
	struct ibrd_conf_meta *list[IBRD_LIST_MAX]; /* routes, neighbours, groups, proxies */
	size_t cap[IBRD_LIST_MAX], mcap[IBRD_LIST_MAX];
};

/*
 * One message: "FILE:LINE: LABEL: KEY: why" (line 0, label or key NULL: left
 * out).  For one entry from words (ctx->entry) the first message's key and
 * why go to the entry instead, and later ones are only counted.
 */
void ibrd_conf_err(struct ibrd_conf_ctx *ctx, int line, const char *label, const char *key,
		   const char *fmt, ...) IBR_PRINTF(5, 6);

/* "port \"a\"" into buf (IBRD_LABEL_MAX), for messages; name NULL: "". */
void ibrd_conf_label(char *buf, const char *name, const char *title);

/* Room for element n of the array *pp points to, doubling *cap.  0 or -ENOMEM. */
int ibrd_conf_grow(void *pp, size_t size, size_t n, size_t *cap);

/* After the last line: defaults that depend on other keys, then every cross-check. */
void ibrd_conf_check(struct ibrd_conf_ctx *ctx);

/* k->parse(v) of one value, but a secret's value is never echoed (ibrd_conf_keys.c). */
int ibrd_conf_value_parse(struct ibrd_conf_val *v);

/*
 * ibrd_conf_keys.c, for the parse functions of ibrd_conf_lists.c: why a
 * value is wrong (v->why; -EINVAL), why a whole list is (-E2BIG: its values
 * are not looked at), the value's field in its section's struct, a number
 * stored into a field of `size` bytes, a number (0x.., decimal) and one in
 * [lo, hi].
 */
int ibrd_conf_why(struct ibrd_conf_val *v, const char *fmt, ...) IBR_PRINTF(2, 3);
int ibrd_conf_stop(struct ibrd_conf_val *v, const char *fmt, ...) IBR_PRINTF(2, 3);
void *ibrd_conf_field(const struct ibrd_conf_val *v);
void ibrd_conf_put(void *f, size_t size, uint64_t x);
int ibrd_conf_number(const char *s, uint64_t *out);
int ibrd_conf_range(struct ibrd_conf_val *v, const char *text, uint64_t lo, uint64_t hi, bool hex,
		    uint64_t *out);
/* ibrd_conf_lists.c: the list-valued keys' parse functions (and pkey's) */
#define IBRD_CONF_PARSER(kind) int ibrd_conf_p_##kind(struct ibrd_conf_val *v)
IBRD_CONF_PARSER(pkey);
IBRD_CONF_PARSER(pkeys);
IBRD_CONF_PARSER(cpus);
IBRD_CONF_PARSER(tclass_sl);
IBRD_CONF_PARSER(sl_vl);
IBRD_CONF_PARSER(via);
IBRD_CONF_PARSER(scopes);
IBRD_CONF_PARSER(mprefix);

/*
 * Keys of a converted section given where they mean nothing, and keys not
 * given that the flag `req` makes required: IBRD_KEY_REQ, or IBRD_KEY_ID
 * for an entry that is to be deleted (ibrd_conf_check.c, as the next).
 */
void ibrd_conf_check_when(struct ibrd_conf_ctx *ctx, enum ibrd_conf_sect_id id, const void *obj,
			  const struct ibrd_conf_meta *m, unsigned req);

/* A base LID and LMC that the SM could have assigned (IBA 7.11.1), or a message on `key`. */
void ibrd_conf_check_lids(struct ibrd_conf_ctx *ctx, const struct ibrd_conf_meta *m, int line,
			  const char *key, uint16_t lid, unsigned lmc);

/*
 * The entries, routes, neighbours and groups (ibrd_conf_entry.c), as the
 * file's sections and the control commands' words both read them: the
 * defaults and the title of a zeroed struct (NULL, or why the title is
 * wrong), and the checks across its keys once they all converted.
 */
const char *ibrd_conf_route_init(struct ibrd_conf_route *r, const char *title);
const char *ibrd_conf_neigh_init(struct ibrd_conf_neigh *n, const char *title);
const char *ibrd_conf_mcast_init(struct ibrd_conf_mcast *g, const char *title);
void ibrd_conf_route_close(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m);
void ibrd_conf_mcast_close(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m);
void ibrd_conf_check_feeds(struct ibrd_conf_ctx *ctx); /* ibrd_conf_feed.c */
/* Why a group may not be routed as given (its scope, without a feed), or NULL. */
const char *ibrd_conf_mcast_scope_why(const struct ibrd_conf_mcast *g);
void ibrd_conf_neigh_close(struct ibrd_conf_ctx *ctx, void *obj, struct ibrd_conf_meta *m);

/*
 * The bytes of path, NUL-terminated (to free), if it is a regular file of
 * at most IBRD_CONF_MAX_BYTES; else NULL and "PATH: why" on err.
 */
char *ibrd_conf_read(const char *path, size_t *len, FILE *err);

/*
 * Check text (NUL at len) as libconfuse's lexer will read it, and blank its
 * comments in place.  False if it must not be parsed (messages in ctx);
 * keys given twice are messages too, but do not stop the parse.
 */
bool ibrd_conf_scan(struct ibrd_conf_ctx *ctx, char *text, size_t len);

#endif
