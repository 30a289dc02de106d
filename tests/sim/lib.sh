# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# tests/sim/lib.sh - shared by the sim data-path tests and the demo: a private
# directory, ibrouterd on two sim ports, hosts on both sides, cleanup of every
# process started here (by PID) on any exit.
set -u
: "${BUILD:?BUILD must name the build directory}"
IBRD=$BUILD/ibrouterd
CTL=$BUILD/tools/ibrouterctl
HOST=$BUILD/tools/ibrouter-host
T=$(mktemp -d /tmp/ibr-sim.XXXXXX)
PIDS=""
npass=0
nfail=0
# A ThreadSanitizer build (configure --enable-tsan): every program started
# here writes its reports under $T, and at exit any report fails the test,
# the background daemon's too (nothing waits for its exit status).
TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS }log_path=$T/tsan"
export TSAN_OPTIONS

cleanup() {
	st=$?
	# CONT: a stopped process (SIGSTOP, state T) takes the TERM once it runs
	# again; only those: a CONT to one that is exiting can break
	# LeakSanitizer's ptrace stop of it (state t), which then spins for good
	for p in $PIDS; do
		kill "$p" 2>/dev/null || continue
		[ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" = T ] && kill -s CONT "$p"
	done
	# what still runs after 10 s is killed, so that no test waits for ever
	for _ in $(seq 1 100); do
		alive=""
		for p in $PIDS; do
			case $(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null) in
			'' | Z) ;; # gone, or a zombie its wait below reaps
			*) alive="$alive $p" ;;
			esac
		done
		[ -z "$alive" ] && break
		sleep 0.1
	done
	for p in $alive; do
		echo "# cleanup: pid $p outlived SIGTERM by 10 s: killed"
		kill -s KILL "$p" 2>/dev/null
	done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	for f in "$T"/tsan.*; do
		[ -f "$f" ] || continue
		echo "FAIL - ThreadSanitizer: $(grep -c '^WARNING: ThreadSanitizer' "$f") report(s), $f:"
		sed 's/^/    /' "$f"
		echo "0 passed, 1 failed"
		st=1
	done
	# KEEP_DIR=1: the directory stays (scripts/demo.sh --keep leaves a router running in it)
	[ -n "${KEEP_DIR:-}" ] || rm -rf "$T"
	exit $st
}
trap cleanup EXIT
trap "exit 1" HUP INT TERM PIPE

# need_nobody: the test runs clients as uid 65534; where that uid cannot
# reach the build (a parent directory of the checkout is not searchable by
# others, e.g. a clone under mktemp -d), the test cannot run: a skip (77)
need_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$CTL" && return 0
	echo "SKIP: uid 65534 cannot run $CTL (a parent directory is not searchable by others)"
	exit 77
}

ok() { npass=$((npass + 1)); echo "ok - $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL - $*"; }
check() { # check "what" command...
	what=$1; shift
	if "$@" > "$T/last.out" 2>&1; then ok "$what"; else fail "$what"; sed 's/^/    /' "$T/last.out"; fi
}

# What every router config of these tests ends with: one host known in each
# subnet (A: GUID 0x100001, LID 3; B: GUID 0x110001, LID 5), the control
# socket and the PID file in $T; CTL_CONF adds keys to the control section.
conf_tail() {
	cat <<EOC
neighbour "0x0000000000100001" {
	port = "a"
	lid = 3
}
neighbour "0x0000000000110001" {
	port = "b"
	lid = 5
}
control {
	socket = "$T/ctl.sock"
${CTL_CONF:-}
}
pid-file = "$T/ibrouterd.pid"
EOC
}

# The two-subnet sim config: port a (LID 1) on fec0:0:0:1::/64, port b (LID 0x10)
# on fec0:0:0:2::/64, one host known in each subnet; PORT_B_CONF adds keys to port b,
# PORT_A_ADDR replaces port a's LID and prefix (a port that learns them: its MAD keys).
write_conf() {
	cat > "$T/ibrouterd.conf" <<EOC
router {
	name = "sim"
	node-guid = 0x0002c90300000100
}
port "a" {
	data = sim
	sim-socket = "$T/a.sock"
	sim-peer = "$T/a.peer"
	${PORT_A_ADDR:-lid = 1
	subnet-prefix = "fec0:0:0:1::"}
}
port "b" {
	data = sim
	sim-socket = "$T/b.sock"
	sim-peer = "$T/b.peer"
	lid = 0x10
	subnet-prefix = "fec0:0:0:2::"
${PORT_B_CONF:-}
}
${EXTRA_CONF:-}
EOC
	conf_tail >> "$T/ibrouterd.conf"
}

start_router() {
	write_conf
	"$IBRD" -d -f "$T/ibrouterd.conf" > "$T/ibrouterd.log" 2>&1 &
	RPID=$!
	PIDS="$PIDS $RPID"
	for _ in $(seq 1 100); do
		[ -S "$T/ctl.sock" ] && "$CTL" -s "$T/ctl.sock" version > /dev/null 2>&1 && return 0
		sleep 0.05
	done
	echo "ibrouterd did not start:"; cat "$T/ibrouterd.log"
	return 1
}

ctl() { "$CTL" -s "$T/ctl.sock" "$@"; }

# recv_bg NAME SOCKET ARGS...: a receiving host in the background; its exit
# status is collected by recv_wait NAME.
recv_bg() {
	name=$1 sock=$2; shift 2
	"$HOST" -s "$sock" recv "$@" > "$T/$name.out" 2>&1 &
	eval "RECV_$name=$!"
	PIDS="$PIDS $!"
	for _ in $(seq 1 100); do [ -S "$sock" ] && break; sleep 0.02; done
}
recv_wait() {
	eval "p=\$RECV_$1"
	wait "$p"
}
send_a() { "$HOST" -s "$T/a.peer" -p "$T/a.sock" send -q "$@"; }
send_b() { "$HOST" -s "$T/b.peer" -p "$T/b.sock" send -q "$@"; }

finish() {
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
