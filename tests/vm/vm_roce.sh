#!/bin/sh
# vm_roce.sh - the verbs backend on the kernel's own RDMA stack: ibrouterd
# in a router guest with two RoCE ports (rxe0 on subnet A fd00:a::/64, rxe1
# on subnet B fd00:b::/64), hosts in a second guest with one rxe device in
# each subnet, ibrouter-host in verbs mode (rdma-core's provider, uverbs).
# Each scenario prints its checks.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/vm_lib.sh"

H=$BUILD/tools/ibrouter-host
IBRD=$BUILD/ibrouterd
CTL="$BUILD/tools/ibrouterctl -s /run/ibr/ctl.sock"
S=/run/share
Q=0x0b1b # the relay QP's Q_Key: multicast senders use it (C10-25)
N=${N:-10000}
RATE=${RATE:-1000}

vm_need
for f in "$H" "$IBRD" "$BUILD/tools/ibrouterctl"; do
	[ -x "$f" ] || { echo "FAIL - no $f: build first"; exit 1; }
done

cat > "$T/ibrouterd.conf" <<EOC
router {
	name = "vm"
	node-guid = 0x0002c90300000300
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
mcast "ff15::1:8" {
	port = "a"
	mlid = 0xc001
	receivers = false
}
mcast "ff15::1:8" {
	port = "b"
	mlid = 0xc001
	senders = false
}
control {
	socket = "/run/ibr/ctl.sock"
}
pid-file = "/run/ibr/ibrouterd.pid"
EOC

say "booting the router guest and the hosts guest (TCG, ~20 s)"
vm_boot router "fd00:a::1/64 fd00:b::1/64" a b
vm_boot hosts "fd00:a::2/64 fd00:b::2/64" a b
vm_ready router hosts

rctl() { vm_cmd router "$CTL $*"; }
# wait_qpn NAME TAG: the QPN a verbs host printed when its QP was ready
wait_qpn() {
	for _ in $(seq 1 200); do
		q=$(sed -n 's/.* qpn \(0x[0-9a-f]*\) .*/\1/p' "$T/$1.$2.out" 2>/dev/null)
		[ -n "$q" ] && { echo "$q"; return 0; }
		sleep 0.1
	done
	return 1
}
counter() { # counter PORT NAME: from show counters -j
	rctl -j show counters "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p" | head -1
}

say "1. the daemon on two RoCE ports"
vm_cmd router "mkdir -p /run/ibr; $IBRD -d -f $S/ibrouterd.conf > $S/ibrouterd.log 2>&1 &
for i in \$(seq 1 100); do [ -S /run/ibr/ctl.sock ] && break; sleep 0.1; done"
rctl -j show ports > "$T/ports.json"
cat "$T/ports.json" | sed 's/^/# /'
check "port a is up on rxe0, link ethernet, prefix fd00:a::" \
	grep -q '"name":"a".*"prefix":"fd00:a::".*"up":true.*"link":"ethernet"' "$T/ports.json"
check "port b is up on rxe1, link ethernet, prefix fd00:b::" \
	grep -q '"name":"b".*"prefix":"fd00:b::".*"up":true.*"link":"ethernet"' "$T/ports.json"
check "the router's own GIDs are the netdevs' addresses" \
	grep -q '"name":"a","guid":"0x0000000000000001"' "$T/ports.json"

: say "2. multicast from A reaches B's receivers, nothing goes back to A"
vm_spawn hosts mb "$H -d rxe1 recv --join ff15::1:8 --qkey $Q -c 20 -t 30000 --expect-count 20 \
	--expect-sgid fd00:b::1 --expect-dgid ff15::1:8 --expect-size 300 --expect-payload"
wait_qpn hosts mb > /dev/null
sleep 1 # the router attached its groups at start
vm_cmd hosts "$H -d rxe0 send --dgid ff15::1:8 --qpn 0xffffff --qkey $Q --size 300 -c 20 -r 200"
vm_join hosts mb 60 > "$T/mb.txt"
st=$?
tail -1 "$T/mb.txt" | sed 's/^/# /'
check "B's receiver got the 20 datagrams, from the router's B GID, payload intact" test $st -eq 0
check "the router sent nothing back into A" test "$(counter a tx_packets)" -eq 0

say "3. UD unicast through proxies, both ways"
vm_spawn hosts ub "$H -d rxe1 recv --qkey 0x1234 -c 5 -t 30000 --expect-count 5 \
	--expect-sgid fd00:b::1 --expect-size 200 --expect-payload"
QB=$(wait_qpn hosts ub)
rctl proxy add a fd00:b::2 "$QB" qkey 0x1234 | sed "s/^/# /"
rctl -j show proxies a | sed "s/^/# /"
PA=$(rctl -j show proxies a | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p' | head -1)
echo "# B's QP $QB; its proxy on port a: QP $PA"
vm_cmd hosts "$H -d rxe0 send --dgid fd00:a::1 --qpn $PA --qkey 0x1234 --size 200 -c 5 -r 100"
vm_join hosts ub 60 > "$T/ub.txt"
st=$?
tail -1 "$T/ub.txt" | sed 's/^/# /'
check "A -> B through the proxy: 5 datagrams, size and payload" test $st -eq 0

finish
