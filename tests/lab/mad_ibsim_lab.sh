#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# mad_ibsim_lab.sh - the MAD channel's ibsim transport against a real ibsim
# (no SM): attach at the router node RtrA and at HcaA2 from one process,
# control queries, a hop-0 DR NodeInfo Get, IsSM after registration, a
# bounced Get, detach.  Prints "N passed, N failed"; exit 77 without ibsim.
. "$(dirname "$0")/mad_lab_lib.sh"
need ibsim timeout
start_ibsim || finish
run_client ibsim "$SOCK" RtrA HcaA2
check_ibsim_after
finish
