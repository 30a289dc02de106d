#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# vm_mckey.sh - rdma-core's own multicast test, mckey (librdmacm, the RDMA
# CM), unmodified, across the router between two RoCE v2 subnets with an
# IPv4 group, 239.1.1.1 (its GID ::ffff:239.1.1.1, the router's mcast
# sections): ibrouterd in a router guest on rxe0 (link a, 10.0.10.0/24,
# fd00:a::/64) and rxe1 (link b, 10.0.20.0/24, fd00:b::/64), both with IP
# forwarding off, so that only the daemon can carry a datagram across.
#
# Topology: a lab link joins exactly two guests (vm_boot), so, as in
# vm_roce.sh, the hosts are one guest with a NIC on each link: host A is its
# rxe0 (eth0, 10.0.10.2), host B its rxe1 (eth1, 10.0.20.2); mckey -b binds
# the address, which picks the device.  That guest does not forward either;
# "without the daemon" (8.) shows that nothing gets from A to B inside it.
# The group is a feed (7.): an IB host on a sim port of the router sends
# to it and receives it under rdma_cm's MGID for it.
#
# mckey: -m the group, -b the address to bind, -s send, -C the count, -S the
# size, -o join send-only (no IP membership on the sender's netdev, hence no
# multicast loopback to its own device: what comes in there is the
# router's).  A receiver posts -C receives, joins, waits until -C have come
# and prints "data transfers complete"; it has no timeout.  A sender joins,
# sleeps 3 s, posts -C sends at once and exits: rxe drops what it has not
# sent yet when the QP goes (no option to wait, none for a rate; -C 10000
# sends 2,000 to 6,000).  So a stream here is mckey runs, each its own burst,
# until the sending device's counter (hw_counters/sent_pkts) says exactly as
# many as wanted left it; a receiver that completes with -C the same count
# has them all.  rxe cannot do an IPv6 group on RoCE v2 (the kernel's
# rdma_cm: -ENOTSUPP, mckey's "failure joining: Unknown error 524").
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/vm_lib.sh"

IBRD=$BUILD/ibrouterd
H=$BUILD/tools/ibrouter-host
CTL="$BUILD/tools/ibrouterctl -s /run/ibr/ctl.sock"
S=/run/share
G=239.1.1.1
IBG=ff12:4001:ffff::f01:101 # rdma_cm's MGID of $G on IB (P_Key 0xffff, IPoIB's scope 2)
HA=10.0.10.2
HB=10.0.20.2
SIZE=256
# a receiver's CQ holds 2 x -C entries, rxe at most 32767
N=${N:-10000}
# The largest burst, one mckey run's -C: within the router's receive queue
# (rq-depth, 1024, less two chains of re-posts).  mckey posts its sends at
# once, and rxe in a TCG guest sends them faster than the router's guest,
# which receives each twice, drains them: a burst of 3000 lost 117 of 10,000
# at the router's ingress in one CI run (its device received all 10,000),
# as a burst longer than its queue does at any router that falls behind.
BATCH=${BATCH:-960}
GRACE=${GRACE:-10}   # how long a receiver may take after the last send

vm_need
for f in "$IBRD" "$BUILD/tools/ibrouterctl"; do
	[ -x "$f" ] || { echo "FAIL - no $f: build first"; exit 1; }
done

# both ports receive and send the group (receivers, senders: true); the Q_Key
# is the RDMA CM's for its UDP port space (RDMA_UDP_QKEY), which mckey's
# QPs have and its datagrams carry
cat > "$T/ibrouterd.conf" <<EOC
router {
	name = "vm-mckey"
	node-guid = 0x0002c90300000500
}
port "a" {
	data = verbs
	device = "rxe0"
	vcrc-check = false
}
port "b" {
	data = verbs
	device = "rxe1"
	vcrc-check = false
}
mcast "::ffff:$G" {
	port = "a"
	mlid = 0xc002
	qkey = 0x01234567
	feed = "md"
}
mcast "::ffff:$G" {
	port = "b"
	mlid = 0xc002
	qkey = 0x01234567
	feed = "md"
}
port "ib" {
	data = sim
	sim-socket = "/run/ibr/ib.sock"
	sim-peer = "/run/ibr/ib.peer"
	lid = 1
	subnet-prefix = "fec0:0:0:1::"
}
mcast "$IBG" {
	port = "ib"
	mlid = 0xc003
	qkey = 0x01234567
	feed = "md"
}
control {
	socket = "/run/ibr/ctl.sock"
}
pid-file = "/run/ibr/ibrouterd.pid"
EOC

