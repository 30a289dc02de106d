#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# install_check.sh BUILDDIR - what `make install` gives an operator, from a
# build configured with --prefix=PREFIX (scripts/run test makes one under a
# temporary directory): the programs and man pages, the systemd unit with
# PREFIX's paths in it, which systemd-analyze verifies, the example config
# where the daemon looks by default, which the installed daemon accepts, and
# the OpenSM plugin in libdir without a .la; then `make uninstall` leaves no
# file behind.  Prints "N passed, N failed, N skipped".
set -u
B=$1
P=$(sed -n 's/^prefix = //p' "$B/Makefile")
pass=0 fail=0 skip=0
check() {
	what=$1; shift
	if "$@" > "$P.out" 2>&1; then pass=$((pass + 1)); echo "ok - $what"
	else fail=$((fail + 1)); echo "FAIL - $what"; sed 's/^/    /' "$P.out" | head -20; fi
}
U=$P/lib/systemd/system/ibrouterd.service

check "make install into $P" make -s -C "$B" install
for f in sbin/ibrouterd sbin/ibrouterctl sbin/ibrouter-host sbin/ibrouter-exporter; do
	check "$f installed, executable" test -x "$P/$f"
done
check "the man pages" test -f "$P/share/man/man8/ibrouterd.8" -a -f "$P/share/man/man5/ibrouterd.conf.5"
check "the unit in PREFIX/lib/systemd/system" test -f "$U"
check "its ExecStart is the installed daemon with the installed config" \
	grep -qx "ExecStart=$P/sbin/ibrouterd -d -f $P/etc/ibrouter/ibrouterd.conf" "$U"
check "its After= names opensm.service and opensm@.service" \
	grep -qx 'After=network.target opensm.service opensm@.service' "$U"
# systemd-analyze makes /run/systemd: it cannot run where the root has no
# /run (a container's); a skip says so, it is no pass
sa_skip=
if ! command -v systemd-analyze > /dev/null; then
	sa_skip="no systemd-analyze here"
elif [ ! -d /run ]; then
	sa_skip="this machine has no /run, which systemd-analyze needs"
fi
if [ -z "$sa_skip" ]; then
	check "systemd-analyze verify: no complaint" sh -c \
		"systemd-analyze verify --man=no '$U' > '$P.sa' 2>&1; st=\$?; cat '$P.sa'; [ \$st -eq 0 ] && [ ! -s '$P.sa' ]"
else
	skip=$((skip + 1))
	echo "skip - systemd-analyze verify: $sa_skip"
fi
E=$P/lib/systemd/system/ibrouter-exporter.service
check "the exporter's unit beside it, starting the installed exporter" \
	grep -qx "ExecStart=$P/sbin/ibrouter-exporter" "$E"
if [ -z "$sa_skip" ]; then
	check "systemd-analyze verify of the exporter's unit: no complaint" sh -c \
		"systemd-analyze verify --man=no '$E' > '$P.sa' 2>&1; st=\$?; cat '$P.sa'; [ \$st -eq 0 ] && [ ! -s '$P.sa' ]"
else
	skip=$((skip + 1))
	echo "skip - systemd-analyze verify of the exporter's unit: $sa_skip"
fi
check "the Grafana dashboard in PREFIX/share/ibrouter/grafana" \
	test -f "$P/share/ibrouter/grafana/ibrouter.json"
check "the exporter's man page" test -f "$P/share/man/man8/ibrouter-exporter.8"
check "the example config in PREFIX/etc/ibrouter" test -f "$P/etc/ibrouter/ibrouterd.conf"
check "the installed daemon's default config is it (-h says so)" sh -c \
	"'$P/sbin/ibrouterd' -h | grep -q '(default $P/etc/ibrouter/ibrouterd.conf)'"
check "the installed daemon accepts it (-n, its default path)" "$P/sbin/ibrouterd" -n
if [ -f "$B/plugins/libibrouter-osm.la" ]; then
	L=$(sed -n 's/^libdir = //p' "$B/Makefile" | sed "s|\${exec_prefix}|$P|")
	check "the OpenSM plugin in libdir, where OpenSM's dlopen looks" test -f "$L/libibrouter-osm.so"
	check "... without a .la" test ! -e "$L/libibrouter-osm.la"
fi
echo "# an edited config survives a second make install"
echo '# edited' >> "$P/etc/ibrouter/ibrouterd.conf"
make -s -C "$B" install > /dev/null 2>&1
check "make install again keeps the operator's config" grep -qx '# edited' "$P/etc/ibrouter/ibrouterd.conf"
check "make uninstall" make -s -C "$B" uninstall
check "... leaves no file behind" sh -c "[ -z \"\$(find '$P' -type f)\" ] || { find '$P' -type f; exit 1; }"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
