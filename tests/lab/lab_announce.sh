#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_announce.sh - issue 20's route exchange, its first half against real
# OpenSM: with learning { announce-routes = true }, ibrouterd registers in
# each subnet's SA, as its router port, ServiceRecords (IBA 15.2.5.14) of the
# prefixes it reaches through its other port (the record format:
# sa/sa_client.h), and OpenSM's SA gives them to any host that asks
# (saquery SR, infiniband-diags): in A the record names B's prefix and not
# A's own (split horizon), in B the reverse; the lease is the configured
# one; a route added in the CLI is announced, a route deleted is withdrawn;
# ibrouterd stopped (SIGTERM) deletes them at once.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)

lab_subnet A "$HERE/netA"
lab_subnet B "$HERE/netB"
lab_check "OpenSM A: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002
lab_router_conf "$LAB/r.conf" ad "announce-routes = true
	announce-lease = 40"
"$BUILD/ibrouterd" -d -f "$LAB/r.conf" > "$LAB/r.log" 2>&1 &
RPID=$!
LAB_PIDS="$LAB_PIDS $RPID"
wait_for() { for _ in $(seq 1 100); do eval "$1" > /dev/null 2>&1 && return 0; sleep 0.1; done; return 1; }
lab_check "the router synced both subnets" wait_for "grep -q 'sa: a: synced' '$LAB/r.log' && grep -q 'sa: b: synced' '$LAB/r.log'"

# sr SUBNET: the ServiceRecords a host of the subnet gets from its SA
sr() { lab_run "$1" "Hca${1}2" saquery SR 2> /dev/null; }
# sr_ours SUBNET: ours only (ServiceName ibrouter.route-exchange.v1), one record a paragraph
sr_ours() { sr "$1" | awk '/^ServiceRecord dump:/ { if (b ~ /ibrouter.route-exchange.v1/) printf "%s", b; b = "" } { b = b $0 "\n" } END { if (b ~ /ibrouter.route-exchange.v1/) printf "%s", b }'; }
# sr_prefixes SUBNET: the prefixes our records announce there, one "0x<16 hex>/<len> m<metric>" a line
# (the format of sa/sa_client.h: prefix 0 in ServiceData64[0], prefix 1 in ServiceData32[2..3])
sr_prefixes() {
	sr_ours "$1" | python3 -c '
import re, sys
for rec in sys.stdin.read().split("ServiceRecord dump:")[1:]:
    f = {k: int(v, 16) for k, v in re.findall(r"(ServiceData\d+\.\d+)\.*(0x[0-9a-fA-F]+)", rec)}
    n = f.get("ServiceData8.2", 0)
    pfx = [f.get("ServiceData64.1", 0), f.get("ServiceData32.3", 0) << 32 | f.get("ServiceData32.4", 0)]
    for i in range(min(n, 2)):
        print("0x%016x/%d m%d" % (pfx[i], f.get("ServiceData8.%d" % (3 + i), 0), f.get("ServiceData8.%d" % (5 + i), 0)))'
}
lab_check "A: the SA holds our record" wait_for "sr_ours A | grep -q 'ServiceName'"
sr_ours A > "$LAB/srA.txt"
sr_ours B > "$LAB/srB.txt"
lab_check "A: registered as the router port's GID (A's prefix, port GUID $(lab_rtr_guid A))" \
	grep -q "^[[:space:]]*ServiceGID\.*fec0::1:0:0:30:1$" "$LAB/srA.txt"
lab_check "A: ServiceID in our range (0x1000140549520000 + index)" \
	grep -Eqi 'ServiceID\.*0x10001405495200' "$LAB/srA.txt"
lab_check "A: the lease is announce-lease (40)" grep -q 'ServiceLease\.*0x28$' "$LAB/srA.txt"
sr_prefixes A > "$LAB/pA.txt"
sr_prefixes B > "$LAB/pB.txt"
lab_check "A: it announces exactly B's prefix, one hop (split horizon: not A's own)" \
	sh -c "cat '$LAB/pA.txt'; [ \"\$(cat '$LAB/pA.txt')\" = '0xfec0000000000002/64 m1' ]"
lab_check "B: exactly A's prefix, one hop" \
	sh -c "cat '$LAB/pB.txt'; [ \"\$(cat '$LAB/pB.txt')\" = '0xfec0000000000001/64 m1' ]"
lab_check "B: ServiceName ibrouter.route-exchange.v1" grep -q 'ibrouter.route-exchange.v1' "$LAB/srB.txt"

# a static route through b (to a next router at LID 9 of B) is announced in A, withdrawn when deleted
lab_check "route add fec0:0:0:77::/64 port b lid 9" ctl route add fec0:0:0:77::/64 port b lid 9
lab_check "route add fec0:0:0:77::/64 via b: announced in A, the record's second prefix" \
	wait_for "sr_prefixes A | grep -qx '0xfec0000000000077/64 m1'"
one_record_both() { [ "$(sr_ours A | grep -c 'ServiceRecord dump')" -eq 1 ] && sr_prefixes A | grep -qx '0xfec0000000000002/64 m1'; }
not_in_b() { sr_prefixes B > "$LAB/pB2.txt" && [ -s "$LAB/pB2.txt" ] && ! grep -q 0xfec0000000000077 "$LAB/pB2.txt"; }
lab_check "... beside B's, in one record" one_record_both
lab_check "... not in B (learned through b; B's record still there)" not_in_b
ctl route del fec0:0:0:77::/64 > /dev/null 2>&1
lab_check "route del: withdrawn from A" wait_for "! sr_prefixes A | grep -q 0xfec0000000000077"
lab_check "the daemon logged what it announces" grep -q 'sa: a: announcing' "$LAB/r.log"

kill "$RPID"
wait "$RPID"
lab_check "ibrouterd stopped (SIGTERM): exit 0" test $? -eq 0
lab_check "A: our records deleted at once, not left to the lease" wait_for "! sr_ours A | grep -q ServiceName" ||
	tail -15 "$LAB/r.log" # what the daemon sent and heard at its end
none_in_b() { ! sr_ours B | grep -q ServiceName; }
lab_check "B: ours deleted too" none_in_b
lab_stop_all
lab_finish
