# tests/lab/lab.sh - the two-subnet lab: one ibsim per subnet (a unique socket
# name per run, so labs never collide), one real OpenSM per subnet attached
# with umad2sim, each with its own config, cache, log and subnet prefix.
# Sourced by the lab scenarios.  Every process started here is stopped by its
# PID on exit; nothing else is touched.
set -u
LAB=$(mktemp -d /tmp/ibr-lab.XXXXXX)
LAB_PIDS=""
LAB_TAG="ibr$$"
UMAD2SIM=${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}
lab_pass=0
lab_fail=0

lab_cleanup() {
	for p in $LAB_PIDS; do kill "$p" 2>/dev/null; done
	sleep 0.3
	for p in $LAB_PIDS; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$LAB"
}
trap lab_cleanup EXIT
trap "exit 1" HUP INT TERM PIPE

lab_ok() { lab_pass=$((lab_pass + 1)); echo "ok - $*"; }
lab_nok() { lab_fail=$((lab_fail + 1)); echo "FAIL - $*"; }
lab_check() {
	what=$1; shift
	if "$@" > "$LAB/last.out" 2>&1; then lab_ok "$what"; else lab_nok "$what"; sed 's/^/    /' "$LAB/last.out" | head -20; fi
}
lab_finish() {
	echo "$lab_pass passed, $lab_fail failed"
	[ "$lab_fail" -eq 0 ]
}

# lab_sock NAME: the ibsim socket name of subnet NAME in this run
lab_sock() { echo "$LAB_TAG$1"; }

# lab_subnet NAME NETFILE: start ibsim for a subnet, its console on a fifo
lab_subnet() {
	name=$1 net=$2
	d=$LAB/$name
	mkdir -p "$d"
	mkfifo "$d/console"
	# a holder keeps the fifo open so ibsim never sees end of file
	sleep 100000 > "$d/console" < /dev/null &
	LAB_PIDS="$LAB_PIDS $!"
	IBSIM_SOCKNAME=$(lab_sock "$name") ibsim ${IBSIM_ARGS:-} -s "$net" < "$d/console" > "$d/ibsim.out" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
	eval "LAB_IBSIM_$name=$!"
	for _ in $(seq 1 50); do grep -q 'listen' "$d/ibsim.out" 2>/dev/null && break; sleep 0.05; done
	sleep 0.2
}

# lab_console NAME 'command': an ibsim console command (Unlink, ReLink, Error, ...)
lab_console() { echo "$2" > "$LAB/$1/console"; }

# lab_sm NAME HOST GUID PREFIX [EXTRA_CONF_FILE]: an OpenSM for subnet NAME (GUID 0:
# the one port umad2sim shows it),
# attached at node HOST; waits for SUBNET UP (up to 15 s).
lab_sm() {
	name=$1 host=$2 guid=$3 prefix=$4 extra=${5:-}
	d=$LAB/$name/sm
	mkdir -p "$d"
	[ -f "$LAB/opensm.default.conf" ] || opensm -c "$LAB/opensm.default.conf" > /dev/null 2>&1
	sed -e "s|^guid .*|guid $guid|" -e "s|^subnet_prefix .*|subnet_prefix $prefix|" \
	    -e "s|^log_file .*|log_file $d/osm.log|" -e "s|^dump_files_dir .*|dump_files_dir $d/|" \
	    -e "s|/etc/opensm/|$d/|" -e "s|^force_log_flush .*|force_log_flush TRUE|" \
	    -e "s|^accum_log_file .*|accum_log_file FALSE|" "$LAB/opensm.default.conf" > "$d/opensm.conf"
	[ -n "$extra" ] && cat "$extra" >> "$d/opensm.conf"
	(cd "$d" && IBSIM_SOCKNAME=$(lab_sock "$name") SIM_HOST=$host OSM_CACHE_DIR=$d OSM_TMP_DIR=$d \
		LD_PRELOAD=$UMAD2SIM exec opensm -F "$d/opensm.conf" < /dev/null > "$d/opensm.stdout" 2>&1) &
	LAB_PIDS="$LAB_PIDS $!"
	eval "LAB_SM_$name=$!"
	for _ in $(seq 1 300); do grep -q 'SUBNET UP' "$d/osm.log" 2>/dev/null && return 0; sleep 0.05; done
	return 1
}

# lab_router_conf FILE NAME [LEARNING]: an ibrouterd config named NAME whose
# ports a and b are attached at router nodes RtrA and RtrB of subnets A and B
# (the native ibsim transport, the SA client on) with sim data sockets
# $LAB/{a,b}.{sock,peer}; no LID, prefix or neighbour: all learned.  LEARNING
# goes into its learning section; control socket $LAB/ctl.sock.
lab_router_conf() {
	{
		printf 'router {\n\tname = "%s"\n\tnode-guid = 0x0002c90300000100\n}\n' "$2"
		for lrc_p in a b; do
			lrc_s=$(echo $lrc_p | tr ab AB)
			printf 'port "%s" {\n\tdata = sim\n\tsim-socket = "%s"\n\tsim-peer = "%s"\n' \
				$lrc_p "$LAB/$lrc_p.sock" "$LAB/$lrc_p.peer"
			printf '\tmad = ibsim\n\tibsim-socket = "%s"\n\tibsim-node = "Rtr%s"\n}\n' \
				"$(lab_sock $lrc_s)" $lrc_s
		done
		[ -z "${3:-}" ] || printf 'learning {\n\t%s\n}\n' "$3"
		printf 'control {\n\tsocket = "%s"\n}\npid-file = "%s"\n' "$LAB/ctl.sock" "$LAB/r.pid"
	} > "$1"
}

# lab_run NAME HOST cmd...: run a libibumad tool attached at node HOST of subnet NAME
lab_run() {
	name=$1 host=$2
	shift 2
	IBSIM_SOCKNAME=$(lab_sock "$name") SIM_HOST=$host LD_PRELOAD=$UMAD2SIM "$@"
}
