#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_plugin.sh - the OpenSM plugin (libibrouter-osm.so, ibrouter-osm(8))
# in a real OpenSM: two ibsim subnets; OpenSM A loads the plugin from the
# build tree (LD_LIBRARY_PATH: OpenSM dlopen()s "lib<name>.so" through the
# library path); OpenSM B runs plain.  ibrouterd's port a has no SA client:
# all it knows of subnet A comes from the plugin; port b learns B from its
# SA.  Subnet A has a second router node, RtrA2, the port of a second
# ibrouterd ("lab2", no data path) that the plugin also talks to.  A
# prefix-routes file does not exist until step 5 writes one.
#   1. the plugin loads, connects, is bound to port a; the port's LID and
#      prefix, its neighbours and groups are OpenSM A's (a join: trap 66;
#      a leave: trap 67) within a sweep;
#   2. saquery -p from a host in A to a GID in B: the router port's LID,
#      with no prefix-routes file;
#   3. route add / route del of a third prefix: its PathRecord comes and
#      goes;
#   4. a plugin built for another OpenSM: OpenSM says so and runs on;
#   5. an administrator's prefix-routes file: its line works, ours survive
#      OpenSM's re-read;
#   6. ibrouterd killed: OpenSM sweeps on (SUBNET UP, light sweeps), the
#      routes are held; restarted: the plugin reconnects and resyncs;
#   7. ibrouterd stopped (SIGSTOP, it reads nothing): OpenSM sweeps on and
#      answers PathRecords, the plugin drops and counts, the other daemon is
#      still fed; continued: resync;
#   8. two routers announce one prefix: the lower metric wins; withdrawn,
#      the other takes over;
#   9. multicast through the plugin-fed port: a host's join in A makes the
#      router a member in B (by B's SA client) and in A (the plugin joins
#      the router port inside OpenSM A), and a stream from A reaches a
#      receiver in B; a group created in B is created in A by the plugin
#      with the router port as its member, and a stream from B reaches A on
#      OpenSM A's MLID; its last host gone, the router leaves it in A.
# Prints "N passed, N failed"; exit 77 after "SKIP: why" in a build without
# the plugin.  Every process is stopped by its PID on exit.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PLUGDIR="$BUILD/plugins/.libs"

ctl2() { "$CTL" -s "$LAB/ctl2.sock" "$@"; }

if [ ! -f "$PLUGDIR/libibrouter-osm.so" ]; then
	echo "SKIP: no $PLUGDIR/libibrouter-osm.so (configure found no OpenSM headers)"
	exit 77
fi

OSMLOG=$LAB/A/sm/osm.log
osm_count() { grep -c "$1" "$OSMLOG"; }
# pr_dlid DGID: the DLID of OpenSM A's PathRecord from host A2 to DGID (empty: none)
pr_dlid() {
	lab_run A HcaA2 saquery -p --sgid-to-dgid "fec0:0:0:1:0:0:10:3-$1" 2>/dev/null |
		awk '$1 ~ /^dlid\./ { n = split($1, a, "."); print a[n] }'
}
pr_is() { [ "$(pr_dlid "$1")" = "$2" ]; }
# plugin_col COLUMN: that column of the first plugin in "show plugins"
# plugin_col_of SOCKET COLUMN: by name, from the JSON form (the text form wraps at 100 columns);
# booleans as the text form prints them
plugin_col_of() {
	"$CTL" -s "$1" -j show plugins | python3 -c '
import json, sys
rows = json.load(sys.stdin)["data"]
v = rows[0].get(sys.argv[1]) if rows else None
print("" if v is None else "yes" if v is True else "no" if v is False else v)' "$2"
}
plugin_col() { plugin_col_of "$LAB/ctl.sock" "$1"; }
plugin_is() { [ "$(plugin_col "$1")" = "$2" ]; }
plugin_ge() { [ "$(plugin_col "$1")" -ge "$2" ] 2> /dev/null; }
# fed_by_plugin: the plugin is up, on a master OpenSM, bound to and feeding port a, after a snapshot
fed_by_plugin() { plugin_is master yes && plugin_is ports a && plugin_ge snapshots 1; }
start_router() {
	"$BUILD/ibrouterd" -d -f "$LAB/r.conf" >> "$LAB/r.log" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
	RPID=$!
}

