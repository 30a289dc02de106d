#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_ring.sh - issue 20's ring, against real OpenSM: subnets A, B, C (three
# ibsim, three OpenSM) joined by three routers in a ring, R1 (A|B), R2 (B|C)
# and R3 (C|A), route exchange on, no static route; a sim switch on each
# subnet's wire (its host and its two router ports).
#   1. each router routes the subnet it does not touch through both others
#      (two next hops, through its two ports, one metric);
#   2. for each router in turn: killed (SIGKILL).  While the others converge
#      (its lease and a little more), hosts keep sending on the detours
#      (the pair the dead router joined, through the other routers) and
#      every packet that arrives is counted: none may have crossed more
#      than 2 routers (HopLmt 64 -> 62 or more) and no router may drop one
#      for its hop limit (a loop would do both).  Once converged, 5 packets
#      for each of the 6 ordered host pairs, through a live router of the
#      source's subnet: every one arrives, with HopLmt 63 (the router
#      joining the pair) or 62 (the detour).  Then it comes back and the
#      ring is whole again.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
SWITCH="$BUILD/tests/lab/sim_switch"
LEASE=${LEASE:-10}
LEARN=$(lab_peer_learning "$LEASE")

lab_subnet A "$HERE/netA3"
lab_subnet B "$HERE/netB2"
lab_subnet C "$HERE/netC3"
lab_check "OpenSM A: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002
lab_check "OpenSM C: SUBNET UP" lab_sm C HcaC1 0 0xfec0000000000003
lab_check "R1's config" lab_router_conf_ports "$LAB/r1.conf" r1 0x0002c90300000100 \
	"$LAB/r1.ctl" "$LAB/r1.pid" "$LEARN" \
	"a:A:RtrA:$LAB/r1a.sock:$LAB/swA.sock" "b:B:RtrB:$LAB/r1b.sock:$LAB/swB.sock"
lab_check "R2's config" lab_router_conf_ports "$LAB/r2.conf" r2 0x0002c90300000200 \
	"$LAB/r2.ctl" "$LAB/r2.pid" "$LEARN" \
	"b:B:RtrB2:$LAB/r2b.sock:$LAB/swB.sock" "c:C:RtrC:$LAB/r2c.sock:$LAB/swC.sock"
lab_check "R3's config" lab_router_conf_ports "$LAB/r3.conf" r3 0x0002c90300000300 \
	"$LAB/r3.ctl" "$LAB/r3.pid" "$LEARN" \
	"c:C:RtrC3:$LAB/r3c.sock:$LAB/swC.sock" "a:A:RtrA3:$LAB/r3a.sock:$LAB/swA.sock"
for r in r1 r2 r3; do lab_ibrouterd $r "$LAB/$r.conf"; done
all_synced() {
	for x in "r1 a" "r1 b" "r2 b" "r2 c" "r3 c" "r3 a"; do
		lab_synced "$LAB/${x% *}.log" "${x#* }" || return 1
	done
}
lab_check "the three routers synced their subnets" wait_for 20 all_synced

# lid R PORT: the LID (decimal) OpenSM gave port PORT of router R
lid() { printf '%d' "$(ctl_at "$LAB/$1.ctl" show ports | awk -v p="$2" '$1 == p { print $4; exit }')"; }
R1A=$(lid r1 a) R1B=$(lid r1 b) R2B=$(lid r2 b) R2C=$(lid r2 c) R3C=$(lid r3 c) R3A=$(lid r3 a)
sa_end_ports A HcaA2 > "$LAB/saA.txt"
sa_end_ports B HcaB2 > "$LAB/saB.txt"
sa_end_ports C HcaC2 > "$LAB/saC.txt"
LA=$(awk '$1 == "0x0000000000100003" { print $2 }' "$LAB/saA.txt")
LB=$(awk '$1 == "0x0000000000110003" { print $2 }' "$LAB/saB.txt")
LC=$(awk '$1 == "0x0000000000120003" { print $2 }' "$LAB/saC.txt")
lab_check "LIDs: hosts A2 $LA, B2 $LB, C2 $LC; R1 $R1A/$R1B, R2 $R2B/$R2C, R3 $R3C/$R3A" \
	test -n "$LA" -a -n "$LB" -a -n "$LC" -a "$R1A" -gt 0 -a "$R1B" -gt 0 -a "$R2B" -gt 0 \
	-a "$R2C" -gt 0 -a "$R3C" -gt 0 -a "$R3A" -gt 0
