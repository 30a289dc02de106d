/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * mad_umad.h - MAD transport over libibumad (the kernel's
 * /dev/infiniband/umad*): the one file of the project that calls umad_*.
 *
 * Agents: classes 0x01 and 0x81 on QP0 (only on kernels and HCAs that hand
 * QP0 to user space: registration fails with the kernel's error otherwise),
 * 0x03 (SA) on QP1 with RMPP version 1, so the kernel reassembles GetTable
 * responses (MAD_TP_RMPP) and delivers one long message.  It never sets
 * IsSM (the port's issm device stays closed): the router runs no SM, and an
 * HCA port with IsSM is an SM to every SM of its subnet.
 */
#ifndef SA_MAD_UMAD_H
#define SA_MAD_UMAD_H

#include "mad/mad_chan.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * Open port `port` of CA `ca` (NULL/0: the first active port, as libibumad
 * chooses).  NULL with errno set on failure.
 */
struct mad_transport *mad_umad_open(const char *ca, int port);

/* What libibumad says of a CA's port, for the preflight (ibrouterd --check). */
struct mad_umad_probe {
	int port_err;	     /* 0, or -errno of umad_get_port(): no such CA or port */
	unsigned state;	     /* PortState: 1 down .. 4 active */
	unsigned phys_state; /* 5: LinkUp */
	uint16_t lid, sm_lid;
	uint8_t lmc;
	uint64_t gid_prefix; /* host order */
	bool ethernet;	     /* link layer Ethernet: no SM, no umad for the SA */
	int path_err;	     /* 0, or -errno: the umad device's path not found (no ib_umad) */
	char umad_path[256]; /* "/dev/infiniband/umad0": the device the channel opens */
};

/*
 * Read port `port` of CA `ca` (0: the first port) and the path of its umad
 * device into *out (zeroed first).  0, or the first error (also in *out).
 */
int mad_umad_probe(const char *ca, int port, struct mad_umad_probe *out);

/* Methods an agent of `mgmt_class` accepts unsolicited (the method mask, 13.4.5). */
void mad_umad_method_mask(uint8_t mgmt_class, uint64_t mask[2]);

#endif
