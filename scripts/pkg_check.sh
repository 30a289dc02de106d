#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# pkg_check.sh SRCDIR WORKDIR - what an operator gets from the Debian and RPM
# packaging.  The RPM spec (ibrouter.spec) is not built here: rpmspec -P
# parses it, its version is configure.ac's, and its %files name every file
# `make install` installs.  The Debian packages: builds them from SRCDIR's files (git's, as committed or edited) with
# `dpkg-buildpackage -us -uc -b` in WORKDIR, checks them with lintian (no
# error, no warning), checks the plugin's tie to the OpenSM it was built
# for, installs both on this machine, starts the installed daemon as its
# installed unit says (systemd is not PID 1 here: the unit is verified with
# systemd-analyze and its ExecStartPre, ExecStart and ExecReload lines are run
# as systemd would, in its RuntimeDirectory), then purges them and checks that
# nothing is left.  Installing needs root and a machine without ibrouter
# installed: otherwise those checks are skipped, said so.  Cleans up on any
# exit (trap): the daemon it started, the packages it installed.
# Prints "N passed, N failed, N skipped".
set -u
S=$(cd "$1" && pwd)
W=$2
pass=0 fail=0 skip=0
check() {
	what=$1; shift
	if "$@" > "$W/check.out" 2>&1; then pass=$((pass + 1)); echo "ok - $what"
	else fail=$((fail + 1)); echo "FAIL - $what"; sed 's/^/    /' "$W/check.out" | head -20; fi
}
skipped() { skip=$((skip + 1)); echo "skip - $1"; }
installed=no pid= xpid=
cleanup() {
	[ -n "$xpid" ] && kill "$xpid" 2> /dev/null
	[ -n "$pid" ] && kill "$pid" 2> /dev/null
	[ "$installed" = yes ] && dpkg --purge ibrouter-osm-plugin ibrouter > /dev/null 2>&1
	[ "$installed" = yes ] && rmdir /run/ibrouter 2> /dev/null
	return 0
}
trap 'cleanup' EXIT
trap 'exit 1' INT TERM HUP

rm -rf "$W" && mkdir -p "$W"
V=$(sed -n 's/^AC_INIT(\[ibrouter\], \[\([^]]*\)\].*/\1/p' "$S/configure.ac")
D=$W/ibrouter-$V
check "debian/changelog's version is configure.ac's ($V)" sh -c \
	"cd '$S' && [ \"\$(dpkg-parsechangelog -S Version)\" = '$V' ]"

echo "# dpkg-buildpackage -us -uc -b in $D"
mkdir -p "$D"
(cd "$S" && git ls-files -co --exclude-standard | grep -v '^build' | tar -cf - -T -) | tar -xf - -C "$D"
check "dpkg-buildpackage -us -uc -b (log: $W/build.log)" sh -c \
	"cd '$D' && dpkg-buildpackage -us -uc -b > ../build.log 2>&1 || { tail -30 ../build.log; exit 1; }"
A=$(dpkg --print-architecture)
DEB=$W/ibrouter_${V}_$A.deb
PLUG=$W/ibrouter-osm-plugin_${V}_$A.deb
check "the unit tests ran in the build (dh_auto_test)" grep -q '^# FAIL: *0$' "$W/build.log"
check "two packages: ibrouter and ibrouter-osm-plugin" test -f "$DEB" -a -f "$PLUG"
if command -v lintian > /dev/null; then
	check "lintian: no error, no warning" sh -c \
		"lintian '$W/ibrouter_${V}_$A.changes' 2>&1 | grep -v 'running with root' | tee '$W/lintian.out'
		! grep -q '^[EW]:' '$W/lintian.out'"
else
	skipped "lintian: not installed (scripts/install-deps.sh installs it)"
fi
check "ibrouter holds the daemon, the tools, the exporter, the units, the dashboard and the config" sh -c "dpkg -c '$DEB' > '$W/c' &&
	for f in usr/sbin/ibrouterd usr/sbin/ibrouterctl usr/sbin/ibrouter-host \
		usr/sbin/ibrouter-exporter lib/systemd/system/ibrouter-exporter.service \
		usr/share/ibrouter/grafana/ibrouter.json \
		lib/systemd/system/ibrouterd.service etc/ibrouter/ibrouterd.conf \
		usr/share/man/man8/ibrouterd.8.gz usr/share/man/man5/ibrouterd.conf.5.gz; do
		grep -q \" ./\$f\$\" '$W/c' || { echo \"no \$f\"; exit 1; }; done"
