/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibr_sa.h - the SA records and attributes the SA client reads and writes
 * (IBA vol. 1, 15.2.5 records; 13.4.8 Notice and InformInfo; 13.4.8.1
 * ClassPortInfo), decoded into host-order structs and encoded back.
 *
 * Layouts come from libibmad's field tables (IB_SA_NR_*, IB_SA_MCM_*,
 * IB_SA_GIR_*, IB_PORT_*, IB_NOTICE_*, IB_CPI_*) where libibmad defines
 * them; InformInfo and the PortInfoRecord header, which it lacks, are
 * hand-written in the same table-driven style.
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

/* JoinState bits (15.2.5.17) */
#define IBR_SA_JOIN_FULL      0x1
#define IBR_SA_JOIN_NON	      0x2
#define IBR_SA_JOIN_SEND_ONLY 0x4
#define IBR_SA_JOIN_SEND_FULL 0x8 /* SendOnlyFullMember (IBA 1.3) */

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

/* PortInfo (64 bytes, an SMP's data or a PortInfoRecord's body) into the same struct. */
int ibr_sa_portinfo_decode(const uint8_t *pi, size_t len, struct ibr_sa_portinfo_rec *out);

#endif
