#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# demo.sh BUILD - a narrated forwarding demo: ibrouterd joins two simulated
# subnets (sim data ports), a host in subnet A sends to a host in subnet B,
# and the router's view is shown with ibrouterctl.  Cleans up after itself.
BUILD=$(cd "${1:?usage: demo.sh BUILD}" && pwd)
. "$(dirname "$0")/../tests/sim/lib.sh"

say() { printf '\n### %s\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

say "ibrouterd joins subnet A (fec0:0:0:1::/64, router port a, LID 1) and subnet B (fec0:0:0:2::/64, port b, LID 0x10)"
start_router || exit 1
sed 's|'"$T"'|$T|g' "$T/ibrouterd.conf"
run ctl show ports
run ctl show routes
run ctl show neighbours

say "a host in A (LID 3) sends 5 UD packets to a host in B (GUID 0x110001, LID 5) through the router's LID"
recv_bg b "$T/b.peer" -c 5 -t 5000 -w "$T/b.pcap"
send_a --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 --dgid fec0::2:0:0:11:1 --size 100 -c 5
recv_wait b
say "what B received: DLID is the host's LID, SLID the router's port-b LID, the hop limit one less; GIDs, payload and ICRC untouched, VCRC valid"
cat "$T/b.out"

say "a packet with hop limit 1 and one to an unknown prefix are dropped, each under its IBA rule"
send_a --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 --dgid fec0::2:0:0:11:1 --hoplimit 1
send_a --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 --dgid fec0::7:0:0:0:1
run ctl show drops
run ctl show counters
run ctl trace fec0::1:0:0:10:1 fec0::2:0:0:11:1

if command -v tshark > /dev/null 2>&1; then
	say "tshark decodes the capture taken in B"
	tshark -r "$T/b.pcap" 2>/dev/null | head -5
fi
say "done: the router and the hosts are stopped and their sockets removed"
