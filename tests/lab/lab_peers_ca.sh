#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_peers_ca.sh - lab_peers.sh with the routers' ports at ibsim Hca nodes
# (netA_ca, netB2_ca, netC_ca): Channel Adapters to OpenSM (NodeType 1), as
# an HCA's firmware shows them on real hardware, never Router nodes.  The
# routers find each other by their own ServiceRecords: R1 learns C through
# R2, traffic A -> C and back crosses both, a killed R2 is withdrawn and
# comes back, a stopped one withdraws.  Checks of its own: OpenSM lists the
# router ports as CAs, and R1 says it found R2's port as one.
LAB_PEERS_CA=1
. "$(dirname "$0")/lab_peers.sh"