check "ibrouter-osm-plugin holds the plugin in the multiarch libdir, no .la" sh -c \
	"dpkg -c '$PLUG' > '$W/p' && grep -q ' ./usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libibrouter-osm.so\$' '$W/p' &&
	! grep -q '\\.la\$' '$W/p'"
# OpenSM loads only a plugin built for its own OSM_VERSION (debian/rules)
OV=$(sed -n 's/^#define OSM_VERSION "OpenSM \([0-9.]*\)".*/\1/p' /usr/include/infiniband/opensm/osm_version.h)
check "the plugin depends on OpenSM $OV's packages only" sh -c \
	"dpkg-deb -f '$PLUG' Depends | tee /dev/stderr | grep -q 'opensm (>= $OV), opensm (<< $OV.0~~)'"
IV=$(dpkg-query -W -f='${Version}' opensm 2> /dev/null)
check "... which the installed opensm ($IV) satisfies" sh -c \
	"dpkg --compare-versions '$IV' ge '$OV' && dpkg --compare-versions '$IV' lt '$OV.0~~'"
check "... and OpenSM $OV.1 or the next release would not" sh -c \
	"dpkg --compare-versions '$OV.1-1' ge '$OV.0~~' && dpkg --compare-versions '${OV%.*}.$((${OV##*.} + 1))-1' ge '$OV.0~~'"

# spec_has_installed: each file make install put in debian/tmp is in the
# spec's %files, by its name (the spec's paths are RPM's macros: %{_libdir} is
# /usr/lib64 there, Debian's libdir multiarch)
spec_has_installed() {
	(cd "$D/debian/tmp" && find . -type f ! -name '*.la') | while read -r f; do
		grep -q "/${f##*/}\**\$" "$W/spec" || { echo "not in %files: $f"; return 1; }
	done
}
# the RPM spec
if command -v rpmspec > /dev/null; then
	check "rpmspec -P ibrouter.spec parses it" sh -c \
		"rpmspec -P '$S/ibrouter.spec' > '$W/spec' 2> '$W/spec.err'; st=\$?; cat '$W/spec.err'; [ \$st -eq 0 ] && [ ! -s '$W/spec.err' ]"
	check "its Version is configure.ac's ($V)" grep -q "^Version:[[:space:]]*$V\$" "$W/spec"
	check "its plugin requires OpenSM $OV and nothing past it" sh -c \
		"grep -q '^Requires:[[:space:]]*opensm >= $OV\$' '$W/spec' && grep -q '^Requires:[[:space:]]*opensm < $OV.0~~\$' '$W/spec'"
	# what make install put in debian/tmp, each file by its name (the spec's
	# paths are RPM's macros, %{_libdir} /usr/lib64 where Debian's is multiarch)
	check "its %files name every file make install installs" spec_has_installed
else
	skipped "rpmspec -P ibrouter.spec: no rpmspec (package rpm; scripts/install-deps.sh installs it)"
fi

if [ "$(id -u)" -ne 0 ]; then
	skipped "installing the packages: not root"
elif dpkg-query -W -f='${Status}' ibrouter 2> /dev/null | grep -q 'ok installed'; then
	skipped "installing the packages: ibrouter is installed on this machine already, left alone"
elif [ -e /run/ibrouter ]; then
	skipped "installing the packages: /run/ibrouter exists (a router running here?), left alone"
