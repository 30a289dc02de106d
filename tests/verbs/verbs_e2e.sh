#!/bin/sh
# verbs_e2e.sh - ibrouterd with two data = verbs ports, linked with the fake
# verbs provider (tests/fakes) whose HCA ports are sim wire ports, and
# ibrouter-host on both sides: the verbs backend between real IB packets.
# Multicast across subnets (the worker attaches the relay QPs to the groups
# the FIB has), the UD model's source rewrite, HopLmt, drops, and UD unicast
# through a pair of proxies (ibrouterctl proxy add, show proxies).
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/../sim/lib.sh"
IBRD=$BUILD/tests/verbs/ibrouterd-fakeverbs

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A
B_HOST=fec0::2:0:0:11:1 # GUID 0x110001, LID 5 in subnet B
A_RTR=fec0::1:0:0:0:1 # the HCA port's GID 0 on subnet A
B_RTR=fec0::2:0:0:0:1
QKEY=0x0b1b # the relay QP's Q_Key (io_verbs.h)

# the fake HCAs: mlx5_0 on subnet A with LID 1, mlx5_1 on subnet B with LID 0x10
FAKE_VERBS_DEVICES="mlx5_0,$T/a.sock,$T/a.peer,1,$A_RTR;mlx5_1,$T/b.sock,$T/b.peer,0x10,$B_RTR"
export FAKE_VERBS_DEVICES

# lid: with mad = none the config names the LIDs (the HCAs' here); with
# mad = umad a router port without one takes its HCA port's LID
write_conf() {
	cat > "$T/ibrouterd.conf" <<EOC
router {
	name = "verbs"
	node-guid = 0x0002c90300000200
}
port "a" {
	data = verbs
	device = "mlx5_0"
	lid = 1
	subnet-prefix = "fec0:0:0:1::"
}
port "b" {
	data = verbs
	device = "mlx5_1"
	device-port = 1
	lid = 0x10
	subnet-prefix = "fec0:0:0:2::"
}
neighbour "0x0000000000100001" {
	port = "a"
	lid = 3
}
neighbour "0x0000000000110001" {
	port = "b"
	lid = 5
}
control {
	socket = "$T/ctl.sock"
}
pid-file = "$T/ibrouterd.pid"
EOC
}

start_router || exit 1
check "port a opened on mlx5_0:1" grep -q 'port a: verbs mlx5_0:1, LID 0x0001, relay QPN 0x000100, active' "$T/ibrouterd.log"
check "port b opened on mlx5_1:1" grep -q 'port b: verbs mlx5_1:1, LID 0x0010' "$T/ibrouterd.log"

# 1. multicast: a site-scope group with senders in A and receivers in B
check "mcast add (a, senders)" ctl mcast add ff15::1 port a mlid 0xc001 senders
check "mcast add (b, receivers)" ctl mcast add ff15::1 port b mlid 0xc002 sl 3 receivers
sleep 0.3 # the worker attaches the relay QPs within its 100 ms idle wake-up
# UD model: the HCA builds the headers, so the source is the router's port b
recv_bg b "$T/b.peer" -c 6 -t 5000 --expect-count 6 --expect-dlid 0xc002 --expect-sl 3 \
	--expect-slid 0x10 --expect-sgid $B_RTR --expect-dgid ff15::1 --expect-qpn 0xffffff \
	--expect-qkey $QKEY --expect-hoplimit 63 --expect-flowlabel 0x54321 --expect-size 300
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff --qkey $QKEY \
	--flowlabel 0x54321 --size 300 -c 6
check "multicast A to B through the verbs backend" recv_wait b

# 2. drops: HopLmt 1 (C8-16) and a group the FIB does not have (never attached:
#    the HCA filters it); B receives nothing
recv_bg b "$T/b.peer" -t 700 --expect-count 0
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff --qkey $QKEY \
	--hoplimit 1 -c 3
send_a --slid 3 --dlid 0xc009 --sgid $A_HOST --dgid ff15::9 --qpn 0xffffff --qkey $QKEY -c 2
check "dropped packets do not reach B" recv_wait b
ctl -j show drops a > "$T/drops.json"
check "hoplmt drops counted (3)" grep -q '"reason":"hoplmt","count":3' "$T/drops.json"

