#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_host_seq.sh - ibrouter-host's sequence numbers: a sim send writes each
# packet's number in the first 4 payload bytes (as verbs mode does, where the
# HCA sets the PSN), and recv --expect-count names the numbers that did not
# come, so that a lost stream shows whether its head, its tail or its middle
# went.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

# rx EXPECT ARGS...: a receiver for EXPECT packets (1.5 s at most), the
# senders ARGS run one after the other (each "COUNT SIZE"); its stderr in
# $T/rx.err, its status in rc
rx() {
	want=$1
	shift
	rm -f "$T/rx"
	"$HOST" -s "$T/rx" recv -q -t 1500 --expect-count "$want" --expect-payload \
		> /dev/null 2> "$T/rx.err" &
	p=$!
	PIDS="$PIDS $p"
	for _ in $(seq 1 100); do [ -S "$T/rx" ] && break; sleep 0.02; done
	for s in "$@"; do
		set -- $s
		rm -f "$T/tx"
		"$HOST" -s "$T/tx" -p "$T/rx" send -q -c "$1" --size "$2" > /dev/null 2>&1
	done
	wait $p
	rc=$?
}

rx 10 "5 64"
check "5 of 10 came: recv fails" test $rc -ne 0
check "and names the tail: missing 5-9 (5 of 10)" grep -qx 'ibrouter-host: missing: 5-9 (5 of 10)' "$T/rx.err"
sed 's/^/# /' "$T/rx.err"
rx 6 "5 300"
check "5 of 6: missing 5 (1 of 6)" grep -qx 'ibrouter-host: missing: 5 (1 of 6)' "$T/rx.err"
rx 10 "10 64"
check "10 of 10: recv passes" test $rc -eq 0
check "and names nothing missing" sh -c "! grep -q missing '$T/rx.err'"
# the numbers are the payload's, not the PSN's: two streams of 5 are 10
# packets, as many as expected, but numbers 5-9 never came
rx 10 "5 64" "5 64"
check "two streams 0-4: the count holds (status 0)" test $rc -eq 0
check "yet 5-9 are named missing" grep -qx 'ibrouter-host: missing: 5-9 (5 of 10)' "$T/rx.err"
# the payload check is from byte 4 on: the number in bytes 0-3 breaks none
check "--expect-payload holds with the numbers in bytes 0-3" sh -c "! grep -q 'payload' '$T/rx.err'"
finish
