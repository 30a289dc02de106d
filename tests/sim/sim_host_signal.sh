#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_host_signal.sh - ibrouter-host exits within 1 s of SIGTERM or SIGINT in
# every wait: sending to a peer whose queue is full (a host that does not
# read: stopped with SIGSTOP), pacing with -r, receiving with a long timeout,
# and an smp waiting for a reply that does not come.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

# gone PID: PID has exited (a zombie waiting for its status counts)
gone() {
	[ ! -e "/proc/$1" ] || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]
}

# stops WHAT SIG STATUS COMMAND...: COMMAND runs into its wait, gets SIG, and
# must be gone within 1 s, with exit status STATUS
stops() {
	what=$1 sig=$2 want=$3
	shift 3
	"$@" > "$T/host.out" 2>&1 &
	p=$!
	PIDS="$PIDS $p"
	sleep 0.5
	if gone $p; then
		fail "$what: exited before SIG$sig"
		sed 's/^/    /' "$T/host.out"
		return
	fi
	kill -s "$sig" $p
	for _ in $(seq 1 20); do
		gone $p && break
		sleep 0.05
	done
	if ! gone $p; then
		fail "$what: still running 1 s after SIG$sig"
		kill -s KILL $p
		wait $p 2>/dev/null
		return
	fi
	wait $p
	st=$?
	if [ $st -eq "$want" ]; then
		ok "$what: exits within 1 s of SIG$sig, status $st"
	else
		fail "$what: exit status $st after SIG$sig, not $want"
		sed 's/^/    /' "$T/host.out"
	fi
}

# the full peer: a receiving host, stopped, so that its queue fills up
"$HOST" -s "$T/full" recv -q -t 60000 > /dev/null 2>&1 &
FULL=$!
PIDS="$PIDS $FULL"
for _ in $(seq 1 100); do [ -S "$T/full" ] && break; sleep 0.02; done
kill -s STOP $FULL
# fill its queue first: each send below then blocks on its first packet (a
# send that blocks after some went out returns their count, which hid the bug)
timeout -s KILL 1 "$HOST" -s "$T/fill" -p "$T/full" send -q -c 1000 > /dev/null 2>&1
# a peer that reads, and never answers
"$HOST" -s "$T/sink" recv -q -t 60000 > /dev/null 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 1 100); do [ -S "$T/sink" ] && break; sleep 0.02; done

for sig in TERM INT; do
	stops "send to a full peer" $sig 1 \
		"$HOST" -s "$T/src" -p "$T/full" send -q --size 4096 -c 1000000
done
stops "send paced at 1 packet/s" TERM 1 \
	"$HOST" -s "$T/src" -p "$T/sink" send -q -r 1 -c 10
stops "recv with a 60 s timeout" TERM 0 "$HOST" -s "$T/quiet" recv -q -t 60000
stops "smp waiting 60 s for a reply" TERM 1 \
	"$HOST" -s "$T/sm" -p "$T/sink" -t 60000 smp nodeinfo
kill -s KILL $FULL
finish
