#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# run.sh SRCDIR BUILDDIR - build every libFuzzer target tests/fuzz/fuzz_*.c with
# clang (-fsanitize=fuzzer,address,undefined) against the project's sources and
# run each for FUZZ_SECONDS seconds from its seed corpus (tests/fuzz/seeds/<name>/,
# when present).  Exits non-zero when a target crashes, leaks, hangs or fails to build.
set -eu
src=$(cd "$1" && pwd)
out=$2
CC=${FUZZ_CC:-clang}
secs=${FUZZ_SECONDS:-30}
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS="-std=gnu11 -g -O1 -I$src -DIBR_FUZZ=1 $SAN"
# the build force-includes config.h (Makefile.am); without one, the GNU extensions it asks for
if [ -f "$out/../config.h" ]; then
	CFLAGS="$CFLAGS -I$out/.. -include $out/../config.h"
else
	CFLAGS="$CFLAGS -D_GNU_SOURCE -DPACKAGE_VERSION=\"fuzz\""
fi
LIBS="${ISAL_LIBS:-} ${IB_LIBS:--libmad -libumad -libverbs} -lz -lm -lpthread"

# Everything a fuzz target may call: the libraries of lib/, router/ and sma/
# (with their subfolders lib/crc/ and router/io/),
# minus programs' main files (the targets of mad/, sa/ and daemon/ include
# the sources they take).
objs=""
for c in "$src"/lib/*.c "$src"/lib/crc/*.c "$src"/router/*.c "$src"/router/io/*.c "$src"/sma/*.c; do
	o="$out/obj/$(basename "$c" .c).o"
	$CC $CFLAGS -fsanitize=fuzzer-no-link -c "$c" -o "$o"
	objs="$objs $o"
done

status=0
for t in "$src"/tests/fuzz/fuzz_*.c; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .c)
	# shellcheck disable=SC2086
	$CC $CFLAGS -fsanitize=fuzzer "$t" $objs $LIBS -o "$out/$name"
	corpus="$out/corpus-$name"
	mkdir -p "$corpus"
	seeds="$src/tests/fuzz/seeds/${name#fuzz_}"
	[ -d "$seeds" ] || seeds=""
	echo "fuzz: $name for ${secs}s"
	# shellcheck disable=SC2086
	if ! (cd "$out" && ./"$name" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 \
		-print_final_stats=1 "$corpus" $seeds > "$out/$name.log" 2>&1); then
		echo "fuzz: $name FAILED (see $out/$name.log)"
		tail -40 "$out/$name.log"
		status=1
	else
		grep -E '^(stat::number_of_executed_units|Done )' "$out/$name.log" | sed "s/^/fuzz: $name: /"
	fi
done
exit $status
