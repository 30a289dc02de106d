/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_dr.c - directed-route receive and reply rules for an end port
 * (IBA vol. 1 14.2.2.2, C14-9 and C14-13).  See sma_dr.h.
 */
#include "sma/sma_dr.h"

#include "lib/ibr_gid.h"
#include "lib/ibr_mad.h"

static bool drop(enum sma_drop *why, enum sma_drop reason)
{
	if (why)
		*why = reason;
	return false;
}

/* C14-9: an outgoing (D=0) SMP arriving at an end port. */
static bool dr_recv_outgoing(uint8_t *smp, uint8_t port, enum sma_drop *why)
{
	uint8_t hop_ptr = ibr_smp_dr_hop_pointer(smp);
	uint8_t hop_cnt = ibr_smp_dr_hop_count(smp);

	/* InitialPath/ReturnPath have 64 entries: 63 hops at most (14.2.1.2) */
	if (hop_cnt > IBR_SMP_MAX_HOPS)
		return drop(why, SMA_DROP_DR_HOP_PTR_OUT);
	/* C14-9:1: the sender should have incremented HopPointer */
	if (hop_cnt && hop_ptr == 0)
		return drop(why, SMA_DROP_DR_HOP_PTR_ZERO);
	/* C14-9:2: an intermediate hop; only a switch forwards */
	if (hop_ptr && hop_ptr < hop_cnt)
		return drop(why, SMA_DROP_DR_FORWARD_OUT);
	/* C14-9:3: the end of the directed part */
	if (hop_ptr == hop_cnt) {
		if (ibr_smp_dr_dlid(smp) != IBR_LID_PERMISSIVE)
			return drop(why, SMA_DROP_DR_DLID);
		if (hop_cnt)
			ibr_smp_dr_set_return_path(smp, hop_ptr, port);
		/*
		 * DrDLID permissive: the SMP is for this port.  The send rule
		 * of C14-9:3 moves HopPointer to HopCount + 1 before the SMA
		 * sees it (the kernel: smi_check_forward_dr_smp() says SEND,
		 * smi_handle_dr_smp_send() increments).
		 */
		ibr_smp_dr_set_hop_pointer(smp, (uint8_t)(hop_ptr + 1));
		return true;
	}
	/* C14-9:4: HopPointer == HopCount + 1 (a LID-routed last part): for us */
	if (hop_ptr == hop_cnt + 1)
		return true;
	/* C14-9:5 */
	return drop(why, SMA_DROP_DR_HOP_PTR_OUT);
}

/* C14-13: a returning (D=1) SMP arriving at an end port. */
static bool dr_recv_returning(uint8_t *smp, uint8_t port, enum sma_drop *why)
{
	uint8_t hop_ptr = ibr_smp_dr_hop_pointer(smp);
	uint8_t hop_cnt = ibr_smp_dr_hop_count(smp);
	uint8_t rp;

	if (hop_cnt > IBR_SMP_MAX_HOPS)
		return drop(why, SMA_DROP_DR_HOP_PTR_RET);
	/* C14-13:1: back from a LID-routed part, at the end of the directed part */
	if (hop_cnt && hop_ptr == hop_cnt + 1) {
		hop_ptr--;
		ibr_smp_dr_set_hop_pointer(smp, hop_ptr);
		ibr_smp_dr_return_path(smp, hop_ptr, &rp);
		return rp == port ? true : drop(why, SMA_DROP_DR_RETURN_PORT);
	}
	/* C14-13:2: an intermediate hop; only a switch forwards */
	if (hop_ptr >= 2 && hop_ptr <= hop_cnt)
		return drop(why, SMA_DROP_DR_FORWARD_RET);
	/* C14-13:3: the end of the directed part; for the SM only with DrSLID permissive */
	if (hop_ptr == 1) {
		if (ibr_smp_dr_slid(smp) != IBR_LID_PERMISSIVE)
			return drop(why, SMA_DROP_DR_SLID);
		ibr_smp_dr_set_hop_pointer(smp, 0);
		return true;
	}
	/* C14-13:4: HopPointer 0: arrived */
	if (hop_ptr == 0)
		return true;
	/* C14-13:5 */
	return drop(why, SMA_DROP_DR_HOP_PTR_RET);
}

bool sma_dr_recv(uint8_t *smp, uint8_t port, enum sma_drop *why)
{
	if (ibr_smp_dr_direction(smp))
		return dr_recv_returning(smp, port, why);
	return dr_recv_outgoing(smp, port, why);
}

bool sma_dr_reply(uint8_t *reply, uint8_t port, enum sma_drop *why)
{
	uint8_t hop_ptr = ibr_smp_dr_hop_pointer(reply);
	uint8_t hop_cnt = ibr_smp_dr_hop_count(reply);
	uint8_t rp;

	/* a LID-routed first part: the switch at its end applies C14-13:1 */
	if (ibr_smp_dr_dlid(reply) != IBR_LID_PERMISSIVE)
		return true;
	if (hop_cnt > IBR_SMP_MAX_HOPS)
		return drop(why, SMA_DROP_DR_REPLY);
	/* C14-13:1 (send): step back onto the return path, which must start here */
	if (hop_cnt && hop_ptr == hop_cnt + 1) {
		hop_ptr--;
		ibr_smp_dr_set_hop_pointer(reply, hop_ptr);
		ibr_smp_dr_return_path(reply, hop_ptr, &rp);
		return rp == port ? true : drop(why, SMA_DROP_DR_REPLY);
	}
	/* C14-13:2 (send): only a switch sends from the middle of a path */
	if (hop_ptr >= 2 && hop_ptr <= hop_cnt)
		return drop(why, SMA_DROP_DR_REPLY);
	/* C14-13:3 (send): a zero-hop path back to the requester */
	if (hop_ptr == 1) {
		ibr_smp_dr_set_hop_pointer(reply, 0);
		return ibr_smp_dr_slid(reply) == IBR_LID_PERMISSIVE ? true
								    : drop(why, SMA_DROP_DR_REPLY);
	}
	/* C14-13:4 (send) */
	if (hop_ptr == 0)
		return true;
	return drop(why, SMA_DROP_DR_REPLY);
}
