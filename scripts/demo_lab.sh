#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# demo_lab.sh BUILD - the narrated lab: two simulated subnets (ibsim), each
# run by its own real OpenSM; ibrouterd attaches at both router nodes and
# configures itself from the two SAs -- no LID, prefix or neighbour in its
# config -- then forwards between them with the LIDs OpenSM assigned,
# bridges a multicast group and follows a trap.  Every process is stopped on
# exit.  Needs ibsim and opensm (scripts/install-deps.sh installs them).
BUILD=$(cd "${1:?usage: demo_lab.sh BUILD}" && pwd)
HERE=$(cd "$(dirname "$0")/../tests/lab" && pwd)
. "$HERE/lab.sh"
CTL="$BUILD/tools/ibrouterctl"
HOST="$BUILD/tools/ibrouter-host"
JOIN="$BUILD/tests/lab/mad_lab_client"

say() { printf '\n### %s\n' "$*"; }
# run COMMAND: shown as a user would type it (ctl: ibrouterctl with the lab's socket)
run() {
	if [ "$1" = ctl ]; then
		shift
		set -- "$CTL" -s "$LAB/ctl.sock" "$@"
	fi
	printf '$ %s\n' "$*"
	"$@"
}
ctl() { "$CTL" -s "$LAB/ctl.sock" "$@"; }
lid_of() { printf '%d' "$(ctl show ports | awk -v p="$1" '$1 == p { print $4; exit }')"; }
wait_log() { for _ in $(seq 1 100); do grep -q "$1" "$LAB/r.log" && return 0; sleep 0.1; done; return 1; }

if ! command -v ibsim > /dev/null || ! command -v opensm > /dev/null; then
	echo "demo_lab: ibsim or opensm missing (scripts/install-deps.sh installs them)"
	exit 1
fi
[ -x "$JOIN" ] || make -s -C "$BUILD" tests/lab/mad_lab_client > /dev/null

say "two subnets, each a switch, two hosts and a router node; each brought up by its own OpenSM"
lab_subnet A "$HERE/netA"
lab_subnet B "$HERE/netB"
# each OpenSM's first sweep takes a few seconds: say so before, not only after
echo "starting OpenSM A (its first sweep: a few seconds) ..."
lab_sm A HcaA1 0 0xfec0000000000001 && echo "OpenSM A: SUBNET UP, prefix fec0:0:0:1::/64"
echo "starting OpenSM B ..."
lab_sm B HcaB1 0 0xfec0000000000002 && echo "OpenSM B: SUBNET UP, prefix fec0:0:0:2::/64"

say "ibrouterd attached at both router nodes: nothing about the subnets in its config"
lab_router_conf "$LAB/r.conf" demo
echo "(its config, $LAB/r.conf; the lab's directory $LAB goes at the end)"
cat "$LAB/r.conf"
"$BUILD/ibrouterd" -d -f "$LAB/r.conf" > "$LAB/r.log" 2>&1 &
LAB_PIDS="$LAB_PIDS $!"
wait_log "sa: a: synced" && wait_log "sa: b: synced"

say "what it learned from the two SAs: LIDs and prefixes, end ports, connected routes"
run ctl show sa
run ctl show ports
run ctl show neighbours
run ctl show routes
echo "OpenSM A's own view of LID 4 (saquery from host HcaA2):"
lab_run A HcaA2 saquery 4 2>/dev/null | grep -E "lid|port_guid|NodeDescription"

RA=$(lid_of a) RB=$(lid_of b)
say "host HcaA2 (LID 4 in A) sends 3 UD packets to QP 0x42 at HcaB2's GID through the router's LID $RA"
"$HOST" -s "$LAB/b.peer" recv -c 3 -t 5000 > "$LAB/b.out" 2>&1 &
R=$!
sleep 0.2
# a data QP with its Q_Key, not ibrouter-host's default QP 1 (the GSI's: management datagrams)
"$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid 4 --dlid "$RA" \
	--sgid fec0:0:0:1::10:3 --dgid fec0:0:0:2::11:3 --qpn 0x42 --src-qp 0x42 --qkey 0x1234 \
	--size 64 -c 3
wait $R
echo "what arrived in B: DLID = HcaB2's LID from OpenSM B, SLID = the router's B LID $RB, hop limit 63:"
cat "$LAB/b.out"

say "the lines OpenSM A needs in its prefix_routes_file so that its SA sends B's paths to the router"
run ctl show osm-prefix-routes a

say "HcaA2 creates a site-scope multicast group in A: trap 66, and the router bridges it to B"
"$JOIN" join "$(lab_sock A)" HcaA2 ff15::1:2 1
wait_log "joining a bridged group"
sleep 0.5
run ctl show mcast

say "HcaB2's link goes down: OpenSM B reports trap 65, the router drops the neighbour"
lab_console B 'Unlink "HcaB2"[1]'
wait_log "sa: b: trap 65"
sleep 0.2
run ctl show neighbours b
lab_console B 'ReLink "HcaB2"[1]'
wait_log "sa: b: trap 64"
sleep 0.3
echo "and after ReLink (trap 64):"
run ctl show neighbours b

say "done: ibrouterd, both OpenSM and both ibsim are stopped"
