#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_ctl_usage.sh - issue 21, infiniband-diags manners: every program has
# -h/--help and -V/--version; a usage error exits 2 (naming the option it is
# about) and an error the daemon reports exits 1 (ibrouterctl(8), EXIT
# STATUS), the daemon's usage texts included: an unknown command, a
# command's wrong arguments, an unknown -o format (its reply says
# "usage":true); -j prints one JSON document however many parts the answer
# has; ibrouterctl's options may follow the command's words, and its usage
# lists every command the daemon knows.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"

# st CMD...: the exit status of CMD (its output in $T/st.out)
st() { "$@" > "$T/st.out" 2>&1; echo $?; }
VER=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "$BUILD/config.h")

for p in "$IBRD:ibrouterd" "$CTL:ibrouterctl" "$HOST:ibrouter-host" \
	"$BUILD/tools/ibrouter-exporter:ibrouter-exporter"; do
	bin=${p%%:*} name=${p##*:}
	for o in -h --help; do
		check "$name $o: exit 0, a usage text" sh -c \
			"'$bin' $o > '$T/h.out' 2>&1 && grep -q '^usage: $name' '$T/h.out'"
	done
	for o in -V --version; do
		check "$name $o: exit 0, '$name $VER'" sh -c "[ \"\$('$bin' $o)\" = '$name $VER' ]"
	done
done
check "ibrouterd -x: a usage error, 2" test "$(st "$IBRD" -x)" = 2
check "ibrouterd with an operand: 2" test "$(st "$IBRD" extra)" = 2
check "ibrouterd -f with no such file: an error, 1" test "$(st "$IBRD" -n -f "$T/none.conf")" = 1
check "ibrouterctl -x: 2" test "$(st "$CTL" -x)" = 2
check "ibrouterctl --bogus: 2, and it names the option" sh -c \
	"[ \"\$('$CTL' --bogus > '$T/bogus.out' 2>&1; echo \$?)\" = 2 ] && grep -qx 'ibrouterctl: unknown option --bogus' '$T/bogus.out'"
check "ibrouterctl show ports -s (no value): 2, and what -s needs" sh -c \
	"[ \"\$('$CTL' show ports -s > '$T/nos.out' 2>&1; echo \$?)\" = 2 ] && grep -q 'option -s needs a value' '$T/nos.out'"
check "ibrouter-host -x: 2" test "$(st "$HOST" -x)" = 2
check "ibrouter-exporter -x: 2" test "$(st "$BUILD/tools/ibrouter-exporter" -x)" = 2

start_router || exit 1
check "ctl log level bogus: the daemon's usage text, 2" test "$(st ctl log level bogus)" = 2
check "... and it is printed" grep -q 'usage: log level' "$T/st.out"
check "ctl route add (no prefix): 2" test "$(st ctl route add)" = 2
check "ctl -o bogus show ports: 2" test "$(st ctl -o bogus show ports)" = 2
check "ctl nosuch (an unknown command): 2" test "$(st ctl nosuch)" = 2
check "ctl route add with no such port: refused, 1" \
	test "$(st ctl route add fec0:0:0:9::/64 port nosuch lid 9)" = 1
# CLI errors in the config's words (the file's message for the same mistake): which
# word, what it must be (a usage error, 2)
# msg WANT CTL-ARGS...: exit 2 and the refusal says WANT
msg() { want=$1; shift; [ "$(st ctl "$@")" = 2 ] && grep -qF "$want" "$T/st.out" || { cat "$T/st.out"; return 1; }; }
check "neighbour add ... lid 0: not a unicast LID" \
	msg 'neighbour add: lid 0 is not a unicast LID (1..0xbfff)' neighbour add 0x123456 port a lid 0
check "neighbour add ... lid 0xc000: not a unicast LID" \
	msg 'lid 0xc000 is not a unicast LID' neighbour add 0x123456 port a lid 0xc000
check "neighbour add ... lid 0x11 lmc 1: not aligned" \
	msg 'lid 17 is not aligned to lmc 1 (a multiple of 2)' neighbour add 0x123456 port a lid 0x11 lmc 1
check "neighbour add ... lmc 8: out of range" msg 'neighbour add: lmc 8 is out of range 0..7' neighbour add 0x123456 port a lid 4 lmc 8
check "neighbour add with a GUID that is none" \
	msg 'neighbour add: g1: not a port GUID (0x and 1 to 16 hex digits, not zero)' neighbour add g1 port a lid 4
check "neighbour add with no port" msg 'neighbour add: port missing (required)' neighbour add 0x123456 lid 4 lmc 0
check "route add with host bits past the length: said so" \
	msg 'route add: fec0:0:0:1::1/64: bits set past the prefix length' route add fec0:0:0:1::1/64 port b lid 9
check "route add of a multicast prefix: said so" msg 'ff15::/16: a multicast prefix' route add ff15::/16 port b lid 9
check "route del of a bad prefix: the same words" msg 'route del: fec0::/129: not a GID prefix' route del fec0::/129
check "route add with an unknown word: named" msg 'route add: unknown word "via"' route add fec0:0:0:9::/64 port b via 9
check "route add ... lid without its value" msg 'route add: lid needs a value' route add fec0:0:0:9::/64 port b lid
check "route add ... metric -1" msg 'route add: metric "-1" is not a number' route add fec0:0:0:9::/64 port b lid 9 metric -1
check "mcast add of a unicast GID: said so" \
	msg 'mcast add: fec0::1: not a multicast GID (ff00::/8, or an IPv4 group ::ffff:224.0.0.0/100)' mcast add fec0::1 port a mlid 0xc001
check "mcast add ... sl 16" msg 'mcast add: sl 16 is out of range 0..15' mcast add ff15::1:7 port a mlid 0xc001 sl 16
check "a good neighbour add still works (0)" test "$(st ctl neighbour add 0x123456 port a lid 0x10 lmc 4)" = 0
check "... and its del (0)" test "$(st ctl neighbour del 0x123456 port a)" = 0
check "ctl show sma nosuch (no such port): 1" test "$(st ctl show sma nosuch)" = 1
check "ctl show ports: 0" test "$(st ctl show ports)" = 0

# the options after the command's words too, as operators type them
check "show routes -j: the JSON answer" sh -c "'$CTL' -s '$T/ctl.sock' show routes -j | grep -q '^{\"ok\":true,\"data\":\[{\"prefix\"'"
check "show ports -s SOCKET -o json: the socket after the command" sh -c \
	"'$CTL' show ports -s '$T/ctl.sock' -o json | grep -q '^{\"ok\":true,\"data\":\[{\"name\":\"a\"'"
check "route add ... metric -1: a negative number is a word, the daemon's refusal" \
	msg 'route add: metric "-1" is not a number' route add fec0:0:0:9::/64 port b lid 9 metric -1
check "-- ends the options: a capture FILE -x.pcap" sh -c \
	"cd '$T' && '$CTL' -s '$T/ctl.sock' capture start a -- -x.pcap > /dev/null && [ -f '$T/-x.pcap' ] && '$CTL' -s '$T/ctl.sock' capture stop > /dev/null"
check "show routes --bogus: named as an option, 2" sh -c \
	"[ \"\$('$CTL' -s '$T/ctl.sock' show routes --bogus > '$T/bogus.out' 2>&1; echo \$?)\" = 2 ] && grep -qx 'ibrouterctl: unknown option --bogus' '$T/bogus.out'"
# ibrouterctl's usage lists every command the daemon's help lists
"$CTL" -h > "$T/usage.out"
ctl -j help > "$T/help.json"
check "ibrouterctl -h lists every command of the daemon's help (show peers too)" python3 -c "
import json, sys
usage = open(sys.argv[2]).read()
cmds = [r['command'] for r in json.load(open(sys.argv[1]))['data']]
missing = [c for c in cmds if c not in usage]
assert cmds and not missing, missing
" "$T/help.json" "$T/usage.out"

# -j: one JSON document however large the answer (3000 neighbours: several parts)
for i in $(seq 1 3000); do
	printf 'neighbour "0x%016x" {\n\tport = "a"\n\tlid = %d\n}\n' $((0x200000 + i)) $((0x100 + i))
done > "$T/n3000.conf"
EXTRA_CONF=$(cat "$T/n3000.conf")
write_conf
check "reload with 3000 neighbours" ctl reload
ctl -j show neighbours > "$T/n.json"
check "ctl -j show neighbours: one line, one JSON document python reads" sh -c \
	"[ \$(wc -l < '$T/n.json') -eq 1 ] && python3 -m json.tool '$T/n.json' > /dev/null"
check "... with every neighbour (3002) and ok" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['ok'] is True and len(d['data']) == 3002, len(d['data'])
" "$T/n.json"
ctl -o json show neighbours > "$T/n2.json"
check "-o json: the same document" cmp "$T/n.json" "$T/n2.json"
ctl -j show ports > "$T/p.json"
check "a one-part answer stays as the daemon sent it" grep -q '^{"ok":true,"data":\[{"name":"a"' "$T/p.json"
finish