# 3. counters: 9 received on a (6 + 3), 6 sent on b
ctl -j show counters > "$T/counters.json"
check "counters: a received 9" grep -q '"port":"a","rx_packets":9,' "$T/counters.json"
check "counters: b sent 6" grep -q '"port":"b","rx_packets":0,"rx_bytes":0,"tx_packets":6,' "$T/counters.json"

# 4. after mcast del the relay QP leaves the group: nothing more crosses
check "mcast del (a)" ctl mcast del ff15::1 port a
sleep 0.3
recv_bg b "$T/b.peer" -t 700 --expect-count 0
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff --qkey $QKEY -c 2
check "after mcast del: nothing crosses" recv_wait b

# 5. UD unicast: a proxy on a stands for B's QP 0x42, one on b for A's QP 0x42
check "proxy add (a -> B host)" ctl proxy add a $B_HOST 0x42 qkey 0x1234
check "proxy add (b -> A host)" ctl proxy add b $A_HOST 0x42 qkey 0x4321
check "proxy add twice fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" proxy add a $B_HOST 0x42"
check "proxy add on an unknown port fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" proxy add c $B_HOST 0x42"
ctl -j show proxies > "$T/proxies.json"
check "show proxies: a's QP stands for B host's QP" grep -q '"port":"a","qpn":"0x[0-9a-f]*","gid":"fec0::2:0:0:11:1","remote_qpn":"0x000042","qkey":"0x00001234"' "$T/proxies.json"
check "show proxies: b's for A host's" grep -q '"port":"b","qpn":"0x[0-9a-f]*","gid":"fec0::1:0:0:10:1","remote_qpn":"0x000042","qkey":"0x00004321"' "$T/proxies.json"
# the QPNs the HCAs gave the proxies: what senders must use
QA=$(ctl -j show proxies a | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
QB=$(ctl -j show proxies b | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
check "show proxies b lists one" sh -c "[ \$(\"$CTL\" -s \"$T/ctl.sock\" -j show proxies b | grep -o '\"port\"' | wc -l) -eq 1 ]"
# A sends to the router's LID and a's proxy QPN; B gets it at QPN 0x42 from b's
# proxy (the one standing for A's QP), so that a reply reaches A
recv_bg b "$T/b.peer" -c 5 -t 5000 --expect-count 5 --expect-dlid 5 --expect-slid 0x10 \
	--expect-sgid $B_RTR --expect-dgid $B_HOST --expect-qpn 0x42 --expect-qkey 0x1234 \
	--expect-hoplimit 63 --expect-size 100
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --qpn "$QA" --src-qp 0x42 \
	--qkey 0x1234 --size 100 -c 5
check "unicast A to B through a's proxy QP" recv_wait b
recv_bg a "$T/a.peer" -c 3 -t 5000 --expect-count 3 --expect-dlid 3 --expect-sgid $A_RTR \
	--expect-dgid $A_HOST --expect-qpn 0x42 --expect-qkey 0x4321
send_b --slid 5 --dlid 0x10 --sgid $B_HOST --dgid $A_HOST --qpn "$QB" --src-qp 0x42 \
	--qkey 0x4321 -c 3
check "the reply B to A through b's proxy QP" recv_wait a
# multicast still crosses after the ports were reopened for the proxies
check "mcast add (a, senders) again" ctl mcast add ff15::1 port a mlid 0xc001 senders
sleep 0.3
recv_bg b "$T/b.peer" -c 2 -t 5000 --expect-count 2 --expect-dgid ff15::1
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff --qkey $QKEY -c 2
check "multicast after the proxies" recv_wait b
check "proxy del" ctl proxy del a $B_HOST 0x42
check "proxy del again fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" proxy del a $B_HOST 0x42"
check "help lists proxy add" sh -c "\"$CTL\" -s \"$T/ctl.sock\" help | grep -q '^proxy add PORT GID QPN'"

finish
