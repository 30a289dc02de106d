#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_peers.sh - issue 20's route exchange between routers, against real
# OpenSM: three subnets A, B, C (three ibsim, three OpenSM) in a chain,
# router R1 between A and B, router R2 between B and C, both with
# announce-routes and peer-routes and no static route.
#   1. R1 learns C's prefix from R2's ServiceRecords in B, R2 learns A's from
#      R1's: routes of source peer whose next hop is the other router's LID
#      in B; show peers lists the other router; trace on R1 shows the route;
#   2. UD packets from a host in A reach a host in C and back, HopLmt down
#      by 2, the LIDs of each hop right (SLID the egress router port's, DLID
#      the next router's port in B, then the host's);
#   3. R2 killed (SIGKILL: its records stay at the SA until their lease
#      ends): R1 withdraws C within the lease (measured); R2 back: C
#      restored (measured);
#   4. R2 stopped cleanly (SIGTERM: its records deleted): R1 withdraws C
#      within a peer-interval and a read.
# LEASE (default 10 s, the smallest announce-lease) and the measured times are
# printed; with ROUNDS=N (`make bench`: 3) step 3 runs N times and BENCH lines
# give the medians: peer_converge (SIGKILL -> route gone), peer_restore (R2
# started -> route back), peer_withdraw (SIGTERM -> route gone) and a
# baseline of the same run, saquery_sr (one saquery SR in B, whole process).
# With LAB_PEERS_CA=1 (lab_peers_ca.sh) the router ports are ibsim Hca nodes
# (netA_ca, netB2_ca, netC_ca), Channel Adapters to OpenSM as on real
# hardware: the same scenario, found by their records, never by NodeType.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
LEASE=${LEASE:-10}
LEARN=$(lab_peer_learning "$LEASE")
NET_SUFFIX=""
[ "${LAB_PEERS_CA:-0}" = 1 ] && NET_SUFFIX=_ca

lab_subnet A "$HERE/netA$NET_SUFFIX"
lab_subnet B "$HERE/netB2$NET_SUFFIX"
lab_subnet C "$HERE/netC$NET_SUFFIX"
lab_check "OpenSM A: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002
lab_check "OpenSM C: SUBNET UP" lab_sm C HcaC1 0 0xfec0000000000003

# R1: a on A (to host A's wire), b on B (its wire to R2's b); R2: b on B, c on C
lab_check "R1's config (router ports' paths and GUIDs read from ibsim)" lab_router_conf_ports \
	"$LAB/r1.conf" r1 0x0002c90300000100 "$LAB/r1.ctl" "$LAB/r1.pid" "$LEARN" \
	"a:A:RtrA:$LAB/r1a.sock:$LAB/a.peer" "b:B:RtrB:$LAB/r1b.sock:$LAB/r2b.sock"
lab_check "R2's config" lab_router_conf_ports \
	"$LAB/r2.conf" r2 0x0002c90300000200 "$LAB/r2.ctl" "$LAB/r2.pid" "$LEARN" \
	"b:B:RtrB2:$LAB/r2b.sock:$LAB/r1b.sock" "c:C:RtrC:$LAB/r2c.sock:$LAB/c.peer"
# the preflight before R1 starts: both ports' SMAs and SAs answer through ibsim
"$BUILD/ibrouterd" --check -f "$LAB/r1.conf" > "$LAB/check.out" 2>&1
lab_check "0: ibrouterd --check on R1's config: exit 0, both SAs answer" sh -c "cat '$LAB/check.out';
	[ $? -eq 0 ] && grep -q '^OK    port a: SA: at LID 0x[0-9a-f]* answers' '$LAB/check.out' &&
	grep -q '^OK    port b: SA: at LID 0x[0-9a-f]* answers' '$LAB/check.out'"
if [ -n "$NET_SUFFIX" ]; then
	lab_check "0: --check: R1's ports are CAs to their SMs (the OpenSM plugin for PathRecords)" \
		grep -q '^WARN  port b: node: a Channel Adapter to its SM .*OpenSM plugin' "$LAB/check.out"
else
	lab_check "0: --check: R1's ports are Router nodes" grep -q '^OK    port b: node: a Router node' "$LAB/check.out"
