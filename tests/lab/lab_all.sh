#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_all.sh SRCDIR SCENARIO... - `make lab`: run the lab scenarios (paths
# under SRCDIR) one after another, their output as it comes.  A scenario
# prints "N passed, N failed" and exits 0 when none failed; one that cannot
# run here prints "SKIP: why" and exits 77 (as automake's test harness
# counts it): a skip, neither a pass nor a failure.  Any other exit status
# without a failed check counts one failure.  The last line sums them up:
#   lab: N passed, N failed, N skipped
# Exit status 1 when anything failed, else 0 (skips do not fail the run).
set -u
src=$1
shift
tmp=$(mktemp -d /tmp/ibr-laball.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM PIPE
pass=0 fail=0 skip=0
for t in "$@"; do
	echo "== $t"
	{
		sh "$src/$t" 2>&1
		echo $? > "$tmp/rc"
	} | tee "$tmp/out"
	rc=$(cat "$tmp/rc")
	if [ "$rc" -eq 77 ]; then
		skip=$((skip + 1))
		echo "== $t: skipped"
		continue
	fi
	n=$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { print p + 0, f + 0 }' "$tmp/out")
	p=${n% *} f=${n#* }
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # it failed outside its checks (a crash, the harness)
	fi
	pass=$((pass + p)) fail=$((fail + f))
done
echo "lab: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
