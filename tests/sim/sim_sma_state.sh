#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_sma_state.sh - issue 16: what the SMA reports is what the port
# forwards with, and the SMA answers only SMPs for the port's LIDs.
#   1. port b (mad = none, static LID 0x10 in fec0:0:0:2::): PortInfo shows
#      that LID and prefix, and PortState Active, as the port forwards;
#   2. a LID-routed reply leaves from the port's LID (SLID 0x10);
#   3. a LID-routed SMP for another LID gets no reply, and is counted
#      (show sma drops, reason dlid); one for the permissive LID is answered;
#      a reply that cannot be sent is counted (reply-no-peer), in show sma
#      and its Prometheus form too;
#   4. a reload gives b LID 0x30: the SMA reports it at once;
#   5. an SM's Set of b's LID (directed route) is what b forwards with;
#   6. no false SM: b advertises no IsSM, and has no SMInfo (0x000C);
#   7. an SM's PKeyTable Set on b is b's egress P_Key check: P_Key 0x8001
#      leaves b, 0x8002 is dropped (pkey), before and after a reload.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

start_router || exit 1

smp_b() { "$HOST" -s "$T/b.peer" -p "$T/b.sock" -t 500 smp "$@"; }

# 1. the SMA and the port agree
smp_b portinfo > "$T/pi1.txt" 2>&1
check "1: b's PortInfo: LID 0x10" grep -q '^Lid:\.*16$' "$T/pi1.txt"
check "1: b's PortInfo: GidPrefix fec0:0:0:2::" grep -q '^GidPrefix:\.*0xfec0000000000002$' "$T/pi1.txt"
check "1: b's PortInfo: LinkState Active" grep -q '^LinkState:\.*Active$' "$T/pi1.txt"
check "1: show ports: b forwards with LID 0x10 in fec0:0:0:2::" sh -c \
	"\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"b\",[^}]*\"lid\":\"0x0010\"'"

# 2. a LID-routed Get from LID 5: the reply comes from LID 0x10
smp_b portinfo slid 5 dlid 0x10 > "$T/pi2.txt" 2>&1
check "2: LID-routed Get to 0x10 answered" grep -q '^# portinfo: status 0x0000' "$T/pi2.txt"
check "2: the reply's SLID is the port's LID" grep -q '^# lrh: slid 0x0010 dlid 0x0005$' "$T/pi2.txt"

# 3. the DLID check
smp_b nodeinfo slid 5 dlid 0x11 > "$T/n3.txt" 2>&1
check "3: a LID-routed Get to LID 0x11 gets no reply" grep -q 'smp: Connection timed out' "$T/n3.txt"
smp_b nodeinfo slid 5 > "$T/n3p.txt" 2>&1
check "3: one to the permissive LID is answered" grep -q '^# nodeinfo: status 0x0000' "$T/n3p.txt"
ctl -j show sma drops > "$T/drops3.json" 2>&1
check "3: show sma drops: b, dlid, 1" \
	grep -q '"port":"b","reason":"dlid","count":1,' "$T/drops3.json"

# 3b. a reply that cannot be sent (nobody at b's peer path) is counted too
"$HOST" -s "$T/b.other" -p "$T/b.sock" -t 300 smp nodeinfo > "$T/n3b.txt" 2>&1
ctl -j show sma drops b > "$T/drops3b.json" 2>&1
check "3b: show sma drops: b, reply-no-peer, 1" \
	grep -q '"port":"b","reason":"reply-no-peer","count":1,' "$T/drops3b.json"
ctl -j show sma b > "$T/sma3b.json" 2>&1
check "3b: show sma: b's SMPs, replies, drops, reply errors" \
	grep -q '"smps":5,"replies":4,"drops":1,"reply_errors":1' "$T/sma3b.json"
ctl show sma -o prometheus > "$T/prom3b.txt" 2>&1
check "3b: prometheus: the drop by reason" \
	grep -q '^ibrouter_sma_drops_total{port="b",reason="dlid"} 1$' "$T/prom3b.txt"