fi
lab_ibrouterd r1 "$LAB/r1.conf"
lab_ibrouterd r2 "$LAB/r2.conf"
r1() { ctl_at "$LAB/r1.ctl" "$@"; }
r2() { ctl_at "$LAB/r2.ctl" "$@"; }
lab_check "R1 synced A and B, R2 B and C" wait_for 15 sh -c "grep -q 'sa: a: synced' '$LAB/r1.log' &&
	grep -q 'sa: b: synced' '$LAB/r1.log' && grep -q 'sa: b: synced' '$LAB/r2.log' &&
	grep -q 'sa: c: synced' '$LAB/r2.log'"

# ---- 1. routes learned from the other router's records ----
# lid_of CTL PORT: the LID (decimal) OpenSM gave port PORT of the router of control socket CTL
lid_of() { printf '%d' "$(ctl_at "$1" show ports | awk -v p="$2" '$1 == p { print $4; exit }')"; }
# peer_route CTL PREFIX: "port via metric" of the router's peer route to PREFIX
# (the best), "port lid 0x000c 1"; empty if none
peer_route() {
	ctl_at "$1" -j show routes "$2" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["data"]:
    if r["source"] == "peer" and r["best"] and r["prefix"] == sys.argv[1]:
        print(r["port"], r["via"], r["metric"])' "$2"
}
R1A=$(lid_of "$LAB/r1.ctl" a) R1B=$(lid_of "$LAB/r1.ctl" b)
R2B=$(lid_of "$LAB/r2.ctl" b) R2C=$(lid_of "$LAB/r2.ctl" c)
lab_check "the router ports have LIDs (R1 a $R1A b $R1B, R2 b $R2B c $R2C)" \
	test "$R1A" -gt 0 -a "$R1B" -gt 0 -a "$R2B" -gt 0 -a "$R2C" -gt 0
if [ -n "$NET_SUFFIX" ]; then
	# OpenSM B's NodeRecords of the routers' ports in B (a Get by LID: umad2sim cuts tables)
	ca_in_b() {
		for l in "$R1B" "$R2B"; do
			lab_run B HcaB2 saquery NR "$l" > "$LAB/nr.txt" 2>&1
			cat "$LAB/nr.txt"
			grep -qi 'node_\?type.*\(Channel Adapter\|0x1$\)' "$LAB/nr.txt" || return 1
		done
	}
	lab_check "0: OpenSM B's NodeRecords of R1's and R2's ports: Channel Adapters" ca_in_b
fi
has_route() { [ "$(peer_route "$1" "$2")" = "$3" ]; }
lab_check "1: R1 routes C's prefix through R2's b (LID $R2B), metric 1, source peer" \
	wait_for 15 has_route "$LAB/r1.ctl" fec0:0:0:3::/64 "b $(printf 'lid 0x%04x' "$R2B") 1"
lab_check "1: R2 routes A's prefix through R1's b (LID $R1B), metric 1" \
	wait_for 15 has_route "$LAB/r2.ctl" fec0:0:0:1::/64 "b $(printf 'lid 0x%04x' "$R1B") 1"
no_static() { ! { r1 show routes && r2 show routes; } | grep -q ' static '; }
lab_check "1: no static route anywhere" no_static
r1 -j show peers > "$LAB/peers1.json"
lab_check "1: R1's show peers: R2's port in B, announcing C's prefix" python3 -c "
import json, sys
rows = json.load(open('$LAB/peers1.json'))['data']
r = [x for x in rows if x['port'] == 'b' and int(x['lid'], 16) == $R2B]
assert len(r) == 1 and r[0]['state'] == 'announcing', rows
assert 'fec0:0:0:3::/64 m1' in r[0]['announced'], r[0]
assert not [x for x in rows if x['port'] == 'a' and x['state'] == 'announcing'], rows"
records_read() { r1 -j show sa b | grep -q '"peer_records":[1-9]'; }
lab_check "1: show sa counts the records read" records_read
if [ -n "$NET_SUFFIX" ]; then
	lab_check "1: R1 found R2's port in B as a CA port, by its records" \
		grep -q "sa: b: router .* a CA port) found by its records" "$LAB/r1.log"
