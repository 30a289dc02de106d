/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa_layout.h - the SA records of lib/ibr_sa.c as the IBA lays them out
 * (vol. 1 15.2.5, 13.4.8, 14.2.5.6; the ServiceRecord's, 15.2.5.14, as
 * OpenSM's ib_service_record_t lays them out), written out by hand, not taken
 * from libibmad or from lib/ibr_sa.c: each field's bit offset and width with
 * an accessor of the host struct, each record's codec.  Shared by the codec's
 * tests: ibr_sa_test.c (each field, round trips, lengths), ibr_sa_golden_test.c
 * and ibr_sa_service_test.c (golden records).
 */
#ifndef IBR_SA_LAYOUT_H
#define IBR_SA_LAYOUT_H

#include "lib/ibr_sa.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fcase {
	const char *name;
	void (*set)(void *s, uint64_t v);
	uint64_t (*get)(const void *s);
	unsigned int offs, bits; /* on the wire, IBA bit offset and width */
	bool wide_bool;		 /* a bool in a wider field: true is written as 1 */
};

struct rcase {
	const char *name;
	size_t len, size; /* record on the wire, host struct */
	int (*dec)(const uint8_t *rec, size_t len, void *out);
	void (*enc)(const void *in, uint8_t *rec);
	const struct fcase *f;
	size_t nf;
	/* a NodeDescription or ServiceName, handled apart: wire offset and length */
	size_t text_offs, text_len;
	size_t text_host; /* offsetof() of its char array in the host struct */
	bool text_nul;	  /* the wire text must hold a NUL (ServiceName) */
};

/*
 * The fields of each record; the NodeRecord's NodeDescription and the
 * ServiceRecord's ServiceName, 64 bytes at these offsets, are the text tests'.
 */
extern const struct fcase node_fields[13];
extern const struct fcase pir_fields[14];
extern const struct fcase mcm_fields[18];
extern const struct fcase ii_fields[10];
extern const struct fcase notice_fields[9];
extern const struct fcase sr_fields[20];
#define NODE_DESC_OFFS 44
#define SR_NAME_OFFS   48

/* Every record: its fields, its codec, its text. */
extern const struct rcase records[8];
#define NRECORDS (sizeof(records) / sizeof(records[0]))

/* The bytes of `what` compared: the first that differs said on stderr, one CU_FAIL. */
void check_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t len);
/* A port GID of the golden records. */
extern const uint8_t gid_a[16];

#endif
