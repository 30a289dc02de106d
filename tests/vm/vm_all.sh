#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# vm_all.sh SRCDIR SCENARIO...: run the VM lab's scenarios one after the
# other (each boots its own guests), print each one's checks and a line
# "vm: N passed, N failed"; fails when any check or scenario fails.
src=$1
shift
p=0 f=0 rc=0
for t in "$@"; do
	echo "== $t"
	out=$(mktemp)
	sh "$src/$t" 2>&1 | tee "$out"
	st=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$out" | tail -1)
	if [ -z "$st" ]; then
		f=$((f + 1)) # it died before its summary
		rc=1
	else
		p=$((p + ${st% *}))
		f=$((f + ${st#* }))
		[ "${st#* }" -eq 0 ] || rc=1
	fi
	rm -f "$out"
done
echo "vm: $p passed, $f failed"
exit $rc
