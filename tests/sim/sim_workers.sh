#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_workers.sh - two forwarding workers (each port received by one, both
# sending on every port): 2000 packets each way at once, none lost, while
# the control thread publishes 20 new FIBs under them.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

EXTRA_CONF="workers = 2"
start_router || exit 1
check "two workers" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j version | grep -q '\"workers\":2'"
recv_bg b "$T/b.peer" -q -c 2000 -t 15000 --expect-count 2000 --expect-dlid 5
recv_bg a "$T/a.peer" -q -c 2000 -t 15000 --expect-count 2000 --expect-dlid 3
"$HOST" -s "$T/a.src" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 \
	--dgid fec0::2:0:0:11:1 -c 2000 &
S1=$!
"$HOST" -s "$T/b.src" -p "$T/b.sock" send -q --slid 5 --dlid 0x10 --sgid fec0::2:0:0:11:1 \
	--dgid fec0::1:0:0:10:1 -c 2000 &
S2=$!
PIDS="$PIDS $S1 $S2"
for i in $(seq 1 20); do ctl route add fec0:0:0:$((i + 16))::/64 port b lid 7 > /dev/null; done
wait $S1 $S2
check "A to B: 2000 of 2000" recv_wait b
check "B to A: 2000 of 2000" recv_wait a
check "the 20 routes are in" sh -c "[ \$(\"$CTL\" -s \"$T/ctl.sock\" -j show routes | grep -o '\"source\":\"static\"' | wc -l) -eq 20 ]"
finish
