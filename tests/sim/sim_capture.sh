#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_capture.sh - captures go to a file that ibrouterctl opened as the user
# who runs it and passed to ibrouterd as a descriptor (ibrouterctl(8),
# capture start): a symbolic link is never followed, by ibrouterctl nor by
# the daemon, whoever planted it and wherever it points;
# the file is the user's, mode 0600; FIFOs, devices and /proc files are
# refused at capture start and never block the daemon; open errors are
# reported as they are; no descriptor sent with any request stays open in
# the daemon; and the capture decodes in tshark.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
need_nobody
FDSEND=$BUILD/tests/sim/ctl_fdsend

A_HOST=fec0::1:0:0:10:1 # GUID 0x100001, LID 3 in subnet A
B_HOST=fec0::2:0:0:11:1 # GUID 0x110001, LID 5 in subnet B

if [ "$(id -u)" -ne 0 ] || ! command -v setpriv > /dev/null 2>&1; then
	echo "SKIP: needs root and setpriv(1), to run ibrouterctl as another user"
	exit 77
fi

# the plugin sessions are on, to send them descriptors too
EXTRA_CONF='learning {
	osm-plugin = true
}'
start_router || exit 1
chmod 0755 "$T"
U=$T/u # a directory of uid 65534's
mkdir "$U" && chown 65534:65534 "$U"
# uid 65534, a member of the control socket's group (root, the default) only
as_user() { setpriv --reuid=65534 --regid=65534 --groups=0 --inh-caps=-all "$@"; }
uctl() { as_user "$CTL" -s "$T/ctl.sock" "$@"; }
fdsend() { "$FDSEND" "$T/ctl.sock" "$@"; }
nfds() { ls "/proc/$RPID/fd" | wc -l; }
# stop whatever an unfixed daemon may have started, so each check stands alone
reset() { ctl capture stop > /dev/null 2>&1; }

uctl capture stop > "$T/priv.out" 2>&1
check "uid 65534 in the socket's group may run capture commands" grep -q 'no capture is running' "$T/priv.out"

# (a) a symlink to a root-only file: ibrouterctl does not follow it, nothing is written
printf 'root only\n' > "$T/secret"
chmod 0600 "$T/secret"
cp -p "$T/secret" "$T/secret.orig"
ln -s "$T/secret" "$U/link.pcap"
uctl capture start a "$U/link.pcap" all > "$T/link.out" 2>&1
check "(a) a capture to a symlink to a root-only file is refused: a symbolic link" grep -q "link.pcap: a symbolic link: refused" "$T/link.out"
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 2
reset
check "(a) the symlink's target is untouched" cmp -s "$T/secret" "$T/secret.orig"
check "(a) the target keeps its owner and mode" test "$(stat -c '%u %a' "$T/secret")" = "0 600"

# (h) root captures to a name in a sticky world-writable directory (as /tmp)
# where uid 65534 planted a link to a file of root's: with
# fs.protected_symlinks = 0 the kernel lets root follow it, so only the
# refusal of links stands between the capture and the link's target (set to
# 0 for the test where it can be, and back afterwards)
PS_OLD=$(cat /proc/sys/fs/protected_symlinks 2> /dev/null || echo none)
ps_restore() {
	[ "$PS_OLD" = 0 ] || [ "$PS_OLD" = none ] || sysctl -qw fs.protected_symlinks="$PS_OLD"
	PS_OLD=0
}
trap 'st=$?; ps_restore; (exit $st); cleanup' EXIT
if [ "$PS_OLD" = 0 ] || sysctl -qw fs.protected_symlinks=0 2> /dev/null; then
	mkdir -m 1777 "$T/sticky"
	printf 'precious\n' > "$T/victim"
	cp -p "$T/victim" "$T/victim.orig"
	as_user ln -s "$T/victim" "$T/sticky/cap.pcap"
	ctl capture start a "$T/sticky/cap.pcap" all > "$T/sticky.out" 2>&1
	ps_restore
	check "(h) root's capture to a link planted in a sticky directory: refused" \
		grep -q "sticky/cap.pcap: a symbolic link: refused" "$T/sticky.out"
	reset
	check "(h) ... and the link's target is untouched" cmp -s "$T/victim" "$T/victim.orig"
else
	echo "# SKIP (h): fs.protected_symlinks is $PS_OLD and cannot be set to 0 here"
fi
# (h) the daemon's own check: a descriptor opened through a link (by the shell,
# as a client that follows links would), with FILE the link's name
printf 'precious\n' > "$T/victim2"
cp -p "$T/victim2" "$T/victim2.orig"
ln -s "$T/victim2" "$T/link2.pcap"
fdsend -f 3 "capture start a $T/link2.pcap" 3>> "$T/link2.pcap" > "$T/dlink.out" 2>&1
check "(h) the daemon refuses a descriptor reached through a symbolic link" \
	grep -q '"ok":false.*link2.pcap is a symbolic link' "$T/dlink.out"
