/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_print.c - the normalised config (ibrouterd -n): sections in a
 * fixed order, every key that applies with its effective value, canonical
 * forms, no comments.  It parses back to an equal struct ibrd_conf, unless
 * its secrets are left out (IBRD_CONF_REDACT: they print as "redacted").
 * Each key prints with the function its table entry names
 * (ibrd_conf_keys.c).
 */
#include "daemon/conf/ibrd_conf.h"
#include "daemon/conf/ibrd_conf_int.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_log.h"

#include <inttypes.h>
#include <string.h>

static const void *ibrd_conf_cfield(const struct ibrd_conf_key *k, const void *obj)
{
	return (const char *)obj + k->off;
}

/* Load an unsigned field of 1, 2, 4 or 8 bytes (bool and enums too). */
static uint64_t ibrd_conf_get(const void *f, size_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		memcpy(&u8, f, 1);
		return u8;
	case 2:
		memcpy(&u16, f, 2);
		return u16;
	case 4:
		memcpy(&u32, f, 4);
		return u32;
	default:
		memcpy(&u64, f, 8);
		return u64;
	}
}

void ibrd_conf_print_string(const char *s, FILE *out)
{
	fputc('"', out);
	for (; *s; s++) {
		/* '$' too: "${" is refused (libconfuse would expand it) */
		if (*s == '"' || *s == '\\' || *s == '$')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* ---- one printer per kind of value (the key tables name them) ---- */

void ibrd_conf_pr_uint(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	fprintf(out, "%" PRIu64, ibrd_conf_get(ibrd_conf_cfield(k, obj), k->size));
}

/* Hex with two digits a byte: P_Keys, MLIDs, Q_Keys, the SM_Key. */
void ibrd_conf_pr_hex(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	fprintf(out, "0x%0*" PRIx64, (int)k->size * 2,
		ibrd_conf_get(ibrd_conf_cfield(k, obj), k->size));
}

void ibrd_conf_pr_boolean(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	fputs(ibrd_conf_get(ibrd_conf_cfield(k, obj), k->size) ? "true" : "false", out);
}

void ibrd_conf_pr_flag(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	fputs(*(const uint8_t *)ibrd_conf_cfield(k, obj) & k->max ? "true" : "false", out);
}

void ibrd_conf_pr_enum(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	fputs(k->words[ibrd_conf_get(ibrd_conf_cfield(k, obj), k->size)], out);
}

/* A 16-byte key: "" for none, else 0x and its 32 hex digits. */
void ibrd_conf_pr_key128(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const uint8_t *key = ibrd_conf_cfield(k, obj);
	uint8_t any = 0;

	for (unsigned i = 0; i < 16; i++)
		any |= key[i];
	if (!any) {
		fputs("\"\"", out);
		return;
	}
	fputs("0x", out);
	for (unsigned i = 0; i < 16; i++)
		fprintf(out, "%02x", key[i]);
}

void ibrd_conf_pr_str(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	ibrd_conf_print_string(ibrd_conf_cfield(k, obj), out);
}

void ibrd_conf_pr_guid(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	char buf[IBR_GUID_STRLEN];
	uint64_t g;

	memcpy(&g, ibrd_conf_cfield(k, obj), sizeof(g));
	fputs(ibr_guid_ntop(g, buf, sizeof(buf)), out);
}

void ibrd_conf_pr_lid(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	uint64_t lid = ibrd_conf_get(ibrd_conf_cfield(k, obj), k->size);

	if (lid)
		fprintf(out, "%" PRIu64, lid);
	else
		fputs("learned", out);
}

void ibrd_conf_pr_mode(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	fprintf(out, "%04" PRIo64, ibrd_conf_get(ibrd_conf_cfield(k, obj), k->size));
}

void ibrd_conf_pr_loglevel(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	int l;

	memcpy(&l, ibrd_conf_cfield(k, obj), sizeof(l));
	fputs(log_level_name(l), out);
}

void ibrd_conf_pr_prefix(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	char buf[IBR_GID_STRLEN];
	union ibr_gid g;
	uint64_t x;

	memcpy(&x, ibrd_conf_cfield(k, obj), sizeof(x));
	if (!x) {
		fputs("learned", out);
		return;
	}
	g = ibr_gid_make(x, 0);
	fprintf(out, "\"%s\"", ibr_gid_ntop(&g, buf, sizeof(buf)));
}

void ibrd_conf_pr_pkeys(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const struct router_port *rp = &((const struct ibrd_conf_port *)obj)->rp;

	fputc('{', out);
	for (unsigned i = 0; i < rp->npkeys; i++)
		fprintf(out, "%s0x%04x", i ? ", " : "", rp->pkeys[i]);
	fputc('}', out);
}

void ibrd_conf_pr_cpus(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const struct ibrd_conf *c = obj;

	(void)k;
	fputc('{', out);
	for (unsigned i = 0; i < c->nworker_cpus; i++)
		fprintf(out, "%s%u", i ? ", " : "", c->worker_cpus[i]);
	fputc('}', out);
}

void ibrd_conf_pr_tclass_sl(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const struct router_port *rp = &((const struct ibrd_conf_port *)obj)->rp;
	const char *sep = "";

	fputc('{', out);
	for (unsigned t = 0; t < 256; t++) {
		if (rp->tclass_sl[t] == ROUTER_SL_KEEP)
			continue;
		fprintf(out, "%s\"%u=%u\"", sep, t, rp->tclass_sl[t]);
		sep = ", ";
	}
	fputc('}', out);
}

void ibrd_conf_pr_sl_vl(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const struct router_port *rp = &((const struct ibrd_conf_port *)obj)->rp;

	fputc('{', out);
	for (unsigned sl = 0; sl < 16; sl++)
		fprintf(out, "%s%u", sl ? ", " : "", rp->sl_vl[sl]);
	fputc('}', out);
}

void ibrd_conf_pr_via(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const struct ibrd_conf_route *r = obj;

	if (r->kind == ROUTER_NH_ROUTER && r->nlid == 1) {
		fprintf(out, "%u", r->lid[0]);
	} else if (r->kind == ROUTER_NH_ROUTER) {
		fputc('{', out);
		for (unsigned i = 0; i < r->nlid; i++)
			fprintf(out, "%s%u", i ? ", " : "", r->lid[i]);
		fputc('}', out);
	} else
		fputs(r->kind == ROUTER_NH_ALGO ? "algorithmic" : "direct", out);
}

void ibrd_conf_pr_scopes(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const struct ibrd_conf *c = obj;
	const char *sep = "";

	fputc('{', out);
	for (size_t i = 0; i < IBRD_CONF_NSCOPES - 1; i++) { /* not the other spelling */
		if (!(c->mcast_scopes & (1u << ibrd_conf_scopes[i].scope)))
			continue;
		fprintf(out, "%s\"%s\"", sep, ibrd_conf_scopes[i].name);
		sep = ", ";
	}
	fputc('}', out);
}

void ibrd_conf_pr_mprefix(const struct ibrd_conf_key *k, const void *obj, FILE *out)
{
	const struct ibrd_conf *c = obj;
	const struct ibrd_conf_mprefix *list = k->max ? c->exclude : c->include;
	unsigned n = k->max ? c->nexclude : c->ninclude;
	char buf[IBR_GID_PREFIX_STRLEN];

	fputc('{', out);
	for (unsigned i = 0; i < n; i++) {
		struct ibr_gid_prefix p = { .len = list[i].plen };

		memcpy(p.addr.raw, list[i].mgid, 16);
		fprintf(out, "%s\"%s\"", i ? ", " : "", ibr_gid_prefix_ntop(&p, buf, sizeof(buf)));
	}
	fputc('}', out);
}

/* ---- the whole config ---- */

static void ibrd_conf_print_keys(FILE *out, enum ibrd_conf_sect_id id, const void *obj,
				 const char *indent, enum ibrd_conf_secrets secrets)
{
	const struct ibrd_conf_keys *t = &ibrd_conf_keys[id];

	for (unsigned i = 0; i < t->n; i++) {
		const struct ibrd_conf_key *k = &t->keys[i];

		if (k->when && !k->when(obj))
			continue;
		fprintf(out, "%s%s = ", indent, k->name);
		/* even a default: that the key is the default is worth knowing */
		if ((k->flags & IBRD_KEY_SECRET) && secrets != IBRD_CONF_SECRETS)
			fputs(IBRD_CONF_REDACTED, out);
		else
			k->print(k, obj, out);
		fputc('\n', out);
	}
}

static void ibrd_conf_print_sect(FILE *out, enum ibrd_conf_sect_id id, const char *title,
				 const void *obj, enum ibrd_conf_secrets secrets)
{
	fputs(ibrd_conf_keys[id].name, out);
	if (title) {
		fputc(' ', out);
		ibrd_conf_print_string(title, out);
	}
	fputs(" {\n", out);
	ibrd_conf_print_keys(out, id, obj, "\t", secrets);
	fputs("}\n\n", out);
}

void ibrd_conf_print(const struct ibrd_conf *c, FILE *out, enum ibrd_conf_secrets s)
{
	char buf[IBR_GID_PREFIX_STRLEN];

	ibrd_conf_print_sect(out, IBRD_SECT_ROUTER, NULL, c, s);
	for (unsigned i = 0; i < c->nports; i++)
		ibrd_conf_print_sect(out, IBRD_SECT_PORT, c->port[i].name, &c->port[i], s);
	for (unsigned i = 0; i < c->nroutes; i++) {
		struct ibr_gid_prefix p = { .addr = ibr_gid_make(c->routes[i].prefix, 0),
					    .len = c->routes[i].plen };

		ibrd_conf_print_sect(out, IBRD_SECT_ROUTE,
				     ibr_gid_prefix_ntop(&p, buf, sizeof(buf)), &c->routes[i], s);
	}
	for (unsigned i = 0; i < c->nneighs; i++)
		ibrd_conf_print_sect(out, IBRD_SECT_NEIGH,
				     ibr_guid_ntop(c->neighs[i].guid, buf, sizeof(buf)),
				     &c->neighs[i], s);
	for (unsigned i = 0; i < c->nmcasts; i++) {
		union ibr_gid g;

		memcpy(g.raw, c->mcasts[i].mgid, sizeof(g.raw));
		ibrd_conf_print_sect(out, IBRD_SECT_MCAST, ibr_gid_ntop(&g, buf, sizeof(buf)),
				     &c->mcasts[i], s);
	}
	for (unsigned i = 0; i < c->nproxies; i++) {
		union ibr_gid g;

		memcpy(g.raw, c->proxies[i].gid, sizeof(g.raw));
		ibrd_conf_print_sect(out, IBRD_SECT_PROXY, ibr_gid_ntop(&g, buf, sizeof(buf)),
				     &c->proxies[i], s);
	}
	ibrd_conf_print_sect(out, IBRD_SECT_LEARNING, NULL, c, s);
	ibrd_conf_print_sect(out, IBRD_SECT_MULTICAST, NULL, c, s);
	ibrd_conf_print_sect(out, IBRD_SECT_CONTROL, NULL, c, s);
	ibrd_conf_print_keys(out, IBRD_SECT_TOP, c, "", s);
}
