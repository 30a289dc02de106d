/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sa_fake.h - a fake subnet for the SA client's tests (sa_client_test.c and
 * the other sa_client_*_test.c, sa_announce_test.c, sa_peers_test.c): a fake
 * transport under a real struct mad_chan (so that TID matching, retries and
 * timeouts are the channel's own) and a fake clock.  sa_fake.c holds the
 * subnet, its transport and the client under test, sa_fake_answer.c the
 * answers, sa_fake_check.c what the tests look at and inject.
 *
 * The fake answers as the router port's own SMA (hop-0 directed-route
 * NodeInfo and PortInfo) and as OpenSM 3.3.23's SA would: ClassPortInfo Get,
 * InformInfo Set (echoed), NodeRecord, PortInfoRecord and GUIDInfoRecord
 * Get/GetTable (LIDs matched over the port's LMC range, switches by port 0),
 * MCMemberRecord Get/GetTable (member lists only for a non-zero SM_Key), Set
 * (join, creating a group only with the create components) and Delete
 * (leave), ServiceRecord Get by RID, GetTable by ServiceID, ServiceGID,
 * ServiceP_Key and ServiceName (the components OpenSM's get_matching_sr()
 * compares, of those the router uses), Set and Delete (one record per RID),
 * status 0x0300 for a Get that matches nothing.  Three modes: kernel RMPP
 * (the transport is flagged MAD_TP_RMPP and hands over a GetTable response
 * as one reassembled message of any length), umad2sim (every GetTable
 * response cut after its first MAD, with RMPP Active, RMPPVersion 0,
 * neither First nor Last: LAB.md), and RMPP on the wire (fake_wire_rmpp():
 * a transport without RMPP of its own, as ibsim's, under an SA that sends a
 * long GetTable answer as RMPP DATA segments, a window at a time as the
 * channel ACKs them: sa_fake_rmpp.c).
 */
#ifndef SA_FAKE_H
#define SA_FAKE_H

#include "mad/mad_chan.h"
#include "sa/sa_client.h"

#include "lib/ibr_mad.h"
#include "lib/ibr_sa.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MS  1000000ull
#define T0  (1000 * MS)
#define SEC (1000 * MS)

#define PREFIX	 0xfec0000000000001ull
#define PREFIX_B 0xfec0000000000002ull /* another subnet's */
#define SA_KEY	 1ull		       /* OpenSM's default sa_key */

#define GUID_SW	 0x0002c90000000100ull
#define GUID_A	 0x0002c90000000201ull /* hosts the SM */
#define GUID_B1	 0x0002c90000000301ull
#define GUID_B2	 0x0002c90000000302ull
#define GUID_US	 0x0002c90000000401ull /* the router port */
#define GUID_C	 0x0002c90000000501ull
#define GUID_D	 0x0002c90000000601ull
#define GUID_E	 0x0002c90000000701ull
#define GUID_S2	 0x0002c90000000800ull /* a second switch */
#define ALIAS_C1 0x0002c90000050001ull /* alias GUIDs */
#define ALIAS_C2 0x0002c90000050002ull
#define ALIAS_US 0x0002c90000040001ull

#define LID_SM 2
#define LID_US 8

#define MAX_PORTS   32
#define MAX_GROUPS  16
#define MAX_MEMBERS 8

enum { G_BCAST, G_SEND, G_NON, G_OURS };

#define MAX_SR 64

/* ---- the fake subnet ---- */

struct fport {
	bool used;
	uint64_t guid, node_guid;
	uint16_t lid;
	uint8_t lmc, type, num, nports;
	uint64_t alias[2]; /* alias GUIDs (GUIDInfo entries 1 and 2) */
};

struct fmember {
	uint64_t guid;
	uint8_t join;
};

struct fgroup {
	bool used;
	uint8_t mgid[16];
	uint16_t mlid;
	uint32_t qkey;
	uint16_t pkey;
	uint8_t sl, tclass, mtu, rate;
	uint32_t flow;
	struct fmember m[MAX_MEMBERS];
	unsigned int nm;
};

struct sent {
	uint8_t mad[IBR_MAD_SIZE];
	size_t len;
	struct mad_addr to;
	uint32_t timeout_ms;
};

struct rxmsg {
	uint8_t *mad;
	size_t len;
	struct mad_addr from;
};

struct mq {
	struct rxmsg *v;
	size_t head, n, cap;
};

struct fake {
	struct mad_transport base;
	struct fport port[MAX_PORTS];
	struct fgroup grp[MAX_GROUPS];
	uint64_t prefix;
	uint16_t sm_lid;
	uint8_t state; /* our PortState */
	bool cut;      /* umad2sim: GetTable responses cut after their first MAD */
	bool sa_down, sma_down;
	uint16_t defer_attr; /* SA answers of this attribute wait for fake_release() */
	uint16_t defer_smp;  /* and SMA answers of this one */
	bool refuse_sub;
	bool lmc_esp0;	    /* OpenSM's lmc_esp0: switch port 0 gets the LMC too */
	uint16_t busy_attr; /* SA requests of this attribute get status busy_status */
	uint16_t busy_status;
	bool subscribed;
	unsigned int subscribes, unsubscribes, sa_requests;
	/* ServiceRecords, as OpenSM keeps them: one per RID (ID, GID, P_Key) */
	struct ibr_sa_service_rec sr[MAX_SR];
	bool sr_used[MAX_SR];
	bool sr_refuse;		/* Sets answered ERR_REQ_DENIED */
	uint64_t sr_set_mask;	/* the ComponentMask of the last ServiceRecord Set */
	uint16_t sr_get_busy;	/* Gets answered with this status */
	uint16_t sr_table_busy; /* GetTables answered with this status */
	bool sr_table_all;	/* GetTables answered with every record (a broken SA) */
	unsigned int sr_gets, sr_tables;
	/* RMPP on the wire (fake_wire_rmpp): the transfers being sent, by TID */
	bool wire;
	struct ftx {
		uint8_t *msg; /* the whole answer: header, then the records */
		size_t len;
		uint64_t tid;
		uint32_t nseg, sent; /* segments, and the last one sent */
	} tx[8];
	unsigned int rmpp_segments, rmpp_acks, rmpp_done;
	struct sent *sent;
	size_t n_sent, cap_sent;
	struct mq rx, held;
	uint8_t *cur; /* handed out by recv, freed at the next call */
	bool closed;
};

/* The components of a join, and of one that creates the group (OpenSM 3.3.23). */
#define JOIN_COMP (IBR_SA_MCM_COMP_MGID | IBR_SA_MCM_COMP_PORTGID | IBR_SA_MCM_COMP_JOINSTATE)
#define CREATE_COMP                                                                     \
	(JOIN_COMP | IBR_SA_MCM_COMP_QKEY | IBR_SA_MCM_COMP_PKEY | IBR_SA_MCM_COMP_SL | \
	 IBR_SA_MCM_COMP_TCLASS | IBR_SA_MCM_COMP_FLOW)

/* What the client's callbacks saw. */
struct fake_cb {
	unsigned int port, changed, changed_n, changed_g, reports;
	struct sa_port_state ps;
	uint16_t trap;
	uint8_t gid[16];
};

extern struct fake *F;
extern struct mad_chan *CH;
extern struct sa_client *SC;
extern uint64_t now_ns;
extern struct fake_cb CB;

/* the subnet: its ports, groups and ServiceRecords; answers held back and released */
void mq_push(struct mq *q, uint8_t *mad, size_t len, const struct mad_addr *from);
struct fport *fport_find(uint64_t guid);
struct fport *fport_add(uint64_t guid, uint64_t node, uint16_t lid, uint8_t lmc, uint8_t type,
			uint8_t num, uint8_t nports);
void fport_del(uint64_t guid);
void mgid_of(uint8_t m[16], uint8_t scope, uint16_t id);
struct fgroup *fgroup_find(const uint8_t mgid[16]);
struct fgroup *fgroup_add(const uint8_t mgid[16], uint16_t mlid);
void fgroup_join(struct fgroup *g, uint64_t guid, uint8_t join);
struct fmember *fgroup_member(struct fgroup *g, uint64_t guid);
void fake_push(uint8_t *mad, size_t len, bool sa, uint16_t attr);
void fake_release(void);
int fsr_find(const struct ibr_sa_service_rec *rid);
unsigned int fsr_count(void);
/* the SA's answer to one request (a test that answers by hand), the SMA's to one SMP */
void sa_answer(const uint8_t *req);
void sma_answer(const uint8_t *req);
/* sa_fake_rmpp.c: long GetTable answers as RMPP segments on the wire */
void fake_wire_rmpp(void);
/* An answer of `len` bytes (header and records) sent as segments; `m` is taken. */
void fake_rmpp_send(uint8_t *m, size_t len);
/* The channel's ACK (or STOP, ABORT) of a transfer: the next window, or its end. */
void fake_rmpp_ack(const uint8_t *ack);
void fake_rmpp_free(void);
/* the client under test: its callbacks, config, the clock, start and stop */
void cb_port(void *arg, const struct sa_port_state *ps);
void cb_changed(void *arg, bool neighs, bool groups);
void cb_report(void *arg, uint16_t trap, const uint8_t gid[16]);
struct sa_client_config default_cfg(void);
void pump(void);
void run_until(uint64_t t);
void run_ms(uint64_t ms);
void fake_new(bool cut, unsigned int max_out, bool subnet);
void client_new(const struct sa_client_config *cfg);
void start(bool cut);
void stop(void);
/* what the client sent */
long find_sent(size_t from, uint8_t cls, uint8_t method, uint16_t attr);
unsigned int count_sent(size_t from, uint8_t cls, uint8_t method, uint16_t attr);
unsigned int count_sa(size_t from, uint8_t method, uint16_t attr, uint64_t comp);
unsigned int count_tid(size_t from, uint64_t tid);
unsigned int count_sa_requests(size_t from);
unsigned int nr_gets(uint16_t lid, uint16_t *max);
unsigned int mlid_gets(uint16_t mlid, uint16_t *max);
/* what the client knows */
const struct sa_neigh *neigh(uint64_t guid);
size_t n_neighs(void);
const struct sa_group *group(const uint8_t mgid[16]);
size_t n_groups(void);
const uint8_t *mgid_n(int i);
void check_neigh(uint64_t guid, uint16_t lid, uint8_t lmc, uint8_t type, uint8_t num);
void check_group(const uint8_t *mgid, uint16_t mlid, unsigned int members, bool receivers,
		 bool senders, bool ours);
void check_default_tables(void);
/* Reports from the SM (or another LID), and their ReportResps */
uint64_t inject_report_from(uint16_t lid, uint16_t trap, uint64_t prefix, uint64_t guid_or_0,
			    const uint8_t *mgid, bool generic);
uint64_t inject_report(uint16_t trap, uint64_t prefix, uint64_t guid_or_0, const uint8_t *mgid,
		       bool generic);
void check_report_resp(long i, uint64_t tid);

#endif
