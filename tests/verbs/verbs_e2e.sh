#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# verbs_e2e.sh - ibrouterd with two data = verbs ports, linked with the fake
# verbs provider (tests/fakes) whose HCA ports are sim wire ports, and
# ibrouter-host on both sides: the verbs backend between real IB packets.
# Multicast across subnets (the worker attaches the relay QPs to the groups
# the FIB has), the UD model's source rewrite, HopLmt, drops, and UD unicast
# through a pair of proxies (one from the config, one from ibrouterctl proxy
# add; show proxies), across a reload and a restart; a group of another
# Q_Key than the relay QP's on a QP of its own (show qps).  Port a is named as
# rdma-core's tools name it (mlx5_0:1) and learns LID and prefix from its HCA
# port; port b's relay QP has its own Q_Key.  HCA events come from the fake's
# control socket (tests/fakes/README): port down and up, LID and GID change,
# SM change; the devices removed and back (rdma link del, a fatal error).
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/../sim/lib.sh"
IBRD=$BUILD/tests/verbs/ibrouterd-fakeverbs

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A
B_HOST=fec0::2:0:0:11:1 # GUID 0x110001, LID 5 in subnet B
A_RTR=fec0::1:0:0:0:1 # the HCA port's GID 0 on subnet A
B_RTR=fec0::2:0:0:0:1
QKEY=0x0b1b # the relay QP's default Q_Key (io_verbs.h), port a's
BQKEY=0x2b2b # port b's relay-qkey
FVCTL=$BUILD/tests/fakes/fake_verbs_ctl
hca() { "$FVCTL" "$T/$1.sock.ctl" "$2" ${3:-}; } # hca PORT COMMAND [ARG]: an HCA event

# the fake HCAs: mlx5_0 on subnet A with LID 1, mlx5_1 on subnet B with LID 0x10
FAKE_VERBS_DEVICES="mlx5_0,$T/a.sock,$T/a.peer,1,$A_RTR;mlx5_1,$T/b.sock,$T/b.peer,0x10,$B_RTR"
export FAKE_VERBS_DEVICES

# a has no lid or subnet-prefix: it takes its HCA port's LID and GID prefix;
# b names them.  A proxy on a stands for B host's QP 0x42 (config).
write_conf() {
	cat > "$T/ibrouterd.conf" <<EOC
router {
	name = "verbs"
	node-guid = 0x0002c90300000200
}
port "a" {
	data = verbs
	device = "mlx5_0:1"
}
port "b" {
	data = verbs
	device = "mlx5_1"
	device-port = 1
	relay-qkey = $BQKEY
	rq-depth = 512
	sq-depth = 256
	lid = 0x10
	subnet-prefix = "fec0:0:0:2::"
}
proxy "$B_HOST" {
	port = "a"
	qpn = 0x42
	qkey = 0x1234
}
${EXTRA_CONF:-}
EOC
	conf_tail >> "$T/ibrouterd.conf"
}

start_router || exit 1
check "port a opened on mlx5_0:1" grep -q 'port a: verbs mlx5_0:1, LID 0x0001, relay QPN 0x000100 Q_Key 0x00000b1b, active' "$T/ibrouterd.log"
check "port b opened on mlx5_1:1, relay Q_Key $BQKEY" grep -q 'port b: verbs mlx5_1:1, LID 0x0010, relay QPN 0x000100 Q_Key 0x00002b2b' "$T/ibrouterd.log"
ctl -j show ports > "$T/ports.json"
check "show ports: a learned LID and prefix from its HCA port" grep -q '"name":"a","guid":"0x0002c90300000201","prefix":"fec0:0:0:1::","lid":"0x0001",' "$T/ports.json"

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

# 3b. a group of another Q_Key (0xb, the SA's word or `qkey` here): port a
#    receives it on a QP of that Q_Key (C10-25), created for it, while the
#    relay QP's group still crosses; gone with the group
check "mcast add (a, senders, Q_Key 0xb)" ctl mcast add ff15::3 port a mlid 0xc003 qkey 0xb senders
check "mcast add (b, receivers, Q_Key 0xb)" ctl mcast add ff15::3 port b mlid 0xc004 qkey 0xb receivers
sleep 0.3
check "show qps a: a QP of Q_Key 0xb with one group" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show qps a | grep -q '\"kind\":\"qkey\",\"qkey\":\"0x0000000b\",\"groups\":1'"
recv_bg b "$T/b.peer" -c 3 -t 5000 --expect-count 3 --expect-dlid 0xc004 --expect-dgid ff15::3 \
	--expect-qpn 0xffffff --expect-qkey 0xb --expect-hoplimit 63