reset
check "(h) ... and the link's target is untouched" cmp -s "$T/victim2" "$T/victim2.orig"

# (b), (g) a capture as uid 65534: its file, 0600, decoded by tshark
uctl capture start a "$U/cap.pcap" all > "$T/start.out" 2>&1
check "(b) capture start as uid 65534: says what it captures" \
	grep -qxF "capturing every packet on port a to $U/cap.pcap" "$T/start.out"
check "(b) the capture file is uid 65534's, mode 0600" test "$(stat -c '%u %a' "$U/cap.pcap" 2>&1)" = "65534 600"
check "(b) the pcap header is written at capture start" test "$(stat -c %s "$U/cap.pcap" 2>&1)" = 24
uctl capture start a "$U/cap.pcap" all > "$T/busy.out" 2>&1
check "(b) a second capture is refused (EBUSY)" grep -q 'already running (EBUSY)' "$T/busy.out"
check "(b) ... and leaves the running capture's file alone" test "$(stat -c %s "$U/cap.pcap" 2>&1)" = 24
uctl capture start a "$U/new.pcap" all > "$T/busy2.out" 2>&1
check "(b) a second capture into a new file: refused (EBUSY)" grep -q 'already running (EBUSY)' "$T/busy2.out"
check "(b) ... and no new file is left behind" test ! -e "$U/new.pcap"
recv_bg b "$T/b.peer" -q -c 5 -t 5000 --expect-count 5
send_a --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST -c 5
check "B received the 5 packets while port a was captured" recv_wait b
sleep 0.2
uctl -j capture stop > "$T/stop.json" 2>&1
check "(b) capture stop: the file and its 5 packets" grep -qF "\"file\":\"$U/cap.pcap\",\"packets\":5}" "$T/stop.json"
if command -v tshark > /dev/null 2>&1; then
	check "(g) tshark decodes the user's capture: 5 packets from SLID 3" sh -c "[ \$(tshark -r '$U/cap.pcap' -T fields -e infiniband.lrh.slid 2>/dev/null | grep -cx 3) -eq 5 ]"
fi
(cd "$U" && uctl capture start a rel.pcap) > "$T/rel.out" 2>&1
check "(b) capture start says it captures drops only, by default, and how to have every packet" \
	grep -qxF "capturing drops only on port a to $U/rel.pcap (add \`all\` for every packet)" "$T/rel.out"
uctl -j capture stop > "$T/relstop.json" 2>&1
check "(b) a relative FILE is the user's working directory's, and named so" grep -qF "\"file\":\"$U/rel.pcap\",\"packets\":0}" "$T/relstop.json"
uctl -j capture start a "$U/j.pcap" count 3 > "$T/start.json" 2>&1
check "(b) capture start -j: done, what, port, file, mode" grep -qF "{\"ok\":true,\"data\":{\"done\":true,\"message\":\"capturing drops only on port a to $U/j.pcap, until 3 packets (add \`all\` for every packet)\",\"port\":\"a\",\"file\":\"$U/j.pcap\",\"mode\":\"drops\"}}" "$T/start.json"
reset
uctl capture start zz "$U/zz.pcap" > "$T/zz.out" 2>&1
check "(b) a capture on no such port: refused" grep -q "no port 'zz'" "$T/zz.out"
check "(b) ... and the file made for it is removed again" test ! -e "$U/zz.pcap"
: > "$U/old.pcap"
chown 65534:65534 "$U/old.pcap"
uctl capture start zz "$U/old.pcap" > "$T/zz.out" 2>&1
check "(b) ... a file that was there before stays" test -f "$U/old.pcap"

# a capture whose file fills up closes itself (a 64 KiB tmpfs that only
# ibrouterctl's mount namespace sees: the daemon writes through the descriptor)
mkdir "$T/small"
if unshare -m sh -c "mount -t tmpfs -o size=64k none '$T/small' && \"$CTL\" -s '$T/ctl.sock' capture start a '$T/small/c.pcap' all" > "$T/small.out" 2>&1; then
	"$HOST" -s "$T/a.src" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid $A_HOST \
		--dgid $B_HOST --size 256 -c 1000
	sleep 1.2 # the control loop closes it within a second
	ctl capture stop > "$T/full2.out" 2>&1
	check "a capture whose disk is full closes itself" grep -q 'no capture is running' "$T/full2.out"
	check "... and the daemon says why" grep -q 'capture: .*small/c.pcap: No space left on device' "$T/ibrouterd.log"
else
	echo "# no private tmpfs here (unshare -m): the full-disk check is skipped"
fi
reset