fi

# ---- 2. data from A to C and back ----
sa_end_ports A HcaA2 > "$LAB/saA.txt"
sa_end_ports C HcaC2 > "$LAB/saC.txt"
A2=fec0:0:0:1::10:3 C2=fec0:0:0:3::12:3
LA2=$(awk '$1 == "0x0000000000100003" { print $2 }' "$LAB/saA.txt")
LC2=$(awk '$1 == "0x0000000000120003" { print $2 }' "$LAB/saC.txt")
lab_check "2: hosts A2 (LID $LA2) and C2 (LID $LC2) known to their SAs" test -n "$LA2" -a -n "$LC2"
r1 trace $A2 $C2 > "$LAB/trace.txt" 2>&1
lab_check "2: trace on R1: A2 -> C2 leaves by b to R2's LID through the peer route" \
	sh -c "cat '$LAB/trace.txt'; grep -q 'peer' '$LAB/trace.txt' && grep -qi \"$(printf '0x%04x' "$R2B")\" '$LAB/trace.txt'"
"$HOST" -s "$LAB/c.peer" recv -c 10 -t 5000 --expect-count 10 --expect-dlid "$LC2" \
	--expect-slid "$R2C" --expect-hoplimit 62 --expect-sgid $A2 --expect-dgid $C2 \
	--expect-flowlabel 0x7 > "$LAB/recvC.out" 2>&1 &
RECV=$!
sleep 0.2
"$HOST" -s "$LAB/a.peer" -p "$LAB/r1a.sock" send -q --slid "$LA2" --dlid "$R1A" \
	--sgid $A2 --dgid $C2 --hoplimit 64 --flowlabel 0x7 --size 256 -c 10
lab_check "2: A->C: 10 packets, DLID C2's $LC2, SLID R2's c $R2C, HopLmt 64 -> 62" wait "$RECV"
"$HOST" -s "$LAB/a.peer" recv -c 10 -t 5000 --expect-count 10 --expect-dlid "$LA2" \
	--expect-slid "$R1A" --expect-hoplimit 8 --expect-sgid $C2 --expect-dgid $A2 \
	> "$LAB/recvA.out" 2>&1 &
RECV=$!
sleep 0.2
"$HOST" -s "$LAB/c.peer" -p "$LAB/r2c.sock" send -q --slid "$LC2" --dlid "$R2C" \
	--sgid $C2 --dgid $A2 --hoplimit 10 --size 128 -c 10
