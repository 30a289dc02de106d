#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_feed.sh - a feed (ibrouterd.conf(5), mcast's feed key) on two sim
# ports: the IPv4 group 239.1.1.1 as rdma_cm names it on port a
# (ff12:4001:ffff::f01:101, Q_Key 0x01234567, link-local: never routed as a
# group) and as IPoIB names it on port b (ff15:401b:ffff::f01:101): each
# datagram leaves under the egress port's name, with CRCs for it (the host
# checks them), payload, SGID and Q_Key as they came, the hop limit one less
# but at most the section's hop-limit (1 by default: into a; 100 into b);
# nothing goes back; the same rdma_cm MGID outside a feed is never routed.
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1
A_MGID=ff12:4001:ffff::f01:101
B_MGID=ff15:401b:ffff::f01:101
Q=0x01234567
EXTRA_CONF="mcast \"$A_MGID\" {
	port = \"a\"
	mlid = 0xc001
	qkey = $Q
	feed = \"md\"
}
mcast \"$B_MGID\" {
	port = \"b\"
	mlid = 0xc002
	qkey = $Q
	hop-limit = 100
	feed = \"md\"
}"
check "the daemon starts with the feed" start_router
ctl -j show mcast > "$T/mcast.json"
check "show mcast: the feed's two MGIDs" sh -c "grep -q '\"mgid\":\"$A_MGID\"' '$T/mcast.json' &&
	grep -q '\"mgid\":\"$B_MGID\"' '$T/mcast.json'"

# a -> b: under b's name, and so in a capture of port b
check "capture start on b, every packet" ctl capture start b "$T/b.pcap" all
recv_bg b "$T/b.peer" -c 5 -t 5000 --expect-count 5 --expect-dlid 0xc002 --expect-dgid $B_MGID \
	--expect-sgid $A_HOST --expect-qkey $Q --expect-hoplimit 63 --expect-size 300
send_a --slid 3 --dlid 0xc001 --sgid $A_HOST --dgid $A_MGID --qpn 0xffffff --qkey $Q --size 300 -c 5
check "a -> b: 5 under port b's MGID, SGID, Q_Key and size as sent, HopLmt 63, CRCs good" recv_wait b
check "capture stop" ctl capture stop
if command -v tshark > /dev/null 2>&1; then
	check "the capture of b has the 5 as they left, DGID $B_MGID (tshark)" sh -c \
		"[ \$(tshark -r '$T/b.pcap' -T fields -e infiniband.grh.dgid 2>/dev/null | grep -cx '$B_MGID') -eq 5 ]"
else
	echo "skip - the capture's DGIDs: no tshark here (scripts/install-deps.sh installs it)"
fi
# b -> a: under a's name
recv_bg a "$T/a.peer" -c 5 -t 5000 --expect-count 5 --expect-dlid 0xc001 --expect-dgid $A_MGID \
	--expect-sgid $B_HOST --expect-qkey $Q --expect-hoplimit 1 --expect-size 200
send_b --slid 5 --dlid 0xc002 --sgid $B_HOST --dgid $B_MGID --qpn 0xffffff --qkey $Q --size 200 -c 5
check "b -> a: 5 under port a's MGID, HopLmt 1 (a's hop-limit: no router forwards them on)" \
	recv_wait a
ctl -j show counters > "$T/counters.json"
check "the router sent 5 on each port, dropped none" sh -c \
	"grep -q '\"port\":\"a\",[^}]*\"tx_packets\":5,' '$T/counters.json' &&
	grep -q '\"port\":\"b\",[^}]*\"tx_packets\":5,' '$T/counters.json'"
ctl -j show drops > "$T/drops.json"
check "show drops: nothing dropped" sh -c "! grep -qE '\"count\":[1-9]' '$T/drops.json'"

# outside a feed the rdma_cm MGID is link-local: the CLI refuses it as a group
check "mcast add of rdma_cm's link-local MGID without a feed is refused" \
	sh -c "! \"$CTL\" -s \"$T/ctl.sock\" mcast add ff12:4001:ffff::f01:102 port a mlid 0xc003"
finish
