# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# tests/lab/mad_lab_lib.sh - shared by the MAD channel lab tests: a private
# directory, one ibsim with a unique socket name and its console on a fifo,
# optionally OpenSM under umad2sim, cleanup of every process started here (by
# PID) on any exit, and the ok/FAIL count.
set -u
: "${BUILD:=$(pwd)}"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CLIENT=$BUILD/tests/lab/mad_lab_client
NET=$SRC/tests/lab/netA
UMAD2SIM=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
T=$(mktemp -d /tmp/ibr-madlab.XXXXXX)
SOCK=ibrmad$$.$(date +%s%N | tail -c 7)
PIDS=""
npass=0
nfail=0

cleanup() {
	[ -n "${SM_PID:-}" ] && kill "$SM_PID" 2>/dev/null && sleep 0.3
	[ -p "$T/ibsim.in" ] && [ -n "${HOLD_PID:-}" ] && echo Quit > "$T/ibsim.in" 2>/dev/null
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	# OpenSM under umad2sim sometimes hangs in its exit once ibsim is gone:
	# whatever is left after 3 s is killed, so that the wait below ends
	for _ in $(seq 1 30); do
		alive=""
		for p in $PIDS; do kill -0 "$p" 2>/dev/null && alive=1; done
		[ -z "$alive" ] && break
		sleep 0.1
	done
	for p in $PIDS; do kill -9 "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	[ -n "${LAB_KEEP:-}" ] || rm -rf "$T"
}
trap cleanup EXIT
trap "exit 1" HUP INT TERM PIPE

ok() { npass=$((npass + 1)); echo "ok - $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL - $*"; }

need() {
	for b in "$@"; do
		command -v "$b" > /dev/null 2>&1 || { echo "SKIP: $b not installed"; exit 77; }
	done
}

# start_ibsim: ibsim -s on the netA topology, console on a held-open fifo
start_ibsim() {
	mkfifo "$T/ibsim.in"
	sleep 1000000 > "$T/ibsim.in" < /dev/null 2>&1 &
	HOLD_PID=$!
	PIDS="$PIDS $HOLD_PID"
	IBSIM_SOCKNAME=$SOCK ibsim -s "$NET" < "$T/ibsim.in" > "$T/ibsim.out" 2>&1 &
	IBSIM_PID=$!
	PIDS="$PIDS $IBSIM_PID"
	for _ in $(seq 1 50); do
		grep -q 'Network simulator ready' "$T/ibsim.out" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "ibsim did not start"; cat "$T/ibsim.out"; return 1
}

# run_client ARGS...: the C client under a time bound; its ok/FAIL lines count here
run_client() {
	timeout 60 "$CLIENT" "$@" > "$T/client.out" 2> "$T/client.err"
	rc=$?
	cat "$T/client.out"
	sed 's/^/    client: /' "$T/client.err"
	npass=$((npass + $(grep -c '^ok - ' "$T/client.out")))
	nfail=$((nfail + $(grep -c '^FAIL - ' "$T/client.out")))
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "client exited with status $rc"
}

# after the client: ibsim alive, client slots released (console "Dump"-free check)
check_ibsim_after() {
	if kill -0 "$IBSIM_PID" 2>/dev/null; then ok "ibsim still running"; else fail "ibsim died"; fi
}

finish() {
	cleanup
	trap - EXIT
	left=""
	for p in $PIDS; do kill -0 "$p" 2>/dev/null && left="$left $p"; done
	if [ -z "$left" ]; then ok "no process left behind"; else fail "left behind:$left"; fi
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
	exit $?
}
