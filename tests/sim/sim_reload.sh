#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_reload.sh - reload without loss: a counted stream A -> B keeps flowing,
# without losing one packet, while reloads add a route (live edit) and then a
# port (data path restart; the sockets of ports that stay are kept); a bad
# config is refused and the old one stays.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1
N=3000

start_router || exit 1

recv_bg b "$T/b.peer" -q -c $N -t 20000 --expect-count $N --expect-dlid 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c $N -r 2000 &
SPID=$!
PIDS="$PIDS $SPID"
sleep 0.3
# 1. a route added by reload (SIGHUP): routes change in place
EXTRA_CONF='route "fec0:0:0:9::/64" {
	port = "b"
	via = 0x21
}'
write_conf
kill -HUP "$RPID"
sleep 0.3
# 2. a port added by reload (ibrouterctl reload): the workers restart
EXTRA_CONF="$EXTRA_CONF
port \"c\" {
	data = sim
	sim-socket = \"$T/c.sock\"
	sim-peer = \"$T/c.peer\"
	lid = 0x20
	subnet-prefix = \"fec0:0:0:3::\"
}"
write_conf
check "reload adding a port" ctl reload
sleep 0.3
# 3. a broken config is refused; the running one stays
echo 'port "d" { lmc = 9 }' >> "$T/ibrouterd.conf"
check "reload of a bad config fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" reload 2>\"$T/reload.err\""
check "the error names the file and line" grep -q 'ibrouterd.conf:[0-9]*' "$T/reload.err"
wait $SPID
check "the counted stream lost nothing across three reloads ($N packets)" recv_wait b
check "the reloaded route is live" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes fec0:0:0:9::/64 | grep -q '\"via\":\"lid 0x0021\"'"
check "the new port is up" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"c\"'"
check "drops: none" sh -c "[ -z \"\$(\"$CTL\" -s \"$T/ctl.sock\" -j show drops | grep -o '\"count\"')\" ]"
finish
