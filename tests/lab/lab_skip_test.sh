#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# lab_skip_test.sh - a lab scenario that cannot run here is a skip, neither a
# pass nor a failure: lab_plugin.sh in a build without the plugin exits 77
# after "SKIP: why", and lab_all.sh (make lab) counts a skip apart and fails
# the run only on a failure.  Starts no ibsim, OpenSM or daemon.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/ibr-labskip.XXXXXX)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM PIPE
pass=0
fail=0
check() {
	what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
		echo "ok - $what"
	else
		fail=$((fail + 1))
		echo "FAIL - $what"
	fi
}

# ---- lab_plugin.sh in a build without the plugin ----
mkdir -p "$T/build"
rc=0
BUILD="$T/build" sh "$HERE/lab_plugin.sh" > "$T/plugin.out" 2>&1 || rc=$?
sed 's/^/    /' "$T/plugin.out"
check "lab_plugin.sh without the plugin exits 77 (it did $rc)" [ "$rc" -eq 77 ]
check "it says why on a SKIP: line" grep -q '^SKIP: .*libibrouter-osm.so' "$T/plugin.out"
check "it counts no check" sh -c "! grep -Eq '^[0-9]+ passed, [0-9]+ failed$' '$T/plugin.out'"

# ---- lab_all.sh: scenarios that pass, skip, fail, crash ----
mkdir -p "$T/src/lab"
printf 'echo "ok - a"\necho "3 passed, 0 failed"\n' > "$T/src/lab/pass.sh"
printf 'echo "SKIP: no frobnicator"\nexit 77\n' > "$T/src/lab/skip.sh"
printf 'echo "2 passed, 1 failed"\nexit 1\n' > "$T/src/lab/fail.sh"
printf 'echo "ok - b"\nexit 2\n' > "$T/src/lab/crash.sh"
# lab_all SCENARIO...: its exit status, its last line in $T/last
lab_all() {
	st=0
	sh "$HERE/lab_all.sh" "$T/src" "$@" > "$T/all.out" 2>&1 || st=$?
	sed 's/^/    /' "$T/all.out"
	tail -n 1 "$T/all.out" > "$T/last"
	return $st
}
last_is() { [ "$(cat "$T/last")" = "$1" ]; }

lab_all lab/pass.sh lab/skip.sh
check "a pass and a skip: the run passes" [ "$st" -eq 0 ]
check "the skip is counted apart" last_is "lab: 3 passed, 0 failed, 1 skipped"
check "and named" grep -qx "== lab/skip.sh: skipped" "$T/all.out"
check "the scenario's SKIP line is shown" grep -qx "SKIP: no frobnicator" "$T/all.out"
lab_all lab/skip.sh
check "only a skip: the run passes" [ "$st" -eq 0 ]
check "with nothing passed" last_is "lab: 0 passed, 0 failed, 1 skipped"
lab_all lab/pass.sh lab/fail.sh lab/skip.sh
check "a failure fails the run" [ "$st" -eq 1 ]
check "its counts are summed" last_is "lab: 5 passed, 1 failed, 1 skipped"
lab_all lab/crash.sh lab/pass.sh
check "a scenario that dies without a count fails the run" [ "$st" -eq 1 ]
check "as one failure" last_is "lab: 3 passed, 1 failed, 0 skipped"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
