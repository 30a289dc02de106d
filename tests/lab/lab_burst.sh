#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_burst.sh - a burst of traps compiles the FIB once per turn of the
# daemon's loop (ibrd_sync.c), not once per trap: a subnet of HOSTS hosts
# (default 100) under real OpenSM on ibsim, the router's SA client learns
# them all; then HOSTS trap-65 Reports, one for each host, come at once from
# OpenSM's node (the SM's LID) -- queued while the daemon is stopped, so that
# the burst does not depend on who is faster -- and every host's neighbour
# goes with fewer than MAX_FIBS FIB publications (default 5: a MAD event
# takes 64 MADs, so two turns; one publication per trap before).
# Prints "N passed, N failed"; every process is stopped by its PID.
. "$(dirname "$0")/lab.sh"
HOSTS=${HOSTS:-100}
MAX_FIBS=${MAX_FIBS:-5}
JOIN=$BUILD/tests/lab/mad_lab_client

# one switch: the SM's HCA on port 1, the router node on port 2, the hosts after
NET=$LAB/net
{
	echo "switchguid=0x510000"
	echo "caguid=0x520000"
	echo "rtguid=0x530000"
	echo "Switch $((HOSTS + 2)) \"Sw\""
	echo "[1] \"HcaS\"[1]"
	echo "[2] \"Rtr\"[1]"
	i=1
	while [ $i -le "$HOSTS" ]; do echo "[$((i + 2))] \"H$i\"[1]"; i=$((i + 1)); done
	echo
	echo "Hca 1 \"HcaS\""
	echo "[1] \"Sw\"[1]"
	echo
	echo "Rt 1 \"Rtr\""
	echo "[1] \"Sw\"[2]"
	i=1
	while [ $i -le "$HOSTS" ]; do printf '\nHca 1 "H%d"\n[1] "Sw"[%d]\n' $i $((i + 2)); i=$((i + 1)); done
} > "$NET"

lab_subnet B "$NET"
lab_check "OpenSM: SUBNET UP with $HOSTS hosts" lab_sm B HcaS 0 0xfec0000000000002
cat > "$LAB/r.conf" <<EOC
router {
	name = "burst"
	node-guid = 0x0002c90300000100
}
port "b" {
	data = sim
	sim-socket = "$LAB/b.sock"
	sim-peer = "$LAB/b.peer"
	mad = ibsim
	ibsim-socket = "$(lab_sock B)"
	ibsim-node = "Rtr"
}
control {
	socket = "$LAB/ctl.sock"
}
pid-file = "$LAB/r.pid"
EOC
"$BUILD/ibrouterd" -d -f "$LAB/r.conf" > "$LAB/r.log" 2>&1 &
RPID=$!
LAB_PIDS="$LAB_PIDS $RPID"
neigh_count() { ctl show neighbours b 2> /dev/null | awk 'NR > 1' | wc -l; }
lab_check "the router learns the $HOSTS hosts and the SM's port" wait_for 20 sh -c "[ \$('$CTL' -s '$LAB/ctl.sock' show neighbours b 2>/dev/null | awk 'NR > 1' | wc -l) -ge $((HOSTS + 1)) ]"
# the hosts' port GIDs, as the router learned them (not the SM's, nor the switch's)
SM_GUID=$(lab_run B HcaS smpquery -D nodeinfo 0 2> /dev/null | awk -F. '/^PortGuid:/ { print $NF }')
ctl -j show neighbours b | grep -o '"guid":"0x[0-9a-f]*"' | sed 's/"guid":"0x//; s/"//' |
	while read -r g; do
		[ "0x$g" = "$SM_GUID" ] || [ "$g" = 0000000000510000 ] && continue
		printf 'fec0:0:0:2:%s:%s:%s:%s\n' "$(echo "$g" | cut -c1-4)" "$(echo "$g" | cut -c5-8)" \
			"$(echo "$g" | cut -c9-12)" "$(echo "$g" | cut -c13-16)"
	done > "$LAB/gids"
lab_check "$HOSTS host GIDs to report" test "$(wc -l < "$LAB/gids")" -eq "$HOSTS"
RLID=$(printf %d "$(ctl show ports | awk '$1 == "b" { print $4; exit }')")
fibs() { ctl -j version | sed -n 's/.*"fib_publications":\([0-9]*\).*/\1/p'; }
f0=$(fibs)
kill -STOP "$RPID"
"$JOIN" report "$(lab_sock B)" HcaS "$RLID" 65 "@$LAB/gids" > "$LAB/report.out" 2>&1 &
REP=$!
LAB_PIDS="$LAB_PIDS $REP"
sleep 1 # the burst queues at the stopped daemon
kill -CONT "$RPID"
wait "$REP"
lab_check "$HOSTS trap-65 Reports from the SM's node, acknowledged" test $? -eq 0
lab_check "every host is gone from the neighbours (the SM's port and the switch stay)" wait_for 10 sh -c "[ \$('$CTL' -s '$LAB/ctl.sock' show neighbours b | awk 'NR > 1' | wc -l) -eq 2 ]"
f1=$(fibs)
echo "# $HOSTS traps: $((f1 - f0)) FIB publications"
lab_check "$HOSTS traps took $((f1 - f0)) FIB publications (< $MAX_FIBS)" test $((f1 - f0)) -lt "$MAX_FIBS" -a $((f1 - f0)) -ge 1
lab_check "the traps came as Reports" grep -q 'sa: b: trap 65' "$LAB/r.log"
lab_check "the daemon is still running" kill -0 "$(cat "$LAB/r.pid")"
lab_finish
