#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_conf_reload.sh - a reload of a config path that is not a config file
# neither kills nor stalls the daemon: the path replaced by a directory
# (flex used to exit(2)), a FIFO (the open blocked), a symlink to /dev/zero
# (read for ever), and a file whose unterminated /* swallows port b, the
# neighbours and the control section (the reload used to succeed without
# them).  Each by `ibrouterctl reload` and by SIGHUP: the daemon stays,
# answers, reports the error and keeps its config, and traffic still flows.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

A_HOST=fec0::1:0:0:10:1
B_HOST=fec0::2:0:0:11:1
C=$T/ibrouterd.conf

# A daemon stuck in a read ignores SIGTERM: kill it for good (by its PID).
stop_stuck() {
	if [ -n "${RPID:-}" ] && kill -0 "$RPID" 2>/dev/null; then
		kill "$RPID" 2>/dev/null
		for _ in $(seq 1 50); do kill -0 "$RPID" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$RPID" 2>/dev/null
		wait "$RPID" 2>/dev/null
	fi
}
trap 'stop_stuck; cleanup' EXIT

start_router || exit 1
cp "$C" "$T/good.conf"

# each case starts with a daemon that answers (a case that killed or stalled
# it has failed already: a new one, so that the next case still tells)
answering() {
	kill -0 "$RPID" 2>/dev/null && timeout 2 "$CTL" -s "$T/ctl.sock" version > /dev/null 2>&1
}
fresh() {
	answering && return 0
	echo "# the daemon is gone or stalled: a new one for the next case"
	stop_stuck
	rm -rf "$C" "$T/ctl.sock"
	start_router
}

# put_in_place KIND: the config path becomes a KIND, renamed into place
put_in_place() {
	rm -rf "$T/new"
	case $1 in
	dir) mkdir "$T/new" ;;
	fifo) mkfifo "$T/new" ;;
	zero) ln -s /dev/zero "$T/new" ;;
	comment) sed 's|^port "b" {|/* port "b" is off for now\n&|' "$T/good.conf" > "$T/new" ;;
	esac
	rm -rf "$C"
	mv "$T/new" "$C"
}

# the daemon is there, answers, and still has port b, both neighbours and its socket
still_there() {
	kill -0 "$RPID" 2>/dev/null &&
		timeout 5 "$CTL" -s "$T/ctl.sock" -j show ports > "$T/ports.json" &&
		grep -q '"name":"b"' "$T/ports.json" &&
		timeout 5 "$CTL" -s "$T/ctl.sock" -j show neighbours > "$T/neigh.json" &&
		[ "$(grep -o '"guid"' "$T/neigh.json" | wc -l)" -eq 2 ] &&
		timeout 5 "$CTL" -s "$T/ctl.sock" show config | grep -q '^port "b"'
}

# a blocked open of the FIFO (without the fix) ends when a writer comes and goes
unblock() {
	[ -p "$C" ] && timeout 2 sh -c ": <> \"$C\"" 2> /dev/null
	return 0
}

for kind in dir fifo zero comment; do
	case $kind in
	dir) want='not a regular file (a directory)' ;;
	fifo) want='not a regular file (a FIFO)' ;;
	zero) want='not a regular file (a character device)' ;;
	comment) want='ibrouterd.conf:[0-9]*: unterminated comment' ;;
	esac
	fresh || break
	put_in_place $kind
	timeout 5 "$CTL" -s "$T/ctl.sock" reload > "$T/reload.out" 2>&1
	rc=$?
	unblock
	check "$kind: ibrouterctl reload fails at once (exit 1, not a timeout)" [ "$rc" -eq 1 ]
	check "$kind: the reply says why" grep -q "$want" "$T/reload.out"
	check "$kind: the daemon stays, answers and keeps port b, the neighbours" still_there
	n=$(grep -c 'reload failed' "$T/ibrouterd.log")
	kill -HUP "$RPID" 2>/dev/null
	for _ in $(seq 1 50); do
		[ "$(grep -c 'reload failed' "$T/ibrouterd.log")" -gt "$n" ] && break
		sleep 0.1
	done
	unblock
	check "$kind: SIGHUP: the log says why" sh -c "grep 'reload failed' \"$T/ibrouterd.log\" | tail -1 | grep -q \"$want\""
	check "$kind: SIGHUP: the daemon stays and keeps its config" still_there
done

# the good file back: a reload works, and traffic flows A -> B
fresh
rm -rf "$C"
cp "$T/good.conf" "$C"
check "the good config reloads" timeout 5 "$CTL" -s "$T/ctl.sock" reload
recv_bg b "$T/b.peer" -q -c 5 -t 5000 --expect-count 5 --expect-dlid 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 5
check "5 packets A -> B after the failed reloads" recv_wait b
finish