check "3b: prometheus: the reply error by reason" \
	grep -q '^ibrouter_sma_reply_errors_total{port="b",reason="reply-no-peer"} 1$' "$T/prom3b.txt"
check "3b: prometheus: a's counters are there, zero" \
	grep -q '^ibrouter_sma_drops_total{port="a",reason="dlid"} 0$' "$T/prom3b.txt"

# 4. a reload changes b's LID: the SMA reports the new one
sed -i 's/^\tlid = 0x10$/\tlid = 0x30/' "$T/ibrouterd.conf"
ctl reload > /dev/null
smp_b portinfo > "$T/pi4.txt" 2>&1
check "4: after the reload b's PortInfo has LID 0x30" grep -q '^Lid:\.*48$' "$T/pi4.txt"
smp_b nodeinfo slid 5 dlid 0x30 > "$T/n4.txt" 2>&1
check "4: a LID-routed Get to 0x30 is answered, from 0x30" \
	grep -q '^# lrh: slid 0x0030 dlid 0x0005$' "$T/n4.txt"

# 5. an SM sets b's LID: the port forwards with it, the SMA reports it
smp_b portinfo set-lid 0x40 set-smlid 1 > "$T/pi5.txt" 2>&1
check "5: the SM's Set is answered" grep -q '^# portinfo: status 0x0000' "$T/pi5.txt"
check "5: show ports: b forwards with LID 0x40" sh -c \
	"\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"b\",[^}]*\"lid\":\"0x0040\"'"
smp_b portinfo > "$T/pi5b.txt" 2>&1
check "5: and b's PortInfo has LID 0x40, Active" sh -c \
	"grep -q '^Lid:\.*64$' '$T/pi5b.txt' && grep -q '^LinkState:\.*Active$' '$T/pi5b.txt'"

# 6. no false SM: the router runs none, and a port without IsSM has no SMInfo
smp_b sminfo > "$T/sm6.txt" 2>&1
check "6: SMInfo on b: status 0x000c (no SM on the port)" grep -q '^# sminfo: status 0x000c' "$T/sm6.txt"
smp_b portinfo > "$T/pi6.txt" 2>&1
check "6: b's CapabilityMask has no IsSM" sh -c "! grep -q '^CapabilityMask:.*IsSM' '$T/pi6.txt'"

# 7. an SM sets b's P_Key table: packets leave b only with its P_Keys (IBA
#    10.9.3), and a reload keeps the SM's table (the file gives none)
A_HOST=fec0::1:0:0:10:1 B_HOST=fec0::2:0:0:11:1 # the hosts of conf_tail
smp_b pkeys set-pkeys 0xffff,0x8001 > "$T/pk7.txt" 2>&1
check "7: the SM's PKeyTable Set is answered with the table" sh -c \
	"grep -q '^# pkeys: status 0x0000' '$T/pk7.txt' && grep -q '^ff ff 80 01 00 00' '$T/pk7.txt'"
check "7: show sma b: pkeys 0xffff,0x8001" sh -c \
	"\"$CTL\" -s \"$T/ctl.sock\" -j show sma b | grep -q '\"pkeys\":\"0xffff,0x8001\"'"
# pk_stream PKEY N: 5 datagrams a -> b with P_Key PKEY, of which N arrive
pk_stream() {
	recv_bg b7 "$T/b.peer" -c 5 -t 700 --expect-count "$2"
	send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --pkey "$1" -c 5
	recv_wait b7
}
pkey_drops() { ctl -j show drops a | grep -o '"reason":"pkey","count":[0-9]*' | sed 's/.*://'; }
check "7: P_Key 0x8001 leaves b" pk_stream 0x8001 5
check "7: P_Key 0x8002 does not" pk_stream 0x8002 0
check "7: ... counted as pkey (5)" test "$(pkey_drops)" = 5
ctl reload > /dev/null
check "7: after a reload P_Key 0x8002 still does not" pk_stream 0x8002 0
check "7: ... counted (10)" test "$(pkey_drops)" = 10
check "7: and 0x8001 still leaves" pk_stream 0x8001 5

finish
