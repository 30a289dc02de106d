#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_worker_modes.sh - the workers' modes (ibrouterd.conf(5), worker-mode,
# worker-poll, worker-cpus): a busy and a hybrid pair of workers, pinned to
# CPU 0, forward 500 packets each way at once as event workers do; show
# workers says each one's mode and CPU, a busy worker never sleeps (no
# wake-up, its empty polls counted), a hybrid one sleeps once quiet; a
# reload to event mode restarts them so; the daemon stops within 2 s.  The
# residence-time histogram (show latency) counts exactly the copies sent.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

# workers JQ: the `show workers` answer holds every pattern given (grep -E, one row each)
workers_have() {
	"$CTL" -s "$T/ctl.sock" -j show workers | tr '{' '\n' > "$T/workers.rows"
	for pat in "$@"; do grep -qE "$pat" "$T/workers.rows" || return 1; done
}

# workers_latency N: show latency has N copies on a and on b, as show counters has
# tx_packets, a median within the maximum, and the Prometheus histogram's count N
workers_latency() {
	"$CTL" -s "$T/ctl.sock" -j show latency | tr '{' '\n' > "$T/lat.rows"
	for p in a b; do
		grep -qE "\"port\":\"$p\",\"copies\":$1,\"mean_ns\":[1-9]" "$T/lat.rows" || return 1
		"$CTL" -s "$T/ctl.sock" -o prometheus show latency |
			grep -qx "ibrouter_residence_seconds_count{port=\"$p\"} $1" || return 1
	done
	"$CTL" -s "$T/ctl.sock" -j show counters | grep -q "\"port\":\"b\",[^}]*\"tx_packets\":$1,"
}

exchange() { # exchange N: N packets each way at once, none lost
	recv_bg b "$T/b.peer" -q -c "$1" -t 15000 --expect-count "$1" --expect-dlid 5
	recv_bg a "$T/a.peer" -q -c "$1" -t 15000 --expect-count "$1" --expect-dlid 3
	for _ in $(seq 1 100); do [ -S "$T/a.peer" ] && [ -S "$T/b.peer" ] && break; sleep 0.05; done
	"$HOST" -s "$T/a.src" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 \
		--dgid fec0::2:0:0:11:1 -c "$1" &
	S1=$!
	"$HOST" -s "$T/b.src" -p "$T/b.sock" send -q --slid 5 --dlid 0x10 --sgid fec0::2:0:0:11:1 \
		--dgid fec0::1:0:0:10:1 -c "$1" &
	S2=$!
	PIDS="$PIDS $S1 $S2"
	wait $S1 $S2
	recv_wait b && recv_wait a
}

for mode in busy hybrid; do
	EXTRA_CONF="workers = 2
worker-mode = $mode
worker-poll = 2000
worker-cpus = { 0 }"
	check "$mode: the daemon starts with two $mode workers" start_router
	check "$mode: 500 each way at once, none lost" exchange 500
	check "$mode: show workers: both $mode, pinned to CPU 0, a port each" workers_have \
		"\"worker\":0,\"mode\":\"$mode\",\"cpu\":\"0\",\"ports\":\"a\"" \
		"\"worker\":1,\"mode\":\"$mode\",\"cpu\":\"0\",\"ports\":\"b\""
	check "$mode: show latency counts the 500 copies sent on each port" workers_latency 500
	check "$mode: show workers -o prometheus: the mode and CPU as labels" sh -c \
		"\"$CTL\" -s \"$T/ctl.sock\" -o prometheus show workers |
		grep -qx 'ibrouter_worker_info{worker=\"1\",mode=\"$mode\",cpu=\"0\"} 1'"
	sleep 0.3
	if [ $mode = busy ]; then
		check "busy: never asleep (no wake-up), its empty polls counted, a busy share below 1" \
			workers_have \
			'"wakeups":0,"idle_polls":[1-9][0-9]*,"turns":[1-9][0-9]*,"busy_share":"0\.[0-9]{4}"'
	else
		check "hybrid: asleep once quiet for 2 ms (wake-ups), polling before" workers_have \
			'"wakeups":[1-9][0-9]*,"idle_polls":[1-9][0-9]*,'
	fi
	if [ $mode = hybrid ]; then
		EXTRA_CONF="workers = 2"
		write_conf
		check "hybrid: reload to event workers" ctl reload
		check "event: show workers says so, unpinned" workers_have \
			'"worker":0,"mode":"event","cpu":"-"' '"worker":1,"mode":"event","cpu":"-"'
		check "event: 100 each way after the reload" exchange 100
		check "event: show latency counts them too (600 a port)" workers_latency 600
	fi
	t0=$(date +%s%N)
	kill "$RPID"
	wait "$RPID"
	st=$?
	t1=$(date +%s%N)
	check "$mode: SIGTERM stops it, status 0 ($st), within 2 s ($(((t1 - t0) / 1000000)) ms)" \
		test "$st" -eq 0 -a $(((t1 - t0) / 1000000)) -le 2000
	rm -f "$T/ctl.sock"
done
finish
