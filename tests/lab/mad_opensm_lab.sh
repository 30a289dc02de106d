#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# mad_opensm_lab.sh - the MAD channel against a real OpenSM on ibsim: OpenSM
# (umad2sim) at HcaA1 brings subnet A up; from RtrA the channel sends SA
# NodeRecord and PortInfoRecord GetTable to the SM LID and must report them
# truncated (umad2sim has no RMPP), falls back to a per-record Get, then sets
# IsSM and answers OpenSM's unsolicited SMPs.  Exit 77 without the tools.
. "$(dirname "$0")/mad_lab_lib.sh"
need ibsim opensm timeout
[ -f "$UMAD2SIM" ] || { echo "SKIP: umad2sim not installed"; exit 77; }
start_ibsim || finish
mkdir -p "$T/sm"
opensm -c "$T/sm/default.conf" > /dev/null 2>&1
sed -e "s|^guid .*|guid 0x0000000000100001|" \
    -e "s|^subnet_prefix .*|subnet_prefix 0xfec0000000000001|" \
    -e "s|^log_file .*|log_file $T/sm/osm.log|" -e "s|^dump_files_dir .*|dump_files_dir $T/sm/|" \
    -e "s|/etc/opensm/|$T/sm/|" -e "s|^force_log_flush .*|force_log_flush TRUE|" \
    "$T/sm/default.conf" > "$T/sm/opensm.conf"
(cd "$T/sm" && IBSIM_SOCKNAME=$SOCK SIM_HOST=HcaA1 OSM_CACHE_DIR=$T/sm OSM_TMP_DIR=$T/sm \
	LD_PRELOAD=$UMAD2SIM exec opensm -F "$T/sm/opensm.conf" < /dev/null > "$T/sm/stdout" 2>&1) &
SM_PID=$!
PIDS="$PIDS $SM_PID"
for _ in $(seq 1 200); do grep -q 'SUBNET UP' "$T/sm/osm.log" 2>/dev/null && break; sleep 0.05; done
if grep -q 'SUBNET UP' "$T/sm/osm.log" 2>/dev/null; then ok "OpenSM: SUBNET UP"; else
	fail "OpenSM did not bring the subnet up"; tail -5 "$T/sm/osm.log" 2>/dev/null; finish; fi
run_client sa "$SOCK" RtrA
check_ibsim_after
kill -0 "$SM_PID" 2>/dev/null && ok "OpenSM still running" || fail "OpenSM died"
finish
