/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * router_drop.c - the drop reasons' counter names, rules and descriptions (router_drop.h), for
 * the control protocol, the Prometheus output and traces.
 */
#include "router/router_drop.h"

#include <string.h>

/* clang-format off */
static const char *const drop_names[] = {
#define DROP_NAME(name, id, rule, desc) id,
	ROUTER_DROPS(DROP_NAME)
#undef DROP_NAME
};
static const char *const drop_rules[] = {
#define DROP_RULE(name, id, rule, desc) rule,
	ROUTER_DROPS(DROP_RULE)
#undef DROP_RULE
};
static const char *const drop_descs[] = {
#define DROP_DESC(name, id, rule, desc) desc,
	ROUTER_DROPS(DROP_DESC)
#undef DROP_DESC
};
/* clang-format on */

const char *router_drop_name(int reason)
{
	return reason >= 0 && reason < ROUTER_DROP_MAX ? drop_names[reason] : "unknown";
}

const char *router_drop_rule(int reason)
{
	return reason >= 0 && reason < ROUTER_DROP_MAX ? drop_rules[reason] : "";
}

const char *router_drop_desc(int reason)
{
	return reason >= 0 && reason < ROUTER_DROP_MAX ? drop_descs[reason] : "unknown";
}

int router_drop_parse(const char *name)
{
	for (int i = 0; i < ROUTER_DROP_MAX; i++)
		if (strcmp(name, drop_names[i]) == 0)
			return i;
	return -22; /* -EINVAL */
}