say "booting the router guest and the hosts guest (TCG, ~20 s)"
# IPv6 and IPv4 on each link: the router's ports have both kinds of GID, an
# IPv4 group goes out from the IPv4 one
# The router guest's kernel receives every datagram twice (rxe loops the
# router's own multicast sends back to its device, and has no
# IBV_QP_CREATE_BLOCK_SELF_MCAST_LB) and sends it once, on one virtual CPU
# beside the daemon: the kernel's softirq kept the daemon off the CPU while
# a burst came in, and 3-6% of 10,000 overflowed the 1024 receives of
# the group's QP on a loaded machine.  With a second CPU the daemon drains
# the queue while the kernel fills it: a router has a core for its data path.
VM_CPUS=2
vm_boot router "fd00:a::1/64,10.0.10.1/24 fd00:b::1/64,10.0.20.1/24" a b
VM_CPUS=1
vm_boot hosts "fd00:a::2/64,$HA/24 fd00:b::2/64,$HB/24" a b
vm_ready router hosts

rctl() { vm_cmd router "$CTL $*"; }
counter() { # counter PORT NAME: the router's, from show counters -j
	rctl -j show counters "$1" 2>/dev/null | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" | head -1
}
hw() { # hw DEV NAME [GUEST]: an rxe device's counter, in hosts unless GUEST
	vm_cmd "${3:-hosts}" "cat /sys/class/infiniband/$1/ports/1/hw_counters/$2"
}
dev_of() { [ "$1" = "$HA" ] && echo rxe0 || echo rxe1; }
# mc_recv TAG ADDR COUNT: a receiver bound to ADDR, in the background until
# COUNT datagrams came; returns once it has joined (30 s at most)
mc_recv() {
	vm_spawn hosts "$1" "sh -c 'echo \$\$ > /run/tmp/$1.pid; exec timeout 600 stdbuf -oL \
		mckey -m $G -b $2 -C $3 -S $SIZE'"
	for _ in $(seq 1 300); do
		grep -q '^mckey: joined dgid' "$T/hosts.$1.out" 2>/dev/null && return 0
		[ -e "$T/hosts.$1.rc" ] && break
		sleep 0.1
	done
	echo "# receiver $1 did not join:"
	sed 's/^/#   /' "$T/hosts.$1.out" 2>/dev/null
	return 1
}
# mc_done TAG: the receiver completed (its count came) within GRACE s;
# stopped if not; its last lines in $T/TAG.txt
mc_done() {
	vm_join hosts "$1" "$GRACE" > "$T/$1.txt" 2>&1
	st=$?
	if [ $st -eq 124 ]; then
		vm_cmd hosts "kill \$(cat /run/tmp/$1.pid) 2>/dev/null"
		vm_join hosts "$1" 10 > "$T/$1.txt" 2>&1
	fi
	[ $st -eq 0 ] && grep -q '^data transfers complete' "$T/$1.txt"
}
# mc_send ADDR COUNT: mckey senders bound to ADDR until exactly COUNT left
# its device (sent_pkts), BATCH at most a run; prints "sent S in R runs, T s"
mc_send() {
	dev=$(dev_of "$1")
	vm_cmd hosts "c=/sys/class/infiniband/$dev/ports/1/hw_counters/sent_pkts; s0=\$(cat \$c); t0=\$(date +%s)
sent=0 runs=0
while [ \$sent -lt $2 ] && [ \$runs -lt $(($2 / 250 + 10)) ]; do
	n=\$(($2 - sent)); [ \$n -le $BATCH ] || n=$BATCH
	mckey -m $G -b $1 -s -o -C \$n -S $SIZE > /run/tmp/send.out 2>&1 || { cat /run/tmp/send.out; break; }
	sent=\$((\$(cat \$c) - s0)) runs=\$((runs + 1))
done
echo \"sent \$sent in \$runs runs, \$((\$(date +%s) - t0)) s\""
}
# snap: the counters a transfer's checks compare (router's ports, hosts' devices)
snap() {
	echo "$(counter a rx_packets) $(counter a tx_packets) $(counter b rx_packets) $(counter b tx_packets)" \
		"$(hw rxe0 rcvd_pkts) $(hw rxe1 rcvd_pkts) $(hw rxe0 rdma_recvs) $(hw rxe1 rdma_recvs)" \
		"$(hw rxe0 rcvd_pkts router) $(hw rxe1 rcvd_pkts router)"
}
# delta I BEFORE AFTER: the Ith counter's growth (1 a rx, 2 a tx, 3 b rx,
# 4 b tx, 5 A's rcvd_pkts, 6 B's, 7 A's rdma_recvs, 8 B's, 9 the router's
# rxe0 rcvd_pkts, 10 its rxe1's)
delta() {
	b=$(echo "$2" | cut -d' ' -f"$1")
	a=$(echo "$3" | cut -d' ' -f"$1")
	echo $((${a:-0} - ${b:-0}))
}
# xfer TAG FROM TO COUNT: COUNT datagrams from host FROM's address to the
# group, a receiver at TO's expecting them all; the checks
xfer() {
	tag=$1 from=$2 to=$3 cnt=$4
	if [ "$from" = "$HA" ]; then fp=a tp=b hf=5 ht=6; else fp=b tp=a hf=6 ht=5; fi
	c0=$(snap)
	mc_recv "$tag" "$to" "$cnt" || { fail "$tag: the receiver at $to joins"; return; }
	out=$(mc_send "$from" "$cnt")
	sleep 1 # the last ones through the router
	mc_done "$tag"
	st=$?
	c1=$(snap)
	sent=$(echo "$out" | sed -n 's/^sent \([0-9]*\) .*/\1/p')
	echo "# $from: $out"
	if [ $fp = a ]; then irx=1 itx=2 ito=4; else irx=3 itx=4 ito=2; fi
	rfx=$(delta $irx "$c0" "$c1")
	rft=$(delta $itx "$c0" "$c1")
	rtt=$(delta $ito "$c0" "$c1")
	echo "# router: port $fp rx $rfx tx $rft, port $tp tx $rtt;" \
		"$to's device received $(delta $ht "$c0" "$c1"), $from's $(delta $hf "$c0" "$c1");" \
		"the router's devices received $(delta 9 "$c0" "$c1") on a, $(delta 10 "$c0" "$c1") on b"
	tail -2 "$T/$tag.txt" | sed 's/^/# receiver: /'
	check "$tag: $cnt left $from's device (mckey, $out)" test "${sent:-0}" -eq "$cnt"
	check "$tag: the receiver at $to got them all ($cnt, mckey: data transfers complete)" test $st -eq 0
	check "$tag: $to's device received $cnt, no more" test "$(delta $ht "$c0" "$c1")" -eq "$cnt"
	check "$tag: the router received $cnt on port $fp and sent $cnt on port $tp" \
		test "$rfx" -eq "$cnt" -a "$rtt" -eq "$cnt"
	check "$tag: nothing came back: the router sent nothing on port $fp, $from's device received nothing" \
		test "$rft" -eq 0 -a "$(delta $hf "$c0" "$c1")" -eq 0
}