# netA and a second router node on the switch's port 4 (port GUID 0x300003)
sed 's/^\[3\] "RtrA"\[1\]$/&\n[4] "RtrA2"[1]/' "$HERE/netA" > "$LAB/netA"
printf '\nRt 1 "RtrA2"\n[1] "SwA"[4]\n' >> "$LAB/netA"
lab_subnet A "$LAB/netA"
lab_subnet B "$HERE/netB"
# light sweeps every second, and logged (VERBOSE) so that step 6 can count them
cat > "$LAB/plugA.conf" <<EOC
sweep_interval 1
log_flags 0x07
event_plugin_name ibrouter-osm
event_plugin_options socket=$LAB/ctl.sock socket=$LAB/ctl2.sock verbose=2 queue=2 sndbuf=4096 hold=60 resweep=1 refresh=30
EOC
export LD_LIBRARY_PATH="$PLUGDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
lab_check "OpenSM A (with the plugin): SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001 "$LAB/plugA.conf"
unset LD_LIBRARY_PATH
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002
lab_check "1: OpenSM A loaded the plugin" grep -q 'ibrouter-osm: loaded (OpenSM' "$OSMLOG"

cat > "$LAB/r.conf" <<EOC
router {
	name = "lab"
	node-guid = 0x0002c90300000100
}
# Port a is not attached to ibsim at all: an attached, stopped daemon would
# leave OpenSM's SMInfo to its IsSM port unanswered, and ibsim never times
# out (LAB.md), which would stall OpenSM A in step 7 for a reason that is
# not the plugin's.  It names no LID and no prefix: with osm-plugin on,
# the plugin tells them (ibrouterd.conf(5)).
port "a" {
	data = sim
	sim-socket = "$LAB/a.sock"
	sim-peer = "$LAB/a.peer"
	# ibsim's router node stands for this port: its GUID, as OpenSM knows it
	port-guid = 0x300001
	mad = none
}
port "b" {
	data = sim
	sim-socket = "$LAB/b.sock"
	sim-peer = "$LAB/b.peer"
	# the GUID ibsim gives the node (no OpenSM ERR 2F19: lab_router_conf)
	port-guid = $(lab_rtr_guid B)
	mad = ibsim
	ibsim-socket = "$(lab_sock B)"
	ibsim-node = "RtrB"
	sa-client = true
}
learning {
	osm-plugin = true
	resync-interval = 3
}
control {
	socket = "$LAB/ctl.sock"
}
pid-file = "$LAB/r.pid"
EOC
# the second router: its port in A (RtrA2) and one more, both without data path
cat > "$LAB/r2.conf" <<EOC
router {
	name = "lab2"
	node-guid = 0x0002c90300000200
}
port "a" {
	data = none
	port-guid = 0x300003
	mad = none
	lid = 0x98
	subnet-prefix = fec0:0:0:98::
}
port "z" {
	data = none
	mad = none
	lid = 1
	subnet-prefix = fec0:0:0:6::
}
learning {
	osm-plugin = true
}
# Only global scope: two routers in one subnet would each count the other's
# join of a site-scope group as a member and keep it alive (several routers
# are not handled yet: their joins are not told from hosts').
multicast {
	scopes = { "global" }
}
control {
	socket = "$LAB/ctl2.sock"
}
pid-file = "$LAB/r2.pid"
EOC
start_router
"$BUILD/ibrouterd" -d -f "$LAB/r2.conf" > "$LAB/r2.log" 2>&1 &
LAB_PIDS="$LAB_PIDS $!"

# ---- 1. the plugin as port a's learning source ----
lab_check "1: the plugin connected and feeds port a" wait_for 10 fed_by_plugin
lab_run A HcaA2 smpquery -D portinfo 0,1,3 > "$LAB/piA.txt" 2>&1
RA=$(sed -n 's/^Lid:\.*\([0-9]*\)$/\1/p' "$LAB/piA.txt")
lab_check "1: port a has OpenSM A's LID ($RA) and prefix, from the plugin" wait_for 5 sh -c \
	"'$CTL' -s '$LAB/ctl.sock' show ports | awk '\$1 == \"a\" && \$3 == \"fec0:0:0:1::\" { ok = (\$4 == sprintf(\"0x%04x\", $RA)) } END { exit !ok }'"
sa_end_ports A HcaA2 | grep -v "^0x0000000000300001 " | sort > "$LAB/saA.txt"
neighbours a osm-plugin | sort > "$LAB/nbA.txt"
lab_check "1: port a's neighbours (osm-plugin) = OpenSM A's end ports ($(wc -l < "$LAB/saA.txt"))" \
	sh -c "test -s '$LAB/saA.txt' && diff '$LAB/saA.txt' '$LAB/nbA.txt'"
