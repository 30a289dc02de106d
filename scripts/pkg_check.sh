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
# systemd-analyze, its sandbox measured with systemd-analyze security, and its
# ExecStartPre, ExecStart and ExecReload lines are run as systemd would, as its
# User= with its groups, limits and umask, no capability, in its
# RuntimeDirectory), forwards, reloads and captures there, then purges them and checks that
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
# a root without /run (a container's) gets it for the unit's RuntimeDirectory: removed after
run_made=no
[ -d /run ] || run_made=yes
cleanup() {
	[ -n "$xpid" ] && kill "$xpid" 2> /dev/null
	[ -n "$pid" ] && kill "$pid" 2> /dev/null
	[ "$installed" = yes ] && dpkg --purge ibrouter-osm-plugin ibrouter > /dev/null 2>&1
	[ "$installed" = yes ] && rmdir /run/ibrouter 2> /dev/null
	[ "$run_made" = yes ] && rmdir /run 2> /dev/null
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

# systemd-analyze makes /run/systemd: it cannot run where the root has no
# /run (a container's); a skip says so, it is no pass
sa_skip=
if ! command -v systemd-analyze > /dev/null; then
	sa_skip="no systemd-analyze here"
elif [ ! -d /run ]; then
	sa_skip="this machine has no /run, which systemd-analyze needs"
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
	if [ -z "$sa_skip" ]; then
		check "systemd-analyze verify of the installed unit: no complaint" sh -c \
			"systemd-analyze verify --man=no '$U' > '$W/sa' 2>&1; st=\$?; cat '$W/sa'; [ \$st -eq 0 ] && [ ! -s '$W/sa' ]"
	else
		skipped "systemd-analyze verify: $sa_skip"
	fi
	# what the unit runs the daemon as, and within (systemd's reading of these keys)
	uval() { sed -n "s/^$1=//p" "$U" | tail -1; }
	user=$(uval User) group=$(uval Group) supp=$(uval SupplementaryGroups)
	um=$(uval UMask) memlock=$(uval LimitMEMLOCK) nofile=$(uval LimitNOFILE)
	[ "$memlock" = infinity ] && memlock=unlimited
	# a hard limit root may not raise (a container without CAP_SYS_RESOURCE): as high as it goes
	if ! prlimit --memlock="$memlock" true 2> /dev/null; then
		echo "# LimitMEMLOCK=$(uval LimitMEMLOCK): this machine's hard limit is $(ulimit -H -l) kB, the daemon runs with that"
		memlock=$(($(ulimit -H -l) * 1024))
	fi
	check "the unit runs the daemon as $user:$group, also in $supp, no capability" sh -c \
		"[ -n '$user' ] && [ '$user' != root ] && grep -qx 'CapabilityBoundingSet=' '$U' && grep -qx 'Type=notify' '$U'"
	check "the package made the user $user, in the group $supp (sysusers.d)" sh -c \
		"id -nG '$user' | tr ' ' '\n' | grep -qx '$supp' && test -f /usr/lib/sysusers.d/ibrouter.conf"
	check "the udev rule gives the MAD devices to $supp" \
		grep -q "KERNEL==\"umad\*\", GROUP=\"$supp\", MODE=\"0660\"" /lib/udev/rules.d/60-ibrouter-umad.rules
	# the sandbox, as systemd-analyze measures it (0 best, 10 worst): at most 3.0 and 2.0
	exposure() { systemd-analyze security --offline=true "$1" 2> /dev/null |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p'; }
	X=/lib/systemd/system/ibrouter-exporter.service
	if [ -n "$sa_skip" ]; then
		skipped "systemd-analyze security: $sa_skip"
	elif systemd-analyze security --help 2> /dev/null | grep -q -- --offline; then
		e=$(exposure "$U")
		echo "# systemd-analyze security --offline=true: ibrouterd.service $e, ibrouter-exporter.service $(exposure "$X")"
		check "ibrouterd.service's exposure ($e) is at most 3.0" awk -v x="$e" 'BEGIN { exit !(x != "" && x <= 3.0) }'
		e=$(exposure "$X")
		check "ibrouter-exporter.service's exposure ($e) is at most 2.0" awk -v x="$e" 'BEGIN { exit !(x != "" && x <= 2.0) }'
	else
		skipped "systemd-analyze security --offline: this systemd has none (252 or later)"
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
	# as_unit CMD...: as the unit's user and groups, with its limits and umask, no capability
	as_unit() {
		prlimit --memlock="$memlock" --nofile="$nofile:$nofile" -- \
			setpriv --reuid="$user" --regid="$group" --groups="$supp" --inh-caps=-all \
			--bounding-set=-all --no-new-privs -- sh -c "umask $um; exec \"\$@\"" sh "$@"
	}
	echo "# as systemd would: RuntimeDirectory /run/$rt ($user's), then as $user: $pre, then $start"
	mkdir -p "/run/$rt"
	chown "$user:$group" "/run/$rt"
	chmod "$(uval RuntimeDirectoryMode)" "/run/$rt"
	check "ExecStartPre as $user: $pre" as_unit $pre
	# the same as a command, not a function: in the background, $! is then the daemon itself
	# (a function would run in a forked shell, which the kill below would hit)
	prlimit --memlock="$memlock" --nofile="$nofile:$nofile" -- \
		setpriv --reuid="$user" --regid="$group" --groups="$supp" --inh-caps=-all \
		--bounding-set=-all --no-new-privs -- sh -c "umask $um; exec $start" > "$W/daemon.log" 2>&1 &
	pid=$!
	check "ExecStart: the daemon answers on its control socket" sh -c \
		"for i in \$(seq 100); do /usr/sbin/ibrouterctl show ports > '$W/ports' 2>&1 && break; sleep 0.1; done
		cat '$W/ports'; grep -q '^a ' '$W/ports' && grep -q '^b ' '$W/ports'"
	check "... running as $user, in $supp, with no capability" sh -c \
		"awk '\$1 == \"Uid:\" { print \$2, \$3 }' /proc/$pid/status | grep -qx \"\$(id -u $user) \$(id -u $user)\" &&
		awk '\$1 == \"Groups:\"' /proc/$pid/status | grep -qw \"\$(getent group $supp | cut -d: -f3)\" &&
		awk '\$1 == \"CapEff:\" { print \$2 }' /proc/$pid/status | grep -qx 0000000000000000"
	# the example config's two sim subnets: a host in each, their sockets beside the router's
	HOSTB=/usr/sbin/ibrouter-host
	(umask 0; exec "$HOSTB" -s "/run/$rt/b.peer" recv -q -c 20 -t 5000 --expect-count 20 \
		--expect-dlid 5 --expect-slid 0x10 > "$W/recv.out" 2>&1) &
	rpid=$!
	for i in $(seq 50); do [ -S "/run/$rt/b.peer" ] && break; sleep 0.1; done
	(umask 0; exec "$HOSTB" -s "/run/$rt/a.peer" -p "/run/$rt/a.sock" send -q --slid 3 --dlid 1 \
		--sgid fec0::1:0:0:10:1 --dgid fec0::2:0:0:11:1 -c 20)
	wait "$rpid"
	check "it forwards as $user: 20 packets from subnet A to B" sh -c "[ $? -eq 0 ] || { cat '$W/recv.out'; exit 1; }"
	check "a capture through the descriptor ibrouterctl passes, written by $user" sh -c \
		"/usr/sbin/ibrouterctl capture start a '$W/cap.pcap' all count 3 &&
		(umask 0; '$HOSTB' -s '/run/$rt/a.peer' -p '/run/$rt/a.sock' send -q --slid 3 --dlid 1 \
			--sgid fec0::1:0:0:10:1 --dgid fec0::2:0:0:11:1 -c 3) &&
		for i in \$(seq 50); do [ \$(stat -c %s '$W/cap.pcap') -gt 24 ] && break; sleep 0.1; done;
		/usr/sbin/ibrouterctl capture stop; [ \$(stat -c %s '$W/cap.pcap') -gt 24 ]"
	# the exporter as its unit starts it, at its default address, on the daemon's default socket
	X=/lib/systemd/system/ibrouter-exporter.service
	xstart=$(sed -n 's/^ExecStart=//p' "$X")
	if [ -z "$sa_skip" ]; then
		check "systemd-analyze verify of the installed exporter unit: no complaint" sh -c \
			"systemd-analyze verify --man=no '$X' > '$W/sa' 2>&1; st=\$?; cat '$W/sa'; [ \$st -eq 0 ] && [ ! -s '$W/sa' ]"
	else
		skipped "systemd-analyze verify of the installed exporter unit: $sa_skip"
	fi
	# as its unit would: a user of its own (DynamicUser: uid 65534 here), in the group ibrouter
	xsupp=$(sed -n 's/^SupplementaryGroups=//p' "$X")
	setpriv --reuid=65534 --regid=65534 --groups="$xsupp" --inh-caps=-all --bounding-set=-all \
		--no-new-privs -- $xstart 2> "$W/exporter.log" &
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
	as_unit $reload
	rst=$?
	check "ExecReload as $user ($reload): the daemon reloads and stays up" sh -c \
		"[ $rst -eq 0 ] && sleep 0.5 && kill -0 $pid && /usr/sbin/ibrouterctl show ports > /dev/null && grep -q 'reloaded /etc/ibrouter/ibrouterd.conf' '$W/daemon.log' ||
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
