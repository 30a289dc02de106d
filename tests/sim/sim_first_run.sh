#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_first_run.sh - issue 21, what a first run hits:
#   1. a daemon started in the background with a relative -f reloads
#      (ibrouterctl reload, SIGHUP): it has changed to "/" by then, and
#      resolves the path at start;
#   2. a second daemon on the same control socket says another one runs
#      there and that it did not start, not "ibrouterd stopped";
#   3. a verbs port whose device this machine does not have: the daemon
#      starts, says the device is not present (and, where the machine has
#      no RDMA stack at all, what to load), and shows the port lost;
#   4. a refusal's message ends before its errno: no line break before
#      "(EINVAL)";
#   5. -v logs one level more than the config's log-level (it changed
#      nothing at log-level = info).
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

wait_for_ok() { for _ in $(seq 1 50); do "$@" && return 0; sleep 0.1; done; return 1; }

# 1. background, relative -f
write_conf
(cd "$T" && "$IBRD" -f ibrouterd.conf) > "$T/bg.log" 2>&1
for _ in $(seq 1 100); do [ -s "$T/ibrouterd.pid" ] && "$CTL" -s "$T/ctl.sock" version > /dev/null 2>&1 && break; sleep 0.05; done
BG=$(cat "$T/ibrouterd.pid" 2>/dev/null)
PIDS="$PIDS $BG"
check "1: the daemon runs in the background (PID ${BG:-none})" kill -0 "${BG:-0}"
check "1: ibrouterctl reload: the relative path still found" ctl reload
printf 'route "2001:db8:0:7::/64" {\n\tport = "b"\n\tvia = 0x17\n}\n' >> "$T/ibrouterd.conf"
kill -HUP "${BG:-0}" 2>/dev/null
hup_route() { ctl show routes 2>/dev/null | grep -q '^2001:db8:0:7::/64'; }
check "1: SIGHUP: the changed file is read again (its new route is there)" wait_for_ok hup_route

# 2. a second daemon on the same socket
"$IBRD" -d -f "$T/ibrouterd.conf" > "$T/second.log" 2>&1
check "2: a second daemon exits 1" test $? -eq 1
check "2: ... saying another ibrouterd runs there" grep -q 'another ibrouterd is running there' "$T/second.log"
check "2: ... and that it did not start, not that it stopped" sh -c \
	"grep -q 'ibrouterd not started' '$T/second.log' && ! grep -q 'ibrouterd stopped' '$T/second.log'"
check "2: the first one still answers" ctl version

# 4. no line break before the errno
ctl route add fec0:0:0:9::/64 port nosuch lid 9 > "$T/r4.out" 2>&1
check "4: a refusal is one line ending in its errno" sh -c \
	"[ \$(wc -l < '$T/r4.out') -eq 1 ] && grep -q ' (ENOENT)\$' '$T/r4.out'"
kill "$BG" 2>/dev/null

# 3. a verbs port on a device that is not here
cat > "$T/v.conf" <<EOC
router {
	name = "v"
	node-guid = 0x0002c90300000100
}
port "a" {
	data = verbs
	device = "ibr_nodev0"
	lid = 1
	subnet-prefix = "fec0:0:0:1::"
}
control {
	socket = "$T/v.sock"
}
EOC
"$IBRD" -d -f "$T/v.conf" > "$T/v.log" 2>&1 &
V=$!
PIDS="$PIDS $V"
for _ in $(seq 1 100); do "$CTL" -s "$T/v.sock" version > /dev/null 2>&1 && break; sleep 0.05; done
check "3: the daemon starts without the device" "$CTL" -s "$T/v.sock" version
check "3: it says the device is not present and its ports are lost until it comes" \
	grep -q 'verbs: device ibr_nodev0 not present.*: its ports are lost until it comes' "$T/v.log"
if grep -q 'no RDMA devices' "$T/v.log"; then
	check "3: no RDMA stack here: it says what to load" grep -q 'load the HCA.s driver and ib_uverbs' "$T/v.log"
fi
check "3: show verbs: the port is lost" sh -c "'$CTL' -s '$T/v.sock' show verbs | grep -q 'lost'"
check "3: and it says nothing unexplained (no 'Function not implemented')" sh -c \
	"! grep -q 'Function not implemented' '$T/v.log'"

# 5. -v: one level beyond the config's log-level (at info: debug lines)
sed -i 's|socket = "'"$T"'/v.sock"|socket = "'"$T"'/v5.sock"|' "$T/v.conf"
"$IBRD" -d -v -f "$T/v.conf" > "$T/v5.log" 2>&1 &
V5=$!
PIDS="$PIDS $V5"
for _ in $(seq 1 100); do "$CTL" -s "$T/v5.sock" version > /dev/null 2>&1 && break; sleep 0.05; done
"$CTL" -s "$T/v5.sock" show ports > /dev/null 2>&1
kill "$V5"
wait "$V5" 2> /dev/null
check "5: ibrouterd -v at log-level = info logs debug lines" grep -q 'control: up to .* clients' "$T/v5.log"
check "5: without -v it does not" sh -c "! grep -q 'control: up to .* clients' '$T/v.log'"
finish
