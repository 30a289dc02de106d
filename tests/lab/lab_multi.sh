#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_multi.sh - issue 20's routers side by side, against real OpenSM: three
# subnets A, B, C (three ibsim, three OpenSM); routers R1 and R3 both between
# A and B, R2 between B and C; route exchange on (announce-routes,
# peer-routes), no static route.  OpenSM A loads the plugin
# (libibrouter-osm.so), connected to both R1 and R3.  Each subnet's data
# wire with several ports on it is a sim_switch (forwarding by DLID).
#   1. R2 routes A's prefix through both R1 and R3 (two next hops, one metric);
#      OpenSM A's prefix routes agree on one router for B's prefix (R3: the
#      lower port GUID, both at metric 0): its PathRecords name R3's LID;
#   2. 64 flows from a host in C to a host in A, two packets each: each
#      flow crosses one router (both its packets have one SLID in A), and
#      both routers carry flows;
#   3. R3 killed (SIGKILL): OpenSM A's PathRecords to B name R1 within
#      2 s (failover_ms, measured); R2 drops R3 within its lease; the flows
#      again: all through R1, and those that crossed R1 before still do
#      (only R3's moved);
#   4. R3 back: the PathRecords to B name R3 again, R2 routes through both;
#   5. R3's port in A unlinked (ibsim): OpenSM's PathRecords to B name R1
#      within 2 s; relinked: R3 again;
#   6. R3's daemon stopped (SIGSTOP: its connection to the plugin stays
#      open, it answers nothing): the plugin (alive=5) takes it as gone and
#      OpenSM's PathRecords to B name R1 within 5 s + 2 s (failover_stop_ms);
#      continued (SIGCONT): R3 again.
# ROUNDS=N (`make bench`: 3; ibsim keeps a killed client's slot, 10 in all): steps 3 and 4 N times, and BENCH failover_ms
# (the median: R3 killed -> OpenSM A's PathRecord to B through R1).
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PLUGDIR="$BUILD/plugins/.libs"
SWITCH="$BUILD/tests/lab/sim_switch"
LEASE=${LEASE:-10}
ROUNDS=${ROUNDS:-1}
ALIVE=${ALIVE:-5} # the plugin's alive=: a silent daemon is gone after so many seconds

if [ ! -f "$PLUGDIR/libibrouter-osm.so" ]; then
	echo "SKIP: no $PLUGDIR/libibrouter-osm.so (configure found no OpenSM headers)"
	exit 77
fi

LEARN=$(lab_peer_learning "$LEASE")

lab_subnet A "$HERE/netA3"
lab_subnet B "$HERE/netB3"
lab_subnet C "$HERE/netC"
cat > "$LAB/plugA.conf" <<EOC
event_plugin_name ibrouter-osm
event_plugin_options socket=$LAB/r1.ctl socket=$LAB/r3.ctl verbose=2 hold=60 resweep=1 alive=$ALIVE
EOC
export LD_LIBRARY_PATH="$PLUGDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
lab_check "OpenSM A (with the plugin, to R1 and R3): SUBNET UP" \
	lab_sm A HcaA1 0 0xfec0000000000001 "$LAB/plugA.conf"
unset LD_LIBRARY_PATH
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002
lab_check "OpenSM C: SUBNET UP" lab_sm C HcaC1 0 0xfec0000000000003

# the wires: A and B through switches, C direct (one router port there)
lab_check "R1's config" lab_router_conf_ports "$LAB/r1.conf" r1 0x0002c90300000100 \
	"$LAB/r1.ctl" "$LAB/r1.pid" "$LEARN
	osm-plugin = true" \
	"a:A:RtrA:$LAB/r1a.sock:$LAB/swA.sock" "b:B:RtrB:$LAB/r1b.sock:$LAB/swB.sock"
lab_check "R3's config" lab_router_conf_ports "$LAB/r3.conf" r3 0x0002c90300000300 \
	"$LAB/r3.ctl" "$LAB/r3.pid" "$LEARN
	osm-plugin = true" \
	"a:A:RtrA3:$LAB/r3a.sock:$LAB/swA.sock" "b:B:RtrB3:$LAB/r3b.sock:$LAB/swB.sock"
