#!/bin/sh
# sim_sma_policy.sh - issue 14 item 6: a host in subnet B sends port b a
# LID-routed SubnSet(PortInfo) with GidPrefix = subnet A's prefix.
#   1. before any SM has configured port b, the SMA takes the Set (IBA: M_Key
#      0, any Set goes), but the RIB refuses port b a prefix that is port a's
#      connected prefix: both connected routes stay, traffic flows both ways;
#   2. once an SM (a DR Set from b's wire, MasterSMLID 1) has configured port
#      b, the same Set from LID 5 is refused by the SMA's Set policy (no reply,
#      counted in show sma), while a Set from the SM's LID is answered.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A
B_HOST=fec0::2:0:0:11:1 # GUID 0x110001, LID 5 in subnet B
PFX_A=0xfec0000000000001
PFX_B=0xfec0000000000002

start_router || exit 1

smp_b() { "$HOST" -s "$T/b.peer" -p "$T/b.sock" -t 1000 smp "$@"; }

# traffic NAME: 10 packets A -> B and 10 B -> A arrive, rewritten
traffic() {
	recv_bg b "$T/b.peer" -c 10 -t 5000 --expect-count 10 --expect-dlid 5 --expect-slid 0x10
	send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 10
	check "$1: A to B flows" recv_wait b
	recv_bg a "$T/a.peer" -c 10 -t 5000 --expect-count 10 --expect-dlid 3 --expect-slid 1
	send_b --slid 5 --dlid 0x10 --sgid $B_HOST --dgid $A_HOST -c 10
	check "$1: B to A flows" recv_wait a
}

# routes_intact NAME: both connected prefixes, each on its own port
routes_intact() {
	ctl -j show routes > "$T/routes.json"
	check "$1: fec0:0:0:1::/64 still connected on a" \
		grep -q '"prefix":"fec0:0:0:1::/64","source":"connected","port":"a"' "$T/routes.json"
	check "$1: fec0:0:0:2::/64 still connected on b" \
		grep -q '"prefix":"fec0:0:0:2::/64","source":"connected","port":"b"' "$T/routes.json"
	check "$1: show ports: b keeps fec0:0:0:2::" sh -c \
		"\"$CTL\" -s \"$T/ctl.sock\" -j show ports | grep -q '\"name\":\"b\",[^}]*\"prefix\":\"fec0:0:0:2::\"'"
}

traffic "before"

# 1. no SM yet: the SMA takes the Set, the RIB refuses the prefix
smp_b portinfo slid 5 dlid 0x10 set-prefix $PFX_A > "$T/set1.txt" 2>&1
check "1: the SMA answers the Set (no SM has configured b yet)" \
	grep -q '^# portinfo: status 0x0000' "$T/set1.txt"
routes_intact "1"
check "1: the refusal is logged" \
	grep -q 'port b: subnet prefix fec0:0:0:1:: refused: it is port a' "$T/ibrouterd.log"
traffic "1"

finish
