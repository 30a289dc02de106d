/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * posm_rtr.c - router ports that OpenSM sees as Channel Adapter ports (a
 * ConnectX HCA's firmware answers every SMP as a CA: NodeType 1), made
 * routers in OpenSM's table of routers (osm_subn_t.rtr_guid_tbl), because
 * that table is where its SA looks for the router port of a prefix route
 * (osm_sa_path_record.c find_router(): the route's GUID looked up there,
 * the PathRecord answered with that entry's port, or INVALID_GID when there
 * is none) and OpenSM fills it only for Router nodes (osm_node_info_rcv.c,
 * NodeType 3).
 *
 * What this relies on of OpenSM's object lifetimes (read in the source of
 * OpenSM 3.3.23, the version the plugin is built against and checks at
 * load; to be read again for another):
 *  - an entry is an osm_router_t, map item first, freed with free() by
 *    osm_router_delete() (osm_router.c): ours are malloc'd, the struct at
 *    the start of a larger block (RTR_ITEM bytes), so that free() of the
 *    struct's address frees ours, and malloc_usable_size() tells ours from
 *    OpenSM's (a 40-byte block) before anything past the struct is read;
 *  - drop_mgr_remove_port() (osm_drop_mgr.c) takes every port it drops out
 *    of the table of routers by its GUID, whatever the node type, and frees
 *    the entry (drop_mgr_remove_router()) before it frees the port
 *    (osm_port_delete()): so OpenSM frees ours with the port, the entry
 *    never outlives its p_port, and the plugin must not free it again --
 *    it never keeps a pointer to an entry, it looks each one up in the table
 *    under the lock;
 *  - a port that comes back is a new osm_port_t (osm_node_info_rcv.c), at
 *    the next heavy sweep: the next sync, at that sweep's end, makes a new
 *    entry for it; an entry of ours whose p_port is not the port the table
 *    of ports has for its GUID now is pointed at that one;
 *  - the drop manager, the NodeInfo receiver and the SA change or read the
 *    two tables only under OpenSM's lock (OSM_LOCK), and so does this file
 *    (the caller holds it for writing): from any thread;
 *  - osm_opensm_destroy() destroys the plugins (destroy_plugins()) before
 *    osm_subn_destroy() frees the ports, and osm_subn_destroy() frees no
 *    entry of the table: the plugin's delete() takes ours out then
 *    (posm_rtr_remove()), or they would leak;
 *  - OpenSM's own entries (Router nodes) are never touched: a GUID of a
 *    Router node is OpenSM's business even when OpenSM has no entry for it.
 * No OpenSM function is called (osm_router_new() is not exported by the
 * opensm binary): the unit tests run this over tables they build.
 */
#include "plugins/posm_osm.h"

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_router.h>

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#define RTR_MAGIC 0x6962727274727231ull /* "ibrrtrr1" */
#define RTR_ITEM  256			/* bytes: 6x OpenSM's entry */

/* At the start of an RTR_ITEM-byte block. */
struct rtr_item {
	osm_router_t r; /* first: OpenSM frees entries with free(entry) */
	uint64_t magic;
	const void *owner;
};
_Static_assert(sizeof(struct rtr_item) <= RTR_ITEM, "an entry fits its block");

bool posm_rtr_is_ours(const void *entry, const void *owner)
{
	const struct rtr_item *it = entry;

	return malloc_usable_size((void *)entry) >= RTR_ITEM && it->magic == RTR_MAGIC &&
	       it->owner == owner;
}

static int rtr_u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static bool rtr_named(const uint64_t *guids, size_t n, uint64_t guid)
{
	return n && bsearch(&guid, guids, n, sizeof(*guids), rtr_u64_cmp);
}

static osm_port_t *rtr_port(osm_subn_t *s, uint64_t guid)
{
	cl_map_item_t *i = cl_qmap_get(&s->port_guid_tbl, cl_hton64(guid));

	return i == cl_qmap_end(&s->port_guid_tbl) ? NULL : (osm_port_t *)i;
}

static uint8_t rtr_node_type(const osm_port_t *port)
{
	return port->p_node ? osm_node_get_type(port->p_node) : 0;
}

