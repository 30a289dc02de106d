/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_script.h - the scripted SA of the SA client's query tests (sa_sync_test.c,
 * sa_sync_trap_test.c, sa_sync_fail_test.c): a fake transport under a real
 * struct mad_chan that records what the client sends and answers nothing by
 * itself.  Each test answers the requests it picks, in the order it picks,
 * with the records it builds (PortInfoRecords byte by byte, as OpenSM 3.3.23
 * lays out its ib_portinfo_record_t), and looks at the tables sa_sync.c
 * builds (sa_int.h) between the answers.
 */
#ifndef SA_SCRIPT_H
#define SA_SCRIPT_H

#include "mad/mad_chan.h"
#include "sa/sa_client.h"
#include "sa/sa_int.h"

#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MS 1000000ull
#define T0 (1000 * MS)

#define PREFIX	 0xfec0000000000001ull
#define SA_KEY	 1ull
#define LID_SM	 2
#define LID_US	 8
#define LMC_US	 2 /* ours, the default of every CA and router port until its record says */
#define GUID_US	 0x0002c90000000401ull
#define GUID_SW	 0x0002c90000000100ull
#define GUID_A	 0x0002c90000000201ull
#define GUID_B1	 0x0002c90000000301ull
#define GUID_B2	 0x0002c90000000302ull
#define GUID_C	 0x0002c90000000501ull
#define GUID_D	 0x0002c90000000601ull
#define ALIAS_C1 0x0002c90000050001ull
#define ALIAS_C2 0x0002c90000050002ull
#define ALIAS_C3 0x0002c90000050003ull

/* A MAD the client sent, and whether a test answered it. */
struct sent {
	uint8_t mad[IBR_MAD_SIZE];
	struct mad_addr to;
	bool answered;
};

/* The transport: every MAD the client sent, in order. */
struct script {
	struct mad_transport base;
	struct sent *v;
	size_t n, cap;
	bool closed;
};

/* What the client's callback saw. */
struct script_cb {
	unsigned int changed, changed_n, changed_g;
};

extern struct script F;
extern struct mad_chan *CH;
extern struct sa_client *SC;
extern uint64_t now_ns;
extern struct script_cb CB;

/* ---- what the client sent ---- */

/* Whether sent[i] is an SA request of `method` and `attr`. */
bool sa_req_is(size_t i, uint8_t method, uint16_t attr);
/* The first unanswered SA request of `method` and `attr`, -1 when none. */
long find_open(uint8_t method, uint16_t attr);
/* Unanswered SA requests of `method` and `attr`; all of them, answered or not. */
unsigned int count_open(uint8_t method, uint16_t attr);
unsigned int count_sent(uint8_t method, uint16_t attr);
/* Unanswered SA requests of any kind. */
unsigned int count_open_sa(void);
/* The LID (or MLID) a walk's Get of sent[i] asks for. */
uint16_t req_lid(long i);

/* ---- answers ---- */

struct recs {
	uint8_t b[8192];
	unsigned int n;
	size_t stride;
};

/* Records added to `r`: a NodeRecord, a PortInfoRecord (as OpenSM 3.3.23 lays it out, byte
 * by byte), a GUIDInfoRecord block. */
void add_nr(struct recs *r, uint16_t lid, uint64_t guid, uint8_t type, uint8_t port);
void add_pir(struct recs *r, uint16_t lid, uint8_t port, uint8_t lmc);
void add_gir(struct recs *r, uint16_t lid, uint8_t block, const uint64_t guid[8]);
/* Group `id`: ff15:401b::<id>; its MCMemberRecord of `guid`'s port. */
void mgid_of(uint8_t m[16], uint16_t id);
void add_mcm(struct recs *r, uint16_t id, uint16_t mlid, uint64_t guid, uint8_t join);
/*
 * Answer sent[i] with `status` and the records `r` (NULL: none).  A Get
 * answers its one record, NO_RECORDS (0x0300) for none; a Set echoes the
 * request's record; a GetTable answers all of them in one message, or only
 * the first MAD's worth marked as umad2sim cuts it (`cut`: RMPP Active,
 * RMPPVersion 0, neither First nor Last).
 */
void answer_cut(long i, uint16_t status, const struct recs *r, bool cut);
/* The same, never cut; the first open request of `method` and `attr`. */
void answer(long i, uint16_t status, const struct recs *r);
void answer_first(uint8_t method, uint16_t attr, uint16_t status, const struct recs *r);
/*
 * An empty answer (no records; a Set echoed) to every open SA request and to
 * what those answers ask in turn, until none is open or another sync starts.
 */
void answer_all_empty(void);

/* ---- the client ---- */

/* A config: walk_gap `gap`, walk_max_lid `max_lid`, walk_max_mlids `max_mlids`. */
struct sa_client_config cfg_of(unsigned int gap, uint16_t max_lid, uint16_t max_mlids);
/*
 * A client whose port the poll finds up: its first sync has sent its first
 * requests, none answered.  `walk`: the channel is known to cut tables (the
 * sync walks LIDs and MLIDs from the start).
 */
void start_cfg(const struct sa_client_config *cfg, bool walk);
/* The same with cfg_of(4, 64, 0x40). */
void start(bool walk);
/* A client after a first sync of an empty subnet. */
void start_ready(void);
void stop(void);
/*
 * `guid`'s neighbour in table `t`; in the tables of the client (the last
 * complete sync and the traps since).
 */
const struct sa_neigh *find_in(const struct sa_neigh_vec *t, uint64_t guid);
const struct sa_neigh *neigh(uint64_t guid);
/* `n` is there, with these LID, LMC, node type and port number. */
void check_neigh(const struct sa_neigh *n, uint16_t lid, uint8_t lmc, uint8_t type, uint8_t port);
/* Group `id` in the tables of the client. */
const struct sa_group *group(uint16_t id);
/* ClassPortInfo and the subscription, answered as OpenSM does. */
void answer_cpi_sub(void);

#endif
