/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * sma_dr.h - directed-route SMP rules for an end port (IBA vol. 1 14.2.2,
 * compliance statements C14-9 (outgoing, D=0) and C14-13 (returning, D=1)).
 * A router port is an end port: it never forwards an SMP, so every branch
 * that would forward is a discard.  Checked against the Linux kernel's
 * drivers/infiniband/core/smi.c and ib_mad.c (behaviour, not code).
 */
#ifndef SMA_DR_H
#define SMA_DR_H

#include "sma/sma.h"

#include <stdbool.h>
#include <stdint.h>

/*
 * Receive rules on the 256-byte DR SMP `smp` arriving on `port`.  True:
 * hand it to the SMA (HopPointer and ReturnPath updated as 14.2.2.2 and
 * the kernel do: at the end of the directed part, C14-9:3, ReturnPath
 * [HopPointer] = port and HopPointer moves past HopCount).  False: discard,
 * *why set.
 */
bool sma_dr_recv(uint8_t *smp, uint8_t port, enum sma_drop *why);

/*
 * Send rules for the reply (D=1 already set) leaving `port`: applied only
 * when the reply starts on a directed part (DrDLID permissive), as the
 * kernel's handle_outgoing_dr_smp() does; a reply to an SMP whose last part
 * was LID routed (C14-9:4) leaves HopPointer at HopCount + 1 for the switch
 * at the end of the directed part (C14-13:1 there).  False: discard.
 */
bool sma_dr_reply(uint8_t *reply, uint8_t port, enum sma_drop *why);

#endif