lab_check "2: C->A: 10 packets, DLID A2's $LA2, SLID R1's a $R1A, HopLmt 10 -> 8" wait "$RECV"
tx_b() { r1 -j show counters b | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"][0]["tx_packets"])'; }
lab_check "2: R1 sent the 10 packets to C out of b, to R2 in B ($(tx_b))" test "$(tx_b)" -ge 10

# ---- 3. R2 killed, R2 back (ROUNDS times: `make bench` asks for several) ----
no_route() { [ -z "$(peer_route "$1" "$2")" ]; }
r2_expired() { r1 show peers b | grep -q expired; }
ROUNDS=${ROUNDS:-1}
: > "$LAB/converge.txt"
: > "$LAB/restore.txt"
round=1
while [ "$round" -le "$ROUNDS" ]; do
	# the kill lands anywhere in R2's refresh cycle (a third of the lease)
	sleep "0.$(($(ms_now) % 10))"
	t0=$(ms_now)
	kill -9 "$LAB_RTR_r2"
	wait "$LAB_RTR_r2" 2> /dev/null
	lab_check "3.$round: R2 killed (SIGKILL): R1 withdraws C within the lease ($LEASE s)" \
		wait_ms $((LEASE * 1000 + 2000)) no_route "$LAB/r1.ctl" fec0:0:0:3::/64
	t1=$(ms_now)
	echo $((t1 - t0)) >> "$LAB/converge.txt"
	echo "peer_converge $((t1 - t0)) ms (lease $LEASE s, peer-interval 1 s)"
	lab_check "3.$round: within the lease: $((t1 - t0)) ms <= $((LEASE * 1000)) ms" \
		test $((t1 - t0)) -le $((LEASE * 1000))
	lab_check "3.$round: show peers: R2 expired" r2_expired
	t0=$(ms_now)
	lab_ibrouterd r2 "$LAB/r2.conf"
	lab_check "3.$round: R2 back: R1 routes C through it again" \
		wait_ms 20000 has_route "$LAB/r1.ctl" fec0:0:0:3::/64 "b $(printf 'lid 0x%04x' "$R2B") 1"
	t1=$(ms_now)
	echo $((t1 - t0)) >> "$LAB/restore.txt"
	echo "peer_restore $((t1 - t0)) ms (R2 started -> R1's route to C)"
	# R2's sync and first announcement, then R1's next read: not a third of
	# the lease (R2 back does not repeat the numbers its dead self left)
	lab_check "3.$round: restored within 3 s ($((t1 - t0)) ms)" test $((t1 - t0)) -le 3000
	round=$((round + 1))
done
lab_check "3: R1 logged the expiry" grep -q "expired" "$LAB/r1.log"
if [ "$ROUNDS" -gt 1 ]; then
	# the bound: R2 refreshes each third of the lease, R1 gives up on a count
	# still after two thirds and one peer-interval, then reads once (1 s)
	echo "BENCH peer_converge $(lab_median < "$LAB/converge.txt") ms"
	echo "# peer_converge: median of $ROUNDS SIGKILLs, min $(sort -n "$LAB/converge.txt" | head -1) max $(sort -n "$LAB/converge.txt" | tail -1); lease $LEASE s: target <= $((2 * LEASE * 1000)) ms, bound 2/3 lease + 2 peer-intervals = $((2 * LEASE * 1000 / 3 + 2000)) ms"
	echo "BENCH peer_restore $(lab_median < "$LAB/restore.txt") ms"
fi

# ---- 4. R2 stopped cleanly: its records deleted, withdrawn at the next read ----
wait_for 15 has_route "$LAB/r2.ctl" fec0:0:0:1::/64 "b $(printf 'lid 0x%04x' "$R1B") 1" > /dev/null
expired0=$(grep -c 'expired' "$LAB/r1.log") none0=$(grep -c 'announces 0 prefixes' "$LAB/r1.log")
t0=$(ms_now)
kill "$LAB_RTR_r2"
wait "$LAB_RTR_r2"
lab_check "4: R2 stopped (SIGTERM): exit 0" test $? -eq 0
# a read that finds no records, not the expiry of a count that stopped (2/3
# of the lease: 6.7 s): 5 s leaves room for a loaded machine's slow SA
lab_check "4: R1 withdraws C within 5 s (its records deleted)" wait_ms 5000 no_route "$LAB/r1.ctl" fec0:0:0:3::/64
t1=$(ms_now)
lab_check "4: because R2's records are gone (none read), not by expiry" \
	sh -c "[ \$(grep -c 'announces 0 prefixes' '$LAB/r1.log') -gt $none0 ] && [ \$(grep -c expired '$LAB/r1.log') -eq $expired0 ]"
echo "peer_withdraw $((t1 - t0)) ms (SIGTERM -> R1's route to C gone)"
[ "$ROUNDS" -le 1 ] || echo "BENCH peer_withdraw $((t1 - t0)) ms"
# a baseline of the same run: the SA round trip itself (saquery of one record in B)
t0=$(ms_now)
lab_run B HcaB2 saquery SR > /dev/null 2>&1
t1=$(ms_now)
[ "$ROUNDS" -le 1 ] || echo "BENCH saquery_sr $((t1 - t0)) ms"

lab_check "R1 is still running" kill -0 "$LAB_RTR_r1"
if [ "$lab_fail" -ne 0 ]; then
	for r in r1 r2; do echo "--- $r log"; tail -30 "$LAB/$r.log"; done
	echo "--- R1 show routes, peers, sa"; r1 show routes; r1 show peers; r1 show sa
	for f in "$LAB"/recv*.out; do echo "--- $f"; cat "$f"; done
fi
lab_stop_all
lab_finish
