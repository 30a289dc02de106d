#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_e2e.sh - ibrouterd between two sim subnets, ibrouter-host on both sides:
# unicast both ways with every rewritten field checked, drops counted under
# their reasons, control commands (JSON shape, trace agreeing with the
# engine, route and mcast edits, OpenSM prefix routes), multicast fan-out,
# and a tshark decode.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
need_nobody

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A
B_HOST=fec0::2:0:0:11:1 # GUID 0x110001, LID 5 in subnet B

SRC=$(cd "$(dirname "$0")/../.." && pwd)
check "ibrouterd -n accepts the example config" sh -c "\"$IBRD\" -n -f \"$SRC/etc/ibrouterd.conf\" > \"$T/example.out\""
for f in "$SRC"/etc/examples/*.conf; do
	check "ibrouterd -n accepts etc/examples/${f##*/} (doc/DEPLOYING.md)" "$IBRD" -n -f "$f"
done
check "ibrouterd -N output (with secrets) parses again" sh -c "\"$IBRD\" -N -f \"$SRC/etc/ibrouterd.conf\" > \"$T/example.out\" && \"$IBRD\" -N -f \"$T/example.out\" | cmp -s - \"$T/example.out\""
check "ibrouterd -n rejects a bad config with exit 1" sh -c "printf 'workers = 0\n' > \"$T/bad.conf\"; \"$IBRD\" -n -f \"$T/bad.conf\" 2>/dev/null; [ \$? -eq 1 ]"
check "ibrouterd -V" sh -c "\"$IBRD\" -V | grep -q '^ibrouterd [0-9]'"

start_router || exit 1
"$IBRD" -d -f "$T/ibrouterd.conf" > "$T/second.log" 2>&1
check "a second ibrouterd on the same socket refuses to start" grep -q 'another ibrouterd is running there' "$T/second.log"

# 1. A -> B: DLID = B host's LID, SLID = port b's LID, HopLmt - 1, rest intact
recv_bg b "$T/b.peer" -c 50 -t 5000 --expect-count 50 --expect-dlid 5 --expect-slid 0x10 \
	--expect-hoplimit 63 --expect-sgid $A_HOST --expect-dgid $B_HOST --expect-tclass 0 \
	--expect-flowlabel 0x12345 --expect-size 200 --expect-qpn 0x42 --expect-qkey 0x1234 \
	--expect-pkey 0xffff -w "$T/b.pcap"
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --flowlabel 0x12345 --size 200 \
	--qpn 0x42 --qkey 0x1234 -c 50
check "A to B: 50 packets rewritten as IBA 8.2.3 says" recv_wait b

# 2. B -> A, the reverse path
recv_bg a "$T/a.peer" -c 20 -t 5000 --expect-count 20 --expect-dlid 3 --expect-slid 1 \
	--expect-hoplimit 9 --expect-sgid $B_HOST --expect-dgid $A_HOST
send_b --slid 5 --dlid 0x10 --sgid $B_HOST --dgid $A_HOST --hoplimit 10 -c 20
check "B to A: 20 packets" recv_wait a

# 3. drops: HopLmt 1, no route, unknown neighbour; B must receive nothing
recv_bg b "$T/b.peer" -t 700 --expect-count 0
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --hoplimit 1 -c 3
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid fec0::9:0:0:0:1 -c 4
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid fec0::2:0:0:11:99 -c 5
check "dropped packets do not reach B" recv_wait b
ctl -j show drops a > "$T/drops.json"
check "hoplmt drops counted (3)" grep -q '"reason":"hoplmt","count":3,"rule":"C8-16"' "$T/drops.json"
check "no_route drops counted (4)" grep -q '"reason":"no_route","count":4' "$T/drops.json"
check "no_neigh drops counted (5)" grep -q '"reason":"no_neigh","count":5' "$T/drops.json"

