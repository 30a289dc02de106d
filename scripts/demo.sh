#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# demo.sh BUILD [--keep] - a narrated forwarding demo: ibrouterd joins two
# simulated subnets (sim data ports), a host in subnet A sends to a host in
# subnet B, and the router's view is shown with ibrouterctl, each command as
# a user would type it.  Cleans up after itself; with --keep (DEMO_KEEP=1)
# the router stays up for the user to poke at, and the demo says how to stop it.
BUILD=$(cd "${1:?usage: demo.sh BUILD [--keep]}" && pwd)
[ "${2:-}" = --keep ] && DEMO_KEEP=1
. "$(dirname "$0")/../tests/sim/lib.sh"

say() { printf '\n### %s\n' "$*"; }
# ctlrun ARGS...: an ibrouterctl command, shown as typed
ctlrun() {
	printf '$ %s -s %s %s\n' "$BUILD/tools/ibrouterctl" "$T/ctl.sock" "$*"
	ctl "$@"
}

say "ibrouterd joins subnet A (fec0:0:0:1::/64, router port a, LID 1) and subnet B (fec0:0:0:2::/64, port b, LID 0x10)"
start_router || exit 1
printf '$ cat %s\n' "$T/ibrouterd.conf"
cat "$T/ibrouterd.conf"
ctlrun show ports
ctlrun show routes
ctlrun show neighbours

# a data QP (0x42, with its Q_Key), not ibrouter-host's default QP 1, which is the
# GSI's: tshark would decode management datagrams
say "a host in A (LID 3) sends 5 UD packets to QP 0x42 of a host in B (GUID 0x110001, LID 5) through the router's LID"
recv_bg b "$T/b.peer" -c 5 -t 5000 -w "$T/b.pcap"
send_a --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 --dgid fec0::2:0:0:11:1 --qpn 0x42 \
	--src-qp 0x42 --qkey 0x1234 --size 100 -c 5
recv_wait b
say "what B received: DLID is the host's LID, SLID the router's port-b LID, the hop limit one less; GIDs, payload and ICRC untouched, VCRC valid"
cat "$T/b.out"

say "a packet with hop limit 1 and one to an unknown prefix are dropped, each under its IBA rule"
send_a --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 --dgid fec0::2:0:0:11:1 --hoplimit 1
send_a --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 --dgid fec0::7:0:0:0:1
ctlrun show drops
ctlrun show counters
ctlrun trace fec0::1:0:0:10:1 fec0::2:0:0:11:1

if command -v tshark > /dev/null 2>&1; then
	say "tshark decodes the capture taken in B: UD sends to QP 0x42, 100 bytes of data each"
	printf '$ tshark -r %s\n' "$T/b.pcap"
	tshark -r "$T/b.pcap" 2>/dev/null | head -5
fi
if [ -n "${DEMO_KEEP:-}" ]; then
	PIDS=$(echo " $PIDS " | sed "s/ $RPID / /")
	KEEP_DIR=1
	say "the router stays up (PID $RPID) for you to try, e.g."
	echo "  $BUILD/tools/ibrouterctl -s $T/ctl.sock show ports"
	echo "  $BUILD/tools/ibrouter-host -s $T/a.peer -p $T/a.sock send --slid 3 --dlid 1 \\"
	echo "      --sgid fec0::1:0:0:10:1 --dgid fec0::2:0:0:11:1 -c 3"
	echo "and to stop it, and remove its files:"
	echo "  kill $RPID; rm -rf $T"
else
	say "done: the router and the hosts are stopped and their sockets removed"
fi
