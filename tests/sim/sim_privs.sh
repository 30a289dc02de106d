#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_privs.sh - started by root with `user` set (ibrouterd.conf(5)), the
# daemon opens its sockets, PID file and ports as root, then runs as that
# user with no capability (ibrouterd(8), PRIVILEGES): it forwards, reloads,
# takes a capture through the descriptor ibrouterctl passes, and stops
# cleanly; a reload that needs what only root may do fails and the old
# config stays.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
need_nobody
if [ "$(id -u)" -ne 0 ]; then
	echo "skip: needs root"
	exit 77
fi
A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1

# uid 65534 must reach the peers' sockets: a searchable directory, sockets it may write
chmod 0755 "$T"
umask 000
EXTRA_CONF='user = "nobody"'
start_router || exit 1
status() { awk -v k="$1:" '$1 == k { print $2, $3, $4, $5 }' "/proc/$RPID/status"; }
check "it runs as nobody: real, effective, saved and fs uid 65534" [ "$(status Uid)" = "65534 65534 65534 65534" ]
check "... and gid 65534" [ "$(status Gid)" = "65534 65534 65534 65534" ]
check "... with no capability" [ "$(awk '$1 == "CapEff:" { print $2 }' "/proc/$RPID/status")" = 0000000000000000 ]
check "the log says so" grep -q 'privileges: running as user "nobody" (uid 65534' "$T/ibrouterd.log"
check "its control socket stayed root's group (the daemon's at start)" sh -c "[ \"\$(stat -c %g '$T/ctl.sock')\" = 0 ]"

recv_bg b "$T/b.peer" -c 30 -t 5000 --expect-count 30 --expect-dlid 5 --expect-slid 0x10
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 30
check "A to B: 30 packets forwarded as nobody" recv_wait b

# a live reload (a route more) needs nothing of root
EXTRA_CONF='user = "nobody"
route "fec0:0:0:9::/64" {
	port = "b"
	via = 0x21
}'
write_conf
check "reload as nobody" ctl reload
check "the new route is there" sh -c "\"$CTL\" -s '$T/ctl.sock' show routes | grep -q 'fec0:0:0:9::/64'"

# a capture: ibrouterctl (root here) opens the file and passes the descriptor
check "capture start" ctl capture start a "$T/cap.pcap" all count 4
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 4
for _ in $(seq 1 50); do [ "$(stat -c %s "$T/cap.pcap")" -gt 24 ] && break; sleep 0.1; done
ctl capture stop > /dev/null 2>&1
check "the capture holds packets, written by nobody through root's descriptor" \
	sh -c "[ \"\$(stat -c %s '$T/cap.pcap')\" -gt 24 ] && [ \"\$(stat -c %u '$T/cap.pcap')\" = 0 ]"

# a reload that binds a new sim socket where nobody may not write: refused, the old config stays
mkdir -m 0700 "$T/rootonly"
EXTRA_CONF="user = \"nobody\"
port \"c\" {
	data = sim
	sim-socket = \"$T/rootonly/c.sock\"
	sim-peer = \"$T/c.peer\"
	lid = 0x20
	subnet-prefix = \"fec0:0:0:3::\"
}"
write_conf
ctl reload > "$T/reload.out" 2>&1
check "a reload that needs root fails" grep -q 'Permission denied' "$T/reload.out"
check "... and the old config stays: two ports" sh -c "[ \"\$(\"$CTL\" -s '$T/ctl.sock' -j show ports | grep -o '\"name\"' | wc -l)\" -eq 2 ]"

kill "$RPID"
wait "$RPID"
check "SIGTERM: it exits 0 as nobody" [ $? -eq 0 ]
finish
