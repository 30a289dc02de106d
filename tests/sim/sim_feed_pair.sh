#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_feed_pair.sh - two routers carry one feed between the same two
# subnets (ibrouterd.conf(5), hop-limit): no ping-pong.  Each subnet is a
# sim_switch (multicast to every port but the sender's) with a host and a
# port of each router.  A host in A sends 5 datagrams to rdma_cm's MGID of
# 239.1.1.1 with HopLmt 64; each router sends them into B under IPoIB's
# MGID with HopLmt 1, so the host in B gets every datagram twice (one copy a
# router, as the man page says), and each router drops the other's copies
# in B (hoplmt, C8-16) instead of sending them back into A: a listener in A
# hears the sender's 5 and nothing more.  Before hop-limit (copies at HopLmt 63), each router
# took the other's copy from B and sent it back into A, round after round.
. "$(dirname "$0")/lib.sh"

SWITCH=$BUILD/tests/lab/sim_switch
A_HOST=fec0::1:0:0:10:1
A_MGID=ff12:4001:ffff::f01:101
B_MGID=ff15:401b:ffff::f01:101
Q=0x01234567

# the wires: LID 3 host A (sends), LID 4 a listener in A; LID 5 host B
"$SWITCH" "$T/swA.sock" 3="$T/hA.sock" 4="$T/hA2.sock" 1="$T/r1a.sock" 2="$T/r2a.sock" \
	> "$T/swA.out" 2>&1 &
PIDS="$PIDS $!"
"$SWITCH" "$T/swB.sock" 5="$T/hB.sock" 0x10="$T/r1b.sock" 0x11="$T/r2b.sock" \
	> "$T/swB.out" 2>&1 &
PIDS="$PIDS $!"

# router_conf I: router I (1 or 2) on both wires, the feed on both ports
router_conf() {
	cat <<EOC
router {
	name = "r$1"
	node-guid = 0x0002c9030000010$1
}
port "a" {
	data = sim
	sim-socket = "$T/r$1a.sock"
	sim-peer = "$T/swA.sock"
	lid = $1
	subnet-prefix = "fec0:0:0:1::"
}
port "b" {
	data = sim
	sim-socket = "$T/r$1b.sock"
	sim-peer = "$T/swB.sock"
	lid = $((0x10 + $1 - 1))
	subnet-prefix = "fec0:0:0:2::"
}
mcast "$A_MGID" {
	port = "a"
	mlid = 0xc001
	qkey = $Q
	feed = "md"
}
mcast "$B_MGID" {
	port = "b"
	mlid = 0xc002
	qkey = $Q
	feed = "md"
}
control {
	socket = "$T/ctl$1.sock"
}
pid-file = "$T/r$1.pid"
EOC
}

start_one() {
	router_conf "$1" > "$T/r$1.conf"
	"$IBRD" -d -f "$T/r$1.conf" > "$T/r$1.log" 2>&1 &
	PIDS="$PIDS $!"
	for _ in $(seq 1 100); do
		"$CTL" -s "$T/ctl$1.sock" version > /dev/null 2>&1 && return 0
		sleep 0.05
	done
	echo "router $1 did not start:"; cat "$T/r$1.log"
	return 1
}
check "router 1 starts with the feed" start_one 1
check "router 2 too, on the same two subnets" start_one 2

# the receivers bound before the first datagram (the switch drops what it cannot deliver)
recv_bg b "$T/hB.sock" -c 10 -t 5000 --expect-count 10 --expect-dgid $B_MGID \
	--expect-dlid 0xc002 --expect-qkey $Q --expect-hoplimit 1 --expect-size 300
recv_bg a2 "$T/hA2.sock" -c 100 -t 3000 --expect-count 5 --expect-hoplimit 64
for _ in $(seq 1 100); do
	[ -S "$T/hB.sock" ] && [ -S "$T/hA2.sock" ] && break
	sleep 0.05
done
"$HOST" -s "$T/hA.sock" -p "$T/swA.sock" send -q --slid 3 --dlid 0xc001 --sgid $A_HOST \
	--dgid $A_MGID --qpn 0xffffff --qkey $Q --hoplimit 64 --size 300 -c 5
check "B gets each datagram once from each router: 10, HopLmt 1, B's MGID" recv_wait b
check "nothing comes back into A: a listener there hears the 5 sent, HopLmt 64, no more" \
	recv_wait a2
for i in 1 2; do
	"$CTL" -s "$T/ctl$i.sock" -j show counters > "$T/c$i.json"
	"$CTL" -s "$T/ctl$i.sock" -j show drops > "$T/d$i.json"
	check "router $i sent 5 into B and none into A" sh -c \
		"grep -q '\"port\":\"b\",[^}]*\"tx_packets\":5,' '$T/c$i.json' &&
		grep -q '\"port\":\"a\",[^}]*\"tx_packets\":0,' '$T/c$i.json'"
	check "router $i dropped the other's 5 copies in B for their HopLmt (C8-16)" sh -c \
		"tr '{' '\n' < '$T/d$i.json' | grep '\"port\":\"b\"' | grep '\"reason\":\"hoplmt\"' |
		grep -q '\"count\":5[,}]'"
done
check "show mcast names the feed" sh -c \
	"\"$CTL\" -s \"$T/ctl1.sock\" -j show mcast | grep -q '\"mgid\":\"$B_MGID\"[^}]*\"feed\":\"md\"'"
if [ "$nfail" -ne 0 ]; then
	for i in 1 2; do echo "# router $i:"; sed 's/^/#   /' "$T/c$i.json" "$T/d$i.json"; done
fi
finish
