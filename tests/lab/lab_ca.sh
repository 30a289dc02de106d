#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_ca.sh - the router as real hardware shows it: its ports are ports of
# HCA nodes (ibsim Hca, NodeType 1: a ConnectX's firmware answers every SMP
# as a Channel Adapter), never a Router node, so OpenSM makes no router
# object for them.  Two subnets (netAca, netBca), an OpenSM in each with the
# plugin (libibrouter-osm.so):
#  - OpenSM A's plugin reaches ibrouterd's socket; the daemon's port a has
#    no SA client (all it knows of A comes from the plugin; its prefix is
#    configured, which binds it to the plugin);
#  - OpenSM B's plugin has no way to reach any daemon (a socket path that
#    does not exist): all it knows of the router comes from the
#    ServiceRecords that port b's SA client registers in B's SA
#    (learning { announce-routes }), trusted from routers=<port b's GUID>.
#   1. A: saquery -p from a host in A to a host in B: the DLID is router
#      port a's LID (the plugin put the CA port into OpenSM's table of
#      routers for it);
#   2. B: the same from B to A through port b, from the records alone
#      (keyed: srkey= and announce-key);
#   3. the plugin's joins for CA port a are accepted: a group created in B
#      gets router port a as a member in A, made by the plugin;
#   3b. feeds' joins by direction (IBA 15.2.5.17): a FullMember where the
#      router takes the feed, a SendOnlyNonMember where it only sends it,
#      while that subnet has receivers; through the plugin (port a) and the
#      SA client (port b), as OpenSM's SA lists them (ScopeState);
#   4. a hostile ServiceRecord, registered by a host of B under its own
#      GID, naming a prefix: refused, said once in OpenSM B's log, and no
#      PathRecord goes to its prefix; the router's still do; one forged
#      under router port b's own GID (a listed router) without the key of
#      OpenSM B's srkey= (the daemon's announce-key): refused too;
#   5. router port a unlinked (ibsim): the drop manager frees the plugin's
#      router object with the port; the plugin says OpenSM does not know the
#      port; relinked (a new port object): its object is made again and the
#      PathRecords come back;
#   6. ibrouterd killed (SIGKILL: its records stay at B's SA, their
#      refresh count stops): OpenSM B withdraws the route within the lease
#      (the plugin takes the router as dead two thirds of the lease and a
#      read after its last refresh, or skips its records at the lease's end
#      as OpenSM counts it, whichever comes first); restarted: back;
#   7. the OpenSMs stopped (SIGTERM): the plugin takes its router objects
#      out before OpenSM frees its subnet; they exit cleanly; B's plugin
#      counted the two refused ports.
# Prints "N passed, N failed"; exit 77 after "SKIP: why" in a build without
# the plugin.  Every process is stopped by its PID on exit.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PLUGDIR="$BUILD/plugins/.libs"
SR="$BUILD/tests/lab/sr_lab_client"
LEASE=10
# the routers' and OpenSM B's plugin's shared ServiceKey (announce-key, srkey=)
KEY=0x00112233445566778899aabbccddeeff

if [ ! -f "$PLUGDIR/libibrouter-osm.so" ]; then
	echo "SKIP: no $PLUGDIR/libibrouter-osm.so (configure found no OpenSM headers)"
	exit 77
fi

OSMA=$LAB/A/sm/osm.log OSMB=$LAB/B/sm/osm.log
FEED=ff12:4001:ffff::f01:101 FEED2=ff12:4001:ffff::f01:102
A2=fec0:0:0:1:0:0:10:3 B2=fec0:0:0:2:0:0:11:3
# pr_dlid S SGID DGID: the DLID of subnet S's PathRecord from host S2 (empty: none)
pr_dlid() {
	lab_run "$1" "Hca${1}2" saquery -p --sgid-to-dgid "$2-$3" 2>/dev/null |
		awk '$1 ~ /^dlid\./ { n = split($1, a, "."); print a[n] }'
}
pr_is() { [ "$(pr_dlid "$1" "$2" "$3")" = "$4" ]; }
# pr_none S SGID DGID: the SA answered, and with no PathRecord (not a saquery that failed)
pr_none() {
	lab_run "$1" "Hca${1}2" saquery -p --sgid-to-dgid "$2-$3" > "$LAB/pr.out" 2>/dev/null &&
		! grep -q dlid "$LAB/pr.out"
}
lid_of() { lab_run "$1" "Hca${1}2" smpquery -D portinfo "$2" 2>/dev/null | sed -n 's/^Lid:\.*\([0-9]*\)$/\1/p'; }
start_router() {
	"$BUILD/ibrouterd" -d -f "$LAB/r.conf" >> "$LAB/r.log" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
	RPID=$!
}

