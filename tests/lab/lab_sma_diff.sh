#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_sma_diff.sh - the differential test of our SMA (issue 5, Tests): in
# each of two simulated subnets a real OpenSM configures ibsim's Rt node;
# tests/lab/sma_diff then reads that node over a directed route from a host
# (HcaX2 port 1 -> SwX port 3), builds our SMA in-process with the same
# GUIDs, replays OpenSM's Sets on it (PKeyTable, PortInfo NOP, Armed,
# Active) and compares every NodeInfo / PortInfo / PKeyTable / GUIDInfo
# field: topology-derived and OpenSM-set fields must agree, implementation
# choices are listed ("# choice: FIELD ibsim=X ours=Y").
# Prints "N passed, N failed"; every process is stopped by its PID on exit.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(pwd)}
DIFF="$BUILD/tests/lab/sma_diff"
t0=$(date +%s%N)

if [ ! -x "$DIFF" ]; then
	lab_nok "no $DIFF (make lab or make check builds it)"
	lab_finish
	exit 1
fi

lab_subnet A "$HERE/netA"
lab_subnet B "$HERE/netB"
lab_check "OpenSM A: SUBNET UP" lab_sm A HcaA1 0 0xfec0000000000001
lab_check "OpenSM B: SUBNET UP" lab_sm B HcaB1 0 0xfec0000000000002

# run_diff NAME: sma_diff from HostX2 along 1,3; its ok/FAIL lines count here
run_diff() {
	s=$1
	timeout 60 "$DIFF" "$(lab_sock "$s")" "Hca${s}2" 1,3 > "$LAB/diff$s.out" 2> "$LAB/diff$s.err"
	rc=$?
	sed -e "s/^\(ok\|FAIL\) - /\1 - $s: /" -e "s/^# /# $s: /" -e "s/^client: /# $s: client: /" \
		"$LAB/diff$s.out"
	sed 's/^/    sma_diff: /' "$LAB/diff$s.err"
	lab_pass=$((lab_pass + $(grep -c '^ok - ' "$LAB/diff$s.out")))
	lab_fail=$((lab_fail + $(grep -c '^FAIL - ' "$LAB/diff$s.out")))
	nf=$(grep -c '^FAIL - ' "$LAB/diff$s.out")
	[ "$nf" -gt 100 ] && nf=100
	if [ "$rc" -eq "$nf" ] && grep -q '^client: ' "$LAB/diff$s.out"; then
		lab_ok "$s: sma_diff finished, exit status $rc = its failure count"
	else
		lab_nok "$s: sma_diff exit status $rc, $nf failures reported"
	fi
}

run_diff A
run_diff B
for s in A B; do
	eval "ib=\$LAB_IBSIM_$s sm=\$LAB_SM_$s"
	lab_check "$s: ibsim and OpenSM still running" kill -0 "$ib" "$sm"
done

lab_stop_all
t1=$(date +%s%N)
echo "# lab_sma_diff took $(((t1 - t0) / 1000000)) ms"
lab_finish
