#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_ctl_input.sh - requests with control characters, newlines and bytes
# from 0x80 up: refused, or repeated in the reply with those bytes as \xNN
# (ibrouterd(8), CONTROL SOCKET), never raw: a reply that ibrouterctl prints
# must not carry terminal escapes or line breaks of the client's making.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
FLOOD=$BUILD/tests/sim/ctl_flood

start_router || exit 1
ESC=$(printf '\033')
C1=$(printf '\302\233') # U+009B, CSI of C1 controls, in UTF-8
DEL=$(printf '\177')

# probe NAME REQUEST: the reply's "msg=" line in $T/NAME.msg
probe() {
	"$FLOOD" probe "$T/ctl.sock" 2000 "$2" > "$T/$1.out"
	sed -n 's/^msg=//p' "$T/$1.out" > "$T/$1.msg"
}
no_raw() { ! grep -q "$ESC\|$C1\|$DEL" "$T/$1.msg" && [ "$(wc -l < "$T/$1.msg")" -le 1 ]; }

probe esc "\"\\$ESC[2J\" now"
check "an escaped ESC in quotes is refused as malformed" grep -q '^malformed request' "$T/esc.msg"
check "... and not repeated" no_raw esc
probe nl "\"a\\
b\" c"
check "an escaped newline in quotes is refused as malformed" grep -q '^malformed request' "$T/nl.msg"
probe del "\"x$DEL\" y"
check "DEL in quotes is refused as malformed" grep -q '^malformed request' "$T/del.msg"
probe c1 "frob${C1}2J now"
check "an unknown command is repeated with \\xNN for bytes from 0x80 up" grep -qF "unknown command 'frob\\xc2\\x9b2J now'" "$T/c1.msg"
check "... and no raw byte of it" no_raw c1
probe port "show neighbours \"b${C1}1m\""
check "an unknown port is repeated escaped" grep -qF "no port 'b\\xc2\\x9b1m'" "$T/port.msg"
check "... and no raw byte of it" no_raw port
probe bs 'frob\x1b'
check "a backslash is doubled, so \\xNN in the reply is always an escape" grep -qF "unknown command 'frob\\\\x1b'" "$T/bs.msg"
"$CTL" -s "$T/ctl.sock" "nope$C1" > "$T/ctl.out" 2>&1
check "ibrouterctl prints the escaped message" grep -qF "unknown command 'nope\\xc2\\x9b' (EINVAL)" "$T/ctl.out"
check "the daemon still answers" ctl version
finish
