#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_counters.sh - counters read and cleared while two workers forward both
# ways (2500 packets each way, 300 drops, 6000 SMPs the SMA drops): show
# counters and clear counters run against the workers all along (a
# ThreadSanitizer build reports any read not synchronised with them), and
# once the traffic has stopped each port's counts add up exactly, however
# many clears landed in the middle of a burst: rx(a) = tx(b) + tx_errors(b)
# + drops(a) + sma(a) + local(a), and the same from b.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1
N=2500

# counts PORT: "rx tx tx_errors+peer_absent sma local drops" of PORT from show counters
counts() {
	ctl show counters "$1" | awk 'NR == 2 { print $2, $4, $6 + $7, $8, $9, $10 }'
}
# adds_up IN OUT: rx(IN) = tx(OUT) + not sent(OUT) + drops(IN) + sma(IN) + local(IN)
adds_up() {
	set -- $(counts "$1") $(counts "$2")
	echo "in: rx $1 sma $4 local $5 drops $6; out: tx $8 not sent $9"
	[ "$1" -eq $(($8 + $9 + $4 + $5 + $6)) ]
}

EXTRA_CONF="workers = 2"
start_router || exit 1
check "two workers" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j version | grep -q '\"workers\":2'"
recv_bg b "$T/b.peer" -q -c $N -t 30000 --expect-count $N --expect-dlid 5
recv_bg a "$T/a.peer" -q -c $N -t 30000 --expect-count $N --expect-dlid 3
"$HOST" -s "$T/a.src" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid $A_HOST \
	--dgid $B_HOST -c $N &
S1=$!
"$HOST" -s "$T/b.src" -p "$T/b.sock" send -q --slid 5 --dlid 0x10 --sgid $B_HOST \
	--dgid $A_HOST -c $N &
S2=$!
# dropped at a (HopLmt 1, C8-16): the drops of a burst count with its rx
"$HOST" -s "$T/a.drop" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid $A_HOST \
	--dgid $B_HOST --hoplimit 1 -c 300 -r 3000 &
S3=$!
# VL15 for the SMA, too long for an SMP (the worker drops it from the SMA's
# queue) and to QP 1 (the control thread drops it): both count as not-an-smp (show sma drops)
"$HOST" -s "$T/a.smp1" -p "$T/a.sock" send -q --no-grh --vl 15 --slid 3 --dlid 1 --qpn 0 \
	--size 1024 -c 3000 &
S4=$!
"$HOST" -s "$T/a.smp2" -p "$T/a.sock" send -q --no-grh --vl 15 --slid 3 --dlid 1 --qpn 1 \
	--size 256 -c 3000 &
S5=$!
PIDS="$PIDS $S1 $S2 $S3 $S4 $S5"
clears=0
while kill -0 $S1 2>/dev/null || kill -0 $S2 2>/dev/null; do
	ctl clear counters > /dev/null && clears=$((clears + 1))
	ctl show counters > /dev/null
	ctl show drops > /dev/null
done
wait $S1 $S2 $S3 $S4 $S5
check "A to B: $N of $N" recv_wait b
check "B to A: $N of $N" recv_wait a
echo "# $clears clears while the traffic ran"
check "counters cleared while the traffic ran" [ $clears -gt 0 ]
check "a: rx = tx(b) + tx_errors(b) + drops + sma + local" adds_up a b
check "b: rx = tx(a) + tx_errors(a) + drops + sma + local" adds_up b a
check "clear counters" ctl clear counters
check "all zero after a clear at rest" sh -c "[ \"\$(\"$CTL\" -s \"$T/ctl.sock\" show counters | awk 'NR > 1 { s += \$2 + \$3 + \$4 + \$5 + \$6 + \$7 + \$8 + \$9 } END { print s + 0 }')\" = 0 ]"
finish
