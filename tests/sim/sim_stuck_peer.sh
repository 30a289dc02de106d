#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_stuck_peer.sh - the sim backend's peers: a packet for a peer path that
# nothing is bound at is counted as peer_absent, not as a link error; and a
# peer that stops reading holds the worker for one head-of-queue lifetime
# (50 ms), not for one a burst: a stream A -> B keeps its rate while port c's
# peer is stopped with a full queue and every burst also carries packets for
# C.  One worker serves every port.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1
C_HOST=fec0::3:0:0:12:1
N=${N:-2000}

EXTRA_CONF="port \"c\" {
	data = sim
	sim-socket = \"$T/c.sock\"
	sim-peer = \"$T/c.peer\"
	lid = 0x20
	subnet-prefix = \"fec0:0:0:3::\"
}
neighbour \"0x0000000000120001\" {
	port = \"c\"
	lid = 7
}"
start_router || exit 1
col() { # col PORT COLUMN: a counter of PORT from show counters -j
	ctl -j show counters "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}

# 1. nobody at c's peer path: peer_absent, not tx_errors
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $C_HOST -c 5
sleep 0.3
check "5 packets for an absent peer: peer_absent 5" test "$(col c peer_absent)" -eq 5
check "and no link error" test "$(col c tx_errors)" -eq 0

# 2. c's peer stopped with a full queue; a stream A -> B and A -> C in the same bursts
"$HOST" -s "$T/c.peer" recv -q -t 60000 > /dev/null 2>&1 &
CPEER=$!
PIDS="$PIDS $CPEER"
for _ in $(seq 1 100); do [ -S "$T/c.peer" ] && break; sleep 0.02; done
kill -s STOP $CPEER
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $C_HOST -c 200 > /dev/null 2>&1 # fills it
recv_bg b "$T/b.peer" -q -c $N -t 20000 --expect-count $N --expect-dlid 5
t0=$(date +%s%N)
# each packet to B has one to C beside it: 2 x N at 2000 a second.  The second
# sender binds a path of its own: two hosts binding one path race on unlink and
# bind (EADDRINUSE), and the first to finish unlinks the other's.
"$HOST" -s "$T/a2.peer" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid $A_HOST --dgid $C_HOST \
	-c $N -r 2000 &
SC=$!
PIDS="$PIDS $SC"
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c $N -r 2000
recv_wait b
st=$?
t1=$(date +%s%N)
wait $SC
ms=$(((t1 - t0) / 1000000))
echo "# $N packets A -> B beside $N to a stuck C: $ms ms (2000 a second: $((N / 2)) ms at best)"
check "A -> B lost nothing beside a stuck peer" test $st -eq 0
check "and kept its rate: $ms ms for $N packets (< 2 x $((N / 2)) ms)" test $ms -lt $N
check "what C could not take is counted as link errors" test "$(col c tx_errors)" -gt 0
kill -s KILL $CPEER
finish
