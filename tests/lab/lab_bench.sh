#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_bench.sh - how fast the SA client follows real OpenSM (make bench):
#   BENCH converge_event MS   median over 20 events (10 Unlink and 10 ReLink
#                             of a host port) of the time from the ibsim
#                             console command to the router's table changed,
#                             OpenSM's sweep and Report included
#   BENCH sync_N S            a full sync of a generated subnet of N end
#                             ports and N/10 multicast groups (N = 250, 500,
#                             1000), as the client measures it: the median of
#                             3 resyncs
# Each line is followed by a comment with the baseline of the same run.
. "$(dirname "$0")/lab.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(pwd)}
CTL="$BUILD/tools/ibrouterctl"
JOIN="$BUILD/tests/lab/mad_lab_client"

now_ms() { echo $(($(date +%s%N) / 1000000)); }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# router NAME PORTS...: an ibrouterd whose ports are "port:subnet:node"
router() {
	name=$1; shift
	conf="$LAB/$name.conf"
	: > "$conf"
	printf 'router {\n\tname = "%s"\n\tnode-guid = 0x0002c90300000100\n}\n' "$name" >> "$conf"
	for p in "$@"; do
		pn=${p%%:*} rest=${p#*:}
		printf 'port "%s" {\n\tdata = none\n\tmad = ibsim\n\tibsim-socket = "%s"\n\tibsim-node = "%s"\n\tsa-client = true\n}\n' \
			"$pn" "$(lab_sock "${rest%%:*}")" "${rest#*:}" >> "$conf"
	done
	printf 'learning {\n\tresync-interval = 0\n}\ncontrol {\n\tsocket = "%s"\n}\npid-file = "%s"\n' \
		"$LAB/$name.sock" "$LAB/$name.pid" >> "$conf"
	"$BUILD/ibrouterd" -d -f "$conf" > "$LAB/$name.log" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
}
synced() { grep -c "sa: $2: synced" "$LAB/$1.log"; }
# sa_cols SOCKET PORT COLUMN...: those columns of the port's show sa, by name
# (its JSON form: the text form wraps at 100 columns)
sa_cols() {
	sc_sock=$1 sc_port=$2
	shift 2
	"$CTL" -s "$sc_sock" -j show sa "$sc_port" | python3 -c '
import json, sys
r = json.load(sys.stdin)["data"][0]
print(" ".join(str(r.get(k, "")) for k in sys.argv[1:]))' "$@"
}
wait_synced() { # NAME PORT COUNT TIMEOUT_S
	ws_left=$(($4 * 20))
	while [ "$ws_left" -gt 0 ]; do
		[ "$(synced "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.05; ws_left=$((ws_left - 1))
	done
	return 1
}

# ---- converge_event ----
lab_subnet A "$HERE/netA"
lab_sm A HcaA1 0 0xfec0000000000001 || { echo "bench: OpenSM A did not come up"; exit 1; }
router ce a:A:RtrA
wait_synced ce a 1 10 || { echo "bench: no sync"; exit 1; }
has() { "$CTL" -s "$LAB/ce.sock" show neighbours a | grep -q 0x0000000000100003; }
# the daemon's wall clock of port a's last Report and last table change (ms;
# show sa prints them in ISO 8601)
iso_ms() { date -u -d "$1" +%s%3N; }
sa_times() {
	set -- $(sa_cols "$LAB/ce.sock" a last_report last_change)
	echo "$(iso_ms "$1") $(iso_ms "$2")"
}
: > "$LAB/ce.ms"
: > "$LAB/ce.router.ms"
event() { # CONSOLE-COMMAND WANT(has|!has)
	t0=$(now_ms)
	lab_console A "$1"
	while :; do
		if has; then [ "$2" = has ] && break; else [ "$2" = has ] || break; fi
		sleep 0.02
	done
	set -- $(sa_times)
	echo $(($2 - t0)) >> "$LAB/ce.ms"
	echo $(($2 - $1)) >> "$LAB/ce.router.ms"
}
for i in $(seq 1 10); do
	event 'Unlink "HcaA2"[1]' gone
	event 'ReLink "HcaA2"[1]' has
done
echo "BENCH converge_event $(median < "$LAB/ce.ms") ms"
echo "# converge_event: 20 events, console command to table published (min $(sort -n "$LAB/ce.ms" | head -1), max $(sort -n "$LAB/ce.ms" | tail -1) ms); of which the router, Report to table published: median $(median < "$LAB/ce.router.ms") ms, max $(sort -n "$LAB/ce.router.ms" | tail -1) ms; the rest is OpenSM's sweep and Report"

# ---- sync_N ----
# gen_net N: a spine, leaves of 31 hosts, N hosts, the router on the spine
gen_net() {
	gn=$1 leaves=$(( ($1 + 30) / 31 ))
	echo "rtguid=0x300000"
	echo "caguid=0x100000"
	echo "switchguid=0x200000"
	echo "Switch $((leaves + 2)) \"Spine\""
	echo "[1] \"Rtr\"[1]"
	for l in $(seq 1 $leaves); do echo "[$((l + 1))] \"Leaf$l\"[32]"; done
	echo
	h=0
	for l in $(seq 1 $leaves); do
		echo "Switch 32 \"Leaf$l\""
		for j in $(seq 1 31); do
			h=$((h + 1)); [ $h -gt "$gn" ] && break
			echo "[$j] \"H$h\"[1]"
		done
		echo "[32] \"Spine\"[$((l + 1))]"
		echo
	done
	for h in $(seq 1 "$gn"); do
		l=$(( (h - 1) / 31 + 1 )) j=$(( (h - 1) % 31 + 1 ))
		printf 'Hca 1 "H%d"\n[1] "Leaf%d"[%d]\n\n' "$h" "$l" "$j"
	done
	printf 'Rt 1 "Rtr"\n[1] "Spine"[1]\n'
}
for N in 250 500 1000; do
	s=S$N
	gen_net $N > "$LAB/net$N"
	IBSIM_ARGS="-N 1200 -S 64" lab_subnet $s "$LAB/net$N"
	if ! lab_sm $s H1 0 0xfec00000000000$(printf %02x $((N / 50))); then
		echo "bench: OpenSM for $N ports did not come up"; continue
	fi
	for g in $(seq 1 $((N / 10))); do
		"$JOIN" join "$(lab_sock $s)" H$(( (g * 7) % N + 1 )) "ff15::2:$g" 1 > /dev/null 2>&1
	done
	router r$N p:$s:Rtr
	wait_synced r$N p 1 60 || { echo "bench: sync_$N: no sync"; continue; }
	: > "$LAB/s$N.ms"
	for k in 1 2 3; do
		"$CTL" -s "$LAB/r$N.sock" sa resync > /dev/null
		wait_synced r$N p $((k + 1)) 60
		sa_cols "$LAB/r$N.sock" p last_sync_ms >> "$LAB/s$N.ms"
	done
	got=$(sa_cols "$LAB/r$N.sock" p end_ports groups | awk '{ print $1 " end ports, " $2 " groups" }')
	echo "BENCH sync_$N $(median < "$LAB/s$N.ms" | awk '{ printf "%.3f", $1 / 1000 }') s"
	echo "# sync_$N: $got learned ($N hosts + $(( (N + 30) / 31 + 1 )) switches; $((N / 10)) groups joined)"
	eval "kill \$LAB_SM_$s"
done
