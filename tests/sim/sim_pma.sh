#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_pma.sh - issue 18: the router ports' PerfMgt agent (class 0x04) as
# perfquery(8) would ask it, over the sim wire of port b (GMPs to QP1 from
# B's host, LID 5, to b's LID 0x10), the replies decoded with libibmad's
# field tables (ibrouter-host perf):
#   1. ClassPortInfo: AllPortSelect and IsExtendedWidthSupportedNoIETF;
#   2. a stream of 100 datagrams of 200 bytes from A to B moves a's
#      PortRcvPkts and b's PortXmitPkts by exactly 100, their data by
#      100 * 274 octets / 4 (the whole packet: LRH to VCRC);
#   3. drops: 3 with HopLmt 1 are PortRcvSwitchRelayErrors of a, a packet
#      with a bad VCRC is a PortRcvErrors of a (vcrc-check on a);
#   4. a Set clears the selected counters, the others stay; PortSelect
#      0xFF sums the ports; a PortSelect past the ports is refused (0x1C).
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A
B_HOST=fec0::2:0:0:11:1 # GUID 0x110001, LID 5 in subnet B

perf() { "$HOST" -s "$T/b.peer" -p "$T/b.sock" -t 1000 perf slid 5 dlid 0x10 "$@"; }
# field FILE NAME: a field of perfquery's (libibmad's) output
field() { sed -n "s/^$2:\.*\([0-9x]*\)\$/\1/p" "$1"; }

EXTRA_CONF='' start_router || exit 1
# a checks VCRCs (a per-port option) so that a bad one is a receive error
sed -i 's/^\tsubnet-prefix = "fec0:0:0:1::"$/&\n\tvcrc-check = true/' "$T/ibrouterd.conf"
check "reload with vcrc-check on a" ctl reload

# 1. ClassPortInfo
perf classportinfo > "$T/cpi.txt" 2>&1
check "1: ClassPortInfo answered by the router's PMA" grep -q '^# classportinfo: status 0x0000' "$T/cpi.txt"
check "1: CapabilityMask 0x0500 (AllPortSelect, ExtendedWidthNoIETF)" grep -q '^CapabilityMask:\.*0x0500$' "$T/cpi.txt"
check "1: the reply comes from b's LID to the asker's" grep -q '^# lrh: slid 0x0010 dlid 0x0005$' "$T/cpi.txt"

# 2. a counted stream
perf extended port 1 > "$T/a0.txt" 2>&1
perf extended port 2 > "$T/b0.txt" 2>&1
check "2: PortCountersExtended of a and b" sh -c "grep -q '^# extended: status 0x0000' '$T/a0.txt' && grep -q '^# extended: status 0x0000' '$T/b0.txt'"
recv_bg b "$T/b.peer" -c 100 -t 5000 --expect-count 100 --expect-dlid 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --size 200 -c 100
check "2: the 100 reach B" recv_wait b
perf extended port 1 > "$T/a1.txt" 2>&1
perf extended port 2 > "$T/b1.txt" 2>&1
d() { echo $(($(field "$2" "$3") - $(field "$1" "$3"))); }
check "2: a's PortRcvPkts moved by 100 ($(d "$T/a0.txt" "$T/a1.txt" PortRcvPkts))" \
	test "$(d "$T/a0.txt" "$T/a1.txt" PortRcvPkts)" -eq 100
check "2: a's PortRcvData by 100 * 274 / 4 = 6850 ($(d "$T/a0.txt" "$T/a1.txt" PortRcvData))" \
	test "$(d "$T/a0.txt" "$T/a1.txt" PortRcvData)" -eq 6850
check "2: b's PortXmitPkts moved by 100 ($(d "$T/b0.txt" "$T/b1.txt" PortXmitPkts))" \
	test "$(d "$T/b0.txt" "$T/b1.txt" PortXmitPkts)" -eq 100
check "2: b's PortXmitData by 6850 ($(d "$T/b0.txt" "$T/b1.txt" PortXmitData))" \
	test "$(d "$T/b0.txt" "$T/b1.txt" PortXmitData)" -eq 6850
check "2: a sent nothing ($(d "$T/a0.txt" "$T/a1.txt" PortXmitPkts))" \
	test "$(d "$T/a0.txt" "$T/a1.txt" PortXmitPkts)" -eq 0

# 3. drops by kind
perf counters port 1 > "$T/c0.txt" 2>&1
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --hoplimit 1 -c 3
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST --bad-vcrc -c 1
sleep 0.3
perf counters port 1 > "$T/c1.txt" 2>&1
check "3: 3 with HopLmt 1: a's PortRcvSwitchRelayErrors + 3" \
	test "$(d "$T/c0.txt" "$T/c1.txt" PortRcvSwitchRelayErrors)" -eq 3
check "3: a bad VCRC: a's PortRcvErrors + 1" test "$(d "$T/c0.txt" "$T/c1.txt" PortRcvErrors)" -eq 1

# 4. clears, AllPortSelect, a bad PortSelect
perf counters port 1 reset 0x1000 > "$T/r.txt" 2>&1 # PortXmitData only
check "4: the Set answered" grep -q '^# counters: status 0x0000' "$T/r.txt"
perf counters port 1 > "$T/r1.txt" 2>&1
check "4: the cleared counter reads 0" test "$(field "$T/r1.txt" PortXmitData)" -eq 0
check "4: the others stay (PortRcvPkts $(field "$T/r1.txt" PortRcvPkts))" test "$(field "$T/r1.txt" PortRcvPkts)" -ge 104
perf counters port 1 reset > "$T/r2.txt" 2>&1
check "4: reset of every counter: PortRcvPkts 0" test "$(field "$T/r2.txt" PortRcvPkts)" -eq 0
perf counters port 2 > "$T/p2.txt" 2>&1
perf counters port 255 > "$T/all.txt" 2>&1
check "4: PortSelect 0xFF sums the ports" test "$(field "$T/all.txt" PortXmitPkts)" -eq \
	$(($(field "$T/p2.txt" PortXmitPkts) + $(field "$T/r2.txt" PortXmitPkts)))
perf counters port 9 > "$T/bad.txt" 2>&1
check "4: PortSelect 9 (no such port): status 0x001c" grep -q '^# counters: status 0x001c' "$T/bad.txt"
check "the daemon is still up" ctl version

finish
