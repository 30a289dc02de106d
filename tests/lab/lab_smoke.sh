#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_smoke.sh - the lab itself: two simulated subnets, each brought up by its
# own real OpenSM with its own subnet prefix; in each, OpenSM configured the
# router node (ibsim's Rt node standing for a router port): NodeType Router,
# a LID, the subnet's prefix, link Active.  Read with smpquery over a
# directed route from a host, as an operator would.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

lab_subnet A "$HERE/netA"
lab_subnet B "$HERE/netB"
lab_check "OpenSM A: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002
for s in A B; do
	h=Hca${s}2
	lab_run $s $h smpquery -D nodeinfo 0,1,3 > "$LAB/ni$s.txt" 2>&1
	lab_run $s $h smpquery -D portinfo 0,1,3 > "$LAB/pi$s.txt" 2>&1
	lab_check "$s: the router node is a Router" grep -q '^NodeType:\.*Router$' "$LAB/ni$s.txt"
	lab_check "$s: OpenSM gave the router port a LID" grep -Eq '^Lid:\.*[1-9][0-9]*$' "$LAB/pi$s.txt"
	lab_check "$s: its link is Active" grep -q '^LinkState:\.*Active$' "$LAB/pi$s.txt"
done
lab_check "A: the router port has A's prefix" grep -q '^GidPrefix:\.*0xfec0000000000001$' "$LAB/piA.txt"
lab_check "B: the router port has B's prefix" grep -q '^GidPrefix:\.*0xfec0000000000002$' "$LAB/piB.txt"
lab_finish
