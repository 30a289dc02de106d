#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_ctl_usage.sh - issue 21, infiniband-diags manners: every program has
# -h/--help and -V/--version; a usage error exits 2 and an error the daemon
# reports exits 1 (ibrouterctl(8), EXIT STATUS), the daemon's usage texts
# included: an unknown command, a command's wrong arguments, an unknown -o
# format (its reply says "usage":true); -j prints one JSON document however
# many parts the answer has.
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
check "ctl show sma nosuch (no such port): 1" test "$(st ctl show sma nosuch)" = 1
check "ctl show ports: 0" test "$(st ctl show ports)" = 0

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
