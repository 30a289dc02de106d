/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_keys.c - every key of ibrouterd.conf(5): how its text becomes a
 * field of the section's struct, and the tables that tie names, fields,
 * ranges, parse and print functions together.  The parse functions see one
 * value at a time and say what is wrong in v->why; the caller adds file,
 * line, section and key (ibrd_conf.c).  The print functions are in
 * ibrd_conf_print.c, the parse functions of the list-valued keys in
 * ibrd_conf_lists.c.
 */
#include "daemon/conf/ibrd_conf_int.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"
#include "router/io/io_verbs.h" /* rq-depth's range */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define IBRD_NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789_-"

/* ---- helpers ---- */

static int ibrd_conf_p_key128(struct ibrd_conf_val *v);

/* Say why a value is wrong: -EINVAL. */
int ibrd_conf_why(struct ibrd_conf_val *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Say why a whole list is wrong: -E2BIG, its values are not looked at. */
int ibrd_conf_stop(struct ibrd_conf_val *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	return -E2BIG;
}

void *ibrd_conf_field(const struct ibrd_conf_val *v)
{
	return (char *)v->obj + v->k->off;
}

/* Store an unsigned field of 1, 2, 4 or 8 bytes (bool and enums too). */
void ibrd_conf_put(void *f, size_t size, uint64_t x)
{
	uint8_t u8 = (uint8_t)x;
	uint16_t u16 = (uint16_t)x;
	uint32_t u32 = (uint32_t)x;

	if (size == 1)
		memcpy(f, &u8, 1);
	else if (size == 2)
		memcpy(f, &u16, 2);
	else if (size == 4)
		memcpy(f, &u32, 4);
	else
		memcpy(f, &x, 8);
}

/* Decimal, or "0x" and hex digits; no sign, no blanks.  0, -EINVAL or -ERANGE. */
int ibrd_conf_number(const char *s, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && strchr("abcdefABCDEF", *s))
			d = (unsigned)((*s | 0x20) - 'a' + 10);
		else
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* A number in [lo, hi]; hex ranges in messages when `hex`. */
int ibrd_conf_range(struct ibrd_conf_val *v, const char *text, uint64_t lo, uint64_t hi, bool hex,
		    uint64_t *out)
{
	int rc = ibrd_conf_number(text, out);

	if (rc == -EINVAL)
		return ibrd_conf_why(v, "\"%s\" is not a number", text);
	if (rc == 0 && *out >= lo && *out <= hi)
		return 0;
	if (hex)
		return ibrd_conf_why(v, "%s is out of range 0x%" PRIx64 "..0x%" PRIx64, text, lo,
				     hi);
	return ibrd_conf_why(v, "%s is out of range %" PRIu64 "..%" PRIu64, text, lo, hi);
}

bool ibrd_conf_host_bits(const char *s)
{
	const char *slash = strchr(s, '/');
	char gid[IBR_GID_STRLEN + 8];
	union ibr_gid g;
	struct ibr_gid_prefix p;
	uint64_t len;

	if (!slash || (size_t)(slash - s) >= sizeof(gid))
		return false;
	memcpy(gid, s, (size_t)(slash - s));
	gid[slash - s] = '\0';
	if (strspn(slash + 1, "0123456789") != strlen(slash + 1) || (slash[1] == '0' && slash[2]))
		return false;
	if (ibr_gid_parse(gid, &g) < 0 || ibrd_conf_number(slash + 1, &len) < 0 || len > 128)
		return false;
	p.addr = g;
	p.len = (uint8_t)len;
	return ibr_gid_prefix_normalise(&p);
}

bool ibrd_conf_name_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	return n > 0 && n <= max && strspn(s, IBRD_NAME_CHARS) == n;
}