lab_check "1: a host in A joins ff15::1:7" "$JOIN" join "$(lab_sock A)" HcaA2 ff15::1:7 1
MA=$(lab_run A HcaA2 saquery -g 2>/dev/null | awk '/MGID/ { g = $NF } /Mlid/ { n = split($1, a, "."); if (g ~ /ff15::1:7/) print tolower(a[n]) }')
lab_check "1: trap 66 -> the group is on port a (osm-plugin) with OpenSM's MLID $MA" wait_for 5 sh -c \
	"'$CTL' -s '$LAB/ctl.sock' show mcast | awk '\$1 == \"ff15::1:7\" && \$2 == \"a\" && \$9 == \"osm-plugin\" { ok = (\$3 == \"$MA\") } END { exit !ok }'"
lab_check "1: the host leaves" "$JOIN" join "$(lab_sock A)" HcaA2 ff15::1:7 1 leave
lab_check "1: trap 67 -> the group is gone from port a" wait_for 5 sh -c \
	"! '$CTL' -s '$LAB/ctl.sock' show mcast | grep -q '^ff15::1:7 '"

# ---- 2. PathRecords through the router, no prefix-routes file ----
B2=fec0:0:0:2:0:0:11:3
lab_check "2: OpenSM A has no prefix-routes file" test ! -e "$LAB/A/sm/prefix-routes.conf"
lab_check "2: saquery -p A2 -> $B2: DLID = router port a's LID $RA" wait_for 10 pr_is $B2 "$RA"
# ours (B) and lab2's connected fec0:0:0:6::/64
two_routes() { plugin_is routes_sent 1 && plugin_is osm_routes 2; }
lab_check "2: show plugins: one route sent, two in OpenSM's list (ours, lab2's)" wait_for 5 two_routes
lab_run A HcaA2 smpquery -D portinfo 0,1,4 > "$LAB/piA2.txt" 2>&1
R2=$(sed -n 's/^Lid:\.*\([0-9]*\)$/\1/p' "$LAB/piA2.txt")
lab_check "2: lab2's prefix fec0:0:0:6::/64: DLID = RtrA2's LID $R2" wait_for 10 pr_is fec0:0:0:6:0:0:0:1 "$R2"

# ---- 3. a route added and withdrawn through the CLI ----
C1=fec0:0:0:3:0:0:0:1
lab_check "3: PathRecord to $C1 fails before the route" pr_is $C1 ""
lab_check "3: route add fec0:0:0:3::/64 port b" ctl route add fec0:0:0:3::/64 port b lid 4
lab_check "3: PathRecord to $C1: DLID $RA" wait_for 10 pr_is $C1 "$RA"
lab_check "3: route del fec0:0:0:3::/64" ctl route del fec0:0:0:3::/64
lab_check "3: PathRecord to $C1 fails again" wait_for 10 pr_is $C1 ""
lab_check "3: PathRecord to B still answered" pr_is $B2 "$RA"

# ---- 4. a plugin built for another OpenSM ----
mkdir -p "$LAB/bad"
perl -pe 's/OpenSM 3\.3\.23/OpenSM 9.9.99/g' "$PLUGDIR/libibrouter-osm.so" > "$LAB/bad/libibrouter-osm-badver.so"
lab_subnet C "$HERE/netA"
printf 'event_plugin_name ibrouter-osm-badver\nevent_plugin_options socket=%s\n' "$LAB/ctl.sock" > "$LAB/plugC.conf"
export LD_LIBRARY_PATH="$LAB/bad"
lab_check "4: OpenSM C with a mismatched plugin: SUBNET UP" lab_sm C HcaA1 0 0xfec0000000000003 "$LAB/plugC.conf"
unset LD_LIBRARY_PATH
lab_check "4: OpenSM C says why it did not load it" grep -q "version mismatch - plugin was built against OpenSM 9.9.99" "$LAB/C/sm/osm.log"
eval "kill \$LAB_SM_C \$LAB_IBSIM_C"

# ---- 5. an administrator's prefix-routes file ----
echo "0xfec0000000000009 0x300001 # the administrator's" > "$LAB/A/sm/prefix-routes.conf"
n0=$(osm_count 'SUBNET UP')
eval "kill -HUP \$LAB_SM_A"
lab_check "5: SIGHUP: OpenSM A re-read its files (heavy sweep)" wait_for 10 sh -c "test \$(grep -c 'SUBNET UP' '$OSMLOG') -gt $n0"
lab_check "5: the administrator's line works (fec0:0:0:9::1 -> $RA)" wait_for 5 pr_is fec0:0:0:9:0:0:0:1 "$RA"
lab_check "5: our route survived the re-read" wait_for 5 pr_is $B2 "$RA"
rm -f "$LAB/A/sm/prefix-routes.conf"

