#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_ctl_answers.sh - every command that changes state says what it did
# (ibrouterctl(8), Commands), not "done yes": in text a sentence, in JSON
# {"done":true,"message":...} ("done" as it always was, for the scripts that
# test it), and what was not there when it refuses a del.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

start_router || exit 1
# says WANT CTL-ARGS...: the command succeeds and its whole text answer is WANT
says() {
	want=$1
	shift
	ctl "$@" > "$T/says.out" 2>&1 || { cat "$T/says.out"; return 1; }
	[ "$(cat "$T/says.out")" = "$want" ] || { echo "got: $(cat "$T/says.out")"; return 1; }
}
# refused WANT CTL-ARGS...: the command fails and its message has WANT
refused() {
	want=$1
	shift
	! ctl "$@" > "$T/says.out" 2>&1 && grep -qF "$want" "$T/says.out" || {
		cat "$T/says.out"
		return 1
	}
}

check "route add: the route, its next hop" \
	says "added static route fec0:0:0:9::/64 via port b LID 0x0021" \
	route add fec0:0:0:9::/64 port b lid 0x21
check "route add of the same prefix again: replaced, both next routers, the metric" \
	says "replaced static route fec0:0:0:9::/64 via port b LID 0x0021, port b LID 0x0023, metric 5" \
	route add fec0:0:0:9::/64 port b lid 0x21 port b lid 0x23 metric 5
check "route add ... direct" \
	says "added static route fec0:0:0:8::/64 via port b direct (the LID from the neighbours)" \
	route add fec0:0:0:8::/64 port b direct
check "route add with the prefix in another form: named canonically" \
	says "added static route fec0:0:0:7::/64 via port b LID 0x0004 LMC 1" \
	route add FEC0:0000:0000:0007::/64 port b lid 4 lmc 1
check "route del" says "removed static route fec0:0:0:9::/64" route del fec0:0:0:9::/64
check "route del of what is not there: which route" \
	refused "route del: no static route fec0:0:0:9::/64 (ENOENT)" route del fec0:0:0:9::/64
check "neighbour add" says "added static neighbour 0x0000000000123456 on port a: LID 0x0010 LMC 4" \
	neighbour add 0x123456 port a lid 0x10 lmc 4
check "neighbour del" says "removed static neighbour 0x0000000000123456 from port a" \
	neighbour del 0x123456 port a
check "neighbour del of what is not there" \
	refused "neighbour del: no static neighbour 0x0000000000123456 on port a (ENOENT)" \
	neighbour del 0x123456 port a
check "mcast add: the group, where it is forwarded" \
	says "added group ff15::1:7 on port a: MLID 0xc001, Q_Key 0x00000000, P_Key 0xffff, receivers (forwarded there)" \
	mcast add ff15::1:7 port a mlid 0xc001 receivers
check "mcast add ... senders: not forwarded there" \
	says "replaced group ff15::1:7 on port a: MLID 0xc001, Q_Key 0x00000000, P_Key 0xffff, senders only (not forwarded there)" \
	mcast add ff15::1:7 port a mlid 0xc001 senders
check "mcast del" says "removed group ff15::1:7 from port a" mcast del ff15::1:7 port a
check "mcast del of what is not there" \
	refused "mcast del: no group ff15::1:7 on port a (ENOENT)" mcast del ff15::1:7 port a
check "clear counters" \
	says "cleared the counters of every port: packets, bytes, errors and drops count from zero" \
	clear counters
check "log level: the new one and the old" says "log level debug (was info)" log level debug
check "reload: the file and what it holds" \
	says "reloaded $T/ibrouterd.conf: 2 ports, 0 static routes, 2 neighbours, 0 groups, 0 proxies" \
	reload
check "capture stop: the packets and the file" \
	sh -c "'$CTL' -s '$T/ctl.sock' capture start a '$T/c.pcap' all > /dev/null &&
		[ \"\$('$CTL' -s '$T/ctl.sock' capture stop)\" = 'capture stopped: 0 packets in $T/c.pcap' ]"
check "sma release" \
	says "released port a's master SM: the next PortInfo Set that names a MasterSMLID binds the port to its sender" \
	sma release a

# JSON: {"done":true,"message":...}, done first as it was
ctl -j route add fec0:0:0:9::/64 port b lid 0x21 > "$T/j.out" 2>&1
check "route add -j: done and message" grep -qxF \
	'{"ok":true,"data":{"done":true,"message":"added static route fec0:0:0:9::/64 via port b LID 0x0021"}}' \
	"$T/j.out"
ctl -j reload > "$T/j.out" 2>&1
check "reload -j: done and message" \
	grep -qF '{"ok":true,"data":{"done":true,"message":"reloaded ' "$T/j.out"
ctl -j capture start a "$T/c.pcap" > /dev/null 2>&1
ctl -j capture stop > "$T/j.out" 2>&1
check "capture stop -j: done, message, file and packets" grep -qxF \
	"{\"ok\":true,\"data\":{\"done\":true,\"message\":\"capture stopped: 0 packets in $T/c.pcap\",\"file\":\"$T/c.pcap\",\"packets\":0}}" \
	"$T/j.out"
check "the log says what the route add did" \
	grep -q 'control: added static route fec0:0:0:9::/64 via port b LID 0x0021' "$T/ibrouterd.log"
finish
