#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_notify.sh - ibrouterd and systemd (ibrouterd.service is Type=notify
# with a watchdog; ibrouterd(8), SYSTEMD): on the socket NOTIFY_SOCKET names,
# READY=1 and a STATUS= once it forwards, RELOADING=1 then READY=1 around a
# reload, WATCHDOG=1 every half WatchdogSec while every worker makes
# progress, none once a worker hangs (a test build whose workers stop for
# good when a file exists: tests/sim/ibrouterd-hang, ROUTER_TEST_HANG), and
# STOPPING=1 at the end.  systemd is not needed: a datagram socket of ours
# stands for it, as sd_notify(3) describes the protocol.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
IBRD=$BUILD/tests/sim/ibrouterd-hang

# the service manager's end: each datagram a line, with the ms it came at
python3 - "$T/notify.sock" "$T/notify.log" << 'EOPY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as f:
    while True:
        m = s.recv(4096).decode(errors="replace")
        for line in m.split("\n"):
            if line:
                f.write("%d %s\n" % (time.monotonic() * 1000, line))
EOPY
PIDS="$PIDS $!"
for _ in $(seq 1 100); do [ -S "$T/notify.sock" ] && break; sleep 0.05; done
: > "$T/notify.log"

# seen WHAT [TIMEOUT_S]: a line "WHAT" came (past the mark), within TIMEOUT_S
mark=0
seen() {
	for _ in $(seq 1 $((${2:-5} * 20))); do
		tail -n +$((mark + 1)) "$T/notify.log" | grep -q " $1\$" && return 0
		sleep 0.05
	done
	echo "no \"$1\" after line $mark:"; cat "$T/notify.log"
	return 1
}
count() { tail -n +$((mark + 1)) "$T/notify.log" | grep -c " $1\$"; }
set_mark() { mark=$(wc -l < "$T/notify.log"); }

# WatchdogSec=2: a ping each second while the workers beat
NOTIFY_SOCKET=$T/notify.sock WATCHDOG_USEC=2000000 ROUTER_TEST_HANG=$T/hang \
	start_router || exit 1
check "READY=1 once it forwards" seen READY=1
check "a STATUS= says what it does" sh -c "grep -q ' STATUS=forwarding: 2 of 2 ports up, 1 workers' '$T/notify.log'"
check "the log says the watchdog is on" grep -q 'systemd: watchdog every 2000 ms' "$T/ibrouterd.log"
set_mark
sleep 3.2
n=$(count WATCHDOG=1)
check "WATCHDOG=1 about every second while the workers beat ($n in 3.2 s)" [ "$n" -ge 2 -a "$n" -le 5 ]

# a reload: RELOADING=1, then READY=1 with its outcome
set_mark
check "reload" ctl reload
check "RELOADING=1 at the reload" seen RELOADING=1
check "READY=1 after it" seen READY=1
check "its STATUS= says the new config forwards" sh -c "tail -n +$((mark + 1)) '$T/notify.log' | grep -q ' STATUS=reloaded, forwarding'"
# a bad file: READY=1 again, the old config still forwarding
echo 'router {' > "$T/ibrouterd.conf"
set_mark
ctl reload > /dev/null 2>&1
check "a failed reload: READY=1 again" seen READY=1
check "... and its STATUS= says the old config forwards" sh -c "tail -n +$((mark + 1)) '$T/notify.log' | grep -q ' STATUS=reload failed, the old config forwards'"
write_conf

# a worker hangs: no more pings (systemd would restart the router after 2 s)
set_mark
sleep 1.5
check "pings before the hang" [ "$(count WATCHDOG=1)" -ge 1 ]
touch "$T/hang"
sleep 1.2 # the worker stops at its next turn (at most 100 ms); the next look sees no progress
set_mark
sleep 3
n=$(count WATCHDOG=1)
check "no WATCHDOG=1 for 3 s once a worker hangs ($n)" [ "$n" -eq 0 ]
check "the log says which worker made no progress" grep -q 'watchdog: worker 0 made no progress' "$T/ibrouterd.log"
check "the control loop itself still answers" ctl version
# it cannot stop (its worker never returns): systemd would kill it, as we do
kill -s KILL "$RPID"
wait "$RPID" 2> /dev/null # gone, its socket with it, before the next one starts there

# without the hang, STOPPING=1 at SIGTERM
rm -f "$T/hang"
: > "$T/notify.log"
mark=0
NOTIFY_SOCKET=$T/notify.sock start_router || exit 1
check "READY=1 (no watchdog asked: none)" seen READY=1
check "no watchdog without WATCHDOG_USEC" sh -c "! grep -q 'systemd: watchdog' '$T/ibrouterd.log'"
kill "$RPID"
check "STOPPING=1 at SIGTERM" seen STOPPING=1
wait "$RPID"
check "and it exits 0" [ $? -eq 0 ]
finish
