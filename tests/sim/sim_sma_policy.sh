#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_sma_policy.sh - issue 14 item 6: a host in subnet B sends port b a
# LID-routed SubnSet(PortInfo) with GidPrefix = subnet A's prefix.
#   1. before any SM has configured port b, the SMA takes the Set (IBA: M_Key
#      0, any Set goes), but the RIB refuses port b a prefix that is port a's
#      connected prefix: both connected routes stay, traffic flows both ways;
#   2. an SM (a DR Set from b's wire, MasterSMLID 1) configures port b;
#   3. the same Set from LID 5 is now refused by the SMA's Set policy (no
#      reply, counted in show sma): routes and traffic as before;
#   4. a Set from the SM's LID is answered; 5. sma release forgets the SM.
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

# 2. an SM configures port b (a directed-route Set naming MasterSMLID 1):
#    the port is bound to it
smp_b portinfo set-smlid 1 set-lid 0x10 set-prefix $PFX_B > "$T/set2.txt" 2>&1
check "2: the SM's directed-route Set is answered" grep -q '^# portinfo: status 0x0000' "$T/set2.txt"
ctl -j show sma b > "$T/sma2.json"
check "2: show sma: b is bound to its master SM, LID 1, by directed route" \
	grep -q '"port":"b","policy":"master-sm","mkey_set":false,"sm_lid":"0x0001","master_sm":"directed-route","sm_hops":0,"sets_refused":0' "$T/sma2.json"

# 3. the attack again: refused by the SMA (no reply), counted, nothing changes
smp_b portinfo slid 5 dlid 0x10 set-prefix $PFX_A > "$T/set3.txt" 2>&1
check "3: the host's Set gets no reply" grep -q '^ibrouter-host: smp set: Connection timed out' "$T/set3.txt"
ctl -j show sma b > "$T/sma3.json"
check "3: show sma: the refusal is counted, b's GidPrefix unchanged" \
	grep -q '"sm_lid":"0x0001","master_sm":"directed-route","sm_hops":0,"sets_refused":1,"mkey_violations":0,"gid_prefix":"fec0:0:0:2::"' "$T/sma3.json"
check "3: the refusal is logged" grep -q 'sma: port 2: Set of attribute 0x0015 refused' "$T/ibrouterd.log"
routes_intact "3"
traffic "3"

# 4. the same LID-routed Set from the SM's LID is answered
smp_b portinfo slid 1 dlid 0x10 set-prefix $PFX_B > "$T/set4.txt" 2>&1
check "4: a Set from the SM's SLID is answered" grep -q '^# portinfo: status 0x0000' "$T/set4.txt"

# 5. sma release: the port forgets its SM (for an SM that moved)
ctl sma release b > /dev/null
check "5: sma release b: no master SM" sh -c \
	"\"$CTL\" -s \"$T/ctl.sock\" -j show sma b | grep -q '\"master_sm\":\"none\"'"

finish
