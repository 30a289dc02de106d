/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa.h - the SA records and attributes the SA client reads and writes
 * (IBA vol. 1, 15.2.5 records; 13.4.8 Notice and InformInfo; 13.4.8.1
 * ClassPortInfo), decoded into host-order structs and encoded back.
 *
 * Layouts come from libibmad's field tables (IB_SA_NR_*, IB_SA_MCM_*,
 * IB_SA_GIR_*, IB_SA_SR_*, IB_PORT_*, IB_NOTICE_*, IB_CPI_*) where libibmad
 * defines them; InformInfo, the PortInfoRecord header and the ServiceRecord's
 * ServiceData elements, which it lacks, are hand-written in the same
 * table-driven style.
 *
 * Every decoder takes the record's bytes and their count and refuses a
 * record shorter than its layout (-EMSGSIZE): input from the fabric.
 */
#ifndef IBR_SA_H
#define IBR_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Record sizes on the wire (15.2.5; AttributeOffset is these / 8, rounded up) */
#define IBR_SA_NODE_REC_LEN	 108
#define IBR_SA_PORTINFO_REC_LEN	 72 /* LID, port, options, PortInfo (64), 4 reserved */
#define IBR_SA_MCM_REC_LEN	 52
#define IBR_SA_GUIDINFO_REC_LEN	 72
#define IBR_SA_INFORMINFO_LEN	 36
#define IBR_SA_NOTICE_LEN	 80
#define IBR_SA_CLASSPORTINFO_LEN 72
#define IBR_SA_SERVICE_REC_LEN	 176 /* 15.2.5.14; OpenSM's ib_service_record_t */

/* MCMemberRecord ComponentMask bits (15.2.5.17) */
#define IBR_SA_MCM_COMP_MGID	  (1ull << 0)
#define IBR_SA_MCM_COMP_PORTGID	  (1ull << 1)
#define IBR_SA_MCM_COMP_QKEY	  (1ull << 2)
#define IBR_SA_MCM_COMP_MLID	  (1ull << 3)
#define IBR_SA_MCM_COMP_MTU_SEL	  (1ull << 4)
#define IBR_SA_MCM_COMP_MTU	  (1ull << 5)
#define IBR_SA_MCM_COMP_TCLASS	  (1ull << 6)
#define IBR_SA_MCM_COMP_PKEY	  (1ull << 7)
#define IBR_SA_MCM_COMP_RATE_SEL  (1ull << 8)
#define IBR_SA_MCM_COMP_RATE	  (1ull << 9)
#define IBR_SA_MCM_COMP_LIFE_SEL  (1ull << 10)
#define IBR_SA_MCM_COMP_LIFE	  (1ull << 11)
#define IBR_SA_MCM_COMP_SL	  (1ull << 12)
#define IBR_SA_MCM_COMP_FLOW	  (1ull << 13)
#define IBR_SA_MCM_COMP_HOP	  (1ull << 14)
#define IBR_SA_MCM_COMP_SCOPE	  (1ull << 15)
#define IBR_SA_MCM_COMP_JOINSTATE (1ull << 16)
#define IBR_SA_MCM_COMP_PROXY	  (1ull << 17)

/* NodeRecord ComponentMask: LID (15.2.5.2) */
#define IBR_SA_NR_COMP_LID (1ull << 0)
/* PortInfoRecord ComponentMask: EndportLID, PortNum (15.2.5.3) */
#define IBR_SA_PIR_COMP_LID  (1ull << 0)
#define IBR_SA_PIR_COMP_PORT (1ull << 1)
/* GUIDInfoRecord ComponentMask: LID, BlockNum */
#define IBR_SA_GIR_COMP_LID   (1ull << 0)
#define IBR_SA_GIR_COMP_BLOCK (1ull << 1)

/*
 * ServiceRecord ComponentMask bits (15.2.5.14), one per field in record
 * order: bit 3 is the reserved 16 bits after ServiceP_Key, and each element
 * of the ServiceData arrays has its own bit (OpenSM's IB_SR_COMPMASK_*).
 */
#define IBR_SA_SR_COMP_ID	 (1ull << 0)
#define IBR_SA_SR_COMP_GID	 (1ull << 1)
#define IBR_SA_SR_COMP_PKEY	 (1ull << 2)
#define IBR_SA_SR_COMP_LEASE	 (1ull << 4)
#define IBR_SA_SR_COMP_KEY	 (1ull << 5)
#define IBR_SA_SR_COMP_NAME	 (1ull << 6)
#define IBR_SA_SR_COMP_DATA8(i)	 (1ull << (7 + (i)))  /* i 0..15 */
#define IBR_SA_SR_COMP_DATA16(i) (1ull << (23 + (i))) /* i 0..7 */
#define IBR_SA_SR_COMP_DATA32(i) (1ull << (31 + (i))) /* i 0..3 */
#define IBR_SA_SR_COMP_DATA64(i) (1ull << (35 + (i))) /* i 0..1 */
/*
 * The record's identity (its RID: ServiceID, ServiceGID, ServiceP_Key), what
 * OpenSM matches a Set or Delete on (osm_svcr_get_by_rid()).
 */