say "1. the router guest does not forward IP, the hosts guest neither"
for g in router hosts; do
	vm_cmd $g "sysctl net.ipv4.ip_forward net.ipv6.conf.all.forwarding" > "$T/$g.fwd"
	check "$g: net.ipv4.ip_forward = 0" grep -qx 'net.ipv4.ip_forward = 0' "$T/$g.fwd"
	check "$g: net.ipv6.conf.all.forwarding = 0" grep -qx 'net.ipv6.conf.all.forwarding = 0' "$T/$g.fwd"
done
vm_cmd hosts "ibv_devinfo -v -d rxe0 | grep -e 'GID\['" | sed 's/^[[:space:]]*/# hosts rxe0 /'

say "2. the daemon on two RoCE ports, the group ::ffff:$G on both"
vm_cmd router "mkdir -p /run/ibr; $IBRD -d -f $S/ibrouterd.conf > $S/ibrouterd.log 2>&1 &
for i in \$(seq 1 100); do [ -S /run/ibr/ctl.sock ] && break; sleep 0.1; done"
sed 's/^/# ibrouterd: /' "$T/ibrouterd.log"
check "the daemon starts with the IPv4 group's configuration" vm_cmd router "test -S /run/ibr/ctl.sock"
rctl -j show ports > "$T/ports.json" 2>&1
check "ports a and b are up" sh -c "grep -q '\"name\":\"a\"[^}]*\"up\":true' '$T/ports.json' &&
	grep -q '\"name\":\"b\"[^}]*\"up\":true' '$T/ports.json'"
