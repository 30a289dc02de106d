#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# verbs_roce_e2e.sh - IB <-> RoCE bridging with verbs on both sides:
# ibrouterd linked with the fake verbs provider (tests/fakes), port a an IB
# HCA port (mlx5_0, LID 1, subnet fec0:0:0:1::/64), port b a RoCE v2 port
# (the fake's RoCE mode, rxe0: no LIDs, GID fd00:b::1 from its netdev), and
# ibrouter-host on the sim wires behind them.  Multicast and proxied UD
# unicast both ways through the same verbs code with the two address models:
# LIDs and MLIDs on a, GIDs alone (DLID 0) on b; what becomes of HopLmt,
# TClass and FlowLabel between them; the engine's checks on every packet
# (HopLmt 1 dropped, a payload above the RoCE port's MTU dropped); static
# groups without receivers on the RoCE port stay so (added, from the file,
# at start and across a reload, which keeps the port a RoCE port); what the
# log says of its GID changes.  A real
# HCA and a real RoCE NIC in one router can only be shown on hardware: the
# VM lab has rxe alone (tests/vm/vm_roce.sh, 8, uses a sim IB port).
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/../sim/lib.sh"
IBRD=$BUILD/tests/verbs/ibrouterd-fakeverbs

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A
A_RTR=fec0::1:0:0:0:1	# the IB HCA port's GID 0
B_HOST=fd00:b::2	# a RoCE host: its GID is its address
B_RTR=fd00:b::1		# the RoCE port's RoCE v2 GID (index 1 of the fake's table)
QKEY=0x0b1b

FAKE_VERBS_DEVICES="mlx5_0,$T/a.sock,$T/a.peer,1,$A_RTR;rxe0,$T/b.sock,$T/b.peer,0,$B_RTR,roce"
export FAKE_VERBS_DEVICES

write_conf() {
	cat > "$T/ibrouterd.conf" <<EOC
router {
	name = "bridge"
	node-guid = 0x0002c90300000500
}
port "a" {
	data = verbs
	device = "mlx5_0"
}
port "b" {
	data = verbs
	device = "rxe0"
}
neighbour "0x0000000000100001" {
	port = "a"
	lid = 3
}
proxy "$B_HOST" {
	port = "a"
	qpn = 0x42
	qkey = 0x1234
}
proxy "$A_HOST" {
	port = "b"
	qpn = 0x42
	qkey = 0x4321
}
control {
	socket = "$T/ctl.sock"
}
pid-file = "$T/ibrouterd.pid"
EOC
}

start_router || exit 1
ctl -j show ports > "$T/ports.json"
check "a: an IB port, LID and prefix from its HCA port" \
	grep -q '"name":"a","guid":"0x0002c90300000501","prefix":"fec0:0:0:1::","lid":"0x0001",.*"link":"infiniband"' "$T/ports.json"
check "b: a RoCE port, prefix and GUID from its RoCE v2 GID, no LID" \
	grep -q '"name":"b","guid":"0x0000000000000001","prefix":"fd00:b::","lid":"0x0000",.*"up":true,.*"link":"ethernet"' "$T/ports.json"
check "b's connected route is its address's /64" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes | grep -q '\"prefix\":\"fd00:b::/64\",\"source\":\"connected\",\"port\":\"b\"'"

# 1. IB -> RoCE multicast: the RoCE side has no LIDs (DLID 0, SLID 0), the
#    router's RoCE GID as the source, HopLmt 64 - 1, TClass kept, FlowLabel 0
#    (as rxe sends it: the fake's RoCE mode does the same)
check "mcast add (a, senders)" ctl mcast add ff15::5 port a mlid 0xc001 senders
check "mcast add (b, receivers)" ctl mcast add ff15::5 port b mlid 0xc002 receivers
sleep 0.3
recv_bg b "$T/b.peer" -c 4 -t 5000 --expect-count 4 --expect-dlid 0 --expect-slid 0 \
	--expect-sgid $B_RTR --expect-dgid ff15::5 --expect-qpn 0xffffff --expect-qkey $QKEY \
	--expect-hoplimit 63 --expect-tclass 0x20 --expect-flowlabel 0 --expect-size 500
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::5 --qpn 0xffffff --qkey $QKEY \
	--tclass 0x20 --flowlabel 0x54321 --size 500 -c 4
