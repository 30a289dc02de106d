#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_secrets.sh - the SM_Key (learning { sm-key }) is shown only where it
# is asked for: `show config` prints it to a privileged client and
# "redacted" to any other (text and JSON); `ibrouterd -n`, which the
# systemd unit runs into the journal, prints "redacted", and its output
# does not load; `ibrouterd -N` prints it, and its output parses again to
# the same config.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
need_nobody

KEY=0x5ec2e7c0ffee4b1d
EXTRA_CONF="learning {
	sm-key = $KEY
}"
start_router || exit 1
C=$T/ibrouterd.conf

check "ibrouterd -n leaves the key out" sh -c "\"$IBRD\" -n -f \"$C\" > \"$T/n.out\" && grep -q '^	sm-key = redacted\$' \"$T/n.out\" && ! grep -q 4b1d \"$T/n.out\""
check "ibrouterd -n output does not load (no key)" sh -c "! \"$IBRD\" -n -f \"$T/n.out\" > /dev/null 2> \"$T/n.err\" && grep -q 'sm-key: \"redacted\" is what ibrouterd -n prints' \"$T/n.err\""
check "ibrouterd -N prints the key" sh -c "\"$IBRD\" -N -f \"$C\" > \"$T/N.out\" && grep -q '^	sm-key = $KEY\$' \"$T/N.out\""
check "ibrouterd -N output parses again, the same" sh -c "[ -s \"$T/N.out\" ] && \"$IBRD\" -N -f \"$T/N.out\" | cmp -s - \"$T/N.out\""
check "-n and -N differ only in the keys (sm-key, sma-mkey, announce-key)" sh -c "diff \"$T/n.out\" \"$T/N.out\" | grep '^[<>]' > \"$T/nN.diff\"; [ -s \"$T/nN.diff\" ] && ! grep -qvE '^[<>] [[:space:]]*(sm-key|sma-mkey|announce-key) = ' \"$T/nN.diff\""
check "a privileged show config has the key" sh -c "ctl() { \"$CTL\" -s \"$T/ctl.sock\" \"\$@\"; }; ctl show config | grep -q 'sm-key = $KEY' && ctl -j show config | grep -q 'sm-key = $KEY'"

if command -v setpriv > /dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	chmod 0666 "$T/ctl.sock"
	chmod 0755 "$T"
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$CTL" -s "$T/ctl.sock" "$@"; }
	nobody show config > "$T/show.txt" 2>&1
	nobody -j show config > "$T/show.json" 2>&1
	chmod 0700 "$T"
	check "unprivileged show config: redacted (text)" sh -c "grep -q 'sm-key = redacted' \"$T/show.txt\" && ! grep -q 4b1d \"$T/show.txt\""
	check "unprivileged show config: redacted (JSON)" sh -c "grep -q 'sm-key = redacted' \"$T/show.json\" && ! grep -q 4b1d \"$T/show.json\""
	check "unprivileged show config: the rest is there" grep -q '^port "b"' "$T/show.txt"
else
	echo "# not root or no setpriv: the unprivileged client is not tried"
fi
finish
