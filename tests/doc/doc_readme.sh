#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# doc_readme.sh - README.md's Status stays a short list of what works where
# (simulation, ibsim, the fake verbs provider, rxe, real HCAs), and true to
# the tree: every path it names is there, every ibrouterctl command it
# names is one the daemon knows (ibrouterctl -h lists them from the same
# table), every man page it names is in man/.
BUILD=${BUILD:-$(pwd)}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
# a private $T, check and finish, cleaned up on exit (tests/sim/lib.sh)
. "$(dirname "$0")/../sim/lib.sh"

# the Status section: from its heading to the next one
sed -n '/^## Status$/,/^## /p' "$SRC/README.md" | sed '$d' > "$T/status"
check "README.md has a Status section" test -s "$T/status"
check "... of at most 30 lines" test "$(wc -l < "$T/status")" -le 30
# list items only, after one line that says what the list is
items() { grep -c '^- \*\*' "$T/status"; }
prose() { # lines that are neither the heading, the intro, a blank, an item nor its continuation
	awk 'NR > 1 && !/^$/ && !/^- \*\*/ && !/^  / { n++ } END { print n + 0 }' "$T/status"
}
check "... a list of where it works (5 items: sim, ibsim, fake verbs, rxe, real HCAs)" \
	test "$(items)" -eq 5
check "... and no paragraph beside it (one intro line)" test "$(prose)" -le 1
for w in Simulation ibsim "verbs provider" rxe "Real HCAs"; do
	check "... an item for $w" grep -q "^- \*\*.*$w" "$T/status"
done

# the backquoted words it names, one a line (a name may run over a line break)
tr -s '\n ' '  ' < "$T/status" | grep -o '`[^`]*`' | tr -d '`' | sort -u > "$T/quoted"
# every path it names is in the tree
sed -n 's/^\(\(tests\|scripts\|router\|daemon\|lib\|tools\|man\|etc\|doc\)\/[^ ]*\).*/\1/p' \
	"$T/quoted" > "$T/paths"
check "it names paths of the tree" test -s "$T/paths"
while read -r p; do
	check "path $p is there" test -e "$SRC/$p"
done < "$T/paths"
# every ibrouterctl command it names is the daemon's
"$CTL" -h > "$T/usage"
grep '^show ' "$T/quoted" > "$T/cmds"
check "it names commands" test -s "$T/cmds"
while read -r c; do
	check "command '$c' is one ibrouterctl lists" grep -q "^  . $c\b" "$T/usage"
done < "$T/cmds"
# every man page it names is in man/
tr -s '\n ' '  ' < "$T/status" | grep -o '[a-z-]*([58])' | sort -u > "$T/mans"
while read -r m; do
	f=$(echo "$m" | sed 's/(\(.\))$/.\1/')
	check "man page $m is man/$f" test -f "$SRC/man/$f"
done < "$T/mans"
finish