# switches (started again when a router restarts: they name sockets, not processes)
"$SWITCH" "$LAB/swA.sock" "$LA=$LAB/a.peer" "$R1A=$LAB/r1a.sock" "$R3A=$LAB/r3a.sock" > /dev/null 2>&1 &
LAB_PIDS="$LAB_PIDS $!"
"$SWITCH" "$LAB/swB.sock" "$LB=$LAB/b.peer" "$R1B=$LAB/r1b.sock" "$R2B=$LAB/r2b.sock" > /dev/null 2>&1 &
LAB_PIDS="$LAB_PIDS $!"
"$SWITCH" "$LAB/swC.sock" "$LC=$LAB/c.peer" "$R2C=$LAB/r2c.sock" "$R3C=$LAB/r3c.sock" > /dev/null 2>&1 &
LAB_PIDS="$LAB_PIDS $!"

# nexthops R PREFIX: how many next hops router R's best route to PREFIX has (0: none)
nexthops() {
	ctl_at "$LAB/$1.ctl" -j show routes "$2" 2> /dev/null | python3 -c '
import json, sys
n = 0
for r in json.load(sys.stdin)["data"]:
    if r["best"] and r["prefix"] == sys.argv[1]:
        n = len(r["via"].split(", "))
print(n)' "$2"
}
has_nexthops() { [ "$(nexthops "$1" "$2")" = "$3" ]; }
# the prefix each router does not touch
far_of() { case $1 in r1) echo fec0:0:0:3::/64 ;; r2) echo fec0:0:0:1::/64 ;; r3) echo fec0:0:0:2::/64 ;; esac; }
ring_whole() { for r in r1 r2 r3; do has_nexthops $r "$(far_of $r)" 2 || return 1; done; }
lab_check "1: each router routes the subnet it does not touch through both others" \
	wait_ms 30000 ring_whole

# ---- hosts ----
gid_of() { case $1 in A) echo fec0:0:0:1::10:3 ;; B) echo fec0:0:0:2::11:3 ;; C) echo fec0:0:0:3::12:3 ;; esac; }
hlid_of() { case $1 in A) echo "$LA" ;; B) echo "$LB" ;; C) echo "$LC" ;; esac; }
peer_of() { echo "$LAB/$(echo "$1" | tr ABC abc).peer"; }
sw_of() { echo "$LAB/sw$1.sock"; }
# send SRC DST RLID N: N packets from host SRC to host DST through the router
# port of LID RLID (from a socket of its own: the host's is its receiver's)
send() {
	"$HOST" -s "$LAB/$1.tx" -p "$(sw_of "$1")" send -q --slid "$(hlid_of "$1")" --dlid "$3" \
		--sgid "$(gid_of "$1")" --dgid "$(gid_of "$2")" --hoplimit 64 -c "$4"
}
# recv_start MS: every host receives for MS milliseconds, into $LAB/rx-X.json
recv_start() {
	RX_PIDS=""
	for h in A B C; do
		"$HOST" -s "$(peer_of $h)" -j recv -t "$1" > "$LAB/rx-$h.json" 2>&1 &
		RX_PIDS="$RX_PIDS $!"
	done
	for h in A B C; do
		for _ in $(seq 1 100); do [ -S "$(peer_of $h)" ] && break; sleep 0.02; done
	done
}
recv_end() { for p in $RX_PIDS; do wait "$p"; done; }
# rx_summary: "SGID->DGID count minhop maxhop" of what the hosts received, one line a pair
rx_summary() {
	cat "$LAB"/rx-A.json "$LAB"/rx-B.json "$LAB"/rx-C.json | python3 -c '
import json, sys
pairs = {}
for line in sys.stdin:
    if line.startswith("{"):
        p = json.loads(line)
        k = p["sgid"] + "->" + p["dgid"]
        h = int(str(p["hoplimit"]), 0)
        n, lo, hi = pairs.get(k, (0, 255, 0))
        pairs[k] = (n + 1, min(lo, h), max(hi, h))
for k in sorted(pairs):
    print(k, *pairs[k])'
}
# hoplmt_drops: the hop-limit drops of the routers alive, summed
hoplmt_drops() {
	t=0
	for r in r1 r2 r3; do
		kill -0 "$(eval echo "\$LAB_RTR_$r")" 2> /dev/null || continue
		n=$(ctl_at "$LAB/$r.ctl" -j show drops | python3 -c '
import json, sys
print(sum(r["count"] for r in json.load(sys.stdin)["data"] if r["reason"] == "hoplmt"))')
		t=$((t + n))
	done
	echo "$t"
}

# ---- 2. each router killed in turn ----
# victim: the pair it joins, the detours (source, destination, first router's
# LID), and every pair's first hop while it is gone ("SRC DST RLID HOPS")
for victim in r1 r2 r3; do
	case $victim in
	r1) detours="A B $R3A