check "multicast IB -> RoCE" recv_wait b

# 2. RoCE -> IB multicast: to the group's MLID in A, from the router's LID and GID 0
check "mcast add (b, senders)" ctl mcast add ff15::6 port b mlid 0xc003 senders
check "mcast add (a, receivers)" ctl mcast add ff15::6 port a mlid 0xc011 sl 2 receivers
sleep 0.3
recv_bg a "$T/a.peer" -c 3 -t 5000 --expect-count 3 --expect-dlid 0xc011 --expect-slid 1 \
	--expect-sl 2 --expect-sgid $A_RTR --expect-dgid ff15::6 --expect-qpn 0xffffff \
	--expect-qkey $QKEY --expect-hoplimit 63 --expect-tclass 0x48 --expect-size 700
send_b --slid 0 --dlid 0 --sgid $B_HOST --dgid ff15::6 --qpn 0xffffff --qkey $QKEY \
	--tclass 0x48 --size 700 -c 3
check "multicast RoCE -> IB" recv_wait a

# 3. proxied UD unicast IB -> RoCE: A sends to the router's LID and a's proxy
#    QPN; B's QP 0x42 gets it, addressed by GID alone, from b's proxy
QA=$(ctl -j show proxies a | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
QB=$(ctl -j show proxies b | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
recv_bg b "$T/b.peer" -c 3 -t 5000 --expect-count 3 --expect-dlid 0 --expect-sgid $B_RTR \
	--expect-dgid $B_HOST --expect-qpn 0x42 --expect-qkey 0x1234 --expect-hoplimit 63 \
	--expect-size 200
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --qpn "$QA" --src-qp 0x42 \
	--qkey 0x1234 --size 200 -c 3
check "unicast IB -> RoCE through a's proxy" recv_wait b

# 4. and back: B sends to the router's RoCE GID (on Ethernet the IP layer
#    delivers to the router's own address only, not through it) and b's proxy
#    QPN, whose remote names A's host; A's host gets it at its LID (the
#    neighbour's), from the router's LID
recv_bg a "$T/a.peer" -c 3 -t 5000 --expect-count 3 --expect-dlid 3 --expect-slid 1 \
	--expect-sgid $A_RTR --expect-dgid $A_HOST --expect-qpn 0x42 --expect-qkey 0x4321 \
	--expect-hoplimit 63 --expect-size 900
send_b --slid 0 --dlid 0 --sgid $B_HOST --dgid $B_RTR --qpn "$QB" --src-qp 0x42 \
	--qkey 0x4321 --size 900 -c 3
check "unicast RoCE -> IB through b's proxy" recv_wait a

# 5. the engine's checks on a RoCE ingress: HopLmt 1 (C8-16); and IB -> RoCE
#    above the RoCE port's MTU (1024): dropped, counted
recv_bg a "$T/a.peer" -t 700 --expect-count 0
send_b --slid 0 --dlid 0 --sgid $B_HOST --dgid ff15::6 --qpn 0xffffff --qkey $QKEY \
	--hoplimit 1 -c 2
check "HopLmt 1 from RoCE is not forwarded" recv_wait a
check "hoplmt drops counted on b (2)" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show drops b | grep -q '\"reason\":\"hoplmt\",\"count\":2'"
recv_bg b "$T/b.peer" -t 700 --expect-count 0
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::5 --qpn 0xffffff --qkey $QKEY \
	--size 2048 -c 2
check "2048 bytes IB -> RoCE (MTU 1024) are not forwarded" recv_wait b
check "mtu drops counted on a (2)" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show drops a | grep -q '\"reason\":\"mtu\",\"count\":2'"

ctl -j show verbs > "$T/verbs.json"
check "show verbs: b on RoCE v2 GID index 1, MTU 1024, nothing refused" \
	grep -q '"port":"b","device":"rxe0:1","link":"ethernet","state":"active","gid":"fd00:b::1","sgid_index":1,"mtu":1024,.*"tx_no_ah":0,"tx_down":0,' "$T/verbs.json"

# 6. a static group says where it is fed: receivers = false on the RoCE port
#    stays so (show mcast, and nothing forwarded there), though the bridging
#    policy joins the group there (it finds the static one)
check "mcast add ff15::1:9 port b senders (no receivers there)" \
	ctl mcast add ff15::1:9 port b mlid 0xc003 senders
check "mcast add ff15::1:9 port a receivers" ctl mcast add ff15::1:9 port a mlid 0xc004 receivers
sleep 0.3
mc_b() { # mc_b MGID RECEIVERS SENDERS: b's row of show mcast MGID
	ctl -j show mcast "$1" | grep -q "\"mgid\":\"$1\",\"port\":\"b\",[^}]*\"receivers\":$2,\"senders\":$3,\"source\":\"static\""
}
check "show mcast: b has no receivers of ff15::1:9, as added" mc_b ff15::1:9 false true
recv_bg b "$T/b.peer" -t 700 --expect-count 0
send_a --slid 3 --dlid 0xc004 --sgid $A_HOST --dgid ff15::1:9 --qpn 0xffffff --qkey $QKEY -c 2
check "nothing of ff15::1:9 goes into b, which has no receivers" recv_wait b

# 6b. a reload that keeps the verbs ports open: b stays a RoCE port (link,
#     GUID from its GID, MTU, connected route by GID), the groups added above
#     stay, and a group of the file with receivers = false on b shows so
cat >> "$T/ibrouterd.conf" << EOC
mcast "ff15::1:a" {
	port = "b"
	mlid = 0xc005
	receivers = false
}
mcast "ff15::1:a" {
	port = "a"
	mlid = 0xc006
	senders = false
}
EOC
check "reload with the file's groups ff15::1:a (no receivers on b)" ctl reload
sleep 0.3
ctl -j show ports > "$T/ports2.json"
check "after the reload b is still a RoCE port: GUID, MTU 1024, link ethernet" \
	grep -q '"name":"b","guid":"0x0000000000000001","prefix":"fd00:b::","lid":"0x0000",.*"mtu":1024,"up":true,.*"link":"ethernet"' "$T/ports2.json"
check "... and its connected route is by GID" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes | grep -q '\"prefix\":\"fd00:b::/64\",\"source\":\"connected\",\"port\":\"b\",\"via\":\"gid\"'"
check "show mcast: the file's receivers = false on b shows as no" mc_b ff15::1:a false true
check "show mcast: ff15::1:9 on b still without receivers" mc_b ff15::1:9 false true

# 7. a GID change on the RoCE port: the log names the GID the port uses (its
#    RoCE v2 GID of an address, not the link-local one at index 0), and warns
#    when there is only a link-local one
FVCTL=$BUILD/tests/fakes/fake_verbs_ctl
check "RoCE b: a new address (GID change)" "$FVCTL" "$T/b.sock.ctl" gid fd00:b::7
sleep 0.3
check "the log names the GID b uses, its index and kind" \
	grep -q 'verbs: port b: GID change: fd00:b::7 (index 1, RoCE v2)$' "$T/ibrouterd.log"
check "RoCE b: only a link-local address left" "$FVCTL" "$T/b.sock.ctl" gid fe80::21
sleep 0.3
check "the log warns that b has a link-local GID only" \
	grep -q 'verbs: port b: GID change: fe80::21 (index 0, RoCE v2), link-local: no RoCE v2 GID of an IPv4 or global IPv6 address' "$T/ibrouterd.log"
check "RoCE b: its IPv4 address (an IPv4-mapped GID)" "$FVCTL" "$T/b.sock.ctl" gid ::ffff:10.0.0.1
sleep 0.3
check "the log names it as an IPv4 address's GID" \
	grep -q 'verbs: port b: GID change: ::ffff:10.0.0.1 (index 1, RoCE v2)$' "$T/ibrouterd.log"
check "the start's log line gives b's GID, not a LID" \
	grep -q 'router: port b: verbs rxe0:1, GID fd00:b::1 (index 1, RoCE v2), relay QPN' "$T/ibrouterd.log"

# 8. the daemon started with the file's group: receivers = false on b shows so
kill "$RPID"
wait "$RPID" 2> /dev/null
"$IBRD" -d -f "$T/ibrouterd.conf" > "$T/ibrouterd2.log" 2>&1 &
RPID=$!
PIDS="$PIDS $RPID"
for _ in $(seq 1 100); do ctl version > /dev/null 2>&1 && break; sleep 0.05; done
sleep 0.3
check "started with the file's ff15::1:a: no receivers on b, as the file says" mc_b ff15::1:a false true

finish