/* A secret's value is never echoed: a wrong one may be close to the right one. */
int ibrd_conf_value_parse(struct ibrd_conf_val *v)
{
	const struct ibrd_conf_key *k = v->k;
	int rc;

	if (!(k->flags & IBRD_KEY_SECRET))
		return k->parse(v);
	if (v->text && strcmp(v->text, IBRD_CONF_REDACTED) == 0) {
		snprintf(v->why, sizeof(v->why),
			 "\"%s\" is what ibrouterd -n prints for a secret: write the value "
			 "(ibrouterd -N prints it)",
			 IBRD_CONF_REDACTED);
		return -EINVAL;
	}
	rc = k->parse(v);
	if (rc < 0 && k->parse == ibrd_conf_p_key128)
		snprintf(v->why, sizeof(v->why),
			 "not 32 hex digits, or all zero: no key (a secret: the value is not "
			 "shown)");
	else if (rc < 0)
		snprintf(v->why, sizeof(v->why),
			 "not a number in 0x%" PRIx64 "..0x%" PRIx64
			 " (a secret: the value is not shown)",
			 k->min, k->max);
	return rc;
}

/* ---- generic types ---- */

static int ibrd_conf_p_uint(struct ibrd_conf_val *v)
{
	uint64_t x;
	bool hex = v->k->print != ibrd_conf_pr_uint;

	if (ibrd_conf_range(v, v->text, v->k->min, v->k->max, hex, &x) < 0)
		return -EINVAL;
	ibrd_conf_put(ibrd_conf_field(v), v->k->size, x);
	return 0;
}

static int ibrd_conf_bool(struct ibrd_conf_val *v, bool *b)
{
	static const char *const yes[] = { "true", "yes", "on" }, *const no[] = { "false", "no",
										  "off" };

	for (unsigned i = 0; i < 3; i++) {
		if (strcasecmp(v->text, yes[i]) == 0 || strcasecmp(v->text, no[i]) == 0) {
			*b = strcasecmp(v->text, yes[i]) == 0;
			return 0;
		}
	}
	return ibrd_conf_why(v, "\"%s\" is not a boolean (true or false)", v->text);
}

static int ibrd_conf_p_boolean(struct ibrd_conf_val *v)
{
	bool b;

	if (ibrd_conf_bool(v, &b) < 0)
		return -EINVAL;
	ibrd_conf_put(ibrd_conf_field(v), v->k->size, b);
	return 0;
}

/* A bit of router_port.flags (k->max). */
static int ibrd_conf_p_flag(struct ibrd_conf_val *v)
{
	uint8_t *flags = ibrd_conf_field(v);
	bool b;

	if (ibrd_conf_bool(v, &b) < 0)
		return -EINVAL;
	*flags = (uint8_t)(b ? *flags | v->k->max : *flags & ~v->k->max);
	return 0;
}

static int ibrd_conf_p_enum(struct ibrd_conf_val *v)
{
	char list[96] = "";

	for (unsigned i = 0; v->k->words[i]; i++) {
		if (strcmp(v->text, v->k->words[i]) == 0) {
			ibrd_conf_put(ibrd_conf_field(v), v->k->size, i);
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
			 v->k->words[i]);
	}
	return ibrd_conf_why(v, "\"%s\" is not one of %s", v->text, list);
}

