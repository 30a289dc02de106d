#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_reload_busy.sh - a reload is parsed off the control thread: while a
# large file (ROUTES routes, default 100000) is read, the daemon still
# answers its control clients and SMPs, a second reload waits for the
# first, and the new routes are in once the reload returns.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

# Under TSan, 30000: the file is still read for seconds, but the apply on
# the control thread (the new RIB and FIB, first touched) faults in TSan's
# shadow of every page: 100000 routes took 0.8-1.6 s there, and the answer
# that waited for it 1.9-2.5 s, where the plain build applies them in 33-57 ms
if grep -q -e __tsan_init "$IBRD"; then
	ROUTES=${ROUTES:-30000}
else
	ROUTES=${ROUTES:-100000}
fi
# the slowest answer allowed while the file is read: a sanitizer makes every
# process (ibrouterctl's start-up too) several times slower, and on 2 CPUs the
# parse has one of them: 316 ms seen under ASan on a loaded machine
if grep -q -e __asan_init -e __tsan_init "$IBRD"; then
	MAX_MS=${MAX_MS:-1000}
else
	MAX_MS=${MAX_MS:-300}
fi

now_ms() { echo $(($(date +%s%N) / 1000000)); }

start_router || exit 1
# ROUTES static routes: fec0:0:1:<i>::/64 via LID 0x21 on b
awk -v n="$ROUTES" 'BEGIN {
	for (i = 0; i < n; i++)
		printf "route \"fec0:0:%x:%x::/64\" {\n\tport = \"b\"\n\tvia = 0x21\n}\n",
			1 + int(i / 65536), i % 65536
}' > "$T/routes.conf"
cat "$T/routes.conf" >> "$T/ibrouterd.conf"

t0=$(now_ms)
ctl reload > "$T/reload.out" 2>&1 &
R1=$!
PIDS="$PIDS $R1"
sleep 0.05
ctl reload > "$T/reload2.out" 2>&1 &
R2=$!
PIDS="$PIDS $R2"
worst=0
during=0
smp_ok=0
while kill -0 "$R1" 2>/dev/null; do
	a=$(now_ms)
	ctl version > /dev/null 2>&1 || { fail "version answered during the reload"; break; }
	b=$(now_ms)
	[ $((b - a)) -gt "$worst" ] && worst=$((b - a))
	kill -0 "$R1" 2>/dev/null && during=$((during + 1))
	if [ "$smp_ok" -eq 0 ] && kill -0 "$R1" 2>/dev/null &&
		"$HOST" -s "$T/a.peer" -p "$T/a.sock" -t 1000 smp nodeinfo 2>&1 | grep -q '^NodeType:\.*Router$'; then
		smp_ok=1
	fi
done
wait "$R1"
st1=$?
t1=$(now_ms)
echo "# the reload of $ROUTES routes took $((t1 - t0)) ms; $during answers meanwhile, the slowest $worst ms"
sed -n 's/^\(reloaded .*\)/# the daemon: \1/p' "$T/ibrouterd.log"
check "the reload succeeded" test "$st1" -eq 0
check "the daemon answered while the file was read" test "$during" -gt 0
check "every answer meanwhile came within $MAX_MS ms (slowest $worst ms)" test "$worst" -le "$MAX_MS"
check "an SMP was answered while the file was read" test "$smp_ok" -eq 1
wait "$R2"
check "the second reload, asked meanwhile, succeeded" test $? -eq 0
check "the new routes are in" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes fec0:0:1:7::/64 | grep -q '\"via\":\"lid 0x0021\"'"

# SIGTERM while a reload reads the file: the daemon stops within the parse time
ctl reload > /dev/null 2>&1 &
R3=$!
PIDS="$PIDS $R3"
sleep 0.05
a=$(now_ms)
kill "$RPID"
while kill -0 "$RPID" 2>/dev/null; do
	[ $(($(now_ms) - a)) -gt $((t1 - t0 + 3000)) ] && break
	sleep 0.02
done
b=$(now_ms)
check "SIGTERM during a reload stops the daemon ($((b - a)) ms)" sh -c "! kill -0 $RPID 2>/dev/null"
finish