else
	installed=yes
	check "dpkg -i both packages" dpkg -i "$DEB" "$PLUG"
	U=/lib/systemd/system/ibrouterd.service
	check "the unit is installed" test -f "$U"
	if command -v systemd-analyze > /dev/null; then
		check "systemd-analyze verify of the installed unit: no complaint" sh -c \
			"systemd-analyze verify --man=no '$U' > '$W/sa' 2>&1; st=\$?; cat '$W/sa'; [ \$st -eq 0 ] && [ ! -s '$W/sa' ]"
	else
		skipped "systemd-analyze verify: no systemd-analyze here"
	fi
	check "the config is a conffile (an operator's edits survive upgrades)" sh -c \
		"dpkg-query -W -f='\${Conffiles}' ibrouter | grep -q '^ /etc/ibrouter/ibrouterd.conf '"
	check "the installed daemon's default config is /etc/ibrouter/ibrouterd.conf" sh -c \
		"/usr/sbin/ibrouterd -h | grep -q '(default /etc/ibrouter/ibrouterd.conf)'"
	check "ldconfig ran (the trigger): the ld.so cache lists libibrouter-osm.so" sh -c \
		"ldconfig -p | grep -q '^	libibrouter-osm.so '"
	pre=$(sed -n 's/^ExecStartPre=//p' "$U")
	start=$(sed -n 's/^ExecStart=//p' "$U")
	rt=$(sed -n 's/^RuntimeDirectory=//p' "$U")
	echo "# as systemd would: RuntimeDirectory /run/$rt, then $pre, then $start"
	mkdir -p "/run/$rt"
	check "ExecStartPre: $pre" $pre
	$start > "$W/daemon.log" 2>&1 &
	pid=$!
	check "ExecStart: the daemon answers on its control socket" sh -c \
		"for i in \$(seq 100); do /usr/sbin/ibrouterctl show ports > '$W/ports' 2>&1 && break; sleep 0.1; done
		cat '$W/ports'; grep -q '^a ' '$W/ports' && grep -q '^b ' '$W/ports'"
	# the exporter as its unit starts it, at its default address, on the daemon's default socket
	X=/lib/systemd/system/ibrouter-exporter.service
	xstart=$(sed -n 's/^ExecStart=//p' "$X")
	if command -v systemd-analyze > /dev/null; then
		check "systemd-analyze verify of the installed exporter unit: no complaint" sh -c \
			"systemd-analyze verify --man=no '$X' > '$W/sa' 2>&1; st=\$?; cat '$W/sa'; [ \$st -eq 0 ] && [ ! -s '$W/sa' ]"
	fi
	$xstart 2> "$W/exporter.log" &
	xpid=$!
	check "the exporter's ExecStart ($xstart): /metrics has the installed daemon's ports, ibrouter_up 1" sh -c \
		"for i in \$(seq 50); do curl -sf http://127.0.0.1:9731/metrics > '$W/metrics' && break; sleep 0.1; done
		grep -qx 'ibrouter_up 1' '$W/metrics' && grep -q '^ibrouter_rx_packets_total{port=\"b\"} 0\$' '$W/metrics' ||
		{ cat '$W/exporter.log'; head -5 '$W/metrics'; exit 1; }"
	kill "$xpid"
	wait "$xpid" 2> /dev/null
	xpid=
	# a real OpenSM (on an ibsim subnet, tests/lab/lab.sh) loads the
	# installed plugin by its bare name, with no LD_LIBRARY_PATH
	if command -v ibsim > /dev/null && [ -f "${UMAD2SIM:-/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}" ]; then
		. "$S/tests/lab/lab.sh"
		trap 'cleanup; lab_cleanup' EXIT
		printf 'event_plugin_name ibrouter-osm\nevent_plugin_options socket=/run/%s/ibrouterd.sock\n' \
			"$rt" > "$LAB/plug.conf"
		lab_subnet A "$S/tests/lab/netA"
		check "OpenSM with event_plugin_name ibrouter-osm: SUBNET UP" \
			lab_sm A HcaA1 0 0xfec0000000000001 "$LAB/plug.conf"
		check "... and it loaded the installed plugin" sh -c \
			"grep 'ibrouter-osm' '$LAB/A/sm/osm.log' | head -3; grep -q 'ibrouter-osm: loaded (OpenSM $OV' '$LAB/A/sm/osm.log'"
		lab_cleanup
		trap 'cleanup' EXIT
	else
		skipped "a real OpenSM loads the installed plugin: no ibsim or umad2sim here"
	fi
	reload=$(sed -n 's/^ExecReload=//p' "$U" | sed "s/\\\$MAINPID/$pid/")
	check "ExecReload ($reload): the daemon reloads and stays up" sh -c \
		"$reload && sleep 0.5 && kill -0 $pid && /usr/sbin/ibrouterctl show ports > /dev/null && grep -q 'reloaded /etc/ibrouter/ibrouterd.conf' '$W/daemon.log' ||
		{ cat '$W/daemon.log'; exit 1; }"
	kill "$pid"
	wait "$pid"
	st=$?
	pid=
	check "SIGTERM (systemctl stop): the daemon exits 0 (status $st)" test "$st" -eq 0
	rmdir "/run/$rt" 2> /dev/null || rm -rf "/run/$rt"
	check "dpkg --purge both" dpkg --purge ibrouter-osm-plugin ibrouter
	installed=no
	check "... leaves no file behind" sh -c \
		"for f in /usr/sbin/ibrouterd $U /etc/ibrouter /usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libibrouter-osm.so; do
			[ ! -e \"\$f\" ] || { echo \"\$f is left\"; exit 1; }; done"
	check "... and ld.so no longer lists the plugin" sh -c "! ldconfig -p | grep -q 'libibrouter-osm.so '"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