/* A string that fits its field (with the NUL), without control characters. */
static int ibrd_conf_p_str(struct ibrd_conf_val *v)
{
	size_t len = strlen(v->text);

	if (!len && !(v->k->flags & IBRD_KEY_EMPTY))
		return ibrd_conf_why(v, "must not be empty");
	if (len >= v->k->size)
		return ibrd_conf_why(v, "is longer than %zu characters", v->k->size - 1);
	for (const char *p = v->text; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return ibrd_conf_why(v, "contains a control character");
	if ((v->k->flags & IBRD_KEY_NAME) && len && !ibrd_conf_name_ok(v->text, len))
		return ibrd_conf_why(v, "\"%s\" has characters other than a-z, 0-9, _ and -",
				     v->text);
	memcpy(ibrd_conf_field(v), v->text, len + 1);
	return 0;
}

/*
 * A 16-byte key (an SA ServiceKey, IBA 15.2.5.14): 32 hex digits, "0x" before
 * them or not; "" for none (all zero, which is what "no key" is on the wire).
 */
static int ibrd_conf_p_key128(struct ibrd_conf_val *v)
{
	uint8_t key[16] = { 0 }, any = 0;

	if (!*v->text) {
		memset(ibrd_conf_field(v), 0, sizeof(key));
		return 0;
	}
	if (ibr_hex_key_parse(v->text, key, sizeof(key)))
		return ibrd_conf_why(v, "is not 32 hex digits");
	for (unsigned i = 0; i < sizeof(key); i++)
		any |= key[i];
	if (!any)
		return ibrd_conf_why(v, "is all zero, which is no key: write \"\" for none");
	memcpy(ibrd_conf_field(v), key, sizeof(key));
	return 0;
}

static int ibrd_conf_p_guid(struct ibrd_conf_val *v)
{
	uint64_t g;

	if (ibr_guid_parse(v->text, &g) < 0)
		return ibrd_conf_why(v, "\"%s\" is not a GUID (0x and 1 to 16 hex digits)",
				     v->text);
	if (g == 0)
		return ibrd_conf_why(v, "must not be zero");
	memcpy(ibrd_conf_field(v), &g, sizeof(g));
	return 0;
}

/* A unicast LID; also "learned" (0) when k->min is 0. */
static int ibrd_conf_p_lid(struct ibrd_conf_val *v)
{
	uint64_t x;

	if (v->k->min == 0 && strcmp(v->text, "learned") == 0)
		x = 0;
	else if (ibrd_conf_number(v->text, &x) < 0)
		return ibrd_conf_why(v, "\"%s\" is not a LID", v->text);
	if ((x || v->k->min) && (x > 0xFFFF || !ibr_lid_is_unicast((uint16_t)x)))
		return ibrd_conf_why(v, "%s is not a unicast LID (1..0xbfff)", v->text);
	ibrd_conf_put(ibrd_conf_field(v), v->k->size, x);
	return 0;
}

static int ibrd_conf_p_mtu(struct ibrd_conf_val *v)
{
	uint64_t x;

	if (ibrd_conf_number(v->text, &x) < 0 || x < 256 || x > 4096 || (x & (x - 1)))
		return ibrd_conf_why(v, "%s is not an IB MTU (256, 512, 1024, 2048 or 4096)",
				     v->text);
	ibrd_conf_put(ibrd_conf_field(v), v->k->size, x);
	return 0;
}

/* chmod(1) style: octal digits, at most 0777. */
static int ibrd_conf_p_mode(struct ibrd_conf_val *v)
{
	unsigned m = 0;
	const char *p = v->text;

	for (; *p >= '0' && *p <= '7' && m <= 0777; p++)
		m = m * 8 + (unsigned)(*p - '0');
	if (p == v->text || *p || m > 0777)
		return ibrd_conf_why(v, "\"%s\" is not an octal mode (0000..0777)", v->text);
	ibrd_conf_put(ibrd_conf_field(v), v->k->size, m);
	return 0;
}

static int ibrd_conf_p_loglevel(struct ibrd_conf_val *v)
{
	int l = log_level_parse(v->text);

	if (l < 0)
		return ibrd_conf_why(v,
				     "\"%s\" is not a log level (err, warning, notice, info, "
				     "debug)",
				     v->text);
	memcpy(ibrd_conf_field(v), &l, sizeof(l));
	return 0;
}

/* ---- IB types ---- */

/* "learned", "fec0:0:0:1::", "fec0:0:0:1::/64" or "0xfec0000000000001". */
static int ibrd_conf_p_prefix(struct ibrd_conf_val *v)
{
	struct ibr_gid_prefix p;
	union ibr_gid g;
	uint64_t x = 0;

	if (strcmp(v->text, "learned") == 0)
		x = 0;
	else if (strchr(v->text, '/') || (v->text[0] == '0' && (v->text[1] | 0x20) == 'x')) {
		if (ibr_gid_prefix_parse(v->text, &p) < 0 || p.len != 64)
			goto bad;
		x = ibr_gid_prefix(&p.addr);
	} else {
		if (ibr_gid_parse(v->text, &g) < 0)
			goto bad;
		if (ibr_gid_guid(&g))
			return ibrd_conf_why(v,
					     "\"%s\" has interface ID bits set (a subnet prefix "
					     "is the upper 64 bits)",
					     v->text);
		x = ibr_gid_prefix(&g);
	}
	if (x >> 56 == 0xff)
		return ibrd_conf_why(v, "\"%s\" is a multicast prefix", v->text);
	memcpy(ibrd_conf_field(v), &x, sizeof(x));
	return 0;
bad:
	return ibrd_conf_why(v,
			     "\"%s\" is not a subnet prefix (fec0:0:0:1:: or "
			     "0xfec0000000000001)",
			     v->text);
}

/* ---- the tables ---- */

static bool ibrd_conf_when_sim(const void *o)
{
	return ((const struct ibrd_conf_port *)o)->data == IBRD_DATA_SIM;
}

static bool ibrd_conf_when_verbs(const void *o)
{
	return ((const struct ibrd_conf_port *)o)->data == IBRD_DATA_VERBS;
}

static bool ibrd_conf_when_umad(const void *o)
{
	return ((const struct ibrd_conf_port *)o)->mad == IBRD_MAD_UMAD;
}

/* a group the router routes keeps its HopLmt, less one: hop-limit is a feed's */
static bool ibrd_conf_when_feed(const void *o)
{
	return ((const struct ibrd_conf_mcast *)o)->feed[0] != '\0';
}

static bool ibrd_conf_when_ibsim(const void *o)
{
	return ((const struct ibrd_conf_port *)o)->mad == IBRD_MAD_IBSIM;
}

#define FIELD(T, f) .off = offsetof(T, f), .size = sizeof(((T *)0)->f)
#define KEY2(n, p, pr, T, f, ...)                                                             \
	{                                                                                     \
		.name = n, .parse = ibrd_conf_p_##p, .print = ibrd_conf_pr_##pr, FIELD(T, f), \
		__VA_ARGS__                                                                   \
	}
#define KEY(n, p, T, f, ...)	      KEY2(n, p, p, T, f, __VA_ARGS__)
#define KEY_HEX(n, T, f, lo, hi, ...) KEY2(n, uint, hex, T, f, .min = lo, .max = hi, __VA_ARGS__)
#define WHEN(fn, text)		      .when = ibrd_conf_when_##fn, .when_text = text
#define NUM(lo, hi)		      .min = lo, .max = hi

static const char *const ibrd_conf_w_data[] = { "none", "sim", "verbs", NULL };
static const char *const ibrd_conf_w_mad[] = { "none", "umad", "ibsim", NULL };
static const char *const ibrd_conf_w_rpf[] = { "off", "loose", "strict", NULL };
/* enum router_worker_mode */
static const char *const ibrd_conf_w_wmode[] = { "event", "busy", "hybrid", NULL };
static const char *const ibrd_conf_w_sma_policy[] = { "master-sm", "open", NULL };

#define C struct ibrd_conf
static const struct ibrd_conf_key ibrd_conf_k_router[] = {
	[IBRD_RK_NAME] = KEY("name", str, C, name),
	[IBRD_RK_NODE_GUID] = KEY("node-guid", guid, C, node_guid, .flags = IBRD_KEY_REQ),
	[IBRD_RK_SYSIMG] = KEY("system-image-guid", guid, C, system_image_guid),
	[IBRD_RK_DESC] = KEY("node-description", str, C, node_desc),
};

#define P struct ibrd_conf_port
static const struct ibrd_conf_key ibrd_conf_k_port[] = {
	[IBRD_PK_DATA] = KEY("data", enum, P, data, .words = ibrd_conf_w_data,
			     .flags = IBRD_KEY_REQ),
	[IBRD_PK_SIM_SOCKET] = KEY("sim-socket", str, P, sim_socket, .flags = IBRD_KEY_REQ,
				   WHEN(sim, "data = sim")),
	[IBRD_PK_SIM_PEER] = KEY("sim-peer", str, P, sim_peer, .flags = IBRD_KEY_REQ,
				 WHEN(sim, "data = sim")),
	[IBRD_PK_DEVICE] = KEY("device", str, P, device, .flags = IBRD_KEY_REQ,
			       WHEN(verbs, "data = verbs")),
	[IBRD_PK_DEVICE_PORT] = KEY("device-port", uint, P, device_port, NUM(1, 254),
				    WHEN(verbs, "data = verbs")),
	[IBRD_PK_RELAY_QKEY] = KEY_HEX("relay-qkey", P, relay_qkey, 1, UINT32_MAX,
				       WHEN(verbs, "data = verbs")),
	[IBRD_PK_RQ_DEPTH] = KEY("rq-depth", uint, P, rq_depth,
				 NUM(IO_VERBS_RQ_DEPTH_MIN, IO_VERBS_RQ_DEPTH_MAX),
				 WHEN(verbs, "data = verbs")),
	[IBRD_PK_SQ_DEPTH] = KEY("sq-depth", uint, P, sq_depth,
				 NUM(IO_VERBS_SQ_DEPTH_MIN, IO_VERBS_SQ_DEPTH_MAX),
				 WHEN(verbs, "data = verbs")),
	[IBRD_PK_MAD] = KEY("mad", enum, P, mad, .words = ibrd_conf_w_mad),
	[IBRD_PK_UMAD_CA] = KEY("umad-ca", str, P, umad_ca, WHEN(umad, "mad = umad")),
	[IBRD_PK_UMAD_PORT] = KEY("umad-port", uint, P, umad_port, NUM(1, 254),
				  WHEN(umad, "mad = umad")),
	[IBRD_PK_IBSIM_SOCKET] = KEY("ibsim-socket", str, P, ibsim_socket, .flags = IBRD_KEY_REQ,
				     WHEN(ibsim, "mad = ibsim")),
	[IBRD_PK_IBSIM_NODE] = KEY("ibsim-node", str, P, ibsim_node, .flags = IBRD_KEY_REQ,
				   WHEN(ibsim, "mad = ibsim")),
	[IBRD_PK_IBSIM_PORT] = KEY("ibsim-port", uint, P, ibsim_port, NUM(1, 254),
				   WHEN(ibsim, "mad = ibsim")),
	[IBRD_PK_PORT_GUID] = KEY("port-guid", guid, P, rp.guid),
	[IBRD_PK_SITE] = KEY("site", str, P, site, .flags = IBRD_KEY_NAME),
	[IBRD_PK_LID] = KEY("lid", lid, P, rp.lid),
	[IBRD_PK_LMC] = KEY("lmc", uint, P, rp.lmc, NUM(0, IBR_LMC_MAX)),
	[IBRD_PK_PREFIX] = KEY("subnet-prefix", prefix, P, rp.prefix),
	[IBRD_PK_MTU] = KEY2("mtu", mtu, uint, P, rp.mtu),
	[IBRD_PK_PKEYS] = KEY("pkeys", pkeys, P, rp.pkeys, .flags = IBRD_KEY_LIST),
	[IBRD_PK_TCLASS_SL] = KEY("tclass-sl", tclass_sl, P, rp.tclass_sl, .flags = IBRD_KEY_LIST),
	[IBRD_PK_SL_VL] = KEY("sl-vl", sl_vl, P, rp.sl_vl, .flags = IBRD_KEY_LIST),
	[IBRD_PK_VCRC] = KEY("vcrc-check", flag, P, rp.flags, .max = ROUTER_PORT_VCRC_CHECK),
	[IBRD_PK_ICRC] = KEY("icrc-check", flag, P, rp.flags, .max = ROUTER_PORT_ICRC_CHECK),
	[IBRD_PK_RPF] = KEY("rpf", enum, P, rp.rpf, .words = ibrd_conf_w_rpf),
	[IBRD_PK_SA_CLIENT] = KEY("sa-client", boolean, P, sa_client),
	[IBRD_PK_UP] = KEY("up", flag, P, rp.flags, .max = ROUTER_PORT_UP),
	[IBRD_PK_SMA_SET_POLICY] = KEY("sma-set-policy", enum, P, sma_set_policy,
				       .words = ibrd_conf_w_sma_policy),
	[IBRD_PK_SMA_MKEY] = KEY_HEX("sma-mkey", P, sma_mkey, 0, UINT64_MAX,
				     .flags = IBRD_KEY_SECRET),
};

#define R struct ibrd_conf_route
static const struct ibrd_conf_key ibrd_conf_k_route[] = {
	[IBRD_TK_PORT] = KEY("port", str, R, port, .flags = IBRD_KEY_REQ | IBRD_KEY_NAME),
	[IBRD_TK_VIA] = KEY("via", via, R, kind, .flags = IBRD_KEY_LIST),
	[IBRD_TK_LMC] = KEY("lmc", uint, R, lmc, NUM(0, IBR_LMC_MAX)),
	[IBRD_TK_METRIC] = KEY("metric", uint, R, metric, NUM(0, UINT32_MAX)),
};

#define N struct ibrd_conf_neigh
static const struct ibrd_conf_key ibrd_conf_k_neigh[] = {
	/* a neighbour is a port's (the RIB keys it by port and GUID) */
	[IBRD_NK_PORT] = KEY("port", str, N, port,
			     .flags = IBRD_KEY_REQ | IBRD_KEY_NAME | IBRD_KEY_ID),
	[IBRD_NK_LID] = KEY("lid", lid, N, lid, .min = 1, .flags = IBRD_KEY_REQ),
	[IBRD_NK_LMC] = KEY("lmc", uint, N, lmc, NUM(0, IBR_LMC_MAX)),
};

#define M struct ibrd_conf_mcast
static const struct ibrd_conf_key ibrd_conf_k_mcast[] = {
	/* a group is one per MGID and port */
	[IBRD_MK_PORT] = KEY("port", str, M, port,
			     .flags = IBRD_KEY_REQ | IBRD_KEY_NAME | IBRD_KEY_ID),
	[IBRD_MK_MLID] = KEY_HEX("mlid", M, mlid, IBR_LID_MCAST_MIN, IBR_LID_MCAST_MAX,
				 .flags = IBRD_KEY_REQ),
	[IBRD_MK_SL] = KEY("sl", uint, M, sl, NUM(0, 15)),
	[IBRD_MK_TCLASS] = KEY("tclass", uint, M, tclass, NUM(0, 255)),
	[IBRD_MK_FLOWLABEL] = KEY("flowlabel", uint, M, flowlabel, NUM(0, 0xFFFFF)),
	[IBRD_MK_PKEY] = KEY2("pkey", pkey, hex, M, pkey),
	[IBRD_MK_QKEY] = KEY_HEX("qkey", M, qkey, 0, UINT32_MAX),
	[IBRD_MK_MTU] = KEY2("mtu", mtu, uint, M, mtu),
	[IBRD_MK_RECEIVERS] = KEY("receivers", boolean, M, receivers),
	[IBRD_MK_SENDERS] = KEY("senders", boolean, M, senders),
	[IBRD_MK_FEED] = KEY("feed", str, M, feed, .flags = IBRD_KEY_NAME | IBRD_KEY_EMPTY),
	[IBRD_MK_HOP_LIMIT] = KEY("hop-limit", uint, M, hop_limit, NUM(1, 255),
				  WHEN(feed, "a feed")),
};

#define Y struct ibrd_conf_proxy
static const struct ibrd_conf_key ibrd_conf_k_proxy[] = {
	[IBRD_YK_PORT] = KEY("port", str, Y, port, .flags = IBRD_KEY_REQ | IBRD_KEY_NAME),
	/* 0xFFFFFF is the multicast DestQP (IBA 10.5.1) */
	[IBRD_YK_QPN] = KEY_HEX("qpn", Y, qpn, 0, 0xFFFFFE, .flags = IBRD_KEY_REQ),
	[IBRD_YK_QKEY] = KEY_HEX("qkey", Y, qkey, 0, UINT32_MAX),
};

static const struct ibrd_conf_key ibrd_conf_k_learning[] = {
	[IBRD_LK_SA_CLIENT] = KEY("sa-client", boolean, C, sa_client),
	[IBRD_LK_OSM_PLUGIN] = KEY("osm-plugin", boolean, C, osm_plugin),
	[IBRD_LK_RESYNC] = KEY("resync-interval", uint, C, resync_interval, NUM(0, 86400)),
	[IBRD_LK_ANNOUNCE] = KEY("announce-routes", boolean, C, announce_routes),
	/* OpenSM counts leases in seconds, checked at least every 20 s */
	[IBRD_LK_ANNOUNCE_LEASE] = KEY("announce-lease", uint, C, announce_lease, NUM(10, 86400)),
	[IBRD_LK_PEER_ROUTES] = KEY("peer-routes", boolean, C, peer_routes),
	[IBRD_LK_PEER_INTERVAL] = KEY("peer-interval", uint, C, peer_interval, NUM(1, 3600)),
	[IBRD_LK_PEER_HOLDDOWN] = KEY("peer-holddown", uint, C, peer_holddown, NUM(0, 3600)),
	[IBRD_LK_PEER_ECMP] = KEY("peer-ecmp", uint, C, peer_ecmp, NUM(1, ROUTER_ECMP_MAX)),
	[IBRD_LK_SM_KEY] = KEY_HEX("sm-key", C, sm_key, 0, UINT64_MAX, .flags = IBRD_KEY_SECRET),
	/* the ServiceKey the OpenSM plugin's srkey= checks (ibrouter-osm(8)) */
	[IBRD_LK_ANNOUNCE_KEY] = KEY("announce-key", key128, C, announce_key,
				     .flags = IBRD_KEY_SECRET | IBRD_KEY_EMPTY),
};

static const struct ibrd_conf_key ibrd_conf_k_multicast[] = {
	[IBRD_XK_SCOPES] = KEY("scopes", scopes, C, mcast_scopes, .flags = IBRD_KEY_LIST),
	[IBRD_XK_INCLUDE] = KEY("include", mprefix, C, include, .flags = IBRD_KEY_LIST),
	[IBRD_XK_EXCLUDE] = KEY("exclude", mprefix, C, exclude, .max = 1, .flags = IBRD_KEY_LIST),
};

static const struct ibrd_conf_key ibrd_conf_k_control[] = {
	[IBRD_CK_SOCKET] = KEY("socket", str, C, ctl_socket),
	[IBRD_CK_MODE] = KEY("mode", mode, C, ctl_mode),
	[IBRD_CK_GROUP] = KEY("group", str, C, ctl_group, .flags = IBRD_KEY_EMPTY),
};

static const struct ibrd_conf_key ibrd_conf_k_top[] = {
	[IBRD_GK_WORKERS] = KEY("workers", uint, C, workers, NUM(1, 64)),
	[IBRD_GK_WORKER_MODE] = KEY("worker-mode", enum, C, worker_mode,
				    .words = ibrd_conf_w_wmode),
	[IBRD_GK_WORKER_POLL] = KEY("worker-poll", uint, C, worker_poll, NUM(1, 1000000)),
	[IBRD_GK_WORKER_CPUS] = KEY("worker-cpus", cpus, C, worker_cpus, .flags = IBRD_KEY_LIST),
	[IBRD_GK_LOG_LEVEL] = KEY("log-level", loglevel, C, log_level),
	[IBRD_GK_PID_FILE] = KEY("pid-file", str, C, pid_file, .flags = IBRD_KEY_EMPTY),
	[IBRD_GK_USER] = KEY("user", str, C, user, .flags = IBRD_KEY_EMPTY),
};

#define TABLE(n, t, keys)                                  \
	{                                                  \
		n, t, keys, sizeof(keys) / sizeof(keys[0]) \
	}
const struct ibrd_conf_keys ibrd_conf_keys[IBRD_SECT_MAX] = {
	[IBRD_SECT_ROUTER] = TABLE("router", false, ibrd_conf_k_router),
	[IBRD_SECT_PORT] = TABLE("port", true, ibrd_conf_k_port),
	[IBRD_SECT_ROUTE] = TABLE("route", true, ibrd_conf_k_route),
	[IBRD_SECT_NEIGH] = TABLE("neighbour", true, ibrd_conf_k_neigh),
	[IBRD_SECT_MCAST] = TABLE("mcast", true, ibrd_conf_k_mcast),
	[IBRD_SECT_PROXY] = TABLE("proxy", true, ibrd_conf_k_proxy),
	[IBRD_SECT_LEARNING] = TABLE("learning", false, ibrd_conf_k_learning),
	[IBRD_SECT_MULTICAST] = TABLE("multicast", false, ibrd_conf_k_multicast),
	[IBRD_SECT_CONTROL] = TABLE("control", false, ibrd_conf_k_control),
	[IBRD_SECT_TOP] = TABLE(NULL, false, ibrd_conf_k_top),
};

_Static_assert(IBRD_PK_MAX <= IBRD_KEYS_MAX, "IBRD_KEYS_MAX too small");
_Static_assert(sizeof(ibrd_conf_k_port) / sizeof(ibrd_conf_k_port[0]) == IBRD_PK_MAX,
	       "port keys and their enum disagree");
