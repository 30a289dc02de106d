#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_reload_whole.sh - a reload applies whole or changes nothing
# (ibrouterd.conf(5), RELOAD), while a counted stream A -> B flows:
#  - reloads that fail before the switch (a new port's sim socket cannot be
#    bound, the control socket cannot move) and one that fails after it (a
#    new port's MAD channel cannot attach: the old config is started again)
#    leave the ports, the routes and the forwarding as they were;
#  - a later good reload applies, and the stream loses nothing throughout;
#  - what a reload keeps: entries added with ibrouterctl (by port name),
#    counters by port name when ports move, a moved control socket and PID
#    file, and at shutdown only the daemon's own files are removed.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1
N=3000

# port_c SOCKET [MORE KEYS]: a third port for EXTRA_CONF
port_c() {
	cat <<EOC
port "c" {
	data = sim
	sim-socket = "$1"
	sim-peer = "$T/c.peer"
	lid = 0x20
	port-guid = 0x0002c90300000103
	subnet-prefix = "fec0:0:0:3::"
	${2:-}
}
EOC
}

jget() { # jget KEY: the first numeric or string value of KEY in stdin's JSON
	grep -o "\"$1\":[^,}]*" | head -1 | sed 's/^[^:]*://; s/"//g'
}

start_router || exit 1
# port b has its GUID in the file: without one a port's GUID is node-guid
# plus its number, and removing a (below) would make b another port
conf_now() {
	write_conf
	sed -i '/^port "b" {/a\	port-guid = 0x0002c90300000102' "$T/ibrouterd.conf"
}
conf_now
ctl reload > /dev/null
# the SMA's ports remember what an SM set: MasterSMLID 0x55 on a, 0x66 on b
# (before the stream: the hosts' sockets are the peers' paths)
"$HOST" -s "$T/a.peer" -p "$T/a.sock" -t 2000 smp portinfo set-smlid 0x55 > /dev/null 2>&1
"$HOST" -s "$T/b.peer" -p "$T/b.sock" -t 2000 smp portinfo set-smlid 0x66 > /dev/null 2>&1
ctl route add fec0:0:0:7::/64 port b lid 0x33 > /dev/null
ctl neighbour add 0x0000000000110077 port b lid 0x77 > /dev/null

recv_bg b "$T/b.peer" -q -c $N -t 30000 --expect-count $N --expect-dlid 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c $N -r 1000 &
SPID=$!
PIDS="$PIDS $SPID"
sleep 0.3

ports_are() { # ports_are NAMES...: show ports lists exactly these, in order
	want=$*
	got=$(ctl -j show ports | grep -o '"name":"[^"]*"' | sed 's/"name":"//; s/"//' | tr '\n' ' ')
	[ "$got" = "$want " ] || { echo "ports: $got, want: $want"; return 1; }
}
workers_are() {
	[ "$(ctl -j version | jget workers)" = "$1" ] || { ctl -j version; return 1; }
}

# 1. a new port whose socket cannot be bound: refused before anything changes
EXTRA_CONF=$(port_c "$T/no-such-dir/c.sock")
conf_now
check "a reload whose new port cannot bind fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" reload 2>\"$T/r1.err\""
check "its error names the sim socket" grep -q 'sim socket' "$T/r1.err"
check "the ports are as before" ports_are a b
check "the workers still run" workers_are 1
check "no socket was left for the refused port" test ! -e "$T/no-such-dir/c.sock"

# 2. a new port whose MAD channel cannot attach (no ibsim server): the old
#    config is started again
EXTRA_CONF=$(port_c "$T/c.sock" "mad = ibsim
	ibsim-socket = \"ibr-none-$$\"
	ibsim-node = \"nobody\"")
conf_now
check "a reload whose new port cannot attach fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" reload 2>\"$T/r2.err\""
check "the ports are as before (after the switch was undone)" ports_are a b
check "the workers run again" workers_are 1
check "the new port's socket is gone again" test ! -e "$T/c.sock"

# 3. the control socket cannot move (its directory is a file)
: > "$T/plain"
EXTRA_CONF=""
conf_now
sed -i "s|socket = \"$T/ctl.sock\"|socket = \"$T/plain/ctl.sock\"|" "$T/ibrouterd.conf"
check "a reload whose control socket cannot move fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" reload 2>\"$T/r3.err\""
check "its error names the control socket" grep -q 'control socket' "$T/r3.err"
check "the old control socket answers" ctl version

# 3b. the router's identity changes only with a restart
sed -i "s|node-guid = 0x0002c90300000100|node-guid = 0x0002c90300000999|" "$T/ibrouterd.conf"
check "a reload changing the node GUID is refused" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" reload 2>\"$T/r3b.err\""
check "its error says to restart" grep -q 'restart' "$T/r3b.err"

# 4. trace, routes and neighbours as before all three failures
check "trace still forwards A -> B" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j trace $A_HOST $B_HOST | grep -q '\"verdict\":\"forward\",\"in\":\"a\",\"out\":\"b\"'"
check "the CLI's route is there" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes fec0:0:0:7::/64 | grep -q 'lid 0x0033'"