send_a --slid 3 --dlid 0xc003 --sgid $A_HOST --dgid ff15::3 --qpn 0xffffff --qkey 0xb -c 3
check "multicast A to B with Q_Key 0xb" recv_wait b
recv_bg b "$T/b.peer" -c 2 -t 5000 --expect-count 2 --expect-dgid ff15::1 --expect-qkey $QKEY
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff --qkey $QKEY -c 2
check "the relay Q_Key's group still crosses" recv_wait b
check "mcast del (a, Q_Key 0xb)" ctl mcast del ff15::3 port a
# its receives flush first (in one wake-up: io_verbs_rx_burst polls on)
qkey_qp_gone() {
	for _ in $(seq 1 40); do
		ctl -j show qps a | grep -q '"qkey":"0x0000000b"' || return 0
		sleep 0.05
	done
	return 1
}
check "show qps a: the Q_Key 0xb QP is gone" qkey_qp_gone
check "show qps a: the relay QP stays" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show qps a | grep -q '\"kind\":\"relay\",\"qkey\":\"0x00000b1b\"'"
check "the Q_Key QP's coming and going is logged" sh -c "grep -q 'QP 0x[0-9a-f]* receives the groups of Q_Key 0x0000000b' \"$T/ibrouterd.log\" && grep -q 'of Q_Key 0x0000000b closed: no group left' \"$T/ibrouterd.log\""
check "mcast del (b, Q_Key 0xb)" ctl mcast del ff15::3 port b

# 4. after mcast del the relay QP leaves the group: nothing more crosses
check "mcast del (a)" ctl mcast del ff15::1 port a
sleep 0.3
recv_bg b "$T/b.peer" -t 700 --expect-count 0
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff --qkey $QKEY -c 2
check "after mcast del: nothing crosses" recv_wait b

# 5. UD unicast: a proxy on a stands for B's QP 0x42 (the config's), one on b
#    for A's QP 0x42 (added here)
ctl proxy add b $A_HOST 0x42 qkey 0x4321 > "$T/padd.out" 2>&1
check "proxy add (b -> A host): says what it added, and the QPN senders on b use" grep -qx \
	"added a proxy on port b for QPN 0x000042 at $A_HOST, Q_Key 0x00004321: senders on port b address QPN 0x[0-9a-f]\{6\}" \
	"$T/padd.out"
check "proxy add of the config's proxy fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" proxy add a $B_HOST 0x42"
check "proxy add on an unknown port fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" proxy add c $B_HOST 0x42"
# a RoCE v2 host's IPv4 address as its GID, typed dotted: taken, named back so
ctl proxy add b ::ffff:10.0.0.2 0x46 > "$T/pv4.out" 2>&1
check "proxy add of ::ffff:10.0.0.2 (dotted): added, and named so" \
	grep -q '^added a proxy on port b for QPN 0x000046 at ::ffff:10.0.0.2,' "$T/pv4.out"
check "... proxy del of it" ctl proxy del b ::FFFF:A00:2 0x46
ctl proxy add b fe80::1 0x46 > "$T/pll.out" 2>&1
check "proxy add of a link-local GID: refused as the config refuses it" \
	grep -q 'proxy add: fe80::1: link-local GIDs are never routed' "$T/pll.out"
