#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# scripts/calls.sh DIR - which .c file of DIR calls which other, by the
# functions each defines (not static) and the others name; prints the call
# circles between the files, one a line, and exits 1 when there is one.
#   scripts/calls.sh router/daemon        (the daemon: none allowed)
#   scripts/calls.sh -e router/daemon     (every edge "caller -> callee: names")
# Comments are left out; a name that a file defines and another merely
# mentions counts as a call (names are unique in the tree).
set -eu
edges=false
[ "${1:-}" = -e ] && { edges=true; shift; }
dir=${1:?usage: scripts/calls.sh [-e] DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$dir"/*.c; do
	# the text without comments, one file
	awk '{ s = s $0 "\n" } END {
		while ((i = index(s, "/*")) > 0) {
			j = index(substr(s, i + 2), "*/")
			if (j == 0) { s = substr(s, 1, i - 1); break }
			s = substr(s, 1, i - 1) " " substr(s, i + 2 + j + 1)
		}
		printf "%s", s }' "$f" > "$tmp/$(basename "$f").txt"
done
# definitions: "file name" for each function defined at column 0, not static
for t in "$tmp"/*.c.txt; do
	f=$(basename "$t" .txt)
	awk -v f="$f" '/^[a-z]/ && !/^static/ && !/;[ \t]*$/ {
		if (match($0, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			n = substr($0, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n)
			print f, n
		} }' "$t"
done > "$tmp/defs"
# edges: caller callee name, for each name another file defines
for t in "$tmp"/*.c.txt; do
	f=$(basename "$t" .txt)
	awk -v f="$f" 'NR == FNR { if ($1 != f) def[$2] = $1; next }
		{ s = $0
		  while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
			n = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			if (n in def && !((def[n], n) in seen)) { seen[def[n], n] = 1; print f, def[n], n }
		  } }' "$tmp/defs" "$t"
done > "$tmp/edges"
if $edges; then
	awk '{ k = $1 " -> " $2; if (k in e) e[k] = e[k] ", " $3; else e[k] = $3 }
		END { for (k in e) print k ": " e[k] }' \
		"$tmp/edges" | sort
	exit 0
fi
# circles: the strongly connected parts of the file graph with more than one file
awk '{ if (!(($1, $2) in adj)) { adj[$1, $2] = 1; out[$1] = out[$1] " " $2 } node[$1]; node[$2] }
function reach(a, b,    seen, stack, n, x, k, m, i, v) {
	n = 1; stack[1] = a
	while (n > 0) {
		x = stack[n--]
		m = split(out[x], v, " ")
		for (i = 1; i <= m; i++) {
			if (v[i] == b) return 1
			if (!(v[i] in seen)) { seen[v[i]] = 1; stack[++n] = v[i] }
		}
	}
	return 0
}
END {
	for (a in node) {
		if (a in done) continue
		c = a
		for (b in node)
			if (b != a && !(b in done) && reach(a, b) && reach(b, a)) { c = c " " b; done[b] }
		done[a]
		if (c != a) { print "circle: " c; bad = 1 }
	}
	exit bad
}' "$tmp/edges"