#define IBR_SA_SR_COMP_RID (IBR_SA_SR_COMP_ID | IBR_SA_SR_COMP_GID | IBR_SA_SR_COMP_PKEY)

/* ServiceLease (15.2.5.14): seconds, or this for a service that never expires */
#define IBR_SA_SERVICE_LEASE_INDEFINITE 0xFFFFFFFFu
#define IBR_SA_SERVICE_NAME_LEN		64 /* bytes on the wire, the NUL included */

/* JoinState bits (15.2.5.17) */
#define IBR_SA_JOIN_FULL      0x1
#define IBR_SA_JOIN_NON	      0x2
#define IBR_SA_JOIN_SEND_ONLY 0x4
#define IBR_SA_JOIN_SEND_FULL 0x8 /* SendOnlyFullMember (IBA 1.3) */

/* A group's MTU as an MCMemberRecord codes it (1 = 256 .. 5 = 4096) from bytes; a code stays. */
uint8_t ibr_sa_mtu_code(uint16_t mtu);

/* Traps the SA client subscribes to (13.4.8.2 / 14.2.5.1) */
#define IBR_TRAP_GID_IN_SERVICE	    64
#define IBR_TRAP_GID_OUT_OF_SERVICE 65
#define IBR_TRAP_MCG_CREATED	    66
#define IBR_TRAP_MCG_DELETED	    67

struct ibr_sa_node_rec {
	uint16_t lid;
	uint8_t base_version, class_version;
	uint8_t node_type; /* 1 CA, 2 switch, 3 router */
	uint8_t nports;
	uint64_t system_guid, node_guid, port_guid;
	uint16_t partition_cap, device_id;
	uint32_t revision;
	uint8_t local_port;
	uint32_t vendor_id;
	char desc[65]; /* NUL-terminated; non-printable bytes become '?' */
};

struct ibr_sa_portinfo_rec {
	uint16_t lid; /* EndportLID (the record's key) */
	uint8_t port_num;
	uint64_t mkey;
	uint64_t gid_prefix; /* host order */
	uint16_t base_lid, sm_lid;
	uint32_t cap_mask;
	uint8_t lmc;
	uint8_t state;	    /* 1 down, 2 init, 3 armed, 4 active */
	uint8_t phys_state; /* 5 link up */
	uint8_t mtu_cap, neighbor_mtu;
	uint8_t link_width_active, link_speed_active;
};

struct ibr_sa_mcm_rec {
	uint8_t mgid[16];
	uint8_t port_gid[16];
	uint32_t qkey;
	uint16_t mlid;
	uint8_t mtu_sel, mtu; /* selector (2 bits) and the IBA MTU code */
	uint8_t tclass;
	uint16_t pkey;
	uint8_t rate_sel, rate;
	uint8_t life_sel, life;
	uint8_t sl;
	uint32_t flowlabel;
	uint8_t hoplimit;
	uint8_t scope;
	uint8_t join_state;
	bool proxy_join;
};

struct ibr_sa_guidinfo_rec {
	uint16_t lid;
	uint8_t block;
	uint64_t guid[8];
};

struct ibr_sa_informinfo {
	uint8_t gid[16];
	uint16_t lid_begin, lid_end;
	bool is_generic;
	bool subscribe;
	uint16_t type;
	uint16_t trap_num; /* TrapNumber (generic) or DeviceID */
	uint32_t qpn;	   /* 24 bits */
	uint8_t resp_time; /* 5 bits */
	uint32_t producer; /* ProducerType (generic) or VendorID, 24 bits */
};

struct ibr_sa_notice {
	bool is_generic;
	uint8_t type;
	uint32_t producer; /* 24 bits */
	uint16_t trap_num; /* TrapNumber or DeviceID */
	uint16_t issuer_lid;
	bool toggle;
	uint16_t count;
	uint8_t details[54];
	uint8_t issuer_gid[16];
};

struct ibr_sa_classportinfo {
	uint8_t base_version, class_version;
	uint16_t cap_mask;
	uint32_t cap_mask2; /* 27 bits */
	uint8_t resp_time;  /* 5 bits */
	uint8_t redirect_gid[16];
	uint16_t redirect_lid;
	uint32_t redirect_qp, redirect_qkey;
	uint16_t redirect_pkey;
	uint16_t trap_lid;
};

/*
 * ServiceRecord (15.2.5.14).  The name is UTF-8 on the wire, NUL-terminated
 * within its 64 bytes; it is kept as received (not sanitised: a name is a key
 * that Gets compare byte for byte), so print it with care.
 */
struct ibr_sa_service_rec {
	uint64_t id;
	uint8_t gid[16];
	uint16_t pkey;
	uint32_t lease; /* seconds; IBR_SA_SERVICE_LEASE_INDEFINITE */
	uint8_t key[16];
	char name[IBR_SA_SERVICE_NAME_LEN]; /* NUL-terminated, NUL-padded */
	uint8_t data8[16];
	uint16_t data16[8];
	uint32_t data32[4];
	uint64_t data64[2];
};