# 4. counters and the JSON shape of a reply
ctl -j show counters > "$T/counters.json"
check "counters: JSON reply shape" grep -q '^{"ok":true,"data":\[{"port":"a","rx_packets":62,' "$T/counters.json"
check "counters: b sent 50" grep -q '"port":"b","rx_packets":20,"rx_bytes":[0-9]*,"tx_packets":50,' "$T/counters.json"
ctl show counters -o prometheus > "$T/prom.txt"
check "prometheus: drops by reason" grep -q '^ibrouter_drops_total{port="a",reason="hoplmt"} 3$' "$T/prom.txt"
check "prometheus: TYPE lines" grep -q '^# TYPE ibrouter_rx_packets_total counter$' "$T/prom.txt"
check "text table has a header" sh -c "ctl() { \"$CTL\" -s \"$T/ctl.sock\" \"\$@\"; }; ctl show ports | head -1 | grep -q '^name  *guid  *prefix'"

# 5. trace agrees with what the engine did
ctl -j trace $A_HOST $B_HOST > "$T/trace1.json"
check "trace: forward to b, DLID 0x0005 (hex, as every LID)" grep -q '"verdict":"forward","in":"a","out":"b","dlid":"0x0005","slid":"0x0010"' "$T/trace1.json"
check "trace: the route it takes, its prefix and source" grep -q '"route":"fec0:0:0:2::/64 connected"' "$T/trace1.json"
ctl -j trace $A_HOST fec0::9:0:0:0:1 > "$T/trace2.json"
check "trace: no route" grep -q '"verdict":"drop".*"reason":"no_route","rule":"IBA 8.2"' "$T/trace2.json"

# 6. route add makes fec0:0:0:9::/64 reachable through a next router on b
check "route add" ctl route add fec0:0:0:9::/64 port b lid 0x21
recv_bg b "$T/b.peer" -c 4 -t 5000 --expect-count 4 --expect-dlid 0x21
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid fec0::9:0:0:0:1 -c 4
check "after route add: forwarded to the next router's LID" recv_wait b
check "route del" ctl route del fec0:0:0:9::/64
check "route del again fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" route del fec0:0:0:9::/64"

# 7. multicast: site-scope group with senders in A and receivers in B
check "mcast add (a, senders)" ctl mcast add ff15::1 port a mlid 0xc001 senders
check "mcast add (b, receivers)" ctl mcast add ff15::1 port b mlid 0xc002 sl 3 receivers
recv_bg b "$T/b.peer" -c 6 -t 5000 --expect-count 6 --expect-dlid 0xc002 --expect-sl 3 \
	--expect-dgid ff15::1 --expect-qpn 0xffffff
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff -c 6
check "multicast A to B with B's MLID and SL" recv_wait b
ctl -j trace $A_HOST ff12::1 > "$T/trace3.json"
check "trace: link-local scope never routed, and why (not a DLID drop)" grep -q \
	'"verdict":"drop",.*"reason":"scope","rule":"IBA 4.1.1","route":null,"why":"ff12::1 is link-local (scope 2): it never leaves its subnet"' \
	"$T/trace3.json"
ctl -j trace $A_HOST ff15::1.2.3.4 > "$T/trace4.json"
check "trace: a group no table has (an MGID with a dotted quad): no_group, IBA 8.3, named canonically" grep -q \
	'"reason":"no_group","rule":"IBA 8.3","route":null,"why":"no group ff15::102:304 in the forwarding table"' \
	"$T/trace4.json"
ctl -j trace ::ffff:10.0.0.1 $B_HOST port a > "$T/trace5.json" 2>&1
check "trace: an IPv4-mapped SGID in dotted form (::ffff:10.0.0.1) is a GID" \
	grep -q '"verdict":"forward","in":"a","out":"b"' "$T/trace5.json"
ctl -j trace $A_HOST ::ffff:10.0.0.1 > "$T/trace6.json" 2>&1
check "trace: ... and as the DGID: no route to ::/64" grep -q '"reason":"no_route"' "$T/trace6.json"

# 7b. the remaining commands, each once: neighbours, groups, config, log level,
#     clear counters, help
check "neighbour add" ctl neighbour add 0x0000000000110077 port b lid 0x44
check "show neighbours b lists it" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show neighbours b | grep -q '\"guid\":\"0x0000000000110077\",\"lid\":\"0x0044\"'"
check "neighbour del" ctl neighbour del 0x0000000000110077 port b
check "neighbour del again fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" neighbour del 0x0000000000110077 port b 2>/dev/null"
check "show mcast ff15::1 lists both subnets" sh -c "[ \$(\"$CTL\" -s \"$T/ctl.sock\" -j show mcast ff15::1 | grep -o '\"mgid\":\"ff15::1\"' | wc -l) -eq 2 ]"
check "mcast del" ctl mcast del ff15::1 port a
ctl -j trace $A_HOST ff15::1 > "$T/trace7.json"
check "trace: a group with no MLID on the ingress port: why" grep -q \
	'"reason":"dlid","rule":"IBA 8.2.3","route":null,"why":"group ff15::1 has no MLID on port a: the router is no member there' \
	"$T/trace7.json"
