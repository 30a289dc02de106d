#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_sa.sh - ibrouterd learns two real subnets from their OpenSM: two ibsim
# subnets, an OpenSM each, the router attached at both router nodes (RtrA,
# RtrB) with the native ibsim MAD transport and sim data ports, and hosts
# (ibrouter-host) on the data ports using the LIDs OpenSM assigned.
#   1. the router ports get their LIDs and prefixes from OpenSM, and the
#      router's neighbours are OpenSM's end ports (saquery, LID by LID);
#   2. with the router's prefix routes installed in OpenSM A, a host's
#      PathRecord to a GID in B gives the router's LID; UD packets sent there
#      from a host in A to a host in B (and back) leave with DLID = the
#      OpenSM-assigned LID and SLID = the router's port LID;
#   3. a host in A joins a site-scope group -> trap 66 -> the router joins
#      in A and creates the group in B; a stream from A reaches a receiver in
#      B on B's MLID; a link-local group is not bridged;
#   4. Unlink of a host port -> trap 65 -> neighbour gone, its packets
#      dropped (no-neighbour); ReLink -> trap 64 -> back;
#   5. OpenSM B killed and restarted -> resubscribed and resynced within two
#      resync intervals (a trap after the restart is applied);
#   6. ibsim drops 10% of the MADs at the router port -> still converges.
# Prints "N passed, N failed"; every process is stopped by its PID on exit.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
RESYNC=3 # resync-interval of this lab, s

log_has() { grep -q "$1" "$LAB/r.log"; }

lab_subnet A "$HERE/netA"
lab_subnet B "$HERE/netB"
lab_check "OpenSM A: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002

lab_router_conf "$LAB/r.conf" lab "resync-interval = $RESYNC"
"$BUILD/ibrouterd" -d -f "$LAB/r.conf" > "$LAB/r.log" 2>&1 &
LAB_PIDS="$LAB_PIDS $!"

# ---- 1. LIDs, prefixes, neighbours ----
lab_check "1: both ports synced" wait_for 10 sh -c "grep -q 'sa: a: synced' '$LAB/r.log' && grep -q 'sa: b: synced' '$LAB/r.log'"
for s in A B; do
	p=$(echo $s | tr AB ab)
	lab_run $s Hca${s}2 smpquery -D portinfo 0,1,3 > "$LAB/pi$s.txt" 2>&1
	want=$(sed -n 's/^Lid:\.*\([0-9]*\)$/\1/p' "$LAB/pi$s.txt")
	got=$(port_lid $p)
	lab_check "1: port $p has OpenSM $s's LID ($want = $got)" test -n "$want" -a "$want" = "$got"
	lab_check "1: port $p has subnet $s's prefix" sh -c "'$CTL' -s '$LAB/ctl.sock' show ports | grep -q '^$p .*fec0:0:0:$( [ $s = A ] && echo 1 || echo 2)::'"
	sa_end_ports $s Hca${s}2 | grep -v "^0x000000000030000" | sort > "$LAB/sa$s.txt"
	neighbours $p | sort > "$LAB/nb$s.txt"
	lab_check "1: port $p neighbours = OpenSM $s's end ports ($(wc -l < "$LAB/sa$s.txt") ports)" \
		sh -c "test -s '$LAB/sa$s.txt' && diff '$LAB/sa$s.txt' '$LAB/nb$s.txt'"
