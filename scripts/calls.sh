#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# scripts/calls.sh [-e] DIR... - which .c file of DIR (and of its subfolders)
# calls which other, by the functions each defines (not static) and the
# others name.  For each DIR it prints the call circles between the files,
# and, where DIR has a LAYERS file, every call that breaks its layers; it
# exits 1 when there is one of either.
#   scripts/calls.sh daemon sa mad lib/crc   (what CI checks)
#   scripts/calls.sh -e daemon               (every edge "caller -> callee: names",
#                                             marked "ACROSS" or "UP" where it breaks a layer)
#
# DIR/LAYERS names the units of DIR from the top down, a line a level: a
# unit is a subfolder ("port/"; "./" is DIR's own files) or a file
# ("sa_client.c").  A call may go to its own unit or to any unit of a lower
# line; never up, never across to another unit of its own line.  A file no
# unit names is an error, so that a new file takes its place on purpose.
# Comments are left out; a name that a file defines and another merely
# mentions counts as a call (names are unique in the tree).
set -eu
edges=false
[ "${1:-}" = -e ] && {
	edges=true
	shift
}
[ $# -gt 0 ] || {
	echo "usage: scripts/calls.sh [-e] DIR..." >&2
	exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

# check DIR: prints its circles and layer breaks (or, with -e, its edges); 1 on a fault
check() {
	dir=${1%/}
	rm -f "$tmp"/*.txt "$tmp/defs" "$tmp/edges" "$tmp/units"
	find "$dir" -name '*.c' | sort > "$tmp/files"
	[ -s "$tmp/files" ] || {
		echo "calls.sh: $dir: no .c files" >&2
		return 1
	}
	n=0
	while read -r f; do
		n=$((n + 1))
		rel=${f#"$dir"/}
		# the text without comments, one file; its name kept beside it
		echo "$rel" > "$tmp/$n.name"
		awk '{ s = s $0 "\n" } END {
			while ((i = index(s, "/*")) > 0) {
				j = index(substr(s, i + 2), "*/")
				if (j == 0) { s = substr(s, 1, i - 1); break }
				s = substr(s, 1, i - 1) " " substr(s, i + 2 + j + 1)
			}
			printf "%s", s }' "$f" > "$tmp/$n.txt"
	done < "$tmp/files"
	# definitions: "file name" for each function defined at column 0, not static
	for t in "$tmp"/*.txt; do
		f=$(cat "${t%.txt}.name")
		awk -v f="$f" '/^[A-Za-z]/ && !/^static/ && !/^[A-Z_0-9]+[ \t]+static/ && !/;[ \t]*$/ {
			if (match($0, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
				n = substr($0, RSTART, RLENGTH); sub(/[ \t]*\($/, "", n)
				print f, n
			} }' "$t"
	done > "$tmp/defs"
	# edges: caller callee name, for each name another file defines
	for t in "$tmp"/*.txt; do
		f=$(cat "${t%.txt}.name")
		awk -v f="$f" 'NR == FNR { if ($1 != f) def[$2] = $1; next }
			{ s = $0
			  while (match(s, /[A-Za-z_][A-Za-z0-9_]*/)) {
				n = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
				if (n in def && !((def[n], n) in seen)) { seen[def[n], n] = 1; print f, def[n], n }
			  } }' "$tmp/defs" "$t"
	done > "$tmp/edges"
	# the unit and level of each file, from DIR/LAYERS ("-" where there is none)
	if [ -f "$dir/LAYERS" ]; then
		sed "s|^$dir/||" "$tmp/files" | awk 'NR == FNR { sub(/#.*/, ""); if (NF == 0) next; lv++
				for (i = 1; i <= NF; i++) level[$i] = lv; next }
			{ f = $0; u = f
			  if (index(f, "/")) { u = f; sub(/\/[^\/]*$/, "/", u) } else if (!(f in level)) u = "./"
			  if (!(u in level)) { print f, "?", 0; next }
			  print f, u, level[u] }' "$dir/LAYERS" - > "$tmp/units"
	else
		sed "s|^$dir/||; s|\$| - 0|" "$tmp/files" > "$tmp/units"
	fi
	if $edges; then
		awk 'NR == FNR { unit[$1] = $2; lv[$1] = $3; next }
			{ k = $1 " -> " $2; if (k in e) e[k] = e[k] ", " $3; else e[k] = $3
			  m = ""
			  if (unit[$1] != "-" && unit[$1] != unit[$2])
				m = lv[$1] == lv[$2] ? "  ACROSS " : lv[$1] > lv[$2] ? "  UP " : ""
			  if (m != "") mark[k] = m unit[$1] " -> " unit[$2] }
			END { for (k in e) print k ": " e[k] mark[k] }' "$tmp/units" "$tmp/edges" | sort
		return 0
	fi
	st=0
	awk -v d="$dir" '$2 == "?" { print d ": " $1 ": no unit of " d "/LAYERS names it"; bad = 1 }
		END { exit bad }' "$tmp/units" || st=1
	awk -v d="$dir" 'NR == FNR { unit[$1] = $2; lv[$1] = $3; next }
		unit[$1] != "-" && unit[$1] != "?" && unit[$2] != "?" && unit[$1] != unit[$2] &&
		lv[$1] >= lv[$2] {
			print d ": " (lv[$1] == lv[$2] ? "across" : "up") ": " $1 " -> " $2 ": " $3 \
				" (" unit[$1] " -> " unit[$2] ")"
			bad = 1 }
		END { exit bad }' "$tmp/units" "$tmp/edges" || st=1
	# circles: the strongly connected parts of the file graph with more than one file
	awk -v d="$dir" '{ if (!(($1, $2) in adj)) { adj[$1, $2] = 1; out[$1] = out[$1] " " $2 } node[$1]; node[$2] }
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
			if (c != a) { print d ": circle: " c; bad = 1 }
		}
		exit bad
	}' "$tmp/edges" || st=1
	return $st
}

for d in "$@"; do
	if $edges; then
		[ $# -gt 1 ] && echo "== $d"
		check "$d"
	else
		check "$d" || bad=1
	fi
done
exit $bad