# ---- 6. ibrouterd killed, then restarted ----
kill -9 "$RPID"
wait "$RPID" 2> /dev/null
lab_check "6: the plugin saw the daemon go" wait_for 5 grep -q 'ibrouter-osm: ibrouterd at .* went away' "$OSMLOG"
l0=$(osm_count 'LIGHT SWEEP COMPLETE') n0=$(osm_count 'SUBNET UP')
sleep 2.5
lab_check "6: light sweeps go on ($l0 -> $(osm_count 'LIGHT SWEEP COMPLETE'))" test "$(osm_count 'LIGHT SWEEP COMPLETE')" -ge $((l0 + 2))
eval "kill -HUP \$LAB_SM_A"
lab_check "6: a heavy sweep ends in SUBNET UP" wait_for 10 sh -c "test \$(grep -c 'SUBNET UP' '$OSMLOG') -gt $n0"
lab_check "6: the routes are held while the daemon is away" pr_is $B2 "$RA"
start_router
lab_check "6: restarted: the plugin reconnects and resyncs" wait_for 20 fed_by_plugin
neighbours a osm-plugin | sort > "$LAB/nbA2.txt"
lab_check "6: and port a's neighbours are back" diff "$LAB/saA.txt" "$LAB/nbA2.txt"

# ---- 7. a daemon that stops reading ----
stats_in() { ! plugin_is queue 0/0; }
wait_for 5 stats_in > /dev/null # the plugin's counters reached the daemon
d0=$(plugin_col dropped)
m0=$(plugin_col_of "$LAB/ctl2.sock" messages)
kill -STOP "$RPID"
n0=$(osm_count 'SUBNET UP')
for i in 1 2 3 4 5 6 7 8 9 10; do eval "kill -HUP \$LAB_SM_A"; sleep 0.3; done
lab_check "7: OpenSM A sweeps on while ibrouterd reads nothing" wait_for 5 sh -c "test \$(grep -c 'SUBNET UP' '$OSMLOG') -ge $((n0 + 5))"
lab_check "7: and answers PathRecords" pr_is $B2 "$RA"
lab_check "7: the plugin drops and says so" wait_for 10 grep -q 'does not keep up: its queue is full' "$OSMLOG"
lab_check "7: the other daemon is still fed" test "$(plugin_col_of "$LAB/ctl2.sock" messages)" -gt "${m0:-0}"
kill -CONT "$RPID"
lab_check "7: continued: the drops are counted in show plugins (${d0:-0} before)" wait_for 10 \
	plugin_ge dropped $((${d0:-0} + 1))
lab_check "7: and it is resynced (neighbours)" wait_for 10 sh -c "'$CTL' -s '$LAB/ctl.sock' show neighbours a | grep -q osm-plugin"

# ---- 8. two routers, one prefix: the lower metric ----
C5=fec0:0:0:5:0:0:0:1
lab_check "8: lab: route add fec0:0:0:5::/64 metric 5" ctl route add fec0:0:0:5::/64 port b lid 4 metric 5
lab_check "8: lab2: route add fec0:0:0:5::/64 metric 1" ctl2 route add fec0:0:0:5::/64 port z lid 1 metric 1
lab_check "8: PathRecord to $C5: lab2's port (metric 1), LID $R2" wait_for 10 pr_is $C5 "$R2"
lab_check "8: lab2 withdraws it" ctl2 route del fec0:0:0:5::/64
lab_check "8: PathRecord to $C5: lab's port (metric 5), LID $RA" wait_for 10 pr_is $C5 "$RA"
lab_check "8: lab withdraws it too" ctl route del fec0:0:0:5::/64
lab_check "8: PathRecord to $C5 fails" wait_for 10 pr_is $C5 ""