check "show config prints the running config" sh -c "\"$CTL\" -s \"$T/ctl.sock\" show config | grep -q '^port \"b\"'"
check "log level debug" ctl log level debug
check "log level nonsense refused" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" log level loud 2>/dev/null"
check "help lists trace" sh -c "\"$CTL\" -s \"$T/ctl.sock\" help | grep -q '^trace SGID DGID'"
check "clear counters" ctl clear counters
check "counters are zero after clear" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show counters a | grep -q '\"rx_packets\":0,'"

# 7c. show osm-prefix-routes: OpenSM's prefix_routes_file for each port's
#     subnet (lines "<prefix> <router port GUID>", '#' comments).  Port a's
#     subnet reaches b's prefix and the routes via b through port a (GUID
#     node-guid + 1), never a's own prefix nor routes via a; an aggregate is
#     a comment, as OpenSM matches whole 64-bit prefixes only.
check "route add fec0:0:0:9::/64 via b" ctl route add fec0:0:0:9::/64 port b lid 0x21
check "route add fec0:0:0:7::/64 via a" ctl route add fec0:0:0:7::/64 port a lid 0x22
check "route add fec0:1::/32 via b" ctl route add fec0:1::/32 port b lid 0x21
ctl show osm-prefix-routes a > "$T/osm_a.txt" 2>&1
cat > "$T/osm_a.golden" <<'EOG'
# OpenSM prefix_routes_file for port a of ibrouterd "sim"
# router port GUID 0x0002c90300000101, subnet prefix fec0:0:0:1::/64
0xfec0000000000002 0x0002c90300000101 # fec0:0:0:2::/64 via b
0xfec0000000000009 0x0002c90300000101 # fec0:0:0:9::/64 via b
# fec0:1::/32 via b: not expressible (OpenSM matches whole 64-bit prefixes only)
EOG
check "osm-prefix-routes a: the golden file" diff -u "$T/osm_a.golden" "$T/osm_a.txt"
ctl show osm-prefix-routes b > "$T/osm_b.txt" 2>&1
check "osm-prefix-routes b: a's prefix with b's port GUID" grep -qx '0xfec0000000000001 0x0002c90300000102 # fec0:0:0:1::/64 via a' "$T/osm_b.txt"
check "osm-prefix-routes b: the route via a" grep -qx '0xfec0000000000007 0x0002c90300000102 # fec0:0:0:7::/64 via a' "$T/osm_b.txt"
check "osm-prefix-routes b: nothing via b, not b's own prefix" sh -c "! grep -v '^#' \"$T/osm_b.txt\" | grep -q 'via b\|0xfec0000000000002\|0xfec0000000000009'"
# every line parses as OpenSM's parse_prefix_routes_file() does: a comment
# ('#' first), or hex prefix (or '*'), hex GUID, then only a '#' comment
check "osm-prefix-routes: lines OpenSM parses" awk '
	$1 ~ /^#/ { next }
	NF < 2 || $1 !~ /^(\*|0x[0-9a-f]+)$/ || $2 !~ /^0x[0-9a-f]+$/ || (NF > 2 && $3 !~ /^#/) || length($0) > 1022 { bad = 1; print "bad: " $0 }
	END { exit bad }' "$T/osm_a.txt" "$T/osm_b.txt"
ctl -j show osm-prefix-routes a > "$T/osm_a.json"
check "osm-prefix-routes a: JSON" grep -qx '{"ok":true,"data":{"port":"a","guid":"0x0002c90300000101","routes":\[{"prefix":"fec0:0:0:2::/64","osm_prefix":"0xfec0000000000002","guid":"0x0002c90300000101","via":"b"},{"prefix":"fec0:0:0:9::/64","osm_prefix":"0xfec0000000000009","guid":"0x0002c90300000101","via":"b"}\],"skipped":\[{"prefix":"fec0:1::/32","via":"b","reason":"aggregate"}\]}}' "$T/osm_a.json"
ctl -j show osm-prefix-routes b > "$T/osm_b.json"
check "osm-prefix-routes b: JSON" grep -qx '{"ok":true,"data":{"port":"b","guid":"0x0002c90300000102","routes":\[{"prefix":"fec0:0:0:1::/64","osm_prefix":"0xfec0000000000001","guid":"0x0002c90300000102","via":"a"},{"prefix":"fec0:0:0:7::/64","osm_prefix":"0xfec0000000000007","guid":"0x0002c90300000102","via":"a"}\],"skipped":\[\]}}' "$T/osm_b.json"
check "route add ::/0 via b" ctl route add ::/0 port b lid 0x21
check "osm-prefix-routes a: a default route is the wildcard '*', after the /64s" sh -c "\"$CTL\" -s \"$T/ctl.sock\" show osm-prefix-routes a | grep -v '^#' | tail -1 | grep -qx '\* 0x0002c90300000101 # ::/0 via b'"
for r in fec0:0:0:9::/64 fec0:0:0:7::/64 fec0:1::/32 ::/0; do ctl route del $r > /dev/null; done
check "osm-prefix-routes a: back to b's prefix only" sh -c "[ \"\$(\"$CTL\" -s \"$T/ctl.sock\" show osm-prefix-routes a | grep -v '^#')\" = '0xfec0000000000002 0x0002c90300000101 # fec0:0:0:2::/64 via b' ]"
ctl show osm-prefix-routes zz > "$T/osm_err1.out" 2>&1
rc=$?
check "osm-prefix-routes: unknown port is ENOENT (exit 1)" sh -c "[ $rc -eq 1 ] && grep -q \"no port 'zz' (ENOENT)\" \"$T/osm_err1.out\""
ctl show osm-prefix-routes > "$T/osm_err2.out" 2>&1
rc=$?
check "osm-prefix-routes: no PORT is a usage error (exit 2, EINVAL, the usage)" sh -c "[ $rc -eq 2 ] && grep -q 'usage: show osm-prefix-routes PORT (EINVAL)' \"$T/osm_err2.out\""
check "osm-prefix-routes: two ports refused" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" show osm-prefix-routes a b 2>/dev/null"
check "help lists show osm-prefix-routes" sh -c "\"$CTL\" -s \"$T/ctl.sock\" help | grep -q '^show osm-prefix-routes PORT'"

# 8. errors are replies, not crashes
check "unknown command refused" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" frobnicate 2>/dev/null"
check "bad prefix refused" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" route add nonsense port b lid 1 2>/dev/null"
check "daemon still answers" ctl version

# 9. 1000 clients at once are all answered, while one that never reads its
#    (large) answer stays connected; then the daemon still answers
for i in $(seq 1 2000); do echo "route \"fec0:1:$i::/48\" {"; echo ' port = "b"'; echo ' via = 7'; echo '}'; done > "$T/many.conf"
EXTRA_CONF=$(cat "$T/many.conf")
write_conf
check "reload with 2000 more routes" ctl reload
check "1000 concurrent show routes answered" "$BUILD/tests/sim/ctl_stress" "$T/ctl.sock" 1000
check "daemon still answers after the stress" ctl version
ctl -j show osm-prefix-routes a > "$T/osm_many.json"
check "osm-prefix-routes a, 2000 aggregates: several parts, each a whole object, in one JSON document (-j)" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
parts = d['data']
assert d['ok'] is True and len(parts) > 1, len(parts)
assert all(p['port'] == 'a' and p['guid'] == '0x0002c90300000101' and 'routes' in p and 'skipped' in p for p in parts)
" "$T/osm_many.json"
check "osm-prefix-routes a, 2000 aggregates: all skipped, one route" sh -c "[ \$(grep -o '\"reason\":\"aggregate\"' \"$T/osm_many.json\" | wc -l) -eq 2000 ] && [ \$(grep -o '\"osm_prefix\"' \"$T/osm_many.json\" | wc -l) -eq 1 ]"
check "osm-prefix-routes a, 2000 aggregates: text" sh -c "[ \$(\"$CTL\" -s \"$T/ctl.sock\" show osm-prefix-routes a | grep -c 'not expressible') -eq 2000 ]"

# 10. state-changing commands from an unprivileged user are refused
if command -v setpriv > /dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	chmod 0666 "$T/ctl.sock"
	chmod 0755 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$CTL" -s "$T/ctl.sock" route add fec0:0:0:8::/64 port b lid 9 > "$T/eperm.out" 2>&1
	check "unprivileged route add refused (EPERM)" grep -q 'not allowed for this user (EPERM)' "$T/eperm.out"
	check "unprivileged show allowed" setpriv --reuid=65534 --regid=65534 --clear-groups "$CTL" -s "$T/ctl.sock" version
	chmod 0700 "$T"
fi

# 11. the daemon's own capture: drops on port a, then everything on port b
check "capture start (drops)" ctl capture start a "$T/drops.pcap" drops
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --hoplimit 1 -c 2
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 3
sleep 0.2
ctl -j capture stop > "$T/capstop.json"
check "capture stop: the 2 dropped packets, not the 3 forwarded" grep -q '"packets":2}' "$T/capstop.json"
check "capture stop without a capture fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" capture stop 2>/dev/null"
check "capture start (all, count 4)" ctl capture start b "$T/all.pcap" all count 4
recv_bg b "$T/b.peer" -q -c 5 -t 5000 --expect-count 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 5
check "B received the 5 packets while port b was captured" recv_wait b
sleep 1.2 # the control loop closes a capture that reached its count within a second
check "a capture that reached its count is closed" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" capture stop 2>/dev/null"

# 12. the captures decode in tshark (when installed)
if command -v tshark > /dev/null 2>&1; then
	tshark -r "$T/b.pcap" -T fields -e infiniband.lrh.dlid -e infiniband.grh.hoplmt 2>/dev/null | sort -u > "$T/tshark.out"
	check "tshark decodes the capture (DLID 5, hop limit 63)" grep -q '^5	63$' "$T/tshark.out"
	check "tshark decodes the daemon's drop capture (hop limit 1)" sh -c "tshark -r \"$T/drops.pcap\" -T fields -e infiniband.grh.hoplmt 2>/dev/null | grep -qx 1"
	check "the daemon's capture of port b holds 4 sent packets (SLID 16)" sh -c "[ \$(tshark -r \"$T/all.pcap\" -T fields -e infiniband.lrh.slid 2>/dev/null | grep -cx 16) -eq 4 ]"
fi

# 13. the SMA on the wire: a directed-route NodeInfo Get shows a Router node;
#     a PortInfo Set of port b's LID (as OpenSM does) becomes the SLID of the
#     next packet forwarded out of b
"$HOST" -s "$T/a.peer" -p "$T/a.sock" -t 2000 smp nodeinfo > "$T/ni.txt" 2>&1
check "smp nodeinfo: NodeType Router" grep -q '^NodeType:\.*Router$' "$T/ni.txt"
check "smp nodeinfo: the configured node GUID" grep -q '^Guid:\.*0x0002c90300000100$' "$T/ni.txt"
"$HOST" -s "$T/b.peer" -p "$T/b.sock" -t 2000 smp portinfo set-lid 0x33 set-prefix 0xfec0000000000002 > "$T/pi.txt" 2>&1
check "smp portinfo set: GetResp with LID 0x33" grep -q '^Lid:\.*51$' "$T/pi.txt"
recv_bg b "$T/b.peer" -c 3 -t 5000 --expect-count 3 --expect-slid 0x33 --expect-dlid 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 3
check "the next packets out of b carry SLID 0x33" recv_wait b
check "show ports has b's new LID" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"b\".*\"lid\":\"0x0033\"'"

# 14. clean shutdown within 2 s, socket and pid file removed
kill -TERM "$RPID"
i=0
while kill -0 "$RPID" 2>/dev/null && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
check "SIGTERM: stopped within 2 s" sh -c "! kill -0 $RPID 2>/dev/null"
check "SIGTERM: control socket and pid file removed" sh -c "[ ! -e \"$T/ctl.sock\" ] && [ ! -e \"$T/ibrouterd.pid\" ]"
finish