B A $R2B"
	    probes="A B $R3A 62
B A $R2B 62
A C $R3A 63
C A $R3C 63
B C $R2B 63
C B $R2C 63" ;;
	r2) detours="B C $R1B
C B $R3C"
	    probes="B C $R1B 62
C B $R3C 62
A B $R1A 63
B A $R1B 63
A C $R3A 63
C A $R3C 63" ;;
	r3) detours="C A $R2C
A C $R1A"
	    probes="C A $R2C 62
A C $R1A 62
A B $R1A 63
B A $R1B 63
B C $R2B 63
C B $R2C 63" ;;
	esac
	d0=$(hoplmt_drops)
	recv_start $((LEASE * 1000 + 4000))
	t0=$(ms_now)
	kill -9 "$(eval echo "\$LAB_RTR_$victim")"
	wait "$(eval echo "\$LAB_RTR_$victim")" 2> /dev/null
	# the detours while the others converge: 5 packets each, every 0.5 s
	tx=0
	while [ $(($(ms_now) - t0)) -lt $((LEASE * 1000 + 2500)) ]; do
		echo "$detours" | while read -r s d l; do send "$s" "$d" "$l" 5; done
		tx=$((tx + 10))
		sleep 0.5
	done
	recv_end
	rx_summary > "$LAB/during-$victim.txt"
	sent=$(awk '{ n += $2 } END { print n + 0 }' "$LAB/during-$victim.txt")
	minhop=$(awk 'BEGIN { m = 64 } $3 < m { m = $3 } END { print m }' "$LAB/during-$victim.txt")
	lab_check "2.$victim: while the ring converges, no packet crossed more than 2 routers ($sent of $tx arrived, lowest HopLmt $minhop)" \
		test "$minhop" -ge 62
	lab_check "2.$victim: and none was dropped for its hop limit ($(hoplmt_drops) - $d0)" \
		test "$(hoplmt_drops)" -eq "$d0"
	lab_check "2.$victim: the detours carried packets before the end ($sent)" test "$sent" -gt 0
	# converged: every pair, 5 packets, through a live router of its subnet
	recv_start 4000
	echo "$probes" | while read -r s d l h; do send "$s" "$d" "$l" 5; done
	recv_end
	rx_summary > "$LAB/after-$victim.txt"
	echo "$probes" | while read -r s d l h; do
		echo "$(gid_of "$s")->$(gid_of "$d") 5 $h $h"
	done | sed 's/fec0:0:0:\([123]\)::1\([012]\):3/fec0::\1:0:0:1\2:3/g' | sort > "$LAB/want-$victim.txt"
	lab_check "2.$victim: converged: every pair's 5 packets arrived, HopLmt 63 direct, 62 on a detour" \
		sh -c "diff '$LAB/want-$victim.txt' '$LAB/after-$victim.txt'"
	lab_check "2.$victim: no hop-limit drop at all" test "$(hoplmt_drops)" -eq "$d0"
	lab_ibrouterd "$victim" "$LAB/$victim.conf"
	lab_check "2.$victim: back: the ring whole again" wait_ms 30000 ring_whole
done
lab_check "the routers still running" kill -0 "$LAB_RTR_r1" "$LAB_RTR_r2" "$LAB_RTR_r3"
if [ "$lab_fail" -ne 0 ]; then
	for r in r1 r2 r3; do echo "--- $r log"; tail -20 "$LAB/$r.log"; done
	for f in "$LAB"/want-*.txt "$LAB"/after-*.txt "$LAB"/during-*.txt; do echo "--- $f"; cat "$f"; done
fi
lab_stop_all
lab_finish