lab_check "R2's config" lab_router_conf_ports "$LAB/r2.conf" r2 0x0002c90300000200 \
	"$LAB/r2.ctl" "$LAB/r2.pid" "$LEARN" \
	"b:B:RtrB2:$LAB/r2b.sock:$LAB/swB.sock" "c:C:RtrC:$LAB/r2c.sock:$LAB/c.peer"
for r in r1 r2 r3; do lab_ibrouterd $r "$LAB/$r.conf"; done
r1() { ctl_at "$LAB/r1.ctl" "$@"; }
r2() { ctl_at "$LAB/r2.ctl" "$@"; }
r3() { ctl_at "$LAB/r3.ctl" "$@"; }
all_synced() {
	for x in "r1 a" "r1 b" "r3 a" "r3 b" "r2 b" "r2 c"; do
		lab_synced "$LAB/${x% *}.log" "${x#* }" || return 1
	done
}
lab_check "the three routers synced their subnets" wait_for 20 all_synced

lid_of() { printf '%d' "$(ctl_at "$LAB/$1.ctl" show ports | awk -v p="$2" '$1 == p { print $4; exit }')"; }
R1A=$(lid_of r1 a) R1B=$(lid_of r1 b) R3A=$(lid_of r3 a) R3B=$(lid_of r3 b)
R2B=$(lid_of r2 b) R2C=$(lid_of r2 c)
lab_check "every router port has a LID (R1 $R1A/$R1B, R3 $R3A/$R3B, R2 $R2B/$R2C)" \
	test "$R1A" -gt 0 -a "$R1B" -gt 0 -a "$R3A" -gt 0 -a "$R3B" -gt 0 -a "$R2B" -gt 0 -a "$R2C" -gt 0
sa_end_ports A HcaA2 > "$LAB/saA.txt"
sa_end_ports C HcaC2 > "$LAB/saC.txt"
A2=fec0:0:0:1::10:3 B2=fec0:0:0:2::11:3
LA2=$(awk '$1 == "0x0000000000100003" { print $2 }' "$LAB/saA.txt")
LC2=$(awk '$1 == "0x0000000000120003" { print $2 }' "$LAB/saC.txt")
lab_check "hosts A2 (LID $LA2) and C2 (LID $LC2)" test -n "$LA2" -a -n "$LC2"
# switch A: host A2 and the two routers' a; switch B: the three routers' b
"$SWITCH" "$LAB/swA.sock" "$LA2=$LAB/a.peer" "$R1A=$LAB/r1a.sock" "$R3A=$LAB/r3a.sock" \
	> "$LAB/swA.log" 2>&1 &
LAB_PIDS="$LAB_PIDS $!"
"$SWITCH" "$LAB/swB.sock" "$R1B=$LAB/r1b.sock" "$R2B=$LAB/r2b.sock" "$R3B=$LAB/r3b.sock" \
	> "$LAB/swB.log" 2>&1 &
LAB_PIDS="$LAB_PIDS $!"

# ---- 1. routes ----
# via CTL PREFIX: the best route's "source via" on the router of CTL
via() {
	ctl_at "$1" -j show routes "$2" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["data"]:
    if r["best"] and r["prefix"] == sys.argv[1]:
        print(r["source"], r["via"])' "$2"
}
via_is() { [ "$(via "$1" "$2")" = "$3" ]; }
# R2's next hops in B, the lower LID first
BOTH=$(printf 'peer lid 0x%04x, lid 0x%04x' $((R1B < R3B ? R1B : R3B)) $((R1B < R3B ? R3B : R1B)))
lab_check "1: R2 routes A's prefix through R1 and R3 ($BOTH)" \
	wait_for 20 via_is "$LAB/r2.ctl" fec0:0:0:1::/64 "$BOTH"
lab_check "1: R1 routes C's prefix through R2" \
	wait_for 20 via_is "$LAB/r1.ctl" fec0:0:0:3::/64 "$(printf 'peer lid 0x%04x' "$R2B")"
