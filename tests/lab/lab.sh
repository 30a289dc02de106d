# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
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
# the programs of the build tree (BUILD: its directory, default the current one)
BUILD=${BUILD:-$(pwd)}
CTL="$BUILD/tools/ibrouterctl"
HOST="$BUILD/tools/ibrouter-host"
JOIN="$BUILD/tests/lab/mad_lab_client"

lab_cleanup() {
	for p in $LAB_PIDS; do kill "$p" 2>/dev/null; done
	sleep 0.3
	for p in $LAB_PIDS; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	# LAB_KEEP=DIR in the environment: a copy of the lab's files (logs, configs) for a post-mortem
	[ -z "${LAB_KEEP:-}" ] || cp -r "$LAB" "$LAB_KEEP" 2>/dev/null
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

# lab_stop_all: stop every process of the lab now (the EXIT trap would too)
# and check that none is left behind
lab_stop_all() {
	lsa_pids=$LAB_PIDS
	lab_cleanup
	trap - EXIT
	lsa_left=""
	for p in $lsa_pids; do kill -0 "$p" 2> /dev/null && lsa_left="$lsa_left $p"; done
	if [ -z "$lsa_left" ]; then lab_ok "no process left behind"; else lab_nok "left behind:$lsa_left"; fi
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
	(cd "$d" && IBSIM_SOCKNAME=${LAB_SM_SOCK:-$(lab_sock "$name")} SIM_HOST=$host OSM_CACHE_DIR=$d OSM_TMP_DIR=$d \
		LD_PRELOAD=$UMAD2SIM exec opensm -F "$d/opensm.conf" < /dev/null > "$d/opensm.stdout" 2>&1) &
	LAB_PIDS="$LAB_PIDS $!"
	eval "LAB_SM_$name=$!"
	for _ in $(seq 1 300); do grep -q 'SUBNET UP' "$d/osm.log" 2>/dev/null && return 0; sleep 0.05; done
	return 1
}

# lab_rtr_guid NAME: the port GUID of router node RtrNAME as ibsim gives it
# (it answers that node's NodeInfo itself), read over the directed route
# 0,1,3 from host HcaNAME2; empty if the read failed.
lab_rtr_guid() {
	lab_run "$1" "Hca${1}2" smpquery -D nodeinfo 0,1,3 2>/dev/null |
		awk -F. '/^PortGuid:/ { print $NF }'
}

# lab_router_conf FILE NAME [LEARNING] [DATA]: an ibrouterd config named NAME
# whose ports a and b are attached at router nodes RtrA and RtrB of subnets A
# and B (the native ibsim transport, the SA client on); no LID, prefix or
# neighbour: all learned.  Each port's GUID is its router node's (ibsim
# answers the node's NodeInfo, our SMA its SMInfo: with two GUIDs OpenSM
# logs ERR 2F19 "Unexpected SM port GUID"), so ibsim must be up.  LEARNING
# goes into its learning section; control socket $LAB/ctl.sock.  DATA sim
# (default): sim data sockets $LAB/{a,b}.{sock,peer}; verbs: HCA ports
# $(lab_hca a) and $(lab_hca b), which the fake provider puts on those same
# sockets (lab_fake_hcas).
lab_router_conf() {
	{
		printf 'router {\n\tname = "%s"\n\tnode-guid = 0x0002c90300000100\n}\n' "$2"
		for lrc_p in a b; do
			lrc_s=$(echo $lrc_p | tr ab AB)
			if [ "${4:-sim}" = verbs ]; then
				printf 'port "%s" {\n\tdata = verbs\n\tdevice = "%s"\n' $lrc_p "$(lab_hca $lrc_p)"
			else
				printf 'port "%s" {\n\tdata = sim\n\tsim-socket = "%s"\n\tsim-peer = "%s"\n' \
					$lrc_p "$LAB/$lrc_p.sock" "$LAB/$lrc_p.peer"
			fi
			lrc_g=$(lab_rtr_guid $lrc_s)
			[ -z "$lrc_g" ] || printf '\tport-guid = %s\n' "$lrc_g"
			printf '\tmad = ibsim\n\tibsim-socket = "%s"\n\tibsim-node = "Rtr%s"\n}\n' \
				"$(lab_sock $lrc_s)" $lrc_s
		done
		[ -z "${3:-}" ] || printf 'learning {\n\t%s\n}\n' "$3"
		printf 'control {\n\tsocket = "%s"\n}\npid-file = "%s"\n' "$LAB/ctl.sock" "$LAB/r.pid"
	} > "$1"
}

# lab_hca PORT: the fake HCA device of router port a or b (data = verbs)
lab_hca() { if [ "$1" = a ]; then echo mlx5_0; else echo mlx5_1; fi; }

# lab_port_id NAME PATH: "LID LMC GID" of the port at the end of directed
# route PATH from host HcaNAME2 (0: the host itself; 0,1,3: router node
# RtrNAME through the switch) as OpenSM set it up, read with smpquery as an
# operator would; the GID in full IPv6 form (GidPrefix and PortGuid, IBA 4.1.1).
lab_port_id() {
	{ lab_run "$1" "Hca${1}2" smpquery -D portinfo "$2" && lab_run "$1" "Hca${1}2" smpquery -D nodeinfo "$2"; } 2>&1 |
		awk -F. '/^Lid:/ { l = $NF } /^LMC:/ { m = $NF } /^GidPrefix:/ { p = substr($NF, 3) }
			/^PortGuid:/ { g = substr($NF, 3) }
			END { if (l == "" || m == "" || length(p g) != 32) exit 1
			      s = p g; printf "%d %d ", l, m
			      for (i = 1; i <= 32; i += 4) printf "%s%s", substr(s, i, 4), i < 29 ? ":" : "\n" }'
}

# lab_fake_hcas: FAKE_VERBS_DEVICES for the verbs router (tests/fakes): each
# fake HCA's port is a router node's port, so it has the LID, LMC and GID
# OpenSM gave that node (the SM sets up an HCA port so) and the sim data
# sockets of lab_router_conf.  After SUBNET UP in A and B.
lab_fake_hcas() {
	for lfh_p in a b; do
		set -- $(lab_port_id "$(echo $lfh_p | tr ab AB)" 0,1,3)
		[ $# -eq 3 ] || return 1
		printf '%s%s,%s,%s,%s,%s,%s' "${lfh_sep:-}" "$(lab_hca $lfh_p)" "$LAB/$lfh_p.sock" \
			"$LAB/$lfh_p.peer" "$1" "$3" "$2"
		lfh_sep=";"
	done
	lfh_sep=""
}

# lab_round TAG: from here on (in a subshell) a lab of its own: directory,
# ibsim socket names, PIDs, counts and cleanup when the subshell exits, so
# that a script can run the same scenarios twice from the same start
# (lab_verbs.sh).  lab_round_end FILE writes its counts for lab_round_add.
lab_round() {
	LAB=$(mktemp -d /tmp/ibr-lab.XXXXXX)
	LAB_PIDS="" LAB_TAG="ibr$$$1" lab_pass=0 lab_fail=0
	trap lab_cleanup EXIT
	trap "exit 1" HUP INT TERM PIPE
}
lab_round_end() { echo "$lab_pass $lab_fail" > "$1"; }
lab_round_add() {
	lra_p=0 lra_f=1 # a round that ended without its counts failed
	[ ! -s "$1" ] || read -r lra_p lra_f < "$1"
	lab_pass=$((lab_pass + lra_p)) lab_fail=$((lab_fail + lra_f))
}

# lab_run NAME HOST cmd...: run a libibumad tool attached at node HOST of subnet NAME
lab_run() {
	name=$1 host=$2
	shift 2
	IBSIM_SOCKNAME=$(lab_sock "$name") SIM_HOST=$host LD_PRELOAD=$UMAD2SIM "$@"
}

# lab_join_state S MGID GID: GID's JoinState in group MGID as subnet S's SA
# lists it to host S2 with OpenSM's SM_Key (others see the PortGIDs zeroed):
# the low nibble of saquery's ScopeState, 0x1 FullMember .. 0x8; empty: no
# member.  saquery -m lists every group's members whatever --mgid says.
lab_join_state() {
	lab_run "$1" "Hca${1}2" saquery --smkey 1 -m --mgid "$2" 2>/dev/null |
		awk -F. -v m="$2" -v g="$3" '/MGID/ { mg = tolower($NF) } /PortGid/ { p = tolower($NF) }
			/ScopeState/ { if (mg == m && p == g) print "0x" substr($NF, length($NF)) }'
}

# ---- helpers of the labs that run ibrouterd (control socket $LAB/ctl.sock) ----
ctl() { "$CTL" -s "$LAB/ctl.sock" "$@"; }

# wait_for SECONDS cmd...: poll until cmd succeeds (every 0.1 s)
wait_for() {
	t=$1; shift
	n=$((t * 10))
	while [ "$n" -gt 0 ]; do "$@" > /dev/null 2>&1 && return 0; sleep 0.1; n=$((n - 1)); done
	"$@"
}

# sa_end_ports NAME HOST: "GUID LID" of every end port OpenSM knows (saquery per LID)
sa_end_ports() {
	for lid in $(seq 1 12); do
		lab_run "$1" "$2" saquery "$lid" 2>/dev/null |
			awk -v lid="$lid" '/port_guid/ { split($1, a, "."); g = a[length(a)] }
				/^[ \t]*lid\./ { n = split($1, b, "."); l = b[n] }
				END { if (g != "" && l == lid) printf "%s %d\n", g, lid }'
	done
}

# neighbours PORT [SOURCE]: "GUID LID" the router holds for PORT, from SOURCE (sa)
neighbours() {
	ctl show neighbours "$1" | awk -v p="$1" -v s="${2:-sa}" '$1 == p && $5 == s { printf "%s %d\n", $2, $3 }'
}
has_neigh() { neighbours "$1" | grep -q "^$2 "; }
no_neigh() { ! has_neigh "$@"; }
port_lid() { printf '%d' "$(ctl show ports | awk -v p="$1" '$1 == p { print $4; exit }')"; }
synced_count() { grep -c "sa: $1: synced" "$LAB/r.log"; }
# mlid_of MGID PORT: the group's MLID in the subnet of PORT, as the router learned it
mlid_of() { ctl show mcast | awk -v g="$1" -v p="$2" '$1 == g && $2 == p { print $3 }'; }
# drop_count REASON: the router's drops for REASON, all ports
drop_count() { ctl show drops | awk -v r="$1" '$0 ~ r { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) n = $i } END { print n + 0 }'; }
# path_dlid SGID DGID: the DLID of the PathRecord a host in A gets from its SA
path_dlid() { lab_run A HcaA2 saquery --smkey 1 -p --sgid-to-dgid "$1-$2" 2>/dev/null | awk -F. '/dlid/ { print $NF }' | head -1; }
# prefix_routes_a: OpenSM A learns the router's prefix routes (its
# prefix_routes_file, re-read at the heavy sweep SIGHUP forces)
prefix_routes_a() {
	ctl show osm-prefix-routes a > "$LAB/A/sm/prefix-routes.conf"
	eval "kill -HUP \$LAB_SM_A"
}

# ---- several routers (lab_peers.sh: subnets A, B of netB2 and C; routers
# R1 on A and B, R2 on B and C) ----

# lab_port_guid NAME PATH: the port GUID of the port at the end of directed
# route PATH from host HcaNAME2 (lab_rtr_guid for any path); empty if the
# read failed.
lab_port_guid() {
	lab_run "$1" "Hca${1}2" smpquery -D nodeinfo "$2" 2>/dev/null |
		awk -F. '/^PortGuid:/ { print $NF }'
}

# lab_dr_path NAME NODE: the directed route from host HcaNAME2 to node NODE
# of subnet NAME: "0,1,P" where P is the port of the switch behind HcaNAME2
# (that host's port 1) NODE is cabled to, as ibsim answers NodeDescription
# (the node's name); switch ports 1..8 are tried in turn.  Empty and status 1
# if no port leads there.
lab_dr_path() {
	for ldp_p in 1 2 3 4 5 6 7 8; do
		if lab_run "$1" "Hca${1}2" smpquery -D nodedesc "0,1,$ldp_p" 2>/dev/null |
			grep -q "^Node Description:\.*$2\$"; then
			echo "0,1,$ldp_p"
			return 0
		fi
	done
	return 1
}

# lab_router_conf_ports FILE NAME NODE_GUID CTLSOCK PIDFILE LEARNING PORTSPEC...:
# an ibrouterd config named NAME (router node-guid NODE_GUID, control socket
# CTLSOCK, pid file PIDFILE; LEARNING, if not empty, the body of its
# learning section), one port section a PORTSPEC, in order:
#   port:SUBNET:NODE:SOCK:PEER[:PATH]
# port name, ibsim subnet (lab_subnet's NAME), ibsim router node, sim data
# socket and sim data peer path, and optionally the directed route from host
# HcaSUBNET2 to NODE (default: lab_dr_path SUBNET NODE).  Each port the
# native ibsim transport, the SA client on, its port GUID its router node's
# as read over PATH (left out if the read failed: see lab_router_conf), no
# LID, prefix or neighbour: all learned.  Status 1 (the file still written)
# if a port's path or GUID could not be read; ibsim must be up.
lab_router_conf_ports() {
	lrcp_f=$1 lrcp_name=$2 lrcp_guid=$3 lrcp_ctl=$4 lrcp_pid=$5 lrcp_learn=$6
	shift 6
	lrcp_rc=0
	{
		printf 'router {\n\tname = "%s"\n\tnode-guid = %s\n}\n' "$lrcp_name" "$lrcp_guid"
		for lrcp_spec in "$@"; do
			lrcp_path=""
			IFS=: read -r lrcp_p lrcp_s lrcp_n lrcp_sock lrcp_peer lrcp_path <<-LRCP
				$lrcp_spec
			LRCP
			[ -n "$lrcp_path" ] || lrcp_path=$(lab_dr_path "$lrcp_s" "$lrcp_n") || lrcp_rc=1
			lrcp_g=""
			[ -z "$lrcp_path" ] || lrcp_g=$(lab_port_guid "$lrcp_s" "$lrcp_path")
			[ -n "$lrcp_g" ] || lrcp_rc=1
			printf 'port "%s" {\n\tdata = sim\n\tsim-socket = "%s"\n\tsim-peer = "%s"\n' \
				"$lrcp_p" "$lrcp_sock" "$lrcp_peer"
			[ -z "$lrcp_g" ] || printf '\tport-guid = %s\n' "$lrcp_g"
			printf '\tmad = ibsim\n\tibsim-socket = "%s"\n\tibsim-node = "%s"\n}\n' \
				"$(lab_sock "$lrcp_s")" "$lrcp_n"
		done
		[ -z "$lrcp_learn" ] || printf 'learning {\n\t%s\n}\n' "$lrcp_learn"
		printf 'control {\n\tsocket = "%s"\n}\npid-file = "%s"\n' "$lrcp_ctl" "$lrcp_pid"
	} > "$lrcp_f"
	return $lrcp_rc
}

# lab_ibrouterd NAME CONF: start ibrouterd (-d) with CONF, its output in
# $LAB/NAME.log, its PID in LAB_PIDS and LAB_RTR_NAME
lab_ibrouterd() {
	"$BUILD/ibrouterd" -d -f "$2" > "$LAB/$1.log" 2>&1 &
	LAB_PIDS="$LAB_PIDS $!"
	eval "LAB_RTR_$1=$!"
}

# ctl_at CTLSOCK cmd...: ibrouterctl on the daemon of control socket CTLSOCK
ctl_at() { lcs=$1; shift; "$CTL" -s "$lcs" "$@"; }

# lab_synced LOG PORT: the daemon of LOG has synced PORT's subnet at least once
lab_synced() { grep -q "sa: $2: synced" "$1"; }

# lab_peer_learning LEASE: the learning section's body of a router that
# exchanges routes (announce-routes with LEASE, peer-routes read every second,
# a 2 s hold-down)
lab_peer_learning() {
	printf 'announce-routes = true\n\tannounce-lease = %s\n\tpeer-routes = true\n\tpeer-interval = 1\n\tpeer-holddown = 2' "$1"
}

# ms_now: milliseconds of the wall clock (date; nothing in a lab changes it)
ms_now() { date +%s%3N; }

# wait_ms MS cmd...: poll cmd until it succeeds, for at most MS milliseconds
# of the clock (wait_for counts tries, and a try that runs ibrouterctl and
# python takes a while)
wait_ms() {
	wm_end=$(($(ms_now) + $1))
	shift
	until "$@" > /dev/null 2>&1; do
		[ "$(ms_now)" -lt "$wm_end" ] || return 1
		sleep 0.02
	done
}

# lab_median: the median of the numbers on stdin, one a line
lab_median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