done
lab_check "1: show sa: both ports ready, subscribed, every column in each row" sh -c "'$CTL' -s '$LAB/ctl.sock' -j show sa | python3 -c '
import json, sys
rows = json.load(sys.stdin)[\"data\"]
assert len(rows) == 2 and all(r[\"phase\"] == \"ready\" and r[\"subscribed\"] is True and len(r) == 23 for r in rows), rows'"
lab_check "1: show sa's text fits 100 columns (wrapped), every port in each block" sh -c \
	"'$CTL' -s '$LAB/ctl.sock' show sa | awk 'length > 100 { bad = 1 } /^port / { h++ } /^[ab] / { r++ } END { exit !(!bad && h >= 2 && r == 2 * h) }'"
lab_check "1: show sa: LIDs in hex, the prefix as a GID, the last change in ISO 8601" sh -c \
	"'$CTL' -s '$LAB/ctl.sock' -j show sa a | grep -q '\"lid\":\"0x[0-9a-f]\{4\}\",\"sm_lid\":\"0x0001\",\"prefix\":\"fec0:0:0:1::\",.*\"last_change\":\"20[0-9][0-9]-[01][0-9]-[0-3][0-9]T[0-9:]\{8\}\.[0-9]\{3\}Z\"'"
lab_check "1: connected routes from the learned prefixes" sh -c "'$CTL' -s '$LAB/ctl.sock' show routes | grep -q '^fec0:0:0:1::/64 *connected *a' && '$CTL' -s '$LAB/ctl.sock' show routes | grep -q '^fec0:0:0:2::/64 *connected *b'"

# ---- 2. data path with OpenSM's LIDs ----
RA=$(port_lid a) RB=$(port_lid b)
LA2=$(awk '$1 == "0x0000000000100003" { print $2 }' "$LAB/saA.txt")
LB2=$(awk '$1 == "0x0000000000110003" { print $2 }' "$LAB/saB.txt")
A2=fec0:0:0:1::10:3 B2=fec0:0:0:2::11:3
# the path a host in A asks its SA for: with the router's prefix routes installed in OpenSM A
lab_check "2: no PathRecord to B's GID before the prefix routes" test -z "$(path_dlid $A2 $B2)"
prefix_routes_a
path_is_router() { d=$(path_dlid $A2 $B2); [ -n "$d" ] && [ "$(printf %d "$d")" = "$RA" ]; }
lab_check "2: with them, OpenSM A's SA answers it with the router's A LID $RA" wait_for 10 path_is_router
PD=$(path_dlid $A2 $B2)
"$HOST" -s "$LAB/b.peer" recv -c 10 -t 5000 --expect-count 10 --expect-dlid "$LB2" \
	--expect-slid "$RB" --expect-hoplimit 63 --expect-sgid $A2 --expect-dgid $B2 \
	--expect-flowlabel 0x5 --expect-tclass 0x20 > "$LAB/recvB.out" 2>&1 &
RECV=$!
sleep 0.2
"$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid "$LA2" --dlid "$(printf %d "${PD:-0}")" \
	--sgid $A2 --dgid $B2 --hoplimit 64 --flowlabel 0x5 --tclass 0x20 --size 128 -c 10
lab_check "2: A->B: DLID = OpenSM B's LID $LB2, SLID = router B LID $RB, HopLmt 63" wait "$RECV"
"$HOST" -s "$LAB/a.peer" recv -c 5 -t 5000 --expect-count 5 --expect-dlid "$LA2" \
	--expect-slid "$RA" --expect-hoplimit 9 --expect-sgid $B2 --expect-dgid $A2 > "$LAB/recvA.out" 2>&1 &
RECV=$!
sleep 0.2
"$HOST" -s "$LAB/b.peer" -p "$LAB/b.sock" send -q --slid "$LB2" --dlid "$RB" --sgid $B2 \
	--dgid $A2 --hoplimit 10 --size 64 -c 5
lab_check "2: B->A: DLID = OpenSM A's LID $LA2, SLID = router A LID $RA" wait "$RECV"

# ---- 3. multicast: a site-scope group bridged, a link-local one not ----
lab_check "3: host A2 joins ff15::1:2 in A (creates it)" "$JOIN" join "$(lab_sock A)" HcaA2 ff15::1:2 1
lab_check "3: trap 66 -> the router creates the group in B" wait_for 10 sh -c "'$CTL' -s '$LAB/ctl.sock' show mcast | grep -q '^ff15::1:2 *b '"
lab_check "3: host B2 joins it in B" "$JOIN" join "$(lab_sock B)" HcaB2 ff15::1:2 1
MA=$(mlid_of ff15::1:2 a) MB=$(mlid_of ff15::1:2 b)
lab_check "3: the group has an MLID in each subnet (A $MA, B $MB)" test -n "$MA" -a -n "$MB"
"$HOST" -s "$LAB/b.peer" recv -c 5 -t 5000 --expect-count 5 --expect-dlid "$(printf %d "$MB")" \
	--expect-slid "$RB" --expect-dgid ff15::1:2 --expect-sgid $A2 > "$LAB/recvM.out" 2>&1 &
RECV=$!
sleep 0.2
"$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid "$LA2" --dlid "$(printf %d "$MA")" \
	--sgid $A2 --dgid ff15::1:2 --qpn 0xffffff --size 100 -c 5
lab_check "3: a stream from A reaches the receiver in B on B's MLID" wait "$RECV"
lab_check "3: host A2 joins link-local ff12::1:3 in A" "$JOIN" join "$(lab_sock A)" HcaA2 ff12::1:3 1
sleep 1.5
lab_check "3: link-local scope is not bridged" sh -c "! '$CTL' -s '$LAB/ctl.sock' show mcast | grep -q '^ff12::1:3 *b '"

# ---- the router's vendor attributes, read through ibsim from a host (IsSM forwarding) ----
lab_check "vendor SMP RouterInfo (0xFFD0) from the SM's node HcaA1 reaches our SMA" "$JOIN" smp "$(lab_sock A)" HcaA1 1,3 0xffd0
"$JOIN" smp "$(lab_sock A)" HcaA1 1,3 0xffd1 0 > "$LAB/nh.out" 2>&1
lab_check "vendor SMP NextHopTable (0xFFD1) lists subnet B's prefix" grep -q "status 0x0000 data .*fec0000000000002" "$LAB/nh.out"
lab_check "OpenSM's SMInfo Gets to the router port are answered (no SMInfo timeouts in its log)" sh -c "! grep -qi 'sminfo.*time' '$LAB/A/sm/osm.log'"
lab_check "and carry the GUID OpenSM knows the port by (no ERR 2F19 in A or B)" sh -c "! grep -q 'ERR 2F19' '$LAB/A/sm/osm.log' '$LAB/B/sm/osm.log'"
# IsSM stays in this lab (ibsim forwards vendor SMPs and Reports only to an IsSM client):
# the SMA's SMInfo carries the subnet's SM_Key, which OpenSM then takes without a word
lab_check "and carry OpenSM's SM_Key (no ERR 2F18 in A or B)" sh -c "! grep -q 'ERR 2F18' '$LAB/A/sm/osm.log' '$LAB/B/sm/osm.log'"

# ---- 4. Unlink / ReLink of a host port: traps 65 and 64 ----
ups_b() { grep -c "SUBNET UP" "$LAB/B/sm/osm.log"; }
u0=$(ups_b)
lab_console B 'Unlink "HcaB2"[1]'
lab_check "4: Unlink HcaB2 -> trap 65 -> neighbour gone" wait_for 10 no_neigh b 0x0000000000110003
# OpenSM B sends SMInfo to the router port (IsSM) in the heavy sweep: our answer must reach it
lab_check "4: OpenSM B's heavy sweep completes (SUBNET UP again: the router's SMInfo answer arrived)" wait_for 10 sh -c "test \$(grep -c 'SUBNET UP' '$LAB/B/sm/osm.log') -gt $u0"
before=$(drop_count no_neigh)
"$HOST" -s "$LAB/a.peer" -p "$LAB/a.sock" send -q --slid "$LA2" --dlid "$RA" --sgid $A2 \
	--dgid $B2 --size 64 -c 3
sleep 0.3
after=$(drop_count no_neigh)
lab_check "4: its packets are dropped for want of a neighbour (no_neigh $before -> $after)" test "$after" -ge $((before + 3))
lab_console B 'ReLink "HcaB2"[1]'
lab_check "4: ReLink HcaB2 -> trap 64 -> neighbour back" wait_for 10 has_neigh b 0x0000000000110003
lab_check "4: traps came as Reports" log_has "sa: b: trap 6[45]"

# ---- 5. OpenSM B restarts ----
n0=$(synced_count b)
eval "kill \$LAB_SM_B"
sleep 1
lab_check "5: OpenSM B restarted: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002
lab_check "5: resynced within two resync intervals" wait_for $((2 * RESYNC + 2)) sh -c "test \$(grep -c 'sa: b: synced' '$LAB/r.log') -gt $n0"
traps_b() { grep -c "sa: b: trap 65" "$LAB/r.log"; }
t0=$(traps_b)
lab_console B 'Unlink "HcaB2"[1]'
lab_check "5: resubscribed: trap 65 from the new OpenSM arrives" wait_for $((2 * RESYNC + 4)) sh -c "test \$(grep -c 'sa: b: trap 65' '$LAB/r.log') -gt $t0"
lab_check "5: and is applied" wait_for 5 no_neigh b 0x0000000000110003
lab_console B 'ReLink "HcaB2"[1]'
lab_check "5: and the port comes back" wait_for $((2 * RESYNC + 4)) has_neigh b 0x0000000000110003

# ---- 6. 10% of the MADs at router port A dropped ----
lab_console A 'Error "RtrA"[1] 10'
n0=$(synced_count a)
lab_check "6: with 10% MAD loss, port a still syncs (twice)" wait_for $((4 * RESYNC + 5)) sh -c "test \$(grep -c 'sa: a: synced' '$LAB/r.log') -gt $((n0 + 1))"
neighbours a | sort > "$LAB/nbA2.txt"
lab_check "6: and its neighbours are still OpenSM A's end ports" diff "$LAB/saA.txt" "$LAB/nbA2.txt"
lab_console A 'Error "RtrA"[1] 0'

# ---- a reload keeps what the router learned ----
ctl reload > /dev/null
lab_check "reload: the learned LIDs stay" test "$(port_lid a)" = "$RA" -a "$(port_lid b)" = "$RB"
lab_check "reload: the learned neighbours stay" sh -c "'$CTL' -s '$LAB/ctl.sock' show neighbours a | grep -q 0x0000000000100003"
lab_check "reload: the prefix routes still name the port GUID its subnet knows" sh -c "'$CTL' -s '$LAB/ctl.sock' show osm-prefix-routes a | grep -q '^0xfec0000000000002 0x0000000000300001'"
lab_check "the daemon is still running" kill -0 "$(cat "$LAB/r.pid")"
if [ "$lab_fail" -ne 0 ]; then
	echo "--- ibrouterd log"; tail -40 "$LAB/r.log"
	echo "--- show mcast, drops, sa"; ctl show mcast; ctl show drops; ctl show sa
	for f in "$LAB"/recv*.out; do echo "--- $f"; cat "$f"; done
fi
lab_finish