static void rtr_note(void (*note)(void *, enum posm_rtr_note, uint64_t), void *ctx,
		     enum posm_rtr_note what, uint64_t guid)
{
	if (note)
		note(ctx, what, guid);
}

/* Ours that no GUID names, or whose port is gone or no CA port: out; the others repointed. */
static int rtr_prune(osm_subn_t *s, const uint64_t *guids, size_t n, const void *owner,
		     struct posm_rtr_stats *st, void (*note)(void *, enum posm_rtr_note, uint64_t),
		     void *ctx)
{
	cl_qmap_t *t = &s->rtr_guid_tbl;
	cl_map_item_t *i = cl_qmap_head(t);
	int changes = 0;

	while (i != cl_qmap_end(t)) {
		cl_map_item_t *next = cl_qmap_next(i);
		osm_router_t *r = (osm_router_t *)i;
		uint64_t guid = cl_ntoh64(cl_qmap_key(i));
		osm_port_t *port;

		if (!posm_rtr_is_ours(r, owner)) {
			i = next;
			continue;
		}
		port = rtr_port(s, guid);
		if (!rtr_named(guids, n, guid) || !port || rtr_node_type(port) != IB_NODE_TYPE_CA) {
			cl_qmap_remove_item(t, i);
			free(r);
			st->removed++;
			changes++;
			rtr_note(note, ctx, POSM_RTR_REMOVED, guid);
		} else if (r->p_port != port) {
			r->p_port =
				port; /* cannot happen while the drop manager frees ours with it */
			st->repointed++;
			changes++;
			rtr_note(note, ctx, POSM_RTR_REPOINTED, guid);
		}
		i = next;
	}
	return changes;
}

int posm_rtr_sync(osm_subn_t *s, const uint64_t *guids, size_t n, const void *owner,
		  struct posm_rtr_stats *st,
		  void (*note)(void *ctx, enum posm_rtr_note what, uint64_t guid), void *ctx)
{
	cl_qmap_t *t = &s->rtr_guid_tbl;
	int changes = rtr_prune(s, guids, n, owner, st, note, ctx);

	st->ours = st->unknown = st->not_ca = 0;
	for (size_t k = 0; k < n; k++) {
		osm_port_t *port = rtr_port(s, guids[k]);
		cl_map_item_t *e = cl_qmap_get(t, cl_hton64(guids[k]));
		struct rtr_item *it;

		if (!port) {
			st->unknown++;
			rtr_note(note, ctx, POSM_RTR_UNKNOWN, guids[k]);
			continue;
		}
		if (rtr_node_type(port) == IB_NODE_TYPE_ROUTER)
			continue; /* OpenSM's own, made or not */
		if (rtr_node_type(port) != IB_NODE_TYPE_CA) {
			st->not_ca++;
			rtr_note(note, ctx, POSM_RTR_NOT_CA, guids[k]);
			continue;
		}
		if (e != cl_qmap_end(t)) {
			st->ours += posm_rtr_is_ours(e, owner);
			continue; /* ours (kept by the prune), or someone's we leave alone */
		}
		if (!(it = calloc(1, RTR_ITEM)))
			return -ENOMEM;
		it->r.p_port = port;
		it->magic = RTR_MAGIC;
		it->owner = owner;
		cl_qmap_insert(t, cl_hton64(guids[k]), &it->r.map_item);
		st->ours++;
		st->added++;
		changes++;
		rtr_note(note, ctx, POSM_RTR_ADDED, guids[k]);
	}
	return changes;
}

unsigned posm_rtr_remove(osm_subn_t *s, const void *owner)
{
	cl_qmap_t *t = &s->rtr_guid_tbl;
	cl_map_item_t *i = cl_qmap_head(t);
	unsigned n = 0;

	while (i != cl_qmap_end(t)) {
		cl_map_item_t *next = cl_qmap_next(i);

		if (posm_rtr_is_ours(i, owner)) {
			cl_qmap_remove_item(t, i);
			free(i);
			n++;
		}
		i = next;
	}
	return n;
}