rctl show mcast 2>&1 | sed 's/^/# /'
vm_cmd router "ip maddr show dev eth0; ip maddr show dev eth1" > "$T/maddr.txt"
grep "$G" "$T/maddr.txt" | sed "s/^[[:space:]]*/# router: /"
check "the router joined $G at the IP layer on both netdevs" \
	test "$(grep -Ec "inet +$G\$" "$T/maddr.txt")" -eq 2
sleep 1

say "3. 20 datagrams A -> B"
xfer ab20 $HA $HB 20
say "4. 20 datagrams B -> A"
xfer ba20 $HB $HA 20
say "5. $N datagrams A -> B, then B -> A (bursts of $BATCH at most)"
xfer ab $HA $HB "$N"
xfer ba $HB $HA "$N"

say "6. a receiver joins while the stream runs, and leaves"
# R1 on B receives the whole stream, 3 x 200 datagrams from A; R2 on B joins
# after the first 200 and takes the next 200, then leaves (mckey leaves the
# group when its count came); the last 200 reach R1 alone: per datagram one
# receive completion on B's device (rdma_recvs) without R2, two with it
P=200
mc_recv r1 $HB $((3 * P)) || fail "R1 joins"
c0=$(snap)
out=$(mc_send $HA $P)
echo "# before R2: $out"
sleep 1
c1=$(snap)
mc_recv r2 $HB $P || fail "R2 joins"
out=$(mc_send $HA $P)
echo "# with R2: $out"
sleep 1
mc_done r2
st=$?
c2=$(snap)
check "R2, joined after the first $P, received the next $P" test $st -eq 0
out=$(mc_send $HA $P)
echo "# after R2 left: $out"
sleep 1
mc_done r1
st=$?
c3=$(snap)
echo "# B's receive completions: $(delta 8 "$c0" "$c1") before R2, $(delta 8 "$c1" "$c2") with it," \
	"$(delta 8 "$c2" "$c3") after it left"
check "R1 received the whole stream, $((3 * P))" test $st -eq 0
check "each of the $P with R2 there went to both (B's rdma_recvs $((2 * P)))" \
	test "$(delta 8 "$c1" "$c2")" -eq $((2 * P))
check "after R2 left the stream went on to R1 alone (B's rdma_recvs $P)" \
	test "$(delta 8 "$c2" "$c3")" -eq $P
check "the router sent the $((3 * P)) on port b" test "$(delta 4 "$c0" "$c3")" -eq $((3 * P))