lab_subnet A "$HERE/netAca"
lab_subnet B "$HERE/netBca"
# the router's ports: the third HCA of each subnet, behind switch port 3
GA=$(lab_port_guid A 0,1,3) GB=$(lab_port_guid B 0,1,3)
is_ca() { lab_run "$1" "Hca${1}2" smpquery -D nodeinfo 0,1,3 2>/dev/null | grep -q '^NodeType:\.*Channel Adapter'; }
lab_check "the router's ports are CA ports (A $GA, B $GB)" sh -c "[ -n '$GA' ] && [ -n '$GB' ]"
lab_check "... NodeType 1 in A" is_ca A
lab_check "... and in B" is_ca B
cat > "$LAB/plugA.conf" <<EOC
sweep_interval 1
log_flags 0x07
event_plugin_name ibrouter-osm
event_plugin_options socket=$LAB/ctl.sock routers=$GA verbose=2 records=1 resweep=1
EOC
cat > "$LAB/plugB.conf" <<EOC
sweep_interval 1
log_flags 0x07
event_plugin_name ibrouter-osm
event_plugin_options socket=$LAB/no/such/ibrouterd.sock routers=$GB srkey=$KEY verbose=2 records=1 resweep=1
EOC
export LD_LIBRARY_PATH="$PLUGDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
lab_check "OpenSM A (plugin, a daemon's socket): SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001 "$LAB/plugA.conf"
lab_check "OpenSM B (plugin, no daemon to reach): SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002 "$LAB/plugB.conf"
unset LD_LIBRARY_PATH
RA=$(lid_of A 0,1,3) RB=$(lid_of B 0,1,3)

cat > "$LAB/r.conf" <<EOC
router {
	name = "ca"
	node-guid = 0x0002c90300000100
}
# HCA port RtrA of A: no SA client; its LID comes from the plugin, its
# prefix is configured (it binds the port to the plugin of that subnet)
port "a" {
	data = sim
	sim-socket = "$LAB/a.sock"
	sim-peer = "$LAB/a.peer"
	port-guid = $GA
	subnet-prefix = fec0:0:0:1::
	mad = none
}
# HCA port RtrB of B: an SA client, which registers the route announcements
port "b" {
	data = sim
	sim-socket = "$LAB/b.sock"
	sim-peer = "$LAB/b.peer"
	port-guid = $GB
	mad = ibsim
	ibsim-socket = "$(lab_sock B)"
	ibsim-node = "RtrB"
	sa-client = true
}
# a feed (ibrouterd.conf(5)): rdma_cm's MGID of 239.1.1.1, taken from A
# (the router joins as a FullMember, through the plugin) and sent into B
# (a SendOnlyNonMember, through port b's SA client, while B has receivers)
mcast "$FEED" {
	port = "a"
	mlid = 0xc010
	qkey = 0x01234567
	receivers = false
	feed = "md"
}
mcast "$FEED" {
	port = "b"
	mlid = 0xc010
	qkey = 0x01234567
	senders = false
	feed = "md"
}
# and the other way round: 239.1.1.2 from B into A, where the plugin makes
# port a's SendOnlyNonMember join inside OpenSM A
mcast "$FEED2" {
	port = "b"
	mlid = 0xc011
	qkey = 0x01234567
	receivers = false
	feed = "md2"
}
mcast "$FEED2" {
	port = "a"
	mlid = 0xc011
	qkey = 0x01234567
	senders = false
	feed = "md2"
}
learning {
	osm-plugin = true
	announce-routes = true
	announce-lease = $LEASE
	announce-key = $KEY
}
control {
	socket = "$LAB/ctl.sock"
}
pid-file = "$LAB/r.pid"
EOC
start_router
lab_check "the daemon synced B (port b's SA client)" wait_for 10 grep -q 'sa: b: synced' "$LAB/r.log"

# ---- 1. A: through CA port a, from the daemon's socket ----
lab_check "1: saquery -p A2 -> B2: DLID = router port a's LID ($RA)" wait_for 15 pr_is A $A2 $B2 "$RA"
lab_check "1: the plugin made CA port $GA a router in OpenSM A" \
	grep -q "router port $(printf '0x%016x' "$GA") is a CA port: in OpenSM's table of routers" "$OSMA"

# ---- 2. B: through CA port b, from its ServiceRecords alone ----
lab_check "2: OpenSM B's plugin reaches no daemon" sh -c "! grep -q 'connected to ibrouterd' '$OSMB'"
lab_check "2: saquery -p B2 -> A2: DLID = router port b's LID ($RB), from the records" \
	wait_for 20 pr_is B $B2 $A2 "$RB"
lab_check "2: the plugin read port b's records" \
	grep -q "router port $(printf '0x%016x' "$GB") announces 1 prefix in its records" "$OSMB"

