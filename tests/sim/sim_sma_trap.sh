#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_sma_trap.sh - issue 18: a bad M_Key raises trap 256 to the port's SM
# (IBA 14.2.4.3), out of the sim data port the SMP came in on.
#   1. port b's SMA starts with M_Key 0x1234 (sma-mkey); an SM's Set that
#      carries it sets MasterSMLID 5;
#   2. a Set without it is refused (no answer) and the SMA sends trap 256
#      (a LID-routed SubnTrap(Notice) on VL15) from b's LID to LID 5;
#   3. the same from the SM again with the key is answered.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

# port b's SMA starts with an M_Key (ibrouterd.conf(5), sma-mkey)
PORT_B_CONF='	sma-mkey = 0x1234'
start_router || exit 1
smp_b() { "$HOST" -s "$T/b.peer" -p "$T/b.sock" -t 700 smp "$@"; }

# 1. the SM, with the key
smp_b portinfo mkey 0x1234 set-smlid 5 > "$T/s1.txt" 2>&1
check "1: the SM's Set with the M_Key is answered" grep -q '^# portinfo: status 0x0000' "$T/s1.txt"
check "1: MasterSMLID 5" grep -q '^SMLid:\.*5$' "$T/s1.txt"
# 2. without it
smp_b portinfo set-lid 0x22 > "$T/s2.txt" 2>&1
check "2: a Set without the M_Key gets no answer (its Get does)" grep -q 'smp set: Connection timed out' "$T/s2.txt"
check "2: trap 256 went to the SM's LID out of b" grep -q \
	'sma: port b: bad M_Key from LID 0xffff (attribute 0x0015): trap 256 to the SM at LID 0x0005$' \
	"$T/ibrouterd.log"
ctl -j show ports > "$T/p2.json"
check "2: the refused Set changed nothing: b's LID is 0x0010" grep -q '"name":"b",[^}]*"lid":"0x0010"' "$T/p2.json"
# 3. with the key again
smp_b portinfo mkey 0x1234 > "$T/s3.txt" 2>&1
check "3: a Get with the key is answered" grep -q '^# portinfo: status 0x0000' "$T/s3.txt"

finish