say "7. the feed: an InfiniBand host on a sim port of the router, rdma_cm's MGID of $G"
# The feed "md" names $G as rdma_cm does on each port: $IBG on the IB sim
# port (link-local: carried only as a feed), ::ffff:$G on the RoCE ports.
# A sim port's packet has no verbs buffer: the RoCE ports copy it into
# bounce buffers of their own.  The IB host's unix socket queue holds 512.
vm_cmd router "echo 512 > /proc/sys/net/unix/max_dgram_qlen"
mc_recv ib $HB 20 || fail "the receiver at B joins"
c0=$(snap)
vm_cmd router "$H -s /run/ibr/ib.peer -p /run/ibr/ib.sock send -q --slid 3 --dlid 0xc003 \
	--sgid fec0:0:0:1::10:1 --dgid $IBG --qpn 0xffffff --qkey 0x01234567 --size $SIZE -c 20 -r 50"
sleep 1
mc_done ib
st=$?
c1=$(snap)
tail -1 "$T/ib.txt" | sed 's/^/# receiver: /'
check "IB (sim, DGID $IBG) -> B: mckey at B received the 20 (data transfers complete)" test $st -eq 0
echo "# router: port b tx $(delta 4 "$c0" "$c1"), port a tx $(delta 2 "$c0" "$c1");" \
	"B's device received $(delta 6 "$c0" "$c1")"
# both RoCE ports are in the feed: a copy each
check "B's device received 20, the router sent 20 on port b and 20 on port a" \
	test "$(delta 6 "$c0" "$c1")" -eq 20 -a "$(delta 4 "$c0" "$c1")" -eq 20 -a "$(delta 2 "$c0" "$c1")" -eq 20
for p in a b; do
	rctl -j show verbs $p > "$T/verbs_$p.json"
	sed -n 's/.*\("tx_foreign":[0-9]*,"tx_bounced":[0-9]*,"tx_bounce_full":[0-9]*\).*/# port '$p': \1/p' "$T/verbs_$p.json"
	check "port $p copied them into bounce buffers (tx_bounced 20), refused none" \
		grep -qE '"tx_foreign":0,"tx_bounced":20,"tx_bounce_full":0[,}]' "$T/verbs_$p.json"
done
# A -> IB: mckey sends to ::ffff:$G, the IB host gets rdma_cm's MGID
vm_cmd router "rm -f /run/ibr/ib.peer"
vm_spawn router ri "$H -s /run/ibr/ib.peer recv -c 20 -t 60000 --expect-count 20 --expect-dgid $IBG \
	--expect-qkey 0x01234567 --expect-dlid 0xc003 --expect-size $SIZE"
vm_cmd router "for i in \$(seq 1 200); do [ -S /run/ibr/ib.peer ] && break; sleep 0.05; done"
out=$(mc_send $HA 20)
echo "# $HA: $out"
vm_join router ri 90 > "$T/ri.txt"
st=$?
tail -1 "$T/ri.txt" | sed 's/^/# IB host: /'
check "A (mckey, ::ffff:$G) -> IB: the IB host received the 20 with DGID $IBG, Q_Key 0x01234567, CRCs good" \
	test $st -eq 0

say "8. without the daemon nothing crosses"
vm_cmd router "p=\$(cat /run/ibr/ibrouterd.pid 2>/dev/null) && kill \$p && while kill -0 \$p 2>/dev/null; do sleep 0.1; done"
check "no ibrouterd runs in the router guest" vm_cmd router "! pidof ibrouterd > /dev/null"
r0=$(hw rxe1 rcvd_pkts)
mc_recv nd $HB 1 || fail "the receiver at B joins"
out=$(mc_send $HA 20)
echo "# $HA: $out"
sleep 2
mc_done nd
st=$?
check "20 left A's device" test "$(echo "$out" | sed -n 's/^sent \([0-9]*\) .*/\1/p')" = 20
check "B's receiver got none of them" test $st -ne 0
check "B's device received nothing" test "$(($(hw rxe1 rcvd_pkts) - r0))" -eq 0

finish