# ---- 3. the plugin's joins for CA port a ----
RGA=$(python3 -c "import ipaddress; print(ipaddress.IPv6Address(0xfec0000000000001 << 64 | $GA))")
state_is() { [ "$(lab_join_state "$1" "$2" "$3")" = "$4" ]; }
no_member() { [ -z "$(lab_join_state "$1" "$2" "$3")" ]; }
# osm_has_member S MGID GID: GID is a member of MGID in subnet S's SA (was: a
# member of any group, saquery's --mgid filters nothing)
osm_has_member() { ! no_member "$@"; }
lab_check "3: host B2 creates ff15::1:9 in B" "$JOIN" join "$(lab_sock B)" HcaB2 ff15::1:9 1
lab_check "3: the plugin joins CA router port a ($RGA) to it in OpenSM A" \
	wait_for 15 osm_has_member A ff15::1:9 "$RGA"
lab_check "3: and says so (no refusal: not a Router node, yet a router port)" sh -c \
	"grep -q 'joined router port $(printf '0x%016x' "$GA") to ff15::1:9' '$OSMA' &&
	 ! grep -q 'refused: not a router port' '$OSMA'"

# ---- 3b. a feed's joins, by direction (IBA 15.2.5.17) ----
RGB=$(python3 -c "import ipaddress; print(ipaddress.IPv6Address(0xfec0000000000002 << 64 | $GB))")
lab_check "3b: feed in from A: CA router port a is a FullMember of $FEED there (plugin)" \
	wait_for 15 state_is A "$FEED" "$RGA" 0x1
sleep 2
lab_check "3b: out into B, no receivers there: port b is no member (nothing to send to)" \
	no_member B "$FEED" "$RGB"
lab_check "3b: host B2 joins $FEED in B (FullMember, rdma_cm's Q_Key)" \
	"$JOIN" join "$(lab_sock B)" HcaB2 "$FEED" 1 qkey 0x01234567
lab_check "3b: port b joins it as a SendOnlyNonMember (JoinState 4, SA client)" \
	wait_for 15 state_is B "$FEED" "$RGB" 0x4
lab_check "3b: the daemon says so" grep -q "port b: joining a feed's group as a SendOnlyNonMember" \
	"$LAB/r.log"
lab_check "3b: host B2 leaves" "$JOIN" join "$(lab_sock B)" HcaB2 "$FEED" 1 leave
lab_check "3b: port b leaves with it (no receivers left in B)" \
	wait_for 15 no_member B "$FEED" "$RGB"
lab_check "3b: port a stays a FullMember in A" state_is A "$FEED" "$RGA" 0x1
# the plugin's SendOnlyNonMember join (join state 4 in its message, made inside OpenSM)
lab_check "3b: feed md2 in from B: port b a FullMember of $FEED2 there" \
	wait_for 15 state_is B "$FEED2" "$RGB" 0x1
lab_check "3b: host A2 joins $FEED2 in A" "$JOIN" join "$(lab_sock A)" HcaA2 "$FEED2" 1 \
	qkey 0x01234567
lab_check "3b: the plugin joins CA port a to it as a SendOnlyNonMember (JoinState 4)" \
	wait_for 15 state_is A "$FEED2" "$RGA" 0x4
lab_check "3b: OpenSM A's log says the plugin joined it" grep -q \
	"joined router port $(printf '0x%016x' "$GA") to $FEED2" "$OSMA"
lab_check "3b: host A2 leaves; port a leaves with it" sh -c \
	"'$JOIN' join '$(lab_sock A)' HcaA2 '$FEED2' 1 leave"
lab_check "3b: ... gone from A's SA" wait_for 15 no_member A "$FEED2" "$RGA"

# ---- 4. a hostile ServiceRecord ----
GH=0x0000000000110003 # host B2's port
refusal="registered under port $GH refused: not a router port of option routers="
# (the SA's status 0 says it took them: umad2sim cuts saquery SR's table after one record)
lab_check "4: host B2 registers a record of ours for fec0:0:0:66::/64 in B's SA (status 0)" \
	"$SR" "$(lab_sock B)" HcaB2 set self fec0:0:0:66:: 64 1
lab_check "4: and one for A's prefix at a better metric (record 1 of its set)" \
	"$SR" "$(lab_sock B)" HcaB2 set self fec0:0:0:1:: 64 0 lease 60 index 1