# (d) devices and /proc files fail at capture start, in ibrouterctl and in the daemon
ctl capture start a /dev/full > "$T/full.out" 2>&1
check "(d) /dev/full: refused at capture start (not a regular file)" grep -q '/dev/full: not a regular file' "$T/full.out"
reset
fdsend -f 3 "capture start a /dev/full" 3> /dev/full > "$T/dfull.out" 2>&1
check "(d) the daemon refuses a descriptor of /dev/full (a character device)" grep -q '"ok":false.*a character device' "$T/dfull.out"
reset
fdsend -f 3 "capture start a /dev/null" 3> /dev/null > "$T/dnull.out" 2>&1
check "(d) the daemon refuses a descriptor of /dev/null" grep -q '"ok":false.*a character device' "$T/dnull.out"
reset
ctl capture start a /proc/self/mem > "$T/mem.out" 2>&1
check "(d) /proc/self/mem: refused at capture start (proc)" grep -q 'capture start: /proc/self/mem is on proc' "$T/mem.out"
reset
fdsend -f 3 "capture start a /proc/self/mem" 3> /proc/self/mem > "$T/dmem.out" 2>&1
check "(d) the daemon refuses a descriptor of a /proc file" grep -q '"ok":false.*is on proc' "$T/dmem.out"
reset
: > "$T/ro.pcap"
fdsend -f 3 "capture start a $T/ro.pcap" 3< "$T/ro.pcap" > "$T/ro.out" 2>&1
check "(d) the daemon refuses a descriptor not open for writing" grep -q '"ok":false.*not open for writing' "$T/ro.out"
reset
fdsend "capture start a $T/nofd.pcap" > "$T/nofd.out" 2>&1
check "(d) a capture start without a descriptor is refused: use ibrouterctl" grep -q '"ok":false.*ibrouterctl' "$T/nofd.out"
check "(d) ... and the daemon did not create the file" test ! -e "$T/nofd.pcap"
reset
ctl capture stop > "$T/none.out" 2>&1
check "(d) none of them started a capture" grep -q 'no capture is running' "$T/none.out"

# (e) open errors as they are, not EIO
uctl capture start a "$U" > "$T/isdir.out" 2>&1
check "(e) a directory: Is a directory" sh -c "grep -q '$U: Is a directory' '$T/isdir.out' && ! grep -q EIO '$T/isdir.out'"
reset
long=$U/$(printf '%0300d' 0)
uctl capture start a "$long" > "$T/long.out" 2>&1
check "(e) a name too long: File name too long" sh -c "grep -q 'File name too long' '$T/long.out' && ! grep -q EIO '$T/long.out'"
reset

# (race) captures of a and of b, started and stopped while traffic flows both
# ways: each file holds only its own port's packets (received: interface 0,
# sent: 1), as many as its stop reply says.  Under a TSan build this is where
# the workers and the control thread meet.
recv_bg a "$T/a.peer" -q -t 30000
recv_bg b "$T/b.peer" -q -t 30000
# senders of their own (the receivers hold the peer sockets), until killed
"$HOST" -s "$T/a.src" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid $A_HOST --dgid $B_HOST \
	-c 1000000 -r 2000 &
sa=$!
"$HOST" -s "$T/b.src" -p "$T/b.sock" send -q --slid 5 --dlid 0x10 --sgid $B_HOST \
	--dgid $A_HOST -c 1000000 -r 2000 &
sb=$!
PIDS="$PIDS $sa $sb"
for i in $(seq 1 20); do
	ctl capture start a "$T/ca$i.pcap" all > /dev/null 2>&1
	sleep 0.03
	ctl -j capture stop > "$T/ca$i.json" 2>&1
	ctl capture start b "$T/cb$i.pcap" all > /dev/null 2>&1
	sleep 0.03
	ctl -j capture stop > "$T/cb$i.json" 2>&1