/*
 * The records of an SA response (a single MAD, or a reassembled RMPP
 * message: 56-byte header then data, as mad_chan hands it over): their
 * count from AttributeOffset (15.2.5.1; 0 means one record for Get
 * responses), and record i's bytes.  -EMSGSIZE / -EINVAL when the message is
 * shorter than its header or AttributeOffset is smaller than `min_len`.
 */
int ibr_sa_table_count(const uint8_t *mad, size_t len, size_t min_len);
const uint8_t *ibr_sa_table_rec(const uint8_t *mad, size_t len, unsigned int i);

int ibr_sa_node_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_node_rec *out);
void ibr_sa_node_rec_encode(const struct ibr_sa_node_rec *in, uint8_t rec[IBR_SA_NODE_REC_LEN]);

int ibr_sa_portinfo_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_portinfo_rec *out);
void ibr_sa_portinfo_rec_encode(const struct ibr_sa_portinfo_rec *in,
				uint8_t rec[IBR_SA_PORTINFO_REC_LEN]);

int ibr_sa_mcm_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_mcm_rec *out);
void ibr_sa_mcm_rec_encode(const struct ibr_sa_mcm_rec *in, uint8_t rec[IBR_SA_MCM_REC_LEN]);

int ibr_sa_guidinfo_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_guidinfo_rec *out);
void ibr_sa_guidinfo_rec_encode(const struct ibr_sa_guidinfo_rec *in,
				uint8_t rec[IBR_SA_GUIDINFO_REC_LEN]);

int ibr_sa_informinfo_decode(const uint8_t *rec, size_t len, struct ibr_sa_informinfo *out);
void ibr_sa_informinfo_encode(const struct ibr_sa_informinfo *in,
			      uint8_t rec[IBR_SA_INFORMINFO_LEN]);

int ibr_sa_notice_decode(const uint8_t *rec, size_t len, struct ibr_sa_notice *out);
void ibr_sa_notice_encode(const struct ibr_sa_notice *in, uint8_t rec[IBR_SA_NOTICE_LEN]);
/* Traps 64-67: the GID (port GID or MGID) in the data details (bytes 6..21). */
const uint8_t *ibr_sa_notice_gid(const struct ibr_sa_notice *n);

int ibr_sa_classportinfo_decode(const uint8_t *rec, size_t len, struct ibr_sa_classportinfo *out);
void ibr_sa_classportinfo_encode(const struct ibr_sa_classportinfo *in,
				 uint8_t rec[IBR_SA_CLASSPORTINFO_LEN]);

/*
 * ServiceRecord: -EMSGSIZE for fewer than 176 bytes, -EINVAL for a name with
 * no NUL in its 64 bytes (out untouched either way).  Bytes after the name's
 * NUL are dropped.  The encoder writes at most 63 bytes of the name, cut
 * before a UTF-8 sequence it would split, so its output always decodes.
 */
int ibr_sa_service_rec_decode(const uint8_t *rec, size_t len, struct ibr_sa_service_rec *out);
void ibr_sa_service_rec_encode(const struct ibr_sa_service_rec *in,
			       uint8_t rec[IBR_SA_SERVICE_REC_LEN]);

/*
 * A ServiceRecord request in the IBR_MAD_SIZE-byte `m` (15.2.1.1, 15.2.5.14):
 * method Get, GetTable, Set or Delete, `comp_mask` (IBR_SA_SR_COMP_*), the
 * record in the data area and AttributeOffset set.  A Set or Delete must
 * name the whole RID (IBR_SA_SR_COMP_RID): OpenSM refuses a Set without ID
 * and GID, and stores the P_Key as sent even when its bit is clear while
 * answering with 0xFFFF, so a Delete built from that answer would miss.
 * 0, or -EINVAL (m untouched) for another method or a short RID.
 */
int ibr_sa_service_rec_build(uint8_t *m, uint8_t method, uint64_t comp_mask,
			     const struct ibr_sa_service_rec *rec, uint64_t sm_key, uint64_t tid);

/*
 * The ServiceRecords of a Get or GetTable response (a MAD or a reassembled
 * RMPP message, as for ibr_sa_table_count()): up to `max` of them decoded
 * into out[], in order.  Records refused by ibr_sa_service_rec_decode()
 * (an unterminated name) are skipped and counted in *refused (may be NULL);
 * records past the max-th decoded one are not looked at.  A GetTableResp
 * with AttributeOffset 0 holds no record (OpenSM's answer when none match).
 * The number decoded, or ibr_sa_table_count()'s error.
 */
int ibr_sa_service_rec_table_decode(const uint8_t *mad, size_t len, struct ibr_sa_service_rec *out,
				    unsigned int max, unsigned int *refused);

/* PortInfo (64 bytes, an SMP's data or a PortInfoRecord's body) into the same struct. */
int ibr_sa_portinfo_decode(const uint8_t *pi, size_t len, struct ibr_sa_portinfo_rec *out);

#endif
