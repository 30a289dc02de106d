#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_ecmp.sh - a route through several next routers of equal cost (issue
# 20), through the daemon: set in the config (via = {...}) and in the CLI
# (route add ... port b lid L port b lid L ...), shown by show routes; 64
# flows (SGIDs) from A, two packets each: each flow keeps one next router
# (both its packets to one DLID), all three carry some; a next router
# removed: only its flows move; trace names the route.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

EXTRA_CONF='route "fec0:0:0:4::/64" {
	port = "b"
	via = {0x30, 0x32}
	metric = 1
}'
start_router || exit 1

# the config's route: two next hops in show routes
ctl -j show routes fec0:0:0:4::/64 > "$T/r4.json"
check "config: via = {0x30, 0x32} is one route through both" \
	grep -q '"prefix":"fec0:0:0:4::/64","source":"static","port":"b","via":"lid 0x0030, lid 0x0032","metric":1' "$T/r4.json"

check "route add through three next routers of b" \
	ctl route add fec0:0:0:3::/64 port b lid 0x20 port b lid 0x22 port b lid 0x24 metric 2
ctl -j show routes fec0:0:0:3::/64 > "$T/r3.json"
check "show routes: the three, in one row" \
	grep -q '"port":"b","via":"lid 0x0020, lid 0x0022, lid 0x0024","metric":2' "$T/r3.json"
ctl route add fec0:0:0:3::/64 port b lid 0x20 port b lid 0x20 > "$T/twice.out" 2>&1
check "the same next hop twice: a usage error" sh -c "[ $? -eq 2 ] && grep -q 'twice' '$T/twice.out'"
ctl route add fec0:0:0:3::/64 port b lid 0x20 port b direct > "$T/mixed.out" 2>&1
check "a next router and direct: a usage error" sh -c "[ $? -eq 2 ] && grep -q 'next routers' '$T/mixed.out'"
ctl -j trace fec0::1:0:0:10:1 fec0::3:0:0:99:1 > "$T/trace.json"
check "trace: out of b to one of them, the static route" \
	grep -q '"verdict":"forward","in":"a","out":"b","dlid":"0x002[024]".*"route":"fec0:0:0:3::/64 static"' "$T/trace.json"

# flows: SGID fec0::1:0:0:10:N (N = 1..64), two packets each, FlowLabel 0
send_flows() {
	i=1
	while [ $i -le 64 ]; do
		send_a --slid 3 --dlid 1 --sgid "fec0::1:0:0:10:$(printf %x $i)" \
			--dgid fec0::3:0:0:99:1 -c 2
		i=$((i + 1))
	done
}
# flow_dlids FILE: "SGID DLID" a received packet, from recv -j
flow_dlids() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    line = line.strip()
    if line.startswith("{"):
        p = json.loads(line)
        print(p["sgid"], "0x%04x" % int(str(p["dlid"]), 0))' "$1" | sort
}
# flows_through FILE: send the flows, "SGID DLID" of each packet B got into FILE
flows_through() {
	"$HOST" -s "$T/b.peer" -j recv -c 128 -t 10000 > "$1.json" 2>&1 &
	RECV=$!
	PIDS="$PIDS $RECV"
	for _ in $(seq 1 100); do [ -S "$T/b.peer" ] && break; sleep 0.02; done
	send_flows
	wait "$RECV"
	flow_dlids "$1.json" > "$1"
}
flows_through "$T/flows1.txt"
check "128 packets through b" test "$(wc -l < "$T/flows1.txt")" -eq 128
check "each flow keeps one next router (both packets one DLID)" \
	test "$(sort -u "$T/flows1.txt" | wc -l)" -eq 64
check "every DLID is one of the three" sh -c "! awk '{ print \$2 }' '$T/flows1.txt' | grep -vqE '^0x002[024]$'"
count_of() { awk -v d="$2" '$2 == d' "$1" | sort -u | wc -l; }
n20=$(count_of "$T/flows1.txt" 0x0020) n22=$(count_of "$T/flows1.txt" 0x0022) n24=$(count_of "$T/flows1.txt" 0x0024)
check "all three carry flows (0x20: $n20, 0x22: $n22, 0x24: $n24 of 64)" \
	test "$n20" -ge 8 -a "$n22" -ge 8 -a "$n24" -ge 8

# the router of LID 0x22 goes: only its flows move
ctl route add fec0:0:0:3::/64 port b lid 0x24 port b lid 0x20 metric 2 > /dev/null
flows_through "$T/flows2all.txt"
sort -u "$T/flows2all.txt" > "$T/flows2.txt"
sort -u "$T/flows1.txt" > "$T/flows1u.txt"
check "0x22 gone: none of its DLID" sh -c "! grep -q ' 0x0022$' '$T/flows2.txt'"
moved=$(join "$T/flows1u.txt" "$T/flows2.txt" | awk '$2 != $3' | wc -l)
stayed=$(join "$T/flows1u.txt" "$T/flows2.txt" | awk '$2 == $3 && $2 != "0x0022"' | wc -l)
check "only the $n22 flows of 0x22 moved ($moved moved, $stayed stayed)" \
	test "$moved" -eq "$n22" -a "$stayed" -eq $((64 - n22))
finish
