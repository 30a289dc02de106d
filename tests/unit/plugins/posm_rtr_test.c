/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * Tests for plugins/posm_rtr.c: router ports of CA nodes in OpenSM's table
 * of routers, over port and router tables built as OpenSM 3.3.23 builds them
 * (osm_node_info_rcv.c: ports keyed by GUID, a 40-byte osm_router_t for each
 * Router node's port) and changed as its drop manager changes them
 * (drop_mgr_remove_port(): the port's router entry freed, whoever made it,
 * then the port).  Under ASan a double free or a dangling p_port shows.
 */
#include "plugins/posm_osm.h"
#include "tests/unit/ibr_test.h"

#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_router.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CA1  0x100005ull /* CA ports: the router's HCA ports */
#define CA2  0x100007ull
#define RTR  0x300001ull /* a Router node's port (OpenSM's entry) */
#define SW   0x200000ull /* a switch's port 0 */
#define NONE 0x999999ull /* no port of the subnet */

static osm_subn_t subn;
static const int owner_tag = 1;
static const void *const owner = &owner_tag;
static struct posm_rtr_stats st;
static char notes[1024];

static void note(void *ctx, enum posm_rtr_note what, uint64_t guid)
{
	static const char *const name[] = { "added", "removed", "repointed", "unknown", "not-ca" };
	size_t n = strlen(notes);

	(void)ctx;
	snprintf(notes + n, sizeof(notes) - n, "%s%s:%llx", n ? " " : "", name[what],
		 (unsigned long long)guid);
}

/* A port of a node of `type`, as the NodeInfo receiver adds it. */
static osm_port_t *port_add(uint64_t guid, uint8_t type)
{
	osm_node_t *node = calloc(1, sizeof(*node));
	osm_port_t *port = calloc(1, sizeof(*port));

	node->node_info.node_type = type;
	port->p_node = node;
	port->guid = cl_hton64(guid);
	cl_qmap_insert(&subn.port_guid_tbl, port->guid, &port->map_item);
	if (type == IB_NODE_TYPE_ROUTER) { /* osm_router_new() */
		osm_router_t *r = calloc(1, sizeof(*r));

		r->p_port = port;
		cl_qmap_insert(&subn.rtr_guid_tbl, port->guid, &r->map_item);
	}
	return port;
}

/* The drop manager: the port's router entry out and freed (drop_mgr_remove_router), then it. */
static void port_drop(uint64_t guid)
{
	cl_map_item_t *r = cl_qmap_remove(&subn.rtr_guid_tbl, cl_hton64(guid));
	cl_map_item_t *p = cl_qmap_remove(&subn.port_guid_tbl, cl_hton64(guid));

	if (r != cl_qmap_end(&subn.rtr_guid_tbl))
		free(r); /* osm_router_delete() */
	if (p != cl_qmap_end(&subn.port_guid_tbl)) {
		free(((osm_port_t *)p)->p_node);
		free(p);
	}
}

static osm_router_t *rtr_get(uint64_t guid)
{
	cl_map_item_t *i = cl_qmap_get(&subn.rtr_guid_tbl, cl_hton64(guid));

	return i == cl_qmap_end(&subn.rtr_guid_tbl) ? NULL : (osm_router_t *)i;
}

/* What find_router() answers for a prefix route naming `guid`: the port's GUID, or 0. */
static uint64_t find_router(uint64_t guid)
{
	osm_router_t *r = rtr_get(guid);

	return r ? cl_ntoh64(osm_port_get_guid(osm_router_get_port_ptr(r))) : 0;
}

static int sync_with(const uint64_t *g, size_t n)
{
	notes[0] = '\0';
	return posm_rtr_sync(&subn, g, n, owner, &st, note, NULL);
}

static int setup(void)
{
	cl_qmap_init(&subn.port_guid_tbl);
	cl_qmap_init(&subn.rtr_guid_tbl);
	return 0;
}

static int teardown(void)
{
	posm_rtr_remove(&subn, owner);
	while (cl_qmap_count(&subn.port_guid_tbl))
		port_drop(cl_ntoh64(cl_qmap_key(cl_qmap_head(&subn.port_guid_tbl))));
	return 0;
}

static void test_add(void)
{
	static const uint64_t g[] = { CA1, CA2, RTR, SW, NONE }; /* sorted, as the caller gives */
	osm_port_t *p1 = port_add(CA1, IB_NODE_TYPE_CA);

	port_add(CA2, IB_NODE_TYPE_CA);
	port_add(RTR, IB_NODE_TYPE_ROUTER);
	port_add(SW, IB_NODE_TYPE_SWITCH);
	CU_ASSERT_EQUAL(find_router(CA1), 0); /* OpenSM alone: no PathRecord through a CA port */
	CU_ASSERT_EQUAL(sync_with(g, 5), 2);
	CU_ASSERT_STRING_EQUAL(notes, "added:100005 added:100007 not-ca:200000 unknown:999999");
	CU_ASSERT_EQUAL(find_router(CA1), CA1);
	CU_ASSERT_EQUAL(find_router(CA2), CA2);
	CU_ASSERT_PTR_EQUAL(rtr_get(CA1)->p_port, p1);
	CU_ASSERT_EQUAL(find_router(RTR), RTR);
	CU_ASSERT_EQUAL(find_router(SW), 0);
	CU_ASSERT_EQUAL(st.ours, 2);
	CU_ASSERT_EQUAL(st.unknown, 1);
	CU_ASSERT_EQUAL(st.not_ca, 1);
	CU_ASSERT_EQUAL(cl_qmap_count(&subn.rtr_guid_tbl), 3);
	/* again: nothing changes, never two entries */
	CU_ASSERT_EQUAL(sync_with(g, 5), 0);
	CU_ASSERT_EQUAL(cl_qmap_count(&subn.rtr_guid_tbl), 3);
	CU_ASSERT_EQUAL(st.added, 2);
	teardown();
}

/* The port leaves (the drop manager frees ours with it) and comes back: a new port, a new entry. */
static void test_port_replaced(void)
{
	static const uint64_t g[] = { CA1 };
	osm_port_t *p;

	port_add(CA1, IB_NODE_TYPE_CA);
	CU_ASSERT_EQUAL(sync_with(g, 1), 1);
	port_drop(CA1); /* ours freed by OpenSM: must not be freed again */
	CU_ASSERT_EQUAL(sync_with(g, 1), 0);
	CU_ASSERT_STRING_EQUAL(notes, "unknown:100005");
	CU_ASSERT_EQUAL(find_router(CA1), 0);
	p = port_add(CA1, IB_NODE_TYPE_CA);
	CU_ASSERT_EQUAL(sync_with(g, 1), 1);
	CU_ASSERT_STRING_EQUAL(notes, "added:100005");
	CU_ASSERT_PTR_EQUAL(rtr_get(CA1)->p_port, p);
	CU_ASSERT_EQUAL(find_router(CA1), CA1);
	/* a port object swapped under our entry (not what OpenSM does): pointed at the new one */
	cl_qmap_remove(&subn.port_guid_tbl, cl_hton64(CA1));
	port_add(CA1, IB_NODE_TYPE_CA);
	CU_ASSERT_EQUAL(sync_with(g, 1), 1);
	CU_ASSERT_STRING_EQUAL(notes, "repointed:100005");
	CU_ASSERT_PTR_EQUAL(rtr_get(CA1)->p_port,
			    (osm_port_t *)cl_qmap_get(&subn.port_guid_tbl, cl_hton64(CA1)));
	CU_ASSERT_EQUAL(st.repointed, 1);
	free(p->p_node);
	free(p);
	teardown();
}

/* No route names the port any more: our entry out and freed. */
static void test_port_unnamed(void)
{
	static const uint64_t g[] = { CA1, CA2 };

	port_add(CA1, IB_NODE_TYPE_CA);
	port_add(CA2, IB_NODE_TYPE_CA);
	CU_ASSERT_EQUAL(sync_with(g, 2), 2);
	CU_ASSERT_EQUAL(sync_with(g + 1, 1), 1);
	CU_ASSERT_STRING_EQUAL(notes, "removed:100005");
	CU_ASSERT_EQUAL(find_router(CA1), 0);
	CU_ASSERT_EQUAL(find_router(CA2), CA2);
	CU_ASSERT_EQUAL(sync_with(NULL, 0), 1);
	CU_ASSERT_EQUAL(cl_qmap_count(&subn.rtr_guid_tbl), 0);
	CU_ASSERT_EQUAL(st.ours, 0);
	teardown();
}

/* OpenSM's entries: Router nodes', and one someone else put for a CA port, are never touched. */
static void test_never_opensms(void)
{
	static const uint64_t g[] = { CA1, RTR };
	osm_port_t *ca = port_add(CA1, IB_NODE_TYPE_CA);
	osm_router_t *theirs = calloc(1, sizeof(*theirs)), *rtr;

	port_add(RTR, IB_NODE_TYPE_ROUTER);
	rtr = rtr_get(RTR);
	theirs->p_port = ca;
	cl_qmap_insert(&subn.rtr_guid_tbl, cl_hton64(CA1), &theirs->map_item);
	CU_ASSERT_EQUAL(sync_with(g, 2), 0);
	CU_ASSERT_PTR_EQUAL(rtr_get(CA1), theirs);
	CU_ASSERT_PTR_EQUAL(rtr_get(RTR), rtr);
	CU_ASSERT_EQUAL(st.ours, 0);
	CU_ASSERT_EQUAL(sync_with(NULL, 0), 0);
	CU_ASSERT_EQUAL(posm_rtr_remove(&subn, owner), 0);
	CU_ASSERT_EQUAL(cl_qmap_count(&subn.rtr_guid_tbl), 2);
	/* OpenSM's 40-byte entries never pass for ours, whatever lies past their end */
	for (int i = 0; i < 1000; i++) {
		osm_router_t *r = calloc(1, sizeof(*r));

		CU_ASSERT_FALSE(posm_rtr_is_ours(r, owner));
		free(r);
	}
	/* another plugin's (another owner) are not ours either */
	cl_qmap_remove(&subn.rtr_guid_tbl, cl_hton64(CA1));
	free(theirs);
	CU_ASSERT_EQUAL(posm_rtr_sync(&subn, g, 1, &owner_tag + 1, &st, NULL, NULL), 1);
	CU_ASSERT_EQUAL(sync_with(g, 1), 0);
	CU_ASSERT_EQUAL(st.ours, 0);
	CU_ASSERT_EQUAL(posm_rtr_remove(&subn, &owner_tag + 1), 1);
	teardown();
}

/* The plugin's delete(): ours out and freed, before OpenSM frees its ports (and never ours). */
static void test_destroy(void)
{
	static const uint64_t g[] = { CA1, CA2, RTR };

	port_add(CA1, IB_NODE_TYPE_CA);
	port_add(CA2, IB_NODE_TYPE_CA);
	port_add(RTR, IB_NODE_TYPE_ROUTER);
	CU_ASSERT_EQUAL(sync_with(g, 3), 2);
	CU_ASSERT_EQUAL(posm_rtr_remove(&subn, owner), 2);
	CU_ASSERT_EQUAL(cl_qmap_count(&subn.rtr_guid_tbl), 1);
	CU_ASSERT_EQUAL(find_router(RTR), RTR);
	CU_ASSERT_EQUAL(posm_rtr_remove(&subn, owner), 0);
	teardown();
	/* OpenSM's own entry: the drop manager frees it with its port (teardown) */
	CU_ASSERT_EQUAL(cl_qmap_count(&subn.rtr_guid_tbl), 0);
}

static CU_TestInfo tests[] = {
	{ "CA ports added, never twice", test_add },
	{ "a port replaced", test_port_replaced },
	{ "a port no route names", test_port_unnamed },
	{ "OpenSM's entries untouched", test_never_opensms },
	{ "destroy", test_destroy },
	CU_TEST_INFO_NULL,
};

int main(void)
{
	return ibr_test_run_fixture("posm_rtr", tests, setup, teardown);
}