lab_check "1: R3 too" wait_for 20 via_is "$LAB/r3.ctl" fec0:0:0:3::/64 "$(printf 'peer lid 0x%04x' "$R2B")"
pr_dlid() { path_dlid $A2 "$1"; }
pr_is() { d=$(pr_dlid "$1"); [ -n "$d" ] && [ "$(printf %d "$d")" = "$2" ]; }
lab_check "1: OpenSM A's PathRecord to B names R3's LID $R3A (the lower port GUID)" \
	wait_for 20 pr_is $B2 "$R3A"

# ---- 2. 64 flows from C to A ----
# flows FILE: 64 flows from host C2 (SGIDs fec0::3:0:0:12:N) to A2, two packets
# each; "SGID SLID" of each packet A2 received into FILE (sorted)
flows() {
	"$HOST" -s "$LAB/a.peer" -j recv -c 128 -t 15000 > "$1.json" 2>&1 &
	fl_recv=$!
	for _ in $(seq 1 100); do [ -S "$LAB/a.peer" ] && break; sleep 0.02; done
	fl_i=1
	while [ $fl_i -le 64 ]; do
		"$HOST" -s "$LAB/c.peer" -p "$LAB/r2c.sock" send -q --slid "$LC2" --dlid "$R2C" \
			--sgid "fec0::3:0:0:12:$(printf %x $fl_i)" --dgid $A2 -c 2
		fl_i=$((fl_i + 1))
	done
	wait "$fl_recv"
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    if line.startswith("{"):
        p = json.loads(line)
        print(p["sgid"], int(str(p["slid"]), 0))' "$1.json" | sort > "$1"
}
flows "$LAB/flows1.txt"
lab_check "2: 128 packets reached A2" test "$(wc -l < "$LAB/flows1.txt")" -eq 128
lab_check "2: each flow crossed one router (both its packets one SLID)" \
	test "$(sort -u "$LAB/flows1.txt" | wc -l)" -eq 64
sort -u "$LAB/flows1.txt" > "$LAB/flows1u.txt"
on_r1=$(awk -v l="$R1A" '$2 == l' "$LAB/flows1u.txt" | wc -l)
on_r3=$(awk -v l="$R3A" '$2 == l' "$LAB/flows1u.txt" | wc -l)
lab_check "2: both routers carry flows (R1 $on_r1, R3 $on_r3 of 64)" \
	test "$on_r1" -ge 12 -a "$on_r3" -ge 12 -a $((on_r1 + on_r3)) -eq 64

# ---- 3. R3 killed; 4. R3 back ----
: > "$LAB/failover.txt"
round=1
while [ "$round" -le "$ROUNDS" ]; do
	t0=$(ms_now)
	kill -9 "$LAB_RTR_r3"
	wait "$LAB_RTR_r3" 2> /dev/null
	lab_check "3.$round: R3 killed: OpenSM A's PathRecord to B names R1 ($R1A) within 2 s" \
		wait_ms 2000 pr_is $B2 "$R1A"
	t1=$(ms_now)
	echo $((t1 - t0)) >> "$LAB/failover.txt"
	echo "failover_ms $((t1 - t0)) (R3 killed -> OpenSM A's PathRecord to B through R1)"
	lab_check "3.$round: R2 drops R3 within the lease: A's prefix through R1 alone" \
		wait_ms $((LEASE * 1000 + 2000)) via_is "$LAB/r2.ctl" fec0:0:0:1::/64 \
		"$(printf 'peer lid 0x%04x' "$R1B")"
	if [ "$round" -eq 1 ]; then
		flows "$LAB/flows2.txt"
		sort -u "$LAB/flows2.txt" > "$LAB/flows2u.txt"
		lab_check "3: the flows again: 128 packets, all through R1" \
			test "$(awk -v l="$R1A" '$2 == l' "$LAB/flows2.txt" | wc -l)" -eq 128
		stayed=$(join "$LAB/flows1u.txt" "$LAB/flows2u.txt" | awk -v l="$R1A" '$2 == l && $3 == l' | wc -l)
		lab_check "3: the $on_r1 flows that crossed R1 still do ($stayed)" test "$stayed" -eq "$on_r1"
	fi
	lab_ibrouterd r3 "$LAB/r3.conf"
	lab_check "4.$round: R3 back: OpenSM A's PathRecord to B names R3 again" \
		wait_ms 20000 pr_is $B2 "$R3A"
	lab_check "4.$round: R2 routes A's prefix through both again" \
		wait_ms 20000 via_is "$LAB/r2.ctl" fec0:0:0:1::/64 "$BOTH"
	round=$((round + 1))