ctl -j show proxies > "$T/proxies.json"
check "show proxies: a's QP stands for B host's QP" grep -q '"port":"a","qpn":"0x[0-9a-f]*","gid":"fec0::2:0:0:11:1","remote_qpn":"0x000042","qkey":"0x00001234"' "$T/proxies.json"
check "show proxies: b's for A host's" grep -q '"port":"b","qpn":"0x[0-9a-f]*","gid":"fec0::1:0:0:10:1","remote_qpn":"0x000042","qkey":"0x00004321"' "$T/proxies.json"
# the QPNs the HCAs gave the proxies: what senders must use
QA=$(ctl -j show proxies a | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
QB=$(ctl -j show proxies b | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
check "the QPN proxy add said is the one show proxies b lists" grep -q "address QPN $QB\$" "$T/padd.out"
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
# 6. the relay Q_Key of b: B's multicast with b's Q_Key crosses to A, with
#    a's it is filtered by b's HCA (C10-25)
check "mcast add (b, senders)" ctl mcast add ff15::2 port b mlid 0xc012 senders
check "mcast add (a, receivers)" ctl mcast add ff15::2 port a mlid 0xc011 receivers
sleep 0.3
recv_bg a "$T/a.peer" -c 2 -t 5000 --expect-count 2 --expect-dgid ff15::2 --expect-qkey $BQKEY
send_b --slid 5 --dlid 0xc012 --sgid $B_HOST --dgid ff15::2 --qpn 0xffffff --qkey $BQKEY -c 2
check "multicast B to A with b's relay Q_Key" recv_wait a
recv_bg a "$T/a.peer" -t 700 --expect-count 0
send_b --slid 5 --dlid 0xc012 --sgid $B_HOST --dgid ff15::2 --qpn 0xffffff --qkey $QKEY -c 2
check "multicast with another Q_Key does not reach b's relay QP" recv_wait a

# 7. HCA events.  Port b down: nothing is forwarded to it, show ports and
#    the routes say so; up again: forwarding resumes
mcast_ab() { # mcast_ab COUNT: A's multicast to ff15::1, COUNT expected at B
	recv_bg b "$T/b.peer" -c "$1" -t "$([ "$1" -eq 0 ] && echo 700 || echo 5000)" \
		--expect-count "$1" --expect-dgid ff15::1
	send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid ff15::1 --qpn 0xffffff --qkey $QKEY -c 2
	recv_wait b
}
check "HCA b: port error event" hca b down
sleep 0.3
check "show ports: b down" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"b\",.*\"up\":false'"
check "b's connected route withdrawn" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" -j show routes | grep -q '\"prefix\":\"fec0:0:0:2::/64\",\"source\":\"connected\"'"
check "the link down is logged" grep -q 'verbs: port b: mlx5_1:1 link down' "$T/ibrouterd.log"
check "nothing forwarded to b while down" mcast_ab 0
check "HCA b: port active event" hca b up
sleep 0.3
check "show ports: b up again" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"b\",.*\"up\":true'"
check "b's connected route back" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes | grep -q '\"prefix\":\"fec0:0:0:2::/64\",\"source\":\"connected\"'"
check "forwarding to b resumes" mcast_ab 2

# LID change on a (learned from the HCA): the new LID is the port's, the DLID
# the router accepts and the SLID of what it forwards into A
check "HCA a: LID change to 0x21" hca a lid 0x21
sleep 0.3
check "show ports: a's LID is 0x0021" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"a\",[^}]*\"lid\":\"0x0021\"'"
recv_bg b "$T/b.peer" -c 2 -t 5000 --expect-count 2 --expect-dgid $B_HOST --expect-qpn 0x42
send_a --slid 3 --dlid 0x21 --sgid $A_HOST --dgid $B_HOST --qpn "$QA" --src-qp 0x42 \
	--qkey 0x1234 -c 2
check "unicast to a's new LID crosses" recv_wait b
recv_bg a "$T/a.peer" -c 2 -t 5000 --expect-count 2 --expect-slid 0x21 --expect-dgid $A_HOST
send_b --slid 5 --dlid 0x10 --sgid $B_HOST --dgid $A_HOST --qpn "$QB" --src-qp 0x42 \
	--qkey 0x4321 -c 2
check "forwarded into A with SLID 0x21" recv_wait a
# GID change on a: its prefix (not in the config) follows GID 0
check "HCA a: GID change" hca a gid fec0::3:0:0:0:1
sleep 0.3
check "show ports: a's prefix follows GID 0" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"a\",[^}]*\"prefix\":\"fec0:0:0:3::\"'"
check "a's connected route follows" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show routes | grep -q '\"prefix\":\"fec0:0:0:3::/64\",\"source\":\"connected\",\"port\":\"a\"'"
check "HCA a: GID back" hca a gid $A_RTR
check "HCA a: SM change" hca a sm
sleep 0.3
check "the SM change is logged" grep -q 'verbs: port a: SM change (no SA client)' "$T/ibrouterd.log"
check "HCA a: LID back to 1" hca a lid 1

# 8. reload: the config's proxies follow the file, those added by hand stay
EXTRA_CONF="proxy \"$B_HOST\" {
	port = \"a\"
	qpn = 0x43
}"
write_conf
check "reload with a second proxy in the config" ctl reload
check "show proxies a lists both of the config" sh -c "[ \$(\"$CTL\" -s \"$T/ctl.sock\" -j show proxies a | grep -o '\"port\"' | wc -l) -eq 2 ]"
check "show proxies b keeps the one added by hand" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show proxies b | grep -q '\"remote_qpn\":\"0x000042\"'"
check "the new proxy's remote QPN 0x43" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show proxies a | grep -q '\"remote_qpn\":\"0x000043\",\"qkey\":\"0x00000b1b\"'"
EXTRA_CONF=""
write_conf
check "reload without it" ctl reload
check "show proxies a: the config's one again" sh -c "[ \$(\"$CTL\" -s \"$T/ctl.sock\" -j show proxies a | grep -o '\"port\"' | wc -l) -eq 1 ]"

ctl proxy del a $B_HOST 0x42 > "$T/pdel.out" 2>&1
check "proxy del: says what it removed" grep -qxF "removed the proxy on port a for QPN 0x000042 at $B_HOST" "$T/pdel.out"
check "proxy del again fails" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" proxy del a $B_HOST 0x42"
check "help lists proxy add" sh -c "\"$CTL\" -s \"$T/ctl.sock\" help | grep -q '^proxy add PORT GID QPN'"

# 9. restart: the config's proxy is back (ibrouterctl's are gone), unicast works
kill "$RPID"
wait "$RPID" 2>/dev/null
check "restart" start_router
check "after the restart: a's proxy from the config" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show proxies | grep -q '\"port\":\"a\",\"qpn\":\"0x[0-9a-f]*\",\"gid\":\"fec0::2:0:0:11:1\",\"remote_qpn\":\"0x000042\"'"
check "after the restart: none on b" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" -j show proxies | grep -q '\"port\":\"b\"'"
QA=$(ctl -j show proxies a | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
recv_bg b "$T/b.peer" -c 2 -t 5000 --expect-count 2 --expect-dgid $B_HOST --expect-qpn 0x42 \
	--expect-qkey 0x1234
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --qpn "$QA" --src-qp 0x42 \
	--qkey 0x1234 -c 2
check "unicast through the config's proxy after the restart" recv_wait b
# show verbs: the HCA side of each port since the restart; b sent the 2 in at
# most 2 posts (they may come in one burst or two), no receive queue ran dry
ctl -j show verbs > "$T/verbs.json"
check "show verbs: a is an IB port on mlx5_0:1, GID 0 of its HCA port" \
	grep -q '"port":"a","device":"mlx5_0:1","link":"infiniband","state":"active","gid":"fec0:0:0:1::1","sgid_index":0,' "$T/verbs.json"
check "show verbs: b sent 2 work requests in 1 or 2 posts" \
	grep -q '"port":"b",[^}]*"tx_wrs":2,"tx_posts":[12],"posts_per_pkt":"[01].[05]000",' "$T/verbs.json"
check "show verbs: no receive queue ran dry" sh -c "! grep -q '\"rq_low\":0,' '$T/verbs.json'"
check "show verbs: a's receive queue the default 1024, b's its rq-depth 512" sh -c \
	"grep -q '\"port\":\"a\",[^}]*\"rq_depth\":1024,' '$T/verbs.json' &&
	grep -q '\"port\":\"b\",[^}]*\"rq_depth\":512,' '$T/verbs.json'"
# the same for Prometheus (what ibrouter-exporter serves)
ctl -o prometheus show verbs > "$T/verbs.prom"
check "show verbs -o prometheus: b up, its rq-depth, its 2 work requests" sh -c \
	"grep -qx 'ibrouter_verbs_up{port=\"b\",device=\"mlx5_1:1\"} 1' '$T/verbs.prom' &&
	grep -qx 'ibrouter_verbs_rq_depth{port=\"b\",device=\"mlx5_1:1\"} 512' '$T/verbs.prom' &&
	grep -qx 'ibrouter_verbs_sq_depth{port=\"b\",device=\"mlx5_1:1\"} 256' '$T/verbs.prom' &&
	grep -qx 'ibrouter_verbs_tx_wrs_total{port=\"b\",device=\"mlx5_1:1\"} 2' '$T/verbs.prom' &&
	grep -qx '# TYPE ibrouter_verbs_tx_bounce_full_total counter' '$T/verbs.prom'"

# 10. the device of b unregistered without a word (rxe's rdma link del: the
#     kernel waits for the router to close it), then registered again: the
#     router lets go of it within a second or two (its wire socket goes with
#     the fake's close), b is down and lost meanwhile, a forwards on; once
#     the device is back b opens again and the FIB's groups are attached again
check "mcast add (a, senders) after the restart" ctl mcast add ff15::1 port a mlid 0xc001 senders
check "mcast add (b, receivers) after the restart" ctl mcast add ff15::1 port b mlid 0xc002 receivers
sleep 0.3
check "before the removal: multicast A to B" mcast_ab 2
state_is() { # state_is PORT STATE: show verbs says so within 3 s
	for _ in $(seq 1 30); do
		ctl -j show verbs "$1" | grep -q "\"state\":\"$2\"" && return 0
		sleep 0.1
	done
	return 1
}
check "HCA b: the device removed" hca b remove
check "show verbs: b lost" state_is b lost
check "the device was closed (the fake unlinks its wire socket)" sh -c "[ ! -e '$T/b.sock' ]"
check "the loss is logged" grep -q 'verbs: device mlx5_1 lost (its uverbs device is gone): port b down until it is back' "$T/ibrouterd.log"
check "show ports: b down while lost" sh -c "\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"b\",.*\"up\":false'"
check "b's connected route withdrawn while lost" sh -c "! \"$CTL\" -s \"$T/ctl.sock\" -j show routes | grep -q '\"prefix\":\"fec0:0:0:2::/64\",\"source\":\"connected\"'"
check "nothing forwarded to b while lost" mcast_ab 0
check "the daemon is up" kill -0 "$RPID"
check "HCA b: the device registered again" hca b add
check "show verbs: b active again" state_is b active
check "its return is logged" grep -q 'verbs: device mlx5_1 is back: port b open again' "$T/ibrouterd.log"
sleep 0.3 # the worker attaches b's relay QP within its 100 ms idle wake-up
check "multicast A to B again: the group attached again" mcast_ab 2
recv_bg b "$T/b.peer" -c 2 -t 5000 --expect-count 2 --expect-dgid $B_HOST --expect-qpn 0x42
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --qpn "$QA" --src-qp 0x42 \
	--qkey 0x1234 -c 2
check "a's proxy QP untouched: unicast A to B" recv_wait b

# 11. a fatal device error on a (mlx5: IBV_EVENT_DEVICE_FATAL): let go of at
#     once, back with a new proxy QP that `show proxies` gives senders
check "HCA a: a fatal device error" hca a remove fatal
check "show verbs: a lost" state_is a lost
check "the fatal error is logged" grep -q 'verbs: port a: mlx5_0: fatal device error' "$T/ibrouterd.log"
check "HCA a: the device back" hca a add
check "show verbs: a active again" state_is a active
QA=$(ctl -j show proxies a | sed -n 's/.*"qpn":"\(0x[0-9a-f]*\)".*/\1/p')
recv_bg b "$T/b.peer" -c 2 -t 5000 --expect-count 2 --expect-dgid $B_HOST --expect-qpn 0x42
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --qpn "$QA" --src-qp 0x42 \
	--qkey 0x1234 -c 2
check "unicast through a's new proxy QP ($QA)" recv_wait b
sleep 0.3
check "multicast A to B after a came back" mcast_ab 2

finish
