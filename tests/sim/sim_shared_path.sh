#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_shared_path.sh - a second ibrouterd with its own control socket but the
# first one's sim socket paths refuses to start: it neither takes the live
# sockets over nor removes them, and the first one keeps forwarding.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1

start_router || exit 1
ino_a=$(stat -c %i "$T/a.sock")
sed -e "s|$T/ctl.sock|$T/ctl2.sock|" -e "s|$T/ibrouterd.pid|$T/second.pid|" \
	"$T/ibrouterd.conf" > "$T/second.conf"
"$IBRD" -d -f "$T/second.conf" > "$T/second.log" 2>&1 &
SECOND=$!
PIDS="$PIDS $SECOND"
for _ in $(seq 1 100); do kill -0 "$SECOND" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$SECOND" 2>/dev/null; then
	fail "the second daemon did not start (it runs)"
	kill "$SECOND"
	wait "$SECOND"
else
	ok "the second daemon did not start"
	wait "$SECOND"
	check "it exited with status 1" test $? -eq 1
fi
check "it names the socket in use" grep -q "sim socket $T/a.sock: Address already in use" "$T/second.log"
check "the first daemon's socket is still there, the same one" test "$(stat -c %i "$T/a.sock" 2>/dev/null)" = "$ino_a"
check "the first daemon's port b socket is still there" test -S "$T/b.sock"
recv_bg b "$T/b.peer" -q -c 5 -t 5000 --expect-count 5 --expect-dlid 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 5
check "the first daemon still forwards A -> B" recv_wait b
check "the first daemon still answers" ctl version
finish