# 5. a good reload adding port c applies
EXTRA_CONF=$(port_c "$T/c.sock")
conf_now
check "a reload adding port c applies" ctl reload
check "port c is there" ports_are a b c
check "the workers run" workers_are 1

wait $SPID
check "the stream lost nothing across the failed and the good reloads ($N packets)" recv_wait b
check "the SMA has three ports" sh -c "\"$HOST\" -s \"$T/b.peer\" -p \"$T/b.sock\" -t 2000 smp nodeinfo | grep -q '^NumPorts:\.*3\$'"
check "port a's SMA kept its master SM" sh -c "\"$HOST\" -s \"$T/a.peer\" -p \"$T/a.sock\" -t 2000 smp portinfo | grep -q '^SMLid:\.*85\$'"
check "the CLI's route survived the port-adding reload" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes fec0:0:0:7::/64 | grep -q 'lid 0x0033'"
check "the CLI's neighbour survived it" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show neighbours b | grep -q '0x0000000000110077'"

# 6. counters follow the port by name: remove port a, so that b moves to index 0
b_tx=$(ctl -j show counters b | jget tx_packets)
check "port b sent the stream" test "$b_tx" -ge $N
a_tx=$(ctl -j show counters a | jget tx_packets)
check "ports a and b have different counts (b tx $b_tx, a tx $a_tx)" test "$a_tx" != "$b_tx"
sed -e '/^port "a" {/,/^}/d' -e '/^neighbour "0x0000000000100001" {/,/^}/d' \
	"$T/ibrouterd.conf" > "$T/conf.new" && mv "$T/conf.new" "$T/ibrouterd.conf"
check "a reload removing port a applies" ctl reload
check "the ports are b and c" ports_are b c
check "port b keeps its own counters (tx $b_tx, not a's $a_tx)" \
	sh -c "[ \"\$(\"$CTL\" -s \"$T/ctl.sock\" -j show counters b | grep -o '\"tx_packets\":[0-9]*')\" = '\"tx_packets\":$b_tx' ]"
check "port c starts at zero" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show counters c | grep -q '\"rx_packets\":0,'"
check "the CLI's route now leaves by b at its new index" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes fec0:0:0:7::/64 | grep -q '\"port\":\"b\"'"
check "port a's socket is closed and removed" test ! -e "$T/a.sock"
check "port b's SMA, now port 1, is still b's (MasterSMLID 0x66)" sh -c "\"$HOST\" -s \"$T/b.peer\" -p \"$T/b.sock\" -t 2000 smp portinfo | grep -q '^SMLid:\.*102\$'"
check "the SMA has two ports" sh -c "\"$HOST\" -s \"$T/b.peer\" -p \"$T/b.sock\" -t 2000 smp nodeinfo | grep -q '^NumPorts:\.*2\$'"

# 7. B -> C forwards after the ports moved
ctl neighbour add 0x0000000000120001 port c lid 7 > /dev/null
recv_bg c "$T/c.peer" -q -c 10 -t 5000 --expect-count 10 --expect-dlid 7
"$HOST" -s "$T/b.peer" -p "$T/b.sock" send -q --slid 5 --dlid 0x10 --sgid $B_HOST \
	--dgid fec0::3:0:0:12:1 -c 10
check "B -> C forwards after the reload moved the ports" recv_wait c

# 8. the control socket and the PID file move by reload
sed -i -e "s|socket = \"$T/plain/ctl.sock\"|socket = \"$T/ctl2.sock\"|" \
	-e "s|socket = \"$T/ctl.sock\"|socket = \"$T/ctl2.sock\"|" \
	-e "s|pid-file = \"$T/ibrouterd.pid\"|pid-file = \"$T/ibrouterd2.pid\"|" "$T/ibrouterd.conf"
check "a reload moving the control socket and the PID file applies" ctl reload
check "the new control socket answers" "$CTL" -s "$T/ctl2.sock" version
check "the old one is gone" test ! -e "$T/ctl.sock"
check "the new PID file holds the daemon's PID" sh -c "[ \"\$(cat \"$T/ibrouterd2.pid\")\" = $RPID ]"
check "the old PID file is gone" test ! -e "$T/ibrouterd.pid"
# another program's socket now at the old path: the daemon must leave it alone
"$HOST" -s "$T/ctl.sock" recv -q -c 1 -t 20000 > /dev/null 2>&1 &
OTHER=$!
PIDS="$PIDS $OTHER"
for _ in $(seq 1 100); do [ -S "$T/ctl.sock" ] && break; sleep 0.02; done
kill "$RPID"
for _ in $(seq 1 100); do kill -0 "$RPID" 2>/dev/null || break; sleep 0.05; done
check "ibrouterd stopped" sh -c "! kill -0 $RPID 2>/dev/null"
check "it removed its own control socket" test ! -e "$T/ctl2.sock"
check "it left another program's socket at its old path" test -S "$T/ctl.sock"
check "it removed its PID file" test ! -e "$T/ibrouterd2.pid"
finish