# ---- 9. multicast bridged through the plugin-fed port ----
RB=$(port_lid b)
LA2=$(awk '$1 == "0x0000000000100003" { print $2 }' "$LAB/saA.txt")
sa_end_ports B HcaB2 > "$LAB/saB.txt"
LB2=$(awk '$1 == "0x0000000000110003" { print $2 }' "$LAB/saB.txt")
A2=fec0:0:0:1::10:3 B2=fec0:0:0:2::11:3
RGA=fec0::1:0:0:30:1 # router port a's GID in A (port GUID 0x300001), as saquery prints it
# osm_has_member S MGID GID: GID is a member of MGID in subnet S's SA (lab.sh;
# it was a member of any group: saquery's --mgid filters nothing)
osm_has_member() { [ -n "$(lab_join_state "$1" "$2" "$3")" ]; }
osm_no_group() { ! lab_run "$1" "Hca${1}2" saquery -g 2>/dev/null | grep -q "$2\$"; }
j0=$(plugin_col joins)
lab_check "9: host A2 joins ff15::1:8 in A" "$JOIN" join "$(lab_sock A)" HcaA2 ff15::1:8 1
lab_check "9: the router creates it in B (its SA client)" wait_for 10 sh -c \
	"'$CTL' -s '$LAB/ctl.sock' show mcast | grep -q '^ff15::1:8 *b '"
lab_check "9: and is a member in A: the plugin joined router port a inside OpenSM A" \
	wait_for 10 osm_has_member A ff15::1:8 $RGA
lab_check "9: host B2 joins it in B" "$JOIN" join "$(lab_sock B)" HcaB2 ff15::1:8 1
MA=$(mlid_of ff15::1:8 a) MB=$(mlid_of ff15::1:8 b)
lab_check "9: an MLID in each subnet (A $MA, B $MB)" test -n "$MA" -a -n "$MB"
"$HOST" -s "$LAB/b.peer" recv -c 5 -t 5000 --expect-count 5 --expect-dlid "$(printf %d "${MB:-0}")" \
	--expect-slid "$RB" --expect-dgid ff15::1:8 --expect-sgid $A2 > "$LAB/recv9b.out" 2>&1 &
RECV=$!
sleep 0.2
"$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid "$LA2" --dlid "$(printf %d "${MA:-0}")" \
	--sgid $A2 --dgid ff15::1:8 --qpn 0xffffff --size 100 -c 5
lab_check "9: a stream from A reaches the receiver in B on B's MLID" wait "$RECV"
lab_check "9: host B2 creates ff15::1:9 in B" "$JOIN" join "$(lab_sock B)" HcaB2 ff15::1:9 1
lab_check "9: the plugin creates it in A with router port a as its member" \
	wait_for 10 osm_has_member A ff15::1:9 $RGA
lab_check "9: show plugins counts the joins made through the plugin" plugin_ge joins $((${j0:-0} + 2))
MA9=$(lab_run A HcaA2 saquery -g 2>/dev/null | awk '/MGID/ { g = $NF } /Mlid/ { n = split($1, a, "."); if (g ~ /ff15::1:9$/) print a[n] }')
wait_for 5 sh -c "'$CTL' -s '$LAB/ctl.sock' show mcast | grep -q '^ff15::1:9 *a '" > /dev/null
lab_check "9: port a has ff15::1:9 on OpenSM A's MLID ($MA9)" test -n "$MA9" -a "$(mlid_of ff15::1:9 a)" = "$(echo "$MA9" | tr A-F a-f)"
"$HOST" -s "$LAB/a.peer" recv -c 5 -t 5000 --expect-count 5 --expect-dlid "$(printf %d "${MA9:-0}")" \
	--expect-slid "$RA" --expect-dgid ff15::1:9 --expect-sgid $B2 > "$LAB/recv9a.out" 2>&1 &
RECV=$!
sleep 0.2
"$HOST" -s "$LAB/b.peer" -p "$LAB/b.sock" send -q --slid "$LB2" \
	--dlid "$(printf %d "$(mlid_of ff15::1:9 b)")" --sgid $B2 --dgid ff15::1:9 --qpn 0xffffff \
	--size 100 -c 5
lab_check "9: a stream from B reaches A on OpenSM A's MLID" wait "$RECV"
lab_check "9: host B2 leaves ff15::1:9" "$JOIN" join "$(lab_sock B)" HcaB2 ff15::1:9 1 leave
lab_check "9: the router leaves it in B and in A (the plugin): OpenSM A has no such group" \
	wait_for 15 osm_no_group A ff15::1:9

lab_check "the daemon is still running" kill -0 "$RPID"
lab_check "OpenSM B knows the router port by one GUID (no ERR 2F19)" sh -c "! grep -q 'ERR 2F19' '$LAB/B/sm/osm.log'"
if [ "$lab_fail" -ne 0 ]; then
	echo "--- ibrouterd log"; tail -30 "$LAB/r.log"
	echo "--- OpenSM A log (plugin)"; grep -i 'ibrouter-osm\|plugin' "$OSMLOG" | tail -30
	echo "--- show plugins"; ctl show plugins
fi
lab_finish