done
eval "kill $sa $sb \$RECV_a \$RECV_b"
wait $sa $sb
recv_wait a
recv_wait b
check "the daemon answers after $i rounds of captures under traffic" ctl version
# cap_own PORT RX-SLID TX-SLID: the port's captures hold, in all, as many packets
# as their stop replies said, and only the port's own: received from its
# host's SLID on interface 0, sent with the port's LID as SLID on interface 1
cap_own() {
	n=$(cat "$T"/c$1[0-9]*.json | sed -n 's/.*"packets":\([0-9]*\)}.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
	mergecap -a -w "$T/c$1.all" "$T"/c$1[0-9]*.pcap || return 1
	tshark -r "$T/c$1.all" -T fields -e erf.flags.cap -e infiniband.lrh.slid > "$T/c$1.txt" 2> /dev/null || return 1
	echo "port $1: $(wc -l < "$T/c$1.txt") packets in the files, $n in the replies"
	[ "$(wc -l < "$T/c$1.txt")" -eq "$n" ] && [ "$n" -gt 0 ] && ! grep -v -x -e "0	$2" -e "1	$3" "$T/c$1.txt"
}
if command -v tshark > /dev/null 2>&1 && command -v mergecap > /dev/null 2>&1; then
	check "port a's captures hold a's packets only, as many as the replies say" cap_own a 3 1
	check "port b's captures hold b's packets only, as many as the replies say" cap_own b 5 16
fi

# (f) no descriptor stays open in the daemon, whatever request brought it
fds_settle() { # the daemon closes a finished client when it sees it go
	for _ in $(seq 1 60); do
		[ "$(nfds)" -le "$1" ] && return 0
		sleep 0.05
	done
	echo "the daemon has $(nfds) descriptors, $1 before:"
	ls -l "/proc/$RPID/fd"
	return 1
}
base=$(nfds)
fdsend -f 3 version 3< /dev/null > "$T/f.out" 2>&1
check "(f) a descriptor with version: answered" grep -q '"ok":true' "$T/f.out"
fdsend -f 3 -f 4 "capture start a $T/f.pcap" 3> "$T/two1" 4> "$T/two2" > "$T/f.out" 2>&1
check "(f) two descriptors with a request: refused" grep -q '"ok":false.*one descriptor' "$T/f.out"
check "(f) ... neither file written" sh -c "[ ! -s '$T/two1' ] && [ ! -s '$T/two2' ]"
fdsend -f 3 -f 4 -f 5 -f 6 -f 7 -f 8 -f 9 -f 10 version 3< /dev/null 4< /dev/null 5< /dev/null \
	6< /dev/null 7< /dev/null 8< /dev/null 9< /dev/null 10< /dev/null > "$T/f.out" 2>&1
check "(f) eight descriptors (cut short by the kernel): refused" grep -q '"ok":false.*one descriptor' "$T/f.out"
fdsend -f 3 "capture stop" -f 3 "show ports" -f 3 "capture start zz $T/f.pcap" \
	-f 3 "capture start a $T/f.pcap bogus" -f 3 "$(printf '%05000d' 0)" 3> "$T/f.pcap" > "$T/f.out" 2>&1
check "(f) descriptors with other requests, bad ports, usage errors, long requests" sh -c "[ \$(grep -c '\"ok\":false' '$T/f.out') -eq 4 ] && [ ! -s '$T/f.pcap' ]"
fdsend -f 3 "capture start a $T/f.pcap" "capture stop" 3> "$T/f.pcap" > "$T/f.out" 2>&1
check "(f) a capture through a descriptor, stopped" grep -q '"packets":0' "$T/f.out"
chmod 0666 "$T/ctl.sock"
setpriv --reuid=65534 --regid=65534 --clear-groups "$FDSEND" "$T/ctl.sock" -f 3 "capture start a $T/f.pcap" 3> "$T/f.pcap" > "$T/f.out" 2>&1
chmod 0660 "$T/ctl.sock"
check "(f) a descriptor from a client that may not capture: refused (EPERM)" grep -q '"error":"EPERM"' "$T/f.out"
fdsend -f 3 "plugin hello 1" -f 3 -x 00000000000000000000000000000010 -e 3< /dev/null > "$T/f.out" 2>&1
check "(f) a descriptor with a plugin session's datagram (a bad one: closed)" grep -q '"ok":true' "$T/f.out"
check "(f) no descriptor left open in the daemon" fds_settle "$base"

# (c) a FIFO: refused at once, the daemon keeps answering and stops on SIGTERM
mkfifo "$U/fifo"
chown 65534:65534 "$U/fifo"
fdsend -f 3 "capture start a $U/fifo" 3<> "$U/fifo" > "$T/dfifo.out" 2>&1
check "(c) the daemon refuses a FIFO's descriptor" grep -q '"ok":false.*a FIFO' "$T/dfifo.out"
reset
timeout 10 setpriv --reuid=65534 --regid=65534 --groups=0 --inh-caps=-all \
	"$CTL" -s "$T/ctl.sock" capture start a "$U/fifo" > "$T/fifo.out" 2>&1 &
fpid=$!
sleep 0.3
check "(c) the daemon answers version while a capture to a FIFO is asked for" timeout 3 "$CTL" -s "$T/ctl.sock" version
wait $fpid
check "(c) ibrouterctl refuses the FIFO at once (not a regular file)" grep -q 'fifo: not a regular file' "$T/fifo.out"
kill -TERM "$RPID"
gone() {
	for _ in $(seq 1 30); do
		kill -0 "$RPID" 2> /dev/null || return 0
		sleep 0.1
	done
	return 1
}
check "(c) SIGTERM stops the daemon within 3 s" gone
if kill -0 "$RPID" 2> /dev/null; then # an unfixed daemon: blocked in open(2) on the FIFO
	timeout 2 cat "$U/fifo" > /dev/null 2>&1
fi

finish