done
# ---- 5. R3's port in A unlinked: OpenSM drops the port, the prefix moves ----
t0=$(ms_now)
lab_console A 'Unlink "RtrA3"[1]'
lab_check "5: R3's port in A unlinked: the PathRecord to B names R1 within 2 s" \
	wait_ms 2000 pr_is $B2 "$R1A"
echo "failover_unlink_ms $(($(ms_now) - t0)) (Unlink of R3's port in A -> PathRecord through R1)"
lab_console A 'ReLink "RtrA3"[1]'
lab_check "5: relinked: the PathRecord to B names R3 again" wait_ms 20000 pr_is $B2 "$R3A"
# ---- 6. R3's daemon stopped: alive, but it answers nothing ----
# once the plugin knows R3 answers its heartbeat (each connection: at once)
osm_said() { grep -c "ibrouter-osm: $1" "$LAB/A/sm/osm.log"; }
answered() { [ "$(osm_said "ibrouterd at $LAB/r3.ctl answers")" -eq "$(osm_said "connected to ibrouterd \"r3\"")" ]; }
lab_check "6: the plugin heard R3 answer its heartbeat" wait_for 5 answered
t0=$(ms_now)
kill -STOP "$LAB_RTR_r3"
lab_check "6: R3 stopped (SIGSTOP): the PathRecord to B names R1 within $ALIVE s + 2 s" \
	wait_ms $((ALIVE * 1000 + 2000)) pr_is $B2 "$R1A"
stop_ms=$(($(ms_now) - t0))
echo "failover_stop_ms $stop_ms (R3 stopped -> PathRecord through R1; plugin alive=$ALIVE)"
lab_check "6: the plugin took the silent daemon as gone" \
	grep -q "ibrouterd at $LAB/r3.ctl went away (nothing heard for $ALIVE s" "$LAB/A/sm/osm.log"
kill -CONT "$LAB_RTR_r3"
lab_check "6: continued: the PathRecord to B names R3 again" wait_ms 30000 pr_is $B2 "$R3A"
lab_check "6: R2 routes A's prefix through both" \
	wait_ms 20000 via_is "$LAB/r2.ctl" fec0:0:0:1::/64 "$BOTH"
if [ "$ROUNDS" -gt 1 ]; then
	echo "BENCH failover_ms $(lab_median < "$LAB/failover.txt") ms"
	echo "# failover_ms: median of $ROUNDS SIGKILLs of R3, min $(sort -n "$LAB/failover.txt" | head -1) max $(sort -n "$LAB/failover.txt" | tail -1); target 2000 ms; plugin resweep 1 s"
	echo "BENCH failover_stop_ms $stop_ms ms"
	echo "# failover_stop_ms: one SIGSTOP of R3's daemon; bound alive ($ALIVE s) after its last answer + a heavy sweep"
fi
lab_check "OpenSM A logged the plugin's route changes" grep -q "ibrouter-osm" "$LAB/A/sm/osm.log"
lab_check "R1 and R2 still running" kill -0 "$LAB_RTR_r1" "$LAB_RTR_r2"
if [ "$lab_fail" -ne 0 ]; then
	for r in r1 r2 r3; do echo "--- $r log"; tail -25 "$LAB/$r.log"; done
	echo "--- OpenSM A (ibrouter-osm)"; grep "ibrouter-osm" "$LAB/A/sm/osm.log" | tail -20
	echo "--- R2 show routes, peers"; r2 show routes; r2 show peers
fi
lab_stop_all
lab_finish