lab_check "4: OpenSM B's plugin refuses them, in its log" wait_for 5 grep -q "$refusal" "$OSMB"
lab_check "4: no PathRecord to fec0:0:0:66::1" pr_none B $B2 fec0:0:0:66:0:0:0:1
# (taken, the host's record would win A's prefix: metric 0 against the router's
# 1 - 1, and then the lower GUID, the host's, 0x110003 < 0x110005)
lab_check "4: the router's still goes through port b" pr_is B $B2 $A2 "$RB"
sleep 3
lab_check "4: the refusal is said once" test "$(grep -c "$refusal" "$OSMB")" -eq 1
# a record forged under router port b's own GID (a listed router), without the key
krefusal="registered under port $(printf '0x%016x' "$GB") refused: its ServiceKey is not the one of option srkey="
lab_check "4: host B2 forges a record under router port b's GID, without the key (status 0)" \
	"$SR" "$(lab_sock B)" HcaB2 set "$(python3 -c "import ipaddress; print(ipaddress.IPv6Address(0xfec0000000000002 << 64 | $GB))")" \
	fec0:0:0:67:: 64 0 index 2
lab_check "4: OpenSM B's plugin refuses it: not the key of srkey= (announce-key)" wait_for 5 grep -q "$krefusal" "$OSMB"
lab_check "4: no PathRecord to fec0:0:0:67::1" pr_none B $B2 fec0:0:0:67:0:0:0:1
lab_check "4: and the router's keyed records still route: DLID $RB" pr_is B $B2 $A2 "$RB"

# ---- 5. CA port a leaves and comes back ----
lab_console A 'Unlink "RtrA"[1]'
lab_check "5: router port a unlinked: no PathRecord to B in A" wait_for 15 pr_none A $A2 $B2
lab_check "5: the plugin says OpenSM does not know the port" wait_for 5 grep -q \
	"prefix routes name router port $(printf '0x%016x' "$GA"), which OpenSM does not know" "$OSMA"
lab_console A 'ReLink "RtrA"[1]'
RA2=""
relinked() { RA2=$(lid_of A 0,1,3) && [ -n "$RA2" ] && pr_is A $A2 $B2 "$RA2"; }
lab_check "5: relinked: a new port object, a new router object, the PathRecords back" wait_for 20 relinked
lab_check "5: the router object was made twice" test \
	"$(grep -c "router port $(printf '0x%016x' "$GA") is a CA port: in OpenSM's table of routers" "$OSMA")" -eq 2

# ---- 6. the daemon killed: its records stay, their count stops ----
# The withdrawal is the plugin's line, counted from the kill: a PathRecord can
# fail for a moment without it (a heavy sweep re-reading the prefix routes,
# ibrouter-osm(8) LIMITS), which made this step pass on a PathRecord that
# came back (a clean-clone run: "withdrawn" in 491 ms, then no line).
withdrawn="router port $(printf '0x%016x' "$GB"): its r.* its prefixes withdrawn"
nw=$(grep -c "$withdrawn" "$OSMB")
kill -9 "$RPID"
wait "$RPID" 2> /dev/null
t0=$(ms_now)
lab_check "6: ibrouterd killed: OpenSM B's plugin withdraws its prefixes, and says why" \
	wait_for 20 sh -c "[ \$(grep -c '$withdrawn' '$OSMB') -gt $nw ]"
t1=$(ms_now)
lab_check "6: ... within the lease ($LEASE s) and two reads: $((t1 - t0)) ms" \
	test $((t1 - t0)) -le $(((LEASE + 2) * 1000))
lab_check "6: and OpenSM B answers no PathRecord through it" wait_for 10 pr_none B $B2 $A2
lab_check "6: OpenSM A holds the daemon's routes meanwhile" pr_is A $A2 $B2 "$RA2"
start_router
lab_check "6: restarted: B's PathRecords through port b again" wait_for 30 pr_is B $B2 $A2 "$RB"

# ---- 7. the OpenSMs stopped ----
eval "kill -TERM \$LAB_SM_A"
eval "wait \$LAB_SM_A"
rc=$?
lab_check "7: OpenSM A exits cleanly (status $rc)" test "$rc" -eq 0
lab_check "7: its plugin took its router object out first" grep -q \
	"unloaded: CA router ports in OpenSM's table of routers: 2 added, 0 removed, 1 taken out now" "$OSMA"
lab_check "7: no crash, no double free" sh -c \
	"! grep -qi 'double free\|segmentation\|abort' '$LAB/A/sm/opensm.stdout'"
eval "kill -TERM \$LAB_SM_B"
eval "wait \$LAB_SM_B"
rc=$?
lab_check "7: OpenSM B too (status $rc)" test "$rc" -eq 0
lab_check "7: its plugin counted two ports refused (the host, the forged router's)" grep -q \
	"ServiceRecords: [0-9]* reads, 2 ports refused" "$OSMB"

lab_check "the daemon is still running" kill -0 "$RPID"
if [ "$lab_fail" -ne 0 ]; then
	echo "--- ibrouterd log"; tail -30 "$LAB/r.log"
	echo "--- OpenSM A log (plugin)"; grep 'ibrouter-osm' "$OSMA" | tail -30
	echo "--- OpenSM B log (plugin)"; grep 'ibrouter-osm' "$OSMB" | tail -30
fi
lab_stop_all
lab_finish
