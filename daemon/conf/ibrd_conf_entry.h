/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_conf_entry.h - one static route, neighbour or multicast group read
 * from words, as ibrouterd.conf(5) reads its route, neighbour and mcast
 * sections: the same key table, parse functions, defaults and checks, and
 * the same message for the same mistake, less the file, line and section
 * that the config puts before it.  The control commands' add and del
 * (ibrd_cmd_edit.c) parse through it: the CLI and the file have one grammar.
 */
#ifndef IBRD_CONF_ENTRY_H
#define IBRD_CONF_ENTRY_H

#include "daemon/conf/ibrd_conf.h"

enum ibrd_conf_entry_kind { IBRD_ENTRY_ROUTE, IBRD_ENTRY_NEIGH, IBRD_ENTRY_MCAST };

/* What the words are for. */
enum ibrd_conf_entry_use {
	IBRD_ENTRY_ADD, /* every key the section requires, then the checks across keys */
	IBRD_ENTRY_DEL, /* only the keys that name the entry besides its title (the port of
			 * a neighbour or a group; a route is its prefix alone) */
};

/* "key value": key is a key of the entry's section, as in the file. */
struct ibrd_conf_word {
	const char *key;
	const char *value;
};

struct ibrd_conf_entry {
	union { /* by kind, defaults filled in as the config fills them */
		struct ibrd_conf_route route;
		struct ibrd_conf_neigh neigh;
		struct ibrd_conf_mcast mcast;
	};
	/*
	 * A refusal: the key it is about (the key table's name, or the word's
	 * key when the section has no such key; NULL: the title), and the
	 * config's text, e.g. key "lmc", why "8 is out of range 0..7" where the
	 * file says  ibrouterd.conf:14: neighbour "0x16": lmc: 8 is out of range 0..7
	 */
	const char *key;
	char why[192];
};

/*
 * Parse the entry of kind `kind` titled `title` (what the file has in
 * quotes: the prefix, the GUID, the MGID) with the n `words` into e.  A
 * list key (a route's via) may come in several words, its values in order
 * making the list (via = {4, 5}); any other key once.
 *
 * Returns 0, or -EINVAL with e->key and e->why saying the first problem:
 * of the title, of the keys in the order of their first words, a required
 * key missing, then of the checks across keys (a LID aligned to its LMC);
 * or -ENOMEM.  A port is any name: which ports there are is the caller's
 * to know.
 *
 * Reentrant (libconfuse has no part in it), so any thread may call it,
 * also while another loads a file.
 */
int ibrd_conf_entry_parse(struct ibrd_conf_entry *e, enum ibrd_conf_entry_kind kind,
			  enum ibrd_conf_entry_use use, const char *title,
			  const struct ibrd_conf_word *words, unsigned n);

#endif
