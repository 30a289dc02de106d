/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_lists.c - the keys of ibrouterd.conf(5) whose value is a list or
 * a P_Key: pkey, pkeys, worker-cpus, tclass-sl, sl-vl, via, scopes,
 * include and exclude.  Each parse function sees one value at a time (the
 * list's first call, v->text NULL, gives its length), as those of
 * ibrd_conf_keys.c do; the tables there name them.
 */
#include "daemon/conf/ibrd_conf_int.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* A P_Key: 16 bits, the base (low 15 bits) not 0 (IBA 10.9.1.2). */
static int ibrd_conf_pkey(struct ibrd_conf_val *v, uint16_t *out)
{
	uint64_t x;

	if (ibrd_conf_range(v, v->text, 0, 0xFFFF, true, &x) < 0)
		return -EINVAL;
	if (!(x & 0x7FFF))
		return ibrd_conf_why(v, "%s is not a valid P_Key (base 0 is reserved)", v->text);
	*out = (uint16_t)x;
	return 0;
}

int ibrd_conf_p_pkey(struct ibrd_conf_val *v)
{
	uint16_t pk = 0;

	if (ibrd_conf_pkey(v, &pk) < 0)
		return -EINVAL;
	memcpy(ibrd_conf_field(v), &pk, sizeof(pk));
	return 0;
}

/* pkeys = {0xffff, ...}: obj is the port; P_Key checks on egress when given. */
int ibrd_conf_p_pkeys(struct ibrd_conf_val *v)
{
	struct router_port *rp = &((struct ibrd_conf_port *)v->obj)->rp;
	uint16_t pk = 0;

	if (!v->text) {
		rp->npkeys = 0;
		rp->flags = (uint8_t)(v->n ? rp->flags | ROUTER_PORT_PKEY_CHECK
					   : rp->flags & ~ROUTER_PORT_PKEY_CHECK);
		if (v->n > ROUTER_MAX_PKEYS)
			return ibrd_conf_stop(v, "%u P_Keys, at most %d", v->n, ROUTER_MAX_PKEYS);
		return 0;
	}
	if (ibrd_conf_pkey(v, &pk) < 0)
		return -EINVAL;
	/* base 0 is refused above, more than ROUTER_MAX_PKEYS before the first */
	if (router_port_pkey_add(rp, pk) == -EEXIST)
		return ibrd_conf_why(v, "%s: partition 0x%04x is already listed", v->text,
				     pk & 0x7FFF);
	return 0;
}

/* worker-cpus = {2, 3, ...}: the CPUs workers are pinned to, in turn. */
int ibrd_conf_p_cpus(struct ibrd_conf_val *v)
{
	struct ibrd_conf *c = v->obj;
	char *end;
	unsigned long cpu;

	if (!v->text) {
		c->nworker_cpus = 0;
		if (v->n > IBRD_WORKER_CPUS_MAX)
			return ibrd_conf_stop(v, "%u CPUs, at most %d", v->n, IBRD_WORKER_CPUS_MAX);
		return 0;
	}
	errno = 0;
	cpu = strtoul(v->text, &end, 10);
	/* CPU_SETSIZE: what sched_setaffinity can name */
	if (end == v->text || *end || errno || v->text[0] == '-' || cpu >= CPU_SETSIZE)
		return ibrd_conf_why(v, "\"%s\" is not a CPU number (0..%d)", v->text,
				     CPU_SETSIZE - 1);
	for (unsigned i = 0; i < c->nworker_cpus; i++)
		if (c->worker_cpus[i] == cpu)
			return ibrd_conf_why(v, "CPU %lu is already listed", cpu);
	c->worker_cpus[c->nworker_cpus++] = (uint16_t)cpu;
	return 0;
}

/* tclass-sl = {"TClass=SL", ...}; unlisted TClasses keep their SL. */
int ibrd_conf_p_tclass_sl(struct ibrd_conf_val *v)
{
	struct router_port *rp = &((struct ibrd_conf_port *)v->obj)->rp;
	char tc[24];
	const char *eq;
	uint64_t t, sl;

	if (!v->text) {
		memset(rp->tclass_sl, ROUTER_SL_KEEP, sizeof(rp->tclass_sl));
		return 0;
	}
	eq = strchr(v->text, '=');
	if (eq && (size_t)(eq - v->text) < sizeof(tc)) {
		memcpy(tc, v->text, (size_t)(eq - v->text));
		tc[eq - v->text] = '\0';
	}
	if (!eq || (size_t)(eq - v->text) >= sizeof(tc) || ibrd_conf_number(tc, &t) < 0 ||
	    ibrd_conf_number(eq + 1, &sl) < 0)
		return ibrd_conf_why(v, "\"%s\" is not TClass=SL", v->text);
	if (t > 255 || sl > 15)
		return ibrd_conf_why(v, "\"%s\": %s %" PRIu64 " is out of range 0..%u", v->text,
				     t > 255 ? "TClass" : "SL", t > 255 ? t : sl,
				     t > 255 ? 255 : 15);
	if (rp->tclass_sl[t] != ROUTER_SL_KEEP)
		return ibrd_conf_why(v, "\"%s\": TClass %" PRIu64 " is already mapped", v->text, t);
	rp->tclass_sl[t] = (uint8_t)sl;
	return 0;
}

/* sl-vl = {16 VLs}: the VL of each SL on egress; VL15 never carries data. */
int ibrd_conf_p_sl_vl(struct ibrd_conf_val *v)
{
	struct router_port *rp = &((struct ibrd_conf_port *)v->obj)->rp;
	uint64_t vl;

	if (!v->text) {
		if (v->n != 16)
			return ibrd_conf_stop(v, "%u entries, need 16 (the VL of SL 0 to 15)",
					      v->n);
		return 0;
	}
	if (ibrd_conf_number(v->text, &vl) == 0 && vl == 15)
		return ibrd_conf_why(v, "SL %u: VL15 carries only subnet management", v->idx);
	if (ibrd_conf_range(v, v->text, 0, 14, false, &vl) < 0)
		return -EINVAL;
	rp->sl_vl[v->idx] = (uint8_t)vl;
	return 0;
}

/*
 * via = direct | algorithmic | the next router's LID | {LID, LID, ...}:
 * up to ROUTER_ECMP_MAX next routers of equal cost, each once (a list of
 * one is a LID alone; direct and algorithmic only alone).
 */
int ibrd_conf_p_via(struct ibrd_conf_val *v)
{
	struct ibrd_conf_route *r = v->obj;
	uint64_t lid;

	if (!v->text) { /* the list starts: n values */
		memset(r->lid, 0, sizeof(r->lid));
		r->nlid = 0;
		if (v->n > ROUTER_ECMP_MAX) /* its values are not looked at */
			return ibrd_conf_stop(v, "%u next routers: at most %u", v->n,
					      ROUTER_ECMP_MAX);
		return 0;
	}
	if (strcmp(v->text, "direct") == 0 || strcmp(v->text, "algorithmic") == 0) {
		if (v->n > 1)
			return ibrd_conf_why(v, "\"%s\" only alone, not among next routers",
					     v->text);
		r->kind = strcmp(v->text, "direct") == 0 ? ROUTER_NH_DIRECT : ROUTER_NH_ALGO;
		return 0;
	}
	if (ibrd_conf_number(v->text, &lid) || lid > 0xFFFF || !ibr_lid_is_unicast((uint16_t)lid))
		return ibrd_conf_why(v, "\"%s\" is not direct, algorithmic or a unicast LID",
				     v->text);
	for (unsigned i = 0; i < r->nlid; i++)
		if (r->lid[i] == lid)
			return ibrd_conf_why(v, "LID %s twice", v->text);
	if (r->nlid == ROUTER_ECMP_MAX) /* the list's start said so */
		return -E2BIG;
	r->kind = ROUTER_NH_ROUTER;
	r->lid[r->nlid++] = (uint16_t)lid;
	return 0;
}

/* ---- multicast policy ---- */

const struct ibrd_conf_scope ibrd_conf_scopes[IBRD_CONF_NSCOPES] = {
	{ "admin", IBR_MCAST_SCOPE_ADMIN },	 { "site", IBR_MCAST_SCOPE_SITE },
	{ "organisation", IBR_MCAST_SCOPE_ORG }, { "global", IBR_MCAST_SCOPE_GLOBAL },
	{ "organization", IBR_MCAST_SCOPE_ORG }, /* accepted, printed the other way */
};

int ibrd_conf_p_scopes(struct ibrd_conf_val *v)
{
	struct ibrd_conf *c = v->obj;

	if (!v->text) {
		c->mcast_scopes = 0;
		return 0;
	}
	for (size_t i = 0; i < IBRD_CONF_NSCOPES; i++) {
		if (strcmp(v->text, ibrd_conf_scopes[i].name) == 0) {
			c->mcast_scopes |= (uint16_t)(1u << ibrd_conf_scopes[i].scope);
			return 0;
		}
	}
	if (strcmp(v->text, "link") == 0 || strcmp(v->text, "interface") == 0)
		return ibrd_conf_why(v, "\"%s\": %s-local groups are never routed", v->text,
				     v->text);
	return ibrd_conf_why(v, "\"%s\" is not a scope (admin, site, organisation, global)",
			     v->text);
}

/* include / exclude (k->max 0 / 1): lists of MGID prefixes. */
int ibrd_conf_p_mprefix(struct ibrd_conf_val *v)
{
	struct ibrd_conf *c = v->obj;
	struct ibrd_conf_mprefix **list = v->k->max ? &c->exclude : &c->include;
	unsigned *n = v->k->max ? &c->nexclude : &c->ninclude;
	struct ibr_gid_prefix p;
	bool v4;

	if (!v->text) {
		free(*list);
		*n = 0;
		*list = v->n ? calloc(v->n, sizeof(**list)) : NULL;
		if (v->n && !*list)
			return ibrd_conf_stop(v, "out of memory");
		return 0;
	}
	if (ibr_gid_prefix_parse(v->text, &p) < 0 && ibrd_conf_host_bits(v->text))
		return ibrd_conf_why(v, "\"%s\": bits set past the prefix length", v->text);
	/* MGIDs (ff00::/8), or IPv4 groups (::ffff:224.0.0.0/100, ibr_gid_is_mcast) */
	if (ibr_gid_prefix_parse(v->text, &p) < 0)
		p.len = 0;
	v4 = p.len >= 100 && ibr_gid_is_v4mcast(&p.addr);
	if (!v4 && (p.len < 8 || p.addr.raw[0] != 0xFF))
		return ibrd_conf_why(v,
				     "\"%s\" is not a multicast prefix (ff00::/8 or longer, or "
				     "within ::ffff:224.0.0.0/100)",
				     v->text);
	/* the scope is known once the prefix holds it: an MGID's byte 1, 224.0.0/24 */
	if (p.len >= (v4 ? 120 : 16) && ibr_gid_mcast_scope(&p.addr) <= IBR_MCAST_SCOPE_LINK)
		return ibrd_conf_why(v, "\"%s\": link-local groups are never routed", v->text);
	memcpy((*list)[*n].mgid, p.addr.raw, 16);
	(*list)[(*n)++].plen = p.len;
	return 0;
}
